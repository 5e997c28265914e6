// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target that fails on purpose, to test the fuzz runner: an input
 * that starts with "crash" aborts, "leak" leaks, "hang" never returns and
 * "oom" asks for more memory than -rss_limit_mb allows.  A runner that
 * passes after any of them cannot report a bug.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void *volatile keep;
static volatile unsigned long spins;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 5 && !memcmp(data, "crash", 5))
		abort();
	if (size >= 4 && !memcmp(data, "leak", 4)) {
		char *p = malloc(64);

		memset(p, 1, 64);
		keep = p;
		keep = NULL;	/* the only pointer is gone: LeakSanitizer sees it */
	}
	if (size >= 4 && !memcmp(data, "hang", 4))
		for (;;)
			spins++;
	if (size >= 3 && !memcmp(data, "oom", 3)) {
		char *p = malloc((size_t)4 << 30);

		if (p)
			memset(p, 1, (size_t)4 << 30);
		keep = p;
	}
	return 0;
}
