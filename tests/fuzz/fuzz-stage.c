// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: one loader stage.  The input is one spec file,
 * STAGE_FILE, beside the other files of the small valid registry
 * tests/bad/base ($FUZZ_BASE), read once at start.  Small inputs through
 * load, check and model: thousands of runs a second, where fuzz-load's
 * packed registries give hundreds.
 *
 * Built once per stage (Makefile): fuzz-types (STAGE_FILE
 * headers/linux/fuzz.yaml), fuzz-versions (versions.yaml).
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioctlgen.h"

#ifndef STAGE_FILE
#error "define STAGE_FILE: the spec file the input becomes"
#endif

#define MAX_BASE 32

static const char *base_dir;
static char *base_name[MAX_BASE], *base_data[MAX_BASE];
static size_t base_len[MAX_BASE], n_base;
static FILE *devnull;

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else if (buf) {
			*len = (size_t)n;
		}
	}
	fclose(f);
	return buf;
}

static int add_base(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *rel = path + strlen(base_dir) + 1;
	size_t len;

	(void)st;
	(void)ftw;
	if (type != FTW_F || strlen(path) < 5 || strcmp(path + strlen(path) - 5, ".yaml") ||
	    !strcmp(rel, STAGE_FILE))
		return 0;
	if (n_base == MAX_BASE)
		return 1;
	base_data[n_base] = slurp(path, &len);
	if (!base_data[n_base])
		return 1;
	base_name[n_base] = strdup(rel);
	base_len[n_base++] = len;
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	base_dir = getenv("FUZZ_BASE") ? getenv("FUZZ_BASE") : "tests/bad/base";
	if (nftw(base_dir, add_base, 8, FTW_PHYS) != 0 || !n_base) {
		fprintf(stderr, "fuzz-stage: cannot read the base registry %s (run from the repository, or set FUZZ_BASE)\n",
			base_dir);
		exit(2);
	}
	/* FUZZ_LOAD_VERBOSE=1 shows the diagnostics, to replay one input. */
	devnull = getenv("FUZZ_LOAD_VERBOSE") ? stderr : fopen("/dev/null", "w");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *names[MAX_BASE + 1], *bufs[MAX_BASE + 1];
	size_t lens[MAX_BASE + 1];
	char *input = malloc(size + 1);
	struct registry reg;
	struct strbuf sb = { 0 };

	memcpy(input, data, size);
	input[size] = '\0';
	for (size_t i = 0; i < n_base; i++) {
		names[i] = base_name[i];
		bufs[i] = base_data[i];
		lens[i] = base_len[i];
	}
	names[n_base] = STAGE_FILE;
	bufs[n_base] = input;
	lens[n_base] = size;
	registry_load_buffers(&reg, "spec", n_base + 1, names, bufs, lens);
	registry_check(&reg);
	diags_sort(&reg.diags);
	diags_print(devnull, &reg.diags, false, true);
	if (reg.diags.errors == 0) {
		model_write(&reg, &sb);
		if (!sb.buf || sb.buf[0] != '{' || sb.len != strlen(sb.buf))
			abort();
		sb_release(&sb);
	}
	registry_release(&reg);
	free(input);
	return 0;
}
