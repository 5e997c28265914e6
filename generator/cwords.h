/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C words the registry knows from the kernel's own headers: the ioctl
 * macros of <asm/ioctl.h> and the fixed-width types of <linux/types.h>
 * (cwords.c).  One list each: the model writes both ("ioctl-macros",
 * "fixed-width-types") and the Python tools read them from there.
 */
#ifndef IOCTLGEN_CWORDS_H
#define IOCTLGEN_CWORDS_H

#include <stdbool.h>
#include <stddef.h>

/* An ioctl macro: the direction it writes (enum ioc_dir; -1 for _IOC,
 * whose first argument gives it) and whether it is a legacy _IO*_BAD one,
 * which takes a size expression instead of a type. */
struct ioc_macro {
	const char *name;
	int dir;
	bool bad;
};

#define IOC_MACROS 8
extern const struct ioc_macro ioc_macros[IOC_MACROS];

/* The macro that spells a command of direction dir (enum ioc_dir): _IOR,
 * or _IOR_BAD when bad (no _IO_BAD: _IO passes no size). */
const char *ioc_macro_name(int dir, bool bad);

/* Is name one of the ioctl macros? */
bool ioc_macro_named(const char *name);

/* A type a registry struct member may have: a fixed-width integer, or
 * char; header: where the kernel defines it (NULL: C itself). */
struct fixed_type {
	const char *name;
	unsigned int size;
	const char *header;
};

#define FIXED_TYPES 15
extern const struct fixed_type fixed_types[FIXED_TYPES];

/* The fixed-width type named t, or NULL. */
const struct fixed_type *fixed_type(const char *t);

#endif
