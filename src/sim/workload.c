/* workload.c - the mix's traffic: flow sizes from the WebSearch and
 * FB Hadoop CDFs, Poisson arrivals at a load of the host links, long
 * background flows, and a periodic incast on top.
 */
#include <math.h>
#include <stdlib.h>

#include "sim_int.h"

/* Flow size CDFs (cc-sim.md 1.1, dcqcn-pfc.md 2.7): bytes -> percent of
 * flows at or below, from (0, 0) as HPCC's files start.
 */
static const uint64_t ws_size[] = { 0, 10000, 20000, 30000, 50000, 80000,
				    200000, 1000000, 2000000, 5000000,
				    10000000, 30000000 };
static const uint32_t ws_pct[] = { 0, 15, 20, 30, 40, 53, 60, 70, 80, 90,
				   97, 100 };
static const uint64_t hd_size[] = { 0, 100, 200, 300, 350, 400, 500, 600,
				    700, 1000, 2000, 7000, 30000, 50000,
				    80000, 120000, 300000, 1000000, 2000000,
				    10000000 };
static const uint32_t hd_pct[] = { 0, 10, 20, 50, 150, 200, 300, 400, 500,
				   600, 670, 700, 720, 820, 870, 900, 950,
				   975, 990, 1000 };	/* per mille */

static double rand01(struct sim *s)
{
	return (double)(sim_rand(s) >> 11) / 9007199254740992.0;
}

/* Inverse CDF with linear interpolation; at least one byte (a flow of
 * size 0 would be a long-lived one).
 */
uint64_t sim_draw_size(struct sim *s)
{
	double u = rand01(s) * (double)s->cdf_pct[s->cdf_n - 1];
	uint64_t v = s->cdf_size[s->cdf_n - 1];
	size_t i;

	for (i = 1; i < s->cdf_n; i++)
		if (u <= s->cdf_pct[i]) {
			double f = (u - s->cdf_pct[i - 1]) /
				   (s->cdf_pct[i] - s->cdf_pct[i - 1]);

			v = s->cdf_size[i - 1] + (uint64_t)(f *
				(double)(s->cdf_size[i] - s->cdf_size[i - 1]));
			break;
		}
	return v ? v : 1;
}

static double cdf_mean(const struct sim *s)
{
	double m = s->cdf_size[0] * (double)s->cdf_pct[0];
	size_t i;

	for (i = 1; i < s->cdf_n; i++)
		m += (s->cdf_size[i] + s->cdf_size[i - 1]) / 2.0 *
		     (s->cdf_pct[i] - s->cdf_pct[i - 1]);
	return m / s->cdf_pct[s->cdf_n - 1];
}

static int64_t next_arrival(struct sim *s)
{
	/* Poisson at `load` of the host link */
	double bytes_per_ps = s->cfg.load / 100.0 / (double)s->line_ppb;
	double mean_ps = s->mean_size / bytes_per_ps;

	return (int64_t)(-log(1.0 - rand01(s)) * mean_ps) + 1;
}

static uint32_t other_host(struct sim *s, uint32_t h)
{
	uint32_t d = (uint32_t)(sim_rand(s) % (s->nhosts - 1));

	return d >= h ? d + 1 : d;
}

/* The periodic incast over a mix (HPCC's Fig. 11 adds 60 x 500 KB
 * incasts to its WebSearch load): every incast_period, a receiver drawn
 * at random and incast_senders other hosts, distinct, drawn at random
 * (a partial shuffle), each sending incast_size bytes to it at once.
 */
static void incast_gen(struct sim *s)
{
	uint32_t n = s->nhosts, dst = (uint32_t)(sim_rand(s) % n), i;
	uint32_t *h = malloc(n * sizeof(*h));

	if (h) {
		for (i = 0; i < n; i++)
			h[i] = i;
		h[dst] = n - 1;		/* the receiver out: n - 1 left */
		for (i = 0; i < s->cfg.incast_senders; i++) {
			uint32_t j = i + (uint32_t)(sim_rand(s) %
						    (n - 1 - i)), t, qi;

			t = h[i];
			h[i] = h[j];
			h[j] = t;
			qi = sim_add_qp(s, h[i], dst, s->cfg.incast_size,
					s->now, 0);
			/* on its own priority, when it has one */
			s->qps[qi].cls = s->c1 != NULL;
		}
		free(h);
	}
	sim_schedule(s, s->now + s->cfg.incast_period_ps, EV_FLOW_GEN, n);
}

/* EV_FLOW_GEN: host h's next flow; h = nhosts, the periodic incast. */
void sim_flow_gen(struct sim *s, uint32_t h)
{
	uint64_t size;
	uint32_t dst;

	if (h == s->nhosts) {
		incast_gen(s);
		return;
	}
	/* one draw after the other: the order of a call's arguments is
	 * the compiler's choice (gcc and clang differ) */
	size = sim_draw_size(s);
	dst = other_host(s, h);
	sim_add_qp(s, h, dst, size, s->now, 0);
	sim_schedule(s, s->now + next_arrival(s), EV_FLOW_GEN, h);
}

void sim_mix_start(struct sim *s)
{
	const struct sim_cfg *c = &s->cfg;
	uint32_t i;

	s->cdf_size = c->dist ? hd_size : ws_size;
	s->cdf_pct = c->dist ? hd_pct : ws_pct;
	s->cdf_n = c->dist ? sizeof(hd_size) / sizeof(hd_size[0]) :
			     sizeof(ws_size) / sizeof(ws_size[0]);
	s->mean_size = cdf_mean(s);
	for (i = 0; i < c->longflows; i++) {
		uint32_t src = (uint32_t)(sim_rand(s) % s->nhosts);

		sim_add_qp(s, src, other_host(s, src), 0, 0, 0);
	}
	for (i = 0; i < s->nhosts; i++)
		sim_schedule(s, next_arrival(s), EV_FLOW_GEN, i);
	if (c->incast_period_ps)
		sim_schedule(s, c->incast_period_ps, EV_FLOW_GEN, s->nhosts);
}
