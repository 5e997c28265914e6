// SPDX-License-Identifier: GPL-2.0
/*
 * The grammars of spec text (see grammar.h): their names, what every one
 * refuses (control and invisible characters), the C keywords, and
 * grammar_check(), which hands each kind of text to its file: C type names
 * and sizes (grammar_ctype.c), names and paths (grammar_path.c), the
 * compiler and its options (grammar_compiler.c).  Each is a small scanner
 * or recursive-descent parser over one string that stops at the first
 * byte it cannot take.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "grammar.h"
#include "grammar_int.h"

const char *const grammar_names[G_GRAMMARS] = {
	[G_IDENT] = "identifier", [G_ABI_NAME] = "ABI name", [G_C_TYPE] = "C type name", [G_C_SIZE] = "C size expression",
	[G_HEADER] = "header path", [G_FILE_REF] = "file reference", [G_ABSENT] = "absent entry",
	[G_PROGRAM] = "compiler name", [G_CFLAG] = "compiler option", [G_LINE] = "single line",
	[G_DOC] = "doc text",
};

/* Sorted as strcmp() sorts them: every C type name asks, word by word. */
static const char *const keywords[] = {
	"_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary",
	"_Noreturn", "_Static_assert", "_Thread_local", "auto", "break", "case", "char",
	"const", "continue", "default", "do", "double", "else", "enum", "extern", "float",
	"for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
	"short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
	"unsigned", "void", "volatile", "while",
};

bool is_keyword(const char *s, size_t n)
{
	size_t lo = 0, hi = sizeof(keywords) / sizeof(*keywords);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		/* a keyword longer than n bytes that starts with them is greater */
		int c = strncmp(keywords[mid], s, n);

		if (c == 0 && keywords[mid][n] == '\0')
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
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
		size_t n;

		if ((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f)
			continue;	/* printable ASCII, most of every text */
		if (!(n = hidden_char((const unsigned char *)p, newline_ok)))
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
