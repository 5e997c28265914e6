// SPDX-License-Identifier: GPL-2.0
/*
 * With --tree: the commands the registry marks new (the series adds them)
 * are exactly those of the tree's version its uapi headers lack.  A
 * command that exists in the tree's version, is not marked new and is not
 * in the tree is a command someone added by hand without saying so: the
 * tests that compare with the pristine trees would fail far from the
 * cause.  A command marked new that the tree defines is no longer new.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

/* "6.1" from the tree's Makefile (VERSION, PATCHLEVEL), or "" if unread. */
static void tree_version(const char *tree, char *out, size_t n)
{
	char path[4096], line[256];
	long version = -1, patchlevel = -1;
	FILE *f;

	*out = '\0';
	snprintf(path, sizeof(path), "%s/Makefile", tree);
	if (!(f = fopen(path, "r")))
		return;
	for (int i = 0; i < 16 && fgets(line, sizeof(line), f); i++) {
		sscanf(line, "VERSION = %ld", &version);
		sscanf(line, "PATCHLEVEL = %ld", &patchlevel);
	}
	fclose(f);
	if (version >= 0 && patchlevel >= 0)
		snprintf(out, n, "%ld.%ld", version, patchlevel);
}

/* The tree's own copy of header hd, whole (util.c's read_file), or NULL. */
static char *tree_copy(const char *tree, const struct header *hd)
{
	char path[4096];
	size_t len;

	if (hd->arch)
		snprintf(path, sizeof(path), "%s/arch/%s/include/uapi/%s", tree, hd->arch, hd->path);
	else
		snprintf(path, sizeof(path), "%s/include/uapi/%s", tree, hd->path);
	return read_file(path, &len);
}

/* Does text name word as a whole identifier (an enumerator such as binder's
 * BC_TRANSACTION is no macro: the tree's name table lacks it)? */
static bool names_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
		if ((p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
		    !(isalnum((unsigned char)p[n]) || p[n] == '_'))
			return true;
	return false;
}

void check_new_marks(struct registry *reg, const char *tree,
		     const char *(*defined)(const void *ctx, const char *name), const void *ctx)
{
	char name[48];
	size_t v = SIZE_MAX;

	tree_version(tree, name, sizeof(name));
	for (size_t i = 0; i < reg->n_versions; i++)
		if (!strcmp(reg->versions[i].name, name))
			v = i;
	/* a tree of a version the registry does not know tells nothing */
	if (reg->n_versions && v == SIZE_MAX)
		return;
	for (size_t h = 0; h < reg->n_headers; h++) {
		const struct header *hd = &reg->headers[h];

		if (hd->is_new)
			continue;	/* check_namespace.c checks a new header's names */
		if (hd->kernel_internal)
			continue;	/* not uapi: the suite kernel-internal compiles the tree's */
		char *text = NULL;	/* the tree's copy, read once, when a name is not a macro */
		bool read = false;

		for (size_t i = 0; i < hd->n_commands; i++) {
			const struct command *c = &hd->commands[i];
			const char *where;

			/* reserved: the header has it commented out */
			if (c->reserved || (reg->n_versions && !lifetime_has(&c->life, v)))
				continue;
			where = defined(ctx, c->name);
			if (!where && !read) {
				text = tree_copy(tree, hd);
				read = true;
			}
			if (!where && text && names_word(text, c->name))
				where = hd->path;
			if (c->is_new && where)
				CMD_ERR(reg, c, c->new_mark, "new-mark",
					"%s is marked new, but the %s tree already defines it (%s): drop 'new: true'",
					c->name, name, where);
			else if (!c->is_new && !where)
				CMD_ERR(reg, c, c->mark, "new-mark",
					"%s is not in the %s tree's uapi headers: a command the series adds is marked 'new: true'",
					c->name, name);
		}
		free(text);
	}
}
