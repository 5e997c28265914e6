/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Room for a new driver (free.c): which magic codes and nr ranges no
 * magic-code row reserves and no command carries on any ABI in any known
 * version, and what a proposed number would clash with.
 */
#ifndef IOCTLGEN_FREE_H
#define IOCTLGEN_FREE_H

#include "registry.h"

#define FREE_CODES 256
#define FREE_NRS 256

/* One bit per nr of each code. */
struct free_map {
	uint64_t used[FREE_CODES][FREE_NRS / 64];	/* a command carries code and nr */
	uint64_t reserved[FREE_CODES][FREE_NRS / 64];	/* a magic-code row covers it */
	unsigned int rows[FREE_CODES];	/* the rows of each code */
	unsigned int n_used[FREE_CODES];	/* nrs used, reserved or not */
};

static inline bool free_bit(const uint64_t *set, unsigned int nr)
{
	return set[nr / 64] >> (nr % 64) & 1;
}

/* Is nr of code neither used nor reserved? */
static inline bool free_map_free(const struct free_map *m, unsigned int code, unsigned int nr)
{
	return !free_bit(m->used[code], nr) && !free_bit(m->reserved[code], nr);
}

/*
 * Every command's code and nr: the spec's own (families over their nr
 * range, variants' nrs) and each number on each ABI, in every known
 * version, split by the ABI's layout (plain numbers too: TCGETS is 'T' 1);
 * every row of magic.yaml, whatever versions it exists in.  Needs a
 * registry checked with sizes (registry_check()).
 */
void free_map_build(const struct registry *reg, struct free_map *m);

/* The next free run of nrs of code at *from or after: [*first, *last], and
 * *from past it.  false when there is none. */
bool free_next_range(const struct free_map *m, unsigned int code, unsigned int *from,
		     unsigned int *first, unsigned int *last);

/* A proposed number: dir, code, nr, and its size when known (given, or the
 * measured size of ctype on each ABI). */
struct free_query {
	enum ioc_dir dir;
	unsigned int code, nr;
	bool has_size;
	uint32_t size;
	const char *ctype;	/* a C type whose size the number encodes, or NULL */
};

/* The size of the query on ABI k: given, or ctype as the newest known
 * version measures it; false when unknown. */
bool free_query_size(const struct registry *reg, const struct free_query *q, size_t k,
		     uint32_t *size);

enum free_clash_kind {
	CLASH_NUMBER,	/* the very number (a size-param family takes any size) */
	CLASH_CODE_NR,	/* same code and nr, another direction or size */
	CLASH_UNSIZED,	/* same code, nr and direction; the proposed size is unknown here */
};

extern const char *const free_clash_kind_names[3];	/* "same-number", "code-nr", "size-unknown" */

/* A command that carries the proposed code and nr on one ABI. */
struct free_clash {
	const struct command *cmd;
	size_t abi;
	uint32_t number;	/* the command's number there */
	uint64_t versions;	/* the known versions it carries it in (0: none known) */
	enum free_clash_kind kind;
	bool variable;		/* the caller gives the size: number has size 0 */
};

/* Every command that carries q's code and nr on any ABI in any version,
 * by command (spec order), then ABI; *out is malloc()ed.  Returns the count. */
size_t free_clashes(const struct registry *reg, const struct free_query *q, struct free_clash **out);

#endif
