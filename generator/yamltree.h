/* SPDX-License-Identifier: GPL-2.0 */
/* Load: one YAML file into a tree of nodes that remember where they stand. */
#ifndef IOCTLGEN_YAMLTREE_H
#define IOCTLGEN_YAMLTREE_H

#include "diag.h"
#include "util.h"

enum ykind { Y_SCALAR, Y_SEQ, Y_MAP };

struct ynode {
	enum ykind kind;
	struct mark mark;
	bool plain;		/* an unquoted scalar: YAML may read it as a number */
	const char *str;	/* scalar text */
	size_t len;
	struct ynode **kids;	/* sequence items; mapping key, value, key, value... */
	size_t n;
};

/* Limits that keep hostile input bounded. */
#define YAML_MAX_DEPTH 32
#define YAML_MAX_FILE (16u << 20)
#define YAML_MAX_SCALAR (64u << 10)

/*
 * Parse one YAML document: its nodes in a, the text of its scalars in texts
 * (a can go once the file is loaded, texts is what the registry keeps).
 * Anchors, aliases, tags and several documents are refused; duplicate keys
 * are reported.  Returns NULL on errors, which are in d.  An empty document
 * gives NULL with an error too.
 */
struct ynode *ytree_parse(struct arena *a, struct arena *texts, struct diags *d, const char *file,
			  const char *data, size_t len);

/* The two ways ytree_parse() reads: libyaml's events, and a fast path for
 * block collections of one-line plain scalars (yamlfast.c) that gives the
 * same tree or NULL, when libyaml is to read the file.  Apart for the test
 * that holds them equal (tests/unit/test-yamlfast.c). */
struct ynode *ytree_parse_libyaml(struct arena *a, struct arena *texts, struct diags *d,
				  const char *file, const char *data, size_t len);
struct ynode *yfast_parse(struct arena *a, struct arena *texts, const char *file,
			  const char *data, size_t len);

size_t ymap_len(const struct ynode *map);
const struct ynode *ymap_key(const struct ynode *map, size_t i);
const struct ynode *ymap_value(const struct ynode *map, size_t i);
const struct ynode *ymap_get(const struct ynode *map, const char *key);

#endif
