/* set.c - a tune over a set of scenarios (tune.h): a point's values
 * on each scenario combined into the one the search compares, and each
 * scenario's values shown beside the combined ones.
 *
 * The worst case (the default): the objective is the worst scenario's
 * (the largest when minimizing, the least when maximizing) with that
 * scenario's interval.  The mean: the mean over the scenarios; the
 * scenarios run on independent seeds and the same number of them, so the
 * mean's standard error is sqrt(sum se_k^2) / n, and with the same t
 * quantile for every scenario its 95 % half-width is sqrt(sum ci_k^2) / n
 * (the scenarios' seeds-1 degrees of freedom: a little wider than Welch's
 * would be).  In both modes a constraint holds only when it holds on every
 * scenario; its combined value is the worst scenario's against its
 * direction (the largest for <, <=; the least for >, >=).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tune/tune.h"
#include "out.h"
#include "session.h"

/* Is a worse than b for a quantity to be made small (low) or large? */
static bool worse(double a, double b, bool low)
{
	return low ? a > b : a < b;
}

void tune_combine(const struct tune_res *r, struct tune_eval *e)
{
	size_t n = r->nscen ? r->nscen : 1, k, c;
	double sum = 0, var = 0;
	int w = 0;

	e->feasible = true;
	for (k = 0; k < n; k++) {
		const struct tune_sval *v = &e->sc[k];

		e->feasible &= v->feasible;
		sum += v->obj;
		var += v->obj_ci * v->obj_ci;
		if (k && (isnan(v->obj) || (!isnan(e->sc[w].obj) &&
					    worse(v->obj, e->sc[w].obj,
						  !r->maximize))))
			w = (int)k;
	}
	if (r->mean && n > 1) {
		e->obj = sum / (double)n;
		e->obj_ci = sqrt(var) / (double)n;
	} else {
		e->obj = e->sc[w].obj;
		e->obj_ci = e->sc[w].obj_ci;
	}
	for (c = 0; c < r->ncons; c++) {
		bool low = r->cons[c].op[0] == '<';

		w = 0;
		for (k = 1; k < n; k++)
			if (isnan(e->sc[k].con[c]) ||
			    (!isnan(e->sc[w].con[c]) &&
			     worse(e->sc[k].con[c], e->sc[w].con[c], low)))
				w = (int)k;
		e->con[c] = e->sc[w].con[c];
		e->con_ci[c] = e->sc[w].con_ci[c];
	}
	if (!isfinite(e->obj))
		e->feasible = false;
}

const char *tune_set_text(const struct tune_res *r, char *buf, size_t len)
{
	if (r->nscen > 1)
		snprintf(buf, len, "%s of %zu scenarios", r->mean ?
			 "the mean" : "the worst case", r->nscen);
	else
		snprintf(buf, len, "%s", "");
	return buf;
}

const char *tune_goal_text(const struct tune_res *r, char *buf, size_t len)
{
	char set[64];

	snprintf(buf, len, "%s %s%s%s%s", r->maximize ? "maximize" :
		 "minimize", r->obj, r->nscen > 1 ? " (" : "",
		 tune_set_text(r, set, sizeof(set)), r->nscen > 1 ? ")" : "");
	return buf;
}

const char *tune_scen_text(const struct tune_res *r, size_t k, char *buf,
			   size_t len)
{
	size_t o = 0, i;

	*buf = '\0';
	if (k >= r->nscen || !r->scen[k]) {
		snprintf(buf, len, "(not saved)");
		return buf;
	}
	for (i = 0; r->scen[k][i] && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "",
				      r->scen[k][i]);
	return buf;
}
