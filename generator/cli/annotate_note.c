// SPDX-License-Identifier: GPL-2.0
/*
 * What annotate writes after an ioctl number: a C comment naming it on one
 * ABI, as strace would: the command (a family as the caller wrote it),
 * "A (header) or B (header)" where distinct commands share it, the versions
 * when it holds in some only; else the command of the same dir, type and nr
 * and the sizes it has (a struct that grew, a caller built against other
 * headers), or the command on the ABI's time64 variant (or base).
 */
#include <string.h>

#include "annotate.h"
#include "describe.h"

/* Bit v for each known version: a hit in all of them says nothing more. */
static uint64_t all_versions(const struct ioctlreg *r)
{
	size_t n = ioctlreg_version_count(r);

	return n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
}

static void put_versions(const struct ioctlreg *r, uint64_t mask, struct strbuf *sb)
{
	if (!ioctlreg_version_count(r) || !mask || mask == all_versions(r))
		return;
	sb_lit(sb, " [");
	describe_versions(r, mask, sb);
	sb_putc(sb, ']');
}

/* The distinct commands of hits (aliases once), "A or B"; headers when
 * there are several.  Returns how many. */
static size_t put_hits(const struct ioctlreg *r, size_t k, const struct ioctlreg_hit *hits,
		       size_t n, struct strbuf *sb)
{
	size_t m = n < DESCRIBE_MAX_HITS ? n : DESCRIBE_MAX_HITS, distinct = 0, shown = 0;
	struct ioctlreg_command c;

	for (size_t i = 0, g; describe_next(r, k, hits, m, &i, &g) < m;)
		distinct++;
	for (size_t i = 0, g, first; (first = describe_next(r, k, hits, m, &i, &g)) < m;) {
		if (shown++)
			sb_lit(sb, " or ");
		describe_call(r, &hits[first], k, sb);
		if (distinct > 1) {
			ioctlreg_command(r, hits[first].command, &c);
			sb_printf(sb, " (%s)", c.header);
		}
		put_versions(r, hits[first].versions, sb);
	}
	if (n > DESCRIBE_MAX_HITS)
		sb_printf(sb, " and %zu more", n - DESCRIBE_MAX_HITS);
	return distinct;
}

/* Same dir, type and nr, other sizes: "size 48 unknown: NAME (header) has
 * 32 [6.1 only], 40 [6.12 only]", each command once (not its aliases). */
static bool other_sizes(const struct ioctlreg *r, size_t k, uint32_t number, struct strbuf *sb)
{
	struct ioctlreg_hit hits[DESCRIBE_MAX_HITS];
	size_t n = ioctlreg_lookup_other_sizes(r, k, IOCTLREG_ANY_VERSION, number, hits,
					       DESCRIBE_MAX_HITS);
	size_t m = n < DESCRIBE_MAX_HITS ? n : DESCRIBE_MAX_HITS;
	struct ioctlreg_fields f;
	struct ioctlreg_command c;

	if (!n)
		return false;
	ioctlreg_split(r, (size_t)ioctlreg_abi_layout(r, k), number, &f);
	sb_printf(sb, " /* size %u unknown:", f.size);
	for (size_t i = 0, g, first, shown = 0; (first = describe_next(r, k, hits, m, &i, &g)) < m;) {
		ioctlreg_command(r, hits[first].command, &c);
		sb_printf(sb, "%s %s (%s) has", shown++ ? ";" : "", c.name, c.header);
		/* its sizes, once each: its other names carry the same */
		for (size_t j = g, sizes = 0; j < m; j++) {
			bool again = false;

			if (!describe_same(r, k, &hits[g], &hits[j]))
				continue;
			for (size_t x = g; x < j; x++)
				again |= describe_same(r, k, &hits[g], &hits[x]) &&
					 hits[x].size_arg == hits[j].size_arg;
			if (again)
				continue;
			sb_printf(sb, "%s %u", sizes++ ? "," : "", hits[j].size_arg);
			put_versions(r, hits[j].versions, sb);
		}
	}
	sb_lit(sb, " */");
	return true;
}

/* Its number on the ABI's time64 variant, or on the base of a variant. */
static bool variant_hit(const struct ioctlreg *r, size_t k, uint32_t number, struct strbuf *sb)
{
	struct ioctlreg_hit hits[DESCRIBE_MAX_HITS];

	for (size_t o = 0; o < ioctlreg_abi_count(r); o++) {
		size_t n;

		if (o == k || !((int)o == ioctlreg_abi_variant_of(r, k) ||
				ioctlreg_abi_variant_of(r, o) == (int)k))
			continue;
		n = ioctlreg_lookup(r, o, IOCTLREG_ANY_VERSION, number, hits, DESCRIBE_MAX_HITS);
		if (!n)
			continue;
		sb_lit(sb, " /* ");
		put_hits(r, o, hits, n, sb);
		sb_printf(sb, ": the number on %s (%s), not on %s */", ioctlreg_abi_name(r, o),
			  ioctlreg_abi_variant_of(r, o) == (int)k ? "its time64 variant" : "its base ABI",
			  ioctlreg_abi_name(r, k));
		return true;
	}
	return false;
}

bool annotate_note(const struct ioctlreg *r, size_t k, uint32_t number, bool always,
		   struct strbuf *sb)
{
	struct ioctlreg_hit hits[DESCRIBE_MAX_HITS];
	size_t n = ioctlreg_lookup(r, k, IOCTLREG_ANY_VERSION, number, hits, DESCRIBE_MAX_HITS);

	if (n) {
		sb_lit(sb, " /* ");
		put_hits(r, k, hits, n, sb);
		sb_lit(sb, " */");
		return true;
	}
	/* the variant's very number says more than a near one here */
	if (variant_hit(r, k, number, sb) || other_sizes(r, k, number, sb))
		return true;
	if (always)
		sb_printf(sb, " /* 0x%08x: no registered command on %s */", number, ioctlreg_abi_name(r, k));
	return always;
}
