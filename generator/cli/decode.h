/* SPDX-License-Identifier: GPL-2.0 */
/* Internal to decode: what it was asked, and its JSON lines (decode_json.c). */
#ifndef IOCTLGEN_CLI_DECODE_H
#define IOCTLGEN_CLI_DECODE_H

#include <stdbool.h>

#include "ioctlreg.h"
#include "util.h"

struct decode_opts {
	const struct ioctlreg *reg;
	int abi;		/* -1: every ABI */
	bool json, lines;
};

/* One JSON object on one line for number (text: as the input wrote it). */
void decode_json(const struct ioctlreg *r, int abi, const char *text, uint32_t number,
		 struct strbuf *sb);
/* The line of an input that is no number. */
void decode_json_error(const char *text, struct strbuf *sb);

#endif
