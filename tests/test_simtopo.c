/* Simulator topologies and buffer settings (issue 23, items 12 and 14):
 * per-tier link speeds and delays, leaf-spine oversubscription, the k-ary
 * fat tree, a periodic incast over a mix, the dynamic threshold, the
 * headroom's minimum.  Each test states the physical expectation it
 * checks; all runs are seeded and short.
 */
#include "testsim.h"
#include "sim/sim_int.h"
#include <math.h>

#include "dcqcn/dcqcn.h"
#include "ztr_rtt/ztr_rtt.h"


/* Inside every switch: bytes in = bytes out + dropped + held (the data
 * queues hold what the buffer counts used, the control queues the rest).
 */
static void check_switch_bytes(const struct sim *s)
{
	uint32_t w, i;

	for (w = 0; w < s->nsw; w++) {
		const struct node *n = &s->nodes[s->sws[w].node];
		uint64_t rx = 0, tx = 0, dropped = 0, data = 0, ctrl = 0;

		for (i = n->port0; i < n->port0 + n->nports; i++) {
			rx += port_rx_bytes(&s->ports[i]);
			tx += port_tx_bytes(&s->ports[i]);
			dropped += s->ports[i].drop_bytes;
			data += s->ports[i].data.bytes +
				(s->c1 ? s->c1[i].data.bytes : 0);
			ctrl += s->ports[i].ctrl.bytes;
		}
		assert_int_equal(data, s->sws[w].used);
		assert_int_equal(rx, tx + dropped + data + ctrl);
	}
}

/* Payload a port sent in the window, as a fraction of its own line. */
static double port_util(const struct sim *s, uint32_t pi)
{
	const struct port *p = &s->ports[pi];

	return (double)win_payload(p) * p->ppb / (double)(s->now - s->win_t0);
}

/* A 100G host behind 400G fabric links: the host link is the
 * bottleneck, full to the payload ceiling; the fabric link carries a
 * quarter of its line; the idle path adds each tier's own hops.
 */
static void test_tier_speeds(void **state)
{
	static const char *const kv[] = { "leaves", "2", "spines", "1",
		"hosts", "1", "rate", "100g", "fabric_rate", "400g",
		"fabric_delay", "300ns", NULL };
	struct sim_cfg c = cfg_of("permutation", kv);
	struct sim_summary m;
	struct sim_algo a;
	struct sim *s;
	uint32_t up;

	(void)state;
	algo_for(&a, NULL);
	s = mk(&c, &a);
	/* host links 80 ps/B and 1 us, fabric links 20 ps/B and 300 ns:
	 * 2 of each, 64 B each way */
	assert_int_equal(s->src->path_rtt(s, 0, 1),
			 2 * 2 * (64 * 80 + PS_PER_US) +
			 2 * 2 * (64 * 20 + 300 * PS_PER_NS));
	assert_int_equal(sim_run(s, 2 * PS_PER_MS, NULL), 0);
	sim_summary(s, &m);
	assert_true(m.util > 0.99 * m.payload_ceiling);
	assert_true(m.util <= m.payload_ceiling);
	/* the busiest port is a host link (100G), the uplink a quarter */
	assert_false(s->ports[s->ports[s->bottleneck].peer].is_switch);
	assert_int_equal(s->ports[s->bottleneck].ppb, 80);
	up = s->nodes[s->sws[0].node].port0 + 1;
	assert_int_equal(s->ports[up].ppb, 20);
	if (fabs(port_util(s, up) - m.util / 4) > 0.01)
		fail_msg("uplink at %.4f of 400G, host link %.4f of 100G",
			 port_util(s, up), m.util);
	assert_true(fabs(m.base_rtt - (double)s->src->path_rtt(s, 0, 1) /
			 PS_PER_NS) < 1e-6);
	check_switch_bytes(s);
	sim_free(s);
}

/* Cross-leaf payload of a permutation whose every flow crosses leaves,
 * in the window after a warm-up. */
static double cross_leaf_gbps(const char *oversub)
{
	const char *kv[] = { "leaves", "2", "spines", "1", "hosts", "2",
		"seed", "1", "oversub", oversub, NULL };
	struct sim_cfg c = cfg_of("permutation", kv);
	struct sim_algo a;
	struct sim *s = NULL;
	uint64_t bytes[8], sum = 0;
	size_t i, n;

	algo_for(&a, NULL);
	/* a seed whose derangement alternates the leaves */
	for (c.seed = 1;; c.seed++) {
		bool cross = true;

		s = mk(&c, &a);
		for (i = 0; i < s->nqps; i++)
			cross &= s->qps[i].src / 2 != s->qps[i].dst / 2;
		if (cross)
			break;
		sim_free(s);
	}
	sim_run(s, 500 * PS_PER_US, NULL);
	assert_int_equal(sim_run(s, 2 * PS_PER_MS, NULL), 0);
	n = sim_flow_bytes(s, bytes, 8);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++)
		sum += bytes[i];
	check_switch_bytes(s);
	sim_free(s);
	return (double)sum * 8 / 2e6;	/* bytes in 2 ms -> Gb/s */
}

/* Oversubscription 2:1 halves the uplinks' speed (800G -> 400G for two
 * 400G hosts and one spine), and with it what crosses the leaves.
 */
static void test_oversub(void **state)
{
	double full, half;

	(void)state;
	full = cross_leaf_gbps("1");
	half = cross_leaf_gbps("2");
	print_message("across leaves: %.1f Gb/s at 1:1, %.1f at 2:1\n", full,
		      half);
	/* 4 flows at 400G, the payload ceiling 4096/4160 */
	if (full < 0.97 * 1600 * 4096 / 4160 || half / full < 0.47 ||
	    half / full > 0.53)
		fail_msg("1:1 %.1f Gb/s, 2:1 %.1f Gb/s", full, half);
}

/* The hops between two hosts of a k = 4 fat tree: 2 under one edge
 * switch, 4 in one pod, 6 across pods. */
static unsigned ft_hops(uint32_t a, uint32_t b)
{
	return a / 2 == b / 2 ? 2 : a / 4 == b / 4 ? 4 : 6;
}

/* A k = 4 fat tree: 16 hosts, 20 switches; every probe's idle RTT is its
 * path's, host links and fabric links each with their own delay, to the
 * nanosecond; every core carries traffic (no hash polarisation); bytes
 * are conserved.
 */
static void test_fat_tree(void **state)
{
	static const char *const kv[] = { "topo", "fattree", "k", "4",
		"fabric_delay", "500ns", NULL };
	struct sim_cfg c = cfg_of("permutation", kv);
	unsigned seen = 0;
	struct sim_algo a;
	struct sim *s;
	uint32_t i, w;

	(void)state;
	algo_for(&a, "ztr_rtt");
	a.conf.params[ZTR_FIXED_RATE] = 1049;	/* 0.1 % of line each */
	for (c.seed = 1;; c.seed++) {	/* a derangement with all three */
		s = mk(&c, &a);
		for (i = seen = 0; i < s->nqps; i++)
			seen |= 1u << ft_hops(s->qps[i].src, s->qps[i].dst);
		if (seen == (1u << 2 | 1u << 4 | 1u << 6))
			break;
		sim_free(s);
	}
	assert_int_equal(s->nhosts, 16);
	assert_int_equal(s->nsw, 20);
	assert_int_equal(sim_run(s, 2 * PS_PER_MS, NULL), 0);
	for (i = 0; i < s->nqps; i++) {
		const struct qp *q = &s->qps[i];
		unsigned h = ft_hops(q->src, q->dst);
		/* 2 host links (20 ps/B, 1 us), h - 2 fabric (500 ns) */
		int64_t want = 2 * 2 * (64 * 20 + PS_PER_US) +
			       (int64_t)(h - 2) * 2 * (64 * 20 + 500 * PS_PER_NS);

		assert_int_equal(q->path_rtt, want);
		/* the sender's MIN_RTT counter, ns, from its probes */
		if (s->hosts[q->src].ap.counters[ZTR_C_MIN_RTT] !=
		    (uint32_t)(want / PS_PER_NS))
			fail_msg("flow %u, %u hops: min RTT %u ns, path %lld ps",
				 i, h, s->hosts[q->src].ap.counters
				 [ZTR_C_MIN_RTT], (long long)want);
	}
	for (w = 16; w < 20; w++) {	/* the cores */
		const struct node *n = &s->nodes[s->sws[w].node];
		uint64_t tx = 0;

		for (i = n->port0; i < n->port0 + n->nports; i++)
			tx += s->ports[i].tx_pkts_c[0];
		if (!tx)
			fail_msg("core %u carried no data", w - 16);
	}
	check_switch_bytes(s);
	sim_free(s);
}

/* A periodic incast over a mix (HPCC's Fig. 11): in the first 100 us of
 * every period the deepest queue jumps past 1 MB, four times what it
 * holds late in the period; the same mix without the incast stays under
 * half those peaks in the same windows.  The mix is light (5 %) but
 * Hadoop's: now and then one of its large flows builds a queue of its
 * own, late in a period (the "calm") or in the mix alone, so a single
 * period, or a single seed, may show no contrast (over seeds 3-27 the
 * spike was 1.48-2.98 MB in every period, but 1 period in 6 or so had a
 * calm within 4x or a mix alone above half).  Judged over periods 1-3 of
 * seeds 3-7: every spike past 1 MB, the median spike four times the calm
 * at least and twice the mix alone.
 */
static void test_incast_over_mix(void **state)
{
	enum { NSEED = 5 };
	static const char *const kv[] = { "load", "5", "dist", "hadoop",
		"incast_period", "500us", "incast_senders", "15",
		"incast_size", "200KB", NULL };
	static const char *const kv0[] = { "load", "5", "dist", "hadoop",
		NULL };
	double to_calm[3 * NSEED], to_alone[3 * NSEED];
	const struct sim_trace_row *r;
	struct sim_algo a;
	struct sim *s;
	int round, k, j;

	(void)state;
	for (j = 0; j < NSEED; j++) {
		uint64_t spike[2][4], calm[2][4];

		memset(spike, 0, sizeof(spike));
		memset(calm, 0, sizeof(calm));
		for (round = 0; round < 2; round++) {
			struct sim_cfg c = cfg_of("mix", round ? kv0 : kv);
			size_t i, n;

			c.seed = fid_seed(3 + (uint64_t)j);
			algo_for(&a, "ztr_rtt");
			s = mk(&c, &a);
			assert_int_equal(sim_trace_start(s, 10 * PS_PER_US), 0);
			assert_int_equal(sim_run(s, 2 * PS_PER_MS, NULL), 0);
			n = sim_trace_rows(s, &r);
			assert_true(n >= 199);
			for (i = 0; i < n; i++) {
				int64_t t = r[i].t % (500 * PS_PER_US);

				k = (int)(r[i].t / (500 * PS_PER_US));
				if (k < 1 || k > 3)
					continue;
				if (t > 0 && t <= 100 * PS_PER_US &&
				    r[i].queue_max > spike[round][k])
					spike[round][k] = r[i].queue_max;
				if (t > 300 * PS_PER_US &&
				    r[i].queue_max > calm[round][k])
					calm[round][k] = r[i].queue_max;
			}
			check_switch_bytes(s);
			sim_trace_stop(s);
			sim_free(s);
		}
		for (k = 1; k <= 3; k++) {
			print_message("seed %llu, period %d: incast %llu calm "
				      "%llu; mix alone %llu\n",
				      (unsigned long long)fid_seed(3 +
							(uint64_t)j), k,
				      (unsigned long long)spike[0][k],
				      (unsigned long long)calm[0][k],
				      (unsigned long long)spike[1][k]);
			if (spike[0][k] < 1024 * 1024)
				fail_msg("seed %llu, period %d: no incast "
					 "spike", (unsigned long long)
					 fid_seed(3 + (uint64_t)j), k);
			to_calm[3 * j + k - 1] = (double)spike[0][k] /
						 ((double)calm[0][k] + 1);
			to_alone[3 * j + k - 1] = (double)spike[0][k] /
						  ((double)spike[1][k] + 1);
		}
	}
	print_message("= median spike %.1fx the calm, %.1fx the mix alone\n",
		      median_of(to_calm, 3 * NSEED),
		      median_of(to_alone, 3 * NSEED));
	assert_true(median_of(to_calm, 3 * NSEED) >= 4);
	assert_true(median_of(to_alone, 3 * NSEED) >= 2);
}

/* The dynamic threshold without PFC: one congested queue holds at most
 * alpha x (B - q), so q <= alpha B / (1 + alpha); a lower alpha holds
 * less and drops at least as much.
 */
static void test_dt_alpha(void **state)
{
	static const char *const alphas[] = { "1", "1/4" };
	double bound[] = { 0.5, 0.2 };
	uint64_t qmax[2], drops[2];
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		const char *kv[] = { "senders", "16", "pfc", "off", "buffer",
			"2MB", "alpha", alphas[i], NULL };
		struct sim_cfg c = cfg_of("incast", kv);
		struct sim_summary m;
		struct sim_algo a;
		struct sim *s;
		double b = bound[i] * 2 * 1024 * 1024;

		algo_for(&a, NULL);
		s = mk(&c, &a);
		sim_run(s, 1 * PS_PER_MS, NULL);
		sim_summary(s, &m);
		qmax[i] = (uint64_t)m.q_max;
		drops[i] = m.drops;
		print_message("alpha %s: max queue %llu (bound %.0f), %llu "
			      "drops\n", alphas[i],
			      (unsigned long long)qmax[i], b,
			      (unsigned long long)drops[i]);
		if (m.q_max > b + 4160 || m.q_max < 0.9 * b)
			fail_msg("alpha %s: max queue %.0f, bound %.0f",
				 alphas[i], m.q_max, b);
		sim_free(s);
	}
	assert_true(qmax[1] < qmax[0]);
	assert_true(drops[1] >= drops[0]);
	assert_true(drops[0] > 0);
}

/* A queue's reserve: without PFC, at alpha 1/256 of a 2 MB buffer a
 * queue holds at most 2MB/257 = 8 KB (one 4 KB packet fits), with a
 * 200 KB reserve up to the reserve.  A wider Xon offset (resume further
 * below Xoff) pauses less often.
 */
static void test_reserve_xon(void **state)
{
	static const char *const rsv[] = { "0", "200KB" };
	static const char *const xon[] = { "3KB", "64KB", "256KB" };
	uint64_t pauses[3];
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		const char *kv[] = { "senders", "16", "pfc", "off", "buffer",
			"2MB", "alpha", "1/256", "reserve", rsv[i], NULL };
		struct sim_cfg c = cfg_of("incast", kv);
		struct sim_summary m;
		struct sim_algo a;
		struct sim *s;

		algo_for(&a, NULL);
		s = mk(&c, &a);
		sim_run(s, PS_PER_MS, NULL);
		sim_summary(s, &m);
		print_message("reserve %s: max queue %.0f\n", rsv[i], m.q_max);
		if (i == 0 && m.q_max > 2 * 1024 * 1024 / 257)
			fail_msg("no reserve: max queue %.0f", m.q_max);
		if (i == 1 && (m.q_max > 200 * 1024 ||
			       m.q_max < 200 * 1024 - 4160))
			fail_msg("200KB reserve: max queue %.0f", m.q_max);
		assert_true(m.drops > 0);
		sim_free(s);
	}
	for (i = 0; i < 3; i++) {
		const char *kv[] = { "senders", "16", "buffer", "4MB",
			"xon_offset", xon[i], NULL };
		struct sim_cfg c = cfg_of("incast", kv);
		struct sim_summary m;
		struct sim_algo a;
		struct sim *s;

		algo_for(&a, NULL);
		s = mk(&c, &a);
		sim_run(s, 2 * PS_PER_MS, NULL);
		sim_summary(s, &m);
		pauses[i] = m.pauses;
		print_message("xon_offset %s: %llu pauses\n", xon[i],
			      (unsigned long long)m.pauses);
		assert_int_equal(m.drops, 0);
		sim_free(s);
	}
	assert_true(pauses[0] > pauses[1] && pauses[1] > pauses[2]);
}

/* Buffer keys: their ranges refused in one line; an explicit headroom
 * below what a port needs refused with that minimum; one above it given
 * to every switch port; defaults not shown.
 */
static void test_buffer_keys(void **state)
{
	struct pcb_err err = { 0 };
	struct sim_cfg c;
	struct sim_algo a;
	struct sim *s;
	char line[1024];
	uint64_t need;
	uint32_t i;

	(void)state;
	sim_cfg_default(&c);
	sim_cfg_format(&c, line, sizeof(line));
	assert_null(strstr(line, "alpha"));
	assert_null(strstr(line, "headroom"));
	assert_int_equal(sim_cfg_set(&c, "alpha", "3", &err), -PCB_E_INVAL);
	assert_non_null(strstr(err.msg, "1/256 to 8"));
	assert_null(strchr(err.msg, '\n'));
	pcb_err_reset(&err);
	assert_int_equal(sim_cfg_set(&c, "alpha", "1/16", &err), 0);
	assert_int_equal(c.alpha_log2, -4);
	assert_int_equal(sim_cfg_set(&c, "xon_offset", "2MB", &err),
			 -PCB_E_INVAL);
	assert_non_null(strstr(err.msg, "0 to 1MB"));
	pcb_err_reset(&err);
	/* 400G (20 ps/B), 1 us, 4 KB MTU: 64 + 2 x 50000 + 2 x 4160 */
	need = sim_headroom_min(&c);
	assert_int_equal(need, 64 + 2 * 50000 + 2 * 4160);
	assert_int_equal(sim_cfg_set(&c, "headroom", "64KB", &err), 0);
	assert_int_equal(sim_cfg_check(&c, &err), -PCB_E_RANGE);
	assert_non_null(strstr(err.msg, "108384"));
	assert_null(strchr(err.msg, '\n'));
	pcb_err_reset(&err);
	algo_for(&a, NULL);
	assert_int_not_equal(sim_create(&s, &c, &a, &err), 0);
	pcb_err_reset(&err);
	assert_int_equal(sim_cfg_set(&c, "headroom", "200KB", &err), 0);
	assert_int_equal(sim_cfg_check(&c, &err), 0);
	sim_cfg_format(&c, line, sizeof(line));
	assert_non_null(strstr(line, " alpha 1/16 headroom 200KB"));
	s = mk(&c, &a);
	for (i = 0; i < s->nports; i++)
		if (s->ports[i].is_switch)
			assert_int_equal(s->ports[i].headroom, 200 * 1024);
	sim_free(s);
}

/* FCT slowdowns against each flow's own path: behind 16:1 uplinks
 * (200G for eight 400G hosts), a large flow across leaves alone takes
 * twice as long as at host speed, and its slowdown is still about 1.
 * At 1 % load most large flows are alone (1.00-1.04 over seeds 102-131)
 * but now and then two overlap and one takes up to 3.2x: 25 of some 390
 * over 1.3, so the worst of one seed's (the test once asserted < 1.3 at
 * seed 102) is the seed's.  Judged over seeds 102-106: the median large
 * flow's slowdown under 1.1 (with host speed as the ideal, the flows across
 * leaves, some half, would show 2), four in five under 1.3.
 */
static void test_ideal_fct_tiers(void **state)
{
	enum { NSEED = 5 };
	static const char *const kv[] = { "leaves", "2", "spines", "1",
		"hosts", "8", "oversub", "16", "load", "1", NULL };
	double sd[512];
	size_t i, big = 0, slow = 0;
	int j;

	(void)state;
	for (j = 0; j < NSEED; j++) {
		struct sim_cfg c = cfg_of("mix", kv);
		struct sim_algo a;
		struct sim *s;
		size_t big0 = big;

		c.seed = fid_seed(102 + (uint64_t)j);
		algo_for(&a, "ztr_rtt");
		s = mk(&c, &a);
		assert_int_equal(sim_topo_path_ppb(s, 0, 1), 20); /* one leaf */
		assert_int_equal(sim_topo_path_ppb(s, 0, 8), 40); /* across */
		sim_run(s, 10 * PS_PER_MS, NULL);
		for (i = 0; i < s->nfct && big < 512; i++) {
			if (s->fct[i].size < 1000000)
				continue;
			sd[big++] = s->fct[i].slowdown;
			slow += s->fct[i].slowdown >= 1.3;
		}
		print_message("seed %llu: %zu flows of 1 MB or more\n",
			      (unsigned long long)c.seed, big - big0);
		assert_true(big - big0 >= 4);
		sim_free(s);
	}
	print_message("= %zu flows of 1 MB or more: median slowdown %.3f, "
		      "%zu at 1.3 or over\n", big, median_of(sd, big), slow);
	assert_true(median_of(sd, big) < 1.1);
	assert_true(5 * slow <= big);
}

/* Two data priorities (the mix on 3, its incast on 4) with PFC on one:
 * only that one pauses, at the NICs and between switches, and only the
 * other drops; with PFC on both, both pause and nothing drops.  The
 * per-priority counters split the data between them.
 */
static void test_two_priorities(void **state)
{
	static const char *const pfc[] = { "4", "3", "all" };
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		const char *kv[] = { "load", "30", "incast_period", "500us",
			"incast_senders", "15", "incast_size", "500KB",
			"incast_prio", "4", "buffer", "4MB", "pfc_prios",
			pfc[i], NULL };
		struct sim_cfg c = cfg_of("mix", kv);
		struct sim_port_counters pc;
		uint64_t sw0 = 0, sw1 = 0, drop0 = 0, drop1 = 0;
		struct sim_algo a;
		struct sim *s;
		uint32_t p;

		algo_for(&a, "ztr_rtt");
		s = mk(&c, &a);
		assert_non_null(s->c1);
		assert_int_equal(s->prio_c[1], 4);
		sim_run(s, 2 * PS_PER_MS, NULL);
		sim_port_counters(s, &pc);
		for (p = 0; p < s->nports; p++) {
			if (!s->ports[p].is_switch)
				continue;
			sw0 += s->ports[p].pause_rx;
			sw1 += s->c1[p].pause_rx;
			drop1 += s->c1[p].drops;
			drop0 += s->ports[p].drops - s->c1[p].drops;
		}
		print_message("pfc_prios %s: pauses prio3 %llu (switches %llu) "
			      "prio4 %llu (switches %llu); drops prio3 %llu "
			      "prio4 %llu\n", pfc[i],
			      (unsigned long long)pc.pause_rx_prio[3],
			      (unsigned long long)sw0,
			      (unsigned long long)pc.pause_rx_prio[4],
			      (unsigned long long)sw1,
			      (unsigned long long)drop0,
			      (unsigned long long)drop1);
		assert_true(pc.tx_pkts_prio[4] > 1000);
		assert_true(pc.tx_pkts_prio[3] > 1000);
		assert_true(pc.rx_pkts_prio[4] > 1000);
		assert_int_equal(pc.pause_rx_prio[4] > 0, i != 1);
		assert_int_equal(pc.pause_rx_prio[3] > 0, i != 0);
		/* each priority's time paused is its own: none without
		 * pauses, some with, at most every host for the whole run */
		assert_int_equal(pc.pause_rx_ns_prio[4] > 0,
				 pc.pause_rx_prio[4] > 0);
		assert_int_equal(pc.pause_rx_ns_prio[3] > 0,
				 pc.pause_rx_prio[3] > 0);
		assert_true(pc.pause_rx_ns_prio[4] <= 2000000ULL * s->nhosts);
		assert_true(pc.pause_rx_ns_prio[3] <= 2000000ULL * s->nhosts);
		assert_int_equal(sw1 > 0, i != 1);
		assert_int_equal(sw0 > 0, i != 0);
		/* only a priority without PFC drops */
		assert_int_equal(drop0 > 0, i == 0);
		assert_int_equal(drop1 > 0, i == 1);
		assert_int_equal(pc.drops_nobuf, drop0 + drop1);
		check_switch_bytes(s);
		sim_free(s);
	}
}

/* DCQCN's model options: `alpha 10bit` floors alpha to its documented
 * 10 bits at every update, so without CNPs it reaches 0 within 1000
 * updates, while the default keeps the EWMA's 1023 x (1019/1024)^1000
 * (about 7.7/1024); `hai growing` adds i steps at the i-th hyper-increase
 * event, so the target climbs faster than with a fixed step.
 */
static void dcqcn_drive(uint32_t hai, uint32_t alpha, struct dcqcn_qp *q)
{
	const struct algo_ops *ops = algo_find("dcqcn");
	struct algo_out out;
	struct algo_port p;
	struct sim_algo a;
	int64_t t;

	algo_for(&a, "dcqcn");
	a.conf.opts[DCQCN_OPT_HAI] = hai;
	a.conf.opts[DCQCN_OPT_ALPHA] = alpha;
	/* 10 Gb/s from the first CNP: the limiter is far from line rate
	 * and stays allocated */
	a.conf.params[DCQCN_RATE_FIRST_CNP] = 10000;
	algo_port_init(&p, &a.conf);
	p.line_gbps = 100;
	ops->init(&p, q, 0, &out);
	ops->on_cnp(&p, q, 0, &out);	/* one cut, alpha 1023 */
	for (t = 1000; t <= 1000 * 1000; t += 1000) {
		/* a byte-counter event every 2 us (rpg_byte_reset counts
		 * KB), the timer's on its own */
		if (t % 2000 == 0)
			ops->on_tx(&p, q, t, 32767u * 1024, false, &out);
		ops->on_timer(&p, q, t, &out);
	}
	assert_true(p.counters[DCQCN_C_HAI] > 0);
}

static void test_dcqcn_opts(void **state)
{
	struct dcqcn_qp fixed, growing, floored;

	(void)state;
	dcqcn_drive(DCQCN_HAI_FIXED, DCQCN_ALPHA_20BIT, &fixed);
	dcqcn_drive(DCQCN_HAI_GROWING, DCQCN_ALPHA_20BIT, &growing);
	dcqcn_drive(DCQCN_HAI_FIXED, DCQCN_ALPHA_10BIT, &floored);
	print_message("alpha after 1 ms: %u (20 bit), %u (10 bit); target "
		      "%u fixed, %u growing (fxp20)\n", fixed.alpha,
		      floored.alpha, fixed.rt, growing.rt);
	assert_true(fixed.alpha >= 6 && fixed.alpha <= 8);
	assert_int_equal(floored.alpha, 0);
	assert_true(growing.rt > fixed.rt);
}

/* A ring all-reduce on an idle fabric (issue 34, item 8) takes the
 * analytic 2(n-1)/n x S / B plus its latency terms: 2(n-1) steps, each
 * rank's S/n chunk with its headers at the line rate, plus, at each step,
 * the path's propagation and a packet's store-and-forward at each switch
 * of it.  Steps wait for their inputs, so the run is the slowest chain of
 * 2(n-1) consecutive ring edges (2 hops inside a leaf, 4 across).  8
 * ranks on two leaves of 4 at 100 G, 8 MB, DCQCN (no probes; nothing to
 * cut): within 0.5 % of it, each iteration the same, and the summary's
 * algbw = S / t and busbw = algbw x 2(n-1)/n as nccl-tests define them.
 * Started all at once, the steps would finish 3 % sooner.
 */
static void test_allreduce_ring(void **state)
{
	static const char *const kv[] = { "ranks", "8", "size", "8MB",
					  "iters", "3", "leaves", "2",
					  "hosts", "4", "rate", "100g", NULL };
	struct sim_cfg c = cfg_of("allreduce", kv);
	const double ppb = 80, delay = 1e6, n = 8;	/* ps */
	const double pkt = (c.mtu + 64) * ppb;
	double chunk = (double)c.coll_size / n, want = 0, bw, lat = 0;
	double wire = chunk + ceil(chunk / c.mtu) * 64;
	const int64_t *t;
	struct sim_summary m;
	struct sim_algo a;
	struct sim *s;
	uint32_t r, k;
	size_t i;

	(void)state;
	for (r = 0; r < 8; r++) {
		double sum = 0;

		for (k = 0; k < 14; k++) {
			uint32_t e = (r + k) % 8;
			double hops = e / 4 == (e + 1) % 8 / 4 ? 2 : 4;

			sum += wire * ppb + (hops - 1) * pkt + hops * delay;
		}
		if (sum > want)
			want = sum;
	}
	bw = 2 * (n - 1) / n * c.coll_size * (c.mtu + 64.0) / c.mtu * ppb;
	algo_for(&a, "dcqcn");
	s = mk(&c, &a);
	sim_run(s, 10 * PS_PER_MS, NULL);
	sim_summary(s, &m);
	assert_int_equal(sim_coll_times(s, &t), 3);
	lat = want - bw;
	print_message("ring all-reduce, 8 x 8 MB at 100 G: %.2f us; analytic "
		      "%.2f us (bandwidth %.2f + latency %.2f); algbw %.2f, "
		      "busbw %.2f Gb/s\n", t[0] / 1e6, want / 1e6, bw / 1e6,
		      lat / 1e6, m.algbw, m.busbw);
	for (i = 0; i < 3; i++) {
		if (fabs((double)t[i] - want) > 0.005 * want)
			fail_msg("iteration %zu: %lld ps, analytic %.0f", i,
				 (long long)t[i], want);
		assert_int_equal(t[i], t[0]);
	}
	assert_int_equal(m.colls, 3);
	assert_true(fabs(m.algbw - c.coll_size * 8000.0 / t[0]) < 1e-6);
	assert_true(fabs(m.busbw - m.algbw * 2 * 7 / 8) < 1e-6);
	/* each flow waits for its input: the last step's start */
	for (i = 0; i < s->nqps; i++)
		if (i % 112 >= 13 * 8)
			assert_true(s->qps[i].start - (int64_t)(i / 112) * t[0]
				    >= (int64_t)(13 * (wire * ppb + pkt +
						       2 * delay)));
	assert_int_equal(s->nqps, 3 * 112);
	sim_free(s);
}

/* All-to-all and the tree all-reduce on the same idle fabric: the
 * all-to-all moves (n-1)/n x S through each host link at once, so it
 * takes that at line rate plus at most a few path latencies (busbw near
 * the payload ceiling); the tree (one binary tree, 8 chunks, a
 * reconstruction of NCCL's double tree) finishes, every rank getting
 * every chunk, and is slower than the ring: a parent's link carries two
 * children's data.  An all-reduce's 2(n-1)/n and an all-to-all's
 * (n-1)/n busbw factors as nccl-tests'.
 */
static void test_alltoall_tree(void **state)
{
	static const char *const kv[] = { "ranks", "8", "size", "8MB",
					  "leaves", "2", "hosts", "4",
					  "rate", "100g", NULL };
	static const char *const kt[] = { "ranks", "8", "size", "8MB",
					  "algo", "tree", "leaves", "2",
					  "hosts", "4", "rate", "100g", NULL };
	struct sim_cfg c = cfg_of("alltoall", kv);
	struct sim_summary m, ring;
	struct sim_algo a;
	struct sim *s;
	double bw = 7.0 / 8 * (double)c.coll_size * (c.mtu + 64) / c.mtu * 80;

	(void)state;
	algo_for(&a, "dcqcn");
	s = mk(&c, &a);
	sim_run(s, 5 * PS_PER_MS, NULL);
	sim_summary(s, &m);
	print_message("all-to-all: %.2f us (bandwidth %.2f us), busbw %.2f "
		      "Gb/s\n", m.coll_mean / 1e6, bw / 1e6, m.busbw);
	assert_int_equal(m.colls, 1);
	assert_true(m.coll_mean > bw && m.coll_mean < bw + 20 * PS_PER_US);
	assert_true(fabs(m.busbw - m.algbw * 7 / 8) < 1e-6);
	assert_int_equal(s->nqps, 56);
	sim_free(s);

	c = cfg_of("allreduce", kv);
	s = mk(&c, &a);
	sim_run(s, 10 * PS_PER_MS, NULL);
	sim_summary(s, &ring);
	sim_free(s);
	c = cfg_of("allreduce", kt);
	s = mk(&c, &a);
	sim_run(s, 10 * PS_PER_MS, NULL);
	sim_summary(s, &m);
	print_message("tree all-reduce: %.2f us, busbw %.2f Gb/s (ring %.2f "
		      "us)\n", m.coll_mean / 1e6, m.busbw, ring.coll_mean / 1e6);
	assert_int_equal(m.colls, 1);
	/* 7 ranks x 8 chunks down, 7 x 8 up */
	assert_int_equal(s->nqps, 112);
	assert_true(m.coll_mean > ring.coll_mean);
	assert_true(fabs(m.busbw - m.algbw * 2 * 7 / 8) < 1e-6);
	sim_free(s);
}

/* A collective's keys: ranks must fit the fabric's hosts, algo is the
 * all-reduce's, sizes start at 1 byte; nothing changes on error.
 */
static void test_coll_keys(void **state)
{
	struct pcb_err err = { 0 };
	struct sim_cfg c, before;

	(void)state;
	sim_cfg_default(&c);
	assert_int_equal(sim_kind_parse("allreduce", &c.kind), 0);
	assert_int_equal(sim_cfg_set(&c, "ranks", "32", &err), 0);
	assert_int_not_equal(sim_cfg_check(&c, &err), 0);
	assert_non_null(strstr(err.msg, "ranks 32"));
	before = c;
	assert_int_not_equal(sim_cfg_set(&c, "algo", "butterfly", &err), 0);
	assert_int_not_equal(sim_cfg_set(&c, "size", "0", &err), 0);
	assert_int_not_equal(sim_cfg_set(&c, "ranks", "1", &err), 0);
	assert_memory_equal(&c, &before, sizeof(c));
	assert_int_equal(sim_kind_parse("alltoall", &c.kind), 0);
	memset(&err, 0, sizeof(err));
	assert_int_not_equal(sim_cfg_set(&c, "algo", "ring", &err), 0);
	if (!strstr(err.msg, "alltoall has no key 'algo'"))
		fail_msg("%s", err.msg);
}

/* Rail-optimised fabric (issue 34, item 9): servers of R NICs, NIC j of
 * every server on its rail's leaf (one per rail and group of servers),
 * every leaf on every spine.  4 rails, 2 groups of 2 servers (8 leaves,
 * 16 NICs): each NIC hangs off leaf group * 4 + rail at its server's
 * place; two NICs of one rail and group meet at their leaf (2 links),
 * any other pair crosses a spine (4 links: other rail, or other group);
 * an all-to-all over the 16 NICs finishes, every byte accounted for at
 * every switch; leaves must be a multiple of rails.
 */
static void test_rail(void **state)
{
	static const char *const kv[] = { "topo", "rail", "rails", "4",
					  "leaves", "8", "hosts", "2",
					  "spines", "2", "ranks", "16",
					  "size", "1MB", "rate", "100g",
					  NULL };
	struct sim_cfg c = cfg_of("alltoall", kv);
	struct pcb_err err = { 0 };
	struct sim_summary m;
	struct sim_algo a;
	struct sim *s;
	int64_t one = 2 * (64 * 80 + PS_PER_US);	/* a link, both ways */
	char buf[1024];
	uint32_t h;

	(void)state;
	sim_cfg_format(&c, buf, sizeof(buf));
	assert_non_null(strstr(buf, " topo rail rails 4"));
	algo_for(&a, "dcqcn");
	s = mk(&c, &a);
	assert_int_equal(s->nhosts, 16);
	for (h = 0; h < 16; h++) {
		const struct port *l = &s->ports[s->hosts[h].port];
		const struct port *q = &s->ports[l->peer];
		uint32_t server = h / 4, leaf = server / 2 * 4 + h % 4;

		assert_true(q->is_switch);
		assert_int_equal(s->nodes[q->node].idx, leaf);
		assert_int_equal(l->peer - s->nodes[q->node].port0,
				 server % 2);
	}
	assert_int_equal(sim_topo_path_rtt(s, 0, 4), 2 * one);
	assert_int_equal(sim_topo_path_rtt(s, 0, 1), 4 * one);
	assert_int_equal(sim_topo_path_rtt(s, 0, 8), 4 * one);
	assert_int_equal(sim_topo_path_rtt(s, 5, 13), 4 * one);
	sim_run(s, 2 * PS_PER_MS, NULL);
	sim_summary(s, &m);
	assert_int_equal(m.colls, 1);
	check_switch_bytes(s);
	sim_free(s);
	assert_int_equal(sim_cfg_set(&c, "leaves", "6", &err), 0);
	assert_int_not_equal(sim_cfg_check(&c, &err), 0);
	if (!strstr(err.msg, "leaves 6 is not a multiple of rails 4"))
		fail_msg("%s", err.msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tier_speeds),
		cmocka_unit_test(test_oversub),
		cmocka_unit_test(test_fat_tree),
		cmocka_unit_test(test_incast_over_mix),
		cmocka_unit_test(test_dt_alpha),
		cmocka_unit_test(test_reserve_xon),
		cmocka_unit_test(test_buffer_keys),
		cmocka_unit_test(test_dcqcn_opts),
		cmocka_unit_test(test_allreduce_ring),
		cmocka_unit_test(test_alltoall_tree),
		cmocka_unit_test(test_coll_keys),
		cmocka_unit_test(test_rail),
		cmocka_unit_test(test_two_priorities),
		cmocka_unit_test(test_ideal_fct_tiers),
	};
	return tu_run_sim_group("simtopo", tests, sizeof(tests) / sizeof(tests[0]));
}
