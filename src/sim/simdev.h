/* simdev.h - the sim device's workload: a scenario, its simulator, and
 * the link to the device's firmware state.
 *
 * The scenario (and each algorithm model's options, `sim model`) are
 * kept next to the device file, $XDG_STATE_HOME/pccbench/sim/NAME.scenario,
 * so `sim scenario` in one pccbench and `sim run` in the next agree.  The
 * fabric itself (queues, flows in flight) lives in the process: a new
 * process starts from an empty network at t = 0.
 *
 * While running, every 100 us of simulated time the simulator's counters
 * are folded into the firmware's (for the slot that holds counter_en) and
 * parameter changes made by any process are picked up; each
 * retransmission timeout goes to the adp_retx histogram and the port
 * counters to the diagnostic-counter sampler (the sim's providers of
 * tel/, simtel.h), in steps that end where a diag sample is due.
 *
 * Ownership: simdev_open/simdev_close; the simfw stays the caller's.
 */
#ifndef PCCB_SIMDEV_H
#define PCCB_SIMDEV_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "err.h"
#include "sim/firmware.h"
#include "sim/sim.h"
#include "sim/simtel.h"

#define DIAG_DUE_UNKNOWN (-2)
#define SIMDEV_ALGOS 8		/* algo_registry's entries, at most */

struct simdev {
	struct simfw *fw;
	char *name;		/* device name after "sim:" */
	struct sim_cfg cfg;
	/* model options, per algorithm of algo_registry (same index) */
	uint32_t opts[SIMDEV_ALGOS][ALGO_MAX_OPTS];
	struct sim *sim;
	int slot;		/* algorithm slot the fabric runs, -1 none */
	const struct algo_ops *ops;
	uint32_t gen;
	char algo_label[96];
	struct sim_retx *retx_file;	/* adp_retx histogram: RTOs feed it */
	struct retx_dev *retx;	/* ... as tel/ sees it */
	size_t rto_seen;	/* RTOs of d->sim already recorded */
	struct sim_diag *diag_file;	/* diagnostic counters' sampler */
	struct diag_dev *diag;	/* ... as tel/ sees it */
	uint64_t diag_last[DS_COUNT];	/* d->sim's counters at the last feed */
	int64_t diag_t;		/* d->sim's time at the last feed, ps */
	int64_t diag_due;	/* next sample after diag_t, ps; -1 none */
	/* Per host NIC, this process's (simdev.c, "per host"): the host
	 * counters of the fabrics gone before the current one, and each
	 * counters slot's PPCC counters as the register keeps them for
	 * that NIC alone; nhost hosts (the most a fabric had), the
	 * arrays grown with them */
	struct sim_port_counters *hc_host;
	uint32_t (*pcc_host[SIMFW_SLOTS])[ALGO_MAX_COUNTERS];
	uint32_t nhost;
	/* NAME.hostctr: its path, made once (hc_path), and the counters
	 * last read from it with the file they came from (hc_load reads
	 * it again only when another inode, size or time stands there:
	 * every write replaces it by rename) */
	char *hc_file;
	bool hc_have;
	dev_t hc_dev;
	ino_t hc_ino;
	off_t hc_size;
	struct timespec hc_mtim;
	struct sim_port_counters hc_vals;
	/* told after every step of a run: simulated ps done of total */
	void (*progress)(void *ctx, int64_t done, int64_t total);
	void *progress_ctx;
};

int simdev_open(struct simdev **out, struct simfw *fw, const char *name,
		struct pcb_err *err);
void simdev_close(struct simdev *d);
/* The device's host counters: those kept with it (every fabric before
 * this one, in any process) plus this process's fabric's.  A NIC's
 * counters outlive the process that made the traffic; `sim show` and
 * `sim counters` stay the fabric's own, since it started.
 */
int simdev_host_counters(struct simdev *d, struct sim_port_counters *out,
			 struct pcb_err *err);
/* How many host NICs the fabric has (those simdev_host_counters sums). */
int simdev_nics(struct simdev *d, uint32_t *n, struct pcb_err *err);


/* ---- per host NIC ------------------------------------------------------
 *
 * Every host NIC of the fabric seen on its own: h0 .. hN-1 as the fabric
 * numbers them (sim_cfg_hosts(&d->cfg) of them; sim_hosts of a built
 * fabric).  Where it lives: in the process, with the simdev.  A NIC's
 * counters outlive its fabric here (a new scenario or `sim reset` keeps
 * them; host h of the next fabric adds to them), not the process: a new
 * process starts them from 0, and simdev_host_counters' file keeps the
 * fabric-wide sums alone.  So the hosts' counters sum to what this
 * process's fabrics added to simdev_host_counters (all of it for a
 * device whose state began in this process).
 */
/* Host NIC `host`'s own counters: sim_host_port_counters' fields (the
 * same as simdev_host_counters' sums, that NIC's alone; the switches'
 * and links' fields 0) of every fabric in this process.  -PCB_E_RANGE
 * for a host the scenario does not have (out all 0).
 */
int simdev_host_counters_of(struct simdev *d, uint32_t host,
			    struct sim_port_counters *out,
			    struct pcb_err *err);
/* Host NIC `host`'s PPCC counters of `slot`, vals[0..n-1] (n at most
 * ALGO_MAX_COUNTERS; the rest 0): the register's counters for that NIC
 * alone.  Folded as the register's are (every 100 us of simulated time
 * while the slot runs in the fabric with counter_en, simdev_run), with
 * the same indexes and rules: sums wrap to 0 past the counter's max,
 * MIN/MAX gauges keep the extreme; the register's counters are their
 * sums (short of wraps) and extremes over the hosts, since both were
 * last cleared.
 * -PCB_E_RANGE for a host the scenario does not have or a slot past
 * SIMFW_SLOTS.  simdev_host_pcc_clear zeroes one host's (a counters
 * query that clears, 0xD, on that NIC's view).
 */
int simdev_host_pcc_counters(struct simdev *d, uint32_t host, unsigned slot,
			     uint32_t *vals, size_t n, struct pcb_err *err);
void simdev_host_pcc_clear(struct simdev *d, uint32_t host, unsigned slot);
/* Host `host`'s retransmission timeouts in the current fabric (ps, in
 * order: as sim_rto_values for every host): up to max into vals; the
 * count of all.  0 with no fabric or no such host. */
size_t simdev_host_rto_values(struct simdev *d, uint32_t host,
			      int64_t *vals, size_t max);
/* Host `host`'s counters in the current fabric as the diag data IDs'
 * sources (cumulative; simdev_diag_sources for one NIC). */
void simdev_host_diag_sources(const struct sim *s, uint32_t host,
			      uint64_t v[DS_COUNT]);
/* Host `host`'s part in the scenario, sim_cfg_role's: "receiver",
 * "sender", "both", "rank", "idle"; NULL for a host it does not have.
 * simdev_roles: the scenario's in one line, "receiver h16; senders
 * h0-h15", as `sim scenario` and `sim show` print it after "hosts";
 * -PCB_E_RANGE when buf is too short (buf holds what fits).
 */
const char *simdev_host_role(struct simdev *d, uint32_t host);
int simdev_roles(struct simdev *d, char *buf, size_t len,
		 struct pcb_err *err);
/* Per-host PPCC parameter overrides (sim:NAME/hN's writes): host NIC
 * `host` runs its own value of param idx of slot, the register's (the
 * fleet's, sim:NAME's, unchanged) for the rest and their later changes.
 * Its QPs run it while the slot runs in the fabric, from the next event
 * on; kept with the firmware state (NAME.hosts, firmware.h: every
 * process and every later fabric runs it, a write by another process is
 * picked up as a register write is) until simdev_host_param_reset.  A
 * value equal to the register's drops the override.  A set the firmware would
 * ignore (read-only, outside min..max: simfw_param_settable) is refused
 * with one line, -PCB_E_RANGE, as are a host the scenario does not have,
 * a slot past SIMFW_SLOTS or an empty one; -PCB_E_NOMEM.  Nothing changes
 * on error.
 */
int simdev_host_param_set(struct simdev *d, uint32_t host, unsigned slot,
			  unsigned idx, uint32_t value, struct pcb_err *err);
/* Host `host`'s own params of slot dropped: the register's again. */
void simdev_host_param_reset(struct simdev *d, uint32_t host, unsigned slot);
/* The params of slot host `host`'s NIC runs: the register's
 * (simfw_params: *n of them, at most max), its own where it has one;
 * *own the bits of those (NULL: not wanted).  -PCB_E_RANGE as above. */
int simdev_host_params(struct simdev *d, uint32_t host, unsigned slot,
		       uint32_t *vals, size_t max, size_t *n, uint64_t *own,
		       struct pcb_err *err);

/* "KIND key value ..." onto the defaults, all or nothing (no device). */
int simdev_parse_scenario(struct sim_cfg *out, const char *kind, int argc,
			  char **argv, struct pcb_err *err);
/* Change the scenario and drop the fabric: "KIND k v ..." of the current
 * kind changes those keys and keeps the rest, of another kind starts from
 * its defaults; "KIND fresh k v ..." starts from KIND's defaults whatever
 * came before; "k v ..." alone changes the current one; "reset" goes
 * back to the default scenario.  kept: the "k v" pairs a KIND kept from
 * before that differ from its defaults ("pfc off buffer 4MB"), or "".
 */
int simdev_scenario(struct simdev *d, const char *kind, int argc,
		    char **argv, char *kept, size_t klen,
		    struct pcb_err *err);
/* The algorithm `sim model` means when none is named: the active
 * slot's, else ZTR-RTT. */
const struct algo_ops *simdev_model_algo(struct simdev *d);
/* ops's model options, as set (its defaults until then). */
const uint32_t *simdev_opts(const struct simdev *d,
			    const struct algo_ops *ops);
/* Set a model option of algorithm ops ("target", "hai"). */
int simdev_model(struct simdev *d, const struct algo_ops *ops,
		 const char *key, const char *value, struct pcb_err *err);
int simdev_run(struct simdev *d, int64_t dur_ps,
	       volatile sig_atomic_t *stop, struct pcb_err *err);
/* The same, extending the statistics window of the last run. */
int simdev_run_more(struct simdev *d, int64_t dur_ps,
		    volatile sig_atomic_t *stop, struct pcb_err *err);
/* simdev_run with two threads (sim_run_par: what it refuses, nothing
 * run); the halves then join, and later runs go on with one thread
 * (sim_par_finish). */
int simdev_run_par(struct simdev *d, int64_t dur_ps,
		   volatile sig_atomic_t *stop, struct pcb_err *err);
void simdev_reset(struct simdev *d);
/* The fabric's counters as the diag data IDs' sources (cumulative). */
void simdev_diag_sources(const struct sim *s, uint64_t v[DS_COUNT]);
/* The fabric, built on first use. */
int simdev_sim(struct simdev *d, struct sim **out, struct pcb_err *err);

#endif
