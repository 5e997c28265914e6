// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>

#include "cli.h"

int cmd_check(int argc, char **argv)
{
	static const struct cli_opt opts[] = { REPORT_OPTIONS, CLI_END };
	const char *spec = NULL;
	struct report report = { 0 };
	struct registry reg;
	int c, rc;

	while ((c = cli_option("check", argc, argv, ":", opts, &spec, &rc)) >= 0)
		report_option(&report, c, optarg);
	if (c == CLI_EXIT)
		goto out;
	if (spec_operand("check", argc, argv, &spec) || report_usage(&report, "check")) {
		rc = EXIT_USAGE;
		goto out;
	}
	rc = report_load(&reg, spec, NULL, &report);
	registry_release(&reg);
out:
	report_release(&report);
	return rc;
}
