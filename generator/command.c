// SPDX-License-Identifier: GPL-2.0
/*
 * One command on one ABI: whether the ABI has it, the sizes its headers
 * measure, the nr and alias-of a variant gives it there, and which types
 * its number encodes.  Ground floor: the loader, the check, the lint and
 * the model ask these, and this file asks nothing of them.
 */
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "parse.h"
#include "registry.h"

static int size_key_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct size_entry *)elem)->type);
}

static bool sizes_find(const struct size_entry *v, size_t n, const char *type, uint32_t *size)
{
	const struct size_entry *e;

	/* bsearch() on a NULL array is undefined, even with no elements. */
	if (!n)
		return false;
	e = bsearch(type, v, n, sizeof(*v), size_key_cmp);
	if (!e)
		return false;
	*size = e->size;
	return true;
}

bool abi_sizeof(const struct abi *abi, const char *type, uint32_t *size)
{
	return sizes_find(abi->sizes, abi->n_sizes, type, size);
}

bool abi_sizeof_for(const struct abi *abi, const struct command *c, const char *type,
		    uint32_t *size)
{
	return (c->header->kernel_internal && sizes_find(abi->ksizes, abi->n_ksizes, type, size)) ||
	       abi_sizeof(abi, type, size);
}

/* An absent: entry, NAME or HEADER:NAME (header NULL for the first). */
struct absent_key {
	const char *header, *name;
};

/* strcmp() of the key, written as absent: writes it, against entry s. */
static int absent_cmp(const void *pk, const void *elem)
{
	const struct absent_key *k = pk;
	const char *parts[3] = { k->header ? k->header : "", k->header ? ":" : "", k->name };
	const unsigned char *s = *(const unsigned char *const *)elem;

	for (int p = 0; p < 3; p++)
		for (const unsigned char *c = (const unsigned char *)parts[p]; *c; c++, s++)
			if (*c != *s)
				return *c - *s;
	return -*s;
}

static bool absent(const struct abi *abi, const char *header, const char *name)
{
	struct absent_key k = { header, name };

	/* bsearch() on a NULL array is undefined, even with no elements. */
	return abi->n_absent && bsearch(&k, abi->absent, abi->n_absent, sizeof(*abi->absent), absent_cmp) != NULL;
}

bool abi_arch_has(const struct abi *abi, const struct command *c)
{
	return !c->header->arch || (abi->arch && !strcmp(c->header->arch, abi->arch));
}

static int str_ptr_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

static bool listed(const char *const *list, size_t n, const char *path)
{
	return n && bsearch(path, list, n, sizeof(*list), str_ptr_cmp);
}

bool abi_measured(const struct abi *abi, const struct command *c)
{
	return !c->header->kernel_internal || listed(abi->kcontext, abi->n_kcontext, c->header->path);
}

bool abi_measured_in(const struct abi *abi, const struct command *c, size_t v)
{
	size_t w = v;

	if (!c->header->kernel_internal || !abi->by_version)
		return abi_measured(abi, c);
	while (w > 0 && !abi->by_version[w].sizes_file)	/* borrowed, as check_numbers.c */
		w--;
	return listed(abi->by_version[w].kcontext, abi->by_version[w].n_kcontext, c->header->path);
}

/* absent: lists NAME, or header:NAME when only one header's NAME is missing
 * (asm-generic/ioctls.h:TCGETS2 on sparc, whose own asm/ioctls.h has one).
 * A kernel-internal header's commands exist only where they were measured. */
bool abi_has(const struct abi *abi, const struct command *c)
{
	return abi_arch_has(abi, c) && abi_measured(abi, c) && !absent(abi, NULL, c->name) &&
	       !absent(abi, c->header->path, c->name);
}

static const struct variant *variant_on(const struct command *c, const struct abi *abi)
{
	for (size_t v = 0; v < c->n_variants; v++)
		for (size_t k = 0; k < c->variants[v].n_abis; k++)
			if (!strcmp(c->variants[v].abis[k], abi->name))
				return &c->variants[v];
	return NULL;
}

unsigned int command_nr_on(const struct command *c, const struct abi *abi)
{
	const struct variant *v = variant_on(c, abi);

	return v && v->nr_text ? v->nr : c->nr;
}

const char *command_alias_on(const struct command *c, const struct abi *abi)
{
	const struct variant *v = variant_on(c, abi);

	return v && v->alias_of ? v->alias_of : c->alias_of;
}

const char *command_alias_root_on(const struct command *c, const struct abi *abi)
{
	const struct variant *v = variant_on(c, abi);

	return v && v->alias_root ? v->alias_root : c->alias_root;
}

/* The type whose sizeof() the header's macro encodes, or NULL for none. */
bool command_is_new(const struct command *c)
{
	return c->is_new || (c->header && c->header->is_new);
}

const char *command_sized_type(const struct command *c)
{
	if (c->size_param || c->has_size || (c->dir == DIR_NONE && !c->ioc))
		return NULL;
	if (c->legacy)
		return strcmp(c->legacy->spell_as, "bad") ? c->legacy->spell_as :
		       legacy_written_type(c->legacy->written);
	return c->type;
}

/* The C type of a legacy macro argument: sizeof(...) is size_t, a literal int. */
const char *legacy_written_type(const char *written)
{
	if (is_sizeof(written))
		return "size_t";
	if (is_number(written))
		return "int";
	return NULL;
}

const char *const measure_base[MEASURE_BASE_TYPES] = { "int", "size_t" };

static size_t add_type(const char **types, size_t n, const char *t)
{
	if (!t || !strcmp(t, "void"))
		return n;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(types[i], t))
			return n;
	types[n] = t;
	return n + 1;
}

size_t command_measure(const struct command *c, const char *types[MEASURE_MAX])
{
	size_t n = add_type(types, 0, c->type);

	n = add_type(types, n, c->size_unit);

	if (c->legacy) {
		if (strcmp(c->legacy->spell_as, "bad"))
			n = add_type(types, n, c->legacy->spell_as);
		if (!c->reserved)
			n = add_type(types, n, c->legacy->passes);
	}
	return n;
}

/* The C texts of command c that can use a constant, each with its field,
 * grammar and place. */
void for_each_c_text(const struct command *c, void (*fn)(void *ctx, const struct c_text *t),
		     void *ctx)
{
	const struct legacy *lg = c->legacy;
	const struct c_text t[] = {
		{ "type", c->type, G_C_TYPE, c->type_mark },
		{ "size-unit", c->size_unit, G_C_TYPE, c->type_mark },
		{ "passes", c->passes, G_C_TYPE, c->type_mark },
		{ "legacy.passes", lg ? lg->passes : NULL, G_C_TYPE, lg ? lg->mark : c->mark },
		{ "legacy.spell-as", lg && strcmp(lg->spell_as, "bad") ? lg->spell_as : NULL,
		  G_C_TYPE, lg ? lg->spell_mark : c->mark },
		{ "legacy.written", lg ? lg->written : NULL, G_C_SIZE,
		  lg ? lg->written_mark : c->mark },
	};

	for (size_t k = 0; k < sizeof(t) / sizeof(*t); k++)
		if (t[k].text)
			fn(ctx, &t[k]);
}

struct constants_walk {
	const struct c_text *t;
	void (*fn)(void *ctx, const struct c_text *t, const char *name, size_t len);
	void *ctx;
};

static void constant_found(void *ctx, const char *name, size_t len, size_t at)
{
	struct constants_walk *w = ctx;

	(void)at;
	w->fn(w->ctx, w->t, name, len);
}

static void text_constants(void *ctx, const struct c_text *t)
{
	struct constants_walk *w = ctx;
	char buf[160];
	size_t at;

	w->t = t;
	/* a text that breaks its grammar is the grammar check's to report */
	if (!grammar_check(t->g, t->text, &at, buf, sizeof(buf)))
		grammar_constants(t->g, t->text, constant_found, w);
}

void for_each_c_constant(const struct command *c,
			 void (*fn)(void *ctx, const struct c_text *t, const char *name, size_t len),
			 void *ctx)
{
	struct constants_walk w = { NULL, fn, ctx };

	for_each_c_text(c, text_constants, &w);
}

const char *command_arg_kind(const struct command *c)
{
	if (c->type)
		return "type";
	if (c->size_unit)
		return "array";
	if (c->size_param)
		return "caller-size";
	if (c->has_size)
		return "size";
	return "none";
}

bool command_arg_text(const struct command *c, struct strbuf *sb)
{
	const char *t = c->type ? c->type : c->legacy && c->legacy->passes ? c->legacy->passes :
			c->passes;

	if (t)
		sb_puts(sb, t);
	else if (c->size_unit)
		sb_printf(sb, "%s[%s]", c->size_unit, c->size_param);
	return t || c->size_unit;
}

const char *legacy_kind(const struct legacy *l)
{
	if (!strcmp(l->spell_as, "bad"))
		return "bad";
	return l->passes && !strcmp(l->spell_as, l->passes) ? "same-type" : "other-type";
}
