/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of spec fields (spec_table.c): for each kind of spec file
 * its mappings, each key with its required flag, its shape and the grammar
 * its text follows.  It drives the key check of every mapping
 * (check_keys()), the grammar walk (spec_grammar.c), the choice of loader
 * for a file (spec_kind_of()) and the list tests/schema-fields.py holds
 * the JSON Schemas against.  Internal to spec*.c.
 */
#ifndef IOCTLGEN_SPEC_TABLE_H
#define IOCTLGEN_SPEC_TABLE_H

#include <stdbool.h>

#include "grammar.h"

struct loader;
struct ynode;

#define G_LOADER G_GRAMMARS		/* the loader reads it strictly */
#define G_UNLISTED (G_GRAMMARS + 1)	/* a mapping's values that are no text */

enum field_shape {
	F_TEXT,		/* one value: key */
	F_LIST,		/* a list of values: key[] */
	F_ENTRIES,	/* a list of mappings, each with fields sub: key[].sub */
	F_MAPPING,	/* one mapping with fields sub: key.sub */
	F_KEYED,	/* a mapping of text keys (key{}, grammar g) to values (key{:}, value_g) */
};

/* The forms of a command entry: built with the _IO* macros, or spelled as
 * a plain number or another command's name (spec_header.c). */
enum field_form { FORM_ANY = 0, FORM_IOC = 1, FORM_PLAIN = 2 };

/* Where the loader says it better than the grammar, which then stays
 * silent: a size where a type belongs, spell-as: bad, a name that is no
 * identifier (the grammar adds only C keywords). */
enum field_defer { DEFER_NONE, DEFER_IDENT, DEFER_SPELL_AS, DEFER_WRITTEN, DEFER_TYPE };

struct field {
	const char *key;	/* NULL ends a table */
	bool required;
	enum field_shape shape;
	unsigned int g;		/* enum grammar, or G_LOADER; F_KEYED: the keys' */
	unsigned int value_g;	/* F_KEYED: the values' grammar, G_LOADER or G_UNLISTED */
	const struct field *sub;	/* F_ENTRIES, F_MAPPING */
	unsigned char forms;	/* the forms of an entry that have it; FORM_ANY: all */
	bool io_macro;		/* one of the _IO* macro's fields, which no plain number has */
	enum field_defer defer;
};

/* Does form (FORM_ANY: any) of the mapping have field f? */
static inline bool field_in_form(const struct field *f, unsigned int form)
{
	return !f->forms || !form || (f->forms & form);
}

/* The field called key of table, or NULL. */
const struct field *field_named(const struct field *table, const char *key);

/* The mappings of the spec files, each a table */
extern const struct field versions_top[], version_fields[];
extern const struct field layouts_top[], layout_fields[];
extern const struct field abis_top[], abi_fields[];
extern const struct field magic_top[], magic_fields[];
extern const struct field sizes_top[];
extern const struct field header_top[], command_fields[], legacy_fields[], variant_fields[];
extern const struct field typedef_fields[], type_fields[], member_fields[], named_value_fields[];

/* A kind of spec file: the path it is found at, its top mapping, its loader. */
struct spec_kind {
	const char *path;	/* a file name, or a directory ("headers/") for each file below it */
	const struct field *top;
	void (*load)(struct loader *L, const struct ynode *root);
	/* NULL, or whether a file below the directory is one (sizes/: one level at most) */
	bool (*path_ok)(const char *rel);
};

extern const struct spec_kind spec_kinds[];
extern const size_t n_spec_kinds;
/* The kind of the spec file at rel (its path in the spec directory), or NULL. */
const struct spec_kind *spec_kind_of(const char *rel);

#endif
