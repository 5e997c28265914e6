/* SPDX-License-Identifier: GPL-2.0 */
/* Spec values as text: numbers, magic codes, directions, identifiers, sizeof() (parse.c). */
#ifndef IOCTLGEN_PARSE_H
#define IOCTLGEN_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"

/* Parse 0x.., decimal or a C character literal 'c' for a magic code. */
bool parse_uint(const char *s, uint64_t *out);
bool parse_magic(const char *s, unsigned int *out);
bool parse_dir(const char *s, enum ioc_dir *dir);
/* A macro argument written as sizeof(...), or as a number. */
bool is_sizeof(const char *s);
bool is_number(const char *s);
/* Does every character of s belong to set? */
bool all_of(const char *s, const char *set);
/* A C character literal as ioctl-number.rst writes codes: 'E', '\\' or '\''. */
bool parse_char_literal(const char *s, unsigned int *out);
bool is_identifier(const char *s);

#endif
