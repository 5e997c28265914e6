// SPDX-License-Identifier: GPL-2.0
/*
 * The spec tree: every *.yaml file below the spec directory.  The tree comes
 * from contributors, so the walk is bounded whatever it holds: a symlink
 * must stay inside the spec directory, each directory is read once (by
 * device and inode), and a directory symlink that leads back to one of its
 * ancestors is reported as a loop instead of being walked forever.  Real
 * directories are walked first and symlinked ones after, so that a
 * directory reached twice is always blamed on the link, whatever order
 * readdir() gives.  Names a loader would silently miss (x.yml, a directory
 * named x.yaml, a dot file, a .yaml under schema/) are errors.
 *
 * Every name below the spec directory follows one grammar, ASCII letters,
 * digits, '_', '.' and '-', starting with a letter, digit or '_' (rule
 * spec-name): the Makefile hands spec file names to the shell and to make
 * itself, and relies on it (SPEC_NAME_OK there) to keep '$(...)', ';',
 * quotes, spaces and globs out of its recipes.
 */
#define _XOPEN_SOURCE 700	/* realpath() */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>		/* strcasecmp() */
#include <sys/stat.h>

#include "grammar.h"
#include "spec_guard.h"

struct dir_id {
	dev_t dev;
	ino_t ino;
	const char *rel;	/* where the walk read it */
};

struct walk {
	struct loader *L;
	const char *root, *real_root;
	size_t real_len;
	struct dir_id *seen;
	size_t n_seen, cap_seen;
	const char **links;	/* directory symlinks, walked after the real tree */
	size_t n_links, cap_links;
	struct pathlist *out;
};

/* "syntax" for what cannot be read, as for a file; "spec-tree" for the shape of the tree */
#define TREE_ERR(w, rule, path, ...) \
	LOAD_ERR((w)->L, ((struct mark){ (path), 1, 1 }), rule, __VA_ARGS__)

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcmp(s + n - k, suffix);
}

/*
 * NULL when a name below the spec directory follows the grammar; else what
 * is wrong (static or in buf).
 */
static const char *name_problem(const char *name, char *buf, size_t size)
{
	if (name[0] == '.')
		return "a dot file, which the walk would skip";
	if (name[0] == '-')
		return "a name starting with '-'";
	for (const char *p = name; *p; p++) {
		unsigned char c = *p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '_' || c == '.' || c == '-')
			continue;
		if (c >= 0x20 && c < 0x7f)
			snprintf(buf, size, "'%c' in a name", c);
		else
			snprintf(buf, size, "byte 0x%02x in a name", c);
		return buf;
	}
	return NULL;
}

/* Directly or deeper below schema/, which holds the JSON Schemas: no spec file is read there. */
static bool under_schema(const char *sub)
{
	return !strncmp(sub, "schema", 6) && (sub[6] == '/' || sub[6] == '\0');
}

static bool has_suffix_nocase(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcasecmp(s + n - k, suffix);
}

static bool path_within(const char *path, const char *dir, size_t len)
{
	return !strncmp(path, dir, len) && (path[len] == '/' || path[len] == '\0');
}

/* A symlink must resolve to a place inside the spec directory. */
static bool inside(struct walk *w, const char *full)
{
	char *real = realpath(full, NULL);
	bool ok = real && path_within(real, w->real_root, w->real_len);

	if (!real)
		TREE_ERR(w, "syntax", full, "cannot resolve: %s", strerror(errno));
	else if (!ok)
		TREE_ERR(w, "spec-tree", full, "leads outside the spec directory, to %s", real);
	free(real);
	return ok;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_dir(struct walk *w, const char *rel, const struct stat *dst);

static void walk_entry(struct walk *w, const char *rel, const char *name)
{
	char *sub = rel[0] ? arena_printf(w->L->a, "%s/%s", rel, name) : arena_strdup(w->L->a, name);
	char *full = arena_printf(w->L->a, "%s/%s", w->root, sub);
	bool yaml = has_suffix(name, ".yaml");
	struct stat lst, st;
	const char *problem;
	char buf[80];
	size_t at;

	/* paths reach every message: none may hold a newline or a terminal escape */
	if (grammar_check(G_LINE, name, &at, buf, sizeof(buf))) {
		text_defang(full);
		TREE_ERR(w, "spec-tree", full, "a name with a control character ('?' here)");
		return;
	}
	if ((problem = name_problem(name, buf, sizeof(buf)))) {
		TREE_ERR(w, "spec-name", full,
			 "%s: a name below the spec directory is ASCII letters, digits, '_', '.' and '-', and starts with a letter, digit or '_'",
			 problem);
		return;
	}
	if (lstat(full, &lst))
		return;		/* gone since readdir(): nothing to load */
	if (S_ISLNK(lst.st_mode) && !inside(w, full))
		return;
	/* what is no link is what lstat() saw: one system call per entry */
	if (!S_ISLNK(lst.st_mode))
		st = lst;
	else if (stat(full, &st)) {
		/* a dangling link or a link loop: never drop a spec file silently */
		if (yaml)
			TREE_ERR(w, "syntax", full, "cannot read: %s", strerror(errno));
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		if (yaml)
			TREE_ERR(w, "spec-tree", full, "a directory named like a spec file: spec files are regular *.yaml files");
		else if (S_ISLNK(lst.st_mode)) {
			grow(&w->links, &w->cap_links, w->n_links + 1, sizeof(*w->links));
			w->links[w->n_links++] = sub;
		} else {
			walk_dir(w, sub, &st);
		}
	} else if (yaml && under_schema(sub)) {
		TREE_ERR(w, "spec-tree", full, "a .yaml file under schema/, which holds the JSON Schemas: it would never be read");
	} else if (yaml) {
		/* a FIFO or a device would block read_file() or never end */
		if (!S_ISREG(st.st_mode)) {
			TREE_ERR(w, "syntax", full, "cannot read: not a regular file");
			return;
		}
		grow(&w->out->v, &w->out->cap, w->out->n + 1, sizeof(*w->out->v));
		w->out->v[w->out->n++] = sub;
	} else if (has_suffix_nocase(name, ".yml") || has_suffix_nocase(name, ".yaml")) {
		/* x.yml, x.YAML, x.Yaml: read as YAML by other tools, never by this walk */
		TREE_ERR(w, "spec-tree", full, "spec files end in .yaml: this one would never be read");
	}
}

/* Read one directory, once; its entries in name order. */
static void walk_dir(struct walk *w, const char *rel, const struct stat *dst)
{
	const char *path = rel[0] ? arena_printf(w->L->a, "%s/%s", w->root, rel) : w->root;
	struct pathlist names = { 0 };
	struct dirent *e;
	DIR *d;

	for (size_t i = 0; i < w->n_seen; i++) {
		if (w->seen[i].dev == dst->st_dev && w->seen[i].ino == dst->st_ino) {
			TREE_ERR(w, "spec-tree", path, "the same directory as %s/%s: its files would be read twice",
				 w->root, w->seen[i].rel);
			return;
		}
	}
	if (!(d = opendir(path))) {
		TREE_ERR(w, "syntax", path, "cannot read directory: %s", strerror(errno));
		return;
	}
	grow(&w->seen, &w->cap_seen, w->n_seen + 1, sizeof(*w->seen));
	w->seen[w->n_seen++] = (struct dir_id){ dst->st_dev, dst->st_ino, rel };
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		grow(&names.v, &names.cap, names.n + 1, sizeof(*names.v));
		names.v[names.n++] = arena_strdup(w->L->a, e->d_name);
	}
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), name_cmp);
	for (size_t i = 0; i < names.n; i++)
		walk_entry(w, rel, names.v[i]);
	free(names.v);
}

/* A directory symlink: a loop when it resolves to its own directory or one
 * above it, else walked like a directory (once). */
static void walk_link(struct walk *w, const char *sub)
{
	char *full = arena_printf(w->L->a, "%s/%s", w->root, sub);
	char *real = realpath(full, NULL);
	char *parent = arena_strdup(w->L->a, full);
	char *real_parent;
	struct stat st;

	*strrchr(parent, '/') = '\0';
	real_parent = realpath(parent, NULL);
	if (!real || !real_parent || stat(real, &st)) {
		TREE_ERR(w, "syntax", full, "cannot resolve: %s", strerror(errno));
	} else if (path_within(real_parent, real, strlen(real))) {
		TREE_ERR(w, "spec-tree", full, "a directory symlink loop: it leads back to %s, above itself",
			 real);
	} else {
		walk_dir(w, sub, &st);
	}
	free(real);
	free(real_parent);
}

void spec_walk(struct loader *L, const char *root, struct pathlist *out)
{
	struct walk w = { .L = L, .root = root, .out = out };
	struct stat st;
	char *real = realpath(root, NULL);

	if (!real || stat(real, &st)) {
		TREE_ERR(&w, "syntax", root, "cannot read directory: %s", strerror(errno));
		free(real);
		return;
	}
	w.real_root = real;
	w.real_len = strlen(real);
	if (w.real_len == 1)	/* the spec directory is /: everything is inside */
		w.real_len = 0;
	walk_dir(&w, "", &st);
	/* walking a link may find more links: each is taken once */
	for (size_t i = 0; i < w.n_links; i++)
		walk_link(&w, w.links[i]);
	free(w.links);
	free(w.seen);
	free(real);
}
