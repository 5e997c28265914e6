// SPDX-License-Identifier: GPL-2.0
/*
 * The grammars of abis.yaml's `cc` and `cflags` (see grammar.h).
 * tools/measure-sizes runs `cc cflags... -S probe.c` on the maintainer's
 * machine, so these two fields decide what a registry change may run: a
 * charset alone lets `cc: rm` with `cflags: [-rf, /home]` through, or
 * `-fplugin=/tmp/x.so`.  So cc must name a C compiler and each cflag must be
 * an option that only picks the target, the include path, macros or the
 * sizes of types: nothing that loads code, runs a program or writes a file.
 */
#include <stdbool.h>
#include <string.h>

#include "grammar.h"
#include "grammar_int.h"

static bool in(char c, const char *set)
{
	return c && strchr(set, c);
}

#define LOWER_DIGIT "abcdefghijklmnopqrstuvwxyz0123456789"
#define IDENT_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

/* Bytes of s from i on that belong to set: the index of the first that does not. */
static size_t span(const char *s, size_t i, const char *set)
{
	while (in(s[i], set))
		i++;
	return i;
}

/*
 * [TRIPLET-]NAME[-VERSION]: the words between '-' are lower-case letters,
 * digits and '_', the last word that is not a version (digits and dots) is
 * gcc, clang or cc: gcc, clang-14, hppa-linux-gnu-gcc, x86_64-linux-gnu-gcc-12.
 */
const char *compiler_problem(const char *s, size_t *at)
{
	size_t i = 0, name = 0, name_len = 0;

	for (;;) {
		size_t end = span(s, i, LOWER_DIGIT "_.");

		if (end == i || (s[end] && s[end] != '-')) {
			*at = end;
			return "a compiler name is words of a-z 0-9 _ . joined by '-'";
		}
		if (span(s, i, "0123456789.") != end || !name_len) {
			name = i;
			name_len = end - i;
		}
		if (!s[end])
			break;
		i = end + 1;
	}
	*at = name;
	if ((name_len == 3 && !memcmp(s + name, "gcc", 3)) ||
	    (name_len == 5 && !memcmp(s + name, "clang", 5)) ||
	    (name_len == 2 && !memcmp(s + name, "cc", 2)))
		return NULL;
	return "measure-sizes runs it: it must be gcc, clang or cc, with a target prefix or version suffix";
}

/* An absolute path of components [A-Za-z0-9_+.-], none empty, none starting with '.'. */
static const char *dir_problem(const char *s, size_t i, size_t *at)
{
	if (s[i] != '/') {
		*at = i;
		return "a directory is an absolute path";
	}
	while (s[i] == '/') {
		size_t end = span(s, i + 1, IDENT_CHARS "+.-");

		*at = i + 1;
		if (s[i + 1] == '.')
			return "a path component starts with '.' (no '..')";
		if (end == i + 1 && s[end])
			return "an empty path component";
		i = end;
	}
	*at = i;
	return s[i] ? "a path holds only letters, digits and _ + - . /" : NULL;
}

/* NAME or NAME=VALUE of C identifier characters, for -D and -U (no '=' for -U). */
static const char *macro_problem(const char *s, size_t i, bool value_ok, size_t *at)
{
	size_t end = span(s, i, IDENT_CHARS);

	*at = end;
	if (end == i || in(s[i], "0123456789"))
		return "a macro name is a C identifier";
	if (value_ok && s[end] == '=')
		end = span(s, end + 1, IDENT_CHARS);
	*at = end;
	return s[end] ? "a macro value holds only letters, digits and '_'" : NULL;
}

/* Exactly these; the prefixes below take a value. */
static const char *const plain_options[] = {
	"-nostdinc", "-nostdlibinc", "-isystem", "-idirafter", "-fshort-enums", "-fshort-wchar",
	"-fsigned-char", "-funsigned-char", "-fpack-struct",
};

const char *cflag_problem(const char *s, size_t *at)
{
	*at = 0;
	for (size_t k = 0; k < sizeof(plain_options) / sizeof(*plain_options); k++)
		if (!strcmp(s, plain_options[k]))
			return NULL;
	if (s[0] == '/')		/* the directory after -isystem or -idirafter */
		return dir_problem(s, 0, at);
	if (!strncmp(s, "-I", 2))
		return dir_problem(s, 2, at);
	if (!strncmp(s, "-D", 2) || !strncmp(s, "-U", 2))
		return macro_problem(s, 2, s[1] == 'D', at);
	if (!strncmp(s, "-m", 2) && in(s[2], LOWER_DIGIT)) {	/* -m32, -mabi=32, -mcpu=power8 */
		*at = span(s, 2, LOWER_DIGIT "_=,.-");
		return s[*at] ? "a machine option holds only a-z 0-9 _ = , . -" : NULL;
	}
	if (!strncmp(s, "--target=", 9) || !strncmp(s, "-std=", 5)) {
		size_t from = s[1] == '-' ? 9 : 5;

		*at = span(s, from, LOWER_DIGIT "_+.-");
		return *at == from || s[*at] ? "the value holds only a-z 0-9 _ + . -" : NULL;
	}
	if (!strncmp(s, "-fpack-struct=", 14)) {
		*at = span(s, 14, "0123456789");
		return *at == 14 || s[*at] ? "-fpack-struct= takes a number" : NULL;
	}
	return "measure-sizes passes it to the compiler: only options that pick the target, "
	       "include path, macros or type sizes (docs/dev/contracts.md), none that loads "
	       "code or runs a program";
}
