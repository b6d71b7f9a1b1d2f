/* testsim.h - shared set-up for the simulator's cmocka tests (test_sim,
 * test_simtopo, test_simorder, test_simpar): the algorithm descriptors,
 * an algorithm by name, a sim, a scenario's keys, two runs compared.
 */
#ifndef PCCB_TESTSIM_H
#define PCCB_TESTSIM_H

#include "testutil.h"
#include "sim/sim_int.h"

static struct algo_desc *descs[3];

/* a->desc and ops for algorithm `name`; NULL: no CC (line rate). */
static inline void algo_for(struct sim_algo *a, const char *name)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	if (!name)
		return;
	for (i = 0; i < 3; i++)
		if (descs[i] && !strcmp(descs[i]->name, name))
			a->desc = descs[i];
	assert_non_null(a->desc);
	a->ops = algo_find(name);
	algo_conf_init(&a->conf, a->ops, a->desc);
	a->counters_on = true;
}

static inline struct sim *mk(const struct sim_cfg *c,
			     const struct sim_algo *a)
{
	struct sim *s = NULL;
	struct pcb_err err = { 0 };

	if (sim_create(&s, c, a, &err))
		fail_msg("sim_create: %s", err.msg);
	return s;
}

/* The seed shift of the fidelity tests: PCCB_SEED_SHIFT=N (a decimal
 * under 2^32; tests/tools/seed-robust.sh sets 100, 200, ...) adds N to
 * every seed they draw from fid_seed, so that their claims can be checked
 * on other seeds than the ones make check uses; unset or empty: 0.
 */
static inline uint64_t fid_seed(uint64_t seed)
{
	const char *v = getenv("PCCB_SEED_SHIFT");
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return seed;
	n = strtoull(v, &end, 10);
	if (*end || *v < '0' || *v > '9' || n >= 1ull << 32)
		fail_msg("PCCB_SEED_SHIFT '%s': not a decimal under 2^32", v);
	return seed + n;
}

static inline int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The median of n (> 0) values. */
static inline double median_of(const double *v, size_t n)
{
	double *w = malloc(n * sizeof(*w)), m;

	assert_true(n > 0 && w);
	memcpy(w, v, n * sizeof(*v));
	qsort(w, n, sizeof(*w), cmp_double);
	m = n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
	free(w);
	return m;
}

/* "k v k v ..." onto the defaults of a kind, checked as `sim scenario`
 * checks them. */
static inline struct sim_cfg cfg_of(const char *kind, const char *const *kv)
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

/* Two fabrics ran the same run: the whole summary (doubles to the bit),
 * the counters, every port's, host's and QP's figures, the FCT table and
 * the algorithm's counters (test_simorder, test_simpar). */
static inline void assert_same_run(struct sim *a, struct sim *b)
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

/* Each host NIC's list of QPs as its QPs say (sim_int.h, struct
 * nic_slot; fabric.c keeps the copies): each slot's flags, next_ok and
 * place, the count and bits of probes ready, and every QP started and
 * neither done nor stopped listed, the rest not; on two threads (par.c) the
 * replica's own hosts and their QPs.  The probes ready, summed. */
static inline uint32_t assert_nic_slots(const struct sim *s)
{
	uint32_t h, i, listed = 0, probes = 0;

	for (h = 0; h < s->nhosts; h++) {
		const struct host *ho = &s->hosts[h];
		const struct nic_slot *act = ho->capactive ? ho->active :
					     ho->act;
		const uint64_t *bits = ho->capactive ? ho->pbits : &ho->pbit;
		uint32_t np = 0, words = ho->capactive ?
					 (ho->capactive + 63) / 64 : 1;

		if (!par_host_mine(s, h))
			continue;
		if (ho->capactive)
			assert_true(ho->cappbits >= words);
		for (i = 0; i < ho->nactive; i++) {
			const struct qp *q = &s->qps[act[i].qp];
			bool bit = bits[i / 64] >> (i % 64) & 1;

			assert_int_equal(q->src, h);
			assert_int_equal(q->act_pos, i);
			assert_int_equal(act[i].f, nic_flags(q));
			assert_int_equal(act[i].next_ok, q->next_ok);
			assert_int_equal(bit, !!(act[i].f & NS_PROBE));
			np += bit;
		}
		/* no bit past the list */
		for (i = ho->nactive; i < words * 64; i++)
			assert_false(bits[i / 64] >> (i % 64) & 1);
		assert_int_equal(ho->nprobe, np);
		listed += ho->nactive;
		probes += np;
	}
	for (i = 0; i < s->nqps; i++) {
		const struct qp *q = &s->qps[i];

		if (!par_host_mine(s, q->src))
			continue;
		assert_int_equal(q->act_pos != NONE, q->active && !q->done);
		listed -= q->act_pos != NONE;
	}
	assert_int_equal(listed, 0);
	return probes;
}

/* The descriptors loaded around a group of tests; PCCB_TEST_FILTER (a
 * cmocka pattern, * and ? wildcards) runs only the tests it names.
 */
static inline int tu_run_sim_group(const char *name,
				   const struct CMUnitTest *tests, size_t n)
{
	struct pcb_err err = { 0 };
	const char *filter = getenv("PCCB_TEST_FILTER");
	int i, rc;

	if (filter && *filter)
		cmocka_set_test_filter(filter);
	for (i = 0; algo_desc_names[i] && i < 3; i++)
		if (algo_desc_load(&descs[i], algo_desc_names[i], &err))
			return 1;
	rc = _cmocka_run_group_tests(name, tests, n, NULL, NULL);
	for (i = 0; i < 3; i++)
		algo_desc_free(descs[i]);
	return rc;
}

#endif
