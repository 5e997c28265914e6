/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lookup table's bytes: what `ioctlgen table` writes (generator/table.c)
 * and libioctlreg reads (table_open.c).  Internal to those two; programs use
 * ioctlreg.h.  Every field is a native uint32_t (the table is made and read
 * on one machine: byte_order says which), every string an offset into the
 * string pool, every index one into its section; table_open.c checks each
 * before any is used, so a damaged file is refused, never followed.
 */
#ifndef IOCTLREG_TABLE_FORMAT_H
#define IOCTLREG_TABLE_FORMAT_H

#include <stdint.h>

#define TBL_MAGIC "IOCTLREG"
#define TBL_FORMAT 2
#define TBL_BYTE_ORDER 0x01020304u
#define TBL_NONE UINT32_MAX	/* an index that names nothing */

/* The sections, in the order they follow the head. */
enum tbl_section {
	TBL_VERSIONS, TBL_LAYOUTS, TBL_ABIS, TBL_HEADERS, TBL_COMMANDS,
	TBL_NUMBERS, TBL_ENTRIES, TBL_SLOTS, TBL_COLLISIONS, TBL_REFS, TBL_STRINGS, TBL_SECTIONS
};

struct tbl_head {
	char magic[8];
	uint32_t format, byte_order;
	uint32_t size_lo, size_hi;	/* the whole table, in bytes */
	/* string: the spec directory, relative to the table file's directory.
	 * No time and no absolute path: the same registry gives the same bytes
	 * in any clone at any time.  Staleness is the file's own mtime, which
	 * `ioctlgen table` sets to when it started reading the registry. */
	uint32_t spec_dir;
	uint32_t model_version;	/* the model (model.json) the table matches */
	struct { uint32_t offset, count; } sec[TBL_SECTIONS];
};

struct tbl_version { uint32_t name; };

struct tbl_layout {
	uint32_t name;
	uint32_t nr_bits, type_bits, size_bits, dir_bits, xsize_bits;
	uint32_t none, read, write;
};

struct tbl_abi {
	uint32_t name, layout, variant_of;	/* layout, variant_of: TBL_NONE for none */
	uint32_t arch;			/* string: the ARCH its headers come from */
	uint32_t first_entry, n_entries;	/* its run of TBL_ENTRIES */
	uint32_t first_slot, n_slots;	/* its hash of keys in TBL_SLOTS; n_slots a power of 2 */
};

struct tbl_header {
	uint32_t path, first_command, n_commands;
	uint32_t arch;	/* string: an arch/<arch>/ header's ARCH, or "" */
};

enum tbl_command_flags {
	TBL_NUMBERED = 1 << 0,		/* numbers holds its numbers */
	TBL_PER_VERSION = 1 << 1,	/* and then one set per version of its life */
	TBL_SIZE_UNIT = 1 << 2,		/* the size field counts size-unit elements */
	TBL_RESERVED = 1 << 3,
	TBL_PLAIN = 1 << 4,		/* spelled as a plain number */
	TBL_PROTOCOL_CODE = 1 << 5,	/* a code in the driver's buffer, no request */
	TBL_KERNEL_INTERNAL = 1 << 6,	/* of a kernel-internal header: not UAPI */
};

struct tbl_command {
	uint32_t name, header, flags;
	uint32_t dir, magic, nr, nr_count;
	uint32_t params, n_params;	/* refs: string offsets */
	uint32_t nr_param, size_param;	/* index among params, or TBL_NONE */
	uint32_t life_first, life_end;	/* versions[first .. end) */
	uint32_t lifetime;		/* string: "6.1 only; removed in 6.12", or "" */
	uint32_t alias_roots;		/* refs: one string per ABI */
	uint32_t alias_of;		/* refs: per ABI, the alias-of there (a variant's), or "" */
	uint32_t since, removed;	/* strings: as the spec writes them, or "" */
	uint32_t number_text;		/* string: a plain number as its header spells it, or "" */
	/* TBL_NUMBERS: n_abis of the newest version it exists in, then with
	 * TBL_PER_VERSION n_abis for each version of its life, oldest first */
	uint32_t numbers;
};

enum tbl_number_flags { TBL_PRESENT = 1 << 0, TBL_VARIABLE = 1 << 1 };

struct tbl_number { uint32_t number, size, unit, flags; };

/* One number a command carries on one ABI, as number_table.c splits it;
 * each ABI's run is sorted by key, size, then spec order. */
struct tbl_entry {
	uint32_t key, size;
	uint32_t command;	/* TBL_ENTRY_VARIABLE: the caller gives the size */
	uint32_t nr_arg;
	uint32_t versions_lo, versions_hi;
};

#define TBL_ENTRY_VARIABLE 0x80000000u

/* A number several commands share on an ABI (generator/collisions.c): names
 * are refs in group order (the alias root first), "" between groups. */
struct tbl_collision {
	uint32_t abi, number, versions_lo, versions_hi;
	uint32_t names, n_names;
};

/*
 * A key's run of entries on one ABI (first relative to the ABI's first
 * entry; count 0: an empty slot), in an open-addressing hash: the slot of
 * key is tbl_hash(key, bits), then the next ones, wrapping, until key or an
 * empty slot.  One probe or two answer a lookup, hit or miss, where a
 * binary search takes a dozen.
 */
struct tbl_slot { uint32_t key, first, count; };

static inline uint32_t tbl_hash(uint32_t key, unsigned int bits)
{
	return bits ? (key * 0x9e3779b1u) >> (32 - bits) : 0;
}

#endif
