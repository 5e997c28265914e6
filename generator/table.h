/* SPDX-License-Identifier: GPL-2.0 */
/* The registry as libioctlreg's lookup table (table.c). */
#ifndef IOCTLGEN_TABLE_H
#define IOCTLGEN_TABLE_H

#include "registry.h"

/*
 * Append the table of a checked registry (registry_check() numbered it) to
 * out.  spec_dir: the spec directory relative to the table file's, for the
 * reader's staleness test (nothing that varies between clones or runs).
 * Returns 0, or -1 when it does not fit the format's 32-bit offsets.
 */
int table_build(const struct registry *reg, const char *spec_dir, struct strbuf *out);

#endif
