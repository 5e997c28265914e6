// SPDX-License-Identifier: GPL-2.0
/* Typed access to the values of a spec mapping: each problem is reported
 * where it stands, as path:line:col. */
#include <string.h>

#include "spec_load.h"
#include "suggest.h"

/* ------------------------------------------------------------ typed access */

bool want_kind(struct loader *L, const struct ynode *n, const char *key, enum ykind k)
{
	static const char *const names[] = { "a scalar", "a list", "a mapping" };

	if (n->kind == k)
		return true;
	LOAD_ERR(L, n->mark, "type", "'%s' must be %s, not %s", key, names[k], names[n->kind]);
	return false;
}

const char *get_str(struct loader *L, const struct ynode *map, const char *key,
			   struct mark *where)
{
	const struct ynode *n = ymap_get(map, key);
	enum scalar_kind sk;

	if (!n || !want_kind(L, n, key, Y_SCALAR))
		return NULL;
	sk = scalar_kind(n);
	if (sk != SK_STR) {
		LOAD_ERR(L, n->mark, "type", "'%s' must be a string, not %s ('%s'); quote it", key,
		    kind_names[sk], n->str);
		return NULL;
	}
	if (where)
		*where = n->mark;
	return n->str;
}

/* An unsigned integer no larger than max.  Underscores, signs, octal and
 * sexagesimal forms that YAML 1.1 allows are refused: say it plainly. */
bool node_uint(struct loader *L, const struct ynode *n, const char *key, uint64_t max,
		      uint64_t *out)
{
	enum scalar_kind sk;
	uint64_t v;

	if (!want_kind(L, n, key, Y_SCALAR))
		return false;
	/* a plain decimal without a leading zero, as every size is: what the
	 * checks below let through, read at once */
	if (n->plain && n->len && n->len <= 9 && (n->str[0] != '0' || n->len == 1) &&
	    strspn(n->str, "0123456789") == n->len) {
		v = 0;
		for (size_t i = 0; i < n->len; i++)
			v = v * 10 + (uint64_t)(n->str[i] - '0');
		if (v <= max) {
			*out = v;
			return true;
		}
	}
	sk = scalar_kind(n);
	if (sk != SK_INT) {
		LOAD_ERR(L, n->mark, "type", "'%s' must be an integer, not %s ('%s')", key,
		    kind_names[sk], n->str);
		return false;
	}
	if (strchr(n->str, '_') || strchr(n->str, ':') || n->str[0] == '-' || n->str[0] == '+' ||
	    (n->str[0] == '0' && n->str[1] == 'b')) {
		LOAD_ERR(L, n->mark, "type", "'%s': write '%s' as a plain decimal or 0x hex number", key,
		    n->str);
		return false;
	}
	if (n->str[0] == '0' && n->str[1] >= '0' && n->str[1] <= '9') {
		LOAD_ERR(L, n->mark, "type", "'%s': '%s' has a leading zero, which YAML reads as octal; write it in decimal or 0x hex",
		    key, n->str);
		return false;
	}
	if (!parse_uint(n->str, &v) || v > max) {
		LOAD_ERR(L, n->mark, "range", "'%s': %s is out of range (at most %llu)", key, n->str,
		    (unsigned long long)max);
		return false;
	}
	*out = v;
	return true;
}

bool get_uint(struct loader *L, const struct ynode *map, const char *key, uint64_t max,
		     unsigned int *out)
{
	const struct ynode *n = ymap_get(map, key);
	uint64_t v;

	if (!n || !node_uint(L, n, key, max, &v))
		return false;
	*out = (unsigned int)v;
	return true;
}

bool get_bool(struct loader *L, const struct ynode *map, const char *key, bool *out)
{
	const struct ynode *n = ymap_get(map, key);

	if (!n || !want_kind(L, n, key, Y_SCALAR))
		return false;
	if (n->plain && (!strcmp(n->str, "true") || !strcmp(n->str, "false"))) {
		*out = n->str[0] == 't';
		return true;
	}
	LOAD_ERR(L, n->mark, "type", "'%s' must be true or false, not '%s'", key, n->str);
	return false;
}

/* A list of strings; an absent key is an empty list. */
const char **get_strlist(struct loader *L, const struct ynode *map, const char *key,
				size_t *count, const struct ynode **node)
{
	const struct ynode *n = ymap_get(map, key);
	const char **v;
	size_t k = 0;

	*count = 0;
	if (node)
		*node = n;
	if (!n)
		return NULL;
	if (!want_kind(L, n, key, Y_SEQ))
		return NULL;
	v = arena_alloc(L->a, (n->n + 1) * sizeof(*v));
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *it = n->kids[i];

		if (it->kind != Y_SCALAR || scalar_kind(it) != SK_STR) {
			LOAD_ERR(L, it->mark, "type", "items of '%s' must be strings", key);
			continue;
		}
		v[k++] = it->str;
	}
	*count = k;
	return v;
}

/*
 * Unknown and missing keys of one mapping.  False when it is no mapping or
 * lacks a required key: the caller then skips the entry, so that no loader
 * ever reads a required key that is not there (each is reported here).
 */
bool check_keys(struct loader *L, const struct ynode *map, const char *what,
		const struct field *table, unsigned int form)
{
	bool complete = true;
	/* the keys a misspelling was taken for: their absence is that one error */
	const char *meant[8];
	size_t n_meant = 0;

	if (map->kind != Y_MAP) {
		LOAD_ERR(L, map->mark, "type", "%s must be a mapping", what);
		return false;
	}
	for (size_t i = 0; i < ymap_len(map); i++) {
		const struct ynode *k = ymap_key(map, i);
		const struct field *s = field_named(table, k->str);
		struct strbuf known = { 0 };
		struct suggest sg;

		if (s && field_in_form(s, form))
			continue;
		suggest_init(&sg, k->str);
		for (s = table; s->key; s++)
			if (field_in_form(s, form) && !ymap_get(map, s->key))
				suggest_try(&sg, s->key);
		if (sg.best) {
			LOAD_ERR(L, k->mark, "unknown-key", "unknown key '%s' in %s: did you mean '%s'?",
			    k->str, what, sg.best);
			if (n_meant < sizeof(meant) / sizeof(*meant))
				meant[n_meant++] = sg.best;
			continue;
		}
		for (s = table; s->key; s++)
			if (field_in_form(s, form))
				sb_printf(&known, "%s%s", known.len ? ", " : "", s->key);
		LOAD_ERR(L, k->mark, "unknown-key", "unknown key '%s' in %s (known: %s)", k->str, what,
		    known.buf);
		sb_release(&known);
	}
	for (const struct field *s = table; s->key; s++)
		if (s->required && field_in_form(s, form) && !ymap_get(map, s->key)) {
			bool taken = false;

			for (size_t m = 0; m < n_meant; m++)
				taken |= !strcmp(meant[m], s->key);
			if (!taken)
				LOAD_ERR(L, map->mark, "missing-key", "%s has no '%s'", what, s->key);
			complete = false;
		}
	return complete;
}

unsigned int get_accept(struct loader *L, const struct ynode *map, unsigned int allowed)
{
	const struct ynode *n;
	size_t count;
	const char **v = get_strlist(L, map, "accept", &count, &n);
	unsigned int mask = 0;

	for (size_t i = 0; i < count; i++) {
		unsigned int r;

		for (r = 0; r < ACCEPT_RULES; r++)
			if (!strcmp(v[i], accept_rule_names[r]))
				break;
		if (r == ACCEPT_RULES || !(1u << r & allowed))
			LOAD_ERR(L, n->kids[i]->mark, "unknown-key", "'%s' is not a warning this entry can accept",
			    v[i]);
		else
			mask |= 1u << r;
	}
	return mask;
}

/* The list under key in a file's top mapping; NULL (reported) if absent or not a list. */
const struct ynode *get_list(struct loader *L, const struct ynode *root, const char *key)
{
	const struct ynode *n = ymap_get(root, key);

	if (n && !want_kind(L, n, key, Y_SEQ))
		return NULL;
	return n;
}

bool get_magic(struct loader *L, const struct ynode *map, const char *key,
		      unsigned int *code, const char **text, struct mark *where)
{
	const struct ynode *n = ymap_get(map, key);
	uint64_t v;

	if (!n || !want_kind(L, n, key, Y_SCALAR))
		return false;
	*where = n->mark;
	if (scalar_kind(n) == SK_INT) {
		if (!node_uint(L, n, key, UINT32_MAX, &v))
			return false;
		*code = (unsigned int)v;
		*text = n->str;
		return true;
	}
	if (scalar_kind(n) == SK_STR && parse_char_literal(n->str, code)) {
		*text = n->str;
		return true;
	}
	LOAD_ERR(L, n->mark, "type", "'%s' must be a number (0x12) or a character in C quotes (\"'E'\"), not '%s'",
	    key, n->str);
	return false;
}
