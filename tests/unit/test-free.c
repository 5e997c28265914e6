// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test: free.c on a registry held in memory: the free runs of a code
 * at its edges (nr 0 and 255), families over nr and size, and the kind of
 * each clash.  The expected numbers are written out by hand from
 * <asm-generic/ioctl.h>: (dir << 30) | (size << 16) | (type << 8) | nr,
 * read 2, write 1.
 * Usage: test-free     (TAP output)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioctlgen.h"
#include "mem-registry.h"

/* 'Q' reserves 0x10-0x1f; 'R' nothing */
static const char magic[] = SPDX
	"doc: m.\n"
	"magic-codes:\n"
	"  - {code: \"'Q'\", seq: 10-1F, headers: [linux/q.h], doc: q.}\n"
	"  - {code: \"'R'\", seq: all, headers: [linux/q.h], doc: r.}\n";
static const char header[] = SPDX
	"header: linux/q.h\n"
	"doc: q.\n"
	"commands:\n"
	/* the edges of the nr field */
	"  - {name: FIRST, dir: none, magic: \"'Q'\", nr: 0, accept: [outside-range], doc: f.}\n"
	"  - {name: LAST, dir: none, magic: \"'Q'\", nr: 0xff, accept: [outside-range], doc: l.}\n"
	/* a family over nr 0x40-0x47, the caller giving the size */
	"  - {name: FAM, dir: read, magic: \"'Q'\", nr: 0x40, params: [n, len], nr-param: n,\n"
	"     nr-count: 8, size-param: len, accept: [outside-range], doc: a.}\n"
	"  - {name: ONE, dir: write, magic: \"'Q'\", nr: 0x11, type: int, doc: o.}\n";

static void load(struct registry *reg)
{
	const char *names[] = { "layouts.yaml", "abis.yaml", "magic.yaml", "sizes/x86_64.yaml",
				"headers/linux/q.yaml" };
	const char *data[] = { layouts, abis, magic, sizes, header };
	size_t lens[5];

	for (int i = 0; i < 5; i++)
		lens[i] = strlen(data[i]);
	registry_load_buffers(reg, "mem", 5, names, data, lens);
	registry_check(reg);
}

static bool ranges(const struct free_map *m, unsigned int code, const unsigned int *want, size_t n)
{
	unsigned int from = 0, first, last;
	size_t i = 0;

	while (free_next_range(m, code, &from, &first, &last)) {
		if (i + 1 >= n || first != want[i] || last != want[i + 1])
			return false;
		i += 2;
	}
	return i == n;
}

/* The one clash of a query, or NULL when there is not exactly one. */
static bool one_clash(const struct registry *reg, struct free_query q, const char *name,
		      uint32_t number, enum free_clash_kind kind)
{
	struct free_clash *v;
	size_t n = free_clashes(reg, &q, &v);
	bool ok = n == 1 && !strcmp(v[0].cmd->name, name) && v[0].number == number &&
		  v[0].kind == kind;

	free(v);
	return ok;
}

int main(void)
{
	struct registry reg;
	struct free_map *m = calloc(1, sizeof(*m));
	/* 'Q': 0 and 0xff used, 0x10-0x1f reserved, 0x40-0x47 the family */
	static const unsigned int q[] = { 0x01, 0x0f, 0x20, 0x3f, 0x48, 0xfe };
	static const unsigned int whole[] = { 0x00, 0xff };
	struct free_clash *v;

	load(&reg);
	tap(reg.diags.errors == 0, "the registry loads and checks");
	free_map_build(&reg, m);
	tap(ranges(m, 'Q', q, 6), "'Q': free 0x01-0x0f, 0x20-0x3f, 0x48-0xfe (edges, row, family)");
	tap(ranges(m, 'R', NULL, 0), "'R' reserved whole: no free run");
	tap(ranges(m, 'S', whole, 2), "'S': free whole");
	tap(m->rows['Q'] == 1 && m->n_used['Q'] == 11, "'Q': 1 row, 11 nrs used (2 + 8 + ONE)");

	/* FAM(3, len) = read << 30 | len << 16 | 'Q' << 8 | 0x43, listed at len 0: 0x80005143 */
	tap(one_clash(&reg, (struct free_query){ DIR_READ, 'Q', 0x43, true, 100, NULL },
		      "FAM", 0x80005143, CLASH_NUMBER),
	    "a size-param family member is the very number at any size");
	tap(one_clash(&reg, (struct free_query){ DIR_READ, 'Q', 0x43, false, 0, "struct none" },
		      "FAM", 0x80005143, CLASH_NUMBER),
	    "a size-param family member is the very number whatever the unmeasured size");
	tap(one_clash(&reg, (struct free_query){ DIR_WRITE, 'Q', 0x43, true, 100, NULL },
		      "FAM", 0x80005143, CLASH_CODE_NR),
	    "another direction on a family's nr: code-nr");
	/* ONE = write << 30 | 4 << 16 | 'Q' << 8 | 0x11 = 0x40045111 */
	tap(one_clash(&reg, (struct free_query){ DIR_WRITE, 'Q', 0x11, false, 0, "int" },
		      "ONE", 0x40045111, CLASH_NUMBER),
	    "sizeof(int) as measured: the very number of ONE");
	tap(one_clash(&reg, (struct free_query){ DIR_WRITE, 'Q', 0x11, false, 0, "struct none" },
		      "ONE", 0x40045111, CLASH_UNSIZED),
	    "an unmeasured type, same direction: size-unknown");
	tap(one_clash(&reg, (struct free_query){ DIR_NONE, 'Q', 0xff, true, 0, NULL },
		      "LAST", 0x000051ff, CLASH_NUMBER),
	    "nr 0xff, the field's last");
	tap(free_clashes(&reg, &(struct free_query){ DIR_NONE, 'Q', 0x48, true, 0, NULL }, &v) == 0,
	    "nr 0x48, just past the family: no clash");
	free(v);
	free(m);
	registry_release(&reg);
	printf("1..%d\n", test_no);
	return failed;
}
