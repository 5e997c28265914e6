// SPDX-License-Identifier: GPL-2.0
/*
 * The numbers: how the header spells each command, which type's size its
 * number encodes, and the number on every ABI whose layout and sizes are
 * known.  A legacy entry's spelling is checked here, ABI by ABI.
 */
#include <stdlib.h>
#include <string.h>

#include "cwords.h"
#include "numbers.h"
#include "suggest.h"
#include "parse.h"


/* ------------------------------------------------------------ spelling */

static const char *const ioc_dir_macro[4] = {
	"_IOC_NONE", "_IOC_READ", "_IOC_WRITE", "_IOC_READ|_IOC_WRITE"
};

/* How the generated header spells the command: macro and C arguments. */
static void spell(struct registry *reg, struct command *c)
{
	struct arena *a = &reg->arena;
	const char *nr = c->nr_param ? arena_printf(a, "%s + (%s)", c->nr_text, c->nr_param) : c->nr_text;

	c->n_args = 0;
	if (c->plain) {		/* no macro: the header writes the number */
		c->macro = NULL;
		return;
	}
	if (c->ioc) {
		c->macro = "_IOC";
		c->args[c->n_args++] = ioc_dir_macro[c->dir];
	} else {
		c->macro = ioc_macro_name((int)c->dir,
					  c->legacy && !strcmp(c->legacy->spell_as, "bad"));
	}
	c->args[c->n_args++] = c->magic_text;
	c->args[c->n_args++] = nr;
	if (c->ioc)
		c->args[c->n_args++] = c->size_param ? c->size_param :
				       c->has_size ? c->size_text :
				       arena_printf(a, "sizeof(%s)", c->type);
	else if (c->size_unit)	/* N elements: TYPE[N] */
		c->args[c->n_args++] = arena_printf(a, "%s[%s]", c->size_unit, c->size_param);
	else if (c->legacy)
		c->args[c->n_args++] = strcmp(c->legacy->spell_as, "bad") ? c->legacy->spell_as :
				       c->legacy->written;
	else if (c->dir != DIR_NONE)
		c->args[c->n_args++] = c->type;
}

/* ------------------------------------------------------------ sizes and numbers */

static void check_legacy(struct registry *reg, struct command *c, const struct abi *abi)
{
	const char *wt = legacy_written_type(c->legacy->written);
	uint32_t ws, ss;

	if (!strcmp(c->legacy->spell_as, "bad") || !abi_sizeof_for(abi, c, wt, &ws) ||
	    !abi_sizeof_for(abi, c, c->legacy->spell_as, &ss) || ws == ss)
		return;
	if (c->legacy->abi_break)
		CMD_WARN(reg, c, c->legacy->spell_mark, "abi-break", true,
		     "%s: '%s' encodes %u bytes on %s where '%s' encoded %u: the number changed (%s)",
		     c->name, c->legacy->spell_as, ss, abi->name, c->legacy->written, ws,
		     c->legacy->abi_break);
	else
		CMD_ERR(reg, c, c->legacy->spell_mark, "legacy-spelling",
		    "%s: spelling it '%s' encodes %u bytes on %s, but '%s' encoded %u: the number would change; spell it 'bad' or a type of %u bytes",
		    c->name, c->legacy->spell_as, ss, abi->name, c->legacy->written, ws, ws);
}

/* A command by name, and its place in spec order. */
struct by_name {
	const struct command *c;
	size_t index;
};

/* What abi_sizeof() says of a command's sized type on one ABI. */
struct measured {
	bool found;
	uint32_t size;
};

/* A command's sized type, the command, and its place in spec order. */
struct by_type {
	const char *type;
	const struct command *c;
	size_t index;
};

static int by_type_cmp(const void *pa, const void *pb)
{
	return strcmp(((const struct by_type *)pa)->type, ((const struct by_type *)pb)->type);
}

/* What numbering every known version looks commands up by, made once. */
struct numbering {
	struct by_name *names;	/* every command, by name */
	struct by_type *types;	/* the commands with a sized type, by type */
	size_t n_cmds, n_types;
};

struct numbering *numbering_new(const struct registry *reg, const struct command **byname, size_t n)
{
	struct numbering *nb = xrealloc(NULL, sizeof(*nb));
	size_t *first = xrealloc(NULL, (reg->n_headers + 1) * sizeof(*first));
	size_t index = 0;

	/* the place in spec order of each header's first command */
	for (size_t h = 0; h < reg->n_headers; h++) {
		first[h] = index;
		index += reg->headers[h].n_commands;
	}
	nb->n_cmds = n;
	nb->names = xrealloc(NULL, (n + 1) * sizeof(*nb->names));
	for (size_t i = 0; i < n; i++) {
		const struct command *c = byname[i];

		nb->names[i] = (struct by_name){
			c, first[c->header - reg->headers] + (size_t)(c - c->header->commands) };
	}
	free(first);
	nb->types = xrealloc(NULL, (n + 1) * sizeof(*nb->types));
	nb->n_types = index = 0;
	for_each_command(reg, c) {
		const char *t = command_sized_type(c);

		if (t)
			nb->types[nb->n_types++] = (struct by_type){ t, c, index };
		index++;
	}
	if (nb->n_types)
		qsort(nb->types, nb->n_types, sizeof(*nb->types), by_type_cmp);
	return nb;
}

void numbering_free(struct numbering *nb)
{
	free(nb->names);
	free(nb->types);
	free(nb);
}

/*
 * What abi_has() says of every command on every ABI, lacks[index * n_abis + k]
 * true where ABI k lacks the command of that spec-order index: each absent:
 * entry looked up once among the commands sorted by name, instead of two
 * bsearch()es of the absent: list per command and ABI (most of the time of
 * numbering).  Arch headers are left to the caller.
 */
static bool *absent_table(const struct registry *reg, const struct numbering *nb)
{
	size_t n = nb->n_cmds, n_flags = n * reg->n_abis + 1;
	bool *lacks = memset(xrealloc(NULL, n_flags * sizeof(*lacks)), 0, n_flags * sizeof(*lacks));
	const struct by_name *v = nb->names;

	for (size_t k = 0; k < reg->n_abis; k++) {
		for (size_t e = 0; e < reg->abis[k].n_absent; e++) {
			/* NAME, or HEADER:NAME: a name never holds a ':' */
			const char *entry = reg->abis[k].absent[e];
			const char *colon = strrchr(entry, ':');
			const char *name = colon ? colon + 1 : entry;
			size_t lo = 0, hi = n;

			while (lo < hi) {	/* the first command named name */
				size_t mid = lo + (hi - lo) / 2;

				if (strcmp(v[mid].c->name, name) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (; lo < n && !strcmp(v[lo].c->name, name); lo++) {
				const char *path = v[lo].c->header->path;

				if (!colon || (strlen(path) == (size_t)(colon - entry) &&
					       !strncmp(path, entry, (size_t)(colon - entry))))
					lacks[v[lo].index * reg->n_abis + k] = true;
			}
		}
	}
	return lacks;
}

/* m[index * n_abis + k] of the commands in v whose type sizes (sorted
 * like v) has, kernel-internal ones only when kernel_only. */
static void measured_fill(struct measured *m, const struct registry *reg, size_t k,
			  const struct by_type *v, size_t n, const struct size_entry *sizes,
			  size_t n_sizes, bool kernel_only)
{
	for (size_t i = 0, j = 0; i < n && j < n_sizes;) {
		int c = strcmp(v[i].type, sizes[j].type);

		if (c > 0) {
			j++;
		} else {	/* the next command may have the same type */
			if (c == 0 && (!kernel_only || v[i].c->header->kernel_internal))
				m[v[i].index * reg->n_abis + k] = (struct measured){ true, sizes[j].size };
			i++;
		}
	}
}

/*
 * abi_sizeof_for() of every command's sized type on every ABI, in
 * m[index * n_abis + k]: the commands sorted by type, walked beside each
 * ABI's sizes, which are sorted too, then beside its kernel-sizes for the
 * kernel-internal ones.  A bsearch() per command and ABI was most of the
 * time of numbering.
 */
static struct measured *measured_table(const struct registry *reg, const struct numbering *nb)
{
	size_t n_slots = nb->n_cmds * reg->n_abis + 1;
	struct measured *m = memset(xrealloc(NULL, n_slots * sizeof(*m)), 0, n_slots * sizeof(*m));

	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct abi *abi = &reg->abis[k];

		measured_fill(m, reg, k, nb->types, nb->n_types, abi->sizes, abi->n_sizes, false);
		measured_fill(m, reg, k, nb->types, nb->n_types, abi->ksizes, abi->n_ksizes, true);
	}
	return m;
}

/* Is command c numbered in the pass of known version v?  With fewer than
 * two known versions every command is, in the one pass. */
static bool numbered_in(const struct registry *reg, const struct command *c, size_t v)
{
	return reg->n_versions < 2 || lifetime_has(&c->life, v);
}

/* " in 6.12" and "'make sizes' for 6.12 (...)": where a missing size is missing. */
static const char *missing_where(struct registry *reg, size_t v, bool in)
{
	if (reg->n_versions < 2 || v == 0)
		return in ? "" : "'make sizes'";
	return in ? arena_printf(&reg->arena, " in %s", reg->versions[v].name) :
	       arena_printf(&reg->arena, "'make sizes' for %s (tools/measure-sizes --version %s)",
			    reg->versions[v].name, reg->versions[v].name);
}

/* The ABIs of one command (in one version) that lack a measured size. */
struct missing {
	const char *type;
	const struct abi *first;
	size_t n;
};

static void missing_add(struct missing *m, const struct abi *abi, const char *type)
{
	if (!m->n++)
		m->first = abi;
	m->type = type;
}

/* Does any ABI, in any known version, or any header spec's types: know t? */
static bool type_known(const struct registry *reg, const char *t)
{
	uint32_t size;

	for (size_t k = 0; k < reg->n_abis; k++)
		if (abi_sizeof(&reg->abis[k], t, &size))
			return true;
	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_types; i++)
			if (reg->headers[h].types[i].c_name &&
			    !strcmp(reg->headers[h].types[i].c_name, t))
				return true;
	return false;
}

/* The length of t's "struct ", "union " or "enum ", or 0. */
static size_t tag_prefix(const char *t)
{
	static const char *const kw[] = { "struct ", "union ", "enum " };

	for (size_t i = 0; i < 3; i++)
		if (!strncmp(t, kw[i], strlen(kw[i])))
			return strlen(kw[i]);
	return 0;
}

static void try_type(struct suggest *s, const char *t, size_t prefix, const char *cand)
{
	/* tags are compared with tags of the same kind, words with words */
	if (cand && tag_prefix(cand) == prefix && !strncmp(cand, t, prefix))
		suggest_try(s, cand + prefix);
}

/* The measured type or registry type closest to t, or NULL. */
static const char *type_suggestion(struct registry *reg, const char *t)
{
	size_t prefix = tag_prefix(t);
	struct suggest s;

	suggest_init(&s, t + prefix);
	for (size_t k = 0; k < reg->n_abis; k++)
		if (reg->abis[k].n_sizes) {
			for (size_t i = 0; i < reg->abis[k].n_sizes; i++)
				try_type(&s, t, prefix, reg->abis[k].sizes[i].type);
			break;	/* the first measured ABI names them all */
		}
	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_types; i++)
			try_type(&s, t, prefix, reg->headers[h].types[i].c_name);
	return s.best ? arena_printf(&reg->arena, "%.*s%s", (int)prefix, t, s.best) : NULL;
}

/*
 * One error per command for its missing sizes, not one per ABI and
 * version: a type no ABI knows is misspelled or undefined (did you mean),
 * one that some ABIs lack needs measuring.
 */
static void missing_report(struct registry *reg, struct command *c, const struct missing *m,
			   size_t version)
{
	struct mark at = c->legacy ? c->legacy->spell_mark : c->type_mark;

	c->size_reported = true;
	if (!type_known(reg, m->type)) {
		const char *hint = type_suggestion(reg, m->type);

		if (hint)
			CMD_ERR(reg, c, at, "missing-size",
				"%s: no ABI has a measured size of '%s': did you mean '%s'? ('make sizes' measures a type the kernel's headers define; a new type goes in the header spec's types:)",
				c->name, m->type, hint);
		else
			CMD_ERR(reg, c, at, "missing-size",
				"%s: no ABI has a measured size of '%s': 'make sizes' measures a type the kernel's headers define; a new type goes in the header spec's types:",
				c->name, m->type);
		return;
	}
	if (m->n == 1)
		CMD_ERR(reg, c, at, "missing-size", "%s: no measured size of '%s' on %s%s: run %s",
			c->name, m->type, m->first->name, missing_where(reg, version, true),
			missing_where(reg, version, false));
	else
		CMD_ERR(reg, c, at, "missing-size",
			"%s: no measured size of '%s' on %zu ABIs (%s, ...)%s: run %s", c->name, m->type,
			m->n, m->first->name, missing_where(reg, version, true),
			missing_where(reg, version, false));
}

void commands_number(struct registry *reg, size_t version, const struct numbering *nb)
{
	uint32_t max_size = UINT32_MAX;
	const struct layout *ls = registry_smallest(reg, layout_max_size);
	size_t index = 0;
	bool *lacks;
	struct measured *measured;
	/* the numbers of the commands that do not exist in this version: none */
	struct abi_number *none = arena_alloc(&reg->arena, (reg->n_abis + 1) * sizeof(*none));

	if (ls)
		max_size = layout_max_size(ls);
	lacks = absent_table(reg, nb);
	measured = measured_table(reg, nb);
	for_each_command(reg, c) {
		/* the command's place in spec order, as the tables count */
		size_t at = index++;
		const char *t = command_sized_type(c);
		bool overflow_reported = false;
		struct missing miss = { 0 };

		if (!numbered_in(reg, c, version)) {
			c->numbers = none;
			continue;
		}
		c->numbers = arena_alloc(&reg->arena, (reg->n_abis + 1) * sizeof(*c->numbers));
		for (size_t k = 0; k < reg->n_abis; k++) {
			const struct abi *abi = &reg->abis[k];
			struct abi_number *num = &c->numbers[k];
			const struct measured *ms = &measured[at * reg->n_abis + k];
			uint32_t size = ms->size;	/* 0 without a sized type */

			/* abi_has(), with the absent: lists looked up once */
			if (!abi->layout || !abi->sizes_file || lacks[at * reg->n_abis + k] ||
			    !abi_arch_has(abi, c) || !abi_measured(abi, c) || c->by_name)
				continue;
			if (c->plain) {
				struct ioc_fields f;

				/* the size field as _IOC_SIZE reads it, for display */
				layout_decode(abi->layout, c->number, &f);
				num->present = true;
				num->number = c->number;
				num->size = f.size;
				continue;
			}
			if (c->legacy)
				check_legacy(reg, c, abi);
			/* a version without sizes for the ABI: reported once (check_numbers.c) */
			if (t && !ms->found) {
				if (!abi->sizes_borrowed)
					missing_add(&miss, abi, t);
				continue;
			}
			if (c->size_unit && !abi_sizeof_for(abi, c, c->size_unit, &num->unit)) {
				if (!abi->sizes_borrowed)
					missing_add(&miss, abi, c->size_unit);
				continue;
			}
			if (c->has_size) {
				size = c->size;
				if (size > max_size) {
					if (!overflow_reported)
						CMD_ERR(reg, c, c->size_mark, "size-overflow",
						    "%s: size %s is more than the %u-bit size field of layout '%s' holds",
						    c->name, c->size_text, ls->size_bits, ls->name);
					overflow_reported = true;
					continue;
				}
			}
			if (size > max_size) {
				bool accepted = c->accept & ACCEPT_SIZE_OVERFLOW;

				if (!overflow_reported)
					diag_add_about(&reg->diags, command_about(c),
						 c->legacy ? c->legacy->spell_mark : c->type_mark,
						 accepted ? SEV_WARNING : SEV_ERROR, "size-overflow", accepted,
						 "%s: '%s' is %u bytes on %s, more than the %u-bit size field of layout '%s' holds",
						 c->name, t, size, abi->name, ls->size_bits, ls->name);
				overflow_reported = true;
				/* Accepted: the number is what the macros make of it,
				 * size bits spilling into the dir field included. */
				if (!accepted)
					continue;
			}
			num->present = true;
			num->variable_size = c->size_param != NULL;
			num->size = size;
			num->number = layout_encode(abi->layout, c->dir, c->magic,
						    command_nr_on(c, abi), size);
		}
		if (miss.n && !c->size_reported)
			missing_report(reg, c, &miss, version);
	}
	free(lacks);
	free(measured);
}

void commands_spell(struct registry *reg)
{
	for_each_command(reg, c)
		spell(reg, c);
}

/* ------------------------------------------------------------ spelled as another's name */

/*
 * The number on ABI k of a command spelled as the name target there: the
 * number of the command of that name the ABI has.  pending: that command
 * is spelled as a name too, and not resolved yet.  NULL for none.
 */
static const struct abi_number *named_number(struct registry *reg, const struct command **v,
					     size_t n, const struct command *c, size_t k,
					     bool *pending)
{
	const struct abi *abi = &reg->abis[k];
	const char *target = command_alias_on(c, abi);
	const struct abi_number *found = NULL;
	size_t first, count = find_named(v, n, target, &first);

	*pending = false;
	for (size_t x = first; x < first + count; x++) {
		const struct command *t = v[x];
		const struct abi_number *tn = &t->numbers[k];

		if (t == c || !abi_has(abi, t))
			continue;
		if (!tn->present) {
			*pending |= t->by_name;
			continue;
		}
		if (found && (found->number != tn->number || found->size != tn->size)) {
			CMD_ERR(reg, c, c->alias_mark, "alias",
			    "%s is spelled as %s, which has two numbers on %s: 0x%08x and 0x%08x (%s:%u:%u)",
			    c->name, target, abi->name, found->number, tn->number, t->mark.file,
			    t->mark.line, t->mark.col);
			return NULL;
		}
		found = tn;
	}
	return found;
}

void commands_number_by_name(struct registry *reg, size_t version, const struct command **v,
			     size_t n)
{
	bool progress = true;

	/* a chain (TIOCINQ -> FIONREAD -> a number) resolves from its end */
	while (progress) {
		progress = false;
		for_each_command(reg, c) {
			for (size_t k = 0; c->by_name && numbered_in(reg, c, version) &&
					   k < reg->n_abis; k++) {
				const struct abi *abi = &reg->abis[k];
				const struct abi_number *t;
				bool pending;

				if (!abi->layout || !abi->sizes_file || !abi_has(abi, c) ||
				    c->numbers[k].present)
					continue;
				t = named_number(reg, v, n, c, k, &pending);
				if (t && !pending) {
					c->numbers[k] = *t;
					progress = true;
				}
			}
		}
	}
	for_each_command(reg, c) {
		size_t missing = 0, at = 0, first;

		/* a name no command has is check_aliases()'s to report */
		for (size_t k = 0; c->by_name && numbered_in(reg, c, version) &&
				   k < reg->n_abis; k++) {
			const struct abi *abi = &reg->abis[k];

			if (abi->layout && abi->sizes_file && abi_has(abi, c) &&
			    !c->numbers[k].present &&
			    find_named(v, n, command_alias_on(c, abi), &first) && !missing++)
				at = k;
		}
		if (missing)
			CMD_ERR(reg, c, c->alias_mark, "alias",
			    "%s is spelled as %s, but on %s%s no command of that name has a number",
			    c->name, command_alias_on(c, &reg->abis[at]), reg->abis[at].name,
			    missing == 1 ? "" : missing == 2 ? " (and 1 more ABI)" :
			    arena_printf(&reg->arena, " (and %zu more ABIs)", missing - 1));
	}
}
