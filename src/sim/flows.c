/* flows.c - the flows of a window: the per-flow file and the FCT
 * slowdown by flow-size percentile (HPCC's analysis/fct_analysis.py).
 *
 * A flow belongs to the window that saw it start (a warm-up's flows
 * stay out).  Finished flows have an FCT; flows still running when the
 * window ends are listed in the file with an empty finish, FCT and
 * slowdown, and only counted in the table.  Long-lived flows (no size)
 * have no FCT and are in neither.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

/* The flow alone on its idle path: the path's round trip (which also
 * brings back the last ACK) and every byte with its headers at the host
 * link's rate, as HPCC's standalone FCT.
 */
int64_t sim_ideal_fct(const struct sim *s, const struct qp *q)
{
	return q->path_rtt + (int64_t)((q->size + (uint64_t)q->npkts *
					HDR_BYTES) *
				       s->src->path_ppb(s, q->src, q->dst));
}

static bool in_window(const struct sim *s, const struct qp *q)
{
	return q->started && q->size && q->start >= s->win_t0;
}

static void csv_str(FILE *fp, const char *v)
{
	if (!strpbrk(v, ",\"\r\n")) {
		fputs(v, fp);
		return;
	}
	fputc('"', fp);
	for (; *v; v++) {
		if (*v == '"')
			fputc('"', fp);
		fputc(*v, fp);
	}
	fputc('"', fp);
}

static void ns3(FILE *fp, int64_t t)	/* ns, exact to the ps */
{
	fprintf(fp, "%lld.%03lld", (long long)(t / 1000),
		(long long)(t % 1000));
}

int sim_flows_write(const struct sim *s, FILE *fp, const char *algo)
{
	uint32_t i;

	fprintf(fp, "id,src,dst,size_bytes,start_ns,finish_ns,fct_ns,"
		"ideal_fct_ns,slowdown,retransmits,algorithm\r\n");
	for (i = 0; i < s->nqps; i++) {
		const struct qp *q = &s->qps[i];
		int64_t ideal = sim_ideal_fct(s, q);

		if (!in_window(s, q))
			continue;
		fprintf(fp, "%u,%u,%u,%llu,", i, q->src, q->dst,
			(unsigned long long)q->size);
		ns3(fp, q->start);
		fputc(',', fp);
		if (q->done) {
			double sd = (double)(q->finish - q->start) /
				    (double)ideal;

			ns3(fp, q->finish);
			fputc(',', fp);
			ns3(fp, q->finish - q->start);
			fputc(',', fp);
			ns3(fp, ideal);
			fprintf(fp, ",%.6f,", sd < 1 ? 1 : sd);
		} else {
			fputs(",,", fp);
			ns3(fp, ideal);
			fputs(",,", fp);
		}
		fprintf(fp, "%u,", tap_retx(s, i));
		csv_str(fp, algo);
		fputs("\r\n", fp);
	}
	return ferror(fp) ? -PCB_E_IO : 0;
}

/* By size, then slowdown: HPCC sorts by size; the tie order is ours. */
static int by_size(const void *a, const void *b)
{
	const struct fct_rec *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->slowdown < y->slowdown ? -1 : x->slowdown > y->slowdown;
}

static int by_slowdown(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* HPCC's percentile: the element at floor(n p) of the sorted values. */
static double pctl(const double *v, size_t n, double p)
{
	size_t i = (size_t)((double)n * p);

	return v[i < n ? i : n - 1];
}

void sim_fct_slowdown(const struct sim *s, double *p50, double *p99)
{
	size_t n = s->nfct, i;
	double *sd = malloc((n ? n : 1) * sizeof(*sd));

	*p50 = *p99 = NAN;
	if (!sd || !n) {
		free(sd);
		return;
	}
	for (i = 0; i < n; i++)
		sd[i] = s->fct[i].slowdown;
	qsort(sd, n, sizeof(*sd), by_slowdown);
	*p50 = pctl(sd, n, 0.5);
	*p99 = pctl(sd, n, 0.99);
	free(sd);
}

int sim_fct_table(const struct sim *s, unsigned step,
		  struct sim_fct_table *t)
{
	struct fct_rec *f;
	double *sd;
	size_t n = s->nfct, i, pct;
	uint32_t q;

	memset(t, 0, sizeof(*t));
	if (!step || 100 % step)
		return -PCB_E_RANGE;
	for (q = 0; q < s->nqps; q++)
		if (in_window(s, &s->qps[q]) && !s->qps[q].done)
			t->running++;
	t->finished = (uint32_t)n;
	f = malloc((n ? n : 1) * sizeof(*f));
	sd = malloc((n ? n : 1) * sizeof(*sd));
	if (!f || !sd) {
		free(f);
		free(sd);
		return -PCB_E_NOMEM;
	}
	if (n)		/* s->fct is NULL before a first flow finished */
		memcpy(f, s->fct, n * sizeof(*f));
	qsort(f, n, sizeof(*f), by_size);
	/* slices of step % of the flows by size: [pct n / 100, (pct +
	 * step) n / 100) as fct_analysis.py cuts them; an empty one (few
	 * flows) is left out */
	for (pct = 0; pct < 100; pct += step) {
		size_t l = pct * n / 100, r = (pct + step) * n / 100;
		struct sim_fct_bin *b = &t->bin[t->nbins];
		double sum = 0;

		if (l == r)
			continue;
		for (i = l; i < r; i++) {
			sd[i - l] = f[i].slowdown;
			sum += f[i].slowdown;
		}
		qsort(sd, r - l, sizeof(*sd), by_slowdown);
		b->pct_lo = (unsigned)pct;
		b->pct_hi = (unsigned)(pct + step);
		b->size_lo = f[l].size;
		b->size_hi = f[r - 1].size;
		b->n = (uint32_t)(r - l);
		b->mean = sum / (double)(r - l);
		b->p50 = pctl(sd, r - l, 0.5);
		b->p95 = pctl(sd, r - l, 0.95);
		b->p99 = pctl(sd, r - l, 0.99);
		t->nbins++;
	}
	free(f);
	free(sd);
	return 0;
}
