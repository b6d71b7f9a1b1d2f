/* bench_diag - diagnostic-counter costs (issue #6 targets), run by
 * `make bench`:
 *  1. decoding and storing format-1 samples with 64 data IDs: <= 20 ns
 *     per value;
 *  2. CSV export: >= 100 MB/s;
 *  3. the fastest case (100 us period, 64 IDs; the sim measures 58
 *     distinct IDs, so 58 here): what the reader costs per second of
 *     device time — query in chunks of 128, decode, store, CSV — under
 *     1 % of a core (10 ms per second).
 * Median of RUNS runs each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/simtel.h"
#include "tel/diag.h"
#include "tel/diag_io.h"
#include "tel/tel.h"

#define RUNS 7
#define NSAMPLES 20000

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return v[n / 2];
}

/* A synthetic context of 64 IDs in format 1 and NSAMPLES samples. */
static uint8_t *synthetic(struct tel_diag *t, uint32_t *size)
{
	uint8_t *buf;
	uint32_t k, i;

	memset(t, 0, sizeof(*t));
	t->cfg.format = 1;
	t->cfg.ts = DIAG_RTC;
	t->nids = 64;
	for (i = 0; i < 64; i++)
		t->ids[i] = 0x1020000200000000ULL | (i & 7) << 8;
	*size = 16 + 8 * 64;
	buf = malloc((size_t)*size * NSAMPLES);
	if (!buf)
		exit(1);
	for (k = 0; k < NSAMPLES; k++) {
		uint8_t *p = buf + (size_t)k * *size;
		uint32_t w[4] = { k, 1 + k / 10000, (k % 10000) * 100000,
				  (k % 10000) * 100000 };

		memcpy(p, w, sizeof(w));
		for (i = 0; i < 64; i++) {
			uint64_t v = (uint64_t)k * 4096 * (i + 1);

			memcpy(p + 16 + 8 * i, &v, 8);
		}
	}
	return buf;
}

int main(void)
{
	static struct diag_sample s;
	struct tel_diag t;
	uint64_t *store, sink = 0;
	double r[RUNS], rc[RUNS], t0, mb = 0;
	uint32_t size, k, i, got;
	uint8_t *buf = synthetic(&t, &size);
	char dir[] = "/tmp/pccb-bench-diag-XXXXXX", path[128];
	int run, fails = 0;

	store = malloc(sizeof(*store) * 64 * NSAMPLES);
	if (!store || !mkdtemp(dir))
		return 1;
	/* 1. decode + store */
	for (run = 0; run < RUNS; run++) {
		t0 = now_s();
		for (k = 0; k < NSAMPLES; k++) {
			tel_diag_decode(&t, buf + (size_t)k * size, &s);
			memcpy(store + (size_t)k * 64, s.values, 64 * 8);
			sink += s.start_ns;
		}
		r[run] = (now_s() - t0) / (NSAMPLES * 64.0) * 1e9;
	}
	r[0] = median(r, RUNS);
	printf("diag decode+store, format 1, 64 IDs: %.2f ns per value "
	       "(target <= 20)\n", r[0]);
	fails += r[0] > 20;
	/* 2. CSV */
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	for (run = 0; run < RUNS; run++) {
		FILE *fp = fopen(path, "w");

		if (!fp)
			return 1;
		t0 = now_s();
		diag_csv_fwrite(fp, &t, buf, NSAMPLES, size);
		fflush(fp);
		r[run] = now_s() - t0;
		mb = (double)ftell(fp) / 1e6;
		fclose(fp);
		r[run] = mb / r[run];
	}
	r[0] = median(r, RUNS);
	printf("diag CSV export: %.0f MB/s over %.1f MB (target >= 100)\n",
	       r[0], mb);
	fails += r[0] < 100;
	/* 3. the fastest case on the sim device, reader side */
	setenv("XDG_STATE_HOME", dir, 1);
	{
		struct diag_dev *d;
		struct sim_diag *x;
		struct pcb_err err = { 0 };
		uint64_t ids[58], bad, delta[DS_COUNT];
		uint8_t *qbuf;
		int n = 0, p;

		if (sim_diag_open(&x, "bench", &err))
			return 1;
		if (diag_dev_open_prov(&d, &sim_diag_prov, x, &err))
			return 1;
		ids[n++] = 0x1020000100000000ULL;
		ids[n++] = 0x1020000300000000ULL;
		ids[n++] = 0x1140000100000000ULL;
		ids[n++] = 0x1140000300000000ULL;
		for (p = 0; p < 8; p++) {
			ids[n++] = 0x1020000200000000ULL | (uint64_t)p << 8;
			ids[n++] = 0x1020000400000000ULL | (uint64_t)p << 8;
			ids[n++] = 0x1140000200000000ULL | (uint64_t)p << 8;
			ids[n++] = 0x1140000400000000ULL | (uint64_t)p << 8;
			ids[n++] = 0x1020000600000000ULL | (uint64_t)p << 8;
			ids[n++] = 0x1140000500000000ULL | (uint64_t)p << 8;
		}
		ids[n++] = 0x1080000400000000ULL;
		ids[n++] = 0x1080000500000000ULL;
		ids[n++] = 0x1100000100000000ULL;
		ids[n++] = 0x1100000200000000ULL;
		ids[n++] = 0x10c0000100000000ULL;
		ids[n++] = 0x10c0000400000000ULL;
		if (tel_diag_create(&t, d, true) ||
		    tel_diag_set_log_max_num_samples(&t, 12) ||
		    tel_diag_apply_config(&t) ||
		    tel_diag_apply_data_ids(&t, ids, (uint32_t)n, &bad) ||
		    tel_diag_start(&t))
			return 1;
		tel_diag_sample_size(&t, &size);
		qbuf = malloc((size_t)size * 128);
		for (i = 0; i < DS_COUNT; i++)
			delta[i] = i + 1;
		for (run = 0; run < RUNS; run++) {
			FILE *fp = fopen(path, "w");
			double cost = 0, csv = 0, t1;

			if (!fp || !qbuf)
				return 1;
			/* one second of device time, polled every 12.7 ms
			 * (127 periods, the sample's rhythm); only the
			 * reader is timed */
			for (k = 0; k < 10000; k++) {
				sim_diag_feed(x, 100000, delta);
				if (k % 127 != 126 && k != 9999)
					continue;
				t0 = now_s();
				do {
					tel_diag_query(&t, qbuf, 128, &got);
					for (i = 0; i < got; i++) {
						tel_diag_decode(&t, qbuf +
								(size_t)i *
								size, &s);
						memcpy(store + (size_t)(k % 128)
						       * 64, s.values, 58 * 8);
					}
					t1 = now_s();
					diag_csv_fwrite(fp, &t, qbuf, got,
							size);
					csv += now_s() - t1;
				} while (got == 128);
				cost += now_s() - t0;
			}
			fclose(fp);
			r[run] = (cost - csv) * 100;	/* % of a core */
			rc[run] = cost * 100;
		}
		r[0] = median(r, RUNS);
		rc[0] = median(rc, RUNS);
		printf("diag 100 us period, %d IDs, reader (query+decode+"
		       "store): %.2f %% of a core (target < 1); with CSV "
		       "written too: %.2f %%\n", n, r[0], rc[0]);
		fails += r[0] >= 1;
		tel_diag_stop(&t);
		tel_diag_destroy(&t);
		diag_dev_close(d);
		sim_diag_close(x);
		free(qbuf);
	}
	unlink(path);
	{
		char f[160];

		snprintf(f, sizeof(f), "%s/pccbench/sim/bench.diag", dir);
		unlink(f);
		snprintf(f, sizeof(f), "%s/pccbench/sim", dir);
		rmdir(f);
		snprintf(f, sizeof(f), "%s/pccbench", dir);
		rmdir(f);
	}
	rmdir(dir);
	free(buf);
	free(store);
	if (fails)
		printf("bench_diag: %d target%s missed\n", fails,
		       fails == 1 ? "" : "s");
	return sink == 42 ? 2 : 0;
}
