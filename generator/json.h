/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model's JSON writer: members and arrays with the model's indent,
 * strings escaped, numbers without printf(), written in pieces when the
 * caller gives a put() (model_write_pieces()).  The registry's own pieces
 * (a size, a source mark, a lifetime) are here too, for model*.c.
 */
#ifndef IOCTLGEN_JSON_H
#define IOCTLGEN_JSON_H

#include <string.h>

#include "model.h"

struct json {
	struct strbuf *sb;
	int depth;
	bool first;	/* no comma before the next member */
	/* model_write_pieces(): where the pieces go, and the first failure */
	int (*put)(void *ctx, const char *data, size_t len);
	void *ctx;
	int failed, saved_errno;
};

/* Hand what the buffer holds to put(), and empty it. */
void json_put(struct json *j);
/* The characters of s as a JSON string holds them, without the quotes. */
void jescape(struct strbuf *sb, const char *s);
void jstr(struct json *j, const char *s);
void kstr(struct json *j, const char *key, const char *v);
void kbool(struct json *j, const char *key, bool v);
void kstrlist(struct json *j, const char *key, const char *const *v, size_t n);
void kstrlist_or_null(struct json *j, const char *key, const char *const *v, size_t n);
void kuint_or_null(struct json *j, const char *key, bool present, unsigned long long v);
void ksize(struct json *j, const char *key, const struct abi *a, const char *type);
void ksource(struct json *j, struct mark m);
void accept_list(struct json *j, unsigned int mask);
void write_lifetime(struct json *j, const struct registry *reg, const struct lifetime *l);
/* model_headers.c: "headers", each with its commands */
void model_write_headers(struct json *j, const struct registry *reg);
/* model_views.c: what the model decides for its readers */
void model_write_cwords(struct json *j);
void model_write_layout_figures(struct json *j, const struct layout *l);
void model_write_lifetime_text(struct json *j, const struct registry *reg,
			       const struct lifetime *l);
void model_write_argument(struct json *j, const struct command *c);
void model_write_header_versions(struct json *j, const struct registry *reg,
				 const struct header *hd);
/* Each row's index in each known version's table (rows × versions, free() it). */
size_t *model_row_view_index(const struct registry *reg);
void model_write_row_versions(struct json *j, const struct registry *reg, size_t i,
			      const size_t *at);
void model_write_unregistered_codes(struct json *j, const struct registry *reg);

/* printf() for every number was a tenth of the time of `ioctlgen model`. */
static inline void put_uint(struct strbuf *sb, unsigned long long v)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	sb_add(sb, p, (size_t)(buf + sizeof(buf) - p));
}

/*
 * The helpers that write a member are inline: the key is a literal at most
 * calls, so its length and copy are known when compiled, and the 66,000
 * numbers of the model take no call per piece.
 */

/* A newline and the indent, after a comma unless comma is false, then
 * "key": unless key is NULL: the model's most frequent piece, written in
 * place after one check for room. */
static inline void indent(struct json *j, bool comma, const char *key)
{
	size_t n = 2 * (size_t)j->depth, klen = key ? strlen(key) : 0;
	char *start = sb_room(j->sb, 2 + n + klen + 4), *p = start;

	if (comma)
		*p++ = ',';
	*p++ = '\n';
	memset(p, ' ', n);
	p += n;
	if (key) {	/* our own words: nothing to escape */
		*p++ = '"';
		memcpy(p, key, klen);
		p += klen;
		memcpy(p, "\": ", 3);
		p += 3;
	}
	sb_wrote(j->sb, (size_t)(p - start));
}

/* Start a member (with key) or an array element (key NULL). */
static inline void member(struct json *j, const char *key)
{
	indent(j, !j->first, key);
	j->first = false;
}

static inline void open_(struct json *j, const char *key, char c)
{
	member(j, key);
	sb_putc(j->sb, c);
	j->depth++;
	j->first = true;
}

static inline void close_(struct json *j, char c)
{
	bool empty = j->first;

	j->depth--;
	if (!empty)
		indent(j, false, NULL);
	sb_putc(j->sb, c);
	j->first = false;
	if (j->put && j->sb->len >= MODEL_PIECE)
		json_put(j);
}

static inline void kuint(struct json *j, const char *key, unsigned long long v)
{
	member(j, key);
	put_uint(j->sb, v);
}

static inline void khex(struct json *j, const char *key, uint32_t v)
{
	static const char hex[] = "0123456789abcdef";
	char buf[12] = { '"', '0', 'x' };

	for (int i = 0; i < 8; i++)
		buf[3 + i] = hex[v >> (28 - 4 * i) & 15];
	buf[11] = '"';
	member(j, key);
	sb_add(j->sb, buf, sizeof(buf));
}

#endif
