// SPDX-License-Identifier: GPL-2.0
/*
 * libioctlreg's unit tests, TAP, on the table of tests/golden/spec
 * (usage: test-ioctlreg TABLE).  Expected numbers come from the kernel's
 * own _IOC macros (tests/unit/uapi-6.1/asm-generic/ioctl.h) and the sizes
 * the fixture's sizes files give (struct pair 16 on x86_64, 12 on i386;
 * struct grow 24 in 6.1, 32 in 6.12), never from the generator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <asm-generic/ioctl.h>

#include "ioctlreg.h"

static int n_tests, n_failed;

static void ok(int cond, const char *what)
{
	n_tests++;
	if (!cond)
		n_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n_tests, what);
}

static const char *hit_name(const struct ioctlreg *r, const struct ioctlreg_hit *h)
{
	struct ioctlreg_command c;

	return ioctlreg_command(r, h->command, &c) ? "?" : c.name;
}

static void test_lookups(const struct ioctlreg *r)
{
	int x86 = ioctlreg_abi_find(r, "x86_64"), i386 = ioctlreg_abi_find(r, "i386");
	int t64 = ioctlreg_abi_find(r, "i386-time64");
	int v61 = ioctlreg_version_find(r, "6.1"), v612 = ioctlreg_version_find(r, "6.12");
	struct ioctlreg_hit h[8];
	size_t n;

	ok(ioctlreg_abi_count(r) == 3 && x86 >= 0 && i386 >= 0 && t64 >= 0, "three ABIs, found by name");
	ok(ioctlreg_abi_find(r, "vax") == -1, "an unknown ABI is -1");
	ok(ioctlreg_version_count(r) == 2 && v61 == 0 && v612 == 1, "versions 6.1 and 6.12, oldest first");
	ok(ioctlreg_abi_variant_of(r, (size_t)t64) == i386 && ioctlreg_abi_variant_of(r, (size_t)x86) == -1,
	   "i386-time64 is a variant of i386, x86_64 of none");
	n = ioctlreg_lookup(r, (size_t)x86, IOCTLREG_ANY_VERSION, _IOR('T', 1, char[16]), h, 8);
	ok(n == 2 && !strcmp(hit_name(r, &h[0]), "G_IOR") && !strcmp(hit_name(r, &h[1]), "G_IOR_OLD"),
	   "_IOR('T', 1, 16) on x86_64: G_IOR then its alias G_IOR_OLD, in spec order");
	n = ioctlreg_lookup(r, (size_t)i386, IOCTLREG_ANY_VERSION, _IOR('T', 1, char[16]), h, 8);
	ok(n == 0, "_IOR('T', 1, 16) on i386: nothing (its struct pair is 12 bytes)");
	n = ioctlreg_lookup(r, (size_t)i386, IOCTLREG_ANY_VERSION, _IOR('T', 1, char[12]), h, 1);
	ok(n == 2, "_IOR('T', 1, 12) on i386: both names counted when max is 1");
	n = ioctlreg_lookup(r, (size_t)x86, v61, _IOWR('T', 12, char[24]), h, 8);
	ok(n == 1 && !strcmp(hit_name(r, &h[0]), "G_GROW") && h[0].versions == 1,
	   "_IOWR('T', 12, 24) in 6.1: G_GROW, in version 6.1 only");
	ok(ioctlreg_lookup(r, (size_t)x86, v612, _IOWR('T', 12, char[24]), h, 8) == 0,
	   "_IOWR('T', 12, 24) in 6.12: nothing (struct grow is 32 bytes there)");
	n = ioctlreg_lookup_other_sizes(r, (size_t)x86, IOCTLREG_ANY_VERSION, _IOWR('T', 12, char[40]), h, 8);
	ok(n == 2 && h[0].size_arg == 24 && h[1].size_arg == 32 && !strcmp(hit_name(r, &h[1]), "G_GROW"),
	   "_IOWR('T', 12, 40): G_GROW with sizes 24 and 32");
	ok(ioctlreg_lookup(r, (size_t)x86, IOCTLREG_ANY_VERSION, 0xdeadbeef, h, 8) == 0, "0xdeadbeef: nothing");
	ok(ioctlreg_lookup(r, 99, IOCTLREG_ANY_VERSION, 0x5401, h, 8) == 0, "ABI out of range: nothing");
}

static void test_commands(const struct ioctlreg *r)
{
	long grow = ioctlreg_command_find(r, "G_GROW", 0), io = ioctlreg_command_find(r, "G_IO", 0);
	struct ioctlreg_number num;
	struct ioctlreg_command c;
	size_t first, n, cmds[64];
	int h = ioctlreg_header_find(r, "linux/golden.h"), all_t = 1;

	ok(grow >= 0 && io >= 0 && ioctlreg_command_find(r, "NO_SUCH", 0) == -1 &&
	   ioctlreg_command_find(r, "G_GROW", (size_t)grow + 1) == -1, "commands by name, each once");
	ok(ioctlreg_command_number(r, (size_t)grow, 0, 0, &num) == 1 && num.number == _IOWR('T', 12, char[24]) &&
	   num.size == 24, "G_GROW in 6.1: _IOWR('T', 12, 24)");
	ok(ioctlreg_command_number(r, (size_t)grow, 0, 1, &num) == 1 && num.number == _IOWR('T', 12, char[32]),
	   "G_GROW in 6.12: _IOWR('T', 12, 32)");
	ok(ioctlreg_command_number(r, (size_t)grow, 0, IOCTLREG_ANY_VERSION, &num) == 1 &&
	   num.number == _IOWR('T', 12, char[32]), "G_GROW in its newest version: 6.12's");
	ok(ioctlreg_command(r, (size_t)io, &c) == 0 && c.dir == IOCTLREG_NONE && c.magic == 'T' && c.nr == 0 &&
	   !strcmp(c.header, "linux/golden.h"), "G_IO: _IO('T', 0) in linux/golden.h");
	ok(ioctlreg_command(r, ioctlreg_command_count(r), &c) == -1, "a command index out of range: -1");
	n = ioctlreg_header_commands(r, (size_t)h, &first);
	ok(h >= 0 && n == ioctlreg_command_count(r) - 1 && first == 0,
	   "linux/golden.h holds every command but scsi/sg.h's SG_IO");
	ok(ioctlreg_command(r, ioctlreg_command_count(r) - 1, &c) == 0 && !strcmp(c.name, "SG_IO") &&
	   (c.flags & IOCTLREG_KERNEL_INTERNAL),
	   "SG_IO: kernel-internal (scsi/sg.h, not UAPI)");
	ok(ioctlreg_command(r, (size_t)io, &c) == 0 && !(c.flags & IOCTLREG_KERNEL_INTERNAL),
	   "G_IO: not kernel-internal");
	ok(ioctlreg_header_find(r, "linux/none.h") == -1, "an unknown header: -1");
	n = ioctlreg_magic_commands(r, 'T', cmds, 64);
	for (size_t i = 0; i < n && i < 64; i++)
		all_t &= !ioctlreg_command(r, cmds[i], &c) && c.magic == 'T';
	ok(n > 5 && all_t && ioctlreg_magic_commands(r, 0x01, cmds, 64) == 0,
	   "magic code 'T': its commands, each of code 'T'");
}

static void test_fields(const struct ioctlreg *r)
{
	int generic = -1;
	struct ioctlreg_fields f;

	for (size_t i = 0; i < ioctlreg_layout_count(r); i++)
		if (!strcmp(ioctlreg_layout_name(r, i), "generic"))
			generic = (int)i;
	ioctlreg_split(r, (size_t)generic, _IOWR('T', 12, char[24]), &f);
	ok(generic >= 0 && f.dir_name == IOCTLREG_READ_WRITE && f.dir == (_IOC_READ | _IOC_WRITE) &&
	   f.type == 'T' && f.nr == 12 && f.size == 24, "split on generic: as _IOC_DIR/TYPE/NR/SIZE");
	ok(ioctlreg_make(r, (size_t)generic, IOCTLREG_READ, 'T', 1, 16) == _IOR('T', 1, char[16]) &&
	   ioctlreg_make(r, (size_t)generic, IOCTLREG_NONE, 'T', 0, 0) == _IO('T', 0),
	   "make on generic: as _IOR and _IO");
	ok(ioctlreg_make(r, (size_t)generic, IOCTLREG_READ, 0x100, 1, 16) == 0, "make: a type too wide gives 0");
}

/* Use every part of an opened table: under ASan, a read out of bounds fails. */
static unsigned long use_all(const struct ioctlreg *r)
{
	static const uint32_t probe[] = { 0x5400, 0x80105401, 0xc018540c, 0x40045402, 0, UINT32_MAX };
	struct ioctlreg_hit h[4];
	struct ioctlreg_command c;
	struct ioctlreg_number num;
	unsigned long sum = strlen(ioctlreg_spec_dir(r));
	size_t first;

	for (size_t k = 0; k < ioctlreg_abi_count(r); k++) {
		sum += strlen(ioctlreg_abi_name(r, k)) + (size_t)ioctlreg_abi_variant_of(r, k);
		for (size_t i = 0; i < sizeof(probe) / sizeof(*probe); i++) {
			sum += ioctlreg_lookup(r, k, IOCTLREG_ANY_VERSION, probe[i], h, 4);
			sum += ioctlreg_lookup(r, k, 0, probe[i], h, 4);
			sum += ioctlreg_lookup_other_sizes(r, k, IOCTLREG_ANY_VERSION, probe[i], h, 4);
		}
	}
	for (size_t i = 0; i < ioctlreg_command_count(r); i++) {
		ioctlreg_command(r, i, &c);
		sum += strlen(c.name) + strlen(c.header) + strlen(c.lifetime);
		for (size_t p = 0; p < c.n_params; p++)
			sum += strlen(ioctlreg_command_param(r, i, p));
		for (size_t k = 0; k < ioctlreg_abi_count(r); k++) {
			sum += strlen(ioctlreg_command_alias_root(r, i, k));
			sum += (unsigned long)ioctlreg_command_number(r, i, k, 1, &num);
		}
	}
	for (size_t hd = 0; hd < ioctlreg_header_count(r); hd++)
		sum += ioctlreg_header_commands(r, hd, &first) + strlen(ioctlreg_header_path(r, hd));
	for (size_t l = 0; l < ioctlreg_layout_count(r); l++) {
		struct ioctlreg_fields f;

		ioctlreg_split(r, l, 0xc018540c, &f);
		sum += f.size + ioctlreg_make(r, l, IOCTLREG_READ, 'T', 1, 16);
	}
	return sum;
}

/* Random bytes changed, a few at a time: each table is refused or, if
 * taken, used whole without a read out of bounds (the sanitizers suite
 * runs this under ASan). */
static int random_damage(const unsigned char *buf, unsigned char *copy, size_t len)
{
	struct ioctlreg *r;
	char err[256];
	unsigned long sum = 0;
	int taken = 0;

	srand(34);
	for (int i = 0; i < 500; i++) {
		memcpy(copy, buf, len);
		for (int b = 0; b < 1 + i % 4; b++)
			copy[(size_t)rand() % (i % 2 ? 4096 < len ? 4096 : len : len)] = (unsigned char)rand();
		if (ioctlreg_open_buffer(copy, len, &r, err, sizeof(err)))
			continue;
		taken++;
		sum += use_all(r);
		ioctlreg_close(r);
	}
	printf("# %d of 500 damaged tables taken and used whole (%lu)\n", taken, sum);
	return 1;
}

/* A damaged table is refused with a reason, never read. */
static void test_damage(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t len;
	unsigned char *buf, *copy;
	struct ioctlreg *r;
	char err[256];

	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	rewind(f);
	buf = aligned_alloc(8, (len + 7) & ~(size_t)7);
	copy = aligned_alloc(8, (len + 7) & ~(size_t)7);
	if (fread(buf, 1, len, f) != len)
		abort();
	fclose(f);
	ok(ioctlreg_open_buffer(buf, len / 2, &r, err, sizeof(err)) == -1 && strstr(err, "truncated"),
	   "half a table: refused, truncated");
	memcpy(copy, buf, len);
	copy[0] = 'X';
	ok(ioctlreg_open_buffer(copy, len, &r, err, sizeof(err)) == -1 && strstr(err, "not an ioctl"),
	   "another file: refused");
	memcpy(copy, buf, len);
	copy[40] ^= 0xff;	/* the first section's offset */
	ok(ioctlreg_open_buffer(copy, len, &r, err, sizeof(err)) == -1 && r == NULL,
	   "a section offset out of range: refused");
	ok(random_damage(buf, copy, len), "500 tables with random bytes changed: refused, or every lookup in bounds");
	ok(ioctlreg_open("/nonexistent.table", &r, err, sizeof(err)) == -1 &&
	   strstr(err, "/nonexistent.table: No such file"), "a missing file: refused, named");
	free(buf);
	free(copy);
}

int main(int argc, char **argv)
{
	struct ioctlreg *r;
	char err[256];

	if (argc != 2 || ioctlreg_open(argv[1], &r, err, sizeof(err))) {
		printf("not ok 1 - open the table: %s\n1..1\n", argc == 2 ? err : "usage: test-ioctlreg TABLE");
		return 1;
	}
	ok(1, "open the table of tests/golden/spec");
	test_lookups(r);
	test_commands(r);
	test_fields(r);
	ioctlreg_close(r);
	test_damage(argv[1]);
	printf("1..%d\n", n_tests);
	return n_failed != 0;
}
