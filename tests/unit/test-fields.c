// SPDX-License-Identifier: GPL-2.0
/*
 * Prints ioctlgen's table of spec fields, one "FILE<TAB>PATH<TAB>GRAMMAR"
 * line each (spec_grammar.c), for tests/schema-fields.py, which checks that
 * the JSON Schemas of spec/schema name exactly these fields.
 * Usage: test-fields
 */
#include <stdio.h>

#include "spec_guard.h"

static void print(void *ctx, const char *file, const char *path, const char *grammar)
{
	fprintf(ctx, "%s\t%s\t%s\n", file, path, grammar);
}

int main(void)
{
	spec_fields_each(print, stdout);
	return fflush(stdout) ? 1 : 0;
}
