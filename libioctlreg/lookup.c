// SPDX-License-Identifier: GPL-2.0
/*
 * Numbers back to commands on one ABI: a binary search in the ABI's sorted
 * run of entries (key, size, spec order; generator/number_table.c made it).
 * Families whose size the caller gives match any size: two runs match, the
 * entries of size 0 (the variable-size ones among them) and those of the
 * number's size, merged in spec order as generator/lookup.c does.
 */
#include "ioctlreg_int.h"

struct run {
	const struct tbl_entry *v;
	uint32_t n;
	uint32_t size_field, size_shift;
};

static bool make_run(const struct ioctlreg *r, size_t abi, struct run *run)
{
	const struct tbl_layout *l;
	uint32_t bits;

	if (abi >= r->n_abis || r->abis[abi].layout == TBL_NONE)
		return false;
	l = &r->layouts[r->abis[abi].layout];
	bits = l->size_bits;
	run->v = r->entries + r->abis[abi].first_entry;
	run->n = r->abis[abi].n_entries;
	run->size_shift = l->nr_bits + l->type_bits;
	run->size_field = (bits >= 32 ? UINT32_MAX : (UINT32_C(1) << bits) - 1) << run->size_shift;
	return true;
}

/* The first entry at or after (key, size). */
static uint32_t lower_bound(const struct run *t, uint32_t key, uint32_t size)
{
	uint64_t want = (uint64_t)key << 32 | size;
	uint32_t lo = 0, hi = t->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (((uint64_t)t->v[mid].key << 32 | t->v[mid].size) < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
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
	struct run t;
	uint32_t key, size, a, a_end, b, b_end;
	size_t found = 0;

	if (!make_run(r, abi, &t))
		return 0;
	key = number & ~t.size_field;
	size = (number & t.size_field) >> t.size_shift;
	a = lower_bound(&t, key, 0);
	a_end = a < t.n && t.v[a].key == key && t.v[a].size == 0 ? lower_bound(&t, key, 1) : a;
	b = size ? lower_bound(&t, key, size) : a_end;
	b_end = b;
	while (b_end < t.n && t.v[b_end].key == key && t.v[b_end].size == size)
		b_end++;
	for (;;) {
		while (a < a_end && ((size && !(t.v[a].command & TBL_ENTRY_VARIABLE)) ||
				     !in_version(r, &t.v[a], v)))
			a++;
		while (b < b_end && !in_version(r, &t.v[b], v))
			b++;
		if (a < a_end && (b == b_end || before(&t.v[a], &t.v[b])))
			add_hit(hits, max, &found, &t.v[a++], size);
		else if (b < b_end)
			add_hit(hits, max, &found, &t.v[b++], size);
		else
			break;
	}
	return found;
}

size_t ioctlreg_lookup_other_sizes(const struct ioctlreg *r, size_t abi, int v, uint32_t number,
				   struct ioctlreg_hit *hits, size_t max)
{
	struct run t;
	uint32_t key, size;
	size_t found = 0;

	if (!make_run(r, abi, &t))
		return 0;
	key = number & ~t.size_field;
	size = (number & t.size_field) >> t.size_shift;
	for (uint32_t i = lower_bound(&t, key, 0); i < t.n && t.v[i].key == key; i++)
		if (t.v[i].size != size && !(t.v[i].command & TBL_ENTRY_VARIABLE) &&
		    in_version(r, &t.v[i], v))
			add_hit(hits, max, &found, &t.v[i], t.v[i].size);
	return found;
}
