/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rule groups of the check stage, each in its own file, in the order
 * check.c runs them.  Internal to check*.c and collisions.c.
 */
#ifndef IOCTLGEN_RULES_H
#define IOCTLGEN_RULES_H

#include "nameset.h"
#include "registry.h"

/* check_lifetimes.c: the known versions, each entry's since and removed as
 * indexes of them, and the magic-code rows' doc-since */
void check_versions(struct registry *reg);
void resolve_lifetimes(struct registry *reg);
void check_doc_since(struct registry *reg);
/* check_names.c: layouts and ABIs named once; a command's name once per
 * header, one number per ABI; alias-of chains, their ends and numbers
 * (v: commands_by_name()) */
void check_names(struct registry *reg);
void check_command_names(struct registry *reg, const struct command **v, size_t n);
void check_aliases(struct registry *reg, const struct command **v, size_t n, bool sized);
/* check_abis.c: each ABI's layout, base and sizes; variants' ABIs; fields
 * that fit the smallest layout */
void link_abis(struct registry *reg, bool sized);
void check_variants(struct registry *reg);
void check_ranges(struct registry *reg);
/* and, when sized, that every kernel-sizes: entry is some kernel-internal
 * command's type */
void check_kernel_sizes(struct registry *reg);
/* check_magic.c: overlapping rows, commands outside the table */
void check_magic_table(struct registry *reg);
/* check_types.c: the members' types of the header specs' types, and their lints */
void check_types(struct registry *reg);
/* and the rules for new UAPI on their layouts (padding, i386-alignment), when sized */
void check_type_layouts(struct registry *reg);
/* check_bounds.c: the names C texts use as constants (array bounds, sizes)
 * are constants (sized: the measured sizes are there to ask) */
void check_bounds(struct registry *reg, bool sized);
/* Add to set the names of every header spec's constants and enum values. */
void registry_constants(const struct registry *reg, struct nameset *set);
/* check_namespace.c: one C namespace: no name another header, <asm/ioctl.h>,
 * an include guard or an empty macro owns */
void check_namespace(struct registry *reg);
/* check_new_marks.c: with a tree, the commands marked new are those its
 * version's uapi headers lack (defined: the header that defines a macro
 * name, or NULL) */
void check_new_marks(struct registry *reg, const char *tree,
		     const char *(*defined)(const void *ctx, const char *name), const void *ctx);
/* ... and, with reg->tree, a new header's names against the tree's uapi
 * headers' macros and tags, an imported header's bounds against its macros */
void check_tree(struct registry *reg);
/* check_paths.c: every header under a directory the kernel installs as UAPI */
void check_uapi_paths(struct registry *reg);
/* check_numbers.c: every command's numbers in every known version it
 * exists in, and the numbers that change between versions */
void number_versions(struct registry *reg, const struct command **byname, size_t n);
void check_abi_changes(struct registry *reg);
/* check_new_uapi.c: the argument of a new command has one size on every ABI */
void check_new_uapi(struct registry *reg);
/* collisions.c: numbers that several commands share, and their warnings */
void collisions_find(struct registry *reg);
/* check_clashes.c: a new command's magic and nr, or number, that another
 * command has: scanned on each ABI's number table (collisions_find), then
 * reported and freed */
struct number_table;
struct clashes;
bool registry_has_new_commands(const struct registry *reg);
struct clashes *clashes_new(void);
void clashes_scan(struct clashes *cl, const struct registry *reg, const struct abi *abi,
		  const struct number_table *t);
void clashes_report(struct registry *reg, struct clashes *cl);

#endif
