// SPDX-License-Identifier: GPL-2.0
/*
 * The magic-code table: rows of one code whose sequence numbers overlap,
 * and each command's code and nr against the rows (registered, in range,
 * in the versions the command exists in).
 */
#include <stdlib.h>

#include "rules.h"

struct code_index {
	size_t *rows;		/* row indexes sorted by code */
	size_t start[257];	/* rows of code c: rows[start[c] .. start[c + 1]) */
};

static void index_codes(const struct registry *reg, struct code_index *ci)
{
	size_t count[256] = { 0 }, pos[256];

	for (size_t i = 0; i < reg->n_rows; i++)
		if (reg->rows[i].code < 256)
			count[reg->rows[i].code]++;
	ci->start[0] = 0;
	for (int c = 0; c < 256; c++) {
		ci->start[c + 1] = ci->start[c] + count[c];
		pos[c] = ci->start[c];
	}
	ci->rows = xrealloc(NULL, (ci->start[256] + 1) * sizeof(*ci->rows));
	for (size_t i = 0; i < reg->n_rows; i++)
		if (reg->rows[i].code < 256)
			ci->rows[pos[reg->rows[i].code]++] = i;
}

static void check_overlaps(struct registry *reg, const struct code_index *ci)
{
	for (int code = 0; code < 256; code++) {
		for (size_t x = ci->start[code]; x < ci->start[code + 1]; x++) {
			struct magic_row *r = &reg->rows[ci->rows[x]];
			struct strbuf with = { 0 };

			for (size_t y = ci->start[code]; y < ci->start[code + 1]; y++) {
				const struct magic_row *o = &reg->rows[ci->rows[y]];

				if (x == y || o->last < r->first || o->first > r->last)
					continue;
				if (!r->overlaps)
					r->overlaps = arena_alloc(&reg->arena,
								  (ci->start[code + 1] - ci->start[code]) *
								  sizeof(*r->overlaps));
				r->overlaps[r->n_overlaps++] = ci->rows[y];
				sb_printf(&with, "%s%s %s (line %u)", with.len ? ", " : "",
					  o->n_headers ? o->headers[0] : "(no header)", o->seq, o->mark.line);
			}
			if (r->n_overlaps)
				WARN(reg, r->mark, "overlap", r->accept & ACCEPT_OVERLAP,
				     "code %s seq %s (%s) overlaps %s", r->code_text, r->seq,
				     r->n_headers ? r->headers[0] : "no header", with.buf);
			sb_release(&with);
		}
	}
}

/*
 * A command registered in the magic-code table must be so in every known
 * version it exists in: some row that covers its nr exists there too.
 * The first version where none does is named, at the command's since (it
 * starts before its rows) or removed (it outlives them).
 */
static void check_row_versions(struct registry *reg, const struct code_index *ci,
			       const struct command *c)
{
	size_t from = ci->start[c->magic], to = ci->start[c->magic + 1];

	for (size_t v = c->life.first; v < c->life.end; v++) {
		const struct magic_row *row = NULL;
		bool there = false;
		struct mark m;

		for (size_t x = from; x < to && !there; x++) {
			const struct magic_row *r = &reg->rows[ci->rows[x]];

			if (c->nr < r->first || c->nr > r->last)
				continue;
			there = lifetime_has(&r->life, v);
			row = row ? row : r;
		}
		if (there || !row)
			continue;
		m = v < row->life.first ? (c->life.since ? c->life.since_mark : c->mark) :
		    (c->life.removed ? c->life.removed_mark : c->mark);
		CMD_WARN(reg, c, m, "row-versions", c->accept & ACCEPT_ROW_VERSIONS,
			 "%s exists in %s, but its magic-code row (code %s seq %s, %s:%u:%u) %s %s",
			 c->name, reg->versions[v].name, row->code_text, row->seq, row->mark.file,
			 row->mark.line, row->mark.col,
			 v < row->life.first ? "is new in" : "was removed in",
			 reg->versions[v < row->life.first ? row->life.first : row->life.end].name);
		return;
	}
}

static void check_registered(struct registry *reg, const struct code_index *ci)
{
	for_each_command(reg, c) {
		size_t from, to;
		bool covered = true;

		/* A plain number belongs to no magic code's table row
		 * (ioctl-number.rst lists the _IO* commands), nor does a
		 * protocol code (binder's BC_*, BR_*: no request). */
		if (c->plain || c->protocol_code || c->magic > 0xff)
			continue;
		from = ci->start[c->magic];
		to = ci->start[c->magic + 1];
		if (from == to) {
			CMD_WARN(reg, c, c->magic_mark, "unregistered-magic",
			     c->accept & ACCEPT_UNREGISTERED_MAGIC,
			     "%s: magic %s has no row in the magic-code table", c->name, c->magic_text);
			continue;
		}
		for (unsigned int nr = c->nr; nr < c->nr + c->nr_count; nr++) {
			bool in = false;

			for (size_t x = from; x < to; x++) {
				struct magic_row *r = &reg->rows[ci->rows[x]];

				if (nr >= r->first && nr <= r->last) {
					in = true;
					if (nr == c->nr)
						r->n_commands++;
				}
			}
			covered &= in;
		}
		if (!covered)
			CMD_WARN(reg, c, c->nr_mark, "outside-range", c->accept & ACCEPT_OUTSIDE_RANGE,
			     "%s: nr %s%s is outside every registered range of magic %s", c->name,
			     c->nr_text, c->nr_count > 1 ? " (and up)" : "", c->magic_text);
		else
			check_row_versions(reg, ci, c);
	}
}

void check_magic_table(struct registry *reg)
{
	struct code_index ci;

	index_codes(reg, &ci);
	check_overlaps(reg, &ci);
	check_registered(reg, &ci);
	free(ci.rows);
}
