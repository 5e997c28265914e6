// SPDX-License-Identifier: GPL-2.0
/*
 * The known versions (versions.yaml, oldest first) and the lifetime of each
 * entry: since and removed as indexes of them; the magic-code rows'
 * doc-since texts, each in a version the row exists in.
 */
#include <stdlib.h>
#include <string.h>

#include "rules.h"

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
void check_versions(struct registry *reg)
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

void resolve_lifetimes(struct registry *reg)
{
	for (size_t i = 0; i < reg->n_rows; i++)
		resolve_lifetime(reg, NULL, &reg->rows[i].life);
	for_each_command(reg, c)
		resolve_lifetime(reg, c, &c->life);
}

/*
 * doc-since of each magic-code row: each key a known version (reference),
 * after the row's first version and before its removal, oldest first
 * (range), each text other than the one it follows (type: it would change
 * nothing; an empty text says that the comment went).  A bad override is
 * left out, so that the model holds only good ones.
 */
void check_doc_since(struct registry *reg)
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
