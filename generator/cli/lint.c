// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <string.h>

#include "cli.h"

int cmd_lint(int argc, char **argv)
{
	const char *tree = NULL, *only = NULL, *spec = NULL;
	bool summary = false;
	const struct cli_opt opts[] = {
		CLI_VALUE("tree", 't', &tree),
		CLI_VALUE("class", 'c', &only),
		CLI_FLAG("summary", 's', &summary),
		CLI_END };
	struct registry reg;
	int rc;

	if (cli_options("lint", argc, argv, ":", opts, &spec, &rc))
		return rc;
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
