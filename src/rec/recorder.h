/* recorder.h - one timeline from every source a device has.
 *
 * Each interval lets the device's clock run (device.h: simulated time on
 * the sim, wall time on a real NIC, optionally while a traffic command
 * runs), then reads the PCC counters (the slot holding counter_en)
 * through the register transport, the device's host counters (the same
 * kernel/ethtool names on both: rp_cnp_handled, rx_prio3_pause, ...),
 * the retransmission histogram where the device has one and any diag
 * data IDs asked for.  A column without a source on this device stays
 * missing and is named once in a warning (unless the device says it does
 * not model it by design).  Rates are per second of device time; an
 * interval without RTT samples has no average RTT (missing, never 0); a
 * counter that went back (a driver reload) gives a gap, never a negative
 * rate.  The PCC counters are 32 bits at most and wrap at the max their
 * counter info reports: each interval's growth is taken modulo that
 * width (series_growth), and an interval too long to be sure how often
 * a counter wrapped gives a missing value and one warning, never a
 * wrong number.  `record`, `watch` and `sweep` all record through here.
 *
 * Every row also carries the wall-clock time it was read (CLOCK_REALTIME,
 * ns since the epoch; the midpoint of the interval's reads, which take
 * time on a real NIC): series.h's wall.  On the sim the device time t is
 * simulated but the wall clock is still the real one.
 *
 * Column names are stable (rec_fixed_cols); units go in the series
 * header.  Ownership: rec_open/rec_close; the session and its device
 * stay the caller's.
 */
#ifndef PCCB_RECORDER_H
#define PCCB_RECORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "device.h"
#include "rec/series.h"
#include "session.h"
#include "tel/diag.h"
#include "tel/retx.h"

enum { REC_C_T, REC_C_AVG_RTT, REC_C_MIN_RTT, REC_C_MAX_RTT, REC_C_MIN_RATE,
       REC_C_MAX_RATE, REC_C_AI, REC_C_HAI, REC_C_DEC, REC_C_HYPER,
       REC_C_TXDEC, REC_C_CNP_H, REC_C_CNP_S, REC_C_ECN, REC_C_RX, REC_C_TX,
       REC_C_PAUSES, REC_C_DROPS, REC_C_PAUSE_RX, REC_C_PAUSE_TX,
       REC_C_ADP, REC_C_ADP_TO, REC_C_SLOW, REC_C_OOS, REC_C_SEQ_ERR,
       REC_C_ACK_TO, REC_C_FIXED };

/* The fixed columns, in order: name and unit. */
extern const struct series_col rec_fixed_cols[REC_C_FIXED];

enum { REC_K_SUM, REC_K_NUM, REC_K_MIN_RTT, REC_K_MAX_RTT, REC_K_MIN_RATE,
       REC_K_MAX_RATE, REC_K_AI, REC_K_HAI, REC_K_DEC, REC_K_HYPER,
       REC_K_TXDEC, REC_K_COUNT };

/* The columns the device's counters give (sums of named counters, in
 * the order of the columns from REC_C_CNP_H on); UINT64_MAX: no source.
 */
#define REC_H_FIRST REC_C_CNP_H
#define REC_H_COUNT (REC_C_FIXED - REC_C_CNP_H)

struct rec_snap {
	uint32_t pcc[ALGO_MAX_COUNTERS];
	double host[REC_H_COUNT];	/* the counters' growth since the
					 * read before, summed; NAN none */
	uint64_t ds[DS_COUNT];		/* the diag data IDs' sources */
	uint64_t bins[RETX_MAX_BINS];
};

struct recorder {
	struct session *s;
	struct device *d;		/* the device it reads */
	char prefix[80];		/* its columns' PREFIX. (one device of
					 * several), or "" */
	int slot;			/* PCC counters' slot, -1 none */
	int kidx[REC_K_COUNT];		/* counter index, -1 absent */
	uint32_t kmax[REC_K_COUNT];	/* its largest value (counter info):
					 * it wraps to 0 past it */
	uint32_t unsure;		/* REC_C_* bits already warned of: an
					 * interval too long to be sure */
	bool clear;			/* get-and-clear the PCC counters */
	int prio;			/* pause columns of one priority, or -1 */
	bool retx;			/* histogram running: bins columns */
	uint32_t nbins;
	struct retx_cfg retx_cfg;	/* its bins' widths */
	uint32_t nids;			/* diag data IDs asked for */
	uint64_t idv[DIAG_MAX_IDS];
	int ids[DIAG_MAX_IDS];		/* their DS_* sources */
	size_t retx_gen;		/* the histogram's at the last peek */
	struct dev_ctrs *ctrs;		/* the device's counters, or NULL */
	uint64_t *hvals;		/* a read of them */
	unsigned hgen;			/* ctrs->gen the columns were mapped at */
	uint64_t *hprev;		/* the read before */
	/* told after each row (watch), or NULL */
	void (*on_row)(void *ctx, const struct series *ser);
	void *on_row_ctx;
#define REC_H_MAX 20
	int hidx[REC_H_COUNT][REC_H_MAX];	/* the counters of each sum */
	uint64_t hscale[REC_H_COUNT];
	struct rec_snap prev;
	bool have_prev;			/* rec_baseline took prev */
	int64_t prev_t;			/* when (device ps) */
	int64_t read_ps;		/* what rec_baseline's read took, in
					 * device time (0 on the sim) */
	int64_t achieved_ps;		/* the last rec_capture's mean row
					 * interval, 0 without rows */
	int64_t wall0;			/* and on the wall clock (ns since
					 * the epoch): the series' start */
	uint64_t rtt_sum, rtt_num;	/* growth of SUM_RTT, NUM_RTT over
					 * the last rec_capture */
	bool rtt_unsure;		/* some interval's growth unknown:
					 * the sums are not the capture's */
};

/* The timeline columns (a bit per REC_C_* index) a device counter of
 * that name feeds when recording priority prio (-1: all); alt: those it
 * feeds only where their own counters lack (rx_bytes_phy for rx_gbps
 * without port_rcv_data).  The mapping of README's "Timeline columns".
 */
uint64_t rec_counter_columns(const char *name, int prio, bool alt);

/* Find the sources (device, counters' slot, histogram).  ids: diag data
 * IDs for extra columns (where the device has them).  prio: the pause
 * columns count that priority only (0..7), or -1 all.  A missing
 * counters' slot is a warning: the RTT and rate columns stay empty.
 */
int rec_open(struct recorder *r, struct session *s, const uint64_t *ids,
	     uint32_t nids, bool clear, int prio);
/* The same for device d of the session; prefix: its columns are named
 * PREFIX.column and t left to the first of several (rec_capture_n), or
 * NULL.
 */
int rec_open_dev(struct recorder *r, struct session *s, struct device *d,
		 const char *prefix, const uint64_t *ids, uint32_t nids,
		 bool clear, int prio);
void rec_close(struct recorder *r);
/* Add the columns to an empty series. */
int rec_columns(struct recorder *r, struct series *ser);
/* Record `dur` in steps of `every` (ps) of device time into ser; the
 * first step starts a new statistics window (the sim's summaries).  progress: a name to show on a
 * terminal for records longer than 1 s of wall time, or NULL.  *done:
 * the device time recorded.  An interrupted record keeps its rows and
 * returns -PCB_E_INTR.
 */
int rec_capture(struct recorder *r, struct series *ser, int64_t dur,
		int64_t every, const char *progress, int64_t *done);
/* The same for several recorders on one clock (their devices' clocks
 * are one: dev_clock): each interval runs the first one's clock once,
 * then reads every device; a row is t, then each recorder's columns in
 * order.
 */
int rec_capture_n(struct recorder **rs, size_t nr, struct series *ser,
		  int64_t dur, int64_t every, const char *progress,
		  int64_t *done);
/* Read the counters the next rec_capture starts from now (else it reads
 * them itself): before a traffic command starts, so that its first
 * packets count.
 */
int rec_baseline(struct recorder *r);

#endif
