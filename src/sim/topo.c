/* topo.c - the scenarios' fabrics: a star (incast, staircase), a
 * two-tier leaf-spine and a three-tier k-ary fat tree (permutation, mix),
 * a rail-optimised leaf-spine (a server's NICs each on its rail's leaf),
 * and the idle round trip between two hosts on the route the switches
 * give.
 *
 * Links come in two tiers: host links at the scenario's `rate` and
 * `delay`, switch-to-switch links at fabric_rate and fabric_delay (the
 * hosts' when unset).  A leaf-spine's oversubscription N sets its
 * uplinks' speed so that a leaf's uplinks carry 1/N of its hosts'
 * capacity: hosts x rate / (spines x N).
 *
 * The fat tree is Al-Fares et al.'s (SIGCOMM 2008), as HPCC's ns-3
 * fat-tree topology builds it: k pods of k/2 edge and k/2 aggregation
 * switches, (k/2)^2 cores, k/2 hosts per edge switch, k^3/4 hosts.  Edge
 * switch e of pod p connects to every aggregation switch of its pod;
 * aggregation switch a to cores a*k/2 .. a*k/2 + k/2 - 1; core c to
 * aggregation switch c / (k/2) of every pod.  Up is ECMP over all
 * uplinks, down the one path.  Each tier hashes different bits of the
 * flow's ECMP value (struct sw's ecmp_shift): with the same bits at edge
 * and aggregation, a flow's agg choice would fix its core choice and
 * half the cores would carry nothing (hash polarisation).
 */
#include <stdlib.h>

#include "sim_int.h"

uint32_t sim_fabric_ppb(const struct sim_cfg *c)
{
	uint64_t num, den;

	if (c->oversub && c->topo != SIM_TOPO_FATTREE) {
		/* ps per byte = 8000 / (H rate / (S N)) */
		num = 8000ull * c->spines * c->oversub;
		den = (uint64_t)c->hosts_per_leaf * c->rate_gbps;
		return num % den ? 0 : (uint32_t)(num / den);
	}
	return 8000 / (c->fabric_gbps ? c->fabric_gbps : c->rate_gbps);
}

static int64_t fabric_delay(const struct sim_cfg *c)
{
	return c->fabric_delay_ps ? c->fabric_delay_ps : c->delay_ps;
}

static int alloc_hosts(struct sim *s, uint32_t n, uint32_t nsw)
{
	s->hosts = calloc(n, sizeof(*s->hosts));
	s->sws = calloc(nsw, sizeof(*s->sws));
	if (!s->hosts || !s->sws)
		return -1;
	s->nhosts = n;
	s->nsw = nsw;
	return 0;
}

static void add_host(struct sim *s, uint32_t h)
{
	uint32_t ni = sim_add_node(s, false, 1);

	s->nodes[ni].idx = h;
	s->hosts[h].node = ni;
	s->hosts[h].port = s->nodes[ni].port0;
}

static int add_switch(struct sim *s, uint32_t w, uint32_t nports)
{
	uint32_t ni = sim_add_node(s, true, nports);

	s->nodes[ni].idx = w;
	s->sws[w].node = ni;
	s->sws[w].routes = calloc(s->nhosts, sizeof(struct route));
	return s->sws[w].routes ? 0 : -1;
}

static uint32_t port0(const struct sim *s, uint32_t w)
{
	return s->nodes[s->sws[w].node].port0;
}

/* A link of ppb ps per byte (sim_link takes Gb/s: an oversubscribed
 * uplink's speed need not be whole). */
static void link_ppb(struct sim *s, uint32_t pa, uint32_t pb, uint32_t ppb,
		     int64_t delay)
{
	s->ports[pa].peer = pb;
	s->ports[pb].peer = pa;
	s->ports[pa].ppb = s->ports[pb].ppb = ppb;
	s->ports[pa].delay = s->ports[pb].delay = delay;
}

static void host_link(struct sim *s, uint32_t h, uint32_t swport)
{
	sim_link(s, s->hosts[h].port, swport, s->cfg.rate_gbps,
		 s->cfg.delay_ps);
}

static void route(struct sim *s, uint32_t w, uint32_t dst, uint32_t first,
		  uint32_t count)
{
	s->sws[w].routes[dst].first = first;
	s->sws[w].routes[dst].count = count;
}

/* The longest idle path, for the summary when no flow runs: from the
 * first host to the last, the farthest apart in every topology here. */
static void base_rtt(struct sim *s)
{
	s->base_rtt_ns = (double)sim_topo_path_rtt(s, 0, s->nhosts - 1) /
			 PS_PER_NS;
}

int sim_topo_star(struct sim *s, uint32_t n)
{
	uint32_t i, p0;

	if (alloc_hosts(s, n, 1))
		return -1;
	for (i = 0; i < n; i++)
		add_host(s, i);
	if (add_switch(s, 0, n))
		return -1;
	p0 = port0(s, 0);
	for (i = 0; i < n; i++) {
		host_link(s, i, p0 + i);
		route(s, 0, i, p0 + i, 1);
	}
	base_rtt(s);
	return 0;
}

/* The leaf and leaf port of host (NIC) h.  Leaf-spine: hosts in order,
 * `hosts` a leaf.  Rail-optimised (AI clusters: a server's R NICs each
 * on the leaf of its rail): host h is NIC h % R of server h / R, a
 * server's NICs consecutive; the servers come in groups of `hosts`, and
 * group g's rail j has leaf g * R + j, the server's place in its group
 * the port.
 */
static void leaf_of(const struct sim_cfg *c, uint32_t h, uint32_t *leaf,
		    uint32_t *port)
{
	uint32_t H = c->hosts_per_leaf, R = c->rails, server = h / R;

	if (c->topo != SIM_TOPO_RAIL) {
		*leaf = h / H;
		*port = h % H;
		return;
	}
	*leaf = server / H * R + h % R;
	*port = server % H;
}

/* Leaves with `hosts` host ports then `spines` uplinks; spines with one
 * port per leaf.  Up: ECMP over the uplinks; down: the one path.  The
 * hosts hang off the leaves as leaf_of says.
 */
static int build_leaf_spine(struct sim *s)
{
	const struct sim_cfg *c = &s->cfg;
	uint32_t L = c->leaves, S = c->spines, H = c->hosts_per_leaf;
	uint32_t l, sp, h, n = L * H, ppb = sim_fabric_ppb(c), hl, hp;

	if (alloc_hosts(s, n, L + S))
		return -1;
	for (h = 0; h < n; h++)
		add_host(s, h);
	for (l = 0; l < L; l++)
		if (add_switch(s, l, H + S))
			return -1;
	for (sp = 0; sp < S; sp++)
		if (add_switch(s, L + sp, L))
			return -1;
	for (h = 0; h < n; h++) {
		leaf_of(c, h, &hl, &hp);
		host_link(s, h, port0(s, hl) + hp);
	}
	for (l = 0; l < L; l++) {
		uint32_t lp0 = port0(s, l);

		for (sp = 0; sp < S; sp++)
			link_ppb(s, lp0 + H + sp, port0(s, L + sp) + l, ppb,
				 fabric_delay(c));
		for (h = 0; h < n; h++) {
			leaf_of(c, h, &hl, &hp);
			if (hl == l)
				route(s, l, h, lp0 + hp, 1);
			else
				route(s, l, h, lp0 + H, S);
		}
	}
	for (sp = 0; sp < S; sp++)
		for (h = 0; h < n; h++) {
			leaf_of(c, h, &hl, &hp);
			route(s, L + sp, h, port0(s, L + sp) + hl, 1);
		}
	base_rtt(s);
	return 0;
}

/* The k-ary fat tree (head comment).  Switch indexes: edges first (pod
 * p's edge e is p*k/2 + e), then aggregation switches the same way, then
 * cores; host (p*k/2 + e)*k/2 + i hangs off edge e's port i.
 */
static int build_fat_tree(struct sim *s)
{
	const struct sim_cfg *c = &s->cfg;
	uint32_t k = c->k, h = k / 2, E = k * h, C = h * h, n = k * h * h;
	uint32_t ppb = sim_fabric_ppb(c), p, e, a, i, d, w;
	int64_t fd = fabric_delay(c);

	if (alloc_hosts(s, n, 2 * E + C))
		return -1;
	for (d = 0; d < n; d++)
		add_host(s, d);
	for (w = 0; w < 2 * E + C; w++)
		if (add_switch(s, w, k))
			return -1;
	for (p = 0; p < k; p++) {
		for (e = 0; e < h; e++) {
			uint32_t ew = p * h + e;

			for (i = 0; i < h; i++)
				host_link(s, ew * h + i, port0(s, ew) + i);
			for (a = 0; a < h; a++)
				link_ppb(s, port0(s, ew) + h + a,
					 port0(s, E + p * h + a) + e, ppb, fd);
		}
		for (a = 0; a < h; a++) {
			uint32_t aw = E + p * h + a;

			s->sws[aw].ecmp_shift = 16;
			for (i = 0; i < h; i++)
				link_ppb(s, port0(s, aw) + h + i,
					 port0(s, 2 * E + a * h + i) + p, ppb,
					 fd);
		}
	}
	for (d = 0; d < n; d++) {
		uint32_t dp = d / (h * h), de = d / h;

		for (w = 0; w < E; w++)		/* edges */
			if (w == de)
				route(s, w, d, port0(s, w) + d % h, 1);
			else
				route(s, w, d, port0(s, w) + h, h);
		for (w = E; w < 2 * E; w++)	/* aggregation */
			if ((w - E) / h == dp)
				route(s, w, d, port0(s, w) + de % h, 1);
			else
				route(s, w, d, port0(s, w) + h, h);
		for (w = 2 * E; w < 2 * E + C; w++)	/* cores */
			route(s, w, d, port0(s, w) + dp, 1);
	}
	base_rtt(s);
	return 0;
}

int sim_topo_fabric(struct sim *s)
{
	return s->cfg.topo == SIM_TOPO_FATTREE ? build_fat_tree(s) :
						 build_leaf_spine(s);
}

/* The idle-path RTT of a probe from host src to dst and back, on the
 * route the switches give (every ECMP choice is as long): 64 bytes each
 * way, store and forward at every hop, each link at its own speed and
 * delay.
 */
int64_t sim_topo_path_rtt(const struct sim *s, uint32_t src, uint32_t dst)
{
	uint32_t p = s->hosts[src].port, hops;
	int64_t rtt = 0;

	for (hops = 0; hops < 16; hops++) {
		const struct port *l = &s->ports[p];
		const struct port *q = &s->ports[l->peer];

		rtt += 2 * (CTRL_BYTES * (int64_t)l->ppb + l->delay);
		if (!q->is_switch)
			break;
		/* owner is not set yet while the scenario builds */
		p = s->sws[s->nodes[q->node].idx].routes[dst].first;
	}
	return rtt;
}

uint32_t sim_topo_path_ppb(const struct sim *s, uint32_t src, uint32_t dst)
{
	uint32_t p = s->hosts[src].port, hops, ppb = 0;

	for (hops = 0; hops < 16; hops++) {
		const struct port *l = &s->ports[p];
		const struct port *q = &s->ports[l->peer];

		ppb = l->ppb > ppb ? l->ppb : ppb;
		if (!q->is_switch)
			break;
		p = s->sws[s->nodes[q->node].idx].routes[dst].first;
	}
	return ppb;
}
