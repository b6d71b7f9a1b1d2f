/* lhist.c - the fabric's log-bucket histograms read back: emptied,
 * quantiles of the RTT histogram and of each switch port's queue.  Why
 * apart: the run adds to them on the hot path (lhist_add and
 * lhist_bucket, inline in sim_int.h); reading them is the reports'.
 */
#include <math.h>
#include <string.h>

#include "sim_int.h"

static double lhist_value(unsigned b)
{
	unsigned e, m;

	if (b < LHIST_SUB)
		return b;
	e = b / LHIST_SUB + 4;
	m = b % LHIST_SUB;
	/* bucket midpoint */
	return ldexp(LHIST_SUB + m + 0.5, (int)e - 5);
}

/* Empty h, writing only the buckets in use: most switch ports' queue
 * histograms stay at zero (the reverse path) and are never touched.
 */
void lhist_clear(struct lhist *h)
{
	if (!h->total && !h->max)
		return;		/* empty (all weights 0: every n too) */
	memset(h->n, 0, lhist_used(h->max) * sizeof(h->n[0]));
	h->total = 0;
	h->sum = 0;
	h->max = 0;
	h->min = 0;
}

/* The bucket's midpoint, within the values seen: a midpoint below the
 * least (or above the greatest) value would report what never happened,
 * an RTT below the idle path.
 */
static double hist_quantile(const uint64_t *n, uint64_t total,
			    uint64_t min, uint64_t max, double q)
{
	double want = q * (double)total, acc = 0, v = (double)max;
	unsigned b, top = lhist_used(max);

	if (!total)
		return 0;
	for (b = 0; b < top; b++) {
		acc += (double)n[b];
		if (acc >= want && n[b]) {
			v = lhist_value(b);
			break;
		}
	}
	if (v > (double)max)
		v = (double)max;
	return v < (double)min ? (double)min : v;
}

double lhist_quantile(const struct lhist *h, double q)
{
	return hist_quantile(h->n, h->total, h->min, h->max, q);
}

/* The q-quantile of a port's queue in the window (bytes), from the
 * histogram lhist_add would have made: n[0], which the hot path never
 * writes, is set here to the time at zero; the minimum is zero if the
 * queue was ever empty. */
double qstat_quantile(const struct sim *s, const struct port *p, double q)
{
	const struct qstat *a = &p->qs;

	if (!p->q_n)
		return 0;
	p->q_n[0] = a->zero;
	return hist_quantile(p->q_n, (uint64_t)(a->q_last - s->win_t0),
			     a->zero ? 0 : a->vmin, a->vmax, q);
}
