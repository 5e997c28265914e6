// SPDX-License-Identifier: GPL-2.0
/*
 * ioctlgen decode: numbers back to their fields and commands, from the
 * lookup table (table_open.c).  One number: the fields on every layout and
 * the commands on every ABI, a block of lines.  Several, or - for standard
 * input: one line per number (or a JSON object per line, --json), in the
 * order given.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode.h"
#include "describe.h"

static void print_type(unsigned int type)
{
	if (type >= 0x21 && type < 0x7f && type != '\'' && type != '\\')
		printf("0x%02x '%c'", type, type);
	else
		printf("0x%02x    ", type);
}

/* The label column: wide enough for every layout and ABI name. */
static int label_width(const struct ioctlreg *r)
{
	size_t w = 9;

	for (size_t i = 0; i < ioctlreg_layout_count(r); i++)
		if (strlen(ioctlreg_layout_name(r, i)) > w)
			w = strlen(ioctlreg_layout_name(r, i));
	for (size_t k = 0; k < ioctlreg_abi_count(r); k++)
		if (strlen(ioctlreg_abi_name(r, k)) > w)
			w = strlen(ioctlreg_abi_name(r, k));
	return (int)w;
}

static void print_fields(const struct ioctlreg *r, size_t layout, uint32_t number, int width)
{
	static const char *const dirs[4] = { "none", "read", "write", "read-write" };
	struct ioctlreg_fields f;

	ioctlreg_split(r, layout, number, &f);
	printf("  %-*s ", width, ioctlreg_layout_name(r, layout));
	if (f.dir_name >= 0)
		printf("%-11s", dirs[f.dir_name]);
	else
		printf("?(%u)%*s", f.dir, f.dir > 9 ? 6 : 7, "");
	print_type(f.type);
	printf("  0x%02x (%3u)  %u\n", f.nr, f.nr, f.size);
}

/* The block of one number: its fields per layout, its commands per ABI. */
static void print_block(const struct ioctlreg *r, int abi, uint32_t number, struct strbuf *sb)
{
	int width = label_width(r);

	printf("0x%08llx = %llu\n", (unsigned long long)number, (unsigned long long)number);
	printf("  %-*s %-11s%-10s  %-10s  %s\n", width, "layout", "dir", "type", "nr", "size");
	if (abi >= 0 && ioctlreg_abi_layout(r, (size_t)abi) >= 0)
		print_fields(r, (size_t)ioctlreg_abi_layout(r, (size_t)abi), number, width);
	for (size_t i = 0; abi < 0 && i < ioctlreg_layout_count(r); i++)
		print_fields(r, i, number, width);
	printf("  %-*s %s\n", width, "abi", "commands");
	for (size_t k = 0; k < ioctlreg_abi_count(r); k++) {
		if (abi >= 0 && (size_t)abi != k)
			continue;
		sb->len = 0;
		describe_number(r, k, number, sb);
		printf("  %-*s %s\n", width, ioctlreg_abi_name(r, k), sb->buf);
	}
}

/* One line: 0x00005401 | x86_64: TCGETS (asm-generic/ioctls.h) | i386: ... */
static void print_line(const struct ioctlreg *r, int abi, uint32_t number, struct strbuf *sb)
{
	sb->len = 0;
	sb_printf(sb, "0x%08x", number);
	for (size_t k = 0; k < ioctlreg_abi_count(r); k++) {
		if (abi >= 0 && (size_t)abi != k)
			continue;
		sb_printf(sb, " | %s: ", ioctlreg_abi_name(r, k));
		describe_number(r, k, number, sb);
	}
	sb_putc(sb, '\n');
	fwrite(sb->buf, 1, sb->len, stdout);
}

/* One number of the input: its line, or an error line (and status 1). */
static int decode_one(const struct decode_opts *o, const char *text, struct strbuf *sb)
{
	uint64_t number;

	if (!parse_cli_number(text, &number) || number > UINT32_MAX) {
		fprintf(stderr, "ioctlgen decode: error: '%s' is not a 32-bit number\n", text);
		if (o->json)
			decode_json_error(text, sb);
		else
			printf("%s | error: not a 32-bit number\n", text);
		return EXIT_DATA;
	}
	if (o->json)
		decode_json(o->reg, o->abi, text, (uint32_t)number, sb);
	else
		print_line(o->reg, o->abi, (uint32_t)number, sb);
	return 0;
}

/* The numbers of standard input: words between blanks or commas. */
static int decode_stdin(const struct decode_opts *o, struct strbuf *sb)
{
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	while (getline(&line, &cap, stdin) >= 0)
		for (char *tok = strtok(line, " \t\r\n,"); tok; tok = strtok(NULL, " \t\r\n,"))
			rc |= decode_one(o, tok, sb);
	free(line);
	return rc;
}

static int unknown_abi(const struct ioctlreg *r, const char *name)
{
	fprintf(stderr, "ioctlgen decode: error: unknown ABI '%s' (known:", name);
	for (size_t k = 0; k < ioctlreg_abi_count(r); k++)
		fprintf(stderr, " %s", ioctlreg_abi_name(r, k));
	fputs(")\n", stderr);
	return EXIT_USAGE;
}

int cmd_decode(int argc, char **argv)
{
	const char *abi_name = NULL, *spec = NULL, *table = NULL;
	struct decode_opts o = { .abi = -1 };
	const struct cli_opt opts[] = {
		CLI_VALUE("abi", 'a', &abi_name),
		CLI_VALUE("table", 't', &table),
		CLI_FLAG("json", 'j', &o.json),
		CLI_FLAG("lines", 'l', &o.lines),
		CLI_END };
	struct cli_table t;
	struct strbuf sb = { 0 };
	uint64_t number;
	int rc = 0;

	if (cli_options("decode", argc, argv, ":", opts, &spec, &rc))
		return rc;
	if (optind == argc)
		return usage_error("decode", "give one NUMBER or more, or - for standard input");
	for (int i = optind; i < argc; i++)
		if (strcmp(argv[i], "-") &&
		    (!parse_cli_number(argv[i], &number) || number > UINT32_MAX))
			return usage_error("decode", "'%s' is not a 32-bit number (write 0x80081272 or 2148012658; a leading 0 is octal, as in C)",
					   argv[i]);
	if (spec && table)
		return usage_error("decode", "give --spec DIR or --table FILE, not both");
	if (cli_table_open("decode", spec, table, &t))
		return EXIT_DATA;
	o.reg = t.reg;
	if (abi_name && (o.abi = ioctlreg_abi_find(t.reg, abi_name)) < 0) {
		rc = unknown_abi(t.reg, abi_name);
		goto out;
	}
	if (argc - optind == 1 && strcmp(argv[optind], "-") && !o.json && !o.lines) {
		parse_cli_number(argv[optind], &number);
		print_block(t.reg, o.abi, (uint32_t)number, &sb);
		goto out;
	}
	for (int i = optind; i < argc; i++)
		rc |= strcmp(argv[i], "-") ? decode_one(&o, argv[i], &sb) : decode_stdin(&o, &sb);
out:
	sb_release(&sb);
	cli_table_close(&t);
	return rc;
}
