// SPDX-License-Identifier: GPL-2.0
/*
 * Names: layouts and ABIs once each; a command's name once per header and
 * with one number per ABI; alias-of chains that end, and aliases that
 * carry their target's numbers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "suggest.h"

struct named {
	const char *name;
	struct mark mark;
};

static int named_cmp(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	c = strcmp(a->mark.file, b->mark.file);
	if (c)
		return c;
	return a->mark.line < b->mark.line ? -1 : a->mark.line > b->mark.line;
}

static void check_unique(struct registry *reg, struct named *v, size_t n, const char *what)
{
	qsort(v, n, sizeof(*v), named_cmp);
	for (size_t i = 1, first = 0; i < n; i++) {
		if (strcmp(v[i].name, v[first].name)) {
			first = i;
			continue;
		}
		ERR(reg, v[i].mark, "duplicate-name", "%s '%s' is already defined at %s:%u:%u", what,
		    v[i].name, v[first].mark.file, v[first].mark.line, v[first].mark.col);
	}
}

void check_names(struct registry *reg)
{
	size_t k = 0;
	struct named *v = xrealloc(NULL, (reg->n_layouts + reg->n_abis + 1) * sizeof(*v));

	for (size_t i = 0; i < reg->n_layouts; i++)
		v[k++] = (struct named){ reg->layouts[i].name, reg->layouts[i].mark };
	check_unique(reg, v, k, "layout");
	k = 0;
	for (size_t i = 0; i < reg->n_abis; i++)
		v[k++] = (struct named){ reg->abis[i].name, reg->abis[i].mark };
	check_unique(reg, v, k, "ABI");
	free(v);
}

/*
 * A name may stand in several headers: per-arch variants (asm/ioctls.h) that
 * never meet on one ABI, or identical redefinitions, which C allows.  It is
 * an error twice in one header, or when two definitions give one ABI two
 * different numbers.
 */
void check_command_names(struct registry *reg, const struct command **v, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && !strcmp(v[j]->name, v[i]->name))
			j++;
		for (size_t b = i + 1; b < j; b++) {
			const struct command *y = v[b];

			for (size_t a = i; a < b; a++) {
				const struct command *x = v[a];
				size_t k;

				if (x->header == y->header) {
					CMD_ERR(reg, y, y->mark, "duplicate-name",
					    "command '%s' is already defined at %s:%u:%u", y->name,
					    x->mark.file, x->mark.line, x->mark.col);
					break;
				}
				for (k = 0; k < reg->n_abis; k++)
					if (x->numbers && y->numbers && x->numbers[k].present &&
					    y->numbers[k].present && x->numbers[k].number != y->numbers[k].number)
						break;
				if (k < reg->n_abis) {
					CMD_ERR(reg, y, y->mark, "duplicate-name",
					    "command '%s' is also defined at %s:%u:%u, with another number on %s (0x%08x, here 0x%08x)",
					    y->name, x->mark.file, x->mark.line, x->mark.col, reg->abis[k].name,
					    x->numbers[k].number, y->numbers[k].number);
					break;
				}
			}
		}
		i = j;
	}
}

/*
 * The end of the alias-of chain from c (alias_of: c's own, or a variant's),
 * or NULL when the chain is broken (reported).  Every name in the chain has
 * one alias-of (names in several headers agree, or check_command_names says
 * so).
 */
static const char *alias_root(struct registry *reg, const struct command **v, size_t n,
			      struct command *c, const char *alias_of, struct mark mark)
{
	const char *at = c->name;
	size_t first, steps = 0;
	struct strbuf path = { 0 };
	bool broken = false;

	if (!find_named(v, n, alias_of, &first)) {
		struct suggest sg;

		suggest_init(&sg, alias_of);
		for (size_t i = 0; i < n; i++)
			if (v[i] != c)
				suggest_try(&sg, v[i]->name);
		CMD_ERR(reg, c, mark, "alias", "'alias-of': %s names no command of the registry%s%s%s",
			alias_of, sg.best ? ": did you mean " : "", sg.best ? sg.best : "",
			sg.best ? "?" : "");
		return NULL;
	}
	sb_printf(&path, "%s", c->name);
	while (!broken) {
		size_t f, k = find_named(v, n, at, &f);
		const char *next = at == c->name ? alias_of : NULL;

		for (size_t x = f; x < f + k && !next; x++)
			next = v[x]->alias_of;
		if (!next || !find_named(v, n, next, &f))
			break;
		sb_printf(&path, " -> %s", next);
		at = next;
		if (!strcmp(at, c->name)) {
			CMD_ERR(reg, c, mark, "alias", "'alias-of' makes a cycle: %s", path.buf);
			broken = true;
		} else if (++steps > n) {
			broken = true;	/* a cycle further on: its members say so */
		}
	}
	sb_release(&path);
	return broken ? NULL : at;
}

/* A command's numbers in known version v, or its one set (v SIZE_MAX). */
static const struct abi_number *numbers_in(const struct command *c, size_t v)
{
	return v == SIZE_MAX ? c->numbers : c->by_version[v];
}

/*
 * Does alias c carry another number than its target t on some ABI where
 * both have one?  In every known version both exist in, oldest first (a
 * target whose struct grew in 6.12 and an alias removed in 6.12 agree in
 * 6.1); with fewer than two known versions, in their one set of numbers.
 * The first difference found: its version (SIZE_MAX: the one set) and ABI.
 */
static bool alias_numbers_differ(const struct registry *reg, const struct command *c,
				 const struct command *t, size_t *version, size_t *abi)
{
	bool versioned = c->by_version && t->by_version;
	size_t first = versioned ? (c->life.first > t->life.first ? c->life.first : t->life.first) : 0;
	size_t end = versioned ? (c->life.end < t->life.end ? c->life.end : t->life.end) : 1;

	if (!c->numbers || !t->numbers)
		return false;
	for (size_t v = first; v < end; v++) {
		size_t at = versioned ? v : SIZE_MAX;
		const struct abi_number *a = numbers_in(c, at), *b = numbers_in(t, at);

		for (size_t k = 0; k < reg->n_abis; k++) {
			if (!a[k].present || !b[k].present)
				continue;
			if (a[k].number != b[k].number || a[k].variable_size != b[k].variable_size) {
				*version = at;
				*abi = k;
				return true;
			}
		}
	}
	return false;
}

/*
 * alias-of: the target must be a command of the registry, the chain of
 * alias-of must end (no cycle), and on every ABI where both exist, in
 * every known version both exist in, the alias must carry the target's
 * numbers (sized only; a command spelled as
 * the name carries them by construction).  alias_root is the end of the
 * chain, the name that stands for the command in collisions.
 */
void check_aliases(struct registry *reg, const struct command **v, size_t n, bool sized)
{

	for_each_command(reg, c)
		c->alias_root = c->name;
	for_each_command(reg, c) {
		const char *root;
		size_t first;

		for (size_t k = 0; k < c->n_variants; k++) {
			struct variant *va = &c->variants[k];

			if (va->alias_of)
				va->alias_root = alias_root(reg, v, n, c, va->alias_of,
							    va->alias_mark);
		}
		if (!c->alias_of || !(root = alias_root(reg, v, n, c, c->alias_of, c->alias_mark)))
			continue;
		c->alias_root = root;
		if (!sized || c->by_name)
			continue;
		find_named(v, n, c->alias_of, &first);
		for (size_t x = first; x < n && !strcmp(v[x]->name, c->alias_of); x++) {
			const struct command *t = v[x];
			size_t ver, abi;

			if (t->nr_count != c->nr_count) {
				CMD_ERR(reg, c, c->alias_mark, "alias",
				    "%s is an alias of %s, but its nr-count is %u and %s's is %u (%s:%u:%u)",
				    c->name, t->name, c->nr_count, t->name, t->nr_count, t->mark.file,
				    t->mark.line, t->mark.col);
				break;
			}
			if (alias_numbers_differ(reg, c, t, &ver, &abi))
				CMD_ERR(reg, c, c->alias_mark, "alias",
				    "%s is an alias of %s, but their numbers differ on %s%s%s: 0x%08x here, 0x%08x at %s:%u:%u",
				    c->name, t->name, reg->abis[abi].name,
				    ver == SIZE_MAX ? "" : " in ", ver == SIZE_MAX ? "" : reg->versions[ver].name,
				    numbers_in(c, ver)[abi].number, numbers_in(t, ver)[abi].number,
				    t->mark.file, t->mark.line, t->mark.col);
		}
	}
}
