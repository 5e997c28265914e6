/* SPDX-License-Identifier: GPL-2.0 */
/* How an architecture packs an ioctl number: encode and decode one on a layout (layout.c). */
#ifndef IOCTLGEN_LAYOUT_H
#define IOCTLGEN_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

enum ioc_dir { DIR_NONE, DIR_READ, DIR_WRITE, DIR_READ_WRITE };

extern const char *const dir_names[4];	/* "none", "read", "write", "read-write" */

struct layout {
	const char *name, *doc;
	unsigned int nr_bits, type_bits, size_bits, dir_bits;
	unsigned int xsize_bits;	/* sparc: size bits read back with a direction, else 0 */
	unsigned int none, read, write;	/* the _IOC_NONE/_IOC_READ/_IOC_WRITE values */
	bool self_contained;
	const char **arches, **headers;
	size_t n_arches, n_headers;
	struct mark mark;
};

static inline unsigned int layout_type_shift(const struct layout *l) { return l->nr_bits; }
static inline unsigned int layout_size_shift(const struct layout *l) { return l->nr_bits + l->type_bits; }
static inline unsigned int layout_dir_shift(const struct layout *l)
{
	return l->nr_bits + l->type_bits + l->size_bits;
}

/* The dir field value for a direction, as _IOC_NONE etc. */
unsigned int layout_dir_value(const struct layout *l, enum ioc_dir dir);
/* _IOC(dir, type, nr, size); fields must already fit (see layout_fits). */
uint32_t layout_encode(const struct layout *l, enum ioc_dir dir, unsigned int type,
		       unsigned int nr, unsigned int size);
/* Largest value of each field. */
uint32_t layout_max_size(const struct layout *l);
uint32_t layout_max_nr(const struct layout *l);
uint32_t layout_max_type(const struct layout *l);

/* A number split as the kernel's _IOC_DIR/_IOC_TYPE/_IOC_NR/_IOC_SIZE do. */
struct ioc_fields {
	unsigned int dir;	/* raw _IOC_DIR value */
	unsigned int type, nr, size;
	int dir_name;		/* enum ioc_dir, or -1 when the value means none of them */
};

void layout_decode(const struct layout *l, uint32_t number, struct ioc_fields *f);
/* Mask of the bits _IOC_SIZE reads for a number with this dir value. */
uint32_t layout_size_mask(const struct layout *l, unsigned int dirval);

#endif
