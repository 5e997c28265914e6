// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmarks of the library, for tests/bench/run.
 *
 *   bench registry SPEC_DIR RUNS
 *	load, check (which encodes every number) and model (in pieces, as
 *	ioctlgen model writes it), RUNS times; prints the median of each
 *	stage in ms, the sizes, and the peak RSS.
 *   bench lookup SPEC_DIR RUNS ABI
 *	the lookup table made and opened in memory (timed: table_open_registry()),
 *	then ioctlreg_lookup() on ABI over
 *	every number the registry defines there plus as many misses (one nr
 *	bit flipped), shuffled, for about 0.2 s per run; prints the median
 *	lookups per second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "ioctlgen.h"
#include "ioctlreg.h"

/* CPU time of this process: the figures stay meaningful on a busy machine. */
static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int dbl_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), dbl_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long peak_rss_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* Where the model's pieces go: counted, as `ioctlgen model` hands them to
 * write(2), without the 20 MB buffer a single model_write() would grow. */
static int count_piece(void *ctx, const char *data, size_t len)
{
	(void)data;
	*(size_t *)ctx += len;
	return 0;
}

static int load(struct registry *reg, const char *dir)
{
	registry_load(reg, dir);
	registry_check(reg);
	if (reg->diags.errors) {
		diags_print(stderr, &reg->diags, false, false);
		fprintf(stderr, "bench: %s has %u errors\n", dir, reg->diags.errors);
		return -1;
	}
	return 0;
}

static int bench_registry(const char *dir, int runs)
{
	double *t_load = calloc((size_t)runs, sizeof(double));
	double *t_check = calloc((size_t)runs, sizeof(double));
	double *t_model = calloc((size_t)runs, sizeof(double));
	double *t_total = calloc((size_t)runs, sizeof(double));
	size_t commands = 0, numbers = 0, bytes = 0;

	for (int r = 0; r < runs; r++) {
		struct registry reg;
		struct strbuf sb = { 0 };
		double t0 = now_ms(), t1, t2, t3;

		registry_load(&reg, dir);
		t1 = now_ms();
		registry_check(&reg);
		t2 = now_ms();
		if (reg.diags.errors) {
			diags_print(stderr, &reg.diags, false, false);
			return 1;
		}
		bytes = 0;
		model_write_pieces(&reg, &sb, count_piece, &bytes);
		t3 = now_ms();
		t_load[r] = t1 - t0;
		t_check[r] = t2 - t1;
		t_model[r] = t3 - t2;
		t_total[r] = t3 - t0;
		commands = numbers = 0;
		for (size_t h = 0; h < reg.n_headers; h++)
			for (size_t i = 0; i < reg.headers[h].n_commands; i++) {
				commands++;
				for (size_t k = 0; reg.headers[h].commands[i].numbers && k < reg.n_abis; k++)
					numbers += reg.headers[h].commands[i].numbers[k].present;
			}
		sb_release(&sb);
		registry_release(&reg);
	}
	printf("commands %zu\nnumbers %zu\nmodel_bytes %zu\n", commands, numbers, bytes);
	printf("load_ms %.3f\ncheck_encode_ms %.3f\nmodel_ms %.3f\ntotal_ms %.3f\n",
	       median(t_load, runs), median(t_check, runs), median(t_model, runs),
	       median(t_total, runs));
	printf("peak_rss_kib %ld\n", peak_rss_kib());
	free(t_load);
	free(t_check);
	free(t_model);
	free(t_total);
	return 0;
}

static int bench_lookup(const char *dir, int runs, const char *abi_name)
{
	struct registry reg;
	double *rate = calloc((size_t)runs, sizeof(double)), build_ms, t0;
	uint32_t *q = NULL;
	size_t nq = 0, cap = 0, hits_total = 0;
	struct strbuf mem = { 0 };
	struct ioctlreg *tbl;
	char err[200];
	size_t k;

	if (load(&reg, dir))
		return 1;
	for (k = 0; k < reg.n_abis && strcmp(reg.abis[k].name, abi_name); k++)
		;
	if (k == reg.n_abis) {
		fprintf(stderr, "bench: no ABI '%s'\n", abi_name);
		return 1;
	}
	t0 = now_ms();
	if (table_open_registry(&reg, dir, &mem, &tbl, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", err);
		return 1;
	}
	build_ms = now_ms() - t0;
	/* Queries: every number on the ABI (a family at nr-param 0), each
	 * followed by a miss (a bit flipped in the nr field), shuffled. */
	for (size_t h = 0; h < reg.n_headers; h++)
		for (size_t i = 0; i < reg.headers[h].n_commands; i++) {
			const struct command *c = &reg.headers[h].commands[i];

			if (!c->numbers || !c->numbers[k].present)
				continue;
			grow(&q, &cap, nq + 2, sizeof(*q));
			q[nq++] = c->numbers[k].number;
			q[nq++] = c->numbers[k].number ^ 0x80;
		}
	srand(1);
	for (size_t i = nq; i > 1; i--) {
		size_t j = (size_t)rand() % i;
		uint32_t t = q[i - 1];

		q[i - 1] = q[j];
		q[j] = t;
	}
	for (int r = 0; r < runs; r++) {
		struct ioctlreg_hit hits[8];
		size_t done = 0;
		double t;

		t0 = now_ms();
		do {
			for (size_t i = 0; i < nq; i++)
				hits_total += ioctlreg_lookup(tbl, k, IOCTLREG_ANY_VERSION, q[i], hits, 8);
			done += nq;
			t = now_ms();
		} while (t - t0 < 200);
		rate[r] = done / ((t - t0) / 1e3);
	}
	printf("queries %zu\nabis %zu\ntable_build_ms %.3f\nlookups_per_s %.0f\nhits %zu\n", nq,
	       reg.n_abis, build_ms, median(rate, runs), hits_total);
	ioctlreg_close(tbl);
	sb_release(&mem);
	free(q);
	free(rate);
	registry_release(&reg);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "registry"))
		return bench_registry(argv[2], atoi(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "lookup"))
		return bench_lookup(argv[2], atoi(argv[3]), argv[4]);
	fputs("usage: bench registry SPEC_DIR RUNS | bench lookup SPEC_DIR RUNS ABI\n", stderr);
	return 2;
}
