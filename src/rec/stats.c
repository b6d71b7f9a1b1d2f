/* stats.c - sweep summaries and ranges. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double quantile(const double *sorted, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

int stats_summary(const double *v, size_t len, struct stats *out)
{
	double *tmp = malloc((len ? len : 1) * sizeof(*tmp)), sum = 0;
	size_t i, n = 0;

	if (!tmp)
		return -1;
	for (i = 0; i < len; i++)
		if (!isnan(v[i])) {
			tmp[n++] = v[i];
			sum += v[i];
		}
	out->n = n;
	if (!n) {
		out->mean = out->p50 = out->p99 = out->min = out->max = NAN;
		free(tmp);
		return 0;
	}
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	out->mean = sum / (double)n;
	out->p50 = quantile(tmp, n, 0.5);
	out->p99 = quantile(tmp, n, 0.99);
	out->min = tmp[0];
	out->max = tmp[n - 1];
	free(tmp);
	return 0;
}

double stats_t975(size_t df)
{
	static const double t[] = {
		NAN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
		2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110,
		2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
		2.052, 2.048, 2.045, 2.042,
	};

	if (df < sizeof(t) / sizeof(t[0]))
		return t[df];
	if (df <= 40)
		return 2.021;
	if (df <= 60)
		return 2.000;
	if (df <= 120)
		return 1.980;
	return 1.960;
}

void stats_ci95(const double *v, size_t len, double *mean, double *half,
		size_t *np)
{
	double sum = 0, ss = 0, m;
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (!isnan(v[i])) {
			sum += v[i];
			n++;
		}
	*np = n;
	*mean = n ? sum / (double)n : NAN;
	*half = NAN;
	if (n < 2)
		return;
	m = *mean;
	for (i = 0; i < len; i++)
		if (!isnan(v[i]))
			ss += (v[i] - m) * (v[i] - m);
	*half = stats_t975(n - 1) * sqrt(ss / (double)(n - 1)) /
		sqrt((double)n);
}

size_t stats_range(double from, double to, double step, double *out,
		   size_t max)
{
	char buf[32];
	size_t i;

	if (!(step > 0) || !(to >= from) || !isfinite(from) || !isfinite(to))
		return 0;
	for (i = 0;; i++) {
		double v = from + (double)i * step;

		if (v > to + fabs(step) * 1e-9)
			break;
		if (i == max)
			return 0;
		/* 0.1 + 2 * 0.1 is 0.3, not 0.30000000000000004: keep 12
		 * significant digits */
		snprintf(buf, sizeof(buf), "%.12g", v);
		out[i] = strtod(buf, NULL);
	}
	return i;
}
