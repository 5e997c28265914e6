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
			uint32_t unit = c->size_unit && c->numbers ? c->numbers[abi].unit : 0;

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
	print_versions(reg, c);
}

/* Where a time64 variant and its base ABI give the command different
 * numbers, say so on both: the usual reason a 32-bit program's number
 * is not found. */
static void print_variant_note(const struct registry *reg, size_t k, const struct command *c)
{
	const struct abi *a = &reg->abis[k];

	for (size_t v = 0; v < reg->n_abis; v++) {
		const struct abi *o = &reg->abis[v];
		const struct abi_number *n;

		if (v == k || !(o == a->variant_of || o->variant_of == a))
			continue;
		n = &c->numbers[v];
		if (!n->present)
			printf(" [not on %s]", o->name);
		else if (n->number != c->numbers[k].number)
			printf(" [0x%08x on %s: size %u, not %u]", n->number, o->name, n->size,
			       c->numbers[k].size);
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
			print_variant_note(reg, k, hits[first].cmd);
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
	if (!parse_uint(argv[optind], &number) || number > UINT32_MAX)
		return usage_error("decode", "'%s' is not a 32-bit number (write 0x80081272 or 2148012658)",
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
