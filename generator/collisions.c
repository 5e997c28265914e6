// SPDX-License-Identifier: GPL-2.0
/*
 * Shared numbers: on each ABI, the numbers several commands carry (from the
 * ABI's number table), classified: names whose alias-of chains end in one
 * command are one group, and two groups or more are a real conflict.  Then
 * one warning per set of names in conflict, listing every ABI where they
 * share a number.  A shared number of aliases only is listed, not warned.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "numbers.h"
#include "rules.h"

/* ", abi 0x12345678" (no comma first): the lists of the warnings below,
 * tens of thousands of items in a large registry, without printf */
static void list_abi_number(struct strbuf *sb, const char *abi, uint32_t number)
{
	static const char hex[] = "0123456789abcdef";
	char *p;

	if (sb->len)
		sb_lit(sb, ", ");
	sb_puts(sb, abi);
	p = sb_room(sb, 11);
	memcpy(p, " 0x", 3);
	for (int i = 0; i < 8; i++)
		p[3 + i] = hex[number >> (28 - 4 * i) & 15];
	sb_wrote(sb, 11);
}

static void add_collision(struct registry *reg, size_t *cap, const struct abi *abi, uint32_t number,
			  const struct number_entry *group, size_t n, uint32_t size, uint64_t versions)
{
	struct collision *col;
	size_t k = 0;

	col = arena_slot(&reg->arena, &reg->collisions, cap, reg->n_collisions++,
			 sizeof(*reg->collisions));
	col->abi = abi;
	col->number = number;
	col->versions = versions;
	col->cmds = arena_alloc(&reg->arena, n * sizeof(*col->cmds));
	for (size_t i = 0; i < n; i++) {
		bool dup = false;

		if (!(group[i].variable || group[i].size == size))
			continue;
		/* the same name from two headers is one name here */
		for (size_t x = 0; x < k && !dup; x++)
			dup = col->cmds[x]->name_id == group[i].cmd->name_id;
		if (!dup)
			col->cmds[k++] = group[i].cmd;
	}
	col->n_cmds = k;
	/* one group per alias root, in order of first appearance; each root
	 * looked up once, not once per pair */
	const char **root = xrealloc(NULL, (k + 1) * sizeof(*root));
	size_t *count;

	col->group = arena_alloc(&reg->arena, (k + 1) * sizeof(*col->group));
	col->n_groups = 0;
	for (size_t i = 0; i < k; i++) {
		size_t g;

		root[i] = command_alias_root_on(col->cmds[i], abi);
		for (g = 0; g < i; g++)
			if (!strcmp(root[g], root[i]))
				break;
		col->group[i] = g < i ? col->group[g] : col->n_groups++;
	}
	/*
	 * The members of each group in the order collision_member() gives
	 * them: the root's own name first, then the others as they appear.
	 * Made once here: rescanning every member per lookup made writing
	 * the collisions quadratic in their size.
	 */
	col->group_start = arena_alloc(&reg->arena, (col->n_groups + 1) * sizeof(*col->group_start));
	col->order = arena_alloc(&reg->arena, (k + 1) * sizeof(*col->order));
	count = memset(xrealloc(NULL, (col->n_groups + 1) * sizeof(*count)), 0,
		       (col->n_groups + 1) * sizeof(*count));
	for (size_t i = 0; i < k; i++)
		count[col->group[i]]++;
	col->group_start[0] = 0;
	for (size_t g = 0; g < col->n_groups; g++)
		col->group_start[g + 1] = col->group_start[g] + count[g];
	memset(count, 0, (col->n_groups + 1) * sizeof(*count));
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < k; i++) {
			size_t g = col->group[i];
			bool is_root = !strcmp(col->cmds[i]->name, root[i]);

			if (is_root == !pass)
				col->order[col->group_start[g] + count[g]++] = i;
		}
	free(count);
	free(root);
}

/*
 * Do two distinct commands carry the number at this size?  A family over
 * many nr shares a number with itself only across params: that is one.
 * Comparing with the first one's name is enough, and linear: counting
 * the distinct names pair by pair was quadratic in a number's entries.
 */
static bool distinct_cmds(const struct number_entry *g, size_t n, uint32_t size)
{
	const struct command *first = NULL;

	for (size_t i = 0; i < n; i++) {
		if (!(g[i].variable || g[i].size == size))
			continue;
		if (!first)
			first = g[i].cmd;
		else if (g[i].cmd->name_id != first->name_id)
			return true;
	}
	return false;
}

/* A dead number used again: now exists in a version where gone, with the
 * same number on an ABI, no longer does.  One warning per pair, listing
 * every ABI. */
struct reuse {
	const struct command *now, *gone;
	const struct abi *abi;	/* the last ABI listed: a family's first number says it */
	struct strbuf abis;
};

struct reuses {
	struct reuse *v;
	size_t n, cap;
};

static void note_reuse(struct reuses *r, const struct abi *abi, uint32_t number,
		       const struct command *now, const struct command *gone)
{
	struct reuse *u = NULL;

	for (size_t i = 0; i < r->n && !u; i++)
		if (r->v[i].now == now && r->v[i].gone == gone)
			u = &r->v[i];
	if (!u) {
		grow(&r->v, &r->cap, r->n + 1, sizeof(*r->v));
		u = &r->v[r->n++];
		*u = (struct reuse){ now, gone, NULL, { 0 } };
	}
	if (u->abi == abi)
		return;
	u->abi = abi;
	list_abi_number(&u->abis, abi->name, number);
}

/*
 * Pairs of distinct commands of one number whose lifetimes do not meet,
 * the later one born when (or after) the earlier one was removed.  Those
 * whose lifetimes meet are shared numbers (below), never reuses.
 */
static void find_reuses(struct reuses *r, const struct abi *abi,
			const struct number_table *t, const struct number_entry *g, size_t n)
{
	size_t latest = 0;	/* the latest first version of the number's commands */

	/* most commands live in every version: one that ends after every
	 * other begins pairs with none (and a number's entries are many in
	 * a large registry) */
	for (size_t y = 0; y < n; y++)
		if (g[y].life_first > latest)
			latest = g[y].life_first;
	for (size_t x = 0; x < n; x++) {
		if (g[x].life_end > latest)
			continue;
		for (size_t y = 0; y < n; y++) {
			const struct command *gone = g[x].cmd, *now = g[y].cmd;

			if (gone == now || g[x].life_end > g[y].life_first ||
			    !(g[x].variable || g[y].variable || g[x].size == g[y].size) ||
			    !strcmp(command_alias_root_on(gone, abi), command_alias_root_on(now, abi)))
				continue;
			note_reuse(r, abi, g[y].key | (g[y].variable ? g[x].size : g[y].size) << t->size_shift,
				   now, gone);
		}
	}
}

static void warn_reuses(struct registry *reg, struct reuses *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct reuse *u = &r->v[i];

		CMD_WARN(reg, u->now, u->now->life.since_mark, "reused-number",
			 (u->now->accept & ACCEPT_REUSED_NUMBER) != 0,
			 "%s (new in %s) reuses the number of %s (%s), removed in %s: %s; a dead number is never reused",
			 u->now->name, reg->versions[u->now->life.first].name, u->gone->name,
			 u->gone->header->path, reg->versions[u->gone->life.end].name, u->abis.buf);
		sb_release(&r->v[i].abis);
	}
	free(r->v);
}

/*
 * The commands of one number and size that coexist: per known version, the
 * entries of commands that exist in it; one collision per distinct set of
 * two commands or more, with the versions it holds in.  A registry whose
 * every command exists in every version has one set, as before versions.
 */
static void add_collisions(struct registry *reg, size_t *cap, const struct abi *abi,
			   uint32_t number, const struct number_entry *g, size_t n, uint32_t size,
			   struct number_entry **scratch, size_t *scratch_cap)
{
	size_t nv = reg->n_versions ? reg->n_versions : 1;
	uint64_t done = 0;

	for (size_t v = 0; v < nv; v++) {
		uint64_t mask = 0;
		size_t k = 0;

		if (done >> v & 1)
			continue;
		for (size_t w = v; w < nv; w++) {
			bool same = true;

			/* only the entries of this size count: another size's
			 * command coming or going changes nothing here */
			for (size_t x = 0; x < n && same; x++)
				same = !(g[x].variable || g[x].size == size) ||
				       number_entry_in(reg, &g[x], v) == number_entry_in(reg, &g[x], w);
			if (same)
				mask |= (uint64_t)1 << w;
		}
		done |= mask;
		grow(scratch, scratch_cap, n, sizeof(**scratch));
		for (size_t x = 0; x < n; x++)
			if (number_entry_in(reg, &g[x], v))
				(*scratch)[k++] = g[x];
		if (distinct_cmds(*scratch, k, size))
			add_collision(reg, cap, abi, number, *scratch, k, size,
				      reg->n_versions ? mask : 0);
	}
}

/*
 * The entries of group g (one key, n entries, sorted by size) that carry
 * size sz: the run [x, y) of that size and every variable-size entry, in
 * the group's order.  Built per size from the variable entries' places
 * (var, n_var of them): filtering the whole group for each of its sizes
 * was quadratic in a group's size.
 */
static size_t entries_of_size(const struct number_entry *g, size_t x, size_t y,
			      const size_t *var, size_t n_var, struct number_entry *out)
{
	size_t n = 0, p = 0;

	while (p < n_var && var[p] < x)
		out[n++] = g[var[p++]];
	for (size_t z = x; z < y; z++)
		out[n++] = g[z];
	while (p < n_var && var[p] < y)
		p++;
	while (p < n_var)
		out[n++] = g[var[p++]];
	return n;
}

/* A protocol code (binder's BC_*, BR_*) is written into a driver's buffer,
 * never passed to ioctl(): it shares no number with a request. */
static void drop_protocol_codes(struct number_table *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		if (!t->v[i].protocol_code)
			t->v[n++] = t->v[i];
	t->n = n;
}

static void find_collisions(struct registry *reg)
{
	size_t cap = 0, scratch_cap = 0, sel_cap = 0, var_cap = 0;
	struct number_entry *scratch = NULL, *sel = NULL;
	size_t *var = NULL;
	struct reuses reuses = { 0 };
	struct clashes *clashes = registry_has_new_commands(reg) ? clashes_new() : NULL;

	struct number_table *tables = xrealloc(NULL, (reg->n_abis + 1) * sizeof(*tables));

	number_tables_build(tables, reg);
	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct abi *abi = &reg->abis[k];
		struct number_table t = tables[k];
		const struct number_entry *s;

		drop_protocol_codes(&t);
		s = t.v;
		for (size_t i = 0; i < t.n;) {
			size_t j = i, n_var = 0;
			bool any_fixed = false;

			while (j < t.n && s[j].key == s[i].key)
				j++;
			if (j - i > 1 && reg->n_versions > 1)
				find_reuses(&reuses, abi, &t, s + i, j - i);
			grow(&sel, &sel_cap, j - i, sizeof(*sel));
			grow(&var, &var_cap, j - i, sizeof(*var));
			for (size_t x = 0; x < j - i; x++)
				if (s[i + x].variable)
					var[n_var++] = x;
			/* one collision per distinct fixed size, variable-size families join each */
			for (size_t x = 0, y; x < j - i; x = y) {
				uint32_t size = s[i + x].size;
				size_t n_sel;

				y = x + 1;
				if (s[i + x].variable)
					continue;
				any_fixed = true;
				while (y < j - i && s[i + y].size == size)
					y++;
				n_sel = entries_of_size(s + i, x, y, var, n_var, sel);
				if (distinct_cmds(sel, n_sel, size))
					add_collisions(reg, &cap, abi, s[i + x].key | size << t.size_shift,
						       sel, n_sel, size, &scratch, &scratch_cap);
			}
			if (!any_fixed && distinct_cmds(s + i, j - i, UINT32_MAX))
				add_collisions(reg, &cap, abi, s[i].key, s + i, j - i, UINT32_MAX,
					       &scratch, &scratch_cap);
			i = j;
		}
		if (clashes)
			clashes_scan(clashes, reg, abi, &t);
		number_table_release(&t);
	}
	free(tables);
	if (clashes)
		clashes_report(reg, clashes);
	free(scratch);
	free(sel);
	free(var);
	warn_reuses(reg, &reuses);
}

/* FNV-1a of a set's names, for the table of sets below. */
static uint64_t names_hash(const char *s)
{
	uint64_t h = 1469598103934665603u;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		h = (h ^ *p) * 1099511628211u;
	return h;
}

/*
 * One warning per set of commands that share a number, listing every ABI
 * where they do, in the order the sets first appear.  The sets are found
 * by their names in a hash table, each chaining its collisions in order:
 * linear.  Comparing every pair was quadratic in the number of collisions,
 * and sorting them by names n log n in string comparisons (make bench).
 */
static void warn_collisions(struct registry *reg)
{
	size_t n = reg->n_collisions, cap = 16;
	char **names = xrealloc(NULL, (n + 1) * sizeof(*names));
	/* next[i]: the next collision of i's set, or SIZE_MAX; last[f]: the
	 * last one so far of the set whose first is f */
	size_t *next = xrealloc(NULL, (n + 1) * sizeof(*next));
	size_t *last = xrealloc(NULL, (n + 1) * sizeof(*last));
	bool *first = xrealloc(NULL, (n + 1) * sizeof(*first));
	size_t *slot;	/* each set's first collision, SIZE_MAX for a free slot */

	while (cap < 2 * n)
		cap *= 2;
	slot = memset(xrealloc(NULL, cap * sizeof(*slot)), 0xff, cap * sizeof(*slot));
	for (size_t i = 0; i < n; i++) {
		const struct collision *col = &reg->collisions[i];
		struct strbuf sb = { 0 };
		size_t h;

		names[i] = NULL;
		next[i] = SIZE_MAX;
		first[i] = false;
		/* aliases only: listed in the model, not warned */
		if (!collision_conflict(col))
			continue;
		collision_names(col, &sb, false);
		names[i] = sb.buf;
		h = (size_t)names_hash(names[i]) & (cap - 1);
		while (slot[h] != SIZE_MAX && strcmp(names[slot[h]], names[i]))
			h = (h + 1) & (cap - 1);
		if (slot[h] == SIZE_MAX) {
			slot[h] = last[i] = i;
			first[i] = true;
		} else {
			next[last[slot[h]]] = i;
			last[slot[h]] = i;
		}
	}
	for (size_t f = 0; f < n; f++) {
		const struct collision *col = &reg->collisions[f];
		const struct command *at = col->cmds[0];
		struct strbuf abis = { 0 };
		bool accepted = false, has_new = false;

		if (!first[f])
			continue;
		for (size_t k = 0; k < col->n_cmds; k++) {
			accepted |= (col->cmds[k]->accept & ACCEPT_SHARED_NUMBER) != 0;
			has_new |= command_is_new(col->cmds[k]);
			if (command_spec_order(col->cmds[k], at) > 0)
				at = col->cmds[k];
		}
		for (size_t o = f; o != SIZE_MAX; o = next[o])
			list_abi_number(&abis, reg->collisions[o].abi->name, reg->collisions[o].number);
		/* a set with a new command is its clash error (check_clashes.c) */
		if (!has_new)
			CMD_WARN(reg, at, at->mark, "shared-number", accepted, "%s share a number: %s",
				 names[f], abis.buf);
		sb_release(&abis);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(next);
	free(last);
	free(first);
	free(slot);
}

void collisions_find(struct registry *reg)
{
	find_collisions(reg);
	warn_collisions(reg);
}
