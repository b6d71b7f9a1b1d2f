/* stats.h - summaries for sweeps: mean, quantiles, min, max over the
 * present values (NAN = missing), and the 95 % confidence interval of a
 * mean from repeats (Student's t).  Pure functions, no allocation beyond
 * a scratch copy.
 */
#ifndef PCCB_STATS_H
#define PCCB_STATS_H

#include <stddef.h>

struct stats {
	size_t n;			/* present values */
	double mean, p50, p99, min, max;	/* NAN when n == 0 */
};

/* Quantiles interpolate between order statistics (type 7, as R and
 * numpy do).  Returns -1 when the scratch copy cannot be made.
 */
int stats_summary(const double *v, size_t len, struct stats *out);
/* Mean and the half-width of its 95 % interval; half is NAN below two
 * present values.
 */
void stats_ci95(const double *v, size_t len, double *mean, double *half,
		size_t *n);
/* Student's t with df degrees of freedom, computed (the regularized
 * incomplete beta function), not looked up: its CDF, its p-quantile
 * (NAN outside 0 < p < 1 or for df <= 0), and the 97.5 % quantile that a
 * two-sided 95 % interval takes (NAN for df 0).
 */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);
double stats_t975(size_t df);

/* FROM:TO:STEP as a list: from + i*step for i = 0.. while within `to`
 * (a last value within 1e-9 of a step past `to` is kept, so 0.05:0.5:0.05
 * ends at 0.5).  Returns the count, or 0 for a bad range (step <= 0,
 * to < from, more than max values).
 */
size_t stats_range(double from, double to, double step, double *out,
		   size_t max);

#endif
