// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test: layout_encode()/layout_decode() of one layout against the values
 * the kernel's own macros computed (kernel-expect.c).  The layout comes from
 * the registry (spec/layouts.yaml), so this checks the spec and the code.
 * Usage: test-layout SPEC_DIR LAYOUT EXPECT_FILE     (TAP output)
 */
#include <stdio.h>
#include <string.h>

#include "ioctlgen.h"

static int test_no;

static void tap(bool ok, const char *fmt, const char *layout, unsigned long n, unsigned long fails)
{
	printf("%sok %d - %s: ", ok ? "" : "not ", ++test_no, layout);
	printf(fmt, n, fails);
	putchar('\n');
}

int main(int argc, char **argv)
{
	unsigned long enc = 0, enc_bad = 0, dec = 0, dec_bad = 0, mac = 0, mac_bad = 0;
	const struct layout *l;
	struct registry reg;
	char line[256];
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: test-layout SPEC_DIR LAYOUT EXPECT_FILE\n");
		return 2;
	}
	registry_load(&reg, argv[1]);
	registry_check(&reg);
	diags_print(stderr, &reg.diags, false, false);
	l = registry_layout(&reg, argv[2]);
	f = fopen(argv[3], "r");
	if (!l || !f) {
		printf("not ok 1 - %s: %s\n", argv[2], !l ? "no such layout in the registry" : "no expectations");
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned int type, nr, size, number, dir, eds;
		char dname[16], macro[16];
		enum ioc_dir d;

		if (sscanf(line, "E %15s %u %u %u %u", dname, &type, &nr, &size, &number) == 5) {
			enc++;
			if (!parse_dir(dname, &d) || layout_encode(l, d, type, nr, size) != number) {
				if (enc_bad++ < 5)
					fprintf(stderr, "# encode %s %u %u %u: want 0x%08x, got 0x%08x\n", dname,
						type, nr, size, number, layout_encode(l, d, type, nr, size));
			}
		} else if (sscanf(line, "M %15s %u %u %u %u", macro, &type, &nr, &size, &number) == 5) {
			d = !strcmp(macro, "_IO") ? DIR_NONE : !strcmp(macro, "_IOR") ? DIR_READ :
			    !strcmp(macro, "_IOW") ? DIR_WRITE : DIR_READ_WRITE;
			mac++;
			if (layout_encode(l, d, type, nr, size) != number && mac_bad++ < 5)
				fprintf(stderr, "# %s: want 0x%08x\n", macro, number);
		} else if (sscanf(line, "D %u %u %u %u %u", &number, &dir, &type, &nr, &eds) == 5) {
			struct ioc_fields fl;

			layout_decode(l, number, &fl);
			dec++;
			if (fl.dir != dir || fl.type != type || fl.nr != nr || fl.size != eds) {
				if (dec_bad++ < 5)
					fprintf(stderr,
						"# decode 0x%08x: want dir %u type %u nr %u size %u, got %u %u %u %u\n",
						number, dir, type, nr, eds, fl.dir, fl.type, fl.nr, fl.size);
			}
		}
	}
	fclose(f);
	tap(enc > 0 && !enc_bad, "_IOC() encode, %lu numbers, %lu wrong", argv[2], enc, enc_bad);
	tap(mac == 4 && !mac_bad, "_IO/_IOR/_IOW/_IOWR with types, %lu numbers, %lu wrong", argv[2], mac, mac_bad);
	tap(dec > 2000 && !dec_bad, "_IOC_DIR/TYPE/NR/SIZE decode, %lu numbers, %lu wrong", argv[2], dec, dec_bad);
	registry_release(&reg);
	return 0;
}
