// SPDX-License-Identifier: GPL-2.0
/*
 * Load: the fast path of ytree_parse() for the plainest YAML, which is most
 * of the spec (the sizes files are two thirds of its bytes, and were of
 * libyaml's time).  It reads block mappings and sequences whose scalars
 * are one-line plain or quoted ones without escapes, one-line flow
 * sequences of those, and ">-" and "|-" block scalars of even lines, every
 * byte printable ASCII, and gives the tree libyaml would give, marks
 * included.  At anything else it gives up, and libyaml reads the file:
 * every error, every doubt and every other construct stays libyaml's.
 * tests/unit/test-yamlfast holds the two paths equal over spec/ and the
 * fuzz corpora.
 */
#include <stdlib.h>
#include <string.h>

#include "yamltree.h"

/* A line that holds a node: not blank, not a comment. */
struct line {
	const char *text;	/* its first byte after the indent */
	const char *end;	/* its newline */
	unsigned int no, indent;
	/* the blank and comment lines right before it: any blank; the
	 * column after the deepest comment's indent (0: no comment) */
	bool gap_blank;
	unsigned int gap_col;
};

struct fast {
	struct arena *a, *texts;
	const char *file;
	struct line *lines;
	size_t n, at;		/* the lines, the next one to read */
	struct line tail;	/* the gap after the last line */
	struct ynode **stack;	/* children of the open collections */
	size_t depth_n, cap;
	bool fail;
};

/* libyaml's longest simple key is 1024 characters: stay well below */
#define FAST_MAX_KEY 1000

/* Split the text into lines; false for a byte or a line the fast path
 * does not take (control, non-ASCII, a missing last newline, a directive
 * or document marker, trailing blanks). */
static bool split(struct fast *f, const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	size_t cap = 0;
	unsigned int no = 0;
	struct line gap = { 0 };

	if (!len || data[len - 1] != '\n')
		return false;
	while (p < end) {
		const char *s = p, *e = p;
		unsigned int indent = 0;

		no++;
		/* one pass to the newline (the text ends with one) */
		for (; *e != '\n'; e++)
			if ((unsigned char)(*e - 0x20) > 0x7e - 0x20)
				return false;
		p = e + 1;
		while (s + indent < e && s[indent] == ' ')
			indent++;
		if (s + indent == e) {
			gap.gap_blank = true;
			continue;
		}
		if (s[indent] == '#') {
			if (indent + 1 > gap.gap_col)
				gap.gap_col = indent + 1;
			continue;
		}
		if (e[-1] == ' ')
			return false;
		if (indent == 0 && e - s >= 3 &&
		    (!strncmp(s, "---", 3) || !strncmp(s, "...", 3)))
			return false;
		if (f->n == cap) {
			cap = cap ? 2 * cap : 256;
			f->lines = xrealloc(f->lines, cap * sizeof(*f->lines));
		}
		f->lines[f->n++] = (struct line){ s + indent, e, no, indent, gap.gap_blank, gap.gap_col };
		gap = (struct line){ 0 };
	}
	f->tail = gap;
	return f->n > 0;
}

/* The ':' that ends a key: the first one followed by a blank or the end
 * of the line (in block context libyaml reads "a:b" as one scalar). */
static const char *key_colon(const char *s, const char *e)
{
	for (const char *q = s; (q = memchr(q, ':', (size_t)(e - q))); q++)
		if (q + 1 == e || q[1] == ' ')
			return q;
	return NULL;
}

/*
 * A plain scalar that reads the same in every context libyaml could put it
 * in: no blank or indicator first ('-' only before a character), no blank
 * last, no comment (a '#' after a blank; "dev#" is text), no ':' a blank or
 * the end follows.  One pass: this is every key and value of the sizes.
 */
static bool plain_ok(const char *s, const char *e)
{
	if (s == e || strchr(" ?:,[]{}#&*!|>'\"%@`", *s) || e[-1] == ' ' ||
	    (*s == '-' && (e - s == 1 || s[1] == ' ')) || (size_t)(e - s) > YAML_MAX_SCALAR)
		return false;
	for (const char *q = s + 1; q < e; q++)
		if ((*q == '#' && q[-1] == ' ') || (*q == ':' && (q + 1 == e || q[1] == ' ')))
			return false;
	return true;
}

/* A quoted scalar that is the rest of its line and needs no unescaping:
 * no backslash, no quote of its kind inside. */
static bool quoted_ok(const char *s, const char *e)
{
	if (e - s < 2 || e[-1] != *s || (size_t)(e - s) > YAML_MAX_SCALAR)
		return false;
	for (const char *q = s + 1; q < e - 1; q++)
		if (*q == *s || *q == '\\')
			return false;
	return true;
}

/* The scalar from s to e on line l, quoted or (plain_only) not. */
static struct ynode *scalar(struct fast *f, const struct line *l, const char *s, const char *e,
			    bool plain_only)
{
	bool quoted = !plain_only && s < e && (*s == '"' || *s == '\'');
	struct ynode *n;

	if (quoted ? !quoted_ok(s, e) : !plain_ok(s, e)) {
		f->fail = true;
		return NULL;
	}
	n = arena_alloc(f->a, sizeof(*n));
	n->kind = Y_SCALAR;
	n->mark = (struct mark){ f->file, l->no, (unsigned int)(s - l->text) + l->indent + 1 };
	n->plain = !quoted;
	if (quoted) {
		s++;
		e--;
	}
	n->str = arena_strndup(f->texts, s, (size_t)(e - s));
	n->len = (size_t)(e - s);
	return n;
}

static void push(struct fast *f, struct ynode *n)
{
	if (f->depth_n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 256;
		f->stack = xrealloc(f->stack, f->cap * sizeof(*f->stack));
	}
	f->stack[f->depth_n++] = n;
}

/* The collection whose children are the stack's top ones from base. */
static struct ynode *collection(struct fast *f, enum ykind kind, struct mark m, size_t base)
{
	struct ynode *n = arena_alloc(f->a, sizeof(*n));
	size_t k = f->depth_n - base;

	n->kind = kind;
	n->mark = m;
	n->n = k;
	n->kids = arena_alloc(f->a, k * sizeof(*n->kids) + 1);
	if (k)	/* an empty "[]" may come before the stack exists */
		memcpy(n->kids, f->stack + base, k * sizeof(*n->kids));
	f->depth_n = base;
	return n;
}

static struct ynode *block(struct fast *f, unsigned int depth);

/* A flow sequence that is the rest of its line, "[a, b]" or "[]": plain
 * items without the flow indicators, ':' or '#', or quoted ones, one ", "
 * between them. */
static struct ynode *flow_sequence(struct fast *f, const struct line *l, const char *v)
{
	size_t base = f->depth_n;
	const char *p = v + 1;

	if (l->end[-1] != ']')
		goto fail;
	while (p < l->end - 1) {
		const char *e = p;
		struct ynode *item;

		if (*p == '"' || *p == '\'') {
			if (!(e = memchr(p + 1, *p, (size_t)(l->end - 1 - (p + 1)))))
				goto fail;
			e++;
		} else {
			while (e < l->end - 1 && !strchr(",[]{}:#", *e))
				e++;
		}
		if (e < l->end - 1 && (e[0] != ',' || e[1] != ' '))
			goto fail;
		if (!(item = scalar(f, l, p, e, false)))
			goto fail;
		push(f, item);
		p = e + (e < l->end - 1 ? 2 : 0);
	}
	return collection(f, Y_SEQ, (struct mark){ f->file, l->no,
			  (unsigned int)(v - l->text) + l->indent + 1 }, base);
fail:
	f->fail = true;
	return NULL;
}

/* A block scalar, ">-" (folded) or "|-" (literal), both stripped, whose
 * lines all stand at one indent deeper than its key's, with no blank or
 * comment line among them, and after them none but comments less indented
 * (which end it). */
static struct ynode *block_scalar(struct fast *f, const struct line *l, const char *v,
				  unsigned int indent)
{
	size_t from = f->at, to = f->at, len = 0;
	unsigned int no = l->no, bi;
	const struct line *gap;
	struct ynode *n;
	char *t;

	if (from == f->n || f->lines[from].no != no + 1 || f->lines[from].indent <= indent)
		goto fail;
	bi = f->lines[from].indent;
	for (; to < f->n && f->lines[to].indent >= bi; to++, no++) {
		if (f->lines[to].indent != bi || f->lines[to].no != no + 1)
			goto fail;
		len += (size_t)(f->lines[to].end - f->lines[to].text) + 1;
	}
	gap = to < f->n ? &f->lines[to] : &f->tail;
	if (gap->gap_blank || gap->gap_col > bi)
		goto fail;	/* maybe text of the scalar */
	if (--len > YAML_MAX_SCALAR)
		goto fail;
	n = arena_alloc(f->a, sizeof(*n));
	n->kind = Y_SCALAR;
	n->mark = (struct mark){ f->file, l->no, (unsigned int)(v - l->text) + l->indent + 1 };
	n->str = t = arena_alloc(f->texts, len + 1);
	n->len = len;
	for (size_t k = from; k < to; k++) {
		size_t w = (size_t)(f->lines[k].end - f->lines[k].text);

		memcpy(t, f->lines[k].text, w);
		t += w;
		if (k + 1 < to)
			*t++ = *v == '>' ? ' ' : '\n';
	}
	f->at = to;
	return n;
fail:
	f->fail = true;
	return NULL;
}

/* The value of a key whose line ends at its ':': a deeper block, or a
 * sequence at the key's own indent; anything else (an empty value) is
 * libyaml's. */
static struct ynode *nested(struct fast *f, unsigned int indent, unsigned int depth)
{
	const struct line *l = f->at < f->n ? &f->lines[f->at] : NULL;

	if (l && (l->indent > indent ||
		  (l->indent == indent && l->text[0] == '-' && l->text[1] == ' ')))
		return block(f, depth + 1);
	f->fail = true;
	return NULL;
}

/* A block mapping from the current line, whose keys all stand at its
 * indent (the first may follow a sequence's "- "). */
static struct ynode *mapping(struct fast *f, unsigned int depth)
{
	unsigned int indent = f->lines[f->at].indent;
	size_t base = f->depth_n;
	struct mark m = { f->file, f->lines[f->at].no, indent + 1 };

	while (!f->fail && f->at < f->n && f->lines[f->at].indent == indent) {
		const struct line *l = &f->lines[f->at];
		bool quoted = *l->text == '"' || *l->text == '\'';
		const char *colon = quoted ? memchr(l->text + 1, *l->text,
						    (size_t)(l->end - l->text - 1)) : key_colon(l->text, l->end);
		struct ynode *key, *value;

		if (colon && quoted)	/* a quoted key: its closing quote, then ':' */
			colon = colon[1] == ':' && (colon + 2 == l->end || colon[2] == ' ') ? colon + 1 : NULL;
		if (!colon || colon - l->text > FAST_MAX_KEY) {
			f->fail = true;	/* not a key where one must stand */
			break;
		}
		if (!(key = scalar(f, l, l->text, colon, !quoted)))
			break;
		f->at++;
		if (colon + 1 == l->end) {
			value = nested(f, indent, depth);
		} else {
			const char *v = colon + 1;

			while (*v == ' ')
				v++;
			if (l->end - v == 2 && (*v == '>' || *v == '|') && v[1] == '-')
				value = block_scalar(f, l, v, indent);
			else if (*v == '[')
				value = flow_sequence(f, l, v);
			else
				value = scalar(f, l, v, l->end, false);
		}
		if (!value)
			break;
		push(f, key);
		push(f, value);
	}
	if (f->at < f->n && f->lines[f->at].indent > indent)
		f->fail = true;	/* a line deeper than its block */
	return f->fail ? NULL : collection(f, Y_MAP, m, base);
}

/* A block sequence: "- " items at the current line's indent. */
static struct ynode *sequence(struct fast *f, unsigned int depth)
{
	unsigned int indent = f->lines[f->at].indent;
	size_t base = f->depth_n;
	struct mark m = { f->file, f->lines[f->at].no, indent + 1 };

	while (!f->fail && f->at < f->n && f->lines[f->at].indent == indent) {
		struct line *l = &f->lines[f->at];
		struct ynode *item;

		if (l->text[0] != '-')
			break;	/* the next key of a mapping at this indent */
		if (l->text[1] != ' ' || l->text[2] == ' ' || l->text[2] == '-') {
			f->fail = true;
			break;
		}
		/* the item starts after "- ": a mapping on this line, or a scalar */
		l->text += 2;
		l->indent += 2;
		if (key_colon(l->text, l->end)) {
			item = block(f, depth + 1);
		} else {
			item = scalar(f, l, l->text, l->end, false);
			f->at++;
		}
		if (!item)
			break;
		push(f, item);
	}
	if (f->at < f->n && f->lines[f->at].indent > indent)
		f->fail = true;
	return f->fail ? NULL : collection(f, Y_SEQ, m, base);
}

static struct ynode *block(struct fast *f, unsigned int depth)
{
	const struct line *l = &f->lines[f->at];

	if (depth + 2 > YAML_MAX_DEPTH) {	/* a flow sequence's items two deeper */
		f->fail = true;
		return NULL;
	}
	return l->text[0] == '-' ? sequence(f, depth) : mapping(f, depth);
}

struct ynode *yfast_parse(struct arena *a, struct arena *texts, const char *file,
			  const char *data, size_t len)
{
	struct fast f = { .a = a, .texts = texts, .file = file };
	struct ynode *root = NULL;

	if (split(&f, data, len)) {
		root = block(&f, 0);
		if (f.fail || f.at != f.n)
			root = NULL;
	}
	free(f.lines);
	free(f.stack);
	return root;
}
