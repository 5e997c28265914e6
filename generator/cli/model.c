// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>

#include "cli.h"

int cmd_model(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "werror", no_argument, NULL, 'W' },
		{ "output", required_argument, NULL, 'o' },
		{ "tree", required_argument, NULL, 't' },
		COMMON_OPTIONS,
		{ 0 } };
	const char *out = NULL, *tree = NULL, *spec = NULL;
	struct strbuf sb = { 0 };
	bool werror = false;
	struct registry reg;
	int c, rc;

	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		if (c == 'W')
			werror = true;
		else if (c == 'o')
			out = optarg;
		else if (c == 't')
			tree = optarg;
		else if (c == OPT_SPEC)
			spec = optarg;
		else if (c == OPT_HELP)
			return usage_help("model");
		else
			return usage_error("model", "unknown option");
	}
	if (!out)
		return usage_error("model", "no output file: give -o FILE");
	if (spec_operand("model", argc, argv, &spec))
		return EXIT_USAGE;
	rc = load_checked(&reg, spec, werror, false);
	if (rc == 0) {
		/* Only a registry that checks clean is written, and never half a file. */
		registry_lint(&reg, tree);
		model_write(&reg, &sb);
		rc = write_output(out, &sb);
		sb_release(&sb);
	}
	registry_release(&reg);
	return rc;
}
