/* par-study.c - what a two-thread run of a leaf-spine fabric would face
 * (issue 34 item 7): the one-thread engine runs the scenario, and each
 * event is charged to the half of the fabric that owns its object --
 * hosts and leaves by leaf index halves, spines by halves -- as a
 * conservative engine with windows of the cut's lookahead L (the least
 * delay of a link crossing the cut) would run it.  It prints the events
 * of each half, those both would run (the timer scan, the periodic
 * incast's draw), the packets and PFC frames that cross the cut, the
 * windows and how many carry a crossing, and the bound the halves'
 * balance puts on the speed-up: events / sum over windows of the larger
 * half's events in it.  `barrier N` times N rounds of a two-thread
 * barrier instead (spinning, then pthread_barrier), the cost a window
 * pays once.
 *
 *   par-study [algo NAME] [ms MS] KEY VALUE...   (mix keys)
 *   par-study barrier N
 *
 * The event loop is fabric.c's own, included here for its static
 * dispatch: the counts are those of the engine `sim run` uses.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "sim/fabric.c"
#include "desc.h"

static uint32_t L_leaves, L_spines;

/* The half that owns node ni: hosts by their leaf, switches by index. */
static unsigned node_part(const struct sim *s, uint32_t ni)
{
	const struct node *n = &s->nodes[ni];
	uint32_t w;

	if (!n->is_switch) {
		const struct port *p = &s->ports[n->port0];

		return node_part(s, s->ports[p->peer].node);
	}
	w = n->idx;
	if (w < L_leaves)
		return w >= L_leaves / 2;
	return w - L_leaves >= L_spines / 2;
}

static unsigned port_part(const struct sim *s, uint32_t pi)
{
	return node_part(s, s->ports[pi].node);
}

static unsigned host_part(const struct sim *s, uint32_t h)
{
	return node_part(s, s->hosts[h].node);
}

struct study {
	uint64_t ev[3];		/* half 0, half 1, both */
	uint64_t arrivals, cross_pkts, cross_pfc;
	uint64_t windows, windows_cross, max_cross_w;	/* windows: of L */
	uint64_t busy;		/* sum over windows of the larger half */
	int64_t L;
};

/* The half of an event, 2 for both; *cross: it enters its half from
 * the other one (a packet or a PFC frame on a link across the cut). */
static unsigned ev_part(const struct sim *s, const struct ev *e, bool *cross)
{
	uint32_t id = e->tid & 0xffffff, type = e->tid >> 24;

	*cross = false;
	switch (type) {
	case EV_ARRIVE: {
		uint32_t pi = s->pk[id].port;

		*cross = port_part(s, pi) != port_part(s, s->ports[pi].peer);
		return port_part(s, pi);
	}
	case EV_PFC_PAUSE: case EV_PFC_RESUME:
	case EV_PFC1_PAUSE: case EV_PFC1_RESUME:
		*cross = port_part(s, id) != port_part(s, s->ports[id].peer);
		return port_part(s, id);
	case EV_PORT_FREE: case EV_STORM:
		return port_part(s, id);
	case EV_NIC_WAKE:
		return host_part(s, id);
	case EV_FLOW_GEN:
		return id < s->nhosts ? host_part(s, id) : 2;
	case EV_ALGO_TIMER: case EV_FLOW_START: case EV_FLOW_STOP:
		return host_part(s, s->qps[id].src);
	default:
		return 2;
	}
}

static void study_run(struct sim *s, int64_t dur, struct study *st)
{
	int64_t end = s->now + dur, w = 0;
	uint64_t n[2] = { 0, 0 }, nc = 0;
	struct ev e;

	sim_window_reset(s);
	while (s->now < end) {
		int64_t step_end = end - s->now > EV_STEP ? s->now + EV_STEP :
							     end;

		rebase(s);
		while (ev_pop(s, step_end, &e)) {
			int64_t t = ev_time(s, &e);
			bool cross;
			unsigned p = ev_part(s, &e, &cross);

			if (t / st->L != w) {	/* the window closes */
				st->busy += n[0] > n[1] ? n[0] : n[1];
				st->windows_cross += nc > 0;
				if (nc > st->max_cross_w)
					st->max_cross_w = nc;
				n[0] = n[1] = nc = 0;
				w = t / st->L;
			}
			st->ev[p]++;
			if (p < 2) {
				n[p]++;
			} else {
				n[0]++;
				n[1]++;
			}
			st->arrivals += e.tid >> 24 == EV_ARRIVE;
			if (cross) {
				nc++;
				if (e.tid >> 24 == EV_ARRIVE)
					st->cross_pkts++;
				else
					st->cross_pfc++;
			}
			s->now = t;
			dispatch(s, &e);
			s->events++;
		}
		s->now = step_end;
	}
	st->busy += n[0] > n[1] ? n[0] : n[1];
	st->windows_cross += nc > 0;
	st->windows = (uint64_t)((dur + st->L - 1) / st->L);
}

/* ---- the barrier ------------------------------------------------------ */

static atomic_uint bar_count, bar_sense;
static pthread_barrier_t pbar;
static unsigned long rounds;

static void spin_wait(unsigned *local)
{
	*local ^= 1;
	if (atomic_fetch_add(&bar_count, 1) == 1) {
		atomic_store(&bar_count, 0);
		atomic_store(&bar_sense, *local);
	} else {
		while (atomic_load(&bar_sense) != *local)
			__builtin_ia32_pause();
	}
}

static void *bar_thread(void *arg)
{
	unsigned local = 0;
	unsigned long i;

	for (i = 0; i < rounds; i++)
		spin_wait(&local);
	for (i = 0; i < rounds; i++)
		pthread_barrier_wait(&pbar);
	return arg;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int barrier_study(unsigned long n)
{
	pthread_t th;
	unsigned local = 0;
	unsigned long i;
	double t0, t1, t2;

	rounds = n;
	pthread_barrier_init(&pbar, NULL, 2);
	if (pthread_create(&th, NULL, bar_thread, NULL))
		return 1;
	t0 = now_s();
	for (i = 0; i < n; i++)
		spin_wait(&local);
	t1 = now_s();
	for (i = 0; i < n; i++)
		pthread_barrier_wait(&pbar);
	t2 = now_s();
	pthread_join(th, NULL);
	printf("barrier: %lu rounds; spinning %.0f ns a round, "
	       "pthread_barrier %.0f ns a round\n", n,
	       (t1 - t0) / (double)n * 1e9, (t2 - t1) / (double)n * 1e9);
	return 0;
}

int main(int argc, char **argv)
{
	struct pcb_err err = { 0 };
	struct algo_desc *desc = NULL;
	const char *algo = "ztr_rtt";
	struct study st = { 0 };
	struct sim_algo a;
	struct sim_cfg c;
	struct sim *s = NULL;
	double ms = 2, tot;
	uint32_t i;
	int k;

	if (argc == 3 && !strcmp(argv[1], "barrier"))
		return barrier_study(strtoul(argv[2], NULL, 10));
	sim_cfg_default(&c);
	c.kind = SIM_MIX;
	for (k = 1; k + 1 < argc; k += 2) {
		if (!strcmp(argv[k], "algo"))
			algo = argv[k + 1];
		else if (!strcmp(argv[k], "ms"))
			ms = strtod(argv[k + 1], NULL);
		else if (sim_cfg_set(&c, argv[k], argv[k + 1], &err))
			break;
	}
	if (!(ms > 0 && ms <= 1000)) {
		fprintf(stderr, "par-study: ms: a duration in (0, 1000]\n");
		return 2;
	}
	if (k < argc || sim_cfg_check(&c, &err) ||
	    c.topo != SIM_TOPO_LEAFSPINE) {
		fprintf(stderr, "par-study: %s\n", err.msg[0] ? err.msg :
			"KEY VALUE pairs of a leaf-spine mix");
		return 2;
	}
	memset(&a, 0, sizeof(a));
	if (algo_desc_load(&desc, algo, &err)) {
		fprintf(stderr, "par-study: %s\n", err.msg);
		return 2;
	}
	a.desc = desc;
	a.ops = algo_find(algo);
	algo_conf_init(&a.conf, a.ops, a.desc);
	a.counters_on = true;
	if (sim_create(&s, &c, &a, &err)) {
		fprintf(stderr, "par-study: %s\n", err.msg);
		return 2;
	}
	L_leaves = c.leaves;
	L_spines = c.spines;
	st.L = INT64_MAX;
	for (i = 0; i < s->nports; i++)
		if (port_part(s, i) != port_part(s, s->ports[i].peer) &&
		    s->ports[i].delay < st.L)
			st.L = s->ports[i].delay;
	study_run(s, (int64_t)(ms * PS_PER_MS), &st);
	tot = (double)(st.ev[0] + st.ev[1] + st.ev[2]);
	printf("%u hosts, %.3g ms: %.0f events; half 0 %.1f %%, half 1 "
	       "%.1f %%, both %.2f %%\n", s->nhosts, ms, tot,
	       100 * st.ev[0] / tot, 100 * st.ev[1] / tot,
	       100 * st.ev[2] / tot);
	printf("lookahead %.0f ns: %llu windows, %llu (%.1f %%) with a "
	       "crossing, at most %llu crossings in one\n",
	       (double)st.L / PS_PER_NS, (unsigned long long)st.windows,
	       (unsigned long long)st.windows_cross,
	       100.0 * st.windows_cross / (double)st.windows,
	       (unsigned long long)st.max_cross_w);
	printf("crossing the cut: %llu packets (%.1f %% of the arrivals), "
	       "%llu PFC frames; %.1f per window\n",
	       (unsigned long long)st.cross_pkts,
	       100.0 * st.cross_pkts / (double)st.arrivals,
	       (unsigned long long)st.cross_pfc,
	       (double)(st.cross_pkts + st.cross_pfc) / (double)st.windows);
	printf("balance bound on the speed-up: %.3f (events / sum of the "
	       "busier half per window)\n", tot / (double)st.busy);
	sim_free(s);
	algo_desc_free(desc);
	return 0;
}
