/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The grammar of every kind of text a spec field holds.  Spec text reaches
 * generated C headers, ioctl-number.rst, patches and the site, so each field
 * takes only what its meaning needs: a C type is a C type name and nothing
 * that could end it (no newline, comment, preprocessor token, literal,
 * brace or semicolon), a header is a relative path, prose is one line
 * unless the field is a doc the renderers escape.
 */
#ifndef IOCTLGEN_GRAMMAR_H
#define IOCTLGEN_GRAMMAR_H

#include <stddef.h>

enum grammar {
	G_IDENT,	/* a C identifier, not a keyword: x86_64, len */
	G_ABI_NAME,	/* identifier words joined by single '-': x86_64, armhf-time64 */
	G_C_TYPE,	/* a C type name: struct x, unsigned int[2], __u32 *, char[A - B + 1] */
	G_C_SIZE,	/* a C constant expression: sizeof(int)*2, 16 */
	G_HEADER,	/* a relative path ending in .h: linux/fs.h, arch/x/include/uapi/asm/ioctl.h */
	G_FILE_REF,	/* ioctl-number.rst's Include File words: linux/dvb/<glob>.h, fs/fat/dir.c */
	G_ABSENT,	/* NAME or header:NAME: asm-generic/ioctls.h:TCGETS2 */
	G_PROGRAM,	/* a C compiler's name, found on PATH: gcc, clang-14, hppa-linux-gnu-gcc */
	G_CFLAG,	/* one compiler option that only picks target, includes, macros: -m32 */
	G_LINE,		/* one line of printable text */
	G_DOC,		/* lines of printable text (a doc field: the renderers escape it) */
	G_GRAMMARS
};

/* Its name, for messages and docs/dev/contracts.md: "C type name", ... */
extern const char *const grammar_names[G_GRAMMARS];

/*
 * NULL when s follows grammar g; else what is wrong, with *at the byte
 * offset in s where it goes wrong.  The message is static or in buf.
 */
const char *grammar_check(enum grammar g, const char *s, size_t *at, char *buf, size_t size);

/*
 * Call fn for each name s uses as a constant (array bounds and operands,
 * not the type names in sizeof()), at its byte offset: s a C type name or
 * size expression (G_C_TYPE, G_C_SIZE) that follows its grammar.
 */
void grammar_constants(enum grammar g, const char *s,
		       void (*fn)(void *ctx, const char *name, size_t len, size_t at), void *ctx);

/* Replace each control character in s (newlines too) and each invisible
 * one by '?', in place: for messages that quote spec text. */
void text_defang(char *s);

#endif
