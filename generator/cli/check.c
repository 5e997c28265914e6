// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { OPT_TO_MEASURE = 0x300, OPT_EDITED };

/*
 * --to-measure: the header spec files make measures before the model
 * (`make sizes ONLY=...`), one per line in spec order: those with a
 * command whose type no sizes file holds (the sized check reported its
 * missing size), and those of the --edited files that define types of
 * their own (a changed struct keeps its name).  The check's diagnostics
 * are the model's to print; only other errors are counted here.
 */
static int to_measure(const char *spec, const char **edited, size_t n_edited)
{
	struct registry reg;
	unsigned int others = 0;

	registry_load(&reg, spec);
	registry_check(&reg);
	for (size_t i = 0; i < reg.n_headers; i++) {
		const struct header *h = &reg.headers[i];
		bool want = false;

		for (size_t k = 0; k < h->n_commands && !want; k++)
			want = h->commands[k].size_reported;
		for (size_t k = 0; k < n_edited && !want && h->n_types; k++)
			want = !strcmp(edited[k], h->spec);
		if (want)
			printf("%s\n", h->spec);
	}
	for (size_t i = 0; i < reg.diags.n; i++)
		if (reg.diags.v[i].sev == SEV_ERROR && strcmp(reg.diags.v[i].rule, "missing-size"))
			others++;
	registry_release(&reg);
	if (fflush(stdout)) {
		fprintf(stderr, "ioctlgen: error: cannot write standard output\n");
		return EXIT_DATA;
	}
	if (others) {
		fprintf(stderr, "ioctlgen check: %u error(s) besides missing sizes: `ioctlgen check %s` lists them\n",
			others, spec);
		return EXIT_DATA;
	}
	return 0;
}

int cmd_check(int argc, char **argv)
{
	static const struct cli_opt opts[] = {
		REPORT_OPTIONS, CLI_OWN("to-measure", no_argument, OPT_TO_MEASURE),
		CLI_OWN("edited", required_argument, OPT_EDITED), CLI_END };
	const char *spec = NULL;
	struct report report = { 0 };
	struct registry reg;
	const char **edited = NULL;
	size_t n_edited = 0, cap_edited = 0;
	bool list = false;
	int c, rc;

	while ((c = cli_option("check", argc, argv, ":", opts, &spec, &rc)) >= 0) {
		if (c == OPT_TO_MEASURE) {
			list = true;
		} else if (c == OPT_EDITED) {
			grow(&edited, &cap_edited, n_edited + 1, sizeof(*edited));
			edited[n_edited++] = optarg;
		} else {
			report_option(&report, c, optarg);
		}
	}
	if (c == CLI_EXIT)
		goto out;
	if (spec_operand("check", argc, argv, &spec) || report_usage(&report, "check")) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (n_edited && !list) {
		rc = usage_error("check", "--edited goes with --to-measure");
		goto out;
	}
	if (list && (report.werror || report.show_accepted || report.summary)) {
		rc = usage_error("check", "--to-measure prints a list, not a report: no --werror, --show-accepted or --summary");
		goto out;
	}
	if (list) {
		rc = to_measure(spec, edited, n_edited);
		goto out;
	}
	rc = report_load(&reg, spec, NULL, &report);
	registry_release(&reg);
out:
	free(edited);
	report_release(&report);
	return rc;
}
