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

/* The continued fraction of the regularized incomplete beta function
 * I_x(a, b) (modified Lentz; Numerical Recipes' betacf), for
 * x < (a + 1) / (a + b + 2).
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, del, aa;
	int m;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (m = 1; m <= 1000; m++) {
		aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x /
		     ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b), 0 <= x <= 1. */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	double tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, mid;
	int i;

	if (!(df > 0) || !(p > 0 && p < 1))
		return NAN;
	if (p < 0.5)
		return -stats_t_quantile(1 - p, df);
	while (stats_t_cdf(hi, df) < p)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		mid = (lo + hi) / 2;
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_t975(size_t df)
{
	return df ? stats_t_quantile(0.975, (double)df) : NAN;
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
