/* axis.c - units, ranges and tick labels of plot axes (see axis.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "axis.h"

/* How a column's unit is shown: times in seconds with a prefix on each
 * tick (the label says only the name), bit rates in b/s, the rest as
 * they are.
 */
static const struct {
	const char *unit;
	double scale;
	const char *suffix, *shown;
} units[] = {
	{ "ns", 1e-9, "s", "" }, { "us", 1e-6, "s", "" },
	{ "ms", 1e-3, "s", "" }, { "s", 1, "s", "" },
	{ "Gb/s", 1e9, "", "b/s" }, { "Mb/s", 1e6, "", "b/s" },
};

void plot_eng(char *buf, size_t len, double v, double step,
	      const char *suffix, bool ascii)
{
	static const char *const pre[] = { "f", "p", "n", "µ", "m", "",
					   "k", "M", "G", "T", "P" };
	int p, k, dec;
	char *dot, *e;

	if (fabs(v) < step * 1e-6 || v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	p = (int)floor(log10(fabs(v)) / 3) * 3;
	if (p < -15)
		p = -15;
	if (p > 15)
		p = 15;
	k = (int)floor(log10(step) + 1e-9);
	dec = p - k > 0 ? p - k : 0;
	if (dec > 6)
		dec = 6;
	snprintf(buf, len, "%.*f", dec, v / pow(10, p));
	dot = strchr(buf, '.');
	if (dot) {	/* 2.50 -> 2.5, 2.0 -> 2 */
		for (e = buf + strlen(buf) - 1; e > dot && *e == '0'; e--)
			*e = '\0';
		if (e == dot)
			*e = '\0';
	}
	snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
		 ascii && p == -6 ? "u" : pre[p / 3 + 5], suffix);
}

/* 1, 2 or 5 x 10^k: about `want` steps over span. */
static double nice_step(double span, int want)
{
	double raw = span / want, mag = pow(10, floor(log10(raw)));
	double f = raw / mag;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* ", sum of 17 NICs" after buf, for a unit's "_sum17nic" (recorder.h:
 * a sum over a fabric's NICs, none a port's own).
 */
static void sum_text(const char *sum, char *buf, size_t len)
{
	unsigned nics;
	size_t n = strlen(buf);

	if (sscanf(sum, "_sum%unic", &nics) == 1)
		snprintf(buf + n, len - n, "%ssum of %u NICs", n ? ", " : "",
			 nics);
	else
		snprintf(buf + n, len - n, "%ssum of NICs", n ? ", " : "");
}

void plot_unit_text(const char *unit, char *buf, size_t len)
{
	const char *sum = strstr(unit, "_sum");

	snprintf(buf, len, "%.*s", sum ? (int)(sum - unit) :
		 (int)strlen(unit), unit);
	if (sum)
		sum_text(sum, buf, len);
}

void plot_axis_make(struct plot_axis *a, const char *unit, double lo,
		    double hi, bool ascii, bool zero)
{
	const char *sum = strstr(unit, "_sum");
	int base = sum ? (int)(sum - unit) : (int)strlen(unit);
	double step, t;
	bool plain;
	size_t i;

	memset(a, 0, sizeof(*a));
	a->scale = 1;
	a->suffix = "";
	snprintf(a->unit, sizeof(a->unit), "%.*s", base, unit);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strncmp(unit, units[i].unit, (size_t)base) &&
		    !units[i].unit[base]) {
			a->scale = units[i].scale;
			a->suffix = units[i].suffix;
			snprintf(a->unit, sizeof(a->unit), "%s",
				 units[i].shown);
		}
	if (sum)	/* a sum over NICs: said after the unit shown */
		sum_text(sum, a->unit, sizeof(a->unit));
	if (isnan(lo) || isnan(hi)) {
		lo = 0;
		hi = 1;
	}
	lo *= a->scale;
	hi *= a->scale;
	if (lo > 0 && zero)	/* counts and rates start at 0 */
		lo = 0;
	if (hi <= lo)
		hi = lo + (lo ? fabs(lo) : a->scale);
	/* ratios and percentages read best as they are: 0.5, not 500m */
	plain = !*a->suffix && a->scale == 1 && !sum && (!strcmp(unit, "1") ||
		!strcmp(unit, "%") || !*unit) && fabs(hi) < 1e4 &&
		fabs(lo) < 1e4;
	step = nice_step(hi - lo, 4);
	a->lo = floor(lo / step) * step;
	a->hi = ceil(hi / step - 1e-9) * step;
	for (t = a->lo; t <= a->hi + step * 1e-6 &&
	     a->nticks < PLOT_MAX_TICKS; t += step) {
		double v = fabs(t) < step * 1e-6 ? 0 : t;

		a->pos[a->nticks] = v;
		if (plain)
			snprintf(a->lab[a->nticks], sizeof(a->lab[0]), "%g", v);
		else
			plot_eng(a->lab[a->nticks], sizeof(a->lab[0]), v, step,
				 a->suffix, ascii);
		a->nticks++;
	}
}

double plot_time_unit(double t0, double t1, char *label, size_t len,
		      bool ascii)
{
	double span = t1 - t0;

	if (span <= 2e-3) {
		snprintf(label, len, "t (%s)", ascii ? "us" : "µs");
		return 1e6;
	}
	if (span <= 2) {
		snprintf(label, len, "t (ms)");
		return 1e3;
	}
	snprintf(label, len, "t (s)");
	return 1;
}
