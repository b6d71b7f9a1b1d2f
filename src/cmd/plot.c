/* plot.c - `plot`: a series through gnuplot, run with fork/exec (never a
 * shell), the script on stdin and saved beside the data so it renders
 * anywhere; templates in plots/.  plot_render is shared with `sweep`.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "axis.h"
#include "fsafe.h"
#include "tel/retx.h"
#include "cmd.h"
#include "paths.h"
#include "rec/series.h"

/* ---- plot --------------------------------------------------------------- */

static void put_row(FILE *fp, double t, const double *v, size_t n)
{
	size_t c;

	fprintf(fp, "%.9g", t);
	for (c = 1; c < n; c++)
		if (isnan(v[c]))
			fputs(" NaN", fp);
		else
			fprintf(fp, " %.9g", v[c]);
	fputc('\n', fp);
}

/* The data file: time then every column, NaN where missing.  Longer
 * than `buckets` x 2 rows, each bucket of rows becomes two, the minima
 * at its first time and the maxima at its last: a line through them
 * draws what every point would (an envelope per pixel column) at a
 * fraction of the cost.  For the heatmap "t bin count" rows with a
 * blank line between times.
 */
static int write_plot_data(struct session *s, const struct series *ser,
			   const char *path, bool hist, int bin0, int nbins,
			   size_t buckets)
{
	double lo[SERIES_MAX_COLS], hi[SERIES_MAX_COLS];
	struct pcb_wfile w;
	size_t r, c, b;
	FILE *fp;
	int k, rc = pcb_wfile_open(&w, path, PCB_MODE_DATA, &s->err);

	if (rc)
		return rc;
	fp = w.fp;
	if (hist) {
		for (r = 0; r < ser->nrows; r++) {
			for (k = 0; k < nbins; k++)
				fprintf(fp, "%.9g %d %.9g\n",
					series_at(ser, r, 0), k,
					series_at(ser, r, (size_t)(bin0 + k)));
			fputc('\n', fp);
		}
	} else if (ser->nrows <= 2 * buckets) {
		for (r = 0; r < ser->nrows; r++)
			put_row(fp, series_at(ser, r, 0),
				ser->data + r * ser->ncols, ser->ncols);
	} else {
		for (b = 0; b < buckets; b++) {
			size_t r0 = ser->nrows * b / buckets;
			size_t r1 = ser->nrows * (b + 1) / buckets;

			for (c = 0; c < ser->ncols; c++)
				lo[c] = hi[c] = NAN;
			for (r = r0; r < r1; r++)
				for (c = 1; c < ser->ncols; c++) {
					double v = series_at(ser, r, c);

					if (isnan(v))
						continue;
					if (isnan(lo[c]) || v < lo[c])
						lo[c] = v;
					if (isnan(hi[c]) || v > hi[c])
						hi[c] = v;
				}
			put_row(fp, series_at(ser, r0, 0), lo, ser->ncols);
			put_row(fp, series_at(ser, r1 - 1, 0), hi, ser->ncols);
		}
	}
	return pcb_wfile_commit(&w, &s->err);
}

/* The smallest and largest value of a column; false when it has none. */
static bool col_range(const struct series *ser, size_t c, double *lo,
		      double *hi)
{
	double a = NAN, b = NAN;
	size_t r;

	for (r = 0; r < ser->nrows; r++) {
		double v = series_at(ser, r, c);

		if (isnan(v))
			continue;
		if (isnan(a) || v < a)
			a = v;
		if (isnan(b) || v > b)
			b = v;
	}
	if (lo)
		*lo = a;
	if (hi)
		*hi = b;
	return !isnan(a);
}

/* The timeline template's variables: one time axis for every panel, in
 * the unit that fits the span, and per panel its column, label, range
 * and ticks in engineering form (axis.h).  Several series (an overlay)
 * share the axes: cols[k][p] is panel p's column in series k, datacol[p]
 * its column in the data file.
 */
static void timeline_vars(FILE *fp, struct series *const *sers, size_t nser,
			  int (*cols)[PLOT_MAX_PANELS], const int *datacol,
			  int n, bool ascii)
{
	struct plot_axis ax[PLOT_MAX_PANELS];
	double t0 = NAN, t1 = NAN;
	char xname[32];
	size_t nt = 0, k, j, p;
	double xs;

	for (k = 0; k < nser; k++) {
		const struct series *ser = sers[k];
		double a = series_at(ser, 0, 0);
		double b = series_at(ser, ser->nrows - 1, 0);

		if (isnan(t0) || a < t0)
			t0 = a;
		if (isnan(t1) || b > t1)
			t1 = b;
	}
	xs = plot_time_unit(t0, t1, xname, sizeof(xname), ascii);
	for (p = 0; p < (size_t)n; p++) {
		double lo = NAN, hi = NAN;

		for (k = 0; k < nser; k++) {
			double a, b;

			if (!col_range(sers[k], (size_t)cols[k][p], &a, &b))
				continue;
			if (isnan(lo) || a < lo)
				lo = a;
			if (isnan(hi) || b > hi)
				hi = b;
		}
		plot_axis_make(&ax[p], sers[0]->cols[cols[0][p]].unit, lo, hi,
			       ascii, true);
		nt += ax[p].nticks;
	}
	fprintf(fp, "xscale = %.17g\nxlo = %.17g\nxhi = %.17g\n", xs,
		t0 * xs, t1 > t0 ? t1 * xs : t0 * xs + 1);
	plot_str(fp, "xname", xname);
	fprintf(fp, "nseries = %zu\narray snames[%zu]\n", nser, nser);
	for (k = 0; k < nser; k++)
		plot_str_at(fp, "snames", k + 1, sers[k]->name);
	fprintf(fp, "npanels = %d\narray cols[%d]\narray names[%d]\n"
		"array units[%d]\narray yscale[%d]\narray ylo[%d]\n"
		"array yhi[%d]\narray tic0[%d]\narray ntic[%d]\n"
		"array ticpos[%zu]\narray ticlab[%zu]\n", n, n, n, n, n, n, n,
		n, n, nt, nt);
	for (p = 0, nt = 0; p < (size_t)n; p++) {
		fprintf(fp, "cols[%zu] = %d\nyscale[%zu] = %.17g\n"
			"ylo[%zu] = %.17g\nyhi[%zu] = %.17g\ntic0[%zu] = %zu\n"
			"ntic[%zu] = %zu\n", p + 1, datacol[p], p + 1,
			ax[p].scale, p + 1, ax[p].lo, p + 1, ax[p].hi, p + 1,
			nt + 1, p + 1, ax[p].nticks);
		plot_str_at(fp, "names", p + 1, sers[0]->cols[cols[0][p]].name);
		plot_str_at(fp, "units", p + 1, ax[p].unit);
		for (j = 0; j < ax[p].nticks; j++, nt++) {
			fprintf(fp, "ticpos[%zu] = %.17g\n", nt + 1,
				ax[p].pos[j]);
			plot_str_at(fp, "ticlab", nt + 1, ax[p].lab[j]);
		}
	}
}

/* plot A,B[,C...] [COL...] [to FILE] [title TEXT]: the same columns of
 * several series (before and after a tuning change) on one time axis,
 * one line per series with a legend.
 */
#define PLOT_MAX_OVERLAY 8
/* Where plot's `to` and `title` go (the overlay's or the plot's). */
struct plot_dest {
	const char **to;
	char *title;
	size_t tlen;
};

static int plot_to(struct session *s, void *req, const struct cmd_kw *k,
		   const char *val)
{
	size_t len = strlen(val);

	(void)k;
	*((struct plot_dest *)req)->to = val;
	if (len <= 4 || (strcmp(val + len - 4, ".svg") &&
			 strcmp(val + len - 4, ".png")))
		return pcb_error(&s->err, PCB_E_INVAL, "plot: '%s' is neither "
				 ".png nor .svg", val);
	return 0;
}

static int plot_title(struct session *s, void *req, const struct cmd_kw *k,
		      const char *val)
{
	struct plot_dest *d = req;

	(void)s;
	(void)k;
	snprintf(d->title, d->tlen, "%s", val);
	return 0;
}

/* plot's words after the series: the parsers below, the completion */
enum { PLOT_K_TO = 1, PLOT_K_TITLE, PLOT_K_HIST, PLOT_K_SCATTER };
static const struct cmd_kw plot_keys[] = {
	{ .name = "to", .arg = "FILE", .flags = KW_FILE, .set = plot_to,
	  .id = PLOT_K_TO },
	{ .name = "title", .arg = "TEXT", .set = plot_title,
	  .id = PLOT_K_TITLE },
	{ .name = "hist", .id = PLOT_K_HIST },
	{ .name = "scatter", .arg = "X Y", .id = PLOT_K_SCATTER },
	{ 0 }
};

/* `to FILE.png|svg` or `title TEXT` at argv[*i]: 1 when it was one
 * (*i moved past it), 0 when not, or -code.
 */
static int plot_opt(struct session *s, int argc, char **argv, int *i,
		    const char **to, char *title, size_t tlen)
{
	struct plot_dest d = { to, title, tlen };
	const struct cmd_kw *k;
	int rc;

	if (*i + 1 >= argc)
		return 0;
	k = cmd_kw_find(plot_keys, argv[*i]);
	if (!k || !k->set)
		return 0;
	rc = cmd_kw_take(s, k, &d, argv[++*i]);
	return rc ? rc : 1;
}

/* An overlay of A,B,...: what to draw. */
struct overlay {
	struct series *sers[PLOT_MAX_OVERLAY];
	size_t nser;
	int cols[PLOT_MAX_OVERLAY][PLOT_MAX_PANELS], n;
	const char *to;
	char title[300];
	/* the devices of one series (h0.avg_rtt, h16.avg_rtt): a default
	 * column is drawn when any device has data in it, not 0
	 * throughout */
	bool devices;
};

/* The columns named (in every series), or the main ones that hold data
 * in every series.
 */
static int overlay_columns(struct session *s, struct overlay *o, int argc,
			   char **argv)
{
	static const char *const defaults[] = {
		"avg_rtt", "cnp_handled", "ecn_marked", "rx_gbps", NULL };
	static const char *const dev_defaults[] = {
		"avg_rtt", "cnp_handled", "cnp_sent", "ecn_marked", "rx_gbps",
		"pauses", "drops", NULL };
	char dym[160];
	bool named;
	size_t k;
	int i, rc = 0;

	for (i = 1; i < argc && !rc; i++) {
		int c;

		rc = plot_opt(s, argc, argv, &i, &o->to, o->title,
			      sizeof(o->title));
		if (rc) {
			rc = rc < 0 ? rc : 0;
			continue;
		}
		if (o->n == PLOT_MAX_PANELS)
			return pcb_error(&s->err, PCB_E_INVAL, "plot: at most "
					 "%d columns in one plot",
					 PLOT_MAX_PANELS);
		for (k = 0; k < o->nser && !rc; k++)
			if ((c = series_col(o->sers[k], argv[i])) <= 0)
				rc = pcb_error(&s->err, PCB_E_INVAL, "plot: "
					       "series %s has no column '%s'%s",
					       o->sers[k]->name, argv[i],
					       series_no_col(o->sers[k],
							     argv[i], dym,
							     sizeof(dym)));
			else
				o->cols[k][o->n] = c;
		o->n++;
	}
	if (rc < 0)
		return rc;
	named = o->n > 0;
	for (i = 0; !named && o->devices && dev_defaults[i]; i++) {
		bool some = false;	/* in any device, not 0 throughout */

		for (k = 0; k < o->nser; k++) {
			int c = series_col(o->sers[k], dev_defaults[i]);
			double lo, hi;

			if (c > 0 &&
			    col_range(o->sers[k], (size_t)c, &lo, &hi) &&
			    (lo != 0 || hi != 0))
				some = true;
		}
		if (some && o->n < PLOT_MAX_PANELS) {
			for (k = 0; k < o->nser; k++)
				o->cols[k][o->n] = series_col(o->sers[k],
							      dev_defaults[i]);
			o->n++;
		}
	}
	for (i = 0; !o->n && !o->devices && defaults[i]; i++) {
		/* in every series */
		for (k = 0; k < o->nser; k++) {
			int c = series_col(o->sers[k], defaults[i]);

			if (c <= 0 || !col_range(o->sers[k], (size_t)c, NULL,
						 NULL))
				break;
			o->cols[k][0] = c;
		}
		if (k < o->nser)
			continue;
		for (k = 0; k < o->nser; k++)
			o->cols[k][o->n] = series_col(o->sers[k], defaults[i]);
		o->n++;
	}
	if (o->nser < 2 || !o->n)
		return pcb_error(&s->err, PCB_E_STATE, o->nser < 2 ?
				 "plot: name two or more series, A,B" :
				 o->devices ? "plot: no column has data" :
				 "plot: no column has data in every series");
	for (k = 0; k < o->nser; k++)
		if (!o->sers[k]->nrows)
			return pcb_error(&s->err, PCB_E_STATE, "plot: series %s "
					 "is empty", o->sers[k]->name);
	return 0;
}

/* The data: a block per series ("t v1 .. vn"), two blank lines between
 * blocks (gnuplot's index).
 */
static int overlay_data(struct session *s, const struct overlay *o,
			const char *dat)
{
	struct pcb_wfile wf;
	size_t k, r;
	int p, rc = pcb_wfile_open(&wf, dat, PCB_MODE_DATA, &s->err);

	for (k = 0; !rc && k < o->nser; k++) {
		for (r = 0; r < o->sers[k]->nrows; r++) {
			double v[PLOT_MAX_PANELS + 1];

			for (p = 0; p < o->n; p++)
				v[p + 1] = series_at(o->sers[k], r,
						     (size_t)o->cols[k][p]);
			put_row(wf.fp, series_at(o->sers[k], r, 0), v,
				(size_t)o->n + 1);
		}
		fputs("\n\n", wf.fp);
	}
	return rc ? rc : pcb_wfile_commit(&wf, &s->err);
}

/* Draw the overlay o (its series loaded) into files named after the
 * series `store`.
 */
static int overlay_draw(struct session *s, struct overlay *o, int argc,
			char **argv, const char *store)
{
	char dat[PCB_PATH_LEN], gp[PCB_PATH_LEN], tmpl[PCB_PATH_LEN];
	char *vars = NULL;
	int datacol[PLOT_MAX_PANELS];
	size_t len;
	int p, rc;
	FILE *fp;

	rc = overlay_columns(s, o, argc, argv);
	if (!rc)
		rc = store_series_path(s, store, "overlay.dat", dat,
				       sizeof(dat));
	if (!rc)
		rc = store_series_path(s, store, "overlay.gp", gp,
				       sizeof(gp));
	if (!rc)
		rc = pcb_data_file(tmpl, sizeof(tmpl), "plots/timeline.gp",
				   &s->err);
	if (!rc)
		rc = overlay_data(s, o, dat);
	fp = rc ? NULL : open_memstream(&vars, &len);
	if (!rc && !fp)
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	if (!rc) {
		for (p = 0; p < o->n; p++)
			datacol[p] = p + 2;
		if (!*o->title)
			snprintf(o->title, sizeof(o->title), "%s", argv[0]);
		plot_str(fp, "datafile", dat);
		plot_str(fp, "plottitle", o->title);
		timeline_vars(fp, o->sers, o->nser, o->cols, datacol, o->n,
			      !o->to);
		if (fclose(fp))
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	if (!rc)
		rc = plot_render(s, o->to, vars, o->n, tmpl, dat, gp);
	free(vars);
	return rc;
}

static int plot_overlay(struct session *s, int argc, char **argv)
{
	struct overlay o = { .nser = 0 };
	char names[512], *w, *save = NULL;
	size_t k;
	int rc = 0;

	snprintf(names, sizeof(names), "%s", argv[0]);
	for (w = strtok_r(names, ",", &save); w && !rc;
	     w = strtok_r(NULL, ",", &save)) {
		if (o.nser == PLOT_MAX_OVERLAY)
			rc = pcb_error(&s->err, PCB_E_RANGE, "plot: at most %d "
				       "series in one plot", PLOT_MAX_OVERLAY);
		else
			rc = cmd_series_load(s, w, &o.sers[o.nser++]);
	}
	if (!rc)
		rc = overlay_draw(s, &o, argc, argv, o.sers[0]->name);
	for (k = 0; k < o.nser; k++)
		series_free(o.sers[k]);
	return rc;
}

/* The devices of a series recorded from several (`record ... devices`)
 * or merged from several hosts: its columns after t are all PREFIX.name,
 * of two or more prefixes; the words name no column of it as it is
 * (avg_rtt, not h0.avg_rtt), nor hist or scatter.  Their prefixes in
 * order, *n of them.
 */
static bool by_device(const struct series *ser, int argc, char **argv,
		      char (*pre)[40], size_t *n)
{
	size_t c, k;
	int i;

	*n = 0;
	for (i = 1; i < argc; i++) {
		const struct cmd_kw *w = cmd_kw_find(plot_keys, argv[i]);

		if ((w && (w->id == PLOT_K_HIST || w->id == PLOT_K_SCATTER)) ||
		    series_col(ser, argv[i]) > 0)
			return false;
	}
	for (c = 1; c < ser->ncols; c++) {
		const char *dot = strchr(ser->cols[c].name, '.');
		size_t len = dot ? (size_t)(dot - ser->cols[c].name) : 0;

		if (!len || len >= sizeof(pre[0]))
			return false;
		for (k = 0; k < *n; k++)
			if (strlen(pre[k]) == len &&
			    !strncmp(pre[k], ser->cols[c].name, len))
				break;
		if (k < *n)
			continue;
		if (*n == PLOT_MAX_OVERLAY)
			return false;
		snprintf(pre[(*n)++], sizeof(pre[0]), "%.*s", (int)len,
			 ser->cols[c].name);
	}
	return *n >= 2;
}

/* One series per device: t and its PREFIX.name columns as name. */
static struct series *device_series(const struct series *ser,
				    const char *pre)
{
	struct series *d = series_new(pre);
	size_t c, r, len = strlen(pre), n = 0;
	size_t map[SERIES_MAX_COLS];
	double row[SERIES_MAX_COLS];

	if (!d)
		return NULL;
	map[n++] = 0;
	series_add_col(d, ser->cols[0].name, ser->cols[0].unit);
	for (c = 1; c < ser->ncols; c++)
		if (!strncmp(ser->cols[c].name, pre, len) &&
		    ser->cols[c].name[len] == '.' &&
		    !series_add_col(d, ser->cols[c].name + len + 1,
				    ser->cols[c].unit))
			map[n++] = c;
	for (r = 0; r < ser->nrows; r++) {
		for (c = 0; c < n; c++)
			row[c] = series_at(ser, r, map[c]);
		if (series_add_row(d, row)) {
			series_free(d);
			return NULL;
		}
	}
	return d;
}

/* plot NAME [COL...]: the devices of one series, a panel per column with
 * a line per device.
 */
static int plot_devices(struct session *s, const struct series *ser,
			char (*pre)[40], size_t n, int argc, char **argv)
{
	struct overlay o = { .devices = true };
	size_t k;
	int rc = 0;

	for (k = 0; k < n && !rc; k++)
		if (!(o.sers[o.nser++] = device_series(ser, pre[k])))
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	if (!rc)
		rc = overlay_draw(s, &o, argc, argv, argv[0]);
	for (k = 0; k < o.nser; k++)
		series_free(o.sers[k]);
	return rc;
}

/* What each retx bin covers, from the series' metadata ("retx_bins_ps",
 * written by record): "0-100µs", ..., ">=1.6ms"; "bin N" when the
 * metadata does not say (a series from an older pccbench).
 */
static void bin_labels(struct session *s, const char *name, int nbins,
		       char (*lab)[32], bool ascii)
{
	struct pcb_err e = { 0 };
	json_object *root = NULL, *arr;
	char path[PCB_PATH_LEN], *text = NULL;
	size_t len;
	int k;

	for (k = 0; k < nbins; k++)
		snprintf(lab[k], sizeof(lab[0]), "bin %d", k);
	if (store_series_path(s, name, "json", path, sizeof(path)) ||
	    pcb_read_file(path, 1 << 20, &text, &len, &e))
		return;
	root = json_tokener_parse(text);
	free(text);
	if (!root || !json_object_object_get_ex(root, "retx_bins_ps", &arr) ||
	    !json_object_is_type(arr, json_type_array) ||
	    json_object_array_length(arr) != (size_t)nbins) {
		json_object_put(root);
		return;
	}
	for (k = 0; k < nbins; k++) {
		json_object *b = json_object_array_get_idx(arr, (size_t)k);
		json_object *lo = json_object_array_get_idx(b, 0);
		json_object *hi = json_object_array_get_idx(b, 1);
		double l, h;
		char a[16], c[16];

		if (!json_object_is_type(b, json_type_array) ||
		    !json_object_is_type(lo, json_type_int))
			continue;
		l = (double)json_object_get_int64(lo) / 1e12;
		h = json_object_is_type(hi, json_type_int) ?
		    (double)json_object_get_int64(hi) / 1e12 : -1;
		plot_eng(a, sizeof(a), l, h > l ? (h - l) / 10 : l / 10,
			 "s", ascii);
		if (h < 0) {
			snprintf(lab[k], sizeof(lab[0]), ">=%s", a);
			continue;
		}
		plot_eng(c, sizeof(c), h, (h - l) / 10, "s", ascii);
		snprintf(lab[k], sizeof(lab[0]), "%s-%s", l ? a : "0", c);
	}
	json_object_put(root);
}

/* The histogram over time on a text terminal: a row per bin (the widest
 * at the top), a column per time bucket, the count shaded from ' ' (none)
 * to '@' (the most in one interval).
 */
static int hist_text(struct session *s, const struct series *ser, int bin0,
		     int nbins, char (*lab)[32], const char *title)
{
	static const char shade[] = " .:-=+*#%@";
	double max = 0, xs, t0 = series_at(ser, 0, 0);
	double t1 = series_at(ser, ser->nrows - 1, 0);
	int w, h, k, c, cols, lw = 0;
	char xname[32], line[512];
	size_t r;

	plot_term_size(&w, &h);
	for (k = 0; k < nbins; k++)
		if ((int)strlen(lab[k]) > lw)
			lw = (int)strlen(lab[k]);
	cols = w - lw - 3;
	if (cols > (int)sizeof(line) - 1)
		cols = (int)sizeof(line) - 1;
	if (cols < 10)
		cols = 10;
	for (r = 0; r < ser->nrows; r++)
		for (k = 0; k < nbins; k++) {
			double v = series_at(ser, r, (size_t)(bin0 + k));

			if (!isnan(v) && v > max)
				max = v;
		}
	xs = plot_time_unit(t0, t1, xname, sizeof(xname), true);
	fprintf(s->out.fp, "%s\n", title);
	for (k = nbins - 1; k >= 0; k--) {
		for (c = 0; c < cols; c++) {	/* the most in the bucket */
			size_t r0 = ser->nrows * (size_t)c / (size_t)cols;
			size_t r1 = ser->nrows * (size_t)(c + 1) / (size_t)cols;
			double m = 0;

			if (r1 <= r0)	/* fewer rows than columns */
				r1 = r0 + 1;
			for (r = r0; r < r1 && r < ser->nrows; r++) {
				double v = series_at(ser, r,
						     (size_t)(bin0 + k));

				if (!isnan(v) && v > m)
					m = v;
			}
			line[c] = max <= 0 || m <= 0 ? shade[0] :
				  shade[1 + (int)(m / max * 8.999)];
		}
		line[cols] = '\0';
		fprintf(s->out.fp, "%*s |%s|\n", lw, lab[k], line);
	}
	fprintf(s->out.fp, "%*s  %-*.6g%*.6g\n", lw, "", cols / 2, t0 * xs,
		cols - cols / 2, t1 * xs);
	fprintf(s->out.fp, "%*s  %s; '%c' none, '%c' the most: %.0f timeouts "
		"in one interval\n", lw, "", xname, shade[0], shade[9], max);
	return 0;
}

/* plot NAME [COL...] [hist] [to FILE.png|FILE.svg] [title TEXT] */
/* plot NAME [COL...|hist|scatter X Y] [to FILE] [title TEXT] */
bool cmd_plot_complete(struct session *s, char **argv, int argc,
		       struct cands *c)
{
	const struct cmd_kw *k;

	if (argc == 0) {
		cand_saved(c, "series", ".csv");
		return true;
	}
	k = cmd_kw_find(plot_keys, argv[argc - 1]);
	if (k && (k->flags & KW_FILE))
		return false;	/* a file */
	if (!k || k->id != PLOT_K_TITLE)
		cand_columns(s, c, argv[0]);
	cand_kw_names(c, plot_keys);
	return true;
}


/* What `plot NAME ...` asks for, parsed and checked against the series. */
struct plot_req {
	const char *name, *to;
	struct series *ser;
	char title[300];
	int cols[PLOT_MAX_PANELS], n;	/* timeline panels */
	bool hist;
	int sx, sy;			/* scatter columns, or -1 */
	double rval, fa, fb;		/* scatter: r and y = a + b x */
	int bin0, nbins;		/* the retx bins' columns */
};

/* The words after NAME: columns, to FILE, title TEXT, hist, scatter X Y. */
static int plot_parse(struct session *s, struct plot_req *q, int argc,
		      char **argv)
{
	struct series *ser = q->ser;
	char dym[160];
	int i, rc = 0;

	for (i = 1; i < argc && !rc; i++) {
		const struct cmd_kw *k;
		int c;

		rc = plot_opt(s, argc, argv, &i, &q->to, q->title,
			      sizeof(q->title));
		if (rc) {
			rc = rc < 0 ? rc : 0;
			continue;
		}
		k = cmd_kw_find(plot_keys, argv[i]);
		if (k && k->id == PLOT_K_HIST) {
			q->hist = true;
		} else if (k && k->id == PLOT_K_SCATTER && i + 2 < argc) {
			int bad;

			q->sx = series_col(ser, argv[i + 1]);
			q->sy = series_col(ser, argv[i + 2]);
			bad = q->sx < 0 ? i + 1 : i + 2;
			if (q->sx < 0 || q->sy < 0)
				rc = pcb_error(&s->err, PCB_E_INVAL, "plot: "
					       "series %s has no column '%s'%s",
					       q->name, argv[bad],
					       series_no_col(ser, argv[bad],
							     dym, sizeof(dym)));
			i += 2;
		} else if ((c = series_col(ser, argv[i])) > 0 &&
			   q->n < PLOT_MAX_PANELS) {
			q->cols[q->n++] = c;
		} else if (c > 0) {
			rc = pcb_error(&s->err, PCB_E_INVAL, "plot: at most %d "
				       "columns in one plot", PLOT_MAX_PANELS);
		} else {
			rc = pcb_error(&s->err, PCB_E_INVAL, "plot: series %s "
				       "has no column '%s'%s", q->name, argv[i],
				       c == 0 ? " (t is the x axis)" :
				       series_no_col(ser, argv[i], dym,
						     sizeof(dym)));
		}
	}
	return rc;
}

/* The scatter's r and fitted line; an error when there is none. */
static int plot_fit(struct session *s, struct plot_req *q)
{
	struct series *ser = q->ser;
	double *x = series_column(ser, (size_t)q->sx);
	double *y = series_column(ser, (size_t)q->sy);
	size_t np;

	q->rval = x && y ? series_pearson(x, y, ser->nrows, &np) : NAN;
	if (!isnan(q->rval) && series_linfit(x, y, ser->nrows, &q->fa,
					     &q->fb))
		q->rval = NAN;
	free(x);
	free(y);
	q->n = 1;
	if (isnan(q->rval))
		return pcb_error(&s->err, PCB_E_STATE, "plot: %s against %s has "
				 "no line to fit (fewer than 3 points or no "
				 "variance)", ser->cols[q->sy].name,
				 ser->cols[q->sx].name);
	return 0;
}

/* What there is to plot: the bins for hist, the fit for scatter, and
 * the panels — those named, or the main columns that hold data.
 */
static int plot_check(struct session *s, struct plot_req *q)
{
	static const char *const defaults[] = {
		"avg_rtt", "cnp_handled", "ecn_marked", "rx_gbps", "pauses",
		"drops", NULL };
	struct series *ser = q->ser;
	bool pick;
	int i, k;

	q->bin0 = series_col(ser, "retx_bin_0");
	for (k = q->bin0; k >= 0 && (size_t)k < ser->ncols &&
	     !strncmp(ser->cols[k].name, "retx_bin_", 9); k++)
		q->nbins++;
	if (q->hist && q->nbins > RETX_MAX_BINS)
		return pcb_error(&s->err, PCB_E_CORRUPT, "plot: series %s has "
				 "%d retx bins (at most %d)", q->name,
				 q->nbins, RETX_MAX_BINS);
	if (q->hist && q->bin0 < 0)
		return pcb_error(&s->err, PCB_E_STATE, "plot: series %s has no "
				 "retx bins (start the histogram before "
				 "'record')", q->name);
	if (!ser->nrows)
		return pcb_error(&s->err, PCB_E_STATE, "plot: series %s is "
				 "empty", q->name);
	if (q->sx >= 0)
		return plot_fit(s, q);
	/* a column named that holds nothing would be a blank panel */
	for (k = 0; k < q->n; k++)
		if (!col_range(ser, (size_t)q->cols[k], NULL, NULL))
			return pcb_error(&s->err, PCB_E_STATE, "plot: series "
					 "%s has no data in %s", q->name,
					 ser->cols[q->cols[k]].name);
	/* no columns named: the main ones that hold data; one that is 0
	 * throughout (pauses with PFC off) says nothing: left out */
	pick = !q->hist && !q->n;
	for (i = 0; pick && defaults[i]; i++) {
		int c;

		/* in a merged series each host's (h0.avg_rtt, h16.avg_rtt) */
		for (c = 1; (size_t)c < ser->ncols; c++) {
			double lo, hi;

			if (!series_col_is(ser->cols[c].name, defaults[i]) ||
			    !col_range(ser, (size_t)c, &lo, &hi))
				continue;
			if (lo == 0 && hi == 0) {
				fprintf(s->opt.errfp,
					"note: %s is 0 throughout; "
					"left out (name it to plot it)\n",
					ser->cols[c].name);
				continue;
			}
			if (q->n < PLOT_MAX_PANELS)
				q->cols[q->n++] = c;
		}
	}
	if (!q->hist && !q->n)
		return pcb_error(&s->err, PCB_E_STATE, "plot: series %s has no "
				 "data to plot", q->name);
	return 0;
}

/* The template's variables (plot_render adds the terminal). */
static void plot_vars(FILE *fp, struct plot_req *q, const char *dat,
		      char binlab[][32])
{
	struct series *ser = q->ser;
	int k;

	plot_str(fp, "datafile", dat);
	plot_str(fp, "plottitle", q->title);
	if (q->sx >= 0) {
		const struct series_col *axis[2] = { &ser->cols[q->sx],
						     &ser->cols[q->sy] };
		char lab[100];

		fprintf(fp, "xcol = %d\nycol = %d\nrtext = '%.4f'\n"
			"a = %.17g\nb = %.17g\n", q->sx + 1, q->sy + 1,
			q->rval, q->fa, q->fb);
		for (k = 0; k < 2; k++) {	/* "name (unit)" */
			char u[48];

			plot_unit_text(axis[k]->unit, u, sizeof(u));
			snprintf(lab, sizeof(lab), "%s%s%s%s", axis[k]->name,
				 *u ? " (" : "", u, *u ? ")" : "");
			plot_str(fp, k ? "yname" : "xname", lab);
		}
	} else if (q->hist) {
		double t0 = series_at(ser, 0, 0);
		double t1 = series_at(ser, ser->nrows - 1, 0);
		char xname[32];
		double xs = plot_time_unit(t0, t1, xname, sizeof(xname), false);

		fprintf(fp, "xscale = %.17g\nxlo = %.17g\nxhi = %.17g\n"
			"nbins = %d\narray binlab[%d]\n", xs, t0 * xs, t1 > t0 ?
			t1 * xs : t0 * xs + 1, q->nbins, q->nbins);
		plot_str(fp, "xname", xname);
		for (k = 0; k < q->nbins; k++)
			plot_str_at(fp, "binlab", (size_t)k + 1, binlab[k]);
	} else {
		int one[1][PLOT_MAX_PANELS], datacol[PLOT_MAX_PANELS];

		for (k = 0; k < q->n; k++) {
			one[0][k] = q->cols[k];
			datacol[k] = q->cols[k] + 1;
		}
		timeline_vars(fp, &q->ser, 1, one, datacol, q->n, !q->to);
	}
}

int cmd_plot(struct session *s, int argc, char **argv)
{
	struct plot_req q = { .name = argv[0], .sx = -1, .sy = -1,
			      .rval = NAN };
	char dat[PCB_PATH_LEN], gp[PCB_PATH_LEN], tmpl[PCB_PATH_LEN], *script = NULL;
	char binlab[RETX_MAX_BINS][32];
	int w, h, rc;
	size_t len;
	FILE *fp = NULL;

	char pre[PLOT_MAX_OVERLAY][40];
	size_t npre;

	if (strchr(argv[0], ','))
		return plot_overlay(s, argc, argv);
	rc = cmd_series_load(s, argv[0], &q.ser);
	if (rc)
		return rc;
	if (by_device(q.ser, argc, argv, pre, &npre)) {
		rc = plot_devices(s, q.ser, pre, npre, argc, argv);
		series_free(q.ser);
		return rc;
	}
	rc = plot_parse(s, &q, argc, argv);
	if (!rc)
		rc = plot_check(s, &q);
	if (!rc)
		rc = store_series_path(s, argv[0], q.hist ? "hist.dat" :
				       q.sx >= 0 ? "scatter.dat" : "plot.dat",
				       dat, sizeof(dat));
	if (!rc)
		rc = store_series_path(s, argv[0], q.hist ? "hist.gp" :
				       q.sx >= 0 ? "scatter.gp" : "plot.gp",
				       gp, sizeof(gp));
	if (!rc)
		rc = pcb_data_file(tmpl, sizeof(tmpl), q.hist ? "plots/hist.gp" :
				   q.sx >= 0 ? "plots/scatter.gp" :
				   "plots/timeline.gp", &s->err);
	plot_term_size(&w, &h);
	if (!rc)	/* a bucket per pixel (text) column */
		rc = write_plot_data(s, q.ser, dat, q.hist, q.bin0, q.nbins,
				     q.sx >= 0 ? SIZE_MAX / 4 :
				     q.to ? 1200 : (size_t)w);
	if (rc)
		goto out;
	if (!*q.title)
		snprintf(q.title, sizeof(q.title), "%s%s", q.ser->name,
			 q.hist ? ": retransmission timeouts" : "");
	if (q.hist) {
		bin_labels(s, argv[0], q.nbins, binlab, !q.to);
		if (!q.to) {	/* gnuplot's dumb heatmap shows nothing */
			rc = hist_text(s, q.ser, q.bin0, q.nbins, binlab,
				       q.title);
			goto out;
		}
	}
	fp = open_memstream(&script, &len);
	if (!fp) {
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		goto out;
	}
	plot_vars(fp, &q, dat, binlab);
	rc = ferror(fp);
	if (fclose(fp) || rc) {
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		goto out;
	}
	/* one panel of 600 px, or n of 220 */
	rc = plot_render(s, q.to, script, q.hist || q.sx >= 0 ? 0 : q.n, tmpl,
			 dat, gp);
out:
	series_free(q.ser);
	free(script);
	return rc;
}

