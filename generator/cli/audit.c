// SPDX-License-Identifier: GPL-2.0
/*
 * ioctlgen audit: a consumer's own ioctl table against the registry.  The
 * readers of the consumers' formats and the comparison are Python
 * (tools/audit, which runs generator/ioctltools/audit_cli.py, on
 * build/model.json); this runs it with the same arguments.  The tool is
 * found beside the source tree the binary was built in
 * (<dir of ioctlgen>/../tools/audit) unless IOCTLGEN_AUDIT names it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int tool_path(char *out, size_t n)
{
	const char *env = getenv("IOCTLGEN_AUDIT");
	char self[PATH_MAX];
	ssize_t len;
	char *slash;

	if (env && *env)
		return snprintf(out, n, "%s", env) < (int)n ? 0 : -1;
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		return -1;
	self[len] = '\0';
	if (!(slash = strrchr(self, '/')))
		return -1;
	*slash = '\0';
	return snprintf(out, n, "%s/../tools/audit", self) < (int)n ? 0 : -1;
}

int cmd_audit(int argc, char **argv)
{
	char tool[PATH_MAX];
	char **args;

	if (tool_path(tool, sizeof(tool)) || access(tool, X_OK)) {
		fprintf(stderr, "ioctlgen audit: error: cannot find tools/audit beside %s "
			"(set IOCTLGEN_AUDIT to its path)\n", cli_program);
		return EXIT_USAGE;
	}
	if (!(args = calloc((size_t)argc + 1, sizeof(*args))))
		return EXIT_DATA;
	/* its usage and messages then say "ioctlgen audit" */
	setenv("IOCTLGEN_AUDIT_PROG", "ioctlgen audit", 1);
	args[0] = tool;
	for (int i = 1; i < argc; i++)
		args[i] = argv[i];
	execv(tool, args);
	fprintf(stderr, "ioctlgen audit: error: %s: %s\n", tool, strerror(errno));
	free(args);
	return EXIT_DATA;
}
