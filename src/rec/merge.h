/* merge.h - series recorded on several hosts put on one time axis by the
 * wall-clock time of their reads (series.h's wall).
 *
 * The first series gives the grid: one merged row per row of it, at its
 * wall-clock time.  Each other series gives a merged row the row of its
 * own nearest in wall time, when the merged row is in turn the nearest
 * to that one (so no source row lands twice) and it lies within half the
 * grid's interval there (the interval on its side of the row, which a
 * real NIC's reads keep regular and a loaded machine may not; at the
 * grid's ends the one inside); else its columns are missing there.
 * Values are never interpolated: each one is a value a host read, and a
 * missing one stays missing.
 *
 * The hosts' clocks are taken as synchronised (NTP, PTP): the offset
 * assumed between them is 0, and an error in it shifts one series
 * against the other by as much.
 *
 * Columns: "t" (s of wall time since the grid's first row), then every
 * column of every series named PREFIX.column (prefix: the series' name).
 * Ownership: the merged series is the caller's (series_free).
 */
#ifndef PCCB_MERGE_H
#define PCCB_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "rec/series.h"

#define SERIES_MERGE_MAX 8

/* What series_merge did. */
struct series_merge {
	int64_t interval_ns;		/* the grid's mean wall interval */
	int64_t tolerance_ns;		/* half of it: how far a row lands,
					 * typically */
	int64_t offset_ns;		/* the clock offset assumed: 0 */
	int64_t from_ns, to_ns;		/* the spans' overlap */
	size_t aligned[SERIES_MERGE_MAX];	/* rows of each that landed */
};

/* Merge n (2..SERIES_MERGE_MAX) series into *out, named name.  Refused
 * (an error naming the series, nothing made) when one has no wall-clock
 * times or goes back in wall time, the grid has fewer than 2 rows, a
 * span does not overlap the grid's, or a merged column's name would be
 * too long or the columns too many.
 */
int series_merge(struct series **out, const char *name,
		 struct series *const *in, size_t n, struct series_merge *info,
		 struct pcb_err *err);

#endif
