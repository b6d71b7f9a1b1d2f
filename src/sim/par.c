/* par.c - two threads, one run (issue 34 item 7; tests/tools/par-study.md).
 *
 * A conservative parallel engine: the fabric is built twice from the
 * same scenario and seed, one replica a thread.  The cut: hosts and
 * leaves (edges and aggregation switches of a fat tree: pods) by halves,
 * spines (cores) by halves; each replica runs only the events of the
 * objects of its half (ports, their hosts, the QPs those hosts send
 * from; par_owns).  Both run every workload generator alike (one RNG
 * stream, one QP numbering); a QP starts in its sender's replica.  A
 * packet or PFC frame leaving for a port of the other half is mailed
 * (fabric.c: port_tx_inl, pfc_frame) and handed over at the end of its
 * window: windows of L - 1 ps, L the least delay of a link across the
 * cut, so nothing mailed is due before the window after.  The order of
 * events is intrinsic (time, type, object: sim_int.h), so each replica
 * runs its events in the order one thread would, and the run is one
 * thread's, to the byte.
 *
 * After each step the second replica's share folds into the first (the
 * device's fabric): its ports, hosts and the QP halves it owns copied
 * over, its counts and lists moved.  The first then reports as after a
 * one-thread run.  When the run is over (sim_par_finish) the rest of
 * the second half joins it (fabric.c, sim_par_join: its packets, queued
 * and in flight, its pending events, switch buffers, the hosts' QPs
 * with work, its armed timers) and the second replica is freed: later
 * runs go on with one thread as from a one-thread run (test_simpar.c,
 * tests/e2e/par.sh).  A two-thread run from a fabric that has run
 * splits it (sim_par_split): the second replica, built fresh, takes the
 * first's state, and each keeps its half.
 *
 * The packets handed over at a window's end go to lanes of their own
 * (sim_int.h, MAIL_LANES) and take their slots from a stack (s->pfree):
 * through the timing wheel, each slot found by a walk down the free
 * list, they made the two threads' CPU 1.5x one thread's, not 1.1x
 * (tests/tools/par-study.md).
 *
 * The event count is one thread's: the generators (EV_FLOW_GEN), which
 * run in both, are counted once, and so is a timer scan at a tick where
 * both replicas had one (scan_bits).  Where a run may differ from one
 * thread's: the watchdog looks at window ends (a stall is found up to
 * two windows late), an interrupt stops at a window's end, the RTOs of
 * a step are listed the first replica's first (a multiset: the retx
 * histogram is the same), and pfc_lag_max reads the Xoff time the
 * latest crossing pause frame carried (it differs only when a port
 * sends two Xoffs within a window; nothing reports it).
 */
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sim_int.h"

/* What one replica writes, per window parity: its mail, its latest data
 * departure, its watchdog's finding.  A cache line or more of its own:
 * the other thread reads it only after a barrier (a box's count, written
 * at every crossing, would otherwise bounce between the cores). */
struct par_side {
	struct par_box box[2];
	int64_t lt[2];
	bool stall[2];
} __attribute__((aligned(64)));

struct par {
	struct par_side side[2];
	/* the barrier, on a line of its own */
	_Atomic uint32_t arrived __attribute__((aligned(64)));
	_Atomic uint32_t gen, sleepers;
	struct sim *r[2] __attribute__((aligned(64)));
	uint8_t *part;
	int64_t lookahead;
	/* the second replica's thread, from par_setup to par_release: a
	 * step each time both meet at a step's start, until leave */
	pthread_t th;
	bool leave;
	/* the run in progress: its end, the interrupt per window parity */
	int64_t end;
	volatile sig_atomic_t *stop;
	bool quit[2];
	int rc[2];
	/* the second replica's share already folded into the first */
	uint64_t ev_folded, shared_folded;
	bool finished;
};

static void par_release(struct sim *s);
static void *par_thread(void *arg);
static void par_thread_stop(struct par *P);

/* ---- the cut ------------------------------------------------------------ */

/* The half of switch w: leaf-spine's leaves and spines, a fat tree's
 * pods and cores, each by halves. */
static uint8_t switch_half(const struct sim_cfg *c, uint32_t w)
{
	if (c->topo == SIM_TOPO_LEAFSPINE) {
		if (w < c->leaves)
			return w >= c->leaves / 2;
		return w - c->leaves >= c->spines / 2;
	}
	{
		uint32_t h = c->k / 2, e = c->k * h, cores = h * h;

		if (w < 2 * e)		/* edges, then aggregation: by pod */
			return (w % e) / h >= c->k / 2;
		return w - 2 * e >= cores / 2;
	}
}

/* Why s cannot run with two threads, in err; 0 when it can. */
static int par_refuse(const struct sim *s, struct pcb_err *err)
{
	const struct sim_cfg *c = &s->cfg;

	if (!sim_kind_fabric(c->kind) || c->kind == SIM_ALLREDUCE ||
	    c->kind == SIM_ALLTOALL)
		return pcb_error(err, PCB_E_INVAL, "sim: threads 2 runs a "
				 "permutation or mix only (this is %s)",
				 sim_kind_name(c->kind));
	if (c->topo == SIM_TOPO_RAIL || (c->topo == SIM_TOPO_LEAFSPINE &&
					 (c->leaves < 2 || c->spines < 2)))
		return pcb_error(err, PCB_E_INVAL, "sim: threads 2 needs a "
				 "leaf-spine of 2 leaves and 2 spines or more, "
				 "or a fat tree");
	if (s->c1)
		return pcb_error(err, PCB_E_INVAL, "sim: threads 2 runs one "
				 "data priority (incast_prio is another)");
	if (s->tap || s->tr_every)
		return pcb_error(err, PCB_E_INVAL, "sim: threads 2 writes no "
				 "trace, tap, pcap or flows output");
	return 0;
}

int sim_par_done(const struct sim *s, struct pcb_err *err)
{
	if (s->par && s->par->finished)
		return pcb_error(err, PCB_E_STATE, "sim: this fabric ran with "
				 "threads 2 and its halves could not join (out of "
				 "memory): sim reset (or sim scenario ...) for a "
				 "new run");
	return 0;
}

int sim_par_check(const struct sim *s, struct pcb_err *err)
{
	if (s->par && s->par->finished)
		return sim_par_done(s, err);
	if (s->par)
		return 0;
	return par_refuse(s, err);
}

/* The second replica, the cut, the mailboxes. */
static int par_setup(struct sim *s, struct pcb_err *err)
{
	struct par *P;
	struct sim *r = NULL;
	sigset_t all, mask;
	uint32_t i;
	int64_t L = INT64_MAX;
	int rc;

	if (s->par)
		return 0;
	rc = par_refuse(s, err);
	if (rc)
		return rc;
	P = aligned_alloc(64, sizeof(*P));
	if (P)
		memset(P, 0, sizeof(*P));
	if (!P)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	P->part = calloc(s->nports, 1);
	if (!P->part) {
		rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
		goto free_par;
	}
	rc = sim_fabric_create(&r, &s->cfg, &s->algo, s->src, err);
	if (rc)
		goto free_par;
	/* the NICs with params of their own */
	for (i = 0; s->hconf && i < s->nhosts; i++)
		if (s->hconf[i] &&
		    sim_host_params(r, i, s->hconf[i]->conf.params,
				    s->hconf[i]->own)) {
			rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
			goto free_replica;
		}
	for (i = 0; i < s->nports; i++) {
		const struct port *p = &s->ports[i];
		/* a host's port: its switch's half */
		const struct port *at = s->nodes[p->node].is_switch ? p :
					&s->ports[p->peer];

		P->part[i] = switch_half(&s->cfg, s->nodes[at->node].idx);
	}
	for (i = 0; i < s->nports; i++)
		if (P->part[i] != P->part[s->ports[i].peer] &&
		    s->ports[i].delay < L)
			L = s->ports[i].delay;
	if (L == INT64_MAX || L < 2) {
		rc = pcb_error(err, PCB_E_INVAL, "sim: threads 2: no link "
			       "delay across the fabric's halves to look "
			       "ahead by");
		goto free_replica;
	}
	P->lookahead = L;
	P->r[0] = s;
	P->r[1] = r;
	/* the thread before anything of s changes: without one (out of
	 * memory for its stack), s is left as it was; it takes no signal
	 * (a SIGINT is the REPL's, whose thread polls for it) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &mask);
	rc = pthread_create(&P->th, NULL, par_thread, P);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	if (rc) {
		rc = pcb_error(err, PCB_E_NOMEM, "sim: threads 2: cannot "
			       "start a thread");
		goto free_replica;
	}
	s->part = r->part = P->part;
	s->me = 0;
	r->me = 1;
	/* a fresh fabric: the flows the scenario built start in their
	 * sender's half only (the replica's pruned first: a prune out of
	 * memory changes nothing, and s is left whole if r's fails); one
	 * that has run: the second takes its state, and each keeps its
	 * half */
	if (s->now || s->events ? sim_par_split(s, r) :
	    sim_par_prune(r) || sim_par_prune(s)) {
		s->part = NULL;
		rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
		goto stop_thread;
	}
	s->par = r->par = P;
	s->peer = r;
	s->par_release = par_release;
	return 0;

stop_thread:
	par_thread_stop(P);
free_replica:
	sim_free(r);
free_par:
	free(P->part);
	free(P);
	return rc;
}

/* ---- the run ------------------------------------------------------------ */

static void par_wait(_Atomic uint32_t *a, uint32_t v)
{
	syscall(SYS_futex, a, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}

/* Both threads meet: a short spin, then the futex. */
static void par_barrier(struct par *P)
{
	uint32_t g = atomic_load(&P->gen);
	unsigned i;

	if (atomic_fetch_add(&P->arrived, 1) == 1) {
		atomic_store(&P->arrived, 0);
		atomic_store(&P->gen, g + 1);
		if (atomic_load(&P->sleepers))
			syscall(SYS_futex, &P->gen, FUTEX_WAKE_PRIVATE, 1,
				NULL, NULL, 0);
		return;
	}
	for (i = 0; i < 4000; i++) {
		if (atomic_load_explicit(&P->gen, memory_order_acquire) != g)
			return;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	}
	atomic_fetch_add(&P->sleepers, 1);
	while (atomic_load(&P->gen) == g)
		par_wait(&P->gen, g);
	atomic_fetch_sub(&P->sleepers, 1);
}

/* Replica me's windows to the run's end. */
static int par_loop(struct par *P, unsigned me)
{
	struct sim *s = P->r[me];
	int64_t lo = s->now;
	unsigned k = 0;

	for (;;) {
		int64_t hi = P->end - lo < P->lookahead ? P->end :
			     lo + P->lookahead - 1;
		unsigned b = k & 1;
		bool quit, stalled;

		s->out = &P->side[me].box[b];
		sim_par_window(s, hi);
		P->side[me].lt[b] = s->last_tx;
		if (me == 0)
			P->quit[b] = P->stop && *P->stop;
		par_barrier(P);
		sim_par_deliver(s, &P->side[!me].box[b]);
		P->side[!me].box[b].n = 0;
		quit = P->quit[b];
		stalled = P->side[0].stall[b] || P->side[1].stall[b];
		s->last_tx = P->side[0].lt[b] > P->side[1].lt[b] ?
			     P->side[0].lt[b] : P->side[1].lt[b];
		/* the watchdog, on the fabric as it stands at hi: read at the
		 * next window's end */
		P->side[me].stall[!b] = sim_stalled(s);
		if (quit)
			return -PCB_E_INTR;
		if (stalled)
			return -PCB_E_DEVICE;
		if (hi == P->end)
			break;
		lo = hi + 1;
		k++;
	}
	par_barrier(P);
	return P->side[0].stall[!(k & 1)] || P->side[1].stall[!(k & 1)] ?
	       -PCB_E_DEVICE : 0;
}

/* The second replica's steps: each begins when both meet (sim_run_par)
 * and ends when both meet again, so that the first reads the second
 * only while this thread waits; par_thread_stop ends it. */
static void *par_thread(void *arg)
{
	struct par *P = arg;

	for (;;) {
		par_barrier(P);
		if (P->leave)
			return NULL;
		P->rc[1] = par_loop(P, 1);
		par_barrier(P);
	}
}

static void par_thread_stop(struct par *P)
{
	P->leave = true;
	par_barrier(P);
	pthread_join(P->th, NULL);
}

/* The second replica's share into the first (the head comment). */
static void par_fold(struct par *P)
{
	struct sim *s = P->r[0], *r = P->r[1];
	uint64_t *a = (uint64_t *)&s->c, *b = (uint64_t *)&r->c;
	uint32_t i, w;
	size_t j, nc = s->algo.desc ? s->algo.desc->ncounters : 0;

	_Static_assert(sizeof(s->c) % sizeof(uint64_t) == 0,
		       "sim_port_counters: all uint64_t");
	for (j = 0; j < sizeof(s->c) / sizeof(uint64_t); j++) {
		a[j] += b[j];
		b[j] = 0;
	}
	for (i = 0; i < s->nports; i++) {
		struct port *p = &s->ports[i];
		uint64_t *qn = p->q_n;

		if (P->part[i] != 1)
			continue;
		*p = r->ports[i];
		p->q_n = qn;
		if (qn && p->qs.vmax)
			memcpy(qn, r->ports[i].q_n, lhist_used(p->qs.vmax) *
			       sizeof(*qn));
	}
	for (i = 0; i < s->nhosts; i++) {
		struct host *h = &s->hosts[i], *o = &r->hosts[i];
		size_t c;

		if (P->part[h->port] != 1)
			continue;
		h->nc = o->nc;
		h->wake_at = o->wake_at;
		h->gen_next = o->gen_next;
		for (c = 0; c < ALGO_MAX_COUNTERS; c++) {
			uint32_t *v = &h->ap.counters[c], u = o->ap.counters[c];
			enum algo_ckind kd = c < nc ? s->algo.desc->counters[c].kind :
					     ALGO_CK_SUM;

			if (!u)
				continue;
			if (kd == ALGO_CK_SUM)
				*v += u;
			else if (!*v || (kd == ALGO_CK_MAX ? u > *v : u < *v))
				*v = u;
			o->ap.counters[c] = 0;
		}
	}
	for (i = 0; i < s->nqps && i < r->nqps; i++) {
		struct qp *q = &s->qps[i], *o = &r->qps[i], rx = *q;
		bool src1 = P->part[s->hosts[q->src].port] == 1;
		bool dst1 = P->part[s->hosts[q->dst].port] == 1;

		if (src1) {
			*q = *o;
			memcpy(qp_state(s, i), qp_state(r, i), s->stride);
		}
		if (src1 != dst1) {
			const struct qp *from = dst1 ? o : &rx;

			q->rcv_nxt = from->rcv_nxt;
			q->since_ack = from->since_ack;
			q->dups = from->dups;
			q->nack_sent = from->nack_sent;
			q->last_cnp = from->last_cnp;
			q->win_bytes = from->win_bytes;
		}
	}
	/* the probe RTTs: integer ps, whose sum is exact in any order */
	if (r->rtt.total) {
		if (!s->rtt.total || r->rtt.min < s->rtt.min)
			s->rtt.min = r->rtt.min;
		if (r->rtt.max > s->rtt.max)
			s->rtt.max = r->rtt.max;
		for (w = 0; w < lhist_used(r->rtt.max); w++)
			s->rtt.n[w] += r->rtt.n[w];
		s->rtt.total += r->rtt.total;
		s->rtt.sum += r->rtt.sum;
		lhist_clear(&r->rtt);
	}
	s->rtt_base_sum += r->rtt_base_sum;
	s->rtt_late += r->rtt_late;
	s->probes_lost += r->probes_lost;
	s->pause_events += r->pause_events;
	s->rx_payload += r->rx_payload;
	r->rtt_base_sum = 0;
	r->rtt_late = r->probes_lost = r->pause_events = r->rx_payload = 0;
	if (r->pfc_lag_max > s->pfc_lag_max)
		s->pfc_lag_max = r->pfc_lag_max;
	/* lists: appended (report.c and flows.c sort the FCTs) */
	for (j = 0; j < r->nrto; j++) {
		if (s->nrto == s->caprto) {
			uint32_t cap = (uint32_t)s->caprto, ch = s->caprto_host;

			if (sim_grow((void **)&s->rto_vals, sizeof(*s->rto_vals),
				     &cap, (uint32_t)s->nrto + 1) ||
			    sim_grow((void **)&s->rto_host, sizeof(*s->rto_host),
				     &ch, (uint32_t)s->nrto + 1))
				abort();
			s->caprto = cap;
			s->caprto_host = ch;
		}
		s->rto_vals[s->nrto] = r->rto_vals[j];
		s->rto_host[s->nrto++] = r->rto_host[j];
	}
	r->nrto = 0;
	for (j = 0; j < r->nfct; j++) {
		if (s->nfct == s->capfct) {
			uint32_t cap = (uint32_t)s->capfct;

			if (sim_grow((void **)&s->fct, sizeof(*s->fct), &cap,
				     (uint32_t)s->nfct + 1))
				abort();
			s->capfct = cap;
		}
		s->fct[s->nfct++] = r->fct[j];
	}
	r->nfct = 0;
	/* events: the generators' once; a tick's scan once */
	s->events += r->events - P->ev_folded;
	P->ev_folded = r->events;
	s->events -= r->ev_shared - P->shared_folded;
	P->shared_folded = r->ev_shared;
	if (s->last_tx < r->last_tx)
		s->last_tx = r->last_tx;
	if (s->mem_peak < r->mem_peak)
		s->mem_peak = r->mem_peak;
}

/* The scan ticks both ran, counted once: subtracted at the end. */
static uint64_t par_scan_dups(const struct sim *s, const struct sim *r)
{
	uint64_t n = 0;
	uint32_t w;

	for (w = 0; w < s->capscan && w < r->capscan; w++)
		n += (uint64_t)__builtin_popcountll(s->scan_bits[w] &
						    r->scan_bits[w]);
	return n;
}

int sim_run_par(struct sim *s, int64_t dur_ps, bool fresh,
		volatile sig_atomic_t *stop, struct pcb_err *err)
{
	struct par *P;
	uint64_t dups0;
	int rc;

	if (s->par && s->par->finished)
		return sim_par_check(s, err);
	rc = par_setup(s, err);
	if (rc)
		return rc;
	P = s->par;
	dups0 = par_scan_dups(s, P->r[1]);
	if (fresh) {
		sim_window_reset(s);
		sim_window_reset(P->r[1]);
	}
	P->end = s->now + dur_ps;
	P->stop = stop;
	par_barrier(P);		/* the step begins ... */
	P->rc[0] = par_loop(P, 0);
	par_barrier(P);		/* ... and ends: r is still */
	par_fold(P);
	s->events -= par_scan_dups(s, P->r[1]) - dups0;
	return P->rc[0] ? P->rc[0] : P->rc[1];
}

/* A two-thread run is over: the second replica's half joins the first
 * (sim_par_join), which runs on alone; out of memory, the fabric keeps
 * its report and runs no more. */
void sim_par_finish(struct sim *s)
{
	if (!s->par)
		return;
	if (sim_par_join(s, s->par->r[1])) {
		s->par->finished = true;
		return;
	}
	par_release(s);
}

/* sim_free's: the second replica and the run's state (s->par_release) */
static void par_release(struct sim *s)
{
	struct par *P = s->par;
	unsigned i, j;

	if (!P || s->me)
		return;
	par_thread_stop(P);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			free(P->side[i].box[j].m);
	P->r[1]->par = NULL;
	s->peer = NULL;
	sim_free(P->r[1]);
	free(P->part);
	free(P);
	s->par = NULL;
	s->part = NULL;
	s->par_release = NULL;
	s->out = NULL;
}
