// SPDX-License-Identifier: GPL-2.0
/* ioctlgen: check the ioctl registry, write its model, encode and decode numbers. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
} commands[] = {
	{ "check", cmd_check,
	  "check [--werror] [--show-accepted] [--summary [--full FILE[:A-B]]...] [SPEC_DIR]\n"
	  "  ioctlgen check --to-measure [--edited FILE]... [SPEC_DIR]" },
	{ "model", cmd_model,
	  "model [--werror] [--show-accepted] [--summary [--full FILE[:A-B]]...] "
	  "[--tree KERNEL_TREE] [SPEC_DIR] -o FILE" },
	{ "dump", cmd_dump, "dump [SPEC_DIR] [-o FILE|-]\n"
	  "  ioctlgen dump --c-words | --sizes SIZES_FILE..." },
	{ "decode", cmd_decode,
	  "decode [--spec SPEC_DIR | --table FILE] [--abi ABI] [--json] [--lines] NUMBER... | -" },
	{ "annotate", cmd_annotate, "annotate [--spec SPEC_DIR | --table FILE] [--abi ABI] < LOG" },
	{ "table", cmd_table, "table [SPEC_DIR] -o FILE" },
	{ "encode", cmd_encode, "encode [--spec SPEC_DIR] {--abi ABI | --layout LAYOUT} DIR TYPE NR SIZE" },
	{ "free", cmd_free,
	  "free [--spec SPEC_DIR] [--json] {[--code CODE] [--min N] | "
	  "--check \"_IOR('X', NR, TYPE)\" | --check DIR CODE NR [SIZE]}" },
	{ "lint", cmd_lint, "lint [--tree KERNEL_TREE] [--class CLASS] [--summary] [SPEC_DIR]" },
	{ "audit", cmd_audit, "audit [--model MODEL] [--version V] [--abi ABI] [--json OUT] [--summary] "
	  "{strace-binary|strace-rows|syzkaller|go|rust} PATH..." },
};

static void usage(FILE *f)
{
	fputs("usage: ioctlgen <command> [options]\n\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		fprintf(f, "  ioctlgen %s\n", commands[i].usage);
	fputs("\nEvery command takes --help, and --spec SPEC_DIR (or SPEC_DIR last, where shown);\n"
	      "SPEC_DIR defaults to '" DEFAULT_SPEC_DIR "'.  Exit status: 0 ok, 1 the registry or the\n"
	      "input is wrong (path:line:col: error: ...), 2 the command line is wrong.\n", f);
}

const char *cli_program = "ioctlgen";

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int usage_help(const char *cmd)
{
	printf("usage: ioctlgen %s\n", find_command(cmd)->usage);
	return 0;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ioctlgen %s: error: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fprintf(stderr, "usage: ioctlgen %s\n", find_command(cmd)->usage);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const struct cmd *cmd;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	cli_program = argv[0];
	opterr = 0;	/* option_error() says it, naming the argument */
	if ((cmd = find_command(argv[1])))
		return cmd->fn(argc - 1, argv + 1);
	fprintf(stderr, "ioctlgen: error: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
