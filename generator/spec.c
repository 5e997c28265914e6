// SPDX-License-Identifier: GPL-2.0
/*
 * Spec files into registry structures.  This stage checks what one file can
 * tell on its own: keys, types, the shape of every value.  Rules that need
 * the whole registry (ranges on every layout, references, overlaps, numbers)
 * are in check.c.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "yamltree.h"

struct loader {
	struct registry *reg;
	struct arena *a;
	struct diags *d;
	struct about about;	/* the header and command being loaded, for findings */
	/* growable arrays while loading */
	size_t cap_layouts, cap_abis, cap_rows, cap_headers;
	struct sizes_file {
		const char *abi_name;
		struct size_entry *sizes;
		size_t n;
		const char **absent;
		size_t n_absent;
		const char *file;
		struct mark mark;
	} *sizes;
	size_t n_sizes, cap_sizes;
};

#define ERR(L, m, rule, ...) \
	diag_add_about((L)->d, (L)->about, (m), SEV_ERROR, rule, false, __VA_ARGS__)

/* ------------------------------------------------------------ scalars */

enum scalar_kind { SK_STR, SK_INT, SK_FLOAT, SK_BOOL, SK_NULL };

static const char *const kind_names[] = { "a string", "an integer", "a float", "a boolean", "null" };

static bool all_of(const char *s, const char *set)
{
	return *s && strspn(s, set) == strlen(s);
}

/* How YAML 1.1 (PyYAML, and so the JSON Schema check) reads a plain scalar. */
static enum scalar_kind scalar_kind(const struct ynode *n)
{
	const char *s = n->str;
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };
	static const char *const bools[] = { "yes", "Yes", "YES", "no", "No", "NO",
		"true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON",
		"off", "Off", "OFF" };

	if (!n->plain)
		return SK_STR;
	for (size_t i = 0; i < sizeof(nulls) / sizeof(*nulls); i++)
		if (!strcmp(s, nulls[i]))
			return SK_NULL;
	for (size_t i = 0; i < sizeof(bools) / sizeof(*bools); i++)
		if (!strcmp(s, bools[i]))
			return SK_BOOL;
	if (*s == '-' || *s == '+')
		s++;
	if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && all_of(s + 2, "0123456789abcdefABCDEF_")) ||
	    (s[0] == '0' && s[1] == 'b' && all_of(s + 2, "01_")) ||
	    (s[0] >= '0' && s[0] <= '9' && all_of(s, "0123456789_:")))
		return SK_INT;
	if (!strcmp(s, ".inf") || !strcmp(s, ".Inf") || !strcmp(s, ".INF") ||
	    !strcmp(n->str, ".nan") || !strcmp(n->str, ".NaN") || !strcmp(n->str, ".NAN"))
		return SK_FLOAT;
	if (strchr(s, '.') && all_of(s, "0123456789_.eE+-") && strspn(s, "0123456789_.") > 0)
		return SK_FLOAT;
	return SK_STR;
}

bool parse_uint(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned int dgt;

		if (*s >= '0' && *s <= '9')
			dgt = (unsigned int)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			dgt = (unsigned int)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			dgt = (unsigned int)(*s - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - dgt) / (uint64_t)base)
			return false;
		v = v * (uint64_t)base + dgt;
	}
	*out = v;
	return true;
}

/* A C character literal as ioctl-number.rst writes codes: 'E', '\\' or '\''. */
static bool parse_char_literal(const char *s, unsigned int *out)
{
	size_t n = strlen(s);

	if (n == 3 && s[0] == '\'' && s[2] == '\'' && s[1] != '\\' && s[1] != '\'' &&
	    (unsigned char)s[1] >= 0x20 && (unsigned char)s[1] < 0x7f) {
		*out = (unsigned char)s[1];
		return true;
	}
	if (n == 4 && s[0] == '\'' && s[1] == '\\' && s[3] == '\'' && (s[2] == '\\' || s[2] == '\'')) {
		*out = (unsigned char)s[2];
		return true;
	}
	return false;
}

bool parse_magic(const char *s, unsigned int *out)
{
	uint64_t v;

	if (parse_char_literal(s, out))
		return true;
	if (!parse_uint(s, &v) || v > 0xff)
		return false;
	*out = (unsigned int)v;
	return true;
}

bool parse_dir(const char *s, enum ioc_dir *dir)
{
	for (int i = 0; i < 4; i++) {
		if (!strcmp(s, dir_names[i])) {
			*dir = (enum ioc_dir)i;
			return true;
		}
	}
	return false;
}

/* A scalar's text as written, whatever YAML reads it as; NULL for none. */
static const char *scalar_text(const struct ynode *n)
{
	return n && n->kind == Y_SCALAR ? n->str : NULL;
}

static bool is_identifier(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
		return false;
	return all_of(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
}

/* ------------------------------------------------------------ typed access */

static bool want_kind(struct loader *L, const struct ynode *n, const char *key, enum ykind k)
{
	static const char *const names[] = { "a scalar", "a list", "a mapping" };

	if (n->kind == k)
		return true;
	ERR(L, n->mark, "type", "'%s' must be %s, not %s", key, names[k], names[n->kind]);
	return false;
}

static const char *get_str(struct loader *L, const struct ynode *map, const char *key,
			   struct mark *where)
{
	const struct ynode *n = ymap_get(map, key);
	enum scalar_kind sk;

	if (!n || !want_kind(L, n, key, Y_SCALAR))
		return NULL;
	sk = scalar_kind(n);
	if (sk != SK_STR) {
		ERR(L, n->mark, "type", "'%s' must be a string, not %s ('%s'); quote it", key,
		    kind_names[sk], n->str);
		return NULL;
	}
	if (where)
		*where = n->mark;
	return n->str;
}

/* An unsigned integer no larger than max.  Underscores, signs, octal and
 * sexagesimal forms that YAML 1.1 allows are refused: say it plainly. */
static bool node_uint(struct loader *L, const struct ynode *n, const char *key, uint64_t max,
		      uint64_t *out)
{
	enum scalar_kind sk;
	uint64_t v;

	if (!want_kind(L, n, key, Y_SCALAR))
		return false;
	sk = scalar_kind(n);
	if (sk != SK_INT) {
		ERR(L, n->mark, "type", "'%s' must be an integer, not %s ('%s')", key,
		    kind_names[sk], n->str);
		return false;
	}
	if (strchr(n->str, '_') || strchr(n->str, ':') || n->str[0] == '-' || n->str[0] == '+' ||
	    (n->str[0] == '0' && n->str[1] == 'b')) {
		ERR(L, n->mark, "type", "'%s': write '%s' as a plain decimal or 0x hex number", key,
		    n->str);
		return false;
	}
	if (n->str[0] == '0' && n->str[1] >= '0' && n->str[1] <= '9') {
		ERR(L, n->mark, "type", "'%s': '%s' has a leading zero, which YAML reads as octal; write it in decimal or 0x hex",
		    key, n->str);
		return false;
	}
	if (!parse_uint(n->str, &v) || v > max) {
		ERR(L, n->mark, "range", "'%s': %s is out of range (at most %llu)", key, n->str,
		    (unsigned long long)max);
		return false;
	}
	*out = v;
	return true;
}

static bool get_uint(struct loader *L, const struct ynode *map, const char *key, uint64_t max,
		     unsigned int *out)
{
	const struct ynode *n = ymap_get(map, key);
	uint64_t v;

	if (!n || !node_uint(L, n, key, max, &v))
		return false;
	*out = (unsigned int)v;
	return true;
}

static bool get_bool(struct loader *L, const struct ynode *map, const char *key, bool *out)
{
	const struct ynode *n = ymap_get(map, key);

	if (!n || !want_kind(L, n, key, Y_SCALAR))
		return false;
	if (n->plain && (!strcmp(n->str, "true") || !strcmp(n->str, "false"))) {
		*out = n->str[0] == 't';
		return true;
	}
	ERR(L, n->mark, "type", "'%s' must be true or false, not '%s'", key, n->str);
	return false;
}

/* A list of strings; an absent key is an empty list. */
static const char **get_strlist(struct loader *L, const struct ynode *map, const char *key,
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
			ERR(L, it->mark, "type", "items of '%s' must be strings", key);
			continue;
		}
		v[k++] = it->str;
	}
	*count = k;
	return v;
}

struct keyspec {
	const char *key;
	bool required;
};

/* Unknown and missing keys of one mapping.  False when it is no mapping. */
static bool check_keys(struct loader *L, const struct ynode *map, const char *what,
		       const struct keyspec *ks)
{
	if (map->kind != Y_MAP) {
		ERR(L, map->mark, "type", "%s must be a mapping", what);
		return false;
	}
	for (size_t i = 0; i < ymap_len(map); i++) {
		const struct ynode *k = ymap_key(map, i);
		const struct keyspec *s;
		struct strbuf known = { 0 };

		for (s = ks; s->key; s++)
			if (!strcmp(s->key, k->str))
				break;
		if (s->key)
			continue;
		for (s = ks; s->key; s++)
			sb_printf(&known, "%s%s", s == ks ? "" : ", ", s->key);
		ERR(L, k->mark, "unknown-key", "unknown key '%s' in %s (known: %s)", k->str, what,
		    known.buf);
		sb_release(&known);
	}
	for (const struct keyspec *s = ks; s->key; s++)
		if (s->required && !ymap_get(map, s->key))
			ERR(L, map->mark, "missing-key", "%s has no '%s'", what, s->key);
	return true;
}

static unsigned int get_accept(struct loader *L, const struct ynode *map, unsigned int allowed)
{
	static const struct { const char *name; unsigned int bit; } rules[] = {
		{ "outside-range", ACCEPT_OUTSIDE_RANGE },
		{ "size-overflow", ACCEPT_SIZE_OVERFLOW },
		{ "unregistered-magic", ACCEPT_UNREGISTERED_MAGIC },
		{ "shared-number", ACCEPT_SHARED_NUMBER },
		{ "overlap", ACCEPT_OVERLAP },
	};
	const struct ynode *n;
	size_t count;
	const char **v = get_strlist(L, map, "accept", &count, &n);
	unsigned int mask = 0;

	for (size_t i = 0; i < count; i++) {
		size_t r;

		for (r = 0; r < sizeof(rules) / sizeof(*rules); r++)
			if (!strcmp(v[i], rules[r].name))
				break;
		if (r == sizeof(rules) / sizeof(*rules) || !(rules[r].bit & allowed))
			ERR(L, n->kids[i]->mark, "unknown-key", "'%s' is not a warning this entry can accept",
			    v[i]);
		else
			mask |= rules[r].bit;
	}
	return mask;
}

/* The list under key in a file's top mapping; NULL (reported) if absent or not a list. */
static const struct ynode *get_list(struct loader *L, const struct ynode *root, const char *key)
{
	const struct ynode *n = ymap_get(root, key);

	if (n && !want_kind(L, n, key, Y_SEQ))
		return NULL;
	return n;
}

/* ------------------------------------------------------------ layouts.yaml */

static void load_layouts(struct loader *L, const struct ynode *root)
{
	static const struct keyspec top[] = { { "doc", false }, { "layouts", true }, { 0 } };
	static const struct keyspec ks[] = {
		{ "name", true }, { "doc", true }, { "nr-bits", true }, { "type-bits", true },
		{ "size-bits", true }, { "dir-bits", true }, { "none", true }, { "read", true },
		{ "write", true }, { "arches", true }, { "headers", true },
		{ "self-contained", false }, { "xsize-bits", false }, { 0 } };
	struct registry *reg = L->reg;
	const struct ynode *list;

	if (!check_keys(L, root, "layouts.yaml", top))
		return;
	if (ymap_get(root, "doc"))
		get_str(L, root, "doc", NULL);
	list = get_list(L, root, "layouts");
	for (size_t i = 0; list && i < list->n; i++) {
		const struct ynode *m = list->kids[i];
		struct layout *l;
		bool ok = true;

		if (!check_keys(L, m, "a layout", ks))
			continue;
		grow(&reg->layouts, &L->cap_layouts, reg->n_layouts + 1, sizeof(*reg->layouts));
		l = &reg->layouts[reg->n_layouts];
		memset(l, 0, sizeof(*l));
		l->mark = m->mark;
		l->name = get_str(L, m, "name", NULL);
		l->doc = get_str(L, m, "doc", NULL);
		ok &= get_uint(L, m, "nr-bits", 31, &l->nr_bits);
		ok &= get_uint(L, m, "type-bits", 31, &l->type_bits);
		ok &= get_uint(L, m, "size-bits", 31, &l->size_bits);
		ok &= get_uint(L, m, "dir-bits", 31, &l->dir_bits);
		ok &= get_uint(L, m, "none", 7, &l->none);
		ok &= get_uint(L, m, "read", 7, &l->read);
		ok &= get_uint(L, m, "write", 7, &l->write);
		if (ymap_get(m, "xsize-bits"))
			ok &= get_uint(L, m, "xsize-bits", 31, &l->xsize_bits);
		if (ymap_get(m, "self-contained"))
			ok &= get_bool(L, m, "self-contained", &l->self_contained);
		l->arches = get_strlist(L, m, "arches", &l->n_arches, NULL);
		l->headers = get_strlist(L, m, "headers", &l->n_headers, NULL);
		if (!ok || !l->name)
			continue;
		if (l->nr_bits + l->type_bits + l->size_bits + l->dir_bits != 32) {
			ERR(L, m->mark, "range", "layout '%s': nr, type, size and dir bits add up to %u, not 32",
			    l->name, l->nr_bits + l->type_bits + l->size_bits + l->dir_bits);
			continue;
		}
		if (l->xsize_bits && l->xsize_bits != l->size_bits + 1) {
			ERR(L, ymap_get(m, "xsize-bits")->mark, "range",
			    "layout '%s': xsize-bits must be size-bits + 1 (the size reaches into the dir field)",
			    l->name);
			continue;
		}
		unsigned int dmax = (1u << l->dir_bits) - 1;

		if (l->none > dmax || l->read > dmax || l->write > dmax || !l->read || !l->write ||
		    l->read == l->write || (l->read & l->write) || (l->none & (l->read | l->write))) {
			ERR(L, m->mark, "range",
			    "layout '%s': none, read and write must be distinct bits of the %u-bit dir field",
			    l->name, l->dir_bits);
			continue;
		}
		reg->n_layouts++;
	}
}

/* ------------------------------------------------------------ abis.yaml */

static void load_abis(struct loader *L, const struct ynode *root)
{
	static const struct keyspec top[] = { { "doc", false }, { "abis", true }, { 0 } };
	static const struct keyspec ks[] = {
		{ "name", true }, { "doc", true }, { "layout", true }, { "arch", true },
		{ "cc", true }, { "cflags", true }, { 0 } };
	struct registry *reg = L->reg;
	const struct ynode *list;

	if (!check_keys(L, root, "abis.yaml", top))
		return;
	if (ymap_get(root, "doc"))
		get_str(L, root, "doc", NULL);
	list = get_list(L, root, "abis");
	for (size_t i = 0; list && i < list->n; i++) {
		const struct ynode *m = list->kids[i];
		struct abi *abi;

		if (!check_keys(L, m, "an ABI", ks))
			continue;
		grow(&reg->abis, &L->cap_abis, reg->n_abis + 1, sizeof(*reg->abis));
		abi = &reg->abis[reg->n_abis];
		memset(abi, 0, sizeof(*abi));
		abi->mark = m->mark;
		abi->name = get_str(L, m, "name", NULL);
		abi->doc = get_str(L, m, "doc", NULL);
		abi->layout_name = get_str(L, m, "layout", NULL);
		abi->arch = get_str(L, m, "arch", NULL);
		abi->cc = get_str(L, m, "cc", NULL);
		abi->cflags = get_strlist(L, m, "cflags", &abi->n_cflags, NULL);
		if (abi->name && abi->layout_name)
			reg->n_abis++;
	}
}

/* ------------------------------------------------------------ magic.yaml */

static bool parse_hex2(const char *s, size_t n, unsigned int *out)
{
	unsigned int v = 0;

	if (n < 1 || n > 2)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned int)(c - 'A' + 10);
		else
			return false;
	}
	*out = v;
	return true;
}

/* all, 80, 00-1F: sequence numbers in hex, as ioctl-number.rst writes them. */
static bool parse_seq(const char *s, unsigned int *first, unsigned int *last)
{
	const char *dash = strchr(s, '-');

	if (!strcmp(s, "all")) {
		*first = 0;
		*last = 0xff;
		return true;
	}
	if (!dash)
		return parse_hex2(s, strlen(s), first) && (*last = *first, true);
	return parse_hex2(s, (size_t)(dash - s), first) &&
	       parse_hex2(dash + 1, strlen(dash + 1), last) && *first <= *last;
}

static bool get_magic(struct loader *L, const struct ynode *map, const char *key,
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
	ERR(L, n->mark, "type", "'%s' must be a number (0x12) or a character in C quotes (\"'E'\"), not '%s'",
	    key, n->str);
	return false;
}

/* A cell of ioctl-number.rst as lines: absent (NULL) or at least one line. */
static const char **get_cell(struct loader *L, const struct ynode *m, const char *key, size_t *n)
{
	const struct ynode *node;
	const char **v = get_strlist(L, m, key, n, &node);

	if (v && !*n)
		ERR(L, node->mark, "type", "'%s' lists the cell's lines: at least one", key);
	return v;
}

static void load_magic(struct loader *L, const struct ynode *root)
{
	static const struct keyspec top[] = { { "doc", true }, { "magic-codes", true }, { 0 } };
	static const struct keyspec ks[] = {
		{ "code", true }, { "seq", true }, { "headers", true }, { "doc", true },
		{ "contact", false }, { "accept", false }, { "include-cell", false },
		{ "seq-cell", false }, { 0 } };
	struct registry *reg = L->reg;
	const struct ynode *list;

	if (!check_keys(L, root, "magic.yaml", top))
		return;
	get_str(L, root, "doc", NULL);
	list = get_list(L, root, "magic-codes");
	for (size_t i = 0; list && i < list->n; i++) {
		const struct ynode *m = list->kids[i];
		struct magic_row *r;
		struct mark seq_mark, code_mark;
		bool ok = true;

		if (!check_keys(L, m, "a magic-code row", ks))
			continue;
		grow(&reg->rows, &L->cap_rows, reg->n_rows + 1, sizeof(*reg->rows));
		r = &reg->rows[reg->n_rows];
		memset(r, 0, sizeof(*r));
		r->mark = m->mark;
		ok &= get_magic(L, m, "code", &r->code, &r->code_text, &code_mark);
		r->seq = get_str(L, m, "seq", &seq_mark);
		r->headers = get_strlist(L, m, "headers", &r->n_headers, NULL);
		r->doc = get_str(L, m, "doc", NULL);
		r->contact = ymap_get(m, "contact") ? get_str(L, m, "contact", NULL) : NULL;
		r->accept = get_accept(L, m, ACCEPT_OVERLAP);
		r->include_cell = get_cell(L, m, "include-cell", &r->n_include_cell);
		r->seq_cell = get_cell(L, m, "seq-cell", &r->n_seq_cell);
		if (r->seq && !parse_seq(r->seq, &r->first, &r->last)) {
			ERR(L, seq_mark, "type", "seq '%s' must be all, a hex number (80) or a hex range (00-1F)",
			    r->seq);
			ok = false;
		}
		if (ok && r->seq && r->doc)
			reg->n_rows++;
	}
}

/* ------------------------------------------------------------ headers/ *.yaml */

static bool is_sizeof(const char *s)
{
	while (*s == ' ' || *s == '(')
		s++;
	return !strncmp(s, "sizeof", 6) && (s[6] == '(' || s[6] == ' ');
}

static bool is_number(const char *s)
{
	uint64_t v;

	while (*s == ' ' || *s == '(')
		s++;
	return (*s >= '0' && *s <= '9') && (parse_uint(s, &v) || all_of(s, "0123456789xXabcdefABCDEFuUlL() *+-"));
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

	if (c->legacy) {
		if (strcmp(c->legacy->spell_as, "bad"))
			n = add_type(types, n, c->legacy->spell_as);
		if (!c->reserved)
			n = add_type(types, n, c->legacy->passes);
	}
	return n;
}

static void load_legacy(struct loader *L, struct command *c, const struct ynode *m)
{
	static const struct keyspec ks[] = {
		{ "written", true }, { "passes", true }, { "spell-as", true }, { "doc", true },
		{ "abi-break", false }, { 0 } };
	struct legacy *lg;

	if (!check_keys(L, m, "a legacy entry", ks))
		return;
	lg = arena_alloc(L->a, sizeof(*lg));
	lg->mark = m->mark;
	lg->written = get_str(L, m, "written", &lg->written_mark);
	lg->passes = get_str(L, m, "passes", NULL);
	lg->spell_as = get_str(L, m, "spell-as", &lg->spell_mark);
	lg->doc = get_str(L, m, "doc", NULL);
	if (ymap_get(m, "abi-break"))
		lg->abi_break = get_str(L, m, "abi-break", NULL);
	if (!lg->written || !lg->passes || !lg->spell_as || !lg->doc)
		return;
	if (!legacy_written_type(lg->written)) {
		ERR(L, lg->written_mark, "legacy-spelling",
		    "'written' must be what the header once passed: a sizeof(...) expression or a number, not '%s'",
		    lg->written);
		return;
	}
	if (strcmp(lg->spell_as, "bad") && (is_sizeof(lg->spell_as) || is_number(lg->spell_as))) {
		ERR(L, lg->spell_mark, "sizeof-argument",
		    "'spell-as' must be 'bad' or a C type, not '%s'", lg->spell_as);
		return;
	}
	c->legacy = lg;
}

static void load_command(struct loader *L, struct header *h, const struct ynode *m)
{
	static const struct keyspec ks[] = {
		{ "name", true }, { "dir", true }, { "magic", true }, { "nr", true }, { "doc", true },
		{ "type", false }, { "params", false }, { "nr-param", false }, { "nr-count", false },
		{ "size-param", false }, { "macro", false }, { "legacy", false }, { "reserved", false },
		{ "accept", false }, { 0 } };
	struct command *c = &h->commands[h->n_commands];
	const char *dir, *macro;
	struct mark dir_mark, mm, pm;
	const struct ynode *n;
	bool ok = true;

	if (!check_keys(L, m, "a command", ks))
		return;
	memset(c, 0, sizeof(*c));
	c->mark = m->mark;
	c->header = h;
	c->nr_count = 1;
	c->name = get_str(L, m, "name", NULL);
	c->doc = get_str(L, m, "doc", NULL);
	if (c->name && !is_identifier(c->name)) {
		ERR(L, ymap_get(m, "name")->mark, "type", "name '%s' is not a C identifier", c->name);
		ok = false;
	}
	dir = get_str(L, m, "dir", &dir_mark);
	if (dir && !parse_dir(dir, &c->dir)) {
		ERR(L, dir_mark, "type", "dir '%s' must be none, read, write or read-write", dir);
		ok = false;
	}
	ok &= get_magic(L, m, "magic", &c->magic, &c->magic_text, &c->magic_mark);
	if ((n = ymap_get(m, "nr"))) {
		uint64_t v;

		c->nr_mark = n->mark;
		if (node_uint(L, n, "nr", UINT32_MAX, &v)) {
			c->nr = (unsigned int)v;
			c->nr_text = n->str;
		} else {
			ok = false;
		}
	}
	if (ymap_get(m, "type")) {
		c->type = get_str(L, m, "type", &c->type_mark);
		if (c->type && (is_sizeof(c->type) || is_number(c->type))) {
			ERR(L, c->type_mark, "sizeof-argument",
			    "type '%s' is a size, not a type: the macros take the type itself; a number kept for ABI is a legacy entry",
			    c->type);
			ok = false;
		}
	}
	c->params = get_strlist(L, m, "params", &c->n_params, NULL);
	for (size_t i = 0; i < c->n_params; i++)
		if (!is_identifier(c->params[i]))
			ERR(L, ymap_get(m, "params")->mark, "type", "parameter '%s' is not a C identifier",
			    c->params[i]);
	if (ymap_get(m, "nr-param"))
		c->nr_param = get_str(L, m, "nr-param", &pm);
	if (ymap_get(m, "nr-count")) {
		if (!c->nr_param)
			ERR(L, ymap_get(m, "nr-count")->mark, "missing-key", "'nr-count' needs 'nr-param'");
		ok &= get_uint(L, m, "nr-count", 256, &c->nr_count);
		if (c->nr_count == 0) {
			ERR(L, ymap_get(m, "nr-count")->mark, "range", "'nr-count' must be at least 1");
			ok = false;
		}
	} else if (c->nr_param) {
		ERR(L, m->mark, "missing-key", "command '%s' has 'nr-param' but no 'nr-count'",
		    c->name ? c->name : "?");
		ok = false;
	}
	if (ymap_get(m, "size-param"))
		c->size_param = get_str(L, m, "size-param", &pm);
	for (size_t i = 0; i < c->n_params; i++) {
		const char *p = c->params[i];

		if (!(c->nr_param && !strcmp(p, c->nr_param)) &&
		    !(c->size_param && !strcmp(p, c->size_param)))
			ERR(L, ymap_get(m, "params")->mark, "reference",
			    "parameter '%s' is neither nr-param nor size-param", p);
	}
	for (int which = 0; which < 2; which++) {
		const char *p = which ? c->size_param : c->nr_param;
		size_t i;

		if (!p)
			continue;
		for (i = 0; i < c->n_params; i++)
			if (!strcmp(p, c->params[i]))
				break;
		if (i == c->n_params) {
			ERR(L, ymap_get(m, which ? "size-param" : "nr-param")->mark, "reference",
			    "'%s' is not one of the command's params", p);
			ok = false;
		}
	}
	if (ymap_get(m, "macro")) {
		macro = get_str(L, m, "macro", &mm);
		if (macro && strcmp(macro, "ioc")) {
			ERR(L, mm, "type", "macro '%s' is unknown (the only one is ioc, for _IOC(dir, type, nr, size))",
			    macro);
			ok = false;
		}
		c->ioc = macro && !strcmp(macro, "ioc");
	}
	if (c->size_param)
		c->ioc = true;
	if (ymap_get(m, "reserved"))
		get_bool(L, m, "reserved", &c->reserved);
	if ((n = ymap_get(m, "legacy")))
		load_legacy(L, c, n);
	c->accept = get_accept(L, m, ACCEPT_OUTSIDE_RANGE | ACCEPT_UNREGISTERED_MAGIC |
				  ACCEPT_SHARED_NUMBER | ACCEPT_SIZE_OVERFLOW);

	/* What the argument is: exactly one of type, size-param, legacy (or nothing for _IO). */
	if (c->legacy) {
		if (c->type) {
			ERR(L, c->type_mark, "legacy-spelling",
			    "a legacy command has no 'type': its argument is spelled by legacy.spell-as");
			ok = false;
		}
		if (c->dir == DIR_NONE || c->ioc) {
			ERR(L, c->legacy->mark, "legacy-spelling",
			    "a legacy entry needs dir read, write or read-write and no macro");
			ok = false;
		}
	} else if (c->size_param) {
		if (c->type) {
			ERR(L, c->type_mark, "type", "a command with a size-param has no 'type'");
			ok = false;
		}
	} else if (c->dir == DIR_NONE && !c->ioc) {
		if (c->type) {
			ERR(L, c->type_mark, "type",
			    "dir none encodes no size, so '%s' would be lost: drop the type, or use macro: ioc to keep a size",
			    c->type);
			ok = false;
		}
	} else if (!c->type && dir && !ymap_get(m, "legacy")) {	/* a broken legacy entry said enough */
		ERR(L, m->mark, "missing-key", "command '%s' has no 'type'", c->name ? c->name : "?");
		ok = false;
	}
	if (ok && c->name && c->doc && dir && c->nr_text)
		h->n_commands++;
}

static void load_header(struct loader *L, const struct ynode *root, const char *rel,
			const char *file)
{
	static const struct keyspec top[] = {
		{ "header", true }, { "doc", true }, { "arch", false }, { "includes", false },
		{ "header-test", false }, { "patch-prefix", false },
		{ "commands", true }, { 0 } };
	struct registry *reg = L->reg;
	struct header *h;
	const struct ynode *list;
	struct mark hm;
	char *expect;

	L->about = (struct about){ NULL, scalar_text(ymap_get(root, "header")) };
	if (!check_keys(L, root, "a header spec", top))
		return;
	grow(&reg->headers, &L->cap_headers, reg->n_headers + 1, sizeof(*reg->headers));
	h = &reg->headers[reg->n_headers];
	memset(h, 0, sizeof(*h));
	h->mark = root->mark;
	h->spec = file;
	h->path = get_str(L, root, "header", &hm);
	h->doc = get_str(L, root, "doc", NULL);
	h->includes = get_strlist(L, root, "includes", &h->n_includes, NULL);
	h->header_test = true;
	if (ymap_get(root, "header-test"))
		get_bool(L, root, "header-test", &h->header_test);
	if (ymap_get(root, "patch-prefix"))
		h->patch_prefix = get_str(L, root, "patch-prefix", NULL);
	if (!h->path || !h->doc)
		return;
	if (ymap_get(root, "arch") && !(h->arch = get_str(L, root, "arch", NULL)))
		return;
	/* headers/linux/fs.yaml describes linux/fs.h, headers/arch/powerpc/asm/ioctls.yaml
	 * powerpc's asm/ioctls.h: keep the two in step. */
	if (strlen(h->path) < 3 || strcmp(h->path + strlen(h->path) - 2, ".h")) {
		ERR(L, hm, "type", "header '%s' must be a path ending in .h", h->path);
		return;
	}
	expect = h->arch ? arena_printf(L->a, "headers/arch/%s/%.*s.yaml", h->arch,
					(int)(strlen(h->path) - 2), h->path) :
			   arena_printf(L->a, "headers/%.*s.yaml", (int)(strlen(h->path) - 2), h->path);
	if (strcmp(expect, rel)) {
		ERR(L, hm, "reference", "header '%s'%s%s belongs in %s/%s, not %s", h->path,
		    h->arch ? " of arch " : "", h->arch ? h->arch : "", reg->spec_dir, expect, rel);
		return;
	}
	list = get_list(L, root, "commands");
	if (list) {
		h->commands = arena_alloc(L->a, (list->n + 1) * sizeof(*h->commands));
		for (size_t i = 0; i < list->n; i++) {
			L->about.command = scalar_text(ymap_get(list->kids[i], "name"));
			load_command(L, h, list->kids[i]);
		}
		L->about.command = NULL;
	}
	reg->n_headers++;
}

/* ------------------------------------------------------------ sizes/ *.yaml */

static int str_cmp(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

static int size_cmp(const void *pa, const void *pb)
{
	return strcmp(((const struct size_entry *)pa)->type, ((const struct size_entry *)pb)->type);
}

static void load_sizes(struct loader *L, const struct ynode *root, const char *rel, const char *file)
{
	static const struct keyspec top[] = {
		{ "abi", true }, { "doc", true }, { "sizes", true }, { "absent", false }, { 0 } };
	struct sizes_file *sf;
	const struct ynode *map;
	struct mark am;
	const char *abi;
	char *expect;

	if (!check_keys(L, root, "a sizes file", top))
		return;
	abi = get_str(L, root, "abi", &am);
	get_str(L, root, "doc", NULL);
	map = ymap_get(root, "sizes");
	if (!abi || !map || !want_kind(L, map, "sizes", Y_MAP))
		return;
	expect = arena_printf(L->a, "sizes/%s.yaml", abi);
	if (strcmp(expect, rel)) {
		ERR(L, am, "reference", "the sizes of ABI '%s' belong in %s/%s", abi, L->reg->spec_dir,
		    expect);
		return;
	}
	grow(&L->sizes, &L->cap_sizes, L->n_sizes + 1, sizeof(*L->sizes));
	sf = &L->sizes[L->n_sizes++];
	sf->abi_name = abi;
	sf->file = file;
	sf->mark = am;
	sf->sizes = arena_alloc(L->a, (ymap_len(map) + 1) * sizeof(*sf->sizes));
	sf->n = 0;
	for (size_t i = 0; i < ymap_len(map); i++) {
		uint64_t v;

		if (!node_uint(L, ymap_value(map, i), ymap_key(map, i)->str, UINT32_MAX, &v))
			continue;
		sf->sizes[sf->n++] = (struct size_entry){ ymap_key(map, i)->str, (uint32_t)v,
							  ymap_key(map, i)->mark };
	}
	qsort(sf->sizes, sf->n, sizeof(*sf->sizes), size_cmp);
	sf->absent = get_strlist(L, root, "absent", &sf->n_absent, NULL);
	if (sf->n_absent)
		qsort(sf->absent, sf->n_absent, sizeof(*sf->absent), str_cmp);
}

/* ------------------------------------------------------------ files */

static void load_one(struct loader *L, const char *rel, const char *data, size_t len)
{
	struct registry *reg = L->reg;
	const char *file = arena_printf(L->a, "%s/%s", reg->spec_dir, rel);
	static const char spdx[] = "# SPDX-License-Identifier:";
	struct ynode *root;

	if (len < sizeof(spdx) - 1 || memcmp(data, spdx, sizeof(spdx) - 1))
		ERR(L, ((struct mark){ file, 1, 1 }), "spdx",
		    "a spec file starts with a '# SPDX-License-Identifier: ...' line");
	root = ytree_parse(L->a, L->d, file, data, len);
	if (!root)
		return;
	if (root->kind != Y_MAP) {
		ERR(L, root->mark, "type", "a spec file is a YAML mapping");
		return;
	}
	if (!strcmp(rel, "layouts.yaml"))
		load_layouts(L, root);
	else if (!strcmp(rel, "abis.yaml"))
		load_abis(L, root);
	else if (!strcmp(rel, "magic.yaml"))
		load_magic(L, root);
	else if (!strncmp(rel, "headers/", 8))
		load_header(L, root, rel, file);
	else if (!strncmp(rel, "sizes/", 6) && !strchr(rel + 6, '/'))
		load_sizes(L, root, rel, file);
	else
		ERR(L, ((struct mark){ file, 1, 1 }), "reference",
		    "unknown spec file: expected layouts.yaml, abis.yaml, magic.yaml, headers/**/*.yaml or sizes/<abi>.yaml");
	L->about = (struct about){ NULL, NULL };
}

/* Attach each sizes file to its ABI; check that every ABI has one. */
static void link_sizes(struct loader *L)
{
	struct registry *reg = L->reg;

	for (size_t i = 0; i < L->n_sizes; i++) {
		struct sizes_file *sf = &L->sizes[i];
		struct abi *abi = NULL;

		for (size_t j = 0; j < reg->n_abis; j++)
			if (!strcmp(reg->abis[j].name, sf->abi_name))
				abi = &reg->abis[j];
		if (!abi) {
			ERR(L, sf->mark, "reference", "sizes for an unknown ABI '%s'", sf->abi_name);
			continue;
		}
		abi->sizes = sf->sizes;
		abi->n_sizes = sf->n;
		abi->absent = sf->absent;
		abi->n_absent = sf->n_absent;
		abi->sizes_file = sf->file;
	}
	free(L->sizes);
}

static void loader_init(struct loader *L, struct registry *reg, const char *dir)
{
	size_t n = strlen(dir);

	memset(reg, 0, sizeof(*reg));
	while (n > 1 && dir[n - 1] == '/')
		n--;
	reg->spec_dir = arena_strndup(&reg->arena, dir, n);
	memset(L, 0, sizeof(*L));
	L->reg = reg;
	L->a = &reg->arena;
	L->d = &reg->diags;
}

static void loader_finish(struct loader *L)
{
	struct registry *reg = L->reg;
	static const char *const required[] = { "layouts.yaml", "abis.yaml", "magic.yaml" };
	bool have[3] = { reg->n_layouts > 0, reg->n_abis > 0, reg->n_rows > 0 };

	/* reg->headers moved as it grew: point every command at its header now */
	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_commands; i++)
			reg->headers[h].commands[i].header = &reg->headers[h];
	/* Only when nothing else is wrong: a broken file explains a missing table. */
	if (L->d->errors == 0)
		for (int i = 0; i < 3; i++)
			if (!have[i])
				ERR(L, ((struct mark){ arena_printf(L->a, "%s/%s", reg->spec_dir, required[i]), 1, 1 }),
				    "missing-key", "the registry has no %s entries (is %s a spec directory?)",
				    required[i], reg->spec_dir);
	link_sizes(L);
}

void registry_load_buffers(struct registry *reg, const char *dir, size_t n,
			   const char *const *names, const char *const *data, const size_t *lens)
{
	struct loader L;

	loader_init(&L, reg, dir);
	for (size_t i = 0; i < n; i++)
		load_one(&L, names[i], data[i], lens[i]);
	loader_finish(&L);
}

struct pathlist {
	char **v;
	size_t n, cap;
};

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.yaml below dir (relative paths), skipping dot files; sorted, so the
 * order of files on disk never shows in the output. */
static void walk(struct loader *L, const char *root, const char *rel, struct pathlist *out)
{
	char *path = rel[0] ? arena_printf(L->a, "%s/%s", root, rel) : arena_strdup(L->a, root);
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d) {
		ERR(L, ((struct mark){ path, 1, 1 }), "syntax", "cannot read directory: %s",
		    strerror(errno));
		return;
	}
	while ((e = readdir(d))) {
		char *sub, *full;
		struct stat st;
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		sub = rel[0] ? arena_printf(L->a, "%s/%s", rel, e->d_name) : arena_strdup(L->a, e->d_name);
		full = arena_printf(L->a, "%s/%s", root, sub);
		if (stat(full, &st)) {
			/* a dangling link or a loop: never drop a spec file silently */
			if (len > 5 && !strcmp(e->d_name + len - 5, ".yaml"))
				ERR(L, ((struct mark){ full, 1, 1 }), "syntax", "cannot read: %s",
				    strerror(errno));
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (strcmp(sub, "schema"))
				walk(L, root, sub, out);
		} else if (len > 5 && !strcmp(e->d_name + len - 5, ".yaml")) {
			/* a FIFO or a device would block read_file() or never end */
			if (!S_ISREG(st.st_mode)) {
				ERR(L, ((struct mark){ full, 1, 1 }), "syntax",
				    "cannot read: not a regular file");
				continue;
			}
			grow(&out->v, &out->cap, out->n + 1, sizeof(*out->v));
			out->v[out->n++] = sub;
		}
	}
	closedir(d);
}

void registry_load(struct registry *reg, const char *dir)
{
	struct loader L;
	struct pathlist files = { 0 };
	struct stat st;

	loader_init(&L, reg, dir);
	if (stat(reg->spec_dir, &st) || !S_ISDIR(st.st_mode)) {
		bool exists = errno != ENOENT && access(reg->spec_dir, F_OK) == 0;

		ERR((&L), ((struct mark){ reg->spec_dir, 1, 1 }), "syntax", "not a spec directory: %s",
		    exists ? "not a directory" : strerror(ENOENT));
		return;
	}
	walk(&L, reg->spec_dir, "", &files);
	if (files.n)
		qsort(files.v, files.n, sizeof(*files.v), path_cmp);
	for (size_t i = 0; i < files.n; i++) {
		char *path = arena_printf(L.a, "%s/%s", reg->spec_dir, files.v[i]);
		size_t len;
		char *data = read_file(path, &len);

		if (!data) {
			ERR((&L), ((struct mark){ path, 1, 1 }), "syntax", "cannot read: %s",
			    strerror(errno));
			continue;
		}
		load_one(&L, files.v[i], data, len);
		free(data);
	}
	free(files.v);
	loader_finish(&L);
}
