/* SPDX-License-Identifier: GPL-2.0 */
/* Internal to libioctlreg: an open table, its sections checked (table_open.c). */
#ifndef IOCTLREG_INT_H
#define IOCTLREG_INT_H

#include <stdbool.h>

#include "ioctlreg.h"
#include "table_format.h"

/* What a lookup on one ABI needs, worked out at open (table_open.c). */
struct abi_view {
	bool numbered;			/* it has a layout */
	const struct tbl_entry *v;	/* its entries */
	uint32_t n;
	const struct tbl_slot *slots;	/* its hash, n_slots = mask + 1 (none: 0) */
	uint32_t mask, bits;
	uint32_t size_field, size_shift;
};

struct ioctlreg {
	const unsigned char *base;
	size_t size;
	bool mapped;		/* munmap() at close */
	int64_t made_sec;	/* a file's mtime (ioctlreg_made), else 0 */
	long made_nsec;
	const struct tbl_head *head;
	const struct tbl_version *versions;
	const struct tbl_layout *layouts;
	const struct tbl_abi *abis;
	const struct tbl_header *headers;
	const struct tbl_command *commands;
	const struct tbl_number *numbers;
	const struct tbl_entry *entries;
	const struct tbl_slot *slots;	/* checked per lookup, not at open */
	const struct tbl_collision *collisions;
	const uint32_t *refs;
	const char *strings;
	struct abi_view *views;		/* one per ABI */
	uint32_t n_versions, n_layouts, n_abis, n_headers, n_commands, n_numbers, n_entries, n_slots, n_collisions, n_refs,
		 n_strings;
};

static inline const char *reg_str(const struct ioctlreg *r, uint32_t off)
{
	return r->strings + off;
}

/* Check a table's bytes and point r's sections into them: NULL, or what is wrong. */
const char *table_check(struct ioctlreg *r);

#endif
