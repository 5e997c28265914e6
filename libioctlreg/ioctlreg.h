/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libioctlreg: the ioctl registry's lookup table, for programs.
 *
 * A table (made by `ioctlgen table`, or built into the installed library)
 * holds every command of the registry, and per ABI (x86_64, i386, ...)
 * every number each command carries in each known kernel version.  Open
 * one, then look numbers up, list the commands of a header or a magic
 * code, or iterate.  Indexes (ABI, version, layout, header, command) run
 * from 0 to the count less one; every string belongs to the table and
 * lives until ioctlreg_close().  Nothing here allocates per call; a table
 * may be read from several threads at once.
 *
 * API version 2: names and meanings below stay; later versions only add
 * (2 added what the exports need: arches, the spec's texts, per-ABI
 * alias-of, shared numbers).
 */
#ifndef IOCTLREG_H
#define IOCTLREG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IOCTLREG_API_VERSION 2

#if defined(__GNUC__)
#define IOCTLREG_EXPORT __attribute__((visibility("default")))
#else
#define IOCTLREG_EXPORT
#endif

struct ioctlreg;

/* Open a table file (mapped, checked whole).  Returns 0, or -1 with a
 * message in err ("FILE: not an ioctl table") when err is not NULL. */
IOCTLREG_EXPORT int ioctlreg_open(const char *path, struct ioctlreg **out, char *err, size_t errlen);
/* A table in memory; the caller keeps data alive and unchanged until close. */
IOCTLREG_EXPORT int ioctlreg_open_buffer(const void *data, size_t len, struct ioctlreg **out,
					 char *err, size_t errlen);
/* The table built into the installed library (libioctlreg.a/.so). */
IOCTLREG_EXPORT int ioctlreg_open_builtin(struct ioctlreg **out, char *err, size_t errlen);
IOCTLREG_EXPORT void ioctlreg_close(struct ioctlreg *r);

/* Where and when the table was made: the spec directory, relative to the
 * directory of the table file (the bytes name no absolute path), and for a
 * table opened from a file its mtime, which `ioctlgen table` sets to the
 * time it read the registry (seconds and nanoseconds since the epoch; 0 for
 * a buffer or the built-in table). */
IOCTLREG_EXPORT const char *ioctlreg_spec_dir(const struct ioctlreg *r);
IOCTLREG_EXPORT void ioctlreg_made(const struct ioctlreg *r, int64_t *sec, long *nsec);

/* ---------------------------------------------------------------- ABIs, versions, layouts */

/* Known kernel versions, oldest first ("6.1", "6.12"); 0 for a registry
 * without versions.  IOCTLREG_ANY_VERSION: any of them. */
#define IOCTLREG_ANY_VERSION (-1)
IOCTLREG_EXPORT size_t ioctlreg_version_count(const struct ioctlreg *r);
IOCTLREG_EXPORT const char *ioctlreg_version_name(const struct ioctlreg *r, size_t v);
/* The index of a version or ABI by name, or -1. */
IOCTLREG_EXPORT int ioctlreg_version_find(const struct ioctlreg *r, const char *name);

IOCTLREG_EXPORT size_t ioctlreg_abi_count(const struct ioctlreg *r);
IOCTLREG_EXPORT const char *ioctlreg_abi_name(const struct ioctlreg *r, size_t abi);
IOCTLREG_EXPORT int ioctlreg_abi_find(const struct ioctlreg *r, const char *name);
/* The ABI this one is a variant of (i386-time64: i386), or -1. */
IOCTLREG_EXPORT int ioctlreg_abi_variant_of(const struct ioctlreg *r, size_t abi);
/* The layout of an ABI's numbers, or -1 when the registry has none for it. */
IOCTLREG_EXPORT int ioctlreg_abi_layout(const struct ioctlreg *r, size_t abi);

IOCTLREG_EXPORT size_t ioctlreg_layout_count(const struct ioctlreg *r);
IOCTLREG_EXPORT const char *ioctlreg_layout_name(const struct ioctlreg *r, size_t layout);

enum ioctlreg_dir { IOCTLREG_NONE, IOCTLREG_READ, IOCTLREG_WRITE, IOCTLREG_READ_WRITE };

/* A number split as the kernel's _IOC_DIR, _IOC_TYPE, _IOC_NR, _IOC_SIZE. */
struct ioctlreg_fields {
	unsigned int dir;	/* the raw _IOC_DIR value */
	int dir_name;		/* enum ioctlreg_dir, or -1: the value is none of them */
	unsigned int type, nr, size;
};
IOCTLREG_EXPORT void ioctlreg_split(const struct ioctlreg *r, size_t layout, uint32_t number,
				    struct ioctlreg_fields *f);
/* _IOC(dir, type, nr, size) on a layout (dir as enum ioctlreg_dir); 0 when a
 * field does not fit. */
IOCTLREG_EXPORT uint32_t ioctlreg_make(const struct ioctlreg *r, size_t layout, unsigned int dir,
				       unsigned int type, unsigned int nr, unsigned int size);

/* ---------------------------------------------------------------- commands */

enum ioctlreg_command_flags {
	IOCTLREG_NUMBERED = 1 << 0,	/* it has numbers (ioctlreg_command_number) */
	IOCTLREG_PER_VERSION = 1 << 1,	/* they may differ between versions */
	IOCTLREG_SIZE_UNIT = 1 << 2,	/* the size field counts elements (SPI_IOC_MESSAGE(N)) */
	IOCTLREG_RESERVED = 1 << 3,	/* reserved: no command behind it */
	IOCTLREG_PLAIN = 1 << 4,	/* the header spells it as a plain number (TCGETS) */
	/* a protocol code: _IO*-encoded, written into the driver's buffer,
	 * never an ioctl request (binder's BC_*, BR_*) */
	IOCTLREG_PROTOCOL_CODE = 1 << 5,
	/* its header is the tree's include/<path>, not UAPI (scsi/sg.h); an ABI
	 * where it has no number was not measured there */
	IOCTLREG_KERNEL_INTERNAL = 1 << 6,
};

struct ioctlreg_command {
	const char *name;	/* "FS_IOC_GETFLAGS" */
	const char *header;	/* "linux/fs.h" */
	size_t header_index;
	unsigned int flags;	/* enum ioctlreg_command_flags */
	unsigned int dir;	/* enum ioctlreg_dir (unset for PLAIN) */
	unsigned int magic, nr;
	unsigned int nr_count;	/* a family's nrs: nr .. nr + nr_count - 1 */
	size_t n_params;	/* a macro with parameters: EVIOCGBIT(ev, len) */
	int nr_param, size_param;	/* which parameter the nr or size is, or -1 */
	/* the versions it exists in: [first_version, end_version) */
	size_t first_version, end_version;
	const char *lifetime;	/* "6.1 only; removed in 6.12", "" in every one */
};

IOCTLREG_EXPORT size_t ioctlreg_command_count(const struct ioctlreg *r);
/* Fill *c; returns 0, or -1 for an index out of range. */
IOCTLREG_EXPORT int ioctlreg_command(const struct ioctlreg *r, size_t cmd, struct ioctlreg_command *c);
/* Its name alone, without filling a struct (NULL out of range). */
IOCTLREG_EXPORT const char *ioctlreg_command_name(const struct ioctlreg *r, size_t cmd);
IOCTLREG_EXPORT const char *ioctlreg_command_param(const struct ioctlreg *r, size_t cmd, size_t p);
/* The command this one is another name of on an ABI (the end of its
 * alias-of chain), its own name when it is no alias. */
IOCTLREG_EXPORT const char *ioctlreg_command_alias_root(const struct ioctlreg *r, size_t cmd,
							size_t abi);
/* The index of the first command called name at or after index from, or
 * -1.  Names repeat across headers (TCGETS of asm-generic/ioctls.h and of
 * each arch's asm/ioctls.h): pass the last index found plus one for the
 * next.  A linear scan: for lookups by number, ioctlreg_lookup(). */
IOCTLREG_EXPORT long ioctlreg_command_find(const struct ioctlreg *r, const char *name, size_t from);

struct ioctlreg_number {
	uint32_t number;	/* for a family, every parameter 0 */
	uint32_t size;		/* its size field */
	uint32_t unit;		/* sizeof(size-unit) on the ABI, or 0 */
	int variable_size;	/* the caller gives the size */
};
/* The number of a command on an ABI in version v (IOCTLREG_ANY_VERSION: the
 * newest version it exists in).  Returns 1 and fills *n, or 0 when it has
 * none there (not on that ABI, not in that version). */
IOCTLREG_EXPORT int ioctlreg_command_number(const struct ioctlreg *r, size_t cmd, size_t abi, int v,
					    struct ioctlreg_number *n);

/* ---------------------------------------------------------------- lookups */

struct ioctlreg_hit {
	size_t command;
	uint64_t versions;	/* bit v: it carries the number in version v */
	unsigned int nr_arg;	/* a family's nr parameter */
	uint32_t size_arg;	/* the caller's size, for a size-param family */
};

/* The commands that carry number on an ABI, in version v or any: their
 * count (all of them), the first max in *hits, in spec order (header
 * path, then the header's order). */
IOCTLREG_EXPORT size_t ioctlreg_lookup(const struct ioctlreg *r, size_t abi, int v, uint32_t number,
				       struct ioctlreg_hit *hits, size_t max);
/* The commands of the same direction, type and nr but another size (a
 * struct that grew, a caller built against other headers); size_arg is
 * the size each carries.  Same conventions. */
IOCTLREG_EXPORT size_t ioctlreg_lookup_other_sizes(const struct ioctlreg *r, size_t abi, int v,
						   uint32_t number, struct ioctlreg_hit *hits,
						   size_t max);

/* ---------------------------------------------------------------- iteration */

IOCTLREG_EXPORT size_t ioctlreg_header_count(const struct ioctlreg *r);
IOCTLREG_EXPORT const char *ioctlreg_header_path(const struct ioctlreg *r, size_t h);
/* The index of a header by path ("linux/fs.h"), or -1. */
IOCTLREG_EXPORT int ioctlreg_header_find(const struct ioctlreg *r, const char *path);
/* Its commands are first .. first + count - 1; returns count. */
IOCTLREG_EXPORT size_t ioctlreg_header_commands(const struct ioctlreg *r, size_t h, size_t *first);
/* The commands whose magic code is magic, in spec order: their count, the
 * first max indexes in *cmds. */
IOCTLREG_EXPORT size_t ioctlreg_magic_commands(const struct ioctlreg *r, unsigned int magic,
					       size_t *cmds, size_t max);

/* ---------------------------------------------------------------- what the exports write (API 2) */

/* The version of the JSON model (build/model.json) the table was made with. */
IOCTLREG_EXPORT unsigned int ioctlreg_model_version(const struct ioctlreg *r);
/* The ARCH of an ABI ("x86"); of a header, the ARCH of an arch/<ARCH>/
 * header ("powerpc" for its asm/ioctls.h), "" for others.  NULL out of range. */
IOCTLREG_EXPORT const char *ioctlreg_abi_arch(const struct ioctlreg *r, size_t abi);
IOCTLREG_EXPORT const char *ioctlreg_header_arch(const struct ioctlreg *r, size_t h);

/* A command's texts as its spec writes them; "" where it has none. */
enum ioctlreg_text {
	IOCTLREG_SINCE,		/* since: the first version ("" : the oldest known) */
	IOCTLREG_REMOVED,	/* removed: the first version without it ("": still there) */
	IOCTLREG_NUMBER_TEXT,	/* a plain number as its header writes it ("0x5401") */
};
IOCTLREG_EXPORT const char *ioctlreg_command_text(const struct ioctlreg *r, size_t cmd,
						  enum ioctlreg_text which);
/* The command this one is declared another name of on an ABI (its variant's
 * alias-of there, else its own), "" when none: one step of the chain
 * ioctlreg_command_alias_root() follows to its end. */
IOCTLREG_EXPORT const char *ioctlreg_command_alias_of(const struct ioctlreg *r, size_t cmd,
						      size_t abi);

/* The numbers several commands carry on an ABI (the registry's shared
 * numbers), in the registry's order. */
struct ioctlreg_shared {
	size_t abi;
	uint32_t number;
	uint64_t versions;	/* bit v: they share it in version v (0: no versions known) */
	size_t n_names;		/* ioctlreg_shared_name()'s k runs up to n_names - 1 */
};
IOCTLREG_EXPORT size_t ioctlreg_shared_count(const struct ioctlreg *r);
IOCTLREG_EXPORT int ioctlreg_shared(const struct ioctlreg *r, size_t i, struct ioctlreg_shared *s);
/* Its names by group (the names whose alias-of chains end in one command,
 * the root's first), "" between two groups; NULL out of range. */
IOCTLREG_EXPORT const char *ioctlreg_shared_name(const struct ioctlreg *r, size_t i, size_t k);

#ifdef __cplusplus
}
#endif

#endif
