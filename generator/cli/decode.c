// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <string.h>

#include "cli.h"

static void print_type(unsigned int type)
{
	if (type >= 0x21 && type < 0x7f && type != '\'' && type != '\\')
		printf("0x%02x '%c'", type, type);
	else
		printf("0x%02x    ", type);
}

/* The label column: wide enough for every layout and ABI name. */
static int label_width(const struct registry *reg)
{
	size_t w = 9;

	for (size_t i = 0; i < reg->n_layouts; i++)
		w = strlen(reg->layouts[i].name) > w ? strlen(reg->layouts[i].name) : w;
	for (size_t k = 0; k < reg->n_abis; k++)
		w = strlen(reg->abis[k].name) > w ? strlen(reg->abis[k].name) : w;
	return (int)w;
}

static void print_fields(const struct layout *l, uint32_t number, const char *label, int width)
{
	struct ioc_fields f;

	layout_decode(l, number, &f);
	printf("  %-*s ", width, label);
	if (f.dir_name >= 0)
		printf("%-11s", dir_names[f.dir_name]);
	else
		printf("?(%u)%*s", f.dir, f.dir > 9 ? 6 : 7, "");
	print_type(f.type);
	printf("  0x%02x (%3u)  %u\n", f.nr, f.nr, f.size);
}

/* The known versions a command exists in, unless it is in every one:
 * [6.1 only; removed in 6.12], [new in 6.12]. */
static void print_versions(const struct registry *reg, const struct command *c)
{
	struct strbuf sb = { 0 };

	lifetime_describe(reg, &c->life, &sb);
	if (sb.len)
		printf(" [%s]", sb.buf);
	sb_release(&sb);
}

/* The numbers of c in the first version the hit holds in: those of the
 * number found (its newest ones without numbers per version). */
static const struct abi_number *hit_numbers(const struct lookup_hit *hit)
{
	const struct command *c = hit->cmd;

	if (c->by_version && hit->versions)
		for (size_t v = c->life.first; v < c->life.end; v++)
			if (hit->versions >> v & 1)
				return c->by_version[v];
	return c->numbers;
}

/* The versions of mask: "6.1 only", "6.12 to 6.13", "6.1, 6.13 to 6.14". */
static void describe_versions(const struct registry *reg, uint64_t mask, struct strbuf *sb)
{
	size_t runs = 0, last = 0;

	for (size_t v = 0; v < reg->n_versions; v++) {
		size_t end = v;

		if (!(mask >> v & 1))
			continue;
		while (end + 1 < reg->n_versions && (mask >> (end + 1) & 1))
			end++;
		sb_printf(sb, "%s%s", runs++ ? ", " : "", reg->versions[v].name);
		if (end > v)
			sb_printf(sb, " to %s", reg->versions[end].name);
		last = end - v;
		v = end;
	}
	if (runs == 1 && last == 0)
		sb_puts(sb, " only");
}

/*
 * Where the command carries the number found in some of the versions it
 * exists in only (its number changed, or the ABI lacks it in others): the
 * versions of this number, then its other numbers there and where the ABI
 * lacks it, then when it came or went: [6.1 only; 0xc02864c3 in 6.12].
 * false when the number holds in every version it has one on the ABI.
 */
static bool print_number_versions(const struct registry *reg, const struct lookup_hit *hit, size_t k)
{
	const struct command *c = hit->cmd;
	uint64_t have = 0, life = 0, done;
	struct strbuf sb = { 0 };

	if (!c->by_version || !hit->versions)
		return false;
	for (size_t v = c->life.first; v < c->life.end; v++) {
		life |= (uint64_t)1 << v;
		if (c->by_version[v][k].present)
			have |= (uint64_t)1 << v;
	}
	if (hit->versions == have && have == life)
		return false;
	describe_versions(reg, hit->versions, &sb);
	done = hit->versions;
	for (size_t v = c->life.first; v < c->life.end; v++) {
		const struct abi_number *n = &c->by_version[v][k];
		uint64_t same = 0;

		if (done >> v & 1)
			continue;
		for (size_t w = v; w < c->life.end; w++) {
			const struct abi_number *o = &c->by_version[w][k];

			if (!(done >> w & 1) && o->present == n->present &&
			    (!n->present || o->number == n->number))
				same |= (uint64_t)1 << w;
		}
		done |= same;
		if (n->present)
			sb_printf(&sb, "; 0x%08x in ", n->number);
		else
			sb_printf(&sb, "; not on %s in ", reg->abis[k].name);
		describe_versions(reg, same, &sb);
		/* "in 6.12 only" says no more than "in 6.12" */
		if (sb.len > 5 && !strcmp(sb.buf + sb.len - 5, " only"))
			sb.buf[sb.len -= 5] = '\0';
	}
	if (c->life.first > 0)
		sb_printf(&sb, "; new in %s", reg->versions[c->life.first].name);
	if (c->life.end < reg->n_versions)
		sb_printf(&sb, "; removed in %s", reg->versions[c->life.end].name);
	printf(" [%s]", sb.buf);
	sb_release(&sb);
	return true;
}

/* A family member as the caller wrote it: EVIOCGBIT(3, 64); a parameter the
 * number does not depend on keeps its name (VBG_IOCTL_LOG(s)), a count of
 * size-unit elements is the size over the unit's, ? when it does not divide. */
static void print_hit(const struct registry *reg, const struct lookup_hit *hit, size_t abi)
{
	const struct command *c = hit->cmd;

	printf("%s", c->name);
	if (c->n_params) {
		putchar('(');
		for (size_t p = 0; p < c->n_params; p++) {
			uint32_t unit = c->size_unit && c->numbers ? hit_numbers(hit)[abi].unit : 0;

			if (p)
				fputs(", ", stdout);
			if (c->nr_param && !strcmp(c->params[p], c->nr_param))
				printf("%u", hit->nr_arg);
			else if (!c->size_param || strcmp(c->params[p], c->size_param))
				fputs(c->params[p], stdout);
			else if (!c->size_unit)
				printf("%u", hit->size_arg);
			else if (unit && hit->size_arg % unit == 0)
				printf("%u", hit->size_arg / unit);
			else
				printf("?: %u bytes, not a multiple of %u", hit->size_arg, unit);
		}
		putchar(')');
	}
	printf(" (%s)", c->header->path);
	if (c->protocol_code)
		fputs(" [protocol code written into the driver's buffer, not an ioctl request]", stdout);
	if (!print_number_versions(reg, hit, abi))
		print_versions(reg, c);
}

/* Where a time64 variant and its base ABI give the command different
 * numbers, say so on both: the usual reason a 32-bit program's number
 * is not found. */
static void print_variant_note(const struct registry *reg, size_t k, const struct lookup_hit *hit)
{
	const struct abi *a = &reg->abis[k];
	const struct abi_number *numbers = hit_numbers(hit);

	for (size_t v = 0; v < reg->n_abis; v++) {
		const struct abi *o = &reg->abis[v];
		const struct abi_number *n;

		if (v == k || !(o == a->variant_of || o->variant_of == a))
			continue;
		n = &numbers[v];
		if (!n->present)
			printf(" [not on %s]", o->name);
		else if (n->number != numbers[k].number)
			printf(" [0x%08x on %s: size %u, not %u]", n->number, o->name, n->size,
			       numbers[k].size);
	}
}

/* Two names of one command on abi: their alias-of chains end in one name. */
static bool same_command(const struct abi *abi, const struct lookup_hit *a,
			 const struct lookup_hit *b)
{
	return !strcmp(command_alias_root_on(a->cmd, abi), command_alias_root_on(b->cmd, abi)) &&
	       a->nr_arg == b->nr_arg;
}

/* Is hits[i] another name of a command listed before it? */
static bool alias_before(const struct abi *abi, const struct lookup_hit *hits, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (same_command(abi, &hits[j], &hits[i]))
			return true;
	return false;
}

static void print_matches(const struct registry *reg, size_t k, uint32_t number, int width)
{
	struct lookup *lk = lookup_build(reg, k);
	struct lookup_hit hits[16];
	size_t n = lookup_find(lk, number, hits, 16);
	const struct abi *abi = &reg->abis[k];

	printf("  %-*s ", width, reg->abis[k].name);
	if (!n)
		fputs("no registered command", stdout);
	/* each command once, under the name its alias-of chains end in when
	 * that name is among the hits, its other names after it as aliases;
	 * " or " only between distinct commands */
	for (size_t i = 0, shown = 0; i < n && i < 16; i++) {
		size_t first = i;

		if (alias_before(abi, hits, i))
			continue;
		for (size_t j = i; j < n && j < 16; j++)
			if (same_command(abi, &hits[i], &hits[j]) &&
			    !strcmp(hits[j].cmd->name, command_alias_root_on(hits[j].cmd, abi)))
				first = j;
		if (shown++)
			fputs(" or ", stdout);
		print_hit(reg, &hits[first], k);
		if (hits[first].cmd->numbers)
			print_variant_note(reg, k, &hits[first]);
		for (size_t j = i; j < n && j < 16; j++) {
			if (j == first || !same_command(abi, &hits[i], &hits[j]))
				continue;
			fputs(", alias ", stdout);
			print_hit(reg, &hits[j], k);
		}
	}
	if (n > 16)
		printf(" and %zu more", n - 16);
	putchar('\n');
	lookup_free(lk);
}

int cmd_decode(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "abi", required_argument, NULL, 'a' },
		COMMON_OPTIONS,
		{ 0 } };
	const char *abi_name = NULL, *spec = DEFAULT_SPEC_DIR;
	const struct abi *abi = NULL;
	struct registry reg;
	uint64_t number;
	int c, width;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		if (c == 'a')
			abi_name = optarg;
		else if (c == OPT_SPEC)
			spec = optarg;
		else if (c == OPT_HELP)
			return usage_help("decode");
		else
			return option_error("decode", c, argc, argv);
	}
	if (operand_count("decode", argc, argv, 1, "one NUMBER"))
		return EXIT_USAGE;
	if (!parse_cli_number(argv[optind], &number) || number > UINT32_MAX)
		return usage_error("decode", "'%s' is not a 32-bit number (write 0x80081272 or 2148012658; a leading 0 is octal, as in C)",
				   argv[optind]);
	if (load_quiet(&reg, spec)) {
		registry_release(&reg);
		return EXIT_DATA;
	}
	if (abi_name && !(abi = registry_abi(&reg, abi_name))) {
		fprintf(stderr, "ioctlgen decode: error: unknown ABI '%s' (known:", abi_name);
		for (size_t k = 0; k < reg.n_abis; k++)
			fprintf(stderr, " %s", reg.abis[k].name);
		fputs(")\n", stderr);
		registry_release(&reg);
		return EXIT_USAGE;
	}
	width = label_width(&reg);
	printf("0x%08llx = %llu\n", (unsigned long long)number, (unsigned long long)number);
	printf("  %-*s %-11s%-10s  %-10s  %s\n", width, "layout", "dir", "type", "nr", "size");
	if (abi) {
		print_fields(abi->layout, (uint32_t)number, abi->layout->name, width);
	} else {
		for (size_t i = 0; i < reg.n_layouts; i++)
			print_fields(&reg.layouts[i], (uint32_t)number, reg.layouts[i].name, width);
	}
	printf("  %-*s %s\n", width, "abi", "commands");
	for (size_t k = 0; k < reg.n_abis; k++)
		if (!abi || abi == &reg.abis[k])
			print_matches(&reg, k, (uint32_t)number, width);
	registry_release(&reg);
	return 0;
}
