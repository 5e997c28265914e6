// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the whole path from spec files to the JSON model.
 *
 * One input is a small archive of spec files.  A line "#@ NAME" starts the
 * file NAME (relative to the spec directory: layouts.yaml, abis.yaml,
 * magic.yaml, headers/linux/x.yaml, sizes/x86_64.yaml); bytes before the
 * first such line form headers/linux/fuzz.yaml.  tests/fuzz/pack builds
 * seeds from spec directories.  Each input is loaded, checked, and, when the
 * registry checks clean (as `ioctlgen model` requires), turned into the
 * model and into a lookup table per ABI that must find every number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioctlgen.h"
#include "ioctlreg.h"

#define MAX_FILES 64

static FILE *devnull;

static const char *find_marker(const char *p, const char *end)
{
	for (; p + 3 <= end; p++) {
		const char *q = memchr(p, '#', (size_t)(end - p));

		if (!q || q + 3 > end)
			return NULL;
		if ((q == p || q[-1] == '\n') && q[1] == '@' && q[2] == ' ')
			return q;
		p = q;
	}
	return NULL;
}

static void exercise(struct registry *reg)
{
	struct strbuf sb = { 0 };
	struct ioctlreg *r;
	char err[200];

	model_write(reg, &sb);
	if (!sb.buf || sb.buf[0] != '{' || sb.len != strlen(sb.buf))
		abort();
	sb_release(&sb);
	/* every computed number decodes through the lookup table decode uses */
	if (table_open_registry(reg, "spec", &sb, &r, err, sizeof(err)))
		abort();
	for (size_t k = 0; k < reg->n_abis; k++) {
		struct ioctlreg_hit hits[4];

		for (size_t h = 0; h < reg->n_headers; h++) {
			for (size_t i = 0; i < reg->headers[h].n_commands; i++) {
				const struct command *c = &reg->headers[h].commands[i];

				if (!c->numbers || !c->numbers[k].present)
					continue;
				if (!ioctlreg_lookup(r, k, IOCTLREG_ANY_VERSION, c->numbers[k].number, hits, 4))
					abort();	/* a computed number must decode */
			}
		}
		ioctlreg_lookup(r, k, IOCTLREG_ANY_VERSION, 0, hits, 4);
		ioctlreg_lookup(r, k, IOCTLREG_ANY_VERSION, UINT32_MAX, hits, 4);
	}
	ioctlreg_close(r);
	sb_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *names[MAX_FILES], *bufs[MAX_FILES];
	size_t lens[MAX_FILES], n = 0;
	const char *p = (const char *)data, *end = p + size;
	char *name_store[MAX_FILES];
	struct registry reg;

	/* FUZZ_LOAD_VERBOSE=1 shows the diagnostics, to replay one input. */
	if (!devnull)
		devnull = getenv("FUZZ_LOAD_VERBOSE") ? stderr : fopen("/dev/null", "w");
	const char *m = find_marker(p, end);

	if (m != p) {
		names[n] = name_store[n] = strdup("headers/linux/fuzz.yaml");
		bufs[n] = p;
		lens[n] = (size_t)((m ? m : end) - p);
		n++;
		p = m ? m : end;
	}
	while (p < end && n < MAX_FILES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *body = nl ? nl + 1 : end;
		const char *next = find_marker(body, end);

		/* p points at "#@ NAME\n" */
		name_store[n] = strndup(p + 3, (size_t)((nl ? nl : end) - (p + 3)));
		names[n] = name_store[n];
		bufs[n] = body;
		lens[n] = (size_t)((next ? next : end) - body);
		n++;
		p = next ? next : end;
	}

	registry_load_buffers(&reg, "spec", n, names, bufs, lens);
	registry_check(&reg);
	diags_sort(&reg.diags);
	diags_print(devnull, &reg.diags, false, true);
	if (reg.diags.errors == 0)
		exercise(&reg);
	if (devnull == stderr)
		fprintf(stderr, "%zu files, %u errors, %u warnings%s\n", n, reg.diags.errors,
			reg.diags.warnings, reg.diags.errors ? "" : ", model written");
	registry_release(&reg);
	for (size_t i = 0; i < n; i++)
		free(name_store[i]);
	return 0;
}
