// SPDX-License-Identifier: GPL-2.0
/*
 * Expected values for the encode/decode unit tests, computed by the kernel's
 * own macros: build with -include <the layout's asm/ioctl.h> and
 * -I <tree>/include/uapi.  Prints
 *   E <dir> <type> <nr> <size> <number>       _IOC(dir, type, nr, size)
 *   M <macro> <type> <nr> <sizeof> <number>   _IOR/_IOW/_IOWR/_IO with a real type
 *   D <number> <dir> <type> <nr> <size>       _IOC_DIR/_IOC_TYPE/_IOC_NR/_IOC_SIZE
 * where <dir> of E lines is none/read/write/read-write.
 */
#include <stdio.h>

struct three { char c[3]; };
struct big { char c[4000]; };

static unsigned int dirs[4] = { _IOC_NONE, _IOC_READ, _IOC_WRITE, _IOC_READ | _IOC_WRITE };
static const char *dir_names[4] = { "none", "read", "write", "read-write" };

static void decode(unsigned int n)
{
	printf("D %u %u %u %u %u\n", n, (unsigned int)_IOC_DIR(n), (unsigned int)_IOC_TYPE(n),
	       (unsigned int)_IOC_NR(n), (unsigned int)_IOC_SIZE(n));
}

int main(void)
{
	static const unsigned int types[] = { 0, 1, 0x12, 'E', 0x80, 0xff };
	static const unsigned int nrs[] = { 0, 1, 0x72, 0x80, 0xfe, 0xff };
	static const unsigned int sizes[] = { 0, 1, 4, 8, 24, 0x100, 0x1000, 0x1fff, 0x2000, 0x3fff };
	unsigned int x = 12345;

	for (int d = 0; d < 4; d++)
		for (unsigned int t = 0; t < sizeof(types) / sizeof(*types); t++)
			for (unsigned int r = 0; r < sizeof(nrs) / sizeof(*nrs); r++)
				for (unsigned int s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
					unsigned int n;

					if (sizes[s] > _IOC_SIZEMASK)
						continue;
					n = _IOC(dirs[d], types[t], nrs[r], sizes[s]);
					printf("E %s %u %u %u %u\n", dir_names[d], types[t], nrs[r], sizes[s], n);
					decode(n);
				}
	printf("M _IO %u %u %u %u\n", 'x', 1, 0u, (unsigned int)_IO('x', 1));
	printf("M _IOR %u %u %u %u\n", 0x12, 114, (unsigned int)sizeof(long), (unsigned int)_IOR(0x12, 114, long));
	printf("M _IOW %u %u %u %u\n", 'E', 0xc0, (unsigned int)sizeof(struct three), (unsigned int)_IOW('E', 0xc0, struct three));
	printf("M _IOWR %u %u %u %u\n", 0xff, 0xff, (unsigned int)sizeof(struct big), (unsigned int)_IOWR(0xff, 0xff, struct big));
	/* raw numbers, including ones no macro builds: every dir value, all bits */
	decode(0);
	decode(0xffffffffu);
	for (unsigned int dv = 0; dv < 8; dv++)
		decode(dv << 29 | 0x1272u | 0x5u << 16);
	for (int i = 0; i < 2000; i++) {
		x = x * 1103515245u + 12345u;
		decode(x);
	}
	return 0;
}
