/* axis.h - what a plot axis shows: values in the unit that fits (times
 * in s with µ/m prefixes, rates in b/s with G/M), ticks at 1-2-5 steps
 * labelled in engineering form ("1.2M", "400G", "15µs"), and the time
 * axis in the unit that fits its span (µs, ms, s).  Computed here, in C,
 * so gnuplot is given numbers and finished labels, never format code.
 *
 * Ownership: a struct plot_axis is a plain value; nothing to free.
 */
#ifndef PCCB_AXIS_H
#define PCCB_AXIS_H

#include <stdbool.h>
#include <stddef.h>

#define PLOT_MAX_TICKS 16

struct plot_axis {
	double scale;		/* data value x scale = display value */
	const char *suffix;	/* after each tick label: "s" for times */
	char unit[40];		/* for the axis label ("" for none) */
	double lo, hi;		/* range, display units */
	size_t nticks;
	double pos[PLOT_MAX_TICKS];
	char lab[PLOT_MAX_TICKS][24];
};

/* A column's unit as a label says it: as it is, or for a sum over NICs
 * ("Gb/s_sum17nic", recorder.h) "Gb/s, sum of 17 NICs".
 */
void plot_unit_text(const char *unit, char *buf, size_t len);

/* The axis of a column of `unit` over data lo..hi (NAN when it has none);
 * ascii: "u" for micro (the text terminal counts bytes).  zero: the range
 * starts at 0 for data that never goes negative (else it hugs the data).
 */
void plot_axis_make(struct plot_axis *a, const char *unit, double lo,
		    double hi, bool ascii, bool zero);

/* The time axis over t0..t1 seconds: its scale and label ("t (ms)"). */
double plot_time_unit(double t0, double t1, char *label, size_t len,
		      bool ascii);

/* v in engineering form at the resolution of `step`: "1.2M", "15µs". */
void plot_eng(char *buf, size_t len, double v, double step,
	      const char *suffix, bool ascii);

#endif
