// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cli.h"

/*
 * The registry for the stages before sizes exist (tools/measure-sizes, the
 * importer): the model's document without numbers, collisions or lint, so
 * that no other program parses the YAML.  --c-words: only the model's
 * "ioctl-macros" and "fixed-width-types", which need no spec, for the
 * tools that read C before any registry exists (tools/ioctltools/cwords.py).
 */
static int write_cwords(void)
{
	struct strbuf sb = { 0 };
	int rc = 0;

	model_write_cwords_doc(&sb);
	if (fwrite(sb.buf, 1, sb.len, stdout) != sb.len || fflush(stdout)) {
		fprintf(stderr, "ioctlgen: error: cannot write standard output: %s\n", strerror(errno));
		rc = EXIT_DATA;
	}
	sb_release(&sb);
	return rc;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "c-words", no_argument, NULL, 'w' },
		COMMON_OPTIONS,
		{ 0 } };
	const char *out = "-", *spec = NULL;
	struct registry reg;
	int c, rc = 0;

	while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 'w')
			return write_cwords();
		else if (c == OPT_SPEC)
			spec = optarg;
		else if (c == OPT_HELP)
			return usage_help("dump");
		else
			return option_error("dump", c, argc, argv);
	}
	if (spec_operand("dump", argc, argv, &spec))
		return EXIT_USAGE;
	registry_load(&reg, spec);
	registry_check_unsized(&reg);
	if (reg.diags.errors) {
		diags_print(stderr, &reg.diags, false, false);
		rc = EXIT_DATA;
	} else {
		rc = write_model(out, &reg);
	}
	registry_release(&reg);
	return rc;
}
