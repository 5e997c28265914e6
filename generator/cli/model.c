// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>

#include "cli.h"

int cmd_model(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "tree", required_argument, NULL, 't' },
		REPORT_OPTIONS,
		COMMON_OPTIONS,
		{ 0 } };
	const char *out = NULL, *tree = NULL, *spec = NULL;
	struct report report = { 0 };
	struct registry reg;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
		if (report_option(&report, c, optarg)) {
			continue;
		} else if (c == 'o') {
			out = optarg;
		} else if (c == 't') {
			tree = optarg;
		} else if (c == OPT_SPEC) {
			spec = optarg;
		} else if (c == OPT_HELP) {
			rc = usage_help("model");
			goto out;
		} else {
			rc = option_error("model", c, argc, argv);
			goto out;
		}
	}
	if (!out) {
		rc = usage_error("model", "no output file: give -o FILE");
		goto out;
	}
	if (spec_operand("model", argc, argv, &spec) || tree_option("model", tree) ||
	    report_usage(&report, "model")) {
		rc = EXIT_USAGE;
		goto out;
	}
	rc = report_load(&reg, spec, tree, &report);
	if (rc == 0) {
		/* Only a registry that checks clean is written, and never half a file. */
		registry_lint(&reg, tree);
		rc = write_model(out, &reg);
	}
	registry_release(&reg);
out:
	report_release(&report);
	return rc;
}
