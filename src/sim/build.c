/* build.c - what a scenario builds a fabric with: nodes and their
 * ports, links, and flows (QPs), called by the topologies (topo.c) and
 * the workloads (workload.c, collective.c) through sim_source.build and
 * as flows arrive.  Why apart from fabric.c: building is not the event
 * loop; a flow's start and stop reach the loop as events.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

uint32_t sim_add_node(struct sim *s, bool is_switch, uint32_t nports)
{
	uint32_t ni = s->nnodes, i;
	struct node *n;

	if (sim_grow((void **)&s->nodes, sizeof(*s->nodes), &s->capnodes,
		     ni + 1))
		abort();
	n = &s->nodes[s->nnodes++];
	n->is_switch = is_switch;
	n->port0 = s->nports;
	n->nports = nports;
	if (sim_grow((void **)&s->ports, sizeof(*s->ports), &s->capports,
		     s->nports + nports))
		abort();
	for (i = 0; i < nports; i++) {
		struct port *p = &s->ports[s->nports + i];

		memset(p, 0, sizeof(*p));
		p->node = ni;
		p->peer = NONE;
		p->free_ev_at = -1;
		p->is_switch = is_switch;
		p->ctrl.head = p->ctrl.tail = NONE;
		p->data.head = p->data.tail = NONE;
	}
	s->nports += nports;
	return ni;
}

void sim_link(struct sim *s, uint32_t pa, uint32_t pb, uint32_t gbps,
	      int64_t delay)
{
	uint32_t ppb = 8000 / gbps;

	s->ports[pa].peer = pb;
	s->ports[pb].peer = pa;
	s->ports[pa].ppb = s->ports[pb].ppb = ppb;
	s->ports[pa].delay = s->ports[pb].delay = delay;
}

uint32_t sim_add_qp(struct sim *s, uint32_t src, uint32_t dst,
		    uint64_t size, int64_t start, int64_t stop)
{
	uint32_t qi = s->nqps;
	struct qp *q;

	if (sim_qp_reserve(s, qi + 1))
		abort();
	memset(qp_state(s, qi), 0, s->stride);
	q = &s->qps[s->nqps++];
	memset(q, 0, sizeof(*q));
	q->src = src;
	q->dst = dst;
	q->size = size;
	if (size) {
		q->npkts = (uint32_t)((size + s->cfg.mtu - 1) / s->cfg.mtu);
		q->last_payload = (uint32_t)(size - (uint64_t)(q->npkts - 1) *
					     s->cfg.mtu);
	} else {
		q->npkts = UINT32_MAX;
	}
	q->rate = ALGO_RATE_ONE;
	q->ecmp = (uint32_t)(sim_rand(s) >> 32);
	q->timer_ev_at = -1;
	q->armed_pos = NONE;
	q->act_pos = NONE;
	q->last_cnp = INT64_MIN / 2;
	q->start = start;
	q->stop = stop;
	q->path_rtt = s->src->path_rtt(s, src, dst);
	sim_schedule(s, start, EV_FLOW_START, qi);
	if (stop > 0)
		sim_schedule(s, stop, EV_FLOW_STOP, qi);
	return qi;
}
