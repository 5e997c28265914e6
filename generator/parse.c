// SPDX-License-Identifier: GPL-2.0
/* Spec values as text: numbers, magic codes, directions, identifiers and
 * macro arguments.  The loader reads them so, and so do the check and the
 * CLI: no YAML here. */
#include <string.h>

#include "parse.h"

bool all_of(const char *s, const char *set)
{
	return *s && strspn(s, set) == strlen(s);
}

bool parse_uint(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned int dgt;

		if (*s >= '0' && *s <= '9')
			dgt = (unsigned int)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			dgt = (unsigned int)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			dgt = (unsigned int)(*s - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - dgt) / (uint64_t)base)
			return false;
		v = v * (uint64_t)base + dgt;
	}
	*out = v;
	return true;
}

/* A C character literal as ioctl-number.rst writes codes: 'E', '\\' or '\''. */
bool parse_char_literal(const char *s, unsigned int *out)
{
	size_t n = strlen(s);

	if (n == 3 && s[0] == '\'' && s[2] == '\'' && s[1] != '\\' && s[1] != '\'' &&
	    (unsigned char)s[1] >= 0x20 && (unsigned char)s[1] < 0x7f) {
		*out = (unsigned char)s[1];
		return true;
	}
	if (n == 4 && s[0] == '\'' && s[1] == '\\' && s[3] == '\'' && (s[2] == '\\' || s[2] == '\'')) {
		*out = (unsigned char)s[2];
		return true;
	}
	return false;
}

bool parse_magic(const char *s, unsigned int *out)
{
	uint64_t v;

	if (parse_char_literal(s, out))
		return true;
	if (!parse_uint(s, &v) || v > 0xff)
		return false;
	*out = (unsigned int)v;
	return true;
}

bool parse_dir(const char *s, enum ioc_dir *dir)
{
	for (int i = 0; i < 4; i++) {
		if (!strcmp(s, dir_names[i])) {
			*dir = (enum ioc_dir)i;
			return true;
		}
	}
	return false;
}

/* A scalar's text as written, whatever YAML reads it as; NULL for none. */
static bool ident_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

/* A loop, not all_of(): strspn() with a set this long builds a table of
 * all 256 bytes at every call. */
bool is_identifier(const char *s)
{
	if (!ident_start(*s))
		return false;
	for (; *s; s++)
		if (!ident_start(*s) && !(*s >= '0' && *s <= '9'))
			return false;
	return true;
}


bool is_sizeof(const char *s)
{
	while (*s == ' ' || *s == '(')
		s++;
	return !strncmp(s, "sizeof", 6) && (s[6] == '(' || s[6] == ' ');
}

bool is_number(const char *s)
{
	uint64_t v;

	while (*s == ' ' || *s == '(')
		s++;
	return (*s >= '0' && *s <= '9') && (parse_uint(s, &v) || all_of(s, "0123456789xXabcdefABCDEFuUlL() *+-"));
}
