// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "yamltree.h"

struct builder {
	struct arena *a, *texts;
	struct diags *d;
	const char *file;
	const char *data;
	size_t len;
	yaml_parser_t parser;
	bool failed;
};

/* libyaml marks are 0-based; ours are 1-based. */
static struct mark mark_of(const struct builder *b, yaml_mark_t m)
{
	return (struct mark){ b->file, (unsigned int)m.line + 1, (unsigned int)m.column + 1 };
}

/* Reader errors carry only a byte offset: count lines and columns ourselves. */
static struct mark mark_at_offset(const struct builder *b, size_t off)
{
	struct mark m = { b->file, 1, 1 };

	for (size_t i = 0; i < off && i < b->len; i++) {
		if (b->data[i] == '\n') {
			m.line++;
			m.col = 1;
		} else if (((unsigned char)b->data[i] & 0xc0) != 0x80) {
			m.col++;
		}
	}
	return m;
}

static void parser_error(struct builder *b)
{
	yaml_parser_t *p = &b->parser;
	struct mark m;
	const char *problem = p->problem ? p->problem : "malformed YAML";

	if (p->error == YAML_READER_ERROR) {
		size_t off = p->problem_offset;

		/* For a bad trailing byte the reader names that byte: point
		 * at the lead byte of the broken sequence instead. */
		if (strstr(problem, "trailing") || strstr(problem, "incomplete"))
			for (int k = 0; k < 3 && off > 0 && off <= b->len &&
			     (unsigned char)b->data[off - 1] >= 0x80; k++)
				if ((unsigned char)b->data[--off] >= 0xc0)
					break;
		m = mark_at_offset(b, off);
	} else {
		m = mark_of(b, p->problem_mark);
	}
	if (p->error == YAML_READER_ERROR && strstr(problem, "UTF-8"))
		diag_add(b->d, m, SEV_ERROR, "syntax", false, "not valid UTF-8: %s", problem);
	else if (p->context)
		diag_add(b->d, m, SEV_ERROR, "syntax", false, "%s %s", problem, p->context);
	else
		diag_add(b->d, m, SEV_ERROR, "syntax", false, "%s", problem);
	b->failed = true;
}

static bool next_event(struct builder *b, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&b->parser, ev)) {
		parser_error(b);
		return false;
	}
	return true;
}

static struct ynode *new_node(struct builder *b, enum ykind kind, yaml_mark_t m)
{
	struct ynode *n = arena_alloc(b->a, sizeof(*n));

	n->kind = kind;
	n->mark = mark_of(b, m);
	return n;
}

static bool refuse_extras(struct builder *b, yaml_event_t *ev, const yaml_char_t *anchor,
			  const yaml_char_t *tag, int implicit)
{
	if (anchor) {
		diag_add(b->d, mark_of(b, ev->start_mark), SEV_ERROR, "syntax", false,
			 "anchors and aliases are not allowed in the registry");
		return false;
	}
	if (tag && !implicit) {
		diag_add(b->d, mark_of(b, ev->start_mark), SEV_ERROR, "syntax", false,
			 "tags are not allowed in the registry ('%s')", (const char *)tag);
		return false;
	}
	return true;
}

/* A node's children while it is parsed: most nodes have a few, kept on the
 * stack; the heap only for long lists and maps. */
struct kids {
	struct ynode **v;
	size_t n, cap;
	struct ynode *few[16];
};

static void kids_init(struct kids *k)
{
	k->v = k->few;
	k->n = 0;
	k->cap = sizeof(k->few) / sizeof(*k->few);
}

static void push(struct kids *k, struct ynode *n)
{
	if (k->n == k->cap) {
		struct ynode **v = k->v == k->few ? NULL : k->v;
		size_t cap = k->cap;

		grow(&v, &cap, k->n + 1, sizeof(*v));
		if (k->v == k->few)
			memcpy(v, k->few, sizeof(k->few));
		k->v = v;
		k->cap = cap;
	}
	k->v[k->n++] = n;
}

static void kids_release(struct kids *k)
{
	if (k->v != k->few)
		free(k->v);
}

static void finish(struct builder *b, struct ynode *node, struct kids *k)
{
	node->n = k->n;
	node->kids = arena_alloc(b->a, k->n * sizeof(*k->v) + 1);
	if (k->n)
		memcpy(node->kids, k->v, k->n * sizeof(*k->v));
	kids_release(k);
}

static int key_cmp(const void *pa, const void *pb)
{
	const struct ynode *a = *(const struct ynode *const *)pa;
	const struct ynode *b = *(const struct ynode *const *)pb;
	int c = strcmp(a->str, b->str);

	if (c)
		return c;
	if (a->mark.line != b->mark.line)
		return a->mark.line < b->mark.line ? -1 : 1;
	return a->mark.col < b->mark.col ? -1 : a->mark.col > b->mark.col;
}

static void report_duplicate(struct builder *b, const struct ynode *key, const struct ynode *first)
{
	diag_add(b->d, key->mark, SEV_ERROR, "duplicate-key", false,
		 "duplicate key '%s' (first at line %u)", key->str, first->mark.line);
}

/* Sorting keeps this linear-logarithmic for the large maps of sizes files;
 * the small maps of every entry are cheaper compared pair by pair. */
static void report_duplicate_keys(struct builder *b, const struct ynode *map)
{
	size_t n = ymap_len(map);
	const struct ynode **keys;

	if (n < 2)
		return;
	if (n <= 16) {
		for (size_t i = 1; i < n; i++)
			for (size_t f = 0; f < i; f++)
				if (!strcmp(ymap_key(map, i)->str, ymap_key(map, f)->str)) {
					report_duplicate(b, ymap_key(map, i), ymap_key(map, f));
					break;
				}
		return;
	}
	/* Strictly ascending keys repeat none: the sizes files, which make
	 * sizes writes sorted, need no sort. */
	for (size_t i = 1; strcmp(ymap_key(map, i - 1)->str, ymap_key(map, i)->str) < 0; i++)
		if (i == n - 1)
			return;
	keys = xrealloc(NULL, n * sizeof(*keys));
	for (size_t i = 0; i < n; i++)
		keys[i] = ymap_key(map, i);
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (size_t i = 1, first = 0; i < n; i++) {
		if (strcmp(keys[i]->str, keys[first]->str)) {
			first = i;
			continue;
		}
		report_duplicate(b, keys[i], keys[first]);
	}
	free(keys);
}

static struct ynode *parse_node(struct builder *b, yaml_event_t *ev, unsigned int depth);

/* The next child of a collection that ends with an event of type end:
 * 1 and the child, 0 at the end, -1 after an error. */
static int next_child(struct builder *b, yaml_event_type_t end, unsigned int depth,
		      struct ynode **child)
{
	yaml_event_t ev;

	if (!next_event(b, &ev))
		return -1;
	if (ev.type == end) {
		yaml_event_delete(&ev);
		return 0;
	}
	*child = parse_node(b, &ev, depth + 1);
	yaml_event_delete(&ev);
	return *child ? 1 : -1;
}

/* A sequence or mapping, from the event after its start to its end. */
static struct ynode *parse_children(struct builder *b, yaml_event_t *ev, enum ykind kind,
				    unsigned int depth)
{
	struct ynode *node = new_node(b, kind, ev->start_mark), *child, *value;
	yaml_event_type_t end = kind == Y_MAP ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT;
	struct kids k;
	int got;

	kids_init(&k);
	while ((got = next_child(b, end, depth, &child)) > 0) {
		if (kind == Y_SEQ) {
			push(&k, child);
			continue;
		}
		if (child->kind != Y_SCALAR) {
			diag_add(b->d, child->mark, SEV_ERROR, "type", false,
				 "a mapping key must be a plain string");
			goto fail;
		}
		/* a value always follows its key: no end event here */
		if (next_child(b, YAML_NO_EVENT, depth, &value) <= 0)
			goto fail;
		push(&k, child);
		push(&k, value);
	}
	if (got < 0)
		goto fail;
	finish(b, node, &k);
	if (kind == Y_MAP)
		report_duplicate_keys(b, node);
	return node;
fail:
	kids_release(&k);
	return NULL;
}

/* Parse the node whose first event is ev (already taken). */
static struct ynode *parse_node(struct builder *b, yaml_event_t *ev, unsigned int depth)
{
	struct ynode *node;

	if (depth > YAML_MAX_DEPTH) {
		diag_add(b->d, mark_of(b, ev->start_mark), SEV_ERROR, "syntax", false,
			 "nested deeper than %d levels", YAML_MAX_DEPTH);
		return NULL;
	}
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		diag_add(b->d, mark_of(b, ev->start_mark), SEV_ERROR, "syntax", false,
			 "anchors and aliases are not allowed in the registry");
		return NULL;
	case YAML_SCALAR_EVENT:
		if (!refuse_extras(b, ev, ev->data.scalar.anchor, ev->data.scalar.tag,
				   ev->data.scalar.plain_implicit || ev->data.scalar.quoted_implicit))
			return NULL;
		if (ev->data.scalar.length > YAML_MAX_SCALAR) {
			diag_add(b->d, mark_of(b, ev->start_mark), SEV_ERROR, "syntax", false,
				 "scalar longer than %u KiB", YAML_MAX_SCALAR >> 10);
			return NULL;
		}
		node = new_node(b, Y_SCALAR, ev->start_mark);
		node->str = arena_strndup(b->texts, (const char *)ev->data.scalar.value,
					  ev->data.scalar.length);
		node->len = ev->data.scalar.length;
		node->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		if (strlen(node->str) != node->len) {
			diag_add(b->d, node->mark, SEV_ERROR, "syntax", false,
				 "NUL character in a scalar");
			return NULL;
		}
		return node;
	case YAML_SEQUENCE_START_EVENT:
		if (!refuse_extras(b, ev, ev->data.sequence_start.anchor,
				   ev->data.sequence_start.tag, ev->data.sequence_start.implicit))
			return NULL;
		return parse_children(b, ev, Y_SEQ, depth);
	case YAML_MAPPING_START_EVENT:
		if (!refuse_extras(b, ev, ev->data.mapping_start.anchor,
				   ev->data.mapping_start.tag, ev->data.mapping_start.implicit))
			return NULL;
		return parse_children(b, ev, Y_MAP, depth);
	default:
		diag_add(b->d, mark_of(b, ev->start_mark), SEV_ERROR, "syntax", false,
			 "unexpected YAML event");
		return NULL;
	}
}

/* Duplicate keys of a tree the fast path read, in the order the event
 * reader reports them: each mapping once its children are read. */
static void report_duplicates_below(struct builder *b, const struct ynode *node)
{
	if (node->kind == Y_SCALAR)
		return;
	for (size_t i = 0; i < node->n; i++)
		report_duplicates_below(b, node->kids[i]);
	if (node->kind == Y_MAP)
		report_duplicate_keys(b, node);
}

struct ynode *ytree_parse(struct arena *a, struct arena *texts, struct diags *d, const char *file,
			  const char *data, size_t len)
{
	struct builder b = { .a = a, .texts = texts, .d = d, .file = file, .data = data, .len = len };
	struct ynode *root;
	unsigned int errors = d->errors;

	if (len <= YAML_MAX_FILE && (root = yfast_parse(a, texts, file, data, len))) {
		report_duplicates_below(&b, root);
		return d->errors == errors ? root : NULL;
	}
	return ytree_parse_libyaml(a, texts, d, file, data, len);
}

struct ynode *ytree_parse_libyaml(struct arena *a, struct arena *texts, struct diags *d,
				  const char *file, const char *data, size_t len)
{
	struct builder b = { .a = a, .texts = texts, .d = d, .file = file, .data = data, .len = len };
	struct ynode *root = NULL;
	yaml_event_t ev;
	unsigned int errors = d->errors;

	if (len > YAML_MAX_FILE) {
		diag_add(d, (struct mark){ file, 1, 1 }, SEV_ERROR, "syntax", false,
			 "file larger than %u MiB", YAML_MAX_FILE >> 20);
		return NULL;
	}
	if (!yaml_parser_initialize(&b.parser)) {
		diag_add(d, (struct mark){ file, 1, 1 }, SEV_ERROR, "syntax", false,
			 "cannot initialise the YAML parser");
		return NULL;
	}
	yaml_parser_set_input_string(&b.parser, (const unsigned char *)data, len);
	yaml_parser_set_encoding(&b.parser, YAML_UTF8_ENCODING);

	/* stream start, document start */
	if (!next_event(&b, &ev))
		goto out;
	yaml_event_delete(&ev);
	if (!next_event(&b, &ev))
		goto out;
	if (ev.type == YAML_STREAM_END_EVENT) {
		yaml_event_delete(&ev);
		diag_add(d, (struct mark){ file, 1, 1 }, SEV_ERROR, "syntax", false,
			 "empty file: expected a YAML mapping");
		goto out;
	}
	yaml_event_delete(&ev);
	if (!next_event(&b, &ev))
		goto out;
	root = parse_node(&b, &ev, 0);
	yaml_event_delete(&ev);
	if (!root)
		goto out;
	if (!next_event(&b, &ev))	/* document end */
		goto out;
	yaml_event_delete(&ev);
	if (!next_event(&b, &ev))
		goto out;
	if (ev.type != YAML_STREAM_END_EVENT)
		diag_add(d, mark_of(&b, ev.start_mark), SEV_ERROR, "syntax", false,
			 "only one YAML document per spec file");
	yaml_event_delete(&ev);
out:
	yaml_parser_delete(&b.parser);
	return d->errors == errors ? root : NULL;
}

size_t ymap_len(const struct ynode *map)
{
	return map->n / 2;
}

const struct ynode *ymap_key(const struct ynode *map, size_t i)
{
	return map->kids[2 * i];
}

const struct ynode *ymap_value(const struct ynode *map, size_t i)
{
	return map->kids[2 * i + 1];
}

const struct ynode *ymap_get(const struct ynode *map, const char *key)
{
	if (!map || map->kind != Y_MAP)
		return NULL;
	/* the first byte before strcmp(): the loaders ask for every key
	 * of every entry, mostly keys that are not there */
	for (size_t i = 0; i < ymap_len(map); i++) {
		const char *k = ymap_key(map, i)->str;

		if (k[0] == key[0] && !strcmp(k, key))
			return ymap_value(map, i);
	}
	return NULL;
}
