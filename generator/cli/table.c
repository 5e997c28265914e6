// SPDX-License-Identifier: GPL-2.0
/* ioctlgen table: the registry as libioctlreg's lookup table, written whole or not at all. */
#define _XOPEN_SOURCE 700	/* realpath() */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "table.h"

int registry_table(const struct registry *reg, const char *spec, const struct timespec *made,
		   struct strbuf *out)
{
	char *abs = realpath(spec, NULL);
	int rc = table_build(reg, abs ? abs : spec, made, out);

	free(abs);
	if (rc)
		fprintf(stderr, "%s: error: the registry does not fit a lookup table (offsets are 32-bit)\n",
			spec);
	return rc ? EXIT_DATA : 0;
}

int cmd_table(int argc, char **argv)
{
	const char *out = NULL, *spec = NULL;
	const struct cli_opt opts[] = { CLI_VALUE("output", 'o', &out), CLI_END };
	struct strbuf sb = { 0 };
	struct registry reg;
	struct timespec made;
	int rc;

	if (cli_options("table", argc, argv, ":o:", opts, &spec, &rc))
		return rc;
	if (!out)
		return usage_error("table", "no output file: give -o FILE");
	if (spec_operand("table", argc, argv, &spec))
		return EXIT_USAGE;
	/* before the first file is read: a spec file changed after it makes
	 * the table stale, even one changed while it is made */
	clock_gettime(CLOCK_REALTIME, &made);
	rc = load_quiet(&reg, spec, NULL);
	if (!rc)
		rc = registry_table(&reg, spec, &made, &sb);
	if (!rc && registry_read_file(&reg, out)) {
		fprintf(stderr, "%s: error: will not write over a spec file this run read\n", out);
		rc = EXIT_DATA;
	}
	if (!rc && write_file_atomic(out, sb.buf, sb.len)) {
		fprintf(stderr, "%s: error: cannot write: %s\n", out, strerror(errno));
		rc = EXIT_DATA;
	}
	sb_release(&sb);
	registry_release(&reg);
	return rc;
}
