// SPDX-License-Identifier: GPL-2.0
/*
 * One C namespace across the registry.  The generated
 * headers meet in one translation unit: a macro of one header rewrites a
 * constant, member or tag of another wherever both are visible, and a name
 * the compiler's headers own (<asm/ioctl.h>'s _IOC family, an include
 * guard, a macro that expands to nothing) changes what every includer
 * sees.  The loader checks names within one spec (spec_types.c); this
 * holds every name against the others and the reserved ones:
 *   - no command, constant, enum value, type or member takes a reserved name;
 *   - no constant or enum value takes a name another header defines as a
 *     command, constant or enum value, nor a command another header's
 *     constant or enum value (two headers' commands of one name are the
 *     arch variants and aliases check_names.c knows);
 *   - no member or tag takes the name of any header's macro.
 */
#define _XOPEN_SOURCE 700	/* nftw() */
#include <ctype.h>
#include <ftw.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "cwords.h"
#include "rules.h"

/* Macros the kernel's headers define to nothing, or to an attribute, in
 * userspace and kernel builds (headers_install.sh strips some): a member
 * or constant of that name vanishes or turns into an attribute. */
static const char *const empty_macros[] = {
	"__always_inline", "__asm__", "__attribute__", "__attribute_const__", "__bitwise",
	"__bitwise__", "__extension__", "__force", "__inline", "__inline__", "__iomem", "__kernel",
	"__must_check", "__nocast", "__packed", "__percpu", "__rcu", "__safe", "__signed__",
	"__user", "__volatile__",
};

/* What <asm/ioctl.h> and asm-generic/ioctl.h define on every arch besides
 * the ioctl macros (cwords.c), and their guards (6.1 and 6.12); any _IOC_*
 * name besides. */
static const char *const ioctl_h_names[] = {
	"IOCSIZE_MASK", "IOCSIZE_SHIFT", "IOC_IN", "IOC_INOUT", "IOC_OUT", "_ALPHA_IOCTL_H",
	"_ASM_PARISC_IOCTL_H", "_ASM_POWERPC_IOCTL_H", "_SPARC_IOCTL_H",
	"_UAPI_ASM_GENERIC_IOCTL_H", "__ASM_IOCTL_H", "__KERNEL__",
};

enum owner_kind { OWN_COMMAND, OWN_CONSTANT, OWN_ENUM_VALUE };

static const char *const owner_words[] = { "a command", "a constant", "an enum value" };
static const char *const owner_nouns[] = { "command", "constant", "enum value" };

struct owned {
	const char *name;
	const struct header *h;
	struct mark mark;
	enum owner_kind kind;
};

struct names {
	struct owned *v;
	size_t n, cap;
	struct guard {
		char *name;
		const struct header *h;
	} *guards;		/* include-guard spellings of every header, sorted */
	size_t n_guards;
};

static int owned_cmp(const void *a, const void *b)
{
	return strcmp(((const struct owned *)a)->name, ((const struct owned *)b)->name);
}

static int guard_cmp(const void *a, const void *b)
{
	return strcmp(((const struct guard *)a)->name, ((const struct guard *)b)->name);
}

static bool in_list(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static void add(struct names *nm, const char *name, const struct header *h, struct mark m,
		enum owner_kind kind)
{
	if (!name)
		return;
	grow(&nm->v, &nm->cap, nm->n + 1, sizeof(*nm->v));
	nm->v[nm->n++] = (struct owned){ name, h, m, kind };
}

/* prefix, then a and b in upper case with '_' for each other character:
 * the stem of a guard (LINUX_FS_H for linux/fs.h) after prefix */
static char *guard_text(const char *prefix, const char *a, const char *b)
{
	struct strbuf sb = { 0 };

	sb_printf(&sb, "%s%s%s", prefix, a, b);
	for (char *p = sb.buf + strlen(prefix); *p; p++)
		*p = isalnum((unsigned char)*p) ? (char)toupper((unsigned char)*p) : '_';
	return sb.buf;
}

static void add_stem(struct names *nm, const struct header *h, const char *a, const char *b)
{
	static const char *const prefixes[] = { "", "_", "__", "_UAPI_", "_UAPI__", "__UAPI_" };
	const size_t np = sizeof(prefixes) / sizeof(*prefixes);

	nm->guards = xrealloc(nm->guards, (nm->n_guards + np) * sizeof(*nm->guards));
	for (size_t i = 0; i < np; i++)
		nm->guards[nm->n_guards++] = (struct guard){ guard_text(prefixes[i], a, b), h };
}

/* The guard the renderer writes for a new header (render.py's
 * include_guard()): _UAPI_LINUX_FS_H, _UAPI_ASM_X86_FOO_H for x86's asm/foo.h.
 * free() it. */
static char *new_guard(const struct header *h)
{
	char *arch, *g;

	if (!h->arch)
		return guard_text("_UAPI_", h->path, "");
	arch = guard_text("", h->arch, "/");
	g = strncmp(h->path, "asm/", 4) ? guard_text("_UAPI_", arch, h->path) :
	    guard_text("_UAPI_ASM_", arch, h->path + 4);
	free(arch);
	return g;
}

/*
 * The spellings the kernel's uapi guards take for a header: _UAPI_LINUX_FS_H
 * (what the renderer writes), _LINUX_FS_H, __LINUX_FS_H, LINUX_FS_H; for an
 * arch's asm/foo.h _ASM_X86_FOO_H, _ASM_FOO_H and _X86_FOO_H as well.
 */
static void add_guards(struct names *nm, const struct header *h)
{
	struct strbuf sb = { 0 };

	if (!h->arch || strncmp(h->path, "asm/", 4)) {
		add_stem(nm, h, h->path, "");
		return;
	}
	sb_printf(&sb, "asm_%s_", h->arch);
	add_stem(nm, h, sb.buf, h->path + 4);
	add_stem(nm, h, sb.buf + 4, h->path + 4);
	add_stem(nm, h, h->path, "");
	sb_release(&sb);
}

/* The first guard spelling called name of a header other than h, or NULL. */
static const struct guard *guard_of_other(const struct names *nm, const char *name,
					  const struct header *h)
{
	struct guard key = { (char *)name, NULL };
	const struct guard *g = nm->n_guards ?
		bsearch(&key, nm->guards, nm->n_guards, sizeof(*nm->guards), guard_cmp) : NULL;

	if (!g)
		return NULL;
	while (g > nm->guards && !strcmp(g[-1].name, name))
		g--;
	for (; g < nm->guards + nm->n_guards && !strcmp(g->name, name); g++)
		if (g->h != h)
			return g;
	return NULL;
}

/* A new header's guard, derived from its path, is no other header's:
 * linux/a-b.h and linux/a_b.h both get _UAPI_LINUX_A_B_H, and whichever
 * a file includes second comes out empty. */
static void check_new_guard(struct registry *reg, const struct names *nm, const struct header *h)
{
	char *guard = new_guard(h);
	const struct guard *o = guard_of_other(nm, guard, h);

	if (o)
		ERR(reg, h->path_mark, "namespace",
		    "header '%s' gets the include guard %s, a spelling of the guard of %s%s%s (%s:%u:%u): where both are included, the second comes out empty; choose another file name",
		    h->path, guard, o->h->path, o->h->arch ? " of arch " : "",
		    o->h->arch ? o->h->arch : "", o->h->path_mark.file, o->h->path_mark.line,
		    o->h->path_mark.col);
	free(guard);
}

/* Why name is reserved, or NULL. */
static const char *reserved(const struct names *nm, const char *name)
{
	if (in_list(name, empty_macros, sizeof(empty_macros) / sizeof(*empty_macros)))
		return "a macro the kernel's headers expand to nothing or to an attribute";
	if (!strncmp(name, "_IOC_", 5) || ioc_macro_named(name) ||
	    in_list(name, ioctl_h_names, sizeof(ioctl_h_names) / sizeof(*ioctl_h_names)))
		return "a name <asm/ioctl.h> owns";
	if (guard_of_other(nm, name, NULL))
		return "the spelling of a header's include guard";
	return NULL;
}

/* The first macro called name, and how many there are (v sorted). */
static const struct owned *macros_named(const struct names *nm, const char *name, size_t *count)
{
	struct owned key = { .name = name };
	const struct owned *hit = nm->n ? bsearch(&key, nm->v, nm->n, sizeof(*nm->v), owned_cmp) : NULL;

	*count = 0;
	if (!hit)
		return NULL;
	while (hit > nm->v && !strcmp(hit[-1].name, name))
		hit--;
	for (const struct owned *p = hit; p < nm->v + nm->n && !strcmp(p->name, name); p++)
		(*count)++;
	return hit;
}

static void check_reserved(struct registry *reg, const struct names *nm, const char *what,
			   const char *name, struct mark m)
{
	const char *why = name ? reserved(nm, name) : NULL;

	if (why)
		ERR(reg, m, "namespace", "%s '%s' is %s: it would change every header that includes this one",
		    what, name, why);
}

/* A constant, enum value or command against the other headers' macros. */
static void check_macro(struct registry *reg, const struct names *nm, const struct owned *o)
{
	size_t n;
	const struct owned *m = macros_named(nm, o->name, &n);

	check_reserved(reg, nm, owner_nouns[o->kind],
		       o->name, o->mark);
	for (size_t i = 0; i < n; i++, m++) {
		if (m->h == o->h || (o->kind == OWN_COMMAND && m->kind == OWN_COMMAND))
			continue;
		ERR(reg, o->mark, "namespace",
		    "%s '%s' is already %s of %s (%s:%u:%u): a file that includes both headers gets one of them",
		    owner_nouns[o->kind], o->name,
		    owner_words[m->kind], m->h->path, m->mark.file, m->mark.line, m->mark.col);
		return;
	}
}

/* A member or tag: no macro of any header may share its name. */
static void check_plain_name(struct registry *reg, const struct names *nm, const char *what,
			     const char *name, struct mark at)
{
	size_t n;
	const struct owned *m;

	if (!name)
		return;
	check_reserved(reg, nm, what, name, at);
	if ((m = macros_named(nm, name, &n)))
		ERR(reg, at, "namespace",
		    "%s '%s' is the name of %s of %s (%s:%u:%u): where both are visible the preprocessor rewrites it",
		    what, name, owner_words[m->kind], m->h->path, m->mark.file, m->mark.line, m->mark.col);
}

void check_namespace(struct registry *reg)
{
	struct names nm = { 0 };

	for (size_t k = 0; k < reg->n_headers; k++) {
		const struct header *h = &reg->headers[k];

		if (h->path)
			add_guards(&nm, h);
		for (size_t i = 0; i < h->n_commands; i++)
			add(&nm, h->commands[i].name, h, h->commands[i].mark, OWN_COMMAND);
		for (size_t i = 0; i < h->n_constants; i++)
			add(&nm, h->constants[i].name, h, h->constants[i].mark, OWN_CONSTANT);
		for (size_t i = 0; i < h->n_types; i++)
			for (size_t j = 0; j < h->types[i].n_values; j++)
				add(&nm, h->types[i].values[j].name, h, h->types[i].values[j].mark,
				    OWN_ENUM_VALUE);
	}
	if (nm.n)
		qsort(nm.v, nm.n, sizeof(*nm.v), owned_cmp);
	if (nm.n_guards)
		qsort(nm.guards, nm.n_guards, sizeof(*nm.guards), guard_cmp);
	for (size_t i = 0; i < nm.n; i++)
		check_macro(reg, &nm, &nm.v[i]);
	for (size_t k = 0; k < reg->n_headers; k++) {
		const struct header *h = &reg->headers[k];

		for (size_t i = 0; i < h->n_types; i++) {
			const struct ctype_def *t = &h->types[i];

			check_plain_name(reg, &nm, "type", t->name, t->mark);
			for (size_t j = 0; j < t->n_members; j++)
				check_plain_name(reg, &nm, "member", t->members[j].name, t->members[j].mark);
		}
	}
	for (size_t k = 0; k < reg->n_headers; k++)
		if (reg->headers[k].is_new && reg->headers[k].path)
			check_new_guard(reg, &nm, &reg->headers[k]);
	for (size_t i = 0; i < nm.n_guards; i++)
		free(nm.guards[i].name);
	free(nm.guards);
	free(nm.v);
}

/* ------------------------------------------------------------ the tree's own headers */

/* A name the tree's uapi headers define: a macro, or a struct, union or
 * enum tag, and the header (linux/fs.h, asm/ioctls.h) that defines it. */
struct tree_name {
	char *name, *header;
	bool tag;
};

struct tree_names {
	struct tree_name *v;
	size_t n, cap;
	size_t root_len;	/* of ".../include/uapi/" being walked */
};

static struct tree_names *walking;

static void tree_add(struct tree_names *t, const char *p, size_t n, const char *header, bool tag)
{
	grow(&t->v, &t->cap, t->n + 1, sizeof(*t->v));
	t->v[t->n].name = xrealloc(NULL, n + 1);
	memcpy(t->v[t->n].name, p, n);
	t->v[t->n].name[n] = '\0';
	t->v[t->n].header = xrealloc(NULL, strlen(header) + 1);
	strcpy(t->v[t->n].header, header);
	t->v[t->n++].tag = tag;
}

static size_t ident_at(const char *p)
{
	size_t n = 0;

	if (!(isalpha((unsigned char)*p) || *p == '_'))
		return 0;
	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	return n;
}

/* "#define NAME" and "struct NAME {" lines: enough to know which names a
 * header takes (a tag or macro spelled otherwise is missed, not invented). */
static void scan_header(struct tree_names *t, const char *header, const char *s, size_t len)
{
	const char *end = s + len;

	for (const char *p = s; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *q = p;
		size_t n;

		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (*q == '#') {
			for (q++; q < end && (*q == ' ' || *q == '\t'); q++)
				;
			if (end - q > 7 && !strncmp(q, "define", 6) && (q[6] == ' ' || q[6] == '\t')) {
				for (q += 7; q < end && (*q == ' ' || *q == '\t'); q++)
					;
				if ((n = ident_at(q)))
					tree_add(t, q, n, header, false);
			}
		} else {
			static const char *const kw[] = { "struct ", "union ", "enum " };

			for (size_t k = 0; k < 3; k++) {
				size_t kl = strlen(kw[k]);

				if (end - q > (long)kl && !strncmp(q, kw[k], kl) && (n = ident_at(q + kl))) {
					const char *r = q + kl + n;

					while (r < end && (*r == ' ' || *r == '\t'))
						r++;
					if (r < end && *r == '{')
						tree_add(t, q + kl, n, header, true);
				}
			}
		}
		p = nl ? nl + 1 : end;
	}
}

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t len, n = strlen(path);
	char *data;

	(void)st;
	(void)ftw;
	if (type != FTW_F || n < 2 || strcmp(path + n - 2, ".h") || n <= walking->root_len)
		return 0;
	if ((data = read_file(path, &len))) {
		scan_header(walking, path + walking->root_len, data, len);
		free(data);
	}
	return 0;
}

static void tree_walk(struct tree_names *t, const char *root)
{
	t->root_len = strlen(root) + 1;
	walking = t;
	nftw(root, walk_one, 16, FTW_PHYS);
	walking = NULL;
}

static int tree_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tree_name *)a)->name, ((const struct tree_name *)b)->name);
}

/* A tag (tag) or macro called name that a header other than except (NULL:
 * any) defines; t->v sorted by name. */
static const struct tree_name *tree_owner(const struct tree_names *t, const char *name, bool tag,
					  const char *except)
{
	struct tree_name key = { .name = (char *)name };
	const struct tree_name *p = t->n ? bsearch(&key, t->v, t->n, sizeof(*t->v), tree_name_cmp) : NULL;

	if (!p)
		return NULL;
	while (p > t->v && !strcmp(p[-1].name, name))
		p--;
	for (; p < t->v + t->n && !strcmp(p->name, name); p++)
		if (p->tag == tag && (!except || strcmp(p->header, except)))
			return p;
	return NULL;
}

struct tree_bound {
	struct registry *reg;
	const struct nameset *constants;
	const struct tree_names *t;
	const struct command *c;
};

/* An imported header's C texts: each name used as a constant (FSLABEL_MAX
 * in char[FSLABEL_MAX]) is a macro some uapi header of the tree defines,
 * not a run-time variable (check_bounds.c holds a new header's). */
static void tree_bound_name(void *ctx, const struct c_text *f, const char *name, size_t n)
{
	struct tree_bound *b = ctx;
	char buf[256];

	if (n >= sizeof(buf) || nameset_has(b->constants, name, n))
		return;
	memcpy(buf, name, n);
	buf[n] = '\0';
	if (!tree_owner(b->t, buf, false, NULL))
		CMD_ERR(b->reg, b->c, f->at, "reference",
		    "%s: '%s' in %s is no constant of the registry, nor a macro of the tree's uapi headers: an array bound or size is an integer constant or a defined one",
		    b->c->name, buf, f->field);
}

static void check_tree_name(struct registry *reg, const struct tree_names *t,
			    const struct header *h, const char *what, const char *name, struct mark at,
			    bool tag)
{
	const struct tree_name *o;

	if (name && (o = tree_owner(t, name, tag, h->path)))
		ERR(reg, at, "namespace", "%s '%s' is already %s of the tree's %s: a file that includes both gets one of them",
		    what, name, tag ? "a struct, union or enum tag" : "a macro", o->header);
}

static const char *tree_defines(const void *ctx, const char *name)
{
	const struct tree_name *o = tree_owner(ctx, name, false, NULL);

	return o ? o->header : NULL;
}

void check_tree(struct registry *reg)
{
	const char *tree = reg->tree;
	char *guard;
	struct tree_names t = { 0 };
	struct nameset constants = { 0 };
	glob_t arches;

	tree_walk(&t, arena_printf(&reg->arena, "%s/include/uapi", tree));
	if (!glob(arena_printf(&reg->arena, "%s/arch/*/include/uapi",
			      arena_glob_quote(&reg->arena, tree)), 0, NULL, &arches)) {
		for (size_t i = 0; i < arches.gl_pathc; i++)
			tree_walk(&t, arches.gl_pathv[i]);
		globfree(&arches);
	}
	if (t.n)
		qsort(t.v, t.n, sizeof(*t.v), tree_name_cmp);
	registry_constants(reg, &constants);
	for (size_t k = 0; k < reg->n_headers; k++) {
		const struct header *h = &reg->headers[k];

		/* only a new header's names are the registry's to choose: the
		 * others are the tree's own, in the very file the tree has */
		for (size_t i = 0; !h->is_new && i < h->n_commands; i++) {
			struct tree_bound b = { reg, &constants, &t, &h->commands[i] };

			for_each_c_constant(&h->commands[i], tree_bound_name, &b);
		}
		if (!h->is_new || !h->path)
			continue;
		guard = new_guard(h);
		check_tree_name(reg, &t, h, "the header's include guard", guard, h->path_mark, false);
		free(guard);
		for (size_t i = 0; i < h->n_commands; i++)
			check_tree_name(reg, &t, h, "command", h->commands[i].name, h->commands[i].mark, false);
		for (size_t i = 0; i < h->n_constants; i++)
			check_tree_name(reg, &t, h, "constant", h->constants[i].name, h->constants[i].mark, false);
		for (size_t i = 0; i < h->n_types; i++) {
			const struct ctype_def *ty = &h->types[i];

			check_tree_name(reg, &t, h, "type", ty->name, ty->mark, true);
			check_tree_name(reg, &t, h, "type", ty->name, ty->mark, false);
			for (size_t j = 0; j < ty->n_values; j++)
				check_tree_name(reg, &t, h, "enum value", ty->values[j].name, ty->values[j].mark, false);
			for (size_t j = 0; j < ty->n_members; j++)
				check_tree_name(reg, &t, h, "member", ty->members[j].name, ty->members[j].mark, false);
		}
	}
	nameset_release(&constants);
	check_new_marks(reg, tree, tree_defines, &t);
	for (size_t i = 0; i < t.n; i++) {
		free(t.v[i].name);
		free(t.v[i].header);
	}
	free(t.v);
}
