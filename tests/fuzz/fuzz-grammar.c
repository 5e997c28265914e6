// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the grammars of spec text (generator/grammar.c) alone,
 * thousands of times faster than through the loader.  The first byte picks
 * the grammar, the rest is the text.  Each answer must point inside the
 * text, a text accepted as a C type name or a one-line field must hold
 * nothing that ends a line or a comment, an accepted compiler or compiler
 * option nothing that runs or loads code, and text_defang() must leave no
 * control character.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum grammar g;
	char buf[160], *s;
	const char *why;
	size_t at = (size_t)-1;

	if (!size)
		return 0;
	g = (enum grammar)(data[0] % G_GRAMMARS);
	s = malloc(size);
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	why = grammar_check(g, s, &at, buf, sizeof(buf));
	if (why && (at > strlen(s) || !*why))
		abort();
	if (!why && g != G_DOC && (strchr(s, '\n') || strchr(s, '\r')))
		abort();
	if (!why && (g == G_C_TYPE || g == G_C_SIZE) &&
	    (strstr(s, "/*") || strstr(s, "*/") || strstr(s, "//") || strpbrk(s, "#;{}\"'\\")))
		abort();
	/* what measure-sizes runs: a compiler by name, no option that runs or loads code */
	if (!why && g == G_PROGRAM && (strchr(s, '/') || s[0] == '-'))
		abort();
	if (!why && g == G_CFLAG && (s[0] == '@' || !strncmp(s, "-fplugin", 8) ||
				      !strncmp(s, "-wrapper", 8) || !strncmp(s, "-specs", 6) ||
				      !strncmp(s, "--specs", 7) || !strncmp(s, "-B", 2) ||
				      !strncmp(s, "-o", 2) || strstr(s, "/..") || strpbrk(s, " $`;|&")))
		abort();
	text_defang(s);
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			abort();
	free(s);
	return 0;
}
