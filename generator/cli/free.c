// SPDX-License-Identifier: GPL-2.0
/*
 * ioctlgen free: the magic codes and nr ranges a new driver may take, or
 * whether one proposed number clashes (free.c has the logic; this file
 * reads the command line and prints).  docs/reference/cli.rst shows it.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "free.h"
#include "json.h"

static const char *code_char(unsigned int code, char buf[8])
{
	if (code >= 0x21 && code < 0x7f && code != '\'' && code != '\\')
		snprintf(buf, 8, "'%c'", code);
	else
		buf[0] = '\0';
	return buf;
}

/* ------------------------------------------------------------ the query as written */

/* s without its leading and trailing blanks, inner runs of blanks as one
 * space (struct  foo is struct foo), in place. */
static char *squeeze(char *s)
{
	char *out = s, *p = s;

	while (isspace((unsigned char)*p))
		p++;
	for (; *p; p++) {
		if (isspace((unsigned char)*p)) {
			if (out > s && out[-1] != ' ')
				*out++ = ' ';
		} else {
			*out++ = *p;
		}
	}
	if (out > s && out[-1] == ' ')
		out--;
	*out = '\0';
	return s;
}

/* Split "a, b, c" at the commas outside character literals ('\'', ','). */
static size_t split_args(char *s, char **args, size_t max)
{
	size_t n = 0;
	bool quoted = false;

	args[n++] = s;
	for (char *p = s; *p; p++) {
		if (*p == '\\' && quoted && p[1])
			p++;
		else if (*p == '\'')
			quoted = !quoted;
		else if (*p == ',' && !quoted) {
			if (n == max)
				return max + 1;
			*p = '\0';
			args[n++] = p + 1;
		}
	}
	for (size_t i = 0; i < n; i++)
		args[i] = squeeze(args[i]);
	return n;
}

/* _IOC's first argument: _IOC_NONE, _IOC_READ, _IOC_WRITE or READ|WRITE. */
static bool parse_ioc_dir(char *s, enum ioc_dir *dir)
{
	unsigned int bits = 0;
	bool none = false;

	for (char *tok = strtok(s, "|"); tok; tok = strtok(NULL, "|")) {
		tok = squeeze(tok);
		if (!strcmp(tok, "_IOC_READ"))
			bits |= DIR_READ;
		else if (!strcmp(tok, "_IOC_WRITE"))
			bits |= DIR_WRITE;
		else if (!strcmp(tok, "_IOC_NONE"))
			none = true;
		else
			return false;
	}
	if (none && bits)
		return false;
	*dir = (enum ioc_dir)bits;
	return true;
}

static bool parse_nr(const char *nr, struct free_query *q)
{
	uint64_t v;

	if (!parse_cli_number(nr, &v) || v >= FREE_NRS)
		return false;
	q->nr = (unsigned int)v;
	return true;
}

/* _IO('X', 3), _IOR('X', 3, struct foo), _IOC(_IOC_READ, 'X', 3, 8) */
static int parse_macro(const char *text, struct free_query *q, char **copy)
{
	static const struct { const char *name; enum ioc_dir dir; size_t n; } macros[] = {
		{ "_IO", DIR_NONE, 2 }, { "_IOR", DIR_READ, 3 }, { "_IOW", DIR_WRITE, 3 },
		{ "_IOWR", DIR_READ_WRITE, 3 }, { "_IOC", DIR_NONE, 4 } };
	char *s = *copy = strcpy(xrealloc(NULL, strlen(text) + 1), text), *open = strchr(s, '('), *close = strrchr(s, ')'), *args[5];
	size_t n, m;
	uint64_t size;

	if (!open || !close || close < open || *squeeze(close + 1))
		return usage_error("free", "'%s' is not _IO(CODE, NR), _IOR/_IOW/_IOWR(CODE, NR, TYPE) or _IOC(DIR, CODE, NR, SIZE)", text);
	*open = *close = '\0';
	squeeze(s);
	for (m = 0; m < sizeof(macros) / sizeof(*macros) && strcmp(s, macros[m].name); m++)
		;
	if (m == sizeof(macros) / sizeof(*macros))
		return usage_error("free", "'%s': unknown macro '%s' (give _IO, _IOR, _IOW, _IOWR or _IOC)", text, s);
	n = split_args(open + 1, args, 4);
	if (n != macros[m].n)
		return usage_error("free", "'%s': %s takes %zu arguments", text, s, macros[m].n);
	q->dir = macros[m].dir;
	if (m == 4) {	/* _IOC(dir, code, nr, size) */
		if (!parse_ioc_dir(args[0], &q->dir))
			return usage_error("free", "'%s': the direction must be _IOC_NONE, _IOC_READ, _IOC_WRITE or _IOC_READ|_IOC_WRITE", text);
		if (!parse_cli_number(args[3], &size) || size > UINT32_MAX)
			return usage_error("free", "'%s': the size '%s' must be a number", text, args[3]);
		q->has_size = true;
		q->size = (uint32_t)size;
		memmove(args, args + 1, 3 * sizeof(*args));
	} else if (m == 0) {
		q->has_size = true;
		q->size = 0;
	} else {
		if (!*args[2])
			return usage_error("free", "'%s': the type is empty", text);
		q->ctype = args[2];
	}
	if (!parse_magic(args[0], &q->code) || !parse_nr(args[1], q))
		return usage_error("free", "'%s': the code must be 'c' or 0..0xff, the nr 0..255", text);
	return 0;
}

/* --check DIR CODE NR [SIZE]: DIR none/read/write/read-write or N/R/W/RW. */
static int parse_fields(const char *dir, int argc, char **argv, struct free_query *q)
{
	static const char *const short_dirs[4] = { "N", "R", "W", "RW" };
	uint64_t size;
	bool known = parse_dir(dir, &q->dir);

	for (int i = 0; i < 4 && !known; i++)
		if (!strcasecmp(dir, short_dirs[i])) {
			q->dir = (enum ioc_dir)i;
			known = true;
		}
	if (!known)
		return usage_error("free", "DIR '%s' must be none, read, write, read-write (or N, R, W, RW)", dir);
	if (argc - optind < 2 || argc - optind > 3)
		return usage_error("free", "--check DIR takes CODE NR [SIZE] after it, or give one macro: --check \"_IOR('X', 3, struct foo)\"");
	/* a lone character is a code: X is 'X' */
	if (strlen(argv[optind]) == 1 && !isdigit((unsigned char)argv[optind][0]))
		q->code = (unsigned char)argv[optind][0];
	else if (!parse_magic(argv[optind], &q->code))
		return usage_error("free", "CODE '%s' must be a character, 'c' or 0..0xff", argv[optind]);
	if (!parse_nr(argv[optind + 1], q))
		return usage_error("free", "NR '%s' must be a number 0..255", argv[optind + 1]);
	if (argc - optind == 3) {
		if (!parse_cli_number(argv[optind + 2], &size) || size > UINT32_MAX)
			return usage_error("free", "SIZE '%s' must be a number", argv[optind + 2]);
		q->has_size = true;
		q->size = (uint32_t)size;
	}
	return 0;
}

/* ------------------------------------------------------------ output */

/* The known versions of mask: "6.1, 6.12" ("" without versions). */
static void version_list(const struct registry *reg, uint64_t mask, struct strbuf *sb)
{
	for (size_t v = 0; v < reg->n_versions; v++)
		if (mask >> v & 1)
			sb_printf(sb, "%s%s", sb->len ? ", " : "", reg->versions[v].name);
}

struct options {
	bool json;
	long code;	/* -1: every code */
	unsigned int min;
};

static void list_text(const struct free_map *m, const struct options *o)
{
	unsigned int codes = 0, empty = 0, first, last;
	char buf[8];

	printf("%-9s %-9s %5s  %s\n", "code", "nrs", "count", "the code now");
	for (unsigned int code = 0; code < FREE_CODES; code++) {
		if (o->code >= 0 && code != (unsigned long)o->code)
			continue;
		bool any = false;

		for (unsigned int from = 0; free_next_range(m, code, &from, &first, &last);) {
			if (last - first + 1 < o->min)
				continue;
			printf("0x%02x %-4s 0x%02x-0x%02x %5u  ", code, code_char(code, buf), first,
			       last, last - first + 1);
			if (!m->rows[code] && !m->n_used[code])
				puts("no row, no command");
			else
				printf("%u row%s, %u nr%s used\n", m->rows[code], m->rows[code] == 1 ? "" : "s",
				       m->n_used[code], m->n_used[code] == 1 ? "" : "s");
			any = true;
		}
		codes += any;
		empty += any && !m->rows[code] && !m->n_used[code];
	}
	printf("# %u code%s with room (%u of them without a row or command)%s\n", codes,
	       codes == 1 ? "" : "s", empty, o->min > 1 ? ", ranges of at least --min nrs" : "");
}

static void list_json(const struct free_map *m, const struct options *o)
{
	struct strbuf sb = { 0 };
	struct json j = { .sb = &sb, .first = true };
	unsigned int first, last;
	char buf[8];

	sb_putc(&sb, '{');
	j.depth = 1;
	kuint(&j, "min", o->min);
	open_(&j, "codes", '[');
	for (unsigned int code = 0; code < FREE_CODES; code++) {
		unsigned int count = 0;
		bool opened = false;

		if (o->code >= 0 && code != (unsigned long)o->code)
			continue;
		for (unsigned int from = 0; free_next_range(m, code, &from, &first, &last);) {
			if (last - first + 1 < o->min)
				continue;
			if (!opened) {
				open_(&j, NULL, '{');
				kuint(&j, "code", code);
				kstr(&j, "char", *code_char(code, buf) ? buf : NULL);
				kuint(&j, "rows", m->rows[code]);
				kuint(&j, "used", m->n_used[code]);
				open_(&j, "free", '[');
				opened = true;
			}
			open_(&j, NULL, '{');
			kuint(&j, "first", first);
			kuint(&j, "last", last);
			close_(&j, '}');
			count += last - first + 1;
		}
		if (opened) {
			close_(&j, ']');
			kuint(&j, "free-count", count);
			close_(&j, '}');
		}
	}
	close_(&j, ']');
	j.depth = 0;
	indent(&j, false, NULL);
	sb_puts(&sb, "}\n");
	fwrite(sb.buf, 1, sb.len, stdout);
	sb_release(&sb);
}

/* The rows of magic.yaml that reserve q's code and nr. */
static void print_rows(const struct registry *reg, const struct free_query *q, struct json *j)
{
	for (size_t i = 0; i < reg->n_rows; i++) {
		const struct magic_row *r = &reg->rows[i];
		const char *hdr = r->n_headers ? r->headers[0] : "";

		if (r->code != q->code || q->nr < r->first || q->nr > r->last)
			continue;
		if (!j) {
			struct strbuf life = { 0 };

			lifetime_describe(reg, &r->life, &life);
			printf("reserved %s:%u:%u: code %s seq %s %s%s%s%s\n", r->mark.file, r->mark.line,
			       r->mark.col, r->code_text, r->seq, *hdr ? hdr : "(no header)",
			       life.len ? " [" : "", life.len ? life.buf : "", life.len ? "]" : "");
			sb_release(&life);
			continue;
		}
		open_(j, NULL, '{');
		kstr(j, "code", r->code_text);
		kstr(j, "seq", r->seq);
		kstr(j, "header", r->n_headers ? hdr : NULL);
		ksource(j, r->mark);
		close_(j, '}');
	}
}

/* One line per command, kind and number: the ABIs and versions it holds on. */
static size_t print_clashes(const struct registry *reg, const struct free_clash *v, size_t n,
			    struct json *j)
{
	bool *done = xrealloc(NULL, (n + 1) * sizeof(*done));
	size_t cmds = 0;

	memset(done, 0, (n + 1) * sizeof(*done));
	for (size_t i = 0; i < n; i++) {
		struct strbuf abis = { 0 }, vers = { 0 };
		uint64_t versions = v[i].versions;
		struct ioc_fields f;

		if (done[i])
			continue;
		cmds += i == 0 || v[i].cmd != v[i - 1].cmd;
		for (size_t x = i; x < n && v[x].cmd == v[i].cmd; x++) {
			if (done[x] || v[x].number != v[i].number || v[x].kind != v[i].kind ||
			    v[x].versions != v[i].versions)
				continue;
			done[x] = true;
			sb_printf(&abis, "%s%s", abis.len ? ", " : "", reg->abis[v[x].abi].name);
		}
		version_list(reg, versions, &vers);
		layout_decode(reg->abis[v[i].abi].layout, v[i].number, &f);
		if (!j) {
			printf("clash %s %s (%s) 0x%08x %s size ", free_clash_kind_names[v[i].kind],
			       v[i].cmd->name, v[i].cmd->header->path, v[i].number,
			       f.dir_name >= 0 ? dir_names[f.dir_name] : "?");
			if (v[i].variable)
				fputs("any (the caller's)", stdout);
			else
				printf("%u", f.size);
			printf(" on %s%s%s\n", abis.buf, vers.len ? " in " : "", vers.len ? vers.buf : "");
		} else {
			open_(j, NULL, '{');
			kstr(j, "kind", free_clash_kind_names[v[i].kind]);
			kstr(j, "command", v[i].cmd->name);
			kstr(j, "header", v[i].cmd->header->path);
			khex(j, "number", v[i].number);
			kstr(j, "dir", f.dir_name >= 0 ? dir_names[f.dir_name] : NULL);
			kuint_or_null(j, "size", !v[i].variable, f.size);
			kstr(j, "abis", abis.buf);
			kstr(j, "versions", vers.len ? vers.buf : NULL);
			close_(j, '}');
		}
		sb_release(&abis);
		sb_release(&vers);
	}
	free(done);
	return cmds;
}

/* The proposed number's size on each ABI, for the first line. */
static void describe_size(const struct registry *reg, const struct free_query *q, struct strbuf *sb)
{
	size_t unknown = 0;
	uint32_t size;

	if (q->has_size) {
		sb_printf(sb, "size %u", q->size);
		return;
	}
	if (!q->ctype) {
		sb_puts(sb, "size not given: same-number clashes are not told apart (give SIZE)");
		return;
	}
	for (size_t k = 0; k < reg->n_abis; k++)
		unknown += !free_query_size(reg, q, k, &size);
	sb_printf(sb, "sizeof(%s)", q->ctype);
	if (unknown)
		sb_printf(sb, " not measured on %zu of %zu ABIs: same-number clashes there are not told apart (give SIZE)",
			  unknown, reg->n_abis);
}

static int check_query(const struct registry *reg, const struct free_query *q, const char *text,
		       bool json)
{
	struct free_clash *v;
	size_t n = free_clashes(reg, q, &v), cmds;
	struct strbuf size = { 0 };
	char buf[8];

	describe_size(reg, q, &size);
	if (!json) {
		printf("proposed %s: %s code 0x%02x%s%s nr %u (0x%02x) %s\n", text, dir_names[q->dir],
		       q->code, *code_char(q->code, buf) ? " " : "", buf, q->nr, q->nr, size.buf);
		print_rows(reg, q, NULL);
		cmds = print_clashes(reg, v, n, NULL);
		if (cmds)
			printf("verdict clash: %zu command%s carr%s code 0x%02x nr %u (any direction or size counts)\n",
			       cmds, cmds == 1 ? "" : "s", cmds == 1 ? "ies" : "y", q->code, q->nr);
		else
			printf("verdict free: no command carries code 0x%02x nr %u on any ABI in any known version\n",
			       q->code, q->nr);
	} else {
		struct strbuf sb = { 0 };
		struct json j = { .sb = &sb, .first = true, .depth = 1 };

		sb_putc(&sb, '{');
		kstr(&j, "proposed", text);
		kstr(&j, "dir", dir_names[q->dir]);
		kuint(&j, "code", q->code);
		kuint(&j, "nr", q->nr);
		kstr(&j, "size", size.buf);
		open_(&j, "reserved-by", '[');
		print_rows(reg, q, &j);
		close_(&j, ']');
		open_(&j, "clashes", '[');
		cmds = print_clashes(reg, v, n, &j);
		close_(&j, ']');
		kuint(&j, "clashing-commands", cmds);
		kbool(&j, "free", cmds == 0);
		j.depth = 0;
		indent(&j, false, NULL);
		sb_puts(&sb, "}\n");
		fwrite(sb.buf, 1, sb.len, stdout);
		sb_release(&sb);
	}
	sb_release(&size);
	free(v);
	return cmds ? EXIT_DATA : 0;
}

int cmd_free(int argc, char **argv)
{
	enum { OPT_JSON = 0x300, OPT_CODE, OPT_MIN, OPT_CHECK };
	struct options o = { .code = -1, .min = 1 };
	const char *spec = DEFAULT_SPEC_DIR, *check = NULL;
	const struct cli_opt opts[] = {
		CLI_FLAG("json", OPT_JSON, &o.json),
		CLI_OWN("code", required_argument, OPT_CODE),
		CLI_OWN("min", required_argument, OPT_MIN),
		CLI_VALUE("check", OPT_CHECK, &check),
		CLI_END };
	struct free_query q = { 0 };
	struct strbuf text = { 0 };
	char *copy = NULL;
	struct registry reg;
	unsigned int code;
	uint64_t v;
	int c, rc;

	while ((c = cli_option("free", argc, argv, ":", opts, &spec, &rc)) >= 0) {
		if (c == OPT_CODE) {
			if (!parse_magic(optarg, &code) &&
			    !(strlen(optarg) == 1 && (code = (unsigned char)optarg[0], true)))
				return usage_error("free", "--code '%s' must be a character, 'c' or 0..0xff", optarg);
			o.code = code;
		} else if (c == OPT_MIN) {
			if (!parse_cli_number(optarg, &v) || v < 1 || v > FREE_NRS)
				return usage_error("free", "--min '%s' must be a number 1..256", optarg);
			o.min = (unsigned int)v;
		}
	}
	if (c == CLI_EXIT)
		return rc;
	if (check && (o.code >= 0 || o.min > 1))
		return usage_error("free", "--check goes without --code and --min");
	if (check && strchr(check, '(')) {
		rc = operand_count("free", argc, argv, 0, "the macro alone") ||
		     parse_macro(check, &q, &copy);
		sb_puts(&text, check);
	} else if (check) {
		rc = parse_fields(check, argc, argv, &q);
		sb_puts(&text, check);
		for (int i = optind; !rc && i < argc; i++)
			sb_printf(&text, " %s", argv[i]);
	} else {
		rc = operand_count("free", argc, argv, 0, "options only (SPEC_DIR with --spec)");
	}
	if (rc) {
		free(copy);
		sb_release(&text);
		return EXIT_USAGE;
	}
	if (load_quiet(&reg, spec, NULL)) {
		rc = EXIT_DATA;
	} else if (check) {
		rc = check_query(&reg, &q, text.buf, o.json);
	} else {
		struct free_map *m = xrealloc(NULL, sizeof(*m));

		free_map_build(&reg, m);
		if (o.json)
			list_json(m, &o);
		else
			list_text(m, &o);
		free(m);
	}
	registry_release(&reg);
	free(copy);
	sb_release(&text);
	return rc;
}
