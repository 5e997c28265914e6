// SPDX-License-Identifier: GPL-2.0
/*
 * The commands behind a number on one ABI, in words, from the lookup table
 * (libioctlreg): names as the caller wrote them (EVIOCGBIT(3, 64)), the
 * header, the versions the number holds in, the time64 variant's number,
 * aliases.  decode prints it per ABI; annotate puts it in comments.
 */
#include <string.h>

#include "describe.h"

/* The version whose numbers the hit shows: the first of its life it holds
 * in (numbers per version), else the newest (IOCTLREG_ANY_VERSION). */
static int hit_version(const struct ioctlreg_command *c, const struct ioctlreg_hit *hit)
{
	if (c->flags & IOCTLREG_PER_VERSION && hit->versions)
		for (size_t v = c->first_version; v < c->end_version; v++)
			if (hit->versions >> v & 1)
				return (int)v;
	return IOCTLREG_ANY_VERSION;
}

/* The versions of mask: "6.1 only", "6.12 to 6.13", "6.1, 6.13 to 6.14". */
void describe_versions(const struct ioctlreg *r, uint64_t mask, struct strbuf *sb)
{
	size_t runs = 0, last = 0, n = ioctlreg_version_count(r);

	for (size_t v = 0; v < n; v++) {
		size_t end = v;

		if (!(mask >> v & 1))
			continue;
		while (end + 1 < n && (mask >> (end + 1) & 1))
			end++;
		sb_printf(sb, "%s%s", runs++ ? ", " : "", ioctlreg_version_name(r, v));
		if (end > v)
			sb_printf(sb, " to %s", ioctlreg_version_name(r, end));
		last = end - v;
		v = end;
	}
	if (runs == 1 && last == 0)
		sb_puts(sb, " only");
}

bool describe_number_versions(const struct ioctlreg *r, size_t cmd, size_t k, uint64_t hit,
			      struct strbuf *out)
{
	struct ioctlreg_command c;
	struct ioctlreg_number num[64], o;
	bool present[64];
	uint64_t have = 0, life = 0, done;
	size_t start = out->len;

	ioctlreg_command(r, cmd, &c);
	if (!(c.flags & IOCTLREG_PER_VERSION) || !hit)
		return false;
	for (size_t v = c.first_version; v < c.end_version; v++) {
		life |= (uint64_t)1 << v;
		present[v] = ioctlreg_command_number(r, cmd, k, (int)v, &num[v]);
		if (present[v])
			have |= (uint64_t)1 << v;
	}
	if (hit == have && have == life)
		return false;
	describe_versions(r, hit, out);
	done = hit;
	for (size_t v = c.first_version; v < c.end_version; v++) {
		uint64_t same = 0;

		if (done >> v & 1)
			continue;
		for (size_t w = v; w < c.end_version; w++) {
			o = num[w];
			if (!(done >> w & 1) && present[w] == present[v] &&
			    (!present[v] || o.number == num[v].number))
				same |= (uint64_t)1 << w;
		}
		done |= same;
		if (present[v])
			sb_printf(out, "; 0x%08x in ", num[v].number);
		else
			sb_printf(out, "; not %s %s in ", c.flags & IOCTLREG_KERNEL_INTERNAL ?
				  "measured on" : "on", ioctlreg_abi_name(r, k));
		describe_versions(r, same, out);
		/* "in 6.12 only" says no more than "in 6.12" */
		if (out->len - start > 5 && !strcmp(out->buf + out->len - 5, " only"))
			out->buf[out->len -= 5] = '\0';
	}
	if (c.first_version > 0)
		sb_printf(out, "; new in %s", ioctlreg_version_name(r, c.first_version));
	if (c.end_version < ioctlreg_version_count(r))
		sb_printf(out, "; removed in %s", ioctlreg_version_name(r, c.end_version));
	return true;
}

/* A family member as the caller wrote it: EVIOCGBIT(3, 64); a parameter the
 * number does not depend on keeps its name (VBG_IOCTL_LOG(s)), a count of
 * size-unit elements is the size over the unit's, ? when it does not divide. */
void describe_call(const struct ioctlreg *r, const struct ioctlreg_hit *hit, size_t abi,
		   struct strbuf *sb)
{
	struct ioctlreg_command c;
	struct ioctlreg_number n = { 0 };
	uint32_t unit = 0;

	ioctlreg_command(r, hit->command, &c);
	sb_puts(sb, c.name);
	if (!c.n_params)
		return;
	if (c.flags & IOCTLREG_SIZE_UNIT && c.flags & IOCTLREG_NUMBERED) {
		ioctlreg_command_number(r, hit->command, abi, hit_version(&c, hit), &n);
		unit = n.unit;
	}
	sb_putc(sb, '(');
	for (size_t p = 0; p < c.n_params; p++) {
		if (p)
			sb_lit(sb, ", ");
		if ((int)p == c.nr_param)
			sb_printf(sb, "%u", hit->nr_arg);
		else if ((int)p != c.size_param)
			sb_puts(sb, ioctlreg_command_param(r, hit->command, p));
		else if (!(c.flags & IOCTLREG_SIZE_UNIT))
			sb_printf(sb, "%u", hit->size_arg);
		else if (unit && hit->size_arg % unit == 0)
			sb_printf(sb, "%u", hit->size_arg / unit);
		else
			sb_printf(sb, "?: %u bytes, not a multiple of %u", hit->size_arg, unit);
	}
	sb_putc(sb, ')');
}

void describe_hit(const struct ioctlreg *r, const struct ioctlreg_hit *hit, size_t abi,
		  struct strbuf *sb)
{
	struct ioctlreg_command c;

	ioctlreg_command(r, hit->command, &c);
	describe_call(r, hit, abi, sb);
	sb_printf(sb, " (%s%s)", c.header, c.flags & IOCTLREG_KERNEL_INTERNAL ?
		  ", kernel-internal, not in the UAPI" : "");
	if (c.flags & IOCTLREG_PROTOCOL_CODE)
		sb_lit(sb, " [protocol code written into the driver's buffer, not an ioctl request]");
	/* in brackets: the number's own versions, else the command's, else nothing */
	sb_lit(sb, " [");
	if (describe_number_versions(r, hit->command, abi, hit->versions, sb))
		sb_putc(sb, ']');
	else if (c.lifetime[0])
		sb_printf(sb, "%s]", c.lifetime);
	else
		sb->buf[sb->len -= 2] = '\0';
}

/* Where a time64 variant and its base ABI give the command different
 * numbers, say so on both: the usual reason a 32-bit program's number
 * is not found. */
static void variant_note(const struct ioctlreg *r, size_t k, const struct ioctlreg_hit *hit,
			 struct strbuf *sb)
{
	struct ioctlreg_command c;
	struct ioctlreg_number mine, n;
	int v;

	ioctlreg_command(r, hit->command, &c);
	v = hit_version(&c, hit);
	ioctlreg_command_number(r, hit->command, k, v, &mine);
	for (size_t o = 0; o < ioctlreg_abi_count(r); o++) {
		if (o == k || !((int)o == ioctlreg_abi_variant_of(r, k) ||
				ioctlreg_abi_variant_of(r, o) == (int)k))
			continue;
		if (!ioctlreg_command_number(r, hit->command, o, v, &n))
			sb_printf(sb, " [not on %s]", ioctlreg_abi_name(r, o));
		else if (n.number != mine.number)
			sb_printf(sb, " [0x%08x on %s: size %u, not %u]", n.number, ioctlreg_abi_name(r, o),
				  n.size, mine.size);
	}
}

/* Two names of one command on abi: their alias-of chains end in one name. */
bool describe_same(const struct ioctlreg *r, size_t abi, const struct ioctlreg_hit *a,
		   const struct ioctlreg_hit *b)
{
	return !strcmp(ioctlreg_command_alias_root(r, a->command, abi),
		       ioctlreg_command_alias_root(r, b->command, abi)) && a->nr_arg == b->nr_arg;
}

static bool alias_before(const struct ioctlreg *r, size_t abi, const struct ioctlreg_hit *hits,
			 size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (describe_same(r, abi, &hits[j], &hits[i]))
			return true;
	return false;
}

size_t describe_next(const struct ioctlreg *r, size_t abi, const struct ioctlreg_hit *hits, size_t m,
		     size_t *i, size_t *group)
{
	size_t first;

	while (*i < m && alias_before(r, abi, hits, *i))
		(*i)++;
	if (*i >= m)
		return m;
	*group = first = (*i)++;
	/* the name its alias-of chains end in, when that name is a hit */
	for (size_t j = first; j < m; j++)
		if (describe_same(r, abi, &hits[*group], &hits[j]) &&
		    !strcmp(ioctlreg_command_name(r, hits[j].command),
			    ioctlreg_command_alias_root(r, hits[j].command, abi)))
			first = j;
	return first;
}

void describe_number(const struct ioctlreg *r, size_t k, uint32_t number, struct strbuf *sb)
{
	struct ioctlreg_hit hits[DESCRIBE_MAX_HITS];
	size_t n = ioctlreg_lookup(r, k, IOCTLREG_ANY_VERSION, number, hits, DESCRIBE_MAX_HITS);
	size_t m = n < DESCRIBE_MAX_HITS ? n : DESCRIBE_MAX_HITS;
	struct ioctlreg_command c;

	if (!n)
		sb_lit(sb, "no registered command");
	/* each command once, under the name its alias-of chains end in when
	 * that name is among the hits, its other names after it as aliases;
	 * " or " only between distinct commands */
	for (size_t i = 0, g, first, shown = 0; (first = describe_next(r, k, hits, m, &i, &g)) < m;) {
		if (shown++)
			sb_lit(sb, " or ");
		describe_hit(r, &hits[first], k, sb);
		ioctlreg_command(r, hits[first].command, &c);
		if (c.flags & IOCTLREG_NUMBERED)
			variant_note(r, k, &hits[first], sb);
		for (size_t j = g; j < m; j++) {
			if (j == first || !describe_same(r, k, &hits[g], &hits[j]))
				continue;
			sb_lit(sb, ", alias ");
			describe_hit(r, &hits[j], k, sb);
		}
	}
	if (n > DESCRIBE_MAX_HITS)
		sb_printf(sb, " and %zu more", n - DESCRIBE_MAX_HITS);
}
