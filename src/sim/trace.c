/* trace.c - the fine time series of a run (sim_trace_*): every tr_every
 * of simulated time a row of the deepest switch queue, the flows' rates
 * and the RTT, and the tap's samples at the same instants.  Why apart:
 * the run loop only takes the samples due on its trace clock
 * (trace_sample, in fabric.c); what a row holds is the trace's.
 */
#include <string.h>

#include "sim_int.h"

int sim_trace_start(struct sim *s, int64_t every_ps)
{
	if (every_ps < PS_PER_NS)
		return -PCB_E_RANGE;
	s->tr_every = every_ps;
	s->tr_next = s->now + every_ps;
	s->tr_rows = true;
	s->ntr = 0;
	s->tr_rtt_sum = 0;
	s->tr_rtt_n = 0;
	s->tr_rx_last = s->rx_payload;
	return 0;
}

size_t sim_trace_rows(const struct sim *s, const struct sim_trace_row **rows)
{
	*rows = s->tr;
	return s->ntr;
}

void sim_trace_stop(struct sim *s)
{
	s->tr_rows = false;
	if (!s->tap)
		s->tr_every = 0;
}

/* One row for the state at s->tr_next (no event at or after it has run). */
/* The fabric's row of the samples due at s->tr_next. */
void sim_trace_row(struct sim *s)
{
	struct sim_trace_row *r;
	double gbps = s->cfg.rate_gbps / (double)ALGO_RATE_ONE;
	uint32_t i, n = 0;

	if (sim_grow((void **)&s->tr, sizeof(*s->tr), &s->captr, s->ntr + 1)) {
		s->tr_rows = false;	/* out of memory: stop tracing */
		return;
	}
	r = &s->tr[s->ntr++];
	memset(r, 0, sizeof(*r));
	r->t = s->tr_next;
	for (i = 0; i < s->nports; i++)
		if (s->ports[i].is_switch && q_bytes(s, &s->ports[i]) >
		    r->queue_max)
			r->queue_max = q_bytes(s, &s->ports[i]);
	for (i = 0; i < s->nqps; i++) {
		const struct qp *q = &s->qps[i];
		double g = q->rate * gbps;

		if (!q->active)
			continue;
		r->rate_mean += g;
		if (!n || g < r->rate_min)
			r->rate_min = g;
		if (g > r->rate_max)
			r->rate_max = g;
		n++;
	}
	if (n)
		r->rate_mean /= n;
	r->rtt_n = s->tr_rtt_n;
	r->rtt_mean = s->tr_rtt_n ? s->tr_rtt_sum / s->tr_rtt_n : 0;
	r->rx_gbps = (double)(s->rx_payload - s->tr_rx_last) * 8 /
		     ((double)s->tr_every / PS_PER_NS);
	s->tr_rx_last = s->rx_payload;
	s->tr_rtt_sum = 0;
	s->tr_rtt_n = 0;
}
