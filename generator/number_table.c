// SPDX-License-Identifier: GPL-2.0
/*
 * The numbers of one ABI as one sorted table: every number a command
 * carries (families expanded over their nr range), split the way a query
 * is, without its size bits (the key) and its size field.  Sorted by key,
 * size and spec order, it gives the collisions (collisions.c) and the
 * commands behind a number (lookup.c).
 */
#include <stdlib.h>

#include "ioctlgen.h"

/*
 * Spec order of two commands.  Never compare command pointers across
 * headers: each header's commands are a separate allocation, so their
 * addresses follow the heap, not the spec (the order files were found on
 * disk showed in the output).  reg->headers is one array sorted by path.
 */
int command_spec_order(const struct command *a, const struct command *b)
{
	if (a->header != b->header)
		return a->header < b->header ? -1 : 1;
	return a < b ? -1 : a > b;
}

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

static int entry_qsort_cmp(const void *a, const void *b)
{
	return number_entry_cmp(a, b);
}

void number_table_build(struct number_table *t, const struct registry *reg, size_t k)
{
	const struct layout *l = reg->abis[k].layout;
	size_t cap = 0;

	*t = (struct number_table){ .layout = l };
	if (!l)
		return;
	t->size_shift = layout_size_shift(l);
	t->size_field = layout_max_size(l) << t->size_shift;
	for (size_t h = 0; h < reg->n_headers; h++) {
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			const struct command *c = &reg->headers[h].commands[i];
			const struct abi_number *num = c->numbers ? &c->numbers[k] : NULL;

			if (!num || !num->present)
				continue;
			grow(&t->v, &cap, t->n + c->nr_count, sizeof(*t->v));
			for (unsigned int a = 0; a < c->nr_count; a++) {
				/* Split the number the macros make, as a query is
				 * split: an accepted size-overflow spills into the
				 * dir bits and must be found as it is. */
				uint32_t n = c->plain ? num->number :
					     layout_encode(l, c->dir, c->magic,
							   command_nr_on(c, &reg->abis[k]) + a, num->size);

				t->v[t->n++] = (struct number_entry){
					n & ~t->size_field, (n & t->size_field) >> t->size_shift,
					num->variable_size, a, c };
			}
		}
	}
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), entry_qsort_cmp);
}

void number_table_release(struct number_table *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
}
