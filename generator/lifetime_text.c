// SPDX-License-Identifier: GPL-2.0
/*
 * Every wording of a lifetime (the known versions an entry exists in), in
 * one place: decode's and the site decoder's words, the registry's
 * Versions cell and an entry's sentence.  The model carries all three
 * (model_views.c), so that no renderer and no script words one again.
 */
#include <ctype.h>

#include "registry.h"

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

void versions_cell(const struct registry *reg, uint64_t set, struct strbuf *sb)
{
	size_t n = 0;

	/* sb_puts, not sb_printf: every entry of the model has a cell */
	for (size_t v = 0; v < reg->n_versions; v++)
		if (set >> v & 1) {
			if (n++)
				sb_lit(sb, ", ");
			sb_puts(sb, reg->versions[v].name);
		}
	if (!n)
		sb_puts(sb, "none");
	else if (n == 1 && reg->n_versions > 1)
		sb_puts(sb, " only");
}

void lifetime_cell(const struct registry *reg, const struct lifetime *l, struct strbuf *sb)
{
	versions_cell(reg, lifetime_set(l), sb);
}

/* "6.1", "6.1 and 6.12", "6.1, 6.12 and 6.13" */
static void and_join(const struct registry *reg, const struct lifetime *l, struct strbuf *sb)
{
	for (size_t v = l->first; v < l->end; v++) {
		sb_puts(sb, v == l->first ? "" : v + 1 == l->end ? " and " : ", ");
		sb_puts(sb, reg->versions[v].name);
	}
}

void lifetime_sentence(const struct registry *reg, const struct lifetime *l, struct strbuf *sb)
{
	size_t start = sb->len;

	if (l->first == l->end) {
		sb_puts(sb, "In no known version");
		return;
	}
	if (l->first == 0 && l->end == reg->n_versions) {
		sb_puts(sb, "In ");
		and_join(reg, l, sb);
		return;
	}
	if (l->first > 0) {
		sb_lit(sb, "new in ");
		sb_puts(sb, reg->versions[l->first].name);
	}
	if (l->end < reg->n_versions) {
		sb_puts(sb, l->first > 0 ? ", removed in " : "removed in ");
		sb_puts(sb, reg->versions[l->end].name);
	}
	sb->buf[start] = (char)toupper((unsigned char)sb->buf[start]);
	/* with two versions the in-between says nothing more */
	if (reg->n_versions > 2) {
		sb_puts(sb, " (in ");
		and_join(reg, l, sb);
		sb_puts(sb, l->end - l->first == 1 ? " only)" : ")");
	}
}
