// SPDX-License-Identifier: GPL-2.0
/*
 * Numbers per known version: each version's sizes shown to the numbering
 * (numbers.c) in turn, a version's missing sizes files, and the commands
 * whose number changes between versions.
 */
#include <stdlib.h>
#include <string.h>

#include "numbers.h"
#include "rules.h"

/*
 * Point each ABI's sizes at those of known version v: sizes/<V>/<abi>.yaml,
 * or, where that file is missing, the newest earlier version's (borrowed:
 * the missing file is reported once, by missing_version_sizes()).
 */
static void show_version_sizes(struct registry *reg, size_t v)
{
	for (size_t k = 0; k < reg->n_abis; k++) {
		struct abi *abi = &reg->abis[k];
		size_t w = v;

		if (!abi->by_version)
			continue;
		while (w > 0 && !abi->by_version[w].sizes_file)
			w--;
		abi->sizes = abi->by_version[w].sizes;
		abi->n_sizes = abi->by_version[w].n_sizes;
		abi->ksizes = abi->by_version[w].ksizes;
		abi->n_ksizes = abi->by_version[w].n_ksizes;
		abi->absent = abi->by_version[w].absent;
		abi->n_absent = abi->by_version[w].n_absent;
		abi->kcontext = abi->by_version[w].kcontext;
		abi->n_kcontext = abi->by_version[w].n_kcontext;
		abi->sizes_file = abi->by_version[w].sizes_file;
		abi->sizes_borrowed = w != v;
	}
}

/* A version after the oldest without a sizes file for an ABI where one of
 * its commands needs a size: one error per version and ABI, at the ABI. */
static void missing_version_sizes(struct registry *reg, size_t v)
{
	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct abi *abi = &reg->abis[k];
		const struct command *needs = NULL;

		/* no sizes at all: link_abis() said so */
		if (!abi->sizes_borrowed || !abi->by_version[0].sizes_file)
			continue;
		/* the first in spec order */
		for_each_command(reg, c) {
			if (!needs && abi_arch_has(abi, c) && abi_measured(abi, c) && lifetime_has(&c->life, v) && !c->plain &&
			    !c->by_name && (command_sized_type(c) || c->size_unit))
				needs = c;
		}
		if (needs)
			ERR(reg, abi->mark, "missing-size",
			    "ABI '%s' has no measured sizes for %s (%s/sizes/%s/%s.yaml), which %s (%s) needs: run 'make sizes' for %s (tools/measure-sizes --version %s)",
			    abi->name, reg->versions[v].name, reg->spec_dir, reg->versions[v].name, abi->name,
			    needs->name, needs->header->path, reg->versions[v].name, reg->versions[v].name);
	}
}

static bool same_diag(const struct diag *a, const struct diag *b)
{
	return a->sev == b->sev && a->accepted == b->accepted && a->mark.line == b->mark.line &&
	       a->mark.col == b->mark.col && !strcmp(a->rule, b->rule) &&
	       !strcmp(a->mark.file ? a->mark.file : "", b->mark.file ? b->mark.file : "") &&
	       !strcmp(a->msg, b->msg);
}

/* The diagnostics from `from` on that an earlier one already says (a legacy
 * spelling checked again with the same sizes in a later version): dropped. */
static void drop_repeated(struct diags *d, size_t from)
{
	size_t to = from;

	for (size_t i = from; i < d->n; i++) {
		bool seen = false;

		for (size_t j = 0; j < from && !seen; j++)
			seen = same_diag(&d->v[j], &d->v[i]);
		if (!seen) {
			d->v[to++] = d->v[i];
			continue;
		}
		if (d->v[i].sev == SEV_ERROR)
			d->errors--;
		else if (!d->v[i].accepted)
			d->warnings--;
		free(d->v[i].msg);
	}
	d->n = to;
}

/*
 * Every command's numbers in every known version it exists in, with that
 * version's sizes and absent: lists; its numbers are the newest version's.
 * With fewer than two known versions, the one pass of before.
 */
void number_versions(struct registry *reg, const struct command **byname, size_t n)
{
	size_t nv = reg->n_versions;
	struct numbering *nb = numbering_new(reg, byname, n);

	if (nv < 2) {
		commands_number(reg, 0, nb);
		commands_number_by_name(reg, 0, byname, n);
		numbering_free(nb);
		return;
	}
	for_each_command(reg, c)
		c->by_version = arena_alloc(&reg->arena, nv * sizeof(struct abi_number *));
	for (size_t v = 0; v < nv; v++) {
		size_t from = reg->diags.n;

		show_version_sizes(reg, v);
		if (v > 0)
			missing_version_sizes(reg, v);
		commands_number(reg, v, nb);
		commands_number_by_name(reg, v, byname, n);
		if (v > 0)
			drop_repeated(&reg->diags, from);
		for_each_command(reg, c) {
			if (lifetime_has(&c->life, v))
				c->by_version[v] = c->numbers;
		}
	}
	numbering_free(nb);
	show_version_sizes(reg, 0);
	for_each_command(reg, c)
		c->numbers = c->by_version[c->life.end - 1];
}

/*
 * A number that changes between two known versions a command exists in,
 * on an ABI that has it in both (the last earlier version it had it in):
 * one abi_change per command and pair of versions, listing the ABIs; an
 * error unless the entry says why with abi-change: "...".  A command that
 * comes or goes on an ABI changes no number.  An abi-change with nothing
 * to accept is an error too.
 */
void check_abi_changes(struct registry *reg)
{
	size_t nv = reg->n_versions, cap = 0;
	size_t *last = xrealloc(NULL, (reg->n_abis + 1) * sizeof(*last));
	/* per ABI, the version whose number v differs from, or nv */
	size_t *from = xrealloc(NULL, (reg->n_abis + 1) * sizeof(*from));

	for_each_command(reg, c) {
		size_t before = reg->n_abi_changes;

		for (size_t k = 0; k < reg->n_abis; k++)
			last[k] = nv;
		for (size_t v = c->life.first; c->by_version && v < c->life.end; v++) {
			const struct abi_number *now = c->by_version[v];

			for (size_t k = 0; k < reg->n_abis; k++) {
				from[k] = nv;
				if (!now[k].present)
					continue;
				if (last[k] < nv && c->by_version[last[k]][k].number != now[k].number)
					from[k] = last[k];
				last[k] = v;
			}
			/* one entry per earlier version it changes from */
			for (size_t k = 0; k < reg->n_abis; k++) {
				struct abi_change *ch;

				if (from[k] == nv)
					continue;
				ch = arena_slot(&reg->arena, &reg->abi_changes, &cap, reg->n_abi_changes++,
						sizeof(*reg->abi_changes));
				*ch = (struct abi_change){ c, from[k], v, arena_alloc(&reg->arena,
					reg->n_abis * sizeof(size_t)), 0 };
				for (size_t x = k; x < reg->n_abis; x++)
					if (from[x] == ch->from) {
						ch->abis[ch->n_abis++] = x;
						from[x] = nv;
					}
			}
		}
		for (size_t x = before; x < reg->n_abi_changes; x++) {
			const struct abi_change *ch = &reg->abi_changes[x];
			struct strbuf sb = { 0 };

			for (size_t a = 0; a < ch->n_abis; a++) {
				const struct abi_number *o = &c->by_version[ch->from][ch->abis[a]];
				const struct abi_number *w = &c->by_version[ch->to][ch->abis[a]];

				sb_printf(&sb, "%s%s 0x%08x -> 0x%08x", a ? ", " : "",
					  reg->abis[ch->abis[a]].name, o->number, w->number);
				if (!o->variable_size && !w->variable_size && o->size != w->size)
					sb_printf(&sb, " (size %u -> %u)", o->size, w->size);
			}
			if (c->abi_change)
				CMD_WARN(reg, c, c->abi_change_mark, "abi-change", true,
					 "%s: its number changes from %s to %s (%s): %s", c->name,
					 reg->versions[ch->from].name, reg->versions[ch->to].name,
					 c->abi_change, sb.buf);
			else
				CMD_ERR(reg, c, c->mark, "abi-change",
					"%s: its number changes from %s to %s: %s; a program built for %s breaks unless the kernel takes both: say why with abi-change: \"<reason>\"",
					c->name, reg->versions[ch->from].name, reg->versions[ch->to].name,
					sb.buf, reg->versions[ch->from].name);
			sb_release(&sb);
		}
		if (c->abi_change && before == reg->n_abi_changes)
			CMD_ERR(reg, c, c->abi_change_mark, "abi-change",
				"'abi-change': %s has one number on each ABI in every known version it exists in: there is no change to accept",
				c->name);
	}
	free(last);
	free(from);
}
