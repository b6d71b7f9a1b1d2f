/* report.c - what a run reports: the clock and event count, the port
 * and algorithm counters the sim device folds into its firmware and
 * diag sampler, per-flow bytes and rates, retransmission timeouts, and
 * the window's summary (utilisation, fairness, queues, RTT, FCTs).  Why
 * apart: these read the fabric between runs, never inside the loop.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

int64_t sim_now(const struct sim *s)
{
	return s->now;
}

uint64_t sim_events(const struct sim *s)
{
	return s->events;
}

size_t sim_mem_bytes(const struct sim *s)
{
	return s->mem_peak;
}

/* A host with params of its own takes the fabric's for the rest. */
static void hconf_follow(const struct sim *s, struct host_conf *hc)
{
	size_t i;

	for (i = 0; i < ALGO_MAX_PARAMS; i++)
		if (!(hc->own >> i & 1))
			hc->conf.params[i] = s->algo.conf.params[i];
}

void sim_set_params(struct sim *s, const uint32_t *params, size_t n)
{
	uint32_t h;

	memcpy(s->algo.conf.params, params,
	       (n < ALGO_MAX_PARAMS ? n : ALGO_MAX_PARAMS) * sizeof(*params));
	for (h = 0; s->hconf && h < s->nhosts; h++)
		if (s->hconf[h])
			hconf_follow(s, s->hconf[h]);
	if (s->peer)	/* two threads: the replica too */
		sim_set_params(s->peer, params, n);
}

int sim_host_params(struct sim *s, uint32_t host, const uint32_t *params,
		    uint64_t own)
{
	struct host_conf *hc;
	size_t i;

	if (host >= s->nhosts)
		return -PCB_E_RANGE;
	if (s->peer) {		/* two threads: the replica too */
		int rc = sim_host_params(s->peer, host, params, own);

		if (rc)
			return rc;
	}
	own &= ALGO_MAX_PARAMS < 64 ? (1ull << ALGO_MAX_PARAMS) - 1 : ~0ull;
	if (!own) {
		if (s->hconf && s->hconf[host]) {
			s->hosts[host].ap.conf = &s->algo.conf;
			free(s->hconf[host]);
			s->hconf[host] = NULL;
		}
		return 0;
	}
	if (!s->hconf && !(s->hconf = calloc(s->nhosts, sizeof(*s->hconf))))
		return -PCB_E_NOMEM;
	hc = s->hconf[host];
	if (!hc && !(hc = calloc(1, sizeof(*hc))))
		return -PCB_E_NOMEM;
	hc->conf = s->algo.conf;
	hc->own = own;
	for (i = 0; i < ALGO_MAX_PARAMS; i++)
		if (own >> i & 1)
			hc->conf.params[i] = params[i];
	s->hconf[host] = hc;
	s->hosts[host].ap.conf = &hc->conf;
	return 0;
}

void sim_host_params_get(const struct sim *s, uint32_t host,
			 uint32_t *params)
{
	const struct algo_conf *c = host < s->nhosts && s->hconf &&
				    s->hconf[host] ? &s->hconf[host]->conf :
						     &s->algo.conf;

	memcpy(params, c->params, ALGO_MAX_PARAMS * sizeof(*params));
}

/* Each host's counters once, in a row (they sit together in its algo
 * port), folded by kind: sums add, min/max keep the extreme of those set.
 * With counters off (fixed when the fabric is built) all stay 0.
 */
void sim_take_counters(struct sim *s, uint32_t *delta, bool *touched,
		       size_t n)
{
	enum algo_ckind kind[ALGO_MAX_COUNTERS];
	uint64_t acc[ALGO_MAX_COUNTERS] = { 0 };
	size_t c;
	uint32_t i;

	if (n > ALGO_MAX_COUNTERS)
		n = ALGO_MAX_COUNTERS;
	for (c = 0; c < n; c++) {
		kind[c] = s->algo.desc ? s->algo.desc->counters[c].kind :
					 ALGO_CK_SUM;
		touched[c] = false;
	}
	for (i = 0; i < s->nhosts && s->algo.counters_on; i++) {
		uint32_t *v = s->hosts[i].ap.counters;

		for (c = 0; c < n; c++) {
			if (!v[c])
				continue;
			if (kind[c] == ALGO_CK_SUM)
				acc[c] += v[c];
			else if (!touched[c] || (kind[c] == ALGO_CK_MAX ?
						 v[c] > acc[c] : v[c] < acc[c]))
				acc[c] = v[c];
			touched[c] = true;
			v[c] = 0;
		}
	}
	for (c = 0; c < n; c++)
		delta[c] = (uint32_t)acc[c];
}

/* A port's time paused so far, ns, from its total and a pause under way. */
static uint64_t paused_ns(const struct sim *s, int64_t total, bool paused,
			  int64_t start)
{
	return (uint64_t)(total + (paused ? s->now - start : 0)) / PS_PER_NS;
}

/* Host port pi's class-1 share, from priority 3's to its own (priority
 * 3's time paused is struct port's alone: class 1 has its own). */
static void c1_counters(const struct sim *s, uint32_t pi,
			struct sim_port_counters *c)
{
	const struct port_c1 *q = &s->c1[pi];
	int pr = s->prio_c[1], d = SIM_PRIO_DATA;

	c->rx_bytes_prio[d] -= q->rx_bytes;
	c->rx_pkts_prio[d] -= q->rx_pkts;
	c->tx_bytes_prio[d] -= q->tx_bytes;
	c->tx_pkts_prio[d] -= q->tx_pkts;
	c->rx_bytes_prio[pr] += q->rx_bytes;
	c->rx_pkts_prio[pr] += q->rx_pkts;
	c->tx_bytes_prio[pr] += q->tx_bytes;
	c->tx_pkts_prio[pr] += q->tx_pkts;
	c->pause_rx_prio[pr] += q->pause_rx;
	c->pause_rx_ns_prio[pr] += paused_ns(s, q->paused_ps, q->paused,
					     q->pause_start);
}

/* Host i's port: its bytes, packets and pauses added into c. */
static void host_port_add(const struct sim *s, uint32_t i,
			  struct sim_port_counters *c)
{
	const struct port *p = &s->ports[s->hosts[i].port];
	int k;

	c->rx_bytes += port_rx_bytes(p);
	c->rx_pkts += p->rx_pkts_c[0] + p->rx_pkts_c[1];
	c->tx_bytes += port_tx_bytes(p);
	c->tx_pkts += p->tx_pkts_c[0] + p->tx_pkts_c[1];
	c->pause_tx += p->pause_tx;
	c->rx_lost += p->lost_pkts;
	for (k = 0; k < 2; k++) {
		int prio = k ? SIM_PRIO_CTRL : SIM_PRIO_DATA;

		c->rx_bytes_prio[prio] += p->rx_bytes_c[k];
		c->rx_pkts_prio[prio] += p->rx_pkts_c[k];
		c->tx_bytes_prio[prio] += p->tx_bytes_c[k];
		c->tx_pkts_prio[prio] += p->tx_pkts_c[k];
	}
	c->pause_rx_prio[SIM_PRIO_DATA] += p->pause_rx;
	c->pause_tx_prio[SIM_PRIO_DATA] += p->pause_tx;
	c->pause_rx_ns_prio[SIM_PRIO_DATA] +=
		paused_ns(s, p->paused_ps, p->paused, p->pause_start);
	if (s->c1)
		c1_counters(s, s->hosts[i].port, c);
}

void sim_port_counters(const struct sim *s, struct sim_port_counters *c)
{
	uint32_t i;

	*c = s->c;
	c->rx_bytes = c->rx_pkts = c->tx_bytes = c->tx_pkts = c->pause_tx = 0;
	c->rx_lost = 0;
	for (i = 0; i < s->nhosts; i++)
		host_port_add(s, i, c);
}

uint32_t sim_hosts(const struct sim *s)
{
	return s->nhosts;
}

int sim_host_port_counters(const struct sim *s, uint32_t host,
			   struct sim_port_counters *c)
{
	const struct nic_ctr *n;
	uint32_t pi;

	memset(c, 0, sizeof(*c));
	if (host >= s->nhosts)
		return -PCB_E_RANGE;
	n = &s->hosts[host].nc;
	pi = s->hosts[host].port;
	host_port_add(s, host, c);
	c->ecn_marked = n->ecn_marked;
	c->cnp_sent = n->cnp_sent;
	c->rx_cqe = n->rx_cqe;
	c->out_of_sequence = n->out_of_sequence;
	c->cnp_handled = n->cnp_handled;
	c->qp_desched = n->qp_desched;
	c->tx_cqe = n->tx_cqe;
	c->nacks = n->nacks;
	c->rto = n->rto;
	/* the pauses its port obeyed, of either data class (pfc_apply,
	 * c1_pfc_apply count a host port's in s->c.pause_rx) */
	c->pause_rx = s->ports[pi].pause_rx + (s->c1 ? s->c1[pi].pause_rx : 0);
	return 0;
}

const uint32_t *sim_host_algo_counters(const struct sim *s, uint32_t host)
{
	return host < s->nhosts && s->algo.counters_on ?
	       s->hosts[host].ap.counters : NULL;
}

size_t sim_rto_hosts(const struct sim *s, const uint32_t **hosts)
{
	*hosts = s->rto_host;
	return s->nrto;
}

size_t sim_rto_values(const struct sim *s, const int64_t **vals)
{
	*vals = s->rto_vals;
	return s->nrto;
}

size_t sim_flow_bytes(const struct sim *s, uint64_t *bytes, size_t max)
{
	size_t i;

	for (i = 0; i < s->nqps && i < max; i++)
		bytes[i] = s->qps[i].win_bytes;
	return i;
}

size_t sim_flow_rates(const struct sim *s, uint32_t *rates, size_t max)
{
	size_t i;

	for (i = 0; i < s->nqps && i < max; i++)
		rates[i] = s->qps[i].rate;
	return i;
}

static int fct_cmp(const void *a, const void *b)
{
	double x = ((const struct fct_rec *)a)->slowdown;
	double y = ((const struct fct_rec *)b)->slowdown;

	return x < y ? -1 : x > y;
}

static void fct_buckets(struct sim *s, struct sim_summary *sum)
{
	static const uint64_t edges[] = { 0, 10000, 100000, 1000000,
					  10000000, UINT64_MAX };
	struct fct_rec *tmp;
	size_t b, i;

	tmp = malloc((s->nfct ? s->nfct : 1) * sizeof(*tmp));
	if (!tmp)
		return;
	for (b = 0; b + 1 < sizeof(edges) / sizeof(edges[0]); b++) {
		struct sim_fct_bucket *f = &sum->fct[sum->nfct];
		size_t n = 0;

		for (i = 0; i < s->nfct; i++)
			if (s->fct[i].size >= edges[b] &&
			    s->fct[i].size < edges[b + 1])
				tmp[n++] = s->fct[i];
		if (!n)
			continue;
		qsort(tmp, n, sizeof(*tmp), fct_cmp);
		f->lo = edges[b];
		f->hi = edges[b + 1];
		f->n = (uint32_t)n;
		f->p50 = tmp[(n - 1) / 2].slowdown;
		f->p95 = tmp[(size_t)((double)(n - 1) * 0.95)].slowdown;
		f->p99 = tmp[(size_t)((double)(n - 1) * 0.99)].slowdown;
		sum->nfct++;
	}
	free(tmp);
}

void sim_summary(struct sim *s, struct sim_summary *sum)
{
	double win = (double)(s->now - s->win_t0), sx = 0, sxx = 0, path = 0;
	uint32_t i, busiest = NONE, queue = NONE;
	double best_q = -1;

	memset(sum, 0, sizeof(*sum));
	sum->t0 = s->win_t0;
	sum->t1 = s->now;
	sum->payload_ceiling = (double)s->cfg.mtu / (s->cfg.mtu + HDR_BYTES);
	sum->events = s->events - s->win0_events;
	for (i = 0; i < s->nports; i++) {
		struct port *p = &s->ports[i];

		if (!p->is_switch)
			continue;
		sim_q_account(s, p);
		/* the fullest for its own speed (links differ per tier) */
		if (busiest == NONE || win_payload(p) * p->ppb >
		    win_payload(&s->ports[busiest]) * s->ports[busiest].ppb)
			busiest = i;
		if (win > 0 && p->qs.sum / win > best_q) {
			best_q = p->qs.sum / win;
			queue = i;
		}
	}
	if (busiest != NONE && win > 0)
		sum->util = (double)win_payload(&s->ports[busiest]) *
			    (double)s->ports[busiest].ppb / win;
	if (queue != NONE && win > 0) {
		const struct port *p = &s->ports[queue];

		sum->q_mean = p->qs.sum / win;
		sum->q_p99 = qstat_quantile(s, p, 0.99);
		sum->q_max = (double)p->q_max;
		sim_port_name(s, queue, sum->queue_port,
			      sizeof(sum->queue_port));
	}
	s->bottleneck = busiest;
	for (i = 0; i < s->nqps; i++) {
		const struct qp *q = &s->qps[i];

		if (!q->started || (q->done && !q->win_bytes) ||
		    (q->stop > 0 && q->stop <= s->win_t0))
			continue;
		sum->flows++;
		sx += (double)q->win_bytes;
		sxx += (double)q->win_bytes * (double)q->win_bytes;
		path += (double)q->path_rtt;
	}
	sum->jain = sxx > 0 ? sx * sx / (sum->flows * sxx) : 0;
	/* the idle path of what is compared with it: the probes answered,
	 * else the window's flows, else the longest path */
	sum->base_rtt = sum->flows ? path / sum->flows / PS_PER_NS :
				     s->base_rtt_ns;
	sum->rtt_samples = s->rtt.total;
	sum->rtt_late = s->rtt_late;
	sum->probes_lost = s->probes_lost;
	if (s->rtt.total) {
		sum->rtt_mean = s->rtt.sum / (double)s->rtt.total / PS_PER_NS;
		sum->rtt_p99 = lhist_quantile(&s->rtt, 0.99) / PS_PER_NS;
		sum->base_rtt = (double)s->rtt_base_sum /
				(double)s->rtt.total / PS_PER_NS;
	}
	sum->pauses = s->pause_events - s->win0_pauses;
	sum->drops = s->c.drops_nobuf + s->c.drops_loss - s->win0_drops;
	sum->rtos = s->c.rto - s->win0_rtos;
	if (!s->c.drops_nobuf && !s->c.drops_loss)
		sum->rtos_lossless = sum->rtos;
	fct_buckets(s, sum);
	if (s->src->summary)
		s->src->summary(s, sum);
}
