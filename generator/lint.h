/* SPDX-License-Identifier: GPL-2.0 */
/* The lint: what the registry says about the kernel, by class (lint.c). */
#ifndef IOCTLGEN_LINT_H
#define IOCTLGEN_LINT_H

#include "registry.h"

const char *lint_class_name(enum lint_class c);
const char *lint_class_doc(enum lint_class c);
/* The lint (lint.c), after registry_check.  tree: the kernel source tree, to
 * check that ioctl-number.rst names existing files; NULL skips that class. */
void registry_lint(struct registry *reg, const char *tree);

#endif
