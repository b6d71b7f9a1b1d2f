/* Simulator credibility (cc-sim.md section 5 "Credibility checks"): each
 * test states the physical expectation it checks.  Runs are short enough
 * for make check; all are seeded and deterministic.
 */
#include "testsim.h"
#include "sim/sim_int.h"
#include "sim/pcap.h"
#include <math.h>

#include "dcqcn/dcqcn.h"
#include "ztr_rtt/ztr_rtt.h"


static struct sim_cfg incast(uint32_t n)
{
	struct sim_cfg c;

	sim_cfg_default(&c);
	c.senders = n;
	return c;
}

/* Idle path: a probe alone sees exactly the analytic RTT. */
static void test_idle_rtt(void **state)
{
	struct sim_cfg c = incast(2);
	struct sim_summary m;
	struct sim_algo a;
	struct sim *s;

	(void)state;
	algo_for(&a, "ztr_rtt");
	a.conf.params[ZTR_FIXED_RATE] = 1049;	/* 0.1 % of line each */
	c.jitter = true;
	c.jitter_ps = 3 * PS_PER_US;
	s = mk(&c, &a);
	assert_int_equal(sim_run(s, 2 * PS_PER_MS, NULL), 0);
	sim_summary(s, &m);
	/* 2 hops, 64 B each way at 20 ps/B, 1 us per link each way */
	assert_true(m.base_rtt > 4005.1 && m.base_rtt < 4005.2);
	assert_true(m.rtt_samples > 500);
	assert_true(m.rtt_mean >= 4005 && m.rtt_mean < 4005 + 84);
	assert_int_equal(s->hosts[0].ap.counters[ZTR_C_MIN_RTT], 4005);
	sim_free(s);
	/* one flow at line rate (a staircase whose second step is far
	 * away): at most one data packet (83 ns) ahead of the probe at the
	 * NIC and one at the switch */
	c = incast(2);
	c.kind = SIM_STAIRCASE;
	c.step_ps = 1000 * PS_PER_MS;
	algo_for(&a, "ztr_rtt");
	a.conf.params[ZTR_FIXED_RATE] = ALGO_RATE_ONE;
	s = mk(&c, &a);
	assert_int_equal(sim_run(s, 2 * PS_PER_MS, NULL), 0);
	sim_summary(s, &m);
	assert_true(m.rtt_samples > 100);
	assert_int_equal(m.flows, 1);
	assert_true(m.util > 0.98 * m.payload_ceiling);
	if ((double)s->rtt.max / PS_PER_NS > m.base_rtt + 2 * 83.2 + 1)
		fail_msg("max probe RTT %llu ps, idle %.1f ns",
			 (unsigned long long)s->rtt.max, m.base_rtt);
	sim_free(s);
}

/* Bytes in = bytes out + dropped at every switch; every link delivers
 * what it sends; ECN-marked >= CNPs sent = CNPs handled once quiet.
 */
static void check_conservation(struct sim *s)
{
	struct sim_port_counters pc;
	uint32_t i, w;

	for (i = 0; i < s->nports; i++) {
		const struct port *p = &s->ports[i];

		assert_int_equal(port_tx_bytes(p),
				 port_rx_bytes(&s->ports[p->peer]) +
				 s->ports[p->peer].lost_bytes);
		assert_int_equal(p->data.n + p->ctrl.n, 0);
	}
	for (w = 0; w < s->nsw; w++) {
		const struct node *n = &s->nodes[s->sws[w].node];
		uint64_t rx = 0, tx = 0, dropped = 0;

		for (i = n->port0; i < n->port0 + n->nports; i++) {
			rx += port_rx_bytes(&s->ports[i]);
			tx += port_tx_bytes(&s->ports[i]);
			dropped += s->ports[i].drop_bytes;
			assert_int_equal(s->ports[i].ingress_bytes, 0);
		}
		assert_int_equal(rx, tx + dropped);
		assert_int_equal(s->sws[w].used, 0);
	}
	sim_port_counters(s, &pc);
	assert_true(pc.ecn_marked_sw >= pc.ecn_marked);
	assert_true(pc.ecn_marked >= pc.cnp_sent);
	assert_true(pc.cnp_sent >= pc.cnp_handled);
}

static void test_conservation(void **state)
{
	struct sim_cfg c = incast(16);
	struct sim_port_counters pc;
	struct sim_algo a;
	struct sim *s;
	uint32_t i;

	(void)state;
	algo_for(&a, "ztr_rtt");
	c.size = 512 * 1024;
	s = mk(&c, &a);
	assert_int_equal(sim_run(s, 20 * PS_PER_MS, NULL), 0);
	for (i = 0; i < s->nqps; i++)
		assert_true(s->qps[i].done);
	check_conservation(s);
	sim_port_counters(s, &pc);
	assert_true(pc.cnp_sent > 0);
	assert_int_equal(pc.cnp_sent, pc.cnp_handled);
	assert_int_equal(pc.rx_cqe, 16);
	assert_int_equal(pc.tx_cqe, 16);
	sim_free(s);
	/* lossy, with random link loss too: still conserved */
	c.pfc = false;
	c.loss = (uint32_t)(0.001 * 4294967296.0);
	s = mk(&c, &a);
	assert_int_equal(sim_run(s, 100 * PS_PER_MS, NULL), 0);
	for (i = 0; i < s->nqps; i++)
		assert_true(s->qps[i].done);
	check_conservation(s);
	sim_port_counters(s, &pc);
	assert_true(pc.drops_loss > 0);
	sim_free(s);
}

/* The largest incast (issue 23 item 12): 4096 senders are accepted, and
 * a short one (8 KB each, at 100G under PFC) delivers every flow and
 * conserves bytes; a buffer too small for 4097 ports' headroom is
 * refused, and 4097 senders too.
 */
static void test_incast_4096(void **state)
{
	struct sim_cfg c = incast(4096);
	struct pcb_err err = { 0 };
	struct sim_port_counters pc;
	struct sim_algo a;
	struct sim *s = NULL;
	uint32_t i;

	(void)state;
	algo_for(&a, "ztr_rtt");
	c.rate_gbps = 100;
	c.mtu = 1024;
	c.size = 8 * 1024;
	assert_int_equal(sim_create(&s, &c, &a, &err), -PCB_E_RANGE);
	assert_non_null(strstr(err.msg, "4097 ports"));
	assert_null(s);
	assert_int_equal(sim_cfg_set(&c, "senders", "4096", &err), 0);
	assert_int_not_equal(sim_cfg_set(&c, "senders", "4097", &err), 0);
	assert_int_equal(c.senders, 4096);
	c.buffer = 128ull << 20;
	s = mk(&c, &a);
	assert_int_equal(s->nhosts, 4097);
	/* 32 MB through 100G: 2.8 ms at the payload ceiling */
	assert_int_equal(sim_run(s, 10 * PS_PER_MS, NULL), 0);
	for (i = 0; i < s->nqps; i++)
		assert_true(s->qps[i].done);
	check_conservation(s);
	sim_port_counters(s, &pc);
	assert_int_equal(pc.rx_cqe, 4096);
	assert_int_equal(pc.tx_cqe, 4096);
	assert_int_equal(pc.drops_nobuf, 0);
	sim_free(s);
}

/* Long flows on one bottleneck: > 95 % of the payload ceiling, fair. */
static void test_steady_state(void **state)
{
	static const uint32_t ns[] = { 2, 8, 16, 64 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct sim_cfg c = incast(ns[i]);
		struct sim_summary m;
		struct sim_algo a;
		struct sim *s;

		algo_for(&a, "ztr_rtt");
		s = mk(&c, &a);
		assert_int_equal(sim_run(s, 20 * PS_PER_MS, NULL), 0);
		assert_int_equal(sim_run(s, 20 * PS_PER_MS, NULL), 0);
		sim_summary(s, &m);
		if (m.util < 0.95 * m.payload_ceiling ||
		    m.jain < (ns[i] <= 16 ? 0.99 : 0.95))
			fail_msg("%u flows: utilisation %.4f of ceiling %.4f, "
				 "Jain %.4f", ns[i], m.util, m.payload_ceiling,
				 m.jain);
		assert_int_equal(m.flows, ns[i]);
		sim_free(s);
	}
}

/* ZTR-RTT defaults park the queue at the delay target:
 * C * (15 us - idle RTT) within 10 %, mean RTT within 20 % of 15 us.
 */
static void test_standing_queue(void **state)
{
	struct sim_cfg c = incast(8);
	struct sim_summary m;
	struct sim_algo a;
	struct sim *s;
	double want;

	(void)state;
	algo_for(&a, "ztr_rtt");
	s = mk(&c, &a);
	sim_run(s, 20 * PS_PER_MS, NULL);
	sim_run(s, 20 * PS_PER_MS, NULL);
	sim_summary(s, &m);
	want = 400.0 / 8 * (15000.0 - m.base_rtt);	/* bytes */
	if (m.q_mean < 0.9 * want || m.q_mean > 1.1 * want ||
	    m.rtt_mean < 12000 || m.rtt_mean > 18000)
		fail_msg("queue %.0f B (expected %.0f), RTT %.0f ns", m.q_mean,
			 want, m.rtt_mean);
	sim_free(s);
}

/* The hyper-increase events of all hosts so far. */
static uint64_t ztr_hai_events(const struct sim *s)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < s->nhosts; i++)
		n += s->hosts[i].ap.counters[ZTR_C_HAI_INC];
	return n;
}

/* ZTR-RTT's default target law "36 % below C (T - base)" at 16:1 (issue
 * 34, item 2) is no property of the law.  At 16:1, 400 G the flow law's
 * ALPHA * base * line / rate is 0.1 x 4 us x 16 = 6.4 us, under the
 * 15 us CONGESTION_DELAY_THRESHOLD, so the flow, base and floor laws set
 * the same target.  The low queue is a limit cycle runs lock into from
 * the start-up: after a cut the 9 B additive step per RTT sample takes
 * the queue back to the target more slowly than HAI_PERIOD_NS (7 ms)
 * allows, so the 300 B hyper step overshoots, all 16 flows see the same
 * queue and cut together, deeply, and the climb starts again: a 7.5 ms
 * sawtooth between ~150 and ~700 KB, mean 360 KB.  Whether a run locks
 * in is the seed's (and the event order's) choice: the run is bistable.
 * Measured over seeds 1-32 (second 20 ms window): a run either cycles
 * (hyper increases in the window, queue 0.61-0.79 of C (T - base)) or
 * holds the target (none, 0.96-0.98); with the flow law 27 of 31 seeds
 * cycle, with the base law 5 of 30; a few runs change mode inside the
 * window (seed 204, flow law: 0.91 with 50 hyper increases) and a few
 * still recover from the start-up without (0.83-0.85: seeds 1 and 17 at
 * 20 ms, seed 23 of the base law with the old event order).  So the
 * test asserts, on seeds fid_seed(1..n): a run without hyper increases
 * holds or nears the target (0.8-1.1; none above 1.1), the median of 5
 * flow-law runs under 0.75 (the cycle is the flow law's usual mode), and
 * at least one of 32 base-law runs cycling, hyper increases and under
 * 0.75 (the law does not prevent it; none of 32 at 5 of 30 is a 0.3 %
 * chance).  With HAI_PERIOD_NS at
 * 20 ms no run has a hyper increase in the window and the median of 5
 * holds C (T - base) within 10 %, each run above 0.8.
 */
static void ztr_run(int law, uint32_t hai_period, uint64_t seed,
		    double *ratio, uint64_t *hai)
{
	struct sim_cfg c = incast(16);
	struct sim_summary m;
	struct sim_algo a;
	struct sim *s;
	uint64_t hai0;

	c.seed = seed;
	algo_for(&a, "ztr_rtt");
	a.conf.opts[ZTR_OPT_TARGET] = (uint32_t)law;
	a.conf.params[ZTR_HAI_PERIOD_NS] = hai_period;
	s = mk(&c, &a);
	sim_run(s, 20 * PS_PER_MS, NULL);
	hai0 = ztr_hai_events(s);
	sim_run(s, 20 * PS_PER_MS, NULL);
	sim_summary(s, &m);
	*ratio = m.q_mean / (400.0 / 8 * (15000.0 - m.base_rtt));
	*hai = ztr_hai_events(s) - hai0;
	print_message("law %d, seed %llu, HAI_PERIOD_NS %u: queue %.0f KB "
		      "(%.2f of C (T - base)), %llu hyper increases\n", law,
		      (unsigned long long)seed, hai_period, m.q_mean / 1024,
		      *ratio, (unsigned long long)*hai);
	sim_free(s);
}

static void test_ztr_hai_sawtooth(void **state)
{
	static const struct {
		int law;
		uint32_t hai_period, n;
	} rows[] = {
		{ ZTR_TARGET_FLOW, 7000000, 5 },
		{ ZTR_TARGET_BASE, 7000000, 32 },
		{ ZTR_TARGET_FLOW, 20000000, 5 },
	};
	uint32_t params[ZTR_NPARAMS] = { 0 }, opts[ZTR_NOPTS] = { 0 };
	struct ztr_qp q = { 0 };
	size_t i;
	uint32_t j;
	int law;

	(void)state;
	params[ZTR_ALPHA] = 6553;
	params[ZTR_CONGESTION_DELAY_THRESHOLD] = 15000;
	q.rate = ALGO_RATE_ONE / 16;
	for (law = ZTR_TARGET_FLOW; law <= ZTR_TARGET_FLOOR; law++) {
		opts[ZTR_OPT_TARGET] = (uint32_t)law;
		assert_int_equal(ztr_target(params, opts, &q, 4005), 15000);
	}
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double r[32];
		uint64_t hai;
		uint32_t cycles = 0;

		for (j = 0; j < rows[i].n; j++) {
			ztr_run(rows[i].law, rows[i].hai_period,
				fid_seed(1 + j), &r[j], &hai);
			if (rows[i].hai_period > 10000000) {
				if (hai || r[j] <= 0.8 || r[j] > 1.1)
					fail_msg("HAI_PERIOD_NS 20 ms, seed "
						 "%llu: %.2f, %llu hyper "
						 "increases", (unsigned long
						 long)fid_seed(1 + j), r[j],
						 (unsigned long long)hai);
			} else if (hai && r[j] < 0.75) {
				cycles++;
			} else if (r[j] > 1.1 || (!hai && r[j] <= 0.8)) {
				fail_msg("law %d, seed %llu: %.2f, %llu "
					 "hyper increases: neither mode",
					 rows[i].law, (unsigned long long)
					 fid_seed(1 + j), r[j],
					 (unsigned long long)hai);
			}
		}
		print_message("= law %d, HAI_PERIOD_NS %u: %u of %u runs "
			      "cycle, median %.2f\n", rows[i].law,
			      rows[i].hai_period, cycles, rows[i].n,
			      median_of(r, rows[i].n));
		if (rows[i].hai_period > 10000000) {
			double med = median_of(r, rows[i].n);

			assert_true(med > 0.9 && med < 1.1);
		} else if (rows[i].law == ZTR_TARGET_FLOW) {
			assert_true(median_of(r, rows[i].n) < 0.75);
		} else {
			assert_true(cycles > 0);
		}
	}
}

/* Higher ALPHA, higher target (flow-scaled), higher mean RTT. */
static void test_alpha_monotone(void **state)
{
	static const uint32_t alpha[] = { 0, 6553, 19661 };
	double prev = 0;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct sim_cfg c = incast(64);
		struct sim_summary m;
		struct sim_algo a;
		struct sim *s;

		algo_for(&a, "ztr_rtt");
		a.conf.params[ZTR_ALPHA] = alpha[i];
		s = mk(&c, &a);
		sim_run(s, 15 * PS_PER_MS, NULL);
		sim_run(s, 10 * PS_PER_MS, NULL);
		sim_summary(s, &m);
		if (!(m.rtt_mean > prev * 1.2))
			fail_msg("ALPHA %u: mean RTT %.0f ns after %.0f",
				 alpha[i], m.rtt_mean, prev);
		prev = m.rtt_mean;
		sim_free(s);
	}
}

/* PFC: the 64:1 burst is paused, not dropped; the upstream port stops
 * within one link RTT (pause frame + propagation) of crossing Xoff.
 */
static void test_pfc(void **state)
{
	struct sim_cfg c = incast(64);
	struct sim_summary m;
	struct sim_algo a;
	struct sim *s;

	(void)state;
	algo_for(&a, "ztr_rtt");
	s = mk(&c, &a);
	sim_run(s, 5 * PS_PER_MS, NULL);
	sim_summary(s, &m);
	assert_true(m.pauses > 0);
	assert_int_equal(m.drops, 0);
	assert_true(s->pfc_lag_max > 0);
	assert_true(s->pfc_lag_max <= 2 * c.delay_ps);
	sim_free(s);
}

/* The bytes a switch sets aside for PFC: its ports' headroom and
 * reserves. */
static uint64_t pfc_need(const struct sim *s, uint32_t w)
{
	return s->sws[w].headroom + s->sws[w].reserve;
}

/* PFC always resumes (issue 23, bug 1): with the shared pool nearly
 * all headroom the dynamic Xoff sits at its floor of two packets, and
 * the Xon point must stay reachable; a 64:1 incast without CC then runs
 * at line rate, losslessly, in every window.
 */
static void test_pfc_resume(void **state)
{
	struct sim_cfg c = incast(64);
	struct sim_summary m;
	struct sim_algo none;
	struct sim *s;

	(void)state;
	memset(&none, 0, sizeof(none));
	c.mtu = 1024;
	s = mk(&c, &none);
	c.buffer = pfc_need(s, 0) + 16 * 1024;	/* pool: 16 KB */
	sim_free(s);
	s = mk(&c, &none);
	assert_int_equal(sim_run(s, 5 * PS_PER_MS, NULL), 0);
	assert_int_equal(sim_run(s, 5 * PS_PER_MS, NULL), 0);
	sim_summary(s, &m);
	if (m.util < 0.95 * m.payload_ceiling || m.drops)
		fail_msg("second window: utilisation %.4f of %.4f, %llu drops",
			 m.util, m.payload_ceiling,
			 (unsigned long long)m.drops);
	assert_true(m.pauses > 0);
	sim_free(s);
}

/* Lossless means the buffer holds every port's headroom (issue 23,
 * bug 2): a 64:1 incast at 400 G with a 4 MB buffer is refused, the
 * message naming the least buffer that works; with that buffer a burst
 * without CC is paused, never dropped.
 */
static void test_pfc_headroom(void **state)
{
	struct sim_cfg c = incast(64);
	struct pcb_err err = { 0 };
	struct sim_summary m;
	struct sim_algo none;
	struct sim *s = NULL;
	const char *at;
	uint64_t kb;
	uint32_t i;

	(void)state;
	memset(&none, 0, sizeof(none));
	c.buffer = 4 << 20;
	assert_int_equal(sim_create(&s, &c, &none, &err), -PCB_E_RANGE);
	assert_null(s);
	at = strstr(err.msg, "needs buffer ");
	if (!at || strchr(err.msg, '\n'))
		fail_msg("refusal: %s", err.msg);
	kb = strtoull(at + strlen("needs buffer "), NULL, 10);
	/* 65 ports, each two 1 us link delays at 50 B/ns and two packets */
	assert_true(kb * 1024 > 65 * 100000ull && kb * 1024 < 8ull << 20);
	c.buffer = kb * 1024;
	s = mk(&c, &none);
	assert_int_equal(sim_run(s, 5 * PS_PER_MS, NULL), 0);
	sim_summary(s, &m);
	assert_true(m.pauses > 0);
	if (m.drops || m.util < 0.95 * m.payload_ceiling)
		fail_msg("at the minimum buffer: %llu drops, utilisation %.4f",
			 (unsigned long long)m.drops, m.util);
	/* the headroom is what the model needs: every sender's burst after
	 * an Xoff fits its port's, and fills more than half of it */
	for (i = 0; i < 64; i++) {
		const struct port *p = &s->ports[s->sws[0].routes[i].first];

		if (p->hdrm_peak > p->headroom || 2 * p->hdrm_peak < p->headroom)
			fail_msg("port %u: %u bytes after Xoff, headroom %u", i,
				 p->hdrm_peak, p->headroom);
	}
	sim_free(s);
	/* one KB less is refused */
	c.buffer = (kb - 1) * 1024;
	s = NULL;
	assert_int_equal(sim_create(&s, &c, &none, &err), -PCB_E_RANGE);
	/* without PFC there is nothing to hold: accepted */
	c.pfc = false;
	s = mk(&c, &none);
	sim_free(s);
}

/* The watchdog: a pause that is never lifted (here forced on the
 * switch port towards the receiver) stops every departure while data
 * waits; the run ends with an error that names the paused port.
 */
static void test_stall_watchdog(void **state)
{
	struct sim_cfg c = incast(4);
	struct pcb_err err = { 0 };
	struct sim_algo none;
	struct sim *s;
	uint32_t out;

	(void)state;
	memset(&none, 0, sizeof(none));
	s = mk(&c, &none);
	assert_int_equal(sim_run(s, PS_PER_MS, NULL), 0);
	assert_int_equal(sim_stall(s, &err), 0);
	out = s->sws[0].routes[4].first;	/* towards host 4 */
	s->ports[out].paused = true;
	s->ports[out].pause_start = s->now;
	assert_int_equal(sim_run(s, 5 * PS_PER_MS, NULL), -PCB_E_DEVICE);
	/* it stops once the interval has passed, not at the end */
	assert_true(s->now < 3 * PS_PER_MS);
	assert_int_equal(sim_stall(s, &err), -PCB_E_DEVICE);
	if (!strstr(err.msg, "switch 0 port 4") || !strstr(err.msg, "stall"))
		fail_msg("stall message: %s", err.msg);
	sim_free(s);
}

/* A PFC storm (storm_at): the receiver's NIC pauses its switch port for
 * good.  The NICs count the one pause frame sent and the time the
 * senders spent paused; the watchdog names the receiver's switch port
 * first (held the longest), then the senders Xoff reached; a storm
 * without PFC is refused.
 */
static void test_pfc_storm(void **state)
{
	struct sim_cfg c = incast(4);
	struct pcb_err err = { 0 };
	struct sim_port_counters pc;
	struct sim_algo none;
	struct sim *s;

	(void)state;
	memset(&none, 0, sizeof(none));
	c.storm_at_ps = 50 * PS_PER_US;
	s = mk(&c, &none);
	assert_int_equal(sim_run(s, 10 * PS_PER_MS, NULL), -PCB_E_DEVICE);
	assert_true(s->now < 3 * PS_PER_MS);
	sim_port_counters(s, &pc);
	assert_int_equal(pc.pause_tx_prio[SIM_PRIO_DATA], 1);
	assert_int_equal(pc.pause_rx_prio[SIM_PRIO_DATA], 4);
	assert_true(pc.pause_rx_ns_prio[SIM_PRIO_DATA] > 4 * 900000ULL);
	assert_true(pc.pause_rx_ns_prio[SIM_PRIO_DATA] <
		    4 * (uint64_t)(s->now / 1000));
	assert_int_equal(sim_stall(s, &err), -PCB_E_DEVICE);
	if (!strstr(err.msg, "then the longest held): switch 0 port 4, "
		    "host 0, host 1, host 2, host 3") ||
	    strstr(err.msg, "more"))
		fail_msg("stall message: %s", err.msg);
	sim_free(s);
	/* 32 senders: some were paused by the incast before the storm and
	 * never resumed, held longer than the storm's port; the port the
	 * NIC paused still comes first (it came 26th, among "25 more") */
	c = incast(32);
	c.storm_at_ps = 100 * PS_PER_US;
	s = mk(&c, &none);
	assert_int_equal(sim_run(s, 10 * PS_PER_MS, NULL), -PCB_E_DEVICE);
	memset(&err, 0, sizeof(err));	/* an error keeps its first text */
	assert_int_equal(sim_stall(s, &err), -PCB_E_DEVICE);
	if (!strstr(err.msg, "then the longest held): switch 0 port 32, "
		    "host ") || !strstr(err.msg, " and 25 more"))
		fail_msg("stall message: %s", err.msg);
	sim_free(s);
	c = incast(4);
	c.storm_at_ps = 50 * PS_PER_US;
	c.pfc = false;
	s = NULL;
	assert_int_equal(sim_create(&s, &c, &none, &err), -PCB_E_INVAL);
	assert_null(s);
}

/* A probe asked for outside the NIC's send path (here from a timer) leaves
 * as soon as the port is free, not at the QP's next data slot: a test
 * algorithm paces its one QP at 1/64 of line rate (a data slot every
 * ~10.6 us at 100G, 4 KB) and asks for a probe from a timer 20.5 us into
 * the flow.  Before the fix the probe waited for whatever next made the
 * NIC look (the next data slot, or an unrelated duplicate wake).
 */
static int64_t pp_req_ns = -1, pp_sent_ns = -1;

/* the QP's state: the timer's time (ns), 0 once it fired; every output
 * repeats it (an output without one cancels the timer) */
static void pp_out(const void *qp, struct algo_out *o)
{
	o->rate = ALGO_RATE_ONE / 64;
	o->timer_at = *(const int64_t *)qp;
}

static void pp_init(struct algo_port *p, void *qp, int64_t now,
		    struct algo_out *o)
{
	(void)p;
	*(int64_t *)qp = now + 20500;
	pp_out(qp, o);
}

static void pp_tx(struct algo_port *p, void *qp, int64_t now, uint32_t bytes,
		  bool probe_sent, struct algo_out *o)
{
	(void)p;
	(void)bytes;
	if (probe_sent && pp_sent_ns < 0)
		pp_sent_ns = now;
	pp_out(qp, o);
}

static void pp_rtt(struct algo_port *p, void *qp, int64_t now, int64_t a,
		   int64_t b, struct algo_out *o)
{
	(void)p;
	(void)now;
	(void)a;
	(void)b;
	pp_out(qp, o);
}

static void pp_event(struct algo_port *p, void *qp, int64_t now,
		     struct algo_out *o)
{
	(void)p;
	(void)now;
	pp_out(qp, o);
}

static void pp_timer(struct algo_port *p, void *qp, int64_t now,
		     struct algo_out *o)
{
	(void)p;
	pp_req_ns = now;
	*(int64_t *)qp = 0;
	pp_out(qp, o);
	o->probe_req = true;
}

static void test_probe_prompt(void **state)
{
	static const struct algo_ops ops = {
		.name = "probe_prompt", .label = "test", .qp_state_size = 8,
		.init = pp_init, .on_tx = pp_tx, .on_rtt = pp_rtt,
		.on_cnp = pp_event, .on_nack = pp_event,
		.on_probe_timeout = pp_event, .on_timer = pp_timer,
	};
	struct sim_cfg c = incast(1);
	struct sim_algo a;
	struct sim *s;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.ops = &ops;
	c.rate_gbps = 100;
	s = mk(&c, &a);
	assert_int_equal(sim_run(s, 200 * PS_PER_US, NULL), 0);
	assert_int_equal(pp_req_ns, 20500);
	/* at most one data packet (4 KB at 100G: 333 ns) ahead of it */
	assert_true(pp_sent_ns >= pp_req_ns);
	if (pp_sent_ns - pp_req_ns > 400)
		fail_msg("probe asked at %lld ns left at %lld ns",
			 (long long)pp_req_ns, (long long)pp_sent_ns);
	sim_free(s);
}

/* Lossy: drops appear, tail losses end in retransmission timeouts, and
 * every flow still completes (goodput recovers).
 */
static void test_lossy(void **state)
{
	struct sim_cfg c = incast(64);
	struct sim_summary m;
	struct sim_algo a;
	const int64_t *rto;
	struct sim *s;
	size_t n;
	uint32_t i;

	(void)state;
	algo_for(&a, "ztr_rtt");
	c.pfc = false;
	c.size = 1 << 20;
	c.buffer = 2 << 20;
	s = mk(&c, &a);
	sim_run(s, 100 * PS_PER_MS, NULL);
	sim_summary(s, &m);
	assert_true(m.drops > 0);
	assert_int_equal(m.pauses, 0);
	assert_true(m.rtos > 0);
	n = sim_rto_values(s, &rto);
	assert_int_equal(n, m.rtos);
	/* adaptive retransmission (on where packets can be lost): from a
	 * first timeout of 2^5 or 2^6 x 4.096 us, doubling up to the QP
	 * timeout; most repair well before it */
	assert_int_equal(m.rtos_lossless, 0);
	for (i = 0; i < n; i++)
		assert_true(rto[i] >= ADP_BASE_PS << ADP_INIT_LOW &&
			    rto[i] <= sim_qp_timeout_ps(&c));
	assert_true(rto[0] < ADP_BASE_PS << (ADP_INIT_LOW + ADP_INIT_RANGE));
	for (i = 0; i < s->nqps; i++)
		if (!s->qps[i].done)
			fail_msg("flow %u did not complete", i);
	check_conservation(s);
	sim_free(s);
}

/* Issue 23, bug 8: a lossless run has no retransmission timeouts.
 * DCQCN 64:1 at 100 G queues ~2 ms behind PFC, 0 drops: a fixed 1 ms
 * RTO fired 96 times.  A flow at a crawl (0.4 Mb/s, a 4 KB packet
 * every 82 ms) waited for three more packets before the responder
 * acknowledged one, and timed out on each.
 */
static void test_lossless_no_rto(void **state)
{
	struct sim_cfg c = incast(64);
	struct sim_summary m;
	struct sim_algo a;
	struct sim *s;

	(void)state;
	algo_for(&a, "dcqcn");
	c.rate_gbps = 100;
	s = mk(&c, &a);
	assert_int_equal(sim_run(s, 20 * PS_PER_MS, NULL), 0);
	sim_summary(s, &m);
	assert_int_equal(m.drops, 0);
	assert_true(m.q_max > 20e6);	/* ms of queueing: still deep */
	assert_int_equal(m.rtos, 0);
	sim_free(s);
	/* two crawling flows: every packet is acknowledged in time */
	c = incast(2);
	algo_for(&a, "ztr_rtt");
	a.conf.params[ZTR_FIXED_RATE] = 1;
	s = mk(&c, &a);
	assert_int_equal(sim_run(s, 400 * PS_PER_MS, NULL), 0);
	sim_summary(s, &m);
	assert_true(s->qps[0].snd_una >= 4);
	assert_int_equal(m.rtos, 0);
	sim_free(s);
	/* a timeout below the queueing (timeout 1: 8.2 us) times out
	 * without a loss: each is an anomaly of the run */
	c = incast(16);
	c.timeout = 1;
	algo_for(&a, "ztr_rtt");
	s = mk(&c, &a);
	assert_int_equal(sim_run(s, PS_PER_MS, NULL), 0);
	sim_summary(s, &m);
	assert_int_equal(m.drops, 0);
	assert_true(m.rtos > 0);
	assert_int_equal(m.rtos_lossless, m.rtos);
	sim_free(s);
}

/* Issue 23, bug 9: RTT statistics count every answered probe, and what
 * a port never got is not counted as received.  An 8:1 incast at 100 G
 * holds up to 16 MB (1.3 ms) in its first 2 ms; probes answered after
 * the algorithm gave up on them (300 us) were left out, so the p99 read
 * 446 us.  A probe alone on the idle path sees it exactly, and its p99
 * is not below it (a histogram midpoint, 4000 ns, was).
 */
static void test_probe_rtt_honest(void **state)
{
	struct sim_cfg c = incast(8);
	struct sim_port_counters pc;
	struct sim_summary m;
	struct sim_algo a;
	uint64_t lost = 0, sent = 0;
	struct sim *s;
	uint32_t i;

	(void)state;
	algo_for(&a, "ztr_rtt");
	c.rate_gbps = 100;
	s = mk(&c, &a);
	assert_int_equal(sim_run(s, 2 * PS_PER_MS, NULL), 0);
	sim_summary(s, &m);
	assert_true(m.q_max > 15e6);
	/* the deepest queue's delay, bytes / (12.5 B/ns), minus a third */
	if (m.rtt_p99 < m.q_max / 12.5 * 2 / 3)
		fail_msg("p99 RTT %.0f ns under a %.0f ns queue", m.rtt_p99,
			 m.q_max / 12.5);
	assert_true(m.rtt_late > 0 && m.rtt_late < m.rtt_samples);
	assert_int_equal(m.probes_lost, 0);
	sim_free(s);
	/* idle path */
	c = incast(2);
	algo_for(&a, "ztr_rtt");
	a.conf.params[ZTR_FIXED_RATE] = 1049;
	c.jitter = true;
	c.jitter_ps = 3 * PS_PER_US;
	s = mk(&c, &a);
	assert_int_equal(sim_run(s, 2 * PS_PER_MS, NULL), 0);
	sim_summary(s, &m);
	assert_true(m.rtt_samples > 500);
	if (m.rtt_p99 < m.base_rtt)
		fail_msg("p99 %.3f ns below the idle path %.3f ns", m.rtt_p99,
			 m.base_rtt);
	sim_free(s);
	/* link loss: a NIC counts what it received, not what was lost on
	 * its link */
	c = incast(4);
	c.loss = 42949673;	/* 1 % */
	c.size = 256 << 10;
	s = mk(&c, &a);
	sim_run(s, 20 * PS_PER_MS, NULL);
	sim_port_counters(s, &pc);
	for (i = 0; i < s->nhosts; i++) {
		const struct port *p = &s->ports[s->hosts[i].port];

		sent += s->ports[p->peer].tx_pkts_c[0] +
			s->ports[p->peer].tx_pkts_c[1];
		lost += p->lost_pkts;
	}
	assert_true(lost > 0);
	assert_int_equal(pc.rx_pkts + lost, sent);
	sim_free(s);
}

/* DCQCN (ECN + CNP) brings two flows to a fair share. */
static void test_dcqcn_fair(void **state)
{
	struct sim_cfg c = incast(2);
	struct sim_summary m;
	struct sim_algo a;
	struct sim *s;

	(void)state;
	algo_for(&a, "dcqcn");
	c.kind = SIM_STAIRCASE;		/* the second flow joins at 5 ms */
	c.step_ps = 5 * PS_PER_MS;	/* and both run until 15 ms */
	s = mk(&c, &a);
	sim_run(s, 10 * PS_PER_MS, NULL);
	sim_run(s, 4 * PS_PER_MS, NULL);
	sim_summary(s, &m);
	assert_int_equal(m.flows, 2);
	if (m.jain < 0.95 || m.util < 0.9 * m.payload_ceiling)
		fail_msg("DCQCN: Jain %.4f, utilisation %.4f", m.jain, m.util);
	assert_true(s->c.cnp_handled > 0);
	assert_true(s->hosts[0].ap.counters[1] + s->hosts[1].ap.counters[1]
		    > 0);	/* rate cuts */
	sim_free(s);
}

/* A rate increase wakes an idle NIC: a QP cut to the floor has its next
 * packet slot milliseconds away; when the timer then raises its rate,
 * the slot moves into the past and the NIC must send at once, not at
 * the old slot.  16:1 at 100 G with DCQCN: the start-up burst floors
 * every rate, the queue drains, and 300 us later the first fast
 * recovery allows half the line each.  Found while reproducing issue
 * 23 item 5: the link then sat idle for 700 us.
 */
static void test_rate_increase_wakes(void **state)
{
	struct sim_cfg c = incast(16);
	struct sim_summary m;
	struct sim_algo a;
	struct sim *s;
	int step, checked = 0;

	(void)state;
	algo_for(&a, "dcqcn");
	c.rate_gbps = 100;
	c.ecn_dequeue = true;
	s = mk(&c, &a);
	for (step = 0; step < 60; step++) {
		uint32_t r[16];
		uint64_t sum = 0;
		size_t i, n = sim_flow_rates(s, r, 16);

		for (i = 0; i < n; i++)
			sum += r[i];
		sim_run(s, 20 * PS_PER_US, NULL);
		sim_summary(s, &m);
		/* the limiters allowed more than the line all along */
		if (sum < 2 * (uint64_t)ALGO_RATE_ONE)
			continue;
		n = sim_flow_rates(s, r, 16);
		for (i = 0, sum = 0; i < n; i++)
			sum += r[i];
		if (sum < 2 * (uint64_t)ALGO_RATE_ONE)
			continue;
		checked++;
		if (m.util < 0.9 * m.payload_ceiling)
			fail_msg("%d us: limiters allow %.2f lines, the link "
				 "carries %.3f", (step + 1) * 20,
				 (double)sum / ALGO_RATE_ONE, m.util);
	}
	assert_true(checked > 3);
	sim_free(s);
}

/* The DCQCN paper's setting (SIGCOMM'15 / CoNEXT'16, dcqcn-pfc.md 2.1)
 * in NVIDIA's knobs: T = 55 us, F = 5, R_AI = 40 Mb/s, g = 1/256 every
 * 55 us, a cut on every CNP with the target clamped, CNPs at most every
 * 50 us, ECN 5 KB / 200 KB / 1 % at dequeue, 1 KB packets, 1 us links
 * (tau* about 4 us).  Reconstruction: the paper's byte counter (B =
 * 10 MB) is off, since rpg_byte_reset stops at 32767; at 40 G it would
 * fire every 20 ms (10 flows) and moves the fixed point below 0.1 %.
 * The fluid model has no hyper increase: rpg_hai_rate = R_AI makes
 * every step after fast recovery the same additive one.
 */
static void dcqcn_paper(struct sim_cfg *c, struct sim_algo *a, uint32_t n,
			uint32_t gbps)
{
	uint32_t *p;

	sim_cfg_default(c);
	c->senders = n;
	c->rate_gbps = gbps;
	c->mtu = 1024;
	c->kmin = 5 * 1024;
	c->kmax = 200 * 1024;
	c->pmax = 655;			/* 1 % */
	c->ecn_dequeue = true;
	c->cnp_interval_ps = 50 * PS_PER_US;
	algo_for(a, "dcqcn");
	p = a->conf.params;
	p[DCQCN_TIME_RESET] = 55;
	p[DCQCN_BYTE_RESET] = 0;
	p[DCQCN_THRESHOLD] = 5;
	p[DCQCN_AI_RATE] = 40;
	p[DCQCN_HAI_RATE] = 40;
	p[DCQCN_MIN_DEC_FAC] = 0;
	p[DCQCN_G] = 1020;
	p[DCQCN_ALPHA_PERIOD] = 55;
	p[DCQCN_MONITOR_PERIOD] = 0;
	p[DCQCN_CLAMP_TGT] = 1;
}

/* The fluid model's fixed point (Zhu et al., CoNEXT'16; dcqcn-pfc.md
 * 2.2) for n flows at gbps in the paper's setting, in wire packets of
 * 1088 B: p* solves a^2 alpha / ((b + d)(c + e)) = tau^2 R_AI R, by
 * bisection on log p; returns q* in bytes.  With 1000 B packets it gives
 * the spec's 20.2 KB (2 flows) and 122.6 KB (10) at 40 G.
 */
static double fluid_queue(uint32_t n, uint32_t gbps)
{
	const double pkt = 1088, tau = 50e-6, taup = 55e-6, T = 55e-6;
	const double F = 5, kmin = 5 * 1024, kmax = 200 * 1024, pmax = 0.01;
	double R = gbps * 1e9 / 8 / pkt / n, ai = 40e6 / 8 / pkt;
	double lo = 1e-9, hi = 0.5;
	int i;

	for (i = 0; i < 200; i++) {
		double p = sqrt(lo * hi);
		double a = 1 - pow(1 - p, tau * R);
		double d = p / (pow(1 - p, -T * R) - 1);
		double e = pow(1 - p, F * T * R) * d;
		double al = 1 - pow(1 - p, taup * R);

		if (a * a * al / (d * e) > tau * tau * ai * R)
			hi = p;
		else
			lo = p;
	}
	return lo >= pmax ? kmax : kmin + lo / pmax * (kmax - kmin);
}

/* 2 and 10 flows at 40 G and 100 G in the paper's setting land near the
 * fluid model's fixed point (issue 23, item 5): the mean queue of 40-60
 * ms within 2x of q* (the median over seeds 1-5; over seeds 1-25 single
 * runs gave 0.87-1.50x at 2 flows, 40 G, 0.99-1.16x at 10, 0.89-1.29x at
 * 2 flows, 100 G, 1.14-1.34x at 10; the 10-flow excess is the packet
 * model's burstiness: marks come in runs, the fluid's are smooth), at
 * the payload ceiling (over 0.99 of it in the median run, over 0.98 in
 * each: seeds 1-25, 101-125 and 201-210 gave 0.995-0.998 but seed 102,
 * 0.988, whose two flows once cut together deeply enough to drain the
 * queue), losslessly (each run), fair (Jain's index over
 * 0.95 in the median run, over 0.9 in each: two flows' shares over 20
 * ms scatter, 0.948 at seed 205 with the old event order); and the
 * start-up swing damps: the queue's peak in that window is under half
 * its peak in the first 5 ms, as a mean over the five seeds (one 2-flow
 * run's peak is one AIMD swing: 0.31-0.62 of the start-up's over seeds
 * 1-25, 5 of them over 0.5; the mean of 0.41 is the claim).
 */
static void test_dcqcn_fluid_fixed_point(void **state)
{
	static const uint32_t cases[][2] = { { 2, 40 }, { 10, 40 },
					     { 2, 100 }, { 10, 100 } };
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		uint32_t n = cases[i][0], gbps = cases[i][1];
		double want = fluid_queue(n, gbps), q[5], jain[5], ut[5];
		double damp = 0;
		double med;
		uint32_t j;

		for (j = 0; j < 5; j++) {
			struct sim_summary m;
			struct sim_algo a;
			struct sim_cfg c;
			struct sim *s;
			double peak0;

			dcqcn_paper(&c, &a, n, gbps);
			c.seed = fid_seed(1 + j);
			s = mk(&c, &a);
			sim_run(s, 5 * PS_PER_MS, NULL);
			sim_summary(s, &m);
			peak0 = m.q_max;
			sim_run(s, 35 * PS_PER_MS, NULL);
			sim_run(s, 20 * PS_PER_MS, NULL);
			sim_summary(s, &m);
			print_message("%u flows at %uG, seed %llu: queue %.1f "
				      "KB, fluid %.1f KB, peak %.0f KB (first "
				      "5 ms %.0f KB), Jain %.3f, util %.4f of "
				      "the ceiling\n", n, gbps,
				      (unsigned long long)c.seed,
				      m.q_mean / 1024, want / 1024,
				      m.q_max / 1024, peak0 / 1024, m.jain,
				      m.util / m.payload_ceiling);
			q[j] = m.q_mean;
			jain[j] = m.jain;
			damp += m.q_max / peak0 / 5;
			ut[j] = m.util / m.payload_ceiling;
			assert_true(ut[j] > 0.98);
			assert_true(m.jain > 0.9);
			assert_int_equal(m.drops + m.rtos, 0);
			sim_free(s);
		}
		med = median_of(q, 5);
		print_message("= %u flows at %uG: median queue %.2fx q*, peak "
			      "%.2f of the start-up's (mean)\n", n, gbps,
			      med / want, damp);
		if (med < want / 2 || med > want * 2)
			fail_msg("%u flows at %uG: median queue %.0f B, fixed "
				 "point %.0f B", n, gbps, med, want);
		if (damp >= 0.5)
			fail_msg("%u flows at %uG: the window's peak is %.2f "
				 "of the start-up's", n, gbps, damp);
		assert_true(median_of(jain, 5) > 0.95);
		assert_true(median_of(ut, 5) > 0.99);
	}
}

/* The fluid fixed point (as fluid_queue) in NVIDIA's shipped setting
 * (dcqcn-pfc.md 1.2; round3-facts.md): tau = 4 us (CNP interval), tau' =
 * 1 us, g = 5/1024 (dce_tcp_g 1019), T = 300 us, B = 32767 KB (the
 * byte counter's unit as the model reads it), F = 1, R_AI = 5 Mb/s, ECN
 * 100 KB / 400 KB / 0.2, wire packets of mtu + 64 bytes; q* in bytes.
 * fluid_nvidia takes R_AI and the byte counter's unit (kb: KB, else
 * bytes) as arguments.
 */
static double fluid_nvidia(uint32_t n, uint32_t gbps, uint32_t mtu,
			   uint32_t ai_mbps, bool kb)
{
	const double pkt = mtu + 64, tau = 4e-6, taup = 1e-6, T = 300e-6;
	const double F = 1, kmin = 100 * 1024, kmax = 400 * 1024;
	const double pmax = 0.2, B = 32767.0 * (kb ? 1024 : 1) / pkt;
	double R = gbps * 1e9 / 8 / pkt / n, ai = ai_mbps * 1e6 / 8 / pkt;
	double lo = 1e-12, hi = 0.999;
	int i;

	for (i = 0; i < 300; i++) {
		double p = sqrt(lo * hi);
		double a = 1 - pow(1 - p, tau * R);
		double x = -B * log1p(-p);
		double b = x < 700 ? p / expm1(x) : 0;
		double c = pow(1 - p, F * B) * b;
		double d = p / (pow(1 - p, -T * R) - 1);
		double e = pow(1 - p, F * T * R) * d;
		double al = 1 - pow(1 - p, taup * R);

		if (a * a * al / ((b + d) * (c + e)) > tau * tau * ai * R)
			hi = p;
		else
			lo = p;
	}
	return lo >= pmax ? kmax : kmin + lo / pmax * (kmax - kmin);
}

static double fluid_queue_nvidia(uint32_t n, uint32_t gbps, uint32_t mtu)
{
	return fluid_nvidia(n, gbps, mtu, 5, true);
}

/* DCQCN at NVIDIA's shipped defaults (issue 34, item 1): 16:1 and 64:1
 * at 100 G, 1 KB and 4 KB packets, land within 2x of the fluid fixed
 * point once the start-up has passed: 16:1 at once, 64:1 after some 40-
 * 60 ms in PFC (the line-rate start fills the buffer; each cycle of
 * drain and fast recovery halves the target; the median over seeds 1-5
 * judged, single runs over seeds 1-25 gave 0.64-0.76x, 1.09-1.19x,
 * 0.87-1.02x and 1.08-1.26x of q*), each run at line rate, lossless.
 * The byte counter counts KB: read as bytes (the old model) the 16:1,
 * 1 KB case is bistable: 14 of seeds 1-25 sat in PFC at 16.7-18.5 MB,
 * 150x q*, the rest at 0.1-3.1 MB; asserted: the mean queue over seeds
 * 1-8 above 20x q* and at least one of them PFC-bound (a 0.2 % chance
 * of none at 14 of 25).  256:1 stays PFC-bound (README, "DCQCN at
 * NVIDIA's defaults"): each QP's packets come in bursts, one CNP a
 * burst, so a QP sees a CNP less often than every rpg_time_reset and
 * the timer's fast recovery follows nearly every cut; checked here as
 * that mechanism (one seed: seeds 1-25 gave the same run).
 */
static void test_dcqcn_nvidia_defaults(void **state)
{
	static const struct {
		uint32_t n, mtu, warm_ms;
	} cases[] = {
		{ 16, 1024, 10 }, { 16, 4096, 10 },
		{ 64, 1024, 60 }, { 64, 4096, 80 },
	};
	struct sim_summary m;
	struct sim_algo a;
	struct sim_cfg c;
	struct sim *s;
	uint64_t cnp0, fr0, cut0;
	double want, q[8], mean = 0;
	uint32_t j, pfc = 0;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double med;

		for (j = 0; j < 5; j++) {
			c = incast(cases[i].n);
			c.rate_gbps = 100;
			c.mtu = cases[i].mtu;
			c.seed = fid_seed(1 + j);
			algo_for(&a, "dcqcn");
			want = fluid_queue_nvidia(c.senders, 100, c.mtu);
			s = mk(&c, &a);
			sim_run(s, cases[i].warm_ms * PS_PER_MS, NULL);
			sim_run(s, 20 * PS_PER_MS, NULL);
			sim_summary(s, &m);
			print_message("%u:1 at %u B, seed %llu: queue %.1f KB, "
				      "fluid %.1f KB (%.2fx), %llu pauses\n",
				      c.senders, c.mtu,
				      (unsigned long long)c.seed,
				      m.q_mean / 1024, want / 1024,
				      m.q_mean / want,
				      (unsigned long long)m.pauses);
			q[j] = m.q_mean;
			assert_true(m.util > 0.95 * m.payload_ceiling);
			assert_int_equal(m.drops + m.rtos, 0);
			sim_free(s);
		}
		med = median_of(q, 5);
		print_message("= %u:1 at %u B: median queue %.2fx q*\n",
			      c.senders, c.mtu, med / want);
		if (med < want / 2 || med > want * 2)
			fail_msg("%u:1 at %u B: median queue %.0f B, fixed "
				 "point %.0f B", c.senders, c.mtu, med, want);
	}
	/* the byte-counter unit read as bytes: PFC-bound (bistable) */
	want = fluid_queue_nvidia(16, 100, 1024);
	for (j = 0; j < 8; j++) {
		c = incast(16);
		c.rate_gbps = 100;
		c.mtu = 1024;
		c.seed = fid_seed(1 + j);
		algo_for(&a, "dcqcn");
		a.conf.opts[DCQCN_OPT_BYTE_UNIT] = DCQCN_BYTES_B;
		s = mk(&c, &a);
		sim_run(s, 10 * PS_PER_MS, NULL);
		sim_run(s, 10 * PS_PER_MS, NULL);
		sim_summary(s, &m);
		print_message("16:1 at 1024 B, byte_unit B, seed %llu: queue "
			      "%.1f MB, %llu pauses\n",
			      (unsigned long long)c.seed, m.q_mean / 1048576,
			      (unsigned long long)m.pauses);
		mean += m.q_mean / 8;
		if (m.q_mean > 20 * want && m.pauses > 0)
			pfc++;
		sim_free(s);
	}
	print_message("= byte_unit B: mean queue %.0fx q*, %u of 8 runs in "
		      "PFC\n", mean / want, pfc);
	assert_true(mean > 20 * want && pfc > 0);
	/* 256:1, 4 KB: PFC-bound, fewer CNPs per QP than timer periods,
	 * a fast recovery for most cuts */
	c = incast(256);
	c.rate_gbps = 100;
	c.seed = fid_seed(1);
	algo_for(&a, "dcqcn");
	s = mk(&c, &a);
	sim_run(s, 30 * PS_PER_MS, NULL);
	cnp0 = s->c.cnp_handled;
	cut0 = s->hosts[0].ap.counters[DCQCN_C_RATE_CUT];
	fr0 = s->hosts[0].ap.counters[DCQCN_C_FAST_RECOVERY];
	for (i = 1; i < 256; i++) {
		cut0 += s->hosts[i].ap.counters[DCQCN_C_RATE_CUT];
		fr0 += s->hosts[i].ap.counters[DCQCN_C_FAST_RECOVERY];
	}
	sim_run(s, 10 * PS_PER_MS, NULL);
	sim_summary(s, &m);
	{
		uint64_t cnps = s->c.cnp_handled - cnp0, cuts = 0, frs = 0;

		for (i = 0; i < 256; i++) {
			cuts += s->hosts[i].ap.counters[DCQCN_C_RATE_CUT];
			frs += s->hosts[i].ap.counters[
				DCQCN_C_FAST_RECOVERY];
		}
		cuts -= cut0;
		frs -= fr0;
		print_message("256:1 at 4096 B: queue %.1f MB, %.0f us "
			      "between a QP's CNPs, %llu cuts, %llu fast "
			      "recoveries\n", m.q_mean / 1048576,
			      10e3 * 256 / (double)cnps,
			      (unsigned long long)cuts,
			      (unsigned long long)frs);
		assert_true(m.pauses > 0 && m.q_mean > 10 << 20);
		assert_true(cnps * 300 < 256ull * 10000);
		assert_true(frs * 2 > cuts);
	}
	sim_free(s);
}

/* The queue's response to R_AI at NVIDIA's defaults (issue 34, item 3),
 * 16:1 at 100 G, 4 KB packets, rpg_ai_rate 10 -> 320 Mb/s: the queue
 * grows, by a relative step within 3x either way of the fluid model's.
 * The response hangs on the byte counter's unit.  Read as bytes (the
 * model of the issue), an event every 32 KB sent carries R_AI and the
 * fluid model predicts +48 % (161 -> 238 KB; measured 182 -> 306 KB,
 * +69 %, over seeds 1-25).  In KB (the model's reading, item 1)
 * increases come from the 300 us timer alone and, with F =
 * rpg_threshold = 1, the first event after a cut is fast recovery: R_AI
 * enters only where a flow goes two timer periods without a cut, and
 * the fluid model itself predicts +13.5 % (114 -> 130 KB; measured 129
 * -> 137 KB, +6.1 %, over seeds 1-25).  The issue's "5x weaker than the
 * fluid model" compared the packet model's mixed reading with the
 * fluid's bytes reading.  The step is a few KB against a run's scatter
 * of as much (single seeds gave -1.6 to +15.7 % in KB, +56 to +153 % in
 * bytes), so the response judged is that of the mean queue over seeds
 * 1-48 at each rate, trimmed of the four longest and four shortest (in
 * bytes a run now and then falls into PFC at MBs, as in
 * test_dcqcn_nvidia_defaults: one of 48 at seeds 401-448 with the old
 * event order took the plain mean to +284 %): its own scatter is then
 * some 0.6 % in KB (the band's edge, +4.5 %, is 2.7 of them below the
 * +6.1 %).
 */
static void test_dcqcn_ai_response(void **state)
{
	enum { NSEED = 48 };
	int kb;

	(void)state;
	for (kb = 0; kb < 2; kb++) {
		double q[2], f[2], rel, frel;
		int k;

		for (k = 0; k < 2; k++) {
			uint32_t ai = k ? 320 : 10, j;
			double v[NSEED];

			for (j = 0; j < NSEED; j++) {
				struct sim_summary m;
				struct sim_algo a;
				struct sim_cfg c = incast(16);
				struct sim *s;

				c.rate_gbps = 100;
				c.seed = fid_seed(1 + j);
				algo_for(&a, "dcqcn");
				a.conf.params[DCQCN_AI_RATE] = ai;
				a.conf.opts[DCQCN_OPT_BYTE_UNIT] =
					kb ? DCQCN_BYTES_KB : DCQCN_BYTES_B;
				s = mk(&c, &a);
				sim_run(s, 20 * PS_PER_MS, NULL);
				sim_run(s, 20 * PS_PER_MS, NULL);
				sim_summary(s, &m);
				v[j] = m.q_mean;
				f[k] = fluid_nvidia(16, 100, c.mtu, ai, kb);
				sim_free(s);
			}
			qsort(v, NSEED, sizeof(v[0]), cmp_double);
			q[k] = 0;
			for (j = 4; j < NSEED - 4; j++)
				q[k] += v[j] / (NSEED - 8);
		}
		rel = q[1] / q[0] - 1;
		frel = f[1] / f[0] - 1;
		print_message("= byte counter in %s: R_AI 10 -> 320 Mb/s: "
			      "trimmed mean queue of %d seeds %.1f -> %.1f KB "
			      "(%+.1f %%), "
			      "fluid %.1f -> %.1f KB (%+.1f %%)\n",
			      kb ? "KB" : "bytes", NSEED, q[0] / 1024,
			      q[1] / 1024, 100 * rel, f[0] / 1024,
			      f[1] / 1024, 100 * frel);
		if (rel < 0.02 || rel < frel / 3 || rel > frel * 3)
			fail_msg("byte counter in %s: queue %+.1f %%, fluid "
				 "%+.1f %%", kb ? "KB" : "bytes", 100 * rel,
				 100 * frel);
	}
}

/* Control-packet density against the rules ConnectX documents (issue 34,
 * item 4; dcqcn-pfc.md 1.3, 4.1; README "ACKs and CNPs"): the responder
 * ACKs every ack_every-th data packet (4; NVIDIA documents only the
 * AckReq every 2^log_ack_req_freq = 256 packets, which the requester
 * asks and the model answers too) and the NP sends a QP a CNP for a
 * marked packet at most every min_time_between_cnps (4 us, per QP as the
 * DCQCN paper's NP does: the scope is undocumented).  At 256:1, 100 G,
 * 1 KB a QP's packets are 22 us apart, so with ZTR-RTT (the issue's
 * "0.9 CNP per data packet") nearly every marked packet gets its CNP;
 * its "one ACK per data packet" counted the RTT-probe responses, which
 * share the control priority, with 0.25 ACKs.  DCQCN: 0.25 ACKs a data
 * packet; a 50 us CNP interval (the paper's) thins the CNPs.
 */
static void ctrl_density(const char *algo, int64_t cnp_ps, double *ack,
			 double *cnp_per_mark, double *marked)
{
	struct sim_port_counters c0, c1;
	struct sim_cfg c = incast(256);
	struct sim_algo a;
	struct sim *s;
	double data, cnp;

	c.rate_gbps = 100;
	c.mtu = 1024;
	c.cnp_interval_ps = cnp_ps;
	algo_for(&a, algo);
	s = mk(&c, &a);
	sim_run(s, 20 * PS_PER_MS, NULL);
	sim_port_counters(s, &c0);
	sim_run(s, 10 * PS_PER_MS, NULL);
	sim_port_counters(s, &c1);
	data = (double)(c1.rx_pkts_prio[SIM_PRIO_DATA] -
			c0.rx_pkts_prio[SIM_PRIO_DATA]);
	cnp = (double)(c1.cnp_sent - c0.cnp_sent);
	*ack = ((double)(c1.rx_pkts_prio[SIM_PRIO_CTRL] -
			 c0.rx_pkts_prio[SIM_PRIO_CTRL]) - cnp) / data;
	*marked = (double)(c1.ecn_marked - c0.ecn_marked);
	*cnp_per_mark = *marked ? cnp / *marked : 0;
	*marked /= data;
	print_message("%s, CNP interval %lld us: %.3f ACKs (and probe "
		      "answers) and %.3f CNPs a data packet, %.3f CNPs a "
		      "marked one, %.2f marked\n", algo,
		      (long long)(cnp_ps / PS_PER_US), *ack,
		      cnp / data, *cnp_per_mark, *marked);
	sim_free(s);
}

static void test_ctrl_density(void **state)
{
	double ack, per_mark, marked;

	(void)state;
	ctrl_density("dcqcn", 4 * PS_PER_US, &ack, &per_mark, &marked);
	assert_true(ack > 0.245 && ack < 0.27);
	assert_true(marked > 0.5);
	ctrl_density("ztr_rtt", 4 * PS_PER_US, &ack, &per_mark, &marked);
	assert_true(per_mark > 0.9 && marked > 0.3);
	assert_true(ack > 0.5);		/* probe answers ride along */
	ctrl_density("ztr_rtt", 50 * PS_PER_US, &ack, &per_mark, &marked);
	assert_true(per_mark < 0.6);
}

/* Each DCQCN knob moves the 10-flow, 40 G fixed point (paper setting)
 * the way the fluid model says (issue 23, item 5: the shipped model
 * gave bit-identical runs for rpg_ai_rate, rpg_hai_rate and the ECN
 * thresholds): more or sooner increase, or milder cuts, a longer queue;
 * steeper marking a shorter one.  Each row compares two settings of one
 * knob, the rest as dcqcn_paper; the mean queue over seeds 1-8 must
 * differ by 3 % at least (a change perturbs the whole trajectory as a
 * seed does: single seeds 1-25 gave rpg_ai_rate's +6.6 % as +1 to +13 %,
 * five of them under 3 %; the mean over eight has a scatter of some
 * 1.3 %; the other rows move by 14 % or more).  Hyper
 * increase is reached after one step with rpg_threshold 1 (as NVIDIA
 * ships), after six with the paper's 5; rpg_min_dec_fac binds only
 * when the cut it allows is under the 8 % alpha* gives; the byte
 * counter counts KB (32 KB: an event every 65 us at 4 Gb/s).
 */
static void test_dcqcn_knobs(void **state)
{
	static const struct {
		const char *what;
		int idx;		/* parameter, or -1: the ECN key */
		uint32_t lo, hi;	/* parameter values */
		const char *ecn_lo, *ecn_hi;
		int sign;		/* queue(hi) - queue(lo) */
		uint32_t threshold;	/* rpg_threshold of both */
	} rows[] = {
		{ "rpg_ai_rate", DCQCN_AI_RATE, 10, 80, NULL, NULL, 1, 5 },
		{ "rpg_hai_rate", DCQCN_HAI_RATE, 10, 80, NULL, NULL, 1, 1 },
		{ "rpg_gd", DCQCN_GD, 10, 12, NULL, NULL, 1, 5 },
		{ "rpg_min_dec_fac", DCQCN_MIN_DEC_FAC, 0, 95, NULL, NULL, 1,
		  5 },
		{ "rpg_time_reset", DCQCN_TIME_RESET, 30, 110, NULL, NULL, -1,
		  5 },
		{ "rpg_byte_reset", DCQCN_BYTE_RESET, 0, 32, NULL, NULL, 1,
		  5 },
		{ "ECN Kmax", -1, 0, 0, "5KB:200KB:0.01", "5KB:400KB:0.01", 1,
		  5 },
		{ "ECN Kmin", -1, 0, 0, "5KB:300KB:0.01", "100KB:300KB:0.01",
		  1, 5 },
		{ "ECN Pmax", -1, 0, 0, "5KB:200KB:0.01", "5KB:200KB:0.02",
		  -1, 5 },
	};
	enum { NSEED = 8 };
	struct pcb_err err = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double q[2] = { 0, 0 };
		int k;

		for (k = 0; k < 2 * NSEED; k++) {
			struct sim_summary m;
			struct sim_algo a;
			struct sim_cfg c;
			struct sim *s;

			dcqcn_paper(&c, &a, 10, 40);
			c.seed = fid_seed(1 + (uint64_t)(k >> 1));
			a.conf.params[DCQCN_THRESHOLD] = rows[i].threshold;
			if (rows[i].idx >= 0)
				a.conf.params[rows[i].idx] = k & 1 ?
					rows[i].hi : rows[i].lo;
			else
				assert_int_equal(sim_cfg_set(&c, "ecn",
					k & 1 ? rows[i].ecn_hi :
						rows[i].ecn_lo, &err), 0);
			s = mk(&c, &a);
			sim_run(s, 20 * PS_PER_MS, NULL);
			sim_run(s, 20 * PS_PER_MS, NULL);
			sim_summary(s, &m);
			q[k & 1] += m.q_mean / NSEED;
			sim_free(s);
		}
		print_message("= %s: mean queue of %d seeds %.1f KB -> %.1f "
			      "KB\n", rows[i].what, NSEED,
			      q[0] / 1024, q[1] / 1024);
		if ((q[1] - q[0]) * rows[i].sign < 0.03 * q[0])
			fail_msg("%s: queue %.0f B -> %.0f B, expected %s",
				 rows[i].what, q[0], q[1],
				 rows[i].sign > 0 ? "longer" : "shorter");
	}
}

/* Every statistic covers the latest run (issue 23, bug 6): after a
 * warm-up, the second window's drops, timeouts, pauses, events and FCTs
 * are those of that window alone, the FCTs of the flows that started in
 * it and finished by its end.
 */
static void test_window(void **state)
{
	struct sim_port_counters pc;
	struct sim_summary m[2];
	struct sim_algo a;
	struct sim_cfg c = incast(64);
	struct sim *s;
	uint32_t i, want = 0, got = 0;
	size_t b;

	(void)state;
	algo_for(&a, "ztr_rtt");
	c.pfc = false;		/* drops and timeouts in both windows */
	c.size = 1 << 20;
	c.buffer = 2 << 20;
	c.jitter = true;
	c.jitter_ps = 3 * PS_PER_MS;
	s = mk(&c, &a);
	sim_run(s, 2 * PS_PER_MS, NULL);
	sim_summary(s, &m[0]);
	sim_run(s, 20 * PS_PER_MS, NULL);
	sim_summary(s, &m[1]);
	sim_port_counters(s, &pc);
	assert_true(m[0].drops > 0 && m[1].drops > 0);
	assert_int_equal(m[0].drops + m[1].drops,
			 pc.drops_nobuf + pc.drops_loss);
	assert_int_equal(m[0].rtos + m[1].rtos, pc.rto);
	assert_int_equal(m[0].events + m[1].events, sim_events(s));
	sim_free(s);
	/* PFC pauses, and the FCTs of a mix */
	sim_cfg_default(&c);
	c.kind = SIM_MIX;
	c.load = 60;
	c.seed = 3;
	s = mk(&c, &a);
	sim_run(s, 2 * PS_PER_MS, NULL);
	sim_summary(s, &m[0]);
	sim_run(s, 3 * PS_PER_MS, NULL);
	sim_summary(s, &m[1]);
	assert_true(m[0].pauses > 0);
	assert_int_equal(m[0].pauses + m[1].pauses, s->pause_events);
	for (i = 0; i < s->nqps; i++)
		want += s->qps[i].done && s->qps[i].start >= m[1].t0;
	for (b = 0; b < m[1].nfct; b++)
		got += m[1].fct[b].n;
	assert_true(want > 100);
	assert_int_equal(got, want);
	sim_free(s);
}

/* Same seed, same everything; another seed, another run. */
static void test_determinism(void **state)
{
	struct sim_summary m[3];
	uint64_t b[3][64];
	int k;

	(void)state;
	for (k = 0; k < 3; k++) {
		struct sim_cfg c = incast(16);
		struct sim_algo a;
		struct sim *s;

		algo_for(&a, "ztr_rtt");
		c.jitter = true;
		c.jitter_ps = 20 * PS_PER_US;
		c.seed = k == 2 ? 99 : 7;
		s = mk(&c, &a);
		sim_run(s, 3 * PS_PER_MS, NULL);
		sim_summary(s, &m[k]);
		memset(b[k], 0, sizeof(b[k]));
		sim_flow_bytes(s, b[k], 64);
		sim_free(s);
	}
	assert_memory_equal(&m[0], &m[1], sizeof(m[0]));
	assert_memory_equal(b[0], b[1], sizeof(b[0]));
	assert_memory_not_equal(b[0], b[2], sizeof(b[0]));
}

/* The same seed gives the same run on every build: gcc or clang, with
 * or without sanitizers (CI runs this test on each).  The numbers were
 * recorded from a run; a change to the model changes them, and then they
 * are recorded again, saying why in the commit.  A mix run draws flow
 * sizes, destinations and arrival times; an incast with jitter, start
 * times and ECN marks.
 */
static void test_reference_runs(void **state)
{
	static const struct {
		const char *kind;
		uint64_t events, flows, fct0;
	} want[] = {
		{ "mix", 1608281, 572, 58 },
		{ "incast", 121317, 16, 0 },
	};
	struct pcb_err err = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct sim_summary m;
		struct sim_algo a;
		struct sim_cfg c;
		struct sim *s;

		sim_cfg_default(&c);
		assert_int_equal(sim_kind_parse(want[i].kind, &c.kind), 0);
		assert_int_equal(sim_cfg_set(&c, "seed", "5", &err), 0);
		if (c.kind == SIM_MIX) {
			assert_int_equal(sim_cfg_set(&c, "load", "60", &err),
					 0);
		} else {
			assert_int_equal(sim_cfg_set(&c, "senders", "16",
						     &err), 0);
			assert_int_equal(sim_cfg_set(&c, "start", "jitter",
						     &err), 0);
		}
		algo_for(&a, "ztr_rtt");
		s = mk(&c, &a);
		sim_run(s, 2 * PS_PER_MS, NULL);
		sim_summary(s, &m);
		print_message("%s: events %llu flows %llu fct0 %llu\n",
			      want[i].kind, (unsigned long long)m.events,
			      (unsigned long long)m.flows,
			      (unsigned long long)(m.nfct ? m.fct[0].n : 0));
		assert_int_equal(m.events, want[i].events);
		assert_int_equal(m.flows, want[i].flows);
		assert_int_equal(m.nfct ? m.fct[0].n : 0, want[i].fct0);
		sim_free(s);
	}
}

/* Events due at one time leave in an order of their own, by type and
 * then id, whatever order they were scheduled in: the same events put in
 * forward, backward and shuffled, at one time through a lane's offset
 * (appended, or to the wheel when smaller than the lane's last), the
 * wheel and the heap beyond it, leave alike, sorted by (time, tid).
 */
static void test_tie_order(void **state)
{
	enum { N = 600, T = 3 };
	static const enum ev_type types[] = { EV_ARRIVE, EV_PORT_FREE,
					      EV_NIC_WAKE, EV_FLOW_STOP };
	static const int64_t offs[T] = { 1280, 83200, 40 * PS_PER_US };
	uint32_t order[N], got[3][N], tid[N];
	uint64_t rng = 3;
	int pass;
	uint32_t i, j;

	(void)state;
	for (i = 0; i < N; i++)	/* distinct tids, not in tid order */
		tid[i] = (uint32_t)types[(i * 7) % 4] << 24 | ((i * 389) % N);
	for (pass = 0; pass < 3; pass++) {
		struct sim_cfg c = incast(2);
		struct sim_algo a;
		struct sim *s;
		struct ev e;
		int64_t t0;

		for (i = 0; i < N; i++)
			order[i] = pass == 1 ? N - 1 - i : i;
		for (i = N - 1; pass == 2 && i > 0; i--) {
			uint32_t x;

			rng = rng * 6364136223846793005ULL +
			      1442695040888963407ULL;
			j = (uint32_t)((rng >> 33) % (i + 1));
			x = order[i];
			order[i] = order[j];
			order[j] = x;
		}
		algo_for(&a, "ztr_rtt");
		s = mk(&c, &a);
		while (sim_next_event(s, INT64_MAX / 2, &e))
			;
		/* the lane's offset, used often enough to claim a lane */
		for (i = 0; i < 64; i++)
			sim_schedule(s, s->now + offs[0], EV_FLOW_STOP, i);
		while (sim_next_event(s, INT64_MAX / 2, &e))
			;
		t0 = s->now;
		/* an arrival's key holds its packet's port, hashed with the
		 * time (ev_arrive_id): packet id arrives at the port whose
		 * key id is id */
		assert_int_equal(sim_grow_big((void **)&s->pk, sizeof(*s->pk),
					      &s->pkcap, N), 0);
		for (i = 0; i < N; i++) {
			uint32_t id = tid[i] & 0xffffff;

			s->pk[id].port = ev_arrive_id(id, t0 + offs[i % T]);
		}
		for (i = 0; i < N; i++)
			sim_schedule(s, t0 + offs[order[i] % T],
				     tid[order[i]] >> 24,
				     tid[order[i]] & 0xffffff);
		for (i = 0; i < N; i++) {
			assert_true(sim_next_event(s, INT64_MAX / 2, &e));
			assert_true(s->now == t0 + offs[i / (N / T)]);
			got[pass][i] = e.tid;
		}
		assert_false(sim_next_event(s, INT64_MAX / 2, &e));
		sim_free(s);
	}
	for (i = 0; i < N; i++) {
		assert_int_equal(got[0][i], got[1][i]);
		assert_int_equal(got[0][i], got[2][i]);
		/* within a time, by tid: each time's events are a third */
		if (i % (N / T))
			assert_true(got[0][i - 1] < got[0][i]);
	}
}

/* The fine time series: one row per interval, physical values, and a
 * traced run is the same run.
 */
static void test_trace(void **state)
{
	const struct sim_trace_row *r;
	struct sim_summary m[2];
	struct sim_port_counters pc;
	int k;
	size_t n = 0, i;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct sim_cfg c = incast(8);
		struct sim_algo a;
		struct sim *s;

		algo_for(&a, "ztr_rtt");
		s = mk(&c, &a);
		if (k)
			assert_int_equal(sim_trace_start(s, 10 * PS_PER_US), 0);
		sim_run(s, 3 * PS_PER_MS, NULL);
		sim_summary(s, &m[k]);
		if (k) {
			uint64_t prio_sum = 0;

			n = sim_trace_rows(s, &r);
			assert_int_equal(n, 300);
			for (i = 0; i < n; i++) {
				assert_int_equal(r[i].t,
						 (int64_t)(i + 1) * 10 * PS_PER_US);
				assert_true(r[i].rx_gbps <= 400 * 0.985 * 1.05);
				assert_true(r[i].rate_min <= r[i].rate_mean &&
					    r[i].rate_mean <= r[i].rate_max);
				assert_true(!r[i].rtt_n || r[i].rtt_mean >= 4005);
			}
			/* steady: near line rate, RTT near the target */
			assert_true(r[n - 1].rx_gbps > 350);
			sim_port_counters(s, &pc);
			for (i = 0; i < 8; i++)
				prio_sum += pc.rx_bytes_prio[i];
			assert_int_equal(prio_sum, pc.rx_bytes);
		}
		sim_free(s);
	}
	assert_memory_equal(&m[0], &m[1], sizeof(m[0]));
}

/* Every output of a run on (a port trace and a capture of every port,
 * a rate trace, the flows file) on a mix with lossy links and PFC: the
 * same run, event for event, and each output has rows.
 */
static void test_taps_same_run(void **state)
{
	struct sim_summary m[2];
	struct sim_port_counters pc[2];
	uint64_t ev[2];
	struct pcb_err err = { 0 };
	long len[4] = { 0 };
	int k, i;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct sim_cfg c;
		struct sim_algo a;
		struct sim *s;
		FILE *f[4] = { NULL };

		sim_cfg_default(&c);
		assert_int_equal(sim_kind_parse("mix", &c.kind), 0);
		assert_int_equal(sim_cfg_set(&c, "load", "60", &err), 0);
		assert_int_equal(sim_cfg_set(&c, "loss", "0.001", &err), 0);
		algo_for(&a, "dcqcn");
		s = mk(&c, &a);
		if (k) {
			for (i = 0; i < 4; i++)
				assert_non_null(f[i] = tmpfile());
			assert_int_equal(sim_tap_ports(s, f[0], "all", &err), 0);
			assert_int_equal(sim_tap_rates(s, f[1], "0-31",
						       5 * PS_PER_US, &err), 0);
			assert_int_equal(sim_tap_pcap(s, f[2], "all", 64, &err),
					 0);
			assert_int_equal(sim_tap_flows(s, &err), 0);
		}
		sim_run(s, PS_PER_MS, NULL);
		if (k) {
			assert_int_equal(sim_flows_write(s, f[3], "dcqcn"), 0);
			assert_int_equal(sim_tap_stop(s), 0);
			for (i = 0; i < 4; i++) {
				len[i] = ftell(f[i]);
				fclose(f[i]);
			}
		}
		sim_summary(s, &m[k]);
		sim_port_counters(s, &pc[k]);
		ev[k] = sim_events(s);
		sim_free(s);
	}
	assert_true(m[0].drops > 0 && m[0].nfct > 0);
	assert_int_equal(ev[0], ev[1]);
	assert_memory_equal(&m[0], &m[1], sizeof(m[0]));
	assert_memory_equal(&pc[0], &pc[1], sizeof(pc[0]));
	for (i = 0; i < 4; i++)
		assert_true(len[i] > 1000);
}

/* RFC 1071 over a known IPv4 header (checksum field zero): 0xb861. */
static void test_pcap_csum(void **state)
{
	static const uint8_t h[20] = {
		0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
		0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
	};

	(void)state;
	assert_int_equal(pcap_ip_csum(h, sizeof(h)), 0xb861);
}

/* Events beyond the 17.6 s key horizon wait and fire on time. */
static void test_far_events(void **state)
{
	struct sim_cfg c = incast(2);
	struct sim_algo a;
	struct sim *s;
	uint32_t qi;
	int i;

	(void)state;
	algo_for(&a, "ztr_rtt");
	c.size = 64 * 1024;
	s = mk(&c, &a);
	qi = sim_add_qp(s, 0, 2, 64 * 1024, 30500LL * PS_PER_MS, 0);
	for (i = 0; i < 3; i++)
		sim_run(s, 10LL * 1000 * PS_PER_MS, NULL);
	assert_false(s->qps[qi].started);
	sim_run(s, 1000 * PS_PER_MS, NULL);
	assert_true(s->qps[qi].started);
	assert_true(s->qps[qi].done);
	assert_int_equal(s->qps[qi].start, 30500LL * PS_PER_MS);
	assert_true(s->qps[qi].finish - s->qps[qi].start < 100 * PS_PER_US);
	sim_free(s);
}

/* A reference min-heap of keys for the event queue tests. */
static void ref_push(uint64_t *h, uint32_t *n, uint64_t k)
{
	uint32_t i = (*n)++;

	while (i && h[(i - 1) / 2] > k) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = k;
}

static uint64_t ref_pop(uint64_t *h, uint32_t *n)
{
	uint64_t top = h[0], last = h[--*n];
	uint32_t i = 0, c;

	while ((c = 2 * i + 1) < *n) {
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (last <= h[c])
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = last;
	return top;
}

/* The event queue tests' reference: for every event pushed (ids in push
 * order) the key it must leave by, its time and then its tid (type and
 * id: same-time events leave in that order), and a min-heap of the keys
 * pending.
 */
struct evref {
	struct sim *s;
	uint64_t *key, *ref;
	uint32_t pushed, popped, nref;
};

/* A fabric with its scenario's own events taken, room for n pushes. */
static void evref_init(struct evref *r, uint32_t n)
{
	struct sim_cfg c = incast(2);
	struct sim_algo a;
	struct ev e;

	memset(r, 0, sizeof(*r));
	r->key = calloc(n, sizeof(*r->key));
	r->ref = calloc(n, sizeof(*r->ref));
	assert_non_null(r->key);
	assert_non_null(r->ref);
	algo_for(&a, "ztr_rtt");
	r->s = mk(&c, &a);
	while (sim_next_event(r->s, INT64_MAX / 2, &e))
		;
}

/* Schedule the next event at t, noting the key it must get. */
static void evref_push(struct evref *r, int64_t t)
{
	uint32_t id = r->pushed++;

	r->key[id] = (uint64_t)(t - r->s->tbase) << EV_TID_BITS |
		     (uint32_t)EV_FLOW_STOP << 24 | id;
	sim_schedule(r->s, t, EV_FLOW_STOP, id);
	ref_push(r->ref, &r->nref, r->key[id]);
}

/* Take the next event, which must be the least key pending; false when
 * none is. */
static bool evref_pop(struct evref *r)
{
	struct ev e;
	uint32_t id;

	if (!sim_next_event(r->s, INT64_MAX / 2, &e))
		return false;
	id = e.tid & 0xffffff;
	assert_true(id < r->pushed);
	assert_true(e.k == r->key[id]);
	assert_true(r->nref > 0);
	assert_true(r->key[id] == ref_pop(r->ref, &r->nref));
	r->popped++;
	return true;
}

static void evref_free(struct evref *r)
{
	sim_free(r->s);
	free(r->key);
	free(r->ref);
}

/* Many events in one wheel bucket (16 ns), as at a synchronized start:
 * runs at one time in key order and at random times within the bucket,
 * with pops in between (the node a walk last put in leaves and is used
 * again; a walk longer than WHEEL_WALK puts the event in the heap),
 * always popped as the least key pending.  An alarm turns a loop
 * in a bucket's list into a failure.
 */
static void test_event_bucket(void **state)
{
	enum { N = 40000 };
	struct evref r;
	uint64_t rng = 11;
	uint32_t nruns = 0;

	(void)state;
	evref_init(&r, N);
	alarm(60);
	while (r.pushed < N) {
		/* a bucket two ahead of now's: a run into it, then some pops */
		int64_t b0 = ((r.s->now >> WHEEL_SHIFT) + 2) << WHEEL_SHIFT;
		int64_t same = b0 + (int64_t)((rng >> 20) % (1u << WHEEL_SHIFT));
		uint32_t run = 1 + (uint32_t)((rng >> 40) % 64), i, npop;

		for (i = 0; i < run && r.pushed < N; i++) {
			rng = rng * 6364136223846793005ULL +
			      1442695040888963407ULL;
			evref_push(&r, (rng >> 62) ? same :
				   b0 + (int64_t)((rng >> 24) %
						  (1u << WHEEL_SHIFT)));
		}
		npop = (uint32_t)((rng >> 33) % (r.nref + 1));
		for (i = 0; i < npop; i++)
			assert_true(evref_pop(&r));
		nruns += run > 1;
	}
	while (evref_pop(&r))
		;
	alarm(0);
	assert_int_equal(r.popped, N);
	assert_int_equal(r.nref, 0);
	assert_true(nruns > 100);
	evref_free(&r);
}

/* The event queue against its definition: the next event is always the
 * least pending by time, then by type and id, whether it waits in a
 * lane (the same offset from now, many times), the wheel, or the heap
 * beyond it; halfway through, a burst at one offset and time.
 */
static void test_event_order(void **state)
{
	static const int64_t offs[] = { 0, 1280, 83200, 1001280, 1083200,
					20 * PS_PER_US };
	enum { N = 60000 };
	struct evref r;
	struct ev e;
	uint64_t rng = 7;
	int64_t t0;

	(void)state;
	evref_init(&r, N);
	t0 = r.s->now;
	while (r.popped < N) {
		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		/* halfway: a burst at one offset and time */
		bool burst = r.pushed + 2 >= N / 2 && r.pushed < N / 2 + 2;

		if (r.pushed < N && ((rng >> 60) < 9 || burst)) {
			/* mostly the common offsets, some at random */
			int64_t d = burst ? offs[2] :
				    (rng >> 33) % 8 < 6 ?
				    offs[(rng >> 40) % 6] :
				    (int64_t)((rng >> 20) % 3000000);

			evref_push(&r, r.s->now + d);
		} else if (!evref_pop(&r)) {
			assert_int_equal(r.popped, r.pushed);	/* empty */
		}
	}
	assert_false(sim_next_event(r.s, INT64_MAX / 2, &e));
	assert_true(r.s->now > t0);
	evref_free(&r);
}

static void test_scenarios(void **state)
{
	static const char *const kinds[] = { "permutation", "mix" };
	struct pcb_err err = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct sim_summary m;
		struct sim_algo a;
		struct sim_cfg c;
		struct sim *s;

		sim_cfg_default(&c);
		assert_int_equal(sim_kind_parse(kinds[i], &c.kind), 0);
		if (i == 1) {
			assert_int_equal(sim_cfg_set(&c, "load", "50", &err),
					 0);
			assert_int_equal(sim_cfg_set(&c, "dist", "hadoop",
						     &err), 0);
		}
		algo_for(&a, "ztr_rtt");
		s = mk(&c, &a);
		sim_run(s, 5 * PS_PER_MS, NULL);
		sim_summary(s, &m);
		if (i == 0) {
			/* 16 long flows, one per host, 4 spines: busy */
			assert_int_equal(m.flows, 16);
			assert_true(m.util > 0.5);
		} else {
			assert_true(m.nfct > 0);
			assert_true(m.fct[0].n > 10);
			assert_true(m.fct[0].p50 >= 1.0);
			assert_true(m.fct[0].p99 >= m.fct[0].p50);
		}
		sim_free(s);
	}
}

/* Leaf-spine paths differ (issue 23, bug 7): a flow inside a leaf
 * crosses 2 links, others 4.  The idle path the summary gives is that of
 * the probes it averages, so lone probes match it; and each flow's ideal
 * FCT is its own path's, so none needs clamping at a slowdown of 1.
 */
static void test_leaf_spine_paths(void **state)
{
	struct pcb_err err = { 0 };
	struct sim_summary m;
	struct sim_algo a;
	struct sim_cfg c;
	struct sim *s;
	double lo = 1e9;
	size_t i;

	(void)state;
	sim_cfg_default(&c);
	c.kind = SIM_PERMUTATION;
	c.seed = 4;
	algo_for(&a, "ztr_rtt");
	a.conf.params[ZTR_FIXED_RATE] = 1049;	/* 0.1 % of line each */
	s = mk(&c, &a);
	for (i = 0; i < s->nqps; i++)	/* the derangement has both kinds */
		lo = s->qps[i].src / 4 == s->qps[i].dst / 4 ? 0 : lo;
	assert_true(lo == 0);
	assert_int_equal(sim_run(s, 2 * PS_PER_MS, NULL), 0);
	sim_summary(s, &m);
	assert_true(m.rtt_samples > 100);
	/* between 2 hops (4005 ns) and 4 (8010 ns), each probe within a
	 * packet or two of its own path's */
	if (m.base_rtt < 4005 || m.base_rtt > 8011 ||
	    m.rtt_mean < m.base_rtt || m.rtt_mean > m.base_rtt + 170)
		fail_msg("idle path %.1f ns, probes %.1f ns", m.base_rtt,
			 m.rtt_mean);
	sim_free(s);
	/* a light mix on two leaves: half the flows stay in theirs */
	sim_cfg_default(&c);
	c.kind = SIM_MIX;
	assert_int_equal(sim_cfg_set(&c, "leaves", "2", &err), 0);
	assert_int_equal(sim_cfg_set(&c, "hosts", "8", &err), 0);
	assert_int_equal(sim_cfg_set(&c, "load", "2", &err), 0);
	algo_for(&a, "ztr_rtt");
	s = mk(&c, &a);
	sim_run(s, 10 * PS_PER_MS, NULL);
	assert_true(s->nfct > 20);
	lo = 1e9;
	for (i = 0; i < s->nfct; i++) {
		if (s->fct[i].slowdown <= 1.0)
			fail_msg("flow %zu of %llu B: slowdown %.4f", i,
				 (unsigned long long)s->fct[i].size,
				 s->fct[i].slowdown);
		lo = s->fct[i].slowdown < lo ? s->fct[i].slowdown : lo;
	}
	assert_true(lo < 1.5);
	sim_free(s);
}

/* Flow sizes follow HPCC's CDF files, interpolated from (0, 0) as its
 * generator does (issue 23, item 10): 15 % of WebSearch flows lie below
 * 10 KB, spread out, not all at exactly 10 KB.
 */
static void test_flow_sizes(void **state)
{
	struct sim_algo a;
	struct sim_cfg c;
	struct sim *s;
	uint32_t i, n = 100000, at = 0, below = 0;

	(void)state;
	sim_cfg_default(&c);
	c.kind = SIM_MIX;
	algo_for(&a, "ztr_rtt");
	s = mk(&c, &a);
	for (i = 0; i < n; i++) {
		uint64_t v = sim_draw_size(s);

		assert_true(v >= 1);
		at += v == 10000;
		below += v < 10000;
	}
	if (at > n / 1000 || below < n * 14 / 100 || below > n * 16 / 100)
		fail_msg("%u at 10 KB, %u below, of %u", at, below, n);
	/* the mean of the interpolated CDF (dcqcn-pfc.md 2.7: 1.711 MB) */
	assert_true(s->mean_size > 1.70e6 && s->mean_size < 1.72e6);
	sim_free(s);
}

/* sim_grow_big keeps what the array held and zeroes the rest, below
 * its mapping threshold (2 MB, on the heap) and past it (a mapping grown
 * by mremap), across the switch between the two. */
static void test_grow_big(void **state)
{
	struct elem { uint64_t v[8]; } *a = NULL;
	uint32_t cap = 0, n = 0, i, j;

	(void)state;
	/* 64-byte elements: 2 MB at 32768, grown to 131072 (8 MB) */
	for (n = 1; n <= 100000; n = n * 3 / 2 + 1) {
		uint32_t old = cap;

		assert_int_equal(sim_grow_big((void **)&a, sizeof(*a), &cap,
					      n), 0);
		assert_true(cap >= n);
		assert_int_equal((uintptr_t)a % 64, 0);
		if (cap == old)
			continue;
		for (i = 0; i < cap; i++)	/* old pattern, new zeros */
			for (j = 0; j < 8; j++)
				if (a[i].v[j] != (i < old ? i * 8 + j : 0))
					fail_msg("element %u after growth to %u",
						 i, cap);
		for (i = old; i < cap; i++)
			for (j = 0; j < 8; j++)
				a[i].v[j] = i * 8 + j;
	}
	assert_true(cap * sizeof(*a) > (4u << 20));
	sim_big_free(a, sizeof(*a), cap);
}

static void test_cfg_keys(void **state)
{
	struct pcb_err err = { 0 };
	struct sim_cfg c, keep;
	char buf[1024];

	(void)state;
	sim_cfg_default(&c);
	keep = c;
	assert_int_equal(sim_cfg_set(&c, "bogus", "1", &err), -PCB_E_NOENT);
	assert_non_null(strstr(err.msg, "valid keys: senders"));
	assert_int_not_equal(sim_cfg_set(&c, "rate", "300g", &err), 0);
	assert_int_not_equal(sim_cfg_set(&c, "mtu", "2048", &err), 0);
	assert_int_not_equal(sim_cfg_set(&c, "senders", "1", &err), 0);
	assert_int_not_equal(sim_cfg_set(&c, "senders", "4097", &err), 0);
	assert_int_not_equal(sim_cfg_set(&c, "ecn", "400KB:100KB:0.2", &err),
			     0);
	assert_int_not_equal(sim_cfg_set(&c, "ecn", "1:2", &err), 0);
	assert_int_not_equal(sim_cfg_set(&c, "delay", "-1us", &err), 0);
	assert_int_not_equal(sim_cfg_set(&c, "loss", "0.9", &err), 0);
	assert_int_not_equal(sim_cfg_set(&c, "load", "50", &err), 0);
	assert_memory_equal(&c, &keep, sizeof(c));
	pcb_err_reset(&err);
	assert_int_not_equal(sim_cfg_set(&c, "delay", "10", &err), 0);
	assert_non_null(strstr(err.msg, "1ns to 100us, with a unit"));
	assert_int_not_equal(sim_cfg_set(&c, "delay", "0", &err), 0);
	assert_int_not_equal(sim_cfg_set(&c, "delay", "1us2", &err), 0);
	assert_memory_equal(&c, &keep, sizeof(c));
	assert_int_equal(sim_cfg_set(&c, "cnp_interval", "0", &err), 0);
	assert_int_equal(c.cnp_interval_ps, 0);
	/* integers: decimal (a leading zero is no octal), or 0x hex */
	assert_int_equal(sim_cfg_set(&c, "senders", "010", &err), 0);
	assert_int_equal(c.senders, 10);
	assert_int_equal(sim_cfg_set(&c, "seed", "0x1f", &err), 0);
	assert_int_equal(c.seed, 31);
	assert_int_not_equal(sim_cfg_set(&c, "seed", "0x", &err), 0);
	assert_int_not_equal(sim_cfg_set(&c, "senders", "08x", &err), 0);
	assert_int_equal(c.senders, 10);
	assert_int_equal(c.seed, 31);
	assert_int_equal(sim_cfg_set(&c, "delay", "1.5us", &err), 0);
	assert_int_equal(c.delay_ps, 1500000);
	assert_int_equal(sim_cfg_set(&c, "delay", "250ns", &err), 0);
	assert_int_equal(c.delay_ps, 250000);
	assert_int_equal(sim_cfg_set(&c, "rate", "800g", &err), 0);
	assert_int_equal(sim_cfg_set(&c, "ecn", "50KB:200KB:0.5", &err), 0);
	assert_int_equal(sim_cfg_set(&c, "buffer", "16MB", &err), 0);
	assert_int_equal(c.rate_gbps, 800);
	assert_int_equal(c.kmin, 50 * 1024);
	assert_int_equal(c.pmax, 32768);
	assert_int_equal(c.buffer, 16 << 20);
	sim_cfg_format(&c, buf, sizeof(buf));
	assert_non_null(strstr(buf, "rate 800g"));
	assert_non_null(strstr(buf, "ecn 50KB:200KB:0.5"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_rtt),
		cmocka_unit_test(test_conservation),
		cmocka_unit_test(test_incast_4096),
		cmocka_unit_test(test_steady_state),
		cmocka_unit_test(test_standing_queue),
		cmocka_unit_test(test_ztr_hai_sawtooth),
		cmocka_unit_test(test_alpha_monotone),
		cmocka_unit_test(test_pfc),
		cmocka_unit_test(test_pfc_resume),
		cmocka_unit_test(test_pfc_headroom),
		cmocka_unit_test(test_stall_watchdog),
		cmocka_unit_test(test_pfc_storm),
		cmocka_unit_test(test_probe_prompt),
		cmocka_unit_test(test_lossy),
		cmocka_unit_test(test_lossless_no_rto),
		cmocka_unit_test(test_probe_rtt_honest),
		cmocka_unit_test(test_dcqcn_fair),
		cmocka_unit_test(test_rate_increase_wakes),
		cmocka_unit_test(test_dcqcn_fluid_fixed_point),
		cmocka_unit_test(test_dcqcn_nvidia_defaults),
		cmocka_unit_test(test_dcqcn_ai_response),
		cmocka_unit_test(test_ctrl_density),
		cmocka_unit_test(test_dcqcn_knobs),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_reference_runs),
		cmocka_unit_test(test_tie_order),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_taps_same_run),
		cmocka_unit_test(test_pcap_csum),
		cmocka_unit_test(test_far_events),
		cmocka_unit_test(test_event_order),
		cmocka_unit_test(test_event_bucket),
		cmocka_unit_test(test_scenarios),
		cmocka_unit_test(test_leaf_spine_paths),
		cmocka_unit_test(test_flow_sizes),
		cmocka_unit_test(test_cfg_keys),
		cmocka_unit_test(test_grow_big),
	};
	return tu_run_sim_group("sim", tests, sizeof(tests) / sizeof(tests[0]));
}
