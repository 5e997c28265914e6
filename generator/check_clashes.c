// SPDX-License-Identifier: GPL-2.0
/*
 * Clashes of new commands (those the series adds: command_is_new()).  A new
 * command must not take a (magic, nr) that another command has on any ABI
 * in any known version, whatever its size or direction, nor its exact
 * number: that is an error on the new command's entry, naming the other,
 * unless the entry accepts shared-number and says why (accept-reason).  The
 * kernel's own shared numbers stay the warnings of collisions.c.
 *
 * The ABIs' number tables are scanned as collisions.c builds them, so the
 * check costs no table of its own; a registry without new commands costs
 * one pass over its commands.
 */
#include <stdlib.h>
#include <string.h>

#include "numbers.h"
#include "rules.h"

struct clash {
	const struct command *c, *other;
	const struct abi *first_abi;	/* the first ABI it was seen on */
	size_t n_abis;
	const struct abi *last_abi;
	uint64_t versions;
	bool exact;			/* the very same number somewhere */
};

struct clashes {
	struct clash *v;
	size_t n, cap;
	size_t *order;			/* scratch: entry indexes by magic and nr */
	size_t order_cap;
};

bool registry_has_new_commands(const struct registry *reg)
{
	for_each_command(reg, c)
		if (command_is_new(c))
			return true;
	return false;
}

struct clashes *clashes_new(void)
{
	struct clashes *cl = xrealloc(NULL, sizeof(*cl));

	memset(cl, 0, sizeof(*cl));
	return cl;
}

static struct clash *clash_of(struct clashes *cl, const struct command *c,
			      const struct command *other)
{
	for (size_t i = 0; i < cl->n; i++)
		if (cl->v[i].c == c && cl->v[i].other == other)
			return &cl->v[i];
	if (cl->n == cl->cap) {
		cl->cap = cl->cap ? 2 * cl->cap : 16;
		cl->v = xrealloc(cl->v, cl->cap * sizeof(*cl->v));
	}
	memset(&cl->v[cl->n], 0, sizeof(*cl->v));
	cl->v[cl->n].c = c;
	cl->v[cl->n].other = other;
	return &cl->v[cl->n++];
}

/* The magic code and nr of a number: the low 16 bits on every layout. */
static unsigned int code_nr(const struct number_entry *e)
{
	return e->key & 0xffff;
}

static const struct number_entry *sorted_v;

static int by_code_nr(const void *a, const void *b)
{
	unsigned int x = code_nr(&sorted_v[*(const size_t *)a]);
	unsigned int y = code_nr(&sorted_v[*(const size_t *)b]);

	return x < y ? -1 : x > y;
}

static void note(struct clashes *cl, const struct abi *abi,
		 const struct number_entry *e, const struct number_entry *f, uint64_t both)
{
	struct clash *x;
	bool exact = e->key == f->key && (e->size == f->size || e->variable || f->variable);

	/* two new commands clash once: on the later entry of the spec */
	if (command_is_new(f->cmd) && command_spec_order(e->cmd, f->cmd) < 0)
		return;
	x = clash_of(cl, e->cmd, f->cmd);
	if (x->last_abi != abi) {
		if (!x->n_abis++)
			x->first_abi = abi;
		x->last_abi = abi;
	}
	x->versions |= both;
	x->exact |= exact;
}

/* One ABI's table: every pair of a new command's entry and another
 * command's with the same magic and nr in a version both exist in. */
void clashes_scan(struct clashes *cl, const struct registry *reg, const struct abi *abi,
		  const struct number_table *t)
{
	size_t n = t->n;

	if (n > cl->order_cap) {
		cl->order_cap = n;
		cl->order = xrealloc(cl->order, n * sizeof(*cl->order));
	}
	for (size_t i = 0; i < n; i++)
		cl->order[i] = i;
	sorted_v = t->v;
	qsort(cl->order, n, sizeof(*cl->order), by_code_nr);
	for (size_t i = 0, j; i < n; i = j) {
		bool any_new = false;

		for (j = i; j < n && code_nr(&t->v[cl->order[j]]) == code_nr(&t->v[cl->order[i]]); j++)
			any_new |= command_is_new(t->v[cl->order[j]].cmd);
		if (!any_new || j - i < 2)
			continue;
		for (size_t a = i; a < j; a++) {
			const struct number_entry *e = &t->v[cl->order[a]];

			if (!command_is_new(e->cmd))
				continue;
			for (size_t b = i; b < j; b++) {
				const struct number_entry *f = &t->v[cl->order[b]];
				uint64_t both = reg->n_versions ? e->versions & f->versions : 1;

				if (f->cmd == e->cmd || !both ||
				    !strcmp(command_alias_root_on(e->cmd, abi),
					    command_alias_root_on(f->cmd, abi)))
					continue;
				note(cl, abi, e, f, both);
			}
		}
	}
}

static void versions_text(const struct registry *reg, uint64_t mask, struct strbuf *sb)
{
	const char *sep = " in ";

	for (size_t v = 0; v < reg->n_versions; v++)
		if (mask >> v & 1) {
			sb_printf(sb, "%s%s", sep, reg->versions[v].name);
			sep = ", ";
		}
}

/* One error per clash, on the new command's entry; then free cl. */
void clashes_report(struct registry *reg, struct clashes *cl)
{
	for (size_t i = 0; i < cl->n; i++) {
		const struct clash *x = &cl->v[i];
		const struct command *c = x->c;
		struct strbuf where = { 0 };

		if (x->n_abis == reg->n_abis && x->n_abis > 1)
			sb_printf(&where, "on every ABI");
		else if (x->n_abis > 1)
			sb_printf(&where, "on %zu ABIs (%s ...)", x->n_abis, x->first_abi->name);
		else
			sb_printf(&where, "on %s", x->first_abi->name);
		versions_text(reg, x->versions, &where);
		if ((c->accept & ACCEPT_SHARED_NUMBER) && c->accept_reason) {
			CMD_WARN(reg, c, c->mark, "clash", true, "%s shares %s with %s (%s) %s; accept-reason: %s",
				 c->name, x->exact ? "its number" : "its magic and nr", x->other->name,
				 x->other->header->path, where.buf, c->accept_reason);
		} else if (c->accept & ACCEPT_SHARED_NUMBER) {
			CMD_ERR(reg, c, c->mark, "clash",
				"%s is new and shares %s with %s (%s) %s: a new command accepts that only with an 'accept-reason'",
				c->name, x->exact ? "its number" : "its magic and nr", x->other->name,
				x->other->header->path, where.buf);
		} else {
			CMD_ERR(reg, c, c->mark, "clash",
				"%s is new, and its %s %s %s %s's (%s) %s: take a free nr ('ioctlgen free'), or accept: [shared-number] with an accept-reason",
				c->name, x->exact ? "number" : "magic and nr",
				x->exact ? "is" : "are", x->exact ? "also" : "already",
				x->other->name, x->other->header->path, where.buf);
		}
		sb_release(&where);
	}
	free(cl->v);
	free(cl->order);
	free(cl);
}
