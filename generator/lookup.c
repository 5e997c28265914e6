// SPDX-License-Identifier: GPL-2.0
/*
 * Numbers back to commands on one ABI: a sorted table of every number a
 * command can carry (families expanded over their nr range) without its size
 * bits, then a binary search.  Families whose size the caller gives match any
 * size.
 */
#include <stdlib.h>

#include "ioctlgen.h"

struct entry {
	uint32_t key;		/* the number with its size bits cleared */
	uint32_t size;
	bool variable;
	unsigned int nr_arg;
	const struct command *cmd;
};

struct lookup {
	const struct layout *layout;
	uint32_t size_field;	/* mask of the size bits in place */
	struct entry *v;
	size_t n;
};

static int entry_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	/* spec order: headers are one array, a header's commands another */
	if (a->cmd->header != b->cmd->header)
		return a->cmd->header < b->cmd->header ? -1 : 1;
	return a->cmd < b->cmd ? -1 : a->cmd > b->cmd;
}

struct lookup *lookup_build(const struct registry *reg, size_t k)
{
	struct lookup *lk = xrealloc(NULL, sizeof(*lk));
	const struct layout *l = reg->abis[k].layout;
	size_t cap = 0;

	lk->layout = l;
	lk->size_field = l ? layout_max_size(l) << layout_size_shift(l) : 0;
	lk->v = NULL;
	lk->n = 0;
	for (size_t h = 0; l && h < reg->n_headers; h++) {
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			const struct command *c = &reg->headers[h].commands[i];
			const struct abi_number *num = c->numbers ? &c->numbers[k] : NULL;

			if (!num || !num->present)
				continue;
			grow(&lk->v, &cap, lk->n + c->nr_count, sizeof(*lk->v));
			for (unsigned int a = 0; a < c->nr_count; a++) {
				/* Split the number the macros make, as lookup_find()
				 * splits a query: an accepted size-overflow spills
				 * into the dir bits and must be found as it is. */
				uint32_t n = layout_encode(l, c->dir, c->magic, c->nr + a, num->size);

				lk->v[lk->n++] = (struct entry){
					n & ~lk->size_field,
					(n & lk->size_field) >> layout_size_shift(l),
					num->variable_size, a, c };
			}
		}
	}
	if (lk->n)
		qsort(lk->v, lk->n, sizeof(*lk->v), entry_cmp);
	return lk;
}

size_t lookup_find(const struct lookup *lk, uint32_t number, struct lookup_hit *hits, size_t max)
{
	uint32_t key = number & ~lk->size_field;
	uint32_t size = (number & lk->size_field) >> (lk->layout ? layout_size_shift(lk->layout) : 0);
	size_t lo = 0, hi = lk->n, found = 0;

	while (lo < hi) {	/* first entry with entry.key >= key */
		size_t mid = lo + (hi - lo) / 2;

		if (lk->v[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < lk->n && lk->v[i].key == key; i++) {
		const struct entry *e = &lk->v[i];

		if (!e->variable && e->size != size)
			continue;
		if (found < max)
			hits[found] = (struct lookup_hit){ e->cmd, e->nr_arg, size };
		found++;
	}
	return found;
}

void lookup_free(struct lookup *lk)
{
	if (!lk)
		return;
	free(lk->v);
	free(lk);
}
