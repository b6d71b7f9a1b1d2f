/* run.c - what both ways of running share: the order runs start in, the
 * progress line, and one run's numbers from its recorded window (sweep.h).
 * The pool (pool.c) and the runner (runner.c) call it; it calls neither.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "paths.h"
#include "rec/recorder.h"
#include "rec/series.h"
#include "rec/stats.h"
#include "device.h"
#include "units.h"
#include "sweep/sweep.h"

/* ---- the order and the progress ------------------------------------------ */

/* n of N runs, the time so far and, from this session's pace, the time
 * still to go.
 */
void sw_progress(struct session *s, const struct plan *pl, double t0,
		 bool final)
{
	double el = pcb_mono_s() - t0;
	size_t now = pl->ndone - pl->ndone0;

	if (!isatty(STDERR_FILENO) || s->out.json)
		return;
	if (pl->progress) {
		pl->progress(pl->progress_ctx, pl);
		return;
	}
	fprintf(stderr, "\rsweep %s: %zu of %zu runs, %.1f s", pl->name,
		pl->ndone, pl->nruns, el);
	if (!final && now && pl->ndone < pl->nruns)
		fprintf(stderr, ", about %.0f s left ", el * (double)(pl->nruns -
			pl->ndone) / (double)now + 0.5);
	fputs(final ? "\n" : "", stderr);
}

/* The order runs start in: plan order, or a fixed shuffle. */
size_t *sw_run_order(const struct plan *pl)
{
	size_t *o = malloc(pl->nruns * sizeof(*o)), i;
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (i = 0; o && i < pl->nruns; i++)
		o[i] = i;
	for (i = pl->nruns; o && pl->shuffle && i > 1; i--) {
		size_t j, t;

		x ^= x << 13;	/* xorshift64: the same shuffle every time */
		x ^= x >> 7;
		x ^= x << 17;
		j = (size_t)(x % i);
		t = o[i - 1];
		o[i - 1] = o[j];
		o[j] = t;
	}
	return o;
}

/* ---- one run's numbers --------------------------------------------------- */

/* The measured values of a recorded window (and the sim's own summary).
 * avg_rtt's mean is the window's: the growth of SUM_RTT over that of
 * NUM_RTT, each sample weighing alike (a mean of the intervals' averages
 * would let a few slow samples in a quiet interval outweigh thousands);
 * its p50/p99/min/max are over the intervals' averages.
 */
int sw_summarise(struct session *s, const struct plan *pl,
		 const struct series *ser, const struct recorder *rec,
		 double *v)
{
	double x[S_COUNT];
	size_t i, o = 0;

	for (i = 0; i < S_COUNT; i++)
		x[i] = NAN;
	for (i = 0; i < pl->nmeas; i++)
		if (pl->m[i].scalar >= 0) {
			int rc = dev_summary(s->cur, x);

			if (rc)
				return rc;
			break;
		}
	for (i = 0; i < pl->nmeas; i++) {
		const struct measure *m = &pl->m[i];
		double *col;
		struct stats st;

		if (m->scalar >= 0) {
			v[o++] = x[m->scalar];
			continue;
		}
		col = series_column(ser, (size_t)m->col);
		if (!col || stats_summary(col, ser->nrows, &st)) {
			free(col);
			return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		}
		free(col);
		if (m->col == REC_C_AVG_RTT)
			st.mean = rec->rtt_num && !rec->rtt_unsure ?
				  (double)rec->rtt_sum / (double)rec->rtt_num :
				  NAN;
		v[o++] = st.mean;
		v[o++] = st.p50;
		v[o++] = st.p99;
		v[o++] = st.min;
		v[o++] = st.max;
	}
	return 0;
}
