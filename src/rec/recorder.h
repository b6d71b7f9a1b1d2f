/* recorder.h - one timeline from every source a device has.
 *
 * On the sim device each interval advances simulated time, then reads
 * the PCC counters (the slot holding counter_en), the fabric's port
 * counters, the retransmission histogram and any diag data IDs asked
 * for.  On a real NIC each interval waits wall time (optionally while a
 * traffic command runs), reads the PCC counters through the register
 * transport and the host's counters (rec/hostctr.h: the RDMA port's
 * hw_counters and counters, the netdev's ethtool statistics): CNP, ECN,
 * bytes, PFC pauses (rx+tx_prioN_pause) and discards (rx+tx_discards_phy);
 * a column without a source there stays missing, named once in a warning;
 * retx bins stay missing there.  Rates are per second of
 * device time; an interval without RTT samples has no average RTT
 * (missing, never 0).  `record` and `sweep` both record through here.
 *
 * Column names are stable (rec_col_names); units go in the series header.
 * Ownership: rec_open/rec_close; the session and its devices stay the
 * caller's.
 */
#ifndef PCCB_RECORDER_H
#define PCCB_RECORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "rec/hostctr.h"
#include "rec/series.h"
#include "run.h"
#include "session.h"
#include "sim/sim.h"
#include "tel/diag.h"
#include "tel/retx.h"

enum { REC_C_T, REC_C_AVG_RTT, REC_C_MIN_RTT, REC_C_MAX_RTT, REC_C_MIN_RATE,
       REC_C_MAX_RATE, REC_C_AI, REC_C_HAI, REC_C_DEC, REC_C_HYPER,
       REC_C_TXDEC, REC_C_CNP_H, REC_C_CNP_S, REC_C_ECN, REC_C_RX, REC_C_TX,
       REC_C_PAUSES, REC_C_DROPS, REC_C_FIXED };

/* The fixed columns, in order: name and unit. */
extern const struct series_col rec_fixed_cols[REC_C_FIXED];

enum { REC_K_SUM, REC_K_NUM, REC_K_MIN_RTT, REC_K_MAX_RTT, REC_K_MIN_RATE,
       REC_K_MAX_RATE, REC_K_AI, REC_K_HAI, REC_K_DEC, REC_K_HYPER,
       REC_K_TXDEC, REC_K_COUNT };

/* What a real host's counters give the timeline (sums of named
 * counters, hostctr.h); UINT64_MAX: no source.
 */
enum { REC_H_CNP_H, REC_H_CNP_S, REC_H_ECN, REC_H_RX_BYTES, REC_H_TX_BYTES,
       REC_H_PAUSES, REC_H_DROPS, REC_H_COUNT };

struct rec_snap {
	uint32_t pcc[ALGO_MAX_COUNTERS];
	uint64_t host[REC_H_COUNT];	/* a real host's, see above */
	uint64_t ds[DS_COUNT];		/* the diag data IDs' sources */
	struct sim_port_counters port;
	uint64_t bins[RETX_MAX_BINS];
};

struct recorder {
	struct session *s;
	struct simdev *d;		/* NULL on a real NIC */
	int slot;			/* PCC counters' slot, -1 none */
	int kidx[REC_K_COUNT];		/* counter index, -1 absent */
	bool clear;			/* get-and-clear the PCC counters */
	bool retx;			/* histogram running: bins columns */
	uint32_t nbins;
	struct retx_cfg retx_cfg;	/* its bins' widths */
	uint32_t nids;			/* diag data IDs asked for */
	uint64_t idv[DIAG_MAX_IDS];
	int ids[DIAG_MAX_IDS];		/* their DS_* sources */
	size_t rto_peeked;		/* the sim's RTO count at the last peek */
	struct hostctr *host;		/* real NIC: its counters, or NULL */
	uint64_t *hvals;		/* a read of them */
	/* told after each row (watch), or NULL */
	void (*on_row)(void *ctx, const struct series *ser);
	void *on_row_ctx;
#define REC_H_MAX 17
	int hidx[REC_H_COUNT][REC_H_MAX];	/* the counters of each sum */
	uint64_t hscale[REC_H_COUNT];
	struct run_bg *traffic;		/* `while` command, or NULL */
	const char *traffic_log;	/* where its output goes */
	struct rec_snap prev;
	bool have_prev;			/* rec_baseline took prev */
	double prev_w;			/* when (monotonic s) */
	uint64_t rtt_sum, rtt_num;	/* growth of SUM_RTT, NUM_RTT over
					 * the last rec_capture */
};

/* Find the sources (device, counters' slot, histogram).  ids: diag data
 * IDs for extra columns (the sim device only).  A missing counters' slot
 * is a warning: the RTT and rate columns stay empty.
 */
int rec_open(struct recorder *r, struct session *s, const uint64_t *ids,
	     uint32_t nids, bool clear);
void rec_close(struct recorder *r);
/* Add the columns to an empty series. */
int rec_columns(struct recorder *r, struct series *ser);
/* Record `dur` in steps of `every` (ps) into ser.  On the sim the first
 * step starts a new statistics window.  progress: a name to show on a
 * terminal for records longer than 1 s of wall time, or NULL.  *done:
 * the device time recorded.  An interrupted record keeps its rows and
 * returns -PCB_E_INTR.
 */
int rec_capture(struct recorder *r, struct series *ser, int64_t dur,
		int64_t every, const char *progress, int64_t *done);
/* Read the counters the next rec_capture starts from now (else it reads
 * them itself): before a traffic command starts, so that its first
 * packets count.
 */
int rec_baseline(struct recorder *r);

/* Wait wall time (a real NIC's warmup): an interrupt or a failed traffic
 * command ends it with an error.
 */
int rec_wait(struct recorder *r, double seconds);

#endif
