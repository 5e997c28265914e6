// SPDX-License-Identifier: GPL-2.0
/* The model's JSON writer (json.h): the pieces that need no inlining. */
#include <errno.h>
#include <string.h>

#include "json.h"

/* Hand what the buffer holds to put(), and empty it. */
void json_put(struct json *j)
{
	if (!j->failed && j->put(j->ctx, j->sb->buf, j->sb->len)) {
		j->failed = -1;
		j->saved_errno = errno;
	}
	j->sb->len = 0;
	j->sb->buf[0] = '\0';
}

/* The bytes a JSON string holds as they are: all but '"', '\\' and the
 * control characters (NUL among them, which ends the run). */
static const bool json_plain[256] = {
	[' ' ... '"' - 1] = true, ['"' + 1 ... '\\' - 1] = true, ['\\' + 1 ... 0xff] = true,
};

/* The characters of s as a JSON string holds them, without the quotes. */
void jescape(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		/* the run of characters that need no escape, at once */
		size_t run = 0;

		while (json_plain[p[run]])
			run++;
		sb_add(sb, (const char *)p, run);
		p += run;
		switch (*p) {
		case '\0':
			return;
		case '"':
			sb_lit(sb, "\\\"");
			break;
		case '\\':
			sb_lit(sb, "\\\\");
			break;
		case '\n':
			sb_lit(sb, "\\n");
			break;
		case '\t':
			sb_lit(sb, "\\t");
			break;
		case '\r':
			sb_lit(sb, "\\r");
			break;
		default:	/* the other control characters, rare */
			sb_printf(sb, "\\u%04x", *p);
		}
		p++;
	}
}

void jstr(struct json *j, const char *s)
{
	if (!s) {
		sb_lit(j->sb, "null");
		return;
	}
	sb_putc(j->sb, '"');
	jescape(j->sb, s);
	sb_putc(j->sb, '"');
}

void kstr(struct json *j, const char *key, const char *v)
{
	member(j, key);
	jstr(j, v);
}

void kbool(struct json *j, const char *key, bool v)
{
	member(j, key);
	sb_puts(j->sb, v ? "true" : "false");
}

/* Short arrays stay on one line: they are read far more often than written. */
void kstrlist(struct json *j, const char *key, const char *const *v, size_t n)
{
	member(j, key);
	sb_putc(j->sb, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			sb_lit(j->sb, ", ");
		jstr(j, v[i]);
	}
	sb_putc(j->sb, ']');
}

/* A list that may be absent: null then. */
void kstrlist_or_null(struct json *j, const char *key, const char *const *v, size_t n)
{
	if (v)
		kstrlist(j, key, v, n);
	else
		kstr(j, key, NULL);
}

/* A number that may be absent (a variant that names another command
 * instead of an nr, an array member's len): null then. */
void kuint_or_null(struct json *j, const char *key, bool present, unsigned long long v)
{
	if (present)
		kuint(j, key, v);
	else
		kstr(j, key, NULL);
}

/* A size measured on an ABI, or null before sizes exist (ioctlgen dump). */
void ksize(struct json *j, const char *key, const struct abi *a, const char *type)
{
	uint32_t size;

	if (abi_sizeof(a, type, &size))
		kuint(j, key, size);
	else
		kstr(j, key, NULL);
}

void ksource(struct json *j, struct mark m)
{
	member(j, "source");
	sb_putc(j->sb, '"');
	jescape(j->sb, m.file);
	sb_putc(j->sb, ':');
	put_uint(j->sb, m.line);
	sb_putc(j->sb, ':');
	put_uint(j->sb, m.col);
	sb_putc(j->sb, '"');
}

void accept_list(struct json *j, unsigned int mask)
{
	const char *v[ACCEPT_RULES];
	size_t n = 0;

	for (unsigned int i = 0; i < ACCEPT_RULES; i++)
		if (mask & (1u << i))
			v[n++] = accept_rule_names[i];
	kstrlist(j, "accept", v, n);
}

/* since, removed as written (null when absent), and the known versions
 * the entry exists in. */
void write_lifetime(struct json *j, const struct registry *reg, const struct lifetime *l)
{
	kstr(j, "since", l->since);
	kstr(j, "removed", l->removed);
	member(j, "versions");
	sb_putc(j->sb, '[');
	for (size_t v = l->first; v < l->end; v++) {
		if (v > l->first)
			sb_lit(j->sb, ", ");
		jstr(j, reg->versions[v].name);
	}
	sb_putc(j->sb, ']');
}
