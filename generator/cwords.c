// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctl macros and the fixed-width types: the one list of each
 * (numbers.c spells with the first and check_namespace.c reserves its
 * names, check_types.c checks members against the second, the model hands
 * both to the renderers and tools).
 */
#include <string.h>

#include "cwords.h"
#include "layout.h"

/* In this order: generator/ioctltools/expand.py #undefs them so, and its
 * probes are cached by their text. */
const struct ioc_macro ioc_macros[IOC_MACROS] = {
	{ "_IO", DIR_NONE, false },
	{ "_IOR", DIR_READ, false },
	{ "_IOW", DIR_WRITE, false },
	{ "_IOWR", DIR_READ_WRITE, false },
	{ "_IOC", -1, false },
	{ "_IOR_BAD", DIR_READ, true },
	{ "_IOW_BAD", DIR_WRITE, true },
	{ "_IOWR_BAD", DIR_READ_WRITE, true },
};

const char *ioc_macro_name(int dir, bool bad)
{
	const char *plain = NULL;

	for (size_t i = 0; i < IOC_MACROS; i++) {
		if (ioc_macros[i].dir != dir)
			continue;
		if (ioc_macros[i].bad == bad)
			return ioc_macros[i].name;
		if (!ioc_macros[i].bad)
			plain = ioc_macros[i].name;
	}
	return plain;
}

bool ioc_macro_named(const char *name)
{
	for (size_t i = 0; i < IOC_MACROS; i++)
		if (!strcmp(ioc_macros[i].name, name))
			return true;
	return false;
}

#define TYPES_H "linux/types.h"

const struct fixed_type fixed_types[FIXED_TYPES] = {
	{ "__u8", 1, TYPES_H }, { "__s8", 1, TYPES_H }, { "char", 1, NULL },
	{ "__u16", 2, TYPES_H }, { "__s16", 2, TYPES_H }, { "__be16", 2, TYPES_H }, { "__le16", 2, TYPES_H },
	{ "__u32", 4, TYPES_H }, { "__s32", 4, TYPES_H }, { "__be32", 4, TYPES_H }, { "__le32", 4, TYPES_H },
	{ "__u64", 8, TYPES_H }, { "__s64", 8, TYPES_H }, { "__be64", 8, TYPES_H }, { "__le64", 8, TYPES_H },
};

const struct fixed_type *fixed_type(const char *t)
{
	for (size_t i = 0; i < FIXED_TYPES; i++)
		if (!strcmp(fixed_types[i].name, t))
			return &fixed_types[i];
	return NULL;
}
