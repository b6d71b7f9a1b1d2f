/* rtt_template.c - DOCA PCC's public reference algorithm (rtt_template.c,
 * algo id 0xBFFF v0.1) as ../shared/spec/doca-telemetry.md 4.3-4.4
 * describes it: rate-based AIMD on the delay above the flow's minimum RTT.
 *  1. NACK seen and RTT >= MAX_DELAY:   rate *= 1 - 5 UF
 *  2. else CNP seen or RTT >= MAX_DELAY: rate *= 1 - 2 UF
 *  3. else relative = RTT - min_rtt (a new minimum: relative = RTT);
 *     relative > BASE_RELATIVE_RTT: rate *= 1 - UF, else rate += AI
 *  4. clamp to [MIN_RATE, line rate]
 * CNP and NACK only set flags; the min RTT is relearned (200 us) whenever
 * the low 8 bits of the event time are 0; a probe that is not answered in
 * 300 us << aborts, or not sent within 2 TX events, is requested again.
 */
#include <string.h>

#include "algo.h"
#include "rtt_template.h"

static const char *const rtt_t_param_names[RTT_T_NPARAMS] = {
	"UPDATE_FACTOR", "AI", "BASE_RELATIVE_RTT", "NEW_FLOW_RATE",
	"MIN_RATE", "MAX_DELAY",
};

static const char *const rtt_t_counter_names[RTT_T_NCOUNTERS] = {
	"COUNTER_TX_EVENT", "COUNTER_RTT_EVENT",
};

#define P(x) (p->conf->params[RTT_T_##x])

static void emit(const struct rtt_tmpl_qp *q, struct algo_out *out,
		 bool req)
{
	out->rate = q->rate;
	out->probe_req = req;
	out->probe_timeout = 0;		/* the template aborts in on_tx */
	out->timer_at = 0;
}

/* rate * (1 - k * UF) in fxp16; a factor below 0 becomes 0 */
static uint32_t cut(const struct algo_port *p, uint32_t rate, unsigned k)
{
	uint64_t d = (uint64_t)k * P(UPDATE_FACTOR);

	return d >= ALGO_FXP16_ONE ? 0 :
	       (uint32_t)algo_fxp16_mul(rate, ALGO_FXP16_ONE - (uint32_t)d);
}

static void rtt_t_init(struct algo_port *p, void *qp, int64_t now,
		       struct algo_out *out)
{
	struct rtt_tmpl_qp *q = qp;

	memset(q, 0, sizeof(*q));
	q->rate = P(NEW_FLOW_RATE);
	q->min_rtt = RTT_T_INITIAL_MIN_RTT;
	q->start = now;
	emit(q, out, true);
}

static void rtt_t_on_tx(struct algo_port *p, void *qp, int64_t now,
			uint32_t bytes, bool probe_sent, struct algo_out *out)
{
	struct rtt_tmpl_qp *q = qp;
	bool req = false;

	(void)bytes;
	algo_count(p, RTT_T_C_TX_EVENT, 1);
	if (probe_sent && !q->outstanding) {
		q->outstanding = true;
		q->start = now;
		q->tx_since_req = 0;
	} else {
		int64_t so_far = now - q->start;

		if (!q->outstanding)
			q->tx_since_req++;
		if (so_far > ((int64_t)RTT_T_ABORT_TIME << q->abort_cnt) ||
		    q->tx_since_req > 2) {
			/* lost or never sent: ask again, back off */
			if (q->abort_cnt < 8)
				q->abort_cnt++;
			q->outstanding = false;
			q->start = now;
			q->tx_since_req = 0;
			req = true;
		}
	}
	emit(q, out, req);
}

static void rtt_t_on_rtt(struct algo_port *p, void *qp, int64_t now,
			 int64_t send_ns, int64_t recv_ns,
			 struct algo_out *out)
{
	struct rtt_tmpl_qp *q = qp;
	uint32_t rtt = (uint32_t)((uint32_t)now - (uint32_t)send_ns);
	uint32_t rel;
	uint64_t r;

	(void)recv_ns;
	algo_count(p, RTT_T_C_RTT_EVENT, 1);
	q->outstanding = false;
	q->abort_cnt = 0;
	if ((now & 0xff) == 0)
		q->min_rtt = RTT_T_INITIAL_MIN_RTT;
	if (q->was_nack && rtt >= P(MAX_DELAY)) {
		r = cut(p, q->rate, 5);
	} else if (q->was_cnp || rtt >= P(MAX_DELAY)) {
		r = cut(p, q->rate, 2);
	} else {
		if (rtt < q->min_rtt) {
			q->min_rtt = rtt;
			rel = rtt;
		} else {
			rel = rtt - q->min_rtt;
		}
		r = rel > P(BASE_RELATIVE_RTT) ? cut(p, q->rate, 1) :
						 (uint64_t)q->rate + P(AI);
	}
	if (r < P(MIN_RATE))
		r = P(MIN_RATE);
	if (r > ALGO_RATE_ONE)
		r = ALGO_RATE_ONE;
	q->rate = (uint32_t)r;
	q->was_cnp = q->was_nack = false;
	q->start = now;
	q->tx_since_req = 0;
	emit(q, out, true);
}

static void rtt_t_on_cnp(struct algo_port *p, void *qp, int64_t now,
			 struct algo_out *out)
{
	struct rtt_tmpl_qp *q = qp;

	(void)p;
	(void)now;
	q->was_cnp = true;
	emit(q, out, false);
}

static void rtt_t_on_nack(struct algo_port *p, void *qp, int64_t now,
			  struct algo_out *out)
{
	struct rtt_tmpl_qp *q = qp;

	(void)p;
	(void)now;
	q->was_nack = true;
	emit(q, out, false);
}

static void rtt_t_on_probe_timeout(struct algo_port *p, void *qp,
				   int64_t now, struct algo_out *out)
{
	struct rtt_tmpl_qp *q = qp;

	(void)p;
	if (q->abort_cnt < 8)
		q->abort_cnt++;
	q->outstanding = false;
	q->start = now;
	emit(q, out, true);
}

static void rtt_t_on_timer(struct algo_port *p, void *qp, int64_t now,
			   struct algo_out *out)
{
	(void)p;
	(void)now;
	emit(qp, out, false);
}

const struct algo_ops rtt_template_ops = {
	.name = "rtt_template",
	.label = "DOCA RTT template",
	.qp_state_size = sizeof(struct rtt_tmpl_qp),
	.nparams = RTT_T_NPARAMS,
	.ncounters = RTT_T_NCOUNTERS,
	.param_names = rtt_t_param_names,
	.counter_names = rtt_t_counter_names,
	.init = rtt_t_init,
	.on_tx = rtt_t_on_tx,
	.on_rtt = rtt_t_on_rtt,
	.on_cnp = rtt_t_on_cnp,
	.on_nack = rtt_t_on_nack,
	.on_probe_timeout = rtt_t_on_probe_timeout,
	.on_timer = rtt_t_on_timer,
};
