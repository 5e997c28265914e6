// SPDX-License-Identifier: GPL-2.0
/* The table's versions, ABIs and layouts; numbers split and made on a layout (layout.c). */
#include <string.h>

#include "ioctlreg_int.h"
#include "layout.h"

size_t ioctlreg_version_count(const struct ioctlreg *r) { return r->n_versions; }
size_t ioctlreg_abi_count(const struct ioctlreg *r) { return r->n_abis; }
size_t ioctlreg_layout_count(const struct ioctlreg *r) { return r->n_layouts; }

const char *ioctlreg_version_name(const struct ioctlreg *r, size_t v)
{
	return v < r->n_versions ? reg_str(r, r->versions[v].name) : NULL;
}

const char *ioctlreg_abi_name(const struct ioctlreg *r, size_t abi)
{
	return abi < r->n_abis ? reg_str(r, r->abis[abi].name) : NULL;
}

const char *ioctlreg_layout_name(const struct ioctlreg *r, size_t layout)
{
	return layout < r->n_layouts ? reg_str(r, r->layouts[layout].name) : NULL;
}

int ioctlreg_version_find(const struct ioctlreg *r, const char *name)
{
	for (uint32_t v = 0; v < r->n_versions; v++)
		if (!strcmp(reg_str(r, r->versions[v].name), name))
			return (int)v;
	return -1;
}

int ioctlreg_abi_find(const struct ioctlreg *r, const char *name)
{
	for (uint32_t k = 0; k < r->n_abis; k++)
		if (!strcmp(reg_str(r, r->abis[k].name), name))
			return (int)k;
	return -1;
}

int ioctlreg_abi_variant_of(const struct ioctlreg *r, size_t abi)
{
	return abi < r->n_abis && r->abis[abi].variant_of != TBL_NONE ? (int)r->abis[abi].variant_of : -1;
}

int ioctlreg_abi_layout(const struct ioctlreg *r, size_t abi)
{
	return abi < r->n_abis && r->abis[abi].layout != TBL_NONE ? (int)r->abis[abi].layout : -1;
}

/* The generator's own layout code does the bit work: one definition of it. */
static struct layout layout_of(const struct tbl_layout *t)
{
	return (struct layout){ .nr_bits = t->nr_bits, .type_bits = t->type_bits,
				.size_bits = t->size_bits, .dir_bits = t->dir_bits,
				.xsize_bits = t->xsize_bits, .none = t->none, .read = t->read,
				.write = t->write };
}

void ioctlreg_split(const struct ioctlreg *r, size_t layout, uint32_t number, struct ioctlreg_fields *f)
{
	struct ioc_fields x = { 0 };

	if (layout < r->n_layouts) {
		struct layout l = layout_of(&r->layouts[layout]);

		layout_decode(&l, number, &x);
	}
	*f = (struct ioctlreg_fields){ x.dir, layout < r->n_layouts ? x.dir_name : -1, x.type, x.nr,
				       x.size };
}

uint32_t ioctlreg_make(const struct ioctlreg *r, size_t layout, unsigned int dir, unsigned int type,
		       unsigned int nr, unsigned int size)
{
	struct layout l;

	if (layout >= r->n_layouts || dir > IOCTLREG_READ_WRITE)
		return 0;
	l = layout_of(&r->layouts[layout]);
	if (type > layout_max_type(&l) || nr > layout_max_nr(&l) || size > layout_max_size(&l))
		return 0;
	return layout_encode(&l, (enum ioc_dir)dir, type, nr, size);
}
