// SPDX-License-Identifier: GPL-2.0
/*
 * Numbers back to commands on one ABI: the hash of the ABI's keys (the
 * number without its size bits) gives the key's run of entries, sorted by
 * size and spec order (generator/number_table.c sorted them).
 * Families whose size the caller gives match any size: two runs match, the
 * entries of size 0 (the variable-size ones among them) and those of the
 * number's size, merged in spec order.  The one lookup of the project:
 * ioctlgen, its tests and fuzzer look numbers up here too
 * (generator/table.c: table_open_registry()).
 */
#include "ioctlreg_int.h"

/* The first entry at or after key (a table without a hash). */
static uint32_t lower_bound(const struct abi_view *t, uint32_t key)
{
	uint32_t lo = 0, hi = t->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The entries of key, [*lo, *hi): from the hash, its slot checked against
 * the ABI's entries (a damaged slot gives none). */
static void key_run(const struct abi_view *t, uint32_t key, uint32_t *lo, uint32_t *hi)
{
	*lo = *hi = 0;
	if (t->slots) {
		const struct tbl_slot *slot = t->slots;
		uint32_t i = tbl_hash(key, t->bits);

		for (uint32_t probes = 0; probes <= t->mask && slot[i].count; probes++, i = (i + 1) & t->mask) {
			if (slot[i].key != key)
				continue;
			if (slot[i].first < t->n && slot[i].count <= t->n - slot[i].first &&
			    t->v[slot[i].first].key == key) {
				*lo = slot[i].first;
				*hi = *lo + slot[i].count;
			}
			return;
		}
		return;
	}
	*lo = *hi = lower_bound(t, key);
	while (*hi < t->n && t->v[*hi].key == key)
		(*hi)++;
}

static uint64_t versions_of(const struct tbl_entry *e)
{
	return (uint64_t)e->versions_hi << 32 | e->versions_lo;
}

/* Does the entry hold in version v (any for IOCTLREG_ANY_VERSION)? */
static bool in_version(const struct ioctlreg *r, const struct tbl_entry *e, int v)
{
	return v < 0 || !r->n_versions || (versions_of(e) >> v & 1);
}

static void add_hit(struct ioctlreg_hit *hits, size_t max, size_t *found,
		    const struct tbl_entry *e, uint32_t size)
{
	if (*found < max)
		hits[*found] = (struct ioctlreg_hit){ e->command & ~TBL_ENTRY_VARIABLE, versions_of(e),
						      e->nr_arg, size };
	(*found)++;
}

/* Spec order: the command's index, then the family member. */
static bool before(const struct tbl_entry *a, const struct tbl_entry *b)
{
	uint32_t ca = a->command & ~TBL_ENTRY_VARIABLE, cb = b->command & ~TBL_ENTRY_VARIABLE;

	return ca != cb ? ca < cb : a->nr_arg < b->nr_arg;
}

size_t ioctlreg_lookup(const struct ioctlreg *r, size_t abi, int v, uint32_t number,
		       struct ioctlreg_hit *hits, size_t max)
{
	const struct abi_view *t;
	uint32_t size, a, a_end, b, b_end, lo, hi;
	size_t found = 0;

	if (abi >= r->n_abis || !(t = &r->views[abi])->numbered)
		return 0;
	size = (number & t->size_field) >> t->size_shift;
	key_run(t, number & ~t->size_field, &lo, &hi);
	if (lo == hi)
		return 0;
	/* the run is sorted by size: size 0 first, then this size's */
	for (a = a_end = lo; a_end < hi && t->v[a_end].size == 0; a_end++)
		;
	for (b = size ? a_end : hi; b < hi && t->v[b].size < size; b++)
		;
	for (b_end = b; b_end < hi && t->v[b_end].size == size; b_end++)
		;
	for (;;) {
		while (a < a_end && ((size && !(t->v[a].command & TBL_ENTRY_VARIABLE)) ||
				     !in_version(r, &t->v[a], v)))
			a++;
		while (b < b_end && !in_version(r, &t->v[b], v))
			b++;
		if (a < a_end && (b == b_end || before(&t->v[a], &t->v[b])))
			add_hit(hits, max, &found, &t->v[a++], size);
		else if (b < b_end)
			add_hit(hits, max, &found, &t->v[b++], size);
		else
			break;
	}
	return found;
}

size_t ioctlreg_lookup_other_sizes(const struct ioctlreg *r, size_t abi, int v, uint32_t number,
				   struct ioctlreg_hit *hits, size_t max)
{
	const struct abi_view *t;
	uint32_t size, lo, hi;
	size_t found = 0;

	if (abi >= r->n_abis || !(t = &r->views[abi])->numbered)
		return 0;
	size = (number & t->size_field) >> t->size_shift;
	key_run(t, number & ~t->size_field, &lo, &hi);
	for (uint32_t i = lo; i < hi; i++)
		if (t->v[i].size != size && !(t->v[i].command & TBL_ENTRY_VARIABLE) &&
		    in_version(r, &t->v[i], v))
			add_hit(hits, max, &found, &t->v[i], t->v[i].size);
	return found;
}
