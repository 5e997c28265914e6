// SPDX-License-Identifier: GPL-2.0
/* Scalars of the spec files: how YAML reads them (the forms their text
 * takes are parse.c's). */
#include <string.h>

#include "spec_load.h"

/* ------------------------------------------------------------ scalars */

const char *const kind_names[] = { "a string", "an integer", "a float", "a boolean", "null" };

/* How YAML 1.1 (PyYAML, and so the JSON Schema check) reads a plain scalar. */
enum scalar_kind scalar_kind(const struct ynode *n)
{
	const char *s = n->str;
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };
	static const char *const bools[] = { "yes", "Yes", "YES", "no", "No", "NO",
		"true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON",
		"off", "Off", "OFF" };

	if (!n->plain)
		return SK_STR;
	/* every null and boolean word is short and starts with one of these */
	if (n->len <= 5 && (!*s || strchr("~nNyYtTfFoO", *s))) {
		for (size_t i = 0; i < sizeof(nulls) / sizeof(*nulls); i++)
			if (!strcmp(s, nulls[i]))
				return SK_NULL;
		for (size_t i = 0; i < sizeof(bools) / sizeof(*bools); i++)
			if (!strcmp(s, bools[i]))
				return SK_BOOL;
	}
	if (*s == '-' || *s == '+')
		s++;
	if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && all_of(s + 2, "0123456789abcdefABCDEF_")) ||
	    (s[0] == '0' && s[1] == 'b' && all_of(s + 2, "01_")) ||
	    (s[0] >= '0' && s[0] <= '9' && all_of(s, "0123456789_:")))
		return SK_INT;
	/* every float starts with one of these: most text ends here */
	if (!*s || !strchr("0123456789_.", *s))
		return SK_STR;
	if (!strcmp(s, ".inf") || !strcmp(s, ".Inf") || !strcmp(s, ".INF") ||
	    !strcmp(n->str, ".nan") || !strcmp(n->str, ".NaN") || !strcmp(n->str, ".NAN"))
		return SK_FLOAT;
	if (strchr(s, '.') && all_of(s, "0123456789_.eE+-") && strspn(s, "0123456789_.") > 0)
		return SK_FLOAT;
	return SK_STR;
}

const char *scalar_text(const struct ynode *n)
{
	return n && n->kind == Y_SCALAR ? n->str : NULL;
}
