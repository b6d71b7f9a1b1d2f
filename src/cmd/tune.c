/* tune.c - `tune run`: the words parsed into a sweep plan (the sweep's
 * own parser checks params, ranges, scenario, seeds, jobs), then the
 * search (tune.h): a Latin hypercube, NLopt's Sbplx from the best points,
 * the sensitivity around the best; everything saved, then shown.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlopt.h>

#include "cmd.h"
#include "cmd/tune.h"
#include "paths.h"
#include "rec/series.h"
#include "rec/stats.h"
#include "session.h"
#include "units.h"

#define MAX_WORDS	SW_MAX_ARGS

/* A search in progress. */
struct tsearch {
	struct session *s;
	struct plan *pl;
	struct tune_res *r;
	int ocol;			/* the objective's column in pl->res */
	int ccol[TUNE_MAX_CONS];
	unsigned jobs;
	size_t cap;			/* evaluations ev[] holds */
	size_t maxpts;			/* points the budget allows */
	struct series *all;		/* every run, for results.csv */
	char dir[PCB_PATH_LEN];
	double scale;			/* of the objective, for the penalty */
	int rc;				/* an error inside nlopt's callback */
	nlopt_opt opt;
	unsigned hits;			/* cached answers in a row */
};

/* The tune's errors say "tune: ", not the sweep parser's "sweep: ". */
static int retag(struct session *s, int rc)
{
	if (rc && !strncmp(s->err.msg, "sweep: ", 7)) {
		char m[sizeof(s->err.msg)];

		snprintf(m, sizeof(m), "tune: %s", s->err.msg + 7);
		snprintf(s->err.msg, sizeof(s->err.msg), "%s", m);
	}
	return rc;
}

/* ---- the words ------------------------------------------------------- */

static bool is_sense(const char *w)
{
	return !strcmp(w, "minimize") || !strcmp(w, "maximize") ||
	       !strcmp(w, "minimise") || !strcmp(w, "maximise");
}

/* COL as a sweep measure: a sim measure (util) as it is, a timeline
 * column (avg_rtt) or one of its statistics (avg_rtt_p99) by its name.
 */
static void measure_of(const char *col, char *m, size_t len)
{
	size_t l = strlen(col), k;

	snprintf(m, len, "%s", col);
	for (k = 0; k < SW_NSTATS; k++) {
		size_t sl = strlen(sw_stat_names[k]);

		if (l > sl + 1 && col[l - sl - 1] == '_' &&
		    !strcmp(col + l - sl, sw_stat_names[k])) {
			struct measure ms[1];
			size_t n;
			struct pcb_err e = { 0 };

			/* util_mean is no measure; avg_rtt_mean is */
			if (!sw_parse_measures(&e, true, col, ms, &n))
				return;
			snprintf(m, len, "%.*s", (int)(l - sl - 1), col);
			return;
		}
	}
}

/* The column of COL in the plan's results: exact, or a measure's mean. */
static int col_of(const struct plan *pl, const char *col)
{
	char nm[64];
	int c = series_col(pl->res, col);

	if (c < 0) {
		snprintf(nm, sizeof(nm), "%s_mean", col);
		c = series_col(pl->res, nm);
	}
	return c < SW_FIXED_COLS + (int)pl->naxes ? -1 : c;
}

/* A constraint's value: a number, or a duration (40us) for a column in
 * ns.
 */
static int cons_value(struct session *s, const char *col, const char *t,
		      double *v)
{
	char *end;
	int64_t ps;

	errno = 0;
	*v = strtod(t, &end);
	if (end != t && !*end && !errno && isfinite(*v))
		return 0;
	if (strstr(col, "rtt") && !pcb_parse_duration_ps(t, -1, &ps)) {
		*v = (double)ps / 1000.0;	/* the columns are in ns */
		return 0;
	}
	return pcb_error(&s->err, PCB_E_INVAL, "tune: constraint on %s: "
			 "'%s' is not a number", col, t);
}

struct twords {
	char *w[MAX_WORDS];	/* the sweep's words (owned) */
	int n;
	char name[64];
	bool have_seeds;
	unsigned long jobs, budget;
};

static int add_word(struct session *s, struct twords *tw, const char *w)
{
	if (tw->n == MAX_WORDS - 1)
		return pcb_error(&s->err, PCB_E_RANGE, "tune: more than %d "
				 "words", MAX_WORDS - 2);
	tw->w[tw->n] = strdup(w);
	if (!tw->w[tw->n])
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	tw->n++;
	return 0;
}

/* PARAM FROM:TO pairs into "PARAM FROM,TO" sweep words. */
static int parse_params(struct session *s, struct twords *tw, int argc,
			char **argv, int *i)
{
	int rc = 0;

	for (*i = 0; *i < argc && !is_sense(argv[*i]) && !rc; *i += 2) {
		const char *spec = *i + 1 < argc ? argv[*i + 1] : "";
		const char *c = strchr(spec, ':');
		char buf[128];

		if (*i + 1 >= argc || is_sense(spec) || !c || c == spec ||
		    !c[1] || strchr(c + 1, ':') || strlen(spec) >= 100)
			return pcb_error(&s->err, PCB_E_USAGE, "tune: %s needs "
					 "a range FROM:TO (e.g. 0.02:0.5), not "
					 "'%s'", argv[*i], spec);
		snprintf(buf, sizeof(buf), "%.*s,%s", (int)(c - spec), spec,
			 c + 1);
		rc = add_word(s, tw, argv[*i]);
		if (!rc)
			rc = add_word(s, tw, buf);
	}
	if (!rc && !tw->n)
		rc = pcb_error(&s->err, PCB_E_USAGE, "usage: tune PARAM FROM:TO "
			       "[...] minimize|maximize COL [subject to COL OP "
			       "VALUE [and ...]] [budget N runs] ...");
	if (!rc && *i >= argc)
		rc = pcb_error(&s->err, PCB_E_USAGE, "tune: minimize or "
			       "maximize what? (e.g. minimize queue_p99)");
	return rc;
}

/* subject to COL OP VALUE [and COL OP VALUE]... */
static int parse_cons(struct session *s, struct tune_res *r, int argc,
		      char **argv, int *i)
{
	static const char *const ops[] = { "<=", ">=", "<", ">" };
	size_t k;

	if (*i + 1 >= argc || strcmp(argv[*i], "subject") ||
	    strcmp(argv[*i + 1], "to"))
		return 0;
	*i += 2;
	do {
		struct tune_cons *c = &r->cons[r->ncons];
		int rc;

		if (r->ncons == TUNE_MAX_CONS)
			return pcb_error(&s->err, PCB_E_RANGE, "tune: at most "
					 "%d constraints", TUNE_MAX_CONS);
		if (*i + 2 >= argc)
			return pcb_error(&s->err, PCB_E_USAGE, "tune: a "
					 "constraint is COL OP VALUE (util >= "
					 "0.97)");
		for (k = 0; k < 4 && strcmp(argv[*i + 1], ops[k]); k++)
			;
		if (k == 4)
			return pcb_error(&s->err, PCB_E_INVAL, "tune: '%s' is "
					 "no comparison (<=, >=, <, >)",
					 argv[*i + 1]);
		snprintf(c->col, sizeof(c->col), "%s", argv[*i]);
		snprintf(c->op, sizeof(c->op), "%s", ops[k]);
		rc = cons_value(s, c->col, argv[*i + 2], &c->v);
		if (rc)
			return rc;
		r->ncons++;
		*i += 3;
	} while (*i < argc && !strcmp(argv[*i], "and") && ++*i);
	return 0;
}

/* The keywords of tune itself (budget, into) and the sweep's, passed on;
 * those a tune cannot take are refused.
 */
static int parse_rest(struct session *s, struct twords *tw, int argc,
		      char **argv, int i)
{
	int rc = 0;

	for (; i < argc && !rc; i++) {
		const struct sw_key *k = sw_key_find(argv[i]);

		if (!strcmp(argv[i], "budget")) {
			if (i + 1 >= argc)
				return pcb_error(&s->err, PCB_E_USAGE, "tune: "
						 "budget N runs");
			rc = sw_parse_count(&s->err, "budget", argv[++i],
					    SW_MAX_RUNS, "runs", &tw->budget);
			if (i + 1 < argc && !strcmp(argv[i + 1], "runs"))
				i++;
			continue;
		}
		if (!k || k->id == SW_K_WHILE || k->id == SW_K_PLOT ||
		    k->id == SW_K_SHUFFLE || k->id == SW_K_MEASURE)
			return pcb_error(&s->err, PCB_E_INVAL, "tune: unknown or "
					 "unusable word '%s' (subject to, budget, "
					 "scenario, for, warmup, every, seeds, "
					 "repeat, jobs, into)", argv[i]);
		if (k->nvals && i + 1 >= argc)
			return pcb_error(&s->err, PCB_E_USAGE, "tune: '%s' needs "
					 "a value", argv[i]);
		if (k->id == SW_K_INTO) {
			snprintf(tw->name, sizeof(tw->name), "%s", argv[++i]);
			continue;
		}
		if (k->id == SW_K_JOBS)
			rc = sw_parse_count(&s->err, "jobs", argv[i + 1],
					    SW_MAX_JOBS, "worker processes",
					    &tw->jobs);
		tw->have_seeds |= k->id == SW_K_SEEDS || k->id == SW_K_REPEAT;
		if (!rc)
			rc = add_word(s, tw, argv[i]);
		if (k->id == SW_K_SCENARIO)	/* up to the next keyword */
			while (!rc && i + 1 < argc &&
			       !sw_is_keyword(argv[i + 1]) &&
			       strcmp(argv[i + 1], "budget"))
				rc = add_word(s, tw, argv[++i]);
		else if (!rc && k->nvals)
			rc = add_word(s, tw, argv[++i]);
	}
	return rc;
}

/* The measure list: the objective's and the constraints' measures. */
static int measure_words(struct session *s, struct twords *tw,
			 const struct tune_res *r)
{
	char list[SW_MAX_MEAS * 24] = "", m[48], *p;
	size_t k;
	int rc;

	for (k = 0; k <= r->ncons; k++) {
		measure_of(k ? r->cons[k - 1].col : r->obj, m, sizeof(m));
		for (p = strstr(list, m); p; p = strstr(p + 1, m))
			if ((p == list || p[-1] == ',') &&
			    (!p[strlen(m)] || p[strlen(m)] == ','))
				break;
		if (!p)
			snprintf(list + strlen(list), sizeof(list) -
				 strlen(list), "%s%s", *list ? "," : "", m);
	}
	rc = add_word(s, tw, "measure");
	return rc ? rc : add_word(s, tw, list);
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

/* The means and intervals of point p of the batch just run. */
static void eval_stats(struct tsearch *t, size_t p, struct tune_eval *e)
{
	struct plan *pl = t->pl;
	size_t nc = pl->res->ncols, k, j, used;
	double v[SW_MAX_REPEAT];

	for (k = 0; k <= t->r->ncons; k++) {
		int c = k ? t->ccol[k - 1] : t->ocol;
		double *m = k ? &e->con[k - 1] : &e->obj;
		double *ci = k ? &e->con_ci[k - 1] : &e->obj_ci;

		for (j = 0; j < pl->repeat; j++)
			v[j] = pl->rows[(p * pl->repeat + j) * nc + (size_t)c];
		stats_ci95(v, pl->repeat, m, ci, &used);
	}
	e->feasible = true;
	for (k = 0; k < t->r->ncons; k++) {
		const struct tune_cons *c = &t->r->cons[k];
		double x = e->con[k];

		if (!strcmp(c->op, "<=") ? !(x <= c->v) :
		    !strcmp(c->op, ">=") ? !(x >= c->v) :
		    !strcmp(c->op, "<") ? !(x < c->v) : !(x > c->v))
			e->feasible = false;
	}
	if (!isfinite(e->obj))
		e->feasible = false;
}

/* Run the points raw[n][nprm] (not evaluated before) on every seed;
 * their evaluations appended to the path with `phase`.
 */
static int run_batch(struct tsearch *t, const uint32_t *raw, size_t n,
		     const char *phase)
{
	struct session *s = t->s;
	struct plan *pl = t->pl;
	struct tune_res *r = t->r;
	size_t p, k, nc = pl->res->ncols;
	int rc;

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
	rc = sw_plan_points(s, pl, n);
	if (rc)
		return rc;
	for (p = 0; p < n; p++)
		for (k = 0; k < r->nprm; k++) {
			char v[40];

			pl->ax[k].raw[p] = raw[p * r->nprm + k];
			sess_format_value(s, pl->ax[k].p->type,
					  pl->ax[k].raw[p], v, sizeof(v));
			pl->ax[k].real[p] = strtod(v, NULL);
		}
	pl->jobs = t->jobs < pl->nruns ? t->jobs : (unsigned)pl->nruns;
	rc = sw_run_replay(s, pl, pcb_mono_s());
	if (rc)
		return rc;
	for (p = 0; p < n; p++) {
		struct tune_eval *e = &r->ev[r->nev];

		memset(e, 0, sizeof(*e));
		memcpy(e->raw, raw + p * r->nprm, r->nprm * sizeof(*raw));
		snprintf(e->phase, sizeof(e->phase), "%s", phase);
		eval_stats(t, p, e);
		for (k = 0; k < pl->repeat; k++) {
			double *row = pl->rows + (p * pl->repeat + k) * nc;

			row[0] = (double)r->nev;
			if (series_add_row(t->all, row))
				return pcb_error(&s->err, PCB_E_NOMEM,
						 "out of memory");
		}
		r->nev++;
	}
	r->runs += pl->nruns;
	return 0;
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
	if ((t->r->runs + t->pl->repeat) / t->pl->repeat > t->maxpts ||
	    (t->s->stop && *t->s->stop)) {
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

/* Sbplx from the best points in turn (a start that is not already a
 * local run's end), step shrinking, until the budget is spent.
 */
static int local_phase(struct tsearch *t, size_t nstart_pts)
{
	struct tune_res *r = t->r;
	double u[SW_MAX_AXES], lo[SW_MAX_AXES], hi[SW_MAX_AXES];
	double step = 0.15, fmin;
	size_t k, start;
	int *o;

	for (k = 0; k < r->nprm; k++) {
		lo[k] = 0;
		hi[k] = 1;
	}
	for (start = 0; start < 6 && !t->rc; start++) {
		size_t before = r->nev;

		if ((r->runs + t->pl->repeat) / t->pl->repeat > t->maxpts)
			break;
		o = ranked(t);
		if (!o)
			return pcb_error(&t->s->err, PCB_E_NOMEM,
					 "out of memory");
		/* the best for the first start; then the best LHS point
		 * not yet started from */
		k = start ? start : 0;
		if (k >= nstart_pts)
			k = 0;
		for (size_t i = 0; i < r->nprm; i++)
			u[i] = u_of(&r->prm[i], r->ev[o[start ? k : 0]].raw[i]);
		free(o);
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
		step = step > 0.04 ? step / 2 : 0.15;
		if (r->nev == before && start > 0 && step == 0.15)
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
	const struct tune_eval *b;
	size_t k, n = 0, side, i;
	int rc;

	for (k = 0; k < r->nprm; k++)
		r->sens[k][0] = r->sens[k][1] = -1;
	if (r->best < 0)
		return 0;
	b = &r->ev[r->best];
	for (k = 0; k < r->nprm && n < npts; k++)
		for (side = 0; side < 2 && n < npts; side++) {
			double u = u_of(&r->prm[k], b->raw[k]) +
				   (side ? 0.1 : -0.1);
			uint32_t *p = raw + n * r->nprm;

			if (u < -1e-9 || u > 1 + 1e-9)
				continue;
			memcpy(p, b->raw, r->nprm * sizeof(*p));
			p[k] = raw_of(&r->prm[k], u);
			if (p[k] == b->raw[k] || find_eval(r, p) >= 0)
				continue;
			for (i = 0; i < n && memcmp(raw + i * r->nprm, p,
						    r->nprm * sizeof(*p)); i++)
				;
			n += i == n;
		}
	rc = run_batch(t, raw, n, "sens");
	for (k = 0; !rc && k < r->nprm; k++)
		for (side = 0; side < 2; side++) {
			double u = u_of(&r->prm[k], b->raw[k]) +
				   (side ? 0.1 : -0.1);
			uint32_t p[SW_MAX_AXES];

			if (u < -1e-9 || u > 1 + 1e-9)
				continue;
			memcpy(p, b->raw, r->nprm * sizeof(*p));
			p[k] = raw_of(&r->prm[k], u);
			if (p[k] != b->raw[k])
				r->sens[k][side] = find_eval(r, p);
		}
	return rc;
}

static void pick_best(struct tune_res *r)
{
	size_t i;

	r->best = -1;
	for (i = 0; i < r->nev; i++)
		if (r->ev[i].feasible && strcmp(r->ev[i].phase, "default") &&
		    strcmp(r->ev[i].phase, "sens") &&
		    (r->best < 0 || tune_better(r, &r->ev[i], &r->ev[r->best])))
			r->best = (int)i;
}

/* The search: the default and the hypercube in one parallel batch, the
 * local runs, the sensitivity.  Budget split: 1 default point, 2 per
 * param for the sensitivity, of the rest 40 % (at least d + 2) for the
 * hypercube.
 */
static int search(struct tsearch *t)
{
	struct tune_res *r = t->r;
	size_t d = r->nprm, nsens = 2 * d, nsearch, nlhs, i, k, n = 0;
	uint32_t *raw;
	double *u;
	int rc;

	t->maxpts = r->budget / t->pl->repeat;
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
		rc = local_phase(t, n);
	pick_best(r);
	t->maxpts += nsens;
	if (!rc)
		rc = sensitivity(t, nsens);
	return rc;
}

/* ---- the command ----------------------------------------------------- */

static void twords_free(struct twords *tw)
{
	int i;

	for (i = 0; i < tw->n; i++)
		free(tw->w[i]);
}

/* The words to a tune_res and a sweep plan; nothing runs. */
static int tune_parse(struct session *s, int argc, char **argv,
		      struct tsearch *t, struct twords *tw)
{
	struct tune_res *r = t->r;
	size_t k;
	int i, rc;

	rc = parse_params(s, tw, argc, argv, &i);
	if (rc)
		return rc;
	r->maximize = argv[i][1] == 'a';
	if (++i >= argc)
		return pcb_error(&s->err, PCB_E_USAGE, "tune: %s what?",
				 argv[i - 1]);
	snprintf(r->obj, sizeof(r->obj), "%s", argv[i++]);
	rc = parse_cons(s, r, argc, argv, &i);
	if (!rc)
		rc = parse_rest(s, tw, argc, argv, i);
	if (!rc && !tw->have_seeds)	/* repeats average the noise */
		rc = add_word(s, tw, "repeat") || add_word(s, tw, "3") ?
		     -s->err.code : 0;
	if (!rc)
		rc = measure_words(s, tw, r);
	if (rc)
		return rc;
	t->pl = calloc(1, sizeof(*t->pl));
	if (!t->pl)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = retag(s, sw_plan_parse(s, t->pl, tw->n, tw->w, false));
	if (rc)
		return rc;
	if (!t->pl->replay)
		return pcb_error(&s->err, PCB_E_STATE, "tune: the search runs "
				 "on the sim device (-d sim); a real NIC is "
				 "never tuned blindly");
	t->ocol = col_of(t->pl, r->obj);
	for (k = 0; k < r->ncons; k++)
		t->ccol[k] = col_of(t->pl, r->cons[k].col);
	for (k = 0; k <= r->ncons; k++)
		if ((k ? t->ccol[k - 1] : t->ocol) < 0)
			return pcb_error(&s->err, PCB_E_INVAL, "tune: no "
					 "column '%s' (util, jain, queue_p99, "
					 "rtt_p99, avg_rtt_p99, ...)", k ?
					 r->cons[k - 1].col : r->obj);
	r->nprm = t->pl->naxes;
	for (k = 0; k < r->nprm; k++) {
		struct tune_prm *p = &r->prm[k];
		const struct axis *a = &t->pl->ax[k];

		snprintf(p->name, sizeof(p->name), "%s", a->p->info.name);
		p->index = a->p->index;
		p->type = (int)a->p->type;
		p->lo = a->raw[0];
		p->hi = a->raw[1];
		p->def = a->p->info.def;
		if (p->lo > p->hi)
			return pcb_error(&s->err, PCB_E_INVAL, "tune: %s: the "
					 "range goes down (FROM must be below "
					 "TO)", p->name);
		p->log = p->lo > 0 && (double)p->hi / p->lo >= 100;
	}
	r->slot = t->pl->slot;
	snprintf(r->algo, sizeof(r->algo), "%s", t->pl->v->name);
	r->nseeds = t->pl->repeat;
	memcpy(r->seeds, t->pl->seeds, sizeof(r->seeds));
	r->budget = tw->budget ? tw->budget : 200;
	if (r->budget / r->nseeds < 3 * r->nprm + 3)
		return pcb_error(&s->err, PCB_E_RANGE, "tune: budget %zu "
				 "runs is %zu points of %zu seed(s); %zu "
				 "params need at least %zu points (%zu runs)",
				 r->budget, r->budget / r->nseeds, r->nseeds,
				 r->nprm, 3 * r->nprm + 3,
				 (3 * r->nprm + 3) * r->nseeds);
	if (tw->jobs) {
		t->jobs = (unsigned)tw->jobs;
	} else {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		t->jobs = n < 1 ? 1 : n > SW_MAX_JOBS ? SW_MAX_JOBS :
			  (unsigned)n;
	}
	return 0;
}

/* The tune's name (tune1, tune2, ...: the first free) and its new
 * directory, private.
 */
static int tune_mkdir(struct session *s, struct tune_res *r,
		      const char *want, char *dir, size_t len)
{
	size_t n;
	struct stat st;
	int rc = tune_dir(s, want && *want ? want : "tune1", dir, len, true);

	if (rc)
		return rc;
	for (n = 1; !*want; n++) {
		snprintf(r->name, sizeof(r->name), "tune%zu", n);
		rc = tune_dir(s, r->name, dir, len, true);
		if (rc || lstat(dir, &st))
			break;
	}
	if (*want)
		snprintf(r->name, sizeof(r->name), "%s", want);
	if (rc)
		return rc;
	if (mkdir(dir, 0700))
		return pcb_error(&s->err, errno == EEXIST ? PCB_E_STATE :
				 PCB_E_IO, "tune %s: %s", r->name, errno ==
				 EEXIST ? "exists (name another with 'into "
				 "NAME')" : strerror(errno));
	return 0;
}

int cmd_tune_run(struct session *s, int argc, char **argv)
{
	struct tune_res r = { .best = -1, .def = -1 };
	struct tsearch t = { .s = s, .r = &r, .scale = 1 };
	struct twords tw = { .n = 0 };
	double t0 = pcb_mono_s();
	char path[PCB_PATH_LEN];
	int rc = tune_parse(s, argc, argv, &t, &tw);

	if (!rc && s->dry_run) {
		out_text(&s->out, "tune: %zu params, budget %zu runs of %zu "
			 "seed(s); nothing run (dry run)\n", r.nprm, r.budget,
			 r.nseeds);
		goto out;
	}
	if (!rc)
		rc = tune_mkdir(s, &r, tw.name, t.dir, sizeof(t.dir));
	if (!rc) {
		t.all = series_new("tune");
		if (!t.all) {
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
			goto out;
		}
		memcpy(t.all->cols, t.pl->res->cols, sizeof(t.all->cols));
		t.all->ncols = t.pl->res->ncols;
		snprintf(t.pl->name, sizeof(t.pl->name), "%s", r.name);
		rc = pcb_path(t.pl->dir, sizeof(t.pl->dir), &s->err,
			      "%s/batch", t.dir);
		if (!rc && mkdir(t.pl->dir, 0700))
			rc = pcb_error(&s->err, PCB_E_IO, "cannot create "
				       "'%s': %s", t.pl->dir, strerror(errno));
	}
	if (!rc)
		rc = search(&t);
	if (*t.dir && *t.pl->dir)
		sw_rm_tree(t.pl->dir);
	r.wall_s = pcb_mono_s() - t0;
	if (!rc && r.best < 0)
		rc = pcb_error(&s->err, PCB_E_RANGE, "tune: no point met the "
			       "constraints in %zu runs (%zu points); nothing "
			       "is kept to apply", r.runs, r.nev);
	if (*t.dir && r.nev) {	/* what ran is kept, feasible or not */
		struct pcb_err keep = s->err;
		int rc2 = pcb_path(path, sizeof(path), &s->err,
				   "%s/results.csv", t.dir);

		if (!rc2)
			rc2 = series_write_csv(t.all, path, &s->err);
		if (!rc2)
			rc2 = tune_save(s, t.dir, &r);
		if (rc)
			s->err = keep;
		else
			rc = rc2;
	}
	if (!rc)
		tune_print(s, &r);
out:
	series_free(t.all);
	if (t.pl)
		sw_plan_free(t.pl);
	twords_free(&tw);
	tune_res_free(&r);
	return rc;
}
