/* tune_print.c - a tune printed: a saved tune's path, the best with its
 * intervals, the default beside it, the sensitivity (text or JSON), and a
 * set's values per scenario (tune_cmd.h).  It prints; the engine
 * (src/tune/) computes.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/tune_cmd.h"
#include "out.h"
#include "session.h"
#include "tune/tune.h"

static void fmt_raw(struct session *s, const struct tune_prm *p, uint32_t raw,
		    char *buf, size_t len)
{
	sess_format_value(s, (enum algo_ptype)p->type, raw, buf, len);
}

void tune_point_text(struct session *s, const struct tune_res *r,
		     const struct tune_eval *e, char *buf, size_t len)
{
	size_t k, o = 0;
	char v[40];

	*buf = '\0';
	for (k = 0; k < r->nprm && o < len; k++) {
		fmt_raw(s, &r->prm[k], e->raw[k], v, sizeof(v));
		o += (size_t)snprintf(buf + o, len - o, "%s%s %s", k ? ", " :
				      "", r->prm[k].name, v);
	}
}

const char *tune_ci_text(double ci, char *buf, size_t len)
{
	if (isnan(ci))
		snprintf(buf, len, "(one seed, no interval)");
	else
		snprintf(buf, len, "± %.3g", ci);
	return buf;
}

/* A value and its interval; none when some run had no value (a
 * collective not done within the run's time): its mean is not known. */
static const char *val_text(double v, double ci, char *buf, size_t len)
{
	char c[40];

	if (isnan(v))
		snprintf(buf, len, "none (not on every run)");
	else
		snprintf(buf, len, "%.6g %s", v, tune_ci_text(ci, c,
							      sizeof(c)));
	return buf;
}

/* the same in parentheses, beside a change in percent */
static const char *ci_paren(double ci, char *buf, size_t len)
{
	if (isnan(ci))
		return tune_ci_text(ci, buf, len);
	snprintf(buf, len, "(± %.3g)", ci);
	return buf;
}

static void eval_line(struct session *s, const struct tune_res *r,
		      const char *what, const struct tune_eval *e)
{
	char pt[256], vt[80];
	size_t k;

	tune_point_text(s, r, e, pt, sizeof(pt));
	fprintf(s->out.fp, "  %-8s %s\n  %-8s %s %s", what, pt, "",
		r->obj, val_text(e->obj, e->obj_ci, vt, sizeof(vt)));
	for (k = 0; k < r->ncons; k++)
		fprintf(s->out.fp, "; %s %s (%s %.6g)", r->cons[k].col,
			val_text(e->con[k], e->con_ci[k], vt, sizeof(vt)),
			r->cons[k].op, r->cons[k].v);
	fprintf(s->out.fp, "%s%s\n", e->feasible ? "" : "  INFEASIBLE",
		r->nscen > 1 ? (r->mean ? "  (mean)" : "  (worst case)") : "");
	tune_print_scen(s, r, e);
}

static void eval_json(struct session *s, const struct tune_res *r,
		      const char *key, const struct tune_eval *e)
{
	size_t k;

	out_obj_begin(&s->out, key);
	for (k = 0; k < r->nprm; k++) {
		char v[40];

		fmt_raw(s, &r->prm[k], e->raw[k], v, sizeof(v));
		out_real(&s->out, r->prm[k].name, strtod(v, NULL));
	}
	out_real(&s->out, "obj", e->obj);
	out_real(&s->out, "obj_ci", e->obj_ci);
	for (k = 0; k < r->ncons; k++)
		out_real(&s->out, r->cons[k].col, e->con[k]);
	out_bool(&s->out, "feasible", e->feasible);
	tune_json_scen(s, r, e);
	out_obj_end(&s->out);
}

/* The rule the best follows (tune_pick), said where the best is shown. */
static const char *best_rule(const struct tune_res *r)
{
	return r->maximize ? "the greatest mean among the feasible points "
	       "measured in the searched box (hypercube, local search, "
	       "sensitivity probes; the default is the baseline)" :
	       "the least mean among the feasible points measured in the "
	       "searched box (hypercube, local search, sensitivity probes; "
	       "the default is the baseline)";
}

/* Why evaluation e, better than the best on the mean, is not the best. */
static void why_not(const struct tune_res *r, const struct tune_eval *e,
		    char *buf, size_t len)
{
	size_t k, o = 0;

	*buf = '\0';
	if (!strcmp(e->phase, "default"))
		o += (size_t)snprintf(buf, len, "the default: the baseline, "
				      "not a candidate");
	for (k = 0; k < r->ncons && o < len; k++) {
		const struct tune_cons *q = &r->cons[k];
		double x = e->con[k];
		bool ok = !strcmp(q->op, "<=") ? x <= q->v :
			  !strcmp(q->op, ">=") ? x >= q->v :
			  !strcmp(q->op, "<") ? x < q->v : x > q->v;

		if (!ok)
			o += (size_t)snprintf(buf + o, len - o, "%sinfeasible: "
					      "%s %.6g, not %s %.6g", o ? "; " :
					      "", q->col, x, q->op, q->v);
	}
	if (!e->feasible && !*buf)
		snprintf(buf, len, "infeasible: %s not measured", r->obj);
	else if (!*buf)	/* a file from before the rule took probes */
		snprintf(buf, len, "a %s point this tune's file did not count "
			 "(saved by an older pccbench)", e->phase);
}

/* Is e better than the best on the objective's mean alone? */
static bool beats_on_mean(const struct tune_res *r, const struct tune_eval *e)
{
	const struct tune_eval *b = &r->ev[r->best];

	return isfinite(e->obj) && (r->maximize ? e->obj > b->obj :
				    e->obj < b->obj);
}

static void print_json(struct session *s, const struct tune_res *r)
{
	size_t i;

	out_obj_begin(&s->out, NULL);
	out_str(&s->out, "tune", r->name);
	out_str(&s->out, "objective", r->obj);
	out_str(&s->out, "sense", r->maximize ? "maximize" : "minimize");
	out_str(&s->out, "combine", r->mean ? "mean" : "worst");
	out_arr_begin(&s->out, "scenario_set");
	for (i = 0; i < r->nscen; i++) {
		char t[1024];

		out_str(&s->out, NULL, r->scen[i] ?
			tune_scen_text(r, i, t, sizeof(t)) : NULL);
	}
	out_arr_end(&s->out);
	out_u64(&s->out, "runs", r->runs);
	out_u64(&s->out, "evals", r->nev);
	out_real(&s->out, "wall_s", r->wall_s);
	out_str(&s->out, "best_rule", best_rule(r));
	if (r->best >= 0)
		eval_json(s, r, "best", &r->ev[r->best]);
	if (r->def >= 0)
		eval_json(s, r, "default", &r->ev[r->def]);
	out_arr_begin(&s->out, "better_on_mean");
	for (i = 0; r->best >= 0 && i < r->nev; i++) {
		char why[400];

		if (!beats_on_mean(r, &r->ev[i]))
			continue;
		why_not(r, &r->ev[i], why, sizeof(why));
		out_obj_begin(&s->out, NULL);
		out_u64(&s->out, "eval", i);
		out_real(&s->out, "obj", r->ev[i].obj);
		out_str(&s->out, "why", why);
		out_obj_end(&s->out);
	}
	out_arr_end(&s->out);
	out_arr_begin(&s->out, "path");
	for (i = 0; i < r->nev; i++) {
		out_obj_begin(&s->out, NULL);
		out_str(&s->out, "phase", r->ev[i].phase);
		out_real(&s->out, "obj", r->ev[i].obj);
		out_bool(&s->out, "feasible", r->ev[i].feasible);
		out_obj_end(&s->out);
	}
	out_arr_end(&s->out);
	out_obj_end(&s->out);
	out_end_doc(&s->out);
}

/* The path (every evaluation), the best, the default, the sensitivity. */
void tune_print(struct session *s, const struct tune_res *r)
{
	FILE *fp = s->out.fp;
	size_t i, k;
	char pt[256], goal[128], nsc[48] = "";
	int center = tune_pick(r, false);	/* the probes' */

	if (s->out.json) {
		print_json(s, r);
		return;
	}
	if (r->nscen > 1)
		snprintf(nsc, sizeof(nsc), " x %zu scenarios", r->nscen);
	fprintf(fp, "tune %s: %s on %s slot %u, %zu runs (%zu points x %zu "
		"seeds%s) in %.1f s\n", r->name,
		tune_goal_text(r, goal, sizeof(goal)), r->algo, r->slot,
		r->runs, r->nev, r->nseeds, nsc, r->wall_s);
	for (k = 0; r->nscen > 1 && k < r->nscen; k++)
		fprintf(fp, "  scenario %zu: %s\n", k + 1,
			tune_scen_text(r, k, pt, sizeof(pt)));
	fprintf(fp, "%5s  %-7s  %-40s %14s %10s\n", "EVAL", "PHASE", "POINT",
		r->obj, "±95%");
	for (i = 0; i < r->nev; i++) {
		const struct tune_eval *e = &r->ev[i];

		tune_point_text(s, r, e, pt, sizeof(pt));
		if (isnan(e->obj))	/* not on every run: as sweep show */
			fprintf(fp, "%5zu  %-7s  %-40s %14s %10s%s\n", i,
				e->phase, pt, "-", "-",
				e->feasible ? "" : "  x");
		else
			fprintf(fp, "%5zu  %-7s  %-40s %14.6g %10.3g%s%s\n", i,
				e->phase, pt, e->obj, e->obj_ci,
				e->feasible ? "" : "  x",
				(int)i == r->best ? "  <- best" : "");
	}
	fprintf(fp, "  the best: %s\n", best_rule(r));
	if (r->best >= 0)
		eval_line(s, r, "best", &r->ev[r->best]);
	if (r->def >= 0)
		eval_line(s, r, "default", &r->ev[r->def]);
	if (r->best < 0 && !tune_any_obj(r))
		fprintf(fp, "  no evaluated point has a value of %s on each "
			"of its runs (a collective not done within 'for' has "
			"none)\n", r->obj);
	else if (r->best < 0)
		fprintf(fp, "  no evaluated point met the constraints\n");
	for (i = 0; r->best >= 0 && i < r->nev; i++) {
		char why[400];

		if (!beats_on_mean(r, &r->ev[i]))
			continue;
		why_not(r, &r->ev[i], why, sizeof(why));
		tune_point_text(s, r, &r->ev[i], pt, sizeof(pt));
		fprintf(fp, "  better on the mean, not chosen: eval %zu (%s) %s "
			"%.6g: %s\n", i, pt, r->obj, r->ev[i].obj, why);
	}
	if (center >= 0 && center != r->best)
		fprintf(fp, "  the probes were measured around the search's "
			"best, eval %zu (a probe beat it):\n", (size_t)center);
	for (k = 0; center >= 0 && k < r->nprm; k++) {
		char ci[40];
		int side;

		fprintf(fp, "  %-8s %s:", k ? "" : "around", r->prm[k].name);
		for (side = 0; side < 2; side++) {
			int j = r->sens[k][side];
			char v[40];

			if (j < 0) {
				fprintf(fp, "  %s: at the range's end", side ?
					"up" : "down");
				continue;
			}
			fmt_raw(s, &r->prm[k], r->ev[j].raw[k], v, sizeof(v));
			fprintf(fp, "  %s %s -> %s %+.3g%% %s", side ? "up" :
				"down", v, r->obj, r->ev[center].obj ?
				100 * (r->ev[j].obj - r->ev[center].obj) /
				fabs(r->ev[center].obj) : 0,
				ci_paren(r->ev[j].obj_ci, ci, sizeof(ci)));
		}
		fputc('\n', fp);
	}
}

void tune_print_scen(struct session *s, const struct tune_res *r,
		     const struct tune_eval *e)
{
	char vt[80];
	size_t k, c;

	if (r->nscen < 2)
		return;
	for (k = 0; k < r->nscen; k++) {
		const struct tune_sval *v = &e->sc[k];

		fprintf(s->out.fp, "  %-8s scenario %zu: %s %s", "", k + 1,
			r->obj, val_text(v->obj, v->obj_ci, vt, sizeof(vt)));
		for (c = 0; c < r->ncons; c++)
			fprintf(s->out.fp, "; %s %s", r->cons[c].col,
				val_text(v->con[c], v->con_ci[c], vt,
					 sizeof(vt)));
		fprintf(s->out.fp, "%s\n", v->feasible ? "" : "  INFEASIBLE");
	}
}

void tune_json_scen(struct session *s, const struct tune_res *r,
		    const struct tune_eval *e)
{
	size_t k, c;

	if (r->nscen < 2)
		return;
	out_arr_begin(&s->out, "scenarios");
	for (k = 0; k < r->nscen; k++) {
		const struct tune_sval *v = &e->sc[k];

		out_obj_begin(&s->out, NULL);
		out_real(&s->out, "obj", v->obj);
		out_real(&s->out, "obj_ci", v->obj_ci);
		for (c = 0; c < r->ncons; c++)
			out_real(&s->out, r->cons[c].col, v->con[c]);
		out_bool(&s->out, "feasible", v->feasible);
		out_obj_end(&s->out);
	}
	out_arr_end(&s->out);
}
