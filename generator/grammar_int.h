/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal to grammar*.c: the lexical pieces the grammars share and each
 * kind of grammar's check, for grammar_check().  Each *_problem() returns
 * NULL or what is wrong, with *at its byte offset in s.
 */
#ifndef IOCTLGEN_GRAMMAR_INT_H
#define IOCTLGEN_GRAMMAR_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "grammar.h"

static inline bool ident_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static inline bool ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* An identifier at p: its length, or 0. */
static inline size_t ident_len(const char *p)
{
	size_t n = 0;

	if (!ident_start(*p))
		return 0;
	while (ident_char(p[n]))
		n++;
	return n;
}


/* s's first n bytes are a C keyword (grammar.c). */
bool is_keyword(const char *s, size_t n);

/* grammar_ctype.c: G_C_TYPE and G_C_SIZE. */
const char *c_problem(enum grammar g, const char *s, size_t *at, char *buf, size_t size);

/* grammar_path.c: identifiers, ABI names, header paths (the first len
 * bytes of s), ioctl-number.rst's file references, absent entries. */
const char *ident_problem(const char *s, size_t *at);
const char *abi_name_problem(const char *s, size_t *at);
const char *header_problem(const char *s, size_t len, size_t *at);
const char *file_ref_problem(const char *s, size_t *at);
const char *absent_problem(const char *s, size_t *at);

/* grammar_compiler.c: G_PROGRAM and G_CFLAG. */
const char *compiler_problem(const char *s, size_t *at);
const char *cflag_problem(const char *s, size_t *at);

#endif
