/* dcqcn.c - the DCQCN reaction point (Zhu et al., SIGCOMM 2015) with the
 * knobs NVIDIA exposes (rpg_*, dce_tcp_*, clamp_tgt_rate*), defaults and
 * evidence in ../shared/spec/dcqcn-pfc.md 1.2-1.5:
 *  - the first CNP of a flow allocates a limiter: alpha =
 *    initial_alpha_value, rate = rate_to_set_on_first_cnp (0: the current
 *    rate), target = rate;
 *  - cuts come at most once per rate_reduce_monitor_period and only after
 *    a CNP: at once when the last cut is a period old, else at the end of
 *    that period (a CNP inside it is not lost; the firmware's windows are
 *    not documented beyond "at most once per period, only with a CNP":
 *    a reconstruction).  RC *= 1 - alpha / 2^rpg_gd (alpha in 1/1024:
 *    gd 11 gives 1 - a/2), never below rpg_min_dec_fac % of RC nor
 *    rpg_min_rate.  The target RT takes RC first: always with
 *    clamp_tgt_rate; with clamp_tgt_rate_after_time_inc when an increase
 *    of either kind came since the last cut; with neither flag when a
 *    byte-counter increase did (QCN's rule).  The predicate is the DCQCN
 *    authors' ns-3 (NVIDIA documents only the flags' meaning): a
 *    reconstruction.  Back-to-back cuts thus leave RT where the
 *    congestion began, and recovery heads back there;
 *  - every dce_tcp_rtt: alpha = (g * alpha + (1024 - g) * [CNP seen]) / 1024,
 *    alpha and g 10-bit fractions as documented; the rounding is not
 *    documented [UNK], and alpha is kept with 10 more fraction bits
 *    (a reconstruction: flooring the 10-bit value takes at least 1/1024
 *    per update, so with a CNP less than once every 1024 / (1024 - g)
 *    updates alpha fell to 0 and cuts stopped, unlike the EWMA NVIDIA
 *    describes; model option `alpha 10bit` floors it so, to compare);
 *  - increase events come from the timer (rpg_time_reset without a cut)
 *    and the byte counter (rpg_byte_reset KB sent without a cut, 0 =
 *    off), each counting its events since the last cut.  The unit is
 *    a reading [UNK]: NVIDIA's text says bytes, but the field has 15
 *    bits, the DCQCN paper (written with Mellanox) sets B = 10 MB,
 *    which fits them only in KB, the old default 150 is QCN's 150 KB,
 *    and HPCC's ns-3, modelling "Mellanox's version", has no byte
 *    counter at all, as 32767 KB (seconds at a fair share) amounts
 *    to.  In bytes a counter event every 32 KB sent undid each cut
 *    within microseconds and held a 16:1 incast at 1 KB packets in
 *    PFC (18 MB) against the fluid model's 0.1 MB; model option
 *    `byte_unit B` keeps that reading to compare.  With F =
 *    rpg_threshold, as the paper and QCN stage them: while both counts
 *    are <= F fast recovery, when one exceeds F additive increase (RT +=
 *    rpg_ai_rate), when both do hyper increase (RT += rpg_hai_rate, a
 *    fixed step as the paper and HPCC's "Mellanox" model take it; the
 *    authors' ns-3 grows it, NVIDIA does not say [UNK]; model option
 *    `hai growing` adds i steps at the i-th hyper-increase event, our
 *    reading of that growth); then RC = (RT + RC) / 2.  A byte counter that is off stands in with the timer's
 *    count less one, so timer-only recovery goes F fast recoveries, one
 *    additive increase, then hyper increase, the shape of HPCC's
 *    timer-only model (a reconstruction; before, an off byte counter
 *    kept a flow in additive increase for good);
 *  - back at the maximum rate the limiter is released.
 */
#include <string.h>

#include "algo.h"
#include "dcqcn.h"

static const char *const dcqcn_param_names[DCQCN_NPARAMS] = {
	"rpg_time_reset", "rpg_byte_reset", "rpg_threshold", "rpg_max_rate",
	"rpg_ai_rate", "rpg_hai_rate", "rpg_gd", "rpg_min_dec_fac",
	"rpg_min_rate", "rate_to_set_on_first_cnp", "dce_tcp_g",
	"dce_tcp_rtt", "rate_reduce_monitor_period", "initial_alpha_value",
	"clamp_tgt_rate", "clamp_tgt_rate_after_time_inc",
};

static const char *const dcqcn_counter_names[DCQCN_NCOUNTERS] = {
	"DCQCN_CNP_HANDLE_COUNTER", "DCQCN_RATE_CUT_COUNTER",
	"DCQCN_FAST_RECOVERY_COUNTER", "DCQCN_AI_COUNTER", "DCQCN_HAI_COUNTER",
	"DCQCN_ALPHA_UPDATE_COUNTER", "DCQCN_MIN_RATE", "DCQCN_MAX_RATE",
};

static const char *const hai_choices[] = { "fixed", "growing", NULL };
static const char *const alpha_choices[] = { "20bit", "10bit", NULL };
static const char *const unit_choices[] = { "KB", "B", NULL };

/* Where NVIDIA does not say, the choices a model can make (the head
 * comment): the default of each is the model's own. */
static const struct algo_opt_desc dcqcn_opts[DCQCN_NOPTS] = {
	{ "hai", "hyper increase: a fixed rpg_hai_rate step (the paper, "
	  "HPCC) or i x rpg_hai_rate at the i-th hyper-increase event (as "
	  "the DCQCN authors' ns-3 grows it) [UNK]", hai_choices,
	  DCQCN_HAI_FIXED },
	{ "alpha", "alpha kept with 10 more fraction bits (reconstruction) "
	  "or floored to the documented 10 bits at every update (it then "
	  "decays to 0 between CNPs) [UNK]", alpha_choices,
	  DCQCN_ALPHA_20BIT },
	{ "byte_unit", "rpg_byte_reset counts KB (the paper's 10 MB fits "
	  "the 15-bit field only so; QCN's 150 KB was its old default) or "
	  "bytes (NVIDIA's text) [UNK]", unit_choices, DCQCN_BYTES_KB },
};

#define P(x) (p->conf->params[DCQCN_##x])
#define OPT(x) (p->conf->opts[DCQCN_OPT_##x])

/* alpha's fraction bits beyond the documented 10 (see the head) */
#define ALPHA_XBITS 10

/* Mb/s -> fxp20 of line rate */
static uint32_t mbps(const struct algo_port *p, uint32_t v)
{
	uint64_t line = (uint64_t)(p->line_gbps ? p->line_gbps : 1) * 1000;
	uint64_t r = (uint64_t)v * ALGO_RATE_ONE / line;

	return r > UINT32_MAX ? UINT32_MAX : (uint32_t)r;
}

static uint32_t max_rate(const struct algo_port *p)
{
	uint32_t m = P(MAX_RATE) ? mbps(p, P(MAX_RATE)) : ALGO_RATE_ONE;

	return m > ALGO_RATE_ONE || !m ? ALGO_RATE_ONE : m;
}

static void note_rate(struct algo_port *p, uint32_t rc)
{
	uint32_t v = (uint32_t)((uint64_t)rc * p->line_gbps * 1000 >>
				20);

	algo_count_max(p, DCQCN_C_MAX_RATE, v);
	algo_count_min(p, DCQCN_C_MIN_RATE, v ? v : 1);
}

static void emit(const struct dcqcn_qp *q, struct algo_out *out)
{
	out->rate = q->limited ? q->rc : ALGO_RATE_ONE;
	out->probe_req = false;
	out->probe_timeout = 0;
	out->timer_at = 0;
	if (!q->limited)
		return;
	out->timer_at = q->next_alpha < q->next_inc ? q->next_alpha :
						      q->next_inc;
	if (q->cut_pending && q->next_cut < out->timer_at)
		out->timer_at = q->next_cut;
}

static void dcqcn_init(struct algo_port *p, void *qp, int64_t now,
		       struct algo_out *out)
{
	struct dcqcn_qp *q = qp;

	(void)p;
	(void)now;
	memset(q, 0, sizeof(*q));
	q->rc = q->rt = ALGO_RATE_ONE;
	emit(q, out);
}

/* One increase event, the timer's or the byte counter's (its count
 * already taken): the stage from both counts, see the head.
 */
static void increase(struct algo_port *p, struct dcqcn_qp *q, bool timer)
{
	uint32_t f = P(THRESHOLD), cap = max_rate(p);
	uint32_t tc = q->t_count, bc = P(BYTE_RESET) ? q->bc_count : tc - 1;
	uint64_t rt = q->rt;

	if (timer)
		q->t_inc = true;
	else
		q->bc_inc = true;
	if (tc > f && bc > f) {
		/* growing: the i-th hyper-increase event adds i steps */
		uint32_t i = OPT(HAI) == DCQCN_HAI_GROWING ?
			     (tc < bc ? tc : bc) - f : 1;

		rt += (uint64_t)i * mbps(p, P(HAI_RATE));
		algo_count(p, DCQCN_C_HAI, 1);
	} else if (tc > f || bc > f) {
		rt += mbps(p, P(AI_RATE));
		algo_count(p, DCQCN_C_AI, 1);
	} else {
		algo_count(p, DCQCN_C_FAST_RECOVERY, 1);
	}
	q->rt = rt > cap ? cap : (uint32_t)rt;
	q->rc = (uint32_t)(((uint64_t)q->rt + q->rc) / 2);
	if (q->rc >= cap - 1 && q->rt >= cap) {
		q->rc = cap;
		if (cap == ALGO_RATE_ONE)
			q->limited = false;	/* release the limiter */
	}
	note_rate(p, q->rc);
}

static void dcqcn_on_tx(struct algo_port *p, void *qp, int64_t now,
			uint32_t bytes, bool probe_sent, struct algo_out *out)
{
	struct dcqcn_qp *q = qp;

	(void)now;
	(void)probe_sent;
	if (q->limited && P(BYTE_RESET)) {
		uint64_t quota = (uint64_t)P(BYTE_RESET) <<
				 (OPT(BYTE_UNIT) == DCQCN_BYTES_KB ? 10 : 0);

		q->bytes += bytes;
		while (q->limited && q->bytes >= quota) {
			q->bytes -= quota;
			q->bc_count++;
			increase(p, q, false);
		}
	}
	emit(q, out);
}

/* The cut a CNP asked for, see the head. */
static void cut(struct algo_port *p, struct dcqcn_qp *q, int64_t now)
{
	uint64_t c, floor_fac, floor_min;

	if (P(CLAMP_TGT) ||
	    (P(CLAMP_AFTER_TIME_INC) ? q->t_inc || q->bc_inc : q->bc_inc))
		q->rt = q->rc;
	/* alpha / 2^gd exceeds 1 when gd < 10: a cut takes at most the
	 * whole rate, then the floors below hold.  What the firmware does
	 * there is not documented [UNK]; its documentation gives gd 10-11 */
	c = (uint64_t)q->rc * q->alpha >> P(GD);
	if (c > q->rc)
		c = q->rc;
	floor_fac = (uint64_t)q->rc * P(MIN_DEC_FAC) / 100;
	floor_min = mbps(p, P(MIN_RATE));
	c = q->rc - c;
	if (c < floor_fac)
		c = floor_fac;
	if (c < floor_min)
		c = floor_min;
	q->rc = c ? (uint32_t)c : 1;
	if (q->rt < q->rc)
		q->rt = q->rc;
	q->last_cut = now;
	q->cut_pending = false;
	q->t_count = q->bc_count = 0;
	q->t_inc = q->bc_inc = false;
	q->bytes = 0;
	q->next_inc = now + (int64_t)P(TIME_RESET) * 1000;
	algo_count(p, DCQCN_C_RATE_CUT, 1);
	note_rate(p, q->rc);
}

static void dcqcn_on_cnp(struct algo_port *p, void *qp, int64_t now,
			 struct algo_out *out)
{
	struct dcqcn_qp *q = qp;
	int64_t period = (int64_t)P(MONITOR_PERIOD) * 1000;

	algo_count(p, DCQCN_C_CNP_HANDLE, 1);
	q->cnp_in_period = true;
	if (!q->limited) {
		q->limited = true;
		q->alpha = P(INITIAL_ALPHA);
		q->alpha_fx = q->alpha << ALPHA_XBITS;
		if (P(RATE_FIRST_CNP))
			q->rc = mbps(p, P(RATE_FIRST_CNP));
		q->rt = q->rc;
		q->t_count = q->bc_count = 0;
		q->t_inc = q->bc_inc = false;
		q->last_cut = now - period - 1;
		q->next_alpha = now + (int64_t)P(ALPHA_PERIOD) * 1000;
	}
	if (now - q->last_cut >= period) {
		cut(p, q, now);
	} else if (!q->cut_pending) {
		q->cut_pending = true;
		q->next_cut = q->last_cut + period;
	}
	emit(q, out);
}

static void dcqcn_on_timer(struct algo_port *p, void *qp, int64_t now,
			   struct algo_out *out)
{
	struct dcqcn_qp *q = qp;

	if (q->limited && q->cut_pending && now >= q->next_cut)
		cut(p, q, now);
	if (q->limited && now >= q->next_alpha) {
		uint64_t g = P(G), a;

		a = (q->alpha_fx * g + (q->cnp_in_period ?
					(1024 - g) << (10 + ALPHA_XBITS) :
					0)) >> 10;
		if (a > 1023u << ALPHA_XBITS)
			a = 1023u << ALPHA_XBITS;
		if (OPT(ALPHA) == DCQCN_ALPHA_10BIT)
			a &= ~(uint64_t)((1u << ALPHA_XBITS) - 1);
		q->alpha_fx = (uint32_t)a;
		q->alpha = q->alpha_fx >> ALPHA_XBITS;
		q->cnp_in_period = false;
		q->next_alpha = now + (int64_t)P(ALPHA_PERIOD) * 1000;
		algo_count(p, DCQCN_C_ALPHA_UPDATE, 1);
	}
	if (q->limited && now >= q->next_inc) {
		q->t_count++;
		q->next_inc = now + (int64_t)P(TIME_RESET) * 1000;
		increase(p, q, true);
	}
	emit(q, out);
}

static void dcqcn_ignore(struct algo_port *p, void *qp, int64_t now,
			 struct algo_out *out)
{
	(void)p;
	(void)now;
	emit(qp, out);
}

static void dcqcn_on_rtt(struct algo_port *p, void *qp, int64_t now,
			 int64_t send_ns, int64_t recv_ns, struct algo_out *out)
{
	(void)send_ns;
	(void)recv_ns;
	dcqcn_ignore(p, qp, now, out);
}

const struct algo_ops dcqcn_ops = {
	.name = "dcqcn",
	.label = "DCQCN",
	.qp_state_size = sizeof(struct dcqcn_qp),
	.nparams = DCQCN_NPARAMS,
	.ncounters = DCQCN_NCOUNTERS,
	.param_names = dcqcn_param_names,
	.counter_names = dcqcn_counter_names,
	.nopts = DCQCN_NOPTS,
	.opts = dcqcn_opts,
	.init = dcqcn_init,
	.on_tx = dcqcn_on_tx,
	.on_rtt = dcqcn_on_rtt,
	.on_cnp = dcqcn_on_cnp,
	.on_nack = dcqcn_ignore,
	.on_probe_timeout = dcqcn_ignore,
	.on_timer = dcqcn_on_timer,
};
