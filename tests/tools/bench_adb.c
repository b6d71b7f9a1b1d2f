/* bench_adb - how long loading PPCC out of mstflint's ADB takes (target:
 * under 50 ms), and pack/unpack speed.  Run by `make bench`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "adb.h"

#define MSTFLINT_ADB \
	"/usr/share/mstflint/prm_dbs/hca/ext/register_access_table.adb"
#define RUNS 15

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : MSTFLINT_ADB;
	double t[RUNS], t0, ns;
	struct pcb_err err = { 0 };
	struct adb_reg *reg = NULL;
	uint8_t buf[256] = { 0 };
	volatile uint32_t sink = 0;
	long i, n = 2000000;
	int r;

	if (access(path, R_OK)) {
		fprintf(stderr, "bench_adb: '%s' not found (install mstflint)\n",
			path);
		return 1;
	}
	for (r = 0; r < RUNS; r++) {
		struct adb_db *db = NULL;

		t0 = now_ms();
		if (adb_db_load_file(&db, path, &err) ||
		    adb_reg_load(db, "PPCC", &reg, &err)) {
			fprintf(stderr, "bench_adb: %s\n", err.msg);
			return 1;
		}
		t[r] = now_ms() - t0;
		adb_db_free(db);
		if (r + 1 < RUNS)
			adb_reg_free(reg);
	}
	qsort(t, RUNS, sizeof(t[0]), cmp);
	printf("adb load PPCC from mstflint's %s: median %.2f ms, max %.2f ms "
	       "(target < 50 ms) %s\n", path, t[RUNS / 2], t[RUNS - 1],
	       t[RUNS / 2] < 50 ? "ok" : "MISSED");
	t0 = now_ms();
	for (i = 0; i < n; i++) {
		const struct adb_field *f = &reg->fields[i % reg->nfields];

		adb_set(f, buf, (uint32_t)i);
		sink += adb_get(f, buf);
	}
	ns = (now_ms() - t0) * 1e6 / n;
	printf("adb set+get of one field: %.1f ns (checksum %u)\n", ns,
	       (unsigned)sink);
	adb_reg_free(reg);
	xmlCleanupParser();
	return t[RUNS / 2] < 50 ? 0 : 1;
}
