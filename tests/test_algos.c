/* The algorithm models: scripted events, exact outputs. */
#include "testutil.h"
#include "algo.h"
#include "dcqcn/dcqcn.h"
#include "rtt_template/rtt_template.h"
#include "ztr_rtt/ztr_rtt.h"

#define US 1000LL
#define KB32767 (32767u * 1024)	/* rpg_byte_reset's default, in KB */
#define MS 1000000LL

struct fx {
	const struct algo_ops *ops;
	struct algo_desc *desc;
	struct algo_conf conf;
	struct algo_port port;
	_Alignas(max_align_t) unsigned char qp[256];
	struct algo_out out;
};

static void fx_init(struct fx *f, const char *name)
{
	struct pcb_err err = { 0 };

	memset(f, 0, sizeof(*f));
	f->ops = algo_find(name);
	assert_non_null(f->ops);
	assert_true(f->ops->qp_state_size <= sizeof(f->qp));
	assert_int_equal(algo_desc_load(&f->desc, name, &err), 0);
	algo_conf_init(&f->conf, f->ops, f->desc);
	algo_port_init(&f->port, &f->conf);
}

static void fx_start(struct fx *f, int64_t now)
{
	f->ops->init(&f->port, f->qp, now, &f->out);
}

static uint32_t C(struct fx *f, unsigned i)
{
	return f->port.counters[i];
}

/* ---- ZTR-RTT ------------------------------------------------------------ */

static struct ztr_qp *zq(struct fx *f)
{
	return (struct ztr_qp *)f->qp;
}

/* probe leaves at t, answered after rtt */
static void ztr_probe(struct fx *f, int64_t t, int64_t rtt)
{
	f->ops->on_tx(&f->port, f->qp, t, 4096, true, &f->out);
	f->ops->on_rtt(&f->port, f->qp, t + rtt, t, t + rtt / 2, &f->out);
}

/* rate the model derives from a window over an RTT (fxp20) */
static uint32_t win_rate(uint64_t cwnd, uint64_t rtt)
{
	return (uint32_t)(cwnd * (8ull << 20) / (rtt * 400));
}

static void test_ztr_increase(void **state)
{
	struct fx f;

	(void)state;
	fx_init(&f, "ztr_rtt");
	fx_start(&f, 0);
	assert_int_equal(f.out.rate, ALGO_RATE_ONE);
	assert_true(f.out.probe_req);
	/* 5 us < the 15 us threshold: the window of line rate over 5 us,
	 * plus AI * BW_G / 100 = 9 * 4 = 36 bytes */
	ztr_probe(&f, 10 * US, 5 * US);
	assert_int_equal(zq(&f)->cwnd, 400ull * 5000 / 8 + 36);
	assert_int_equal(f.out.rate, win_rate(250036, 5000));
	assert_int_equal(C(&f, ZTR_C_AI_INC), 1);
	assert_int_equal(C(&f, ZTR_C_HAI_INC), 0);
	assert_int_equal(C(&f, ZTR_C_DEC), 0);
	assert_true(f.out.probe_req);
	assert_int_equal(C(&f, ZTR_C_NUM_RTT), 1);
	assert_int_equal(C(&f, ZTR_C_SUM_RTT), 5000);
	assert_int_equal(C(&f, ZTR_C_MIN_RTT), 5000);
	assert_int_equal(C(&f, ZTR_C_MAX_RTT), 5000);
	assert_int_equal(C(&f, ZTR_C_EMPTY_SYS_RTT), 1);
	assert_int_equal(C(&f, ZTR_C_MAX_RATE), f.out.rate);
	assert_int_equal(C(&f, ZTR_C_MIN_RATE), ALGO_RATE_ONE);
	/* a second below-target sample: +36 bytes again */
	ztr_probe(&f, 20 * US, 5 * US);
	assert_int_equal(zq(&f)->cwnd, 250072);
	assert_int_equal(f.out.rate, win_rate(250072, 5000));
	assert_int_equal(C(&f, ZTR_C_AI_INC), 2);
	/* a longer RTT below target: the same window gives less rate
	 * (self-clocking): 5/6 of it, held to MAX_DEC (0.97) per update */
	{
		uint32_t prev = f.out.rate;

		ztr_probe(&f, 30 * US, 6 * US);
		assert_int_equal(zq(&f)->cwnd, 250108);
		assert_true(win_rate(250108, 6000) <
			    (uint32_t)(((uint64_t)prev * 63570) >> 16));
		assert_int_equal(f.out.rate,
				 (uint32_t)(((uint64_t)prev * 63570) >> 16));
	}
	/* HAI after HAI_PERIOD_NS (7 ms) without a decrease: +300*4 */
	ztr_probe(&f, 7 * MS + 1, 6 * US);
	assert_int_equal(C(&f, ZTR_C_HAI_INC), 1);
	assert_int_equal(C(&f, ZTR_C_AI_INC), 3);
	assert_int_equal(zq(&f)->cwnd, 250108 + 1200);
	assert_int_equal(C(&f, ZTR_C_SUM_RTT), 22000);
	algo_desc_free(f.desc);
}

static void test_ztr_decrease(void **state)
{
	struct fx f;
	uint32_t prev;
	int i;

	(void)state;
	fx_init(&f, "ztr_rtt");
	fx_start(&f, 0);
	ztr_probe(&f, 1 * US, 5 * US);
	/* 30 us > 15 us target, < MAX_DELAY: one decrease, at most 0.97x */
	for (i = 0; i < 20; i++) {
		prev = f.out.rate;
		ztr_probe(&f, (10 + 40 * i) * US, 30 * US);
		assert_int_equal(C(&f, ZTR_C_DEC), i + 1);
		assert_true(f.out.rate < prev);
		assert_true(f.out.rate >= (uint32_t)(((uint64_t)prev *
						      63570) >> 16));
	}
	assert_int_equal(C(&f, ZTR_C_HYPER_DEC), 0);
	assert_int_equal(C(&f, ZTR_C_MAX_RTT), 30000);
	assert_int_equal(C(&f, ZTR_C_MIN_RTT), 5000);
	/* first RTT above MAX_DELAY: RATE_ON_FIRST_CONGESTION */
	ztr_probe(&f, 2 * MS, 300 * US);
	assert_int_equal(f.out.rate, 65536);
	assert_int_equal(C(&f, ZTR_C_HYPER_DEC), 1);
	/* the next one: the hyper factor (0.5) */
	ztr_probe(&f, 3 * MS, 300 * US);
	assert_int_equal(f.out.rate, 32768);
	assert_int_equal(C(&f, ZTR_C_HYPER_DEC), 2);
	assert_int_equal(C(&f, ZTR_C_MIN_RATE), 32768);
	/* with a smaller MAX_DEC the bound follows (240 us: a decrease of
	 * the window of 300 us by the 0.7 floor) */
	f.conf.params[ZTR_MAX_DEC] = 45875;	/* 0.7 */
	prev = f.out.rate;
	ztr_probe(&f, 4 * MS, 240 * US);
	assert_int_equal(f.out.rate,
			 win_rate(((uint64_t)32768 * 400 * 300000 /
				   (8ull << 20)) * 45875 >> 16, 240000));
	assert_true(f.out.rate >= (uint32_t)(((uint64_t)prev * 45875) >> 16));
	assert_true(f.out.rate < (uint32_t)(((uint64_t)prev * 63570) >> 16));
	/* a decrease never raises the rate, however short the RTT got */
	prev = f.out.rate;
	ztr_probe(&f, 5 * MS, 20 * US);
	assert_int_equal(f.out.rate, prev);
	algo_desc_free(f.desc);
}

static void test_ztr_cnp_vld(void **state)
{
	struct fx f;
	uint32_t r;

	(void)state;
	fx_init(&f, "ztr_rtt");
	fx_start(&f, 0);
	/* without CNP_VLD_RTT a CNP is not counted */
	f.ops->on_cnp(&f.port, f.qp, 1 * US, &f.out);
	assert_int_equal(C(&f, ZTR_C_CNP_HANDLE), 0);
	f.conf.params[ZTR_CNP_VLD_RTT] = 1;
	r = f.out.rate;
	ztr_probe(&f, 10 * US, 30 * US);	/* no CNP during it: ignored */
	assert_int_equal(C(&f, ZTR_C_NOT_VLD_RTT), 1);
	assert_int_equal(C(&f, ZTR_C_DEC), 0);
	assert_int_equal(C(&f, ZTR_C_NUM_RTT), 1);
	assert_int_equal(f.out.rate, r);
	/* a CNP during the probe validates it */
	f.ops->on_tx(&f.port, f.qp, 50 * US, 4096, true, &f.out);
	f.ops->on_cnp(&f.port, f.qp, 60 * US, &f.out);
	assert_int_equal(C(&f, ZTR_C_CNP_HANDLE), 1);
	f.ops->on_rtt(&f.port, f.qp, 80 * US, 50 * US, 65 * US, &f.out);
	assert_int_equal(C(&f, ZTR_C_NOT_VLD_RTT), 1);
	assert_int_equal(C(&f, ZTR_C_DEC), 1);
	assert_true(f.out.rate < r);
	/* DELAY_ONLY ignores CNPs */
	f.conf.params[ZTR_DELAY_ONLY] = 1;
	f.ops->on_cnp(&f.port, f.qp, 90 * US, &f.out);
	assert_int_equal(C(&f, ZTR_C_CNP_HANDLE), 1);
	algo_desc_free(f.desc);
}

static void test_ztr_tx_dec(void **state)
{
	struct fx f;
	uint32_t r;

	(void)state;
	fx_init(&f, "ztr_rtt");
	fx_start(&f, 0);
	ztr_probe(&f, 1 * US, 5 * US);
	r = f.out.rate;
	f.ops->on_tx(&f.port, f.qp, 100 * US, 4096, true, &f.out);
	/* 10 us in: younger than the target, nothing */
	f.ops->on_tx(&f.port, f.qp, 110 * US, 4096, false, &f.out);
	assert_int_equal(C(&f, ZTR_C_TX_DEC), 0);
	assert_int_equal(f.out.rate, r);
	/* 20 us in: older than the 15 us target: decrease */
	f.ops->on_tx(&f.port, f.qp, 120 * US, 4096, false, &f.out);
	assert_int_equal(C(&f, ZTR_C_TX_DEC), 1);
	assert_int_equal(C(&f, ZTR_C_DEC), 0);
	assert_true(f.out.rate < r);
	assert_true(f.out.rate >= (uint32_t)(((uint64_t)r * 63570) >> 16));
	/* not again within one target interval */
	f.ops->on_tx(&f.port, f.qp, 125 * US, 4096, false, &f.out);
	assert_int_equal(C(&f, ZTR_C_TX_DEC), 1);
	f.ops->on_tx(&f.port, f.qp, 136 * US, 4096, false, &f.out);
	assert_int_equal(C(&f, ZTR_C_TX_DEC), 2);
	/* TX_DEC = 0: the TX event never decreases */
	f.conf.params[ZTR_TX_DEC] = 0;
	r = f.out.rate;
	f.ops->on_tx(&f.port, f.qp, 200 * US, 4096, false, &f.out);
	assert_int_equal(C(&f, ZTR_C_TX_DEC), 2);
	assert_int_equal(f.out.rate, r);
	algo_desc_free(f.desc);
}

static void test_ztr_pins_and_caps(void **state)
{
	struct fx f;
	int i;

	(void)state;
	fx_init(&f, "ztr_rtt");
	f.conf.params[ZTR_FIXED_RATE] = 524288;	/* 0.5 */
	fx_start(&f, 0);
	for (i = 0; i < 5; i++) {
		ztr_probe(&f, (i + 1) * 400 * US, i & 1 ? 300 * US : 5 * US);
		assert_int_equal(f.out.rate, 524288);
	}
	assert_int_equal(C(&f, ZTR_C_DEC) + C(&f, ZTR_C_AI_INC) +
			 C(&f, ZTR_C_HYPER_DEC), 0);
	assert_int_equal(C(&f, ZTR_C_NUM_RTT), 5);
	/* FAST_SCHED caps every increase */
	f.conf.params[ZTR_FIXED_RATE] = 0;
	f.conf.params[ZTR_FAST_SCHED] = ALGO_RATE_ONE;
	f.conf.params[ZTR_AI] = 5000;
	for (i = 0; i < 50; i++) {
		ztr_probe(&f, 3 * MS + i * 10 * US, 5 * US);
		assert_true(f.out.rate <= ALGO_RATE_ONE);
	}
	assert_int_equal(f.out.rate, ALGO_RATE_ONE);
	algo_desc_free(f.desc);
}

static void test_ztr_target(void **state)
{
	struct fx f;
	struct ztr_qp *q;
	struct pcb_err err = { 0 };

	(void)state;
	fx_init(&f, "ztr_rtt");
	fx_start(&f, 0);
	q = zq(&f);
	/* flow law: at 1/64 of line and 4 us base, 0.1*64*4 us = 25.6 us */
	q->rate = ALGO_RATE_ONE / 64;
	assert_int_equal(ztr_target(f.conf.params, f.conf.opts, q, 4000),
			 25597);	/* 0.1 is 6553/65536 */
	/* below the floor: CONGESTION_DELAY_THRESHOLD */
	q->rate = ALGO_RATE_ONE;
	assert_int_equal(ztr_target(f.conf.params, f.conf.opts, q, 4000),
			 15000);
	/* base law: 4 us * 1.1 < 15 us */
	assert_int_equal(algo_set_opt(f.conf.opts, f.ops, "target", "base", &err),
			 0);
	f.conf.params[ZTR_ALPHA] = 65536 * 4;	/* out of range, model only */
	assert_int_equal(ztr_target(f.conf.params, f.conf.opts, q, 4000),
			 16000);
	f.conf.params[ZTR_ALPHA] = 6553;
	assert_int_equal(algo_set_opt(f.conf.opts, f.ops, "target", "floor",
				      &err), 0);
	q->rate = 1;
	assert_int_equal(ztr_target(f.conf.params, f.conf.opts, q, 4000),
			 15000);
	/* TOPOLOGY_AWARE counts only with ADVANCED_FEATURES_EN */
	q->min_rtt = 20000;
	f.conf.params[ZTR_TOPOLOGY_AWARE] = 1;
	assert_int_equal(ztr_target(f.conf.params, f.conf.opts, q, 4000),
			 15000);
	f.conf.params[ZTR_ADVANCED_FEATURES_EN] = 1;
	assert_int_equal(ztr_target(f.conf.params, f.conf.opts, q, 4000),
			 20000);
	/* options refuse what they do not know */
	assert_int_not_equal(algo_set_opt(f.conf.opts, f.ops, "target", "x",
					  &err), 0);
	assert_int_not_equal(algo_set_opt(f.conf.opts, f.ops, "beta", "2",
					  &err), 0);
	assert_int_not_equal(algo_set_opt(f.conf.opts, f.ops, "gamma", "1",
					  &err), 0);
	assert_int_equal(algo_set_opt(f.conf.opts, f.ops, "beta", "0.5", &err), 0);
	assert_int_equal(f.conf.opts[ZTR_OPT_BETA], 32768);
	algo_desc_free(f.desc);
}

static void test_ztr_decrease_laws(void **state)
{
	struct fx f;
	struct pcb_err err = { 0 };
	uint64_t cw;

	(void)state;
	fx_init(&f, "ztr_rtt");
	f.conf.params[ZTR_MAX_DEC] = 1;		/* let the law show */
	f.conf.params[ZTR_MAX_INC] = 1048576;
	fx_start(&f, 0);
	ztr_probe(&f, 1 * US, 5 * US);
	cw = zq(&f)->cwnd;
	/* proportional: 1 - 0.8 (20 - 15) / 20 = 0.8 of the window */
	ztr_probe(&f, 100 * US, 20 * US);
	cw = cw * (65536 - 52429ull * 5000 / 20000) >> 16;
	assert_int_equal(zq(&f)->cwnd, cw);
	assert_int_equal(f.out.rate, win_rate(cw, 20000));
	/* ratio: target / rtt = 15/20 = 0.75 */
	assert_int_equal(algo_set_opt(f.conf.opts, f.ops, "decrease", "ratio",
				      &err), 0);
	ztr_probe(&f, 200 * US, 20 * US);
	cw = cw * 49152 >> 16;
	assert_int_equal(zq(&f)->cwnd, cw);
	assert_int_equal(f.out.rate, win_rate(cw, 20000));
	/* below target again: the window grows and, the RTT being
	 * shorter, the rate more */
	ztr_probe(&f, 300 * US, 14 * US);
	assert_int_equal(zq(&f)->cwnd, cw + 36);
	assert_int_equal(f.out.rate, win_rate(cw + 36, 14000));
	algo_desc_free(f.desc);
}

static void test_ztr_timeouts_nacks(void **state)
{
	struct fx f;
	uint32_t r;

	(void)state;
	fx_init(&f, "ztr_rtt");
	fx_start(&f, 0);
	assert_int_equal(f.out.probe_timeout, 300000);
	f.ops->on_tx(&f.port, f.qp, 1 * US, 4096, true, &f.out);
	f.ops->on_probe_timeout(&f.port, f.qp, 301 * US, &f.out);
	assert_int_equal(C(&f, ZTR_C_RTT_TIMEOUT), 1);
	assert_true(f.out.probe_req);
	assert_int_equal(f.out.probe_timeout, 600000);
	f.ops->on_probe_timeout(&f.port, f.qp, 901 * US, &f.out);
	assert_int_equal(f.out.probe_timeout, 1200000);
	ztr_probe(&f, 1 * MS, 5 * US);		/* an answer resets it */
	assert_int_equal(f.out.probe_timeout, 300000);
	r = f.out.rate;
	f.ops->on_nack(&f.port, f.qp, 2 * MS, &f.out);
	assert_int_equal(C(&f, ZTR_C_NACK_HANDLE), 1);
	assert_int_equal(f.out.rate, (uint32_t)(((uint64_t)r * 63570) >> 16));
	algo_desc_free(f.desc);
}

static void test_counters_wrap_and_off(void **state)
{
	struct fx f;

	(void)state;
	fx_init(&f, "ztr_rtt");
	f.port.counters[ZTR_C_NUM_RTT] = UINT32_MAX;
	f.conf.counter_max[ZTR_C_SUM_RTT] = 9999;
	fx_start(&f, 0);
	ztr_probe(&f, 1 * US, 6 * US);
	assert_int_equal(C(&f, ZTR_C_NUM_RTT), 0);	/* wrapped */
	ztr_probe(&f, 20 * US, 6 * US);
	assert_int_equal(C(&f, ZTR_C_SUM_RTT), 12000 % 10000);
	f.port.counters_on = false;
	ztr_probe(&f, 40 * US, 6 * US);
	assert_int_equal(C(&f, ZTR_C_NUM_RTT), 1);
	algo_desc_free(f.desc);
}

/* ---- DCQCN -------------------------------------------------------------- */

static struct dcqcn_qp *dq(struct fx *f)
{
	return (struct dcqcn_qp *)f->qp;
}

static void test_dcqcn_cut_alpha(void **state)
{
	struct fx f;
	uint32_t a, rc;

	(void)state;
	fx_init(&f, "dcqcn");
	fx_start(&f, 0);
	assert_int_equal(f.out.rate, ALGO_RATE_ONE);
	assert_int_equal(f.out.timer_at, 0);
	/* first CNP: limiter, alpha = 1023/1024, cut 1 - alpha/2 */
	f.ops->on_cnp(&f.port, f.qp, 10 * US, &f.out);
	assert_true(dq(&f)->limited);
	assert_int_equal(dq(&f)->alpha, 1023);
	assert_int_equal(f.out.rate, ALGO_RATE_ONE -
			 (uint32_t)(((uint64_t)ALGO_RATE_ONE * 1023) >> 11));
	assert_int_equal(dq(&f)->rt, ALGO_RATE_ONE);
	assert_int_equal(C(&f, DCQCN_C_CNP_HANDLE), 1);
	assert_int_equal(C(&f, DCQCN_C_RATE_CUT), 1);
	assert_int_equal(f.out.timer_at, 11 * US);	/* alpha period 1us */
	/* a CNP inside the 4 us monitor period: counted, no cut yet; the
	 * cut waits for the period's end (14 us), not for the next CNP */
	rc = f.out.rate;
	f.ops->on_cnp(&f.port, f.qp, 12 * US, &f.out);
	assert_int_equal(C(&f, DCQCN_C_CNP_HANDLE), 2);
	assert_int_equal(C(&f, DCQCN_C_RATE_CUT), 1);
	assert_int_equal(f.out.rate, rc);
	assert_int_equal(f.out.timer_at, 11 * US);
	/* alpha update with a CNP in the period: g a + (1024 - g) */
	f.ops->on_timer(&f.port, f.qp, 13 * US, &f.out);
	a = (1019 * 1023 + 5 * 1024) / 1024;
	assert_int_equal(dq(&f)->alpha, a);
	assert_int_equal(f.out.timer_at, 14 * US);
	assert_int_equal(f.out.rate, rc);
	/* the period's end: the cut, with the alpha of the moment; then
	 * alpha decays by g/1024 (no CNP since the last update) */
	f.ops->on_timer(&f.port, f.qp, 14 * US, &f.out);
	assert_int_equal(C(&f, DCQCN_C_RATE_CUT), 2);
	assert_int_equal(f.out.rate,
			 rc - (uint32_t)(((uint64_t)rc * a) >> 11));
	assert_int_equal(dq(&f)->alpha, 1019 * a / 1024);
	a = 1019 * a / 1024;
	assert_int_equal(C(&f, DCQCN_C_ALPHA_UPDATE), 2);
	/* the next CNP a period later cuts at once */
	rc = f.out.rate;
	f.ops->on_cnp(&f.port, f.qp, 18 * US, &f.out);
	assert_int_equal(f.out.rate,
			 rc - (uint32_t)(((uint64_t)rc * a) >> 11));
	assert_int_equal(C(&f, DCQCN_C_RATE_CUT), 3);
	/* rpg_min_dec_fac bounds a cut: 90 % keeps 0.9 of the rate */
	f.conf.params[DCQCN_MIN_DEC_FAC] = 90;
	rc = f.out.rate;
	f.ops->on_cnp(&f.port, f.qp, 30 * US, &f.out);
	assert_int_equal(f.out.rate, (uint32_t)((uint64_t)rc * 90 / 100));
	algo_desc_free(f.desc);
}

/* rpg_gd below 10 makes alpha / 2^gd exceed 1 (issue 23, bug 3: gd 9
 * wrapped the rate to 409,500,195 Mb/s, CC off): the cut takes at most
 * the whole rate, then rpg_min_dec_fac and rpg_min_rate bound it, and
 * the rate never rises on a CNP.
 */
static void test_dcqcn_small_gd(void **state)
{
	uint32_t gd;

	(void)state;
	for (gd = 0; gd <= 15; gd++) {
		struct fx f;
		uint32_t want;

		fx_init(&f, "dcqcn");
		f.conf.params[DCQCN_GD] = gd;
		f.port.line_gbps = 400;
		fx_start(&f, 0);
		f.ops->on_cnp(&f.port, f.qp, 0, &f.out);
		/* alpha 1023: the cut is 1023 / 2^gd of the rate, at most
		 * all of it; min_dec_fac 50 keeps half */
		want = gd >= 11 ? ALGO_RATE_ONE - (uint32_t)(((uint64_t)
			ALGO_RATE_ONE * 1023) >> gd) : ALGO_RATE_ONE / 2;
		if (f.out.rate != want || C(&f, DCQCN_C_MAX_RATE) > 400000)
			fail_msg("rpg_gd %u: rate %u (want %u), max %u Mb/s",
				 gd, f.out.rate, want,
				 C(&f, DCQCN_C_MAX_RATE));
		/* no factor floor: the rate floor, 1 Mb/s */
		f.conf.params[DCQCN_MIN_DEC_FAC] = 0;
		f.ops->on_cnp(&f.port, f.qp, 10 * US, &f.out);
		if (gd <= 9 && f.out.rate != ALGO_RATE_ONE / 400000)
			fail_msg("rpg_gd %u, no min_dec_fac: rate %u", gd,
				 f.out.rate);
		assert_true(f.out.rate <= want);
		algo_desc_free(f.desc);
	}
}

/* alpha against the real-valued EWMA, computed in double (issue 23,
 * bug 4): the value kept tracks the reference within 1/4 of a unit,
 * whether CNPs come often or rarely, and decays without them; the 10-bit
 * alpha the cut uses is its floor.  A floor at every update instead
 * took 1/1024 per update at least, so
 * with a CNP less than once every 5 updates alpha fell to 0 and cuts
 * stopped although the reference sits near the CNP fraction.
 */
static void test_dcqcn_alpha_reference(void **state)
{
	static const struct {
		uint32_t g;		/* dce_tcp_g */
		int every;		/* a CNP every this many us; 0 none */
	} runs[] = { { 1019, 10 }, { 1019, 3 }, { 1019, 40 }, { 1020, 7 },
		     { 1019, 0 }, { 960, 25 } };
	size_t r;

	(void)state;
	for (r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		double ref = 1023.0 / 1024, g = runs[r].g / 1024.0, worst = 0;
		struct fx f;
		int k;

		fx_init(&f, "dcqcn");
		f.conf.params[DCQCN_G] = runs[r].g;
		f.conf.params[DCQCN_TIME_RESET] = 131071;	/* no increase */
		fx_start(&f, 0);
		f.ops->on_cnp(&f.port, f.qp, 0, &f.out);
		for (k = 1; k <= 3000; k++) {
			/* the first update sees the first CNP (t = 0) */
			bool cnp = k == 1 ||
				   (runs[r].every && k % runs[r].every == 0);
			double d;

			if (cnp && k > 1)
				f.ops->on_cnp(&f.port, f.qp, k * US - 500,
					      &f.out);
			f.ops->on_timer(&f.port, f.qp, k * US, &f.out);
			ref = ref * g + (cnp ? 1 - g : 0);
			if (ref > 1023.0 / 1024)
				ref = 1023.0 / 1024;
			/* the kept value tracks the reference; the 10-bit
			 * alpha of the cut is its floor */
			d = dq(&f)->alpha_fx / 1024.0 - ref * 1024;
			if (d < 0)
				d = -d;
			if (d > worst)
				worst = d;
			assert_int_equal(dq(&f)->alpha, dq(&f)->alpha_fx >> 10);
		}
		assert_true(dq(&f)->limited);
		assert_int_equal(C(&f, DCQCN_C_ALPHA_UPDATE), 3000);
		if (worst > 0.25)
			fail_msg("g %u, CNP every %d us: alpha %u, reference "
				 "%.2f, worst gap %.2f /1024", runs[r].g,
				 runs[r].every, dq(&f)->alpha, ref * 1024,
				 worst);
		algo_desc_free(f.desc);
	}
}

/* The increase stages (issue 23, item 5), F = rpg_threshold = 1: the
 * first event of either kind is fast recovery; then one count above F
 * is additive increase, both above F hyper increase (a fixed step);
 * RC halves its way to RT each time; a cut starts the stages again.
 */
static void test_dcqcn_stages(void **state)
{
	struct fx f;
	uint32_t rc, rt, ai = (uint32_t)(5ull * ALGO_RATE_ONE / 400000);
	uint32_t hai = (uint32_t)(50ull * ALGO_RATE_ONE / 400000);
	int64_t t;

	(void)state;
	fx_init(&f, "dcqcn");
	f.conf.params[DCQCN_ALPHA_PERIOD] = 100000;	/* keep alpha out */
	f.conf.params[DCQCN_CLAMP_TGT] = 1;
	fx_start(&f, 0);
	f.ops->on_cnp(&f.port, f.qp, 0, &f.out);
	rc = dq(&f)->rc;
	f.ops->on_cnp(&f.port, f.qp, 5 * US, &f.out);	/* RT = RC, cut */
	assert_int_equal(dq(&f)->rt, rc);
	rc = dq(&f)->rc;
	rt = dq(&f)->rt;
	/* timer event 1 (t_count 1 <= threshold 1): fast recovery */
	t = 305 * US;
	assert_int_equal(f.out.timer_at, t);
	f.ops->on_timer(&f.port, f.qp, t, &f.out);
	assert_int_equal(C(&f, DCQCN_C_FAST_RECOVERY), 1);
	assert_int_equal(dq(&f)->rt, rt);
	assert_int_equal(dq(&f)->rc, (rt + rc) / 2);
	/* timer event 2: additive increase of the target */
	rc = dq(&f)->rc;
	t = 605 * US;
	f.ops->on_timer(&f.port, f.qp, t, &f.out);
	assert_int_equal(C(&f, DCQCN_C_AI), 1);
	assert_int_equal(dq(&f)->rt, rt + ai);
	assert_int_equal(dq(&f)->rc, (rt + ai + rc) / 2);
	rt += ai;
	/* byte counter: 2 x 32767 KB -> bc_count 2 > 1: hyper */
	f.ops->on_tx(&f.port, f.qp, t + 1, KB32767, false, &f.out);
	assert_int_equal(C(&f, DCQCN_C_AI), 2);	/* bc 1: still AI */
	rt += ai;
	f.ops->on_tx(&f.port, f.qp, t + 2, KB32767, false, &f.out);
	assert_int_equal(C(&f, DCQCN_C_HAI), 1);
	assert_int_equal(dq(&f)->rt, rt + hai);
	rt += hai;
	f.ops->on_tx(&f.port, f.qp, t + 3, KB32767, false, &f.out);
	assert_int_equal(C(&f, DCQCN_C_HAI), 2);
	assert_int_equal(dq(&f)->rt, rt + hai);	/* the same step */
	/* a cut resets the stages */
	f.ops->on_cnp(&f.port, f.qp, t + 10 * US, &f.out);
	assert_int_equal(dq(&f)->t_count + dq(&f)->bc_count, 0);
	/* keep sending and increasing: the limiter is released at line
	 * rate */
	for (t = 3; t < 40000 && dq(&f)->limited; t++) {
		f.ops->on_timer(&f.port, f.qp, t * 300 * US, &f.out);
		f.ops->on_tx(&f.port, f.qp, t * 300 * US + 1, KB32767, false,
			     &f.out);
	}
	assert_false(dq(&f)->limited);
	assert_int_equal(f.out.rate, ALGO_RATE_ONE);
	assert_int_equal(f.out.timer_at, 0);
	assert_int_equal(C(&f, DCQCN_C_MAX_RATE), 400000);
	algo_desc_free(f.desc);
}

/* rpg_byte_reset counts KB (issue 34, item 1; the reading and its
 * evidence in dcqcn.c's head): 32767 bytes sent make no increase event,
 * 32767 KB make one; model option byte_unit B counts bytes (the old
 * reading, one event per 32767 bytes).
 */
static void test_dcqcn_byte_unit(void **state)
{
	int unit;

	(void)state;
	for (unit = 0; unit < 2; unit++) {
		struct fx f;
		uint32_t i;

		fx_init(&f, "dcqcn");
		f.conf.params[DCQCN_ALPHA_PERIOD] = 100000;
		f.conf.opts[DCQCN_OPT_BYTE_UNIT] = unit ? DCQCN_BYTES_B :
							  DCQCN_BYTES_KB;
		fx_start(&f, 0);
		f.ops->on_cnp(&f.port, f.qp, 0, &f.out);
		for (i = 0; i < (unit ? 4u : 1023u); i++)
			f.ops->on_tx(&f.port, f.qp, 1 + i, 32767, false,
				     &f.out);
		assert_int_equal(dq(&f)->bc_count, unit ? 4 : 0);
		f.ops->on_tx(&f.port, f.qp, 2000, 32767, false, &f.out);
		assert_int_equal(dq(&f)->bc_count, unit ? 5 : 1);
		algo_desc_free(f.desc);
	}
}

/* Recovery without the byte counter (rpg_byte_reset 0, HPCC's model):
 * the timer's count alone stages it: F fast recoveries, one additive
 * increase, then hyper increase.
 * After 12 cuts at 100 G (RC near 24 Mb/s): with the default clamp RT
 * stayed at line rate and fast recovery closes the gap in some 20
 * periods; with clamp_tgt_rate RT came down too, and hyper increase
 * (50 Mb/s a period) takes it back up in some 2000 periods.  Before, an off
 * byte counter pinned a flow in additive increase (5 Mb/s a period:
 * 20000).  With the counter on, a flow that sends recovers in fewer
 * periods than one the timer alone drives.
 */
static void test_dcqcn_recovery_timer_only(void **state)
{
	static const struct {
		uint32_t clamp, byte_reset;
		int64_t most;		/* timer periods to line rate */
	} rows[] = {
		{ 0, 0, 25 }, { 0, 32767, 25 },
		{ 1, 0, 2040 }, { 1, 32767, 1000 },
	};
	int64_t periods[4];
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		struct fx f;
		int64_t t = 0;
		int k;

		fx_init(&f, "dcqcn");
		f.conf.params[DCQCN_ALPHA_PERIOD] = 100000;
		f.conf.params[DCQCN_BYTE_RESET] = rows[i].byte_reset;
		f.conf.params[DCQCN_CLAMP_TGT] = rows[i].clamp;
		/* a counter that fires within a timer period: the bytes
		 * reading (in KB, 32 MB take 2.7 ms at 100 G) */
		f.conf.opts[DCQCN_OPT_BYTE_UNIT] = DCQCN_BYTES_B;
		f.port.line_gbps = 100;
		fx_start(&f, 0);
		f.ops->on_cnp(&f.port, f.qp, 0, &f.out);
		for (k = 1; k < 12; k++)
			f.ops->on_cnp(&f.port, f.qp, k * 4 * US, &f.out);
		assert_true(dq(&f)->rc < ALGO_RATE_ONE / 2000);
		assert_true(rows[i].clamp ? dq(&f)->rt < ALGO_RATE_ONE / 1000 :
			    dq(&f)->rt == ALGO_RATE_ONE);
		for (k = 0; k < 100000 && dq(&f)->limited; k++) {
			t = f.out.timer_at;
			/* a sender at its rate until the timer: the
			 * bytes of 300 us at 100 G, times the rate */
			if (rows[i].byte_reset)
				f.ops->on_tx(&f.port, f.qp, t - 1,
					     (uint32_t)((uint64_t)f.out.rate *
							3750000 >> 20),
					     false, &f.out);
			f.ops->on_timer(&f.port, f.qp, t, &f.out);
		}
		assert_false(dq(&f)->limited);
		assert_int_equal(f.out.rate, ALGO_RATE_ONE);
		assert_true(C(&f, DCQCN_C_FAST_RECOVERY) > 0);
		if (!rows[i].byte_reset) {
			assert_int_equal(C(&f, DCQCN_C_FAST_RECOVERY), 1);
			assert_int_equal(C(&f, DCQCN_C_AI), 1);
		}
		if (rows[i].clamp)
			assert_true(C(&f, DCQCN_C_HAI) > 0);
		periods[i] = (t - 44 * US) / (300 * US);
		if (periods[i] > rows[i].most)
			fail_msg("clamp %u, byte counter %u: %lld timer "
				 "periods to line rate", rows[i].clamp,
				 rows[i].byte_reset, (long long)periods[i]);
		algo_desc_free(f.desc);
	}
	assert_true(periods[1] <= periods[0] && periods[3] < periods[2]);
}

/* Which cuts move the target down to RC (spec 1.4): clamp_tgt_rate
 * always; clamp_tgt_rate_after_time_inc (the default) after an increase
 * of either kind since the last cut; neither flag after a byte-counter
 * increase only.  A cut right after a cut never does with the default,
 * so a burst of CNPs keeps the target where the congestion began.
 */
static void test_dcqcn_target_clamp(void **state)
{
	static const struct {
		uint32_t clamp, after_time;
		bool timer_inc;		/* else a byte-counter increase */
		bool want;		/* RT follows RC */
	} rows[] = {
		{ 1, 0, true, true }, { 1, 1, false, true },
		{ 0, 1, true, true }, { 0, 1, false, true },
		{ 0, 0, true, false }, { 0, 0, false, true },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fx f;
		uint32_t rc;

		fx_init(&f, "dcqcn");
		f.conf.params[DCQCN_ALPHA_PERIOD] = 100000;
		f.conf.params[DCQCN_CLAMP_TGT] = rows[i].clamp;
		f.conf.params[DCQCN_CLAMP_AFTER_TIME_INC] = rows[i].after_time;
		fx_start(&f, 0);
		f.ops->on_cnp(&f.port, f.qp, 0, &f.out);
		/* back-to-back: RT stays unless clamp_tgt_rate */
		f.ops->on_cnp(&f.port, f.qp, 5 * US, &f.out);
		assert_int_equal(dq(&f)->rt, rows[i].clamp ?
				 dq(&f)->rt : ALGO_RATE_ONE);
		if (rows[i].timer_inc)
			f.ops->on_timer(&f.port, f.qp, 305 * US, &f.out);
		else
			f.ops->on_tx(&f.port, f.qp, 10 * US, KB32767, false,
				     &f.out);
		rc = dq(&f)->rc;
		f.ops->on_cnp(&f.port, f.qp, 400 * US, &f.out);
		if (rows[i].want)
			assert_int_equal(dq(&f)->rt, rc);
		else
			assert_true(dq(&f)->rt > rc);
		algo_desc_free(f.desc);
	}
}

static void test_dcqcn_first_rate_clamp(void **state)
{
	struct fx f;

	(void)state;
	fx_init(&f, "dcqcn");
	f.conf.params[DCQCN_RATE_FIRST_CNP] = 100000;	/* 100 Gb/s */
	f.conf.params[DCQCN_CLAMP_TGT] = 1;
	fx_start(&f, 0);
	f.ops->on_cnp(&f.port, f.qp, 0, &f.out);
	assert_int_equal(dq(&f)->rt, ALGO_RATE_ONE / 4);
	assert_int_equal(f.out.rate, ALGO_RATE_ONE / 4 -
			 (uint32_t)(((uint64_t)(ALGO_RATE_ONE / 4) * 1023) >>
				    11));
	/* the floor */
	f.conf.params[DCQCN_MIN_RATE] = 200000;
	f.ops->on_cnp(&f.port, f.qp, 10 * US, &f.out);
	assert_int_equal(f.out.rate, ALGO_RATE_ONE / 2);
	algo_desc_free(f.desc);
}

/* ---- RTT template ------------------------------------------------------- */

static struct rtt_tmpl_qp *tq(struct fx *f)
{
	return (struct rtt_tmpl_qp *)f->qp;
}

static void tmpl_rtt(struct fx *f, int64_t t, int64_t rtt)
{
	f->ops->on_tx(&f->port, f->qp, t, 4096, true, &f->out);
	f->ops->on_rtt(&f->port, f->qp, t + rtt, t, t + rtt / 2, &f->out);
}

static void test_template_branches(void **state)
{
	struct fx f;
	uint32_t r;

	(void)state;
	fx_init(&f, "rtt_template");
	f.conf.params[RTT_T_NEW_FLOW_RATE] = ALGO_RATE_ONE / 2;
	fx_start(&f, 0);
	assert_int_equal(f.out.rate, ALGO_RATE_ONE / 2);
	assert_true(f.out.probe_req);
	/* new minimum (5 us): relative = RTT < 13 us: + AI */
	tmpl_rtt(&f, 1, 5 * US);
	assert_int_equal(f.out.rate, ALGO_RATE_ONE / 2 + 52428);
	assert_int_equal(tq(&f)->min_rtt, 5000);
	assert_true(f.out.probe_req);
	/* 20 us: 15 us above the min > 13 us: x (1 - UF) */
	r = f.out.rate;
	tmpl_rtt(&f, 101, 20 * US);
	assert_int_equal(f.out.rate, (uint32_t)(((uint64_t)r *
						 (65536 - 6553)) >> 16));
	/* a CNP: x (1 - 2 UF) */
	r = f.out.rate;
	f.ops->on_cnp(&f.port, f.qp, 200 * US, &f.out);
	assert_int_equal(f.out.rate, r);	/* flags only */
	tmpl_rtt(&f, 201, 6 * US);
	assert_int_equal(f.out.rate, (uint32_t)(((uint64_t)r *
						 (65536 - 2 * 6553)) >> 16));
	/* RTT >= MAX_DELAY: x (1 - 2 UF) */
	r = f.out.rate;
	tmpl_rtt(&f, 301, 150 * US);
	assert_int_equal(f.out.rate, (uint32_t)(((uint64_t)r *
						 (65536 - 2 * 6553)) >> 16));
	/* NACK and RTT >= MAX_DELAY: x (1 - 5 UF) */
	r = f.out.rate;
	f.ops->on_nack(&f.port, f.qp, 500 * US, &f.out);
	tmpl_rtt(&f, 501, 200 * US);
	assert_int_equal(f.out.rate, (uint32_t)(((uint64_t)r *
						 (65536 - 5 * 6553)) >> 16));
	/* NACK with a small RTT: the normal path (+ AI) */
	r = f.out.rate;
	f.ops->on_nack(&f.port, f.qp, 800 * US, &f.out);
	tmpl_rtt(&f, 801, 5 * US);
	assert_int_equal(f.out.rate, r + 52428);
	/* clamps: 5 UF >= 1 drives the rate to MIN_RATE, AI to line rate */
	f.conf.params[RTT_T_UPDATE_FACTOR] = 20000;
	f.ops->on_nack(&f.port, f.qp, 900 * US, &f.out);
	tmpl_rtt(&f, 901, 200 * US);
	assert_int_equal(f.out.rate, 64);
	f.conf.params[RTT_T_AI] = ALGO_RATE_ONE;
	tmpl_rtt(&f, 1001, 5 * US);
	assert_int_equal(f.out.rate, ALGO_RATE_ONE);
	assert_int_equal(C(&f, RTT_T_C_RTT_EVENT), 8);
	assert_int_equal(C(&f, RTT_T_C_TX_EVENT), 8);
	algo_desc_free(f.desc);
}

static void test_template_probe_abort(void **state)
{
	struct fx f;

	(void)state;
	fx_init(&f, "rtt_template");
	fx_start(&f, 0);
	/* requested but not sent for 3 TX events: ask again */
	f.ops->on_tx(&f.port, f.qp, 1, 4096, false, &f.out);
	f.ops->on_tx(&f.port, f.qp, 2, 4096, false, &f.out);
	assert_false(f.out.probe_req);
	f.ops->on_tx(&f.port, f.qp, 3, 4096, false, &f.out);
	assert_true(f.out.probe_req);
	assert_int_equal(tq(&f)->abort_cnt, 1);
	/* sent but unanswered for more than 300 us << 1: ask again */
	f.ops->on_tx(&f.port, f.qp, 10, 4096, true, &f.out);
	f.ops->on_tx(&f.port, f.qp, 10 + 600 * US, 4096, false, &f.out);
	assert_false(f.out.probe_req);
	f.ops->on_tx(&f.port, f.qp, 11 + 600 * US, 4096, false, &f.out);
	assert_true(f.out.probe_req);
	assert_int_equal(tq(&f)->abort_cnt, 2);
	/* min RTT relearned when the low 8 bits of the time are 0 */
	tmpl_rtt(&f, 1 * MS + 1, 5 * US);
	assert_int_equal(tq(&f)->min_rtt, 5000);
	assert_int_equal(tq(&f)->abort_cnt, 0);
	f.ops->on_tx(&f.port, f.qp, 2 * MS, 4096, true, &f.out);
	f.ops->on_rtt(&f.port, f.qp, 0x300000, 2 * MS, 2 * MS, &f.out);
	assert_int_equal(tq(&f)->min_rtt, RTT_T_INITIAL_MIN_RTT);
	algo_desc_free(f.desc);
}

/* ---- all models --------------------------------------------------------- */

static void run_random(const char *name, uint64_t seed, struct fx *f)
{
	int64_t t = 0;
	int i;

	fx_init(f, name);
	fx_start(f, 0);
	for (i = 0; i < 20000; i++) {
		uint32_t r = tu_rand(&seed);

		t += 1 + r % 3000;
		switch (r >> 28) {
		case 0:
			f->ops->on_cnp(&f->port, f->qp, t, &f->out);
			break;
		case 1:
			f->ops->on_nack(&f->port, f->qp, t, &f->out);
			break;
		case 2:
			f->ops->on_probe_timeout(&f->port, f->qp, t, &f->out);
			break;
		case 3:
		case 4:
			f->ops->on_rtt(&f->port, f->qp, t, t - 1 - r % 400000,
				       t, &f->out);
			break;
		case 5:
			f->ops->on_timer(&f->port, f->qp, t, &f->out);
			break;
		default:
			f->ops->on_tx(&f->port, f->qp, t, 4096, r & 1,
				      &f->out);
		}
		assert_true(f->out.rate > 0);
		assert_true(f->out.rate <= 8u << 20);
	}
}

static void test_determinism(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; algo_registry[i]; i++) {
		struct fx a, b, c;

		run_random(algo_registry[i]->name, 1234, &a);
		run_random(algo_registry[i]->name, 1234, &b);
		run_random(algo_registry[i]->name, 999, &c);
		assert_memory_equal(a.port.counters, b.port.counters,
				    sizeof(a.port.counters));
		assert_int_equal(a.port.global_min_rtt, b.port.global_min_rtt);
		assert_memory_equal(a.qp, b.qp, sizeof(a.qp));
		assert_memory_equal(&a.out, &b.out, sizeof(a.out));
		/* a different sequence does leave a different state */
		assert_memory_not_equal(a.port.counters, c.port.counters,
					sizeof(a.port.counters));
		algo_desc_free(a.desc);
		algo_desc_free(b.desc);
		algo_desc_free(c.desc);
	}
}

static void test_descriptors_match(void **state)
{
	struct pcb_err err = { 0 };
	size_t i;

	(void)state;
	for (i = 0; algo_registry[i]; i++) {
		const struct algo_ops *ops = algo_registry[i];
		struct algo_desc *d = NULL;
		char *saved;

		assert_int_equal(algo_desc_load(&d, ops->name, &err), 0);
		assert_int_equal(algo_check_desc(ops, d, &err), 0);
		assert_non_null(ops->label);
		/* a renamed param is caught */
		saved = d->params[0].name;
		d->params[0].name = (char *)"RENAMED";
		assert_int_equal(algo_check_desc(ops, d, &err), -PCB_E_PARSE);
		d->params[0].name = saved;
		d->ncounters--;
		assert_int_equal(algo_check_desc(ops, d, &err), -PCB_E_PARSE);
		d->ncounters++;
		algo_desc_free(d);
	}
	for (i = 0; algo_desc_names[i]; i++)
		assert_non_null(algo_find(algo_desc_names[i]));
	assert_null(algo_find("nope"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ztr_increase),
		cmocka_unit_test(test_ztr_decrease),
		cmocka_unit_test(test_ztr_cnp_vld),
		cmocka_unit_test(test_ztr_tx_dec),
		cmocka_unit_test(test_ztr_pins_and_caps),
		cmocka_unit_test(test_ztr_target),
		cmocka_unit_test(test_ztr_decrease_laws),
		cmocka_unit_test(test_ztr_timeouts_nacks),
		cmocka_unit_test(test_counters_wrap_and_off),
		cmocka_unit_test(test_dcqcn_cut_alpha),
		cmocka_unit_test(test_dcqcn_small_gd),
		cmocka_unit_test(test_dcqcn_alpha_reference),
		cmocka_unit_test(test_dcqcn_stages),
		cmocka_unit_test(test_dcqcn_byte_unit),
		cmocka_unit_test(test_dcqcn_recovery_timer_only),
		cmocka_unit_test(test_dcqcn_target_clamp),
		cmocka_unit_test(test_dcqcn_first_rate_clamp),
		cmocka_unit_test(test_template_branches),
		cmocka_unit_test(test_template_probe_abort),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_descriptors_match),
	};

	return cmocka_run_group_tests_name("algos", tests, NULL, NULL);
}
