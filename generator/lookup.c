// SPDX-License-Identifier: GPL-2.0
/*
 * Numbers back to commands on one ABI: a binary search in the ABI's number
 * table (number_table.c).  Families whose size the caller gives match any
 * size; the hits come in spec order.
 */
#include <stdlib.h>

#include "lookup.h"
#include "numbers.h"

struct lookup {
	struct number_table t;
};

struct lookup *lookup_build(const struct registry *reg, size_t k)
{
	struct lookup *lk = xrealloc(NULL, sizeof(*lk));

	number_table_build(&lk->t, reg, k);
	return lk;
}

/* The first entry at or after (key, size). */
static size_t lower_bound(const struct number_table *t, uint32_t key, uint32_t size)
{
	uint64_t want = (uint64_t)key << 32 | size;
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (((uint64_t)t->v[mid].key << 32 | t->v[mid].size) < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void add_hit(struct lookup_hit *hits, size_t max, size_t *found,
		    const struct number_entry *e, uint32_t size)
{
	if (*found < max)
		hits[*found] = (struct lookup_hit){ e->cmd, e->versions, e->nr_arg, size };
	(*found)++;
}

static int spec_cmp(const struct number_entry *a, const struct number_entry *b)
{
	int c = command_spec_order(a->cmd, b->cmd);

	return c ? c : a->nr_arg < b->nr_arg ? -1 : a->nr_arg > b->nr_arg;
}

size_t lookup_find(const struct lookup *lk, uint32_t number, struct lookup_hit *hits, size_t max)
{
	const struct number_table *t = &lk->t;
	uint32_t key = number & ~t->size_field;
	uint32_t size = (number & t->size_field) >> t->size_shift;
	/* Two runs match, each in spec order: the entries of size 0 (the
	 * variable-size ones among them) and those of this size.  Merge them. */
	size_t a = lower_bound(t, key, 0), a_end = lower_bound(t, key, 1);
	size_t b = size ? lower_bound(t, key, size) : a_end, b_end = b;
	size_t found = 0;

	while (b_end < t->n && t->v[b_end].key == key && t->v[b_end].size == size)
		b_end++;
	for (;;) {
		while (size && a < a_end && !t->v[a].variable)
			a++;
		if (a < a_end && (b == b_end || spec_cmp(&t->v[a], &t->v[b]) < 0))
			add_hit(hits, max, &found, &t->v[a++], size);
		else if (b < b_end)
			add_hit(hits, max, &found, &t->v[b++], size);
		else
			break;
	}
	return found;
}

void lookup_free(struct lookup *lk)
{
	if (!lk)
		return;
	number_table_release(&lk->t);
	free(lk);
}
