// SPDX-License-Identifier: GPL-2.0
/*
 * Array bounds and size operands (issue 35, class 5): each name a
 * command's C texts use as a constant (n in char[n], in legacy.written)
 * must be one, or the model, site and decoder show a fixed number for
 * what the compiler computes otherwise (a run-time variable, __LINE__).
 * The grammar keeps the compiler's reserved names out; here:
 *   - a new header's (the registry writes it): a constant or enum value
 *     the registry defines, since nothing else can define it;
 *   - a header the kernel has, without the tree: that, or a name the
 *     measured sizes record (sizes/ keys: tools/measure-sizes compiled
 *     them against the pristine tree's headers, sizes-fresh says they
 *     still do).  With --tree, check_namespace.c also holds every name
 *     against the tree's own macros.
 */
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "rules.h"

bool registry_constant(const struct registry *reg, const char *name, size_t n)
{
	for (size_t k = 0; k < reg->n_headers; k++) {
		const struct header *h = &reg->headers[k];

		for (size_t i = 0; i < h->n_constants; i++)
			if (strlen(h->constants[i].name) == n && !memcmp(h->constants[i].name, name, n))
				return true;
		for (size_t i = 0; i < h->n_types; i++)
			for (size_t j = 0; j < h->types[i].n_values; j++)
				if (strlen(h->types[i].values[j].name) == n &&
				    !memcmp(h->types[i].values[j].name, name, n))
					return true;
	}
	return false;
}

/* The names the measured sizes' types use as constants, sorted. */
struct recorded {
	char **v;
	size_t n, cap;
};

static void record(void *ctx, const char *name, size_t len, size_t at)
{
	struct recorded *r = ctx;

	(void)at;
	grow(&r->v, &r->cap, r->n + 1, sizeof(*r->v));
	r->v[r->n] = xrealloc(NULL, len + 1);
	memcpy(r->v[r->n], name, len);
	r->v[r->n++][len] = '\0';
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void record_sizes(struct recorded *r, const struct size_entry *s, size_t n)
{
	char buf[160];
	size_t at;

	for (size_t i = 0; i < n; i++)
		if (!grammar_check(G_C_TYPE, s[i].type, &at, buf, sizeof(buf)))
			grammar_constants(G_C_TYPE, s[i].type, record, r);
}

static void recorded_load(struct recorded *r, const struct registry *reg)
{
	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct abi *abi = &reg->abis[k];

		record_sizes(r, abi->sizes, abi->n_sizes);
		for (size_t v = 0; abi->by_version && v < reg->n_versions; v++)
			record_sizes(r, abi->by_version[v].sizes, abi->by_version[v].n_sizes);
	}
	if (r->n)
		qsort(r->v, r->n, sizeof(*r->v), str_cmp);
}

static bool recorded_has(const struct recorded *r, const char *name, size_t n)
{
	char buf[256];
	const char *key = buf;

	if (n >= sizeof(buf) || !r->n)
		return false;
	memcpy(buf, name, n);
	buf[n] = '\0';
	return bsearch(&key, r->v, r->n, sizeof(*r->v), str_cmp) != NULL;
}

struct bound_ctx {
	struct registry *reg;
	const struct recorded *rec;	/* NULL: a new header's */
	const struct command *c;
};

static void bound_name(void *ctx, const struct c_text *t, const char *name, size_t n)
{
	struct bound_ctx *b = ctx;

	if (registry_constant(b->reg, name, n))
		return;
	if (!b->rec)
		CMD_ERR(b->reg, b->c, t->at, "reference",
		    "%s: '%.*s' in %s is no constant of the registry: a new header's array bounds and sizes are integer constants or names its spec defines (constants:)",
		    b->c->name, (int)n, name, t->field);
	else if (!recorded_has(b->rec, name, n))
		CMD_ERR(b->reg, b->c, t->at, "reference",
		    "%s: '%.*s' in %s is no constant of the registry, nor a macro the measured sizes record: an array bound or size is an integer constant, a constant or enum value a header spec defines (constants:, for a macro of the kernel's header too), or a name a type of sizes/ uses (measured against the kernel's headers)",
		    b->c->name, (int)n, name, t->field);
}

/* sized: the sizes are loaded and measured (not for the stages that
 * measure them: a new type's bound is not recorded yet). */
void check_bounds(struct registry *reg, bool sized)
{
	struct recorded rec = { 0 };

	if (sized && !reg->tree)
		recorded_load(&rec, reg);
	for (size_t k = 0; k < reg->n_headers; k++) {
		const struct header *h = &reg->headers[k];

		/* with a tree, check_tree() asks its macros instead */
		if (!h->is_new && (!sized || reg->tree))
			continue;
		for (size_t i = 0; i < h->n_commands; i++) {
			struct bound_ctx b = { reg, h->is_new ? NULL : &rec, &h->commands[i] };

			for_each_c_constant(&h->commands[i], bound_name, &b);
		}
	}
	for (size_t i = 0; i < rec.n; i++)
		free(rec.v[i]);
	free(rec.v);
}
