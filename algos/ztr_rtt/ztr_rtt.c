/* ztr_rtt.c - ZTR-RTT congestion control, reconstructed.
 *
 * What is certain comes from seed 004's parameter and counter tables; the
 * formulas NVIDIA's page lost are rebuilt after ../shared/spec/cc-sim.md
 * 2.5, and their three uncertain parts are model options:
 *   target   flow:  max(CDT, off + ALPHA * base * line / rate)  (default)
 *            base:  max(CDT, off + ALPHA * base)
 *            floor: CDT
 *            base = the port's minimum RTT of an empty fabric; off = the flow's
 *            minimum RTT with TOPOLOGY_AWARE (+ADVANCED_FEATURES_EN), else 0
 *   decrease proportional: cwnd *= max(MAX_DEC, 1 - beta (rtt - T) / rtt)
 *            ratio:        cwnd *= max(MAX_DEC, T / rtt)
 *   hyper    after the first congestion: rate *= hyper (default 0.5)
 * The window (bytes) is the state, as the seed says: AI/HAI add bytes, a
 * decrease multiplies it, and the rate follows as cwnd / rtt of the
 * sample (self-clocking: as the queue drains the same window gives more
 * rate).  Each update moves the rate by at most MAX_DEC / MAX_INC times
 * the previous one, and a decrease never raises it; a hyper decrease
 * sets the rate and the window that goes with it.
 * Everything that shows this model's output says "reconstructed".
 */
#include <string.h>

#include "algo.h"
#include "ztr_rtt.h"

static const char *const ztr_param_names[ZTR_NPARAMS] = {
	"BW_G", "ALPHA", "MAX_DEC", "MAX_INC", "AI", "HAI", "HAI_PERIOD_NS",
	"CONGESTION_DELAY_THRESHOLD", "MAX_DELAY", "RATE_ON_FIRST_CONGESTION",
	"DELAY_ONLY", "CNP_VLD_RTT", "TX_DEC", "FIXED_RATE", "FAST_SCHED",
	"TOPOLOGY_AWARE", "ADVANCED_FEATURES_EN",
};

static const char *const ztr_counter_names[ZTR_NCOUNTERS] = {
	"ZTR_CC_CNP_HANDLE_COUNTER", "ZTR_CC_NACK_HANDLE_COUNTER",
	"ZTR_CC_AI_INC_COUNTER", "ZTR_CC_HAI_INC_COUNTER",
	"ZTR_CC_DEC_COUNTER", "ZTR_CC_HYPER_DEC_COUNTER",
	"ZTR_CC_TX_DEC_COUNTER", "ZTR_CC_MAX_RTT", "ZTR_CC_MIN_RTT",
	"ZTR_CC_SUM_RTT", "ZTR_CC_NUM_RTT", "ZTR_CC_NOT_VLD_RTT_COUNTER",
	"ZTR_CC_MAX_RATE", "ZTR_CC_MIN_RATE", "ZTR_CC_EMPTY_SYS_RTT_COUNTER",
	"ZTR_CC_RTT_TIMEOUT_COUNTER",
};

static const char *const target_choices[] = { "flow", "base", "floor",
					      NULL };
static const char *const decrease_choices[] = { "proportional", "ratio",
						NULL };

static const struct algo_opt_desc ztr_opts[ZTR_NOPTS] = {
	[ZTR_OPT_TARGET] = { "target",
			     "target RTT law: flow-scaled (a), base-scaled (b) "
			     "or the threshold alone", target_choices,
			     ZTR_TARGET_FLOW },
	[ZTR_OPT_DECREASE] = { "decrease",
			       "decrease law: proportional with beta, or "
			       "target/RTT", decrease_choices,
			       ZTR_DEC_PROPORTIONAL },
	[ZTR_OPT_BETA] = { "beta", "proportional decrease gain (0..1)", NULL,
			   52429 /* 0.8 */ },
	[ZTR_OPT_HYPER] = { "hyper", "hyper decrease factor after the first "
			    "congestion (0..1)", NULL, 32768 /* 0.5 */ },
};

#define P(x) (p->conf->params[ZTR_##x])

static uint32_t clamp_rtt(int64_t ns)
{
	if (ns < 1)
		return 1;
	return ns > (1 << 30) ? 1u << 30 : (uint32_t)ns;
}

static uint32_t bw_g(const struct algo_port *p)
{
	return P(BW_G) ? P(BW_G) : 1;
}

/* bytes of window for a rate over an RTT: rate * B/8 * rtt / 2^20 */
static uint64_t cwnd_of(const struct algo_port *p, uint32_t rate,
			uint32_t rtt)
{
	return (uint64_t)rate * bw_g(p) * rtt / (8ull << 20);
}

static uint64_t rate_of(const struct algo_port *p, uint64_t cwnd,
			uint32_t rtt)
{
	return cwnd * (8ull << 20) / ((uint64_t)rtt * bw_g(p));
}

uint32_t ztr_target(const uint32_t *params, const uint32_t *opts,
		    const struct ztr_qp *q, uint32_t global_min_rtt)
{
	bool topo = params[ZTR_TOPOLOGY_AWARE] &&
		    params[ZTR_ADVANCED_FEATURES_EN];
	uint64_t off = topo ? q->min_rtt : 0, base = global_min_rtt, s, t;

	switch (opts[ZTR_OPT_TARGET]) {
	case ZTR_TARGET_FLOW:
		s = base * ALGO_RATE_ONE / (q->rate ? q->rate : 1);
		break;
	case ZTR_TARGET_BASE:
		s = base;
		break;
	default:
		s = 0;
	}
	t = off + algo_fxp16_mul(s, params[ZTR_ALPHA]);
	if (t < params[ZTR_CONGESTION_DELAY_THRESHOLD])
		t = params[ZTR_CONGESTION_DELAY_THRESHOLD];
	return t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}

static void set_rate(struct algo_port *p, struct ztr_qp *q, uint32_t rate)
{
	uint32_t cap = P(FAST_SCHED) ? P(FAST_SCHED) : ALGO_RATE_ONE;

	if (rate > cap)
		rate = cap;
	if (rate < ZTR_MIN_RATE)
		rate = ZTR_MIN_RATE;
	q->rate = rate;
	algo_count_max(p, ZTR_C_MAX_RATE, rate);
	algo_count_min(p, ZTR_C_MIN_RATE, rate);
}

static void emit(const struct algo_port *p, const struct ztr_qp *q,
		 struct algo_out *out)
{
	out->rate = P(FIXED_RATE) ? P(FIXED_RATE) : q->rate;
	out->probe_timeout = (int64_t)ZTR_PROBE_TIMEOUT_NS << q->backoff;
	out->timer_at = 0;
}

/* The rate the window gives at this RTT, within [MAX_DEC, MAX_INC] of
 * the old rate (a decrease: at most the old rate).
 */
static void follow_window(struct algo_port *p, struct ztr_qp *q,
			  uint32_t rtt, bool decrease)
{
	uint64_t r = rate_of(p, q->cwnd, rtt);
	uint64_t lo = algo_fxp16_mul(q->rate, P(MAX_DEC));
	uint64_t hi = decrease ? q->rate : algo_fxp16_mul(q->rate, P(MAX_INC));

	if (r < lo)
		r = lo;
	if (r > hi)
		r = hi;
	set_rate(p, q, r > UINT32_MAX ? UINT32_MAX : (uint32_t)r);
}

/* One congestion reaction to a delay sample (RTT event or TX_DEC). */
static void decrease(struct algo_port *p, struct ztr_qp *q, int64_t now,
		     uint32_t rtt, uint32_t target, unsigned counter)
{
	uint32_t f;

	q->t_last_dec = now;
	if (rtt > P(MAX_DELAY)) {
		if (!q->first_cong_done) {
			q->first_cong_done = true;
			set_rate(p, q, P(RATE_ON_FIRST_CONGESTION));
		} else {
			set_rate(p, q, (uint32_t)algo_fxp16_mul(
					q->rate, p->conf->opts[ZTR_OPT_HYPER]));
		}
		q->cwnd = cwnd_of(p, q->rate, rtt);
		algo_count(p, ZTR_C_HYPER_DEC, 1);
		if (counter == ZTR_C_TX_DEC)
			algo_count(p, ZTR_C_TX_DEC, 1);
		return;
	}
	if (p->conf->opts[ZTR_OPT_DECREASE] == ZTR_DEC_RATIO) {
		f = (uint32_t)((uint64_t)target * ALGO_FXP16_ONE / rtt);
	} else {
		uint64_t cut = (uint64_t)p->conf->opts[ZTR_OPT_BETA] *
			       (rtt - target) / rtt;

		f = cut >= ALGO_FXP16_ONE ? 0 : ALGO_FXP16_ONE - (uint32_t)cut;
	}
	if (f < P(MAX_DEC))
		f = P(MAX_DEC);
	if (!q->cwnd)
		q->cwnd = cwnd_of(p, q->rate, rtt);
	q->cwnd = algo_fxp16_mul(q->cwnd, f);
	follow_window(p, q, rtt, true);
	algo_count(p, counter, 1);
}

static void ztr_init(struct algo_port *p, void *qp, int64_t now,
		     struct algo_out *out)
{
	struct ztr_qp *q = qp;

	memset(q, 0, sizeof(*q));
	q->t_last_dec = now;
	set_rate(p, q, ALGO_RATE_ONE);	/* new flows start at line rate */
	emit(p, q, out);
	out->probe_req = true;
}

static void ztr_on_tx(struct algo_port *p, void *qp, int64_t now,
		      uint32_t bytes, bool probe_sent, struct algo_out *out)
{
	struct ztr_qp *q = qp;
	uint32_t target, elapsed;

	(void)bytes;
	out->probe_req = false;
	if (probe_sent) {
		q->probe_out = true;
		q->probe_sent = now;
		q->cnp_seen = false;
	} else if (P(TX_DEC) && q->probe_out && !P(FIXED_RATE) && q->cwnd) {
		/* the delay so far already says congestion: do not wait
		 * for the probe; at most one decrease per target interval
		 */
		elapsed = clamp_rtt(now - q->probe_sent);
		/* the target is never below the threshold: most packets stop
		 * here, before the target's division */
		if (elapsed > P(CONGESTION_DELAY_THRESHOLD)) {
			target = ztr_target(p->conf->params, p->conf->opts, q,
					    p->global_min_rtt);
			if (elapsed > target && now - q->t_last_dec >= target)
				decrease(p, q, now, elapsed, target,
					 ZTR_C_TX_DEC);
		}
	}
	emit(p, q, out);
}

static void ztr_on_rtt(struct algo_port *p, void *qp, int64_t now,
		       int64_t send_ns, int64_t recv_ns, struct algo_out *out)
{
	struct ztr_qp *q = qp;
	uint32_t rtt = clamp_rtt(now - send_ns), target;
	uint64_t inc;

	(void)recv_ns;
	q->probe_out = false;
	q->backoff = 0;
	out->probe_req = true;		/* always one probe in flight */
	algo_count(p, ZTR_C_NUM_RTT, 1);
	algo_count(p, ZTR_C_SUM_RTT, rtt);
	algo_count_max(p, ZTR_C_MAX_RTT, rtt);
	algo_count_min(p, ZTR_C_MIN_RTT, rtt);
	if (!p->global_min_rtt || rtt < p->global_min_rtt) {
		p->global_min_rtt = rtt;
		algo_count(p, ZTR_C_EMPTY_SYS_RTT, 1);
	}
	if (!q->min_rtt || rtt < q->min_rtt)
		q->min_rtt = rtt;
	if (P(CNP_VLD_RTT) && !q->cnp_seen) {
		algo_count(p, ZTR_C_NOT_VLD_RTT, 1);
		goto out_emit;
	}
	q->cnp_seen = false;
	if (P(FIXED_RATE))
		goto out_emit;
	if (!q->cwnd)	/* first sample: the window the rate implies */
		q->cwnd = cwnd_of(p, q->rate, rtt);
	q->last_rtt = rtt;
	target = ztr_target(p->conf->params, p->conf->opts, q, p->global_min_rtt);
	if (rtt > target) {
		decrease(p, q, now, rtt, target, ZTR_C_DEC);
		goto out_emit;
	}
	if (now - q->t_last_dec > (int64_t)P(HAI_PERIOD_NS)) {
		inc = (uint64_t)P(HAI) * bw_g(p) / 100;
		algo_count(p, ZTR_C_HAI_INC, 1);
	} else {
		inc = (uint64_t)P(AI) * bw_g(p) / 100;
		algo_count(p, ZTR_C_AI_INC, 1);
	}
	q->cwnd += inc;
	follow_window(p, q, rtt, false);
out_emit:
	emit(p, q, out);
}

static void ztr_on_cnp(struct algo_port *p, void *qp, int64_t now,
		       struct algo_out *out)
{
	struct ztr_qp *q = qp;

	(void)now;
	/* CNPs only validate RTT samples (seed 004: the handle counter
	 * counts only with CNP_VLD_RTT); DELAY_ONLY ignores them
	 */
	if (!P(DELAY_ONLY)) {
		q->cnp_seen = true;
		if (P(CNP_VLD_RTT))
			algo_count(p, ZTR_C_CNP_HANDLE, 1);
	}
	out->probe_req = false;
	emit(p, q, out);
}

static void ztr_on_nack(struct algo_port *p, void *qp, int64_t now,
			struct algo_out *out)
{
	struct ztr_qp *q = qp;

	algo_count(p, ZTR_C_NACK_HANDLE, 1);
	if (!P(DELAY_ONLY) && !P(FIXED_RATE)) {
		/* a loss: one maximal decrease */
		q->t_last_dec = now;
		q->cwnd = algo_fxp16_mul(q->cwnd, P(MAX_DEC));
		set_rate(p, q, (uint32_t)algo_fxp16_mul(q->rate, P(MAX_DEC)));
	}
	out->probe_req = false;
	emit(p, q, out);
}

static void ztr_on_probe_timeout(struct algo_port *p, void *qp, int64_t now,
				 struct algo_out *out)
{
	struct ztr_qp *q = qp;

	(void)now;
	algo_count(p, ZTR_C_RTT_TIMEOUT, 1);
	q->probe_out = false;
	if (q->backoff < ZTR_MAX_BACKOFF)
		q->backoff++;
	out->probe_req = true;
	emit(p, q, out);
}

static void ztr_on_timer(struct algo_port *p, void *qp, int64_t now,
			 struct algo_out *out)
{
	(void)now;
	out->probe_req = false;
	emit(p, qp, out);
}

static uint64_t ztr_window(const void *qp)
{
	return ((const struct ztr_qp *)qp)->cwnd;
}

const struct algo_ops ztr_rtt_ops = {
	.name = "ztr_rtt",
	.label = "ZTR-RTT (reconstructed)",
	.qp_state_size = sizeof(struct ztr_qp),
	.nparams = ZTR_NPARAMS,
	.ncounters = ZTR_NCOUNTERS,
	.param_names = ztr_param_names,
	.counter_names = ztr_counter_names,
	.nopts = ZTR_NOPTS,
	.opts = ztr_opts,
	.init = ztr_init,
	.on_tx = ztr_on_tx,
	.on_rtt = ztr_on_rtt,
	.on_cnp = ztr_on_cnp,
	.on_nack = ztr_on_nack,
	.on_probe_timeout = ztr_on_probe_timeout,
	.on_timer = ztr_on_timer,
	.window = ztr_window,
};
