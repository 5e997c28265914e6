// SPDX-License-Identifier: GPL-2.0
/*
 * The table decode and annotate answer from: the one `make` made
 * (build/ioctl.table, or --table FILE), unless a file below the spec
 * directory it was made from (which it names relative to its own
 * directory) is newer than it (its mtime: when ioctlgen table read them); then, or without it, or
 * with --spec DIR, one made in memory from the registry's YAML (slow: the
 * whole load and check), saying why on stderr.  Never stale answers.
 */
#define _DEFAULT_SOURCE	/* d_type */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"

#define DEFAULT_TABLE "build/ioctl.table"

static bool newer(const struct stat *st, int64_t sec, long nsec)
{
	return st->st_mtim.tv_sec > sec || (st->st_mtim.tv_sec == sec && st->st_mtim.tv_nsec > nsec);
}

/* The first entry below dir (dir itself included) changed after sec.nsec:
 * its path in *found (malloc()ed); false when there is none. */
static bool find_newer(const char *dir, int64_t sec, long nsec, char **found, int depth)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	bool hit = false;

	if (lstat(dir, &st))
		return false;
	if (newer(&st, sec, nsec)) {
		*found = strdup(dir);
		return true;
	}
	if (!S_ISDIR(st.st_mode) || depth > 32 || !(d = opendir(dir)))
		return false;
	while (!hit && (e = readdir(d))) {
		char path[PATH_MAX];

		if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path))
			continue;
		if (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN) {
			hit = find_newer(path, sec, nsec, found, depth + 1);
		} else if (!lstat(path, &st) && newer(&st, sec, nsec)) {
			*found = strdup(path);
			hit = true;
		}
	}
	closedir(d);
	return hit;
}

/* The table of the registry in dir, made now, in t->mem. */
static int table_from_spec(const char *cmd, const char *dir, struct cli_table *t)
{
	struct registry reg;
	char err[256];
	int rc;

	rc = load_quiet(&reg, dir, NULL);
	if (!rc && table_open_registry(&reg, dir, &t->mem, &t->reg, err, sizeof(err))) {
		fprintf(stderr, "ioctlgen %s: error: %s: %s\n", cmd, dir, err);
		rc = EXIT_DATA;
	}
	registry_release(&reg);
	return rc;
}

int cli_table_open(const char *cmd, const char *spec, const char *table, struct cli_table *t)
{
	const char *path = table ? table : DEFAULT_TABLE;
	char err[PATH_MAX + 100], dir[PATH_MAX], *changed = NULL;
	const char *rel, *slash;
	int64_t sec;
	long nsec;
	struct stat st;

	*t = (struct cli_table){ 0 };
	if (spec)
		return table_from_spec(cmd, spec, t);
	if (ioctlreg_open(path, &t->reg, err, sizeof(err))) {
		/* --table FILE must be there; the default one is made by make */
		if (table || stat(DEFAULT_SPEC_DIR, &st)) {
			fprintf(stderr, "ioctlgen %s: error: %s (make makes %s; or give --spec DIR)\n", cmd,
				err, DEFAULT_TABLE);
			return EXIT_DATA;
		}
		fprintf(stderr, "ioctlgen %s: note: no lookup table (%s): reading the registry in %s/ instead, slowly; `make %s` makes it\n",
			cmd, err, DEFAULT_SPEC_DIR, DEFAULT_TABLE);
		return table_from_spec(cmd, DEFAULT_SPEC_DIR, t);
	}
	/* the table names its spec directory from its own directory */
	rel = ioctlreg_spec_dir(t->reg);
	slash = strrchr(path, '/');
	if (rel[0] == '/' || !slash)
		snprintf(dir, sizeof(dir), "%s", rel);
	else
		snprintf(dir, sizeof(dir), "%.*s/%s", (int)(slash - path), path, rel);
	ioctlreg_made(t->reg, &sec, &nsec);
	if (stat(dir, &st)) {
		fprintf(stderr, "ioctlgen %s: warning: %s was made from %s, which is gone: it cannot be told current\n",
			cmd, path, dir);
		return 0;
	}
	if (!find_newer(dir, sec, nsec, &changed, 0))
		return 0;
	fprintf(stderr, "ioctlgen %s: note: %s is older than %s: reading the registry there instead, slowly; `make` remakes the table\n",
		cmd, path, changed);
	free(changed);
	cli_table_close(t);
	return table_from_spec(cmd, dir, t);
}

void cli_table_close(struct cli_table *t)
{
	ioctlreg_close(t->reg);
	sb_release(&t->mem);
	t->reg = NULL;
}
