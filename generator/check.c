// SPDX-License-Identifier: GPL-2.0
/*
 * The check stage as a pipeline: the rule groups (rules.h, a file each),
 * the numbers (numbers.c, check_numbers.c) and the shared numbers
 * (collisions.c), in order.  Errors mean the registry is wrong; warnings
 * describe the kernel as it really is and can be accepted entry by entry
 * (accept: [...]).
 */
#include <stdlib.h>

#include "check.h"
#include "numbers.h"
#include "rules.h"

/* Every rule runs even after errors, so that one run reports every
 * problem; numbers are computed for the ABIs whose layout and sizes are
 * known, and only when sized. */
static void check(struct registry *reg, bool sized)
{
	const struct command **byname;
	size_t n;

	check_names(reg);
	check_versions(reg);
	resolve_lifetimes(reg);
	check_doc_since(reg);
	link_abis(reg, sized);
	check_variants(reg);
	check_types(reg);
	check_bounds(reg, sized);
	check_namespace(reg);
	check_uapi_paths(reg);
	check_ranges(reg);
	commands_spell(reg);
	/* one index of the commands by name for the stages that look names up */
	byname = commands_by_name(reg, &n);
	if (sized) {
		number_versions(reg, byname, n);
		check_abi_changes(reg);
		check_new_uapi(reg);
		check_type_layouts(reg);
		check_kernel_sizes(reg);
	}
	check_command_names(reg, byname, n);
	check_aliases(reg, byname, n, sized);
	free(byname);
	check_magic_table(reg);
	if (sized)
		collisions_find(reg);
	if (reg->tree)
		check_tree(reg);
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
