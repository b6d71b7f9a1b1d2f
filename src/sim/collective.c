/* collective.c - the collective workloads AI training fabrics are tuned
 * for (issue 34, item 8): all-reduce (ring or tree) and all-to-all over
 * `ranks` ranks, rank r on host r, each a set of flows in steps, a step
 * starting when its inputs arrived (the last byte of the flow it
 * depends on, in order, at its receiver).  The iterations run back to
 * back; each one's completion time is kept.
 *
 * The algorithms, as NCCL and nccl-tests describe them (doc/PERFORMANCE.md,
 * round3-facts.md):
 *  - ring all-reduce: 2(n-1) steps (n-1 reduce-scatter, n-1 all-gather);
 *    at step k rank r sends its S/n chunk to rank r+1, and its step k+1
 *    goes when rank r-1's step-k chunk has arrived;
 *  - all-to-all: every rank sends S/n to every other rank at once;
 *  - tree all-reduce [reconstructed]: one binary tree (rank 0 the root,
 *    rank i's parent (i-1)/2) where NCCL builds two, S cut in
 *    COLL_CHUNKS chunks pipelined with one chunk in flight per edge:
 *    a rank sends chunk c up once it has chunk c from all its children,
 *    and down once it has it from its parent (the root: once reduced).
 * NCCL's own pipelining inside a ring step (slices, several channels)
 * is not modelled: a step is one flow.
 *
 * Ownership: the state hangs off sim.coll, made by sim_coll_start and
 * freed by sim_coll_free (the source's release).
 */
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

#define COLL_CHUNKS 8

struct coll_tag {
	uint32_t step;		/* ring: the step; tree: the chunk */
	uint32_t rank;		/* the sender; tree: the edge's child end */
	bool up;		/* tree: towards the root */
};

struct coll {
	uint32_t n, iter, chunks;
	uint64_t bytes;		/* per flow */
	int64_t t_start;	/* the current iteration's */
	uint64_t left;		/* arrivals the iteration still waits for */
	struct coll_tag *tag;	/* per QP */
	uint32_t captag;
	/* tree: per rank, per chunk */
	uint8_t *up_got;	/* children's chunk c arrived */
	uint8_t *down_got;	/* has chunk c reduced (root) or from above */
	uint32_t *up_next, *down_next;	/* next chunk to send up, to get
					 * from above */
	bool *up_busy, *down_busy;	/* a chunk in flight on the edge */
	int64_t *times;		/* completion times, ps */
	uint32_t ntimes, captimes;
};

static uint32_t children(const struct coll *k, uint32_t i)
{
	return (2 * i + 1 < k->n) + (2 * i + 2 < k->n);
}

/* A flow of the collective from rank `from` to `to`, tagged (step,
 * rank, up); aborts out of memory, as sim_add_qp does. */
static void coll_send(struct sim *s, uint32_t from, uint32_t to,
		      uint32_t step, uint32_t rank, bool up)
{
	struct coll *k = s->coll;
	uint32_t qi = sim_add_qp(s, from, to, k->bytes, s->now, 0);

	if (sim_grow((void **)&k->tag, sizeof(*k->tag), &k->captag, qi + 1))
		abort();
	k->tag[qi].step = step;
	k->tag[qi].rank = rank;
	k->tag[qi].up = up;
}

static void tree_up(struct sim *s, uint32_t i)
{
	struct coll *k = s->coll;
	uint32_t c = k->up_next[i];

	if (!i || k->up_busy[i] || c >= k->chunks ||
	    k->up_got[(size_t)i * k->chunks + c] < children(k, i))
		return;
	k->up_busy[i] = true;
	coll_send(s, i, (i - 1) / 2, c, i, true);
}

/* The chunk rank j (not the root) gets next from its parent. */
static void tree_down(struct sim *s, uint32_t j)
{
	struct coll *k = s->coll;
	uint32_t c = k->down_next[j], p = (j - 1) / 2;

	if (k->down_busy[j] || c >= k->chunks ||
	    !k->down_got[(size_t)p * k->chunks + c])
		return;
	k->down_busy[j] = true;
	coll_send(s, p, j, c, j, false);
}

static void iter_start(struct sim *s)
{
	struct coll *k = s->coll;
	uint32_t n = k->n, r, d;
	size_t cells = (size_t)n * k->chunks;

	k->t_start = s->now;
	if (s->cfg.kind == SIM_ALLTOALL) {
		k->left = (uint64_t)n * (n - 1);
		for (r = 0; r < n; r++)
			for (d = 1; d < n; d++)
				coll_send(s, r, (r + d) % n, 0, r, false);
	} else if (s->cfg.coll_algo == SIM_COLL_RING) {
		k->left = n;
		for (r = 0; r < n; r++)
			coll_send(s, r, (r + 1) % n, 0, r, false);
	} else {
		k->left = (uint64_t)(n - 1) * k->chunks;
		memset(k->up_got, 0, cells);
		memset(k->down_got, 0, cells);
		memset(k->up_next, 0, n * sizeof(*k->up_next));
		memset(k->down_next, 0, n * sizeof(*k->down_next));
		memset(k->up_busy, 0, n * sizeof(*k->up_busy));
		memset(k->down_busy, 0, n * sizeof(*k->down_busy));
		for (r = 1; r < n; r++)
			tree_up(s, r);
	}
}

int sim_coll_start(struct sim *s)
{
	const struct sim_cfg *c = &s->cfg;
	struct coll *k = calloc(1, sizeof(*k));
	uint32_t n = c->ranks, parts;
	size_t cells;

	if (!k)
		return -1;
	s->coll = k;
	k->n = n;
	k->chunks = c->kind == SIM_ALLREDUCE && c->coll_algo == SIM_COLL_TREE ?
		    COLL_CHUNKS : 1;
	parts = k->chunks > 1 ? k->chunks : n;
	k->bytes = (c->coll_size + parts - 1) / parts;
	if (k->chunks > 1) {
		cells = (size_t)n * k->chunks;
		k->up_got = calloc(cells, 1);
		k->down_got = calloc(cells, 1);
		k->up_next = calloc(n, sizeof(*k->up_next));
		k->down_next = calloc(n, sizeof(*k->down_next));
		k->up_busy = calloc(n, sizeof(*k->up_busy));
		k->down_busy = calloc(n, sizeof(*k->down_busy));
		if (!k->up_got || !k->down_got || !k->up_next ||
		    !k->down_next || !k->up_busy || !k->down_busy)
			return -1;
	}
	iter_start(s);
	return 0;
}

static void iter_done(struct sim *s)
{
	struct coll *k = s->coll;

	if (sim_grow((void **)&k->times, sizeof(*k->times), &k->captimes,
		     k->ntimes + 1))
		abort();
	k->times[k->ntimes++] = s->now - k->t_start;
	if (++k->iter < s->cfg.iters)
		iter_start(s);
}

static void tree_arrived(struct sim *s, struct coll_tag t)
{
	struct coll *k = s->coll;
	uint32_t c = t.step, i = t.rank, p = (i - 1) / 2, q;

	if (t.up) {	/* from rank i to its parent p */
		uint32_t j;

		k->up_busy[i] = false;
		k->up_next[i]++;
		k->up_got[(size_t)p * k->chunks + c]++;
		tree_up(s, i);
		tree_up(s, p);
		if (!p && k->up_got[c] == children(k, 0)) {
			k->down_got[c] = 1;	/* reduced at the root */
			for (j = 1; j <= 2 && j < k->n; j++)
				tree_down(s, j);
		}
		return;
	}
	/* down, to rank i */
	k->down_busy[i] = false;
	k->down_next[i]++;
	k->down_got[(size_t)i * k->chunks + c] = 1;
	k->left--;
	tree_down(s, i);
	for (q = 2 * i + 1; q <= 2 * i + 2 && q < k->n; q++)
		tree_down(s, q);
}

void sim_coll_arrived(struct sim *s, uint32_t qi)
{
	struct coll *k = s->coll;
	struct coll_tag t;
	uint32_t n;

	if (!k || qi >= k->captag)
		return;
	t = k->tag[qi];
	n = k->n;
	if (s->cfg.kind == SIM_ALLREDUCE && s->cfg.coll_algo ==
	    SIM_COLL_TREE) {
		tree_arrived(s, t);
	} else if (s->cfg.kind == SIM_ALLREDUCE &&
		   t.step + 1 < 2 * (n - 1)) {
		uint32_t r = (t.rank + 1) % n;	/* ring: the receiver */

		coll_send(s, r, (r + 1) % n, t.step + 1, r, false);
		return;
	} else {
		k->left--;
	}
	if (!k->left)
		iter_done(s);
}

size_t sim_coll_times(const struct sim *s, const int64_t **t)
{
	*t = s->coll ? s->coll->times : NULL;
	return s->coll ? s->coll->ntimes : 0;
}

/* The collectives that finished in the window: a collective's end is
 * its start plus its time, the iterations back to back from 0. */
void sim_coll_summary(const struct sim *s, struct sim_summary *sum)
{
	const struct coll *k = s->coll;
	double n, sum_t = 0;
	int64_t end = 0;
	uint32_t i;

	if (!k)
		return;
	sum->coll = true;
	sum->coll_min = INT64_MAX;
	for (i = 0; i < k->ntimes; i++) {
		end += k->times[i];
		if (end <= s->win_t0)
			continue;
		sum->colls++;
		sum_t += (double)k->times[i];
		if (k->times[i] < sum->coll_min)
			sum->coll_min = k->times[i];
		if (k->times[i] > sum->coll_max)
			sum->coll_max = k->times[i];
	}
	if (!sum->colls) {
		sum->coll_min = 0;
		return;
	}
	sum->coll_mean = (int64_t)(sum_t / sum->colls);
	n = k->n;
	/* bytes / ps * 8000 = Gb/s */
	sum->algbw = (double)s->cfg.coll_size * 8000.0 / (sum_t / sum->colls);
	sum->busbw = sum->algbw * (s->cfg.kind == SIM_ALLREDUCE ?
				   2 * (n - 1) / n : (n - 1) / n);
}

void sim_coll_free(struct sim *s)
{
	struct coll *k = s->coll;

	if (!k)
		return;
	free(k->tag);
	free(k->up_got);
	free(k->down_got);
	free(k->up_next);
	free(k->down_next);
	free(k->up_busy);
	free(k->down_busy);
	free(k->times);
	free(k);
	s->coll = NULL;
}
