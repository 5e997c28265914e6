// SPDX-License-Identifier: GPL-2.0
/*
 * ioctlgen annotate: standard input to standard output, the same text with
 * each ioctl number named for one ABI (annotate_note.c).  It reads
 *   strace:  ioctl(3, 0x5401, ...) (-X raw), ioctl(3, 0x5401 / * TCGETS * /
 *            (-X verbose: named already, left as is unless strace wrote
 *            only its _IOC spelling), ioctl(3, _IOC(_IOC_READ, 0x55, 0xa,
 *            0x2c), ...), with "[pid N]" or "N " before it (strace -f);
 *   others:  any line that says ioctl (dmesg's "unknown ioctl 0x40086602"):
 *            each hex number of 3 to 8 digits the registry knows.
 * Lines without "ioctl" are copied as they are, at the speed of a copy.
 */
#define _GNU_SOURCE	/* memmem() */
#include <getopt.h>
#include <string.h>

#include "annotate.h"
#include "cli.h"

struct annotator {
	const struct ioctlreg *r;
	size_t abi;
	int layout;
	struct strbuf out;
};

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* A hex number 0x... at p (before end): its value and the end of its digits. */
static const char *hex_at(const char *p, const char *end, uint64_t *v)
{
	const char *q = p + 2;

	if (end - p < 3 || p[0] != '0' || (p[1] | 0x20) != 'x' || !is_hex(p[2]))
		return NULL;
	*v = 0;
	for (; q < end && is_hex(*q); q++) {
		if (q - p > 18)
			return NULL;
		*v = *v << 4 | (uint64_t)(*q <= '9' ? *q - '0' : (*q | 0x20) - 'a' + 10);
	}
	return q;
}

/* A number or hex number as strace writes _IOC's fields. */
static const char *field_at(const char *p, const char *end, uint64_t *v)
{
	const char *q = hex_at(p, end, v);

	if (q)
		return q;
	for (*v = 0, q = p; q < end && *q >= '0' && *q <= '9' && q - p < 10; q++)
		*v = *v * 10 + (uint64_t)(*q - '0');
	return q > p ? q : NULL;
}

static const char *skip(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(end - p) >= n && !memcmp(p, lit, n) ? p + n : NULL;
}

/* strace's _IOC(_IOC_READ|_IOC_WRITE, 0x64, 0xc3, 0x28) at p: the number it
 * stands for on the ABI's layout, and the end of the spelling. */
static const char *ioc_at(const struct annotator *a, const char *p, const char *end, uint32_t *number)
{
	static const struct { const char *text; unsigned int dir; } dirs[] = {
		{ "_IOC_READ|_IOC_WRITE", IOCTLREG_READ_WRITE }, { "_IOC_WRITE|_IOC_READ", IOCTLREG_READ_WRITE },
		{ "_IOC_NONE", IOCTLREG_NONE }, { "_IOC_READ", IOCTLREG_READ }, { "_IOC_WRITE", IOCTLREG_WRITE },
	};
	uint64_t f[3];
	const char *q = NULL;
	unsigned int dir = 0;

	p = skip(p, end, "_IOC(");
	for (size_t i = 0; p && !q && i < sizeof(dirs) / sizeof(*dirs); i++)
		if ((q = skip(p, end, dirs[i].text)))
			dir = dirs[i].dir;
	for (int i = 0; q && i < 3; i++)
		if (!(q = skip(q, end, ", ")) || !(q = field_at(q, end, &f[i])))
			return NULL;
	if (!q || !(q = skip(q, end, ")")) || a->layout < 0 || f[0] > 0xffff || f[1] > 0xffff ||
	    f[2] > 0xffff)
		return NULL;
	*number = ioctlreg_make(a->r, (size_t)a->layout, dir, (unsigned int)f[0], (unsigned int)f[1],
				(unsigned int)f[2]);
	return *number ? q : NULL;
}

/* An strace line: the command is the second argument of ioctl(. */
static void strace_line(struct annotator *a, const char *line, const char *end, const char *call)
{
	const char *p = memchr(call, ',', (size_t)(end - call)), *q;
	uint32_t number;
	uint64_t v;

	if (!p || p + 2 > end || p[1] != ' ')
		goto copy;
	p += 2;
	if ((q = hex_at(p, end, &v)) && v <= UINT32_MAX) {
		/* -X verbose named it already, unless only as _IOC(...) */
		if (skip(q, end, " /* ") && !skip(q + 4, end, "_IOC("))
			goto copy;
		if (skip(q, end, " /* _IOC(")) {
			const char *c = memmem(q, (size_t)(end - q), "*/", 2);

			if (!c)
				goto copy;
			q = c + 2;
		}
		number = (uint32_t)v;
	} else if (!(q = ioc_at(a, p, end, &number))) {
		goto copy;
	}
	sb_add(&a->out, line, (size_t)(q - line));
	annotate_note(a->r, a->abi, number, true, &a->out);
	sb_add(&a->out, q, (size_t)(end - q));
	return;
copy:
	sb_add(&a->out, line, (size_t)(end - line));
}

/* Another line that says ioctl: each hex number the registry knows. */
static void other_line(struct annotator *a, const char *line, const char *end)
{
	const char *from = line, *p = line, *q;
	uint64_t v;

	while ((p = memchr(p, '0', (size_t)(end - p)))) {
		if ((p > line && (is_hex(p[-1]) || p[-1] == '_')) || !(q = hex_at(p, end, &v)) ||
		    q - p < 5 || q - p > 10 || (q < end && (*q == '_' || (*q | 0x20) >= 'g'))) {
			p++;
			continue;
		}
		sb_add(&a->out, from, (size_t)(q - from));
		annotate_note(a->r, a->abi, (uint32_t)v, false, &a->out);
		from = p = q;
	}
	sb_add(&a->out, from, (size_t)(end - from));
}

static void annotate_line(struct annotator *a, const char *line, const char *end)
{
	const char *call = memmem(line, (size_t)(end - line), "ioctl(", 6);

	if (call)
		strace_line(a, line, end, call + 6);
	else if (memmem(line, (size_t)(end - line), "ioctl", 5) ||
		 memmem(line, (size_t)(end - line), "IOCTL", 5))
		other_line(a, line, end);
	else
		sb_add(&a->out, line, (size_t)(end - line));
}

/* Whole lines from standard input, in large reads; the output in large writes. */
static int annotate_stream(struct annotator *a)
{
	struct strbuf in = { 0 };
	size_t got, start = 0;

	for (;;) {
		char *nl, *p;

		sb_room(&in, 1 << 20);
		got = fread(in.buf + in.len, 1, in.cap - in.len - 1, stdin);
		sb_wrote(&in, got);
		p = in.buf + start;
		while ((nl = memchr(p, '\n', (size_t)(in.buf + in.len - p)))) {
			annotate_line(a, p, nl + 1 - 1);
			sb_putc(&a->out, '\n');
			p = nl + 1;
		}
		start = (size_t)(p - in.buf);
		if (a->out.len >= 1 << 16) {
			fwrite(a->out.buf, 1, a->out.len, stdout);
			a->out.len = 0;
		}
		if (!got) {
			if (start < in.len)	/* a last line without its newline */
				annotate_line(a, in.buf + start, in.buf + in.len);
			break;
		}
		memmove(in.buf, in.buf + start, in.len - start);
		in.len -= start;
		start = 0;
	}
	fwrite(a->out.buf, 1, a->out.len, stdout);
	sb_release(&in);
	return ferror(stdin) || fflush(stdout) ? EXIT_DATA : 0;
}

int cmd_annotate(int argc, char **argv)
{
	const char *abi_name = "x86_64", *spec = NULL, *table = NULL;
	const struct cli_opt opts[] = {
		CLI_VALUE("abi", 'a', &abi_name),
		CLI_VALUE("table", 't', &table),
		CLI_END };
	struct annotator a = { 0 };
	struct cli_table t;
	int abi, rc;

	if (cli_options("annotate", argc, argv, ":", opts, &spec, &rc))
		return rc;
	if (operand_count("annotate", argc, argv, 0, "no operand: the text comes on standard input"))
		return EXIT_USAGE;
	if (spec && table)
		return usage_error("annotate", "give --spec DIR or --table FILE, not both");
	if (cli_table_open("annotate", spec, table, &t))
		return EXIT_DATA;
	if ((abi = ioctlreg_abi_find(t.reg, abi_name)) < 0) {
		fprintf(stderr, "ioctlgen annotate: error: unknown ABI '%s' (give --abi ABI; known:", abi_name);
		for (size_t k = 0; k < ioctlreg_abi_count(t.reg); k++)
			fprintf(stderr, " %s", ioctlreg_abi_name(t.reg, k));
		fputs(")\n", stderr);
		cli_table_close(&t);
		return EXIT_USAGE;
	}
	a = (struct annotator){ t.reg, (size_t)abi, ioctlreg_abi_layout(t.reg, (size_t)abi), { 0 } };
	rc = annotate_stream(&a);
	if (rc)
		fprintf(stderr, "ioctlgen annotate: error: cannot read or write the text\n");
	sb_release(&a.out);
	cli_table_close(&t);
	return rc;
}
