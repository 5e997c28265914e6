/* SPDX-License-Identifier: GPL-2.0 */
/* The ioctlgen command line: one cmd_<name>() per subcommand, in its own file. */
#ifndef IOCTLGEN_CLI_H
#define IOCTLGEN_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <time.h>

#include "ioctlgen.h"
#include "ioctlreg.h"

/* Exit codes: the registry is wrong (1) is not the same as a bad command line (2). */
#define EXIT_DATA 1
#define EXIT_USAGE 2

#define DEFAULT_SPEC_DIR "spec"

int cmd_check(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_free(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_annotate(int argc, char **argv);

/* The long options every command takes: --spec DIR and --help. */
enum { OPT_SPEC = 0x100, OPT_HELP };

/*
 * One option of a command (getopt_long()'s struct option: name, has_arg,
 * NULL, its code: a letter the optstring may also give as -x, or a number
 * above 0xff) and where it goes: a value into *value, a flag's true into
 * *set; an option with neither is handed back to the command.  A table
 * ends with a zeroed entry.
 */
struct cli_opt {
	struct option o;
	const char **value;
	bool *set;
};

#define CLI_VALUE(name, code, place) { { name, required_argument, NULL, code }, place, NULL }
#define CLI_FLAG(name, code, place) { { name, no_argument, NULL, code }, NULL, place }
#define CLI_OWN(name, has_arg, code) { { name, has_arg, NULL, code }, NULL, NULL }
#define CLI_END { { NULL, 0, NULL, 0 }, NULL, NULL }

/* The code cli_option() returns when the command is done: after --help
 * (*rc 0) or an option refused, said in one line (*rc EXIT_USAGE). */
#define CLI_EXIT (-2)

/*
 * The next option of cmd's command line (optstring as getopt_long() takes
 * it, starting with ':'): those of opts with a place, --spec DIR (into
 * *spec) and --help are taken here; returns the code of the next option
 * that has no place (optarg its value), -1 after the last, or CLI_EXIT.
 */
int cli_option(const char *cmd, int argc, char **argv, const char *optstring,
	       const struct cli_opt *opts, const char **spec, int *rc);
/* Every option, for commands whose options all have places: 0, or CLI_EXIT with *rc. */
int cli_options(const char *cmd, int argc, char **argv, const char *optstring,
		const struct cli_opt *opts, const char **spec, int *rc);

/*
 * The spec directory of check, model, dump and lint, after their options:
 * --spec DIR or one SPEC_DIR operand, not both, else the default.  Returns
 * 0, or EXIT_USAGE after saying why.
 */
int spec_operand(const char *cmd, int argc, char **argv, const char **spec);

/* Print "ioctlgen <cmd>: error: ..." and return EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* After getopt_long() returned c, '?' or ':': say which argument is wrong
 * (options.c).  Returns EXIT_USAGE. */
int option_error(const char *cmd, int c, int argc, char **argv);

/* Exactly n operands after the options (what: "DIR TYPE NR SIZE"), else an
 * error naming the first one too many.  Returns 0 or EXIT_USAGE. */
int operand_count(const char *cmd, int argc, char **argv, int n, const char *what);

/* --tree given and not a directory: an error naming it.  0 or EXIT_USAGE. */
int tree_option(const char *cmd, const char *tree);

/* argv[0], for messages that tell the user what to run. */
extern const char *cli_program;

/* Print the usage of cmd to stdout (for --help) and return 0. */
int usage_help(const char *cmd);

/* Print the registry's diagnostics and their totals to stderr.  Returns 0
 * when it may be used (no errors, and no warnings under werror). */
int report_diags(const struct registry *reg, bool werror, bool show_accepted);

/*
 * The options of commands that report every diagnostic (check, model):
 * --werror, --show-accepted, and for make --summary [--full FILE]...
 */
enum { OPT_WERROR = 0x200, OPT_SHOW_ACCEPTED, OPT_SUMMARY, OPT_FULL };
#define REPORT_OPTIONS \
	CLI_OWN("werror", no_argument, OPT_WERROR), \
	CLI_OWN("show-accepted", no_argument, OPT_SHOW_ACCEPTED), \
	CLI_OWN("summary", no_argument, OPT_SUMMARY), \
	CLI_OWN("full", required_argument, OPT_FULL)

struct file_id;

struct report {
	bool werror, show_accepted, summary, given_full;
	struct file_id *full;	/* the files (or lines) whose warnings --summary shows */
	size_t n_full, cap_full;
};

/* Take one of REPORT_OPTIONS; false if opt is not one of them. */
bool report_option(struct report *r, int opt, const char *arg);

/* After the options: 0, or EXIT_USAGE after saying what does not go together. */
int report_usage(const struct report *r, const char *cmd);

/* Load and check the registry, print its diagnostics as r asks.  Returns 0
 * when it may be used (no errors, and no warnings under --werror), else
 * EXIT_DATA; the caller releases reg either way. */
/* tree: the kernel tree to hold new headers' names against, or NULL */
int report_load(struct registry *reg, const char *dir, const char *tree, const struct report *r);

void report_release(struct report *r);

/*
 * Load and check a registry a command only reads (decode, encode, lint),
 * against the kernel tree tree (or none: NULL): errors are printed,
 * warnings stay quiet.  Returns 0 or EXIT_DATA; the
 * caller releases reg either way.
 */
int load_quiet(struct registry *reg, const char *dir, const char *tree);

/* Write the model of reg to path, or to stdout for "-"; never half a file.
 * Returns 0, or EXIT_DATA after saying why. */
int write_model(const char *path, const struct registry *reg);

/* A number as C reads it (0x hex, 0 octal, decimal); parse_cli_uint() also
 * takes a character in C quotes ('T'). */
bool parse_cli_number(const char *s, uint64_t *out);
bool parse_cli_uint(const char *s, uint64_t *out);

/* The lookup table of a checked registry, in out (cli/table.c); spec_dir
 * as the table records it (relative to the table file's directory).
 * Returns 0 or EXIT_DATA after saying why. */
int registry_table(const struct registry *reg, const char *spec_dir, struct strbuf *out);
/* A table as compact JSON, through libioctlreg's API (cli/table_dump.c). */
void table_dump(const struct ioctlreg *r, struct strbuf *sb);

/* The table decode and annotate answer from (cli/table_open.c): --spec DIR
 * given, that registry's, made now; else --table FILE or build/ioctl.table,
 * unless the spec directory it was made from changed since (then that
 * registry's, made now, and a note on stderr).  Returns 0, or EXIT_DATA
 * after saying why. */
struct cli_table {
	struct ioctlreg *reg;
	struct strbuf mem;	/* a table made now */
};
int cli_table_open(const char *cmd, const char *spec, const char *table, struct cli_table *t);
void cli_table_close(struct cli_table *t);

#endif
