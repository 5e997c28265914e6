// SPDX-License-Identifier: GPL-2.0
/* The table's commands: what each is, its numbers, and the commands of a header or magic code. */
#include <string.h>

#include "ioctlreg_int.h"

size_t ioctlreg_command_count(const struct ioctlreg *r) { return r->n_commands; }
size_t ioctlreg_header_count(const struct ioctlreg *r) { return r->n_headers; }

int ioctlreg_command(const struct ioctlreg *r, size_t cmd, struct ioctlreg_command *c)
{
	const struct tbl_command *t;

	if (cmd >= r->n_commands)
		return -1;
	t = &r->commands[cmd];
	*c = (struct ioctlreg_command){
		.name = reg_str(r, t->name), .header = reg_str(r, r->headers[t->header].path),
		.header_index = t->header, .flags = t->flags, .dir = t->dir, .magic = t->magic,
		.nr = t->nr, .nr_count = t->nr_count, .n_params = t->n_params,
		.nr_param = t->nr_param == TBL_NONE ? -1 : (int)t->nr_param,
		.size_param = t->size_param == TBL_NONE ? -1 : (int)t->size_param,
		.first_version = t->life_first, .end_version = t->life_end,
		.lifetime = reg_str(r, t->lifetime) };
	return 0;
}

const char *ioctlreg_command_name(const struct ioctlreg *r, size_t cmd)
{
	return cmd < r->n_commands ? reg_str(r, r->commands[cmd].name) : NULL;
}

const char *ioctlreg_command_param(const struct ioctlreg *r, size_t cmd, size_t p)
{
	if (cmd >= r->n_commands || p >= r->commands[cmd].n_params)
		return NULL;
	return reg_str(r, r->refs[r->commands[cmd].params + p]);
}

const char *ioctlreg_command_alias_root(const struct ioctlreg *r, size_t cmd, size_t abi)
{
	if (cmd >= r->n_commands || abi >= r->n_abis)
		return NULL;
	return reg_str(r, r->refs[r->commands[cmd].alias_roots + abi]);
}

long ioctlreg_command_find(const struct ioctlreg *r, const char *name, size_t from)
{
	for (size_t i = from; i < r->n_commands; i++)
		if (!strcmp(reg_str(r, r->commands[i].name), name))
			return (long)i;
	return -1;
}

int ioctlreg_command_number(const struct ioctlreg *r, size_t cmd, size_t abi, int v,
			    struct ioctlreg_number *n)
{
	const struct tbl_command *t;
	const struct tbl_number *x;
	uint32_t block = 0;

	if (cmd >= r->n_commands || abi >= r->n_abis)
		return 0;
	t = &r->commands[cmd];
	if (!(t->flags & TBL_NUMBERED))
		return 0;
	if (v >= 0 && r->n_versions) {
		if ((uint32_t)v < t->life_first || (uint32_t)v >= t->life_end)
			return 0;
		if (t->flags & TBL_PER_VERSION)
			block = 1 + (uint32_t)v - t->life_first;
	}
	x = &r->numbers[t->numbers + block * r->n_abis + abi];
	*n = (struct ioctlreg_number){ x->number, x->size, x->unit, !!(x->flags & TBL_VARIABLE) };
	return x->flags & TBL_PRESENT ? 1 : 0;
}

const char *ioctlreg_header_path(const struct ioctlreg *r, size_t h)
{
	return h < r->n_headers ? reg_str(r, r->headers[h].path) : NULL;
}

int ioctlreg_header_find(const struct ioctlreg *r, const char *path)
{
	for (uint32_t h = 0; h < r->n_headers; h++)
		if (!strcmp(reg_str(r, r->headers[h].path), path))
			return (int)h;
	return -1;
}

size_t ioctlreg_header_commands(const struct ioctlreg *r, size_t h, size_t *first)
{
	if (h >= r->n_headers) {
		*first = 0;
		return 0;
	}
	*first = r->headers[h].first_command;
	return r->headers[h].n_commands;
}

size_t ioctlreg_magic_commands(const struct ioctlreg *r, unsigned int magic, size_t *cmds, size_t max)
{
	size_t n = 0;

	for (uint32_t i = 0; i < r->n_commands; i++) {
		const struct tbl_command *t = &r->commands[i];

		if (t->magic != magic)
			continue;
		if (n < max)
			cmds[n] = i;
		n++;
	}
	return n;
}
