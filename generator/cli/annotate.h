/* SPDX-License-Identifier: GPL-2.0 */
/* Internal to annotate: the comment after one number (annotate_note.c). */
#ifndef IOCTLGEN_CLI_ANNOTATE_H
#define IOCTLGEN_CLI_ANNOTATE_H

#include <stdbool.h>

#include "ioctlreg.h"
#include "util.h"

/* Append a C comment naming number on ABI k (" /" "* TCGETS *" "/"); with
 * always false, nothing (and false) when the registry knows nothing of it. */
bool annotate_note(const struct ioctlreg *r, size_t k, uint32_t number, bool always,
		   struct strbuf *sb);

#endif
