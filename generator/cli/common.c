// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int report_diags(const struct registry *reg, bool werror, bool show_accepted)
{
	diags_print(stderr, &reg->diags, werror, show_accepted);
	if (reg->diags.errors || reg->diags.warnings)
		fprintf(stderr, "%s: %u error%s, %u warning%s\n", reg->spec_dir, reg->diags.errors,
			reg->diags.errors == 1 ? "" : "s", reg->diags.warnings,
			reg->diags.warnings == 1 ? "" : "s");
	return reg->diags.errors || (werror && reg->diags.warnings) ? EXIT_DATA : 0;
}

int spec_operand(const char *cmd, int argc, char **argv, const char **spec)
{
	if (argc - optind > 1)
		return usage_error(cmd, "one spec directory at most");
	if (optind < argc) {
		if (*spec)
			return usage_error(cmd, "give the spec directory once: --spec DIR or SPEC_DIR");
		*spec = argv[optind];
	}
	if (!*spec)
		*spec = DEFAULT_SPEC_DIR;
	return 0;
}

int load_quiet(struct registry *reg, const char *dir, const char *tree)
{
	registry_load(reg, dir);
	reg->tree = tree;
	registry_check(reg);
	if (!reg->diags.errors)
		return 0;
	diags_print(stderr, &reg->diags, false, false);
	return EXIT_DATA;
}

/* As C reads an integer constant: 0x hex, a leading 0 octal (0777 is 511,
 * never 777), decimal otherwise. */
bool parse_cli_number(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (s[0] != '0' || !s[1] || s[1] == 'x' || s[1] == 'X')
		return parse_uint(s, out);
	for (const char *p = s + 1; *p; p++) {
		if (*p < '0' || *p > '7' || v > (UINT64_MAX >> 3))
			return false;
		v = v << 3 | (uint64_t)(*p - '0');
	}
	*out = v;
	return true;
}

bool parse_cli_uint(const char *s, uint64_t *out)
{
	unsigned int c;

	if (s[0] == '\'' && parse_magic(s, &c)) {
		*out = c;
		return true;
	}
	return parse_cli_number(s, out);
}

static int put_stdout(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	return fwrite(data, 1, len, stdout) == len ? 0 : -1;
}

static int put_file(void *ctx, const char *data, size_t len)
{
	return atomic_write(ctx, data, len);
}

int write_model(const char *path, const struct registry *reg)
{
	struct strbuf sb = { 0 };
	struct atomic_file f;
	char *through = NULL;
	const char *problem, *target;
	int rc = 0;

	if (!strcmp(path, "-")) {
		if (model_write_pieces(reg, &sb, put_stdout, NULL) == 0 && fflush(stdout) == 0)
			goto out;
		fprintf(stderr, "ioctlgen: error: cannot write standard output: %s\n", strerror(errno));
		rc = EXIT_DATA;
		goto out;
	}
	if ((problem = output_target(path, &through))) {
		fprintf(stderr, "%s: error: will not write over %s: ioctlgen writes regular files only\n",
			path, problem);
		rc = EXIT_DATA;
		goto out;
	}
	target = through ? through : path;
	/* by device and inode: a hard link or a path with .. names the same file */
	if (registry_read_file(reg, target)) {
		fprintf(stderr, "%s: error: will not write over a spec file this run read: give -o a file outside the registry\n",
			path);
		rc = EXIT_DATA;
		goto out;
	}
	if (atomic_open(&f, target)) {
		rc = EXIT_DATA;
	} else if (model_write_pieces(reg, &sb, put_file, &f) || atomic_commit(&f)) {
		atomic_abort(&f);
		rc = EXIT_DATA;
	}
	if (rc)
		fprintf(stderr, "%s: error: cannot write: %s\n", target, strerror(errno));
out:
	free(through);
	sb_release(&sb);
	return rc;
}
