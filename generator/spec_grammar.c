// SPDX-License-Identifier: GPL-2.0
/*
 * Which grammar each spec field follows (grammar.h), for every kind of spec
 * file, and the walk that checks a parsed file against its table.  Fields
 * the loaders already read strictly (numbers, dir, seq, accept, size, nr-param
 * and size-param, which must name params) are listed as G_LOADER, so that each
 * table names every field.
 * Values that are no string are left to the loaders, which report them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "spec_guard.h"

#define G_LOADER G_GRAMMARS	/* checked where it is loaded */

struct field {
	const char *path;	/* key.key, key[] for each item, key{} for each mapping key,
				 * key{:} for each mapping value */
	enum grammar g;
};

static const struct field layout_fields[] = {
	{ "doc", G_DOC }, { "layouts[].name", G_IDENT }, { "layouts[].doc", G_DOC },
	{ "layouts[].arches[]", G_IDENT }, { "layouts[].headers[]", G_HEADER },
	{ "layouts[].nr-bits", G_LOADER }, { "layouts[].type-bits", G_LOADER },
	{ "layouts[].size-bits", G_LOADER }, { "layouts[].dir-bits", G_LOADER },
	{ "layouts[].none", G_LOADER }, { "layouts[].read", G_LOADER },
	{ "layouts[].write", G_LOADER }, { "layouts[].self-contained", G_LOADER },
	{ "layouts[].xsize-bits", G_LOADER }, { NULL, 0 } };

static const struct field abi_fields[] = {
	{ "doc", G_DOC }, { "abis[].name", G_ABI_NAME }, { "abis[].doc", G_DOC },
	{ "abis[].variant-of", G_ABI_NAME }, { "abis[].layout", G_IDENT }, { "abis[].arch", G_IDENT }, { "abis[].cc", G_PROGRAM },
	{ "abis[].cflags[]", G_CFLAG }, { NULL, 0 } };

static const struct field magic_fields[] = {
	{ "doc", G_DOC }, { "magic-codes[].code", G_LOADER }, { "magic-codes[].seq", G_LOADER },
	{ "magic-codes[].headers[]", G_FILE_REF }, { "magic-codes[].doc", G_DOC },
	{ "magic-codes[].contact", G_LINE }, { "magic-codes[].accept[]", G_LOADER },
	{ "magic-codes[].include-cell[]", G_LINE }, { "magic-codes[].seq-cell[]", G_LINE },
	{ "magic-codes[].since", G_LOADER }, { "magic-codes[].removed", G_LOADER },
	{ "magic-codes[].doc-since{}", G_LOADER }, { "magic-codes[].doc-since{:}", G_DOC },
	{ NULL, 0 } };

static const struct field version_fields[] = {
	{ "doc", G_DOC }, { "versions[].name", G_LOADER }, { "versions[].doc", G_DOC },
	{ NULL, 0 } };

static const struct field header_fields[] = {
	{ "header", G_HEADER }, { "doc", G_DOC }, { "arch", G_IDENT }, { "includes[]", G_HEADER },
	{ "defines[]", G_IDENT }, { "new", G_LOADER }, { "kernel-internal", G_LOADER },
	{ "constants[].name", G_IDENT }, { "constants[].value", G_LOADER },
	{ "constants[].doc", G_DOC }, { "types[].name", G_IDENT }, { "types[].kind", G_LOADER },
	{ "types[].kernel-internal", G_LOADER }, { "types[].doc", G_DOC },
	{ "types[].accept[]", G_LOADER }, { "types[].accept-reason", G_LINE },
	{ "types[].members[].name", G_IDENT }, { "types[].members[].type", G_C_TYPE },
	{ "types[].members[].len", G_LOADER }, { "types[].members[].pad", G_LOADER },
	{ "types[].members[].doc", G_DOC }, { "types[].values[].name", G_IDENT },
	{ "types[].values[].value", G_LOADER }, { "types[].values[].doc", G_DOC },
	{ "header-test", G_LOADER }, { "patch-prefix", G_LINE },
	{ "typedefs[].name", G_IDENT }, { "typedefs[].type", G_C_TYPE },
	{ "typedefs[].doc", G_DOC }, { "stub-includes[]", G_HEADER },
	{ "commands[].name", G_IDENT }, { "commands[].dir", G_LOADER },
	{ "commands[].magic", G_LOADER }, { "commands[].nr", G_LOADER },
	{ "commands[].type", G_C_TYPE }, { "commands[].params[]", G_IDENT },
	{ "commands[].nr-param", G_LOADER }, { "commands[].nr-count", G_LOADER },
	{ "commands[].size-param", G_LOADER }, { "commands[].size-unit", G_C_TYPE },
	{ "commands[].unused-params[]", G_IDENT }, { "commands[].size", G_LOADER },
	{ "commands[].macro", G_LOADER },
	{ "commands[].reserved", G_LOADER }, { "commands[].accept[]", G_LOADER },
	{ "commands[].number", G_LOADER }, { "commands[].passes", G_C_TYPE },
	{ "commands[].alias-of", G_IDENT },
	{ "commands[].since", G_LOADER }, { "commands[].removed", G_LOADER },
	{ "commands[].abi-change", G_LINE }, { "commands[].accept-reason", G_LINE },
	{ "commands[].new", G_LOADER },
	{ "commands[].evidence[]", G_LOADER }, { "commands[].kind", G_LOADER },
	{ "commands[].doc", G_DOC }, { "commands[].variants[].abis[]", G_ABI_NAME },
	{ "commands[].variants[].nr", G_LOADER }, { "commands[].variants[].doc", G_DOC },
	{ "commands[].variants[].alias-of", G_IDENT },
	{ "commands[].legacy.written", G_C_SIZE },
	{ "commands[].legacy.passes", G_C_TYPE }, { "commands[].legacy.spell-as", G_C_TYPE },
	{ "commands[].legacy.doc", G_DOC }, { "commands[].legacy.abi-break", G_LINE },
	{ NULL, 0 } };

static const struct field sizes_fields[] = {
	{ "abi", G_ABI_NAME }, { "doc", G_DOC }, { "sizes{}", G_C_TYPE }, { "absent[]", G_ABSENT },
	{ "kernel-context[]", G_HEADER }, { NULL, 0 } };

/* The loaders say it better: a size where a type belongs, spell-as: bad,
 * a name that is no identifier (here only C keywords are added).  Which
 * rule a field defers to is found once per field, not once per text. */
enum defer { DEFER_NONE, DEFER_IDENT, DEFER_SPELL_AS, DEFER_WRITTEN, DEFER_TYPE };

static enum defer defer_of(const char *path)
{
	if (!strcmp(path, "commands[].name") || !strcmp(path, "commands[].params[]") ||
	    !strcmp(path, "commands[].unused-params[]"))
		return DEFER_IDENT;
	if (!strcmp(path, "commands[].legacy.spell-as"))
		return DEFER_SPELL_AS;
	if (!strcmp(path, "commands[].legacy.written"))
		return DEFER_WRITTEN;
	if (!strcmp(path, "commands[].type") || !strcmp(path, "commands[].size-unit") ||
	    !strcmp(path, "commands[].passes") || !strcmp(path, "typedefs[].type"))
		return DEFER_TYPE;
	return DEFER_NONE;
}

static bool loader_says(enum defer d, const char *s)
{
	switch (d) {
	case DEFER_IDENT:
		return !is_identifier(s);
	case DEFER_SPELL_AS:
		return !strcmp(s, "bad") || is_sizeof(s) || is_number(s);
	case DEFER_WRITTEN:
		return !legacy_written_type(s);
	case DEFER_TYPE:
		return is_sizeof(s) || is_number(s);
	case DEFER_NONE:
		break;
	}
	return false;
}

static size_t seen_slot(const struct loader *L, unsigned int g, const char *s)
{
	uint64_t h = 1469598103934665603u ^ g;	/* FNV-1a */

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		h = (h ^ *p) * 1099511628211u;
	for (size_t i = (size_t)h & (L->cap_seen - 1);; i = (i + 1) & (L->cap_seen - 1))
		if (!L->seen[i].s || (L->seen[i].g == g && !strcmp(L->seen[i].s, s)))
			return i;
}

/* Has s followed grammar g already?  Else remember that it does now. */
static bool seen_before(struct loader *L, unsigned int g, const char *s)
{
	size_t i;

	if (L->n_seen * 2 >= L->cap_seen) {
		struct grammar_seen *old = L->seen;
		size_t n = L->cap_seen;

		L->cap_seen = n ? 2 * n : 1024;
		L->seen = xrealloc(NULL, L->cap_seen * sizeof(*L->seen));
		memset(L->seen, 0, L->cap_seen * sizeof(*L->seen));
		for (size_t k = 0; k < n; k++)
			if (old[k].s)
				L->seen[seen_slot(L, old[k].g, old[k].s)] = old[k];
		free(old);
	}
	i = seen_slot(L, g, s);
	return L->seen[i].s != NULL;
}

static void remember(struct loader *L, unsigned int g, const char *s)
{
	size_t i = seen_slot(L, g, s);

	L->seen[i] = (struct grammar_seen){ arena_strdup(L->a, s), g };
	L->n_seen++;
}

/* Texts this long are docs and nearly all unique: remembering them cost
 * as much as checking them again would. */
#define SEEN_MAX_LEN 64

static void check_text(struct loader *L, const struct field *f, enum defer d, const struct ynode *n)
{
	bool memo;
	char buf[160];
	const char *why;
	size_t at;

	if (n->kind != Y_SCALAR || scalar_kind(n) != SK_STR || loader_says(d, n->str))
		return;
	memo = n->len < SEEN_MAX_LEN;
	if (memo && seen_before(L, f->g, n->str))
		return;
	if (!(why = grammar_check(f->g, n->str, &at, buf, sizeof(buf)))) {
		if (memo)
			remember(L, f->g, n->str);
		return;
	}
	LOAD_ERR(L, n->mark, "grammar", "'%s' is no %s: at character %zu, %s", f->path,
	    grammar_names[f->g], at + 1, why);
}

/* Follow path (the rest of f->path) from n to the scalars it names. */
static void visit(struct loader *L, const struct field *f, enum defer d, const char *path,
		  const struct ynode *n)
{
	size_t len = strcspn(path, ".[{");
	const char *rest = path + len;
	char key[64];
	const struct ynode *v;

	if (len >= sizeof(key) || n->kind != Y_MAP)
		return;
	memcpy(key, path, len);
	key[len] = '\0';
	if (!(v = ymap_get(n, key)))
		return;
	if (!strncmp(rest, "{}", 2)) {
		for (size_t i = 0; v->kind == Y_MAP && i < ymap_len(v); i++)
			check_text(L, f, d, ymap_key(v, i));
		return;
	}
	if (!strncmp(rest, "{:}", 3)) {
		for (size_t i = 0; v->kind == Y_MAP && i < ymap_len(v); i++)
			check_text(L, f, d, ymap_value(v, i));
		return;
	}
	if (!strncmp(rest, "[]", 2)) {
		rest += 2;
		for (size_t i = 0; v->kind == Y_SEQ && i < v->n; i++) {
			if (*rest == '.')
				visit(L, f, d, rest + 1, v->kids[i]);
			else
				check_text(L, f, d, v->kids[i]);
		}
		return;
	}
	if (*rest == '.')
		visit(L, f, d, rest + 1, v);
	else
		check_text(L, f, d, v);
}

/* Every field of every kind of spec file, for tests/schema-fields.py: the
 * JSON Schemas must name the same fields. */
void spec_fields_each(void (*fn)(void *ctx, const char *file, const char *path,
				 const char *grammar), void *ctx)
{
	static const struct {
		const char *file;
		const struct field *table;
	} kinds[] = {
		{ "layouts.yaml", layout_fields }, { "abis.yaml", abi_fields },
		{ "magic.yaml", magic_fields }, { "versions.yaml", version_fields },
		{ "headers/", header_fields }, { "sizes/", sizes_fields },
	};

	for (size_t k = 0; k < sizeof(kinds) / sizeof(*kinds); k++)
		for (const struct field *f = kinds[k].table; f->path; f++)
			fn(ctx, kinds[k].file, f->path,
			   f->g == G_LOADER ? "loader" : grammar_names[f->g]);
}

void spec_check_grammar(struct loader *L, const char *rel, const struct ynode *root)
{
	const struct field *table =
		!strcmp(rel, "layouts.yaml") ? layout_fields :
		!strcmp(rel, "abis.yaml") ? abi_fields :
		!strcmp(rel, "magic.yaml") ? magic_fields :
		!strcmp(rel, "versions.yaml") ? version_fields :
		!strncmp(rel, "headers/", 8) ? header_fields :
		!strncmp(rel, "sizes/", 6) ? sizes_fields : NULL;

	for (const struct field *f = table; f && f->path; f++)
		if (f->g != G_LOADER)
			visit(L, f, defer_of(f->path), f->path, root);
}
