// SPDX-License-Identifier: GPL-2.0
/*
 * The grammars of C type names and size expressions (G_C_TYPE, G_C_SIZE;
 * see grammar.h): a recursive-descent parser that never recurses deeper
 * than MAX_NEST, knows the value of what the text alone gives (literals and
 * the operators between them), and names the constants the text uses
 * (grammar_constants()).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "grammar.h"
#include "grammar_int.h"

#define MAX_NEST 16

struct cparse {
	const char *s, *p;	/* the text, the next byte */
	const char *err;	/* the first problem, at err_at */
	const char *err_at;
	char *buf;
	size_t size;
	int nest;
	/* each name that stands for a constant, if set (grammar_constants()) */
	void (*name)(void *ctx, const char *name, size_t len, size_t at);
	void *ctx;
};

static bool fail(struct cparse *c, const char *at, const char *msg)
{
	if (!c->err) {
		c->err = msg;
		c->err_at = at;
	}
	return false;
}

/* What the unexpected byte at p is, in words. */
static bool unexpected(struct cparse *c, const char *p)
{
	if (*p == '/' && p > c->s && p[-1] == '*')
		return fail(c, p - 1, "'*/' cannot be part of a C type name");
	if (!*p)
		return fail(c, p, "it ends too early");
	if (*p == '\n' || (unsigned char)*p < 0x20 || *p == 0x7f)
		return fail(c, p, "a line break or control character cannot be part of a C type");
	if (*p == '#' || *p == '"' || *p == '\'' || *p == '{' || *p == '}' || *p == ';' ||
	    *p == '\\' || (*p == '/' && (p[1] == '*' || p[1] == '/'))) {
		snprintf(c->buf, c->size, "'%.*s' cannot be part of a C type name", *p == '/' ? 2 : 1, p);
		return fail(c, p, c->buf);
	}
	if ((unsigned char)*p >= 0x80)
		return fail(c, p, "only ASCII can be part of a C type name");
	snprintf(c->buf, c->size, "'%c' is unexpected here", *p);
	return fail(c, p, c->buf);
}

/* One space may separate tokens; none at either end, never two. */
static void space(struct cparse *c)
{
	if (*c->p == ' ' && c->p > c->s && c->p[1] != ' ' && c->p[1])
		c->p++;
}

static bool take(struct cparse *c, char ch)
{
	if (*c->p != ch)
		return false;
	c->p++;
	space(c);
	return true;
}

static bool word_is(const char *p, size_t n, const char *w)
{
	return p[0] == w[0] && !strncmp(p, w, n) && w[n] == '\0';
}

/* A constant's value where the text alone gives it: literals and the
 * operators between them; not for sizeof() and names, whose values are
 * the compiler's. */
struct cval {
	bool known;
	uint64_t v;
};

/* A size or an array bound: what C computes in int or size_t on every ABI,
 * so no value of a constant part may leave 32 bits. */
#define CVAL_MAX UINT32_MAX

static bool c_expr(struct cparse *c, struct cval *out);
static bool c_type_name(struct cparse *c);

/* Names the compiler reserves (__LINE__, __COUNTER__, _Pragma...): their
 * value depends on where they stand, or they are no constant at all. */
static bool reserved_name(const char *p, size_t n)
{
	return n >= 2 && p[0] == '_' && (p[1] == '_' || (p[1] >= 'A' && p[1] <= 'Z'));
}

/* An integer constant: 16, 0x40, 0777, 4096UL. */
static bool c_number(struct cparse *c, struct cval *out)
{
	const char *p = c->p;
	size_t suffix = 0;
	unsigned int base = 10;
	uint64_t v = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		base = 16;
		if (!strchr("0123456789abcdefABCDEF", *p) || !*p)
			return unexpected(c, p);
	} else if (*p == '0') {
		base = 8;
	}
	for (; *p && strchr(base == 16 ? "0123456789abcdefABCDEF" : "0123456789", *p); p++) {
		unsigned int d = *p <= '9' ? (unsigned int)(*p - '0') : (unsigned int)((*p | 0x20) - 'a' + 10);

		if (base == 8 && d > 7)
			return fail(c, p, "an octal number has no digit 8 or 9");
		if (v > (CVAL_MAX - d) / base)
			return fail(c, c->p, "a number past 32 bits: C would truncate or overflow it");
		v = v * base + d;
	}
	while (*p && strchr("uUlL", *p) && suffix < 3) {
		p++;
		suffix++;
	}
	if (ident_char(*p))
		return unexpected(c, p);
	c->p = p;
	space(c);
	*out = (struct cval){ true, v };
	return true;
}

static bool c_primary(struct cparse *c, struct cval *out)
{
	size_t n = ident_len(c->p);

	*out = (struct cval){ false, 0 };
	if (++c->nest > MAX_NEST)
		return fail(c, c->p, "nested too deeply");
	if (n && word_is(c->p, n, "sizeof")) {
		c->p += n;
		space(c);
		if (!take(c, '('))
			return unexpected(c, c->p);
		if (!c_type_name(c) || !take(c, ')'))
			return c->err ? false : unexpected(c, c->p);
	} else if (n) {
		if (is_keyword(c->p, n)) {
			snprintf(c->buf, c->size, "'%.*s' is a C keyword, not a constant", (int)n, c->p);
			return fail(c, c->p, c->buf);
		}
		if (reserved_name(c->p, n)) {
			snprintf(c->buf, c->size,
				 "'%.*s' is a name the compiler reserves, not a constant: its value is not fixed",
				 (int)n, c->p);
			return fail(c, c->p, c->buf);
		}
		if (c->name)
			c->name(c->ctx, c->p, n, (size_t)(c->p - c->s));
		c->p += n;
		space(c);
	} else if (*c->p >= '0' && *c->p <= '9') {
		if (!c_number(c, out))
			return false;
	} else if (take(c, '(')) {
		if (!c_expr(c, out) || !take(c, ')'))
			return c->err ? false : unexpected(c, c->p);
	} else {
		return unexpected(c, c->p);
	}
	c->nest--;
	return true;
}

/* A binary operator at p: its length, or 0. */
static size_t binop_len(const char *p)
{
	if ((p[0] == '<' && p[1] == '<') || (p[0] == '>' && p[1] == '>'))
		return 2;
	if (*p && strchr("+-*/%&|^", *p) && !(p[0] == '/' && (p[1] == '*' || p[1] == '/')))
		return 1;
	return 0;
}

/* C's precedence of the binary operator at p, higher binds tighter. */
static int binop_prec(const char *p)
{
	switch (*p) {
	case '*': case '/': case '%': return 5;
	case '+': case '-': return 4;
	case '<': case '>': return 3;
	case '&': return 2;
	case '^': return 1;
	default: return 0;	/* | */
	}
}

/* a op b where both are known; the problem at the operator otherwise */
static bool c_apply(struct cparse *c, const char *op, struct cval *a, const struct cval *b)
{
	uint64_t x = a->v, y = b->v, r;

	if ((*op == '/' || *op == '%') && b->known && y == 0)
		return fail(c, op, "division by zero");
	if ((*op == '<' || *op == '>') && b->known && y >= 32)
		return fail(c, op, "a shift by 32 or more: C leaves it undefined");
	if (!a->known || !b->known) {
		a->known = false;
		return true;
	}
	switch (*op) {
	case '*': r = x * y; break;	/* both at most 32 bits: no wrap in 64 */
	case '/': r = x / y; break;
	case '%': r = x % y; break;
	case '+': r = x + y; break;
	case '-':
		if (x < y)
			return fail(c, op, "a negative value: as a size or an array bound it is meaningless");
		r = x - y;
		break;
	case '<': r = x << y; break;	/* y < 32, checked above */
	case '>': r = x >> y; break;
	case '&': r = x & y; break;
	case '^': r = x ^ y; break;
	default: r = x | y; break;
	}
	if (r > CVAL_MAX)
		return fail(c, op, "the value passes 32 bits: C would overflow or wrap it");
	a->v = r;
	return true;
}

/* Unary operators, then a primary: -, ~ of a known value is negative. */
static bool c_unary(struct cparse *c, struct cval *out)
{
	const char *ops = c->p;
	bool negates = false;

	while (*c->p && strchr("+-~", *c->p)) {
		negates |= *c->p != '+';
		take(c, *c->p);
	}
	if (!c_primary(c, out))
		return false;
	/* -0 and ~~0 are harmless, but nobody writes a size that way */
	if (negates && out->known)
		return fail(c, ops, "a negative value: as a size or an array bound it is meaningless");
	if (negates)
		out->known = false;
	return true;
}

/* Operands and binary operators with C's precedence (no casts, no
 * comparisons, no ?:), each constant part computed. */
static bool c_binary(struct cparse *c, int min, struct cval *out)
{
	if (!c_unary(c, out))
		return false;
	for (;;) {
		const char *op = c->p;
		size_t n = binop_len(op);
		struct cval rhs;
		int prec;

		if (!n || (prec = binop_prec(op)) < min)
			return true;
		c->p += n;
		space(c);
		if (!c_binary(c, prec + 1, &rhs) || !c_apply(c, op, out, &rhs))
			return false;
	}
}

static bool c_expr(struct cparse *c, struct cval *out)
{
	return c_binary(c, 0, out);
}

/* The type specifiers C allows together: long long int, unsigned char... */
static bool specifiers_ok(const unsigned int *count)
{
	/* void char short int long float double signed unsigned _Bool */
	enum { V, C, S, I, L, F, D, SG, U, B };
	unsigned int base = count[V] + count[C] + count[I] + count[F] + count[D] + count[B];
	unsigned int sign = count[SG] + count[U];

	if (base > 1 || sign > 1 || count[S] > 1 || count[L] > 2 || (count[S] && count[L]))
		return false;
	if ((count[V] || count[F] || count[B]) && (sign || count[S] || count[L]))
		return false;
	if (count[D] && (sign || count[S] || count[L] > 1))
		return false;
	return !(count[C] && (count[S] || count[L]));
}

/* Specifiers and qualifiers, then pointers and array bounds: what
 * sizeof() and _IOC_TYPECHECK() take.  No function types. */
static bool c_type_name(struct cparse *c)
{
	static const char *const base[] = { "void", "char", "short", "int", "long", "float",
		"double", "signed", "unsigned", "_Bool" };
	unsigned int count[10] = { 0 }, specifiers = 0;
	bool named = false;	/* a tag or a typedef name: no other specifier goes with it */
	const char *start = c->p;
	size_t n;

	while ((n = ident_len(c->p))) {
		const char *w = c->p;
		size_t k;

		if (word_is(w, n, "const") || word_is(w, n, "volatile")) {
			c->p += n;
			space(c);
			continue;
		}
		for (k = 0; k < 10 && !word_is(w, n, base[k]); k++)
			;
		if (named && (k < 10 || !is_keyword(w, n) || word_is(w, n, "struct") ||
			      word_is(w, n, "union") || word_is(w, n, "enum"))) {
			return fail(c, w, "a type specifier after a struct, union, enum or typedef name");
		} else if (k < 10) {
			count[k]++;
			specifiers++;
		} else if (word_is(w, n, "struct") || word_is(w, n, "union") || word_is(w, n, "enum")) {
			if (specifiers)
				return fail(c, w, "a tagged type after another type specifier");
			c->p += n;
			space(c);
			if (!(n = ident_len(c->p)))
				return fail(c, c->p, "a struct, union or enum needs its tag");
			if (is_keyword(c->p, n))
				return fail(c, c->p, "a C keyword is not a tag");
			named = true;
		} else if (is_keyword(w, n)) {
			snprintf(c->buf, c->size, "'%.*s' is a C keyword, not part of a type name",
				 (int)n, w);
			return fail(c, w, c->buf);
		} else if (specifiers) {
			return fail(c, w, "a type name after another type specifier");
		} else {
			named = true;	/* a typedef name */
		}
		c->p += n;
		space(c);
	}
	if (!specifiers && !named)
		return c->p == start && *c->p ? unexpected(c, c->p) : fail(c, c->p, "no type specifier");
	if (!specifiers_ok(count))
		return fail(c, start, "these type specifiers do not go together");
	while (take(c, '*'))
		while ((n = ident_len(c->p)) && (word_is(c->p, n, "const") || word_is(c->p, n, "volatile"))) {
			c->p += n;
			space(c);
		}
	while (take(c, '[')) {
		const char *at = c->p;
		struct cval v;

		if (!c_expr(c, &v))
			return false;
		if (v.known && v.v == 0)
			return fail(c, at, "an array has at least one element");
		if (!take(c, ']'))
			return unexpected(c, c->p);
	}
	return true;
}

const char *c_problem(enum grammar g, const char *s, size_t *at, char *buf, size_t size)
{
	struct cparse c = { .s = s, .p = s, .buf = buf, .size = size };
	struct cval v;

	if (*s == ' ' || (*s && s[strlen(s) - 1] == ' ')) {
		*at = *s == ' ' ? 0 : strlen(s) - 1;
		return "no space at either end";
	}
	if ((g == G_C_TYPE ? c_type_name(&c) : c_expr(&c, &v)) && *c.p)
		unexpected(&c, *c.p == ' ' ? c.p + 1 : c.p);
	if (!c.err)
		return NULL;
	*at = (size_t)(c.err_at - s);
	return c.err;
}

void grammar_constants(enum grammar g, const char *s,
		       void (*fn)(void *ctx, const char *name, size_t len, size_t at), void *ctx)
{
	char buf[160];
	struct cparse c = { .s = s, .p = s, .buf = buf, .size = sizeof(buf), .name = fn, .ctx = ctx };
	struct cval v;

	if (g == G_C_TYPE)
		c_type_name(&c);
	else if (g == G_C_SIZE)
		c_expr(&c, &v);
}
