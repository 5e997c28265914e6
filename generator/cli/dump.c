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
	const char *out = "-", *spec = NULL;
	const struct cli_opt opts[] = { CLI_VALUE("output", 'o', &out), CLI_END };
	struct registry reg;
	int rc = 0;

	if (cli_options("dump", argc, argv, ":o:", opts, &spec, &rc))
		return rc;
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
