// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON model: everything a renderer needs, numbers included, so that
 * templates never compute.  Layout of the document: docs/dev/contracts.md.
 * Output is deterministic: spec order, no time, no absolute paths.
 */
#include <errno.h>
#include <stdlib.h>

#include "json.h"
#include "lint.h"

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
		model_write_layout_figures(j, l);
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
	size_t *at = model_row_view_index(reg);

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
		model_write_lifetime_text(j, reg, &r->life);
		model_write_row_versions(j, reg, i, at);
		ksource(j, r->mark);
		close_(j, '}');
	}
	close_(j, ']');
	free(at);
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
	model_write_cwords(&j);
	write_versions(&j, reg);
	write_layouts(&j, reg);
	write_abis(&j, reg);
	write_rows(&j, reg);
	model_write_unregistered_codes(&j, reg);
	model_write_headers(&j, reg);
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
