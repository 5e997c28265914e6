/* SPDX-License-Identifier: GPL-2.0 */
/* Numbers back to commands, per ABI (lookup.c). */
#ifndef IOCTLGEN_LOOKUP_H
#define IOCTLGEN_LOOKUP_H

#include "registry.h"

struct lookup_hit {
	const struct command *cmd;
	uint64_t versions;	/* the versions it carries the number in (number_entry) */
	unsigned int nr_arg;	/* the value of nr-param, for families */
	uint32_t size_arg;	/* the caller's size, for size-param families */
};

struct lookup;

struct lookup *lookup_build(const struct registry *reg, size_t abi_index);
/* Commands that carry number on this ABI; returns the count, fills up to max. */
size_t lookup_find(const struct lookup *lk, uint32_t number, struct lookup_hit *hits, size_t max);
void lookup_free(struct lookup *lk);

#endif
