/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader's shared parts: its state, typed access to YAML values with
 * diagnostics, and one loader per kind of spec file.  Internal to spec*.c.
 */
#ifndef IOCTLGEN_SPEC_LOAD_H
#define IOCTLGEN_SPEC_LOAD_H

#include "grammar.h"
#include "nameset.h"
#include "parse.h"
#include "registry.h"
#include "spec_table.h"
#include "yamltree.h"

struct loader {
	struct registry *reg;
	struct arena *a;
	struct diags *d;
	struct about about;	/* the header and command being loaded, for findings */
	const char *rel, *file;	/* the file being loaded: its path in the spec directory, and whole */
	/* growable arrays while loading */
	size_t cap_layouts, cap_abis, cap_rows, cap_headers, cap_versions;
	struct sizes_file {
		const char *abi_name;
		const char *version;	/* sizes/<V>/<abi>.yaml: V; NULL for sizes/<abi>.yaml */
		struct size_entry *sizes;
		size_t n;
		struct size_entry *ksizes;	/* kernel-sizes: */
		size_t n_ksizes;
		const char **absent;
		size_t n_absent;
		const char **kcontext;
		size_t n_kcontext;
		const char *file;
		struct mark mark;
	} *sizes;
	size_t n_sizes, cap_sizes;
	/* Texts that followed their grammar, by grammar: the same sizes keys
	 * come back in every ABI's file (spec_grammar.c). */
	struct nameset seen[G_GRAMMARS];
};

/* ------------------------------------------------------------ scalars (spec_scalar.c) */

enum scalar_kind { SK_STR, SK_INT, SK_FLOAT, SK_BOOL, SK_NULL };

extern const char *const kind_names[];

/* How YAML 1.1 (PyYAML, and so the JSON Schema check) reads a plain scalar. */
enum scalar_kind scalar_kind(const struct ynode *n);
/* A scalar's text as written, whatever YAML reads it as; NULL for none. */
const char *scalar_text(const struct ynode *n);

/* ------------------------------------------------------------ typed access (spec_fields.c) */

bool want_kind(struct loader *L, const struct ynode *n, const char *key, enum ykind k);
const char *get_str(struct loader *L, const struct ynode *map, const char *key, struct mark *where);
/* An unsigned integer no larger than max. */
bool node_uint(struct loader *L, const struct ynode *n, const char *key, uint64_t max,
	       uint64_t *out);
bool get_uint(struct loader *L, const struct ynode *map, const char *key, uint64_t max,
	      unsigned int *out);
bool get_bool(struct loader *L, const struct ynode *map, const char *key, bool *out);
/* A list of strings; an absent key is an empty list. */
const char **get_strlist(struct loader *L, const struct ynode *map, const char *key,
			 size_t *count, const struct ynode **node);
/* Unknown and missing keys of one mapping, what its table (spec_table.c)
 * gives for form (FORM_ANY, or a command entry's form).  False when it is
 * no mapping or lacks a required key (reported): skip the entry then. */
bool check_keys(struct loader *L, const struct ynode *map, const char *what,
		const struct field *table, unsigned int form);
unsigned int get_accept(struct loader *L, const struct ynode *map, unsigned int allowed);
/* The list under key in a file's top mapping; NULL (reported) if absent or not a list. */
const struct ynode *get_list(struct loader *L, const struct ynode *root, const char *key);
/* A magic code: a number or a C character literal. */
bool get_magic(struct loader *L, const struct ynode *map, const char *key,
	       unsigned int *code, const char **text, struct mark *where);

/* ------------------------------------------------------------ one file each */

/* since: and removed: of a command or a magic-code row (spec_tables.c) */
bool get_lifetime(struct loader *L, const struct ynode *map, struct lifetime *life);

/* spec_tables.c */
void load_versions(struct loader *L, const struct ynode *root);
void load_layouts(struct loader *L, const struct ynode *root);
void load_abis(struct loader *L, const struct ynode *root);
void load_magic(struct loader *L, const struct ynode *root);
void load_sizes(struct loader *L, const struct ynode *root);
/* spec_types.c: new, constants and types of a header spec */
void load_header_types(struct loader *L, struct header *h, const struct ynode *root);
/* spec_command.c: the parts of a command entry with loaders of their own;
 * the bool ones say whether the part was good */
void load_legacy(struct loader *L, struct command *c, const struct ynode *m);
void get_abi_change(struct loader *L, struct command *c, const struct ynode *m);
void get_new_and_reason(struct loader *L, struct command *c, const struct ynode *m);
void load_variants(struct loader *L, struct command *c, const struct ynode *m);
bool load_unused_params(struct loader *L, struct command *c, const struct ynode *m);
bool load_evidence(struct loader *L, struct command *c, const struct ynode *m);
bool load_size_unit(struct loader *L, struct command *c, const struct ynode *m, bool have_dir);
bool load_size(struct loader *L, struct command *c, const struct ynode *m);
/* spec_header.c */
void load_header(struct loader *L, const struct ynode *root);

#endif
