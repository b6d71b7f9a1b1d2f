/* search.c - the search (tune.h): the points of a scrambled Latin
 * hypercube, their runs through the sweep pool (a zip plan), NLopt's Sbplx
 * from the best of them, the sensitivity probes around the best.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlopt.h>

#include "paths.h"
#include "rec/series.h"
#include "session.h"
#include "tune/search.h"
#include "util/lazylib.h"
#include "units.h"

/* libnlopt, opened by the tune commands (tune_lib_load): linked, it and
 * libstdc++ cost every process its start-up (src/util/lazylib.c). */
static struct {
	__typeof__(nlopt_create) *create;
	__typeof__(nlopt_destroy) *destroy;
	__typeof__(nlopt_force_stop) *force_stop;
	__typeof__(nlopt_optimize) *optimize;
	__typeof__(nlopt_set_initial_step1) *set_initial_step1;
	__typeof__(nlopt_set_lower_bounds) *set_lower_bounds;
	__typeof__(nlopt_set_maxeval) *set_maxeval;
	__typeof__(nlopt_set_min_objective) *set_min_objective;
	__typeof__(nlopt_set_upper_bounds) *set_upper_bounds;
	__typeof__(nlopt_set_xtol_abs1) *set_xtol_abs1;
} nl;
static const char *const nl_names[] = {
	"nlopt_create", "nlopt_destroy", "nlopt_force_stop", "nlopt_optimize",
	"nlopt_set_initial_step1", "nlopt_set_lower_bounds",
	"nlopt_set_maxeval", "nlopt_set_min_objective",
	"nlopt_set_upper_bounds", "nlopt_set_xtol_abs1", NULL
};
static struct lazylib nl_lib = { "libnlopt.so.0", "tune", "libnlopt0",
				 nl_names, &nl, false };
#define nlopt_create (*nl.create)
#define nlopt_destroy (*nl.destroy)
#define nlopt_force_stop (*nl.force_stop)
#define nlopt_optimize (*nl.optimize)
#define nlopt_set_initial_step1 (*nl.set_initial_step1)
#define nlopt_set_lower_bounds (*nl.set_lower_bounds)
#define nlopt_set_maxeval (*nl.set_maxeval)
#define nlopt_set_min_objective (*nl.set_min_objective)
#define nlopt_set_upper_bounds (*nl.set_upper_bounds)
#define nlopt_set_xtol_abs1 (*nl.set_xtol_abs1)

int tune_lib_load(struct pcb_err *err)
{
	return lazylib_load(&nl_lib, err);
}

/* ---- the points ------------------------------------------------------ */

/* u in [0, 1] to the param's raw value (rounded; log scale when said). */
static uint32_t raw_of(const struct tune_prm *p, double u)
{
	double lo = p->lo, hi = p->hi, x;

	u = u < 0 ? 0 : u > 1 ? 1 : u;
	x = p->log ? exp(log(lo) + u * (log(hi) - log(lo))) :
		     lo + u * (hi - lo);
	x = floor(x + 0.5);
	return x < lo ? p->lo : x > hi ? p->hi : (uint32_t)x;
}

static double u_of(const struct tune_prm *p, uint32_t raw)
{
	if (p->hi == p->lo)
		return 0;
	if (p->log)
		return (log(raw) - log(p->lo)) / (log(p->hi) - log(p->lo));
	return ((double)raw - p->lo) / ((double)p->hi - p->lo);
}

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A scrambled Latin hypercube of n points in [0,1]^d: in every dimension
 * one point per stratum, strata shuffled and the place in each drawn,
 * from a generator seeded by the seed list (the same seeds, the same
 * points).
 */
static void lhs(const struct tune_res *r, size_t n, double *u)
{
	uint64_t x = 0x243f6a8885a308d3ULL;
	size_t d, i, *perm = malloc(n * sizeof(*perm));

	for (i = 0; i < r->nseeds; i++)
		x = (x ^ r->seeds[i]) * 0x100000001b3ULL + 1;
	if (!x)
		x = 1;
	for (d = 0; d < r->nprm; d++) {
		for (i = 0; perm && i < n; i++)
			perm[i] = i;
		for (i = n; perm && i > 1; i--) {
			size_t j = (size_t)(xorshift(&x) % i), t = perm[i - 1];

			perm[i - 1] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < n; i++) {
			double jit = (double)(xorshift(&x) >> 11) / 9007199254740992.0;

			u[i * r->nprm + d] = ((double)(perm ? perm[i] : i) +
					      jit) / (double)n;
		}
	}
	free(perm);
}

/* ---- evaluations ----------------------------------------------------- */

static int find_eval(const struct tune_res *r, const uint32_t *raw)
{
	size_t i;

	for (i = 0; i < r->nev; i++)
		if (!memcmp(r->ev[i].raw, raw, r->nprm * sizeof(*raw)))
			return (int)i;
	return -1;
}

/* The means and intervals of point p of the batch just run on scenario
 * k's plan, and whether they meet the constraints.
 */
static void scen_stats(struct tsearch *t, size_t k, size_t p,
		       struct tune_sval *e)
{
	struct plan *pl = t->spl[k];
	size_t nc = pl->res->ncols, c, j;
	double v[SW_MAX_REPEAT];

	for (c = 0; c <= t->r->ncons; c++) {
		int col = c ? t->ccol[c - 1] : t->ocol;
		double *m = c ? &e->con[c - 1] : &e->obj;
		double *ci = c ? &e->con_ci[c - 1] : &e->obj_ci;

		for (j = 0; j < pl->repeat; j++)
			v[j] = pl->rows[(p * pl->repeat + j) * nc + (size_t)col];
		sw_repeats_ci(pl->res->cols[col].name, v, pl->repeat, m, ci);
	}
	e->feasible = true;
	for (c = 0; c < t->r->ncons; c++) {
		const struct tune_cons *q = &t->r->cons[c];
		double x = e->con[c];

		if (!strcmp(q->op, "<=") ? !(x <= q->v) :
		    !strcmp(q->op, ">=") ? !(x >= q->v) :
		    !strcmp(q->op, "<") ? !(x < q->v) : !(x > q->v))
			e->feasible = false;
	}
	if (!isfinite(e->obj))
		e->feasible = false;
}

/* results.csv and tune.json as they are now: after every batch, so an
 * interrupted tune keeps what ran and `tune resume` continues it.
 */
int tune_save_progress(struct tsearch *t, bool complete)
{
	char path[PCB_PATH_LEN];
	int rc = pcb_path(path, sizeof(path), &t->s->err, "%s/results.csv",
			  t->dir);

	t->r->complete = complete;
	t->r->wall_s = pcb_mono_s() - t->t0 + t->wall0;
	if (!rc)
		rc = series_write_csv(t->all, path, &t->s->err);
	return rc ? rc : tune_save(t->s, t->dir, t->r);
}

/* Resume: the batch is the saved path's next points, in order (the search
 * is deterministic, so an unchanged definition asks for them again):
 * their evaluations and runs taken from the saved tune, nothing run.
 */
static bool reuse(struct tsearch *t, const uint32_t *raw, size_t n,
		  const char *phase)
{
	struct tune_res *r = t->r;
	const struct tune_res *o = t->old;
	size_t p, i, first = r->nev, nc = t->all->ncols, got = 0;

	if (first + n > o->nev)
		return false;
	for (p = 0; p < n; p++)
		if (memcmp(o->ev[first + p].raw, raw + p * r->nprm,
			   r->nprm * sizeof(*raw)) ||
		    strcmp(o->ev[first + p].phase, phase))
			return false;
	for (i = 0; i < t->oldrows->nrows; i++) {
		double pt = series_at(t->oldrows, i, 0);

		if (pt >= (double)first && pt < (double)(first + n))
			got++;
	}
	if (got != n * t->rpp)
		return false;
	for (i = 0; i < t->oldrows->nrows; i++) {
		double pt = series_at(t->oldrows, i, 0);

		if (pt >= (double)first && pt < (double)(first + n) &&
		    series_add_row(t->all, t->oldrows->data + i * nc))
			return false;
	}
	memcpy(r->ev + first, o->ev + first, n * sizeof(*r->ev));
	r->nev += n;
	r->runs += n * t->rpp;
	return true;
}

/* The tune's one progress line (on a terminal): runs done of the budget,
 * the best so far, the time so far and, from this session's pace, left.
 * final: the line ends.
 */
static void progress_line(struct tsearch *t, size_t busy, bool final)
{
	const struct tune_res *r = t->r;
	size_t done = r->runs + t->inbatch + busy, k, o = 0, ran;
	double el = pcb_mono_s() - t->t0;
	char best[200] = "none feasible yet", v[40];
	int b = tune_pick(r, true);

	if (!isatty(STDERR_FILENO) || t->s->out.json)
		return;
	if (b >= 0) {
		o = (size_t)snprintf(best, sizeof(best), "%s %.6g (", r->obj,
				     r->ev[b].obj);
		for (k = 0; k < r->nprm && o < sizeof(best); k++) {
			sess_format_value(t->s, (enum algo_ptype)r->prm[k].type,
					  r->ev[b].raw[k], v, sizeof(v));
			o += (size_t)snprintf(best + o, sizeof(best) - o,
					      "%s%s %s", k ? ", " : "",
					      r->prm[k].name, v);
		}
		if (o < sizeof(best))
			snprintf(best + o, sizeof(best) - o, ")");
	}
	fprintf(stderr, "\rtune %s: %zu of %zu runs, best so far %s, %.1f s",
		r->name, done, r->budget, best, el);
	ran = t->ran + t->inbatch + busy;
	if (!final && ran && done < r->budget)
		fprintf(stderr, ", about %.0f s left ", el *
			(double)(r->budget - done) / (double)ran + 0.5);
	fputs(final ? "\n" : "\033[K", stderr);
	fflush(stderr);
	t->told = !final;
}

static void tune_progress(void *ctx, const struct plan *pl)
{
	progress_line(ctx, pl->ndone, false);
}

/* Run the points raw[n][nprm] on scenario k's plan, every seed. */
static int run_scen(struct tsearch *t, size_t k, const uint32_t *raw,
		    size_t n)
{
	struct session *s = t->s;
	struct plan *pl = t->spl[k];
	size_t p, a;
	int rc = sw_plan_points(s, pl, n);

	if (rc)
		return rc;
	for (p = 0; p < n; p++)
		for (a = 0; a < t->r->nprm; a++) {
			char v[40];

			pl->ax[a].raw[p] = raw[p * t->r->nprm + a];
			sess_format_value(s, pl->ax[a].p->type,
					  pl->ax[a].raw[p], v, sizeof(v));
			pl->ax[a].real[p] = strtod(v, NULL);
		}
	pl->jobs = t->jobs < pl->nruns ? t->jobs : (unsigned)pl->nruns;
	pl->progress = tune_progress;
	pl->progress_ctx = t;
	return sw_run_replay(s, pl, pcb_mono_s());
}

/* Run the points raw[n][nprm] (not evaluated before) on every scenario
 * and seed; their evaluations (each scenario's values, combined) appended
 * to the path with `phase`, their runs to results.csv (point by point,
 * then scenario, then seed; a set's rows end with the scenario's index).
 */
static int run_batch(struct tsearch *t, const uint32_t *raw, size_t n,
		     const char *phase)
{
	struct session *s = t->s;
	struct tune_res *r = t->r;
	size_t p, k, j, nc = t->pl->res->ncols;
	double *row;
	int rc = 0;

	if (!n)
		return 0;
	if (r->nev + n > t->cap) {
		size_t cap = (r->nev + n) * 2;
		struct tune_eval *ev = realloc(r->ev, cap * sizeof(*ev));

		if (!ev)
			return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		r->ev = ev;
		t->cap = cap;
	}
	if (t->old && reuse(t, raw, n, phase))
		return 0;
	t->old = NULL;	/* the path left the saved one: run from here */
	for (k = 0; !rc && k < r->nscen; k++) {
		rc = run_scen(t, k, raw, n);
		t->inbatch += t->spl[k]->nruns;
	}
	t->ran += t->inbatch;
	t->inbatch = 0;
	row = rc ? NULL : malloc((nc + 1) * sizeof(*row));
	if (!rc && !row)
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	for (p = 0; !rc && p < n; p++) {
		struct tune_eval *e = &r->ev[r->nev];

		memset(e, 0, sizeof(*e));
		memcpy(e->raw, raw + p * r->nprm, r->nprm * sizeof(*raw));
		snprintf(e->phase, sizeof(e->phase), "%s", phase);
		for (k = 0; k < r->nscen; k++) {
			struct plan *pl = t->spl[k];

			scen_stats(t, k, p, &e->sc[k]);
			for (j = 0; !rc && j < pl->repeat; j++) {
				memcpy(row, pl->rows + (p * pl->repeat + j) *
				       nc, nc * sizeof(*row));
				row[0] = (double)r->nev;
				row[nc] = (double)k;	/* read when a set */
				if (series_add_row(t->all, row))
					rc = pcb_error(&s->err, PCB_E_NOMEM,
						       "out of memory");
			}
		}
		tune_combine(r, e);
		r->nev++;
	}
	free(row);
	if (rc)
		return rc;
	r->runs += n * t->rpp;
	return tune_save_progress(t, false);
}

/* What NLopt minimises: the objective (its sense, scaled by the
 * default's) plus a penalty that puts every infeasible point above every
 * feasible one the scale allows, growing with the relative violation.
 */
static double score(const struct tsearch *t, const struct tune_eval *e)
{
	double f = (t->r->maximize ? -e->obj : e->obj) / t->scale, pen = 0;
	size_t k;

	if (!isfinite(f))
		return 1e30;
	for (k = 0; k < t->r->ncons; k++) {
		const struct tune_cons *c = &t->r->cons[k];
		double d = c->op[0] == '<' ? e->con[k] - c->v : c->v - e->con[k];
		double ref = fabs(c->v) > 1e-12 ? fabs(c->v) : 1;

		if (d > 0 || (d == 0 && !c->op[1]))
			pen += 1 + d / ref;
	}
	return pen > 0 ? f + 1e3 * pen : f;
}

static double nl_objective(unsigned n, const double *u, double *grad,
			   void *data)
{
	struct tsearch *t = data;
	uint32_t raw[SW_MAX_AXES];
	unsigned k;
	int i;

	(void)grad;
	for (k = 0; k < n; k++)
		raw[k] = raw_of(&t->r->prm[k], u[k]);
	i = find_eval(t->r, raw);
	if (i >= 0) {
		if (++t->hits > 60)	/* rounding holds it on known points */
			nlopt_force_stop(t->opt);
		return score(t, &t->r->ev[i]);
	}
	t->hits = 0;
	if ((t->r->runs + t->rpp) / t->rpp > t->maxpts ||
	    (t->s->opt.stop && *t->s->opt.stop)) {
		nlopt_force_stop(t->opt);
		return 1e30;
	}
	t->rc = run_batch(t, raw, 1, "local");
	if (t->rc) {
		nlopt_force_stop(t->opt);
		return 1e30;
	}
	return score(t, &t->r->ev[t->r->nev - 1]);
}

/* The evaluations ranked by score (the best first). */
static int *ranked(const struct tsearch *t)
{
	size_t n = t->r->nev, i, j;
	int *o = malloc((n + 1) * sizeof(*o));

	for (i = 0; o && i < n; i++) {	/* insertion: n is small */
		int e = (int)i;

		for (j = i; j > 0 && score(t, &t->r->ev[e]) <
			    score(t, &t->r->ev[o[j - 1]]); j--)
			o[j] = o[j - 1];
		o[j] = e;
	}
	return o;
}

/* Sbplx on the box scaled to [0,1]^d, started from the best evaluation
 * so far, then from the second best, the third, ... (each ranking taken
 * afresh), the initial step 0.15, 0.075, 0.0375 and again; at most 6
 * starts, until the budget is spent or a start finds no new point.
 */
static int local_phase(struct tsearch *t)
{
	struct tune_res *r = t->r;
	double u[SW_MAX_AXES], lo[SW_MAX_AXES], hi[SW_MAX_AXES];
	double step = 0.15, fmin;
	size_t k, start;
	int *o, e;

	for (k = 0; k < r->nprm; k++) {
		lo[k] = 0;
		hi[k] = 1;
	}
	for (start = 0; start < 6 && !t->rc; start++) {
		size_t before = r->nev;

		if ((r->runs + t->rpp) / t->rpp > t->maxpts)
			break;
		o = ranked(t);
		if (!o)
			return pcb_error(&t->s->err, PCB_E_NOMEM,
					 "out of memory");
		e = o[start < r->nev ? start : 0];
		free(o);
		for (k = 0; k < r->nprm; k++)
			u[k] = u_of(&r->prm[k], r->ev[e].raw[k]);
		t->opt = nlopt_create(NLOPT_LN_SBPLX, (unsigned)r->nprm);
		if (!t->opt)
			return pcb_error(&t->s->err, PCB_E_NOMEM,
					 "out of memory");
		nlopt_set_lower_bounds(t->opt, lo);
		nlopt_set_upper_bounds(t->opt, hi);
		nlopt_set_min_objective(t->opt, nl_objective, t);
		nlopt_set_initial_step1(t->opt, step);
		nlopt_set_xtol_abs1(t->opt, 1e-4);
		nlopt_set_maxeval(t->opt, 20000);
		t->hits = 0;
		nlopt_optimize(t->opt, u, &fmin);
		nlopt_destroy(t->opt);
		t->opt = NULL;
		step = start % 3 == 2 ? 0.15 : step / 2;
		if (r->nev == before)
			break;
	}
	return t->rc;
}

/* One-at-a-time probes around the best: each param -/+ 10 % of its
 * range (in its scale), the other params held.
 */
static int sensitivity(struct tsearch *t, size_t npts)
{
	struct tune_res *r = t->r;
	uint32_t raw[2 * SW_MAX_AXES * SW_MAX_AXES];
	uint32_t b[SW_MAX_AXES];	/* the best (run_batch moves ev[]) */
	size_t k, n = 0, side, i;
	int rc;

	for (k = 0; k < r->nprm; k++)
		r->sens[k][0] = r->sens[k][1] = -1;
	if (r->best < 0)
		return 0;
	memcpy(b, r->ev[r->best].raw, sizeof(b));
	for (k = 0; k < r->nprm && n < npts; k++)
		for (side = 0; side < 2 && n < npts; side++) {
			double u = u_of(&r->prm[k], b[k]) +
				   (side ? 0.1 : -0.1);
			uint32_t *p = raw + n * r->nprm;

			if (u < -1e-9 || u > 1 + 1e-9)
				continue;
			memcpy(p, b, r->nprm * sizeof(*p));
			p[k] = raw_of(&r->prm[k], u);
			if (p[k] == b[k] || find_eval(r, p) >= 0)
				continue;
			for (i = 0; i < n && memcmp(raw + i * r->nprm, p,
						    r->nprm * sizeof(*p)); i++)
				;
			n += i == n;
		}
	rc = run_batch(t, raw, n, "sens");
	for (k = 0; !rc && k < r->nprm; k++)
		for (side = 0; side < 2; side++) {
			double u = u_of(&r->prm[k], b[k]) +
				   (side ? 0.1 : -0.1);
			uint32_t p[SW_MAX_AXES];

			if (u < -1e-9 || u > 1 + 1e-9)
				continue;
			memcpy(p, b, r->nprm * sizeof(*p));
			p[k] = raw_of(&r->prm[k], u);
			if (p[k] != b[k])
				r->sens[k][side] = find_eval(r, p);
		}
	return rc;
}

bool tune_any_obj(const struct tune_res *r)
{
	size_t i;

	for (i = 0; i < r->nev; i++)
		if (isfinite(r->ev[i].obj))
			return true;
	return false;
}

/* The best by the documented rule (tune.h); probes=false: before the
 * sensitivity probes, the point they are measured around.
 */
int tune_pick(const struct tune_res *r, bool probes)
{
	int best = -1;
	size_t i;

	for (i = 0; i < r->nev; i++)
		if (r->ev[i].feasible && strcmp(r->ev[i].phase, "default") &&
		    (probes || strcmp(r->ev[i].phase, "sens")) &&
		    (best < 0 || tune_better(r, &r->ev[i], &r->ev[best])))
			best = (int)i;
	return best;
}

/* The search: the default and the hypercube in one parallel batch, the
 * local runs, the sensitivity.  Budget split: 1 default point, 2 per
 * param for the sensitivity, of the rest 40 % (at least d + 2) for the
 * hypercube.
 */
int tune_search(struct tsearch *t)
{
	struct tune_res *r = t->r;
	size_t d = r->nprm, nsens = 2 * d, nsearch, nlhs, i, k, n = 0;
	uint32_t *raw;
	double *u;
	int rc;

	t->maxpts = r->budget / t->rpp;
	nsearch = t->maxpts - 1 - nsens;
	nlhs = nsearch * 2 / 5 > d + 2 ? nsearch * 2 / 5 : d + 2;
	raw = calloc((nlhs + 1) * d, sizeof(*raw));
	u = calloc(nlhs * d + 1, sizeof(*u));
	if (!raw || !u) {
		free(raw);
		free(u);
		return pcb_error(&t->s->err, PCB_E_NOMEM, "out of memory");
	}
	for (k = 0; k < d; k++)
		raw[k] = r->prm[k].def;
	/* the default first, alone: its objective scales the penalty */
	rc = run_batch(t, raw, 1, "default");
	r->def = rc ? -1 : 0;
	if (!rc) {
		double f = fabs(r->ev[0].obj);

		t->scale = isfinite(f) && f > 1e-300 ? f : 1;
		lhs(r, nlhs, u);
		for (i = 0; i < nlhs; i++) {
			uint32_t *p = raw + n * d;
			size_t j;

			for (k = 0; k < d; k++)
				p[k] = raw_of(&r->prm[k], u[i * d + k]);
			for (j = 0; j < n && memcmp(raw + j * d, p,
						    d * sizeof(*p)); j++)
				;
			if (j == n && find_eval(r, p) < 0)
				n++;
		}
		rc = run_batch(t, raw, n, "lhs");
	}
	free(raw);
	free(u);
	t->maxpts -= nsens;	/* kept for the sensitivity */
	if (!rc)
		rc = local_phase(t);
	r->best = tune_pick(r, false);
	t->maxpts += nsens;
	if (!rc)
		rc = sensitivity(t, nsens);
	r->best = tune_pick(r, true);	/* a probe may be better */
	if (t->told)
		progress_line(t, 0, true);
	return rc;
}

