// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cli.h"

/*
 * The registry for the stages before sizes exist (tools/measure-sizes, the
 * importer): the model's document without numbers, collisions or lint, so
 * that no other program parses the YAML.
 */
int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		COMMON_OPTIONS,
		{ 0 } };
	const char *out = "-", *spec = NULL;
	struct registry reg;
	int c, rc = 0;

	while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == OPT_SPEC)
			spec = optarg;
		else if (c == OPT_HELP)
			return usage_help("dump");
		else
			return option_error("dump", c, argc, argv);
	}
	if (spec_operand("dump", argc, argv, &spec))
		return EXIT_USAGE;
	registry_load(&reg, spec);
	registry_check_unsized(&reg);
	if (reg.diags.errors) {
		diags_print(stderr, &reg.diags, false, false);
		rc = EXIT_DATA;
	} else {
		rc = write_model(out, &reg);
	}
	registry_release(&reg);
	return rc;
}
