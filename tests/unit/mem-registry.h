/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the unit tests on registries held in memory share: their TAP line,
 * and the spec files of one x86_64 ABI on the generic layout.
 */
#ifndef TESTS_UNIT_MEM_REGISTRY_H
#define TESTS_UNIT_MEM_REGISTRY_H

#include <stdio.h>

static int test_no, failed;

static void tap(bool ok, const char *what)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++test_no, what);
	failed |= !ok;
}

#define SPDX "# SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note\n"

static const char layouts[] = SPDX
	"layouts:\n"
	"  - {name: generic, doc: g., nr-bits: 8, type-bits: 8, size-bits: 14, dir-bits: 2,\n"
	"     none: 0, read: 2, write: 1, arches: [x86], headers: [include/uapi/asm-generic/ioctl.h]}\n";
static const char abis[] = SPDX
	"abis:\n"
	"  - {name: x86_64, doc: x., layout: generic, arch: x86, cc: gcc, cflags: [-m64]}\n";
static const char sizes[] = SPDX "abi: x86_64\ndoc: s.\nsizes: {int: 4, long: 8, size_t: 8}\n";

#endif
