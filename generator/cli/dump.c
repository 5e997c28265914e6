// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "json.h"

/*
 * The registry for the stages before sizes exist (tools/measure-sizes, the
 * importer): the model's document without numbers, collisions or lint, so
 * that no other program parses the YAML.  --c-words: only the model's
 * "ioctl-macros" and "fixed-width-types", which need no spec, for the
 * tools that read C before any registry exists (generator/ioctltools/cwords.py).
 * --sizes FILE...: what sizes files say, each checked as the loader checks
 * sizes/<abi>.yaml, for tools/measure-sizes --only, which merges into them
 * (generator/ioctltools/registry.py sizes_files()).
 */

/* A document to standard output. */
static int put_doc(struct strbuf *sb)
{
	int rc = 0;

	if (fwrite(sb->buf, 1, sb->len, stdout) != sb->len || fflush(stdout)) {
		fprintf(stderr, "ioctlgen: error: cannot write standard output: %s\n", strerror(errno));
		rc = EXIT_DATA;
	}
	sb_release(sb);
	return rc;
}

static int write_cwords(void)
{
	struct strbuf sb = { 0 };

	model_write_cwords_doc(&sb);
	return put_doc(&sb);
}

static void size_map(struct json *j, const char *key, const struct size_entry *v, size_t n)
{
	open_(j, key, '{');
	for (size_t i = 0; i < n; i++) {
		member(j, NULL);
		jstr(j, v[i].type);
		sb_add(j->sb, ": ", 2);
		put_uint(j->sb, v[i].size);
	}
	close_(j, '}');
}

static int write_sizes(int n, char **paths)
{
	struct registry reg;
	struct strbuf sb = { 0 };
	struct json j = { &sb, 1, true, NULL, NULL, 0, 0 };

	registry_load_sizes_files(&reg, (size_t)n, (const char *const *)paths);
	if (reg.diags.errors) {
		diags_sort(&reg.diags);
		diags_print(stderr, &reg.diags, false, false);
		registry_release(&reg);
		return EXIT_DATA;
	}
	sb_putc(&sb, '{');
	kstr(&j, "stage", "sizes");
	open_(&j, "files", '[');
	for (size_t i = 0; i < reg.n_abis; i++) {
		const struct abi *a = &reg.abis[i];

		open_(&j, NULL, '{');
		kstr(&j, "file", a->sizes_file);
		kstr(&j, "abi", a->name);
		size_map(&j, "sizes", a->sizes, a->n_sizes);
		size_map(&j, "kernel-sizes", a->ksizes, a->n_ksizes);
		kstrlist(&j, "absent", a->absent, a->n_absent);
		kstrlist(&j, "kernel-context", a->kcontext, a->n_kcontext);
		close_(&j, '}');
	}
	close_(&j, ']');
	close_(&j, '}');
	sb_putc(&sb, '\n');
	registry_release(&reg);
	return put_doc(&sb);
}

int cmd_dump(int argc, char **argv)
{
	const char *out = "-", *spec = NULL;
	bool cwords = false, sizes = false;
	const struct cli_opt opts[] = {
		CLI_VALUE("output", 'o', &out), CLI_FLAG("c-words", 'w', &cwords),
		CLI_FLAG("sizes", 0x300, &sizes), CLI_END };
	struct registry reg;
	int rc = 0;

	if (cli_options("dump", argc, argv, ":o:", opts, &spec, &rc))
		return rc;
	if (cwords)
		return write_cwords();
	if (sizes) {
		if (spec || optind >= argc || strcmp(out, "-"))
			return usage_error("dump", "--sizes FILE... reads sizes files, no spec directory, "
					   "and writes to standard output");
		return write_sizes(argc - optind, argv + optind);
	}
	if (spec_operand("dump", argc, argv, &spec))
		return EXIT_USAGE;
	registry_load(&reg, spec);
	registry_check_unsized(&reg);
	if (reg.diags.errors) {
		diags_print(stderr, &reg.diags, false, false);
		rc = EXIT_DATA;
	} else {
		rc = write_model(out, &reg);
	}
	registry_release(&reg);
	return rc;
}
