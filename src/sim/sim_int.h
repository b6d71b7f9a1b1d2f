/* sim_int.h - the simulator's internal state, shared by fabric.c (the
 * event loop: events, ports, PFC, switches, NICs), the files beside it
 * (build.c, report.c, trace.c, stall.c, names.c, lhist.c, tap.c,
 * flows.c) and the scenario side: scenario.c (keys, builds), topo.c
 * (topologies), workload.c (the mix), buffer.c (buffer settings).
 * Everything is an array indexed by uint32; no pointer into an array is
 * kept across an allocation.
 */
#ifndef PCCB_SIM_INT_H
#define PCCB_SIM_INT_H

#include "sim.h"

#define NONE UINT32_MAX
#define HDR_BYTES 64		/* Eth+IP+UDP+BTH+ICRC+FCS, rounded */
#define CTRL_BYTES 64		/* ACK, NACK, CNP, probe response */
#define LHIST_SUB 32
#define LHIST_N (64 * LHIST_SUB)
/* Retransmission and probe timers are checked on this tick, outside the
 * heap: they are long (hundreds of us) and almost never fire. */
#define TIMER_TICK_PS (8 * PS_PER_US)

enum ev_type {
	EV_PORT_FREE, EV_ARRIVE, EV_NIC_WAKE, EV_TIMER_SCAN, EV_STORM,
	EV_ALGO_TIMER, EV_PFC_PAUSE, EV_PFC_RESUME, EV_FLOW_START,
	EV_FLOW_STOP, EV_FLOW_GEN, EV_PFC1_PAUSE, EV_PFC1_RESUME,
};

/* PK_DATA and PK_PROBE travel in the data class (queued, paused, counted
 * for PFC); the rest are control (strict priority, never paused). */
enum pkt_type { PK_DATA, PK_PROBE, PK_ACK, PK_NACK, PK_CNP, PK_PROBE_RESP };

#define PF_CE		0x1	/* ECN congestion experienced */
#define PF_ACKREQ	0x2	/* BTH AckReq: the responder ACKs it now */
#define PF_LAST		0x4	/* last packet of the message */
#define PF_C1		0x8	/* data of the second data priority */

/* RoCE acknowledgement and retransmission (dcqcn-pfc.md section 4).
 *
 * The requester sets AckReq on a message's last packet and on every
 * 2^ackreq-th PSN (mlx5_ib's log_ack_req_freq) [SRC], and on a packet
 * after which its rate limiter holds the QP for more than ACK_GAP_PS
 * [reconstructed: without it a slow QP's packets wait at the responder
 * for ack_every - 1 more, tens of ms at DCQCN's minimum rate, and time
 * out; ConnectX's own rule is not documented].  The responder ACKs an
 * AckReq packet at once and coalesces the rest, cumulatively, one ACK
 * per ack_every packets.
 *
 * The timer runs from the last progress; without adaptive retransmission
 * it is the QP's local ACK timeout, 4.096 us * 2^timeout [DOC], retried
 * without end (retry_cnt and the QP's error state are not modelled).
 * Adaptive retransmission follows NVIDIA's documented flow; profile 0's
 * values are not published, so these are reconstructed: a time base of
 * 4.096 us (the documented minimum is 4 us), a first timeout of
 * 2^ADP_INIT_LOW or 2^(ADP_INIT_LOW + 1) bases drawn per QP and tried
 * once, then doubling (each value once) up to the QP timeout, where it
 * stays; progress starts again from the first.
 */
#define ACK_GAP_PS	(10 * PS_PER_US)
#define ADP_BASE_PS	(4096 * PS_PER_NS)
#define ADP_INIT_LOW	5	/* 131 us */
#define ADP_INIT_RANGE	2	/* .. 262 us */

/* Event key: (time - tbase) in ps in the high 36 bits, the event's tid
 * (type << 24 | id) in the low 28: one 64-bit compare orders by time,
 * then type, then id.  The order of events due at one time is thus
 * intrinsic, not that of their scheduling: a run does not depend on when
 * an event was put in (scheduling an arrival when a packet is queued
 * rather than when it departs, or two threads each keeping their own
 * events, give the same run).  Two pending events with one key are the
 * same event (same time, same handler, same object) and either may go
 * first.  tbase moves forward every 17 simulated ms; events beyond the
 * 68.7 ms horizon wait in a side list.
 */
#define EV_TID_BITS 28

/* The id in the key of an arrival at port at t (fabric.c, ev_key): the
 * port XOR a hash of the time, 24 bits. */
static inline uint32_t ev_arrive_id(uint32_t port, int64_t t)
{
	return (port ^ (uint32_t)((uint64_t)t * 0x9e3779b97f4a7c15ULL >> 40)) &
	       0xffffff;
}

#define EV_HORIZON (1LL << (64 - EV_TID_BITS))	/* ps, 68.7 ms */
#define EV_STEP (1LL << 34)			/* rebase every 17.2 ms */

struct ev {
	uint64_t k;
	uint32_t tid;		/* type << 24 | id */
	uint32_t next;		/* wheel: the bucket's next event; 0 none */
};

/* Timing wheel in front of the heap: events without a lane (below) due
 * within WHEEL_N buckets of 2^WHEEL_SHIFT ps from the current one (NIC
 * wakes, timers: some 15 % of all) wait in the bucket of their time,
 * each bucket a list sorted by key; the rest wait in the heap.  The
 * wheel's next is the smaller of the first nonempty bucket's head and
 * the heap's root.  Coarse buckets: the wheel is sparse, and small.
 */
#define WHEEL_SHIFT 14			/* 16.4 ns buckets */
#define WHEEL_N 1024u			/* 16.8 us ahead */

/* Lanes in front of the wheel: the events due a fixed time after now (a
 * link's arrivals, a port's departures: most events) are made in key
 * order, so each such offset keeps its events in a FIFO ring, appended
 * and taken without search.  The next event is the least of the lane
 * heads and the wheel's (or heap's) first; the order of events is the
 * same as with the wheel alone.  An offset used often without a lane
 * claims an empty one; a lane little used is retired now and then, to
 * be claimed again once empty.
 */
#define EV_LANES 4
#define LANE_CAND 16		/* offsets counted for a lane */
/* Two threads (par.c): the packets handed over at a window's end go to
 * lanes of their own, one per offset from the time they were sent (the
 * sender's lane offset: a link's delay and a size's serialization), in
 * which they come in key order as the sender made them; the few that do
 * not (a tie at one time, a third offset) go to the wheel.  After the
 * local lanes: ev_push never looks at them. */
#define MAIL_LANES 2
#define ALL_LANES (EV_LANES + MAIL_LANES)

struct lane {
	struct ev *ring;
	uint32_t head, tail, mask;	/* free-running head and tail */
	uint64_t lastk;			/* the key appended last */
	uint32_t pushes;		/* since the last lane_review */
};

struct far_ev {
	int64_t t;
	uint32_t tid;
};

struct pkt {
	uint32_t next;		/* free list / queue link */
	uint8_t type;
	uint8_t flags;
	uint16_t size;		/* bytes on the wire */
	uint32_t qp;
	uint32_t psn;
	uint32_t port;		/* queued: ingress port; flying: arrival */
	uint32_t dst;		/* destination host: switches route on it */
	int64_t ts;		/* probe send time (ps) */
};

struct pqueue {
	uint32_t head, tail, n;
	uint64_t bytes;
};

/* Log-bucketed histogram: 32 sub-buckets per power of two (~3 %).  The
 * totals come first: an empty one is told by its first page.
 */
struct lhist {
	uint64_t total;		/* weights */
	double sum;		/* of value x weight */
	uint64_t max, min;	/* min: valid while total > 0 */
	uint64_t n[LHIST_N];
};

/* A switch egress queue's time-weighted statistics over the stats
 * window: the weight of each byte count is the ps it lasted.  The hot
 * path touches only this line and, while the queue holds data, one
 * of its buckets (port.q_n: LHIST_N of lhist_bucket's); the time at
 * zero is counted here and n[0] is never written, so an idle queue's
 * buckets stay untouched.  The weight of all is q_last - the window's
 * start.
 */
struct qstat {
	int64_t q_last;		/* accounted up to here */
	double sum;		/* of bytes x ps: the integral */
	uint64_t zero;		/* ps at zero bytes */
	uint64_t vmin, vmax;	/* of the nonzero counts; vmax 0: none */
};

/* Five cache lines (the array is 64-byte aligned), laid out by use: a
 * departure reads and writes lines 0 and 1, an arrival lines 1 and 3, a
 * switch queue lines 0 and 2 (its statistics), a PFC pause line 4 at
 * either end (and line 3 at the ingress).  Totals are the sums of the
 * per-class counters; the payload sent is derived from them.
 */
struct port {
	/* line 0 */
	struct pqueue ctrl, data;
	int64_t free_at;	/* the current transmission ends */
	int64_t free_ev_at;	/* time of the latest EV_PORT_FREE, or -1 */
	/* line 1 */
	int64_t delay;
	uint32_t peer;
	uint32_t ppb;		/* ps per byte */
	uint32_t owner;		/* host or switch index of node */
	bool paused, is_switch;
	/* per class: [0] data (data, probes), [1] control */
	uint64_t tx_bytes_c[2], tx_pkts_c[2];
	uint64_t *q_n;		/* the egress queue's buckets (mapped);
				 * NULL: not a switch */
	/* line 2: the egress queue */
	struct qstat qs;
	uint64_t q_max;
	uint64_t lost_pkts;	/* lost on the link into it: not
				 * received (an FCS error); rare */
	uint32_t node;
	uint32_t ndraw;		/* its draws so far (fabric.c, port_rand) */
	/* line 3: ingress */
	uint64_t rx_bytes_c[2], rx_pkts_c[2];
	uint64_t ingress_bytes;	/* switch: buffered bytes that came in here */
	bool pause_sent;
	uint32_t headroom;	/* switch ingress: bytes that may still come
				 * after its Xoff (scenario.c sizes it) */
	uint32_t hdrm_used;	/* ... came since the latest Xoff */
	uint32_t hdrm_peak;	/* the most that ever came after one */
	uint64_t lost_bytes;	/* with lost_pkts */
	/* line 4: pauses (a pause touches this line at each end) */
	uint64_t pause_rx, pause_tx;
	int64_t xoff_at;	/* when this ingress crossed Xoff */
	int64_t pause_start;	/* when the peer paused us */
	int64_t paused_ps;	/* total time paused */
	uint64_t drops, drop_bytes;
	uint64_t win0_payload;	/* port_payload at the window's start */
};

_Static_assert(sizeof(struct port) == 320, "struct port: five lines");
_Static_assert(offsetof(struct port, delay) == 64 &&
	       offsetof(struct port, qs) == 128 &&
	       offsetof(struct port, rx_bytes_c) == 192 &&
	       offsetof(struct port, pause_rx) == 256,
	       "struct port: its lines");

static inline uint64_t port_tx_bytes(const struct port *p)
{
	return p->tx_bytes_c[0] + p->tx_bytes_c[1];
}

static inline uint64_t port_rx_bytes(const struct port *p)
{
	return p->rx_bytes_c[0] + p->rx_bytes_c[1];
}

/* Payload of the data packets sent: probes are headers only. */
_Static_assert(CTRL_BYTES == HDR_BYTES, "a probe carries no payload");

static inline uint64_t port_payload(const struct port *p)
{
	return p->tx_bytes_c[0] - HDR_BYTES * p->tx_pkts_c[0];
}

/* ... of them since the stats window began. */
static inline uint64_t win_payload(const struct port *p)
{
	return port_payload(p) - p->win0_payload;
}

struct node {
	bool is_switch;
	uint32_t idx;		/* host or switch index */
	uint32_t port0, nports;
};

struct route {
	uint32_t first, count;	/* ECMP group: consecutive egress ports */
};

/* Buffer accounting with PFC (an independent-headroom model): each
 * ingress port has a reserve (its Xoff floor) and a headroom of its own;
 * the rest of the buffer is the shared pool, and `shared` counts the
 * bytes ingress ports hold above their reserves.  scenario.c refuses a
 * buffer smaller than the reserves and headrooms together.
 */
struct sw {
	uint32_t node;
	uint64_t used;		/* every byte held */
	uint64_t headroom;	/* of all ports */
	uint64_t reserve;	/* of all ports */
	uint64_t shared;	/* held above the reserves */
	struct route *routes;	/* per destination host */
	uint32_t ecmp_shift;	/* ECMP hashes the flow's value >> this
				 * (topo.c: a fat tree's tiers differ) */
};

#define HOST_ACT_INLINE 4

/* A sender QP in its NIC's list (struct host), with a copy of what the
 * scheduler reads of every QP it passes (fabric.c: nic_pick, port_tx_inl,
 * for each packet a NIC sends): 16 bytes in the host's array, where
 * struct qp's lines were a cache miss a QP.  struct qp holds the truth;
 * fabric.c's nic_sync copies it in wherever one of these fields changes
 * (tests: assert_nic_slots).
 */
struct nic_slot {
	int64_t next_ok;	/* the QP's */
	uint32_t qp;
	uint8_t f;		/* NS_*: nic_flags */
};

#define NS_ACTIVE	0x1	/* q->active */
#define NS_WORK		0x2	/* qp_has_work: packets to send */
#define NS_PROBE	0x4	/* active, a probe asked for and none out */
#define NS_C1		0x8	/* of the second data priority (q->cls) */

/* A host NIC that runs some parameters of its own (sim_host_params): its
 * ports' configuration, the fabric's (s->algo.conf) but for the params
 * whose bit is in `own`. */
struct host_conf {
	struct algo_conf conf;
	uint64_t own;
};
_Static_assert(ALGO_MAX_PARAMS <= 64, "host_conf.own: a bit a param");

/* One host NIC's own share of the fabric-wide counts in sim.c: each
 * event is counted, beside the fabric's count, at the NIC where it
 * happens (report.c's sim_host_port_counters; the port's own bytes,
 * packets and pauses are struct port's).  At the end of struct host,
 * out of the lines the scheduler reads.
 */
struct nic_ctr {
	/* as receiver, the notification point */
	uint64_t ecn_marked, cnp_sent, rx_cqe, out_of_sequence;
	/* as sender, the reaction point */
	uint64_t cnp_handled, qp_desched, tx_cqe, nacks, rto;
};

/* The sender QPs with work are listed in act, or in active once more
 * than HOST_ACT_INLINE (capactive > 0): host_active(); each QP's
 * act_pos is its place.  An incast sender's NIC then finds its QP in
 * the host's first line.  nprobe counts the slots with NS_PROBE, and
 * their bits are set in pbit, or in pbits with active (cappbits words,
 * room for capactive bits): the scheduler looks for a probe to send
 * only when one is there, a word of 64 slots at a time.
 */
struct host {
	uint32_t node, port;
	struct nic_slot *active;
	uint32_t nactive, capactive, rr;
	uint32_t nprobe;
	int64_t wake_at;	/* pending NIC wake, or -1 */
	struct nic_slot act[HOST_ACT_INLINE];
	uint64_t pbit;
	uint64_t *pbits;
	uint32_t cappbits;
	struct algo_port ap;
	int64_t gen_next;	/* mix: next flow arrival */
	struct nic_ctr nc;	/* this NIC's counts */
};

/* Line 0 holds what the timer scan reads for every armed QP each
 * TIMER_TICK_PS and the sender's hottest fields; the array is 64-byte
 * aligned and the struct four whole lines.
 */
struct qp {
	/* line 0 */
	uint32_t snd_nxt, snd_una;
	bool active, started, done, probe_req, probe_out;
	bool rto_on;		/* retransmission timer running */
	uint32_t npkts;		/* UINT32_MAX: long-lived */
	uint32_t armed_pos;	/* index in sim.armed, or NONE */
	int64_t rto_deadline, probe_deadline, probe_to;
	int64_t next_ok;
	uint32_t rate;		/* fxp20 */
	uint32_t src;		/* host */
	/* line 1 */
	uint32_t dst;		/* host */
	uint32_t last_payload;
	uint32_t ecmp;
	uint32_t last_wire;
	uint32_t gap_rate, gap_wire;	/* qp_gap's cache */
	int64_t gap;
	int64_t last_tx, probe_sent, rto_cur;
	int64_t timer_at, timer_ev_at;
	/* receiver side */
	uint32_t rcv_nxt, since_ack, dups;
	bool nack_sent;
	int64_t last_cnp;
	/* accounting */
	uint64_t size;
	int64_t start, stop, finish;
	uint64_t win_bytes;	/* delivered in the stats window */
	int64_t path_rtt;	/* a probe's RTT on the idle path, ps */
	int64_t rto_init;	/* the first timeout of a flight; 0 not yet */
	uint32_t act_pos;	/* its slot in its sender's list, or NONE */
	uint8_t cls;		/* data class: 1 the second data priority */
	unsigned char pad_[35];	/* to four whole lines */
};

_Static_assert(sizeof(struct qp) == 256, "struct qp: four lines");

/* A port's state for the second data priority (class 1), in sim.c1
 * when a scenario has one; class 0's (priority 3) is in struct port.
 * Class 1's data is counted in the port's data totals too (tx/rx_*_c[0],
 * its queue in the queue statistics); these count it apart.
 */
struct port_c1 {
	struct pqueue data;
	uint64_t ingress_bytes;	/* switch ingress: held bytes that came in */
	uint64_t tx_bytes, tx_pkts, rx_bytes, rx_pkts;	/* hosts */
	uint64_t pause_rx, pause_tx;
	uint64_t drops;		/* class 1's of the port's drops */
	int64_t pause_start, paused_ps;
	bool paused, pause_sent;
	bool turn;		/* class 1 goes next when both may */
};

struct fct_rec {
	uint64_t size;
	double slowdown;
};

struct tap;

struct sim {
	const struct sim_source *src;	/* what it is built from */
	struct sim_cfg cfg;
	struct sim_algo algo;
	int64_t now;
	uint64_t events;
	int64_t tbase;
	/* first keys: the lanes', then the wheel's and heap's; UINT64_MAX
	 * for none */
	uint64_t headk[ALL_LANES + 1];
	int64_t lane_d[EV_LANES];	/* a lane's offset from now */
	struct lane lanes[ALL_LANES];
	int64_t mail_d[MAIL_LANES];	/* a mail lane's offset from sending */
	struct { int64_t d; uint32_t n; } lane_cand[LANE_CAND];
	struct ev *heap;
	size_t hn, hcap;
	struct ev *wn;		/* wheel event pool */
	uint32_t nwn, capwn, wfree, wcount;
	int64_t wcur;		/* the current bucket: time >> WHEEL_SHIFT */
	/* buckets: last is the node put in last with a walk (0: none) */
	struct { uint32_t head, tail, last; } wb[WHEEL_N];
	uint64_t wbits[WHEEL_N / 64];	/* nonempty buckets */
	struct far_ev *far;
	uint32_t nfar, capfar;
	struct pkt *pk;
	uint32_t npk, pkcap;
	/* the free slots, a stack (the last freed is taken first): taking
	 * one reads this array, not the slot, which may have left the cache
	 * long ago (a two-thread window's hand-over takes thousands at
	 * once: sim_par_deliver); room for every slot (pfcap = pkcap) */
	uint32_t *pfree;
	uint32_t npfree, pfcap;
	struct port *ports;
	uint32_t nports, capports;
	struct node *nodes;
	uint32_t nnodes, capnodes;
	struct host *hosts;
	uint32_t nhosts;
	struct host_conf **hconf;	/* per host, NULL: the fabric's; the
					 * array NULL until one has its own */
	struct sw *sws;
	uint32_t nsw;
	struct qp *qps;
	uint32_t nqps, qpcap;
	unsigned char *qpstate;
	size_t stride;
	uint64_t rng[4];	/* the workload's: flows, ECMP values */
	uint64_t fseed;		/* the fabric's draws (fabric.c, port_rand) */
	uint64_t line_ppb;	/* host link ps per byte */
	int64_t win_t0;
	/* the cumulative counts when the window began */
	uint64_t win0_drops, win0_rtos, win0_pauses, win0_events;
	struct lhist rtt;	/* probe RTTs, ps */
	int64_t rtt_base_sum;	/* the answered probes' idle paths, ps */
	uint64_t rtt_late;	/* answered after the probe timeout */
	uint64_t probes_lost;	/* probes or answers dropped */
	bool adp;		/* adaptive retransmission modelled */
	bool prefetch;		/* ev_pop prefetches: a fabric beyond cache */
	int64_t qp_timeout;	/* ps, INT64_MAX none */
	int64_t *rto_vals;
	uint32_t *rto_host;	/* the host of each: its QP's sender */
	size_t nrto, caprto;
	uint32_t caprto_host;
	struct fct_rec *fct;	/* flows of the window (started in it) */
	size_t nfct, capfct;
	uint64_t *qhists;	/* the switch ports' buckets, mapped */
	size_t qhists_bytes;
	uint32_t *armed;	/* QPs with a retransmission or probe timer */
	uint32_t narmed, caparmed;
	bool scan_pending;
	/* a tick can skip the scan while nothing can change: no armed
	 * deadline lies before timer_lb, and timer_hint is false unless
	 * some armed QP may have its timer stopped */
	bool timer_hint;
	int64_t timer_lb;
	/* fine time series: the fabric's rows (tr_rows), the tap's samples
	 * (tap.h), every tr_every */
	int64_t tr_every, tr_next;
	bool tr_rows;
	struct tap *tap;	/* outputs of the run (tap.h); NULL: none */
	struct sim_trace_row *tr;
	uint32_t ntr, captr;
	double tr_rtt_sum;
	uint32_t tr_rtt_n;
	uint64_t rx_payload, tr_rx_last;
	struct sim_port_counters c;
	uint64_t pause_events;
	int64_t last_tx;	/* the latest data departure anywhere */
	int64_t pfc_lag_max;	/* Xoff crossing -> upstream paused, ps */
	double base_rtt_ns;	/* the longest idle path */
	uint32_t bottleneck;	/* port whose queue the summary reports */
	size_t mem_peak;
	/* the switch buffer's settings (buffer.c sets them as it builds) */
	uint64_t buf_reserve;	/* per queue, bytes */
	uint64_t xon_offset;
	int32_t alpha_xoff;	/* DT alpha = 2^n: PFC Xoff, lossy egress */
	int32_t alpha_drop;
	/* data classes: 0 priority 3; 1 the second data priority, when c1
	 * is there (per port); pfc_c: the class is lossless */
	struct port_c1 *c1;
	uint8_t prio_c[2];
	bool pfc_c[2];
	/* collective workloads (collective.c); NULL for the others */
	struct coll *coll;
	/* two threads, one run (par.c): part[port] names the replica that
	 * owns each port (its node's half of the fabric), NULL in a
	 * one-thread run; me is this replica's.  A packet or PFC frame
	 * leaving for a port of the other half goes to mail, handed over
	 * at the window's end; ev_shared counts the events both replicas
	 * run (the workload's generators), scan_bits the ticks at which a
	 * timer scan ran.  par: the run's shared state, the second replica
	 * in it (both point to it; the first, the device's, frees it). */
	const uint8_t *part;
	uint8_t me;
	struct par_box *out;
	uint64_t ev_shared;
	uint64_t *scan_bits;	/* a bit per timer tick scanned */
	uint32_t capscan;	/* words */
	struct par *par;
	struct sim *peer;	/* the second replica, on the first */
	/* frees par and the second replica (par.c sets it; sim_free calls
	 * it: a pointer, so that fabric.c calls nothing of par.c) */
	void (*par_release)(struct sim *s);
	/* mix workload */
	const uint64_t *cdf_size;
	const uint32_t *cdf_pct;
	size_t cdf_n;
	double mean_size;
};

/* The reserve of every switch ingress port (PFC: its Xoff floor) or
 * egress queue (lossy), kept aside from the shared pool (buffer.c). */
static inline uint64_t pfc_reserve(const struct sim *s)
{
	return s->buf_reserve;
}

/* build.c: the builders' calls (topo.c, workload.c, collective.c) */
uint32_t sim_add_node(struct sim *s, bool is_switch, uint32_t nports);
void sim_link(struct sim *s, uint32_t pa, uint32_t pb, uint32_t gbps,
	      int64_t delay);
uint32_t sim_add_qp(struct sim *s, uint32_t src, uint32_t dst,
		    uint64_t size, int64_t start, int64_t stop);
/* fabric.c: an event at t, after every one already due then */
void sim_schedule(struct sim *s, int64_t t, enum ev_type type, uint32_t id);
/* The next event due by `until`, taken without running it (tests). */
bool sim_next_event(struct sim *s, int64_t until, struct ev *e);
/* The workload's RNG (xoshiro256**), seeded by sim_fabric_create: the
 * flows, their ECMP values; the fabric's own draws do not use it
 * (fabric.c, port_rand). */
uint64_t sim_rand(struct sim *s);
/* Add v with weight w to h (the RTT histogram, per probe answer). */
void lhist_add(struct lhist *h, uint64_t v, uint64_t w);
/* grow.c: grow an array to hold need elements (0, or -1 out of
 * memory); _big for those that grow with the flows, freed by
 * sim_big_free with their capacity */
int sim_grow(void **p, size_t elem, uint32_t *cap, uint32_t need);
/* fabric.c: room for need packets in the pool and its free stack, for
 * need QPs and their algorithm state; -1 when out of memory */
int sim_pkt_reserve(struct sim *s, uint32_t need);
int sim_qp_reserve(struct sim *s, uint32_t need);
int sim_grow_big(void **p, size_t elem, uint32_t *cap, uint32_t need);
void sim_big_free(void *p, size_t elem, uint32_t cap);

/* What the fabric is built from and fed with, given to it by its
 * creator (scenario.c's sim_create): the fabric calls back through this
 * table and never names the scenarios, so the two files do not depend on
 * each other both ways.
 */
struct sim_source {
	/* the nodes, links and first flows of the configured scenario */
	int (*build)(struct sim *s, struct pcb_err *err);
	/* the idle round trip between two hosts, ps */
	int64_t (*path_rtt)(const struct sim *s, uint32_t src, uint32_t dst);
	/* the slowest link's ps per byte on the way from src to dst */
	uint32_t (*path_ppb)(const struct sim *s, uint32_t src, uint32_t dst);
	/* the next flow of a host (EV_FLOW_GEN) */
	void (*flow_gen)(struct sim *s, uint32_t host);
	/* optional: flow qi's last byte arrived in order at its receiver
	 * (qps may grow, and move, inside) */
	void (*flow_arrived)(struct sim *s, uint32_t qi);
	/* optional: the workload's own figures into a summary */
	void (*summary)(const struct sim *s, struct sim_summary *sum);
	/* optional: free the workload's state (sim_free) */
	void (*release)(struct sim *s);
};
int sim_fabric_create(struct sim **out, const struct sim_cfg *cfg,
		      const struct sim_algo *algo,
		      const struct sim_source *src, struct pcb_err *err);

/* A packet or PFC frame crossing the cut (par.c): due at t at port
 * `port` of the other replica; type EV_ARRIVE (pkt) or EV_PFC_PAUSE /
 * EV_PFC_RESUME (xoff_at: the sender's, which pfc_apply reads). */
struct par_mail {
	int64_t t;
	uint32_t type, port;
	int64_t xoff_at;
	int64_t off;		/* t - the time it was sent (a mail lane's) */
	struct pkt pkt;
};

/* The mail one replica posts in a window (fabric.c, par_post). */
struct par_box {
	struct par_mail *m;
	uint32_t n, cap;
};

/* Two threads: whether host h is this replica's (its port's half) ... */
static inline bool par_host_mine(const struct sim *s, uint32_t h)
{
	return !s->part || h >= s->nhosts ||
	       s->part[s->hosts[h].port] == s->me;
}

/* ... and the object of an event: the generators and the timer scan are
 * both replicas', a QP's events its sender's, the rest their port's or
 * host's. */
static inline bool par_owns(const struct sim *s, enum ev_type type,
			    uint32_t id)
{
	switch (type) {
	case EV_FLOW_GEN:
	case EV_TIMER_SCAN:
		return true;
	case EV_FLOW_START:
	case EV_FLOW_STOP:
	case EV_ALGO_TIMER:
		return par_host_mine(s, s->qps[id].src);
	case EV_NIC_WAKE:
		return par_host_mine(s, id);
	case EV_ARRIVE:
		return s->part[s->pk[id].port] == s->me;
	default:		/* a port's */
		return s->part[id] == s->me;
	}
}

/* fabric.c, for par.c: run the events due by hi (a window), then now =
 * hi; push the crossing events of a window handed over; drop the
 * pending events of the other half's objects (a fabric that has not
 * run) */
void sim_par_window(struct sim *s, int64_t hi);
void sim_par_deliver(struct sim *s, const struct par_box *b);
int sim_par_prune(struct sim *s);
/* fabric.c, for par.c: the second replica's half into the first after a
 * two-thread run, which then runs on alone; before a two-thread run
 * from a fabric that has run, the first's state into the second (built
 * fresh), then each keeps its half; -1 when out of memory */
int sim_par_join(struct sim *s, struct sim *r);
int sim_par_split(struct sim *s, struct sim *r);

/* fabric.c: a new statistics window from now (sim_run) */
void sim_window_reset(struct sim *s);

/* flows.c: the FCT of flow q alone on its idle path, ps */
int64_t sim_ideal_fct(const struct sim *s, const struct qp *q);

/* topo.c: the scenarios' fabrics (0, or -1 out of memory) */
int sim_topo_star(struct sim *s, uint32_t n);
int sim_topo_fabric(struct sim *s);		/* cfg.topo's */
int64_t sim_topo_path_rtt(const struct sim *s, uint32_t src, uint32_t dst);
uint32_t sim_topo_path_ppb(const struct sim *s, uint32_t src, uint32_t dst);

/* buffer.c: the buffer settings, each switch port's headroom and
 * reserve; with PFC on, a buffer that cannot hold them is refused. */
int sim_buffer_setup(struct sim *s, struct pcb_err *err);

/* alpha x free bytes, alpha = 2^n */
static inline uint64_t dt_limit(uint64_t free_, int32_t n)
{
	return n >= 0 ? free_ << n : free_ >> -n;
}

/* workload.c: a mix's flow size, bytes (tests); its first flows and
 * arrivals; the next flow of host h (h = nhosts: the periodic incast) */
uint64_t sim_draw_size(struct sim *s);
void sim_mix_start(struct sim *s);
void sim_flow_gen(struct sim *s, uint32_t h);

/* collective.c: a collective kind's first step (0, or -1 out of
 * memory); the steps that flow qi's arrival lets start; its figures;
 * its state freed */
int sim_coll_start(struct sim *s);
void sim_coll_arrived(struct sim *s, uint32_t qi);
void sim_coll_summary(const struct sim *s, struct sim_summary *sum);
void sim_coll_free(struct sim *s);

/* lhist.c: a histogram emptied (the buckets in use only); quantiles */
void lhist_clear(struct lhist *h);
double lhist_quantile(const struct lhist *h, double q);
/* The q-quantile of a port's queue in the window (bytes). */
double qstat_quantile(const struct sim *s, const struct port *p, double q);

/* trace.c: the fabric's row of the samples due at s->tr_next */
void sim_trace_row(struct sim *s);
/* fabric.c: port p's time-weighted queue statistics brought up to now */
void sim_q_account(struct sim *s, struct port *p);
/* fabric.c: the watchdog's test (PFC holds data that cannot leave), and
 * whether data waits behind port pi */
bool sim_stalled(const struct sim *s);
bool sim_port_waits(const struct sim *s, uint32_t pi);
/* names.c: a decimal word of *p (spaces before it skipped), *p after */
bool sim_uint_word(const char **p, uint32_t *v);

/* ---- hot helpers ----------------------------------------------------------
 * Inline here, not functions of one file: the event loop (fabric.c) calls
 * them for every packet, and the files beside it (build.c, stall.c,
 * lhist.c) read the same state.  Only helpers gcc inlined anyway while
 * they were static in fabric.c, so the loop's code stays what it was;
 * the RNG and lhist_add stay functions of fabric.c.
 */

/* v's bucket: v itself below LHIST_SUB, then LHIST_SUB per power of
 * two; the largest, 2^64 - 1's, is below LHIST_N (no clamp needed). */
_Static_assert((63 - 4) * LHIST_SUB + LHIST_SUB - 1 < LHIST_N,
	       "lhist: every uint64_t has a bucket");

static inline unsigned lhist_bucket(uint64_t v)
{
	unsigned e;

	if (v < LHIST_SUB)
		return (unsigned)v;
	e = 63 - (unsigned)__builtin_clzll(v);	/* v >= 32: e >= 5 */
	return (e - 4) * LHIST_SUB +
	       (unsigned)((v >> (e - 5)) & (LHIST_SUB - 1));
}

/* The buckets in use of a histogram whose greatest value is max: none
 * lies above max's. */
static inline unsigned lhist_used(uint64_t max)
{
	return lhist_bucket(max) + 1;
}

/* The bytes a port's data queues hold (both classes). */
static inline uint64_t q_bytes(const struct sim *s, const struct port *p)
{
	return p->data.bytes + (s->c1 ? s->c1[p - s->ports].data.bytes : 0);
}

static inline unsigned char *qp_state(struct sim *s, uint32_t qp)
{
	return s->qpstate + (size_t)qp * s->stride;
}

/* A port that PFC holds, for either class. */
static inline bool port_held(const struct sim *s, uint32_t pi)
{
	return s->ports[pi].paused || (s->c1 && s->c1[pi].paused);
}

static inline bool qp_has_work(const struct qp *q)
{
	return q->active && q->snd_nxt < q->npkts;
}

/* What a QP's slot in its sender's list says of it (struct nic_slot). */
static inline uint8_t nic_flags(const struct qp *q)
{
	return (uint8_t)((q->active ? NS_ACTIVE : 0) |
			 (qp_has_work(q) ? NS_WORK : 0) |
			 (q->active && q->probe_req && !q->probe_out ?
			  NS_PROBE : 0) |
			 (q->cls ? NS_C1 : 0));
}

#endif
