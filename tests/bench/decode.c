// SPDX-License-Identifier: GPL-2.0
/*
 * Decode figures for tests/bench/run, CPU time on one core.
 *
 *   decode lookups TABLE ABI SECONDS
 *	libioctlreg's ioctlreg_lookup() against strace's own lookup on the
 *	same queries: strace's table is every command's newest number on ABI
 *	({ symbol, code } sorted by code, as ioctlsort makes ioctlent); the
 *	queries are its codes and as many misses (nr bit 7 flipped), shuffled.
 *	strace_lookup() is src/ioctl.c's ioctl_lookup() and ioctl_next_match():
 *	bsearch() with its compare(), walking back to the first equal code,
 *	then forward over the "A or B" names.  Both touch each name found.
 *	Prints the lookups per second of each, the median of 5 runs.
 *   decode process N [--stdin FILE] PROGRAM ARGS...
 *	runs PROGRAM ARGS N times (fork, exec, wait), standard input from
 *	FILE or /dev/null, and prints the median CPU ms of one run, start to
 *	exit (user + system, from wait4()).
 */
#define _DEFAULT_SOURCE	/* wait4() */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ioctlreg.h"

typedef struct { const char *symbol; unsigned int code; } struct_ioctlent;

static struct_ioctlent *ioctlent;
static size_t nioctlents;

/* strace's src/ioctl.c, as it is */
static int compare(const void *a, const void *b)
{
	const unsigned int code1 = (const uintptr_t)a;
	const unsigned int code2 = ((const struct_ioctlent *)b)->code;

	return (code1 > code2) ? 1 : (code1 < code2) ? -1 : 0;
}

static const struct_ioctlent *ioctl_lookup(const unsigned int code)
{
	struct_ioctlent *iop;

	iop = bsearch((const void *)(const uintptr_t)code, ioctlent, nioctlents, sizeof(ioctlent[0]),
		      compare);
	while (iop > ioctlent) {
		iop--;
		if (iop->code != code) {
			iop++;
			break;
		}
	}
	return iop;
}

static const struct_ioctlent *ioctl_next_match(const struct_ioctlent *iop)
{
	const unsigned int code = iop->code;

	iop++;
	if (iop < ioctlent + nioctlents && iop->code == code)
		return iop;
	return NULL;
}
/* end of strace's */

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int dbl_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

static int ent_cmp(const void *pa, const void *pb)
{
	const struct_ioctlent *a = pa, *b = pb;

	return a->code != b->code ? (a->code > b->code ? 1 : -1) : strcmp(a->symbol, b->symbol);
}

static unsigned long names_strace(const unsigned int *q, size_t nq)
{
	unsigned long touched = 0;

	for (size_t i = 0; i < nq; i++)
		for (const struct_ioctlent *iop = ioctl_lookup(q[i]); iop; iop = ioctl_next_match(iop))
			touched += (unsigned char)iop->symbol[0];
	return touched;
}

static unsigned long names_ioctlreg(const struct ioctlreg *r, size_t abi, const unsigned int *q, size_t nq)
{
	struct ioctlreg_hit hits[16];
	unsigned long touched = 0;

	for (size_t i = 0; i < nq; i++) {
		size_t n = ioctlreg_lookup(r, abi, IOCTLREG_ANY_VERSION, q[i], hits, 16);

		for (size_t k = 0; k < n && k < 16; k++)
			touched += (unsigned char)ioctlreg_command_name(r, hits[k].command)[0];
	}
	return touched;
}

/* Lookups per CPU second of one way, the median of 5 runs of `seconds`. */
static double rate(const struct ioctlreg *r, size_t abi, const unsigned int *q, size_t nq,
		   double seconds, unsigned long *touched)
{
	double rates[5];

	for (int run = 0; run < 5; run++) {
		double t0 = cpu_s(), t;
		size_t done = 0;

		do {
			*touched += r ? names_ioctlreg(r, abi, q, nq) : names_strace(q, nq);
			done += nq;
		} while ((t = cpu_s()) - t0 < seconds);
		rates[run] = done / (t - t0);
	}
	qsort(rates, 5, sizeof(*rates), dbl_cmp);
	return rates[2];
}

static int lookups(const char *table, const char *abi_name, double seconds)
{
	struct ioctlreg *r;
	struct ioctlreg_number num;
	char err[512];
	int abi;
	unsigned int *q;
	size_t nq = 0;
	unsigned long t_strace = 0, t_ours = 0;
	double s, o;

	if (ioctlreg_open(table, &r, err, sizeof(err)) || (abi = ioctlreg_abi_find(r, abi_name)) < 0) {
		fprintf(stderr, "bench decode: %s\n", r ? "unknown ABI" : err);
		return 1;
	}
	ioctlent = malloc(ioctlreg_command_count(r) * sizeof(*ioctlent));
	for (size_t c = 0; c < ioctlreg_command_count(r); c++)
		if (ioctlreg_command_number(r, c, (size_t)abi, IOCTLREG_ANY_VERSION, &num))
			ioctlent[nioctlents++] = (struct_ioctlent){ ioctlreg_command_name(r, c), num.number };
	qsort(ioctlent, nioctlents, sizeof(*ioctlent), ent_cmp);
	q = malloc(2 * nioctlents * sizeof(*q));
	for (size_t i = 0; i < nioctlents; i++) {
		q[nq++] = ioctlent[i].code;
		q[nq++] = ioctlent[i].code ^ 0x80;
	}
	srand(1);
	for (size_t i = nq; i > 1; i--) {
		size_t j = (size_t)rand() % i;
		unsigned int x = q[i - 1];

		q[i - 1] = q[j];
		q[j] = x;
	}
	s = rate(NULL, 0, q, nq, seconds, &t_strace);
	o = rate(r, (size_t)abi, q, nq, seconds, &t_ours);
	printf("queries %zu\nstrace_entries %zu\n", nq, nioctlents);
	printf("strace_lookups_per_s %.0f\nioctlreg_lookups_per_s %.0f\nratio %.2f\n", s, o, o / s);
	ioctlreg_close(r);
	free(q);
	free(ioctlent);
	return !(t_strace && t_ours);
}

static int process(int n, char **argv)
{
	const char *in = "/dev/null";
	double ms[101];

	if (n < 1 || n > 101 || !argv[0])
		return 2;
	if (!strcmp(argv[0], "--stdin") && argv[1] && argv[2]) {
		in = argv[1];
		argv += 2;
	}
	for (int i = 0; i < n; i++) {
		struct rusage ru;
		int status;
		pid_t pid = fork();

		if (pid == 0) {
			if (!freopen("/dev/null", "w", stdout) || !freopen(in, "r", stdin))
				_exit(127);
			execv(argv[0], argv);
			_exit(127);
		}
		if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "bench decode: %s fails\n", argv[0]);
			return 1;
		}
		ms[i] = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	}
	qsort(ms, (size_t)n, sizeof(*ms), dbl_cmp);
	printf("process_cpu_ms %.2f\n", ms[n / 2]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "lookups"))
		return lookups(argv[2], argv[3], atof(argv[4]));
	if (argc >= 4 && !strcmp(argv[1], "process"))
		return process(atoi(argv[2]), argv + 3);
	fputs("usage: decode lookups TABLE ABI SECONDS | decode process N PROGRAM ARGS...\n", stderr);
	return 2;
}
