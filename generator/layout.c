// SPDX-License-Identifier: GPL-2.0
/*
 * One number on one layout, as <asm/ioctl.h> builds and splits it.
 * The unit tests compare every function here with the kernel's own macros.
 */
#include "layout.h"

const char *const dir_names[4] = { "none", "read", "write", "read-write" };

static uint32_t mask(unsigned int bits)
{
	return bits >= 32 ? UINT32_MAX : (UINT32_C(1) << bits) - 1;
}

uint32_t layout_max_size(const struct layout *l) { return mask(l->size_bits); }
uint32_t layout_max_nr(const struct layout *l) { return mask(l->nr_bits); }
uint32_t layout_max_type(const struct layout *l) { return mask(l->type_bits); }

unsigned int layout_dir_value(const struct layout *l, enum ioc_dir dir)
{
	switch (dir) {
	case DIR_NONE:
		return l->none;
	case DIR_READ:
		return l->read;
	case DIR_WRITE:
		return l->write;
	case DIR_READ_WRITE:
		return l->read | l->write;
	}
	return 0;
}

uint32_t layout_encode(const struct layout *l, enum ioc_dir dir, unsigned int type,
		       unsigned int nr, unsigned int size)
{
	return (uint32_t)layout_dir_value(l, dir) << layout_dir_shift(l) |
	       (uint32_t)type << layout_type_shift(l) |
	       (uint32_t)nr |
	       (uint32_t)size << layout_size_shift(l);
}

/*
 * sparc lets DIR and SIZE overlap: _IOC_NONE is the low dir bit, which is
 * also size bit 13.  With a read or write bit set, _IOC_DIR keeps only those
 * bits and _IOC_SIZE reads 14 bits; without, _IOC_SIZE is 0.
 */
uint32_t layout_size_mask(const struct layout *l, unsigned int dirval)
{
	if (l->xsize_bits) {
		if (!(dirval & (l->read | l->write)))
			return 0;
		return mask(l->xsize_bits);
	}
	return mask(l->size_bits);
}

void layout_decode(const struct layout *l, uint32_t number, struct ioc_fields *f)
{
	unsigned int raw = (number >> layout_dir_shift(l)) & mask(l->dir_bits);
	unsigned int rw = l->read | l->write;

	f->dir = raw;
	if (l->xsize_bits && (raw & rw))
		f->dir = raw & rw;
	f->type = (number >> layout_type_shift(l)) & mask(l->type_bits);
	f->nr = number & mask(l->nr_bits);
	f->size = (number >> layout_size_shift(l)) & layout_size_mask(l, raw);
	f->dir_name = -1;
	for (int d = DIR_NONE; d <= DIR_READ_WRITE; d++)
		if (f->dir == layout_dir_value(l, (enum ioc_dir)d))
			f->dir_name = d;
}
