/* SPDX-License-Identifier: GPL-2.0 */
/* The stages of registry_check(), internal to check.c, numbers.c and collisions.c. */
#ifndef IOCTLGEN_CHECK_H
#define IOCTLGEN_CHECK_H

#include "ioctlgen.h"

#define ERR(reg, m, rule, ...) diag_add(&(reg)->diags, (m), SEV_ERROR, rule, false, __VA_ARGS__)
#define WARN(reg, m, rule, acc, ...) diag_add(&(reg)->diags, (m), SEV_WARNING, rule, acc, __VA_ARGS__)
/* The same for a finding about command c: the model names it. */
#define CMD_ERR(reg, c, m, rule, ...) \
	diag_add_about(&(reg)->diags, command_about(c), (m), SEV_ERROR, rule, false, __VA_ARGS__)
#define CMD_WARN(reg, c, m, rule, acc, ...) \
	diag_add_about(&(reg)->diags, command_about(c), (m), SEV_WARNING, rule, acc, __VA_ARGS__)

/* numbers.c: the macro and C arguments of every command (needs no sizes) */
void commands_spell(struct registry *reg);
/* numbers.c: every command's number on every ABI with a layout and sizes,
 * with the sizes the ABIs show now (those of known version `version`):
 * with two known versions or more, only the commands that exist in it are
 * numbered, the others get numbers that are all absent */
void commands_number(struct registry *reg, size_t version);
/* numbers.c: the numbers of the commands spelled as another's name (after
 * commands_number of the same version); v: commands_by_name() */
void commands_number_by_name(struct registry *reg, size_t version, const struct command **v,
			     size_t n);
/* check.c: every command, sorted by name (then spec order): free() it */
const struct command **commands_by_name(const struct registry *reg, size_t *n);
/* check.c: the commands called name in v (from commands_by_name): *first and the count */
size_t find_named(const struct command **v, size_t n, const char *name, size_t *first);
/* check_types.c: the members' types of the header specs' types, and their lints */
void check_types(struct registry *reg);
/* collisions.c: numbers that several commands share, and their warnings */
void collisions_find(struct registry *reg);

#endif
