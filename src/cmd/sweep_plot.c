/* sweep_plot.c - a saved sweep read back: `sweep show` (the points with
 * their intervals and the best one), `sweep list`, and `sweep plot` and
 * the plot after a sweep run: one measure against one param (lines, with
 * the spread of repeats), or a heatmap per measure over two; on the
 * terminal a table (gnuplot's dumb terminal shows no heatmap).  The best
 * point is marked either way.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axis.h"
#include "cmd.h"
#include "cmd/sweep_cmd.h"
#include "paths.h"
#include "sweep/sweep.h"

static int cmp_x(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* plot.dat and the variables of plots/sweep.gp. One param: rows "x mean
 * ci ..." sorted by x.  Two: rows "i j mean ci ..." on the grid of value
 * indexes (a blank line between i), tics labelled with the values.
 */
/* Which way is better for a measure: utilisation, fairness and goodput
 * up, everything else (queues, RTT, drops, pauses, CNPs, timeouts) down.
 */
static bool higher_better(const char *name)
{
	return !strncmp(name, "util", 4) || !strncmp(name, "jain", 4) ||
	       !strncmp(name, "rx_gbps", 7) || !strncmp(name, "tx_gbps", 7);
}

/* A value for a cell or a table: 4 significant digits while that reads
 * well (0.8714, 412.5), engineering form beyond (22.28M, 15µs).
 */
static void cell_text(char *b, size_t len, double v, const char *suffix,
		      bool ascii)
{
	if (isnan(v))
		snprintf(b, len, "-");
	else if (v == 0 || (fabs(v) >= 1e-3 && fabs(v) < 1e4 && !*suffix))
		snprintf(b, len, "%.4g", v);
	else
		plot_eng(b, len, v, fabs(v) / 1e3, suffix, ascii);
}

/* A number for gnuplot's parser: NaN is its constant, not "nan". */
static void gp_num(FILE *fp, double v)
{
	if (isnan(v))
		fputs("NaN", fp);
	else
		fprintf(fp, "%.17g", v);
}

/* The point of the grid (i, j) of the axes' sorted values: its index in
 * the table, or npoints when the sweep has no result there.
 */
static size_t grid_point(const struct table *t, double (*xs)[SW_MAX_VALS],
			 size_t i, size_t j)
{
	size_t p;

	for (p = 0; p < t->npoints; p++)
		if (t->first[p] >= 0 &&
		    series_at(t->r, (size_t)t->first[p], SW_FIXED_COLS) ==
		    xs[0][i] &&
		    (t->naxes == 1 ||
		     series_at(t->r, (size_t)t->first[p], SW_FIXED_COLS + 1) ==
		     xs[1][j]))
			break;
	return p;
}

/* Two params on the terminal: a table per measure (the first param down,
 * the second across), values in engineering form, the best marked '*'.
 */
static void sweep_plot_text(struct session *s, const struct table *t,
			    double (*xs)[SW_MAX_VALS], const size_t *nx,
			    const size_t (*best)[2])
{
	size_t k, i, j;
	char v[24];

	for (k = 0; k < t->nprim; k++) {
		fprintf(s->out.fp, "%s%s%s%s (%s is best; * marks it)\n",
			t->pname[k], *t->r->cols[t->prim[k]].unit ? " (" : "",
			t->r->cols[t->prim[k]].unit,
			*t->r->cols[t->prim[k]].unit ? ")" : "",
			higher_better(t->pname[k]) ? "highest" : "lowest");
		fprintf(s->out.fp, "%14s", t->r->cols[SW_FIXED_COLS].name);
		for (j = 0; j < nx[1]; j++) {
			snprintf(v, sizeof(v), "%.6g", xs[1][j]);
			fprintf(s->out.fp, " %10s", v);
		}
		fprintf(s->out.fp, "  <- %s\n", t->r->cols[SW_FIXED_COLS + 1].name);
		for (i = 0; i < nx[0]; i++) {
			snprintf(v, sizeof(v), "%.6g", xs[0][i]);
			fprintf(s->out.fp, "%14s", v);
			for (j = 0; j < nx[1]; j++) {
				size_t p = grid_point(t, xs, i, j);
				double m = p < t->npoints ?
					   t->mean[p * t->nprim + k] : NAN;

				cell_text(v, sizeof(v), m, "", true);
				fprintf(s->out.fp, " %9s%c", v,
					best[k][0] == i && best[k][1] == j ?
					'*' : ' ');
			}
			fputc('\n', s->out.fp);
		}
		fputc('\n', s->out.fp);
	}
}

/* What a sweep plot draws from its table: the grid, the best point, the
 * y axis and the spread of each measure.  sweep_plot owns t.
 */
struct sw_plot {
	struct table t;
	double xs[2][SW_MAX_VALS];	/* the distinct values of each axis */
	size_t nx[2];
	size_t best[SW_MAX_MEAS][2];	/* grid indexes; SIZE_MAX for none */
	struct plot_axis ax[SW_MAX_MEAS];
	double spread[SW_MAX_MEAS];	/* of the means, relative to theirs */
	size_t nt;			/* tick labels over every axis */
};

/* The distinct values of each axis, ascending. */
static void sw_plot_grid(struct sw_plot *pl)
{
	const struct table *t = &pl->t;
	size_t a, p, i;

	for (a = 0; a < t->naxes; a++) {
		for (p = 0; p < t->npoints; p++) {
			double v;

			if (t->first[p] < 0)
				continue;
			v = series_at(t->r, (size_t)t->first[p],
				      SW_FIXED_COLS + a);
			for (i = 0; i < pl->nx[a] && pl->xs[a][i] != v; i++)
				;
			if (i == pl->nx[a] && pl->nx[a] < SW_MAX_VALS)
				pl->xs[a][pl->nx[a]++] = v;
		}
		qsort(pl->xs[a], pl->nx[a], sizeof(double), cmp_x);
	}
	if (t->naxes == 1)
		pl->nx[1] = 1;
}

/* Per measure: the best grid point, the range with every error bar, the
 * spread of the means relative to their mean.
 */
static void sw_plot_measures(struct sw_plot *pl, bool dumb)
{
	const struct table *t = &pl->t;
	size_t k, i, j, p;

	for (k = 0; k < t->nprim; k++) {
		double lo = NAN, hi = NAN, mlo = NAN, mhi = NAN, sum = 0, bv = NAN;
		size_t n = 0;
		bool up = higher_better(t->pname[k]);

		pl->best[k][0] = pl->best[k][1] = SIZE_MAX;
		for (i = 0; i < pl->nx[0]; i++)
			for (j = 0; j < pl->nx[1]; j++) {
				double m, c;

				p = grid_point(t, pl->xs, i, j);
				if (p == t->npoints)
					continue;
				m = t->mean[p * t->nprim + k];
				c = t->ci[p * t->nprim + k];
				if (isnan(m))
					continue;
				c = isnan(c) ? 0 : c;
				if (isnan(lo) || m - c < lo)
					lo = m - c;
				if (isnan(hi) || m + c > hi)
					hi = m + c;
				if (isnan(mlo) || m < mlo)
					mlo = m;
				if (isnan(mhi) || m > mhi)
					mhi = m;
				sum += m;
				n++;
				if (isnan(bv) || (up ? m > bv : m < bv)) {
					bv = m;
					pl->best[k][0] = i;
					pl->best[k][1] = j;
				}
			}
		pl->spread[k] = n && sum != 0 ?
				(mhi - mlo) / fabs(sum / (double)n) : 0;
		plot_axis_make(&pl->ax[k], t->r->cols[t->prim[k]].unit, lo, hi,
			       dumb, pl->spread[k] < 0.1);
		pl->nt += pl->ax[k].nticks;
	}
}

/* The data file: one param, "x mean ci ..."; two, "i j mean ci label ..." */
static int sw_plot_data(struct session *s, struct sw_plot *pl,
			const char *dat)
{
	const struct table *t = &pl->t;
	struct pcb_wfile w;
	char lab[40];
	size_t i, j, k, p;
	FILE *fp;
	int rc;

	rc = pcb_wfile_open(&w, dat, PCB_MODE_DATA, &s->err);
	if (rc)
		return rc;
	fp = w.fp;
	for (i = 0; i < pl->nx[0]; i++) {
		for (j = 0; j < pl->nx[1]; j++) {
			p = grid_point(t, pl->xs, i, j);
			if (t->naxes == 2)
				fprintf(fp, "%zu %zu", i, j);
			else
				fprintf(fp, "%.12g", pl->xs[0][i]);
			for (k = 0; k < t->nprim; k++) {
				double m = p < t->npoints ?
					   t->mean[p * t->nprim + k] : NAN;
				double c = p < t->npoints ?
					   t->ci[p * t->nprim + k] : NAN;

				fprintf(fp, " %.9g %.9g", m, isnan(c) ? 0 : c);
				if (t->naxes == 2) {
					cell_text(lab, sizeof(lab), m *
						  pl->ax[k].scale,
						  pl->ax[k].suffix, false);
					fprintf(fp, " %s", lab);
				}
			}
			fputc('\n', fp);
		}
		if (t->naxes == 2)
			fputc('\n', fp);
	}
	return pcb_wfile_commit(&w, &s->err);
}

/* The gnuplot variables the template draws with, in *vars (the caller
 * frees it); NULL on error.
 */
static int sw_plot_vars(struct session *s, const struct sw_plot *pl,
			const char *name, const char *dat, char **vars)
{
	const struct table *t = &pl->t;
	char title[200], *buf = NULL;
	size_t len, k, a, i, j, nt;
	FILE *vp;
	int rc;

	*vars = NULL;
	vp = open_memstream(&buf, &len);
	if (!vp)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	plot_str(vp, "datafile", dat);
	snprintf(title, sizeof(title), "sweep %s", name);
	plot_str(vp, "plottitle", title);
	fprintf(vp, "naxes = %zu\nnpanels = %zu\ncelllabels = %d\n"
		"array names[%zu]\narray units[%zu]\narray spread[%zu]\n"
		"array yscale[%zu]\narray ylo[%zu]\narray yhi[%zu]\n"
		"array tic0[%zu]\narray ntic[%zu]\narray ticpos[%zu]\n"
		"array ticlab[%zu]\narray bestx[%zu]\narray besty[%zu]\n",
		t->naxes, t->nprim, pl->nx[0] * pl->nx[1] <= 150, t->nprim,
		t->nprim, t->nprim, t->nprim, t->nprim, t->nprim, t->nprim,
		t->nprim, pl->nt ? pl->nt : 1, pl->nt ? pl->nt : 1, t->nprim,
		t->nprim);
	for (k = 0, nt = 0; k < t->nprim; k++) {
		const struct plot_axis *ax = &pl->ax[k];
		char sp[64];

		plot_str_at(vp, "names", k + 1, t->pname[k]);
		plot_str_at(vp, "units", k + 1, ax->unit);
		snprintf(sp, sizeof(sp), "spread %.3g %% of the mean (%s is "
			 "best)", pl->spread[k] * 100,
			 higher_better(t->pname[k]) ? "highest" : "lowest");
		plot_str_at(vp, "spread", k + 1, sp);
		fprintf(vp, "yscale[%zu] = %.17g\nylo[%zu] = %.17g\n"
			"yhi[%zu] = %.17g\ntic0[%zu] = %zu\nntic[%zu] = %zu\n",
			k + 1, ax->scale, k + 1, ax->lo, k + 1, ax->hi,
			k + 1, nt + 1, k + 1, ax->nticks);
		fprintf(vp, "bestx[%zu] = ", k + 1);
		gp_num(vp, pl->best[k][0] >= pl->nx[0] ? NAN : t->naxes == 2 ?
		       (double)pl->best[k][0] : pl->xs[0][pl->best[k][0]]);
		fprintf(vp, "\nbesty[%zu] = ", k + 1);
		gp_num(vp, t->naxes == 2 && pl->best[k][1] < pl->nx[1] ?
		       (double)pl->best[k][1] : NAN);
		fputc('\n', vp);
		for (j = 0; j < ax->nticks; j++, nt++) {
			fprintf(vp, "ticpos[%zu] = %.17g\n", nt + 1,
				ax->pos[j]);
			plot_str_at(vp, "ticlab", nt + 1, ax->lab[j]);
		}
	}
	for (a = 0; a < t->naxes; a++) {
		const struct series_col *c = &t->r->cols[SW_FIXED_COLS + a];
		char al[80];

		snprintf(al, sizeof(al), "%s%s%s%s", c->name,
			 *c->unit ? " (" : "", c->unit, *c->unit ? ")" : "");
		plot_str(vp, a ? "yname" : "xname", al);
		if (t->naxes == 2) {	/* tics at the grid indexes */
			fprintf(vp, "n%c = %zu\narray %ctl[%zu]\n", a ? 'y' : 'x',
				pl->nx[a], a ? 'y' : 'x', pl->nx[a]);
			for (i = 0; i < pl->nx[a]; i++) {
				char el[16], v[24];

				snprintf(el, sizeof(el), "%ctl", a ? 'y' : 'x');
				snprintf(v, sizeof(v), "%.6g", pl->xs[a][i]);
				plot_str_at(vp, el, i + 1, v);
			}
		}
	}
	rc = ferror(vp);
	if (fclose(vp) || rc) {
		free(buf);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	*vars = buf;
	return 0;
}

/* sweep plot NAME [to FILE]: one param -> each measure against it with
 * its 95 % interval, the y range holding every error bar (from 0 when the
 * points differ by less than 10 %, so a 0.02 % difference looks as small
 * as it is) and the relative spread said; two params -> a heatmap per
 * measure (viridis, the value in each cell of a small grid) or, on the
 * terminal, a table; the best point marked either way.
 */
int sweep_plot(struct session *s, const char *name, const char *to)
{
	char dir[PCB_PATH_LEN], dat[PCB_PATH_LEN], gp[PCB_PATH_LEN];
	char tmpl[PCB_PATH_LEN];
	struct sw_plot pl = { .nt = 0 };
	struct table *t = &pl.t;
	char *vars = NULL;
	int rc;

	rc = sw_table_load(s, name, t, dir, sizeof(dir));
	if (!rc && t->naxes > 2)
		rc = pcb_error(&s->err, PCB_E_STATE, "sweep %s has %zu params; "
			       "a plot shows one (lines) or two (heatmap); "
			       "'sweep show %s' lists every point", name,
			       t->naxes, name);
	if (!rc && !t->r->nrows)
		rc = pcb_error(&s->err, PCB_E_STATE, "sweep %s: no results",
			       name);
	if (!rc)
		rc = pcb_data_file(tmpl, sizeof(tmpl), "plots/sweep.gp",
				   &s->err);
	if (rc)
		goto out_table;
	sw_plot_grid(&pl);
	sw_plot_measures(&pl, !to);
	if (!to && t->naxes == 2) {	/* a dumb heatmap shows nothing */
		sweep_plot_text(s, t, pl.xs, pl.nx,
				(const size_t (*)[2])pl.best);
		goto out_table;
	}
	rc = pcb_path(dat, sizeof(dat), &s->err, "%s/plot.dat", dir);
	if (!rc)
		rc = pcb_path(gp, sizeof(gp), &s->err, "%s/plot.gp", dir);
	if (!rc)
		rc = sw_plot_data(s, &pl, dat);
	if (!rc)
		rc = sw_plot_vars(s, &pl, name, dat, &vars);
	if (rc)
		goto out_table;
	rc = plot_render(s, to, vars, (int)t->nprim, tmpl, dat, gp);
	free(vars);
out_table:
	sw_table_free(t);
	return rc;
}


int cmd_sweep_show(struct session *s, int argc, char **argv)
{
	struct tbl_col cols[2 + SW_MAX_AXES + 2 * SW_MAX_MEAS + 1];
	char heads[2 * SW_MAX_MEAS][48], dir[PCB_PATH_LEN];
	struct cond conds[8];
	struct table t;
	struct tbl tb;
	size_t nc = 0, k, p, nconds = 0, reps = 1;
	int best = -1, bcol = -1, rc;
	bool maximise = false, ci;

	rc = sw_table_load(s, argv[0], &t, dir, sizeof(dir));
	if (!rc && argc > 1)
		rc = sw_parse_best(s, &t, argc - 1, argv + 1, &maximise, &bcol,
				conds, &nconds);
	if (rc) {
		sw_table_free(&t);
		return rc;
	}
	for (p = 0; p < t.npoints; p++)
		reps = t.n[p] > reps ? t.n[p] : reps;
	ci = reps > 1;
	cols[nc++] = (struct tbl_col){ "point", "POINT", TBL_RIGHT };
	for (k = 0; k < t.naxes; k++)
		cols[nc++] = (struct tbl_col){
			t.r->cols[SW_FIXED_COLS + k].name,
			t.r->cols[SW_FIXED_COLS + k].name, TBL_RIGHT };
	if (ci)
		cols[nc++] = (struct tbl_col){ "n", "N", TBL_RIGHT };
	for (k = 0; k < t.nprim; k++) {
		const char *u = t.r->cols[t.prim[k]].unit;

		snprintf(heads[2 * k], sizeof(heads[0]), "%s%s%s%s",
			 t.pname[k], *u ? " (" : "", u, *u ? ")" : "");
		cols[nc++] = (struct tbl_col){ t.pname[k], heads[2 * k],
					       TBL_RIGHT };
		if (ci) {
			snprintf(heads[2 * k + 1], sizeof(heads[0]),
				 "%s_ci95", t.pname[k]);
			cols[nc++] = (struct tbl_col){ heads[2 * k + 1], "±95%",
						       TBL_RIGHT };
		}
	}
	if (bcol != -1)
		cols[nc++] = (struct tbl_col){ "best", "BEST", 0 };
	for (p = 0; bcol != -1 && p < t.npoints; p++) {
		double v = sw_table_value(&t, p, bcol);
		size_t c;

		for (c = 0; c < nconds && sw_cond_holds(&t, p, &conds[c]); c++)
			;
		if (c < nconds || isnan(v) || t.first[p] < 0)
			continue;
		if (best < 0 || (maximise ? v > sw_table_value(&t, (size_t)best,
							     bcol) :
				 v < sw_table_value(&t, (size_t)best, bcol)))
			best = (int)p;
	}
	tbl_init(&tb, cols, nc);
	for (p = 0; p < t.npoints; p++) {
		if (t.first[p] < 0)
			continue;
		tbl_row(&tb);
		tbl_u64(&tb, p);
		for (k = 0; k < t.naxes; k++)
			tbl_real(&tb, series_at(t.r, (size_t)t.first[p],
					       SW_FIXED_COLS + k));
		if (ci)
			tbl_u64(&tb, t.n[p]);
		for (k = 0; k < t.nprim; k++) {
			tbl_real(&tb, t.mean[p * t.nprim + k]);
			if (ci)
				tbl_real(&tb, t.ci[p * t.nprim + k]);
		}
		if (bcol != -1) {
			if (s->out.json)
				tbl_bool(&tb, (int)p == best);
			else
				tbl_str(&tb, (int)p == best ? "*" : "");
		}
	}
	tbl_print(&tb, &s->out, NULL);
	tbl_release(&tb);
	sw_table_warn_flat(s, argv[0], &t, -1);
	if (bcol != -1 && !s->out.json) {
		if (best < 0)
			fprintf(s->out.fp, "no point meets the conditions\n");
		else
		{
			fprintf(s->out.fp, "best (%s %s): point %d,", argv[2],
				argv[3], best);
			for (k = 0; k < t.naxes; k++)
				fprintf(s->out.fp, " %s %.6g",
					t.r->cols[SW_FIXED_COLS + k].name,
					series_at(t.r, (size_t)t.first[best],
						  SW_FIXED_COLS + k));
			fprintf(s->out.fp, ": %s %.6g\n", argv[3],
				sw_table_value(&t, (size_t)best, bcol));
		}
	}
	sw_table_free(&t);
	return 0;
}

int cmd_sweep_list(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "name", "NAME", 0 }, { "runs", "RUNS", TBL_RIGHT },
		{ "params", "PARAMS", 0 },
	};
	char **names = store_names("sweeps", NULL);
	struct tbl t;
	size_t i, k;

	(void)argc;
	(void)argv;
	if (!names)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; names[i]; i++) {
		struct table tt;
		char dir[PCB_PATH_LEN], params[256] = "";
		struct pcb_err keep = s->err;
		int rc = sw_table_load(s, names[i], &tt, dir, sizeof(dir));

		/* not a sweep, or none of its runs done: not listed; a
		 * damaged one: said, and the others listed all the same */
		if (rc && rc != -PCB_E_NOENT)
			sess_warn(s, "sweep %s skipped: %s", names[i],
				  s->err.msg);
		if (!rc) {
			for (k = 0; k < tt.naxes; k++)
				snprintf(params + strlen(params),
					 sizeof(params) - strlen(params),
					 "%s%s", k ? " " : "",
					 tt.r->cols[SW_FIXED_COLS + k].name);
			tbl_row(&t);
			tbl_str(&t, names[i]);
			tbl_u64(&t, tt.r->nrows);
			tbl_str(&t, params);
		}
		sw_table_free(&tt);
		s->err = keep;
	}
	words_free(names);
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	return 0;
}

/* A sweep, damaged or not, goes (its directory must be one, not a link). */
