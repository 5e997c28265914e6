// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test: the registry's history (versions.yaml, since, removed) on small
 * registries held in memory: which versions each entry exists in, shared
 * numbers only among commands that coexist, reused numbers, how decode
 * words a lifetime, and a registry without versions.
 * Usage: test-history     (TAP output)
 */
#include <stdio.h>
#include <string.h>

#include "ioctlgen.h"

static int test_no, failed;

static void tap(bool ok, const char *what)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++test_no, what);
	failed |= !ok;
}

#define SPDX "# SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note\n"

static const char layouts[] = SPDX
	"layouts:\n"
	"  - {name: generic, doc: g., nr-bits: 8, type-bits: 8, size-bits: 14, dir-bits: 2,\n"
	"     none: 0, read: 2, write: 1, arches: [x86], headers: [include/uapi/asm-generic/ioctl.h]}\n";
static const char abis[] = SPDX
	"abis:\n"
	"  - {name: x86_64, doc: x., layout: generic, arch: x86, cc: gcc, cflags: [-m64]}\n";
static const char sizes[] = SPDX "abi: x86_64\ndoc: s.\nsizes: {int: 4, long: 8, size_t: 8}\n";
static const char magic[] = SPDX
	"doc: m.\n"
	"magic-codes:\n"
	"  - {code: 0x54, seq: all, headers: [linux/t.h], doc: t.}\n"
	"  - {code: 0x55, seq: all, headers: [linux/t.h], doc: u., since: \"6.12\", removed: \"6.13\"}\n";
static const char versions[] = SPDX
	"doc: v.\n"
	"versions:\n"
	"  - {name: \"6.1\", doc: a.}\n"
	"  - {name: \"6.12\", doc: b.}\n"
	"  - {name: \"6.13\", doc: c.}\n";
/* OLD, NEW and ALL carry _IO('T', 1): OLD and NEW never coexist */
static const char header[] = SPDX
	"header: linux/t.h\n"
	"doc: t.\n"
	"commands:\n"
	"  - {name: OLD, dir: none, magic: 0x54, nr: 1, removed: \"6.12\", doc: o.}\n"
	"  - {name: NEW, dir: none, magic: 0x54, nr: 1, since: \"6.12\", doc: n.}\n"
	"  - {name: ALL, dir: none, magic: 0x54, nr: 1, doc: a.}\n"
	"  - {name: MID, dir: none, magic: 0x55, nr: 1, since: \"6.12\", removed: \"6.13\", doc: m.}\n"
	"  - {name: TWO, dir: none, magic: 0x54, nr: 2, removed: \"6.13\", doc: t.}\n"
	"  - {name: PLAIN, number: 0x5403, since: \"6.13\", doc: p.}\n";

static void load(struct registry *reg, bool with_versions, const char *hdr)
{
	const char *names[] = { "layouts.yaml", "abis.yaml", "magic.yaml", "sizes/x86_64.yaml",
				"headers/linux/t.yaml", "versions.yaml" };
	const char *data[] = { layouts, abis, magic, sizes, hdr, versions };
	size_t lens[6];

	for (int i = 0; i < 6; i++)
		lens[i] = strlen(data[i]);
	registry_load_buffers(reg, "mem", with_versions ? 6 : 5, names, data, lens);
	registry_check(reg);
}

static const struct command *find(const struct registry *reg, const char *name)
{
	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_commands; i++)
			if (!strcmp(reg->headers[h].commands[i].name, name))
				return &reg->headers[h].commands[i];
	return NULL;
}

static bool describes(const struct registry *reg, const char *name, const char *want)
{
	const struct command *c = find(reg, name);
	struct strbuf sb = { 0 };
	bool ok;

	if (!c)
		return false;
	lifetime_describe(reg, &c->life, &sb);
	ok = !strcmp(sb.len ? sb.buf : "", want);
	if (!ok)
		printf("# %s: '%s', want '%s'\n", name, sb.len ? sb.buf : "", want);
	sb_release(&sb);
	return ok;
}

static size_t count_rule(const struct registry *reg, const char *rule, const char *text)
{
	size_t n = 0;

	for (size_t i = 0; i < reg->diags.n; i++)
		n += !strcmp(reg->diags.v[i].rule, rule) && (!text || strstr(reg->diags.v[i].msg, text));
	return n;
}

/* The collision of number on ABI 0 whose names are exactly want (in spec
 * order), or NULL. */
static const struct collision *collision_of(const struct registry *reg, uint32_t number,
					    const char *want)
{
	for (size_t i = 0; i < reg->n_collisions; i++) {
		const struct collision *col = &reg->collisions[i];
		struct strbuf sb = { 0 };
		bool same;

		if (col->number != number)
			continue;
		for (size_t k = 0; k < col->n_cmds; k++)
			sb_printf(&sb, "%s%s", k ? " " : "", col->cmds[k]->name);
		same = !strcmp(sb.buf, want);
		sb_release(&sb);
		if (same)
			return col;
	}
	return NULL;
}

static void test_versions(void)
{
	struct registry reg;
	const struct command *old, *nw, *all;
	const struct collision *a, *b;
	struct lookup_hit hits[4];
	struct lookup *lk;

	load(&reg, true, header);
	tap(reg.diags.errors == 0, "a registry with since and removed checks without errors");
	tap(reg.n_versions == 3 && !strcmp(reg.versions[1].name, "6.12"),
	    "versions.yaml: three versions, oldest first");
	old = find(&reg, "OLD");
	nw = find(&reg, "NEW");
	all = find(&reg, "ALL");
	tap(old && nw && all && old->life.first == 0 && old->life.end == 1 && nw->life.first == 1 &&
	    nw->life.end == 3 && all->life.first == 0 && all->life.end == 3,
	    "since and removed resolve to [first, end) of the known versions");
	tap(reg.n_rows == 2 && reg.rows[1].life.first == 1 && reg.rows[1].life.end == 2,
	    "a magic-code row's since and removed resolve too");
	tap(old && nw && !lifetimes_meet(&old->life, &nw->life) && lifetimes_meet(&old->life, &all->life),
	    "lifetimes_meet: OLD and NEW never coexist, OLD and ALL do");
	tap(describes(&reg, "ALL", "") && describes(&reg, "OLD", "6.1 only; removed in 6.12") &&
	    describes(&reg, "NEW", "new in 6.12") &&
	    describes(&reg, "MID", "6.12 only; new in 6.12; removed in 6.13") &&
	    describes(&reg, "TWO", "6.1 to 6.12; removed in 6.13") &&
	    describes(&reg, "PLAIN", "new in 6.13"),
	    "lifetime_describe words every kind of lifetime as decode prints it");
	a = collision_of(&reg, 0x5401, "OLD ALL");
	b = collision_of(&reg, 0x5401, "NEW ALL");
	tap(a && b && a->versions == 1 && b->versions == 6,
	    "shared numbers: OLD, ALL in 6.1 and NEW, ALL in 6.12 and 6.13, each once");
	tap(!collision_of(&reg, 0x5401, "OLD NEW ALL") && !collision_of(&reg, 0x5401, "OLD NEW"),
	    "no collision puts OLD beside NEW: they never coexist");
	tap(count_rule(&reg, "shared-number", NULL) == 2 &&
	    count_rule(&reg, "shared-number", "OLD, ALL share") == 1 &&
	    count_rule(&reg, "shared-number", "NEW, ALL share") == 1,
	    "one shared-number warning per set of coexisting names");
	tap(count_rule(&reg, "reused-number", "NEW (new in 6.12) reuses the number of OLD") == 1 &&
	    count_rule(&reg, "reused-number", NULL) == 1,
	    "reused-number: NEW reuses OLD's number; ALL, which coexists with both, reuses nothing");
	tap(count_rule(&reg, "row-versions", NULL) == 0, "MID lives as long as its row: no row-versions");
	lk = lookup_build(&reg, 0);
	tap(lookup_find(lk, 0x5401, hits, 4) == 3 && hits[0].cmd == old,
	    "lookup still finds a removed command's number");
	lookup_free(lk);
	registry_release(&reg);
}

static void test_no_versions(void)
{
	static const char plain[] = SPDX
		"header: linux/t.h\n"
		"doc: t.\n"
		"commands:\n"
		"  - {name: OLD, dir: none, magic: 0x54, nr: 1, doc: o.}\n"
		"  - {name: ALL, dir: none, magic: 0x54, nr: 1, doc: a.}\n";
	static const char magic_plain[] = SPDX
		"doc: m.\nmagic-codes:\n  - {code: 0x54, seq: all, headers: [linux/t.h], doc: t.}\n";
	const char *names[] = { "layouts.yaml", "abis.yaml", "magic.yaml", "sizes/x86_64.yaml",
				"headers/linux/t.yaml" };
	const char *data[] = { layouts, abis, magic_plain, sizes, plain };
	size_t lens[5];
	struct registry reg;
	const struct collision *col;

	for (int i = 0; i < 5; i++)
		lens[i] = strlen(data[i]);
	registry_load_buffers(&reg, "mem", 5, names, data, lens);
	registry_check(&reg);
	col = collision_of(&reg, 0x5401, "OLD ALL");
	tap(reg.diags.errors == 0 && reg.n_versions == 0 && col && col->versions == 0 &&
	    describes(&reg, "OLD", ""),
	    "without versions.yaml: no versions, every command coexists with every other");
	registry_release(&reg);

	load(&reg, false, header);
	tap(count_rule(&reg, "reference", "is no version of mem/versions.yaml (known: none)") == 8,
	    "without versions.yaml, every since and removed (6 of commands, 2 of a row) is an unknown version");
	registry_release(&reg);
}

int main(void)
{
	test_versions();
	test_no_versions();
	printf("1..%d\n", test_no);
	return failed;
}
