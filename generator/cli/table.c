// SPDX-License-Identifier: GPL-2.0
/* ioctlgen table: the registry as libioctlreg's lookup table, written whole or not at all. */
#define _XOPEN_SOURCE 700	/* realpath(), strndup(), utimensat() */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "table.h"

int registry_table(const struct registry *reg, const char *spec_dir, struct strbuf *out)
{
	int rc = table_build(reg, spec_dir, out);

	if (rc)
		fprintf(stderr, "%s: error: the registry does not fit a lookup table (offsets are 32-bit)\n",
			spec_dir);
	return rc ? EXIT_DATA : 0;
}

/* The spec directory as seen from the directory the table file goes to
 * ("../spec" for build/ioctl.table): the same in every clone.  malloc()ed;
 * spec itself when either cannot be resolved. */
static char *spec_from_table(const char *spec, const char *out)
{
	char *slash = strrchr(out, '/');
	char *dir = slash ? strndup(out, (size_t)(slash - out) + 1) : strdup(".");
	char *from = realpath(dir, NULL), *to = realpath(spec, NULL);
	struct strbuf sb = { 0 };
	size_t common = 0;

	free(dir);
	if (!from || !to) {
		free(from);
		free(to);
		return strdup(spec);
	}
	/* skip the whole components both share, then one ".." per component
	 * of from left, then the rest of to */
	for (size_t i = 0;; i++) {
		bool end_f = !from[i] || from[i] == '/', end_t = !to[i] || to[i] == '/';

		if (end_f && end_t)
			common = i;
		if (!from[i] || !to[i] || from[i] != to[i])
			break;
	}
	for (const char *p = from + common; *p; p++)
		if (*p == '/')
			sb_add(&sb, "../", 3);
	sb_add(&sb, to + common + (to[common] == '/'), strlen(to + common + (to[common] == '/')));
	if (!sb.len)
		sb_add(&sb, ".", 1);
	else if (sb.buf[sb.len - 1] == '/')
		sb.len--;
	sb_putc(&sb, '\0');
	free(from);
	free(to);
	return sb.buf;
}

/* --dump TABLE: the table as JSON, on standard output or -o FILE. */
static int dump_table(const char *path, const char *out)
{
	struct ioctlreg *r;
	struct strbuf sb = { 0 };
	char err[PATH_MAX + 100];
	int rc = 0;

	if (ioctlreg_open(path, &r, err, sizeof(err))) {
		fprintf(stderr, "ioctlgen table: error: %s\n", err);
		return EXIT_DATA;
	}
	table_dump(r, &sb);
	ioctlreg_close(r);
	if (out ? write_file_atomic(out, sb.buf, sb.len) : fwrite(sb.buf, 1, sb.len, stdout) != sb.len) {
		fprintf(stderr, "%s: error: cannot write: %s\n", out ? out : "standard output", strerror(errno));
		rc = EXIT_DATA;
	}
	sb_release(&sb);
	return rc;
}

int cmd_table(int argc, char **argv)
{
	const char *out = NULL, *spec = NULL, *dump = NULL;
	const struct cli_opt opts[] = {
		CLI_VALUE("output", 'o', &out), CLI_VALUE("dump", 'd', &dump), CLI_END };
	struct strbuf sb = { 0 };
	struct registry reg;
	struct timespec made;
	int rc;

	if (cli_options("table", argc, argv, ":o:", opts, &spec, &rc))
		return rc;
	if (dump)
		return dump_table(dump, out);
	if (!out)
		return usage_error("table", "no output file: give -o FILE");
	if (spec_operand("table", argc, argv, &spec))
		return EXIT_USAGE;
	/* before the first file is read: a spec file changed after it makes
	 * the table stale, even one changed while it is made */
	clock_gettime(CLOCK_REALTIME, &made);
	rc = load_quiet(&reg, spec, NULL);
	if (!rc) {
		char *rel = spec_from_table(spec, out);

		rc = registry_table(&reg, rel, &sb);
		free(rel);
	}
	if (!rc && registry_read_file(&reg, out)) {
		fprintf(stderr, "%s: error: will not write over a spec file this run read\n", out);
		rc = EXIT_DATA;
	}
	if (!rc && write_file_atomic(out, sb.buf, sb.len)) {
		fprintf(stderr, "%s: error: cannot write: %s\n", out, strerror(errno));
		rc = EXIT_DATA;
	}
	/* the file's mtime says when the registry was read: a spec file changed
	 * after that (even while it was read) makes the table stale */
	if (!rc && utimensat(AT_FDCWD, out, (const struct timespec[2]){ made, made }, 0)) {
		fprintf(stderr, "%s: error: cannot set its time: %s\n", out, strerror(errno));
		rc = EXIT_DATA;
	}
	sb_release(&sb);
	registry_release(&reg);
	return rc;
}
