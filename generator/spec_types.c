// SPDX-License-Identifier: GPL-2.0
/*
 * A header spec's own C definitions: new, constants and types.
 * What one file can tell is checked here (keys, names defined twice, a len
 * that names no constant, members against the kind); what a member's type
 * is, and the layout warnings, need the whole registry (check_types.c).
 */
#include <string.h>

#include "spec_load.h"

static const char *const kind_words[] = { "struct", "union", "enum" };

/* The first of names[0..n) equal to name, or NULL. */
static const struct mark *defined_before(const char *name, const char *const *names,
					 const struct mark *marks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return &marks[i];
	return NULL;
}

static void twice(struct loader *L, struct mark at, const char *what, const char *name,
		  const struct mark *first)
{
	LOAD_ERR(L, at, "duplicate-name", "%s '%s' is already defined at %s:%u:%u", what, name,
	    first->file, first->line, first->col);
}

/* The C names a header defines as macros and enumerators share one namespace. */
struct names {
	const char **name;
	struct mark *mark;
	size_t n;
};

static bool add_name(struct loader *L, struct names *nm, const char *what, const char *name,
		     struct mark at)
{
	const struct mark *first = defined_before(name, nm->name, nm->mark, nm->n);

	if (first) {
		twice(L, at, what, name, first);
		return false;
	}
	nm->name[nm->n] = name;
	nm->mark[nm->n++] = at;
	return true;
}

/* constants, or an enum's values: [{name, value, doc}], each name a macro
 * or enumerator of the header (one namespace); the value at most max.
 * what ("a constant") names one in key errors, noun in duplicate names. */
static struct cconstant *load_named_values(struct loader *L, const struct ynode *list,
					   const char *what, const char *noun, uint64_t max,
					   struct names *macros, size_t *count)
{
	struct cconstant *out = arena_alloc(L->a, (list->n + 1) * sizeof(*out));

	*count = 0;
	for (size_t i = 0; i < list->n; i++) {
		const struct ynode *m = list->kids[i], *v;
		struct cconstant *k = &out[*count];
		uint64_t value;

		if (!check_keys(L, m, what, named_value_fields, FORM_ANY))
			continue;
		k->mark = m->mark;
		k->name = get_str(L, m, "name", NULL);
		k->doc = get_str(L, m, "doc", NULL);
		v = ymap_get(m, "value");
		if (!k->name || !k->doc || !is_identifier(k->name) ||
		    !node_uint(L, v, "value", max, &value))
			continue;
		k->value = (uint32_t)value;
		k->value_text = v->str;
		if (add_name(L, macros, noun, k->name, m->mark))
			(*count)++;
	}
	return out;
}

static void load_constants(struct loader *L, struct header *h, const struct ynode *root,
			   struct names *macros)
{
	const struct ynode *list = ymap_get(root, "constants");

	if (list && want_kind(L, list, "constants", Y_SEQ))
		h->constants = load_named_values(L, list, "a constant", "constant", UINT32_MAX,
						 macros, &h->n_constants);
}

static const struct cconstant *constant_named(const struct header *h, const char *name)
{
	for (size_t i = 0; i < h->n_constants; i++)
		if (!strcmp(h->constants[i].name, name))
			return &h->constants[i];
	return NULL;
}

/* len: a positive integer or a constant of this header. */
static bool load_len(struct loader *L, const struct header *h, struct cmember *mb,
		     const struct ynode *n)
{
	uint64_t v;

	mb->len_mark = n->mark;
	mb->len_text = n->str;
	if (n->kind == Y_SCALAR && n->str && is_identifier(n->str) && scalar_kind(n) == SK_STR) {
		const struct cconstant *k = constant_named(h, n->str);

		if (!k) {
			LOAD_ERR(L, n->mark, "reference", "len '%s' is no constant of this header", n->str);
			return false;
		}
		v = k->value;
	} else if (!node_uint(L, n, "len", UINT32_MAX, &v)) {
		return false;
	}
	if (v == 0) {
		LOAD_ERR(L, n->mark, "range", "len %s: an array has at least one element", n->str);
		return false;
	}
	mb->len = (uint32_t)v;
	return true;
}

static void load_members(struct loader *L, const struct header *h, struct ctype_def *t,
			 const struct ynode *list)
{
	const char **names = arena_alloc(L->a, (list->n + 1) * sizeof(*names));
	struct mark *marks = arena_alloc(L->a, (list->n + 1) * sizeof(*marks));
	struct names seen = { names, marks, 0 };

	t->members = arena_alloc(L->a, (list->n + 1) * sizeof(*t->members));
	for (size_t i = 0; i < list->n; i++) {
		const struct ynode *m = list->kids[i], *n;
		struct cmember *mb = &t->members[t->n_members];
		bool ok = true;

		if (!check_keys(L, m, "a member", member_fields, FORM_ANY))
			continue;
		memset(mb, 0, sizeof(*mb));
		mb->mark = m->mark;
		mb->name = get_str(L, m, "name", NULL);
		mb->type = get_str(L, m, "type", &mb->type_mark);
		if (ymap_get(m, "pad"))
			ok &= get_bool(L, m, "pad", &mb->pad);
		if (ymap_get(m, "doc"))
			mb->doc = get_str(L, m, "doc", NULL);
		else if (!mb->pad) {
			LOAD_ERR(L, m->mark, "missing-key",
			    "member '%s' has no 'doc' (only padding, pad: true, may go without)",
			    mb->name ? mb->name : "?");
			ok = false;
		}
		if ((n = ymap_get(m, "len")))
			ok &= load_len(L, h, mb, n);
		if (!ok || !mb->name || !mb->type || !is_identifier(mb->name))
			continue;
		if (add_name(L, &seen, "member", mb->name, m->mark))
			t->n_members++;
	}
}

static bool parse_kind(const char *s, enum ctype_kind *out)
{
	for (int k = 0; k < 3; k++)
		if (!strcmp(s, kind_words[k])) {
			*out = (enum ctype_kind)k;
			return true;
		}
	return false;
}

static void load_types(struct loader *L, struct header *h, const struct ynode *root,
		       struct names *macros)
{
	const struct ynode *list = ymap_get(root, "types");
	const char **tags;
	struct mark *marks;
	struct names seen;

	if (!list || !want_kind(L, list, "types", Y_SEQ))
		return;
	tags = arena_alloc(L->a, (list->n + 1) * sizeof(*tags));
	marks = arena_alloc(L->a, (list->n + 1) * sizeof(*marks));
	seen = (struct names){ tags, marks, 0 };
	h->types = arena_alloc(L->a, (list->n + 1) * sizeof(*h->types));
	for (size_t i = 0; i < list->n; i++) {
		const struct ynode *m = list->kids[i], *members, *values;
		struct ctype_def *t = &h->types[h->n_types];
		const char *kind;
		struct mark km;

		if (!check_keys(L, m, "a type", type_fields, FORM_ANY))
			continue;
		memset(t, 0, sizeof(*t));
		t->mark = m->mark;
		t->header = h;
		t->name = get_str(L, m, "name", NULL);
		t->doc = get_str(L, m, "doc", NULL);
		kind = get_str(L, m, "kind", &km);
		if (ymap_get(m, "kernel-internal"))
			get_bool(L, m, "kernel-internal", &t->kernel_internal);
		t->accept = get_accept(L, m, ACCEPT_PADDING | ACCEPT_I386_ALIGNMENT);
		if (ymap_get(m, "accept-reason"))
			t->accept_reason = get_str(L, m, "accept-reason", NULL);
		if (!t->name || !t->doc || !kind || !is_identifier(t->name))
			continue;
		if (!parse_kind(kind, &t->kind)) {
			LOAD_ERR(L, km, "type", "kind '%s' must be struct, union or enum", kind);
			continue;
		}
		t->c_name = arena_printf(L->a, "%s %s", kind_words[t->kind], t->name);
		members = ymap_get(m, "members");
		values = ymap_get(m, "values");
		if (t->kind == CTYPE_ENUM ? members != NULL : values != NULL) {
			LOAD_ERR(L, (members ? members : values)->mark, "type",
			    "%s: %s has %s, not %s", t->c_name, t->kind == CTYPE_ENUM ? "an enum" :
			    "a struct or union", t->kind == CTYPE_ENUM ? "values" : "members",
			    t->kind == CTYPE_ENUM ? "members" : "values");
			continue;
		}
		if (t->kind == CTYPE_ENUM ? !values : !members) {
			LOAD_ERR(L, m->mark, "missing-key", "%s has no '%s'", t->c_name,
			    t->kind == CTYPE_ENUM ? "values" : "members");
			continue;
		}
		if (!want_kind(L, t->kind == CTYPE_ENUM ? values : members,
			       t->kind == CTYPE_ENUM ? "values" : "members", Y_SEQ))
			continue;
		/* ISO C has no empty struct, union or enum (GCC's empty struct
		 * has size 0 in C and 1 in C++) */
		if (!(t->kind == CTYPE_ENUM ? values : members)->n) {
			LOAD_ERR(L, (t->kind == CTYPE_ENUM ? values : members)->mark, "type",
			    "%s: '%s' is empty: ISO C has no empty %s", t->c_name,
			    t->kind == CTYPE_ENUM ? "values" : "members", kind_words[t->kind]);
			continue;
		}
		if (t->kind == CTYPE_ENUM)
			t->values = load_named_values(L, values, "an enum value", "enum value",
						      INT32_MAX, macros, &t->n_values);
		else
			load_members(L, h, t, members);
		/* struct, union and enum tags share one namespace in C */
		if (add_name(L, &seen, "type", t->name, m->mark))
			h->n_types++;
	}
}

void load_header_types(struct loader *L, struct header *h, const struct ynode *root)
{
	const struct ynode *c = ymap_get(root, "constants"), *t = ymap_get(root, "types");
	size_t cap = (c && c->kind == Y_SEQ ? c->n : 0) + 1;
	struct names macros;

	if (ymap_get(root, "new"))
		get_bool(L, root, "new", &h->is_new);
	for (size_t i = 0; t && t->kind == Y_SEQ && i < t->n; i++) {
		const struct ynode *v = t->kids[i]->kind == Y_MAP ? ymap_get(t->kids[i], "values") : NULL;

		cap += v && v->kind == Y_SEQ ? v->n : 0;
	}
	macros = (struct names){ arena_alloc(L->a, cap * sizeof(char *)),
				 arena_alloc(L->a, cap * sizeof(struct mark)), 0 };
	load_constants(L, h, root, &macros);
	load_types(L, h, root, &macros);
}
