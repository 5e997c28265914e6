// SPDX-License-Identifier: GPL-2.0
/* The tables: layouts.yaml, abis.yaml, magic.yaml and sizes/<abi>.yaml. */
#include <stdlib.h>
#include <string.h>

#include "spec_load.h"

/* The list of a table file (layouts.yaml, abis.yaml, magic.yaml), its
 * keys and doc checked; NULL when there is none to read. */
static const struct ynode *table_list(struct loader *L, const struct ynode *root,
				      const char *file, const struct field *top,
				      const char *key)
{
	if (!check_keys(L, root, file, top, FORM_ANY))
		return NULL;
	get_str(L, root, "doc", NULL);
	return get_list(L, root, key);
}

/* ------------------------------------------------------------ versions */

/* A kernel version as the registry writes it: numbers joined by dots, at
 * least two of them, no leading zeros ("6.1", "6.12", "6.12.3"). */
static bool version_text_ok(const char *s)
{
	size_t parts = 0;

	while (*s) {
		size_t n = strspn(s, "0123456789");

		if (!n || (n > 1 && s[0] == '0') || n > 9)
			return false;
		s += n;
		parts++;
		if (*s == '.' && s[1])
			s++;
		else if (*s)
			return false;
	}
	return parts >= 2;
}

/*
 * A version under key: a YAML string such as "6.12".  Unquoted, 6.1 and
 * 6.10 are one float to YAML (and to the JSON Schema check), and 6 is an
 * integer: refuse both with the reason, at the value.
 */
static const char *node_version(struct loader *L, const struct ynode *n, const char *key,
				struct mark *where)
{
	enum scalar_kind sk;

	if (!want_kind(L, n, key, Y_SCALAR))
		return NULL;
	sk = scalar_kind(n);
	if (sk == SK_FLOAT || sk == SK_INT) {
		LOAD_ERR(L, n->mark, "type",
		    "'%s' must be a version in quotes (\"%s\"), not %s: unquoted, YAML reads it as a number (6.10 as 6.1)",
		    key, n->str, kind_names[sk]);
		return NULL;
	}
	if (sk != SK_STR || !version_text_ok(n->str)) {
		LOAD_ERR(L, n->mark, "type", "'%s' must be a kernel version such as \"6.12\", not '%s'", key,
		    n->str);
		return NULL;
	}
	*where = n->mark;
	return n->str;
}

static const char *get_version(struct loader *L, const struct ynode *map, const char *key,
			       struct mark *where)
{
	const struct ynode *n = ymap_get(map, key);

	return n ? node_version(L, n, key, where) : NULL;
}

/* since: and removed:, as written; which versions they are is a registry
 * rule (check_lifetimes.c: versions.yaml may come after the file). */
bool get_lifetime(struct loader *L, const struct ynode *map, struct lifetime *life)
{
	bool ok = true;

	memset(life, 0, sizeof(*life));
	if (ymap_get(map, "since"))
		ok &= (life->since = get_version(L, map, "since", &life->since_mark)) != NULL;
	if (ymap_get(map, "removed"))
		ok &= (life->removed = get_version(L, map, "removed", &life->removed_mark)) != NULL;
	return ok;
}

/* versions.yaml: the kernel versions the registry knows, oldest first. */
void load_versions(struct loader *L, const struct ynode *root)
{
	struct registry *reg = L->reg;
	const struct ynode *list;

	list = table_list(L, root, "versions.yaml", versions_top, "versions");
	for (size_t i = 0; list && i < list->n; i++) {
		const struct ynode *m = list->kids[i];
		struct kversion *v;
		struct mark nm;
		const char *name;

		if (!check_keys(L, m, "a version", version_fields, FORM_ANY))
			continue;
		name = get_version(L, m, "name", &nm);
		if (!name || !get_str(L, m, "doc", NULL))
			continue;
		if (reg->n_versions == MAX_VERSIONS) {
			LOAD_ERR(L, nm, "range", "the registry knows at most %d versions", MAX_VERSIONS);
			return;
		}
		v = arena_slot(L->a, &reg->versions, &L->cap_versions, reg->n_versions,
			       sizeof(*reg->versions));
		v->name = name;
		v->doc = get_str(L, m, "doc", NULL);
		v->mark = m->mark;
		reg->n_versions++;
	}
}

/* ------------------------------------------------------------ layouts.yaml */

void load_layouts(struct loader *L, const struct ynode *root)
{
	struct registry *reg = L->reg;
	const struct ynode *list;

	list = table_list(L, root, "layouts.yaml", layouts_top, "layouts");
	for (size_t i = 0; list && i < list->n; i++) {
		const struct ynode *m = list->kids[i];
		struct layout *l;
		bool ok = true;

		if (!check_keys(L, m, "a layout", layout_fields, FORM_ANY))
			continue;
		l = arena_slot(L->a, &reg->layouts, &L->cap_layouts, reg->n_layouts,
			       sizeof(*reg->layouts));
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
			LOAD_ERR(L, m->mark, "range", "layout '%s': nr, type, size and dir bits add up to %u, not 32",
			    l->name, l->nr_bits + l->type_bits + l->size_bits + l->dir_bits);
			continue;
		}
		if (l->xsize_bits && l->xsize_bits != l->size_bits + 1) {
			LOAD_ERR(L, ymap_get(m, "xsize-bits")->mark, "range",
			    "layout '%s': xsize-bits must be size-bits + 1 (the size reaches into the dir field)",
			    l->name);
			continue;
		}
		unsigned int dmax = (1u << l->dir_bits) - 1;

		if (l->none > dmax || l->read > dmax || l->write > dmax || !l->read || !l->write ||
		    l->read == l->write || (l->read & l->write) || (l->none & (l->read | l->write))) {
			LOAD_ERR(L, m->mark, "range",
			    "layout '%s': none, read and write must be distinct bits of the %u-bit dir field",
			    l->name, l->dir_bits);
			continue;
		}
		reg->n_layouts++;
	}
}

/* ------------------------------------------------------------ abis.yaml */

void load_abis(struct loader *L, const struct ynode *root)
{
	struct registry *reg = L->reg;
	const struct ynode *list;

	list = table_list(L, root, "abis.yaml", abis_top, "abis");
	for (size_t i = 0; list && i < list->n; i++) {
		const struct ynode *m = list->kids[i];
		struct abi *abi;

		if (!check_keys(L, m, "an ABI", abi_fields, FORM_ANY))
			continue;
		abi = arena_slot(L->a, &reg->abis, &L->cap_abis, reg->n_abis, sizeof(*reg->abis));
		abi->mark = m->mark;
		abi->name = get_str(L, m, "name", NULL);
		abi->doc = get_str(L, m, "doc", NULL);
		abi->layout_name = get_str(L, m, "layout", NULL);
		abi->arch = get_str(L, m, "arch", NULL);
		abi->cc = get_str(L, m, "cc", NULL);
		abi->cflags = get_strlist(L, m, "cflags", &abi->n_cflags, NULL);
		abi->variant_of_name = get_str(L, m, "variant-of", &abi->variant_mark);
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


/*
 * doc-since: {"6.12": TEXT, ...}, the row's comment from each of those
 * versions on.  Each key a version in quotes (node_version()), each value
 * a string; at least one.  Which versions they are, their order and
 * whether each changes the text are registry rules (check_lifetimes.c).
 */
static void get_doc_since(struct loader *L, const struct ynode *m, struct magic_row *r)
{
	const struct ynode *map = ymap_get(m, "doc-since");

	r->doc_since = NULL;
	r->n_doc_since = 0;
	if (!map || !want_kind(L, map, "doc-since", Y_MAP))
		return;
	if (!ymap_len(map)) {
		LOAD_ERR(L, map->mark, "type",
		    "'doc-since' maps each later version whose comment differs to its text: at least one");
		return;
	}
	r->doc_since = arena_alloc(L->a, ymap_len(map) * sizeof(*r->doc_since));
	for (size_t i = 0; i < ymap_len(map); i++) {
		const struct ynode *k = ymap_key(map, i), *v = ymap_value(map, i);
		struct doc_since *d = &r->doc_since[r->n_doc_since];
		enum scalar_kind sk;

		if (!(d->version = node_version(L, k, "doc-since", &d->mark)))
			continue;
		if (!want_kind(L, v, d->version, Y_SCALAR))
			continue;
		if ((sk = scalar_kind(v)) != SK_STR) {
			LOAD_ERR(L, v->mark, "type", "'doc-since' \"%s\" must be a string, not %s ('%s'); quote it",
			    d->version, kind_names[sk], v->str);
			continue;
		}
		d->doc = v->str;
		r->n_doc_since++;
	}
}

/* A cell of ioctl-number.rst as lines: absent (NULL) or at least one line. */
static const char **get_cell(struct loader *L, const struct ynode *m, const char *key, size_t *n)
{
	const struct ynode *node;
	const char **v = get_strlist(L, m, key, n, &node);

	if (v && !*n)
		LOAD_ERR(L, node->mark, "type", "'%s' lists the cell's lines: at least one", key);
	return v;
}

void load_magic(struct loader *L, const struct ynode *root)
{
	struct registry *reg = L->reg;
	const struct ynode *list;

	list = table_list(L, root, "magic.yaml", magic_top, "magic-codes");
	for (size_t i = 0; list && i < list->n; i++) {
		const struct ynode *m = list->kids[i];
		struct magic_row *r;
		struct mark seq_mark, code_mark;
		bool ok = true;

		if (!check_keys(L, m, "a magic-code row", magic_fields, FORM_ANY))
			continue;
		r = arena_slot(L->a, &reg->rows, &L->cap_rows, reg->n_rows, sizeof(*reg->rows));
		r->mark = m->mark;
		ok &= get_magic(L, m, "code", &r->code, &r->code_text, &code_mark);
		r->seq = get_str(L, m, "seq", &seq_mark);
		r->headers = get_strlist(L, m, "headers", &r->n_headers, NULL);
		r->doc = get_str(L, m, "doc", NULL);
		r->contact = ymap_get(m, "contact") ? get_str(L, m, "contact", NULL) : NULL;
		get_doc_since(L, m, r);
		r->accept = get_accept(L, m, ACCEPT_OVERLAP);
		r->include_cell = get_cell(L, m, "include-cell", &r->n_include_cell);
		r->seq_cell = get_cell(L, m, "seq-cell", &r->n_seq_cell);
		get_lifetime(L, m, &r->life);	/* a bad one is reported and left out */
		if (r->seq && !parse_seq(r->seq, &r->first, &r->last)) {
			LOAD_ERR(L, seq_mark, "type", "seq '%s' must be all, a hex number (80) or a hex range (00-1F)",
			    r->seq);
			ok = false;
		}
		if (ok && r->seq && r->doc)
			reg->n_rows++;
	}
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

/* A map of C type to size (sizes:, kernel-sizes:), sorted by type. */
static struct size_entry *load_size_map(struct loader *L, const struct ynode *map, size_t *n)
{
	struct size_entry *v = arena_alloc(L->a, (ymap_len(map) + 1) * sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < ymap_len(map); i++) {
		uint64_t size;

		if (!node_uint(L, ymap_value(map, i), ymap_key(map, i)->str, UINT32_MAX, &size))
			continue;
		v[(*n)++] = (struct size_entry){ ymap_key(map, i)->str, (uint32_t)size,
						 ymap_key(map, i)->mark };
	}
	/* make sizes writes them sorted: sort only what is not */
	for (size_t i = 1; i < *n; i++)
		if (size_cmp(&v[i - 1], &v[i]) > 0) {
			qsort(v, *n, sizeof(*v), size_cmp);
			break;
		}
	return v;
}

void load_sizes(struct loader *L, const struct ynode *root)
{
	const char *rel = L->rel;
	struct sizes_file *sf;
	const struct ynode *map;
	struct mark am;
	const char *abi, *slash, *version;
	char *expect;

	if (!check_keys(L, root, "a sizes file", sizes_top, FORM_ANY))
		return;
	abi = get_str(L, root, "abi", &am);
	get_str(L, root, "doc", NULL);
	map = ymap_get(root, "sizes");
	if (!abi || !map || !want_kind(L, map, "sizes", Y_MAP))
		return;
	/* sizes/<abi>.yaml, or sizes/<V>/<abi>.yaml: a later version's */
	slash = strchr(rel + 6, '/');
	version = slash ? arena_strndup(L->a, rel + 6, (size_t)(slash - (rel + 6))) : NULL;
	expect = version ? arena_printf(L->a, "sizes/%s/%s.yaml", version, abi) :
		 arena_printf(L->a, "sizes/%s.yaml", abi);
	if (strcmp(expect, rel)) {
		/* the file's own directory: a spec's, or one registry_load_sizes_files() reads */
		const char *dir_end = strrchr(L->file, '/');

		LOAD_ERR(L, am, "reference", "the sizes of ABI '%s' belong in %.*s/%s.yaml", abi,
		    dir_end ? (int)(dir_end - L->file) : 1, dir_end ? L->file : ".", abi);
		return;
	}
	grow(&L->sizes, &L->cap_sizes, L->n_sizes + 1, sizeof(*L->sizes));
	sf = &L->sizes[L->n_sizes++];
	sf->abi_name = abi;
	sf->version = version;
	sf->file = L->file;
	sf->mark = am;
	sf->sizes = load_size_map(L, map, &sf->n);
	map = ymap_get(root, "kernel-sizes");
	sf->ksizes = NULL;
	sf->n_ksizes = 0;
	if (map && want_kind(L, map, "kernel-sizes", Y_MAP))
		sf->ksizes = load_size_map(L, map, &sf->n_ksizes);
	sf->absent = get_strlist(L, root, "absent", &sf->n_absent, NULL);
	if (sf->n_absent)
		qsort(sf->absent, sf->n_absent, sizeof(*sf->absent), str_cmp);
	sf->kcontext = get_strlist(L, root, "kernel-context", &sf->n_kcontext, NULL);
	if (sf->n_kcontext)
		qsort(sf->kcontext, sf->n_kcontext, sizeof(*sf->kcontext), str_cmp);
}
