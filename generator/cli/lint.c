// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <string.h>

#include "cli.h"

int cmd_lint(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "class", required_argument, NULL, 'c' },
		{ "summary", no_argument, NULL, 's' },
		COMMON_OPTIONS,
		{ 0 } };
	const char *tree = NULL, *only = NULL, *spec = NULL;
	bool summary = false;
	struct registry reg;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		if (c == 't')
			tree = optarg;
		else if (c == 'c')
			only = optarg;
		else if (c == 's')
			summary = true;
		else if (c == OPT_SPEC)
			spec = optarg;
		else if (c == OPT_HELP)
			return usage_help("lint");
		else
			return option_error("lint", c, argc, argv);
	}
	if (spec_operand("lint", argc, argv, &spec) || tree_option("lint", tree))
		return EXIT_USAGE;
	if (only) {
		int k;

		for (k = 0; k < LINT_CLASSES; k++)
			if (!strcmp(only, lint_class_name(k)))
				break;
		if (k == LINT_CLASSES)
			return usage_error("lint", "unknown class '%s'", only);
	}
	rc = load_quiet(&reg, spec, tree);
	if (!rc) {
		registry_lint(&reg, tree);
		for (int k = 0; k < LINT_CLASSES; k++) {
			if (only && strcmp(only, lint_class_name(k)))
				continue;
			if (k == LINT_MISSING_HEADER && !tree) {
				printf("%-20s     - (give --tree KERNEL_TREE)\n", lint_class_name(k));
				continue;
			}
			printf("%-20s %5zu  %s\n", lint_class_name(k), reg.lint_count[k], lint_class_doc(k));
			if (summary)
				continue;
			for (size_t i = 0; i < reg.n_lint; i++) {
				const struct lint_item *it = &reg.lint[i];

				if ((int)it->cls != k)
					continue;
				printf("  %s:%u:%u: %s%s%s\n", it->mark.file, it->mark.line, it->mark.col,
				       it->cmd ? it->cmd->name : "", it->cmd ? ": " : "", it->detail);
			}
		}
	}
	registry_release(&reg);
	return rc;
}
