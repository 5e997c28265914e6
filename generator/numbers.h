/* SPDX-License-Identifier: GPL-2.0 */
/* Every number: each command's on each ABI (numbers.c), and one ABI's as a sorted table (number_table.c). */
#ifndef IOCTLGEN_NUMBERS_H
#define IOCTLGEN_NUMBERS_H

#include "registry.h"

/* ------------------------------------------------------------ the numbers of one ABI */

/* One number a command carries, split as _IOC_SIZE splits it. */
struct number_entry {
	uint32_t key;		/* the number with its size bits cleared */
	uint32_t size;		/* its size field */
	bool variable;		/* the caller gives the size: it matches any */
	/* the command's protocol_code and lifetime, copied into the padding:
	 * the scans of a large table then read no command they skip */
	bool protocol_code;
	uint8_t life_first, life_end;
	unsigned int nr_arg;	/* the value of nr-param, for families */
	/* bit v: the command carries this number in known version v (its
	 * lifetime's versions, but those where its number differs or it is
	 * absent on the ABI); 0 in a registry without versions */
	uint64_t versions;
	const struct command *cmd;
};

/* Does the entry hold in known version v?  Without versions, always. */
static inline bool number_entry_in(const struct registry *reg, const struct number_entry *e, size_t v)
{
	return !reg->n_versions || (e->versions >> v & 1);
}

/* Every number the commands carry on one ABI, families expanded, sorted by
 * key, size and spec order (number_table.c). */
struct number_table {
	const struct layout *layout;	/* NULL: the ABI's layout is unknown, no entries */
	uint32_t size_field;		/* the size bits, in place */
	unsigned int size_shift;
	struct number_entry *v;
	size_t n;
};

void number_table_build(struct number_table *t, const struct registry *reg, size_t abi_index);
/* The tables of every ABI, t[0..n_abis), in one pass over the commands. */
void number_tables_build(struct number_table *t, const struct registry *reg);
void number_table_release(struct number_table *t);
int number_entry_cmp(const struct number_entry *a, const struct number_entry *b);

/* ------------------------------------------------------------ numbering (numbers.c) */

/* The macro and C arguments of every command (needs no sizes). */
void commands_spell(struct registry *reg);
/* The commands as numbering looks them up (by name, by sized type), made
 * once for every known version; byname: commands_by_name(). */
struct numbering;
struct numbering *numbering_new(const struct registry *reg, const struct command **byname, size_t n);
void numbering_free(struct numbering *nb);
/* Every command's number on every ABI with a layout and sizes, with the
 * sizes the ABIs show now (those of known version `version`): with two
 * known versions or more, only the commands that exist in it are
 * numbered, the others get numbers that are all absent. */
void commands_number(struct registry *reg, size_t version, const struct numbering *nb);
/* The numbers of the commands spelled as another's name (after
 * commands_number of the same version); v: commands_by_name(). */
void commands_number_by_name(struct registry *reg, size_t version, const struct command **v,
			     size_t n);

#endif
