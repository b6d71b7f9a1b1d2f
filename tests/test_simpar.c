/* Two threads, one run (issue 34 item 7, par.c): a fabric run with
 * sim_run_par is the one-thread run, to every figure the report, the
 * counters and each port, host and flow show; what it refuses changes
 * nothing.
 */
#include "testsim.h"

static struct sim_cfg cfg_of(const char *kind, const char *const *kv)
{
	struct pcb_err err = { 0 };
	struct sim_cfg c;

	sim_cfg_default(&c);
	assert_int_equal(sim_kind_parse(kind, &c.kind), 0);
	for (; kv && *kv; kv += 2)
		if (sim_cfg_set(&c, kv[0], kv[1], &err))
			fail_msg("%s %s: %s", kv[0], kv[1], err.msg);
	if (sim_cfg_check(&c, &err))
		fail_msg("check: %s", err.msg);
	return c;
}

static void assert_same_run(struct sim *a, struct sim *b)
{
	struct sim_summary ma, mb;
	struct sim_port_counters ca, cb;
	struct sim_fct_table ta, tb;
	uint32_t i, n;

	sim_summary(a, &ma);
	sim_summary(b, &mb);
	print_message("events %llu / %llu, flows %u / %u, fct %zu / %zu, "
		      "rtt mean %.6f / %.6f ns, queue mean %.1f / %.1f B, "
		      "pauses %llu / %llu\n", (unsigned long long)ma.events,
		      (unsigned long long)mb.events, ma.flows, mb.flows,
		      ma.nfct, mb.nfct, ma.rtt_mean, mb.rtt_mean, ma.q_mean,
		      mb.q_mean, (unsigned long long)ma.pauses,
		      (unsigned long long)mb.pauses);
	/* the whole summary, doubles to the bit */
	assert_memory_equal(&ma, &mb, sizeof(ma));
	sim_port_counters(a, &ca);
	sim_port_counters(b, &cb);
	assert_memory_equal(&ca, &cb, sizeof(ca));
	assert_int_equal(sim_fct_table(a, 10, &ta), 0);
	assert_int_equal(sim_fct_table(b, 10, &tb), 0);
	assert_memory_equal(&ta, &tb, sizeof(ta));
	assert_int_equal(a->nports, b->nports);
	for (i = 0; i < a->nports; i++) {
		const struct port *p = &a->ports[i], *q = &b->ports[i];

		assert_int_equal(port_tx_bytes(p), port_tx_bytes(q));
		assert_int_equal(port_rx_bytes(p), port_rx_bytes(q));
		assert_int_equal(p->q_max, q->q_max);
		assert_int_equal(p->pause_tx, q->pause_tx);
		assert_int_equal(p->pause_rx, q->pause_rx);
		assert_int_equal(p->paused_ps, q->paused_ps);
	}
	for (i = 0; i < a->nhosts; i++) {
		struct sim_port_counters ha, hb;

		assert_int_equal(sim_host_port_counters(a, i, &ha), 0);
		assert_int_equal(sim_host_port_counters(b, i, &hb), 0);
		assert_memory_equal(&ha, &hb, sizeof(ha));
	}
	assert_int_equal(a->nqps, b->nqps);
	for (i = 0; i < a->nqps; i++) {
		assert_int_equal(a->qps[i].win_bytes, b->qps[i].win_bytes);
		assert_int_equal(a->qps[i].finish, b->qps[i].finish);
		assert_int_equal(a->qps[i].rate, b->qps[i].rate);
	}
	n = a->algo.desc ? (uint32_t)a->algo.desc->ncounters : 0;
	if (n) {
		uint32_t da[ALGO_MAX_COUNTERS], db[ALGO_MAX_COUNTERS];
		bool tca[ALGO_MAX_COUNTERS], tcb[ALGO_MAX_COUNTERS];

		sim_take_counters(a, da, tca, n);
		sim_take_counters(b, db, tcb, n);
		assert_memory_equal(da, db, n * sizeof(*da));
		assert_memory_equal(tca, tcb, n * sizeof(*tca));
	}
}

/* The 64-host leaf-spine WebSearch mix (and one with a periodic incast
 * under PFC), a lossy fat-tree permutation, a mix with long-lived flows,
 * 1 ms in two steps: one thread and two alike. */
static void test_same_run(void **state)
{
	static const char *const mix[] = { "leaves", "8", "spines", "8",
		"hosts", "8", "load", "50", NULL };
	static const char *const inc[] = { "leaves", "8", "spines", "4",
		"hosts", "8", "load", "30", "incast_period", "200us",
		"incast_senders", "16", "incast_size", "64KB", NULL };
	static const char *const perm[] = { "topo", "fattree", "k", "4",
		"loss", "0.001", NULL };
	static const char *const lng[] = { "leaves", "4", "spines", "4",
		"hosts", "4", "load", "30", "longflows", "4", NULL };
	static const struct {
		const char *kind, *algo;
		const char *const *kv;
	} cases[] = {
		{ "mix", "ztr_rtt", mix },
		{ "mix", "dcqcn", mix },
		{ "mix", "ztr_rtt", inc },
		/* flows made as the fabric is built: each starts once */
		{ "permutation", "dcqcn", perm },
		{ "mix", "ztr_rtt", lng },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sim_cfg c = cfg_of(cases[i].kind, cases[i].kv);
		struct pcb_err err = { 0 };
		struct sim_algo a;
		struct sim *s1, *s2;

		algo_for(&a, cases[i].algo);
		a.counters_on = true;
		s1 = mk(&c, &a);
		s2 = mk(&c, &a);
		assert_int_equal(sim_run(s1, 600 * PS_PER_US, NULL), 0);
		assert_int_equal(sim_run_more(s1, 400 * PS_PER_US, NULL), 0);
		if (sim_run_par(s2, 600 * PS_PER_US, true, NULL, &err) ||
		    sim_run_par(s2, 400 * PS_PER_US, false, NULL, &err))
			fail_msg("sim_run_par: %s", err.msg);
		assert_same_run(s1, s2);
		sim_par_finish(s2);
		assert_int_not_equal(sim_par_check(s2, &err), 0);
		print_message("after: %s\n", err.msg);
		assert_int_not_equal(sim_run_par(s2, PS_PER_US, false, NULL,
						 &err), 0);
		sim_free(s1);
		sim_free(s2);
	}
}

/* Refused, nothing changed: a collective, an incast, a fabric already
 * run. */
static void test_refused(void **state)
{
	static const char *const ar[] = { "leaves", "2", "spines", "2",
		"hosts", "2", "ranks", "4", "size", "64KB", NULL };
	static const char *const mix[] = { "leaves", "2", "spines", "2",
		"hosts", "2", "load", "30", NULL };
	struct pcb_err err = { 0 };
	struct sim_algo a;
	struct sim_cfg c;
	struct sim *s;

	(void)state;
	algo_for(&a, "ztr_rtt");
	c = cfg_of("allreduce", ar);
	s = mk(&c, &a);
	assert_int_not_equal(sim_run_par(s, PS_PER_US, true, NULL, &err), 0);
	print_message("%s\n", err.msg);
	memset(&err, 0, sizeof(err));
	assert_int_equal(sim_now(s), 0);
	assert_int_equal(sim_events(s), 0);
	sim_free(s);
	c = cfg_of("incast", NULL);
	s = mk(&c, &a);
	assert_int_not_equal(sim_par_check(s, &err), 0);
	print_message("%s\n", err.msg);
	memset(&err, 0, sizeof(err));
	sim_free(s);
	c = cfg_of("mix", mix);
	s = mk(&c, &a);
	assert_int_equal(sim_run(s, 10 * PS_PER_US, NULL), 0);
	assert_int_not_equal(sim_run_par(s, PS_PER_US, false, NULL, &err), 0);
	print_message("%s\n", err.msg);
	memset(&err, 0, sizeof(err));
	assert_int_equal(sim_now(s), 10 * PS_PER_US);
	sim_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_run),
		cmocka_unit_test(test_refused),
	};
	return tu_run_sim_group("simpar", tests,
				sizeof(tests) / sizeof(tests[0]));
}
