// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>

#include "cli.h"

int cmd_model(int argc, char **argv)
{
	const char *out = NULL, *tree = NULL, *spec = NULL;
	const struct cli_opt opts[] = {
		CLI_VALUE("output", 'o', &out),
		CLI_VALUE("tree", 't', &tree),
		REPORT_OPTIONS,
		CLI_END };
	struct report report = { 0 };
	struct registry reg;
	int c, rc;

	while ((c = cli_option("model", argc, argv, ":o:", opts, &spec, &rc)) >= 0)
		report_option(&report, c, optarg);
	if (c == CLI_EXIT)
		goto out;
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
