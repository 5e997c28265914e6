// SPDX-License-Identifier: GPL-2.0
/*
 * Room for a new driver: the codes and nrs no magic-code row reserves and
 * no command carries, and the commands a proposed number clashes with.  A
 * clash is a shared code and nr, whatever the direction and size: the
 * kernel's dispatchers switch on _IOC_NR, and ioctl-number.rst allots nrs.
 */
#include <stdlib.h>
#include <string.h>

#include "free.h"
#include "numbers.h"

const char *const free_clash_kind_names[3] = { "same-number", "code-nr", "size-unknown" };

static void set_bit(uint64_t *set, unsigned int nr)
{
	set[nr / 64] |= (uint64_t)1 << (nr % 64);
}

static void mark_used(struct free_map *m, unsigned int code, unsigned int nr)
{
	if (code >= FREE_CODES || nr >= FREE_NRS || free_bit(m->used[code], nr))
		return;
	set_bit(m->used[code], nr);
	m->n_used[code]++;
}

/* The number an entry of t stands for, as the command carries it. */
static uint32_t entry_number(const struct number_table *t, const struct number_entry *e)
{
	return e->key | e->size << t->size_shift;
}

void free_map_build(const struct registry *reg, struct free_map *m)
{
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < reg->n_rows; i++) {
		const struct magic_row *r = &reg->rows[i];

		if (r->code >= FREE_CODES)
			continue;
		m->rows[r->code]++;
		for (unsigned int nr = r->first; nr <= r->last && nr < FREE_NRS; nr++)
			set_bit(m->reserved[r->code], nr);
	}
	/* what the spec writes, even where no ABI could number it */
	for_each_command(reg, c) {
		if (c->plain)
			continue;
		for (unsigned int a = 0; a < c->nr_count; a++)
			mark_used(m, c->magic, c->nr + a);
		for (size_t v = 0; v < c->n_variants; v++)
			if (c->variants[v].nr_text)
				for (unsigned int a = 0; a < c->nr_count; a++)
					mark_used(m, c->magic, c->variants[v].nr + a);
	}
	/* what every ABI carries in every version, as its layout splits it */
	for (size_t k = 0; k < reg->n_abis; k++) {
		struct number_table t;

		number_table_build(&t, reg, k);
		for (size_t i = 0; i < t.n; i++) {
			struct ioc_fields f;

			layout_decode(t.layout, entry_number(&t, &t.v[i]), &f);
			mark_used(m, f.type, f.nr);
		}
		number_table_release(&t);
	}
}

bool free_next_range(const struct free_map *m, unsigned int code, unsigned int *from,
		     unsigned int *first, unsigned int *last)
{
	unsigned int nr = *from;

	while (nr < FREE_NRS && !free_map_free(m, code, nr))
		nr++;
	if (nr >= FREE_NRS)
		return false;
	*first = nr;
	while (nr + 1 < FREE_NRS && free_map_free(m, code, nr + 1))
		nr++;
	*last = nr;
	*from = nr + 1;
	return true;
}

bool free_query_size(const struct registry *reg, const struct free_query *q, size_t k,
		     uint32_t *size)
{
	const struct abi *a = &reg->abis[k];

	if (q->has_size) {
		*size = q->size;
		return true;
	}
	if (!q->ctype)
		return false;
	/* the newest version's sizes first: a struct that grew is as big as now */
	for (size_t v = reg->n_versions; a->by_version && v-- > 0;) {
		struct abi view = *a;

		view.sizes = a->by_version[v].sizes;
		view.n_sizes = a->by_version[v].n_sizes;
		if (abi_sizeof(&view, q->ctype, size))
			return true;
	}
	return abi_sizeof(a, q->ctype, size);
}

static int clash_cmp(const void *pa, const void *pb)
{
	const struct free_clash *a = pa, *b = pb;
	int o = command_spec_order(a->cmd, b->cmd);

	if (o)
		return o;
	if (a->abi != b->abi)
		return a->abi < b->abi ? -1 : 1;
	return a->number < b->number ? -1 : a->number > b->number;
}

/* One command's entries of one number (a family member, several versions)
 * are one clash: merge their versions. */
static void add_clash(struct free_clash **v, size_t *n, size_t *cap, const struct free_clash *c)
{
	for (size_t i = *n; i-- > 0 && (*v)[i].abi == c->abi;) {
		if ((*v)[i].cmd == c->cmd && (*v)[i].number == c->number) {
			(*v)[i].versions |= c->versions;
			return;
		}
	}
	grow(v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = *c;
}

size_t free_clashes(const struct registry *reg, const struct free_query *q, struct free_clash **out)
{
	size_t n = 0, cap = 0;

	*out = NULL;
	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct layout *l = reg->abis[k].layout;
		struct number_table t;
		uint32_t size, want = 0;
		bool sized;

		if (!l || q->code > layout_max_type(l) || q->nr > layout_max_nr(l))
			continue;
		sized = free_query_size(reg, q, k, &size) && size <= layout_max_size(l);
		if (sized)
			want = layout_encode(l, q->dir, q->code, q->nr, size);
		number_table_build(&t, reg, k);
		for (size_t i = 0; i < t.n; i++) {
			const struct number_entry *e = &t.v[i];
			uint32_t number = entry_number(&t, e);
			struct ioc_fields f, mine;
			struct free_clash c = { e->cmd, k, number, e->versions, CLASH_CODE_NR,
						e->variable };

			layout_decode(l, number, &f);
			if (f.type != q->code || f.nr != q->nr)
				continue;
			if (sized && (number == want ||
				      (e->variable && e->key == (want & ~t.size_field))))
				c.kind = CLASH_NUMBER;
			else if (!sized) {
				/* a size-param family takes any size: the very number */
				layout_decode(l, layout_encode(l, q->dir, q->code, q->nr, 0), &mine);
				if (mine.dir == f.dir)
					c.kind = e->variable ? CLASH_NUMBER : CLASH_UNSIZED;
			}
			add_clash(out, &n, &cap, &c);
		}
		number_table_release(&t);
	}
	if (n)
		qsort(*out, n, sizeof(**out), clash_cmp);
	return n;
}
