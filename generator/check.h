/* SPDX-License-Identifier: GPL-2.0 */
/* Check: the rules across the registry, every number and the shared ones (check.c runs them). */
#ifndef IOCTLGEN_CHECK_H
#define IOCTLGEN_CHECK_H

#include "registry.h"

/* Cross-file rules and numbers (check.c).  Call after registry_load; with
 * reg->tree set, also against that kernel tree's headers. */
void registry_check(struct registry *reg);
/* The rules that need no measured sizes, for the stages before sizes exist:
 * no numbers, no collisions, no missing-size errors. */
void registry_check_unsized(struct registry *reg);

#endif
