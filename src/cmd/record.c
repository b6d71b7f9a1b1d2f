/* record.c - `record` and `watch`: one timeline from the PCC counters,
 * the NIC's port counters and the retransmission histogram, saved under
 * $XDG_DATA_HOME/pccbench/series/ (record) or shown as it comes (watch).
 *
 * Recording runs on the sim device: every interval advances simulated
 * time, then reads the sources.  Rates are per second of device time;
 * an interval without RTT samples has no average RTT (missing, never 0).
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "rec/series.h"
#include "tel/diag_ids.h"
#include "rec/recorder.h"
#include "paths.h"
#include "units.h"

static int save_meta(struct session *s, struct recorder **rs, size_t nr,
		     const struct series *ser, const char *path,
		     time_t start, double every)
{
	struct recorder *r = rs[0];
	struct pcb_wfile w;
	size_t j;
	FILE *fp;
	int rc = store_meta_open(s, &w, path, "series", ser->name, start);

	if (rc)
		return rc;
	fp = w.fp;
	fprintf(fp, ",\"interval_s\":%.9g,\"points\":%zu", every, ser->nrows);
	/* the baseline read on the wall clock: the first interval's start */
	fprintf(fp, ",\"start_ns\":%" PRId64, r->wall0);
	dev_meta(r->d, fp);
	for (j = 0; *r->prefix && j < nr; j++) {	/* whose columns */
		fputs(j ? ",{\"device\":" : ",\"devices\":[{\"device\":", fp);
		out_json_string(fp, rs[j]->d->devid);
		fputs(",\"prefix\":", fp);
		out_json_string(fp, rs[j]->prefix);
		fputs(j + 1 == nr ? "}]" : "}", fp);
	}
	if (r->prio >= 0)
		fprintf(fp, ",\"prio\":%d", r->prio);
	if (r->kidx[REC_K_SUM] >= 0 || r->kidx[REC_K_MIN_RATE] >= 0)
		/* ZTR-RTT's units: the reconstruction's assumption */
		fputs(",\"units_assumed\":\"avg_rtt, min_rtt, max_rtt in ns; "
		      "min_rate, max_rate in % of line rate (ZTR-RTT's "
		      "counters, fxp20)\"", fp);
	if (r->retx) {	/* what each retx_bin_N column covers, in ps */
		uint64_t u = tel_retx_unit_ps(r->retx_cfg.unit), lo, hi;
		uint32_t i;

		fputs(",\"retx_bins_ps\":[", fp);
		for (i = 0; i < r->nbins; i++) {
			tel_retx_bin_range(&r->retx_cfg, i, &lo, &hi);
			fprintf(fp, "%s[%" PRIu64 ",", i ? "," : "", lo * u);
			if (hi == UINT64_MAX)
				fputs("null]", fp);
			else
				fprintf(fp, "%" PRIu64 "]", (hi + 1) * u);
		}
		fputc(']', fp);
	}
	store_meta_algo(s, fp);
	return store_meta_close(s, &w);
}

/* What `record ...` asks for. */
struct rec_req {
	int64_t dur, every;
	char name[64], path[PCB_PATH_LEN];	/* into NAME: its csv */
	bool replace, clear;
	uint64_t ids[DIAG_MAX_IDS];
	uint32_t nids;
	long prio;
	char **targv;			/* while 'CMD ARGS' */
	char devs[1024];		/* devices DEV,...: "" the current */
};

#define REC_MAX_DEVS 8

/* for, every: at least 1us */
static int rec_dur(struct session *s, void *req, const struct cmd_kw *k,
		   const char *val)
{
	int64_t *p = KW_AT(req, k, int64_t);

	if (pcb_parse_duration_ps(val, -1, p) || *p < 1000000)
		return cmd_bad_duration(s, "record", val, "at least 1us");
	return 0;
}

static int rec_into(struct session *s, void *req, const struct cmd_kw *k,
		    const char *val)
{
	struct rec_req *q = req;

	(void)k;
	snprintf(q->name, sizeof(q->name), "%s", val);
	return store_series_path(s, q->name, "csv", q->path, sizeof(q->path));
}

static int rec_ids(struct session *s, void *req, const struct cmd_kw *k,
		   const char *val)
{
	struct rec_req *q = req;
	char buf[2048], *w, *save;

	(void)k;
	snprintf(buf, sizeof(buf), "%s", val);
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save))
		if (q->nids == DIAG_MAX_IDS ||
		    diag_id_parse(w, &q->ids[q->nids++]))
			return pcb_error(&s->err, PCB_E_INVAL, "record: '%s' "
					 "is no data ID ('diag ids' lists "
					 "them)", w);
	return 0;
}

static int rec_clear(struct session *s, void *req, const struct cmd_kw *k,
		     const char *val)
{
	int on = cmd_kw_val(k, val);	/* on, off */

	if (on < 0)
		return pcb_error(&s->err, PCB_E_INVAL, "record: clear is on or "
				 "off");
	*KW_AT(req, k, bool) = on == 0;
	return 0;
}

static int rec_prio(struct session *s, void *req, const struct cmd_kw *k,
		    const char *val)
{
	return cmd_parse_prio(s, k->id ? "watch" : "record", val,
			      KW_AT(req, k, long));
}

static int rec_while(struct session *s, void *req, const struct cmd_kw *k,
		     const char *val)
{
	struct rec_req *q = req;

	(void)k;
	words_free(q->targv);
	q->targv = NULL;
	return words_command(&s->err, "record", val, &q->targv);
}

static int rec_devs(struct session *s, void *req, const struct cmd_kw *k,
		    const char *val)
{
	struct rec_req *q = req;

	(void)s;
	(void)k;
	snprintf(q->devs, sizeof(q->devs), "%s", val);
	return 0;
}

/* record's and watch's words; the parsers below take these. */
const struct cmd_kw cmd_record_keys[] = {
	{ .name = "for", .arg = "DURATION", .flags = KW_REQ, .set = rec_dur,
	  .off = offsetof(struct rec_req, dur) },
	{ .name = "every", .arg = "INTERVAL", .flags = KW_REQ, .set = rec_dur,
	  .off = offsetof(struct rec_req, every) },
	{ .name = "into", .arg = "NAME", .set = rec_into },
	{ .name = "replace", .dest = KW_D_FLAG,
	  .off = offsetof(struct rec_req, replace) },
	{ .name = "clear", .arg = "on|off", .vals = "on, off",
	  .set = rec_clear, .off = offsetof(struct rec_req, clear) },
	{ .name = "ids", .arg = "ID,...", .gen = cand_data_ids,
	  .flags = KW_LIST, .set = rec_ids },
	{ .name = "prio", .arg = "N", .vals = "0 1 2 3 4 5 6 7",
	  .set = rec_prio, .off = offsetof(struct rec_req, prio) },
	{ .name = "while", .arg = "'CMD ARGS'", .flags = KW_FILE,
	  .set = rec_while },
	{ .name = "devices", .arg = "DEV,...", .gen = cand_devices,
	  .flags = KW_LIST, .set = rec_devs },
	{ 0 }
};

/* What `watch ...` asks for. */
struct watch_req {
	int64_t every, dur;
	const char *every_t, *cols;
	long prio;
};

/* every, for: at least 1us; every's text kept for the display */
static int watch_dur(struct session *s, void *req, const struct cmd_kw *k,
		     const char *val)
{
	struct watch_req *q = req;
	int64_t *p = KW_AT(req, k, int64_t);

	if (p == &q->every)
		q->every_t = val;
	if (pcb_parse_duration_ps(val, -1, p) || *p < 1000000)
		return cmd_bad_duration(s, "watch", val, "at least 1us");
	return 0;
}

const struct cmd_kw cmd_watch_keys[] = {
	{ .name = "every", .arg = "I", .set = watch_dur,
	  .off = offsetof(struct watch_req, every) },
	{ .name = "for", .arg = "D", .set = watch_dur,
	  .off = offsetof(struct watch_req, dur) },
	{ .name = "prio", .arg = "N", .vals = "0 1 2 3 4 5 6 7",
	  .set = rec_prio, .off = offsetof(struct watch_req, prio), .id = 1 },
	{ 0 }
};

/* The words of `record`, checked against each other and the store. */
static int rec_parse(struct session *s, struct rec_req *q, int argc,
		     char **argv)
{
	char syn[300];
	struct stat st;
	int i, rc;

	rc = cmd_kw_parse(s, cmd_record_keys, q, argc, argv, &i);
	if (rc)
		return rc;
	if (i != argc || !q->dur || !q->every)
		return pcb_error(&s->err, PCB_E_USAGE, "usage: record %s",
				 cmd_kw_synopsis(cmd_record_keys, syn,
						 sizeof(syn)));
	if (*q->name && !q->replace && !lstat(q->path, &st))
		return pcb_error(&s->err, PCB_E_STATE, "record: series %s "
				 "exists; 'into %s replace' overwrites it "
				 "('series show %s' shows it)", q->name,
				 q->name, q->name);
	if (q->every > q->dur || q->dur / q->every > 1000000)
		return pcb_error(&s->err, PCB_E_RANGE, "record: %" PRId64
				 " intervals (1 to 1000000)",
				 q->dur / q->every);
	return 0;
}

/* rec1, rec2, ...: the first free name, when none was given. */
static int rec_pick_name(struct session *s, struct rec_req *q)
{
	struct stat st;
	uint64_t k;
	int rc = 0;

	for (k = 1; !rc && !*q->name; k++) {
		snprintf(q->name, sizeof(q->name), "rec%" PRIu64, k);
		rc = store_series_path(s, q->name, "csv", q->path,
				       sizeof(q->path));
		if (!rc && !lstat(q->path, &st))
			*q->name = '\0';
	}
	return rc;
}

/* The csv and its metadata; an interrupted or failed record keeps what
 * it has, and tells the first error (writing the files resets the
 * session's).
 */
static int rec_save(struct session *s, struct recorder **rs, size_t nr,
		    const struct series *ser, const struct rec_req *q,
		    time_t start, int rc)
{
	struct pcb_err keep = s->err;
	char meta[PCB_PATH_LEN];
	int rc2 = series_write_csv(ser, q->path, &s->err);

	if (!rc2)
		rc2 = pcb_path(meta, sizeof(meta), &s->err, "%.*s.json",
			       (int)(strlen(q->path) - 4), q->path);
	if (!rc2)
		rc2 = save_meta(s, rs, nr, ser, meta, start,
				(double)q->every / 1e12);
	if (!rc)
		return rc2;
	s->err = keep;
	return rc;
}

/* A device's columns' prefix in a record of several: hN for the sim's
 * host N (sim:NAME/hN), NAME for sim:NAME, else its identity with what a
 * column name cannot hold made '_' (0000:08:00.0 -> 08_00_0, mlx5_0).
 */
static void dev_prefix(const struct device *d, char *buf, size_t len)
{
	const char *id = d->devid;
	size_t i;

	if (d->hostno >= 0) {
		snprintf(buf, len, "h%d", d->hostno);
		return;
	}
	if (!strncmp(id, "sim:", 4))
		id += 4;
	else if (!strncmp(id, "0000:", 5))
		id += 5;
	snprintf(buf, len, "%s", id);
	for (i = 0; buf[i]; i++)
		if (!isalnum((unsigned char)buf[i]) && buf[i] != '_' &&
		    buf[i] != '-' && buf[i] != '+')
			buf[i] = '_';
}

/* `devices A,B,...`: the session's devices of those names (opened, the
 * current one staying current; hN: host N of the current sim device's
 * fabric), all on one clock, with distinct prefixes when several.
 */
static int rec_devices(struct session *s, const struct rec_req *q,
		       struct device **devs, char (*pre)[80], size_t *n)
{
	char buf[sizeof(q->devs)], *w, *save = NULL, host[96];
	const char *clock0 = NULL;
	size_t i, j;
	int rc = 0;

	*n = 0;
	if (!*q->devs) {
		devs[(*n)++] = s->cur;
		pre[0][0] = '\0';
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", q->devs);
	for (w = strtok_r(buf, ",", &save); !rc && w;
	     w = strtok_r(NULL, ",", &save)) {
		const char *clock;

		if (*n == REC_MAX_DEVS)
			return pcb_error(&s->err, PCB_E_RANGE,
					 "record: at most "
					 "%d devices", REC_MAX_DEVS);
		/* hN alone: host N of the current sim device's fabric */
		if (w[0] == 'h' && w[1] && strspn(w + 1, "0123456789") ==
		    strlen(w + 1) && !sess_device(s) &&
		    !strncmp(s->cur->regid, "sim:", 4)) {
			rc = pcb_path(host, sizeof(host), &s->err, "%s/%s",
				      s->cur->regid, w);
			w = host;
		}
		if (!rc)
			rc = sess_get_device(s, w, &devs[*n]);
		if (rc)
			return rc;
		clock = dev_clock(devs[*n]);
		if (!clock)
			return -s->err.code;
		if (!clock0)
			clock0 = clock;
		else if (strcmp(clock, clock0))
			return pcb_error(&s->err, PCB_E_INVAL,
					 "record: %s runs "
					 "on %s's clock, %s on %s's: record "
					 "devices of one clock together (the "
					 "hosts of one sim fabric, or NICs of "
					 "this host)", devs[0]->devid,
					 clock0, devs[*n]->devid, clock);
		for (i = 0; i < *n; i++)
			if (devs[i] == devs[*n])
				return pcb_error(&s->err, PCB_E_INVAL, "record: "
						 "%s given twice",
						 devs[i]->devid);
		(*n)++;
	}
	for (i = 0; i < *n; i++) {
		if (*n > 1)
			dev_prefix(devs[i], pre[i], sizeof(pre[i]));
		else
			pre[i][0] = '\0';
		for (j = 0; j < i && *n > 1; j++)
			if (!strcmp(pre[i], pre[j]))
				return pcb_error(&s->err, PCB_E_INVAL, "record: "
						 "%s and %s would both name "
						 "their columns %s.*",
						 devs[j]->devid,
						 devs[i]->devid, pre[i]);
	}
	return 0;
}

/* record for DURATION every INTERVAL [into NAME] [replace] [clear on|off]
 *        [ids ID,...] [prio N] [while 'CMD ARGS'] [devices DEV,...]
 */
int cmd_record(struct session *s, int argc, char **argv)
{
	struct rec_req q = { .prio = -1 };
	struct recorder r[REC_MAX_DEVS], *rs[REC_MAX_DEVS];
	struct device *devs[REC_MAX_DEVS];
	char pre[REC_MAX_DEVS][80];
	struct series *ser = NULL;
	bool traffic = false;
	int64_t done_ps = 0;
	char log[PCB_PATH_LEN];
	time_t start = time(NULL);
	size_t nd = 0, j, nr = 0;
	int rc;

	memset(r, 0, sizeof(r));
	rc = rec_parse(s, &q, argc, argv);
	if (!rc)
		rc = rec_devices(s, &q, devs, pre, &nd);
	if (rc) {	/* nothing opened yet but the traffic argv */
		words_free(q.targv);
		return rc;
	}
	for (j = 0; !rc && j < nd; j++, nr++) {
		rs[j] = &r[j];
		rc = rec_open_dev(&r[j], s, devs[j], pre[j], q.ids, q.nids,
				  q.clear, (int)q.prio);
	}
	if (!rc && q.targv && !(dev_traits(devs[0]) & DEV_T_TRAFFIC))
		/* says why not */
		rc = dev_traffic_start(devs[0], q.targv, NULL);
	if (!rc)
		rc = rec_pick_name(s, &q);
	if (!rc && !(ser = series_new(q.name)))
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	if (!rc && *pre[0])	/* several: one t, then each one's */
		series_add_col(ser, rec_fixed_cols[REC_C_T].name,
			       rec_fixed_cols[REC_C_T].unit);
	for (j = 0; !rc && j < nd; j++)
		rc = rec_columns(&r[j], ser);
	if (!rc && q.targv) {
		rc = store_series_path(s, q.name, "while.log", log, sizeof(log));
		/* the counters before the command's first packet */
		for (j = 0; !rc && j < nd; j++)
			rc = rec_baseline(&r[j]);
		if (!rc)
			rc = dev_traffic_start(devs[0], q.targv, log);
		traffic = !rc;
	}
	if (rc)
		goto out;
	rc = rec_capture_n(rs, nd, ser, q.dur, q.every, q.name, &done_ps);
	if (traffic)
		rc = dev_traffic_stop(devs[0], rc);
	if (ser->nrows)
		rc = rec_save(s, rs, nd, ser, &q, start, rc);
	if (ser->nrows && (!rc || rc == -PCB_E_INTR)) {
		struct out *o = &s->out;
		char a[32], b[32];

		out_obj_begin(o, NULL);
		out_field_str(o, "series", "series %s: ", q.name);
		out_field_u64(o, "points", "%llu points x ", ser->nrows);
		out_field_u64(o, "columns", "%llu columns, ", ser->ncols);
		out_text(o, "%s every %s ",
			 pcb_format_duration(done_ps, a, sizeof(a)),
			 pcb_format_duration(q.every, b, sizeof(b)));
		/* what the device managed: a slow backend stretches it */
		out_field_real(o, "achieved_interval_s", "(achieved: every "
			       "%.3g s) -> ", r[0].achieved_ps / 1e12);
		out_field_str(o, "file", "%s\n", q.path);
		out_obj_end(o);
	}
out:
	for (j = 0; j < nr; j++)
		rec_close(&r[j]);
	words_free(q.targv);
	series_free(ser);
	return rc;
}

/* ---- watch -------------------------------------------------------------- */

struct watch {
	struct session *s;
	int cols[SERIES_MAX_COLS];
	size_t ncols;
	bool tty;
	const char *every;
};

/* One interval: on a terminal the table redrawn in place (like mlnx_perf),
 * else a line per interval (like perf stat -I).
 */
static void watch_row(void *ctx, const struct series *ser)
{
	struct watch *w = ctx;
	size_t r = ser->nrows - 1, k;
	FILE *fp = w->s->out.fp;
	char v[32];

	if (w->s->out.json) {
		out_obj_begin(&w->s->out, NULL);
		out_real(&w->s->out, "t", series_at(ser, r, 0));
		for (k = 0; k < w->ncols; k++)
			out_real(&w->s->out, ser->cols[w->cols[k]].name,
				 series_at(ser, r, (size_t)w->cols[k]));
		out_obj_end(&w->s->out);
		out_end_doc(&w->s->out);
		fflush(fp);
		return;
	}
	if (w->tty) {
		fprintf(fp, "\033[H\033[2J%s: t = %.3f s, every %s (Ctrl-C "
			"stops)\n\n", w->s->cur->name, series_at(ser, r, 0),
			w->every);
		for (k = 0; k < w->ncols; k++) {
			const struct series_col *c = &ser->cols[w->cols[k]];
			double x = series_at(ser, r, (size_t)w->cols[k]);

			if (isnan(x))
				snprintf(v, sizeof(v), "-");
			else
				snprintf(v, sizeof(v), "%.6g", x);
			fprintf(fp, "  %-14s %14s %s\n", c->name, v, c->unit);
		}
	} else {
		if (r == 0) {
			fprintf(fp, "%12s", "t (s)");
			for (k = 0; k < w->ncols; k++)
				fprintf(fp, " %14s", ser->cols[w->cols[k]].name);
			fputc('\n', fp);
		}
		fprintf(fp, "%12.6f", series_at(ser, r, 0));
		for (k = 0; k < w->ncols; k++) {
			double x = series_at(ser, r, (size_t)w->cols[k]);

			if (isnan(x))
				fprintf(fp, " %14s", "-");
			else
				fprintf(fp, " %14.6g", x);
		}
		fputc('\n', fp);
	}
	fflush(fp);
}

/* watch [COL,...] [every I] [for D] [prio N]: the timeline's rates as they come,
 * on the device's clock (simulated time on the sim), until D or Ctrl-C.
 */
int cmd_watch(struct session *s, int argc, char **argv)
{
	static const char *const defaults[] = {
		"avg_rtt", "cnp_handled", "cnp_sent", "ecn_marked", "rx_gbps",
		"tx_gbps", "pauses", "drops", NULL };
	struct recorder r = { 0 };
	struct series *ser = NULL;
	struct watch w = { .s = s };
	struct watch_req q = { .prio = -1 };
	const char *colarg = NULL, *every_t;
	int64_t every, dur, done = 0;
	char buf[1024], *tok, *save, dym[160], tick[32];
	long prio;
	int i, at, c, rc = 0;

	/* KEY VALUE words, and one COL,... anywhere among them */
	for (i = 0; i < argc && !rc; i = at + 1) {
		rc = cmd_kw_parse(s, cmd_watch_keys, &q, argc - i, argv + i,
				  &at);
		at += i;
		if (rc || at == argc)
			break;
		if (!q.cols)
			q.cols = argv[at];
		else
			rc = pcb_error(&s->err, PCB_E_USAGE, "usage: watch "
				       "[COL,...] %s",
				       cmd_kw_synopsis(cmd_watch_keys, dym,
						       sizeof(dym)));
	}
	colarg = q.cols;
	every = q.every;
	every_t = q.every_t;
	dur = q.dur;
	prio = q.prio;
	if (!rc)
		rc = rec_open(&r, s, NULL, 0, false, (int)prio);
	if (!rc && !(ser = series_new("watch")))
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	if (!rc)
		rc = rec_columns(&r, ser);
	if (!rc && !every) {	/* the device's: 1 s of wall time, 1 ms
				 * simulated */
		every = dev_tick(s->cur);
		every_t = pcb_format_duration(every, tick, sizeof(tick));
	}
	w.tty = isatty(fileno(s->out.fp)) && !s->out.json;
	w.every = every_t;
	snprintf(buf, sizeof(buf), "%s", colarg ? colarg : "");
	for (tok = colarg ? strtok_r(buf, ",", &save) : NULL; !rc && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		c = series_col(ser, tok);
		if (c <= 0)
			rc = pcb_error(&s->err, PCB_E_INVAL, "watch: no column "
				       "'%s'%s", tok, series_no_col(ser, tok,
				       dym, sizeof(dym)));
		else if (w.ncols < SERIES_MAX_COLS)
			w.cols[w.ncols++] = c;
	}
	for (i = 0; !rc && !colarg && defaults[i]; i++)
		if ((c = series_col(ser, defaults[i])) > 0)
			w.cols[w.ncols++] = c;
	if (!rc && !dur && !w.tty && !isatty(STDIN_FILENO) && !s->out.json)
		rc = pcb_error(&s->err, PCB_E_USAGE, "watch: 'for D' outside a "
			       "terminal (nobody would stop it)");
	if (!rc) {
		r.on_row = watch_row;
		r.on_row_ctx = &w;
		rc = rec_capture(&r, ser, dur ? dur : every * 1000000, every,
				 NULL, &done);
		if (rc == -PCB_E_INTR && !dur) {	/* Ctrl-C: the way out */
			pcb_err_reset(&s->err);
			if (s->opt.stop && *s->opt.stop == SIGINT)
				*s->opt.stop = 0;
			rc = 0;
		}
	}
	rec_close(&r);
	series_free(ser);
	return rc;
}
