/* fabric.c - the event loop: the event queue, ports and their queues,
 * PFC, switches, NICs (the QP send path, probes, timers) and the run.
 *
 * Per hop a packet costs two events: its departure from the port (the
 * port then starts the next one) and its arrival at the peer.  Each port
 * keeps two FIFOs (control before data) and only its head departure is
 * pending.  Pending events wait in a timing wheel (4 ns buckets, 16.8 us
 * ahead: departures, arrivals, NIC wakes) in front of a 4-ary heap (the
 * rest), both ordered by one key, (time, type, id), so the order of
 * events is that of a single heap, and intrinsic: independent of the
 * order they were scheduled in.  Timers (RTO, probe timeout,
 * algorithm timer) are cancelled lazily: an event that finds its deadline
 * moved reschedules or drops.
 *
 * Why these sections share one file: the event loop calls the port, NIC
 * and switch handlers for every event, and keeping them static in one
 * translation unit (built with HOT_CFLAGS, no LTO) lets the compiler
 * inline them into the loop; so does the watchdog's test and the trace
 * clock the loop asks every event (moved out, their calls alone cost the
 * loop 1.3 % more instructions: callgrind, 64:1 incast).  What the loop
 * does not call lives beside it, one concern a file: building (build.c),
 * the watchdog's error (stall.c), the trace's rows (trace.c), reports
 * (report.c), port names (names.c), histograms read back (lhist.c), the
 * run's outputs (tap.c, flows.c); the few small helpers those share with
 * the loop are inline in sim_int.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim_int.h"
#include "tap.h"
#include "hopstudy.h"

/* ---- utilities ---------------------------------------------------------- */

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t sim_rand(struct sim *s)	/* xoshiro256** */
{
	uint64_t *r = s->rng, res = rotl(r[1] * 5, 7) * 9, t = r[1] << 17;

	r[2] ^= r[0];
	r[3] ^= r[1];
	r[1] ^= r[2];
	r[0] ^= r[3];
	r[2] ^= t;
	r[3] = rotl(r[3], 45);
	return res;
}

/* The fabric's own draws (RED marking, link loss, the adaptive first
 * timeout) come from streams of their object, not from the workload's
 * RNG: draw n of port pi (its RED marks and the losses on its link in,
 * both at its node), or QP qi's one draw, is a hash of (seed, object,
 * n) (splitmix64's finalizer).  So a draw does not depend on what other
 * objects drew before it, nor on the order of events elsewhere: two
 * threads each running half of the fabric draw what one thread does. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t port_rand(struct sim *s, uint32_t pi)
{
	struct port *p = &s->ports[pi];

	return mix64(s->fseed ^ mix64((uint64_t)pi << 32 | p->ndraw++));
}

static uint64_t qp_rand(const struct sim *s, uint32_t qi)
{
	return mix64(s->fseed ^ mix64(1ULL << 63 | qi));
}

void lhist_add(struct lhist *h, uint64_t v, uint64_t w)
{
	unsigned b = lhist_bucket(v);

	if (!h->total || v < h->min)
		h->min = v;
	h->n[b] += w;
	h->total += w;
	h->sum += (double)v * (double)w;
	if (v > h->max)
		h->max = v;
}

/* ---- event heap (4-ary, by time, type, id) ------------------------------ */

static bool ev_less(const struct ev *a, const struct ev *b)
{
	return a->k < b->k;
}

static int64_t key_time(const struct sim *s, uint64_t k)
{
	return s->tbase + (int64_t)(k >> EV_TID_BITS);
}

static int64_t ev_time(const struct sim *s, const struct ev *e)
{
	return key_time(s, e->k);
}

/* The heap array always holds 4 max-key sentinels past its end, so every
 * node has four children and the smallest is found without branches.
 */
#define HEAP_PAD 4

static void heap_sift_root(struct sim *s, struct ev last);

/* Room for need events and the sentinels; every slot from hn on holds
 * UINT64_MAX.  -1 when out of memory. */
static int heap_reserve(struct sim *s, size_t need)
{
	uint32_t cap = (uint32_t)s->hcap;
	size_t i;

	/* children of a node below n lie below n + 3; slot n is written */
	if (need + HEAP_PAD <= s->hcap)
		return 0;
	if (sim_grow((void **)&s->heap, sizeof(*s->heap), &cap,
		     (uint32_t)(need + HEAP_PAD)))
		return -1;
	for (i = s->hn; i < cap; i++)
		s->heap[i].k = UINT64_MAX;
	s->hcap = cap;
	return 0;
}

static void heap_push(struct sim *s, struct ev e)
{
	size_t i;

	if (heap_reserve(s, s->hn + 1))
		abort();	/* out of memory in the event loop */
	i = s->hn++;
	while (i) {
		size_t p = (i - 1) / 4;

		if (!ev_less(&e, &s->heap[p]))
			break;
		s->heap[i] = s->heap[p];
		i = p;
	}
	s->heap[i] = e;
}

/* Timing wheel: bucket b's list is sorted by key.  Node 0 is a sentinel
 * with key 0: an empty bucket's head and tail and the end of every list,
 * so that appending needs no test for an empty bucket.  Free nodes are
 * kept linked from s->wfree (0: none).
 */
static int wheel_grow(struct sim *s)
{
	uint32_t i, from = s->nwn;	/* >= 1: node 0 stays the sentinel */

	if (sim_grow((void **)&s->wn, sizeof(*s->wn), &s->capwn,
		     s->nwn < 64 ? 64 : 2 * s->nwn))
		return -1;
	for (i = s->capwn - 1; i >= from; i--) {
		s->wn[i].next = s->wfree;
		s->wfree = i;
	}
	s->nwn = s->capwn;
	return 0;
}

/* Double a full lane's ring (or make its first), its events in order
 * from slot 0.
 */
static void lane_grow(struct lane *l)
{
	uint32_t n = l->tail - l->head, cap = l->ring ? 2 * (l->mask + 1) :
							  256, i;
	struct ev *r = malloc(cap * sizeof(*r));

	if (!r)
		abort();	/* out of memory in the event loop */
	for (i = 0; i < n; i++)
		r[i] = l->ring[(l->head + i) & l->mask];
	free(l->ring);
	l->ring = r;
	l->head = 0;
	l->tail = n;
	l->mask = cap - 1;
}

/* Append to lane i an event with key k: it is the lane's last. */
static inline void lane_append(struct sim *s, unsigned i, uint64_t k,
			       uint32_t tid)
{
	struct lane *l = &s->lanes[i];

	if (__builtin_expect(l->tail - l->head > l->mask, 0))
		lane_grow(l);
	if (s->headk[i] == UINT64_MAX)
		s->headk[i] = k;
	l->ring[l->tail & l->mask] = (struct ev){ k, tid, 0 };
	l->tail++;
	l->lastk = k;
	l->pushes++;
}

/* Every 16 K events: a lane given under 1/64 of them takes no more, and
 * the count of offsets without a lane starts again.
 */
static __attribute__((noinline)) void lane_review(struct sim *s)
{
	unsigned i;

	for (i = 0; i < EV_LANES; i++) {
		if (s->lanes[i].pushes < (1u << 14) / 64)
			s->lane_d[i] = -1;	/* no offset is negative */
		s->lanes[i].pushes = 0;
	}
	for (i = 0; i < LANE_CAND; i++)
		s->lane_cand[i].n = 0;
}

/* A lane for offset d, used again without one: an empty lane once d was
 * used 32 times more than others of its hash since the last review (a
 * timer's offset, with one event always pending, would hold a lane for
 * little); EV_LANES for none.
 */
static unsigned lane_claim(struct sim *s, int64_t d)
{
	unsigned c = (unsigned)((uint64_t)d * 0x9e3779b97f4a7c15ULL >> 60), i;

	if (d < 0 || d >= (int64_t)WHEEL_N << WHEEL_SHIFT)
		return EV_LANES;
	if (s->lane_cand[c].d != d) {
		/* the more frequent of two offsets keeps the slot */
		if (s->lane_cand[c].n) {
			s->lane_cand[c].n--;
			return EV_LANES;
		}
		s->lane_cand[c].d = d;
	}
	if (++s->lane_cand[c].n < 32)
		return EV_LANES;
	for (i = 0; i < EV_LANES; i++)
		if (s->headk[i] == UINT64_MAX) {
			s->lane_d[i] = d;
			if (!s->lanes[i].ring)
				lane_grow(&s->lanes[i]);
			return i;
		}
	return EV_LANES;
}

/* An insertion that would walk further than this into a bucket's list
 * goes to the heap instead.  Events tied at one time come in the order
 * of their keys' hashed ids, not of their keys: a collective's ranks
 * stepping together put thousands in one bucket, each walked to its
 * place (1024 ranks of a fat tree spent 72 % of the run in this walk:
 * 80 s).  The heap and the wheel are read as one, by key, so where an
 * event waits changes no result. */
#define WHEEL_WALK 16

/* Into the wheel, or the heap beyond the wheel's reach. */
static void wheel_push(struct sim *s, int64_t t, uint64_t k, uint32_t tid)
{
	uint32_t b, tl, ni, *at, n;

	if (k < s->headk[ALL_LANES])
		s->headk[ALL_LANES] = k;
	/* t >= now, and the current bucket is now's or an earlier one; the
	 * wheel lies well within the horizon */
	if (__builtin_expect((t >> WHEEL_SHIFT) - s->wcur >= (int64_t)WHEEL_N,
			     0)) {
		heap_push(s, (struct ev){ k, tid, 0 });
		return;
	}
	/* the room first: growing moves the nodes the walk points into */
	if (__builtin_expect(!s->wfree, 0) && wheel_grow(s))
		abort();	/* out of memory in the event loop */
	b = (uint32_t)(t >> WHEEL_SHIFT) & (WHEEL_N - 1);
	tl = s->wb[b].tail;
	if (s->wn[tl].k <= k) {		/* < unless the tail is node 0 */
		ni = s->wfree;
		s->wfree = s->wn[ni].next;
		s->wcount++;
		s->wn[ni] = (struct ev){ k, tid, 0 };
		s->wn[tl].next = ni;	/* the sentinel's is never read */
		s->wb[b].head = s->wb[b].head ? s->wb[b].head : ni;
		s->wb[b].tail = ni;
		s->wbits[b / 64] |= 1ULL << (b % 64);
		return;
	}
	/* from the last node put in with a walk when it lies before k: many
	 * events at one time (a synchronized start) come in key order and
	 * each goes right after the one before, not to the bucket's end */
	at = &s->wb[b].head;
	if (s->wb[b].last && s->wn[s->wb[b].last].k < k)
		at = &s->wn[s->wb[b].last].next;
	for (n = 0; s->wn[*at].k < k; n++) {
		if (n == WHEEL_WALK) {
			heap_push(s, (struct ev){ k, tid, 0 });
			return;
		}
		at = &s->wn[*at].next;
	}
	ni = s->wfree;
	s->wfree = s->wn[ni].next;
	s->wcount++;
	s->wn[ni] = (struct ev){ k, tid, *at };
	*at = ni;
	s->wb[b].last = ni;
}

/* The key of an event at t: its time, then its tid (sim_int.h).  An
 * arrival's id in the key is its port's, not the packet's: a packet's
 * index in the pool is the order of allocations (and frees) anywhere in
 * the fabric, the port is intrinsic, and one port receives one packet
 * at a time (its link serializes them).  The port is XORed with a hash
 * of the time, a bijection at each time: arrivals tied at one time go
 * in an order that changes from one time to the next, as a switch's
 * arbiter rotates, not lowest port first at every tie (a synchronized
 * incast ties at every packet: a fixed order drops or delays the same
 * senders each time).  The event keeps the packet's index in its tid
 * for dispatch. */
static inline uint64_t arrive_key(const struct sim *s, int64_t t,
				  uint32_t port)
{
	return (uint64_t)(t - s->tbase) << EV_TID_BITS |
	       (uint32_t)EV_ARRIVE << 24 | ev_arrive_id(port, t);
}

static inline uint64_t ev_key(const struct sim *s, int64_t t, uint32_t tid)
{
	if (tid >> 24 == EV_ARRIVE)
		return arrive_key(s, t, s->pk[tid & 0xffffff].port);
	return (uint64_t)(t - s->tbase) << EV_TID_BITS | tid;
}

/* ev_push for an offset without a lane: claim an empty one, else the
 * wheel, the heap or (beyond the horizon) the far list.
 */
static __attribute__((noinline)) void ev_push_other(struct sim *s,
						    int64_t t, uint32_t tid)
{
	int64_t d = t - s->now;
	unsigned i;

	if (t - s->tbase >= EV_HORIZON) {
		/* far future (a staircase's last steps) */
		if (sim_grow((void **)&s->far, sizeof(*s->far), &s->capfar,
			     s->nfar + 1))
			abort();
		s->far[s->nfar].t = t;
		s->far[s->nfar++].tid = tid;
		return;
	}
	i = lane_claim(s, d);
	if (i < EV_LANES)
		lane_append(s, i, ev_key(s, t, tid), tid);
	else
		wheel_push(s, t, ev_key(s, t, tid), tid);
}

/* Schedule an event; the key orders by time, type, id.  Inline:
 * every event costs one.  An event at a lane's offset from now is due
 * after all in its lane (now only grows) and is appended there, unless
 * its key is smaller (one due at the same time, of a smaller type or
 * id); the rest go to the wheel (ev_push_other).
 */
static inline void ev_push(struct sim *s, int64_t t, enum ev_type type,
			   uint32_t id)
{
	uint32_t tid = (uint32_t)type << 24 | id;
	int64_t d = t - s->now;
	unsigned i;
	uint64_t k;

	for (i = 0; i < EV_LANES && s->lane_d[i] != d; i++)
		;
	if (__builtin_expect(i == EV_LANES, 0)) {
		ev_push_other(s, t, tid);
		return;
	}
	k = ev_key(s, t, tid);
	if (__builtin_expect(k < s->lanes[i].lastk &&
			     s->headk[i] != UINT64_MAX, 0))
		wheel_push(s, t, k, tid);
	else
		lane_append(s, i, k, tid);
}

void sim_schedule(struct sim *s, int64_t t, enum ev_type type, uint32_t id)
{
	/* two threads: the workload runs in both replicas, each keeps the
	 * events of its own objects */
	if (s->part && !par_owns(s, type, id))
		return;
	ev_push(s, t, type, id);
}

/* The first nonempty bucket from the current one; every wheel event lies
 * within WHEEL_N buckets of it, so that bucket's head is the wheel's
 * smallest.  NONE when the wheel is empty.
 */
static uint32_t wheel_first(const struct sim *s)
{
	uint32_t b = (uint32_t)s->wcur & (WHEEL_N - 1), w = b / 64, i;
	uint64_t m;

	if (!s->wcount)
		return NONE;
	m = s->wbits[w] & (~0ULL << (b % 64));
	/* the last word tried is the first again, whole: its low bits are
	 * the buckets furthest ahead */
	for (i = 0; !m && i < WHEEL_N / 64; i++) {
		w = (w + 1) % (WHEEL_N / 64);
		m = s->wbits[w];
	}
	return m ? w * 64 + (uint32_t)__builtin_ctzll(m) : NONE;
}

static void heap_pop(struct sim *s);

/* The wheel's and heap's first key, after a change at the wheel's
 * current bucket. */
static void wheel_head_update(struct sim *s)
{
	uint32_t b = wheel_first(s);
	uint64_t k = b != NONE ? s->wn[s->wb[b].head].k : UINT64_MAX;

	s->headk[ALL_LANES] = s->heap[0].k < k ? s->heap[0].k : k;
}

/* Prefetch what lane l's coming events will read (a hint: no result
 * depends on it).  Most events come from lanes, in order, so a lane's
 * ring tells what the loop reads a few events on; in a large fabric
 * those packets, ports and histograms have left the cache since they
 * were last touched (a microsecond of a 1024-host fabric is some 40 k
 * events).  Each stage reads what the stage before fetched, some pops of
 * the lane earlier, and fetches the next: for an arrival the packet,
 * then the port it arrives at and its QP, then at a switch the route;
 * for a departure the port, then its queue histogram (header and the
 * bucket of its queue now) and the packet at the head of its queue,
 * then that packet's ingress port (its buffer accounting).  Deeper
 * stages for an arrival (the egress port, then its histogram) stalled on
 * their own loads and were slower (1024 hosts, 1 ms: 4.1-4.9 s against
 * 3.5-4.8 s, in turns).  The ring itself is fetched PF_RING events
 * ahead: its reads at PF_D0 missed (1024 hosts, 2 ms: 7.07-8.29 s
 * against 7.28-8.38 s, six in turns; 64 ahead was slower than 32).
 */
#define PF_D0 8
#define PF_D1 5
#define PF_D2 2
#define PF_RING 32

/* Fabrics this large prefetch; below, their state stays in cache and
 * the prefetches cost more than they save (measured: bench sim's 64:1
 * incast, 130 ports, went from 30 to 45 ns an event; a 256:1 incast, 513
 * ports, 100G, 100 ms: 0.48-0.51 s against 0.45-0.46 s).  A 256-host
 * leaf-spine (1024 ports) gains: 2 ms in 1.32-1.34 s against 1.35-1.65 s
 * (six in turns, 2026-11-24). */
#define PF_MIN_PORTS 1024

/* always_inline: gcc finds a function of prefetches alone without side
 * effects, and drops its calls.  One test of the lane's length serves
 * the three stages (PF_D0 is the deepest) and each ring entry's type is
 * read once: with a bounds test and a NULL test per stage the
 * prefetcher was 10.7 % of all instructions on the 256-host leaf-spine
 * (callgrind, 2 ms; issue 34 item 5).  It fetches what it did before,
 * but nothing when fewer than PF_D0 + 1 events wait in the lane.
 */
static inline __attribute__((always_inline)) void
lane_prefetch(const struct sim *s, const struct lane *l)
{
	const struct ev *r = l->ring;
	uint32_t h = l->head, m = l->mask, t0, t1, t2;
	const struct pkt *k;
	const struct port *p;

	if (l->tail - h <= PF_D0)	/* near the lane's end: rare */
		return;
	/* the ring itself, a few lines ahead of what is read below */
	__builtin_prefetch(&r[(h + PF_RING) & m]);
	t0 = r[(h + PF_D0) & m].tid;
	t1 = r[(h + PF_D1) & m].tid;
	t2 = r[(h + PF_D2) & m].tid;
	if (t0 >> 24 == EV_ARRIVE) {
		__builtin_prefetch(&s->pk[t0 & 0xffffff]);
	} else if (t0 >> 24 == EV_PORT_FREE) {
		p = &s->ports[t0 & 0xffffff];
		__builtin_prefetch(p);
		__builtin_prefetch((const char *)p + 64);
	}
	if (t1 >> 24 == EV_ARRIVE) {
		k = &s->pk[t1 & 0xffffff];
		p = &s->ports[k->port];
		__builtin_prefetch((const char *)p + 64);
		__builtin_prefetch((const char *)p + 192);
		__builtin_prefetch(&s->qps[k->qp]);
		__builtin_prefetch((const char *)&s->qps[k->qp] + 64);
	} else if (t1 >> 24 == EV_PORT_FREE) {
		const uint64_t *hn;

		p = &s->ports[t1 & 0xffffff];
		if ((hn = p->q_n)) {
			__builtin_prefetch(&p->qs);
			__builtin_prefetch(&hn[lhist_bucket(p->data.bytes)]);
		}
		if (p->data.head != NONE)
			__builtin_prefetch(&s->pk[p->data.head]);
	}
	if (t2 >> 24 == EV_ARRIVE) {
		k = &s->pk[t2 & 0xffffff];
		p = &s->ports[k->port];
		if (p->is_switch)
			__builtin_prefetch(&s->sws[p->owner].routes[k->dst]);
	} else if (t2 >> 24 == EV_PORT_FREE) {
		/* the ingress port of the packet to leave */
		p = &s->ports[t2 & 0xffffff];
		if (p->is_switch && p->data.head != NONE)
			__builtin_prefetch((const char *)&s->ports[
				s->pk[p->data.head].port] + 192);
	}
}

/* Take the next event into *e if it is due by `until` (ps); its bucket
 * becomes the wheel's current one.  False, taking nothing, when none is.
 * nl: the lanes to look at, a constant: EV_LANES where the mail lanes
 * are empty (one thread), ALL_LANES in a two-thread window; each lane
 * costs every event a compare.
 */
static inline __attribute__((always_inline)) bool
ev_pop_lanes(struct sim *s, int64_t until, struct ev *e, const unsigned nl)
{
	uint64_t k = s->headk[ALL_LANES];
	unsigned i, m = ALL_LANES;
	int64_t t;

	for (i = 0; i < nl; i++) {	/* without branches */
		m = s->headk[i] < k ? i : m;
		k = s->headk[i] < k ? s->headk[i] : k;
	}
	if (k == UINT64_MAX)
		return false;
	t = key_time(s, k);
	if (t > until)
		return false;
	s->wcur = t >> WHEEL_SHIFT;
	if (m < ALL_LANES) {
		struct lane *l = &s->lanes[m];

		*e = l->ring[l->head & l->mask];
		l->head++;
		s->headk[m] = l->head != l->tail ?
			      l->ring[l->head & l->mask].k : UINT64_MAX;
		if (s->prefetch)
			lane_prefetch(s, l);
		return true;
	}
	if (s->heap[0].k == k) {	/* an empty heap's root: UINT64_MAX */
		*e = s->heap[0];
		heap_pop(s);
	} else {
		uint32_t b = (uint32_t)s->wcur & (WHEEL_N - 1);
		uint32_t ni = s->wb[b].head;
		const struct ev *n = &s->wn[ni];
		uint32_t next = n->next;

		*e = *n;
		/* without branches: whether the bucket empties is a coin
		 * toss for the predictor */
		s->wb[b].head = next;
		s->wb[b].tail &= -(uint32_t)(next != 0);
		s->wb[b].last &= -(uint32_t)(s->wb[b].last != ni);
		s->wbits[b / 64] &= ~((uint64_t)!next << (b % 64));
		s->wn[ni].next = s->wfree;
		s->wfree = ni;
		s->wcount--;
	}
	wheel_head_update(s);
	return true;
}

static inline __attribute__((always_inline)) bool
ev_pop(struct sim *s, int64_t until, struct ev *e)
{
	return s->part ? ev_pop_lanes(s, until, e, ALL_LANES) :
			 ev_pop_lanes(s, until, e, EV_LANES);
}

/* one thread's event loop: the mail lanes are empty */
static inline __attribute__((always_inline)) bool
ev_pop_one(struct sim *s, int64_t until, struct ev *e)
{
	return ev_pop_lanes(s, until, e, EV_LANES);
}

bool sim_next_event(struct sim *s, int64_t until, struct ev *e)
{
	if (!ev_pop(s, until, e))
		return false;
	s->now = ev_time(s, e);
	return true;
}

/* Put e at the root (replacing what is there) and sift it down. */
static void heap_sift_root(struct sim *s, struct ev last)
{
	struct ev *h = s->heap;
	size_t i = 0, n = s->hn;

	for (;;) {
		size_t c = 4 * i + 1, a, b, m;

		if (c >= n)
			break;
		a = c + (h[c + 1].k < h[c].k);
		b = c + 2 + (h[c + 3].k < h[c + 2].k);
		m = h[b].k < h[a].k ? b : a;
		if (!(h[m].k < last.k))
			break;
		h[i] = h[m];
		i = m;
	}
	if (n)
		h[i] = last;
}

/* Remove the root. */
static void heap_pop(struct sim *s)
{
	struct ev last = s->heap[--s->hn];

	s->heap[s->hn].k = UINT64_MAX;	/* vacated: a sentinel */
	heap_sift_root(s, last);
}

/* ---- two threads (par.c) ------------------------------------------------ */

/* A packet (k) or PFC frame leaving for the other replica's port: into
 * this window's mail. */
static __attribute__((noinline)) void par_post(struct sim *s, int64_t t,
					       enum ev_type type,
					       uint32_t port,
					       const struct pkt *k,
					       int64_t xoff_at)
{
	struct par_box *b = s->out;
	struct par_mail *m;

	if (b->n == b->cap &&
	    sim_grow((void **)&b->m, sizeof(*b->m), &b->cap, b->n + 1))
		abort();	/* out of memory in the event loop */
	m = &b->m[b->n++];
	m->t = t;
	m->off = t - s->now;
	m->type = type;
	m->port = port;
	m->xoff_at = xoff_at;
	if (k)
		m->pkt = *k;
}

/* A timer scan at this tick: its bit (par.c counts a tick both
 * replicas scanned once). */
static void par_scan_note(struct sim *s)
{
	uint64_t tick = (uint64_t)(s->now / TIMER_TICK_PS);
	uint32_t w = (uint32_t)(tick / 64);

	if (w >= s->capscan) {
		uint32_t cap = s->capscan;

		if (sim_grow((void **)&s->scan_bits, sizeof(*s->scan_bits),
			     &cap, w + 1))
			abort();
		memset(s->scan_bits + s->capscan, 0,
		       (cap - s->capscan) * sizeof(*s->scan_bits));
		s->capscan = cap;
	}
	s->scan_bits[w] |= 1ULL << (tick % 64);
}

/* ---- packets and queues ------------------------------------------------- */

int sim_pkt_reserve(struct sim *s, uint32_t need)
{
	if (sim_grow_big((void **)&s->pk, sizeof(*s->pk), &s->pkcap, need))
		return -1;
	if (s->pfcap < s->pkcap) {
		uint32_t cap = s->pfcap;

		if (sim_grow_big((void **)&s->pfree, sizeof(*s->pfree), &cap,
				 s->pkcap))
			return -1;
		s->pfcap = cap;
	}
	return 0;
}

int sim_qp_reserve(struct sim *s, uint32_t need)
{
	uint32_t cap = s->qpcap;

	if (sim_grow_big((void **)&s->qps, sizeof(*s->qps), &s->qpcap, need))
		return -1;
	if (s->qpcap != cap) {
		unsigned char *ns = realloc(s->qpstate,
					    (size_t)s->qpcap * s->stride);

		if (!ns)
			return -1;
		s->qpstate = ns;
	}
	return 0;
}

static uint32_t pkt_alloc(struct sim *s)
{
	if (s->npfree)
		return s->pfree[--s->npfree];
	if (sim_pkt_reserve(s, s->npk + 1))
		abort();	/* out of memory in the event loop */
	return s->npk++;
}

/* pfcap >= pkcap > every slot: the stack has room */
static void pkt_free(struct sim *s, uint32_t i)
{
	s->pfree[s->npfree++] = i;
}

static void q_push(struct sim *s, struct pqueue *q, uint32_t i)
{
	s->pk[i].next = NONE;
	if (q->tail == NONE)
		q->head = i;
	else
		s->pk[q->tail].next = i;
	q->tail = i;
	q->n++;
	q->bytes += s->pk[i].size;
}

static uint32_t q_pop(struct sim *s, struct pqueue *q)
{
	uint32_t i = q->head;

	q->head = s->pk[i].next;
	if (q->head == NONE)
		q->tail = NONE;
	else	/* the next to leave: out of cache after its wait */
		__builtin_prefetch(&s->pk[q->head]);
	q->n--;
	q->bytes -= s->pk[i].size;
	return i;
}

/* Time-weighted queue statistics before the data queue changes: what
 * lhist_add would count, the time at zero and the totals in the port's
 * line (struct qstat), the rest in the buckets.  Out of line, as gcc
 * chose while it was static here: inlined into its callers it cost 0.9 %
 * more instructions per run (callgrind, 64:1 incast).
 */
__attribute__((noinline)) void sim_q_account(struct sim *s, struct port *p)
{
	struct qstat *a = &p->qs;
	int64_t dt = s->now - a->q_last;
	uint64_t v;

	a->q_last = s->now;
	if (dt <= 0 || !p->q_n)
		return;
	v = q_bytes(s, p);
	if (!v) {
		a->zero += (uint64_t)dt;
		return;
	}
	if (!a->vmax || v < a->vmin)
		a->vmin = v;
	if (v > a->vmax)
		a->vmax = v;
	p->q_n[lhist_bucket(v)] += (uint64_t)dt;
	a->sum += (double)v * (double)dt;
}

/* Empty the window's statistics, writing only the buckets in use: most
 * switch ports' queues stay at zero (the reverse path), their buckets
 * never touched. */
static void qstat_clear(struct port *p, int64_t now)
{
	struct qstat *a = &p->qs;

	if (p->q_n && a->vmax)
		memset(p->q_n, 0, lhist_used(a->vmax) * sizeof(p->q_n[0]));
	a->q_last = now;
	a->sum = 0;
	a->zero = 0;
	a->vmin = a->vmax = 0;
}

static bool data_class(const struct pkt *k)
{
#if defined(SIM_HOP_STUDY) && defined(SIM_STUDY_CLASSES)
	return hs_data_class(k);	/* the study's classes (hopstudy.h) */
#else
	return k->type <= PK_PROBE;
#endif
}

static struct nic_slot *host_active(struct host *h)
{
	return h->capactive ? h->active : h->act;
}

/* Host h's probe bits: a bit a slot of its list, set where NS_PROBE. */
static uint64_t *host_pbits(struct host *h)
{
	return h->capactive ? h->pbits : &h->pbit;
}

static void pbit_flip(uint64_t *bits, uint32_t i)
{
	bits[i / 64] ^= 1ULL << (i % 64);
}

/* Room in host h's list for need slots, off the inline ones once they
 * cannot hold them, and in its probe bits; -1 when out of memory (h
 * then as it was, but for room it does not use). */
static int host_reserve(struct host *h, uint32_t need)
{
	uint32_t cap = h->capactive;

	if (need <= (cap ? cap : HOST_ACT_INLINE))
		return 0;
	if (sim_grow((void **)&h->active, sizeof(*h->active), &cap, need) ||
	    sim_grow((void **)&h->pbits, sizeof(*h->pbits), &h->cappbits,
		     (cap + 63) / 64))
		return -1;
	if (!h->capactive) {	/* the inline list moves to the heap */
		memcpy(h->active, h->act, sizeof(h->act));
		memset(h->pbits, 0, h->cappbits * sizeof(*h->pbits));
		h->pbits[0] = h->pbit;
	}
	h->capactive = cap;
	return 0;
}

/* Slot sl of host h brought up to date with its QP q (struct nic_slot),
 * nprobe and the probe bits with it. */
static inline void nic_slot_set(struct host *h, struct nic_slot *sl,
				const struct qp *q)
{
	uint8_t f = nic_flags(q);

	if ((f ^ sl->f) & NS_PROBE) {
		pbit_flip(host_pbits(h), (uint32_t)(sl - host_active(h)));
		if (f & NS_PROBE)
			h->nprobe++;
		else
			h->nprobe--;
	}
	sl->f = f;
	sl->next_ok = q->next_ok;
}

/* After a change to a field of QP q that its slot copies (nic_flags,
 * next_ok): the slot brought up to date, when q has one. */
static void nic_sync(struct sim *s, const struct qp *q)
{
	struct host *h;

	if (q->act_pos == NONE)
		return;
	h = &s->hosts[q->src];
	nic_slot_set(h, &host_active(h)[q->act_pos], q);
}

/* ---- ports -------------------------------------------------------------- */

static uint32_t nic_pick(struct sim *s, struct host *h);
static void pfc_check_resume(struct sim *s, uint32_t inport);
static void ingress_add(struct sim *s, struct sw *w, struct port *p,
			int64_t delta);
static void nic_wake_at(struct sim *s, struct host *h, uint32_t hi,
			int64_t t);
static bool c1_turn(struct sim *s, uint32_t pi);
static uint32_t c1_dequeue(struct sim *s, uint32_t pi);

/* RED/ECN on an egress data queue of q bytes above Kmin (ecn_mark). */
static __attribute__((noinline)) void ecn_mark_above(struct sim *s,
						      struct port *p,
						      uint64_t q,
						      struct pkt *k)
{
	if (!s->cfg.ecn_on || k->type != PK_DATA)
		return;
	if (q < s->cfg.kmax) {
		uint64_t prob = (uint64_t)s->cfg.pmax * (q - s->cfg.kmin) /
				(s->cfg.kmax - s->cfg.kmin);	/* fxp16 */

		if ((port_rand(s, (uint32_t)(p - s->ports)) >> 48) >= prob)
			return;
	}
	if (!(k->flags & PF_CE)) {
		k->flags |= PF_CE;
		s->c.ecn_marked_sw++;
	}
}

/* RED/ECN on an egress data queue of q bytes.  The test of Kmin inline:
 * every packet through a switch asks, and the call cost more than the
 * test where most queues lie below Kmin (the 1024-host WebSearch mix, 1
 * ms: 12.3 M calls, 5.1 M of them above). */
static inline void ecn_mark(struct sim *s, struct port *p, uint64_t q,
			    struct pkt *k)
{
	if (q > s->cfg.kmin)
		ecn_mark_above(s, p, q, k);
}

static __attribute__((noinline)) void port_free_ev(struct sim *s,
						    uint32_t pi)
{
	struct port *p = &s->ports[pi];

	p->free_ev_at = p->free_at;
	ev_push(s, p->free_at, EV_PORT_FREE, pi);
}

/* One departure event per transmission end; a superseded one that fires
 * finds the port busy or idle and does nothing harmful.  Inline: the
 * test is all a packet reaching the busy bottleneck costs.  A host's
 * port has a second event of the same effect, the NIC's wake
 * (port_start, dispatch); one due at the same time serves for both.
 */
static inline void port_free_at(struct sim *s, uint32_t pi)
{
	const struct port *p = &s->ports[pi];

	if (p->free_ev_at != p->free_at &&
	    (p->is_switch || s->hosts[p->owner].wake_at != p->free_at))
		port_free_ev(s, pi);
}

static void port_send(struct sim *s, uint32_t pi);

/* Send the next packet if the port is free; come back when it is, and
 * only if there is more to send (an idle port costs no event).  Inline:
 * a packet reaching a busy port (the bottleneck's every arrival) costs
 * two compares.
 */
static inline void port_start(struct sim *s, uint32_t pi)
{
	if (s->ports[pi].free_at <= s->now)
		port_send(s, pi);
	else
		port_free_at(s, pi);
}

static void port_tx(struct sim *s, uint32_t pi, uint32_t ki);
static inline __attribute__((always_inline)) void
port_tx_inl(struct sim *s, uint32_t pi, uint32_t ki);

/* When host h's NIC may send next, its port busy until busy (>= now):
 * the soonest time a listed QP may (a pending probe now, a QP with
 * packets its next_ok; so does one without whose next_ok is now), -1
 * for none.  Only its latest with busy counts (port_tx_inl), so a time
 * at or before busy ends the search. */
static inline int64_t nic_next(const struct sim *s, struct host *h,
			       int64_t busy)
{
	const struct nic_slot *act = host_active(h);
	int64_t t = -1;
	uint32_t i;

	if (h->nprobe)
		return s->now;
	for (i = 0; i < h->nactive; i++) {
		int64_t when = act[i].next_ok;

		if (!(act[i].f & NS_WORK) &&
		    !(act[i].f & NS_ACTIVE && when == s->now))
			continue;
		if (t < 0 || when < t) {
			t = when;
			if (t <= busy)
				break;
		}
	}
	return t;
}

/* port_start on a free port. */
static __attribute__((noinline)) void port_send(struct sim *s, uint32_t pi)
{
	struct port *p = &s->ports[pi];
	uint32_t ki = NONE;
	struct pkt *k;

	if (p->ctrl.head != NONE) {
		ki = q_pop(s, &p->ctrl);
	} else if (s->c1 && p->is_switch && c1_turn(s, pi)) {
		ki = c1_dequeue(s, pi);
	} else if (!p->paused && p->data.head != NONE) {
		sim_q_account(s, p);
		ki = q_pop(s, &p->data);
		HS(hs_dequeue(s, pi, ki));
		if (p->is_switch) {
			struct sw *w = &s->sws[p->owner];

			k = &s->pk[ki];
			ingress_add(s, w, &s->ports[k->port], -(int64_t)k->size);
			pfc_check_resume(s, k->port);
			if (s->cfg.ecn_dequeue)
				ecn_mark(s, p, p->data.bytes, k);
		}
		TAP(s, tap_queue(s, pi, ki, TAP_DEQ));
	} else if (!p->is_switch && (!p->paused ||
				     (s->c1 && !s->c1[pi].paused))) {
		ki = nic_pick(s, &s->hosts[p->owner]);
	}
	if (ki != NONE)
		port_tx_inl(s, pi, ki);
}

/* Put packet ki on the free port pi's wire; then come back when the
 * port is free if more waits, or wake the NIC when a QP may send.
 * Inline into port_send, which sends nine packets in ten (the call and
 * the registers it saved were ~24 instructions a packet: callgrind,
 * the 1024-host WebSearch mix); port_tx for the others.
 */
static inline __attribute__((always_inline)) void
port_tx_inl(struct sim *s, uint32_t pi, uint32_t ki)
{
	struct port *p = &s->ports[pi];
	struct pkt *k = &s->pk[ki];
	int64_t ser;

	TAP(s, tap_tx(s, pi, ki));
	p->tx_bytes_c[!data_class(k)] += k->size;
	p->tx_pkts_c[!data_class(k)]++;
	if (data_class(k))
		s->last_tx = s->now;
	ser = (int64_t)k->size * p->ppb;
	p->free_at = s->now + ser;
	k->port = p->peer;
	if (__builtin_expect(s->part != NULL, 0) &&
	    s->part[p->peer] != s->me) {
		/* across the cut: the other replica's (par.c) */
		par_post(s, p->free_at + p->delay, EV_ARRIVE, p->peer, k, 0);
		pkt_free(s, ki);
	} else {
		ev_push(s, p->free_at + p->delay, EV_ARRIVE, ki);
	}
	if (p->ctrl.head != NONE || (!p->paused && p->data.head != NONE) ||
	    (s->c1 && !s->c1[pi].paused && s->c1[pi].data.head != NONE)) {
		port_free_at(s, pi);
	} else if (!p->is_switch) {
		/* the NIC: back when the port is free and a QP may send */
		struct host *h = &s->hosts[p->owner];
		int64_t t = nic_next(s, h, p->free_at);

		if (t >= 0)
			nic_wake_at(s, h, p->owner,
				    t > p->free_at ? t : p->free_at);
	}
}

/* port_tx_inl for the rarer callers (control packets leaving at once) */
static __attribute__((noinline)) void port_tx(struct sim *s, uint32_t pi,
					       uint32_t ki)
{
	port_tx_inl(s, pi, ki);
}

/* A control packet for port pi: strict priority, so it leaves at once
 * when the port is free and no other waits (a departure due now, not
 * yet handled), else it queues.
 */
static void ctrl_queue(struct sim *s, uint32_t pi, uint32_t ki)
{
	struct port *p = &s->ports[pi];

	if (p->free_at <= s->now && p->ctrl.head == NONE) {
		port_tx(s, pi, ki);
		return;
	}
	q_push(s, &p->ctrl, ki);
	port_start(s, pi);
}

/* ---- PFC ---------------------------------------------------------------- */

/* Dynamic Xoff: the reserve plus alpha x the shared pool still free
 * (buffer.c; by default 1/8, HPCC ns-3's alpha for ports at host speed).
 * The pool excludes every port's reserve and headroom, so whatever the
 * thresholds do, the bytes held stay within the buffer.
 */
static uint64_t xoff_thr(const struct sim *s, const struct sw *w)
{
	uint64_t set_aside = w->headroom + w->reserve + w->shared;
	uint64_t free_ = s->cfg.buffer > set_aside ? s->cfg.buffer - set_aside :
						      0;

	return pfc_reserve(s) + dt_limit(free_, s->alpha_xoff);
}

/* Xon, as SAI defines it: max(static Xon, Xoff - Xon offset).  The
 * offset is by default HPCC ns-3's 3 KB; the static floor, one packet, lies below
 * the Xoff floor (the reserve), so the band is never empty and an
 * ingress that drains always resumes: without the floor a dynamic Xoff
 * below the offset could never be met (issue 23, bug 1).
 */
static uint64_t xon_thr(const struct sim *s, const struct sw *w)
{
	uint64_t xoff = xoff_thr(s, w), pkt = s->cfg.mtu + HDR_BYTES;

	return xoff > s->xon_offset + pkt ? xoff - s->xon_offset : pkt;
}

/* Ingress port p of switch w holds delta more bytes (or fewer). */
static void ingress_add(struct sim *s, struct sw *w, struct port *p,
			int64_t delta)
{
	uint64_t r = pfc_reserve(s);

	w->shared -= p->ingress_bytes > r ? p->ingress_bytes - r : 0;
	p->ingress_bytes += (uint64_t)delta;
	w->shared += p->ingress_bytes > r ? p->ingress_bytes - r : 0;
	w->used += (uint64_t)delta;
}

/* Port pi sends a PFC frame for priority 3: it leaves ahead of data and
 * crosses the link. */
static void pfc_frame(struct sim *s, uint32_t pi, bool pause)
{
	struct port *p = &s->ports[pi];

	p->pause_sent = pause;
	p->pause_tx++;
	TAP(s, tap_pfc(s, pi, pause, false));
	if (s->part && s->part[p->peer] != s->me)
		par_post(s, s->now + CTRL_BYTES * (int64_t)p->ppb + p->delay,
			 pause ? EV_PFC_PAUSE : EV_PFC_RESUME, p->peer, NULL,
			 p->xoff_at);
	else
		ev_push(s, s->now + CTRL_BYTES * (int64_t)p->ppb + p->delay,
			pause ? EV_PFC_PAUSE : EV_PFC_RESUME, p->peer);
}

/* A switch ingress's Xoff or Xon. */
static void pfc_send(struct sim *s, uint32_t inport, bool pause)
{
	struct port *p = &s->ports[inport];

	if (pause) {
		p->xoff_at = s->now;
		p->hdrm_used = 0;
	}
	s->c.sw_pause_tx++;
	pfc_frame(s, inport, pause);
}

static void pfc_check_resume(struct sim *s, uint32_t inport)
{
	struct port *p = &s->ports[inport];
	const struct sw *w;

	if (!p->pause_sent)
		return;
	w = &s->sws[p->owner];
	if (p->ingress_bytes <= xon_thr(s, w)) {
		HS(hs.xon++);
		pfc_send(s, inport, false);
	}
}

static void pfc_apply(struct sim *s, uint32_t pi, bool pause)
{
	struct port *p = &s->ports[pi];

	if (pause) {
		int64_t lag = s->now - s->ports[p->peer].xoff_at;

		if (lag > s->pfc_lag_max)
			s->pfc_lag_max = lag;
		p->pause_rx++;
		s->pause_events++;
		if (!p->is_switch)
			s->c.pause_rx++;
		if (!p->paused)
			p->pause_start = s->now;
	} else if (p->paused) {
		p->paused_ps += s->now - p->pause_start;
	}
	p->paused = pause;
	TAP(s, tap_pfc(s, pi, pause, true));
	if (!pause)
		port_start(s, pi);
}

/* ---- a second data priority ---------------------------------------------
 *
 * Class 1 (sim.c1, when the scenario has a second data priority) has its
 * own egress queue, ingress accounting, PFC state and pause frames per
 * port; the buffer, its shared pool and thresholds are the same.  A port
 * whose two data queues may both send takes a packet from each in turn
 * (equal weights; switches often default to DWRR between lossless
 * classes [reconstructed]).  Out of the hot path: class 0 pays a test of
 * the packet's PF_C1 flag or of s->c1.
 */

/* Switch port pi sends class 1 next: it may, and class 0 may not or had
 * the last turn. */
static bool c1_turn(struct sim *s, uint32_t pi)
{
	const struct port *p = &s->ports[pi];
	struct port_c1 *c = &s->c1[pi];

	if (c->paused || c->data.head == NONE)
		return false;
	if (p->paused || p->data.head == NONE)
		return true;
	c->turn = !c->turn;
	return !c->turn;
}

static void c1_ingress_add(struct sim *s, struct sw *w, uint32_t pi,
			   int64_t delta)
{
	struct port_c1 *c = &s->c1[pi];
	uint64_t r = pfc_reserve(s);

	w->shared -= c->ingress_bytes > r ? c->ingress_bytes - r : 0;
	c->ingress_bytes += (uint64_t)delta;
	w->shared += c->ingress_bytes > r ? c->ingress_bytes - r : 0;
	w->used += (uint64_t)delta;
}

/* pfc_frame for class 1's priority. */
static void c1_pfc_frame(struct sim *s, uint32_t pi, bool pause)
{
	const struct port *p = &s->ports[pi];
	struct port_c1 *c = &s->c1[pi];

	c->pause_sent = pause;
	c->pause_tx++;
	ev_push(s, s->now + CTRL_BYTES * (int64_t)p->ppb + p->delay,
		pause ? EV_PFC1_PAUSE : EV_PFC1_RESUME, p->peer);
}

static void c1_pfc_send(struct sim *s, uint32_t inport, bool pause)
{
	s->c.sw_pause_tx++;
	c1_pfc_frame(s, inport, pause);
}

/* A PFC storm (scenario storm_at): host port pi's NIC stops draining and
 * pauses its switch port, on every lossless data priority, never to
 * resume.  A real NIC refreshes the pause before its quanta run out; the
 * simulator's pause holds until a resume, so one frame stands for them.
 */
static void storm(struct sim *s, uint32_t pi)
{
	pfc_frame(s, pi, true);
	if (s->c1 && s->pfc_c[1])
		c1_pfc_frame(s, pi, true);
}

static void c1_pfc_apply(struct sim *s, uint32_t pi, bool pause)
{
	struct port_c1 *c = &s->c1[pi];

	if (pause) {
		c->pause_rx++;
		s->pause_events++;
		if (!s->ports[pi].is_switch)
			s->c.pause_rx++;
		if (!c->paused)
			c->pause_start = s->now;
	} else if (c->paused) {
		c->paused_ps += s->now - c->pause_start;
	}
	c->paused = pause;
	if (!pause)
		port_start(s, pi);
}

static uint32_t c1_dequeue(struct sim *s, uint32_t pi)
{
	struct port *p = &s->ports[pi];
	struct port_c1 *c = &s->c1[pi];
	struct sw *w = &s->sws[p->owner];
	uint32_t ki, in;
	struct pkt *k;

	sim_q_account(s, p);
	ki = q_pop(s, &c->data);
	HS(hs_c1_tx(s, pi));
	k = &s->pk[ki];
	in = k->port;
	c1_ingress_add(s, w, in, -(int64_t)k->size);
	if (s->c1[in].pause_sent && s->c1[in].ingress_bytes <= xon_thr(s, w))
		c1_pfc_send(s, in, false);
	if (s->cfg.ecn_dequeue)
		ecn_mark(s, p, c->data.bytes, k);
	return ki;
}

/* switch_rx for a class-1 packet bound for egress port e. */
static void c1_switch_rx(struct sim *s, uint32_t inport, uint32_t e,
			 uint32_t ki)
{
	struct sw *w = &s->sws[s->ports[inport].owner];
	struct pkt *k = &s->pk[ki];
	struct port *out = &s->ports[e];
	struct port_c1 *q = &s->c1[e], *in = &s->c1[inport];
	uint64_t after = q->data.bytes + k->size;

	if (w->used + k->size > s->cfg.buffer ||
	    (!s->pfc_c[1] && after > s->buf_reserve &&
	     after > dt_limit(s->cfg.buffer - w->used, s->alpha_drop))) {
		q->drops++;
		out->drops++;
		out->drop_bytes += k->size;
		s->c.drops_nobuf++;
		s->probes_lost += k->type == PK_PROBE;
		TAP(s, tap_queue(s, e, ki, TAP_DROP));
		pkt_free(s, ki);
		return;
	}
	if (!s->cfg.ecn_dequeue)
		ecn_mark(s, out, q->data.bytes, k);
	c1_ingress_add(s, w, inport, k->size);
	k->port = inport;
	sim_q_account(s, out);
	q_push(s, &q->data, ki);
	if (q_bytes(s, out) > out->q_max)
		out->q_max = q_bytes(s, out);
	if (s->pfc_c[1] && !in->pause_sent &&
	    in->ingress_bytes > xoff_thr(s, w))
		c1_pfc_send(s, inport, true);
	port_start(s, e);
}

/* A host's NIC sends (c1_sent) or receives a class-1 packet. */
static void c1_sent(struct sim *s, uint32_t pi, struct pkt *k)
{
	k->flags |= PF_C1;
	s->c1[pi].tx_bytes += k->size;
	s->c1[pi].tx_pkts++;
}

static void c1_received(struct sim *s, uint32_t pi, const struct pkt *k)
{
	s->c1[pi].rx_bytes += k->size;
	s->c1[pi].rx_pkts++;
}

/* ---- switches ----------------------------------------------------------- */

static void switch_rx(struct sim *s, uint32_t inport, uint32_t ki)
{
	struct sw *w = &s->sws[s->ports[inport].owner];
	struct pkt *k = &s->pk[ki];
	const struct route *r = &w->routes[k->dst];
	uint32_t e = r->first + (r->count > 1 ? (s->qps[k->qp].ecmp >>
						 w->ecmp_shift) % r->count : 0);
	struct port *out = &s->ports[e], *in;

	if (!data_class(k)) {
		ctrl_queue(s, e, ki);
		return;
	}
	if (k->flags & PF_C1) {
		c1_switch_rx(s, inport, e, ki);
		return;
	}
	if (w->used + k->size > s->cfg.buffer ||
	    (!s->pfc_c[0] && out->data.bytes + k->size > s->buf_reserve &&
	     out->data.bytes + k->size > dt_limit(s->cfg.buffer - w->used,
						  s->alpha_drop))) {
		/* lossy: above the queue's reserve and its dynamic
		 * threshold (buffer.c), or a full buffer */
		out->drops++;
		out->drop_bytes += k->size;
		s->c.drops_nobuf++;
		s->probes_lost += k->type == PK_PROBE;
		pkt_free(s, ki);
		return;
	}
	if (!s->cfg.ecn_dequeue)
		ecn_mark(s, out, out->data.bytes, k);
	in = &s->ports[inport];
	ingress_add(s, w, in, k->size);
	k->port = inport;
	sim_q_account(s, out);
	HS(hs_enqueue(s, e, ki));
	q_push(s, &out->data, ki);
	if (out->data.bytes > out->q_max)
		out->q_max = out->data.bytes;
	TAP(s, tap_queue(s, e, ki, TAP_ENQ));
	if (in->pause_sent) {	/* into the headroom */
		in->hdrm_used += k->size;
		if (in->hdrm_used > in->hdrm_peak)
			in->hdrm_peak = in->hdrm_used;
	} else if (s->pfc_c[0] && in->ingress_bytes > xoff_thr(s, w)) {
		pfc_send(s, inport, true);
	}
	port_start(s, e);
}

/* ---- NICs --------------------------------------------------------------- */

static void ctrl_send(struct sim *s, uint32_t host, uint32_t qp,
		      enum pkt_type type, uint32_t psn, int64_t ts)
{
	uint32_t ki = pkt_alloc(s);
	struct pkt *k = &s->pk[ki];
	uint32_t pi = s->hosts[host].port;

	k->type = (uint8_t)type;
	k->flags = 0;
	k->size = CTRL_BYTES;
	k->qp = qp;
	k->dst = s->qps[qp].src;	/* control answers the sender */
	k->psn = psn;
	k->ts = ts;
	ctrl_queue(s, pi, ki);
}

static int64_t ns_of(int64_t ps)
{
	return ps / PS_PER_NS;
}

/* Wake the NIC at t unless a wake is due by then; the port's departure
 * event due at t does as well (port_free_at). */
static void nic_wake_at(struct sim *s, struct host *h, uint32_t hi,
			int64_t t)
{
	if (h->wake_at >= 0 && h->wake_at <= t)
		return;
	h->wake_at = t;
	if (s->ports[h->port].free_ev_at != t)
		ev_push(s, t, EV_NIC_WAKE, hi);
}

/* The rate limiter's gap after a packet of `wire` bytes at the QP's
 * rate; the division is redone only when the rate or size changed.
 */
static int64_t qp_gap(const struct sim *s, struct qp *q, uint32_t wire)
{
	uint32_t rate = q->rate ? q->rate : 1;

	if (rate != q->gap_rate || wire != q->gap_wire) {
		q->gap_rate = rate;
		q->gap_wire = wire;
		q->gap = (int64_t)((uint64_t)wire * s->line_ppb *
				   ALGO_RATE_ONE / rate);
	}
	return q->gap;
}

/* A retransmission or probe deadline was set to t (timer_scan). */
static void timer_lower(struct sim *s, int64_t t)
{
	if (t < s->timer_lb)
		s->timer_lb = t;
}

/* The first timeout of a flight (the transport's comment, sim_int.h):
 * drawn once per QP with adaptive retransmission, so that QPs do not
 * time out in step.
 */
static int64_t rto_first(struct sim *s, struct qp *q)
{
	if (!q->rto_init) {
		int64_t t = s->qp_timeout;

		if (s->adp) {
			unsigned e = ADP_INIT_LOW +
				     (unsigned)(qp_rand(s, (uint32_t)(q -
						s->qps)) >> 32) %
				     ADP_INIT_RANGE;

			if (ADP_BASE_PS << e < t)
				t = ADP_BASE_PS << e;
		}
		q->rto_init = t;
	}
	return q->rto_init;
}

/* The timer from now; a QP without a timeout (timeout 0) never fires. */
static void rto_set(struct sim *s, struct qp *q)
{
	if (!q->rto_cur)
		q->rto_cur = rto_first(s, q);
	q->rto_deadline = q->rto_cur > INT64_MAX - s->now ? INT64_MAX :
			  s->now + q->rto_cur;
	timer_lower(s, q->rto_deadline);
}

/* What an algorithm said: rate, probe, timers. */
static void apply_out(struct sim *s, uint32_t qi, const struct algo_out *o)
{
	struct qp *q = &s->qps[qi];

	if (o->rate && o->rate != q->rate) {
		q->rate = o->rate;
		if (q->last_wire) {
			/* re-time the pending slot at the new rate; a slot
			 * that moved into the past is due now (or when the
			 * port is free): the NIC's pending wake may be the
			 * old slot's, far away */
			struct host *h = &s->hosts[q->src];
			int64_t busy = s->ports[h->port].free_at;

			q->next_ok = q->last_tx + qp_gap(s, q, q->last_wire);
			nic_sync(s, q);
			if (q->active && q->next_ok > s->now)
				nic_wake_at(s, h, q->src, q->next_ok);
			else if (qp_has_work(q))
				nic_wake_at(s, h, q->src, busy > s->now ?
					    busy : s->now);
		}
	}
	if (o->probe_req) {
		q->probe_req = true;
		nic_sync(s, q);
	}
	if (o->probe_timeout) {
		q->probe_to = o->probe_timeout * PS_PER_NS;
		if (q->probe_out)	/* a probe out may now time out */
			timer_lower(s, q->probe_deadline);
	}
	if (o->timer_at > 0) {
		q->timer_at = o->timer_at * PS_PER_NS;
		if (q->timer_ev_at < 0 || q->timer_ev_at > q->timer_at) {
			q->timer_ev_at = q->timer_at;
			ev_push(s, q->timer_at > s->now ? q->timer_at :
				s->now, EV_ALGO_TIMER, qi);
		}
	} else {
		q->timer_at = 0;
	}
}

/* After a handler outside the NIC's send path (a CNP, a timer, a probe
 * timeout): a probe it asked for leaves as soon as the port is free,
 * whatever the rate limiter says (nic_probe), not at the QP's next
 * data slot.
 */
static void probe_soon(struct sim *s, uint32_t qi, const struct algo_out *o)
{
	if (o->probe_req)
		port_start(s, s->hosts[s->qps[qi].src].port);
}

/* QPs with a timer are scanned every TIMER_TICK_PS, at its multiples:
 * the scans' times do not depend on when the first QP was armed (nor,
 * with two threads, on which half armed one). */
static void timer_arm(struct sim *s, uint32_t qi)
{
	struct qp *q = &s->qps[qi];

	if (q->armed_pos == NONE) {
		if (sim_grow((void **)&s->armed, sizeof(*s->armed),
			     &s->caparmed, s->narmed + 1))
			abort();
		q->armed_pos = s->narmed;
		s->armed[s->narmed++] = qi;
	}
	if (!s->scan_pending) {
		s->scan_pending = true;
		ev_push(s, (s->now / TIMER_TICK_PS + 1) * TIMER_TICK_PS,
			EV_TIMER_SCAN, 0);
	}
}

/* The timer runs from the last progress, or from the send that started a
 * flight into an empty pipe.
 */
static void rto_arm(struct sim *s, uint32_t qi)
{
	struct qp *q = &s->qps[qi];

	if (!q->rto_on || q->snd_una + 1 == q->snd_nxt)
		rto_set(s, q);
	if (!q->rto_on) {
		q->rto_on = true;
		timer_arm(s, qi);
	}
}

/* QP q off its sender's list (the last slot takes its place). */
static void host_deactivate(struct sim *s, struct qp *q)
{
	struct host *h = &s->hosts[q->src];
	struct nic_slot *act = host_active(h);
	uint64_t *bits = host_pbits(h);
	uint32_t i = q->act_pos, last;

	if (i == NONE)
		return;
	if (act[i].f & NS_PROBE) {
		h->nprobe--;
		pbit_flip(bits, i);
	}
	last = --h->nactive;
	if (i != last) {
		act[i] = act[last];
		s->qps[act[i].qp].act_pos = i;
		if (act[i].f & NS_PROBE) {
			pbit_flip(bits, last);
			pbit_flip(bits, i);
		}
	}
	q->act_pos = NONE;
	if (h->rr >= h->nactive)
		h->rr = 0;
}

/* An RTT probe request leaves as soon as the algorithm asks: a 64-byte
 * packet through the data queues, not held by the rate limiter.  From
 * slot sl of host h.
 */
static uint32_t nic_probe(struct sim *s, struct host *h, struct nic_slot *sl)
{
	uint32_t qi = sl->qp;
	struct qp *q = &s->qps[qi];
	uint32_t ki = pkt_alloc(s);
	struct pkt *k = &s->pk[ki];
	struct algo_out o;

	k->type = PK_PROBE;
	k->flags = 0;
	k->size = CTRL_BYTES;
	k->qp = qi;
	k->dst = q->dst;
	k->psn = 0;
	k->ts = s->now;
	if (q->cls)
		c1_sent(s, h->port, k);
	q->probe_req = false;
	q->probe_out = true;
	nic_slot_set(h, sl, q);
	q->probe_sent = s->now;
	q->probe_deadline = s->now + q->probe_to;
	timer_lower(s, q->probe_deadline);
	if (q->probe_to)
		timer_arm(s, qi);
	memset(&o, 0, sizeof(o));
	s->algo.ops->on_tx(&h->ap, qp_state(s, qi), ns_of(s->now),
			   CTRL_BYTES, true, &o);
	apply_out(s, qi, &o);
	return ki;
}

/* The first slot of host h's list from h->rr on, wrapping, with a probe
 * ready whose class PFC does not hold (held), or NONE; the probe bits
 * are read, 64 slots a word, not the slots. */
static uint32_t nic_probe_slot(struct host *h, const bool held[2])
{
	const struct nic_slot *act = host_active(h);
	const uint64_t *bits = host_pbits(h);
	uint32_t from[2] = { h->rr, 0 }, to[2] = { h->nactive, h->rr };
	unsigned pass;

	for (pass = 0; pass < 2; pass++) {
		uint32_t i = from[pass], j;

		while (i < to[pass]) {
			uint64_t m = bits[i / 64] & (~0ULL << (i % 64));

			if (!m) {
				i = (i / 64 + 1) * 64;
				continue;
			}
			j = i / 64 * 64 + (uint32_t)__builtin_ctzll(m);
			if (j >= to[pass])
				break;
			if (!held[!!(act[j].f & NS_C1)])
				return j;
			i = j + 1;
		}
	}
	return NONE;
}

/* The NIC scheduler: pending probes first, then round robin over QPs
 * whose rate limiter allows.  It reads the QPs' slots (struct nic_slot),
 * and a QP's own lines only for the one that sends.
 */
static uint32_t nic_pick(struct sim *s, struct host *h)
{
	uint32_t i, n = h->nactive, hi = s->ports[h->port].owner, slot;
	struct nic_slot *act = host_active(h);
	bool held[2] = { false, false };	/* PFC holds the class */
	int64_t soonest = -1;

	if (s->c1) {
		held[0] = s->ports[h->port].paused;
		held[1] = s->c1[h->port].paused;
	}
	if (h->nprobe && s->algo.ops) {
		slot = nic_probe_slot(h, held);
		if (slot != NONE)
			return nic_probe(s, h, &act[slot]);
	}
	/* round robin from h->rr (slot wraps without a division) */
	for (i = 0, slot = h->rr; i < n;
	     i++, slot = slot + 1 == n ? 0 : slot + 1) {
		struct nic_slot *sl = &act[slot];
		uint32_t qi, ki;
		struct qp *q;
		struct algo_out o;
		struct pkt *k;
		uint32_t payload;
		bool last;

		if (!(sl->f & NS_WORK) || held[!!(sl->f & NS_C1)])
			continue;
		if (sl->next_ok > s->now) {
			s->c.qp_desched++;
			h->nc.qp_desched++;
			if (soonest < 0 || sl->next_ok < soonest)
				soonest = sl->next_ok;
			continue;
		}
		qi = sl->qp;
		q = &s->qps[qi];
		last = q->snd_nxt + 1 == q->npkts;
		payload = last && q->last_payload ? q->last_payload :
						     s->cfg.mtu;
		ki = pkt_alloc(s);
		k = &s->pk[ki];
		k->type = PK_DATA;
		k->flags = last ? PF_LAST | PF_ACKREQ : 0;
		k->size = (uint16_t)(payload + HDR_BYTES);
		k->qp = qi;
		k->dst = q->dst;
		k->psn = q->snd_nxt++;
		if (!(q->snd_nxt & ((1u << s->cfg.ackreq) - 1)))
			k->flags |= PF_ACKREQ;
		if (q->cls)
			c1_sent(s, h->port, k);
		k->ts = s->now;
		q->last_tx = s->now;
		q->last_wire = k->size;
		q->next_ok = s->now + qp_gap(s, q, k->size);
		nic_slot_set(h, sl, q);
		if (q->next_ok - s->now > ACK_GAP_PS)	/* held: ask */
			k->flags |= PF_ACKREQ;
		rto_arm(s, qi);
		h->rr = slot + 1 == n ? 0 : slot + 1;
		if (s->algo.ops) {
			memset(&o, 0, sizeof(o));
			s->algo.ops->on_tx(&h->ap, qp_state(s, qi),
					   ns_of(s->now), k->size, false, &o);
			apply_out(s, qi, &o);
		}
		return ki;
	}
	if (soonest >= 0)
		nic_wake_at(s, h, hi, soonest);
	return NONE;
}

static void flow_done(struct sim *s, uint32_t qi)
{
	struct qp *q = &s->qps[qi];
	double ideal, fct;

	q->done = true;
	s->timer_hint = true;
	q->finish = s->now;
	s->c.tx_cqe++;
	s->hosts[q->src].nc.tx_cqe++;
	host_deactivate(s, q);
	/* FCTs of the flows the window saw whole: a warm-up's stay out */
	if (q->start < s->win_t0)
		return;
	ideal = (double)sim_ideal_fct(s, q);
	fct = (double)(q->finish - q->start);
	if (s->nfct == s->capfct) {
		uint32_t cap = (uint32_t)s->capfct;

		if (sim_grow((void **)&s->fct, sizeof(*s->fct), &cap,
			     (uint32_t)s->nfct + 1))
			return;
		s->capfct = cap;
	}
	s->fct[s->nfct].size = q->size;
	s->fct[s->nfct].slowdown = fct / ideal < 1 ? 1 : fct / ideal;
	s->nfct++;
}

static void host_rx(struct sim *s, uint32_t hi, uint32_t ki)
{
	/* a copy: answering (ctrl_send) may grow, and move, the pool */
	const struct pkt pkt = s->pk[ki], *k = &pkt;
	uint32_t qi = k->qp;
	struct qp *q = &s->qps[qi];
	struct host *h = &s->hosts[hi];
	struct algo_out o;

	memset(&o, 0, sizeof(o));
	switch (k->type) {
	case PK_DATA: {
		bool ack_now = k->flags & PF_ACKREQ, arrived = false;

		if (k->flags & PF_CE) {
			s->c.ecn_marked++;
			h->nc.ecn_marked++;
			if (s->now - q->last_cnp >= s->cfg.cnp_interval_ps) {
				q->last_cnp = s->now;
				s->c.cnp_sent++;
				h->nc.cnp_sent++;
				ctrl_send(s, hi, qi, PK_CNP, 0, 0);
			}
		}
		if (k->psn == q->rcv_nxt) {
			q->rcv_nxt++;
			q->nack_sent = false;
			q->win_bytes += k->size - HDR_BYTES;
			s->rx_payload += k->size - HDR_BYTES;
			if (k->flags & PF_LAST) {
				s->c.rx_cqe++;
				h->nc.rx_cqe++;
				arrived = s->src->flow_arrived != NULL;
			}
			if (ack_now || ++q->since_ack >= s->cfg.ack_every) {
				q->since_ack = 0;
				ctrl_send(s, hi, qi, PK_ACK, k->psn, 0);
			}
		} else if (k->psn > q->rcv_nxt) {
			/* go-back-N: drop, ask once from the hole */
			s->c.out_of_sequence++;
			h->nc.out_of_sequence++;
			if (!q->nack_sent) {
				q->nack_sent = true;
				ctrl_send(s, hi, qi, PK_NACK, q->rcv_nxt, 0);
			}
		} else if ((ack_now || ++q->dups % s->cfg.ack_every == 0) &&
			   q->rcv_nxt) {
			ctrl_send(s, hi, qi, PK_ACK, q->rcv_nxt - 1, 0);
		}
		/* last: the workload may start flows (qps may move) */
		if (arrived)
			s->src->flow_arrived(s, qi);
		break;
	}
	case PK_PROBE:
		/* the responder NIC answers in hardware */
		ctrl_send(s, hi, qi, PK_PROBE_RESP, 0, k->ts);
		break;
	case PK_ACK:
		if (k->psn + 1 > q->snd_una) {
			q->snd_una = k->psn + 1;
			q->rto_cur = rto_first(s, q);
			rto_set(s, q);
			if (q->snd_una >= q->snd_nxt)
				s->timer_hint = true;	/* all acked */
			if (q->snd_una >= q->npkts && !q->done)
				flow_done(s, qi);
		}
		break;
	case PK_NACK:
		s->c.nacks++;
		h->nc.nacks++;
		if (k->psn > q->snd_una)
			q->snd_una = k->psn;
		if (q->snd_nxt > k->psn)
			q->snd_nxt = k->psn;
		nic_sync(s, q);
		rto_set(s, q);
		s->timer_hint = true;
		if (s->algo.ops) {
			s->algo.ops->on_nack(&h->ap, qp_state(s, qi),
					     ns_of(s->now), &o);
			apply_out(s, qi, &o);
		}
		port_start(s, h->port);
		break;
	case PK_CNP:
		s->c.cnp_handled++;
		h->nc.cnp_handled++;
		if (s->algo.ops) {
			s->algo.ops->on_cnp(&h->ap, qp_state(s, qi),
					    ns_of(s->now), &o);
			apply_out(s, qi, &o);
			probe_soon(s, qi, &o);
		}
		break;
	case PK_PROBE_RESP:
		/* every answer measures the path, one that comes after the
		 * algorithm gave up on it too (issue 23, bug 9: leaving
		 * those out hid the queues that delayed them) */
		lhist_add(&s->rtt, (uint64_t)(s->now - k->ts), 1);
		s->rtt_base_sum += q->path_rtt;
		s->tr_rtt_sum += (double)ns_of(s->now - k->ts);
		s->tr_rtt_n++;
		if (!q->probe_out || k->ts != q->probe_sent) {
			s->rtt_late++;
		} else {
			q->probe_out = false;
			nic_sync(s, q);
			if (!q->rto_on)
				s->timer_hint = true;	/* may disarm */
			if (s->algo.ops) {
				s->algo.ops->on_rtt(&h->ap, qp_state(s, qi),
						    ns_of(s->now),
						    ns_of(k->ts),
						    ns_of(k->ts), &o);
				apply_out(s, qi, &o);
			}
			port_start(s, h->port);
		}
		break;
	default:
		break;
	}
	pkt_free(s, ki);
}

static void on_arrive(struct sim *s, uint32_t ki)
{
	struct pkt *k = &s->pk[ki];
	struct port *p = &s->ports[k->port];

	/* a frame lost on the link fails its FCS: the port does not
	 * count it as received */
	if (s->cfg.loss &&
	    (uint32_t)(port_rand(s, k->port) >> 32) < s->cfg.loss) {
		s->c.drops_loss++;
		p->lost_pkts++;
		p->lost_bytes += k->size;
		s->probes_lost += k->type == PK_PROBE ||
				  k->type == PK_PROBE_RESP;
		TAP(s, tap_queue(s, k->port, ki, TAP_LOST));
		pkt_free(s, ki);
		return;
	}
	p->rx_bytes_c[!data_class(k)] += k->size;
	p->rx_pkts_c[!data_class(k)]++;
	if (p->is_switch) {
		switch_rx(s, k->port, ki);
	} else {
		if (k->flags & PF_C1)
			c1_received(s, k->port, k);
		host_rx(s, p->owner, ki);
	}
}

/* ---- timers and flows --------------------------------------------------- */

static void rto_fire(struct sim *s, uint32_t qi)
{
	struct qp *q = &s->qps[qi];

	s->c.rto++;
	s->hosts[q->src].nc.rto++;
	if (s->nrto == s->caprto) {
		uint32_t cap = (uint32_t)s->caprto;

		if (!sim_grow((void **)&s->rto_vals, sizeof(*s->rto_vals),
			      &cap, (uint32_t)s->nrto + 1))
			s->caprto = cap;
	}
	if (s->nrto == s->caprto_host)
		sim_grow((void **)&s->rto_host, sizeof(*s->rto_host),
			 &s->caprto_host, (uint32_t)s->nrto + 1);
	if (s->nrto < s->caprto && s->nrto < s->caprto_host) {
		s->rto_host[s->nrto] = q->src;
		s->rto_vals[s->nrto++] = q->rto_cur;
	}
	q->snd_nxt = q->snd_una;		/* go back */
	nic_sync(s, q);
	s->timer_hint = true;			/* nothing in flight */
	/* adaptive: double up to the QP timeout; else the QP timeout */
	if (s->adp && q->rto_cur < s->qp_timeout / 2)
		q->rto_cur *= 2;
	else
		q->rto_cur = s->qp_timeout;
	rto_set(s, q);
	port_start(s, s->hosts[q->src].port);
}

static void probe_fire(struct sim *s, uint32_t qi)
{
	struct qp *q = &s->qps[qi];
	struct algo_out o;

	q->probe_out = false;
	nic_sync(s, q);
	s->timer_hint = true;
	memset(&o, 0, sizeof(o));
	s->algo.ops->on_probe_timeout(&s->hosts[q->src].ap, qp_state(s, qi),
				      ns_of(s->now), &o);
	apply_out(s, qi, &o);
	probe_soon(s, qi, &o);
}

/* Every TIMER_TICK_PS: expired retransmission and probe timers, and
 * timers to stop.  The QPs are visited only when one may be: a deadline
 * reached (every deadline set lowers timer_lb) or a flight ended
 * (timer_hint); otherwise the visit would change nothing.  They are
 * visited in the order they were armed (those disarmed leave without
 * moving the others): a host's QPs then come in an order of that host's
 * own events, whatever the other hosts armed and disarmed.
 */
static void timer_scan(struct sim *s)
{
	uint32_t i = 0, j = 0;

	s->scan_pending = false;
	if (s->part)
		par_scan_note(s);
	if (!s->timer_hint && s->now < s->timer_lb)
		goto next;
	s->timer_hint = false;
	s->timer_lb = INT64_MAX;
	while (i < s->narmed) {
		uint32_t qi = s->armed[i];
		struct qp *q = &s->qps[qi];

		if (q->rto_on && (q->done || q->snd_una >= q->snd_nxt))
			q->rto_on = false;	/* nothing in flight */
		else if (q->rto_on && s->now >= q->rto_deadline)
			rto_fire(s, qi);
		q = &s->qps[qi];
		if (q->probe_out && q->probe_to && s->algo.ops &&
		    s->now >= q->probe_deadline)
			probe_fire(s, qi);
		q = &s->qps[qi];
		i++;
		if (!q->rto_on && !(q->probe_out && q->probe_to)) {
			q->armed_pos = NONE;	/* disarmed */
			continue;
		}
		if (q->rto_on)
			timer_lower(s, q->rto_deadline);
		if (q->probe_out && q->probe_to)
			timer_lower(s, q->probe_deadline);
		q->armed_pos = j;
		s->armed[j++] = qi;
	}
	s->narmed = j;
next:
	if (s->narmed && !s->scan_pending) {
		s->scan_pending = true;
		ev_push(s, s->now + TIMER_TICK_PS, EV_TIMER_SCAN, 0);
	}
}

static void on_algo_timer(struct sim *s, uint32_t qi)
{
	struct qp *q = &s->qps[qi];
	struct algo_out o;

	if (q->timer_ev_at == s->now || q->timer_ev_at < s->now)
		q->timer_ev_at = -1;
	if (!q->timer_at || q->timer_at > s->now || !s->algo.ops ||
	    !q->started) {
		if (q->timer_at > s->now && q->timer_ev_at < 0) {
			q->timer_ev_at = q->timer_at;
			ev_push(s, q->timer_at, EV_ALGO_TIMER, qi);
		}
		return;
	}
	q->timer_at = 0;
	memset(&o, 0, sizeof(o));
	s->algo.ops->on_timer(&s->hosts[q->src].ap, qp_state(s, qi),
			      ns_of(s->now), &o);
	apply_out(s, qi, &o);
	probe_soon(s, qi, &o);
}

static void flow_start(struct sim *s, uint32_t qi)
{
	struct qp *q = &s->qps[qi];
	struct host *h = &s->hosts[q->src];
	struct nic_slot *sl;
	struct algo_out o;

	q->started = true;
	q->active = true;
	q->start = s->now;
	if (host_reserve(h, h->nactive + 1))
		abort();
	sl = &host_active(h)[h->nactive];
	sl->qp = qi;
	sl->f = 0;
	q->act_pos = h->nactive++;
	nic_slot_set(h, sl, q);
	if (s->algo.ops) {
		memset(&o, 0, sizeof(o));
		s->algo.ops->init(&h->ap, qp_state(s, qi), ns_of(s->now), &o);
		apply_out(s, qi, &o);
	} else {
		q->rate = ALGO_RATE_ONE;
	}
	port_start(s, h->port);
}

static void flow_stop(struct sim *s, uint32_t qi)
{
	struct qp *q = &s->qps[qi];

	if (!q->active)
		return;
	q->active = false;
	host_deactivate(s, q);
}

static void dispatch(struct sim *s, const struct ev *e)
{
	uint32_t id = e->tid & 0xffffff;

	HS(hs.ev[e->tid >> 24]++);

	/* two thirds are arrivals, then departures and NIC wakes: tests the
	 * predictor learns beat the jump table's indirect branch */
	if (e->tid >> 24 == EV_ARRIVE) {
		on_arrive(s, id);
		return;
	}
	if (e->tid >> 24 == EV_PORT_FREE || e->tid >> 24 == EV_NIC_WAKE) {
		/* either may stand for the other on a host (port_free_at) */
		struct port *p = e->tid >> 24 == EV_PORT_FREE ? &s->ports[id] :
				 &s->ports[s->hosts[id].port];

		if (p->free_ev_at == s->now)
			p->free_ev_at = -1;
		if (!p->is_switch && s->hosts[p->owner].wake_at <= s->now)
			s->hosts[p->owner].wake_at = -1;
		HS(uint64_t before = port_tx_bytes(p));
		port_start(s, (uint32_t)(p - s->ports));
		HS(hs.free_idle += port_tx_bytes(p) == before);
		return;
	}
	switch (e->tid >> 24) {
	case EV_TIMER_SCAN:
		timer_scan(s);
		break;
	case EV_ALGO_TIMER:
		on_algo_timer(s, id);
		break;
	case EV_PFC_PAUSE:
		pfc_apply(s, id, true);
		break;
	case EV_PFC_RESUME:
		pfc_apply(s, id, false);
		break;
	case EV_PFC1_PAUSE:
		c1_pfc_apply(s, id, true);
		break;
	case EV_PFC1_RESUME:
		c1_pfc_apply(s, id, false);
		break;
	case EV_FLOW_START:
		flow_start(s, id);
		break;
	case EV_FLOW_STOP:
		flow_stop(s, id);
		break;
	case EV_FLOW_GEN:
		s->ev_shared++;
		s->src->flow_gen(s, id);
		break;
	case EV_STORM:
		storm(s, id);
		break;
	default:
		break;
	}
}

/* ---- a fabric's life ---------------------------------------------------- */

static void seed_rng(struct sim *s, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++) {	/* splitmix64 */
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		s->rng[i] = z ^ (z >> 31);
	}
}

void sim_free(struct sim *s)
{
	uint32_t i;

	if (!s)
		return;
	HS(hs_print(s));
	if (s->par_release)
		s->par_release(s);
	free(s->scan_bits);
	if (s->src && s->src->release)
		s->src->release(s);
	if (s->qhists)
		munmap(s->qhists, s->qhists_bytes);
	for (i = 0; i < s->nsw; i++)
		free(s->sws[i].routes);
	for (i = 0; i < s->nhosts; i++) {
		free(s->hosts[i].active);
		free(s->hosts[i].pbits);
	}
	for (i = 0; i < ALL_LANES; i++)
		free(s->lanes[i].ring);
	free(s->heap);
	free(s->wn);
	sim_big_free(s->pk, sizeof(*s->pk), s->pkcap);
	sim_big_free(s->pfree, sizeof(*s->pfree), s->pfcap);
	free(s->ports);
	free(s->nodes);
	free(s->hosts);
	free(s->sws);
	sim_big_free(s->qps, sizeof(*s->qps), s->qpcap);
	free(s->qpstate);
	for (i = 0; s->hconf && i < s->nhosts; i++)
		free(s->hconf[i]);
	free(s->hconf);
	free(s->rto_vals);
	free(s->rto_host);
	free(s->armed);
	free(s->far);
	free(s->tr);
	free(s->fct);
	tap_free(s->tap);
	free(s->c1);
	free(s);
}

int sim_fabric_create(struct sim **out, const struct sim_cfg *cfg,
		      const struct sim_algo *algo,
		      const struct sim_source *src, struct pcb_err *err)
{
	struct sim *s = calloc(1, sizeof(*s));
	uint32_t i, n;
	int rc;

	if (!s)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	s->src = src;
	s->cfg = *cfg;
	s->algo = *algo;
	for (i = 0; i <= ALL_LANES; i++)
		s->headk[i] = UINT64_MAX;
	for (i = 0; i < EV_LANES; i++)
		s->lane_d[i] = -1;
	for (i = 0; i < MAIL_LANES; i++)
		s->mail_d[i] = -1;
	/* the wheel's sentinel, node 0 (key 0); s is zeroed: every bucket
	 * empty */
	s->nwn = 1;
	if (wheel_grow(s)) {
		free(s);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	/* the heap exists from the start, its root's key UINT64_MAX while
	 * empty: the event loop reads it without testing for an empty heap */
	if (heap_reserve(s, 0)) {
		sim_free(s);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	s->stride = algo->ops ? (algo->ops->qp_state_size + 15) / 16 * 16 :
				16;
	s->line_ppb = 8000 / cfg->rate_gbps;
	s->qp_timeout = sim_qp_timeout_ps(cfg);
	s->adp = cfg->adp_retx == SIM_ADP_ON ||
		 (cfg->adp_retx == SIM_ADP_AUTO && (!cfg->pfc || cfg->loss));
	seed_rng(s, cfg->seed);
	s->fseed = mix64(cfg->seed ^ 0x66616272696364ULL);	/* "fabricd" */
	rc = src->build(s, err);
	if (rc) {
		sim_free(s);
		return rc;
	}
	s->prefetch = s->nports >= PF_MIN_PORTS;
	for (i = 0; i < s->nports; i++)
		s->ports[i].owner = s->nodes[s->ports[i].node].idx;
	for (i = 0; i < s->nhosts; i++) {
		/* every host reads the one configuration in s->algo */
		algo_port_init(&s->hosts[i].ap, &s->algo.conf);
		s->hosts[i].ap.counters_on = algo->counters_on;
		s->hosts[i].ap.line_gbps = cfg->rate_gbps;
		s->hosts[i].wake_at = -1;
	}
	/* the switch ports' queue histograms (16 KB each): fresh pages, so
	 * that those of ports whose queue never holds data (the reverse
	 * path) cost neither clearing nor memory */
	for (i = n = 0; i < s->nports; i++)
		n += s->ports[i].is_switch;
	if (n) {
		s->qhists_bytes = n * LHIST_N * sizeof(uint64_t);
		s->qhists = mmap(NULL, s->qhists_bytes, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (s->qhists == MAP_FAILED) {
			s->qhists = NULL;
			sim_free(s);
			return pcb_error(err, PCB_E_NOMEM, "out of memory");
		}
	}
	for (i = n = 0; i < s->nports; i++)
		if (s->ports[i].is_switch)
			s->ports[i].q_n = &s->qhists[LHIST_N * n++];
	*out = s;
	return 0;
}

/* ---- running ------------------------------------------------------------ */

void sim_window_reset(struct sim *s)
{
	uint32_t i;

	s->win_t0 = s->now;
	s->win0_drops = s->c.drops_nobuf + s->c.drops_loss;
	s->win0_rtos = s->c.rto;
	s->win0_pauses = s->pause_events;
	s->win0_events = s->events;
	s->nfct = 0;
	lhist_clear(&s->rtt);
	s->rtt_base_sum = 0;
	s->rtt_late = 0;
	s->probes_lost = 0;
	for (i = 0; i < s->nports; i++) {
		struct port *p = &s->ports[i];

		p->win0_payload = port_payload(p);
		p->q_max = p->data.bytes;
		qstat_clear(p, s->now);
	}
	for (i = 0; i < s->nqps; i++)
		s->qps[i].win_bytes = 0;
}

static size_t lanes_cap(const struct sim *s)
{
	size_t n = 0;
	unsigned i;

	for (i = 0; i < ALL_LANES; i++)
		n += s->lanes[i].ring ? s->lanes[i].mask + 1 : 0;
	return n;
}

static void mem_note(struct sim *s)
{
	size_t m = (s->hcap + s->capwn + lanes_cap(s)) * sizeof(struct ev) +
		   s->pkcap * (sizeof(struct pkt) + sizeof(uint32_t)) +
		   s->nports * sizeof(struct port) + s->qhists_bytes +
		   s->qpcap * (sizeof(struct qp) + s->stride);

	if (m > s->mem_peak)
		s->mem_peak = m;
}

int sim_run(struct sim *s, int64_t dur_ps, volatile sig_atomic_t *stop)
{
	sim_window_reset(s);
	return sim_run_more(s, dur_ps, stop);
}
/* The samples due at s->tr_next: the fabric's row, the tap's. */
static void trace_sample(struct sim *s)
{
	if (s->tr_rows)
		sim_trace_row(s);
	if (s->tap)
		tap_sample(s, s->tr_next);
	s->tr_next += s->tr_every;
}

/* Does data wait behind port pi: in its queue, or, at a host's NIC, in
 * a QP with packets to send?
 */
bool sim_port_waits(const struct sim *s, uint32_t pi)
{
	const struct port *p = &s->ports[pi];
	const struct host *h;
	uint32_t i;

	if (p->data.n || (s->c1 && s->c1[pi].data.n))
		return true;
	if (p->is_switch)
		return false;
	h = &s->hosts[p->owner];
	for (i = 0; i < h->nactive; i++)
		if (qp_has_work(&s->qps[h->capactive ? h->active[i].qp :
						       h->act[i].qp]))
			return true;
	return false;
}

/* The watchdog's test (at most every 16 K events and at the end of a
 * run, so a port scan is cheap): no data has left any port for
 * SIM_STALL_PS, yet some port that PFC holds has data to send.  Only a
 * pause that is never lifted does that; congestion alone keeps some
 * port sending.  Two threads (par.c): a replica looks at its own half,
 * par_loop asks both; its copy of the other half's ports, hosts and QPs
 * is as it was at the split (or the last fold), and a pause held there
 * then, long lifted, stopped a run one thread ran to its end.
 */
__attribute__((noinline)) bool sim_stalled(const struct sim *s)
{
	uint32_t i;

	if (s->now - s->last_tx < SIM_STALL_PS)
		return false;
	for (i = 0; i < s->nports; i++)
		if ((!s->part || s->part[i] == s->me) && port_held(s, i) &&
		    sim_port_waits(s, i))
			return true;
	return false;
}

/* Move the time base to now: every key shifts down alike, so the heap
 * order holds; far events now within the horizon join the heap.
 */
static void rebase(struct sim *s)
{
	uint64_t d = (uint64_t)(s->now - s->tbase) << EV_TID_BITS;
	uint32_t i, keep = 0;
	size_t j;

	/* keys stay within 36 bits while now - tbase < 2 EV_STEP, and a far
	 * event (beyond tbase + 4 EV_STEP) joins long before it is due */
	if (s->now - s->tbase < EV_STEP)
		return;

	for (j = 0; j < s->hn; j++)
		s->heap[j].k -= d;
	for (i = 0; i < ALL_LANES; i++) {
		struct lane *l = &s->lanes[i];
		uint32_t n;

		for (n = l->head; n != l->tail; n++)
			l->ring[n & l->mask].k -= d;
		if (l->head != l->tail)
			l->lastk -= d;
	}
	for (i = 0; i <= ALL_LANES; i++)
		if (s->headk[i] != UINT64_MAX)
			s->headk[i] -= d;
	for (i = 0; i < WHEEL_N; i++) {
		uint32_t ni;

		for (ni = s->wb[i].head; ni; ni = s->wn[ni].next)
			s->wn[ni].k -= d;
	}
	s->tbase = s->now;
	for (i = 0; i < s->nfar; i++) {
		if (s->far[i].t - s->tbase < EV_HORIZON)
			ev_push(s, s->far[i].t, s->far[i].tid >> 24,
				s->far[i].tid & 0xffffff);
		else
			s->far[keep++] = s->far[i];
	}
	s->nfar = keep;
}
/* Two threads (par.c): one window of a replica, the events due by hi;
 * the watchdog and the trace are par.c's (none). */
void sim_par_window(struct sim *s, int64_t hi)
{
	struct ev e;

	rebase(s);
	while (ev_pop_lanes(s, hi, &e, ALL_LANES)) {
		s->now = ev_time(s, &e);
		dispatch(s, &e);
		if (!(++s->events & 0x3fff))
			lane_review(s);
	}
	s->now = hi;
}

/* The pending events of s but the far ones. */
static size_t ev_count(const struct sim *s)
{
	size_t n = s->hn + s->wcount;
	unsigned i;

	for (i = 0; i < ALL_LANES; i++)
		n += s->lanes[i].tail - s->lanes[i].head;
	return n;
}

/* Every pending event of s but the far ones, taken out in key order,
 * into *out (n of them); -1 when out of memory, with s untouched (the
 * room is taken first). */
static int ev_drain(struct sim *s, struct far_ev **out, uint32_t *n)
{
	size_t cap = ev_count(s), got = 0;
	struct ev e;

	*n = 0;
	*out = malloc((cap ? cap : 1) * sizeof(**out));
	if (!*out)
		return -1;
	while (ev_pop(s, INT64_MAX, &e)) {
		if (got == cap)
			abort();	/* the count is every event's */
		(*out)[got].t = ev_time(s, &e);
		(*out)[got++].tid = e.tid;
	}
	*n = (uint32_t)got;
	s->wcur = s->now >> WHEEL_SHIFT;
	return 0;
}

/* An event ev_drain took out (of s, or of the other replica) into s's
 * heap, whose room the caller took (heap_reserve) before it took out
 * anything: the hand-overs between the halves run out of memory before
 * they move anything, or not at all, where ev_push (a lane's ring, the
 * wheel's nodes) would abort.  The heap orders by key as the rest. */
static void ev_put(struct sim *s, int64_t t, uint32_t tid)
{
	uint64_t k = ev_key(s, t, tid);

	if (k < s->headk[ALL_LANES])
		s->headk[ALL_LANES] = k;
	heap_push(s, (struct ev){ k, tid, 0 });
}

/* The far events of src that dst owns, into dst's far list (room for
 * src's; dst may be src: kept in place). */
static void far_own(struct sim *dst, const struct sim *src)
{
	uint32_t i, j = 0;

	for (i = 0; i < src->nfar; i++)
		if (par_owns(dst, src->far[i].tid >> 24,
			     src->far[i].tid & 0xffffff))
			dst->far[j++] = src->far[i];
	dst->nfar = j;
}

/* Two threads (par.c): drop the pending events of the other half's
 * objects (the flows a scenario made as it built), on a fabric that has
 * not run.  Every event is taken out in order and the owned ones put
 * back; the far list is filtered in place. */
int sim_par_prune(struct sim *s)
{
	struct far_ev *keep;
	uint32_t n, i;

	if (heap_reserve(s, ev_count(s)) || ev_drain(s, &keep, &n))
		return -1;
	for (i = 0; i < n; i++)
		if (par_owns(s, keep[i].tid >> 24, keep[i].tid & 0xffffff))
			ev_put(s, keep[i].t, keep[i].tid);
	far_own(s, s);
	free(keep);
	return 0;
}

/* A packet handed over, with key k: to the mail lane of its offset from
 * sending (claimed when empty), in order after the lane's last, else to
 * the wheel (sim_int.h, MAIL_LANES).  The sender made the mail in its
 * event order, so one offset's arrivals come in time order. */
static void mail_push(struct sim *s, const struct par_mail *m, uint64_t k,
		      uint32_t tid)
{
	unsigned j, e = MAIL_LANES;

	for (j = 0; j < MAIL_LANES; j++) {
		if (s->mail_d[j] == m->off)
			break;
		if (s->headk[EV_LANES + j] == UINT64_MAX)
			e = j;
	}
	if (j == MAIL_LANES && e < MAIL_LANES) {
		j = e;
		s->mail_d[j] = m->off;
		if (!s->lanes[EV_LANES + j].ring)
			lane_grow(&s->lanes[EV_LANES + j]);
	}
	if (j < MAIL_LANES && (s->headk[EV_LANES + j] == UINT64_MAX ||
			       k > s->lanes[EV_LANES + j].lastk))
		lane_append(s, EV_LANES + j, k, tid);
	else if (m->t - s->tbase >= EV_HORIZON)
		ev_push_other(s, m->t, tid);	/* the far list */
	else
		wheel_push(s, m->t, k, tid);
}

/* The crossing events of a window handed over (par.c): due after this
 * replica's now.  A packet's slot is written a few mails ahead of its
 * copy (thousands are taken at once, most long out of the cache). */
void sim_par_deliver(struct sim *s, const struct par_box *b)
{
	uint32_t i, ki, tid;

	for (i = 0; i < b->n; i++) {
		const struct par_mail *m = &b->m[i];

		if (s->npfree > 8)
			__builtin_prefetch(&s->pk[s->pfree[s->npfree - 9]], 1);
		if (m->type == EV_ARRIVE) {
			ki = pkt_alloc(s);
			s->pk[ki] = m->pkt;
			s->pk[ki].next = NONE;
			tid = (uint32_t)EV_ARRIVE << 24 | ki;
			mail_push(s, m, arrive_key(s, m->t, m->pkt.port), tid);
			continue;
		}
		if (m->type == EV_PFC_PAUSE)	/* pfc_apply reads the sender's */
			s->ports[s->ports[m->port].peer].xoff_at = m->xoff_at;
		ev_push(s, m->t, (enum ev_type)m->type, m->port);
	}
}

/* Packet ki of r into a slot of s (map: r's slot -> s's, NONE until
 * moved); its slot in s. */
static uint32_t join_pkt(struct sim *s, const struct sim *r, uint32_t *map,
			 uint32_t ki)
{
	if (map[ki] == NONE) {
		map[ki] = pkt_alloc(s);
		s->pk[map[ki]] = r->pk[ki];
	}
	return map[ki];
}

/* A queue of r's port into s's, its packets moved in order. */
static void join_queue(struct sim *s, const struct sim *r, uint32_t *map,
		       struct pqueue *q, const struct pqueue *from)
{
	uint32_t ki;

	*q = (struct pqueue){ NONE, NONE, 0, 0 };
	for (ki = from->head; ki != NONE; ki = r->pk[ki].next)
		q_push(s, q, join_pkt(s, r, map, ki));
	if (q->n != from->n || q->bytes != from->bytes)
		abort();	/* a queue's count is its packets' */
}

/* Host o's QPs with work and its algorithm port's state into h (the
 * rest par_fold copies, or sim_par_split); -1 when out of memory. */
static int host_take(struct host *h, const struct host *o)
{
	if (o->capactive) {
		uint32_t cap = h->capactive, w = (o->nactive + 63) / 64;

		if (sim_grow((void **)&h->active, sizeof(*h->active), &cap,
			     o->nactive ? o->nactive : 1) ||
		    sim_grow((void **)&h->pbits, sizeof(*h->pbits),
			     &h->cappbits, (cap + 63) / 64))
			return -1;
		h->capactive = cap;
		memcpy(h->active, o->active, o->nactive * sizeof(*h->active));
		memcpy(h->pbits, o->pbits, w * sizeof(*h->pbits));
		memset(h->pbits + w, 0, (h->cappbits - w) * sizeof(*h->pbits));
	} else if (h->capactive) {	/* o's fit inline */
		free(h->active);
		h->active = NULL;
		h->capactive = 0;
		free(h->pbits);
		h->pbits = NULL;
		h->cappbits = 0;
	}
	memcpy(h->act, o->act, sizeof(h->act));
	h->pbit = o->pbit;
	h->nactive = o->nactive;
	h->nprobe = o->nprobe;
	h->rr = o->rr;
	h->ap.global_min_rtt = o->ap.global_min_rtt;
	return 0;
}

/* The armed QPs of s whose sender is its own, in their order. */
static void armed_keep_own(struct sim *s)
{
	uint32_t i, j = 0;

	for (i = 0; i < s->narmed; i++) {
		uint32_t qi = s->armed[i];

		if (!par_host_mine(s, s->qps[qi].src)) {
			s->qps[qi].armed_pos = NONE;
			continue;
		}
		s->qps[qi].armed_pos = j;
		s->armed[j++] = qi;
	}
	s->narmed = j;
}

/* A replica's copy of a queue of the other half's port: its packets'
 * slots freed, the queue empty (the other replica runs it). */
static void queue_drop(struct sim *s, struct pqueue *q)
{
	uint32_t ki, next;

	for (ki = q->head; ki != NONE; ki = next) {
		next = s->pk[ki].next;
		pkt_free(s, ki);
	}
	*q = (struct pqueue){ NONE, NONE, 0, 0 };
}

/* Two threads (par.c) from a fabric that has run: the second replica,
 * built fresh from the same scenario, takes the first's state (its time,
 * packet pool, ports, switches' buffer counts, hosts, QPs and their
 * algorithm state, armed timers, the workload's generator), then each
 * keeps its own half: the events of its objects (par_owns), the packets
 * queued at and flying to its ports.  What par_fold sums or appends
 * into the first (the fabric's counts, the hosts' algorithm counters,
 * RTTs, FCTs, RTOs, the event count) starts at zero in the second; the
 * hosts' NIC counts, which it copies, are copied.  -1 when out of
 * memory. */
int sim_par_split(struct sim *s, struct sim *r)
{
	struct far_ev *a = NULL, *b = NULL;
	uint32_t na, nb, i;
	size_t ns = ev_count(s);
	int rc = -1;

	/* the second's own events, as built, go: the first's replace them;
	 * all the room first, so that s is left as it was if there is none */
	if (ev_drain(r, &b, &nb))
		goto out;
	r->nfar = 0;
	if (heap_reserve(r, ns) || heap_reserve(s, ns) ||
	    sim_pkt_reserve(r, s->npk ? s->npk : 1) ||
	    sim_qp_reserve(r, s->nqps ? s->nqps : 1) ||
	    sim_grow((void **)&r->armed, sizeof(*r->armed), &r->caparmed,
		     s->narmed ? s->narmed : 1) ||
	    sim_grow((void **)&r->far, sizeof(*r->far), &r->capfar,
		     s->nfar ? s->nfar : 1))
		goto out;
	for (i = 0; i < s->nhosts; i++)
		if (host_take(&r->hosts[i], &s->hosts[i]))
			goto out;
	if (ev_drain(s, &a, &na))
		goto out;
	r->now = s->now;
	r->tbase = s->tbase;
	r->wcur = s->wcur;
	memcpy(r->pk, s->pk, s->npk * sizeof(*s->pk));
	r->npk = s->npk;
	memcpy(r->pfree, s->pfree, s->npfree * sizeof(*s->pfree));
	r->npfree = s->npfree;
	for (i = 0; i < s->nports; i++) {
		const struct port *p = &s->ports[i];
		uint64_t *qn = r->ports[i].q_n;

		r->ports[i] = *p;
		r->ports[i].q_n = qn;
		if (qn && p->qs.vmax)
			memcpy(qn, p->q_n, lhist_used(p->qs.vmax) * sizeof(*qn));
	}
	for (i = 0; i < s->nsw; i++) {
		r->sws[i].used = s->sws[i].used;
		r->sws[i].shared = s->sws[i].shared;
	}
	for (i = 0; i < s->nhosts; i++) {
		r->hosts[i].wake_at = s->hosts[i].wake_at;
		r->hosts[i].gen_next = s->hosts[i].gen_next;
		r->hosts[i].nc = s->hosts[i].nc;
	}
	memcpy(r->qps, s->qps, s->nqps * sizeof(*s->qps));
	memcpy(r->qpstate, s->qpstate, s->nqps * s->stride);
	r->nqps = s->nqps;
	memcpy(r->armed, s->armed, s->narmed * sizeof(*s->armed));
	r->narmed = s->narmed;
	r->scan_pending = s->scan_pending;
	r->timer_hint = s->timer_hint;
	r->timer_lb = s->timer_lb;
	memcpy(r->rng, s->rng, sizeof(s->rng));
	r->last_tx = s->last_tx;
	r->pfc_lag_max = s->pfc_lag_max;
	/* each its half */
	armed_keep_own(s);
	armed_keep_own(r);
	for (i = 0; i < s->nports; i++) {
		struct sim *o = s->part[i] == s->me ? r : s;

		queue_drop(o, &o->ports[i].ctrl);
		queue_drop(o, &o->ports[i].data);
	}
	for (i = 0; i < na; i++) {
		enum ev_type type = (enum ev_type)(a[i].tid >> 24);
		uint32_t id = a[i].tid & 0xffffff;
		bool mine = par_owns(s, type, id), theirs = par_owns(r, type, id);

		if (mine)
			ev_put(s, a[i].t, a[i].tid);
		else if (type == EV_ARRIVE)
			pkt_free(s, id);
		if (theirs)
			ev_put(r, a[i].t, a[i].tid);
		else if (type == EV_ARRIVE)
			pkt_free(r, id);
	}
	far_own(r, s);
	far_own(s, s);
	rc = 0;
out:
	free(a);
	free(b);
	return rc;
}

/* Two threads (par.c): after par_fold, the rest of the second replica's
 * half moves into the first, which then runs on alone, as one thread
 * would have: the packets in its ports' queues and in flight to them,
 * its pending events, its switches' buffer counts, its hosts' lists of
 * QPs with work and their algorithm state, its armed QPs.  The
 * generators and the timer scan both ran: the first's events stand for
 * them.  The armed QPs of the halves are joined one list after the
 * other: the scan visits a host's QPs in its own arming order either
 * way, and that is all a run depends on (timer_scan).  -1 when out of
 * memory (s then runs no more: par.c). */
int sim_par_join(struct sim *s, struct sim *r)
{
	struct far_ev *a = NULL, *b = NULL;
	uint32_t na, nb, i, j, *map = NULL;
	/* r's packets: queued at its ports and flying to them */
	uint32_t live = r->npk - r->npfree;
	int rc = -1;

	/* the room first: the events of both in s's heap, a slot for
	 * each of r's packets, both lists of armed QPs and of far events */
	if (heap_reserve(s, ev_count(s) + ev_count(r)) ||
	    sim_pkt_reserve(s, s->npk + (live > s->npfree ?
					 live - s->npfree : 0)) ||
	    sim_grow((void **)&s->armed, sizeof(*s->armed), &s->caparmed,
		     s->narmed + r->narmed) ||
	    sim_grow((void **)&s->far, sizeof(*s->far), &s->capfar,
		     s->nfar + r->nfar))
		goto out;
	map = malloc((r->npk ? r->npk : 1) * sizeof(*map));
	if (!map || ev_drain(s, &a, &na) || ev_drain(r, &b, &nb))
		goto out;
	memset(map, 0xff, (r->npk ? r->npk : 1) * sizeof(*map));
	/* the second half's queues (par_fold copied its ports: their
	 * queues still name r's slots) */
	for (i = 0; i < s->nports; i++) {
		if (s->part[i] != 1)
			continue;
		join_queue(s, r, map, &s->ports[i].ctrl, &r->ports[i].ctrl);
		join_queue(s, r, map, &s->ports[i].data, &r->ports[i].data);
	}
	for (i = 0; i < s->nsw; i++) {
		const struct node *nd = &s->nodes[s->sws[i].node];

		if (s->part[nd->port0] != 1)
			continue;
		s->sws[i].used = r->sws[i].used;
		s->sws[i].shared = r->sws[i].shared;
	}
	for (i = 0; i < s->nhosts; i++) {
		struct host *h = &s->hosts[i];
		const struct host *o = &r->hosts[i];

		if (s->part[h->port] == 1 && host_take(h, o))
			goto out;
	}
	/* the armed QPs: the first's, then the second's */
	for (i = 0; i < r->narmed; i++)
		s->armed[s->narmed + i] = r->armed[i];
	s->narmed += r->narmed;
	for (i = 0; i < s->narmed; i++)
		s->qps[s->armed[i]].armed_pos = i;
	if (r->timer_lb < s->timer_lb)
		s->timer_lb = r->timer_lb;
	s->timer_hint = s->timer_hint || r->timer_hint;
	/* the events: the second's own, with their packets */
	s->part = NULL;
	for (i = 0; i < na; i++)
		ev_put(s, a[i].t, a[i].tid);
	for (i = 0; i < nb; i++) {
		enum ev_type type = (enum ev_type)(b[i].tid >> 24);
		uint32_t id = b[i].tid & 0xffffff;

		if (type == EV_FLOW_GEN ||
		    (type == EV_TIMER_SCAN && s->scan_pending))
			continue;
		if (type == EV_TIMER_SCAN)
			s->scan_pending = true;
		if (type == EV_ARRIVE)
			id = join_pkt(s, r, map, id);
		ev_put(s, b[i].t, (uint32_t)type << 24 | id);
	}
	for (i = 0, j = s->nfar; i < r->nfar; i++)
		if (r->far[i].tid >> 24 != EV_FLOW_GEN)
			s->far[j++] = r->far[i];
	s->nfar = j;
	s->wcur = s->now >> WHEEL_SHIFT;
	rc = 0;
out:
	free(a);
	free(b);
	free(map);
	return rc;
}

int sim_run_more(struct sim *s, int64_t dur_ps, volatile sig_atomic_t *stop)
{
	int64_t end = s->now + dur_ps;

	while (s->now < end || s->now == end) {
		/* steps of at most EV_STEP keep every key within 36 bits */
		int64_t step_end = end - s->now > EV_STEP ? s->now + EV_STEP :
							     end;

		rebase(s);
		for (;;) {
			/* the watchdog looks once SIM_STALL_PS has passed
			 * without a data departure, whether events come or
			 * not (a stalled fabric may have none) */
			int64_t watch = s->last_tx + SIM_STALL_PS;
			int64_t until = watch > s->now && watch < step_end ?
					watch : step_end;
			struct ev e;

			while (ev_pop_one(s, until, &e)) {
				int64_t t = ev_time(s, &e);

				while (s->tr_every && t >= s->tr_next)
					trace_sample(s);
				s->now = t;
				dispatch(s, &e);
				if (!(++s->events & 0x3fff)) {
					lane_review(s);
					if (stop && *stop) {
						mem_note(s);
						return -PCB_E_INTR;
					}
				}
			}
			if (until == step_end)
				break;
			s->now = until;
			if (sim_stalled(s)) {
				mem_note(s);
				return -PCB_E_DEVICE;
			}
		}
		while (s->tr_every && s->tr_next <= step_end)
			trace_sample(s);
		s->now = step_end;
		if (step_end == end)
			break;
	}
	mem_note(s);
	return sim_stalled(s) ? -PCB_E_DEVICE : 0;
}
