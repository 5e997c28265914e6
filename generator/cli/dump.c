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
 * tools that read C before any registry exists (generator/ioctltools/cwords.py).
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
	const char *out = "-", *spec = NULL;
	bool cwords = false;
	const struct cli_opt opts[] = {
		CLI_VALUE("output", 'o', &out), CLI_FLAG("c-words", 'w', &cwords), CLI_END };
	struct registry reg;
	int rc = 0;

	if (cli_options("dump", argc, argv, ":o:", opts, &spec, &rc))
		return rc;
	if (cwords)
		return write_cwords();
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
