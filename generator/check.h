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
/* numbers.c: every command's number on every ABI with a layout and sizes */
void commands_number(struct registry *reg);
/* collisions.c: numbers that several commands share, and their warnings */
void collisions_find(struct registry *reg);

#endif
