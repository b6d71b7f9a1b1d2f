/* Every host NIC of a simulated fabric on its own (issue #36 item 5):
 * each host's counters sum to the fabric's, the receiver and the senders
 * count what each side sees, the RTOs and PPCC counters per host sum to
 * the fabric's, and every scenario kind names each host's part.
 */
#include "testsim.h"
#include "ppcc.h"
#include "sim/firmware.h"
#include "sim/simdev.h"

#define HC_N (sizeof(struct sim_port_counters) / sizeof(uint64_t))

static void fields(const struct sim_port_counters *c, uint64_t v[HC_N])
{
	memcpy(v, c, HC_N * sizeof(*v));
}

/* The field index of member m. */
#define FIELD(m) (offsetof(struct sim_port_counters, m) / sizeof(uint64_t))

/* The fields of switches and links: the fabric's alone. */
static bool fabric_only(size_t i)
{
	return i == FIELD(sw_pause_tx) || i == FIELD(drops_nobuf) ||
	       i == FIELD(drops_loss) || i == FIELD(ecn_marked_sw);
}

static void cfg_words(struct sim_cfg *c, const char *words)
{
	char buf[512], *w[64], *sp, *save = NULL;
	struct pcb_err err = { 0 };
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", words);
	for (sp = strtok_r(buf, " ", &save); sp && n < 64;
	     sp = strtok_r(NULL, " ", &save))
		w[n++] = sp;
	if (simdev_parse_scenario(c, w[0], n - 1, w + 1, &err))
		fail_msg("%s: %s", words, err.msg);
}

/* Each per-NIC field summed over the hosts is the fabric's; the
 * switches' and links' are 0 at every host; the RTOs' hosts are its
 * senders' and count as each host's rto says. */
static void check_sums(struct sim *s, const char *what)
{
	struct sim_port_counters all, one;
	uint64_t a[HC_N], v[HC_N], sum[HC_N] = { 0 };
	const uint32_t *rh;
	const int64_t *rv;
	uint64_t *rto_at;
	uint32_t h, n = sim_hosts(s);
	size_t i, nrto = sim_rto_values(s, &rv);

	assert_int_equal(sim_rto_hosts(s, &rh), nrto);
	rto_at = calloc(n, sizeof(*rto_at));
	assert_non_null(rto_at);
	for (i = 0; i < nrto; i++) {
		assert_true(rh[i] < n);
		rto_at[rh[i]]++;
	}
	sim_port_counters(s, &all);
	fields(&all, a);
	for (h = 0; h < n; h++) {
		assert_int_equal(sim_host_port_counters(s, h, &one), 0);
		assert_int_equal(one.rto, rto_at[h]);
		fields(&one, v);
		for (i = 0; i < HC_N; i++) {
			if (fabric_only(i) && v[i])
				fail_msg("%s: h%u field %zu: %llu, not 0", what,
					 h, i, (unsigned long long)v[i]);
			sum[i] += v[i];
		}
	}
	for (i = 0; i < HC_N; i++)
		if (!fabric_only(i) && sum[i] != a[i])
			fail_msg("%s: field %zu: hosts sum to %llu, the fabric "
				 "%llu", what, i, (unsigned long long)sum[i],
				 (unsigned long long)a[i]);
	assert_int_equal(sim_host_port_counters(s, n, &one), -PCB_E_RANGE);
	free(rto_at);
}

static struct sim *run_cfg(const char *words, const char *algo,
			   int64_t dur)
{
	struct sim_cfg c;
	struct sim_algo a;
	struct sim *s;

	cfg_words(&c, words);
	algo_for(&a, algo);
	s = mk(&c, &a);
	assert_int_equal(sim_hosts(s), sim_cfg_hosts(&c));
	assert_int_equal(sim_run(s, dur, NULL), 0);
	return s;
}

/* A 16:1 incast: the receiver h16 has the ECN marks, the CNPs sent and
 * the completions received; the senders the CNPs handled, the
 * deschedules and their port's pauses; each side none of the other's.
 */
static void test_incast_sides(void **state)
{
	struct sim_port_counters c;
	struct sim *s;
	uint32_t h;

	(void)state;
	s = run_cfg("incast senders 16 size 256KB", "ztr_rtt",
		    2 * PS_PER_MS);
	check_sums(s, "incast");
	assert_int_equal(sim_host_port_counters(s, 16, &c), 0);
	assert_true(c.ecn_marked > 0);
	assert_true(c.cnp_sent > 0);
	assert_int_equal(c.rx_cqe, 16);
	assert_int_equal(c.cnp_handled, 0);
	assert_int_equal(c.qp_desched, 0);
	assert_int_equal(c.tx_cqe, 0);
	assert_int_equal(c.tx_pkts_prio[SIM_PRIO_DATA], 0);
	for (h = 0; h < 16; h++) {
		assert_int_equal(sim_host_port_counters(s, h, &c), 0);
		assert_int_equal(c.ecn_marked, 0);
		assert_int_equal(c.cnp_sent, 0);
		assert_int_equal(c.rx_cqe, 0);
		assert_true(c.cnp_handled > 0);
		assert_int_equal(c.tx_cqe, 1);
		assert_true(c.tx_pkts_prio[SIM_PRIO_DATA] > 0);
		assert_int_equal(c.rx_pkts_prio[SIM_PRIO_DATA], 0);
	}
	sim_free(s);
}

/* Losses: timeouts, NAKs and out-of-sequence data land at the NICs
 * where they happen, and still sum to the fabric's. */
static void test_losses(void **state)
{
	struct sim_port_counters all, c;
	struct sim *s;

	(void)state;
	s = run_cfg("incast senders 4 size 0 pfc off loss 0.01 timeout 4",
		    "dcqcn", 2 * PS_PER_MS);
	sim_port_counters(s, &all);
	assert_true(all.rto > 0);
	assert_true(all.nacks > 0);
	assert_true(all.out_of_sequence > 0);
	assert_true(all.rx_lost > 0);
	check_sums(s, "lossy incast");
	/* the receiver gets no NAK and no timeout: it sends nothing */
	assert_int_equal(sim_host_port_counters(s, 4, &c), 0);
	assert_int_equal(c.rto, 0);
	assert_int_equal(c.nacks, 0);
	assert_int_equal(c.out_of_sequence, all.out_of_sequence);
	sim_free(s);
}

/* Every other kind, with a second priority and a storm among them. */
static void test_kinds_sum(void **state)
{
	static const char *const cfgs[] = {
		"staircase senders 4 step 100us",
		"permutation leaves 2 spines 2 hosts 4",
		("mix leaves 2 spines 2 hosts 4 load 60 incast_period 200us "
		 "incast_senders 4 incast_size 64KB incast_prio 4"),
		"allreduce leaves 2 spines 2 hosts 4 ranks 6 size 1MB",
		"allreduce leaves 2 spines 2 hosts 4 ranks 8 size 1MB algo tree",
		"alltoall topo fattree k 4 ranks 16 size 1MB",
		"incast senders 4 size 0 storm_at 300us",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++) {
		struct sim *s = run_cfg(cfgs[i], "ztr_rtt", PS_PER_MS);
		struct sim_port_counters all;

		sim_port_counters(s, &all);
		assert_true(all.tx_pkts > 0);
		check_sums(s, cfgs[i]);
		sim_free(s);
	}
}

/* An algorithm that, as each packet leaves, asks for a probe (one out or
 * not) and moves the rate, and gives up on a probe after 2 us (the idle
 * RTT is longer): a probe asked for while one is out becomes ready as
 * that one's answer comes or it times out, with nothing asked then, and
 * the pending slot is re-timed (fabric.c, apply_out).  Its state: the
 * packets sent so far. */
static void eager_event(struct algo_port *p, void *qp, int64_t now,
			struct algo_out *o)
{
	const uint32_t *sent = qp;

	(void)p;
	(void)now;
	o->rate = *sent % 2 ? ALGO_RATE_ONE / 4 : ALGO_RATE_ONE / 3;
	o->probe_timeout = 2000;
}

static void eager_tx(struct algo_port *p, void *qp, int64_t now,
		     uint32_t bytes, bool probe_sent, struct algo_out *o)
{
	(void)bytes;
	(void)probe_sent;
	++*(uint32_t *)qp;
	eager_event(p, qp, now, o);
	o->probe_req = true;
}

static void eager_rtt(struct algo_port *p, void *qp, int64_t now,
		      int64_t send_ns, int64_t recv_ns, struct algo_out *o)
{
	(void)send_ns;
	(void)recv_ns;
	eager_event(p, qp, now, o);
}

/* Run cfg with a, checking the NICs' lists every 7 us for 1 ms; the
 * probes ready seen. */
static uint32_t slots_run(const char *cfg, const struct sim_algo *a)
{
	struct sim_cfg c;
	struct sim *s;
	uint32_t probes = 0;
	int j;

	cfg_words(&c, cfg);
	s = mk(&c, a);
	assert_int_equal(sim_run(s, 7 * PS_PER_US, NULL), 0);
	probes += assert_nic_slots(s);
	for (j = 0; j < 140; j++) {
		assert_int_equal(sim_run_more(s, 7 * PS_PER_US, NULL), 0);
		probes += assert_nic_slots(s);
	}
	print_message("%s (%s): %u probes ready seen\n", cfg, a->ops ?
		      a->ops->name : "none", probes);
	sim_free(s);
	return probes;
}

/* The NICs' scheduler reads each QP's copy in its host's list (sim_int.h,
 * struct nic_slot): in runs with probes (ZTR-RTT, the eager algorithm),
 * rate limits (DCQCN), NAKs and timeouts, flows that stop, a second data
 * priority and a storm that holds a NIC, each copy is its QP's and each
 * host's count of probes ready a recount (assert_nic_slots); some were
 * ready. */
static void test_nic_slots(void **state)
{
	static const struct {
		const char *cfg, *algo;
	} cases[] = {
		{ "alltoall topo fattree k 4 ranks 16 size 4MB", "ztr_rtt" },
		/* 95 QPs a host: two words of probe bits */
		{ "alltoall leaves 4 spines 4 hosts 24 ranks 96 size 4MB",
		  "ztr_rtt" },
		{ "incast senders 16 size 1MB", "dcqcn" },
		{ "incast senders 4 size 0 pfc off loss 0.01 timeout 4",
		  "dcqcn" },
		{ "mix leaves 2 spines 2 hosts 4 load 60 pfc off loss 0.01",
		  "ztr_rtt" },
		{ "mix leaves 2 spines 2 hosts 4 load 60 pfc off loss 0.01",
		  "dcqcn" },
		{ "staircase senders 4 step 100us", "ztr_rtt" },
		{ ("mix leaves 2 spines 2 hosts 4 load 60 longflows 2 "
		   "incast_period 200us incast_senders 4 incast_size 64KB "
		   "incast_prio 4 pfc_prios 3,4"), "ztr_rtt" },
		{ "incast senders 4 size 0 storm_at 300us", "ztr_rtt" },
	};
	static const struct algo_ops eager = {
		.name = "eager", .label = "test", .qp_state_size = 4,
		.init = eager_event, .on_tx = eager_tx, .on_rtt = eager_rtt,
		.on_cnp = eager_event, .on_nack = eager_event,
		.on_probe_timeout = eager_event, .on_timer = eager_event,
	};
	struct sim_algo a;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t probes;

		algo_for(&a, cases[i].algo);
		probes = slots_run(cases[i].cfg, &a);
		if (!strcmp(cases[i].algo, "ztr_rtt"))
			assert_true(probes > 0);
	}
	memset(&a, 0, sizeof(a));
	a.ops = &eager;
	assert_true(slots_run("incast senders 4 size 1MB", &a) > 0);
	assert_true(slots_run("mix leaves 2 spines 2 hosts 4 load 60 "
			      "pfc off loss 0.01", &a) > 0);
}

/* Each host's algorithm counters are its own QPs' samples: the
 * receiver of an incast has none, and over the hosts they are what
 * sim_take_counters folds. */
static void test_algo_counters(void **state)
{
	struct sim *s;
	uint32_t delta[ALGO_MAX_COUNTERS], sum[ALGO_MAX_COUNTERS] = { 0 };
	bool touched[ALGO_MAX_COUNTERS];
	const uint32_t *v;
	size_t c, nc;
	uint32_t h;
	struct sim_algo a;

	(void)state;
	s = run_cfg("incast senders 8 size 0", "ztr_rtt", PS_PER_MS);
	algo_for(&a, "ztr_rtt");
	nc = a.desc->ncounters;
	for (h = 0; h < 9; h++) {
		v = sim_host_algo_counters(s, h);
		assert_non_null(v);
		for (c = 0; c < nc; c++) {
			if (h == 8)
				assert_int_equal(v[c], 0);
			if (a.desc->counters[c].kind == ALGO_CK_SUM)
				sum[c] += v[c];
		}
	}
	assert_null(sim_host_algo_counters(s, 9));
	sim_take_counters(s, delta, touched, nc);
	for (c = 0; c < nc; c++)
		if (a.desc->counters[c].kind == ALGO_CK_SUM)
			assert_int_equal(delta[c], sum[c]);
	/* taken: zero at every host */
	for (h = 0; h < 9; h++)
		for (c = 0; c < nc; c++)
			assert_int_equal(sim_host_algo_counters(s, h)[c], 0);
	sim_free(s);
}

/* Every kind names each host's part, and the line says the same. */
static void test_roles(void **state)
{
	static const struct {
		const char *cfg, *line;
		uint32_t host;
		const char *role;
	} t[] = {
		{ "incast senders 16", "receiver h16; senders h0-h15", 16,
		  "receiver" },
		{ "incast senders 16", NULL, 15, "sender" },
		{ "staircase senders 4", "receiver h4; senders h0-h3 (joining "
		  "in that order)", 0, "sender" },
		{ "permutation leaves 2 spines 2 hosts 4", "h0-h7 each sender "
		  "and receiver (one flow out, one in: a random permutation)",
		  7, "both" },
		{ "mix leaves 2 spines 2 hosts 4", "h0-h7 each sender and "
		  "receiver (flows between random hosts)", 3, "both" },
		{ "mix leaves 2 spines 2 hosts 4 incast_period 1ms "
		  "incast_senders 5", "h0-h7 each sender and receiver (flows "
		  "between random hosts); every 1ms 5 senders to a random "
		  "receiver", 0, "both" },
		{ "allreduce leaves 2 spines 2 hosts 4 ranks 6", "ranks h0-h5 "
		  "(a ring: each sends to the next); idle h6-h7", 6, "idle" },
		{ "allreduce leaves 2 spines 2 hosts 4 ranks 8 algo tree",
		  "ranks h0-h7 (a tree: h0 the root)", 5, "rank" },
		{ "alltoall topo fattree k 4 ranks 16", "ranks h0-h15 (each "
		  "sender and receiver)", 15, "rank" },
		{ "incast senders 4 storm_at 1ms", "receiver h4; senders h0-h3; "
		  "storm h4", 4, "receiver" },
		{ "permutation leaves 2 spines 2 hosts 4 storm_at 1ms", NULL, 0,
		  "both" },
	};
	char line[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct sim_cfg c;

		cfg_words(&c, t[i].cfg);
		assert_string_equal(sim_cfg_role(&c, t[i].host), t[i].role);
		assert_null(sim_cfg_role(&c, sim_cfg_hosts(&c)));
		sim_cfg_roles(&c, line, sizeof(line));
		if (t[i].line)
			assert_string_equal(line, t[i].line);
		if (strstr(t[i].cfg, "storm_at") && !strstr(line, "; storm h"))
			fail_msg("%s: no storm host in '%s'", t[i].cfg, line);
	}
	/* every kind has a line, and a role for each of its hosts */
	for (i = 0; i < SIM_NKINDS; i++) {
		struct sim_cfg c;
		uint32_t h;

		cfg_words(&c, sim_kind_name((enum sim_kind)i));
		assert_true(sim_cfg_roles(&c, line, sizeof(line)) > 0);
		for (h = 0; h < sim_cfg_hosts(&c); h++)
			assert_non_null(sim_cfg_role(&c, h));
	}
}

/* A NIC with a param of its own: ZTR-RTT's FIXED_RATE at 10 % of line
 * on h0 of a 2:1 incast holds h0's flow there, while h1 takes the rest;
 * a later fabric-wide write changes h0's other params, not its own. */
static void test_host_params(void **state)
{
	uint32_t par[ALGO_MAX_PARAMS], mine[ALGO_MAX_PARAMS] = { 0 };
	uint64_t b[2];
	struct sim *s;
	int64_t t;

	(void)state;
	s = run_cfg("incast senders 2 size 0", "ztr_rtt", 0);
	mine[13] = 104858;	/* FIXED_RATE, fxp20: 0.1 */
	assert_int_equal(sim_host_params(s, 0, mine, 1ull << 13), 0);
	assert_int_equal(sim_host_params(s, 3, mine, 1ull << 13),
			 -PCB_E_RANGE);
	assert_int_equal(sim_run(s, PS_PER_MS, NULL), 0);
	t = sim_now(s);
	assert_int_equal(sim_flow_bytes(s, b, 2), 2);
	/* 10 % of 400 Gb/s for 1 ms is 5 MB, framing aside */
	assert_true(b[0] > 4000000 && b[0] < 5100000);
	assert_true(b[1] > 6 * b[0]);
	sim_host_params_get(s, 1, par);
	assert_int_equal(par[13], 0);
	par[4] = 77;		/* AI, fabric-wide */
	sim_set_params(s, par, ALGO_MAX_PARAMS);
	sim_host_params_get(s, 0, par);
	assert_int_equal(par[13], 104858);
	assert_int_equal(par[4], 77);
	/* its own dropped: the fabric's again, and the flows share */
	assert_int_equal(sim_host_params(s, 0, NULL, 0), 0);
	sim_host_params_get(s, 0, par);
	assert_int_equal(par[13], 0);
	assert_int_equal(sim_run(s, 2 * PS_PER_MS, NULL), 0);
	assert_true(sim_now(s) > t);
	assert_int_equal(sim_flow_bytes(s, b, 2), 2);
	assert_true(b[0] * 10 > b[1] * 7 && b[1] * 10 > b[0] * 7);
	sim_free(s);
}

/* Through the device: counters slot 1 on, a 8:1 incast; each host's
 * PPCC counters as the register keeps them sum to the register's (SUM
 * kinds), their extremes are its (MIN, MAX); the receiver has none; the
 * host counters sum to the device's; a fabric rebuilt adds to them.
 */
static void test_simdev_hosts(void **state)
{
	struct pcb_err err = { 0 };
	struct reg_dev *dev;
	struct ppcc p;
	struct simdev *d;
	const struct algo_desc *desc;
	uint32_t reg[64], one[ALGO_MAX_COUNTERS], sum[ALGO_MAX_COUNTERS];
	uint32_t ext[ALGO_MAX_COUNTERS], h, num_rtt = UINT32_MAX;
	struct sim_port_counters all, c, tot;
	uint64_t ds[DS_COUNT], dsum[DS_COUNT] = { 0 }, dall[DS_COUNT];
	int64_t rv[8];
	char line[256], *argv[] = { "senders", "8", "size", "0" };
	size_t n, i;

	(void)state;
	assert_int_equal(reg_dev_open(&dev, &sim_backend_ops, "hosts",
				      "hosts", &err), 0);
	assert_int_equal(ppcc_init(&p, dev, tu_ppcc_layout(), &err), 0);
	assert_int_equal(ppcc_disable(&p, 0, &err), 0);
	assert_int_equal(ppcc_enable(&p, 1, true, &err), 0);
	assert_int_equal(simdev_open(&d, simfw_of(dev), "hosts", &err), 0);
	assert_int_equal(simdev_scenario(d, "incast", 4, argv, line,
					 sizeof(line), &err), 0);
	assert_int_equal(simdev_roles(d, line, sizeof(line), &err), 0);
	assert_string_equal(line, "receiver h8; senders h0-h7");
	assert_string_equal(simdev_host_role(d, 8), "receiver");
	assert_int_equal(simdev_run(d, PS_PER_MS, NULL, &err), 0);
	desc = simfw_slot_desc(d->fw, 1);
	assert_int_equal(ppcc_counters(&p, 1, false, reg, 64, &n, &err), 0);
	assert_int_equal(n, desc->ncounters);
	for (i = 0; i < n; i++)
		if (!strcmp(desc->counters[i].name, "ZTR_CC_NUM_RTT"))
			num_rtt = (uint32_t)i;
	assert_true(num_rtt < n);
	assert_true(reg[num_rtt] > 0);
	memset(sum, 0, sizeof(sum));
	memset(ext, 0, sizeof(ext));
	for (h = 0; h < 9; h++) {
		assert_int_equal(simdev_host_pcc_counters(d, h, 1, one,
							  ALGO_MAX_COUNTERS,
							  &err), 0);
		for (i = 0; i < n; i++) {
			enum algo_ckind k = desc->counters[i].kind;

			if (h == 8)
				assert_int_equal(one[i], 0);
			else if (i == num_rtt)
				assert_true(one[i] > 0);
			if (k == ALGO_CK_SUM)
				sum[i] += one[i];
			else if (one[i] && (!ext[i] ||
					    (k == ALGO_CK_MAX ? one[i] > ext[i] :
					     one[i] < ext[i])))
				ext[i] = one[i];
		}
	}
	for (i = 0; i < n; i++)
		assert_int_equal(desc->counters[i].kind == ALGO_CK_SUM ?
				 sum[i] : ext[i], reg[i]);
	/* another slot's: 0; no such host or slot: refused */
	assert_int_equal(simdev_host_pcc_counters(d, 0, 2, one, n, &err), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(one[i], 0);
	assert_int_equal(simdev_host_pcc_counters(d, 9, 1, one, n, &err),
			 -PCB_E_RANGE);
	assert_int_equal(simdev_host_pcc_counters(d, 0, SIMFW_SLOTS, one, n,
						  &err), -PCB_E_RANGE);
	simdev_host_pcc_clear(d, 3, 1);
	assert_int_equal(simdev_host_pcc_counters(d, 3, 1, one, n, &err), 0);
	assert_int_equal(one[num_rtt], 0);
	/* diag sources and host counters per host sum to the fabric's */
	simdev_diag_sources(d->sim, dall);
	for (h = 0; h < 9; h++) {
		simdev_host_diag_sources(d->sim, h, ds);
		for (i = 0; i < DS_COUNT; i++)
			dsum[i] += ds[i];
	}
	for (i = 0; i < DS_COUNT; i++)
		assert_int_equal(dsum[i], dall[i]);
	assert_int_equal(simdev_host_rto_values(d, 0, rv, 8), 0);
	/* a fabric rebuilt (sim reset): each host's counters add up */
	sim_port_counters(d->sim, &all);
	simdev_reset(d);
	assert_int_equal(simdev_run(d, PS_PER_MS, NULL, &err), 0);
	assert_int_equal(simdev_host_counters(d, &tot, &err), 0);
	assert_int_equal(tot.tx_bytes, 2 * all.tx_bytes);
	memset(&all, 0, sizeof(all));
	for (h = 0; h < 9; h++) {
		assert_int_equal(simdev_host_counters_of(d, h, &c, &err), 0);
		all.tx_bytes += c.tx_bytes;
		all.cnp_sent += c.cnp_sent;
		all.cnp_handled += c.cnp_handled;
	}
	assert_int_equal(all.tx_bytes, tot.tx_bytes);
	assert_int_equal(all.cnp_sent, tot.cnp_sent);
	assert_int_equal(all.cnp_handled, tot.cnp_handled);
	assert_int_equal(simdev_host_counters_of(d, 9, &c, &err),
			 -PCB_E_RANGE);
	simdev_close(d);
	ppcc_release(&p);
	reg_dev_close(dev);
}

/* Through the device: h0's own FIXED_RATE (the debug slot's; the
 * register unchanged), refused where the firmware would ignore it, kept
 * for the next fabric, dropped by a reset. */
static void test_simdev_params(void **state)
{
	struct pcb_err err = { 0 };
	struct reg_dev *dev;
	struct ppcc p;
	struct simdev *d;
	uint32_t v[ALGO_MAX_PARAMS], reg[ALGO_MAX_PARAMS];
	uint64_t own, b[2];
	size_t n, nr;
	char kept[64], *argv[] = { "senders", "2", "size", "0" };

	(void)state;
	assert_int_equal(reg_dev_open(&dev, &sim_backend_ops, "hpar", "hpar",
				      &err), 0);
	assert_int_equal(ppcc_init(&p, dev, tu_ppcc_layout(), &err), 0);
	assert_int_equal(ppcc_disable(&p, 0, &err), 0);
	assert_int_equal(ppcc_enable(&p, 1, true, &err), 0);
	assert_int_equal(simdev_open(&d, simfw_of(dev), "hpar", &err), 0);
	assert_int_equal(simdev_scenario(d, "incast", 4, argv, kept,
					 sizeof(kept), &err), 0);
	/* debug-only in the deployment slot, out of range, no such host */
	assert_int_equal(simdev_host_param_set(d, 0, 0, 13, 104858, &err),
			 -PCB_E_RANGE);
	pcb_err_reset(&err);
	assert_int_equal(simdev_host_param_set(d, 0, 1, 4, 0, &err),
			 -PCB_E_RANGE);
	pcb_err_reset(&err);
	assert_int_equal(simdev_host_param_set(d, 3, 1, 13, 104858, &err),
			 -PCB_E_RANGE);
	pcb_err_reset(&err);
	assert_int_equal(simdev_host_param_set(d, 0, 1, 99, 1, &err),
			 -PCB_E_RANGE);
	pcb_err_reset(&err);
	assert_int_equal(simdev_host_param_set(d, 0, 1, 13, 104858, &err), 0);
	assert_int_equal(simdev_host_params(d, 0, 1, v, ALGO_MAX_PARAMS, &n,
					    &own, &err), 0);
	assert_int_equal(own, 1ull << 13);
	assert_int_equal(v[13], 104858);
	assert_int_equal(simfw_params(d->fw, 1, reg, ALGO_MAX_PARAMS, &nr), 0);
	assert_int_equal(nr, n);
	assert_int_equal(reg[13], 0);
	assert_int_equal(simdev_host_params(d, 1, 1, v, ALGO_MAX_PARAMS, &n,
					    &own, &err), 0);
	assert_int_equal(own, 0);
	assert_memory_equal(v, reg, n * sizeof(*v));
	/* the fabric built after the set runs it; so does the next */
	assert_int_equal(simdev_run(d, PS_PER_MS, NULL, &err), 0);
	assert_int_equal(sim_flow_bytes(d->sim, b, 2), 2);
	assert_true(b[0] < 5100000 && b[1] > 6 * b[0]);
	simdev_reset(d);
	assert_int_equal(simdev_run(d, PS_PER_MS, NULL, &err), 0);
	assert_int_equal(sim_flow_bytes(d->sim, b, 2), 2);
	assert_true(b[0] < 5100000 && b[1] > 6 * b[0]);
	/* dropped: the register's again, at once */
	simdev_host_param_reset(d, 0, 1);
	assert_int_equal(simdev_host_params(d, 0, 1, v, ALGO_MAX_PARAMS, &n,
					    &own, &err), 0);
	assert_int_equal(own, 0);
	assert_int_equal(v[13], 0);
	sim_host_params_get(d->sim, 0, v);
	assert_int_equal(v[13], 0);
	simdev_close(d);
	ppcc_release(&p);
	reg_dev_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incast_sides),
		cmocka_unit_test(test_losses),
		cmocka_unit_test(test_kinds_sum),
		cmocka_unit_test(test_nic_slots),
		cmocka_unit_test(test_algo_counters),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_simdev_hosts),
		cmocka_unit_test(test_host_params),
		cmocka_unit_test(test_simdev_params),
	};

	tu_private_state();
	return tu_run_sim_group("simhost", tests,
				sizeof(tests) / sizeof(tests[0]));
}
