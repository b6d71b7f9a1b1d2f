/* measure.c - a tune's columns as the sweep's measures (avg_rtt_p99 ->
 * avg_rtt), their columns in a plan's results, and the sweep parser's
 * errors said as the tune's (tune.h).
 */
#include <stdio.h>
#include <string.h>

#include "rec/series.h"
#include "session.h"
#include "tune/tune.h"

/* The tune's errors say "tune: ", not the sweep parser's "sweep: ". */
int tune_retag(struct session *s, int rc)
{
	if (rc && !strncmp(s->err.msg, "sweep: ", 7)) {
		char m[sizeof(s->err.msg)];

		snprintf(m, sizeof(m), "tune: %s", s->err.msg + 7);
		snprintf(s->err.msg, sizeof(s->err.msg), "%s", m);
	}
	return rc;
}

/* COL as a sweep measure: a sim measure (util) as it is, a timeline
 * column (avg_rtt) or one of its statistics (avg_rtt_p99) by its name.
 */
void tune_measure_of(const char *col, char *m, size_t len)
{
	size_t l = strlen(col), k;

	snprintf(m, len, "%s", col);
	for (k = 0; k < SW_NSTATS; k++) {
		size_t sl = strlen(sw_stat_names[k]);

		if (l > sl + 1 && col[l - sl - 1] == '_' &&
		    !strcmp(col + l - sl, sw_stat_names[k])) {
			struct measure ms[1];
			size_t n;
			struct pcb_err e = { 0 };

			/* util_mean is no measure; avg_rtt_mean is */
			if (!sw_parse_measures(&e, true, col, ms, &n))
				return;
			snprintf(m, len, "%.*s", (int)(l - sl - 1), col);
			return;
		}
	}
}

/* The column of COL in the plan's results: exact, or a measure's mean. */
int tune_col_of(const struct plan *pl, const char *col)
{
	char nm[64];
	int c = series_col(pl->res, col);

	if (c < 0) {
		snprintf(nm, sizeof(nm), "%s_mean", col);
		c = series_col(pl->res, nm);
	}
	return c < SW_FIXED_COLS + (int)pl->naxes ? -1 : c;
}
