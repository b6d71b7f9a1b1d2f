/* merge.c - series from several hosts aligned by wall-clock time. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec/merge.h"

#define MERGE_WALL_MAX ((int64_t)1 << 62)	/* ns: the year 2116 */

/* The row of w[0..n) nearest to x (the earlier on a tie); w ascending. */
static size_t nearest(const int64_t *w, size_t n, int64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {	/* the first w >= x */
		size_t mid = lo + (hi - lo) / 2;

		if (w[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n)
		return n - 1;
	if (lo && x - w[lo - 1] <= w[lo] - x)
		return lo - 1;
	return lo;
}

/* Does x, the nearest read of another series to grid row i, land there:
 * is row i the grid's nearest to it, and x within half the grid's
 * interval on its side of the row (at the grid's ends, the one inside)?
 */
static bool lands(const int64_t *g, size_t n, size_t i, int64_t x)
{
	size_t lo = x < g[i] ? (i ? i - 1 : 0) : (i + 1 < n ? i : i - 1);

	if (nearest(g, n, x) != i)
		return false;
	return (x < g[i] ? g[i] - x : x - g[i]) <= (g[lo + 1] - g[lo]) / 2;
}

/* Each input usable: wall-clock times, never going back. */
static int check_input(const struct series *s, struct pcb_err *err)
{
	size_t r;

	if (!s->wall)
		return pcb_error(err, PCB_E_STATE, "series merge: series %s "
				 "has no wall-clock times (recorded before "
				 "pccbench kept them)", s->name);
	if (!s->nrows)
		return pcb_error(err, PCB_E_STATE, "series merge: series %s "
				 "is empty", s->name);
	for (r = 0; r < s->nrows; r++)	/* differences never overflow */
		if (s->wall[r] < 0 || s->wall[r] > MERGE_WALL_MAX)
			return pcb_error(err, PCB_E_CORRUPT, "series merge: "
					 "series %s row %zu: wall-clock time "
					 "%" PRId64 " is not ns since 1970 "
					 "(to 2116)", s->name, r + 1,
					 s->wall[r]);
	for (r = 1; r < s->nrows; r++)
		if (s->wall[r] < s->wall[r - 1])
			return pcb_error(err, PCB_E_STATE, "series merge: "
					 "series %s goes back in wall time at "
					 "row %zu (its host's clock was "
					 "stepped)", s->name, r + 1);
	return 0;
}

/* The merged series' columns: t, then PREFIX.column of each input. */
static int merged_columns(struct series *m, struct series *const *in,
			  size_t n, struct pcb_err *err)
{
	size_t k, c, total = 1;
	char nm[96];

	for (k = 0; k < n; k++)
		total += in[k]->ncols;
	if (total > SERIES_MAX_COLS)
		return pcb_error(err, PCB_E_RANGE, "series merge: %zu columns "
				 "in all (at most %d): merge fewer series",
				 total, SERIES_MAX_COLS);
	series_add_col(m, "t", "s");
	for (k = 0; k < n; k++)
		for (c = 0; c < in[k]->ncols; c++) {
			snprintf(nm, sizeof(nm), "%s.%s", in[k]->name,
				 in[k]->cols[c].name);
			if (series_col(m, nm) >= 0)
				return pcb_error(err, PCB_E_INVAL, "series "
						 "merge: series %s is named "
						 "twice", in[k]->name);
			if (series_add_col(m, nm, in[k]->cols[c].unit))
				return pcb_error(err, PCB_E_RANGE, "series "
						 "merge: column '%s' would "
						 "be longer than %zu "
						 "characters: a shorter "
						 "series name", nm,
						 sizeof(m->cols[0].name) - 1);
		}
	return 0;
}

int series_merge(struct series **out, const char *name,
		 struct series *const *in, size_t n, struct series_merge *info,
		 struct pcb_err *err)
{
	const struct series *g = in[0];
	struct series *m = NULL;
	double *row = NULL;
	size_t k, i, c, o;
	int rc = 0;

	memset(info, 0, sizeof(*info));
	if (n < 2 || n > SERIES_MERGE_MAX)
		return pcb_error(err, PCB_E_USAGE, "series merge: 2 to %d "
				 "series", SERIES_MERGE_MAX);
	for (k = 0; k < n && !rc; k++)
		rc = check_input(in[k], err);
	if (rc)
		return rc;
	if (g->nrows < 2 || g->wall[g->nrows - 1] == g->wall[0])
		return pcb_error(err, PCB_E_STATE, "series merge: series %s "
				 "gives the time axis and needs 2 rows or more "
				 "read at different times", g->name);
	info->interval_ns = (g->wall[g->nrows - 1] - g->wall[0]) /
			    (int64_t)(g->nrows - 1);
	info->tolerance_ns = info->interval_ns / 2;
	info->from_ns = g->wall[0];
	info->to_ns = g->wall[g->nrows - 1];
	for (k = 1; k < n; k++) {
		const struct series *b = in[k];

		if (b->wall[0] > g->wall[g->nrows - 1] ||
		    b->wall[b->nrows - 1] < g->wall[0])
			return pcb_error(err, PCB_E_STATE, "series merge: "
					 "series %s and %s were not recorded "
					 "at the same time (their wall-clock "
					 "spans do not overlap)", g->name,
					 b->name);
		if (b->wall[0] > info->from_ns)
			info->from_ns = b->wall[0];
		if (b->wall[b->nrows - 1] < info->to_ns)
			info->to_ns = b->wall[b->nrows - 1];
	}
	m = series_new(name);
	row = malloc(SERIES_MAX_COLS * sizeof(*row));
	if (!m || !row) {
		rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
		goto out_free;
	}
	rc = merged_columns(m, in, n, err);
	for (i = 0; !rc && i < g->nrows; i++) {
		int64_t w = g->wall[i];

		row[0] = (double)(w - g->wall[0]) / 1e9;
		for (k = 0, o = 1; k < n; o += in[k]->ncols, k++) {
			const struct series *b = in[k];
			size_t j = k ? nearest(b->wall, b->nrows, w) : i;
			bool hit = !k || lands(g->wall, g->nrows, i,
					       b->wall[j]);

			for (c = 0; c < b->ncols; c++)
				row[o + c] = hit ? series_at(b, j, c) : NAN;
			info->aligned[k] += hit;
		}
		if (series_add_row_wall(m, row, w))
			rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	if (!rc) {
		*out = m;
		m = NULL;
	}
out_free:
	series_free(m);
	free(row);
	return rc;
}
