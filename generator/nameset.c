// SPDX-License-Identifier: GPL-2.0
/* A hashed set of names (nameset.h): open addressing, kept at most half full. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nameset.h"
#include "util.h"

/* A hash of s[0..n), eight bytes a step: FNV a byte at a time was most
 * of the cost of the check's lookups. */
static uint64_t hash_of(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
	return h ^ h >> 29;
}

static size_t slot_of(const struct nameset *set, const char *s, size_t n)
{
	for (size_t i = (size_t)hash_of(s, n) & (set->cap - 1);; i = (i + 1) & (set->cap - 1))
		if (!set->slot[i].s || (set->slot[i].n == n && !memcmp(set->slot[i].s, s, n)))
			return i;
}

void nameset_add(struct nameset *set, const char *s, size_t n)
{
	size_t i;

	if (2 * (set->count + 1) > set->cap) {
		struct nameset old = *set;

		set->cap = old.cap ? 2 * old.cap : 256;
		set->slot = xrealloc(NULL, set->cap * sizeof(*set->slot));
		memset(set->slot, 0, set->cap * sizeof(*set->slot));
		for (size_t k = 0; k < old.cap; k++)
			if (old.slot[k].s)
				set->slot[slot_of(set, old.slot[k].s, old.slot[k].n)] = old.slot[k];
		free(old.slot);
	}
	i = slot_of(set, s, n);
	if (!set->slot[i].s) {
		set->slot[i] = (struct nameset_slot){ s, n };
		set->count++;
	}
}

bool nameset_has(const struct nameset *set, const char *s, size_t n)
{
	return set->cap && set->slot[slot_of(set, s, n)].s;
}

void nameset_release(struct nameset *set)
{
	free(set->slot);
	*set = (struct nameset){ 0 };
}
