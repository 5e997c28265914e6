// SPDX-License-Identifier: GPL-2.0
/*
 * The argument types header specs define: what each member's
 * type is, and the rules that keep a new ioctl free of compat handling.
 * Errors: a member type that is neither fixed-width nor a registry struct
 * or union defined before it, and types whose size differs between ABIs.
 * The rules for new UAPI (Documentation/process/botching-up-ioctls.rst),
 * errors unless the type accepts them with a reason: implicit padding in
 * x86_64's natural layout, and a layout that i386 (which aligns 64-bit
 * integers to 4) makes otherwise.  These are lints from the C rules; the
 * sizes that enter numbers are measured.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cwords.h"
#include "rules.h"

/* Types whose size is the ABI's: a new ioctl that passes one needs compat code. */
static const char *const abi_dependent[] = {
	"size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t", "time_t", "off_t",
	"clock_t", "__kernel_long_t", "__kernel_ulong_t", "__kernel_size_t",
	"__kernel_ssize_t", "__kernel_time_t", "__kernel_off_t", "__kernel_ptrdiff_t",
	"compat_ulong_t", "compat_long_t", "compat_uptr_t",
};

static bool has_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = strstr(s, w); p; p = strstr(p + 1, w))
		if ((p == s || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ' || p[n] == '*'))
			return true;
	return false;
}

static bool is_abi_dependent(const char *t)
{
	if (strchr(t, '*') || has_word(t, "long"))
		return true;
	for (size_t i = 0; i < sizeof(abi_dependent) / sizeof(*abi_dependent); i++)
		if (!strcmp(abi_dependent[i], t))
			return true;
	return false;
}

/* The registry type whose c_name is t: in h before index before, else in another header. */
static const struct ctype_def *registry_type(const struct registry *reg, const struct header *h,
					     size_t before, const char *t, bool *later)
{
	*later = false;
	for (size_t i = 0; i < h->n_types; i++)
		if (!strcmp(h->types[i].c_name, t)) {
			*later = i >= before;
			return *later ? NULL : &h->types[i];
		}
	for (size_t k = 0; k < reg->n_headers; k++)
		for (size_t i = 0; &reg->headers[k] != h && i < reg->headers[k].n_types; i++)
			if (!strcmp(reg->headers[k].types[i].c_name, t))
				return &reg->headers[k].types[i];
	return NULL;
}

/* Resolve every member's type; false when one of them is wrong (reported). */
static bool resolve_members(struct registry *reg, const struct header *h, size_t ti)
{
	struct ctype_def *t = &h->types[ti];
	bool ok = true;

	for (size_t m = 0; m < t->n_members; m++) {
		struct cmember *mb = &t->members[m];
		bool later;

		if (fixed_type(mb->type))
			continue;
		if (!strncmp(mb->type, "struct ", 7) || !strncmp(mb->type, "union ", 6)) {
			mb->nested = registry_type(reg, h, ti, mb->type, &later);
			if (mb->nested)
				continue;
			if (later)
				ERR(reg, mb->type_mark, "reference",
				    "%s: member '%s' is a %s, which this header defines after it",
				    t->c_name, mb->name, mb->type);
			else
				ERR(reg, mb->type_mark, "member-type",
				    "%s: member '%s' is a %s, which no header spec of the registry defines (types:)",
				    t->c_name, mb->name, mb->type);
		} else if (!strncmp(mb->type, "enum ", 5)) {
			ERR(reg, mb->type_mark, "member-type",
			    "%s: member '%s' is an %s, whose size is the compiler's: pass a __u32 and name the enum in its doc",
			    t->c_name, mb->name, mb->type);
		} else if (is_abi_dependent(mb->type)) {
			ERR(reg, mb->type_mark, "abi-dependent",
			    "%s: member '%s' is a '%s', whose size differs between ABIs (a 64-bit kernel then needs compat code for 32-bit callers): use __u32 or __u64",
			    t->c_name, mb->name, mb->type);
		} else {
			ERR(reg, mb->type_mark, "member-type",
			    "%s: member '%s' has type '%s': a member is a fixed-width type (__u8 ... __u64, __s8 ... __s64, __be16 ... __le64, char) or a struct or union of the registry",
			    t->c_name, mb->name, mb->type);
		}
		ok = false;
	}
	return ok;
}

/* Size and alignment of a type with 64-bit integers aligned to align64. */
struct lay {
	uint64_t size, align;
};

static struct lay member_lay(const struct cmember *mb, unsigned int align64);

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static struct lay type_lay(const struct ctype_def *t, unsigned int align64, uint64_t *offsets)
{
	struct lay l = { 0, 1 };

	for (size_t m = 0; m < t->n_members; m++) {
		struct lay ml = member_lay(&t->members[m], align64);

		if (t->kind == CTYPE_UNION) {
			l.size = ml.size > l.size ? ml.size : l.size;
		} else {
			l.size = align_up(l.size, ml.align);
			if (offsets)
				offsets[m] = l.size;
			l.size += ml.size;
		}
		l.align = ml.align > l.align ? ml.align : l.align;
	}
	l.size = align_up(l.size, l.align);
	return l;
}

static struct lay member_lay(const struct cmember *mb, unsigned int align64)
{
	const struct fixed_type *f = fixed_type(mb->type);
	struct lay l = { 0, 1 };

	if (f)
		l = (struct lay){ f->size, f->size == 8 ? align64 : f->size };
	else if (mb->nested)
		l = type_lay(mb->nested, align64, NULL);
	l.size *= mb->len ? mb->len : 1;
	return l;
}

/*
 * A finding of the rules for new UAPI about type t: an error, unless t
 * accepts the rule and says why (accept-reason): then an accepted
 * warning.  A kernel-internal type mirrors what the kernel has: a warning.
 */
static void __attribute__((format(printf, 6, 7)))
layout_finding(struct registry *reg, const struct ctype_def *t, struct mark m, unsigned int bit,
	       const char *rule, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (t->kernel_internal)
		WARN(reg, m, rule, false, "%s", msg);
	else if ((t->accept & bit) && t->accept_reason)
		WARN(reg, m, rule, true, "%s; accept-reason: %s", msg, t->accept_reason);
	else if (t->accept & bit)
		ERR(reg, m, rule, "%s; a new type accepts that only with an accept-reason", msg);
	else
		ERR(reg, m, rule, "%s", msg);
}

/* The layout rules of one struct whose members all resolved. */
static void lint_layout(struct registry *reg, const struct ctype_def *t)
{
	uint64_t *x64 = arena_alloc(&reg->arena, (t->n_members + 1) * sizeof(*x64));
	uint64_t *x32 = arena_alloc(&reg->arena, (t->n_members + 1) * sizeof(*x32));
	struct lay l64 = type_lay(t, 8, x64), l32 = type_lay(t, 4, x32);
	uint64_t end = 0;
	bool differs = false;

	for (size_t m = 0; t->kind == CTYPE_STRUCT && m < t->n_members; m++) {
		const struct cmember *mb = &t->members[m];

		if (x64[m] > end)
			layout_finding(reg, t, mb->mark, ACCEPT_PADDING, "padding",
			     "%s: %llu bytes of implicit padding before '%s' (offset %llu on x86_64): add an explicit pad member",
			     t->c_name, (unsigned long long)(x64[m] - end), mb->name,
			     (unsigned long long)x64[m]);
		if (x32[m] != x64[m] && !differs) {
			layout_finding(reg, t, mb->mark, ACCEPT_I386_ALIGNMENT, "i386-alignment",
			     "%s: '%s' is at offset %llu on i386 but %llu on x86_64 (i386 aligns 64-bit integers to 4): pad before it so that both agree",
			     t->c_name, mb->name, (unsigned long long)x32[m],
			     (unsigned long long)x64[m]);
			differs = true;
		}
		end = x64[m] + member_lay(mb, 8).size;
	}
	if (t->kind == CTYPE_STRUCT && l64.size > end && t->n_members)
		layout_finding(reg, t, t->members[t->n_members - 1].mark, ACCEPT_PADDING, "padding",
		     "%s: %llu bytes of implicit tail padding after '%s' (size %llu on x86_64): add an explicit pad member",
		     t->c_name, (unsigned long long)(l64.size - end),
		     t->members[t->n_members - 1].name, (unsigned long long)l64.size);
	if (l32.size != l64.size && !differs)
		layout_finding(reg, t, t->mark, ACCEPT_I386_ALIGNMENT, "i386-alignment",
		     "%s is %llu bytes on i386 but %llu on x86_64 (i386 aligns 64-bit integers to 4): pad it to a multiple of 8",
		     t->c_name, (unsigned long long)l32.size, (unsigned long long)l64.size);
}

/* A struct whose members, and theirs, all resolved. */
static bool whole(const struct ctype_def *t)
{
	if (t->broken)
		return false;
	for (size_t m = 0; m < t->n_members; m++)
		if (t->members[m].nested && !whole(t->members[m].nested))
			return false;
	return true;
}

void check_types(struct registry *reg)
{
	for (size_t k = 0; k < reg->n_headers; k++) {
		struct header *h = &reg->headers[k];

		for (size_t i = 0; i < h->n_types; i++) {
			struct ctype_def *t = &h->types[i];

			/* one tag, one type: a nested member must know which */
			for (size_t o = k + 1; o < reg->n_headers; o++)
				for (size_t j = 0; j < reg->headers[o].n_types; j++)
					if (!strcmp(reg->headers[o].types[j].c_name, t->c_name))
						ERR(reg, reg->headers[o].types[j].mark, "duplicate-name",
						    "%s is already defined at %s:%u:%u", t->c_name,
						    t->mark.file, t->mark.line, t->mark.col);
			t->broken = !resolve_members(reg, h, i);
		}
		/* constants and enum values are macros beside the commands */
		for (size_t i = 0; i < h->n_commands; i++) {
			const struct command *c = &h->commands[i];

			for (size_t j = 0; j < h->n_constants; j++)
				if (!strcmp(h->constants[j].name, c->name))
					CMD_ERR(reg, c, c->mark, "duplicate-name",
					    "%s is already defined as a constant at %s:%u:%u", c->name,
					    h->constants[j].mark.file, h->constants[j].mark.line,
					    h->constants[j].mark.col);
		}
	}
}

/*
 * The layout rules for new UAPI, in the sized check only: `dump`, which
 * tools/measure-sizes reads before any size exists, must not stop at a
 * padded struct, whose sizes on every ABI are what shows the author the
 * trouble (and what the struct layout view draws).
 */
void check_type_layouts(struct registry *reg)
{
	for (size_t k = 0; k < reg->n_headers; k++)
		for (size_t i = 0; i < reg->headers[k].n_types; i++) {
			const struct ctype_def *t = &reg->headers[k].types[i];

			if (!t->kernel_internal && t->kind != CTYPE_ENUM && whole(t))
				lint_layout(reg, t);
		}
}
