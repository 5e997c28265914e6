// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a lookup table: map the file (or take a buffer), then check every
 * offset, index and string of it once, so that the lookups after can trust
 * it and a damaged or foreign file is refused with a reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioctlreg_int.h"

static const size_t elem[TBL_SECTIONS] = {
	sizeof(struct tbl_version), sizeof(struct tbl_layout), sizeof(struct tbl_abi),
	sizeof(struct tbl_header), sizeof(struct tbl_command), sizeof(struct tbl_number),
	sizeof(struct tbl_entry), sizeof(struct tbl_slot), sizeof(struct tbl_collision),
	sizeof(uint32_t), 1 };

static bool str_ok(const struct ioctlreg *r, uint32_t off)
{
	return off < r->n_strings;
}

static bool refs_ok(const struct ioctlreg *r, uint32_t at, uint32_t n)
{
	if (at > r->n_refs || n > r->n_refs - at)
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!str_ok(r, r->refs[at + i]))
			return false;
	return true;
}

static const char *check_command(const struct ioctlreg *r, const struct tbl_command *c)
{
	uint32_t blocks;

	if (!str_ok(r, c->name) || !str_ok(r, c->lifetime) || c->header >= r->n_headers ||
	    !str_ok(r, c->since) || !str_ok(r, c->removed) || !str_ok(r, c->number_text))
		return "a command's name or header is out of range";
	if (!refs_ok(r, c->params, c->n_params) || !refs_ok(r, c->alias_roots, r->n_abis) ||
	    !refs_ok(r, c->alias_of, r->n_abis))
		return "a command's parameters are out of range";
	if ((c->nr_param != TBL_NONE && c->nr_param >= c->n_params) ||
	    (c->size_param != TBL_NONE && c->size_param >= c->n_params))
		return "a command's parameter index is out of range";
	if (c->life_first > c->life_end || c->life_end > r->n_versions || c->dir > 3)
		return "a command's versions are out of range";
	if (!(c->flags & TBL_NUMBERED))
		return NULL;
	blocks = 1 + (c->flags & TBL_PER_VERSION ? c->life_end - c->life_first : 0);
	if (c->numbers > r->n_numbers || (uint64_t)blocks * r->n_abis > r->n_numbers - c->numbers)
		return "a command's numbers are out of range";
	return NULL;
}

static const char *check_records(const struct ioctlreg *r)
{
	const char *why;

	if (r->n_strings && r->strings[r->n_strings - 1])
		return "the string pool does not end in NUL";
	if (!str_ok(r, r->head->spec_dir))
		return "the spec directory is out of range";
	for (uint32_t i = 0; i < r->n_versions; i++)
		if (!str_ok(r, r->versions[i].name))
			return "a version's name is out of range";
	for (uint32_t i = 0; i < r->n_layouts; i++) {
		const struct tbl_layout *l = &r->layouts[i];

		if (!str_ok(r, l->name) || l->nr_bits + l->type_bits + l->size_bits + l->dir_bits > 32 ||
		    l->xsize_bits > 32 || l->nr_bits > 32 || l->type_bits > 32 || l->size_bits > 32 ||
		    l->dir_bits > 32)
			return "a layout is out of range";
	}
	for (uint32_t k = 0; k < r->n_abis; k++) {
		const struct tbl_abi *a = &r->abis[k];

		if (!str_ok(r, a->name) || !str_ok(r, a->arch) || (a->layout != TBL_NONE && a->layout >= r->n_layouts) ||
		    (a->variant_of != TBL_NONE && a->variant_of >= r->n_abis) ||
		    a->first_entry > r->n_entries || a->n_entries > r->n_entries - a->first_entry ||
		    (a->layout == TBL_NONE && a->n_entries) ||
		    (a->n_slots & (a->n_slots - 1)) || a->first_slot > r->n_slots ||
		    a->n_slots > r->n_slots - a->first_slot)
			return "an ABI is out of range";
	}
	for (uint32_t h = 0, next = 0; h < r->n_headers; h++) {
		const struct tbl_header *hd = &r->headers[h];

		if (!str_ok(r, hd->path) || !str_ok(r, hd->arch) || hd->first_command != next ||
		    hd->n_commands > r->n_commands - next)
			return "a header's commands are out of range";
		next += hd->n_commands;
		if (h + 1 == r->n_headers && next != r->n_commands)
			return "the headers do not hold every command";
	}
	for (uint32_t i = 0; i < r->n_commands; i++)
		if ((why = check_command(r, &r->commands[i])))
			return why;
	for (uint32_t i = 0; i < r->n_entries; i++)
		if ((r->entries[i].command & ~TBL_ENTRY_VARIABLE) >= r->n_commands)
			return "an entry's command is out of range";
	for (uint32_t i = 0; i < r->n_collisions; i++)
		if (r->collisions[i].abi >= r->n_abis ||
		    !refs_ok(r, r->collisions[i].names, r->collisions[i].n_names))
			return "a shared number is out of range";
	return NULL;
}

const char *table_check(struct ioctlreg *r)
{
	const struct tbl_head *h = (const void *)r->base;
	const void *at[TBL_SECTIONS];

	if (r->size < sizeof(*h) || memcmp(h->magic, TBL_MAGIC, sizeof(h->magic)))
		return "not an ioctl lookup table";
	if (h->byte_order != TBL_BYTE_ORDER)
		return "a table of another byte order";
	if (h->format != TBL_FORMAT)
		return "a table of another format (remake it: make, or ioctlgen table)";
	if (h->size_hi || h->size_lo != r->size)
		return "truncated, or longer than its head says";
	for (int s = 0; s < TBL_SECTIONS; s++) {
		uint32_t off = h->sec[s].offset, n = h->sec[s].count;

		if (off % 4 || off < sizeof(*h) || off > r->size || n > (r->size - off) / elem[s])
			return "a section is out of range";
		at[s] = r->base + off;
	}
	r->head = h;
	r->versions = at[TBL_VERSIONS];
	r->layouts = at[TBL_LAYOUTS];
	r->abis = at[TBL_ABIS];
	r->headers = at[TBL_HEADERS];
	r->commands = at[TBL_COMMANDS];
	r->numbers = at[TBL_NUMBERS];
	r->entries = at[TBL_ENTRIES];
	r->slots = at[TBL_SLOTS];
	r->collisions = at[TBL_COLLISIONS];
	r->n_collisions = h->sec[TBL_COLLISIONS].count;
	r->refs = at[TBL_REFS];
	r->strings = at[TBL_STRINGS];
	r->n_versions = h->sec[TBL_VERSIONS].count;
	r->n_layouts = h->sec[TBL_LAYOUTS].count;
	r->n_abis = h->sec[TBL_ABIS].count;
	r->n_headers = h->sec[TBL_HEADERS].count;
	r->n_commands = h->sec[TBL_COMMANDS].count;
	r->n_numbers = h->sec[TBL_NUMBERS].count;
	r->n_entries = h->sec[TBL_ENTRIES].count;
	r->n_slots = h->sec[TBL_SLOTS].count;
	r->n_refs = h->sec[TBL_REFS].count;
	r->n_strings = h->sec[TBL_STRINGS].count;
	if (r->n_versions > 64)
		return "more than 64 versions";
	return check_records(r);
}

static int fail(char *err, size_t errlen, const char *what, const char *why)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: %s", what, why);
	return -1;
}

static void view_of(const struct ioctlreg *r, uint32_t k, struct abi_view *view)
{
	const struct tbl_abi *a = &r->abis[k];
	const struct tbl_layout *l;

	if (a->layout == TBL_NONE)
		return;
	l = &r->layouts[a->layout];
	*view = (struct abi_view){
		.numbered = true, .v = r->entries + a->first_entry, .n = a->n_entries,
		.slots = a->n_slots ? r->slots + a->first_slot : NULL,
		.mask = a->n_slots ? a->n_slots - 1 : 0,
		.bits = a->n_slots ? (uint32_t)__builtin_ctz(a->n_slots) : 0,
		.size_shift = l->nr_bits + l->type_bits,
		.size_field = (l->size_bits >= 32 ? UINT32_MAX : (UINT32_C(1) << l->size_bits) - 1)
			      << (l->nr_bits + l->type_bits) };
}

int ioctlreg_open_buffer(const void *data, size_t len, struct ioctlreg **out, char *err, size_t errlen)
{
	struct ioctlreg *r = calloc(1, sizeof(*r));
	const char *why;

	*out = NULL;
	if (!r)
		return fail(err, errlen, "table", strerror(errno));
	r->base = data;
	r->size = len;
	if ((uintptr_t)data % 8)
		why = "a buffer not aligned to 8 bytes";
	else
		why = table_check(r);
	if (why) {
		free(r);
		return fail(err, errlen, "table", why);
	}
	r->views = calloc(r->n_abis + 1, sizeof(*r->views));
	if (!r->views) {
		free(r);
		return fail(err, errlen, "table", strerror(errno));
	}
	for (uint32_t k = 0; k < r->n_abis; k++)
		view_of(r, k, &r->views[k]);
	*out = r;
	return 0;
}

int ioctlreg_open(const char *path, struct ioctlreg **out, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *map;

	*out = NULL;
	if (fd < 0)
		return fail(err, errlen, path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return fail(err, errlen, path, "not a regular file with contents");
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return fail(err, errlen, path, strerror(errno));
	if (ioctlreg_open_buffer(map, (size_t)st.st_size, out, err, errlen)) {
		munmap(map, (size_t)st.st_size);
		if (err && errlen && !strncmp(err, "table: ", 7)) {
			char why[200];

			snprintf(why, sizeof(why), "%s", err + 7);
			fail(err, errlen, path, why);
		}
		return -1;
	}
	(*out)->mapped = true;
	(*out)->made_sec = (int64_t)st.st_mtim.tv_sec;
	(*out)->made_nsec = st.st_mtim.tv_nsec;
	return 0;
}

void ioctlreg_close(struct ioctlreg *r)
{
	if (!r)
		return;
	if (r->mapped)
		munmap((void *)r->base, r->size);
	free(r->views);
	free(r);
}

const char *ioctlreg_spec_dir(const struct ioctlreg *r)
{
	return reg_str(r, r->head->spec_dir);
}

void ioctlreg_made(const struct ioctlreg *r, int64_t *sec, long *nsec)
{
	*sec = r->made_sec;
	*nsec = r->made_nsec;
}
