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

struct ioctlreg;

/*
 * The table of reg made in mem and opened with libioctlreg, so that every
 * number goes back to commands by one lookup (libioctlreg/lookup.c): decode
 * from the YAML, the fuzzer, the unit tests, the bench.  Returns 0, or -1
 * with the reason in err.  Close with ioctlreg_close(), then release mem.
 */
int table_open_registry(const struct registry *reg, const char *spec_dir, struct strbuf *mem,
			struct ioctlreg **out, char *err, size_t errlen);

#endif
