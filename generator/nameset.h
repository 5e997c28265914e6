/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A set of names (byte strings with a length), hashed: the check asks
 * "is this a constant?" once per name a C text uses, and a scan of every
 * header per question grew with the square of the registry.  The set
 * points at the names, it does not copy them: they must outlive it (the
 * registry's arena does).
 */
#ifndef IOCTLGEN_NAMESET_H
#define IOCTLGEN_NAMESET_H

#include <stdbool.h>
#include <stddef.h>

struct nameset {
	struct nameset_slot {
		const char *s;
		size_t n;
	} *slot;
	size_t cap, count;
};

void nameset_add(struct nameset *set, const char *s, size_t n);
bool nameset_has(const struct nameset *set, const char *s, size_t n);
void nameset_release(struct nameset *set);

#endif
