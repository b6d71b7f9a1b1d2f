/* device.h - the device: what pccbench runs against, beyond its register
 * transport.  A session holds several (`dev open`), one of them current;
 * the sim device (dev_sim.c) and real NICs (dev_nic.c) each implement
 * it, and every command that records, sweeps, waits or reads telemetry
 * goes through here without asking which kind it has.
 *
 * - a clock: device time, in ps.  The sim device's runs its fabric (run
 *   = simulate that much; a new statistics window when asked); a real
 *   NIC's is the monotonic wall clock since the device was opened (run =
 *   wait, watching a traffic command).  Ctrl-C stops both.
 * - a counter source: a named snapshot of the host's counters in the
 *   kernel's and ethtool's vocabulary (rp_cnp_handled, rx_prio3_pause,
 *   port_rcv_data, ...), the same names with the same meaning on both
 *   (README: "Timeline columns").  What the device does not have is not
 *   in the snapshot (a column from it stays empty), never a 0.
 * - telemetry providers: the adaptive-retransmission histogram, the
 *   diagnostic-counter sampler and the data IDs' sources; each may be
 *   -PCB_E_STATE "NOT_SUPPORTED on DEV (why)".
 * - a workload: either one that replays from a seed (DEV_T_REPLAY: the
 *   sim's scenario; a run can start afresh, in another process on a copy
 *   of the device) or traffic a program makes beside it (DEV_T_TRAFFIC:
 *   `while 'ib_write_bw ...'`).
 *
 * The device owns its state: its register transport, PPCC handle and
 * layout with the slot views read from it, its telemetry contexts, host
 * counters and their last reads, its identity, journal and lock.  It
 * knows nothing of the session: it reads the options it needs through a
 * struct dev_opts and reports into the error it was made with.  A device
 * opens itself on first use (dev_open: transport, device kind, PPCC
 * layout, journal), so every function below may fail with that error.
 *
 * Ownership: dev_new/dev_free (the session holds a list of them, open.c);
 * everything a function hands out stays the device's.
 */
#ifndef PCCB_DEVICE_H
#define PCCB_DEVICE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <signal.h>

#include "desc.h"
#include "err.h"
#include "journal.h"
#include "ppcc.h"
#include "tel/diag.h"

struct param_view {
	unsigned index;
	struct ppcc_info info;		/* from the device */
	const struct algo_param_desc *desc;	/* NULL when unknown */
	enum algo_ptype type;
	const char *units;
};

struct counter_view {
	unsigned index;
	struct ppcc_info info;
	const struct algo_counter_desc *desc;
};

struct slot_view {
	bool loaded;
	uint32_t algo_num;		/* id[31:16] major[15:8] minor[7:0] */
	char name[224], descr[224];
	const struct algo_desc *desc;	/* matched descriptor or NULL */
	size_t nparams;
	struct param_view *params;
	size_t ncounters;
	struct counter_view *counters;
};

/* What a device reads of the session's options (the session's own,
 * changed by `set` and the command line while the device is open).
 */
struct dev_opts {
	char *backend;		/* --backend sim|mstreg, NULL: by name */
	int fwctl_scope;	/* --fwctl-scope: the widest fwctl write
				 * scope allowed (FWCTL_RPC_*; 0 is
				 * CONFIGURATION, which taints nothing) */
	char *mstreg_prog;	/* --mstreg PATH */
	int timeout_ms;		/* backend program timeout */
	char *telemetry;	/* --telemetry doca|native|none, or NULL:
				 * the device's choice (dev_nic.c) */
	volatile sig_atomic_t *stop;	/* set by SIGINT, or NULL */
	FILE *errfp;		/* warnings */
};

struct retx_dev;
struct diag_dev;
struct retx_cfg;
struct pcc_prov;

/* What a device is like, for the commands that must plan around it. */
enum {
	DEV_T_CONFIRM = 0x1,	/* writes change hardware: ask first */
	DEV_T_CACHE = 0x2,	/* reading algorithm descriptions is slow:
				 * keep them between sessions */
	DEV_T_REPLAY = 0x4,	/* the workload replays from a seed */
	DEV_T_TRAFFIC = 0x8,	/* traffic is a program run beside it */
};

/* A counter snapshot's source.  n names, each read as a 64-bit count
 * (UINT64_MAX: could not be read this time).  n and the names stay as
 * they are until the next dev_ctrs(); a read that finds the device's
 * set changed (a NIC driver's ethtool statistics) counts gen up, says
 * so once, and reads what is gone as missing: dev_ctrs() again gives
 * the new set.
 */
struct dev_ctrs {
	size_t n;
	unsigned gen;
	const char *(*name)(const struct dev_ctrs *c, size_t i);
	int (*read)(struct dev_ctrs *c, uint64_t *vals, struct pcb_err *err);
	/* a counter's largest value, past which it wraps (mlx5's 32-bit
	 * Q-counters); NULL: every one 64 bits */
	uint64_t (*max)(const struct dev_ctrs *c, size_t i);
	char where[192];	/* what is counted, for headers */
	unsigned port;		/* the NIC port counted; 0: none, or the
				 * sim's hosts summed */
	unsigned nics;		/* NICs each counter sums: 0 or 1 one
				 * port's; more: an aggregate, whose
				 * timeline units say so */
	char warn[256];		/* what could not be opened, or "" */
	const char *unmodeled;	/* columns the device does not model by
				 * design ("adp_retrans,..."), or NULL */
};

/* A host's counters (host/hostctr.h) as a counter source: a real NIC's,
 * or those of another handle (`counter show host mlx5_1`).
 */
struct hostctr;
struct dev_host_ctrs {
	struct dev_ctrs c;		/* first: the source itself */
	struct hostctr *h;
	FILE *errfp;			/* where a change is said */
};
void dev_host_ctrs_init(struct dev_host_ctrs *hc, struct hostctr *h,
			FILE *errfp);

/* The run summaries a replaying device gives (sweep measures). */
enum { DEV_S_UTIL, DEV_S_JAIN, DEV_S_QMEAN, DEV_S_QP99, DEV_S_QMAX,
       DEV_S_RTTMEAN, DEV_S_RTTP99, DEV_S_RTOS, DEV_S_FCTP50, DEV_S_FCTP99,
       DEV_S_COLL, DEV_S_BUSBW, DEV_S_COUNT };
struct dev_col {
	const char *name, *unit;
	/* a run without a value outlasted its window (no collective
	 * finished in it): its value exists and is larger than any of a
	 * run that has one, so a mean over runs is of every run's or none
	 * (sw_repeats_ci) */
	bool whole;
};
extern const struct dev_col dev_summary_cols[DEV_S_COUNT];

struct device;
struct dev_ops {
	const char *kind;		/* "sim", "nic" */
	unsigned traits;
	int64_t tick;			/* a refresh interval its clock suits */
	void (*close)(struct device *d);
	int64_t (*now)(struct device *d);
	/* until device time `until` (ps) */
	int (*run_until)(struct device *d, int64_t until, bool window,
			 struct pcb_err *err);
	int (*ctrs)(struct device *d, struct dev_ctrs **out,
		    struct pcb_err *err);
	int (*retx)(struct device *d, struct retx_dev **out,
		    struct pcb_err *err);
	/* the histogram's bins when they may have changed since *gen */
	bool (*retx_peek)(struct device *d, size_t *gen, struct retx_cfg *cfg,
			  bool *running, uint64_t *bins);
	int (*diag)(struct device *d, struct diag_dev **out,
		    struct pcb_err *err);
	int (*diag_sources)(struct device *d, uint64_t v[DS_COUNT],
			    struct pcb_err *err);
	/* who serves pcc: *ops NULL = the PPCC register (NULL op: same) */
	int (*pcc)(struct device *d, const struct pcc_prov **ops, void **p,
		   struct pcb_err *err);
	/* the IDs diag_sources is read for next (NULL: it has them all) */
	int (*diag_watch)(struct device *d, const uint64_t *ids, uint32_t n,
			  struct pcb_err *err);
	int (*summary)(struct device *d, double v[DEV_S_COUNT],
		       struct pcb_err *err);
	int (*workload)(struct device *d, char *buf, size_t len,
			uint64_t *seed, struct pcb_err *err);
	int (*replay)(struct device *d, int argc, char **argv, uint64_t seed,
		      struct pcb_err *err);
	int (*traffic_start)(struct device *d, char **argv, const char *log,
			     struct pcb_err *err);
	int (*traffic_stop)(struct device *d, struct pcb_err *err);
	int (*copy)(struct device *d, const char *dir, struct pcb_err *err);
	void (*meta)(struct device *d, FILE *fp);
	/* "key", "value" pairs for `dev show`; how many */
	size_t (*info)(struct device *d, const char *kv[][2], size_t max);
	/* the params of slot a host NIC holds as its own (bit i: param i),
	 * the rest its fabric's (NULL: none are, as on a NIC) */
	int (*own)(struct device *d, unsigned slot, uint64_t *mask,
		   struct pcb_err *err);
	/* its clock's identity: devices of one clock run together */
	const char *(*clock)(struct device *d);
	/* checks once the transport is open (NULL: none) */
	int (*opened)(struct device *d, struct pcb_err *err);
	/* the PCC counters of slot as ppcc_counters reads them (NULL: the
	 * register's) */
	int (*pcc_counters)(struct device *d, unsigned slot, bool clear,
			    uint32_t *vals, size_t max, size_t *n,
			    struct pcb_err *err);
};

struct tel_retx;
struct tel_diag;
struct device {
	const struct dev_ops *ops;	/* its kind's, once opened, or NULL */
	void *priv;			/* its kind's state */
	char *name;		/* as named: sim:x, mlx5_0, 0000:08:00.0 */
	char devid[80];		/* canonical identity: sim:NAME, PCI
				 * address (BDF-pN: local_port N > 1),
				 * sim:NAME/hN */
	char regid[80];		/* whose PPCC register, journal and lock
				 * it has: its own, or sim:NAME for a
				 * host */
	int hostno;		/* sim:NAME/hN: N, else -1 */
	const struct dev_opts *opt;	/* the session's options */
	struct pcb_err *err;		/* where it reports */
	struct reg_dev *dev;		/* the register transport */
	struct ppcc ppcc;
	bool have_ppcc;
	struct slot_view slots[PPCC_SLOTS];
	uint32_t info_arr[PPCC_SLOTS];	/* last algo info array (0x10) */
	bool info_valid;
	struct journal *journal;
	int lock_fd;		/* the lock's file, -1 until needed */
	unsigned lock_depth;	/* dev_lock nesting */
	struct tel_retx *retx;	/* the adp_retx context, lazily */
	struct tel_diag *diag;	/* the diag context, lazily */
	bool diag_kept;		/* its state replayed from an earlier
				 * process */
	struct hostctr *host;	/* `counter show host`'s source, lazily */
	uint64_t *host_prev;	/* its last values: deltas since then */
	char host_key[80];	/* whose: a handle, or "" the device's */
	size_t host_n;		/* host_prev's count and the names' gen */
	unsigned host_gen;
	uint32_t *ctr_prev;	/* `counter show`'s last read (or the 0s of
				 * `counter clear`), or NULL */
	unsigned ctr_prev_slot;	/* its slot */
	struct device *next;	/* the session's list */
};

/* A device named name (unopened: it opens on first use), reading opt and
 * reporting into err; NULL out of memory.
 */
struct device *dev_new(const char *name, const struct dev_opts *opt,
		       struct pcb_err *err);
/* Close it (its telemetry contexts released, sampling going on) and free
 * it; NULL is nothing.
 */
void dev_free(struct device *d);
/* Open it, once: the transport, the device of its kind, the PPCC handle,
 * the journal (an unclean journal said as a warning).
 */
int dev_open(struct device *d);
/* Is it open? */
bool dev_is_open(const struct device *d);
/* The device lock: one advisory lock per device identity, shared by
 * every pccbench process, held across each read-modify-write-read-back
 * (and a whole restore), so two processes never lose each other's writes.
 * Nests.  Taking it re-reads the journal, whose sequence numbers are then
 * this process's to give.  Waits while another holds it (saying so after
 * a second), up to a minute; Ctrl-C stops the wait.
 */
int dev_lock(struct device *d);
/* May the device's PPCC params be written through it?  (A sim host,
 * sim:NAME/hN, may: its NIC's own values, firmware.h.)  The device
 * opened, or its error.
 */
int dev_write_check(struct device *d);
/* May a slot be enabled or disabled (or debug mode entered) through it?
 * A sim host shares sim:NAME's slots: an error naming where to write.
 */
int dev_slot_write_check(struct device *d);
/* Whose register a sim device's transport answers as: host N's NIC's
 * (sim:NAME/hN's own, from its open on) or -1 the shared one, sim:NAME's
 * (always -1 on a NIC).  dev_view_set: answer as host's (an undo of a
 * write through a host, on any device of the fabric); the one before.
 */
int dev_view(struct device *d);
int dev_view_set(struct device *d, int host);
/* Which params of slot the device holds as its own, bit i param i: a sim
 * host's written through it (kept while the shared value changes, even
 * to the same), 0 on every other device.
 */
int dev_own_params(struct device *d, unsigned slot, uint64_t *mask);
void dev_unlock(struct device *d);
/* Write a warning line ("warning: ...") where the device says them. */
void dev_warn(const struct device *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* mstconfig, or mlxconfig beside MFT's mlxreg; $PCCBENCH_MSTCONFIG wins. */
const char *dev_nvc_prog(const struct dev_opts *o);
/* A BlueField's host PF whose PPCC the host may not reach: DPU mode with a
 * restricted host, where PPCC belongs to the Arm side.  One read says
 * whether this host may; when refused, mstconfig's INTERNAL_CPU_MODEL
 * says whether it is DPU mode, and the error says so.  0 for any other
 * device.
 */
/* The canonical identity (sim:NAME, a PCI address) of a device name. */
void dev_identity(const char *devname, char *out, size_t len);

/* Its clock's identity ("sim:NAME": a fabric's simulated time, shared by
 * its hosts; "wall": a NIC of this host), NULL when it cannot open.
 * Devices of one clock record one timeline together.
 */
const char *dev_clock(struct device *d);
/* The PCC counters of slot (ppcc_counters; a sim host's its own). */
int dev_pcc_counters(struct device *d, unsigned slot, bool clear,
		     uint32_t *vals, size_t max, size_t *n);
unsigned dev_traits(struct device *d);
const char *dev_kind(struct device *d);

/* A refresh interval (ps) the device's clock suits (watch). */
int64_t dev_tick(struct device *d);
/* Device time now (ps). */
int64_t dev_now(struct device *d);
/* Let `ps` of device time pass; window: a new statistics window starts
 * (the sim's summaries cover what follows).  wall: wall time on any
 * device (`sleep 1s wall`).
 */
int dev_run(struct device *d, int64_t ps, bool window);
/* The same until device time `until`: on a real NIC a schedule that
 * does not drift by what reading the counters takes.
 */
int dev_run_until(struct device *d, int64_t until, bool window);
int dev_advance(struct device *d, int64_t ps, bool wall);

int dev_ctrs(struct device *d, struct dev_ctrs **out);
/* The index of a counter, or -1. */
int dev_ctr_find(const struct dev_ctrs *c, const char *name);

int dev_retx(struct device *d, struct retx_dev **out);
/* The histogram's configuration and bins; false when unchanged since
 * *gen (then bins are untouched) or when the device has none.
 */
bool dev_retx_peek(struct device *d, size_t *gen, struct retx_cfg *cfg,
		   bool *running, uint64_t *bins);
int dev_diag(struct device *d, struct diag_dev **out);
/* Who serves the pcc context: *ops NULL = the PPCC register, else a
 * provider (tel/pcc.h) on *p, the device's.
 */
int dev_pcc(struct device *d, const struct pcc_prov **ops, void **p);
/* The diag data IDs' sources (cumulative, DS_*). */
int dev_diag_sources(struct device *d, uint64_t v[DS_COUNT]);
/* The data IDs a recorder reads through dev_diag_sources from now on: a
 * device that samples them on demand (a NIC through DOCA) sets them up;
 * the sim measures them all anyway.
 */
int dev_diag_watch(struct device *d, const uint64_t *ids, uint32_t n);

/* A replaying device's summary of its last window. */
int dev_summary(struct device *d, double v[DEV_S_COUNT]);
/* Its workload as words ("incast senders 16 ..."), and seed. */
int dev_workload(struct device *d, char *buf, size_t len, uint64_t *seed);
/* Start afresh at t = 0 running the workload argv (KIND key value ...)
 * with seed, in this process only.
 */
int dev_replay(struct device *d, int argc, char **argv, uint64_t seed);
/* A workload's words checked without a device (a saved sweep); its
 * seed.
 */
int dev_workload_check(int argc, char **argv, uint64_t *seed,
		       struct pcb_err *err);
/* The kinds of workload ("incast, staircase, ..."). */
const char *dev_workload_kinds(void);
/* The keys a workload of that kind takes ("senders, rate, ..."), or NULL
 * for no such kind.
 */
const char *dev_workload_keys(const char *kind);
/* What a workload costs: CPU s per device s, roughly. */
double dev_workload_cost(int argc, char **argv);

/* A traffic command runs while the device's clock runs: its output goes
 * to log; a command that fails ends the run with an error.  Stopping it
 * returns rc (and keeps its error) when rc is one, else an error when
 * the command could not run at all.
 */
int dev_traffic_start(struct device *d, char **argv, const char *log);
int dev_traffic_stop(struct device *d, int rc);

/* A copy of a replaying device's state under the state directory dir
 * (dir/pccbench/...), for a process whose XDG_STATE_HOME is dir.
 */
int dev_copy(struct device *d, const char *dir);
/* Extra members of a series' metadata (",\"seed\":1,..."). */
void dev_meta(struct device *d, FILE *fp);
size_t dev_info(struct device *d, const char *kv[][2], size_t max);

#endif
