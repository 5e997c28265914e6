// SPDX-License-Identifier: GPL-2.0
/*
 * Rules across the whole registry, and the numbers.  Errors mean the registry
 * is wrong; warnings describe the kernel as it really is and can be accepted
 * entry by entry (accept: [...]).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioctlgen.h"

#define ERR(reg, m, rule, ...) diag_add(&(reg)->diags, (m), SEV_ERROR, rule, false, __VA_ARGS__)
#define WARN(reg, m, rule, acc, ...) diag_add(&(reg)->diags, (m), SEV_WARNING, rule, acc, __VA_ARGS__)
/* The same for a finding about command c: the model names it. */
#define CMD_ERR(reg, c, m, rule, ...) \
	diag_add_about(&(reg)->diags, command_about(c), (m), SEV_ERROR, rule, false, __VA_ARGS__)
#define CMD_WARN(reg, c, m, rule, acc, ...) \
	diag_add_about(&(reg)->diags, command_about(c), (m), SEV_WARNING, rule, acc, __VA_ARGS__)

const struct abi *registry_abi(const struct registry *reg, const char *name)
{
	for (size_t i = 0; i < reg->n_abis; i++)
		if (!strcmp(reg->abis[i].name, name))
			return &reg->abis[i];
	return NULL;
}

const struct layout *registry_layout(const struct registry *reg, const char *name)
{
	for (size_t i = 0; i < reg->n_layouts; i++)
		if (!strcmp(reg->layouts[i].name, name))
			return &reg->layouts[i];
	return NULL;
}

static int size_key_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct size_entry *)elem)->type);
}

bool abi_sizeof(const struct abi *abi, const char *type, uint32_t *size)
{
	const struct size_entry *e;

	if (!abi->n_sizes)
		return false;
	e = bsearch(type, abi->sizes, abi->n_sizes, sizeof(*abi->sizes), size_key_cmp);
	if (e)
		*size = e->size;
	return e != NULL;
}

static int str_key_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

static bool absent(const struct abi *abi, const char *key)
{
	return bsearch(key, abi->absent, abi->n_absent, sizeof(*abi->absent), str_key_cmp) != NULL;
}

/* absent: lists NAME, or header:NAME when only one header's NAME is missing
 * (asm-generic/ioctls.h:TCGETS2 on sparc, whose own asm/ioctls.h has one). */
bool abi_has(const struct abi *abi, const struct command *c)
{
	char key[512];

	if (c->header->arch && (!abi->arch || strcmp(c->header->arch, abi->arch)))
		return false;
	if (!abi->n_absent)
		return true;
	if (absent(abi, c->name))
		return false;
	snprintf(key, sizeof(key), "%s:%s", c->header->path, c->name);
	return !absent(abi, key);
}

/* ------------------------------------------------------------ names */

struct named {
	const char *name;
	struct mark mark;
};

static int named_cmp(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	c = strcmp(a->mark.file, b->mark.file);
	if (c)
		return c;
	return a->mark.line < b->mark.line ? -1 : a->mark.line > b->mark.line;
}

static void check_unique(struct registry *reg, struct named *v, size_t n, const char *what)
{
	qsort(v, n, sizeof(*v), named_cmp);
	for (size_t i = 1, first = 0; i < n; i++) {
		if (strcmp(v[i].name, v[first].name)) {
			first = i;
			continue;
		}
		ERR(reg, v[i].mark, "duplicate-name", "%s '%s' is already defined at %s:%u:%u", what,
		    v[i].name, v[first].mark.file, v[first].mark.line, v[first].mark.col);
	}
}

static void check_names(struct registry *reg)
{
	size_t n = reg->n_layouts + reg->n_abis, k = 0;
	struct named *v;

	for (size_t h = 0; h < reg->n_headers; h++)
		n += reg->headers[h].n_commands;
	v = xrealloc(NULL, (n + 1) * sizeof(*v));
	for (size_t i = 0; i < reg->n_layouts; i++)
		v[k++] = (struct named){ reg->layouts[i].name, reg->layouts[i].mark };
	check_unique(reg, v, k, "layout");
	k = 0;
	for (size_t i = 0; i < reg->n_abis; i++)
		v[k++] = (struct named){ reg->abis[i].name, reg->abis[i].mark };
	check_unique(reg, v, k, "ABI");
	free(v);
}

struct cmd_ref {
	const struct command *c;
	size_t order;
};

static int cmd_ref_cmp(const void *pa, const void *pb)
{
	const struct cmd_ref *a = pa, *b = pb;
	int c = strcmp(a->c->name, b->c->name);

	return c ? c : a->order < b->order ? -1 : a->order > b->order;
}

/*
 * A name may stand in several headers: per-arch variants (asm/ioctls.h) that
 * never meet on one ABI, or identical redefinitions, which C allows.  It is
 * an error twice in one header, or when two definitions give one ABI two
 * different numbers.
 */
static void check_command_names(struct registry *reg)
{
	struct cmd_ref *v = NULL;
	size_t n = 0, cap = 0;

	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			grow(&v, &cap, n + 1, sizeof(*v));
			v[n] = (struct cmd_ref){ &reg->headers[h].commands[i], n };
			n++;
		}
	if (n)
		qsort(v, n, sizeof(*v), cmd_ref_cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && !strcmp(v[j].c->name, v[i].c->name))
			j++;
		for (size_t b = i + 1; b < j; b++) {
			const struct command *y = v[b].c;

			for (size_t a = i; a < b; a++) {
				const struct command *x = v[a].c;
				size_t k;

				if (x->header == y->header) {
					CMD_ERR(reg, y, y->mark, "duplicate-name",
					    "command '%s' is already defined at %s:%u:%u", y->name,
					    x->mark.file, x->mark.line, x->mark.col);
					break;
				}
				for (k = 0; k < reg->n_abis; k++)
					if (x->numbers && y->numbers && x->numbers[k].present &&
					    y->numbers[k].present && x->numbers[k].number != y->numbers[k].number)
						break;
				if (k < reg->n_abis) {
					CMD_ERR(reg, y, y->mark, "duplicate-name",
					    "command '%s' is also defined at %s:%u:%u, with another number on %s (0x%08x, here 0x%08x)",
					    y->name, x->mark.file, x->mark.line, x->mark.col, reg->abis[k].name,
					    x->numbers[k].number, y->numbers[k].number);
					break;
				}
			}
		}
		i = j;
	}
	free(v);
}

/* ------------------------------------------------------------ ABIs */

static void link_abis(struct registry *reg, bool sized)
{
	for (size_t i = 0; i < reg->n_abis; i++) {
		struct abi *abi = &reg->abis[i];

		abi->layout = registry_layout(reg, abi->layout_name);
		if (!abi->layout)
			ERR(reg, abi->mark, "reference", "ABI '%s' names an unknown layout '%s'", abi->name,
			    abi->layout_name);
		if (sized && !abi->sizes_file)
			ERR(reg, abi->mark, "missing-size",
			    "ABI '%s' has no measured sizes (%s/sizes/%s.yaml): run 'make sizes'", abi->name,
			    reg->spec_dir, abi->name);
	}
}

/* ------------------------------------------------------------ field ranges */

const struct layout *registry_smallest(const struct registry *reg,
				       uint32_t (*max)(const struct layout *))
{
	const struct layout *best = NULL;

	for (size_t i = 0; i < reg->n_layouts; i++)
		if (!best || max(&reg->layouts[i]) < max(best))
			best = &reg->layouts[i];
	return best;
}

static void check_ranges(struct registry *reg)
{
	const struct layout *lt = registry_smallest(reg, layout_max_type);
	const struct layout *ln = registry_smallest(reg, layout_max_nr);

	if (!lt || !ln)
		return;
	for (size_t i = 0; i < reg->n_rows; i++) {
		struct magic_row *r = &reg->rows[i];

		if (r->code > layout_max_type(lt))
			ERR(reg, r->mark, "range", "code %s does not fit the %u-bit type field of layout '%s'",
			    r->code_text, lt->type_bits, lt->name);
	}
	for (size_t h = 0; h < reg->n_headers; h++) {
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			struct command *c = &reg->headers[h].commands[i];
			uint64_t last = (uint64_t)c->nr + c->nr_count - 1;

			if (c->magic > layout_max_type(lt))
				CMD_ERR(reg, c, c->magic_mark, "range",
				    "%s: magic %s does not fit the %u-bit type field of layout '%s'", c->name,
				    c->magic_text, lt->type_bits, lt->name);
			if (last > layout_max_nr(ln))
				CMD_ERR(reg, c, c->nr_mark, "range",
				    "%s: nr %llu does not fit the %u-bit nr field of layout '%s'", c->name,
				    (unsigned long long)last, ln->nr_bits, ln->name);
		}
	}
}

/* ------------------------------------------------------------ spelling */

static const char *const ioc_dir_macro[4] = {
	"_IOC_NONE", "_IOC_READ", "_IOC_WRITE", "_IOC_READ|_IOC_WRITE"
};
static const char *const io_macro[4] = { "_IO", "_IOR", "_IOW", "_IOWR" };
static const char *const bad_macro[4] = { "_IO", "_IOR_BAD", "_IOW_BAD", "_IOWR_BAD" };

/* How the generated header spells the command: macro and C arguments. */
static void spell(struct registry *reg, struct command *c)
{
	struct arena *a = &reg->arena;
	const char *nr = c->nr_param ? arena_printf(a, "%s + (%s)", c->nr_text, c->nr_param) : c->nr_text;

	c->n_args = 0;
	if (c->ioc) {
		c->macro = "_IOC";
		c->args[c->n_args++] = ioc_dir_macro[c->dir];
	} else if (c->legacy && !strcmp(c->legacy->spell_as, "bad")) {
		c->macro = bad_macro[c->dir];
	} else {
		c->macro = io_macro[c->dir];
	}
	c->args[c->n_args++] = c->magic_text;
	c->args[c->n_args++] = nr;
	if (c->ioc)
		c->args[c->n_args++] = c->size_param ? c->size_param :
				       arena_printf(a, "sizeof(%s)", c->type);
	else if (c->legacy)
		c->args[c->n_args++] = strcmp(c->legacy->spell_as, "bad") ? c->legacy->spell_as :
				       c->legacy->written;
	else if (c->dir != DIR_NONE)
		c->args[c->n_args++] = c->type;
}

/* ------------------------------------------------------------ sizes and numbers */

/* The type whose sizeof() the header's macro encodes, or NULL for none. */
const char *command_sized_type(const struct command *c)
{
	if (c->size_param || (c->dir == DIR_NONE && !c->ioc))
		return NULL;
	if (c->legacy)
		return strcmp(c->legacy->spell_as, "bad") ? c->legacy->spell_as :
		       legacy_written_type(c->legacy->written);
	return c->type;
}

static void check_legacy(struct registry *reg, struct command *c, const struct abi *abi)
{
	const char *wt = legacy_written_type(c->legacy->written);
	uint32_t ws, ss;

	if (!strcmp(c->legacy->spell_as, "bad") || !abi_sizeof(abi, wt, &ws) ||
	    !abi_sizeof(abi, c->legacy->spell_as, &ss) || ws == ss)
		return;
	if (c->legacy->abi_break)
		CMD_WARN(reg, c, c->legacy->spell_mark, "abi-break", true,
		     "%s: '%s' encodes %u bytes on %s where '%s' encoded %u: the number changed (%s)",
		     c->name, c->legacy->spell_as, ss, abi->name, c->legacy->written, ws,
		     c->legacy->abi_break);
	else
		CMD_ERR(reg, c, c->legacy->spell_mark, "legacy-spelling",
		    "%s: spelling it '%s' encodes %u bytes on %s, but '%s' encoded %u: the number would change; spell it 'bad' or a type of %u bytes",
		    c->name, c->legacy->spell_as, ss, abi->name, c->legacy->written, ws, ws);
}

static void compute_numbers(struct registry *reg)
{
	uint32_t max_size = UINT32_MAX;
	const struct layout *ls = registry_smallest(reg, layout_max_size);

	if (ls)
		max_size = layout_max_size(ls);
	for (size_t h = 0; h < reg->n_headers; h++) {
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			struct command *c = &reg->headers[h].commands[i];
			const char *t = command_sized_type(c);
			bool overflow_reported = false;

			spell(reg, c);
			c->numbers = arena_alloc(&reg->arena, (reg->n_abis + 1) * sizeof(*c->numbers));
			for (size_t k = 0; k < reg->n_abis; k++) {
				const struct abi *abi = &reg->abis[k];
				struct abi_number *num = &c->numbers[k];
				uint32_t size = 0;

				if (!abi->layout || !abi->sizes_file || !abi_has(abi, c))
					continue;
				if (c->legacy)
					check_legacy(reg, c, abi);
				if (t && !abi_sizeof(abi, t, &size)) {
					CMD_ERR(reg, c, c->legacy ? c->legacy->spell_mark : c->type_mark,
						"missing-size",
					    "%s: no measured size of '%s' on %s: run 'make sizes'", c->name, t,
					    abi->name);
					continue;
				}
				if (size > max_size) {
					bool accepted = c->accept & ACCEPT_SIZE_OVERFLOW;

					if (!overflow_reported)
						diag_add_about(&reg->diags, command_about(c),
							 c->legacy ? c->legacy->spell_mark : c->type_mark,
							 accepted ? SEV_WARNING : SEV_ERROR, "size-overflow", accepted,
							 "%s: '%s' is %u bytes on %s, more than the %u-bit size field of layout '%s' holds",
							 c->name, t, size, abi->name, ls->size_bits, ls->name);
					overflow_reported = true;
					/* Accepted: the number is what the macros make of it,
					 * size bits spilling into the dir field included. */
					if (!accepted)
						continue;
				}
				num->present = true;
				num->variable_size = c->size_param != NULL;
				num->size = size;
				num->number = layout_encode(abi->layout, c->dir, c->magic, c->nr, size);
			}
		}
	}
}

/* ------------------------------------------------------------ magic rows */

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

static void check_registered(struct registry *reg, const struct code_index *ci)
{
	for (size_t h = 0; h < reg->n_headers; h++) {
		for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
			const struct command *c = &reg->headers[h].commands[i];
			size_t from, to;
			bool covered = true;

			if (c->magic > 0xff)
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
		}
	}
}

/* ------------------------------------------------------------ shared numbers */

struct slot {
	uint32_t key;		/* the number without its size bits */
	uint32_t size;
	bool variable;
	const struct command *cmd;
	unsigned int nr_arg;
};

/*
 * Spec order of two commands.  Never compare command pointers across
 * headers: each header's commands are a separate allocation, so their
 * addresses follow the heap, not the spec (the order files were found on
 * disk showed in the output).  reg->headers is one array sorted by path.
 */
static int spec_order(const struct command *a, const struct command *b)
{
	if (a->header != b->header)
		return a->header < b->header ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int slot_cmp(const void *pa, const void *pb)
{
	const struct slot *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	/* spec order within one number */
	if (a->cmd != b->cmd)
		return spec_order(a->cmd, b->cmd);
	return a->nr_arg < b->nr_arg ? -1 : a->nr_arg > b->nr_arg;
}

static void add_collision(struct registry *reg, size_t *cap, const struct abi *abi, uint32_t number,
			  const struct slot *group, size_t n, uint32_t size)
{
	struct collision *col;
	size_t k = 0;

	grow(&reg->collisions, cap, reg->n_collisions + 1, sizeof(*reg->collisions));
	col = &reg->collisions[reg->n_collisions++];
	col->abi = abi;
	col->number = number;
	col->cmds = arena_alloc(&reg->arena, n * sizeof(*col->cmds));
	for (size_t i = 0; i < n; i++) {
		bool dup = false;

		if (!(group[i].variable || group[i].size == size))
			continue;
		/* the same name from two headers is one name here */
		for (size_t x = 0; x < k; x++)
			dup |= !strcmp(col->cmds[x]->name, group[i].cmd->name);
		if (!dup)
			col->cmds[k++] = group[i].cmd;
	}
	col->n_cmds = k;
}

/* A family over many nr shares a number with itself only across params: skip that. */
static size_t distinct_cmds(const struct slot *g, size_t n, uint32_t size)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		if (!(g[i].variable || g[i].size == size))
			continue;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(g[j].cmd->name, g[i].cmd->name) && (g[j].variable || g[j].size == size))
				seen = true;
		k += !seen;
	}
	return k;
}

static void find_collisions(struct registry *reg)
{
	size_t cap = 0;

	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct abi *abi = &reg->abis[k];
		const struct layout *l = abi->layout;
		struct slot *s = NULL;
		size_t n = 0, scap = 0;

		if (!l)
			continue;
		for (size_t h = 0; h < reg->n_headers; h++) {
			for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
				const struct command *c = &reg->headers[h].commands[i];
				const struct abi_number *num = &c->numbers[k];

				if (!num->present)
					continue;
				for (unsigned int a = 0; a < c->nr_count; a++) {
					uint32_t number = layout_encode(l, c->dir, c->magic, c->nr + a, num->size);

					grow(&s, &scap, n + 1, sizeof(*s));
					uint32_t field = layout_max_size(l) << layout_size_shift(l);

					s[n++] = (struct slot){
						number & ~field,
						(number & field) >> layout_size_shift(l),
						num->variable_size, c, a };
				}
			}
		}
		if (n)
			qsort(s, n, sizeof(*s), slot_cmp);
		for (size_t i = 0; i < n;) {
			size_t j = i;

			while (j < n && s[j].key == s[i].key)
				j++;
			/* one collision per distinct fixed size, variable-size families join each */
			bool any_fixed = false;
			uint32_t last_size = 0;

			for (size_t x = i; x < j; x++) {
				if (s[x].variable || (any_fixed && s[x].size == last_size))
					continue;
				any_fixed = true;
				last_size = s[x].size;
				if (distinct_cmds(s + i, j - i, s[x].size) > 1)
					add_collision(reg, &cap, abi,
						      s[x].key | s[x].size << layout_size_shift(l), s + i, j - i,
						      s[x].size);
			}
			if (!any_fixed && distinct_cmds(s + i, j - i, UINT32_MAX) > 1)
				add_collision(reg, &cap, abi, s[i].key, s + i, j - i, UINT32_MAX);
			i = j;
		}
		free(s);
	}
}

struct shared {
	char *names;	/* "A, B": the commands of one collision */
	size_t i;	/* its index in reg->collisions */
};

static int shared_cmp(const void *pa, const void *pb)
{
	const struct shared *a = pa, *b = pb;
	int c = strcmp(a->names, b->names);

	if (c)
		return c;
	return a->i < b->i ? -1 : a->i > b->i;
}

static int shared_first_cmp(const void *pa, const void *pb)
{
	const struct shared *a = *(const struct shared *const *)pa;
	const struct shared *b = *(const struct shared *const *)pb;

	return a->i < b->i ? -1 : a->i > b->i;
}

/*
 * One warning per set of commands that share a number, listing every ABI
 * where they do, in the order the sets first appear.  Sorting the sets by
 * their names keeps this n log n: comparing every pair made check
 * quadratic in the number of collisions (seen by make bench).
 */
static void warn_collisions(struct registry *reg)
{
	size_t n = reg->n_collisions, n_first = 0;
	struct shared *v = xrealloc(NULL, (n + 1) * sizeof(*v));
	struct shared **first = xrealloc(NULL, (n + 1) * sizeof(*first));

	for (size_t i = 0; i < n; i++) {
		const struct collision *col = &reg->collisions[i];
		struct strbuf names = { 0 };

		for (size_t k = 0; k < col->n_cmds; k++)
			sb_printf(&names, "%s%s", k ? ", " : "", col->cmds[k]->name);
		v[i] = (struct shared){ names.buf, i };
	}
	if (n)
		qsort(v, n, sizeof(*v), shared_cmp);
	for (size_t g = 0; g < n; g++)
		if (g == 0 || strcmp(v[g].names, v[g - 1].names))
			first[n_first++] = &v[g];
	if (n_first)
		qsort(first, n_first, sizeof(*first), shared_first_cmp);
	for (size_t f = 0; f < n_first; f++) {
		const struct shared *head = first[f];
		const struct collision *col = &reg->collisions[head->i];
		const struct command *last = col->cmds[0];
		struct strbuf abis = { 0 };
		bool accepted = false;

		for (size_t k = 0; k < col->n_cmds; k++) {
			accepted |= (col->cmds[k]->accept & ACCEPT_SHARED_NUMBER) != 0;
			if (spec_order(col->cmds[k], last) > 0)
				last = col->cmds[k];
		}
		for (const struct shared *o = head; o < v + n && !strcmp(o->names, head->names); o++)
			sb_printf(&abis, "%s%s 0x%08x", abis.len ? ", " : "",
				  reg->collisions[o->i].abi->name, reg->collisions[o->i].number);
		CMD_WARN(reg, last, last->mark, "shared-number", accepted, "%s share a number: %s", head->names,
		     abis.buf);
		sb_release(&abis);
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].names);
	free(first);
	free(v);
}

static void spell_all(struct registry *reg)
{
	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_commands; i++)
			spell(reg, &reg->headers[h].commands[i]);
}

/* Every rule runs even after errors, so that one run reports every
 * problem; numbers are computed for the ABIs whose layout and sizes are
 * known, and only when sized. */
static void check(struct registry *reg, bool sized)
{
	struct code_index ci;

	check_names(reg);
	link_abis(reg, sized);
	check_ranges(reg);
	if (sized)
		compute_numbers(reg);
	else
		spell_all(reg);
	check_command_names(reg);
	index_codes(reg, &ci);
	check_overlaps(reg, &ci);
	check_registered(reg, &ci);
	free(ci.rows);
	if (sized) {
		find_collisions(reg);
		warn_collisions(reg);
	}
	reg->numbered = sized;
	diags_sort(&reg->diags);
}

void registry_check(struct registry *reg)
{
	check(reg, true);
}

void registry_check_unsized(struct registry *reg)
{
	check(reg, false);
}

void registry_release(struct registry *reg)
{
	free(reg->layouts);
	free(reg->abis);
	free(reg->rows);
	free(reg->headers);
	free(reg->collisions);
	free(reg->lint);
	diags_release(&reg->diags);
	arena_release(&reg->arena);
}
