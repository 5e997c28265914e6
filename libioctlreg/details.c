// SPDX-License-Identifier: GPL-2.0
/* What the exports write beyond what decode prints (API 2): arches, the
 * spec's texts, per-ABI alias-of, the shared numbers. */
#include "ioctlreg_int.h"

unsigned int ioctlreg_model_version(const struct ioctlreg *r)
{
	return r->head->model_version;
}

const char *ioctlreg_abi_arch(const struct ioctlreg *r, size_t abi)
{
	return abi < r->n_abis ? reg_str(r, r->abis[abi].arch) : NULL;
}

const char *ioctlreg_header_arch(const struct ioctlreg *r, size_t h)
{
	return h < r->n_headers ? reg_str(r, r->headers[h].arch) : NULL;
}

const char *ioctlreg_command_text(const struct ioctlreg *r, size_t cmd, enum ioctlreg_text which)
{
	const struct tbl_command *c;

	if (cmd >= r->n_commands)
		return NULL;
	c = &r->commands[cmd];
	switch (which) {
	case IOCTLREG_SINCE:
		return reg_str(r, c->since);
	case IOCTLREG_REMOVED:
		return reg_str(r, c->removed);
	case IOCTLREG_NUMBER_TEXT:
		return reg_str(r, c->number_text);
	}
	return NULL;
}

const char *ioctlreg_command_alias_of(const struct ioctlreg *r, size_t cmd, size_t abi)
{
	if (cmd >= r->n_commands || abi >= r->n_abis)
		return NULL;
	return reg_str(r, r->refs[r->commands[cmd].alias_of + abi]);
}

size_t ioctlreg_shared_count(const struct ioctlreg *r)
{
	return r->n_collisions;
}

int ioctlreg_shared(const struct ioctlreg *r, size_t i, struct ioctlreg_shared *s)
{
	const struct tbl_collision *c;

	if (i >= r->n_collisions)
		return -1;
	c = &r->collisions[i];
	*s = (struct ioctlreg_shared){ c->abi, c->number,
				       (uint64_t)c->versions_hi << 32 | c->versions_lo, c->n_names };
	return 0;
}

const char *ioctlreg_shared_name(const struct ioctlreg *r, size_t i, size_t k)
{
	if (i >= r->n_collisions || k >= r->collisions[i].n_names)
		return NULL;
	return reg_str(r, r->refs[r->collisions[i].names + k]);
}
