/* SPDX-License-Identifier: GPL-2.0 */
/* Load: every spec file into the registry, with each file's own checks (spec*.c). */
#ifndef IOCTLGEN_LOAD_H
#define IOCTLGEN_LOAD_H

#include "registry.h"

/* Load every spec file under dir (spec.c).  Problems go to reg->diags. */
void registry_load(struct registry *reg, const char *dir);
/* Load from in-memory files (for tests and the fuzzer): names[i] is the path
 * relative to the spec dir (layouts.yaml, headers/linux/fs.h.yaml, ...). */
void registry_load_buffers(struct registry *reg, const char *dir, size_t n,
			   const char *const *names, const char *const *data,
			   const size_t *lens);
/* Sizes files alone, outside a spec directory (tools/measure-sizes --only
 * -o DIR merges into a directory of them): each path loaded and checked as
 * sizes/<its name>.  reg->abis gets one ABI per file, named by its abi:,
 * with that file's sizes only (no layout, no compiler). */
void registry_load_sizes_files(struct registry *reg, size_t n, const char *const *paths);

#endif
