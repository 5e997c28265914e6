// SPDX-License-Identifier: GPL-2.0
/*
 * ioctlgen table --dump TABLE: a lookup table as compact JSON, read through
 * libioctlreg's API only, for the Python programs that write what decode
 * answers from (generator/ioctltools/table_reader.py: the exports, the site's decoder
 * data).  One table, one reader: they and decode cannot disagree.
 *
 *   {"model-version": N, "versions": [name],
 *    "abis": [[name, layout or null, arch, variant-of index or null]],
 *    "headers": [[path, arch or ""]],
 *    "commands": [[name, header, dir or null (plain), magic, nr, n_params,
 *                  number-text, since, removed (each null for none),
 *                  protocol-code, kernel-internal (0/1), first, end,
 *                  [alias-of per ABI, "" for none],
 *                  [per version (one without versions): [per ABI: null, or
 *                   [number, size, unit, variable, dir name or null, type, nr]]],
 *                  nr-count, reserved, per-version (0/1: its numbers differ
 *                  between versions)]],
 *    "shared": [[abi, number, versions bit mask, [names, "" between groups]]],
 *    "number-words": [[command, abi, number, words]]}
 *
 * number-words: decode's words for each number a command carries on an ABI
 * in some of its versions only (describe_number_versions()), which the
 * site's decoder shows as they are.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "describe.h"
#include "json.h"

static void put_str(struct strbuf *sb, const char *s)
{
	if (!s) {
		sb_lit(sb, "null");
		return;
	}
	sb_putc(sb, '"');
	jescape(sb, s);
	sb_putc(sb, '"');
}

static void put_text(struct strbuf *sb, const char *s)
{
	put_str(sb, s && *s ? s : NULL);
}

static void put_u(struct strbuf *sb, unsigned long long v)
{
	sb_printf(sb, "%llu", v);
}

static void put_numbers(struct strbuf *sb, const struct ioctlreg *r, size_t cmd, int v)
{
	size_t n_abis = ioctlreg_abi_count(r);

	sb_putc(sb, '[');
	for (size_t a = 0; a < n_abis; a++) {
		struct ioctlreg_number n;
		struct ioctlreg_fields f;
		int layout = ioctlreg_abi_layout(r, a);

		if (a)
			sb_putc(sb, ',');
		if (!ioctlreg_command_number(r, cmd, a, v, &n) || layout < 0) {
			sb_lit(sb, "null");
			continue;
		}
		ioctlreg_split(r, (size_t)layout, n.number, &f);
		sb_printf(sb, "[%u,%u,%u,%d,", n.number, n.size, n.unit, n.variable_size);
		if (f.dir_name < 0)
			sb_lit(sb, "null");
		else
			put_u(sb, (unsigned)f.dir_name);
		sb_printf(sb, ",%u,%u]", f.type, f.nr);
	}
	sb_putc(sb, ']');
}

static void put_command(struct strbuf *sb, const struct ioctlreg *r, size_t i)
{
	struct ioctlreg_command c;
	size_t n_abis = ioctlreg_abi_count(r), n_versions = ioctlreg_version_count(r);

	ioctlreg_command(r, i, &c);
	sb_putc(sb, '[');
	put_str(sb, c.name);
	sb_printf(sb, ",%zu,", c.header_index);
	if (c.flags & IOCTLREG_PLAIN)
		sb_lit(sb, "null");
	else
		put_u(sb, c.dir);
	sb_printf(sb, ",%u,%u,%zu,", c.magic, c.nr, c.n_params);
	put_text(sb, ioctlreg_command_text(r, i, IOCTLREG_NUMBER_TEXT));
	sb_putc(sb, ',');
	put_text(sb, ioctlreg_command_text(r, i, IOCTLREG_SINCE));
	sb_putc(sb, ',');
	put_text(sb, ioctlreg_command_text(r, i, IOCTLREG_REMOVED));
	sb_printf(sb, ",%d,%d,%zu,%zu,[", !!(c.flags & IOCTLREG_PROTOCOL_CODE),
		  !!(c.flags & IOCTLREG_KERNEL_INTERNAL), c.first_version, c.end_version);
	for (size_t a = 0; a < n_abis; a++) {
		if (a)
			sb_putc(sb, ',');
		put_str(sb, ioctlreg_command_alias_of(r, i, a));
	}
	sb_lit(sb, "],[");
	for (size_t v = 0; v < (n_versions ? n_versions : 1); v++) {
		if (v)
			sb_putc(sb, ',');
		put_numbers(sb, r, i, n_versions ? (int)v : IOCTLREG_ANY_VERSION);
	}
	sb_printf(sb, "],%u,%d,%d]", c.nr_count, !!(c.flags & IOCTLREG_RESERVED),
		  !!(c.flags & IOCTLREG_PER_VERSION));
}

/* number-words of command i: each distinct number per ABI, once */
static void put_number_words(struct strbuf *sb, const struct ioctlreg *r, size_t i, bool *first)
{
	struct ioctlreg_command c;
	struct strbuf words = { 0 };

	ioctlreg_command(r, i, &c);
	if (!(c.flags & IOCTLREG_PER_VERSION))
		return;
	for (size_t a = 0; a < ioctlreg_abi_count(r); a++) {
		struct ioctlreg_number n[64];
		bool present[64];

		for (size_t v = c.first_version; v < c.end_version; v++)
			present[v] = ioctlreg_command_number(r, i, a, (int)v, &n[v]);
		for (size_t v = c.first_version; v < c.end_version; v++) {
			uint64_t hit = 0;
			bool seen = false;

			for (size_t w = c.first_version; w < v && !seen; w++)
				seen = present[w] && present[v] && n[w].number == n[v].number;
			if (!present[v] || seen)
				continue;
			for (size_t w = v; w < c.end_version; w++)
				if (present[w] && n[w].number == n[v].number)
					hit |= (uint64_t)1 << w;
			words.len = 0;
			if (!describe_number_versions(r, i, a, hit, &words))
				continue;
			sb_printf(sb, "%s[%zu,%zu,%u,", *first ? "\n" : ",\n", i, a, n[v].number);
			put_str(sb, words.buf);
			sb_putc(sb, ']');
			*first = false;
		}
	}
	sb_release(&words);
}

void table_dump(const struct ioctlreg *r, struct strbuf *sb)
{
	bool first = true;

	size_t n;

	sb_printf(sb, "{\"model-version\":%u,\"versions\":[", ioctlreg_model_version(r));
	for (size_t v = 0; v < ioctlreg_version_count(r); v++) {
		if (v)
			sb_putc(sb, ',');
		put_str(sb, ioctlreg_version_name(r, v));
	}
	sb_lit(sb, "],\n\"abis\":[");
	for (size_t a = 0; a < ioctlreg_abi_count(r); a++) {
		int layout = ioctlreg_abi_layout(r, a), base = ioctlreg_abi_variant_of(r, a);

		if (a)
			sb_putc(sb, ',');
		sb_putc(sb, '[');
		put_str(sb, ioctlreg_abi_name(r, a));
		sb_putc(sb, ',');
		put_str(sb, layout < 0 ? NULL : ioctlreg_layout_name(r, (size_t)layout));
		sb_putc(sb, ',');
		put_str(sb, ioctlreg_abi_arch(r, a));
		sb_putc(sb, ',');
		if (base < 0)
			sb_lit(sb, "null");
		else
			put_u(sb, (unsigned)base);
		sb_putc(sb, ']');
	}
	sb_lit(sb, "],\n\"headers\":[");
	for (size_t h = 0; h < ioctlreg_header_count(r); h++) {
		if (h)
			sb_putc(sb, ',');
		sb_putc(sb, '[');
		put_str(sb, ioctlreg_header_path(r, h));
		sb_putc(sb, ',');
		put_str(sb, ioctlreg_header_arch(r, h));
		sb_putc(sb, ']');
	}
	sb_lit(sb, "],\n\"commands\":[");
	for (size_t i = 0; i < ioctlreg_command_count(r); i++) {
		if (i)
			sb_putc(sb, ',');
		sb_putc(sb, '\n');
		put_command(sb, r, i);
	}
	sb_lit(sb, "],\n\"shared\":[");
	n = ioctlreg_shared_count(r);
	for (size_t i = 0; i < n; i++) {
		struct ioctlreg_shared s;

		ioctlreg_shared(r, i, &s);
		sb_printf(sb, "%s[%zu,%u,%llu,[", i ? ",\n" : "\n", s.abi, s.number,
			  (unsigned long long)s.versions);
		for (size_t k = 0; k < s.n_names; k++) {
			if (k)
				sb_putc(sb, ',');
			put_str(sb, ioctlreg_shared_name(r, i, k));
		}
		sb_lit(sb, "]]");
	}
	sb_lit(sb, "],\n\"number-words\":[");
	for (size_t i = 0; i < ioctlreg_command_count(r); i++)
		put_number_words(sb, r, i, &first);
	sb_lit(sb, "]}\n");
}
