// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON model: everything a renderer needs, numbers included, so that
 * templates never compute.  Layout of the document: docs/dev/contracts.md.
 * Output is deterministic: spec order, no time, no absolute paths.
 */
#include <errno.h>
#include <string.h>

#include "lint.h"
#include "model.h"

struct json {
	struct strbuf *sb;
	int depth;
	bool first;	/* no comma before the next member */
	/* model_write_pieces(): where the pieces go, and the first failure */
	int (*put)(void *ctx, const char *data, size_t len);
	void *ctx;
	int failed, saved_errno;
};

/* Hand what the buffer holds to put(), and empty it. */
static void json_put(struct json *j)
{
	if (!j->failed && j->put(j->ctx, j->sb->buf, j->sb->len)) {
		j->failed = -1;
		j->saved_errno = errno;
	}
	j->sb->len = 0;
	j->sb->buf[0] = '\0';
}

/* printf() for every number was a tenth of the time of `ioctlgen model`. */
static inline void put_uint(struct strbuf *sb, unsigned long long v)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	sb_add(sb, p, (size_t)(buf + sizeof(buf) - p));
}

/* The bytes a JSON string holds as they are: all but '"', '\\' and the
 * control characters (NUL among them, which ends the run). */
static const bool json_plain[256] = {
	[' ' ... '"' - 1] = true, ['"' + 1 ... '\\' - 1] = true, ['\\' + 1 ... 0xff] = true,
};

/* The characters of s as a JSON string holds them, without the quotes. */
static void jescape(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		/* the run of characters that need no escape, at once */
		size_t run = 0;

		while (json_plain[p[run]])
			run++;
		sb_add(sb, (const char *)p, run);
		p += run;
		switch (*p) {
		case '\0':
			return;
		case '"':
			sb_lit(sb, "\\\"");
			break;
		case '\\':
			sb_lit(sb, "\\\\");
			break;
		case '\n':
			sb_lit(sb, "\\n");
			break;
		case '\t':
			sb_lit(sb, "\\t");
			break;
		case '\r':
			sb_lit(sb, "\\r");
			break;
		default:	/* the other control characters, rare */
			sb_printf(sb, "\\u%04x", *p);
		}
		p++;
	}
}

static void jstr(struct json *j, const char *s)
{
	if (!s) {
		sb_lit(j->sb, "null");
		return;
	}
	sb_putc(j->sb, '"');
	jescape(j->sb, s);
	sb_putc(j->sb, '"');
}

/*
 * The helpers that write a member are inline: the key is a literal at most
 * calls, so its length and copy are known when compiled, and the 66,000
 * numbers of the model take no call per piece.
 */

/* A newline and the indent, after a comma unless comma is false, then
 * "key": unless key is NULL: the model's most frequent piece, written in
 * place after one check for room. */
static inline void indent(struct json *j, bool comma, const char *key)
{
	size_t n = 2 * (size_t)j->depth, klen = key ? strlen(key) : 0;
	char *start = sb_room(j->sb, 2 + n + klen + 4), *p = start;

	if (comma)
		*p++ = ',';
	*p++ = '\n';
	memset(p, ' ', n);
	p += n;
	if (key) {	/* our own words: nothing to escape */
		*p++ = '"';
		memcpy(p, key, klen);
		p += klen;
		memcpy(p, "\": ", 3);
		p += 3;
	}
	sb_wrote(j->sb, (size_t)(p - start));
}

/* Start a member (with key) or an array element (key NULL). */
static inline void member(struct json *j, const char *key)
{
	indent(j, !j->first, key);
	j->first = false;
}

static inline void open_(struct json *j, const char *key, char c)
{
	member(j, key);
	sb_putc(j->sb, c);
	j->depth++;
	j->first = true;
}

static inline void close_(struct json *j, char c)
{
	bool empty = j->first;

	j->depth--;
	if (!empty)
		indent(j, false, NULL);
	sb_putc(j->sb, c);
	j->first = false;
	if (j->put && j->sb->len >= MODEL_PIECE)
		json_put(j);
}

static void kstr(struct json *j, const char *key, const char *v)
{
	member(j, key);
	jstr(j, v);
}

static inline void kuint(struct json *j, const char *key, unsigned long long v)
{
	member(j, key);
	put_uint(j->sb, v);
}

static void kbool(struct json *j, const char *key, bool v)
{
	member(j, key);
	sb_puts(j->sb, v ? "true" : "false");
}

static inline void khex(struct json *j, const char *key, uint32_t v)
{
	static const char hex[] = "0123456789abcdef";
	char buf[12] = { '"', '0', 'x' };

	for (int i = 0; i < 8; i++)
		buf[3 + i] = hex[v >> (28 - 4 * i) & 15];
	buf[11] = '"';
	member(j, key);
	sb_add(j->sb, buf, sizeof(buf));
}

/* Short arrays stay on one line: they are read far more often than written. */
static void kstrlist(struct json *j, const char *key, const char *const *v, size_t n)
{
	member(j, key);
	sb_putc(j->sb, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			sb_lit(j->sb, ", ");
		jstr(j, v[i]);
	}
	sb_putc(j->sb, ']');
}

/* A list that may be absent: null then. */
static void kstrlist_or_null(struct json *j, const char *key, const char *const *v, size_t n)
{
	if (v)
		kstrlist(j, key, v, n);
	else
		kstr(j, key, NULL);
}

/* A number that may be absent (a variant that names another command
 * instead of an nr, an array member's len): null then. */
static void kuint_or_null(struct json *j, const char *key, bool present, unsigned long long v)
{
	if (present)
		kuint(j, key, v);
	else
		kstr(j, key, NULL);
}

/* A size measured on an ABI, or null before sizes exist (ioctlgen dump). */
static void ksize(struct json *j, const char *key, const struct abi *a, const char *type)
{
	uint32_t size;

	if (abi_sizeof(a, type, &size))
		kuint(j, key, size);
	else
		kstr(j, key, NULL);
}

static void ksource(struct json *j, struct mark m)
{
	member(j, "source");
	sb_putc(j->sb, '"');
	jescape(j->sb, m.file);
	sb_putc(j->sb, ':');
	put_uint(j->sb, m.line);
	sb_putc(j->sb, ':');
	put_uint(j->sb, m.col);
	sb_putc(j->sb, '"');
}

static void accept_list(struct json *j, unsigned int mask)
{
	const char *v[ACCEPT_RULES];
	size_t n = 0;

	for (unsigned int i = 0; i < ACCEPT_RULES; i++)
		if (mask & (1u << i))
			v[n++] = accept_rule_names[i];
	kstrlist(j, "accept", v, n);
}

/* since, removed as written (null when absent), and the known versions
 * the entry exists in. */
static void write_lifetime(struct json *j, const struct registry *reg, const struct lifetime *l)
{
	kstr(j, "since", l->since);
	kstr(j, "removed", l->removed);
	member(j, "versions");
	sb_putc(j->sb, '[');
	for (size_t v = l->first; v < l->end; v++) {
		if (v > l->first)
			sb_lit(j->sb, ", ");
		jstr(j, reg->versions[v].name);
	}
	sb_putc(j->sb, ']');
}

static void write_versions(struct json *j, const struct registry *reg)
{
	open_(j, "versions", '[');
	for (size_t i = 0; i < reg->n_versions; i++) {
		open_(j, NULL, '{');
		kstr(j, "name", reg->versions[i].name);
		kstr(j, "doc", reg->versions[i].doc);
		ksource(j, reg->versions[i].mark);
		close_(j, '}');
	}
	close_(j, ']');
}

static void write_layouts(struct json *j, const struct registry *reg)
{
	open_(j, "layouts", '[');
	for (size_t i = 0; i < reg->n_layouts; i++) {
		const struct layout *l = &reg->layouts[i];

		open_(j, NULL, '{');
		kstr(j, "name", l->name);
		kstr(j, "doc", l->doc);
		kuint(j, "nr-bits", l->nr_bits);
		kuint(j, "type-bits", l->type_bits);
		kuint(j, "size-bits", l->size_bits);
		kuint(j, "dir-bits", l->dir_bits);
		kuint(j, "nr-shift", 0);
		kuint(j, "type-shift", layout_type_shift(l));
		kuint(j, "size-shift", layout_size_shift(l));
		kuint(j, "dir-shift", layout_dir_shift(l));
		kuint(j, "none", l->none);
		kuint(j, "read", l->read);
		kuint(j, "write", l->write);
		kuint(j, "xsize-bits", l->xsize_bits);
		kbool(j, "self-contained", l->self_contained);
		kstrlist(j, "arches", l->arches, l->n_arches);
		kstrlist(j, "headers", l->headers, l->n_headers);
		ksource(j, l->mark);
		close_(j, '}');
	}
	close_(j, ']');
}

/* The commands whose number on a variant ABI is not its base's: the
 * point of a time64 variant.  A command the base lacks counts too. */
static void write_variant_differs(struct json *j, const struct registry *reg, size_t k)
{
	size_t b = (size_t)(reg->abis[k].variant_of - reg->abis);

	open_(j, "variant-differs", '[');
	for_each_command(reg, c) {
		const struct abi_number *n, *base;

		if (!c->numbers)
			continue;
		n = &c->numbers[k];
		base = &c->numbers[b];

		if (!n->present || (base->present && base->number == n->number))
			continue;
		open_(j, NULL, '{');
		kstr(j, "command", c->name);
		kstr(j, "header", c->header->path);
		close_(j, '}');
	}
	close_(j, ']');
}

static void write_abis(struct json *j, const struct registry *reg)
{
	open_(j, "abis", '[');
	for (size_t i = 0; i < reg->n_abis; i++) {
		const struct abi *a = &reg->abis[i];

		open_(j, NULL, '{');
		kstr(j, "name", a->name);
		kstr(j, "doc", a->doc);
		kstr(j, "layout", a->layout_name);
		kstr(j, "arch", a->arch);
		kstr(j, "cc", a->cc);
		kstrlist(j, "cflags", a->cflags, a->n_cflags);
		ksize(j, "size-t", a, "size_t");
		ksize(j, "int", a, "int");
		kstr(j, "sizes", a->sizes_file);
		kstr(j, "variant-of", a->variant_of ? a->variant_of->name : NULL);
		if (a->variant_of && reg->numbered)
			write_variant_differs(j, reg, i);
		ksource(j, a->mark);
		close_(j, '}');
	}
	close_(j, ']');
}

static void write_rows(struct json *j, const struct registry *reg)
{
	open_(j, "magic-codes", '[');
	for (size_t i = 0; i < reg->n_rows; i++) {
		const struct magic_row *r = &reg->rows[i];

		open_(j, NULL, '{');
		kuint(j, "code", r->code);
		kstr(j, "code-text", r->code_text);
		kstr(j, "seq", r->seq);
		kuint(j, "seq-first", r->first);
		kuint(j, "seq-last", r->last);
		kstrlist(j, "headers", r->headers, r->n_headers);
		kstr(j, "doc", r->doc);
		/* its later versions' text: keys are checked versions (digits, dots) */
		open_(j, "doc-since", '{');
		for (size_t k = 0; k < r->n_doc_since; k++)
			kstr(j, r->doc_since[k].version, r->doc_since[k].doc);
		close_(j, '}');
		kstr(j, "contact", r->contact);
		accept_list(j, r->accept);
		member(j, "overlaps");
		sb_putc(j->sb, '[');
		for (size_t k = 0; k < r->n_overlaps; k++) {
			if (k)
				sb_lit(j->sb, ", ");
			put_uint(j->sb, r->overlaps[k]);
		}
		sb_putc(j->sb, ']');
		kuint(j, "commands", r->n_commands);
		kstrlist_or_null(j, "include-cell", r->include_cell, r->n_include_cell);
		kstrlist_or_null(j, "seq-cell", r->seq_cell, r->n_seq_cell);
		write_lifetime(j, reg, &r->life);
		ksource(j, r->mark);
		close_(j, '}');
	}
	close_(j, ']');
}

/* Do two versions' numbers of a command differ on some ABI (a number, a
 * size, or a presence)? */
static bool numbers_differ(const struct registry *reg, const struct abi_number *a,
			   const struct abi_number *b)
{
	for (size_t k = 0; k < reg->n_abis; k++)
		if (a[k].present != b[k].present ||
		    (a[k].present && (a[k].number != b[k].number || a[k].size != b[k].size ||
				      a[k].variable_size != b[k].variable_size || a[k].unit != b[k].unit)))
			return true;
	return false;
}

static void write_numbers_of(struct json *j, const struct registry *reg, const struct command *c,
			     const char *key, const struct abi_number *numbers);

/* numbers: the newest version's; numbers-by-version: each other version's
 * where they differ from those (a number, or the ABIs that have it). */
static void write_numbers(struct json *j, const struct registry *reg, const struct command *c)
{
	write_numbers_of(j, reg, c, "numbers", c->numbers);
	open_(j, "numbers-by-version", '{');
	for (size_t v = c->life.first; c->by_version && v < c->life.end; v++)
		if (c->by_version[v] != c->numbers && numbers_differ(reg, c->by_version[v], c->numbers))
			write_numbers_of(j, reg, c, reg->versions[v].name, c->by_version[v]);
	close_(j, '}');
}

static void write_numbers_of(struct json *j, const struct registry *reg, const struct command *c,
			     const char *key, const struct abi_number *numbers)
{
	open_(j, key, '{');
	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct abi_number *n = &numbers[k];

		if (!n->present)
			continue;
		open_(j, reg->abis[k].name, '{');
		kuint(j, "number", n->number);
		khex(j, "hex", n->number);
		if (n->variable_size) {
			member(j, "size");
			sb_lit(j->sb, "null");
		} else {
			kuint(j, "size", n->size);
		}
		if (c->size_unit)	/* the size of N elements is N times this */
			kuint(j, "unit-size", n->unit);
		if (c->plain) {	/* the fields as this ABI's layout splits the number */
			struct ioc_fields f;

			layout_decode(reg->abis[k].layout, n->number, &f);
			kstr(j, "dir", f.dir_name < 0 ? NULL : dir_names[f.dir_name]);
			kuint(j, "type", f.type);
			kuint(j, "nr", f.nr);
		}
		close_(j, '}');
	}
	close_(j, '}');
}

/* new, constants and types: what the registry renders of a header (issue 12) */
static void write_header_types(struct json *j, const struct header *hd)
{
	static const char *const kinds[] = { "struct", "union", "enum" };

	kbool(j, "new", hd->is_new);
	open_(j, "constants", '[');
	for (size_t i = 0; i < hd->n_constants; i++) {
		const struct cconstant *k = &hd->constants[i];

		open_(j, NULL, '{');
		kstr(j, "name", k->name);
		kuint(j, "value", k->value);
		kstr(j, "value-text", k->value_text);
		kstr(j, "doc", k->doc);
		ksource(j, k->mark);
		close_(j, '}');
	}
	close_(j, ']');
	open_(j, "types", '[');
	for (size_t i = 0; i < hd->n_types; i++) {
		const struct ctype_def *t = &hd->types[i];

		open_(j, NULL, '{');
		kstr(j, "name", t->name);
		kstr(j, "kind", kinds[t->kind]);
		kstr(j, "c-name", t->c_name);
		kbool(j, "kernel-internal", t->kernel_internal);
		kstr(j, "doc", t->doc);
		ksource(j, t->mark);
		open_(j, "members", '[');
		for (size_t m = 0; m < t->n_members; m++) {
			const struct cmember *mb = &t->members[m];

			open_(j, NULL, '{');
			kstr(j, "name", mb->name);
			kstr(j, "type", mb->type);
			kuint_or_null(j, "len", mb->len_text != NULL, mb->len);
			kstr(j, "len-text", mb->len_text);
			kbool(j, "pad", mb->pad);
			kstr(j, "doc", mb->doc);
			ksource(j, mb->mark);
			close_(j, '}');
		}
		close_(j, ']');
		open_(j, "values", '[');
		for (size_t v = 0; v < t->n_values; v++) {
			open_(j, NULL, '{');
			kstr(j, "name", t->values[v].name);
			kuint(j, "value", t->values[v].value);
			kstr(j, "doc", t->values[v].doc);
			ksource(j, t->values[v].mark);
			close_(j, '}');
		}
		close_(j, ']');
		close_(j, '}');
	}
	close_(j, ']');
}

static void write_command(struct json *j, const struct registry *reg, const struct command *c)
{
	const char *measure[MEASURE_MAX];
	size_t n_measure = command_measure(c, measure);

	open_(j, NULL, '{');
	kstr(j, "name", c->name);
	if (c->plain) {		/* no _IO* fields: see "number" */
		kstr(j, "dir", NULL);
		kstr(j, "magic", NULL);
		kstr(j, "magic-text", NULL);
		kstr(j, "nr", NULL);
		kstr(j, "nr-text", NULL);
	} else {
		kstr(j, "dir", dir_names[c->dir]);
		kuint(j, "magic", c->magic);
		kstr(j, "magic-text", c->magic_text);
		kuint(j, "nr", c->nr);
		kstr(j, "nr-text", c->nr_text);
	}
	kuint(j, "nr-count", c->nr_count);
	kstrlist(j, "params", c->params, c->n_params);
	kstr(j, "nr-param", c->nr_param);
	kstr(j, "size-param", c->size_param);
	kstr(j, "size-unit", c->size_unit);
	kstrlist(j, "unused-params", c->unused_params, c->n_unused_params);
	kstr(j, "type", c->type);
	if (c->has_size)
		kuint(j, "size", c->size);
	else
		kstr(j, "size", NULL);
	kstrlist(j, "measure", measure, n_measure);
	kbool(j, "reserved", c->reserved);
	kstr(j, "alias-of", c->alias_of);
	kstr(j, "macro", c->macro);
	kstrlist(j, "args", c->args, c->n_args);
	/* spelled as another's name: per ABI only, see "numbers" */
	kuint_or_null(j, "number", c->plain && !c->by_name, c->number);
	kstr(j, "number-text", c->number_text);
	kstr(j, "passes", c->passes);
	if (c->legacy) {
		open_(j, "legacy", '{');
		kstr(j, "written", c->legacy->written);
		kstr(j, "written-type", legacy_written_type(c->legacy->written));
		kstr(j, "passes", c->legacy->passes);
		kstr(j, "spell-as", c->legacy->spell_as);
		kstr(j, "doc", c->legacy->doc);
		kstr(j, "abi-break", c->legacy->abi_break);
		close_(j, '}');
	} else {
		kstr(j, "legacy", NULL);
	}
	open_(j, "variants", '[');
	for (size_t v = 0; v < c->n_variants; v++) {
		const struct variant *va = &c->variants[v];

		open_(j, NULL, '{');
		kstrlist(j, "abis", va->abis, va->n_abis);
		kuint_or_null(j, "nr", va->nr_text != NULL, va->nr);
		kstr(j, "nr-text", va->nr_text);
		kstr(j, "alias-of", va->alias_of);
		kstr(j, "doc", va->doc);
		ksource(j, va->mark);
		close_(j, '}');
	}
	close_(j, ']');
	write_lifetime(j, reg, &c->life);
	/* as written, for the importer to keep (the reason is also in abi-changes) */
	kstr(j, "abi-change", c->abi_change);
	if (reg->numbered)
		write_numbers(j, reg, c);
	kstr(j, "doc", c->doc);
	accept_list(j, c->accept);
	ksource(j, c->mark);
	close_(j, '}');
}

static void write_headers(struct json *j, const struct registry *reg)
{
	open_(j, "headers", '[');
	for (size_t h = 0; h < reg->n_headers; h++) {
		const struct header *hd = &reg->headers[h];

		open_(j, NULL, '{');
		kstr(j, "path", hd->path);
		kstr(j, "arch", hd->arch);
		kstr(j, "spec", hd->spec);
		kstr(j, "doc", hd->doc);
		kstrlist(j, "defines", hd->defines, hd->n_defines);
		kstrlist(j, "includes", hd->includes, hd->n_includes);
		kbool(j, "header-test", hd->header_test);
		kstr(j, "patch-prefix", hd->patch_prefix);
		open_(j, "typedefs", '[');
		for (size_t i = 0; i < hd->n_typedefs; i++) {
			open_(j, NULL, '{');
			kstr(j, "name", hd->typedefs[i].name);
			kstr(j, "type", hd->typedefs[i].type);
			kstr(j, "doc", hd->typedefs[i].doc);
			ksource(j, hd->typedefs[i].mark);
			close_(j, '}');
		}
		close_(j, ']');
		kstrlist(j, "stub-includes", hd->stub_includes, hd->n_stub_includes);
		write_header_types(j, hd);
		open_(j, "commands", '[');
		for (size_t i = 0; i < hd->n_commands; i++)
			write_command(j, reg, &hd->commands[i]);
		close_(j, ']');
		close_(j, '}');
	}
	close_(j, ']');
}

/* The accepted changes of number between versions (check_numbers.c), with the
 * reason the entry gives. */
static void write_abi_changes(struct json *j, const struct registry *reg)
{
	open_(j, "abi-changes", '[');
	for (size_t i = 0; i < reg->n_abi_changes; i++) {
		const struct abi_change *ch = &reg->abi_changes[i];
		const struct command *c = ch->cmd;
		const char *versions[2] = { reg->versions[ch->from].name, reg->versions[ch->to].name };

		open_(j, NULL, '{');
		kstr(j, "command", c->name);
		kstr(j, "header", c->header->path);
		kstrlist(j, "versions", versions, 2);
		open_(j, "numbers", '{');
		for (size_t a = 0; a < ch->n_abis; a++) {
			const struct abi_number *o = &c->by_version[ch->from][ch->abis[a]];
			const struct abi_number *n = &c->by_version[ch->to][ch->abis[a]];

			open_(j, reg->abis[ch->abis[a]].name, '{');
			kuint(j, "old", o->number);
			khex(j, "old-hex", o->number);
			kuint(j, "new", n->number);
			khex(j, "new-hex", n->number);
			close_(j, '}');
		}
		close_(j, '}');
		kstr(j, "reason", c->abi_change);
		ksource(j, c->abi_change ? c->abi_change_mark : c->mark);
		close_(j, '}');
	}
	close_(j, ']');
}

static void write_collisions(struct json *j, const struct registry *reg)
{
	open_(j, "collisions", '[');
	for (size_t i = 0; i < reg->n_collisions; i++) {
		const struct collision *c = &reg->collisions[i];

		open_(j, NULL, '{');
		kstr(j, "abi", c->abi->name);
		kuint(j, "number", c->number);
		khex(j, "hex", c->number);
		member(j, "names");
		sb_putc(j->sb, '[');
		for (size_t k = 0; k < c->n_cmds; k++) {
			if (k)
				sb_lit(j->sb, ", ");
			jstr(j, c->cmds[k]->name);
		}
		sb_putc(j->sb, ']');
		/* the names of each command, in order of first appearance */
		member(j, "groups");
		sb_putc(j->sb, '[');
		for (size_t g = 0; g < c->n_groups; g++) {
			long i;

			if (g)
				sb_lit(j->sb, ", ");
			sb_putc(j->sb, '[');
			for (size_t k = 0; (i = collision_member(c, g, k)) >= 0; k++) {
				if (k)
					sb_lit(j->sb, ", ");
				jstr(j, c->cmds[i]->name);
			}
			sb_putc(j->sb, ']');
		}
		sb_putc(j->sb, ']');
		kbool(j, "conflict", collision_conflict(c));
		member(j, "versions");
		sb_putc(j->sb, '[');
		for (size_t v = 0, k = 0; v < reg->n_versions; v++)
			if (c->versions >> v & 1) {
				if (k++)
					sb_lit(j->sb, ", ");
				jstr(j, reg->versions[v].name);
			}
		sb_putc(j->sb, ']');
		close_(j, '}');
	}
	close_(j, ']');
}

static void write_findings(struct json *j, const struct registry *reg)
{
	open_(j, "findings", '[');
	for (size_t i = 0; i < reg->diags.n; i++) {
		const struct diag *d = &reg->diags.v[i];

		open_(j, NULL, '{');
		kstr(j, "severity", d->sev == SEV_ERROR ? "error" : "warning");
		kstr(j, "rule", d->rule);
		kbool(j, "accepted", d->accepted);
		kstr(j, "message", d->msg);
		kstr(j, "command", d->about.command);
		kstr(j, "header", d->about.header);
		ksource(j, d->mark);
		close_(j, '}');
	}
	close_(j, ']');
}

static void write_lint(struct json *j, const struct registry *reg)
{
	open_(j, "lint", '{');
	kbool(j, "tree-checked", reg->lint_tree != NULL);
	open_(j, "classes", '[');
	for (int k = 0; k < LINT_CLASSES; k++) {
		open_(j, NULL, '{');
		kstr(j, "name", lint_class_name(k));
		kstr(j, "doc", lint_class_doc(k));
		kuint(j, "count", reg->lint_count[k]);
		open_(j, "items", '[');
		for (size_t i = 0; i < reg->n_lint; i++) {
			const struct lint_item *it = &reg->lint[i];

			if ((int)it->cls != k)
				continue;
			open_(j, NULL, '{');
			kstr(j, "command", it->cmd ? it->cmd->name : NULL);
			kstr(j, "header", it->cmd ? it->cmd->header->path : NULL);
			kstr(j, "abi", it->abi);
			kstr(j, "detail", it->detail);
			ksource(j, it->mark);
			close_(j, '}');
		}
		close_(j, ']');
		close_(j, '}');
	}
	close_(j, ']');
	close_(j, '}');
}

void model_write(const struct registry *reg, struct strbuf *out)
{
	model_write_pieces(reg, out, NULL, NULL);
}

int model_write_pieces(const struct registry *reg, struct strbuf *out,
		       int (*put)(void *ctx, const char *data, size_t len), void *ctx)
{
	struct json j = { out, 0, true, put, ctx, 0, 0 };
	const struct layout *ls = registry_smallest(reg, layout_max_size);

	sb_putc(out, '{');
	j.depth = 1;
	kuint(&j, "model-version", IOCTLGEN_MODEL_VERSION);
	kstr(&j, "generator", "ioctlgen");
	kstr(&j, "stage", reg->numbered ? "model" : "dump");
	kstr(&j, "spec-dir", reg->spec_dir);
	if (ls)
		kuint(&j, "smallest-size-bits", ls->size_bits);
	else
		kstr(&j, "smallest-size-bits", NULL);
	kstrlist(&j, "measure-base", measure_base, MEASURE_BASE_TYPES);
	write_versions(&j, reg);
	write_layouts(&j, reg);
	write_abis(&j, reg);
	write_rows(&j, reg);
	write_headers(&j, reg);
	if (reg->numbered) {
		write_collisions(&j, reg);
		write_abi_changes(&j, reg);
	}
	write_findings(&j, reg);
	if (reg->linted)
		write_lint(&j, reg);
	close_(&j, '}');
	sb_putc(out, '\n');
	if (put) {
		json_put(&j);
		errno = j.saved_errno;
	}
	return j.failed;
}
