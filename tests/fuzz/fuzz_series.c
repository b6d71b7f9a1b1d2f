/* fuzz_series.c - the series CSV reader (src/rec/series.c
 * series_read_csv) and its users.
 *
 * Input: a series' results file, $XDG_DATA_HOME/pccbench/series/NAME.csv
 * (RFC 4180, header "name (unit)").  It is read directly; a series that
 * loads is written back and read again (pccbench must read what it
 * writes: same columns, same rows), its first columns go through the
 * statistics, and `series show`, `series list` and `corr` (the matrix and
 * one pair with lags) run on it through the dispatcher.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "rec/series.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_setup(argc, argv);
	return 0;
}

static void stats(const struct series *ser)
{
	double *x, *y, a, b, r;
	size_t i, n;

	if (ser->ncols < 2 || !ser->nrows)
		return;
	x = malloc(ser->nrows * sizeof(*x));
	y = malloc(ser->nrows * sizeof(*y));
	if (!x || !y)
		abort();
	for (i = 0; i < ser->nrows; i++) {
		x[i] = series_at(ser, i, 0);
		y[i] = series_at(ser, i, ser->ncols - 1);
	}
	series_pearson(x, y, ser->nrows, &n);
	series_spearman(x, y, ser->nrows, &n);
	series_linfit(x, y, ser->nrows, &a, &b);
	series_best_lag(x, y, ser->nrows, 5, 3, &r, &n);
	free(x);
	free(y);
}

/* Write it back and read it again: the same shape. */
static void round_trip(const struct series *ser)
{
	char path[4300];
	struct pcb_err err = { 0 };
	struct series *again = NULL;
	size_t r;

	fz_path(path, sizeof(path), "data", "series/again.csv");
	if (series_write_csv(ser, path, &err))
		return;
	if (series_read_csv(&again, "again", path, &err)) {
		fprintf(stderr, "fuzz: pccbench cannot read back its own "
			"series: %s\n", err.msg);
		abort();
	}
	if (again->ncols != ser->ncols || again->nrows != ser->nrows ||
	    !again->wall != !ser->wall)
		abort();
	for (r = 0; ser->wall && r < ser->nrows; r++)
		if (again->wall[r] != ser->wall[r])
			abort();	/* wall-clock times exact to the ns */
	series_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pcb_err err = { 0 };
	struct series *ser = NULL;
	struct session s;
	char path[4300];

	if (size > 65536)
		return -1;
	fz_begin();
	if (fz_put("data", "series/fz.csv", data, size, false))
		abort();
	fz_path(path, sizeof(path), "data", "series/fz.csv");
	if (!series_read_csv(&ser, "fz", path, &err)) {
		stats(ser);
		round_trip(ser);
		fz_session(&s, "sim:fz");
		s.force = true;
		fz_run(&s, "series show fz; series list; corr fz");
		if (ser->ncols >= 2)
			fz_run(&s, "corr fz %s %s lag 4", ser->cols[0].name,
			       ser->cols[ser->ncols - 1].name);
		s.out.json = true;
		fz_run(&s, "series show fz; corr fz");
		/* with itself as a second host (again.csv: the same rows) */
		s.out.json = false;
		fz_run(&s, "series merge fzm fz again; corr fzm");
		sess_release(&s);
		series_free(ser);
	}
	fz_end();
	return 0;
}
