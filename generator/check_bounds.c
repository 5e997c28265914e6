// SPDX-License-Identifier: GPL-2.0
/*
 * Array bounds and size operands: each name a
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

void registry_constants(const struct registry *reg, struct nameset *set)
{
	for (size_t k = 0; k < reg->n_headers; k++) {
		const struct header *h = &reg->headers[k];

		for (size_t i = 0; i < h->n_constants; i++)
			nameset_add(set, h->constants[i].name, strlen(h->constants[i].name));
		for (size_t i = 0; i < h->n_types; i++)
			for (size_t j = 0; j < h->types[i].n_values; j++)
				nameset_add(set, h->types[i].values[j].name,
					    strlen(h->types[i].values[j].name));
	}
}

/* The names the measured sizes' types use as constants.  The sizes repeat
 * each type on every ABI and version: each text is parsed once. */
struct recorded {
	struct nameset names, texts;
};

static void record(void *ctx, const char *name, size_t len, size_t at)
{
	(void)at;
	nameset_add(&((struct recorded *)ctx)->names, name, len);
}

static void record_sizes(struct recorded *r, const struct size_entry *s, size_t n)
{
	char buf[160];
	size_t at, len;

	for (size_t i = 0; i < n; i++) {
		len = strlen(s[i].type);
		if (nameset_has(&r->texts, s[i].type, len))
			continue;
		nameset_add(&r->texts, s[i].type, len);
		if (!grammar_check(G_C_TYPE, s[i].type, &at, buf, sizeof(buf)))
			grammar_constants(G_C_TYPE, s[i].type, record, r);
	}
}

static void recorded_load(struct recorded *r, const struct registry *reg)
{
	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct abi *abi = &reg->abis[k];

		record_sizes(r, abi->sizes, abi->n_sizes);
		for (size_t v = 0; abi->by_version && v < reg->n_versions; v++)
			record_sizes(r, abi->by_version[v].sizes, abi->by_version[v].n_sizes);
	}
}

struct bound_ctx {
	struct registry *reg;
	const struct nameset *constants;
	const struct recorded *rec;	/* NULL: a new header's */
	const struct command *c;
};

static void bound_name(void *ctx, const struct c_text *t, const char *name, size_t n)
{
	struct bound_ctx *b = ctx;

	if (nameset_has(b->constants, name, n))
		return;
	if (!b->rec)
		CMD_ERR(b->reg, b->c, t->at, "reference",
		    "%s: '%.*s' in %s is no constant of the registry: a new header's array bounds and sizes are integer constants or names its spec defines (constants:)",
		    b->c->name, (int)n, name, t->field);
	else if (!nameset_has(&b->rec->names, name, n))
		CMD_ERR(b->reg, b->c, t->at, "reference",
		    "%s: '%.*s' in %s is no constant of the registry, nor a macro the measured sizes record: an array bound or size is an integer constant, a constant or enum value a header spec defines (constants:, for a macro of the kernel's header too), or a name a type of sizes/ uses (measured against the kernel's headers)",
		    b->c->name, (int)n, name, t->field);
}

/* sized: the sizes are loaded and measured (not for the stages that
 * measure them: a new type's bound is not recorded yet). */
void check_bounds(struct registry *reg, bool sized)
{
	struct recorded rec = { 0 };
	struct nameset constants = { 0 };

	registry_constants(reg, &constants);
	if (sized && !reg->tree)
		recorded_load(&rec, reg);
	for (size_t k = 0; k < reg->n_headers; k++) {
		const struct header *h = &reg->headers[k];

		/* with a tree, check_tree() asks its macros instead */
		if (!h->is_new && (!sized || reg->tree))
			continue;
		for (size_t i = 0; i < h->n_commands; i++) {
			struct bound_ctx b = { reg, &constants, h->is_new ? NULL : &rec, &h->commands[i] };

			for_each_c_constant(&h->commands[i], bound_name, &b);
		}
	}
	nameset_release(&constants);
	nameset_release(&rec.names);
	nameset_release(&rec.texts);
}
