// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

struct rule_count {
	const char *rule;
	unsigned int n;
};

static int rule_count_cmp(const void *pa, const void *pb)
{
	const struct rule_count *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return strcmp(a->rule, b->rule);
}

/* "shared-number 178, outside-range 120": warnings by rule, most first. */
static void warning_counts(const struct diags *d, struct strbuf *out)
{
	struct rule_count *v = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < d->n; i++) {
		const struct diag *g = &d->v[i];
		size_t k;

		if (g->sev != SEV_WARNING || g->accepted)
			continue;
		for (k = 0; k < n && strcmp(v[k].rule, g->rule); k++)
			;
		if (k == n) {
			grow(&v, &cap, n + 1, sizeof(*v));
			v[n++] = (struct rule_count){ g->rule, 0 };
		}
		v[k].n++;
	}
	if (n)
		qsort(v, n, sizeof(*v), rule_count_cmp);
	for (size_t k = 0; k < n; k++)
		sb_printf(out, "%s%s %u", k ? ", " : "", v[k].rule, v[k].n);
	free(v);
}

/* A file given with --full: known by device and inode, so that spec/x.yaml,
 * ./spec/x.yaml and an absolute path name the same file. */
struct file_id {
	dev_t dev;
	ino_t ino;
};

static bool file_id(const char *path, struct file_id *id)
{
	struct stat st;

	if (!path || stat(path, &st))
		return false;
	*id = (struct file_id){ st.st_dev, st.st_ino };
	return true;
}

static bool listed(const struct file_id *files, size_t n, const char *path)
{
	struct file_id id;

	if (!n || !file_id(path, &id))
		return false;
	for (size_t i = 0; i < n; i++)
		if (files[i].dev == id.dev && files[i].ino == id.ino)
			return true;
	return false;
}

/*
 * For make: errors in full, warnings as one line of counts by rule, except
 * those of the files given (the ones just edited), which are shown in full.
 */
static void print_summary(const struct registry *reg, const struct file_id *full, size_t n_full,
			  bool show_accepted)
{
	const struct diags *d = &reg->diags;
	const char *file = NULL;
	bool in_full = false;
	struct strbuf counts = { 0 };

	for (size_t i = 0; i < d->n; i++) {
		const struct diag *g = &d->v[i];

		if (g->mark.file != file) {	/* diags are sorted by file */
			file = g->mark.file;
			in_full = listed(full, n_full, file);
		}
		if (g->sev == SEV_ERROR || in_full)
			diag_print(stderr, g, false, show_accepted);
	}
	if (!d->errors && !d->warnings)
		return;
	warning_counts(d, &counts);
	fprintf(stderr, "%s: %u error%s, %u warning%s", reg->spec_dir, d->errors,
		d->errors == 1 ? "" : "s", d->warnings, d->warnings == 1 ? "" : "s");
	if (d->warnings)
		fprintf(stderr, " (%s); list them: %s check%s%s", counts.buf, cli_program,
			strcmp(reg->spec_dir, DEFAULT_SPEC_DIR) ? " " : "",
			strcmp(reg->spec_dir, DEFAULT_SPEC_DIR) ? reg->spec_dir : "");
	fputc('\n', stderr);
	sb_release(&counts);
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "werror", no_argument, NULL, 'W' },
		{ "show-accepted", no_argument, NULL, 'a' },
		{ "summary", no_argument, NULL, 's' },
		{ "full", required_argument, NULL, 'f' },
		COMMON_OPTIONS,
		{ 0 } };
	const char *spec = NULL;
	bool werror = false, show = false, summary = false;
	struct file_id *full = NULL;
	size_t n_full = 0, cap = 0;
	struct registry reg;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'W') {
			werror = true;
		} else if (c == 'a') {
			show = true;
		} else if (c == 's') {
			summary = true;
		} else if (c == 'f') {
			/* a file that is gone (deleted since the commit) has no warnings */
			grow(&full, &cap, n_full + 1, sizeof(*full));
			n_full += file_id(optarg, &full[n_full]);
		} else if (c == OPT_SPEC) {
			spec = optarg;
		} else if (c == OPT_HELP) {
			rc = usage_help("check");
			goto out;
		} else {
			rc = usage_error("check", "unknown option");
			goto out;
		}
	}
	if (spec_operand("check", argc, argv, &spec)) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (cap && !summary) {
		rc = usage_error("check", "--full FILE goes with --summary");
		goto out;
	}
	if (!summary) {
		rc = load_checked(&reg, spec, werror, show);
	} else {
		registry_load(&reg, spec);
		registry_check(&reg);
		/* --werror makes every warning an error: all of them in full */
		if (werror) {
			rc = report_diags(&reg, werror, show);
		} else {
			print_summary(&reg, full, n_full, show);
			rc = reg.diags.errors ? EXIT_DATA : 0;
		}
	}
	registry_release(&reg);
out:
	free(full);
	return rc;
}
