/* series.c - `series` and `corr`: the recorded timelines under
 * $XDG_DATA_HOME/pccbench/series/ (list, show, export, drop) and the
 * correlations between their columns.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "fsafe.h"
#include "suggest.h"
#include "units.h"
#include "rec/merge.h"
#include "rec/series.h"

int cmd_series_load(struct session *s, const char *name,
		    struct series **out)
{
	char path[PCB_PATH_LEN];
	int rc = store_series_path(s, name, "csv", path, sizeof(path));

	if (rc)
		return rc;
	if (access(path, F_OK)) {
		char **names = store_names("series", ".csv"), dym[160];
		struct suggest sg;
		size_t i;

		suggest_init(&sg, name);
		for (i = 0; names && names[i]; i++)
			suggest_add(&sg, names[i]);
		rc = pcb_error(&s->err, PCB_E_NOENT, "no series '%s'%s", name,
			       sg.n ? suggest_text(&sg, dym, sizeof(dym)) :
			       " ('series list')");
		words_free(names);
		return rc;
	}
	return series_read_csv(out, name, path, &s->err);
}

static int cmd_series_list(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "name", "NAME", 0 }, { "points", "POINTS", TBL_RIGHT },
		{ "columns", "COLUMNS", TBL_RIGHT }, { "span_s", "SPAN_S",
						       TBL_RIGHT },
	};
	char **names = store_names("series", ".csv");
	struct tbl t;
	size_t i;

	(void)argc;
	(void)argv;
	if (!names)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; names[i]; i++) {
		struct series *ser = NULL;
		struct pcb_err keep = s->err;

		if (!cmd_series_load(s, names[i], &ser)) {
			tbl_row(&t);
			tbl_str(&t, names[i]);
			tbl_u64(&t, ser->nrows);
			tbl_u64(&t, ser->ncols);
			tbl_real(&t, ser->nrows ? series_at(ser, ser->nrows - 1,
							    0) -
				 series_at(ser, 0, 0) : 0.0);
			series_free(ser);
		}
		s->err = keep;	/* a foreign file is skipped */
	}
	words_free(names);
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	return 0;
}

/* ns since the epoch as UTC to the ns: 2026-11-27T20:20:42.153902837Z */
static const char *wall_text(int64_t ns, char *buf, size_t len)
{
	time_t sec = (time_t)(ns / 1000000000);
	int64_t frac = ns % 1000000000;
	struct tm tm;
	char d[32];

	if (frac < 0) {
		frac += 1000000000;
		sec--;
	}
	if (!gmtime_r(&sec, &tm)) {	/* no calendar's year */
		snprintf(buf, len, "%" PRId64 " ns", ns);
		return buf;
	}
	strftime(d, sizeof(d), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%09" PRId64 "Z", d, frac);
	return buf;
}

static int cmd_series_show(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "column", "COLUMN", 0 }, { "unit", "UNIT", 0 },
		{ "points", "POINTS", TBL_RIGHT },
		{ "missing", "MISSING", TBL_RIGHT },
		{ "min", "MIN", TBL_RIGHT }, { "mean", "MEAN", TBL_RIGHT },
		{ "max", "MAX", TBL_RIGHT },
	};
	struct series *ser;
	struct tbl t;
	size_t c, r;
	int rc = cmd_series_load(s, argv[0], &ser);

	(void)argc;
	if (rc)
		return rc;
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (c = 0; c < ser->ncols; c++) {
		double lo = NAN, hi = NAN, sum = 0;
		size_t n = 0;

		for (r = 0; r < ser->nrows; r++) {
			double v = series_at(ser, r, c);

			if (isnan(v))
				continue;
			lo = n && lo < v ? lo : v;
			hi = n && hi > v ? hi : v;
			sum += v;
			n++;
		}
		tbl_row(&t);
		tbl_str(&t, ser->cols[c].name);
		tbl_str(&t, ser->cols[c].unit);
		tbl_u64(&t, n);
		tbl_u64(&t, ser->nrows - n);
		tbl_real(&t, lo);
		tbl_real(&t, n ? sum / (double)n : NAN);
		tbl_real(&t, hi);
	}
	out_text(&s->out, "series %s: %zu points\n", ser->name, ser->nrows);
	if (ser->wall && ser->nrows) {	/* read on the wall clock */
		char a[48], b[48];

		out_text(&s->out, "wall clock %s to %s\n",
			 wall_text(ser->wall[0], a, sizeof(a)),
			 wall_text(ser->wall[ser->nrows - 1], b, sizeof(b)));
	}
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	series_free(ser);
	return 0;
}

static int cmd_series_export(struct session *s, int argc, char **argv)
{
	struct series *ser;
	int rc = cmd_series_load(s, argv[0], &ser);

	(void)argc;
	if (rc)
		return rc;
	rc = series_write_csv(ser, argv[1], &s->err);
	if (!rc)
		out_text(&s->out, "%zu points written to %s\n", ser->nrows,
			 argv[1]);
	series_free(ser);
	return rc;
}

static int cmd_series_drop(struct session *s, int argc, char **argv)
{
	static const char *const exts[] = { "json", "plot.dat", "plot.gp",
					    "hist.dat", "hist.gp",
					    "scatter.dat", "scatter.gp" };
	char path[PCB_PATH_LEN];
	size_t i;
	int rc = store_series_path(s, argv[0], "csv", path, sizeof(path));

	(void)argc;
	if (rc)
		return rc;
	if (unlink(path))
		return pcb_error(&s->err, PCB_E_NOENT, "no series '%s'",
				 argv[0]);
	/* its metadata and plot files go with it */
	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		store_series_path(s, argv[0], exts[i], path, sizeof(path));
		unlink(path);
	}
	out_text(&s->out, "series %s dropped\n", argv[0]);
	return 0;
}

/* The merged series' metadata: where its rows came from and what clock
 * offset was assumed.
 */
static int merge_meta(struct session *s, const struct series *m,
		      struct series *const *in, size_t n,
		      const struct series_merge *mi)
{
	char path[PCB_PATH_LEN], ts[40];
	time_t start = (time_t)(m->wall[0] / 1000000000);
	struct pcb_wfile w;
	struct tm tm;
	size_t k;
	int rc = store_series_path(s, m->name, "json", path, sizeof(path));

	if (!rc)
		rc = pcb_wfile_open(&w, path, PCB_MODE_DATA, &s->err);
	if (rc)
		return rc;
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&start, &tm));
	fputs("{\"series\":", w.fp);
	out_json_string(w.fp, m->name);
	fprintf(w.fp, ",\"pccbench\":\"%s\",\"start\":\"%s\",\"start_ns\":%"
		PRId64 ",\"interval_s\":%.9g,\"points\":%zu,\"offset_ns\":%"
		PRId64 ",\"tolerance_ns\":%" PRId64 ",\"merged\":[",
		PCCB_VERSION, ts, m->wall[0], (double)mi->interval_ns / 1e9,
		m->nrows, mi->offset_ns, mi->tolerance_ns);
	for (k = 0; k < n; k++) {
		fputs(k ? ",{\"series\":" : "{\"series\":", w.fp);
		out_json_string(w.fp, in[k]->name);
		fprintf(w.fp, ",\"rows\":%zu,\"aligned\":%zu}", in[k]->nrows,
			mi->aligned[k]);
	}
	fputs("]}\n", w.fp);
	return pcb_wfile_commit(&w, &s->err);
}

/* ns as ps for pcb_format_duration, saturated: a file's wall times may
 * be anything (an interval of centuries would overflow the ps)
 */
static int64_t ns_ps(int64_t ns)
{
	if (ns > INT64_MAX / 1000)
		return INT64_MAX;
	if (ns < INT64_MIN / 1000)
		return INT64_MIN;
	return ns * 1000;
}

/* series merge NAME A B [C...]: series recorded on several hosts at the
 * same time, on A's wall-clock grid (rec/merge.h says how rows align).
 */
static int cmd_series_merge(struct session *s, int argc, char **argv)
{
	struct series *in[SERIES_MERGE_MAX] = { NULL }, *m = NULL;
	struct series_merge mi;
	struct out *o = &s->out;
	char path[PCB_PATH_LEN], a[32];
	struct stat st;
	size_t n = (size_t)argc - 1, k;
	int rc = store_series_path(s, argv[0], "csv", path, sizeof(path));

	if (rc)
		return rc;
	if (!lstat(path, &st))
		return pcb_error(&s->err, PCB_E_STATE, "series merge: series "
				 "%s exists ('series drop %s' first)", argv[0],
				 argv[0]);
	for (k = 0; k < n && !rc; k++)
		rc = cmd_series_load(s, argv[k + 1], &in[k]);
	if (!rc)
		rc = series_merge(&m, argv[0], in, n, &mi, &s->err);
	if (!rc)
		rc = series_write_csv(m, path, &s->err);
	if (!rc && merge_meta(s, m, in, n, &mi)) {
		unlink(path);	/* all or nothing */
		rc = -s->err.code;
	}
	if (rc)
		goto out_free;
	out_obj_begin(o, NULL);
	out_field_str(o, "series", "series %s: ", m->name);
	out_field_u64(o, "points", "%llu points x ", m->nrows);
	out_field_u64(o, "columns", "%llu columns on ", m->ncols);
	out_field_str(o, "grid", "%s's wall-clock grid ", in[0]->name);
	out_text(o, "(every %s on average; a row lands within half the "
		 "interval on its side)\n",
		 pcb_format_duration(ns_ps(mi.interval_ns), a, sizeof(a)));
	out_i64(o, "interval_ns", mi.interval_ns);
	out_i64(o, "tolerance_ns", mi.tolerance_ns);
	out_arr_begin(o, "sources");
	for (k = 0; k < n; k++) {
		out_obj_begin(o, NULL);
		out_field_str(o, "series", "  %s: ", in[k]->name);
		out_field_u64(o, "aligned", "%llu of ", mi.aligned[k]);
		out_field_u64(o, "rows", "%llu rows aligned\n", in[k]->nrows);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_field_u64(o, "offset_ns", "clock offset assumed: %llu ns (the "
		      "hosts' clocks taken as synchronised: NTP keeps them "
		      "within ~1 ms, PTP within ~1 us; ", (uint64_t)mi.offset_ns);
	out_text(o, "an error near %s, half an interval, puts rows beside "
		 "their neighbours')\n",
		 pcb_format_duration(ns_ps(mi.tolerance_ns), a, sizeof(a)));
	out_field_str(o, "file", "-> %s\n", path);
	out_obj_end(o);
out_free:
	for (k = 0; k < n; k++)
		series_free(in[k]);
	series_free(m);
	return rc;
}

/* A lag is searched only while it keeps CORR_MIN_PAIRS complete pairs
 * and half of those at lag 0: an r over a few pairs at the series' end
 * is noise that a maximum over many lags picks.
 */
#define CORR_MIN_PAIRS 20

/* The interval of a recorded series (its t column), or NAN. */
static double series_interval(const struct series *ser)
{
	int t = series_col(ser, "t");

	if (t < 0 || ser->nrows < 2)
		return NAN;
	return (series_at(ser, ser->nrows - 1, (size_t)t) -
		series_at(ser, 0, (size_t)t)) / (double)(ser->nrows - 1);
}

/* r with the pairs behind it and its 95 % interval. */
static void corr_r(struct out *o, const char *key, const char *what,
		   double r, size_t n, double k)
{
	char kn[40], klo[40];
	double lo, hi;

	series_fisher_ci(r, n, k, &lo, &hi);
	snprintf(kn, sizeof(kn), "%s_pairs", key);
	snprintf(klo, sizeof(klo), "%s_ci95", key);
	out_text(o, "%s ", what);
	out_field_real(o, key, "%.4f ", r);
	out_field_u64(o, kn, "(%llu pairs", n);
	if (isnan(lo)) {
		out_null(o, klo);
		out_text(o, ")");
		return;
	}
	out_text(o, ", 95 %% CI %.2f..%.2f)", lo, hi);
	out_arr_begin(o, klo);
	out_real(o, NULL, lo);
	out_real(o, NULL, hi);
	out_arr_end(o);
}

static int corr_pair(struct session *s, const struct series *ser, int a,
		     int b, int maxlag)
{
	double *x = series_column(ser, (size_t)a), *y = series_column(ser, (size_t)b);
	const char *xn = ser->cols[a].name, *yn = ser->cols[b].name;
	struct out *o = &s->out;
	double pr, sr, lr = NAN, dt = series_interval(ser);
	size_t n, n2, nl = 0, need;
	int lag = 0;

	if (!x || !y) {
		free(x);
		free(y);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	pr = series_pearson(x, y, ser->nrows, &n);
	sr = series_spearman(x, y, ser->nrows, &n2);
	if (isnan(pr)) {	/* say why, not "pearson nan" */
		free(x);
		free(y);
		return pcb_error(&s->err, PCB_E_STATE, "corr: %s ~ %s: %s",
				 xn, yn, n < 3 ?
				 (n ? "fewer than 3 intervals have both" :
				  "no interval has both (one of them is empty "
				  "throughout?)") :
				 "one of them does not vary");
	}
	need = n / 2 > CORR_MIN_PAIRS ? n / 2 : CORR_MIN_PAIRS;
	if (maxlag)
		lag = series_best_lag(x, y, ser->nrows, maxlag, need, &lr,
				      &nl);
	out_obj_begin(o, NULL);
	out_field_str(o, "x", "%s ~ ", xn);
	out_field_str(o, "y", "%s over ", yn);
	out_field_u64(o, "points", "%llu points: ", ser->nrows);
	corr_r(o, "pearson", "pearson", pr, n, 1);
	out_text(o, ", ");
	corr_r(o, "spearman", "spearman", sr, n2, 1.06);
	if (maxlag && isnan(lr)) {
		out_null(o, "best_lag");
		out_field_u64(o, "lag_min_pairs", "; no lag: each needs %llu "
			      "pairs", need);
	} else if (maxlag) {
		out_field_int(o, "best_lag", "; best lag %d intervals", lag);
		out_field_u64(o, "lag_min_pairs", " of those keeping %llu "
			      "pairs or more: ", need);
		corr_r(o, "r_at_lag", "r", lr, nl, 1);
		/* lag > 0: y[t + lag] follows x[t] */
		out_str(o, "leads", lag > 0 ? xn : lag < 0 ? yn : "");
		out_str(o, "follows", lag > 0 ? yn : lag < 0 ? xn : "");
		out_real(o, "lead_s", isnan(dt) ? NAN : fabs(lag * dt));
		if (!lag)
			out_text(o, "; neither leads");
		else if (isnan(dt))
			out_text(o, "; %s leads %s by %d intervals",
				 lag > 0 ? xn : yn, lag > 0 ? yn : xn,
				 abs(lag));
		else
			out_text(o, "; %s leads %s by %d intervals (%.3g ms)",
				 lag > 0 ? xn : yn, lag > 0 ? yn : xn,
				 abs(lag), fabs(lag * dt) * 1e3);
	}
	out_nl(o);
	out_obj_end(o);
	free(x);
	free(y);
	return 0;
}

/* lag MAX: 0..10000 intervals (req: an int) */
static int corr_lag(struct session *s, void *req, const struct cmd_kw *k,
		    const char *val)
{
	char *end;
	long l = strtol(val, &end, 10);

	if (!k || *end || l < 0 || l > 10000)
		return pcb_error(&s->err, PCB_E_USAGE, "usage: corr NAME X Y "
				 "[lag MAX] (MAX 0..10000)");
	*(int *)req = (int)l;
	return 0;
}

/* corr's word after its columns; the parser and completion take it */
static const struct cmd_kw corr_keys[] = {
	{ .name = "lag", .arg = "MAX", .set = corr_lag },
	{ 0 }
};

int cmd_corr(struct session *s, int argc, char **argv)
{
	static const char *const main_cols[] = {
		"avg_rtt", "max_rtt", "cnp_handled", "cnp_sent", "ecn_marked",
		"rx_gbps", "pauses", "drops", "hai", "dec", NULL };
	struct out *o = &s->out;
	struct series *ser;
	int a, b, maxlag = 0, rc;

	if (argc == 2 || argc == 4 || argc > 5)
		return pcb_error(&s->err, PCB_E_USAGE, "usage: corr NAME [X Y "
				 "[lag MAX]]");
	if (argc == 5) {
		const struct cmd_kw *k = cmd_kw_find(corr_keys, argv[3]);

		rc = k ? cmd_kw_take(s, k, &maxlag, argv[4]) :
		     corr_lag(s, &maxlag, NULL, "");
		if (rc)
			return rc;
	}
	rc = cmd_series_load(s, argv[0], &ser);
	if (rc)
		return rc;
	if (argc >= 3) {
		a = series_col(ser, argv[1]);
		b = series_col(ser, argv[2]);
		if (a < 0 || b < 0) {
			char dym[160];

			rc = pcb_error(&s->err, PCB_E_NOENT, "series %s has no "
				       "column '%s'%s", argv[0],
				       argv[a < 0 ? 1 : 2],
				       series_no_col(ser, argv[a < 0 ? 1 : 2],
						     dym, sizeof(dym)));
		} else {
			rc = corr_pair(s, ser, a, b, maxlag);
		}
	} else {
		/* the matrix of the main columns that hold data */
		double *vec[16] = { NULL };
		int idx[16], k = 0, i, j, w = 11;

		/* in a merged series each host's (h0.avg_rtt, ...) */
		for (i = 0; main_cols[i]; i++) {
			size_t r, n, c;

			for (c = 0; c < ser->ncols && k < 16; c++) {
				if (!series_col_is(ser->cols[c].name,
						   main_cols[i]))
					continue;
				for (r = n = 0; r < ser->nrows; r++)
					n += !isnan(series_at(ser, r, c));
				if (n < 3)
					continue;
				idx[k] = (int)c;
				vec[k] = series_column(ser, c);
				if (!vec[k++])
					rc = pcb_error(&s->err, PCB_E_NOMEM,
						       "out of memory");
			}
		}
		/* text: the whole matrix; JSON: each pair once */
		out_arr_begin(o, NULL);
		/* as wide as the longest name (a merged series' h0.avg_rtt) */
		for (i = 0; i < k; i++)
			if ((int)strlen(ser->cols[idx[i]].name) > w)
				w = (int)strlen(ser->cols[idx[i]].name);
		out_text(o, "%-*s", w + 1, "pearson");
		for (j = 0; j < k; j++)
			out_text(o, " %*s", w, ser->cols[idx[j]].name);
		out_nl(o);
		for (i = 0; i < k && !rc; i++) {
			out_text(o, "%-*s", w + 1, ser->cols[idx[i]].name);
			for (j = 0; j < k; j++) {
				size_t n;
				double r = series_pearson(vec[i], vec[j],
							  ser->nrows, &n);

				out_text(o, " %*.3f", w, r);
				if (j <= i)
					continue;
				out_obj_begin(o, NULL);
				out_str(o, "x", ser->cols[idx[i]].name);
				out_str(o, "y", ser->cols[idx[j]].name);
				out_real(o, "pearson", r);
				out_obj_end(o);
			}
			out_nl(o);
		}
		out_arr_end(o);
		for (i = 0; i < k; i++)
			free(vec[i]);
	}
	series_free(ser);
	return rc;
}

/* ---- completion ------------------------------------------------------------ */

/* corr NAME [X Y [lag MAX]] */
bool cmd_corr_complete(struct session *s, char **argv, int argc,
		       struct cands *c)
{
	if (argc == 0) {
		cand_saved(c, "series", ".csv");
		return true;
	}
	cand_columns(s, c, argv[0]);
	cand_kw_names(c, corr_keys);
	return true;
}

static bool series_name_complete(struct session *s, char **argv, int argc,
				 struct cands *c)
{
	(void)s;
	(void)argv;
	if (argc == 0)
		cand_saved(c, "series", ".csv");
	return true;
}

/* series merge NAME A B [C...]: a new name, then series */
static bool series_merge_complete(struct session *s, char **argv, int argc,
				  struct cands *c)
{
	(void)s;
	(void)argv;
	if (argc >= 1)
		cand_saved(c, "series", ".csv");
	return true;
}

/* series export NAME FILE */
static bool series_export_complete(struct session *s, char **argv, int argc,
				   struct cands *c)
{
	return argc == 1 ? false : series_name_complete(s, argv, argc, c);
}

const struct cmd_row cmd_series_verbs[] = {
	{
		.name = "list",
		.fn = cmd_series_list,
		.args = "",
		.help = "recorded series",
		.example = "series list",
		.flags = CMD_DEFAULT,
	},
	{
		.name = "show",
		.fn = cmd_series_show,
		.min_args = 1,
		.max_args = 1,
		.args = "NAME",
		.help = "each column: unit, points, missing, min, mean, max",
		.example = "series show rec1",
		.complete = series_name_complete,
	},
	{
		.name = "export",
		.fn = cmd_series_export,
		.min_args = 2,
		.max_args = 2,
		.args = "NAME FILE.csv",
		.help = "the series as CSV (RFC 4180, header with units)",
		.example = "series export rec1 /tmp/rec1.csv",
		.complete = series_export_complete,
	},
	{
		.name = "merge",
		.fn = cmd_series_merge,
		.min_args = 3,
		.max_args = 1 + SERIES_MERGE_MAX,
		.args = "NAME A B [C...]",
		.help = "series recorded on several hosts at once, on A's "
			"wall-clock grid",
		.example = "series merge both h0 h16",
		.complete = series_merge_complete,
	},
	{
		.name = "drop",
		.fn = cmd_series_drop,
		.min_args = 1,
		.max_args = 1,
		.args = "NAME",
		.help = "delete a series",
		.example = "series drop rec1",
		.complete = series_name_complete,
	},
	{ 0 }
};


