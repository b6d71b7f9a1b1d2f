/* dcqcn.c - the DCQCN reaction point (Zhu et al., SIGCOMM 2015) with the
 * knobs NVIDIA exposes (rpg_*, dce_tcp_*, clamp_tgt_rate*), see
 * ../shared/spec/ecosystem.md 1.2:
 *  - first CNP of a flow allocates a limiter: alpha = initial_alpha_value,
 *    rate = rate_to_set_on_first_cnp (0: the current rate);
 *  - a CNP cuts at most once per rate_reduce_monitor_period:
 *    RC *= 1 - alpha / 2^rpg_gd (alpha in 1/1024: gd 11 gives 1 - a/2),
 *    never below rpg_min_dec_fac % of RC nor rpg_min_rate; the target RT
 *    takes RC first when clamp_tgt_rate is set, or when
 *    clamp_tgt_rate_after_time_inc is set and the last increase was the
 *    timer's;
 *  - every dce_tcp_rtt: alpha = (g * alpha + (1024 - g) * [CNP seen]) / 1024,
 *    alpha and g 10-bit fractions as documented; the rounding is not
 *    documented [UNK], and alpha is kept with 10 more fraction bits
 *    (a reconstruction: flooring the 10-bit value takes at least 1/1024
 *    per update, so with a CNP less than once every 1024 / (1024 - g)
 *    updates alpha fell to 0 and cuts stopped, unlike the EWMA NVIDIA
 *    describes);
 *  - increase events from the timer (rpg_time_reset) and the byte counter
 *    (rpg_byte_reset): while both counts are <= rpg_threshold fast
 *    recovery, when one exceeds it additive (RT += rpg_ai_rate), when both
 *    do hyper (RT += i * rpg_hai_rate); then RC = (RT + RC) / 2;
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

#define P(x) (p->conf->params[DCQCN_##x])

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
	out->timer_at = !q->limited ? 0 : q->next_alpha < q->next_inc ?
		q->next_alpha : q->next_inc;
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

static void increase(struct algo_port *p, struct dcqcn_qp *q, bool timer)
{
	uint32_t f = P(THRESHOLD), cap = max_rate(p);
	uint64_t rt = q->rt;

	q->last_inc_timer = timer;
	if (q->t_count > f && q->bc_count > f) {
		q->hai_i++;
		rt += (uint64_t)q->hai_i * mbps(p, P(HAI_RATE));
		algo_count(p, DCQCN_C_HAI, 1);
	} else if (q->t_count > f || q->bc_count > f) {
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
		q->bytes += bytes;
		while (q->limited && q->bytes >= P(BYTE_RESET)) {
			q->bytes -= P(BYTE_RESET);
			q->bc_count++;
			increase(p, q, false);
		}
	}
	emit(q, out);
}

static void dcqcn_on_cnp(struct algo_port *p, void *qp, int64_t now,
			 struct algo_out *out)
{
	struct dcqcn_qp *q = qp;
	uint64_t cut, floor_fac, floor_min;

	algo_count(p, DCQCN_C_CNP_HANDLE, 1);
	q->cnp_in_period = true;
	if (!q->limited) {
		q->limited = true;
		q->alpha = P(INITIAL_ALPHA);
		q->alpha_fx = q->alpha << ALPHA_XBITS;
		if (P(RATE_FIRST_CNP))
			q->rc = mbps(p, P(RATE_FIRST_CNP));
		q->rt = q->rc;
		q->last_cut = now - (int64_t)P(MONITOR_PERIOD) * 1000 - 1;
		q->next_alpha = now + (int64_t)P(ALPHA_PERIOD) * 1000;
	}
	if (now - q->last_cut >= (int64_t)P(MONITOR_PERIOD) * 1000) {
		if (P(CLAMP_TGT) ||
		    (P(CLAMP_AFTER_TIME_INC) && q->last_inc_timer))
			q->rt = q->rc;
		/* alpha / 2^gd exceeds 1 when gd < 10: a cut takes at
		 * most the whole rate, then the floors below hold.  What
		 * the firmware does there is not documented [UNK]; its
		 * documentation gives gd 10-11 */
		cut = (uint64_t)q->rc * q->alpha >> P(GD);
		if (cut > q->rc)
			cut = q->rc;
		floor_fac = (uint64_t)q->rc * P(MIN_DEC_FAC) / 100;
		floor_min = mbps(p, P(MIN_RATE));
		cut = q->rc - cut;
		if (cut < floor_fac)
			cut = floor_fac;
		if (cut < floor_min)
			cut = floor_min;
		q->rc = cut ? (uint32_t)cut : 1;
		if (q->rt < q->rc)
			q->rt = q->rc;
		q->last_cut = now;
		q->t_count = q->bc_count = q->hai_i = 0;
		q->bytes = 0;
		q->next_inc = now + (int64_t)P(TIME_RESET) * 1000;
		algo_count(p, DCQCN_C_RATE_CUT, 1);
		note_rate(p, q->rc);
	}
	emit(q, out);
}

static void dcqcn_on_timer(struct algo_port *p, void *qp, int64_t now,
			   struct algo_out *out)
{
	struct dcqcn_qp *q = qp;

	if (q->limited && now >= q->next_alpha) {
		uint64_t g = P(G), a;

		a = (q->alpha_fx * g + (q->cnp_in_period ?
					(1024 - g) << (10 + ALPHA_XBITS) :
					0)) >> 10;
		if (a > 1023u << ALPHA_XBITS)
			a = 1023u << ALPHA_XBITS;
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
	.init = dcqcn_init,
	.on_tx = dcqcn_on_tx,
	.on_rtt = dcqcn_on_rtt,
	.on_cnp = dcqcn_on_cnp,
	.on_nack = dcqcn_ignore,
	.on_probe_timeout = dcqcn_ignore,
	.on_timer = dcqcn_on_timer,
};
