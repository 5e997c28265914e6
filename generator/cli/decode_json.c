// SPDX-License-Identifier: GPL-2.0
/*
 * decode --json: one JSON object per number, on one line (JSON Lines), in
 * the order given: its fields on each layout, and per ABI the commands
 * that carry it (each with its name, how the caller wrote it, its header,
 * the versions it carries the number in, its alias-of root) and the text
 * decode prints.
 */
#include <stdio.h>

#include "decode.h"
#include "describe.h"
#include "json.h"

static void key(struct strbuf *sb, const char *k)
{
	sb_putc(sb, '"');
	jescape(sb, k);
	sb_lit(sb, "\":");
}

static void string(struct strbuf *sb, const char *s)
{
	sb_putc(sb, '"');
	jescape(sb, s);
	sb_putc(sb, '"');
}

static void fields(const struct ioctlreg *r, int abi, uint32_t number, struct strbuf *sb)
{
	static const char *const dirs[4] = { "none", "read", "write", "read-write" };
	bool first = true;

	sb_lit(sb, ",\"fields\":{");
	for (size_t i = 0; i < ioctlreg_layout_count(r); i++) {
		struct ioctlreg_fields f;

		if (abi >= 0 && ioctlreg_abi_layout(r, (size_t)abi) != (int)i)
			continue;
		ioctlreg_split(r, i, number, &f);
		if (!first)
			sb_putc(sb, ',');
		first = false;
		key(sb, ioctlreg_layout_name(r, i));
		sb_printf(sb, "{\"dir\":");
		if (f.dir_name >= 0)
			string(sb, dirs[f.dir_name]);
		else
			sb_printf(sb, "%u", f.dir);
		sb_printf(sb, ",\"type\":%u,\"nr\":%u,\"size\":%u}", f.type, f.nr, f.size);
	}
	sb_putc(sb, '}');
}

static void hit(const struct ioctlreg *r, size_t k, const struct ioctlreg_hit *h, struct strbuf *sb)
{
	struct ioctlreg_command c;
	struct strbuf call = { 0 };
	bool first = true;

	ioctlreg_command(r, h->command, &c);
	describe_hit(r, h, k, &call);
	sb_lit(sb, "{\"name\":");
	string(sb, c.name);
	sb_lit(sb, ",\"header\":");
	string(sb, c.header);
	sb_lit(sb, ",\"alias-of-root\":");
	string(sb, ioctlreg_command_alias_root(r, h->command, k));
	sb_lit(sb, ",\"text\":");
	string(sb, call.buf);
	sb_lit(sb, ",\"versions\":[");
	for (size_t v = 0; v < ioctlreg_version_count(r); v++) {
		if (!(h->versions >> v & 1))
			continue;
		if (!first)
			sb_putc(sb, ',');
		first = false;
		string(sb, ioctlreg_version_name(r, v));
	}
	sb_lit(sb, "]}");
	sb_release(&call);
}

void decode_json(const struct ioctlreg *r, int abi, const char *text, uint32_t number,
		 struct strbuf *sb)
{
	struct ioctlreg_hit hits[DESCRIBE_MAX_HITS];
	struct strbuf words = { 0 };
	bool first = true;

	sb->len = 0;
	sb_lit(sb, "{\"input\":");
	string(sb, text);
	sb_printf(sb, ",\"number\":%u,\"hex\":\"0x%08x\"", number, number);
	fields(r, abi, number, sb);
	sb_lit(sb, ",\"abis\":{");
	for (size_t k = 0; k < ioctlreg_abi_count(r); k++) {
		size_t n;

		if (abi >= 0 && (size_t)abi != k)
			continue;
		n = ioctlreg_lookup(r, k, IOCTLREG_ANY_VERSION, number, hits, DESCRIBE_MAX_HITS);
		if (!first)
			sb_putc(sb, ',');
		first = false;
		key(sb, ioctlreg_abi_name(r, k));
		words.len = 0;
		describe_number(r, k, number, &words);
		sb_lit(sb, "{\"text\":");
		string(sb, words.buf);
		sb_printf(sb, ",\"count\":%zu,\"commands\":[", n);
		for (size_t i = 0; i < n && i < DESCRIBE_MAX_HITS; i++) {
			if (i)
				sb_putc(sb, ',');
			hit(r, k, &hits[i], sb);
		}
		sb_lit(sb, "]}");
	}
	sb_lit(sb, "}}\n");
	fwrite(sb->buf, 1, sb->len, stdout);
	sb_release(&words);
}

void decode_json_error(const char *text, struct strbuf *sb)
{
	sb->len = 0;
	sb_lit(sb, "{\"input\":");
	string(sb, text);
	sb_lit(sb, ",\"error\":\"not a 32-bit number\"}\n");
	fwrite(sb->buf, 1, sb->len, stdout);
}
