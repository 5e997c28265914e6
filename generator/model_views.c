// SPDX-License-Identifier: GPL-2.0
/*
 * What the model decides for its readers, so that templates, Python and
 * the site's scripts only select and lay out: the ioctl macros
 * and fixed-width types, each layout's figures and masks, the words of
 * every lifetime, what a command passes and how a legacy one is kept,
 * and each known version's view of the headers and magic-code rows.
 */
#include <stdlib.h>

#include "cwords.h"
#include "json.h"

void model_write_cwords(struct json *j)
{
	open_(j, "ioctl-macros", '[');
	for (size_t i = 0; i < IOC_MACROS; i++) {
		open_(j, NULL, '{');
		kstr(j, "name", ioc_macros[i].name);
		kstr(j, "dir", ioc_macros[i].dir < 0 ? NULL : dir_names[ioc_macros[i].dir]);
		kbool(j, "legacy", ioc_macros[i].bad);
		close_(j, '}');
	}
	close_(j, ']');
	open_(j, "fixed-width-types", '[');
	for (size_t i = 0; i < FIXED_TYPES; i++) {
		open_(j, NULL, '{');
		kstr(j, "name", fixed_types[i].name);
		kuint(j, "size", fixed_types[i].size);
		kstr(j, "header", fixed_types[i].header);
		close_(j, '}');
	}
	close_(j, ']');
}

void model_write_cwords_doc(struct strbuf *out)
{
	struct json j = { out, 1, true, NULL, NULL, 0, 0 };

	sb_putc(out, '{');
	model_write_cwords(&j);
	close_(&j, '}');
	sb_putc(out, '\n');
}

static uint32_t bits(unsigned int n)
{
	return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

void model_write_layout_figures(struct json *j, const struct layout *l)
{
	static const char *const dirs[3] = { "none", "read", "write" };
	unsigned int dirv[3] = { l->none, l->read, l->write };
	uint32_t size = bits(l->xsize_bits ? l->xsize_bits : l->size_bits) << layout_size_shift(l);
	const char *over[3];
	size_t n_over = 0;

	kuint(j, "command-bits", l->nr_bits + l->type_bits);
	kuint(j, "upper-bits", l->size_bits + l->dir_bits);
	kuint(j, "total-bits", l->nr_bits + l->type_bits + l->size_bits + l->dir_bits);
	kuint(j, "size-limit", 1ull << l->size_bits);
	/* each field's bits in place (size with sparc's extra bit), and each
	 * direction value's */
	open_(j, "masks", '{');
	kuint(j, "nr", bits(l->nr_bits));
	kuint(j, "type", bits(l->type_bits) << layout_type_shift(l));
	kuint(j, "size", size);
	kuint(j, "dir", bits(l->dir_bits) << layout_dir_shift(l));
	for (int d = 0; d < 3; d++) {
		uint32_t m = dirv[d] << layout_dir_shift(l);

		kuint(j, dirs[d], m);
		if (m & size)
			over[n_over++] = dirs[d];
	}
	close_(j, '}');
	/* the direction values whose bits the size mask covers */
	kstrlist(j, "size-overlaps", over, n_over);
}

void model_write_lifetime_text(struct json *j, const struct registry *reg,
			       const struct lifetime *l)
{
	struct strbuf sb = { 0 };

	if (!reg->n_versions) {
		kstr(j, "lifetime-text", NULL);
		return;
	}
	open_(j, "lifetime-text", '{');
	lifetime_describe(reg, l, &sb);
	sb_putc(&sb, '\0');
	kstr(j, "describe", sb.buf);
	sb.len = 0;
	lifetime_cell(reg, l, &sb);
	sb_putc(&sb, '\0');
	kstr(j, "cell", sb.buf);
	sb.len = 0;
	lifetime_sentence(reg, l, &sb);
	sb_putc(&sb, '\0');
	kstr(j, "sentence", sb.buf);
	close_(j, '}');
	sb_release(&sb);
}

void model_write_argument(struct json *j, const struct command *c)
{
	struct strbuf sb = { 0 };

	kstr(j, "arg-kind", command_arg_kind(c));
	if (command_arg_text(c, &sb)) {
		sb_putc(&sb, '\0');
		kstr(j, "arg-text", sb.buf);
	} else {
		kstr(j, "arg-text", NULL);
	}
	sb_release(&sb);
}

/* The versions a header is in a view of: those of a command of it, or
 * every one for a header without commands. */
void model_write_header_versions(struct json *j, const struct registry *reg,
				 const struct header *hd)
{
	open_(j, "versions", '[');
	for (size_t v = 0; v < reg->n_versions; v++) {
		bool in = !hd->n_commands;

		for (size_t i = 0; !in && i < hd->n_commands; i++)
			in = lifetime_has(&hd->commands[i].life, v);
		if (in)
			kstr(j, NULL, reg->versions[v].name);
	}
	close_(j, ']');
}

size_t *model_row_view_index(const struct registry *reg)
{
	size_t nv = reg->n_versions, *at = calloc(reg->n_rows * nv + 1, sizeof(*at));

	if (!at)
		abort();
	for (size_t v = 0; v < nv; v++)
		for (size_t i = 0, k = 0; i < reg->n_rows; i++)
			if (lifetime_has(&reg->rows[i].life, v))
				at[i * nv + v] = k++;
	return at;
}

static size_t version_index(const struct registry *reg, const char *name)
{
	for (size_t v = 0; v < reg->n_versions; v++)
		if (!strcmp(reg->versions[v].name, name))
			return v;
	return reg->n_versions;
}

void model_write_row_versions(struct json *j, const struct registry *reg, size_t i,
			      const size_t *at)
{
	const struct magic_row *r = &reg->rows[i];
	size_t nv = reg->n_versions;

	open_(j, "in-version", '{');
	for (size_t v = r->life.first; v < r->life.end; v++) {
		const char *doc = r->doc;
		bool first = true;

		for (size_t k = 0; k < r->n_doc_since; k++)
			if (version_index(reg, r->doc_since[k].version) <= v)
				doc = r->doc_since[k].doc;
		open_(j, reg->versions[v].name, '{');
		kuint(j, "index", at[i * nv + v]);
		member(j, "overlaps");
		sb_putc(j->sb, '[');
		for (size_t k = 0; k < r->n_overlaps; k++) {
			if (!lifetime_has(&reg->rows[r->overlaps[k]].life, v))
				continue;
			if (!first)
				sb_lit(j->sb, ", ");
			first = false;
			put_uint(j->sb, at[r->overlaps[k] * nv + v]);
		}
		sb_putc(j->sb, ']');
		kstr(j, "doc", doc);
		close_(j, '}');
	}
	close_(j, '}');
}

struct code_use {
	unsigned int code;
	uint64_t versions;
};

static int code_use_cmp(const void *a, const void *b)
{
	unsigned int x = ((const struct code_use *)a)->code, y = ((const struct code_use *)b)->code;

	return (x > y) - (x < y);
}

/* The magic codes commands with an _IO* macro use that no magic-code row
 * registers, each with the known versions some command of it is in and
 * their cell: the site's registry lists them as rows of their own. */
void model_write_unregistered_codes(struct json *j, const struct registry *reg)
{
	struct code_use *v = NULL;
	size_t n = 0, cap = 0;

	for_each_command(reg, c) {
		if (c->plain)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				abort();
		}
		v[n++] = (struct code_use){ c->magic, lifetime_set(&c->life) };
	}
	if (n)
		qsort(v, n, sizeof(*v), code_use_cmp);
	open_(j, "unregistered-codes", '[');
	for (size_t i = 0, k; i < n; i = k) {
		uint64_t set = 0;
		bool registered = false;

		for (k = i; k < n && v[k].code == v[i].code; k++)
			set |= v[k].versions;
		for (size_t r = 0; r < reg->n_rows && !registered; r++)
			registered = reg->rows[r].code == v[i].code;
		if (registered)
			continue;
		open_(j, NULL, '{');
		kuint(j, "code", v[i].code);
		open_(j, "versions", '[');
		for (size_t x = 0; x < reg->n_versions; x++)
			if (set >> x & 1)
				kstr(j, NULL, reg->versions[x].name);
		close_(j, ']');
		if (reg->n_versions) {
			struct strbuf sb = { 0 };

			versions_cell(reg, set, &sb);
			sb_putc(&sb, '\0');
			kstr(j, "versions-cell", sb.buf);
			sb_release(&sb);
		} else {
			kstr(j, "versions-cell", NULL);
		}
		close_(j, '}');
	}
	close_(j, ']');
	free(v);
}
