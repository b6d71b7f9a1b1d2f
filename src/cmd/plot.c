/* plot.c - `plot`: a series through gnuplot, run with fork/exec (never a
 * shell), the script on stdin and saved beside the data so it renders
 * anywhere; templates in plots/.  plot_render is shared with `sweep`.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd.h"
#include "paths.h"
#include "rec/series.h"
#include "run.h"

/* ---- plot --------------------------------------------------------------- */

/* A gnuplot single-quoted string: '' stands for a quote. */
void plot_quote(char *b, size_t len, const char *s)
{
	size_t o = 0;

	if (len < 3)
		return;
	b[o++] = '\'';
	for (; *s && o + 3 < len; s++) {
		if (*s == '\'')
			b[o++] = '\'';
		b[o++] = *s == '\n' ? ' ' : *s;
	}
	b[o++] = '\'';
	b[o] = 0;
}

static void term_size(int *w, int *h)
{
	const char *c = getenv("COLUMNS"), *l = getenv("LINES");
	struct winsize ws;

	*w = 100;
	*h = 40;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 20 &&
	    ws.ws_row > 10) {
		*w = ws.ws_col;
		*h = ws.ws_row - 2;
	} else if (c && l && atoi(c) > 20 && atoi(l) > 10) {
		*w = atoi(c);
		*h = atoi(l) - 2;
	}
}

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
	FILE *fp = fopen(path, "w");
	double lo[SERIES_MAX_COLS], hi[SERIES_MAX_COLS];
	size_t r, c, b;
	int k, bad;

	if (!fp)
		return pcb_error(&s->err, PCB_E_IO, "cannot write '%s': %s",
				 path, strerror(errno));
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
	bad = ferror(fp);
	if (fclose(fp) || bad)
		return pcb_error(&s->err, PCB_E_IO, "cannot write '%s'", path);
	return 0;
}

/* plot NAME [COL...] [hist] [to FILE.png|FILE.svg] [title TEXT] */
int cmd_plot(struct session *s, int argc, char **argv)
{
	static const char *const defaults[] = {
		"avg_rtt", "cnp_handled", "ecn_marked", "rx_gbps", "pauses",
		"drops", NULL };
	char dat[4200], gp[4200], tmpl[4096], q[4300], title[300] = "";
	char cols[256] = "", names[1024] = "", units[256] = "", *script = NULL;
	const char *to = NULL;
	struct series *ser;
	bool hist = false, svg = false;
	int sx = -1, sy = -1;
	double rval = NAN, fa = 0, fb = 0;
	int i, k, n = 0, bin0 = -1, nbins = 0, w, h, rc;
	size_t len, r;
	FILE *fp;

	rc = cmd_series_load(s, argv[0], &ser);
	if (rc)
		return rc;
	for (i = 1; i < argc && !rc; i++) {
		int c;

		if (!strcmp(argv[i], "to") && i + 1 < argc) {
			to = argv[++i];
			len = strlen(to);
			svg = len > 4 && !strcmp(to + len - 4, ".svg");
			if (!svg && !(len > 4 && !strcmp(to + len - 4, ".png")))
				rc = pcb_error(&s->err, PCB_E_INVAL, "plot: "
					       "'%s' is neither .png nor .svg",
					       to);
		} else if (!strcmp(argv[i], "title") && i + 1 < argc) {
			snprintf(title, sizeof(title), "%s", argv[++i]);
		} else if (!strcmp(argv[i], "hist")) {
			hist = true;
		} else if (!strcmp(argv[i], "scatter") && i + 2 < argc) {
			sx = series_col(ser, argv[i + 1]);
			sy = series_col(ser, argv[i + 2]);
			if (sx < 0 || sy < 0)
				rc = pcb_error(&s->err, PCB_E_INVAL, "plot: "
					       "series %s has no column '%s'",
					       argv[0], argv[sx < 0 ? i + 1 :
							     i + 2]);
			i += 2;
		} else if ((c = series_col(ser, argv[i])) > 0 && n < 12) {
			size_t o = strlen(cols);

			snprintf(cols + o, sizeof(cols) - o, "%s%d", n ? " " : "",
				 c + 1);
			o = strlen(names);
			snprintf(names + o, sizeof(names) - o, "%s%s",
				 n ? " " : "", ser->cols[c].name);
			o = strlen(units);
			snprintf(units + o, sizeof(units) - o, "%s%s",
				 n ? " " : "", *ser->cols[c].unit ?
				 ser->cols[c].unit : "-");
			n++;
		} else {
			rc = pcb_error(&s->err, PCB_E_INVAL, "plot: series %s "
				       "has no column '%s'%s", argv[0], argv[i],
				       c == 0 ? " (t is the x axis)" : "");
		}
	}
	bin0 = series_col(ser, "retx_bin_0");
	for (k = bin0; k >= 0 && (size_t)k < ser->ncols &&
	     !strncmp(ser->cols[k].name, "retx_bin_", 9); k++)
		nbins++;
	if (!rc && hist && bin0 < 0)
		rc = pcb_error(&s->err, PCB_E_STATE, "plot: series %s has no "
			       "retx bins (start the histogram before "
			       "'record')", argv[0]);
	if (!rc && !ser->nrows)
		rc = pcb_error(&s->err, PCB_E_STATE, "plot: series %s is "
			       "empty", argv[0]);
	if (!rc && sx >= 0) {
		double *x = cmd_series_column(ser, (size_t)sx), *y = cmd_series_column(ser,
								 (size_t)sy);
		size_t np;

		rval = x && y ? series_pearson(x, y, ser->nrows, &np) : NAN;
		if (!isnan(rval) && series_linfit(x, y, ser->nrows, &fa, &fb))
			rval = NAN;
		free(x);
		free(y);
		if (isnan(rval))
			rc = pcb_error(&s->err, PCB_E_STATE, "plot: %s against "
				       "%s has no line to fit (fewer than 3 "
				       "points or no variance)",
				       ser->cols[sy].name, ser->cols[sx].name);
		n = 1;
	}
	/* no columns named: the main ones that hold data */
	k = !rc && !hist && !n;
	for (i = 0; k && defaults[i]; i++) {
		int c = series_col(ser, defaults[i]);
		bool any = false;

		for (r = 0; c > 0 && r < ser->nrows; r++)
			any |= !isnan(series_at(ser, r, (size_t)c));
		if (!any)
			continue;
		snprintf(cols + strlen(cols), sizeof(cols) - strlen(cols),
			 "%s%d", n ? " " : "", c + 1);
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 "%s%s", n ? " " : "", defaults[i]);
		snprintf(units + strlen(units), sizeof(units) - strlen(units),
			 "%s%s", n ? " " : "", *ser->cols[c].unit ?
			 ser->cols[c].unit : "-");
		n++;
	}
	if (!rc && !hist && !n)
		rc = pcb_error(&s->err, PCB_E_STATE, "plot: series %s has no "
			       "data to plot", argv[0]);
	if (!rc)
		rc = cmd_series_path(s, argv[0], hist ? "hist.dat" : sx >= 0 ?
				 "scatter.dat" : "plot.dat", dat, sizeof(dat));
	if (!rc)
		rc = cmd_series_path(s, argv[0], hist ? "hist.gp" : sx >= 0 ?
				 "scatter.gp" : "plot.gp", gp, sizeof(gp));
	if (!rc)
		rc = pcb_data_file(tmpl, sizeof(tmpl), hist ? "plots/hist.gp" :
				   sx >= 0 ? "plots/scatter.gp" :
				   "plots/timeline.gp", &s->err);
	term_size(&w, &h);
	if (!rc)	/* a bucket per pixel (text) column */
		rc = write_plot_data(s, ser, dat, hist, bin0, nbins,
				     sx >= 0 ? SIZE_MAX / 4 :
				     to ? 1200 : (size_t)w);
	if (rc) {
		series_free(ser);
		return rc;
	}
	if (!*title)
		snprintf(title, sizeof(title), "%s%s", ser->name,
			 hist ? ": retransmission timeouts" : "");
	if (sx >= 0 && !title[0])
		snprintf(title, sizeof(title), "%s", ser->name);
	/* the template's variables; plot_render adds the terminal */
	fp = open_memstream(&script, &len);
	if (!fp) {
		series_free(ser);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	plot_quote(q, sizeof(q), dat);
	fprintf(fp, "datafile = %s\n", q);
	plot_quote(q, sizeof(q), title);
	fprintf(fp, "plottitle = %s\n", q);
	if (sx >= 0) {
		const struct series_col *axis[2] = { &ser->cols[sx],
						     &ser->cols[sy] };
		char lab[100];

		fprintf(fp, "xcol = %d\nycol = %d\nrtext = '%.4f'\n"
			"a = %.17g\nb = %.17g\n", sx + 1, sy + 1, rval, fa,
			fb);
		for (k = 0; k < 2; k++) {	/* "name (unit)" */
			snprintf(lab, sizeof(lab), "%s%s%s%s", axis[k]->name,
				 *axis[k]->unit ? " (" : "", axis[k]->unit,
				 *axis[k]->unit ? ")" : "");
			plot_quote(q, sizeof(q), lab);
			fprintf(fp, "%cname = %s\n", k ? 'y' : 'x', q);
		}
	} else if (!hist) {
		fprintf(fp, "cols = '%s'\nnames = '%s'\nunits = '%s'\n", cols,
			names, units);
	}
	series_free(ser);
	rc = ferror(fp);
	if (fclose(fp) || rc) {
		free(script);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	/* one panel of 600 px, or n of 220 */
	rc = plot_render(s, to, script, hist || sx >= 0 ? 0 : n, tmpl, dat, gp);
	free(script);
	return rc;
}

int plot_render(struct session *s, const char *to, const char *vars,
		int panels, const char *tmpl, const char *dat, const char *gp)
{
	char q[4300], *script = NULL, *gargv[2];
	const char *prog = getenv("PCCBENCH_GNUPLOT");
	struct run_result res;
	size_t len, tl = to ? strlen(to) : 0;
	bool svg = tl > 4 && !strcmp(to + tl - 4, ".svg");
	int w, h, rc;
	FILE *fp;

	term_size(&w, &h);
	/* the script: built in memory, saved beside the data so it renders
	 * anywhere, and fed to gnuplot on stdin */
	fp = open_memstream(&script, &len);
	if (!fp)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	if (!to)
		fprintf(fp, "set terminal dumb size %d,%d\n", w,
			!panels ? h : (h > 12 * panels ? 12 * panels : h));
	else if (svg)
		fprintf(fp, "set terminal svg size 1200,%d dynamic\n",
			!panels ? 600 : 150 + 220 * panels);
	else
		fprintf(fp, "set terminal pngcairo size 1200,%d\n",
			!panels ? 600 : 150 + 220 * panels);
	fputs("set termoption noenhanced\n", fp);	/* avg_rtt, not avg subscript rtt */
	if (to) {
		plot_quote(q, sizeof(q), to);
		fprintf(fp, "set output %s\n", q);
	}
	fputs(vars, fp);
	plot_quote(q, sizeof(q), tmpl);
	fprintf(fp, "load %s\n", q);
	if (to)
		fputs("set output\n", fp);
	rc = ferror(fp);
	if (fclose(fp) || rc) {
		free(script);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	fp = fopen(gp, "w");
	rc = !fp || fwrite(script, 1, len, fp) != len;
	if ((fp && fclose(fp)) || rc) {
		free(script);
		return pcb_error(&s->err, PCB_E_IO, "cannot write '%s'", gp);
	}
	gargv[0] = (char *)(prog && *prog ? prog : "gnuplot");
	gargv[1] = NULL;
	rc = run_prog(gargv, script, 30000, s->stop, &res, &s->err);
	free(script);
	if (rc) {
		char msg[sizeof(s->err.msg)];

		snprintf(msg, sizeof(msg), "%s", s->err.msg);
		pcb_err_reset(&s->err);
		return pcb_error(&s->err, -rc, "plot: %s; data in %s, script in "
				 "%s ('gnuplot %s' renders it)", msg, dat, gp,
				 gp);
	}
	if (res.status) {
		char *c;

		for (c = res.err; *c; c++)	/* one line */
			if (isspace((unsigned char)*c))
				*c = ' ';
		rc = pcb_error(&s->err, PCB_E_DEVICE, "plot: gnuplot failed "
			       "(exit %d): %.200s; script in %s", res.status,
			       res.err, gp);
		run_result_free(&res);
		return rc;
	}
	if (!to)
		fputs(res.out, s->out.fp);
	else if (s->out.json) {
		out_obj_begin(&s->out, NULL);
		out_str(&s->out, "file", to);
		out_str(&s->out, "script", gp);
		out_str(&s->out, "data", dat);
		out_obj_end(&s->out);
	} else {
		fprintf(s->out.fp, "plot written to %s (script %s)\n", to, gp);
	}
	run_result_free(&res);
	return 0;
}
