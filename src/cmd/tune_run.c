/* tune_run.c - `tune run` and `tune resume`: the words parsed into a
 * sweep plan (the sweep's own parser checks params, ranges, scenario,
 * seeds, jobs) and the tune's definition, its directory and files, the
 * search run (src/tune/search.c) and shown.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd/tune_cmd.h"
#include "fsafe.h"
#include "paths.h"
#include "rec/series.h"
#include "session.h"
#include "tune/search.h"
#include "units.h"

#define MAX_WORDS	SW_MAX_ARGS

/* ---- the words ------------------------------------------------------- */

/* tune run's words past the params (the sweep's it passes on carry the
 * sweep's ids, sw_keys): the parser switches on the ids, completion
 * offers the names (tune_show.c), the error lists the keywords.
 * KW_HIDDEN: accepted, not offered.
 */
enum { T_MIN = 100, T_MAX, T_SUBJECT, T_TO, T_AND, T_BUDGET, T_RUNS,
       T_WORST, T_MEAN };

const struct cmd_kw tune_run_keys[] = {
	{ .name = "minimize", .arg = "COL", .id = T_MIN },
	{ .name = "maximize", .arg = "COL", .id = T_MAX },
	{ .name = "subject" , .id = T_SUBJECT },
	{ .name = "to", .id = T_TO },
	{ .name = "and", .id = T_AND },
	{ .name = "budget", .arg = "N", .id = T_BUDGET },
	{ .name = "runs", .id = T_RUNS },
	{ .name = "scenario", .arg = "KIND KEY VALUE ...", .flags = KW_SCEN,
	  .id = SW_K_SCENARIO },
	{ .name = "worst", .id = T_WORST },
	{ .name = "mean", .id = T_MEAN },
	{ .name = "for", .arg = "D", .id = SW_K_FOR },
	{ .name = "warmup", .arg = "D", .id = SW_K_WARMUP },
	{ .name = "every", .arg = "I", .id = SW_K_EVERY },
	{ .name = "seeds", .arg = "S1,S2,...", .id = SW_K_SEEDS },
	{ .name = "repeat", .arg = "N", .id = SW_K_REPEAT },
	{ .name = "jobs", .arg = "N", .id = SW_K_JOBS },
	{ .name = "into", .arg = "NAME", .id = SW_K_INTO },
	{ .name = "minimise", .arg = "COL", .flags = KW_HIDDEN, .id = T_MIN },
	{ .name = "maximise", .arg = "COL", .flags = KW_HIDDEN, .id = T_MAX },
	{ 0 }
};

/* w's id in tune_run_keys, or -1 */
static int tword(const char *w)
{
	const struct cmd_kw *k = cmd_kw_find(tune_run_keys, w);

	return k ? k->id : -1;
}

static bool is_sense(const char *w)
{
	return tword(w) == T_MIN || tword(w) == T_MAX;
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
	char *w[MAX_WORDS];	/* the sweep's words but the scenarios (owned) */
	int n;
	char *sw[MAX_WORDS];	/* the scenarios' words, "scenario" first */
	int nsw;
	int sfirst[TUNE_MAX_SCEN + 1];	/* scenario k: sw[sfirst[k]..] */
	size_t nsc;
	const char *comb;	/* "worst", "mean" or NULL (not said) */
	char name[64];
	bool have_seeds;
	unsigned long jobs, budget;
};

static int add_to(struct session *s, char **w, int *n, const char *word)
{
	if (*n == MAX_WORDS - 1)
		return pcb_error(&s->err, PCB_E_RANGE, "tune: more than %d "
				 "words", MAX_WORDS - 2);
	w[*n] = strdup(word);
	if (!w[*n])
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	(*n)++;
	return 0;
}

static int add_word(struct session *s, struct twords *tw, const char *w)
{
	return add_to(s, tw->w, &tw->n, w);
}

static bool is_comb(const char *w)
{
	return tword(w) == T_WORST || tword(w) == T_MEAN;
}

/* scenario KIND KEY VALUE ... (up to the next keyword): one more of the
 * set, its words kept apart (each scenario gets its own plan).
 */
static int add_scenario(struct session *s, struct twords *tw, int argc,
			char **argv, int *i)
{
	int rc;

	if (tw->nsc == TUNE_MAX_SCEN)
		return pcb_error(&s->err, PCB_E_RANGE, "tune: at most %d "
				 "scenarios in a set", TUNE_MAX_SCEN);
	tw->sfirst[tw->nsc] = tw->nsw;
	rc = add_to(s, tw->sw, &tw->nsw, argv[*i]);
	while (!rc && *i + 1 < argc && !sw_is_keyword(argv[*i + 1]) &&
	       tword(argv[*i + 1]) != T_BUDGET && !is_comb(argv[*i + 1]))
		rc = add_to(s, tw->sw, &tw->nsw, argv[++*i]);
	if (!rc && tw->nsw - tw->sfirst[tw->nsc] < 2)
		rc = pcb_error(&s->err, PCB_E_USAGE, "tune: scenario KIND "
			       "[KEY VALUE ...] (e.g. scenario incast senders "
			       "64)");
	tw->sfirst[++tw->nsc] = tw->nsw;
	return rc;
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

	if (*i + 1 >= argc || tword(argv[*i]) != T_SUBJECT ||
	    tword(argv[*i + 1]) != T_TO)
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
	} while (*i < argc && tword(argv[*i]) == T_AND && ++*i);
	return 0;
}

/* "budget, scenario, ...": the keywords after the constraints */
static const char *rest_names(char *buf, size_t len)
{
	const struct cmd_kw *k;
	size_t at = 0;

	buf[0] = '\0';
	for (k = tune_run_keys; k->name && at < len; k++)
		if (!(k->flags & KW_HIDDEN) && k->id != T_MIN &&
		    k->id != T_MAX && k->id != T_SUBJECT && k->id != T_TO &&
		    k->id != T_AND && k->id != T_RUNS)
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? ", " : "", k->name);
	return buf;
}

/* The keywords of tune itself (budget, worst, mean, into) and the
 * sweep's, passed on; those a tune cannot take are refused.
 */
static int parse_rest(struct session *s, struct twords *tw, int argc,
		      char **argv, int i)
{
	int rc = 0;

	for (; i < argc && !rc; i++) {
		const struct cmd_kw *k = cmd_kw_find(tune_run_keys, argv[i]);
		int id = k ? k->id : -1;

		if (id == T_BUDGET) {
			if (i + 1 >= argc)
				return pcb_error(&s->err, PCB_E_USAGE, "tune: "
						 "budget N runs");
			rc = sw_parse_count(&s->err, k->name, argv[++i],
					    SW_MAX_RUNS, "runs", &tw->budget);
			if (i + 1 < argc && tword(argv[i + 1]) == T_RUNS)
				i++;
			continue;
		}
		if (id == T_WORST || id == T_MEAN) {
			if (tw->comb)
				return pcb_error(&s->err, PCB_E_USAGE, "tune: "
						 "'%s' after '%s': say once how "
						 "the scenarios combine (worst "
						 "or mean)", argv[i], tw->comb);
			tw->comb = k->name;
			continue;
		}
		if (id < SW_K_FOR || id > SW_K_SHUFFLE) {
			char list[200];

			return pcb_error(&s->err, PCB_E_INVAL, "tune: unknown or "
					 "unusable word '%s' (subject to, %s)",
					 argv[i], rest_names(list,
							     sizeof(list)));
		}
		if (!cmd_kw_alone(k) && i + 1 >= argc)
			return pcb_error(&s->err, PCB_E_USAGE, "tune: '%s' needs "
					 "a value", argv[i]);
		if (id == SW_K_INTO) {
			snprintf(tw->name, sizeof(tw->name), "%s", argv[++i]);
			continue;
		}
		if (id == SW_K_JOBS)
			rc = sw_parse_count(&s->err, "jobs", argv[i + 1],
					    SW_MAX_JOBS, "worker processes",
					    &tw->jobs);
		tw->have_seeds |= id == SW_K_SEEDS || id == SW_K_REPEAT;
		if (!rc && id == SW_K_SCENARIO) {
			rc = add_scenario(s, tw, argc, argv, &i);
			continue;
		}
		if (!rc)
			rc = add_word(s, tw, argv[i]);
		if (!rc && !cmd_kw_alone(k))
			rc = add_word(s, tw, argv[++i]);
	}
	if (!rc && tw->comb && tw->nsc < 2)
		rc = pcb_error(&s->err, PCB_E_USAGE, "tune: '%s' combines a "
			       "set of scenarios; give two or more (scenario "
			       "incast ... scenario mix ...)", tw->comb);
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
		tune_measure_of(k ? r->cons[k - 1].col : r->obj, m, sizeof(m));
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

/* ---- the command ----------------------------------------------------- */

static void twords_free(struct twords *tw)
{
	int i;

	for (i = 0; i < tw->n; i++)
		free(tw->w[i]);
	for (i = 0; i < tw->nsw; i++)
		free(tw->sw[i]);
}

/* Scenario k's plan: the common words and its own scenario (none given:
 * the device's, which the sweep parser makes explicit).  Its scenario's
 * words kept in the tune.
 */
static int scen_plan(struct session *s, struct tsearch *t,
		     struct twords *tw, size_t k)
{
	int n = tw->nsc ? tw->sfirst[k + 1] - tw->sfirst[k] : 0, i, rc;
	char **v = calloc((size_t)(tw->n + n + 1), sizeof(*v));
	struct plan *pl = calloc(1, sizeof(*pl));

	t->sargv[k] = v;
	t->spl[k] = pl;
	if (!v || !pl)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	memcpy(v, tw->w, (size_t)tw->n * sizeof(*v));
	if (n)
		memcpy(v + tw->n, tw->sw + tw->sfirst[k], (size_t)n *
		       sizeof(*v));
	rc = tune_retag(s, sw_plan_parse(s, pl, tw->n + n, v, false));
	/* in a set, say which scenario is wrong: any error after the first
	 * plan is its scenario's (the other words passed there); the first's
	 * when its scenario words are wrong on their own */
	if (rc && tw->nsc > 1 && k == 0) {
		struct pcb_err e = { 0 };
		uint64_t seed;

		if (!dev_workload_check(n - 1, v + tw->n + 1, &seed, &e))
			return rc;
	}
	if (rc && tw->nsc > 1) {	/* say which */
		char m[sizeof(s->err.msg)];
		const char *c = strncmp(s->err.msg, "tune: ", 6) ?
				s->err.msg : s->err.msg + 6;
		int o = snprintf(m, sizeof(m), "tune: scenario %zu: ", k + 1);

		snprintf(m + o, sizeof(m) - (size_t)o, "%.*s",
			 (int)(sizeof(m) - (size_t)o - 1), c);
		memcpy(s->err.msg, m, sizeof(m));
	}
	if (rc || !pl->replay)
		return rc;
	t->r->scen[k] = calloc((size_t)pl->nscen + 1, sizeof(char *));
	if (!t->r->scen[k])
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	for (i = 0; i < pl->nscen; i++) {
		t->r->scen[k][i] = strdup(pl->scen[i]);
		if (!t->r->scen[k][i])
			return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	if (k && (pl->res->ncols != t->pl->res->ncols ||
		  memcmp(pl->res->cols, t->pl->res->cols, pl->res->ncols *
			 sizeof(pl->res->cols[0]))))
		return pcb_error(&s->err, PCB_E_INVAL, "tune: scenario %zu "
				 "measures other columns than scenario 1",
				 k + 1);
	return 0;
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
	r->maximize = tword(argv[i]) == T_MAX;
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
	r->nscen = tw->nsc ? tw->nsc : 1;
	r->mean = tw->comb && tword(tw->comb) == T_MEAN;
	for (k = 0; !rc && k < r->nscen; k++) {
		rc = scen_plan(s, t, tw, k);
		t->pl = t->spl[0];
		if (!rc && !t->pl->replay)
			break;
	}
	if (rc)
		return rc;
	if (!t->pl->replay)
		return pcb_error(&s->err, PCB_E_STATE, "tune: the search runs "
				 "on the sim device (-d sim); a real NIC is "
				 "never tuned blindly");
	t->ocol = tune_col_of(t->pl, r->obj);
	for (k = 0; k < r->ncons; k++)
		t->ccol[k] = tune_col_of(t->pl, r->cons[k].col);
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
	t->rpp = r->nseeds * r->nscen;
	if (r->budget / t->rpp < 3 * r->nprm + 3) {
		char each[48] = "";

		if (r->nscen > 1)
			snprintf(each, sizeof(each), " on each of %zu "
				 "scenarios", r->nscen);
		return pcb_error(&s->err, PCB_E_RANGE, "tune: budget %zu "
				 "runs is %zu points of %zu seed(s)%s; %zu "
				 "params need at least %zu points (%zu runs)",
				 r->budget, r->budget / t->rpp, r->nseeds, each,
				 r->nprm, 3 * r->nprm + 3,
				 (3 * r->nprm + 3) * t->rpp);
	}
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
	int rc = tune_dir(s, *want ? want : "tune1", dir, len, true);

	for (n = 1; !rc && !*want; n++) {
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

/* tune.args: the words of `tune run`, one a line (read by resume). */
static int save_args(struct session *s, const char *dir, int argc,
		     char **argv)
{
	char path[PCB_PATH_LEN];
	struct pcb_wfile w;
	int i, rc = pcb_path(path, sizeof(path), &s->err, "%s/tune.args",
			     dir);

	for (i = 0; !rc && i < argc; i++) {
		const char *c;

		for (c = argv[i]; *c; c++)
			if ((unsigned char)*c < ' ' || *c == 0x7f)
				return pcb_error(&s->err, PCB_E_INVAL, "tune: "
						 "a word with a control "
						 "character");
		if (!*argv[i])
			return pcb_error(&s->err, PCB_E_INVAL, "tune: an "
					 "empty word");
	}
	if (!rc)
		rc = pcb_wfile_open(&w, path, PCB_MODE_DATA, &s->err);
	if (rc)
		return rc;
	for (i = 0; i < argc; i++)
		fprintf(w.fp, "%s\n", argv[i]);
	return pcb_wfile_commit(&w, &s->err);
}

/* The search found no best: no point had the objective on every run
 * (a collective not done within a run's time has no coll_time), or none
 * met the constraints.
 */
static int no_best(struct session *s, const struct tune_res *r)
{
	if (!tune_any_obj(r))
		return pcb_error(&s->err, PCB_E_RANGE, "tune: no point has a "
				 "value of %s on each of its runs in %zu runs "
				 "(%zu points; a collective not done within "
				 "'for' has none); nothing is kept to apply",
				 r->obj, r->runs, r->nev);
	return pcb_error(&s->err, PCB_E_RANGE, "tune: no point met the "
			 "constraints in %zu runs (%zu points); nothing is "
			 "kept to apply", r->runs, r->nev);
}

/* The search with its files: batch/ for the pool, the progress after
 * every batch, the end saved complete; then shown.
 */
static int tune_exec(struct session *s, struct tsearch *t)
{
	struct tune_res *r = t->r;
	int rc = 0;

	t->all = series_new("tune");
	if (!t->all)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	memcpy(t->all->cols, t->pl->res->cols, sizeof(t->all->cols));
	t->all->ncols = t->pl->res->ncols;
	/* a set: each row says its scenario (0, 1, ...), in the last column */
	if (r->nscen > 1 && series_add_col(t->all, "scenario", ""))
		return pcb_error(&s->err, PCB_E_RANGE, "tune: too many "
				 "columns");
	if (t->oldrows && (t->oldrows->ncols != t->all->ncols ||
			   memcmp(t->oldrows->cols, t->all->cols,
				  t->all->ncols * sizeof(t->all->cols[0]))))
		return pcb_error(&s->err, PCB_E_CORRUPT, "tune %s: its "
				 "results.csv has other columns than its "
				 "definition", r->name);
	for (size_t k = 0; !rc && k < r->nscen; k++) {
		snprintf(t->spl[k]->name, sizeof(t->spl[k]->name), "%s",
			 r->name);
		rc = pcb_path(t->spl[k]->dir, sizeof(t->spl[k]->dir), &s->err,
			      "%s/batch", t->dir);
	}
	if (!rc) {
		sw_rm_tree(t->pl->dir);
		if (mkdir(t->pl->dir, 0700))
			return pcb_error(&s->err, PCB_E_IO, "cannot create "
					 "'%s': %s", t->pl->dir,
					 strerror(errno));
	}
	for (size_t k = 0; k < r->nprm; k++)	/* none yet: a save loads */
		r->sens[k][0] = r->sens[k][1] = -1;
	t->t0 = pcb_mono_s();
	/* a resumed tune.json is replaced only once a batch adds to it */
	if (!rc && !t->old)
		rc = tune_save_progress(t, false);
	if (!rc)
		rc = tune_search(t);
	sw_rm_tree(t->pl->dir);
	if (!rc && r->best < 0)
		rc = no_best(s, r);
	if (!rc || rc == -PCB_E_RANGE) {	/* the search ended */
		struct pcb_err keep = s->err;
		int rc2 = tune_save_progress(t, true);

		if (rc)
			s->err = keep;
		else
			rc = rc2;
	} else if (r->nev) {
		sess_warn(s, "tune %s: %zu points kept; 'tune resume %s' "
			  "continues", r->name, r->nev, r->name);
	}
	if (!rc)
		tune_print(s, r);
	return rc;
}

static void tsearch_free(struct tsearch *t, struct twords *tw)
{
	size_t k;

	series_free(t->all);
	for (k = 0; k < TUNE_MAX_SCEN; k++) {
		if (t->spl[k])
			sw_plan_free(t->spl[k]);
		free(t->sargv[k]);
	}
	twords_free(tw);
	tune_res_free(t->r);
}

int cmd_tune_run(struct session *s, int argc, char **argv)
{
	struct tune_res r = { .best = -1, .def = -1 };
	struct tsearch t = { .s = s, .r = &r, .scale = 1 };
	struct twords tw = { .n = 0 };
	int rc = tune_parse(s, argc, argv, &t, &tw);

	if (!rc && s->dry_run) {
		char set[64];

		out_text(&s->out, "tune: %zu params, budget %zu runs of %zu "
			 "seed(s)%s%s; nothing run (dry run)\n", r.nprm,
			 r.budget, r.nseeds, r.nscen > 1 ? ", objective: " : "",
			 tune_set_text(&r, set, sizeof(set)));
	} else {
		if (!rc)
			rc = tune_lib_load(&s->err);
		if (!rc)
			rc = tune_mkdir(s, &r, tw.name, t.dir, sizeof(t.dir));
		if (!rc)
			rc = save_args(s, t.dir, argc, argv);
		if (!rc)
			rc = tune_exec(s, &t);
	}
	tsearch_free(&t, &tw);
	return rc;
}

/* Resume: the scenario set parsed again from tune.args must be the one
 * the saved points ran on (a file from before sets: one scenario, its
 * words not saved).
 */
static int same_set(struct session *s, const struct tune_res *r,
		    const struct tune_res *old)
{
	char a[512], b[512];
	size_t k, i;

	if (r->nscen != old->nscen || (r->nscen > 1 && r->mean != old->mean))
		return pcb_error(&s->err, PCB_E_STATE, "tune %s ran on %s; its "
				 "tune.args now says %s; resume refused",
				 r->name, old->nscen > 1 ?
				 tune_set_text(old, a, sizeof(a)) :
				 "one scenario", r->nscen > 1 ?
				 tune_set_text(r, b, sizeof(b)) : "one scenario");
	for (k = 0; k < r->nscen && old->scen[k]; k++) {
		for (i = 0; r->scen[k][i] && old->scen[k][i] &&
		     !strcmp(r->scen[k][i], old->scen[k][i]); i++)
			;
		if (r->scen[k][i] || old->scen[k][i])
			return pcb_error(&s->err, PCB_E_STATE, "tune %s: "
					 "scenario %zu was '%s', now '%s'; "
					 "resume refused", r->name, k + 1,
					 tune_scen_text(old, k, a, sizeof(a)),
					 tune_scen_text(r, k, b, sizeof(b)));
	}
	return 0;
}

/* tune resume NAME: the definition from tune.args, the path so far
 * from tune.json and results.csv; the search again, the saved points
 * taken as they come (the same seeds, the same path), the rest run.
 */
int cmd_tune_resume(struct session *s, int argc, char **argv)
{
	struct tune_res r = { .best = -1, .def = -1 }, old;
	struct tsearch t = { .s = s, .r = &r, .scale = 1 };
	struct twords tw = { .n = 0 };
	struct series *rows = NULL;
	char path[PCB_PATH_LEN], *text = NULL, *words[SW_MAX_ARGS], *save;
	size_t len;
	int rc, nw = 0;

	(void)argc;
	rc = tune_load(s, argv[0], &old, t.dir, sizeof(t.dir));
	if (!rc && old.complete)
		rc = pcb_error(&s->err, PCB_E_STATE, "tune %s is complete "
			       "('tune show %s')", argv[0], argv[0]);
	if (!rc)
		rc = pcb_path(path, sizeof(path), &s->err, "%s/tune.args",
			      t.dir);
	if (!rc)
		rc = pcb_read_file(path, SW_ARGS_MAX, &text, &len, &s->err);
	if (!rc && (memchr(text, '\0', len) || !len || text[len - 1] != '\n'))
		rc = pcb_error(&s->err, PCB_E_CORRUPT, "'%s': damaged", path);
	for (char *w = rc ? NULL : strtok_r(text, "\n", &save); w;
	     w = strtok_r(NULL, "\n", &save)) {
		if (nw == SW_MAX_ARGS) {
			rc = pcb_error(&s->err, PCB_E_CORRUPT, "'%s': more "
				       "than %d words", path, SW_MAX_ARGS);
			break;
		}
		words[nw++] = w;
	}
	if (!rc)
		rc = pcb_path(path, sizeof(path), &s->err, "%s/results.csv",
			      t.dir);
	if (!rc)
		rc = series_read_csv(&rows, "tune", path, &s->err);
	if (!rc)
		rc = tune_parse(s, nw, words, &t, &tw);
	if (!rc) {
		snprintf(r.name, sizeof(r.name), "%s", argv[0]);
		rc = same_set(s, &r, &old);
	}
	if (!rc) {
		t.old = &old;
		t.oldrows = rows;
		t.wall0 = old.wall_s;
		rc = tune_lib_load(&s->err);
	}
	if (!rc) {
		rc = tune_exec(s, &t);
	}
	series_free(rows);
	free(text);
	tune_res_free(&old);
	tsearch_free(&t, &tw);
	return rc;
}
