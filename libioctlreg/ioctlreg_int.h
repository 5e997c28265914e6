/* SPDX-License-Identifier: GPL-2.0 */
/* Internal to libioctlreg: an open table, its sections checked (table_open.c). */
#ifndef IOCTLREG_INT_H
#define IOCTLREG_INT_H

#include <stdbool.h>

#include "ioctlreg.h"
#include "table_format.h"

struct ioctlreg {
	const unsigned char *base;
	size_t size;
	bool mapped;		/* munmap() at close */
	const struct tbl_head *head;
	const struct tbl_version *versions;
	const struct tbl_layout *layouts;
	const struct tbl_abi *abis;
	const struct tbl_header *headers;
	const struct tbl_command *commands;
	const struct tbl_number *numbers;
	const struct tbl_entry *entries;
	const uint32_t *refs;
	const char *strings;
	uint32_t n_versions, n_layouts, n_abis, n_headers, n_commands, n_numbers, n_entries, n_refs,
		 n_strings;
};

static inline const char *reg_str(const struct ioctlreg *r, uint32_t off)
{
	return r->strings + off;
}

/* Check a table's bytes and point r's sections into them: NULL, or what is wrong. */
const char *table_check(struct ioctlreg *r);

#endif
