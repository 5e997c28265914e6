// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>

#include "cli.h"

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "werror", no_argument, NULL, 'W' },
		{ "show-accepted", no_argument, NULL, 'a' },
		{ 0 } };
	bool werror = false, show = false;
	struct registry reg;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'W')
			werror = true;
		else if (c == 'a')
			show = true;
		else
			return usage_error("check", "unknown option");
	}
	if (argc - optind > 1)
		return usage_error("check", "one spec directory at most");
	rc = load_checked(&reg, optind < argc ? argv[optind] : DEFAULT_SPEC_DIR, werror, show);
	registry_release(&reg);
	return rc;
}
