/* A run does not depend on bookkeeping order (issue 34 item 7: two
 * threads, each running half of the fabric, must give one thread's
 * run): not on which packet slot of the pool a packet took, not on how
 * many draws other parts of the fabric made, not on when the first
 * timer was armed.  Each test changes such an order and asserts that
 * the run stays the same; each fails on the engine before (arrivals
 * keyed by their packet's slot, one RNG for fabric and workload, the
 * timer scan timed from the first arm).
 */
#include "testsim.h"

/* The packet pool filled beforehand, its free slots stacked in a
 * shuffled order: every packet of the run takes another slot than it
 * would. */
static void scramble_pool(struct sim *s, uint32_t n, uint64_t seed)
{
	uint32_t *perm = malloc(n * sizeof(*perm)), i;

	assert_non_null(perm);
	assert_int_equal(sim_pkt_reserve(s, s->npk + n), 0);
	for (i = 0; i < n; i++)
		perm[i] = s->npk + i;
	for (i = n - 1; i > 0; i--) {
		uint32_t j, t;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		j = (uint32_t)((seed >> 33) % (i + 1));
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	/* on top of the stack, perm[0] to be taken first */
	for (i = n; i-- > 0;)
		s->pfree[s->npfree++] = perm[i];
	s->npk += n;
	free(perm);
}

/* Arrivals due at one picosecond (a synchronized incast's senders, one
 * delay from the switch) go by their port, not by their packet's slot:
 * the same incast with the pool's slots shuffled is the same run, to
 * the event.  ZTR-RTT and DCQCN, with PFC; and a WebSearch mix. */
static void test_pool_order(void **state)
{
	static const char *const inc[] = { "senders", "16", "size", "0",
		NULL };
	static const char *const mix[] = { "leaves", "4", "spines", "2",
		"hosts", "4", "load", "60", NULL };
	static const struct {
		const char *kind, *algo;
		const char *const *kv;
		int64_t ps;
	} cases[] = {
		{ "incast", "ztr_rtt", inc, PS_PER_MS },
		{ "incast", "dcqcn", inc, PS_PER_MS },
		{ "mix", "ztr_rtt", mix, PS_PER_MS },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sim_cfg c = cfg_of(cases[i].kind, cases[i].kv);
		struct sim_algo a;
		struct sim *s0, *s1;

		algo_for(&a, cases[i].algo);
		s0 = mk(&c, &a);
		s1 = mk(&c, &a);
		scramble_pool(s1, 20000, 11 + i);
		assert_int_equal(sim_run(s0, cases[i].ps, NULL), 0);
		assert_int_equal(sim_run(s1, cases[i].ps, NULL), 0);
		assert_same_run(s0, s1);
		sim_free(s0);
		sim_free(s1);
	}
}

/* The workload draws apart from the fabric: a mix whose switches mark
 * at other thresholds (so draw RED's dice another number of times) and
 * whose links lose packets (another draw per arrival) starts the same
 * flows, to the byte and the ECMP value, at the same times. */
static void test_workload_apart(void **state)
{
	static const char *const base[] = { "leaves", "4", "spines", "2",
		"hosts", "4", "load", "60", NULL };
	static const char *const other[] = { "leaves", "4", "spines", "2",
		"hosts", "4", "load", "60", "ecn", "20KB:200KB:0.5",
		"pfc", "off", "loss", "0.001", NULL };
	struct sim_cfg c0 = cfg_of("mix", base), c1 = cfg_of("mix", other);
	struct sim_port_counters p0, p1;
	struct sim_algo a;
	struct sim *s0, *s1;
	uint32_t i;

	(void)state;
	algo_for(&a, "ztr_rtt");
	s0 = mk(&c0, &a);
	s1 = mk(&c1, &a);
	assert_int_equal(sim_run(s0, PS_PER_MS, NULL), 0);
	assert_int_equal(sim_run(s1, PS_PER_MS, NULL), 0);
	sim_port_counters(s0, &p0);
	sim_port_counters(s1, &p1);
	/* the fabrics did differ */
	assert_true(p1.drops_loss > 0);
	assert_true(p0.ecn_marked_sw != p1.ecn_marked_sw);
	print_message("flows %u / %u; marks %llu / %llu, lost %llu\n",
		      s0->nqps, s1->nqps,
		      (unsigned long long)p0.ecn_marked_sw,
		      (unsigned long long)p1.ecn_marked_sw,
		      (unsigned long long)p1.drops_loss);
	assert_true(s0->nqps > 100);
	assert_int_equal(s0->nqps, s1->nqps);
	for (i = 0; i < s0->nqps; i++) {
		const struct qp *x = &s0->qps[i], *y = &s1->qps[i];

		assert_int_equal(x->src, y->src);
		assert_int_equal(x->dst, y->dst);
		assert_int_equal(x->size, y->size);
		assert_int_equal(x->start, y->start);
		assert_int_equal(x->ecmp, y->ecmp);
	}
	sim_free(s0);
	sim_free(s1);
}

/* The pending timer scan's time, or -1: it lies in a lane, the wheel,
 * or the heap. */
static int64_t scan_time(const struct sim *s)
{
	uint32_t i, n;
	size_t j;

	for (i = 0; i < EV_LANES; i++) {
		const struct lane *l = &s->lanes[i];

		for (n = l->head; n != l->tail; n++)
			if (l->ring[n & l->mask].tid >> 24 == EV_TIMER_SCAN)
				return s->tbase + (int64_t)(l->ring[n &
					l->mask].k >> EV_TID_BITS);
	}
	for (i = 0; i < WHEEL_N; i++)
		for (n = s->wb[i].head; n; n = s->wn[n].next)
			if (s->wn[n].tid >> 24 == EV_TIMER_SCAN)
				return s->tbase + (int64_t)(s->wn[n].k >>
							    EV_TID_BITS);
	for (j = 0; j < s->hn; j++)
		if (s->heap[j].tid >> 24 == EV_TIMER_SCAN)
			return s->tbase + (int64_t)(s->heap[j].k >>
						    EV_TID_BITS);
	return -1;
}

/* The timer scan runs at multiples of its tick, whenever the first QP
 * was armed: an incast whose senders start at jittered times (the first
 * arm at no multiple) scans on the grid, and so does one started later
 * by a fraction of a tick. */
static void test_scan_grid(void **state)
{
	static const char *const kv[] = { "senders", "8", "size", "0",
		"start", "jitter", NULL };
	struct sim_cfg c = cfg_of("incast", kv);
	struct sim_algo a;
	int k;

	(void)state;
	algo_for(&a, "dcqcn");
	for (k = 0; k < 2; k++) {
		struct sim *s = mk(&c, &a);
		int64_t t;

		if (k)
			sim_run(s, 3 * TIMER_TICK_PS / 7, NULL);
		assert_int_equal(sim_run(s, 100 * PS_PER_US + 1234, NULL), 0);
		assert_true(s->narmed > 0);
		t = scan_time(s);
		print_message("scan due at %lld ps\n", (long long)t);
		assert_true(t > s->now);
		assert_int_equal(t % TIMER_TICK_PS, 0);
		sim_free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_order),
		cmocka_unit_test(test_workload_apart),
		cmocka_unit_test(test_scan_grid),
	};
	return tu_run_sim_group("simorder", tests,
				sizeof(tests) / sizeof(tests[0]));
}
