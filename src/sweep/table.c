/* table.c - the table: results.csv read back per point, and the
 * `best ... where` query (sweep.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "axis.h"
#include "paths.h"
#include "rec/recorder.h"
#include "rec/series.h"
#include "rec/stats.h"
#include "device.h"
#include "units.h"
#include "store.h"
#include "sweep/sweep.h"
#include "words.h"

void sw_table_free(struct table *t)
{
	series_free(t->r);
	free(t->first);
	free(t->mean);
	free(t->ci);
	free(t->n);
}

/* sweep NAME's results, checked against its definition (see
 * results_check), then averaged per point.
 */
int sw_table_load(struct session *s, const char *name, struct table *t,
		  char *dir, size_t dlen)
{
	struct sdef *d = calloc(1, sizeof(*d));
	char path[PCB_PATH_LEN];
	struct stat st;
	size_t i, p, k;
	int rc;

	memset(t, 0, sizeof(*t));
	if (!d)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = sw_def_load(s, name, dir, dlen, d);
	if (!rc)
		rc = pcb_path(path, sizeof(path), &s->err, "%s/results.csv", dir);
	if (!rc && lstat(path, &st) && errno == ENOENT)
		rc = pcb_error(&s->err, PCB_E_NOENT, "sweep %s has no results "
			       "yet ('sweep resume %s')", name, name);
	if (!rc)
		rc = series_read_csv(&t->r, name, path, &s->err);
	if (!rc)
		rc = sw_results_check(s, d, t->r, path);
	t->naxes = d->naxes;
	/* every measure asked for, in the order asked: a sim scalar's
	 * column, or a timeline column's X_mean (never guessed from the
	 * names: rtt_p99 is a measure of its own beside rtt_mean)
	 */
	for (k = 0; !rc && k < d->nmeas && t->nprim < SW_MAX_MEAS; k++) {
		char cols[SW_NSTATS][48];
		const char *unit;
		int col;

		sw_measure_cols(&d->m[k], cols, &unit);
		col = series_col(t->r, cols[0]);
		if (col < 0) {
			rc = pcb_error(&s->err, PCB_E_CORRUPT, "'%s' has no "
				       "column %s", path, cols[0]);
			break;
		}
		t->prim[t->nprim] = col;
		snprintf(t->pname[t->nprim], sizeof(t->pname[0]), "%s",
			 sw_measure_name(&d->m[k]));
		t->nprim++;
	}
	sw_def_release(d);
	free(d);
	if (rc)
		return rc;
	for (i = 0; i < t->r->nrows; i++) {	/* checked: whole, in range */
		size_t v = (size_t)series_at(t->r, i, 0);

		if (v + 1 > t->npoints)
			t->npoints = v + 1;
	}
	t->first = malloc((t->npoints + 1) * sizeof(*t->first));
	t->mean = calloc(t->npoints * t->nprim + 1, sizeof(double));
	t->ci = calloc(t->npoints * t->nprim + 1, sizeof(double));
	t->n = calloc(t->npoints + 1, sizeof(size_t));
	if (!t->first || !t->mean || !t->ci || !t->n)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	for (p = 0; p < t->npoints; p++)
		t->first[p] = -1;
	for (i = 0; i < t->r->nrows; i++) {
		p = (size_t)series_at(t->r, i, 0);
		if (t->first[p] < 0)
			t->first[p] = (int)i;
		t->n[p]++;
	}
	for (p = 0; p < t->npoints; p++)
		for (k = 0; k < t->nprim; k++) {
			double v[SW_MAX_REPEAT];
			size_t m = 0;

			for (i = (size_t)(t->first[p] < 0 ? 0 : t->first[p]);
			     t->first[p] >= 0 && i < t->r->nrows &&
			     m < SW_MAX_REPEAT; i++)
				if ((size_t)series_at(t->r, i, 0) == p)
					v[m++] = series_at(t->r, i,
							   (size_t)t->prim[k]);
			sw_repeats_ci(t->r->cols[t->prim[k]].name, v, m,
				      &t->mean[p * t->nprim + k],
				      &t->ci[p * t->nprim + k]);
		}
	return 0;
}

/* A repeat without a collective done in its window took longer than
 * the window: the others' mean would be that of the lucky seeds (shorter
 * times, higher busbw), so a whole measure with one missing has none.
 */
void sw_repeats_ci(const char *col, const double *v, size_t n,
		   double *mean, double *ci)
{
	size_t used, i;

	stats_ci95(v, n, mean, ci, &used);
	if (used == n)
		return;
	for (i = 0; i < S_COUNT; i++)
		if (scalar_cols[i].whole && !strcmp(col, scalar_cols[i].name))
			*mean = *ci = NAN;
}

void sw_table_warn_flat(struct session *s, const char *name,
			const struct table *t, int64_t warmup)
{
	char list[256] = "";
	bool same = true;
	size_t k, p;

	for (k = 0; k < t->nprim; k++) {
		double lo = NAN, hi = NAN, ci = NAN, sum = 0;
		size_t n = 0;

		for (p = 0; p < t->npoints; p++) {
			double m = t->mean[p * t->nprim + k];
			double c = t->ci[p * t->nprim + k];

			if (isnan(m))
				continue;
			lo = isnan(lo) || m < lo ? m : lo;
			hi = isnan(hi) || m > hi ? m : hi;
			ci = isnan(ci) || c > ci ? c : ci;
			sum += m;
			n++;
		}
		if (n < 2)
			continue;
		if (!isnan(ci) && ci > 0 && hi - lo <= ci)
			same = false;	/* within the repeats' noise */
		else if (hi - lo > 1e-3 * fabs(sum / (double)n))
			continue;	/* else the same everywhere */
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", *list ? ", " : "", t->pname[k]);
	}
	if (!*list)
		return;
	fflush(s->out.fp);	/* after what it is about */
	if (!same)
		sess_warn(s, "sweep %s: %s differ between points by less than "
			  "the repeats' 95 %% intervals: the noise hides what "
			  "the params do; more repeats or a longer 'for' "
			  "narrow the intervals", name, list);
	else
		sess_warn(s, "sweep %s: %s the same at every point (within "
			  "0.1 %%): %s", name, list, warmup == 0 ?
			  "without a warmup the window may hold only the "
			  "start burst; 'warmup 5ms' or a longer 'for' "
			  "measures the steady state" : "the window may hold "
			  "only the start burst or be too short for the "
			  "params to act (or they do not act on this "
			  "scenario); a longer 'warmup' or 'for' tells");
}

/* A results column by name: exact, or a measure's mean. */
static int table_col(const struct table *t, const char *name)
{
	char nm[64];
	int c = series_col(t->r, name);
	size_t k;

	if (c < 0) {
		snprintf(nm, sizeof(nm), "%s_mean", name);
		c = series_col(t->r, nm);
	}
	for (k = 0; c >= 0 && k < t->nprim; k++)
		if (t->prim[k] == c)
			return (int)k;
	return c < 0 ? -1 : -2 - c;	/* a column that is not averaged */
}

/* The value of column `k` (table_col's answer) at point p. */
double sw_table_value(const struct table *t, size_t p, int k)
{
	if (k >= 0)
		return t->mean[p * t->nprim + (size_t)k];
	if (t->first[p] < 0)
		return NAN;
	return series_at(t->r, (size_t)t->first[p], (size_t)(-2 - k));
}

bool sw_cond_holds(const struct table *t, size_t p, const struct cond *c)
{
	double x = sw_table_value(t, p, c->col);

	if (isnan(x))
		return false;
	if (!strcmp(c->op, "<"))
		return x < c->v;
	if (!strcmp(c->op, "<="))
		return x <= c->v;
	if (!strcmp(c->op, ">"))
		return x > c->v;
	if (!strcmp(c->op, ">="))
		return x >= c->v;
	if (!strcmp(c->op, "="))
		return x == c->v;
	return x != c->v;
}

/* best min|max COL [where COL OP VALUE [and COL OP VALUE]...] */
int sw_parse_best(struct session *s, const struct table *t, int argc,
		  char **argv, bool *maximise, int *col,
		  struct cond *conds, size_t *nconds)
{
	static const char *const ops[] = { "<", "<=", ">", ">=", "=", "!=",
					   NULL };
	int i, k;
	char *end;

	*nconds = 0;
	if (argc < 3 || strcmp(argv[0], "best") ||
	    (strcmp(argv[1], "min") && strcmp(argv[1], "max")))
		return pcb_error(&s->err, PCB_E_USAGE, "usage: sweep show NAME "
				 "[best min|max COL [where COL OP VALUE [and "
				 "...]]]");
	*maximise = !strcmp(argv[1], "max");
	*col = table_col(t, argv[2]);
	if (*col == -1)
		return pcb_error(&s->err, PCB_E_NOENT, "sweep %s has no column "
				 "'%s'", t->r->name, argv[2]);
	for (i = 3; i < argc; i += 4) {
		struct cond *c = &conds[*nconds];

		if (i + 3 >= argc)
			return pcb_error(&s->err, PCB_E_USAGE, "sweep show: "
					 "'%s' needs COL OP VALUE", argv[i]);
		if (strcmp(argv[i], *nconds ? "and" : "where") ||
		    *nconds == 8)
			return pcb_error(&s->err, PCB_E_USAGE, "sweep show: "
					 "expected '%s', not '%s'",
					 *nconds ? "and" : "where", argv[i]);
		c->col = table_col(t, argv[i + 1]);
		if (c->col == -1)
			return pcb_error(&s->err, PCB_E_NOENT, "sweep %s has "
					 "no column '%s'", t->r->name,
					 argv[i + 1]);
		for (k = 0; ops[k] && strcmp(ops[k], argv[i + 2]); k++)
			;
		if (!ops[k])
			return pcb_error(&s->err, PCB_E_INVAL, "sweep show: "
					 "bad operator '%s' (< <= > >= = !=)",
					 argv[i + 2]);
		snprintf(c->op, sizeof(c->op), "%s", ops[k]);
		errno = 0;
		c->v = strtod(argv[i + 3], &end);
		if (end == argv[i + 3] || *end || errno)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep show: "
					 "'%s' is not a number", argv[i + 3]);
		(*nconds)++;
	}
	return 0;
}
