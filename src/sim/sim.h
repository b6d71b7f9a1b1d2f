/* sim.h - the packet-level fabric simulator behind the sim device.
 *
 * A scenario (incast, staircase, permutation, mix, allreduce, alltoall)
 * builds hosts with one RoCE NIC each and output-queued switches;
 * every sender QP runs the active algorithm of the sim device with its
 * current parameters.  Time
 * is int64 picoseconds; one event order by (time, type, id),
 * kept by a timing wheel in front of a heap; one seeded RNG; nothing
 * reads the wall clock, so the same configuration and seed give
 * bit-identical results.
 *
 * The device view: all simulated NICs use the device's PPCC slot and
 * parameters (a fabric-wide setting, as an engineer rolls it out; a NIC
 * may run some of its own, sim_host_params), and the device's counters
 * are fabric-wide sums (minima and maxima for gauges).  Each host NIC's
 * own are kept beside them (sim_host_port_counters,
 * sim_host_algo_counters, sim_rto_hosts): the views of sim:NAME/hN.
 *
 * Ownership: sim_create returns a simulator freed with sim_free.  The
 * algorithm descriptor passed in must outlive it.
 */
#ifndef PCCB_SIM_H
#define PCCB_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "algo.h"
#include "err.h"

#define PS_PER_NS 1000LL
#define PS_PER_US 1000000LL
#define PS_PER_MS 1000000000LL

enum sim_kind { SIM_INCAST, SIM_STAIRCASE, SIM_PERMUTATION, SIM_MIX,
		SIM_ALLREDUCE, SIM_ALLTOALL, SIM_NKINDS };

/* The kinds that run on a leaf-spine or fat tree (topo.c's fabrics). */
static inline bool sim_kind_fabric(enum sim_kind k)
{
	return k == SIM_PERMUTATION || k == SIM_MIX || k == SIM_ALLREDUCE ||
	       k == SIM_ALLTOALL;
}

enum { SIM_COLL_RING, SIM_COLL_TREE };

struct sim_cfg {
	enum sim_kind kind;
	uint32_t senders;	/* incast, staircase: N */
	uint32_t rate_gbps;	/* host links (and fabric links unless
				 * fabric_gbps or oversub is set) */
	uint32_t mtu;		/* payload bytes: 1024 or 4096 */
	int64_t delay_ps;	/* per link */
	uint64_t buffer;	/* bytes per switch */
	uint64_t kmin, kmax;	/* ECN, bytes */
	uint32_t pmax;		/* fxp16 */
	bool ecn_dequeue;
	bool ecn_on;
	bool pfc;
	uint32_t loss;		/* per-link drop probability, fxp32 */
	uint64_t seed;
	bool jitter;		/* incast: jittered start (else synchronized) */
	int64_t jitter_ps;
	uint64_t size;		/* incast: bytes per flow, 0 = long-lived */
	int64_t step_ps;	/* staircase: join/leave interval */
	uint32_t leaves, spines, hosts_per_leaf;	/* leaf-spine */
	uint32_t load;		/* mix: percent of host link capacity */
	uint32_t longflows;	/* mix: long-lived background flows */
	int dist;		/* mix: 0 websearch, 1 hadoop */
	/* RoCE transport (dcqcn-pfc.md section 4): the QP's local ACK
	 * timeout 4.096 us * 2^timeout (0: none), adaptive retransmission
	 * (SIM_ADP_AUTO: on where packets can be lost), an AckReq every
	 * 2^ackreq packets, the responder's coalescing */
	uint32_t timeout;
	int adp_retx;		/* SIM_ADP_* */
	uint32_t ackreq;
	int64_t cnp_interval_ps;
	uint32_t ack_every;	/* data packets per ACK */
	/* permutation and mix fabrics (topo.c): leaf-spine or a k-ary fat
	 * tree; `rate` and `delay` are the host links', fabric_gbps and
	 * fabric_delay_ps the switch-to-switch links' (0: as the hosts');
	 * oversub N makes a leaf's uplinks carry 1/N of its hosts' capacity
	 * (their speed follows; 0: off) */
	int topo;			/* SIM_TOPO_* */
	uint32_t k;			/* fat tree arity */
	uint32_t rails;			/* rail-optimised: NICs per server */
	uint32_t fabric_gbps;
	int64_t fabric_delay_ps;
	uint32_t oversub;
	/* mix: a periodic incast on top (0: none), HPCC's Fig. 11 */
	int64_t incast_period_ps;
	uint32_t incast_senders;
	uint64_t incast_size;
	/* switch buffer (buffer.c): dynamic threshold alpha = 2^alpha_log2
	 * of the free shared buffer (SIM_ALPHA_AUTO: 1/8 for the PFC Xoff,
	 * 1 for a lossy egress queue), the reserve of each ingress (PFC)
	 * or egress (lossy) queue and each ingress port's headroom
	 * (SIM_AUTO: computed), the Xon offset below Xoff */
	int32_t alpha_log2;
	uint64_t reserve, headroom;
	uint64_t xon_offset;
	/* data priorities: the mix's periodic incast on incast_prio (a
	 * second data priority when not 3), PFC on the priorities of
	 * pfc_prios (a bit per priority; 0: every data priority) */
	uint32_t incast_prio;
	uint32_t pfc_prios;
	/* a PFC storm (0: none): at this time the receiving host's NIC (an
	 * incast's receiver, host 0 otherwise) stops draining, as a hung
	 * host does, and pauses its switch port for good */
	int64_t storm_at_ps;
	/* collectives (collective.c): ranks on hosts 0..ranks-1, `size`
	 * bytes per rank's buffer, the all-reduce's algorithm, back-to-back
	 * iterations */
	uint32_t ranks;
	uint64_t coll_size;
	int coll_algo;		/* SIM_COLL_* */
	uint32_t iters;
};

enum { SIM_TOPO_LEAFSPINE, SIM_TOPO_FATTREE, SIM_TOPO_RAIL };
#define SIM_ALPHA_AUTO INT32_MAX
#define SIM_AUTO UINT64_MAX

enum { SIM_ADP_OFF, SIM_ADP_ON, SIM_ADP_AUTO };

/* The QP timeout in ps; INT64_MAX for timeout 0 (none). */
static inline int64_t sim_qp_timeout_ps(const struct sim_cfg *c)
{
	if (!c->timeout)
		return INT64_MAX;
	return (int64_t)4096 * PS_PER_NS << c->timeout;
}

/* Defaults: the standard case, 64:1 incast at 400 Gb/s, 4 KB MTU, 1 us. */
void sim_cfg_default(struct sim_cfg *c);
const char *sim_kind_name(enum sim_kind k);
/* Every kind's name, comma separated. */
const char *sim_kind_list(void);
int sim_kind_parse(const char *name, enum sim_kind *k);
/* One `key value`; unknown keys and bad values are refused with the list
 * of valid keys.  Nothing changes on error.
 */
int sim_cfg_set(struct sim_cfg *c, const char *key, const char *value,
		struct pcb_err *err);
/* "key value key value ..." as the command line shows it. */
size_t sim_cfg_format(const struct sim_cfg *c, char *buf, size_t len);
/* Valid keys for a kind, comma separated. */
const char *sim_cfg_keys(enum sim_kind k);
/* The checks between keys, once they are all set (a key alone cannot
 * know: hosts x leaves, a fat tree's k, oversubscription's uplink speed,
 * the headroom's minimum); nothing changes.
 */
int sim_cfg_check(const struct sim_cfg *c, struct pcb_err *err);
/* The hosts a scenario has (h0 .. hN-1), and each one's part in it:
 * "receiver" or "sender" (incast, staircase: the senders h0..hN-2, the
 * receiver the last), "both" (permutation, mix: every host sends and
 * receives), "rank" or "idle" (collectives: ranks on h0..), NULL for a
 * host it does not have.  sim_cfg_roles: the whole in one line, "receiver
 * h16; senders h0-h15" (a storm's host named too); its length.
 */
uint32_t sim_cfg_hosts(const struct sim_cfg *c);
const char *sim_cfg_role(const struct sim_cfg *c, uint32_t h);
size_t sim_cfg_roles(const struct sim_cfg *c, char *buf, size_t len);
/* The least headroom a switch port of c needs, bytes (buffer.c). */
uint64_t sim_headroom_min(const struct sim_cfg *c);
/* PFC on priority prio in c (buffer.c). */
bool sim_pfc_on(const struct sim_cfg *c, uint32_t prio);
/* The fabric links' ps per byte (fabric_gbps's, oversub's or rate's);
 * 0 when oversub asks for a speed of no whole ps per byte. */
uint32_t sim_fabric_ppb(const struct sim_cfg *c);

/* The congestion control every NIC runs. */
struct sim_algo {
	const struct algo_ops *ops;	/* NULL: no CC, line rate */
	const struct algo_desc *desc;
	struct algo_conf conf;		/* params, options, counter maxima */
	bool counters_on;
};

struct sim;

int sim_create(struct sim **out, const struct sim_cfg *cfg,
	       const struct sim_algo *algo, struct pcb_err *err);
void sim_free(struct sim *s);

/* Advance simulated time by dur; stops early (returning -PCB_E_INTR)
 * when *stop becomes non-zero.  Statistics cover the latest run.
 */
int sim_run(struct sim *s, int64_t dur_ps, volatile sig_atomic_t *stop);
/* The same, continuing the current statistics window. */
int sim_run_more(struct sim *s, int64_t dur_ps, volatile sig_atomic_t *stop);
/* The same with two threads (par.c): fresh as sim_run, else as
 * sim_run_more, on a permutation or mix fabric of one data priority
 * without outputs (anything else refused, in err, nothing
 * changed); the same results as one thread's.  The fabric then
 * reports as after a one-thread run; sim_par_finish, once the run is
 * over, joins the halves: later runs (one thread or two) go on as from
 * a one-thread run.  sim_par_check: whether s may run so (0), else why,
 * in err.
 */
int sim_run_par(struct sim *s, int64_t dur_ps, bool fresh,
		volatile sig_atomic_t *stop, struct pcb_err *err);
int sim_par_check(const struct sim *s, struct pcb_err *err);
/* -PCB_E_STATE, in err, when the halves of a two-thread run could not
 * join (out of memory): then no run goes on. */
int sim_par_done(const struct sim *s, struct pcb_err *err);
void sim_par_finish(struct sim *s);
/* The watchdog: 0 while the fabric moves; -PCB_E_DEVICE, with err
 * naming the paused ports, once no data packet has left any port for
 * SIM_STALL_PS while data waits (sim_run then stops, returning the same).
 */
#define SIM_STALL_PS PS_PER_MS
int sim_stall(const struct sim *s, struct pcb_err *err);
int64_t sim_now(const struct sim *s);
uint64_t sim_events(const struct sim *s);

/* New parameter values for every NIC (the device was written); a NIC
 * with params of its own keeps those. */
void sim_set_params(struct sim *s, const uint32_t *params, size_t n);
/* Host NIC `host` runs params[i] (i < ALGO_MAX_PARAMS) for each bit i of
 * `own`, the fabric's for the rest (and sim_set_params' later values of
 * those), from now on: its QPs' algorithm reads them at its next event.
 * own 0: the fabric's again.  -PCB_E_RANGE for a host the fabric does
 * not have, -PCB_E_NOMEM (nothing changes).  sim_host_params_get: the
 * ALGO_MAX_PARAMS values host's NIC runs.
 */
int sim_host_params(struct sim *s, uint32_t host, const uint32_t *params,
		    uint64_t own);
void sim_host_params_get(const struct sim *s, uint32_t host,
			 uint32_t *params);
/* Fabric-wide sum of the algorithm counters since the last call, and the
 * gauges (min/max) over that time.  Indexes follow the descriptor.
 */
void sim_take_counters(struct sim *s, uint32_t *delta, bool *touched,
		       size_t n);

/* Traffic classes: RoCE data and probes on priority 3, control (ACK,
 * NACK, CNP, probe response) on priority 6. */
#define SIM_PRIO_DATA 3
#define SIM_PRIO_CTRL 6

struct sim_port_counters {	/* per device view: every host NIC */
	uint64_t rx_bytes, rx_pkts, tx_bytes, tx_pkts;
	uint64_t rx_bytes_prio[8], rx_pkts_prio[8];
	uint64_t tx_bytes_prio[8], tx_pkts_prio[8];
	uint64_t pause_rx_prio[8], pause_tx_prio[8];
	uint64_t pause_rx_ns_prio[8];	/* time NICs spent paused */
	uint64_t out_of_sequence;	/* data received past a hole */
	uint64_t drops_nowqe;		/* receive queues are not modeled: 0 */
	uint64_t ecn_marked;		/* CE-marked RoCE packets received */
	uint64_t cnp_sent, cnp_handled;
	uint64_t qp_desched;		/* QPs held back by the rate limiter */
	uint64_t pause_rx, pause_tx;	/* at host ports */
	uint64_t sw_pause_tx;		/* sent by switches */
	uint64_t drops_nobuf, drops_loss;
	uint64_t rx_cqe, tx_cqe;
	uint64_t nacks, rto;
	uint64_t rx_lost;		/* lost on the NICs' links (FCS) */
	uint64_t ecn_marked_sw;		/* packets marked by switches */
};
void sim_port_counters(const struct sim *s, struct sim_port_counters *c);

/* The host NICs, h0 .. hN-1 as the fabric numbers them ("host N" of
 * sim_port_name). */
uint32_t sim_hosts(const struct sim *s);
/* Host NIC `host`'s own counters, each counted where it happens: the
 * CE-marked packets it received, the CNPs it sent (as notification
 * point), rx_cqe and out_of_sequence as receiver; the CNPs its QPs
 * handled, NAKs they got, their rate-limiter deschedules, tx_cqe and
 * timeouts (as reaction point); its port's bytes, packets, pauses and
 * link losses.  The fields of switches and links (drops_nobuf,
 * drops_loss, ecn_marked_sw, sw_pause_tx) are the fabric's alone: 0
 * here.  Over every host these sum to sim_port_counters' fields.
 * -PCB_E_RANGE (and all 0) for a host the fabric does not have.
 */
int sim_host_port_counters(const struct sim *s, uint32_t host,
			   struct sim_port_counters *c);
/* Host `host`'s algorithm counters gathered since the last
 * sim_take_counters (which folds every host's and zeroes them), as the
 * descriptor indexes them; NULL with counters off or no such host. */
const uint32_t *sim_host_algo_counters(const struct sim *s, uint32_t host);

/* Retransmission timeouts so far: their values, in ps. */
size_t sim_rto_values(const struct sim *s, const int64_t **vals);
/* ... and the host each happened at (its QP's sender), in the same
 * order. */
size_t sim_rto_hosts(const struct sim *s, const uint32_t **hosts);

struct sim_fct_bucket {
	uint64_t lo, hi;	/* flow size range, bytes */
	uint32_t n;
	double p50, p95, p99;	/* FCT slowdown */
};

/* Every field covers the window alone (a warm-up run before it stays
 * out); the FCTs are those of the flows that started in it and finished.
 */
struct sim_summary {
	int64_t t0, t1;			/* the window: the latest run */
	double util;			/* bottleneck payload / line rate */
	double payload_ceiling;		/* mtu / (mtu + headers) */
	double jain;
	uint32_t flows;
	double q_mean, q_p99, q_max;	/* bottleneck queue, bytes */
	char queue_port[48];		/* its port's name; "" none */
	/* probe RTT, ns, over every answer in the window, those that came
	 * after the algorithm's probe timeout (late) too: the queue they
	 * waited in is the one measured; lost probes (dropped) have no
	 * RTT, so with any lost the figures are lower bounds */
	double rtt_mean, rtt_p99;
	uint64_t rtt_samples, rtt_late, probes_lost;
	double base_rtt;		/* idle-path RTT, ns: the mean of the
				 * answered probes' paths (else the
				 * flows') */
	uint64_t pauses, drops, rtos;
	/* anomalies: retransmission timeouts while the fabric has lost no
	 * packet since t = 0 (each is spurious: a timeout shorter than the
	 * queueing, or an ACK held back) */
	uint64_t rtos_lossless;
	uint64_t events;
	size_t nfct;
	struct sim_fct_bucket fct[8];
	/* collectives (a collective kind only): those that finished in
	 * the window, their completion times, ps, and the bandwidths of the
	 * mean time as nccl-tests reports them: algbw = size / time,
	 * busbw = algbw x 2(n-1)/n (all-reduce) or (n-1)/n (all-to-all),
	 * Gb/s */
	bool coll;
	uint32_t colls;
	int64_t coll_mean, coll_min, coll_max;
	double algbw, busbw;
};
void sim_summary(struct sim *s, struct sim_summary *sum);
/* The completion times of the collectives finished so far, in order,
 * ps; their count. */
size_t sim_coll_times(const struct sim *s, const int64_t **t);

/* Per-flow delivered bytes in the window (for tests and show). */
size_t sim_flow_bytes(const struct sim *s, uint64_t *bytes, size_t max);
/* Per-flow current rate (fxp20). */
size_t sim_flow_rates(const struct sim *s, uint32_t *rates, size_t max);

/* Fine time series, sampled at a fixed resolution inside the event loop
 * (no events of its own, so tracing cannot change a run).
 */
struct sim_trace_row {
	int64_t t;			/* ps */
	uint64_t queue_max;		/* deepest switch data queue, bytes */
	double rate_mean, rate_min, rate_max;	/* active QPs, Gb/s */
	double rtt_mean;		/* probes answered in the interval, ns */
	uint32_t rtt_n;
	double rx_gbps;			/* payload delivered in the interval */
};
int sim_trace_start(struct sim *s, int64_t every_ps);
size_t sim_trace_rows(const struct sim *s, const struct sim_trace_row **rows);
void sim_trace_stop(struct sim *s);

/* Ports are named "host N" (a host's NIC) and "switch N port M", as the
 * watchdog names them.  sim_port_find: -PCB_E_NOENT for a port the
 * fabric does not have, -PCB_E_INVAL for a name of neither form.
 */
int sim_port_name(const struct sim *s, uint32_t pi, char *b, size_t n);
int sim_port_find(const struct sim *s, const char *name, uint32_t *pi,
		  struct pcb_err *err);

/* Outputs written while the fabric runs, until sim_tap_stop (tap.h).
 * Each takes a FILE the caller opened and commits; a list of ports is
 * "all" or names separated by commas.  Nothing changes on error; the
 * fabric runs as it would without them.
 *
 * - ports: CSV, one row per change of a port's data queue (enqueue,
 *   dequeue, drop, lost) and per PFC frame it sends or obeys, after a
 *   "start" row per port with its state then.
 * - rates: CSV, every `every` ps, a row per chosen flow while it runs:
 *   rate, the algorithm's window (empty for one of rate alone, or none
 *   yet), packets in flight, bytes delivered in the window.
 * - pcap: every frame on the chosen ports' links, both ways (pcap.h).
 * - flows: count each flow's retransmitted packets, for
 *   sim_flows_write.
 */
int sim_tap_ports(struct sim *s, FILE *fp, const char *list,
		  struct pcb_err *err);
int sim_tap_rates(struct sim *s, FILE *fp, const char *list, int64_t every,
		  struct pcb_err *err);
int sim_tap_pcap(struct sim *s, FILE *fp, const char *list,
		 uint32_t snaplen, struct pcb_err *err);
int sim_tap_flows(struct sim *s, struct pcb_err *err);
/* Stop every output; -PCB_E_IO when a write failed on the way. */
int sim_tap_stop(struct sim *s);

/* The flows of the window (those that started in it, with a size) as
 * CSV: a flow still running has an empty finish, FCT and slowdown.
 */
int sim_flows_write(const struct sim *s, FILE *fp, const char *algo);

/* FCT slowdown by flow size, HPCC's way (analysis/fct_analysis.py): the
 * window's finished flows sorted by size, cut into slices of step % of
 * the flows; per slice the size range and the slowdown's mean, median,
 * p95 and p99 (the element at floor(n p)).
 */
struct sim_fct_bin {
	unsigned pct_lo, pct_hi;	/* the slice: flows by size, % */
	uint64_t size_lo, size_hi;	/* bytes */
	uint32_t n;
	double mean, p50, p95, p99;
};
struct sim_fct_table {
	uint32_t finished, running;	/* flows that started in the window */
	uint32_t nbins;
	struct sim_fct_bin bin[100];
};
/* -PCB_E_RANGE unless step divides 100. */
int sim_fct_table(const struct sim *s, unsigned step,
		  struct sim_fct_table *t);
/* The median and 99th percentile FCT slowdown of the window's finished
 * flows (HPCC's percentile); NAN when none finished.
 */
void sim_fct_slowdown(const struct sim *s, double *p50, double *p99);

/* Peak bytes held by the simulator's arrays. */
size_t sim_mem_bytes(const struct sim *s);

#endif
