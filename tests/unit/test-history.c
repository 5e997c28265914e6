// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test: the registry's history (versions.yaml, since, removed) on small
 * registries held in memory: which versions each entry exists in, shared
 * numbers only among commands that coexist, reused numbers, how decode
 * words a lifetime, and a registry without versions.
 * Usage: test-history     (TAP output)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioctlgen.h"
#include "ioctlreg.h"
#include "mem-registry.h"

/* A number back to commands on ABI 0 through the lookup table, as decode
 * does it: the table made in memory, libioctlreg's lookup.  Fills the
 * first 4 hits' names and versions; returns the count. */
struct found { char name[32]; uint64_t versions; };

static size_t lookup(const struct registry *reg, uint32_t number, struct found *out)
{
	struct strbuf mem = { 0 };
	struct ioctlreg *r;
	struct ioctlreg_hit hits[4];
	char err[200];
	size_t n;

	if (table_open_registry(reg, "spec", &mem, &r, err, sizeof(err))) {
		printf("# %s\n", err);
		sb_release(&mem);
		return 0;
	}
	n = ioctlreg_lookup(r, 0, IOCTLREG_ANY_VERSION, number, hits, 4);
	for (size_t i = 0; i < n && i < 4; i++) {
		snprintf(out[i].name, sizeof(out[i].name), "%s", ioctlreg_command_name(r, hits[i].command));
		out[i].versions = hits[i].versions;
	}
	ioctlreg_close(r);
	sb_release(&mem);
	return n;
}

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
	"  - {name: PLAIN, number: 0x5403, since: \"6.13\", doc: p.}\n"
	/* X and Y share _IOR('T', 4, int) always; Z, new in 6.12, has the key
	 * but another size: no part of their collision */
	"  - {name: X, dir: read, magic: 0x54, nr: 4, type: int, doc: x.}\n"
	"  - {name: Y, dir: read, magic: 0x54, nr: 4, type: int, doc: y.}\n"
	"  - {name: Z, dir: read, magic: 0x54, nr: 4, type: long, since: \"6.12\", doc: z.}\n";

/* Each later version's sizes, the same as the oldest's. */
static const char sizes_612[] = SPDX "abi: x86_64\ndoc: s.\nsizes: {int: 4, long: 8, size_t: 8}\n";

static void load(struct registry *reg, bool with_versions, const char *hdr)
{
	const char *names[] = { "layouts.yaml", "abis.yaml", "magic.yaml", "sizes/x86_64.yaml",
				"headers/linux/t.yaml", "versions.yaml", "sizes/6.12/x86_64.yaml",
				"sizes/6.13/x86_64.yaml" };
	const char *data[] = { layouts, abis, magic, sizes, hdr, versions, sizes_612, sizes_612 };
	size_t lens[8];

	for (int i = 0; i < 8; i++)
		lens[i] = strlen(data[i]);
	registry_load_buffers(reg, "mem", with_versions ? 8 : 5, names, data, lens);
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

static bool worded(const struct registry *reg, const char *name, const char *want,
		   void (*words)(const struct registry *, const struct lifetime *, struct strbuf *))
{
	const struct command *c = find(reg, name);
	struct strbuf sb = { 0 };
	bool ok;

	if (!c)
		return false;
	words(reg, &c->life, &sb);
	ok = !strcmp(sb.len ? sb.buf : "", want);
	if (!ok)
		printf("# %s: '%s', want '%s'\n", name, sb.len ? sb.buf : "", want);
	sb_release(&sb);
	return ok;
}

static bool describes(const struct registry *reg, const char *name, const char *want)
{
	return worded(reg, name, want, lifetime_describe);
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
	struct found hits[4];

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
	tap(worded(&reg, "ALL", "6.1, 6.12, 6.13", lifetime_cell) &&
	    worded(&reg, "OLD", "6.1 only", lifetime_cell) &&
	    worded(&reg, "NEW", "6.12, 6.13", lifetime_cell) &&
	    worded(&reg, "MID", "6.12 only", lifetime_cell) &&
	    worded(&reg, "TWO", "6.1, 6.12", lifetime_cell),
	    "lifetime_cell words the site's Versions cell");
	tap(worded(&reg, "ALL", "In 6.1, 6.12 and 6.13", lifetime_sentence) &&
	    worded(&reg, "OLD", "Removed in 6.12 (in 6.1 only)", lifetime_sentence) &&
	    worded(&reg, "NEW", "New in 6.12 (in 6.12 and 6.13)", lifetime_sentence) &&
	    worded(&reg, "MID", "New in 6.12, removed in 6.13 (in 6.12 only)", lifetime_sentence) &&
	    worded(&reg, "TWO", "Removed in 6.13 (in 6.1 and 6.12)", lifetime_sentence),
	    "lifetime_sentence words an entry's versions for the site, with three versions what is between");
	a = collision_of(&reg, 0x5401, "OLD ALL");
	b = collision_of(&reg, 0x5401, "NEW ALL");
	tap(a && b && a->versions == 1 && b->versions == 6,
	    "shared numbers: OLD, ALL in 6.1 and NEW, ALL in 6.12 and 6.13, each once");
	tap(!collision_of(&reg, 0x5401, "OLD NEW ALL") && !collision_of(&reg, 0x5401, "OLD NEW"),
	    "no collision puts OLD beside NEW: they never coexist");
	tap(count_rule(&reg, "shared-number", NULL) == 3 &&
	    count_rule(&reg, "shared-number", "OLD, ALL share") == 1 &&
	    count_rule(&reg, "shared-number", "NEW, ALL share") == 1,
	    "one shared-number warning per set of coexisting names");
	a = collision_of(&reg, 0x80045404, "X Y");
	tap(a && a->versions == 7 && !collision_of(&reg, 0x80085404, "Z"),
	    "a command of the same key but another size coming in 6.12 does not split X and Y's collision");
	tap(count_rule(&reg, "reused-number", "NEW (new in 6.12) reuses the number of OLD") == 1 &&
	    count_rule(&reg, "reused-number", NULL) == 1,
	    "reused-number: NEW reuses OLD's number; ALL, which coexists with both, reuses nothing");
	tap(count_rule(&reg, "row-versions", NULL) == 0, "MID lives as long as its row: no row-versions");
	tap(lookup(&reg, 0x5401, hits) == 3 && !strcmp(hits[0].name, old->name),
	    "lookup still finds a removed command's number");
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
	tap(count_rule(&reg, "reference", "is no version of mem/versions.yaml (known: none)") == 9,
	    "without versions.yaml, every since and removed (7 of commands, 2 of a row) is an unknown version");
	registry_release(&reg);
}

/* ------------------------------------------------------------ numbers per version */

static const char abis2[] = SPDX
	"abis:\n"
	"  - {name: x86_64, doc: x., layout: generic, arch: x86, cc: gcc, cflags: [-m64]}\n"
	"  - {name: i386, doc: i., layout: generic, arch: x86, cc: gcc, cflags: [-m32]}\n";
static const char versions2[] = SPDX
	"doc: v.\nversions:\n  - {name: \"6.1\", doc: a.}\n  - {name: \"6.12\", doc: b.}\n";
static const char magic2[] = SPDX
	"doc: m.\nmagic-codes:\n  - {code: 0x54, seq: all, headers: [linux/t.h], doc: t.}\n";
/* struct g grows from 8 to 16 bytes in 6.12; MOVED is absent on i386 in 6.12 */
static const char sz_x86_61[] = SPDX "abi: x86_64\ndoc: s.\nsizes: {int: 4, size_t: 8, struct g: 8}\n";
static const char sz_i386_61[] = SPDX "abi: i386\ndoc: s.\nsizes: {int: 4, size_t: 4, struct g: 8}\n";
static const char sz_x86_612[] = SPDX "abi: x86_64\ndoc: s.\nsizes: {int: 4, size_t: 8, struct g: 16}\n";
static const char sz_i386_612[] = SPDX
	"abi: i386\ndoc: s.\nabsent: [MOVED]\nsizes: {int: 4, size_t: 4, struct g: 16}\n";
/* GROW: _IOWR('T', 5, struct g); OLDTWIN (gone in 6.12) carries its 6.1
 * number, NEWTWIN (new in 6.12) its 6.1 number too: only OLDTWIN meets it */
static const char hdr2[] = SPDX
	"header: linux/t.h\n"
	"doc: t.\n"
	"commands:\n"
	"  - name: GROW\n"
	"    dir: read-write\n"
	"    magic: 0x54\n"
	"    nr: 5\n"
	"    type: struct g\n"
	"    abi-change: it grew.\n"
	"    accept: [shared-number]\n"
	"    doc: g.\n"
	"  - {name: OLDTWIN, dir: read-write, magic: 0x54, nr: 5, type: size_t, removed: \"6.12\", accept: [shared-number], doc: o.}\n"
	"  - {name: NEWTWIN, dir: read-write, magic: 0x54, nr: 6, type: size_t, since: \"6.12\", doc: n.}\n"
	"  - {name: MOVED, dir: write, magic: 0x54, nr: 7, type: int, doc: m.}\n";

/* Load the two-version registry with header text hdr; without_612_i386:
 * leave out sizes/6.12/i386.yaml; extra: one more file (name, text) or NULL. */
static void load2(struct registry *reg, const char *hdr, bool without_612_i386, const char *extra_name,
		  const char *extra)
{
	const char *names[10] = { "layouts.yaml", "abis.yaml", "magic.yaml", "versions.yaml",
				  "headers/linux/t.yaml", "sizes/x86_64.yaml", "sizes/i386.yaml",
				  "sizes/6.12/x86_64.yaml", "sizes/6.12/i386.yaml" };
	const char *data[10] = { layouts, abis2, magic2, versions2, hdr, sz_x86_61, sz_i386_61,
				 sz_x86_612, sz_i386_612 };
	size_t lens[10], n = without_612_i386 ? 8 : 9;

	if (extra) {
		names[n] = extra_name;
		data[n++] = extra;
	}
	for (size_t i = 0; i < n; i++)
		lens[i] = strlen(data[i]);
	registry_load_buffers(reg, "mem", n, names, data, lens);
	registry_check(reg);
}

static bool diag_at(const struct registry *reg, const char *rule, unsigned int line, unsigned int col,
		    enum severity sev, const char *text)
{
	if (getenv("TEST_HISTORY_DIAGS"))
		diags_print(stdout, &reg->diags, false, true);
	for (size_t i = 0; i < reg->diags.n; i++) {
		const struct diag *g = &reg->diags.v[i];

		if (!strcmp(g->rule, rule) && g->mark.line == line && g->mark.col == col && g->sev == sev &&
		    strstr(g->msg, text))
			return true;
	}
	return false;
}

static void test_numbers_by_version(void)
{
	struct registry reg;
	const struct command *grow, *moved;
	struct found hits[4];
	size_t n;

	load2(&reg, hdr2, false, NULL, NULL);
	grow = find(&reg, "GROW");
	moved = find(&reg, "MOVED");
	tap(reg.diags.errors == 0, "two versions with their own sizes check without errors");
	tap(grow && grow->by_version && grow->numbers == grow->by_version[1] &&
	    grow->by_version[0][0].number == 0xc0085405 && grow->by_version[1][0].number == 0xc0105405 &&
	    grow->by_version[0][1].number == 0xc0085405,
	    "each version's number from its sizes; numbers are the newest version's");
	tap(reg.n_abi_changes == 1 && reg.abi_changes[0].cmd == grow && reg.abi_changes[0].from == 0 &&
	    reg.abi_changes[0].to == 1 && reg.abi_changes[0].n_abis == 2,
	    "one abi change: GROW from 6.1 to 6.12 on both ABIs");
	tap(diag_at(&reg, "abi-change", 10, 17, SEV_WARNING, "GROW: its number changes from 6.1 to 6.12 (it grew.): x86_64 0xc0085405 -> 0xc0105405 (size 8 -> 16)") &&
	    count_rule(&reg, "abi-change", NULL) == 1,
	    "an accepted abi change is an accepted warning at abi-change, with its reason");
	tap(moved && moved->by_version[0][1].present && !moved->by_version[1][1].present &&
	    moved->numbers[0].present && count_rule(&reg, "abi-change", "MOVED") == 0,
	    "a command the ABI lacks in 6.12 only: no number there, and no abi change");
	tap(collision_of(&reg, 0xc0085405, "GROW OLDTWIN") &&
	    collision_of(&reg, 0xc0085405, "GROW OLDTWIN")->versions == 1 &&
	    !collision_of(&reg, 0xc0105405, "GROW OLDTWIN"),
	    "GROW's 6.1 number is shared with OLDTWIN in 6.1 only; its 6.12 number with nobody");
	tap(count_rule(&reg, "reused-number", NULL) == 0,
	    "a number a command carried in an older version is no dead number");
	n = lookup(&reg, 0xc0085405, hits);
	tap(n == 2 && grow && !strcmp(hits[0].name, grow->name) && hits[0].versions == 1 &&
	    hits[1].versions == 1,
	    "lookup finds GROW by its 6.1 number, with the versions it carries it in");
	n = lookup(&reg, 0xc0105405, hits);
	tap(n == 1 && grow && !strcmp(hits[0].name, grow->name) && hits[0].versions == 2,
	    "and by its 6.12 number");
	registry_release(&reg);

	/* without the reason: an error at the command's entry */
	{
		char *bad = strdup(hdr2), *at = strstr(bad, "    abi-change: it grew.\n");

		memmove(at, at + strlen("    abi-change: it grew.\n"), strlen(at + strlen("    abi-change: it grew.\n")) + 1);
		load2(&reg, bad, false, NULL, NULL);
		tap(diag_at(&reg, "abi-change", 5, 5, SEV_ERROR,
			    "GROW: its number changes from 6.1 to 6.12: x86_64 0xc0085405 -> 0xc0105405 (size 8 -> 16), i386 0xc0085405 -> 0xc0105405 (size 8 -> 16)") &&
		    reg.diags.errors == 1,
		    "an abi change without abi-change: one error at the command, listing each ABI");
		registry_release(&reg);
		free(bad);
	}
	/* a reason with nothing to accept */
	{
		static const char stale[] = SPDX
			"header: linux/t.h\ndoc: t.\ncommands:\n"
			"  - {name: SAME, dir: read, magic: 0x54, nr: 1, type: int, abi-change: why, doc: s.}\n";

		load2(&reg, stale, false, NULL, NULL);
		tap(diag_at(&reg, "abi-change", 5, 72, SEV_ERROR, "there is no change to accept") &&
		    reg.diags.errors == 1, "abi-change on a command whose number never changes is an error");
		registry_release(&reg);
	}
	/* a later version without sizes for an ABI */
	load2(&reg, hdr2, true, NULL, NULL);
	tap(diag_at(&reg, "missing-size", 4, 5, SEV_ERROR,
		    "ABI 'i386' has no measured sizes for 6.12 (mem/sizes/6.12/i386.yaml), which GROW (linux/t.h) needs: run 'make sizes' for 6.12") &&
	    reg.diags.errors == 1,
	    "a version without sizes for an ABI: one missing-size error at the ABI");
	registry_release(&reg);
	/* sizes of a version the registry does not know, of the oldest, or of another ABI */
	load2(&reg, hdr2, false, "sizes/6.13/x86_64.yaml", sz_x86_612);
	tap(diag_at(&reg, "reference", 1, 1, SEV_ERROR, "sizes/6.13/ names no known version after the oldest") &&
	    reg.diags.errors == 1, "sizes/<V>/ of an unknown version: an error at the file");
	registry_release(&reg);
	load2(&reg, hdr2, false, "sizes/6.1/x86_64.yaml", sz_x86_612);
	tap(diag_at(&reg, "reference", 1, 1, SEV_ERROR, "the oldest known version, belong in mem/sizes/x86_64.yaml") &&
	    reg.diags.errors == 1, "sizes/<oldest>/: an error at the file");
	registry_release(&reg);
	load2(&reg, hdr2, true, "sizes/6.12/i386.yaml", sz_x86_612);
	tap(diag_at(&reg, "reference", 2, 6, SEV_ERROR, "belong in mem/sizes/6.12/x86_64.yaml"),
	    "sizes/6.12/i386.yaml whose abi: is x86_64: an error at abi:");
	registry_release(&reg);
}

int main(void)
{
	test_versions();
	test_no_versions();
	test_numbers_by_version();
	printf("1..%d\n", test_no);
	return failed;
}
