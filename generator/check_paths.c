// SPDX-License-Identifier: GPL-2.0
/*
 * Where a header is installed: headers_install puts
 * the directories of include/uapi/ and each arch's include/uapi/asm/ under
 * /usr/include, so a header anywhere else (sys/, a bare stdio.h) would
 * land beside, or over, the C library's.  With a tree (--tree) its own
 * directories say which; without one, those of 6.1 and 6.12.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rules.h"

/* include/uapi of 6.1 and 6.12: the fallback without a tree */
static const char *const fixed_dirs[] = {
	"asm-generic", "drm", "linux", "misc", "mtd", "rdma", "regulator", "scsi", "sound",
	"video", "xen",
};

struct uapi_dirs {
	const char *const *v;	/* sorted */
	size_t n;
	const char *from;	/* where they come from, for messages */
	bool asm_dir;		/* some arch installs asm/ */
};

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The directories of tree/include/uapi, and whether any arch has asm/. */
static void tree_dirs(struct registry *reg, struct uapi_dirs *d)
{
	glob_t g;

	*d = (struct uapi_dirs){ NULL, 0, NULL, false };
	d->from = arena_printf(&reg->arena, "the directories of %s/include/uapi, and asm/ of its arches",
			       reg->tree);
	if (!glob(arena_printf(&reg->arena, "%s/include/uapi/*/", arena_glob_quote(&reg->arena, reg->tree)), 0, NULL, &g)) {
		const char **v = arena_alloc(&reg->arena, (g.gl_pathc + 1) * sizeof(*v));

		for (size_t i = 0; i < g.gl_pathc; i++) {
			char *p = g.gl_pathv[i];
			size_t n = strlen(p) - 1;	/* the '/' */
			const char *base;

			p[n] = '\0';
			base = strrchr(p, '/') + 1;
			if (*base != '.')
				v[d->n++] = arena_strdup(&reg->arena, base);
		}
		globfree(&g);
		qsort(v, d->n, sizeof(*v), str_cmp);
		d->v = v;
	}
	if (!glob(arena_printf(&reg->arena, "%s/arch/*/include/uapi/asm/",
			      arena_glob_quote(&reg->arena, reg->tree)), 0, NULL, &g)) {
		d->asm_dir = g.gl_pathc > 0;
		globfree(&g);
	}
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static void check_path(struct registry *reg, const struct uapi_dirs *d, const struct header *h)
{
	const char *slash = strchr(h->path, '/');
	size_t n = slash ? (size_t)(slash - h->path) : 0;
	bool in_asm = n == 3 && !strncmp(h->path, "asm", 3);
	struct strbuf known = { 0 };

	if (h->arch) {
		if (!in_asm)
			ERR(reg, h->path_mark, "uapi-namespace",
			    "header '%s' of arch %s: an arch's UAPI headers are asm/*.h, nothing else",
			    h->path, h->arch);
		else if (reg->tree && !is_dir(arena_printf(&reg->arena, "%s/arch/%s/include/uapi/asm",
							    reg->tree, h->arch)))
			ERR(reg, h->path_mark, "uapi-namespace",
			    "header '%s' of arch %s: the tree has no %s/arch/%s/include/uapi/asm/ to install it from",
			    h->path, h->arch, reg->tree, h->arch);
		return;
	}
	if (in_asm && d->asm_dir)
		return;
	for (size_t i = 0; slash && i < d->n; i++)
		if (n == strlen(d->v[i]) && !strncmp(h->path, d->v[i], n))
			return;
	for (size_t i = 0; i < d->n; i++)
		sb_printf(&known, "%s/, ", d->v[i]);
	sb_printf(&known, "%s", d->asm_dir ? "asm/" : "");
	ERR(reg, h->path_mark, "uapi-namespace",
	    "header '%s' is outside the kernel's UAPI namespaces (%s): installed, it would stand beside the C library's headers (%s)",
	    h->path, known.buf, d->from);
	sb_release(&known);
}

void check_uapi_paths(struct registry *reg)
{
	struct uapi_dirs d = { fixed_dirs, sizeof(fixed_dirs) / sizeof(*fixed_dirs),
			       "those of 6.1 and 6.12; --tree takes a tree's own", true };

	if (reg->tree)
		tree_dirs(reg, &d);
	for (size_t k = 0; k < reg->n_headers; k++)
		/* a kernel-internal header is outside the UAPI on purpose */
		if (reg->headers[k].path && !reg->headers[k].kernel_internal)
			check_path(reg, &d, &reg->headers[k]);
}
