// SPDX-License-Identifier: GPL-2.0
/* How check and model report the registry's diagnostics: every one, or for
 * make a summary line plus the warnings of the files just edited. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* A file given with --full: known by device and inode, so that spec/x.yaml,
 * ./spec/x.yaml and an absolute path name the same file; with FILE:A-B only
 * its lines A to B (the entries the user changed, tools/changed-entries). */
struct file_id {
	dev_t dev;
	ino_t ino;
	unsigned long first, last;	/* 0, 0: the whole file */
};

static bool file_id(const char *path, struct file_id *id)
{
	struct stat st;

	if (!path || stat(path, &st))
		return false;
	*id = (struct file_id){ st.st_dev, st.st_ino, 0, 0 };
	return true;
}

/* FILE:A-B (when no file has that very name): the file and its lines. */
static bool file_span(const char *arg, struct file_id *id)
{
	const char *colon = strrchr(arg, ':');
	unsigned long a, b;
	char *path, *end;
	bool ok;

	if (file_id(arg, id))
		return true;
	if (!colon)
		return false;
	a = strtoul(colon + 1, &end, 10);
	if (end == colon + 1 || *end != '-')
		return false;
	b = strtoul(end + 1, &end, 10);
	if (*end || a == 0 || b < a)
		return false;
	path = strndup(arg, (size_t)(colon - arg));
	ok = file_id(path, id);
	free(path);
	id->first = a;
	id->last = b;
	return ok;
}

static bool listed(const struct report *r, const char *path, unsigned long line)
{
	struct file_id id;

	if (!r->n_full || !file_id(path, &id))
		return false;
	for (size_t i = 0; i < r->n_full; i++)
		if (r->full[i].dev == id.dev && r->full[i].ino == id.ino &&
		    (!r->full[i].first || (line >= r->full[i].first && line <= r->full[i].last)))
			return true;
	return false;
}

bool report_option(struct report *r, int opt, const char *arg)
{
	switch (opt) {
	case OPT_WERROR:
		r->werror = true;
		return true;
	case OPT_SHOW_ACCEPTED:
		r->show_accepted = true;
		return true;
	case OPT_SUMMARY:
		r->summary = true;
		return true;
	case OPT_FULL:
		/* a file that is gone (deleted since the commit) has no warnings */
		r->given_full = true;
		grow(&r->full, &r->cap_full, r->n_full + 1, sizeof(*r->full));
		r->n_full += file_span(arg, &r->full[r->n_full]);
		return true;
	}
	return false;
}

int report_usage(const struct report *r, const char *cmd)
{
	if (r->given_full && !r->summary)
		return usage_error(cmd, "--full FILE goes with --summary");
	return 0;
}

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

/* "shared-number 131, outside-range 120": warnings by rule, most first. */
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

/* Errors in full, warnings as one line of counts by rule, except those of
 * the files given with --full, which are shown in full. */
static void print_summary(const struct registry *reg, const struct report *r)
{
	const struct diags *d = &reg->diags;
	struct strbuf counts = { 0 };

	for (size_t i = 0; i < d->n; i++) {
		const struct diag *g = &d->v[i];

		if (g->sev == SEV_ERROR || listed(r, g->mark.file, g->mark.line))
			diag_print(stderr, g, false, r->show_accepted);
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

int report_load(struct registry *reg, const char *dir, const char *tree, const struct report *r)
{
	registry_load(reg, dir);
	registry_check(reg);
	if (tree)
		registry_check_tree(reg, tree);
	/* --werror makes every warning an error: all of them in full */
	if (!r->summary || r->werror)
		return report_diags(reg, r->werror, r->show_accepted);
	print_summary(reg, r);
	return reg->diags.errors ? EXIT_DATA : 0;
}

void report_release(struct report *r)
{
	free(r->full);
	r->full = NULL;
	r->n_full = r->cap_full = 0;
}
