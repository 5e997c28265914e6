/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the loader refuses before any value is used: a spec tree that loops
 * or leaves the spec directory (spec_walk.c), and text that does not follow
 * its field's grammar (spec_grammar.c, on the grammars of grammar.c).
 * Internal to spec*.c.
 */
#ifndef IOCTLGEN_SPEC_GUARD_H
#define IOCTLGEN_SPEC_GUARD_H

#include "spec_load.h"

struct pathlist {
	char **v;
	size_t n, cap;
};

/* Every *.yaml below root, relative to it, unsorted; problems reported. */
void spec_walk(struct loader *L, const char *root, struct pathlist *out);

/* Check every text field of one parsed spec file (top: its kind's table)
 * against its grammar; report each that does not follow it. */
void spec_check_grammar(struct loader *L, const struct field *top, const struct ynode *root);
/* Every field of every kind of spec file and its grammar ("loader" for the
 * fields the loaders check), for the test that the JSON Schemas agree. */
void spec_fields_each(void (*fn)(void *ctx, const char *file, const char *path,
				 const char *grammar), void *ctx);

#endif
