// SPDX-License-Identifier: GPL-2.0
/*
 * The grammars of names and paths (see grammar.h): C identifiers, ABI
 * names, header paths, the file references of ioctl-number.rst and the
 * entries of a sizes file's `absent`.  A path is relative, and no
 * component starts with '.'.
 */
#include <stdbool.h>
#include <string.h>

#include "grammar.h"
#include "grammar_int.h"

const char *ident_problem(const char *s, size_t *at)
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
const char *abi_name_problem(const char *s, size_t *at)
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

const char *header_problem(const char *s, size_t len, size_t *at)
{
	const char *why = path_problem(s, len, "+-.", at);

	if (why)
		return why;
	*at = len;
	return len > 2 && !memcmp(s + len - 2, ".h", 2) && s[len - 3] != '/' ? NULL :
	       "a header path ends in .h";
}

/* linux/dvb/<glob>.h fs/fat/dir.c, or the words 6.1 wrote there ("advanced bbus") */
const char *file_ref_problem(const char *s, size_t *at)
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

const char *absent_problem(const char *s, size_t *at)
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
