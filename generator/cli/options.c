// SPDX-License-Identifier: GPL-2.0
/*
 * What getopt_long() refused, named: getopt's own messages are off (opterr
 * is 0, every optstring starts with ':'), so that each error is one line in
 * ioctlgen's words naming the argument, followed by the usage.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* The argv element getopt stopped at for option character ch: the one
 * before optind when ch ended it, else the one at optind. */
static const char *offending(int argc, char **argv, int ch)
{
	const char *prev = optind > 1 ? argv[optind - 1] : "";
	size_t n = strlen(prev);

	if (ch && prev[0] == '-' && n > 1 && prev[n - 1] == ch)
		return prev;
	if (ch && optind < argc && argv[optind][0] == '-' && strchr(argv[optind] + 1, ch))
		return argv[optind];
	return prev;
}

int option_error(const char *cmd, int c, int argc, char **argv)
{
	const char *arg = offending(argc, argv, optopt);
	int n = (int)strcspn(arg, "=");

	if (c == ':')
		return usage_error(cmd, "option '%.*s' needs an argument", n, arg);
	/* decode -1: a number, not an option; say so */
	if (optopt >= '0' && optopt <= '9')
		return usage_error(cmd, "'%s' is not a number (write 0x... or decimal; never negative)",
				   arg);
	/* --werror=1: getopt names the option in optopt, an unknown one is 0 */
	if (optopt && arg[1] == '-' && arg[n] == '=')
		return usage_error(cmd, "option '%.*s' takes no argument", n, arg);
	if (!optopt || arg[1] == '-')
		return usage_error(cmd, "unknown option '%.*s'", n, arg);
	if (arg[2])
		return usage_error(cmd, "unknown option '-%c' (in '%s')", optopt, arg);
	return usage_error(cmd, "unknown option '%s'", arg);
}

#define MAX_OPTIONS 16

int cli_option(const char *cmd, int argc, char **argv, const char *optstring,
	       const struct cli_opt *opts, const char **spec, int *rc)
{
	struct option longs[MAX_OPTIONS + 3] = {
		{ "spec", required_argument, NULL, OPT_SPEC }, { "help", no_argument, NULL, OPT_HELP } };
	size_t n = 2;
	int c;

	for (const struct cli_opt *o = opts; o->o.name && n < MAX_OPTIONS + 2; o++)
		longs[n++] = o->o;
	while ((c = getopt_long(argc, argv, optstring, longs, NULL)) != -1) {
		const struct cli_opt *o = opts;

		if (c == OPT_SPEC) {
			*spec = optarg;
			continue;
		}
		if (c == OPT_HELP || c == ':' || c == '?') {
			*rc = c == OPT_HELP ? usage_help(cmd) : option_error(cmd, c, argc, argv);
			return CLI_EXIT;
		}
		while (o->o.name && o->o.val != c)
			o++;
		if (o->value)
			*o->value = optarg;
		else if (o->set)
			*o->set = true;
		else
			return c;
	}
	return -1;
}

int cli_options(const char *cmd, int argc, char **argv, const char *optstring,
		const struct cli_opt *opts, const char **spec, int *rc)
{
	int c = cli_option(cmd, argc, argv, optstring, opts, spec, rc);

	if (c >= 0)	/* an option without a place: the table is wrong */
		*rc = option_error(cmd, c, argc, argv);
	return c == -1 ? 0 : CLI_EXIT;
}

int operand_count(const char *cmd, int argc, char **argv, int n, const char *what)
{
	if (argc - optind > n)
		return usage_error(cmd, "'%s' is one argument too many: give %s", argv[optind + n], what);
	if (argc - optind < n)
		return usage_error(cmd, "give %s", what);
	return 0;
}

/* Whether dir/name is a directory (dir true) or a regular file, links followed. */
static bool tree_has(const char *tree, const char *name, bool dir)
{
	size_t n = strlen(tree) + strlen(name) + 2;
	char *path = malloc(n);
	struct stat st;
	bool ok;

	snprintf(path, n, "%s/%s", tree, name);
	ok = !stat(path, &st) && (dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
	free(path);
	return ok;
}

int tree_option(const char *cmd, const char *tree)
{
	struct stat st;

	if (!tree)
		return 0;
	if (stat(tree, &st))
		return usage_error(cmd, "--tree '%s' is no kernel tree: %s", tree, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return usage_error(cmd, "--tree '%s' is no kernel tree: not a directory", tree);
	/* the lint then tells the model the tree was checked: be sure it is one */
	if (!tree_has(tree, "Makefile", false) || !tree_has(tree, "include/uapi", true))
		return usage_error(cmd, "--tree '%s' is no kernel tree: it has no Makefile and include/uapi/",
				   tree);
	return 0;
}
