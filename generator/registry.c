// SPDX-License-Identifier: GPL-2.0
/*
 * The registry's lookups and its order, which every stage shares: ABIs and
 * layouts by name, commands by name, spec order, the members of a
 * collision, a lifetime in words.  Ground floor: it calls nothing above it.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "registry.h"

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

const struct layout *registry_smallest(const struct registry *reg,
				       uint32_t (*max)(const struct layout *))
{
	const struct layout *best = NULL;

	for (size_t i = 0; i < reg->n_layouts; i++)
		if (!best || max(&reg->layouts[i]) < max(best))
			best = &reg->layouts[i];
	return best;
}

/*
 * Spec order of two commands.  Never compare command pointers across
 * headers: each header's commands are a separate allocation, so their
 * addresses follow the heap, not the spec (the order files were found on
 * disk showed in the output).  reg->headers is one array sorted by path.
 */
int command_spec_order(const struct command *a, const struct command *b)
{
	if (a->header != b->header)
		return a->header < b->header ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int cmd_name_cmp(const void *pa, const void *pb)
{
	const struct command *const *a = pa, *const *b = pb;
	int c = strcmp((*a)->name, (*b)->name);

	return c ? c : command_spec_order(*a, *b);
}

const struct command **commands_by_name(const struct registry *reg, size_t *n)
{
	const struct command **v = NULL;
	size_t cap = 0;

	*n = 0;
	for_each_command(reg, c) {
		grow(&v, &cap, *n + 1, sizeof(*v));
		v[(*n)++] = c;
	}
	if (*n)
		qsort(v, *n, sizeof(*v), cmd_name_cmp);
	/* the commands are the registry's, not const; only this order says
	 * which share a name */
	for (size_t i = 0; i < *n; i++)
		((struct command *)v[i])->name_id =
			i && !strcmp(v[i - 1]->name, v[i]->name) ? v[i - 1]->name_id : i;
	return v;
}

size_t find_named(const struct command **v, size_t n, const char *name, size_t *first)
{
	size_t lo = 0, hi = n, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(v[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < n && !strcmp(v[k]->name, name); k++)
		;
	*first = lo;
	return k - lo;
}

/* The k-th name of group g, the command's own name (its alias root) first; -1 past the end. */
long collision_member(const struct collision *col, size_t g, size_t k)
{
	if (g >= col->n_groups || k >= col->group_start[g + 1] - col->group_start[g])
		return -1;
	return (long)col->order[col->group_start[g] + k];
}

/* "A = B, C": the names of a collision, the names of one command joined by " = ". */
void collision_names(const struct collision *col, struct strbuf *sb, bool with_headers)
{
	for (size_t g = 0; g < col->n_groups; g++) {
		long i;

		/* sb_puts, not sb_printf: the check and the lint list thousands */
		for (size_t k = 0; (i = collision_member(col, g, k)) >= 0; k++) {
			sb_puts(sb, k ? " = " : g ? ", " : "");
			sb_puts(sb, col->cmds[i]->name);
			if (with_headers) {
				sb_lit(sb, " (");
				sb_puts(sb, col->cmds[i]->header->path);
				sb_putc(sb, ')');
			}
		}
	}
}

const char *const accept_rule_names[ACCEPT_RULES] = {
	"outside-range", "unregistered-magic", "shared-number", "overlap", "size-overflow",
	"reused-number", "row-versions", "padding", "i386-alignment", "abi-size"
};

bool registry_read_file(const struct registry *reg, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return false;
	for (size_t i = 0; i < reg->n_inputs; i++)
		if (reg->inputs[i].dev == (unsigned long long)st.st_dev &&
		    reg->inputs[i].ino == (unsigned long long)st.st_ino)
			return true;
	return false;
}

void registry_release(struct registry *reg)
{
	diags_release(&reg->diags);
	arena_release(&reg->arena);
}

size_t registry_command_count(const struct registry *reg)
{
	size_t n = 0;

	for (size_t h = 0; h < reg->n_headers; h++)
		n += reg->headers[h].n_commands;
	return n;
}
