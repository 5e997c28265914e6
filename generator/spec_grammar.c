// SPDX-License-Identifier: GPL-2.0
/*
 * The walk that checks a parsed spec file against the grammars its table
 * of fields (spec_table.c) gives, in one pass over the file: each key of
 * a mapping is looked up in the mapping's table.  Values that are no
 * string are left to the loaders, which report them, and so are the
 * fields the table gives to the loaders (G_LOADER).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "spec_guard.h"

static bool loader_says(enum field_defer d, const char *s)
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

/* Texts this long are docs and nearly all unique: remembering them cost
 * as much as checking them again would. */
#define SEEN_MAX_LEN 64

/* Where the walk is: the fields from the top of the file down, for the
 * path a message names ("commands[].legacy.written"). */
struct trail {
	const struct trail *up;
	const struct field *f;
};

static void trail_path(struct strbuf *sb, const struct trail *t)
{
	if (t->up) {
		trail_path(sb, t->up);
		sb_putc(sb, '.');
	}
	sb_puts(sb, t->f->key);
	if (t->f->shape == F_ENTRIES)	/* a leaf's own suffix ("[]", "{}") is the caller's */
		sb_lit(sb, "[]");
}

static void check_text(struct loader *L, const struct trail *t, unsigned int g,
		       const char *suffix, const struct ynode *n)
{
	bool memo;
	char buf[160];
	const char *why;
	struct strbuf path = { 0 };
	size_t at;

	if (n->kind != Y_SCALAR || scalar_kind(n) != SK_STR || loader_says(t->f->defer, n->str))
		return;
	memo = n->len < SEEN_MAX_LEN;
	if (memo && nameset_has(&L->seen[g], n->str, n->len))
		return;
	if (!(why = grammar_check(g, n->str, &at, buf, sizeof(buf)))) {
		if (memo)	/* the text lives in the registry's arena, as the set does */
			nameset_add(&L->seen[g], n->str, n->len);
		return;
	}
	trail_path(&path, t);
	LOAD_ERR(L, n->mark, "grammar", "'%s%s' is no %s: at character %zu, %s", path.buf, suffix,
	    grammar_names[g], at + 1, why);
	sb_release(&path);
}

static void walk(struct loader *L, const struct trail *up, const struct field *table,
		 const struct ynode *map)
{
	for (size_t i = 0; map->kind == Y_MAP && i < ymap_len(map); i++) {
		const struct field *f = field_named(table, ymap_key(map, i)->str);
		const struct ynode *v = ymap_value(map, i);
		struct trail t = { up, f };

		if (!f)
			continue;	/* check_keys() reports it */
		switch (f->shape) {
		case F_TEXT:
			if (f->g != G_LOADER)
				check_text(L, &t, f->g, "", v);
			break;
		case F_LIST:
			for (size_t k = 0; f->g != G_LOADER && v->kind == Y_SEQ && k < v->n; k++)
				check_text(L, &t, f->g, "[]", v->kids[k]);
			break;
		case F_ENTRIES:
			for (size_t k = 0; v->kind == Y_SEQ && k < v->n; k++)
				walk(L, &t, f->sub, v->kids[k]);
			break;
		case F_MAPPING:
			walk(L, &t, f->sub, v);
			break;
		case F_KEYED:
			for (size_t k = 0; v->kind == Y_MAP && k < ymap_len(v); k++) {
				if (f->g < G_GRAMMARS)
					check_text(L, &t, f->g, "{}", ymap_key(v, k));
				if (f->value_g < G_GRAMMARS)
					check_text(L, &t, f->value_g, "{:}", ymap_value(v, k));
			}
			break;
		}
	}
}

void spec_check_grammar(struct loader *L, const struct field *top, const struct ynode *root)
{
	walk(L, NULL, top, root);
}

/* ------------------------------------------------------------ the table as paths */

struct each {
	void (*fn)(void *ctx, const char *file, const char *path, const char *grammar);
	void *ctx;
	const char *file;
};

static const char *grammar_word(unsigned int g)
{
	return g < G_GRAMMARS ? grammar_names[g] : "loader";
}

static void each_field(const struct each *e, const char *prefix, const struct field *table)
{
	for (const struct field *f = table; f->key; f++) {
		/* room for the longest suffix, "{:}" or "[]." */
		char *path = xrealloc(NULL, strlen(prefix) + strlen(f->key) + 4);

		strcat(strcpy(path, prefix), f->key);
		switch (f->shape) {
		case F_TEXT:
			e->fn(e->ctx, e->file, path, grammar_word(f->g));
			break;
		case F_LIST:
			e->fn(e->ctx, e->file, strcat(path, "[]"), grammar_word(f->g));
			break;
		case F_ENTRIES:
			each_field(e, strcat(path, "[]."), f->sub);
			break;
		case F_MAPPING:
			each_field(e, strcat(path, "."), f->sub);
			break;
		case F_KEYED:
			e->fn(e->ctx, e->file, strcat(path, "{}"), grammar_word(f->g));
			if (f->value_g != G_UNLISTED) {
				strcpy(path + strlen(path) - 2, "{:}");
				e->fn(e->ctx, e->file, path, grammar_word(f->value_g));
			}
			break;
		}
		free(path);
	}
}

/* Every field of every kind of spec file, for tests/schema-fields.py: the
 * JSON Schemas must name the same fields. */
void spec_fields_each(void (*fn)(void *ctx, const char *file, const char *path,
				 const char *grammar), void *ctx)
{
	for (size_t k = 0; k < n_spec_kinds; k++) {
		struct each e = { fn, ctx, spec_kinds[k].path };

		each_field(&e, "", spec_kinds[k].top);
	}
}
