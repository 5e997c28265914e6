// SPDX-License-Identifier: GPL-2.0
/*
 * The grammars of spec text (see grammar.h).  Each is a small scanner or
 * recursive-descent parser over one string that never recurses deeper than
 * MAX_NEST and stops at the first byte it cannot take.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "grammar.h"

const char *const grammar_names[G_GRAMMARS] = {
	[G_IDENT] = "identifier", [G_ABI_NAME] = "ABI name", [G_C_TYPE] = "C type name", [G_C_SIZE] = "C size expression",
	[G_HEADER] = "header path", [G_FILE_REF] = "file reference", [G_ABSENT] = "absent entry",
	[G_PROGRAM] = "compiler name", [G_CFLAG] = "compiler option", [G_LINE] = "single line",
	[G_DOC] = "doc text",
};

#define MAX_NEST 16

static const char *const keywords[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
	"enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
	"restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
	"typedef", "union", "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof",
	"_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
	"_Static_assert", "_Thread_local",
};

static bool is_keyword(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof(keywords) / sizeof(*keywords); i++)
		if (keywords[i][0] == s[0] && strlen(keywords[i]) == n && !memcmp(keywords[i], s, n))
			return true;
	return false;
}

static bool ident_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* ------------------------------------------------------------ text */

/*
 * Control characters, and the Unicode ones that change how text reads
 * without showing: line separators, and the direction overrides of
 * "Trojan Source" (a comment that reads as code).  Returns the length of
 * the character at s when it is one, else 0.
 */
static size_t hidden_char(const unsigned char *s, bool newline_ok)
{
	if ((s[0] < 0x20 && !(newline_ok && s[0] == '\n')) || s[0] == 0x7f)
		return 1;
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)		/* C1 controls, NEL */
		return 2;
	if (s[0] == 0xd8 && s[1] == 0x9c)				/* U+061C */
		return 2;
	if (s[0] == 0xe2 && s[1] == 0x80 && ((s[2] >= 0x8e && s[2] <= 0x8f) ||
					     (s[2] >= 0xa8 && s[2] <= 0xae)))	/* U+200E-F, U+2028-E */
		return 3;
	if (s[0] == 0xe2 && s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9)	/* U+2066-9 */
		return 3;
	return 0;
}

static const char *text_problem(const char *s, bool newline_ok, size_t *at, char *buf, size_t size)
{
	for (const char *p = s; *p; p++) {
		size_t n = hidden_char((const unsigned char *)p, newline_ok);

		if (!n)
			continue;
		*at = (size_t)(p - s);
		if (*p == '\n')
			return "a newline: this field is one line";
		if (n == 1)
			snprintf(buf, size, "a control character (0x%02x)", (unsigned char)*p);
		else
			snprintf(buf, size, "an invisible control character (U+%04X)",
				 n == 2 ? (((unsigned char)p[0] & 0x1f) << 6 | ((unsigned char)p[1] & 0x3f)) :
				 (((unsigned char)p[0] & 0x0f) << 12 | ((unsigned char)p[1] & 0x3f) << 6 |
				  ((unsigned char)p[2] & 0x3f)));
		return buf;
	}
	return NULL;
}

void text_defang(char *s)
{
	char *out = s;

	while (*s) {
		size_t n = hidden_char((const unsigned char *)s, false);

		if (n) {
			*out++ = '?';
			s += n;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* ------------------------------------------------------------ C type names */

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

/* An identifier at p: its length, or 0. */
static size_t ident_len(const char *p)
{
	size_t n = 0;

	if (!ident_start(*p))
		return 0;
	while (ident_char(p[n]))
		n++;
	return n;
}

static bool word_is(const char *p, size_t n, const char *w)
{
	return strlen(w) == n && !memcmp(p, w, n);
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

static const char *c_problem(enum grammar g, const char *s, size_t *at, char *buf, size_t size)
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

/* ------------------------------------------------------------ names and paths */

static const char *ident_problem(const char *s, size_t *at)
{
	size_t n = ident_len(s);

	*at = n;
	if (!n)
		return "an identifier starts with a letter or '_'";
	if (s[n])
		return "an identifier holds only letters, digits and '_'";
	*at = 0;
	return is_keyword(s, n) ? "a C keyword is not a name" : NULL;
}

/* An ABI name: words of letters, digits and '_' joined by single '-'
 * (armhf-time64).  It names files (sizes/<abi>.yaml) and is quoted
 * wherever it is shown, but never becomes a C identifier. */
static const char *abi_name_problem(const char *s, size_t *at)
{
	size_t i = 0;

	for (;;) {
		size_t n = 0;

		while (ident_char(s[i + n]))
			n++;
		*at = i + n;
		if (!n)
			return i ? "a '-' in an ABI name is followed by a letter, digit or '_'"
				 : "an ABI name starts with a letter, digit or '_'";
		i += n;
		if (!s[i])
			return NULL;
		if (s[i] != '-')
			return "an ABI name holds only letters, digits, '_' and single '-'";
		i++;
	}
}

/*
 * A relative path, the first len bytes of s: components of letters, digits
 * and _ + - . (glob * and , too for a file reference), none empty and none
 * starting with '.', so no "..", no hidden file and nothing absolute.
 */
static const char *path_problem(const char *s, size_t len, const char *extra, size_t *at)
{
	size_t i = 0;

	for (;;) {
		if (i == len || s[i] == '.' || s[i] == '/') {
			*at = i;
			return i < len && s[i] == '.' ?
			       "a path component starts with '.' (no '..', no hidden files)" :
			       "an empty path component (no absolute path, no '//', no '/' at the end)";
		}
		while (i < len && s[i] != '/' && (ident_char(s[i]) || strchr(extra, s[i])))
			i++;
		if (i < len && s[i] != '/') {
			*at = i;
			return "a path holds only letters, digits and _ + - . /";
		}
		if (i == len)
			return NULL;
		i++;
	}
}

static const char *header_problem(const char *s, size_t len, size_t *at)
{
	const char *why = path_problem(s, len, "+-.", at);

	if (why)
		return why;
	*at = len;
	return len > 2 && !memcmp(s + len - 2, ".h", 2) && s[len - 3] != '/' ? NULL :
	       "a header path ends in .h";
}

/* linux/dvb/<glob>.h fs/fat/dir.c, or the words 6.1 wrote there ("advanced bbus") */
static const char *file_ref_problem(const char *s, size_t *at)
{
	const char *p = s;

	for (;;) {
		size_t n = strcspn(p, " "), sub;
		const char *why = path_problem(p, n, "+-.*,", &sub);

		if (why) {
			*at = (size_t)(p - s) + sub;
			return why;
		}
		if (!p[n])
			return NULL;
		p += n + 1;
	}
}

static const char *absent_problem(const char *s, size_t *at)
{
	const char *colon = strchr(s, ':');
	const char *why;

	if (!colon)
		return ident_problem(s, at);
	if ((why = header_problem(s, (size_t)(colon - s), at)))
		return why;
	why = ident_problem(colon + 1, at);
	*at += (size_t)(colon + 1 - s);
	return why;
}

const char *grammar_check(enum grammar g, const char *s, size_t *at, char *buf, size_t size)
{
	const char *why = text_problem(s, g == G_DOC, at, buf, size);

	if (why || g == G_LINE || g == G_DOC)
		return why;
	switch (g) {
	case G_IDENT:
		return ident_problem(s, at);
	case G_ABI_NAME:
		return abi_name_problem(s, at);
	case G_C_TYPE:
	case G_C_SIZE:
		return c_problem(g, s, at, buf, size);
	case G_HEADER:
		return header_problem(s, strlen(s), at);
	case G_FILE_REF:
		return file_ref_problem(s, at);
	case G_ABSENT:
		return absent_problem(s, at);
	case G_PROGRAM:
		return compiler_problem(s, at);
	case G_CFLAG:
		return cflag_problem(s, at);
	default:
		return NULL;
	}
}
