// SPDX-License-Identifier: GPL-2.0
/*
 * The numbers of one ABI as one sorted table: every number a command
 * carries (families expanded over their nr range), split the way a query
 * is, without its size bits (the key) and its size field.  Sorted by key,
 * size and spec order, it gives the collisions (collisions.c) and the
 * commands behind a number (lookup.c).
 */
#include <stdlib.h>
#include <string.h>

#include "numbers.h"

int number_entry_cmp(const struct number_entry *a, const struct number_entry *b)
{
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	if (a->cmd != b->cmd)
		return command_spec_order(a->cmd, b->cmd);
	return a->nr_arg < b->nr_arg ? -1 : a->nr_arg > b->nr_arg;
}

/*
 * Sorted as number_entry_cmp() says, in linear time: a stable radix sort
 * on size and key, a byte at a time, then an insertion sort that puts each
 * run of equal key and size in spec order.  The entries are made in spec
 * order, so the runs already are (but where an nr overflows its field)
 * and it costs a comparison per entry.  The merge sort this replaces, n
 * log n comparisons, was the most of the check's time that grew faster
 * than the registry.
 */
static unsigned int entry_byte(const struct number_entry *e, int d)
{
	/* the size's four bytes (passes over bytes that never change are
	 * skipped), then the key's four */
	return d < 4 ? e->size >> (8 * d) & 0xff : e->key >> (8 * (d - 4)) & 0xff;
}

static void sort_entries(struct number_entry *v, size_t n)
{
	struct number_entry *tmp = xrealloc(NULL, (n + 1) * sizeof(*tmp));
	struct number_entry *from = v, *to = tmp;

	for (int d = 0; d < 8; d++) {
		size_t count[256] = { 0 }, pos = 0;

		for (size_t i = 0; i < n; i++)
			count[entry_byte(&from[i], d)]++;
		if (n == 0 || count[entry_byte(&from[0], d)] == n)
			continue;	/* one value of this byte: nothing moves */
		for (int b = 0; b < 256; b++) {
			size_t c = count[b];

			count[b] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			to[count[entry_byte(&from[i], d)]++] = from[i];
		struct number_entry *t = from;

		from = to;
		to = t;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
	free(tmp);
	/* a stable insertion sort of each run of equal key and size */
	for (size_t i = 1; i < n; i++) {
		struct number_entry e = v[i];
		size_t j = i;

		while (j > 0 && number_entry_cmp(&e, &v[j - 1]) < 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = e;
	}
}

/* One number a command carries on an ABI, and the known versions it does. */
struct carried {
	const struct abi_number *num;
	uint64_t versions;
};

/*
 * The distinct numbers command c carries on ABI k, each with its versions:
 * with numbers per version, one per distinct number (most commands have
 * one); else its one number, in its lifetime's versions.  Returns the count.
 */
static size_t carried_numbers(const struct command *c, size_t k,
			      struct carried *out)
{
	size_t n = 0;

	if (!c->by_version) {
		const struct abi_number *num = c->numbers ? &c->numbers[k] : NULL;
		uint64_t all = 0;

		if (!num || !num->present)
			return 0;
		for (size_t v = c->life.first; v < c->life.end; v++)
			all |= (uint64_t)1 << v;
		out[0] = (struct carried){ num, all };
		return 1;
	}
	for (size_t v = c->life.first; v < c->life.end; v++) {
		const struct abi_number *num = &c->by_version[v][k];
		size_t x;

		if (!num->present)
			continue;
		for (x = 0; x < n; x++)
			if (out[x].num->number == num->number && out[x].num->size == num->size &&
			    out[x].num->variable_size == num->variable_size)
				break;
		if (x == n)
			out[n++] = (struct carried){ num, 0 };
		out[x].versions |= (uint64_t)1 << v;
	}
	return n;
}

static void table_start(struct number_table *t, const struct registry *reg, size_t k)
{
	const struct layout *l = reg->abis[k].layout;

	*t = (struct number_table){ .layout = l };
	if (!l)
		return;
	t->size_shift = layout_size_shift(l);
	t->size_field = layout_max_size(l) << t->size_shift;
}

/* Command c's entries on ABI k, appended to t (of capacity *cap). */
static void table_add(struct number_table *t, size_t *cap, const struct registry *reg, size_t k,
		      const struct command *c)
{
	struct carried carried[MAX_VERSIONS + 1];
	size_t n_carried;

	if (!t->layout)
		return;
	n_carried = carried_numbers(c, k, carried);
	for (size_t x = 0; x < n_carried; x++) {
		const struct abi_number *num = carried[x].num;

		grow(&t->v, cap, t->n + c->nr_count, sizeof(*t->v));
		for (unsigned int a = 0; a < c->nr_count; a++) {
			/* Split the number the macros make, as a query is
			 * split: an accepted size-overflow spills into the
			 * dir bits and must be found as it is. */
			uint32_t n = c->plain ? num->number :
				     layout_encode(t->layout, c->dir, c->magic,
						   command_nr_on(c, &reg->abis[k]) + a, num->size);

			t->v[t->n++] = (struct number_entry){
				n & ~t->size_field, (n & t->size_field) >> t->size_shift,
				num->variable_size, c->protocol_code, (uint8_t)c->life.first,
				(uint8_t)c->life.end, a, carried[x].versions, c };
		}
	}
}

void number_table_build(struct number_table *t, const struct registry *reg, size_t k)
{
	size_t cap = 0;

	table_start(t, reg, k);
	if (!t->layout)
		return;
	for_each_command(reg, c)
		table_add(t, &cap, reg, k, c);
	sort_entries(t->v, t->n);
}

/* One pass over the commands for every ABI: a large registry's commands
 * are read once, not once per ABI (23 walks of memory that no cache holds
 * were the most of what grew faster than the registry). */
void number_tables_build(struct number_table *t, const struct registry *reg)
{
	size_t *cap = xrealloc(NULL, (reg->n_abis + 1) * sizeof(*cap));

	for (size_t k = 0; k < reg->n_abis; k++) {
		table_start(&t[k], reg, k);
		cap[k] = 0;
	}
	for_each_command(reg, c)
		for (size_t k = 0; k < reg->n_abis; k++)
			table_add(&t[k], &cap[k], reg, k, c);
	for (size_t k = 0; k < reg->n_abis; k++)
		sort_entries(t[k].v, t[k].n);
	free(cap);
}

void number_table_release(struct number_table *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
}
