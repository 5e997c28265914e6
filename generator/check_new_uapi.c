// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's rules for a new ioctl interface
 * (Documentation/process/botching-up-ioctls.rst, driver-api/ioctl.rst), on
 * the commands the series adds (command_is_new()): the argument has one
 * size on every ABI the registry measures, so that a 64-bit kernel serves
 * 32-bit callers without a compat handler.  An error unless the command
 * accepts abi-size with an accept-reason.  The types a new header defines
 * meet the layout rules of check_types.c; this rule catches what those do
 * not see: an argument type of the kernel's (long, a pointer, a struct
 * with a time_t) or one whose measured sizes differ for any other reason.
 * The old commands keep their ABI: the lint lists them (abi-dependent-size).
 */
#include "rules.h"

void check_new_uapi(struct registry *reg)
{
	for_each_command(reg, c) {
		const struct abi_number *first = NULL;
		const struct abi *first_abi = NULL;

		if (!command_is_new(c) || !c->numbers || c->plain)
			continue;
		for (size_t k = 0; k < reg->n_abis; k++) {
			const struct abi_number *n = &c->numbers[k];

			if (!n->present || n->variable_size)
				continue;
			if (!first) {
				first = n;
				first_abi = &reg->abis[k];
				continue;
			}
			if (n->size == first->size && n->unit == first->unit)
				continue;
			if ((c->accept & ACCEPT_ABI_SIZE) && c->accept_reason)
				CMD_WARN(reg, c, c->type_mark.file ? c->type_mark : c->mark, "abi-size", true,
					 "%s: its argument is %u bytes on %s and %u on %s; accept-reason: %s",
					 c->name, first->size, first_abi->name, n->size,
					 reg->abis[k].name, c->accept_reason);
			else
				CMD_ERR(reg, c, c->type_mark.file ? c->type_mark : c->mark, "abi-size",
					"%s is new, and its argument is %u bytes on %s but %u on %s: a 64-bit kernel would need a compat_ioctl that converts it; use fixed-width members (__u32, __u64), no long, pointer or time_t, and pad to a multiple of 8%s",
					c->name, first->size, first_abi->name, n->size,
					reg->abis[k].name,
					c->accept & ACCEPT_ABI_SIZE ? " (accept: [abi-size] needs an accept-reason)" : "");
			break;
		}
	}
}
