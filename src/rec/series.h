/* series.h - a recorded timeline: named columns with units, rows of
 * doubles (NAN = missing: an interval without data is never 0), saved as
 * RFC 4180 CSV with one header row "name (unit)" and a JSON metadata
 * file; correlation (Pearson, Spearman, best lag) over complete pairs.
 *
 * Each row may carry the wall-clock time it was read (CLOCK_REALTIME, ns
 * since the Unix epoch), beside the device time t: the CSV's integer
 * column "wall (ns)", written last so that every other column keeps its
 * place, read wherever it is.  It is no value column (a double cannot
 * hold it to the ns): ser->wall, NULL in a series written before
 * pccbench recorded it, which loads as before.  Either every row has one
 * or none has.
 *
 * Ownership: series_new/series_free; a series owns its rows.
 */
#ifndef PCCB_SERIES_H
#define PCCB_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define SERIES_MAX_COLS 128

struct series_col {
	char name[40];
	char unit[16];
};

struct series {
	char name[64];
	size_t ncols, nrows, cap;
	struct series_col cols[SERIES_MAX_COLS];
	double *data;			/* nrows x ncols, row-major */
	int64_t *wall;			/* nrows wall-clock reads (ns since
					 * the epoch), or NULL: none */
};

/* The wall-clock column's name (unit ns), kept from value columns. */
#define SERIES_WALL "wall"

struct series *series_new(const char *name);
void series_free(struct series *s);
/* A column name: 1..39 of A-Z a-z 0-9 _ . + -; a unit: up to 15 of those
 * and / % * ^ (no spaces, quotes or brackets).
 */
bool series_name_ok(const char *name);
bool series_unit_ok(const char *unit);
/* 0, or -1: rows exist, the table is full, the name is taken or a name or
 * unit is not valid.
 */
int series_add_col(struct series *s, const char *name, const char *unit);
int series_col(const struct series *s, const char *name);	/* -1 */
/* Is the column `name` a `base` column: base itself or, in a merged
 * series, SERIES.base (h0.avg_rtt for avg_rtt)?
 */
bool series_col_is(const char *name, const char *base);
/* "; did you mean avg_rtt?" for a column it does not have, or "". */
const char *series_no_col(const struct series *s, const char *name,
			  char *buf, size_t len);
/* Append a row of ncols values; 0 or -1 (out of memory, or a row
 * without a wall-clock time in a series whose rows have one).
 */
int series_add_row(struct series *s, const double *vals);
/* The same, read at wall (ns since the epoch); -1 also when the rows
 * before have none.
 */
int series_add_row_wall(struct series *s, const double *vals, int64_t wall);
static inline double series_at(const struct series *s, size_t row,
			       size_t col)
{
	return s->data[row * s->ncols + col];
}

/* A finite value as series_write_csv writes it (buf: 40 bytes). */
int series_fmt_value(char *buf, size_t len, double v);
int series_write_csv(const struct series *s, const char *path,
		     struct pcb_err *err);
int series_read_csv(struct series **out, const char *name,
		    const char *path, struct pcb_err *err);

/* A counter's growth between two reads: `cur - prev` modulo the
 * counter's width (`max` = its largest value, e.g. UINT32_MAX) so one
 * wrap is understood; with clear-on-read every read is the growth.
 */
uint64_t series_delta(uint64_t prev, uint64_t cur, uint64_t max, bool clear);
/* The same growth, only where it is sure.  The true growth is
 * series_delta's plus k more wraps (k >= 0, a wrap being max + 1); lo and
 * hi bound it where the caller knows bounds (e.g. NUM_RTT's growth times
 * MIN_RTT and MAX_RTT for SUM_RTT; else 0 and INFINITY).  When exactly
 * one k fits, that is the growth, however many wraps; when several fit
 * and k = 0 is one, the reads are taken as less than one wrap apart only
 * if the growth is below half the width, as serial-number arithmetic
 * does (RFC 1982).  Returns k, *out the growth; or -1 when the interval
 * was too long to be sure (*out untouched).  Every total or rate made
 * from a PCC counter (32 bits at most) goes through this.
 */
int series_growth(uint64_t prev, uint64_t cur, uint64_t max, bool clear,
		  double lo, double hi, uint64_t *out);

/* Over the pairs where both are present; NAN below 3 pairs or without
 * variance.  *n = the pairs used.
 */
double series_pearson(const double *x, const double *y, size_t len,
		      size_t *n);
double series_spearman(const double *x, const double *y, size_t len,
		       size_t *n);
/* Least squares y = a x + b over complete pairs; -1 below 2 pairs or
 * without variance in x.
 */
int series_linfit(const double *x, const double *y, size_t len, double *a,
		  double *b);
/* The lag in [-max, max] maximising |r| of x[t] against y[t + lag],
 * among the lags that keep at least min_pairs complete pairs: lag > 0
 * means x leads y (y follows it by lag intervals).  *r NAN and 0 when no
 * lag has the pairs; *n the pairs behind *r.
 */
int series_best_lag(const double *x, const double *y, size_t len, int max,
		    size_t min_pairs, double *r, size_t *n);
/* The 95 % interval of a correlation r over n pairs (Fisher's z:
 * atanh(r) +- 1.96 sqrt(k / (n - 3)), k 1 for Pearson, 1.06 for
 * Spearman); NAN below 4 pairs.
 */
void series_fisher_ci(double r, size_t n, double k, double *lo, double *hi);

/* One column as a malloc'd vector (NULL: out of memory). */
double *series_column(const struct series *ser, size_t c);

#endif
