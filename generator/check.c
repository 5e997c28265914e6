// SPDX-License-Identifier: GPL-2.0
/*
 * Rules across the whole registry: names, references, field ranges, the
 * magic-code table; the numbers (numbers.c) and shared numbers
 * (collisions.c) run from here.  Errors mean the registry is wrong;
 * warnings describe the kernel as it really is and can be accepted entry
 * by entry (accept: [...]).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

const struct abi *registry_abi(const struct registry *reg, const char *name)
{
	for (size_t i = 0; i < reg->n_abis; i++)
		if (!strcmp(reg->abis[i].name, name))
			return &reg->abis[i];
	return NULL;
}

const struct layout *registry_layout(const struct registry *reg, const char *name)
{
	for (size_t i = 0; i < reg->n_layouts; i++)
		if (!strcmp(reg->layouts[i].name, name))
			return &reg->layouts[i];
	return NULL;
}

/* ------------------------------------------------------------ versions */

/* "6.12" < "6.13" < "6.100": component by component, as numbers. */
static int version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		unsigned long x = strtoul(a, (char **)&a, 10), y = strtoul(b, (char **)&b, 10);

		if (x != y)
			return x < y ? -1 : 1;
		a += *a == '.';
		b += *b == '.';
	}
	return 0;
}

/* The known versions, each once, oldest first. */
static void check_versions(struct registry *reg)
{
	for (size_t i = 1; i < reg->n_versions; i++) {
		const struct kversion *p = &reg->versions[i - 1], *v = &reg->versions[i];
		int c = version_cmp(p->name, v->name);

		if (c == 0 || strcmp(p->name, v->name) == 0)
			ERR(reg, v->mark, "duplicate-name", "version '%s' is already listed at %s:%u:%u",
			    v->name, p->mark.file, p->mark.line, p->mark.col);
		else if (c > 0)
			ERR(reg, v->mark, "range",
			    "versions are listed oldest first: '%s' comes before '%s' (%s:%u:%u)", v->name,
			    p->name, p->mark.file, p->mark.line, p->mark.col);
	}
}

/* The index of a known version, or n_versions (reported) for an unknown one. */
static size_t version_index(struct registry *reg, const struct command *c, const char *key,
			    const char *name, struct mark m)
{
	struct strbuf known = { 0 };

	for (size_t i = 0; i < reg->n_versions; i++)
		if (!strcmp(reg->versions[i].name, name))
			return i;
	for (size_t i = 0; i < reg->n_versions; i++)
		sb_printf(&known, "%s%s", i ? ", " : "", reg->versions[i].name);
	if (c)
		CMD_ERR(reg, c, m, "reference", "'%s': %s is no version of %s/versions.yaml (known: %s)",
			key, name, reg->spec_dir, reg->n_versions ? known.buf : "none");
	else
		ERR(reg, m, "reference", "'%s': %s is no version of %s/versions.yaml (known: %s)", key,
		    name, reg->spec_dir, reg->n_versions ? known.buf : "none");
	sb_release(&known);
	return reg->n_versions;
}

/*
 * since and removed into indexes of the known versions: since defaults to
 * the oldest, removed to none (the entry is still there); since must come
 * before removed.  A broken lifetime counts as every version, so that one
 * mistake gives one error, not a warning per rule that compares lifetimes.
 */
static void resolve_lifetime(struct registry *reg, const struct command *c, struct lifetime *l)
{
	size_t first = 0, end = reg->n_versions;
	bool ok = true;

	if (l->since && (first = version_index(reg, c, "since", l->since, l->since_mark)) == reg->n_versions)
		ok = false;
	if (l->removed &&
	    (end = version_index(reg, c, "removed", l->removed, l->removed_mark)) == reg->n_versions)
		ok = false;
	if (ok && (l->since || l->removed) && first >= end) {
		struct mark m = l->removed ? l->removed_mark : l->since_mark;
		const char *since = l->since ? l->since : reg->versions[0].name;

		if (c)
			CMD_ERR(reg, c, m, "range",
				"'since' %s is not before 'removed' %s: %s would exist in no version", since,
				l->removed, c->name);
		else
			ERR(reg, m, "range",
			    "'since' %s is not before 'removed' %s: the row would exist in no version", since,
			    l->removed);
		ok = false;
	}
	l->first = ok ? first : 0;
	l->end = ok ? end : reg->n_versions;
}

static void resolve_lifetimes(struct registry *reg)
{
	for (size_t i = 0; i < reg->n_rows; i++)
		resolve_lifetime(reg, NULL, &reg->rows[i].life);
	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			struct command *c = &reg->headers[h].commands[i];

			resolve_lifetime(reg, c, &c->life);
		}
}

/*
 * doc-since of each magic-code row: each key a known version (reference),
 * after the row's first version and before its removal, oldest first
 * (range), each text other than the one it follows (type: it would change
 * nothing; an empty text says that the comment went).  A bad override is
 * left out, so that the model holds only good ones.
 */
static void check_doc_since(struct registry *reg)
{
	for (size_t i = 0; i < reg->n_rows; i++) {
		struct magic_row *r = &reg->rows[i];
		const char *before = r->doc, *before_v;
		size_t last = r->life.first, kept = 0;

		for (size_t k = 0; k < r->n_doc_since; k++) {
			struct doc_since d = r->doc_since[k];
			size_t v = version_index(reg, NULL, "doc-since", d.version, d.mark);

			before_v = reg->n_versions ? reg->versions[last].name : "";
			if (v == reg->n_versions)
				continue;
			if (v <= r->life.first) {
				ERR(reg, d.mark, "range",
				    "'doc-since' \"%s\": the row's text in %s, its first version, is its 'doc'",
				    d.version, reg->versions[r->life.first].name);
				continue;
			}
			if (v >= r->life.end) {
				ERR(reg, d.mark, "range",
				    "'doc-since' \"%s\": the row is no longer there in %s (removed: \"%s\")",
				    d.version, d.version, reg->versions[r->life.end].name);
				continue;
			}
			if (v <= last) {
				ERR(reg, d.mark, "range",
				    "'doc-since' lists the versions oldest first: \"%s\" comes after \"%s\"",
				    d.version, before_v);
				continue;
			}
			if (!strcmp(d.doc, before)) {
				ERR(reg, d.mark, "type",
				    "'doc-since' \"%s\" repeats the row's text of %s (%s%s%s): it changes nothing",
				    d.version, before_v, *before ? "'" : "", *before ? before : "empty",
				    *before ? "'" : "");
				continue;
			}
			r->doc_since[kept++] = d;
			before = d.doc;
			last = v;
		}
		r->n_doc_since = kept;
	}
}

void lifetime_describe(const struct registry *reg, const struct lifetime *l, struct strbuf *sb)
{
	const char *sep = "";

	if (l->first == 0 && l->end == reg->n_versions)
		return;
	if (l->end < reg->n_versions) {
		if (l->end - l->first == 1)
			sb_printf(sb, "%s only", reg->versions[l->first].name);
		else
			sb_printf(sb, "%s to %s", reg->versions[l->first].name,
				  reg->versions[l->end - 1].name);
		sep = "; ";
	}
	if (l->first > 0) {
		sb_printf(sb, "%snew in %s", sep, reg->versions[l->first].name);
		sep = "; ";
	}
	if (l->end < reg->n_versions)
		sb_printf(sb, "%sremoved in %s", sep, reg->versions[l->end].name);
}

/* ------------------------------------------------------------ names */

struct named {
	const char *name;
	struct mark mark;
};

static int named_cmp(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	c = strcmp(a->mark.file, b->mark.file);
	if (c)
		return c;
	return a->mark.line < b->mark.line ? -1 : a->mark.line > b->mark.line;
}

static void check_unique(struct registry *reg, struct named *v, size_t n, const char *what)
{
	qsort(v, n, sizeof(*v), named_cmp);
	for (size_t i = 1, first = 0; i < n; i++) {
		if (strcmp(v[i].name, v[first].name)) {
			first = i;
			continue;
		}
		ERR(reg, v[i].mark, "duplicate-name", "%s '%s' is already defined at %s:%u:%u", what,
		    v[i].name, v[first].mark.file, v[first].mark.line, v[first].mark.col);
	}
}

static void check_names(struct registry *reg)
{
	size_t n = reg->n_layouts + reg->n_abis, k = 0;
	struct named *v;

	for (size_t h = 0; h < reg->n_headers; h++)
		n += reg->headers[h].n_commands;
	v = xrealloc(NULL, (n + 1) * sizeof(*v));
	for (size_t i = 0; i < reg->n_layouts; i++)
		v[k++] = (struct named){ reg->layouts[i].name, reg->layouts[i].mark };
	check_unique(reg, v, k, "layout");
	k = 0;
	for (size_t i = 0; i < reg->n_abis; i++)
		v[k++] = (struct named){ reg->abis[i].name, reg->abis[i].mark };
	check_unique(reg, v, k, "ABI");
	free(v);
}

/*
 * A name may stand in several headers: per-arch variants (asm/ioctls.h) that
 * never meet on one ABI, or identical redefinitions, which C allows.  It is
 * an error twice in one header, or when two definitions give one ABI two
 * different numbers.
 */
static void check_command_names(struct registry *reg, const struct command **v, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && !strcmp(v[j]->name, v[i]->name))
			j++;
		for (size_t b = i + 1; b < j; b++) {
			const struct command *y = v[b];

			for (size_t a = i; a < b; a++) {
				const struct command *x = v[a];
				size_t k;

				if (x->header == y->header) {
					CMD_ERR(reg, y, y->mark, "duplicate-name",
					    "command '%s' is already defined at %s:%u:%u", y->name,
					    x->mark.file, x->mark.line, x->mark.col);
					break;
				}
				for (k = 0; k < reg->n_abis; k++)
					if (x->numbers && y->numbers && x->numbers[k].present &&
					    y->numbers[k].present && x->numbers[k].number != y->numbers[k].number)
						break;
				if (k < reg->n_abis) {
					CMD_ERR(reg, y, y->mark, "duplicate-name",
					    "command '%s' is also defined at %s:%u:%u, with another number on %s (0x%08x, here 0x%08x)",
					    y->name, x->mark.file, x->mark.line, x->mark.col, reg->abis[k].name,
					    x->numbers[k].number, y->numbers[k].number);
					break;
				}
			}
		}
		i = j;
	}
}

/* ------------------------------------------------------------ aliases */

static int cmd_name_cmp(const void *pa, const void *pb)
{
	const struct command *const *a = pa, *const *b = pb;
	int c = strcmp((*a)->name, (*b)->name);

	return c ? c : command_spec_order(*a, *b);
}

const struct command **commands_by_name(const struct registry *reg, size_t *n)
{
	const struct command **v = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			grow(&v, &cap, *n + 1, sizeof(*v));
			v[(*n)++] = &reg->headers[h].commands[i];
		}
	if (*n)
		qsort(v, *n, sizeof(*v), cmd_name_cmp);
	return v;
}

size_t find_named(const struct command **v, size_t n, const char *name, size_t *first)
{
	size_t lo = 0, hi = n, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(v[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < n && !strcmp(v[k]->name, name); k++)
		;
	*first = lo;
	return k - lo;
}

/*
 * The end of the alias-of chain from c (alias_of: c's own, or a variant's),
 * or NULL when the chain is broken (reported).  Every name in the chain has
 * one alias-of (names in several headers agree, or check_command_names says
 * so).
 */
static const char *alias_root(struct registry *reg, const struct command **v, size_t n,
			      struct command *c, const char *alias_of, struct mark mark)
{
	const char *at = c->name;
	size_t first, steps = 0;
	struct strbuf path = { 0 };
	bool broken = false;

	if (!find_named(v, n, alias_of, &first)) {
		CMD_ERR(reg, c, mark, "alias", "'alias-of': %s names no command of the registry",
			alias_of);
		return NULL;
	}
	sb_printf(&path, "%s", c->name);
	while (!broken) {
		size_t f, k = find_named(v, n, at, &f);
		const char *next = at == c->name ? alias_of : NULL;

		for (size_t x = f; x < f + k && !next; x++)
			next = v[x]->alias_of;
		if (!next || !find_named(v, n, next, &f))
			break;
		sb_printf(&path, " -> %s", next);
		at = next;
		if (!strcmp(at, c->name)) {
			CMD_ERR(reg, c, mark, "alias", "'alias-of' makes a cycle: %s", path.buf);
			broken = true;
		} else if (++steps > n) {
			broken = true;	/* a cycle further on: its members say so */
		}
	}
	sb_release(&path);
	return broken ? NULL : at;
}

/* A command's numbers in known version v, or its one set (v SIZE_MAX). */
static const struct abi_number *numbers_in(const struct command *c, size_t v)
{
	return v == SIZE_MAX ? c->numbers : c->by_version[v];
}

/*
 * Does alias c carry another number than its target t on some ABI where
 * both have one?  In every known version both exist in, oldest first (a
 * target whose struct grew in 6.12 and an alias removed in 6.12 agree in
 * 6.1); with fewer than two known versions, in their one set of numbers.
 * The first difference found: its version (SIZE_MAX: the one set) and ABI.
 */
static bool alias_numbers_differ(const struct registry *reg, const struct command *c,
				 const struct command *t, size_t *version, size_t *abi)
{
	bool versioned = c->by_version && t->by_version;
	size_t first = versioned ? (c->life.first > t->life.first ? c->life.first : t->life.first) : 0;
	size_t end = versioned ? (c->life.end < t->life.end ? c->life.end : t->life.end) : 1;

	if (!c->numbers || !t->numbers)
		return false;
	for (size_t v = first; v < end; v++) {
		size_t at = versioned ? v : SIZE_MAX;
		const struct abi_number *a = numbers_in(c, at), *b = numbers_in(t, at);

		for (size_t k = 0; k < reg->n_abis; k++) {
			if (!a[k].present || !b[k].present)
				continue;
			if (a[k].number != b[k].number || a[k].variable_size != b[k].variable_size) {
				*version = at;
				*abi = k;
				return true;
			}
		}
	}
	return false;
}

/*
 * alias-of: the target must be a command of the registry, the chain of
 * alias-of must end (no cycle), and on every ABI where both exist, in
 * every known version both exist in, the alias must carry the target's
 * numbers (sized only; a command spelled as
 * the name carries them by construction).  alias_root is the end of the
 * chain, the name that stands for the command in collisions.
 */
static void check_aliases(struct registry *reg, const struct command **v, size_t n, bool sized)
{

	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_commands; i++)
			reg->headers[h].commands[i].alias_root = reg->headers[h].commands[i].name;
	for (size_t h = 0; h < reg->n_headers; h++) {
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			struct command *c = &reg->headers[h].commands[i];
			const char *root;
			size_t first;

			for (size_t k = 0; k < c->n_variants; k++) {
				struct variant *va = &c->variants[k];

				if (va->alias_of)
					va->alias_root = alias_root(reg, v, n, c, va->alias_of,
								    va->alias_mark);
			}
			if (!c->alias_of || !(root = alias_root(reg, v, n, c, c->alias_of, c->alias_mark)))
				continue;
			c->alias_root = root;
			if (!sized || c->by_name)
				continue;
			find_named(v, n, c->alias_of, &first);
			for (size_t x = first; x < n && !strcmp(v[x]->name, c->alias_of); x++) {
				const struct command *t = v[x];
				size_t ver, abi;

				if (t->nr_count != c->nr_count) {
					CMD_ERR(reg, c, c->alias_mark, "alias",
					    "%s is an alias of %s, but its nr-count is %u and %s's is %u (%s:%u:%u)",
					    c->name, t->name, c->nr_count, t->name, t->nr_count, t->mark.file,
					    t->mark.line, t->mark.col);
					break;
				}
				if (alias_numbers_differ(reg, c, t, &ver, &abi))
					CMD_ERR(reg, c, c->alias_mark, "alias",
					    "%s is an alias of %s, but their numbers differ on %s%s%s: 0x%08x here, 0x%08x at %s:%u:%u",
					    c->name, t->name, reg->abis[abi].name,
					    ver == SIZE_MAX ? "" : " in ", ver == SIZE_MAX ? "" : reg->versions[ver].name,
					    numbers_in(c, ver)[abi].number, numbers_in(t, ver)[abi].number,
					    t->mark.file, t->mark.line, t->mark.col);
			}
		}
	}
}

/* ------------------------------------------------------------ ABIs */

/* A variant (the same compiler with a 64-bit time_t) names an ABI listed
 * before it that is no variant itself, with its layout and ARCH: then
 * "differs from its base" means only what the options change. */
static void link_variant(struct registry *reg, struct abi *abi, size_t i)
{
	const struct abi *base = NULL;

	if (!abi->variant_of_name)
		return;
	for (size_t k = 0; k < i && !base; k++)
		if (!strcmp(reg->abis[k].name, abi->variant_of_name))
			base = &reg->abis[k];
	if (!base) {
		ERR(reg, abi->variant_mark, "reference", "ABI '%s' is a variant of '%s', %s", abi->name,
		    abi->variant_of_name, registry_abi(reg, abi->variant_of_name)
		    ? "which is listed after it" : "which is no ABI");
	} else if (base->variant_of_name) {
		ERR(reg, abi->variant_mark, "reference",
		    "ABI '%s' is a variant of '%s', which is itself a variant of '%s'", abi->name,
		    base->name, base->variant_of_name);
	} else if (strcmp(base->layout_name, abi->layout_name) || !base->arch || !abi->arch ||
		   strcmp(base->arch, abi->arch)) {
		ERR(reg, abi->variant_mark, "reference",
		    "ABI '%s' is a variant of '%s' but has another layout or ARCH (%s, %s; '%s' has %s, %s)",
		    abi->name, base->name, abi->layout_name, abi->arch ? abi->arch : "none",
		    base->name, base->layout_name, base->arch ? base->arch : "none");
	} else {
		abi->variant_of = base;
	}
}

static void link_abis(struct registry *reg, bool sized)
{
	for (size_t i = 0; i < reg->n_abis; i++) {
		struct abi *abi = &reg->abis[i];

		abi->layout = registry_layout(reg, abi->layout_name);
		if (!abi->layout)
			ERR(reg, abi->mark, "reference", "ABI '%s' names an unknown layout '%s'", abi->name,
			    abi->layout_name);
		link_variant(reg, abi, i);
		if (sized && !abi->sizes_file)
			ERR(reg, abi->mark, "missing-size",
			    "ABI '%s' has no measured sizes (%s/sizes/%s.yaml): run 'make sizes'", abi->name,
			    reg->spec_dir, abi->name);
	}
}

/* ------------------------------------------------------------ field ranges */

const struct layout *registry_smallest(const struct registry *reg,
				       uint32_t (*max)(const struct layout *))
{
	const struct layout *best = NULL;

	for (size_t i = 0; i < reg->n_layouts; i++)
		if (!best || max(&reg->layouts[i]) < max(best))
			best = &reg->layouts[i];
	return best;
}

static void check_ranges(struct registry *reg)
{
	const struct layout *lt = registry_smallest(reg, layout_max_type);
	const struct layout *ln = registry_smallest(reg, layout_max_nr);

	if (!lt || !ln)
		return;
	for (size_t i = 0; i < reg->n_rows; i++) {
		struct magic_row *r = &reg->rows[i];

		if (r->code > layout_max_type(lt))
			ERR(reg, r->mark, "range", "code %s does not fit the %u-bit type field of layout '%s'",
			    r->code_text, lt->type_bits, lt->name);
	}
	for (size_t h = 0; h < reg->n_headers; h++) {
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			struct command *c = &reg->headers[h].commands[i];
			uint64_t last = (uint64_t)c->nr + c->nr_count - 1;

			if (c->plain)	/* a 32-bit number, checked when loaded */
				continue;
			if (c->magic > layout_max_type(lt))
				CMD_ERR(reg, c, c->magic_mark, "range",
				    "%s: magic %s does not fit the %u-bit type field of layout '%s'", c->name,
				    c->magic_text, lt->type_bits, lt->name);
			if (last > layout_max_nr(ln))
				CMD_ERR(reg, c, c->nr_mark, "range",
				    "%s: nr %llu does not fit the %u-bit nr field of layout '%s'", c->name,
				    (unsigned long long)last, ln->nr_bits, ln->name);
			for (size_t v = 0; v < c->n_variants; v++)
				if (c->variants[v].nr > layout_max_nr(ln))
					CMD_ERR(reg, c, c->variants[v].nr_mark, "range",
					    "%s: nr %s does not fit the %u-bit nr field of layout '%s'",
					    c->name, c->variants[v].nr_text, ln->nr_bits, ln->name);
		}
	}
}

/* ------------------------------------------------------------ magic rows */

struct code_index {
	size_t *rows;		/* row indexes sorted by code */
	size_t start[257];	/* rows of code c: rows[start[c] .. start[c + 1]) */
};

static void index_codes(const struct registry *reg, struct code_index *ci)
{
	size_t count[256] = { 0 }, pos[256];

	for (size_t i = 0; i < reg->n_rows; i++)
		if (reg->rows[i].code < 256)
			count[reg->rows[i].code]++;
	ci->start[0] = 0;
	for (int c = 0; c < 256; c++) {
		ci->start[c + 1] = ci->start[c] + count[c];
		pos[c] = ci->start[c];
	}
	ci->rows = xrealloc(NULL, (ci->start[256] + 1) * sizeof(*ci->rows));
	for (size_t i = 0; i < reg->n_rows; i++)
		if (reg->rows[i].code < 256)
			ci->rows[pos[reg->rows[i].code]++] = i;
}

static void check_overlaps(struct registry *reg, const struct code_index *ci)
{
	for (int code = 0; code < 256; code++) {
		for (size_t x = ci->start[code]; x < ci->start[code + 1]; x++) {
			struct magic_row *r = &reg->rows[ci->rows[x]];
			struct strbuf with = { 0 };

			for (size_t y = ci->start[code]; y < ci->start[code + 1]; y++) {
				const struct magic_row *o = &reg->rows[ci->rows[y]];

				if (x == y || o->last < r->first || o->first > r->last)
					continue;
				if (!r->overlaps)
					r->overlaps = arena_alloc(&reg->arena,
								  (ci->start[code + 1] - ci->start[code]) *
								  sizeof(*r->overlaps));
				r->overlaps[r->n_overlaps++] = ci->rows[y];
				sb_printf(&with, "%s%s %s (line %u)", with.len ? ", " : "",
					  o->n_headers ? o->headers[0] : "(no header)", o->seq, o->mark.line);
			}
			if (r->n_overlaps)
				WARN(reg, r->mark, "overlap", r->accept & ACCEPT_OVERLAP,
				     "code %s seq %s (%s) overlaps %s", r->code_text, r->seq,
				     r->n_headers ? r->headers[0] : "no header", with.buf);
			sb_release(&with);
		}
	}
}

/*
 * A command registered in the magic-code table must be so in every known
 * version it exists in: some row that covers its nr exists there too.
 * The first version where none does is named, at the command's since (it
 * starts before its rows) or removed (it outlives them).
 */
static void check_row_versions(struct registry *reg, const struct code_index *ci,
			       const struct command *c)
{
	size_t from = ci->start[c->magic], to = ci->start[c->magic + 1];

	for (size_t v = c->life.first; v < c->life.end; v++) {
		const struct magic_row *row = NULL;
		bool there = false;
		struct mark m;

		for (size_t x = from; x < to && !there; x++) {
			const struct magic_row *r = &reg->rows[ci->rows[x]];

			if (c->nr < r->first || c->nr > r->last)
				continue;
			there = lifetime_has(&r->life, v);
			row = row ? row : r;
		}
		if (there || !row)
			continue;
		m = v < row->life.first ? (c->life.since ? c->life.since_mark : c->mark) :
		    (c->life.removed ? c->life.removed_mark : c->mark);
		CMD_WARN(reg, c, m, "row-versions", c->accept & ACCEPT_ROW_VERSIONS,
			 "%s exists in %s, but its magic-code row (code %s seq %s, %s:%u:%u) %s %s",
			 c->name, reg->versions[v].name, row->code_text, row->seq, row->mark.file,
			 row->mark.line, row->mark.col,
			 v < row->life.first ? "is new in" : "was removed in",
			 reg->versions[v < row->life.first ? row->life.first : row->life.end].name);
		return;
	}
}

static void check_registered(struct registry *reg, const struct code_index *ci)
{
	for (size_t h = 0; h < reg->n_headers; h++) {
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			const struct command *c = &reg->headers[h].commands[i];
			size_t from, to;
			bool covered = true;

			/* A plain number belongs to no magic code's table row
			 * (ioctl-number.rst lists the _IO* commands). */
			if (c->plain || c->magic > 0xff)
				continue;
			from = ci->start[c->magic];
			to = ci->start[c->magic + 1];
			if (from == to) {
				CMD_WARN(reg, c, c->magic_mark, "unregistered-magic",
				     c->accept & ACCEPT_UNREGISTERED_MAGIC,
				     "%s: magic %s has no row in the magic-code table", c->name, c->magic_text);
				continue;
			}
			for (unsigned int nr = c->nr; nr < c->nr + c->nr_count; nr++) {
				bool in = false;

				for (size_t x = from; x < to; x++) {
					struct magic_row *r = &reg->rows[ci->rows[x]];

					if (nr >= r->first && nr <= r->last) {
						in = true;
						if (nr == c->nr)
							r->n_commands++;
					}
				}
				covered &= in;
			}
			if (!covered)
				CMD_WARN(reg, c, c->nr_mark, "outside-range", c->accept & ACCEPT_OUTSIDE_RANGE,
				     "%s: nr %s%s is outside every registered range of magic %s", c->name,
				     c->nr_text, c->nr_count > 1 ? " (and up)" : "", c->magic_text);
			else
				check_row_versions(reg, ci, c);
		}
	}
}

/* Every rule runs even after errors, so that one run reports every
 * problem; numbers are computed for the ABIs whose layout and sizes are
 * known, and only when sized. */
/* Each variant names ABIs of the registry, each ABI in one variant at most,
 * and only ABIs that can have the command (a per-arch header's ARCH). */
static void check_variants(struct registry *reg)
{
	for (size_t h = 0; h < reg->n_headers; h++) {
		const struct header *hd = &reg->headers[h];

		for (size_t i = 0; i < hd->n_commands; i++) {
			const struct command *c = &hd->commands[i];

			for (size_t v = 0; v < c->n_variants; v++) {
				const struct variant *va = &c->variants[v];

				for (size_t k = 0; k < va->n_abis; k++) {
					const struct abi *abi = NULL;
					bool twice = false;

					for (size_t a = 0; a < reg->n_abis; a++)
						if (!strcmp(reg->abis[a].name, va->abis[k]))
							abi = &reg->abis[a];
					for (size_t w = 0; w <= v; w++)
						for (size_t j = 0; j < (w == v ? k : c->variants[w].n_abis); j++)
							twice |= !strcmp(c->variants[w].abis[j], va->abis[k]);
					if (!abi)
						CMD_ERR(reg, c, va->abi_marks[k], "reference",
						    "%s: variant ABI '%s' is not in abis.yaml", c->name, va->abis[k]);
					else if (twice)
						CMD_ERR(reg, c, va->abi_marks[k], "duplicate-name",
						    "%s: ABI '%s' is in more than one variant", c->name, va->abis[k]);
					else if (hd->arch && (!abi->arch || strcmp(abi->arch, hd->arch)))
						CMD_ERR(reg, c, va->abi_marks[k], "reference",
						    "%s: variant ABI '%s' is not of ARCH %s, the header's", c->name,
						    va->abis[k], hd->arch);
				}
			}
		}
	}
}

/* ------------------------------------------------------------ numbers per version */

/*
 * Point each ABI's sizes at those of known version v: sizes/<V>/<abi>.yaml,
 * or, where that file is missing, the newest earlier version's (borrowed:
 * the missing file is reported once, by missing_version_sizes()).
 */
static void show_version_sizes(struct registry *reg, size_t v)
{
	for (size_t k = 0; k < reg->n_abis; k++) {
		struct abi *abi = &reg->abis[k];
		size_t w = v;

		if (!abi->by_version)
			continue;
		while (w > 0 && !abi->by_version[w].sizes_file)
			w--;
		abi->sizes = abi->by_version[w].sizes;
		abi->n_sizes = abi->by_version[w].n_sizes;
		abi->absent = abi->by_version[w].absent;
		abi->n_absent = abi->by_version[w].n_absent;
		abi->sizes_file = abi->by_version[w].sizes_file;
		abi->sizes_borrowed = w != v;
	}
}

/* A version after the oldest without a sizes file for an ABI where one of
 * its commands needs a size: one error per version and ABI, at the ABI. */
static void missing_version_sizes(struct registry *reg, size_t v)
{
	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct abi *abi = &reg->abis[k];
		const struct command *needs = NULL;

		/* no sizes at all: link_abis() said so */
		if (!abi->sizes_borrowed || !abi->by_version[0].sizes_file)
			continue;
		for (size_t h = 0; h < reg->n_headers && !needs; h++) {
			const struct header *hd = &reg->headers[h];

			if (hd->arch && (!abi->arch || strcmp(hd->arch, abi->arch)))
				continue;
			for (size_t i = 0; i < hd->n_commands && !needs; i++) {
				const struct command *c = &hd->commands[i];

				if (lifetime_has(&c->life, v) && !c->plain && !c->by_name &&
				    (command_sized_type(c) || c->size_unit))
					needs = c;
			}
		}
		if (needs)
			ERR(reg, abi->mark, "missing-size",
			    "ABI '%s' has no measured sizes for %s (%s/sizes/%s/%s.yaml), which %s (%s) needs: run 'make sizes' for %s (tools/measure-sizes --version %s)",
			    abi->name, reg->versions[v].name, reg->spec_dir, reg->versions[v].name, abi->name,
			    needs->name, needs->header->path, reg->versions[v].name, reg->versions[v].name);
	}
}

static bool same_diag(const struct diag *a, const struct diag *b)
{
	return a->sev == b->sev && a->accepted == b->accepted && a->mark.line == b->mark.line &&
	       a->mark.col == b->mark.col && !strcmp(a->rule, b->rule) &&
	       !strcmp(a->mark.file ? a->mark.file : "", b->mark.file ? b->mark.file : "") &&
	       !strcmp(a->msg, b->msg);
}

/* The diagnostics from `from` on that an earlier one already says (a legacy
 * spelling checked again with the same sizes in a later version): dropped. */
static void drop_repeated(struct diags *d, size_t from)
{
	size_t to = from;

	for (size_t i = from; i < d->n; i++) {
		bool seen = false;

		for (size_t j = 0; j < from && !seen; j++)
			seen = same_diag(&d->v[j], &d->v[i]);
		if (!seen) {
			d->v[to++] = d->v[i];
			continue;
		}
		if (d->v[i].sev == SEV_ERROR)
			d->errors--;
		else if (!d->v[i].accepted)
			d->warnings--;
		free(d->v[i].msg);
	}
	d->n = to;
}

/*
 * Every command's numbers in every known version it exists in, with that
 * version's sizes and absent: lists; its numbers are the newest version's.
 * With fewer than two known versions, the one pass of before.
 */
static void number_versions(struct registry *reg, const struct command **byname, size_t n)
{
	size_t nv = reg->n_versions;

	if (nv < 2) {
		commands_number(reg, 0);
		commands_number_by_name(reg, 0, byname, n);
		return;
	}
	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_commands; i++)
			reg->headers[h].commands[i].by_version =
				arena_alloc(&reg->arena, nv * sizeof(struct abi_number *));
	for (size_t v = 0; v < nv; v++) {
		size_t from = reg->diags.n;

		show_version_sizes(reg, v);
		if (v > 0)
			missing_version_sizes(reg, v);
		commands_number(reg, v);
		commands_number_by_name(reg, v, byname, n);
		if (v > 0)
			drop_repeated(&reg->diags, from);
		for (size_t h = 0; h < reg->n_headers; h++)
			for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
				struct command *c = &reg->headers[h].commands[i];

				if (lifetime_has(&c->life, v))
					c->by_version[v] = c->numbers;
			}
	}
	show_version_sizes(reg, 0);
	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			struct command *c = &reg->headers[h].commands[i];

			c->numbers = c->by_version[c->life.end - 1];
		}
}

/*
 * A number that changes between two known versions a command exists in,
 * on an ABI that has it in both (the last earlier version it had it in):
 * one abi_change per command and pair of versions, listing the ABIs; an
 * error unless the entry says why with abi-change: "...".  A command that
 * comes or goes on an ABI changes no number.  An abi-change with nothing
 * to accept is an error too.
 */
static void check_abi_changes(struct registry *reg)
{
	size_t nv = reg->n_versions, cap = 0;
	size_t *last = xrealloc(NULL, (reg->n_abis + 1) * sizeof(*last));
	/* per ABI, the version whose number v differs from, or nv */
	size_t *from = xrealloc(NULL, (reg->n_abis + 1) * sizeof(*from));

	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			const struct command *c = &reg->headers[h].commands[i];
			size_t before = reg->n_abi_changes;

			for (size_t k = 0; k < reg->n_abis; k++)
				last[k] = nv;
			for (size_t v = c->life.first; c->by_version && v < c->life.end; v++) {
				const struct abi_number *now = c->by_version[v];

				for (size_t k = 0; k < reg->n_abis; k++) {
					from[k] = nv;
					if (!now[k].present)
						continue;
					if (last[k] < nv && c->by_version[last[k]][k].number != now[k].number)
						from[k] = last[k];
					last[k] = v;
				}
				/* one entry per earlier version it changes from */
				for (size_t k = 0; k < reg->n_abis; k++) {
					struct abi_change *ch;

					if (from[k] == nv)
						continue;
					ch = arena_slot(&reg->arena, &reg->abi_changes, &cap, reg->n_abi_changes++,
							sizeof(*reg->abi_changes));
					*ch = (struct abi_change){ c, from[k], v, arena_alloc(&reg->arena,
						reg->n_abis * sizeof(size_t)), 0 };
					for (size_t x = k; x < reg->n_abis; x++)
						if (from[x] == ch->from) {
							ch->abis[ch->n_abis++] = x;
							from[x] = nv;
						}
				}
			}
			for (size_t x = before; x < reg->n_abi_changes; x++) {
				const struct abi_change *ch = &reg->abi_changes[x];
				struct strbuf sb = { 0 };

				for (size_t a = 0; a < ch->n_abis; a++) {
					const struct abi_number *o = &c->by_version[ch->from][ch->abis[a]];
					const struct abi_number *w = &c->by_version[ch->to][ch->abis[a]];

					sb_printf(&sb, "%s%s 0x%08x -> 0x%08x", a ? ", " : "",
						  reg->abis[ch->abis[a]].name, o->number, w->number);
					if (!o->variable_size && !w->variable_size && o->size != w->size)
						sb_printf(&sb, " (size %u -> %u)", o->size, w->size);
				}
				if (c->abi_change)
					CMD_WARN(reg, c, c->abi_change_mark, "abi-change", true,
						 "%s: its number changes from %s to %s (%s): %s", c->name,
						 reg->versions[ch->from].name, reg->versions[ch->to].name,
						 c->abi_change, sb.buf);
				else
					CMD_ERR(reg, c, c->mark, "abi-change",
						"%s: its number changes from %s to %s: %s; a program built for %s breaks unless the kernel takes both: say why with abi-change: \"<reason>\"",
						c->name, reg->versions[ch->from].name, reg->versions[ch->to].name,
						sb.buf, reg->versions[ch->from].name);
				sb_release(&sb);
			}
			if (c->abi_change && before == reg->n_abi_changes)
				CMD_ERR(reg, c, c->abi_change_mark, "abi-change",
					"'abi-change': %s has one number on each ABI in every known version it exists in: there is no change to accept",
					c->name);
		}
	free(last);
	free(from);
}

static void check(struct registry *reg, bool sized)
{
	struct code_index ci;
	const struct command **byname;
	size_t n;

	check_names(reg);
	check_versions(reg);
	resolve_lifetimes(reg);
	check_doc_since(reg);
	link_abis(reg, sized);
	check_variants(reg);
	check_types(reg);
	check_ranges(reg);
	commands_spell(reg);
	/* one index of the commands by name for the stages that look names up */
	byname = commands_by_name(reg, &n);
	if (sized) {
		number_versions(reg, byname, n);
		check_abi_changes(reg);
	}
	check_command_names(reg, byname, n);
	check_aliases(reg, byname, n, sized);
	free(byname);
	index_codes(reg, &ci);
	check_overlaps(reg, &ci);
	check_registered(reg, &ci);
	free(ci.rows);
	if (sized)
		collisions_find(reg);
	reg->numbered = sized;
	diags_sort(&reg->diags);
}

void registry_check(struct registry *reg)
{
	check(reg, true);
}

void registry_check_unsized(struct registry *reg)
{
	check(reg, false);
}

void registry_release(struct registry *reg)
{
	diags_release(&reg->diags);
	arena_release(&reg->arena);
}
