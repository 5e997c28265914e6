// SPDX-License-Identifier: GPL-2.0
/*
 * The lint: what the registry says about the kernel, by class, with every
 * instance.  It reads the checked registry (numbers, collisions, findings)
 * and, when given the kernel tree, checks that ioctl-number.rst's rows name
 * files that exist.
 */
#include <glob.h>
#include <string.h>

#include "lint.h"

static const struct {
	const char *name, *doc;
} classes[LINT_CLASSES] = {
	[LINT_LEGACY_SIZEOF] = { "legacy-sizeof",
		"The argument was written as sizeof(...): the number encodes sizeof(size_t)." },
	[LINT_LEGACY_NUMBER] = { "legacy-number",
		"The argument was written as a bare number: the number encodes sizeof(int)." },
	[LINT_SIZE_T] = { "size-t-stand-in",
		"size_t is the encoded type, usually standing in for a legacy sizeof(...)." },
	[LINT_POINTER] = { "pointer-type",
		"The argument type is a pointer: its size, and the number, differ between 32- and 64-bit ABIs." },
	[LINT_ABI_SIZE] = { "abi-dependent-size",
		"The encoded size differs between ABIs (long, pointers, alignment): the kernel needs compat handling." },
	[LINT_ALIGNMENT] = { "alignment-size",
		"The size differs between i386 and an ABI with the same long and pointer size but 8-byte alignment of 64-bit fields (x32, or x86_64 without long or pointer members)." },
	[LINT_DIR_NONE_SIZE] = { "dir-none-size",
		"Direction none with a non-zero size (_IOC(_IOC_NONE, ...)), as xen does." },
	[LINT_SIZE_OVERFLOW] = { "size-overflow",
		"The size does not fit the size field of some layout (13 bits on powerpc, mips, alpha, sparc)." },
	[LINT_SHARED_NUMBER] = { "shared-number",
		"Two or more distinct commands carry one number on an ABI (aliases, alias-of, are one command): strace can only print 'A or B'." },
	[LINT_UNREGISTERED] = { "unregistered-magic",
		"The magic code has no row in ioctl-number.rst." },
	[LINT_OUTSIDE_RANGE] = { "outside-range",
		"The nr falls outside every registered range of its magic code." },
	[LINT_MISSING_HEADER] = { "missing-header",
		"A row of ioctl-number.rst names a file that does not exist in the tree." },
};

const char *lint_class_name(enum lint_class c) { return classes[c].name; }
const char *lint_class_doc(enum lint_class c) { return classes[c].doc; }

static void add(struct registry *reg, enum lint_class cls, const struct command *c,
		const char *abi, struct mark m, const char *detail)
{
	struct lint_item *it;

	it = arena_slot(&reg->arena, &reg->lint, &reg->lint_cap, reg->n_lint++, sizeof(*reg->lint));
	it->cls = cls;
	it->cmd = c;
	it->abi = abi;
	it->mark = m;
	it->detail = detail;
	reg->lint_count[cls]++;
}

/* Where the argument is written: the type, the legacy spelling, or the entry. */
static struct mark arg_mark(const struct command *c)
{
	if (c->legacy)
		return c->legacy->spell_mark;
	return c->type ? c->type_mark : c->mark;
}

static const struct abi_number *number_on(const struct registry *reg, const struct command *c,
					  const char *abi)
{
	const struct abi *a = registry_abi(reg, abi);

	if (!a || !c->numbers)
		return NULL;
	const struct abi_number *n = &c->numbers[a - reg->abis];

	return n->present && !n->variable_size ? n : NULL;
}

static bool type_has_word(const char *type, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(type, word); p; p = strstr(p + 1, word)) {
		bool left = p == type || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
					  (p[-1] >= '0' && p[-1] <= '9'));
		bool right = !(p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9'));

		if (left && right)
			return true;
	}
	return false;
}

static void lint_command(struct registry *reg, const struct command *c)
{
	struct arena *a = &reg->arena;
	const char *t = command_sized_type(c);
	uint32_t lo = UINT32_MAX, hi = 0;
	const char *lo_abi = NULL, *hi_abi = NULL;
	/* a size that fits the smallest size field fits them all */
	const struct layout *smallest = registry_smallest(reg, layout_max_size);
	uint32_t min_max = smallest ? layout_max_size(smallest) : UINT32_MAX;

	if (c->plain)	/* no macro, no type: its size field is only a decoding */
		return;

	if (c->legacy) {
		bool sz = !strcmp(legacy_written_type(c->legacy->written), "size_t");

		add(reg, sz ? LINT_LEGACY_SIZEOF : LINT_LEGACY_NUMBER, c, NULL, c->legacy->written_mark,
		    arena_printf(a, "written '%s', passes %s, spelled %s", c->legacy->written,
				 c->legacy->passes, c->legacy->spell_as));
	}
	if (t && !strcmp(t, "size_t"))
		add(reg, LINT_SIZE_T, c, NULL, arg_mark(c),
		    c->legacy ? arena_printf(a, "legacy, really passes %s", c->legacy->passes) :
				"size_t as the argument type");
	if (t && strchr(t, '*'))
		add(reg, LINT_POINTER, c, NULL, arg_mark(c), arena_printf(a, "passes '%s'", t));
	if (c->dir == DIR_NONE && c->ioc && c->type)
		add(reg, LINT_DIR_NONE_SIZE, c, NULL, arg_mark(c),
		    arena_printf(a, "_IOC_NONE with sizeof(%s)", c->type));
	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct abi_number *n = c->numbers ? &c->numbers[k] : NULL;

		if (!n || !n->present || n->variable_size)
			continue;
		if (n->size < lo) {
			lo = n->size;
			lo_abi = reg->abis[k].name;
		}
		if (n->size > hi) {
			hi = n->size;
			hi_abi = reg->abis[k].name;
		}
		for (size_t l = 0; n->size > min_max && l < reg->n_layouts; l++)
			if (n->size > layout_max_size(&reg->layouts[l]))
				add(reg, LINT_SIZE_OVERFLOW, c, reg->abis[k].name, arg_mark(c),
				    arena_printf(a, "%u bytes on %s, more than layout '%s' holds", n->size,
						 reg->abis[k].name, reg->layouts[l].name));
	}
	if (lo_abi && lo != hi)
		add(reg, LINT_ABI_SIZE, c, NULL, arg_mark(c),
		    arena_printf(a, "'%s' is %u bytes on %s, %u on %s", t ? t : "?", lo, lo_abi, hi, hi_abi));

	/* Alignment, not long or pointer size: i386 against x32 when the registry has it. */
	const struct abi_number *i386 = number_on(reg, c, "i386");
	const struct abi_number *x32 = number_on(reg, c, "x32");
	const struct abi_number *x64 = number_on(reg, c, "x86_64");

	if (i386 && x32 && i386->size != x32->size)
		add(reg, LINT_ALIGNMENT, c, NULL, arg_mark(c),
		    arena_printf(a, "'%s' is %u bytes on i386, %u on x32", t ? t : "?", i386->size,
				 x32->size));
	else if (i386 && !x32 && x64 && i386->size != x64->size && t && !strchr(t, '*') &&
		 !type_has_word(t, "long") && !type_has_word(t, "size_t"))
		add(reg, LINT_ALIGNMENT, c, NULL, arg_mark(c),
		    arena_printf(a, "'%s' is %u bytes on i386, %u on x86_64", t, i386->size, x64->size));
}

static bool matches(const char *pattern)
{
	glob_t g;
	int rc = glob(pattern, 0, NULL, &g);

	globfree(&g);
	return rc == 0;
}

/*
 * The include directories of every arch in the tree, globbed once: globbing
 * arch/<*>/include/... again for each file a row names took thousands of
 * stat() calls, a fifth of the time of `ioctlgen model --tree`.
 */
struct arch_roots {
	glob_t uapi, include;	/* arch/<*>/include/uapi, arch/<*>/include */
	bool have_uapi, have_include;
};

static void arch_roots_find(struct arena *a, const char *tree, struct arch_roots *r)
{
	r->have_uapi = !glob(arena_printf(a, "%s/arch/*/include/uapi", arena_glob_quote(a, tree)), 0, NULL, &r->uapi);
	r->have_include = !glob(arena_printf(a, "%s/arch/*/include", arena_glob_quote(a, tree)), 0, NULL, &r->include);
}

static void arch_roots_free(struct arch_roots *r)
{
	globfree(&r->uapi);
	globfree(&r->include);
}

/* Does name (which may be a glob) match below one of the directories? */
static bool matches_below(struct arena *a, const glob_t *dirs, bool have, const char *name)
{
	for (size_t i = 0; have && i < dirs->gl_pathc; i++)
		if (matches(arena_printf(a, "%s/%s", arena_glob_quote(a, dirs->gl_pathv[i]), name)))
			return true;
	return false;
}

/*
 * Does the file a row names exist where the kernel keeps it?  Rows write
 * linux/fs.h, uapi/linux/tee.h, include/uapi/linux/stm.h, drivers/.../x.h or
 * globs such as linux/dvb/ *.h (which count when they match something).
 */
static bool header_exists(struct arena *a, const char *tree, const struct arch_roots *arch,
			  const char *h)
{
	static const char *const prefixes[] = { "include/uapi/", "include/", "uapi/" };
	static const char *const roots[] = { "include/uapi", "include" };
	const char *name = h;

	if (matches(arena_printf(a, "%s/%s", arena_glob_quote(a, tree), h)))
		return true;
	for (size_t i = 0; i < 3; i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			name += strlen(prefixes[i]);
	for (size_t i = 0; i < 2; i++)
		if (matches(arena_printf(a, "%s/%s/%s", arena_glob_quote(a, tree), roots[i], name)))
			return true;
	return matches_below(a, &arch->uapi, arch->have_uapi, name) ||
	       matches_below(a, &arch->include, arch->have_include, name);
}

void registry_lint(struct registry *reg, const char *tree)
{
	struct arch_roots arch;

	reg->lint_tree = tree;
	reg->linted = true;
	for_each_command(reg, c)
		lint_command(reg, c);
	for (size_t i = 0; i < reg->n_collisions; i++) {
		const struct collision *col = &reg->collisions[i];
		struct strbuf names = { 0 };
		bool across = false;

		if (!collision_conflict(col))
			continue;	/* one command under several names */
		collision_names(col, &names, true);
		for (size_t k = 0; k < col->n_cmds; k++)
			across |= col->cmds[k]->header != col->cmds[0]->header;
		add(reg, LINT_SHARED_NUMBER, col->cmds[col->n_cmds - 1], col->abi->name,
		    col->cmds[col->n_cmds - 1]->mark,
		    arena_printf(&reg->arena, "0x%08x on %s, %s: %s", col->number, col->abi->name,
				 across ? "across headers" : "within one header", names.buf));
		sb_release(&names);
	}
	for (size_t i = 0; i < reg->diags.n; i++) {
		const struct diag *d = &reg->diags.v[i];

		if (!strcmp(d->rule, "unregistered-magic"))
			add(reg, LINT_UNREGISTERED, NULL, NULL, d->mark, arena_strdup(&reg->arena, d->msg));
		else if (!strcmp(d->rule, "outside-range"))
			add(reg, LINT_OUTSIDE_RANGE, NULL, NULL, d->mark, arena_strdup(&reg->arena, d->msg));
	}
	if (!tree)
		return;
	arch_roots_find(&reg->arena, tree, &arch);
	for (size_t i = 0; i < reg->n_rows; i++) {
		const struct magic_row *r = &reg->rows[i];

		for (size_t k = 0; k < r->n_headers; k++)
			if (!header_exists(&reg->arena, tree, &arch, r->headers[k]))
				add(reg, LINT_MISSING_HEADER, NULL, NULL, r->mark,
				    arena_printf(&reg->arena, "code %s seq %s names %s", r->code_text, r->seq,
						 r->headers[k]));
	}
	arch_roots_free(&arch);
}
