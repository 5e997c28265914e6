// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>

#include "cli.h"

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = { REPORT_OPTIONS, COMMON_OPTIONS, { 0 } };
	const char *spec = NULL;
	struct report report = { 0 };
	struct registry reg;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		if (report_option(&report, c, optarg)) {
			continue;
		} else if (c == OPT_SPEC) {
			spec = optarg;
		} else if (c == OPT_HELP) {
			rc = usage_help("check");
			goto out;
		} else {
			rc = option_error("check", c, argc, argv);
			goto out;
		}
	}
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
