// SPDX-License-Identifier: GPL-2.0
/*
 * The lookup table: a checked registry as the bytes libioctlreg maps
 * (libioctlreg/table_format.h): per ABI, every number its commands carry
 * in every known version, sorted as number_table.c sorts them, and what
 * decode prints of each command (names, parameters, lifetimes, numbers per
 * version, alias-of roots).  Made once by `make`; decoding then reads no
 * YAML and checks nothing.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioctlreg.h"
#include "table_format.h"
#include "model.h"
#include "numbers.h"
#include "table.h"

/* One growing section: elements of a fixed size. */
struct section {
	struct strbuf sb;
	size_t elem;
	uint32_t count;
};

static void *sec_add(struct section *s)
{
	void *p = sb_room(&s->sb, s->elem);

	memset(p, 0, s->elem);
	sb_wrote(&s->sb, s->elem);
	s->count++;
	return p;
}

/* The string pool, each string once (open addressing on its text). */
struct pool {
	struct section sec;	/* elem 1: the bytes */
	uint32_t *slots;	/* offset + 1, 0 for empty */
	size_t n_slots, used;
};

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void pool_rehash(struct pool *p)
{
	size_t n = p->n_slots ? p->n_slots * 2 : 4096;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		abort();
	for (size_t i = 0; i < p->n_slots; i++) {
		size_t j;

		if (!p->slots[i])
			continue;
		j = hash_str(p->sec.sb.buf + p->slots[i] - 1) & (n - 1);
		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = p->slots[i];
	}
	free(p->slots);
	p->slots = slots;
	p->n_slots = n;
}

static uint32_t str(struct pool *p, const char *s)
{
	size_t j, len;
	uint32_t off;

	if (!s)
		s = "";
	if (2 * (p->used + 1) > p->n_slots)
		pool_rehash(p);
	for (j = hash_str(s) & (p->n_slots - 1); p->slots[j]; j = (j + 1) & (p->n_slots - 1))
		if (!strcmp(p->sec.sb.buf + p->slots[j] - 1, s))
			return p->slots[j] - 1;
	len = strlen(s) + 1;
	off = (uint32_t)p->sec.sb.len;
	sb_add(&p->sec.sb, s, len);
	p->slots[j] = off + 1;
	p->used++;
	return off;
}

struct writer {
	const struct registry *reg;
	struct section sec[TBL_SECTIONS];
	struct pool pool;
};

static uint32_t ref(struct writer *w, const char *s)
{
	uint32_t at = w->sec[TBL_REFS].count;
	uint32_t off = str(&w->pool, s);

	memcpy(sec_add(&w->sec[TBL_REFS]), &off, sizeof(off));
	return at;
}

static void put_numbers(struct writer *w, const struct abi_number *n)
{
	for (size_t k = 0; k < w->reg->n_abis; k++) {
		struct tbl_number *t = sec_add(&w->sec[TBL_NUMBERS]);

		*t = (struct tbl_number){ n[k].number, n[k].size, n[k].unit,
					  (n[k].present ? TBL_PRESENT : 0) |
					  (n[k].variable_size ? TBL_VARIABLE : 0) };
	}
}

static uint32_t param_index(const struct command *c, const char *name)
{
	for (size_t p = 0; name && p < c->n_params; p++)
		if (!strcmp(c->params[p], name))
			return (uint32_t)p;
	return TBL_NONE;
}

/* A plain number (TCGETS 0x5401) has no magic code or nr written: those its
 * number has, as the first ABI that has it splits it. */
static void plain_fields(const struct registry *reg, const struct command *c, struct tbl_command *t)
{
	struct ioc_fields f;

	for (size_t k = 0; c->plain && c->numbers && k < reg->n_abis; k++) {
		if (!c->numbers[k].present || !reg->abis[k].layout)
			continue;
		layout_decode(reg->abis[k].layout, c->numbers[k].number, &f);
		t->magic = f.type;
		t->nr = f.nr;
		t->dir = f.dir_name >= 0 ? (uint32_t)f.dir_name : 0;
		return;
	}
}

static void put_command(struct writer *w, const struct command *c, uint32_t header)
{
	const struct registry *reg = w->reg;
	struct tbl_command *t = sec_add(&w->sec[TBL_COMMANDS]);
	struct strbuf life = { 0 };
	uint32_t params = w->sec[TBL_REFS].count, roots, alias_of;

	for (size_t p = 0; p < c->n_params; p++)
		ref(w, c->params[p]);
	roots = w->sec[TBL_REFS].count;
	for (size_t k = 0; k < reg->n_abis; k++)
		ref(w, command_alias_root_on(c, &reg->abis[k]));
	alias_of = w->sec[TBL_REFS].count;
	for (size_t k = 0; k < reg->n_abis; k++)
		ref(w, command_alias_on(c, &reg->abis[k]));
	lifetime_describe(reg, &c->life, &life);
	/* sec_add may move the section: t is looked up again */
	t = (struct tbl_command *)(w->sec[TBL_COMMANDS].sb.buf +
				   (w->sec[TBL_COMMANDS].count - 1) * sizeof(*t));
	*t = (struct tbl_command){
		.name = str(&w->pool, c->name), .header = header,
		.flags = (c->numbers ? TBL_NUMBERED : 0) | (c->by_version ? TBL_PER_VERSION : 0) |
			 (c->size_unit ? TBL_SIZE_UNIT : 0) | (c->reserved ? TBL_RESERVED : 0) |
			 (c->plain ? TBL_PLAIN : 0) | (c->protocol_code ? TBL_PROTOCOL_CODE : 0) |
			 (c->header->kernel_internal ? TBL_KERNEL_INTERNAL : 0),
		.dir = c->dir, .magic = c->magic, .nr = c->nr, .nr_count = c->nr_count,
		.params = params, .n_params = (uint32_t)c->n_params,
		.nr_param = param_index(c, c->nr_param), .size_param = param_index(c, c->size_param),
		.life_first = (uint32_t)c->life.first, .life_end = (uint32_t)c->life.end,
		.lifetime = str(&w->pool, life.len ? life.buf : ""),
		.alias_roots = roots, .alias_of = alias_of, .numbers = TBL_NONE,
		.since = str(&w->pool, c->life.since), .removed = str(&w->pool, c->life.removed),
		.number_text = str(&w->pool, c->number_text) };
	sb_release(&life);
	plain_fields(reg, c, t);
	if (!c->numbers)
		return;
	t->numbers = w->sec[TBL_NUMBERS].count;
	put_numbers(w, c->numbers);
	if (c->by_version)
		for (size_t v = c->life.first; v < c->life.end; v++)
			put_numbers(w, c->by_version[v]);
}

/* The hash of the ABI's keys: each key's run of entries, at twice as many
 * slots as keys or more. */
static void put_slots(struct writer *w, size_t k)
{
	struct tbl_abi *a = (struct tbl_abi *)w->sec[TBL_ABIS].sb.buf + k;
	const struct tbl_entry *e = (const struct tbl_entry *)w->sec[TBL_ENTRIES].sb.buf + a->first_entry;
	uint32_t keys = 0, bits = 0, n = a->n_entries, first = w->sec[TBL_SLOTS].count;
	struct tbl_slot *slots;

	for (uint32_t i = 0; i < n; i++)
		keys += !i || e[i].key != e[i - 1].key;
	while ((UINT32_C(1) << bits) < 2 * keys)
		bits++;
	a->first_slot = first;
	a->n_slots = keys ? UINT32_C(1) << bits : 0;
	for (uint32_t s = 0; s < a->n_slots; s++)
		sec_add(&w->sec[TBL_SLOTS]);
	slots = (struct tbl_slot *)w->sec[TBL_SLOTS].sb.buf + first;
	for (uint32_t i = 0, end; i < n; i = end) {
		uint32_t s = tbl_hash(e[i].key, bits);

		for (end = i + 1; end < n && e[end].key == e[i].key; end++)
			;
		while (slots[s].count)
			s = (s + 1) & (a->n_slots - 1);
		slots[s] = (struct tbl_slot){ e[i].key, i, end - i };
	}
}

static void put_entries(struct writer *w, size_t k, const uint32_t *index_of,
			const struct command *const *cmds, size_t n_cmds)
{
	struct number_table nt;
	struct tbl_abi *a = (struct tbl_abi *)w->sec[TBL_ABIS].sb.buf + k;

	number_table_build(&nt, w->reg, k);
	a->first_entry = w->sec[TBL_ENTRIES].count;
	a->n_entries = (uint32_t)nt.n;
	for (size_t i = 0; i < nt.n; i++) {
		const struct number_entry *e = &nt.v[i];
		struct tbl_entry *t = sec_add(&w->sec[TBL_ENTRIES]);
		/* the command's index: spec order is the order of cmds */
		size_t lo = 0, hi = n_cmds;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (command_spec_order(cmds[mid], e->cmd) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		*t = (struct tbl_entry){ e->key, e->size,
					 index_of[lo] | (e->variable ? TBL_ENTRY_VARIABLE : 0),
					 e->nr_arg, (uint32_t)e->versions, (uint32_t)(e->versions >> 32) };
	}
	number_table_release(&nt);
	put_slots(w, k);
}

/* The shared numbers, as collisions.c found them: names by group, "" between. */
static void put_collisions(struct writer *w)
{
	const struct registry *reg = w->reg;

	for (size_t i = 0; i < reg->n_collisions; i++) {
		const struct collision *col = &reg->collisions[i];
		uint32_t names = w->sec[TBL_REFS].count;
		struct tbl_collision *t;
		long m;

		for (size_t g = 0; g < col->n_groups; g++) {
			if (g)
				ref(w, "");
			for (size_t k = 0; (m = collision_member(col, g, k)) >= 0; k++)
				ref(w, col->cmds[m]->name);
		}
		t = sec_add(&w->sec[TBL_COLLISIONS]);
		*t = (struct tbl_collision){ (uint32_t)(col->abi - reg->abis), col->number,
					     (uint32_t)col->versions, (uint32_t)(col->versions >> 32),
					     names, w->sec[TBL_REFS].count - names };
	}
}

static void put_registry(struct writer *w)
{
	const struct registry *reg = w->reg;
	size_t n_cmds = registry_command_count(reg), i = 0;
	const struct command **cmds = xrealloc(NULL, (n_cmds + 1) * sizeof(*cmds));
	uint32_t *index_of = xrealloc(NULL, (n_cmds + 1) * sizeof(*index_of));

	for (size_t v = 0; v < reg->n_versions; v++)
		((struct tbl_version *)sec_add(&w->sec[TBL_VERSIONS]))->name =
			str(&w->pool, reg->versions[v].name);
	for (size_t j = 0; j < reg->n_layouts; j++) {
		const struct layout *l = &reg->layouts[j];
		struct tbl_layout *t = sec_add(&w->sec[TBL_LAYOUTS]);

		*t = (struct tbl_layout){ str(&w->pool, l->name), l->nr_bits, l->type_bits,
					  l->size_bits, l->dir_bits, l->xsize_bits,
					  l->none, l->read, l->write };
	}
	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct abi *a = &reg->abis[k];
		struct tbl_abi *t = sec_add(&w->sec[TBL_ABIS]);

		*t = (struct tbl_abi){
			.name = str(&w->pool, a->name),
			.layout = a->layout ? (uint32_t)(a->layout - reg->layouts) : TBL_NONE,
			.variant_of = a->variant_of ? (uint32_t)(a->variant_of - reg->abis) : TBL_NONE,
			.arch = str(&w->pool, a->arch) };
	}
	for (size_t h = 0; h < reg->n_headers; h++) {
		const struct header *hd = &reg->headers[h];
		struct tbl_header *t = sec_add(&w->sec[TBL_HEADERS]);

		*t = (struct tbl_header){ str(&w->pool, hd->path), (uint32_t)i,
					  (uint32_t)hd->n_commands, str(&w->pool, hd->arch) };
		for (size_t c = 0; c < hd->n_commands; c++, i++) {
			cmds[i] = &hd->commands[c];
			index_of[i] = (uint32_t)i;
			put_command(w, &hd->commands[c], (uint32_t)h);
		}
	}
	for (size_t k = 0; k < reg->n_abis; k++)
		put_entries(w, k, index_of, cmds, n_cmds);
	put_collisions(w);
	free(cmds);
	free(index_of);
}

int table_build(const struct registry *reg, const char *spec_dir, struct strbuf *out)
{
	static const size_t elem[TBL_SECTIONS] = {
		sizeof(struct tbl_version), sizeof(struct tbl_layout), sizeof(struct tbl_abi),
		sizeof(struct tbl_header), sizeof(struct tbl_command), sizeof(struct tbl_number),
		sizeof(struct tbl_entry), sizeof(struct tbl_slot), sizeof(struct tbl_collision),
		sizeof(uint32_t), 1 };
	struct writer w = { .reg = reg };
	struct tbl_head head = { .format = TBL_FORMAT, .byte_order = TBL_BYTE_ORDER,
				 .model_version = IOCTLGEN_MODEL_VERSION };
	size_t at = sizeof(head);
	int rc = 0;

	for (int s = 0; s < TBL_SECTIONS; s++)
		w.sec[s].elem = elem[s];
	w.pool.sec.elem = 1;
	str(&w.pool, "");
	head.spec_dir = str(&w.pool, spec_dir);
	put_registry(&w);
	w.sec[TBL_STRINGS] = w.pool.sec;
	w.sec[TBL_STRINGS].count = (uint32_t)w.pool.sec.sb.len;
	memcpy(head.magic, TBL_MAGIC, sizeof(head.magic));
	for (int s = 0; s < TBL_SECTIONS; s++) {
		at = (at + 7) & ~(size_t)7;
		head.sec[s].offset = (uint32_t)at;
		head.sec[s].count = w.sec[s].count;
		at += w.sec[s].sb.len;
	}
	if (at > UINT32_MAX)
		rc = -1;	/* offsets are 32-bit: a registry of gigabytes */
	head.size_lo = (uint32_t)at;
	sb_add(out, (const char *)&head, sizeof(head));
	for (int s = 0; s < TBL_SECTIONS; s++) {
		while (out->len < head.sec[s].offset)
			sb_putc(out, '\0');
		if (w.sec[s].sb.len)
			sb_add(out, w.sec[s].sb.buf, w.sec[s].sb.len);
		sb_release(&w.sec[s].sb);
	}
	free(w.pool.slots);
	return rc;
}

int table_open_registry(const struct registry *reg, const char *spec_dir, struct strbuf *mem,
			struct ioctlreg **out, char *err, size_t errlen)
{
	*out = NULL;
	if (table_build(reg, spec_dir, mem)) {
		snprintf(err, errlen, "the registry does not fit a lookup table (offsets are 32-bit)");
		return -1;
	}
	return ioctlreg_open_buffer(mem->buf, mem->len, out, err, errlen);
}
