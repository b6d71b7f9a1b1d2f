/* rec.c - `record`, `series` and `corr`: one timeline from the PCC
 * counters, the NIC's port counters and the retransmission histogram,
 * saved under $XDG_DATA_HOME/pccbench/series/, and its correlations.
 *
 * Recording runs on the sim device: every interval advances simulated
 * time, then reads the sources.  Rates are per second of device time;
 * an interval without RTT samples has no average RTT (missing, never 0).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd.h"
#include "paths.h"
#include "rec/series.h"
#include "tel/diag_ids.h"
#include "run.h"
#include "sim/simdev.h"
#include "units.h"

enum { C_T, C_AVG_RTT, C_MIN_RTT, C_MAX_RTT, C_MIN_RATE, C_MAX_RATE, C_AI,
       C_HAI, C_DEC, C_HYPER, C_TXDEC, C_CNP_H, C_CNP_S, C_ECN, C_RX, C_TX,
       C_PAUSES, C_DROPS, C_FIXED };

static const struct series_col fixed_cols[C_FIXED] = {
	{ "t", "s" }, { "avg_rtt", "ns" }, { "min_rtt", "ns" },
	{ "max_rtt", "ns" }, { "min_rate", "%" }, { "max_rate", "%" },
	{ "ai", "1/s" }, { "hai", "1/s" }, { "dec", "1/s" },
	{ "hyper_dec", "1/s" }, { "tx_dec", "1/s" }, { "cnp_handled", "1/s" },
	{ "cnp_sent", "1/s" }, { "ecn_marked", "1/s" }, { "rx_gbps", "Gb/s" },
	{ "tx_gbps", "Gb/s" }, { "pauses", "1/s" }, { "drops", "1/s" },
};

/* The ZTR-RTT counters a timeline uses, by name. */
enum { K_SUM, K_NUM, K_MIN_RTT, K_MAX_RTT, K_MIN_RATE, K_MAX_RATE, K_AI,
       K_HAI, K_DEC, K_HYPER, K_TXDEC, K_COUNT };
static const char *const knames[K_COUNT] = {
	"ZTR_CC_SUM_RTT", "ZTR_CC_NUM_RTT", "ZTR_CC_MIN_RTT", "ZTR_CC_MAX_RTT",
	"ZTR_CC_MIN_RATE", "ZTR_CC_MAX_RATE", "ZTR_CC_AI_INC_COUNTER",
	"ZTR_CC_HAI_INC_COUNTER", "ZTR_CC_DEC_COUNTER",
	"ZTR_CC_HYPER_DEC_COUNTER", "ZTR_CC_TX_DEC_COUNTER",
};

struct snap {
	uint32_t pcc[ALGO_MAX_COUNTERS];
	uint64_t ds[DS_COUNT];		/* the diag data IDs' sources */
	struct sim_port_counters port;
	uint64_t bins[RETX_MAX_BINS];
};

struct recorder {
	struct session *s;
	struct simdev *d;
	int slot;			/* PCC counters' slot, -1 none */
	int kidx[K_COUNT];		/* counter index, -1 absent */
	bool clear;			/* get-and-clear the PCC counters */
	bool retx;			/* histogram running: bins columns */
	uint32_t nbins;
	uint32_t nids;			/* diag data IDs asked for */
	int ids[DIAG_MAX_IDS];		/* their DS_* sources */
	size_t rto_peeked;		/* the sim's RTO count at the last peek */
	struct snap prev;
};

static int series_dir(struct session *s, char *dir, size_t len)
{
	return pcb_user_dir(dir, len, PCB_DIR_DATA, "series", true, &s->err);
}

static int series_path(struct session *s, const char *name, const char *ext,
		       char *buf, size_t len)
{
	char dir[4096];
	size_t i;
	int rc;

	for (i = 0; name[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-.", name[i]) || i >= 60 ||
		    name[0] == '.')
			return pcb_error(&s->err, PCB_E_INVAL, "bad series name "
					 "'%s' (letters, digits, _ - .; up "
					 "to 60)", name);
	if (!*name)
		return pcb_error(&s->err, PCB_E_INVAL, "empty series name");
	rc = series_dir(s, dir, sizeof(dir));
	if (!rc)
		snprintf(buf, len, "%s/%s.%s", dir, name, ext);
	return rc;
}

static int read_sources(struct recorder *r, struct snap *n)
{
	struct sim_port_counters zero;
	struct retx_cfg cfg;
	bool running;
	size_t got;
	int rc;

	memset(n, 0, sizeof(*n));
	if (r->slot >= 0) {
		rc = ppcc_counters(&r->s->ppcc, (unsigned)r->slot, r->clear,
				   n->pcc, ALGO_MAX_COUNTERS, &got, &r->s->err);
		if (rc)
			return rc;
	}
	memset(&zero, 0, sizeof(zero));
	if (r->d->sim) {
		sim_port_counters(r->d->sim, &n->port);
		if (r->nids)
			simdev_diag_sources(r->d->sim, n->ds);
	} else {
		n->port = zero;
	}
	/* the bins change only with new timeouts (or another reader) */
	if (n != &r->prev)
		memcpy(n->bins, r->prev.bins, sizeof(n->bins));
	if (r->retx && r->d->rto_seen != r->rto_peeked) {
		retx_dev_peek(r->d->retx, &cfg, &running, n->bins);
		r->rto_peeked = r->d->rto_seen;
	}
	return 0;
}

static double pick(const struct recorder *r, const struct snap *n, int k,
		   double scale)
{
	uint32_t v;

	if (r->kidx[k] < 0)
		return NAN;
	v = n->pcc[r->kidx[k]];
	return v ? v * scale : NAN;	/* a gauge never set: missing */
}

static double rate(const struct recorder *r, const struct snap *n, int k,
		   double dt)
{
	if (r->kidx[k] < 0)
		return NAN;
	return (double)series_delta(r->prev.pcc[r->kidx[k]],
				    n->pcc[r->kidx[k]], UINT32_MAX,
				    r->clear) / dt;
}

/* One row from the interval that ended at `t` (s) and lasted dt. */
static void make_row(struct recorder *r, const struct snap *n, double t,
		     double dt, double *row)
{
	const struct sim_port_counters *a = &r->prev.port, *b = &n->port;
	uint32_t i;

	for (i = 0; i < C_FIXED; i++)
		row[i] = NAN;
	row[C_T] = t;
	if (r->slot >= 0) {
		if (r->kidx[K_SUM] >= 0 && r->kidx[K_NUM] >= 0) {
			uint64_t ds = series_delta(r->prev.pcc[r->kidx[K_SUM]],
						   n->pcc[r->kidx[K_SUM]],
						   UINT32_MAX, r->clear);
			uint64_t dn = series_delta(r->prev.pcc[r->kidx[K_NUM]],
						   n->pcc[r->kidx[K_NUM]],
						   UINT32_MAX, r->clear);

			row[C_AVG_RTT] = dn ? (double)ds / (double)dn : NAN;
		}
		row[C_MIN_RTT] = pick(r, n, K_MIN_RTT, 1);
		row[C_MAX_RTT] = pick(r, n, K_MAX_RTT, 1);
		row[C_MIN_RATE] = pick(r, n, K_MIN_RATE, 100.0 / (1 << 20));
		row[C_MAX_RATE] = pick(r, n, K_MAX_RATE, 100.0 / (1 << 20));
		row[C_AI] = rate(r, n, K_AI, dt);
		row[C_HAI] = rate(r, n, K_HAI, dt);
		row[C_DEC] = rate(r, n, K_DEC, dt);
		row[C_HYPER] = rate(r, n, K_HYPER, dt);
		row[C_TXDEC] = rate(r, n, K_TXDEC, dt);
	}
	row[C_CNP_H] = (double)(b->cnp_handled - a->cnp_handled) / dt;
	row[C_CNP_S] = (double)(b->cnp_sent - a->cnp_sent) / dt;
	row[C_ECN] = (double)(b->ecn_marked - a->ecn_marked) / dt;
	row[C_RX] = (double)(b->rx_bytes - a->rx_bytes) * 8 / dt / 1e9;
	row[C_TX] = (double)(b->tx_bytes - a->tx_bytes) * 8 / dt / 1e9;
	row[C_PAUSES] = (double)(b->pause_tx + b->sw_pause_tx - a->pause_tx -
				 a->sw_pause_tx) / dt;
	row[C_DROPS] = (double)(b->drops_nobuf + b->drops_loss -
				a->drops_nobuf - a->drops_loss) / dt;
	for (i = 0; r->retx && i < r->nbins; i++)
		/* a reader that cleared in between: the bin is the growth */
		row[C_FIXED + i] = (double)(n->bins[i] >= r->prev.bins[i] ?
					    n->bins[i] - r->prev.bins[i] :
					    n->bins[i]);
	for (i = 0; i < r->nids; i++)	/* data IDs: growth per second */
		row[C_FIXED + r->nbins + i] =
			(double)(n->ds[r->ids[i]] - r->prev.ds[r->ids[i]]) / dt;
}

static int find_slot(struct recorder *r)
{
	struct session *s = r->s;
	struct slot_view *v;
	int k, rc = sess_counters_slot(s, &r->slot);

	for (k = 0; k < K_COUNT; k++)
		r->kidx[k] = -1;
	if (rc || r->slot < 0)
		return rc;
	rc = sess_slot_view(s, (unsigned)r->slot, &v);
	for (k = 0; !rc && k < K_COUNT; k++) {
		size_t j;

		for (j = 0; j < v->ncounters; j++)
			if (!strcmp(v->counters[j].info.name, knames[k]))
				r->kidx[k] = (int)j;
	}
	return rc;
}

static int save_meta(struct session *s, struct recorder *r,
		     const struct series *ser, const char *path,
		     time_t start, double every)
{
	char cfg[1024], ts[40], val[40];
	struct slot_view *v = NULL;
	struct tm tm;
	FILE *fp = fopen(path, "w");
	size_t i;
	int bad;

	if (!fp)
		return pcb_error(&s->err, PCB_E_IO, "cannot write '%s': %s",
				 path, strerror(errno));
	sim_cfg_format(&r->d->cfg, cfg, sizeof(cfg));
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&start, &tm));
	fputs("{\"series\":", fp);
	out_json_string(fp, ser->name);
	fputs(",\"device\":", fp);
	out_json_string(fp, s->devname);
	fprintf(fp, ",\"pccbench\":\"%s\",\"start\":\"%s\",\"interval_s\":%.9g,"
		"\"points\":%zu,\"seed\":%" PRIu64 ",\"scenario\":", PCCB_VERSION,
		ts, every, ser->nrows, r->d->cfg.seed);
	out_json_string(fp, cfg);
	fputs(",\"algorithm\":", fp);
	out_json_string(fp, r->d->algo_label);
	if (r->d->slot >= 0 &&
	    !sess_slot_view(s, (unsigned)r->d->slot, &v)) {
		uint32_t vals[ALGO_MAX_PARAMS];
		size_t n = 0;

		fprintf(fp, ",\"algo_id\":%u,\"algo_version\":\"%u.%u\","
			"\"params\":{", v->algo_num >> 16,
			(v->algo_num >> 8) & 0xff, v->algo_num & 0xff);
		if (!ppcc_bulk_get(&s->ppcc, (unsigned)r->d->slot, vals,
				   ALGO_MAX_PARAMS, &n, &s->err))
			for (i = 0; i < n && i < v->nparams; i++) {
				sess_format_value(s, v->params[i].type,
						  vals[i], val, sizeof(val));
				fprintf(fp, "%s", i ? "," : "");
				out_json_string(fp, v->params[i].info.name);
				fprintf(fp, ":%s", val);
			}
		fputc('}', fp);
	}
	fputs("}\n", fp);
	bad = ferror(fp);
	if (fclose(fp) || bad)
		return pcb_error(&s->err, PCB_E_IO, "cannot write '%s'", path);
	return 0;
}

/* record for DURATION every INTERVAL [into NAME] [clear on|off] */
int cmd_record(struct session *s, int argc, char **argv)
{
	struct recorder r;
	struct series *ser = NULL;
	struct snap n;
	struct retx_cfg rc_cfg;
	int64_t dur = 0, every = 0, done_ps = 0;
	char name[64] = "", path[4200], meta[4200];
	double row[SERIES_MAX_COLS], t0;
	uint64_t idv[DIAG_MAX_IDS];
	struct timespec w0, w1;
	bool progress = false, running, tty = isatty(STDERR_FILENO);
	time_t start = time(NULL);
	uint64_t k, count;
	int i, rc;

	memset(&r, 0, sizeof(r));
	r.s = s;
	for (i = 0; i + 1 < argc; i += 2) {
		const char *key = argv[i], *val = argv[i + 1];

		if (!strcmp(key, "for") || !strcmp(key, "every")) {
			int64_t *p = key[0] == 'f' ? &dur : &every;

			if (pcb_parse_duration_ps(val, -1, p) || *p < 1000000)
				return pcb_error(&s->err, PCB_E_INVAL, "record: "
						 "bad %s '%s' (e.g. 20ms, 100us;"
						 " at least 1us)", key, val);
		} else if (!strcmp(key, "into")) {
			snprintf(name, sizeof(name), "%s", val);
			rc = series_path(s, name, "csv", path, sizeof(path));
			if (rc)
				return rc;
		} else if (!strcmp(key, "ids")) {
			char buf[2048], *w, *save;

			snprintf(buf, sizeof(buf), "%s", val);
			for (w = strtok_r(buf, ",", &save); w;
			     w = strtok_r(NULL, ",", &save)) {
				if (r.nids == DIAG_MAX_IDS ||
				    diag_id_parse(w, &idv[r.nids]))
					return pcb_error(&s->err, PCB_E_INVAL,
							 "record: '%s' is no "
							 "data ID ('diag ids' "
							 "lists them)", w);
				r.ids[r.nids] = diag_dev_source(idv[r.nids]);
				if (r.ids[r.nids] < 0)
					return pcb_error(&s->err, PCB_E_INVAL,
							 "record: the sim "
							 "device does not "
							 "measure %s", w);
				r.nids++;
			}
		} else if (!strcmp(key, "clear")) {
			if (strcmp(val, "on") && strcmp(val, "off"))
				return pcb_error(&s->err, PCB_E_INVAL, "record: "
						 "clear is on or off");
			r.clear = !strcmp(val, "on");
		} else {
			break;
		}
	}
	if (i != argc || !dur || !every)
		return pcb_error(&s->err, PCB_E_USAGE, "usage: record for "
				 "DURATION every INTERVAL [into NAME] [clear "
				 "on|off] [ids ID,...]");
	if (every > dur || dur / every > 1000000)
		return pcb_error(&s->err, PCB_E_RANGE, "record: %" PRId64
				 " intervals (1 to 1000000)", dur / every);
	rc = sess_device(s);
	if (!rc && (s->dev->ops->caps & REG_CAP_REAL))
		return pcb_error(&s->err, PCB_E_STATE, "record: on a real NIC "
				 "not yet (the sim device only)");
	if (!rc)
		rc = sess_simdev(s, &r.d);
	if (!rc) {
		struct sim *sim;

		rc = simdev_sim(r.d, &sim, &s->err);
	}
	if (!rc)
		rc = find_slot(&r);
	if (rc)
		return rc;
	if (!*name) {		/* rec1, rec2, ...: the first free */
		for (k = 1;; k++) {
			snprintf(name, sizeof(name), "rec%" PRIu64, k);
			rc = series_path(s, name, "csv", path, sizeof(path));
			if (rc)
				return rc;
			if (access(path, F_OK))
				break;
		}
	}
	retx_dev_peek(r.d->retx, &rc_cfg, &running, n.bins);
	r.retx = running;
	r.nbins = running ? rc_cfg.num_bins : 0;
	ser = series_new(name);
	if (!ser)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	for (i = 0; i < C_FIXED; i++)
		series_add_col(ser, fixed_cols[i].name, fixed_cols[i].unit);
	for (k = 0; k < r.nbins; k++) {
		char col[24];

		snprintf(col, sizeof(col), "retx_bin_%" PRIu64, k);
		series_add_col(ser, col, "count");
	}
	for (k = 0; k < r.nids; k++) {
		char col[96];

		diag_id_name(idv[k], col, sizeof(col));
		if (series_add_col(ser, col, strstr(col, "bytes") ? "B/s" :
				   "1/s")) {
			series_free(ser);
			return pcb_error(&s->err, PCB_E_INVAL, "record: %s "
					 "given twice", col);
		}
	}
	if (r.slot < 0)
		sess_warn(s, "record: no slot has the algorithm and counters "
			  "enabled: RTT and rate columns stay empty ('algo "
			  "debug on' enables the ZTR-RTT debug counters)");
	r.rto_peeked = (size_t)-1;
	rc = read_sources(&r, &r.prev);
	if (rc)
		goto out;
	t0 = sim_now(r.d->sim) / 1e12;
	count = (uint64_t)(dur / every);
	clock_gettime(CLOCK_MONOTONIC, &w0);
	for (k = 0; k < count; k++) {
		rc = k ? simdev_run_more(r.d, every, s->stop, &s->err) :
			 simdev_run(r.d, every, s->stop, &s->err);
		if (rc)
			break;
		rc = read_sources(&r, &n);
		if (rc)
			break;
		done_ps += every;
		make_row(&r, &n, t0 + done_ps / 1e12, every / 1e12, row);
		if (series_add_row(ser, row)) {
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
			break;
		}
		r.prev = n;
		if (!tty)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &w1);
		if (tty && (w1.tv_sec - w0.tv_sec) +
		    (w1.tv_nsec - w0.tv_nsec) / 1e9 > 1.0 &&
		    (k % 64 == 0 || k + 1 == count)) {
			fprintf(stderr, "\rrecord %s: %3.0f %% (%.3f of %.3f "
				"ms)", name, 100.0 * (double)(k + 1) /
				(double)count, done_ps / 1e9, dur / 1e9);
			progress = true;
		}
	}
	if (progress)
		fputc('\n', stderr);
	/* an interrupted record keeps what it has */
	if (ser->nrows) {
		int rc2 = series_write_csv(ser, path, &s->err);

		snprintf(meta, sizeof(meta), "%.*s.json",
			 (int)(strlen(path) - 4), path);
		if (!rc2)
			rc2 = save_meta(s, &r, ser, meta, start, every / 1e12);
		if (!rc)
			rc = rc2;
	}
	if (ser->nrows && (!rc || rc == -PCB_E_INTR)) {
		if (s->out.json) {
			out_obj_begin(&s->out, NULL);
			out_str(&s->out, "series", name);
			out_u64(&s->out, "points", ser->nrows);
			out_u64(&s->out, "columns", ser->ncols);
			out_str(&s->out, "file", path);
			out_obj_end(&s->out);
		} else {
			fprintf(s->out.fp, "series %s: %zu points x %zu "
				"columns, %.3f ms every %.3f us -> %s\n", name,
				ser->nrows, ser->ncols, done_ps / 1e9,
				every / 1e6, path);
		}
	}
out:
	series_free(ser);
	return rc;
}

static int load(struct session *s, const char *name, struct series **out)
{
	char path[4200];
	int rc = series_path(s, name, "csv", path, sizeof(path));

	if (rc)
		return rc;
	if (access(path, F_OK))
		return pcb_error(&s->err, PCB_E_NOENT, "no series '%s' ('series "
				 "list')", name);
	return series_read_csv(out, name, path, &s->err);
}

static int cmd_series_list(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "name", "NAME", 0 }, { "points", "POINTS", TBL_RIGHT },
		{ "columns", "COLUMNS", TBL_RIGHT }, { "span_s", "SPAN_S",
						       TBL_RIGHT },
	};
	char dir[4096];
	struct dirent **ents = NULL;
	struct tbl t;
	int i, n, rc;

	(void)argc;
	(void)argv;
	rc = series_dir(s, dir, sizeof(dir));
	if (rc)
		return rc;
	n = scandir(dir, &ents, NULL, alphasort);
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < n; i++) {
		char nm[256];
		size_t l = strlen(ents[i]->d_name);
		struct series *ser = NULL;
		struct pcb_err keep = s->err;

		if (l > 4 && !strcmp(ents[i]->d_name + l - 4, ".csv") &&
		    l - 4 < sizeof(nm)) {
			snprintf(nm, sizeof(nm), "%.*s", (int)(l - 4),
				 ents[i]->d_name);
			if (!load(s, nm, &ser)) {
				tbl_row(&t);
				tbl_str(&t, nm);
				tbl_u64(&t, ser->nrows);
				tbl_u64(&t, ser->ncols);
				tbl_strf(&t, "%.6g", ser->nrows ?
					 series_at(ser, ser->nrows - 1, 0) -
					 series_at(ser, 0, 0) : 0.0);
				series_free(ser);
			}
			s->err = keep;	/* a foreign file is skipped */
		}
		free(ents[i]);
	}
	free(ents);
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	return 0;
}

static void num(struct tbl *t, double v)
{
	if (isnan(v))
		tbl_null(t);
	else
		tbl_strf(t, "%.6g", v);
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
	int rc = load(s, argv[0], &ser);

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
		num(&t, lo);
		num(&t, n ? sum / (double)n : NAN);
		num(&t, hi);
	}
	if (!s->out.json)
		fprintf(s->out.fp, "series %s: %zu points\n", ser->name,
			ser->nrows);
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	series_free(ser);
	return 0;
}

static int cmd_series_export(struct session *s, int argc, char **argv)
{
	struct series *ser;
	int rc = load(s, argv[0], &ser);

	(void)argc;
	if (rc)
		return rc;
	rc = series_write_csv(ser, argv[1], &s->err);
	if (!rc && !s->out.json)
		fprintf(s->out.fp, "%zu points written to %s\n", ser->nrows,
			argv[1]);
	series_free(ser);
	return rc;
}

static int cmd_series_drop(struct session *s, int argc, char **argv)
{
	static const char *const exts[] = { "json", "plot.dat", "plot.gp",
					    "hist.dat", "hist.gp",
					    "scatter.dat", "scatter.gp" };
	char path[4200];
	size_t i;
	int rc = series_path(s, argv[0], "csv", path, sizeof(path));

	(void)argc;
	if (rc)
		return rc;
	if (unlink(path))
		return pcb_error(&s->err, PCB_E_NOENT, "no series '%s'",
				 argv[0]);
	/* its metadata and plot files go with it */
	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		series_path(s, argv[0], exts[i], path, sizeof(path));
		unlink(path);
	}
	if (!s->out.json)
		fprintf(s->out.fp, "series %s dropped\n", argv[0]);
	return 0;
}

/* A JSON number with 6 significant digits, or null when missing. */
static void out_real(struct out *o, const char *key, double v)
{
	char t[32];

	if (isnan(v)) {
		out_null(o, key);
		return;
	}
	snprintf(t, sizeof(t), "%.6g", v);
	out_num(o, key, t);
}

/* One column as a vector. */
static double *column(const struct series *ser, size_t c)
{
	double *v = malloc(ser->nrows * sizeof(double) + 1);
	size_t r;

	for (r = 0; v && r < ser->nrows; r++)
		v[r] = series_at(ser, r, c);
	return v;
}

static int corr_pair(struct session *s, const struct series *ser, int a,
		     int b, int maxlag)
{
	double *x = column(ser, (size_t)a), *y = column(ser, (size_t)b);
	double pr, sr, lr = NAN;
	size_t n, n2;
	int lag = 0;

	if (!x || !y) {
		free(x);
		free(y);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	pr = series_pearson(x, y, ser->nrows, &n);
	sr = series_spearman(x, y, ser->nrows, &n2);
	if (maxlag)
		lag = series_best_lag(x, y, ser->nrows, maxlag, &lr);
	if (s->out.json) {
		out_obj_begin(&s->out, NULL);
		out_str(&s->out, "x", ser->cols[a].name);
		out_str(&s->out, "y", ser->cols[b].name);
		out_u64(&s->out, "points", n);
		out_real(&s->out, "pearson", pr);
		out_real(&s->out, "spearman", sr);
		if (maxlag) {
			out_i64(&s->out, "best_lag", lag);
			out_real(&s->out, "r_at_lag", lr);
		}
		out_obj_end(&s->out);
	} else {
		fprintf(s->out.fp, "%s ~ %s over %zu points: pearson %.4f, "
			"spearman %.4f", ser->cols[a].name, ser->cols[b].name, n,
			pr, sr);
		if (maxlag)
			fprintf(s->out.fp, "; best lag %d intervals (r %.4f)",
				lag, lr);
		fputc('\n', s->out.fp);
	}
	free(x);
	free(y);
	return 0;
}

int cmd_corr(struct session *s, int argc, char **argv)
{
	static const char *const main_cols[] = {
		"avg_rtt", "max_rtt", "cnp_handled", "cnp_sent", "ecn_marked",
		"rx_gbps", "pauses", "drops", "hai", "dec", NULL };
	struct series *ser;
	int a, b, maxlag = 0, rc;
	char *end;

	if (argc == 2 || argc == 4 || argc > 5)
		return pcb_error(&s->err, PCB_E_USAGE, "usage: corr NAME [X Y "
				 "[lag MAX]]");
	if (argc == 5) {
		long l = strtol(argv[4], &end, 10);

		if (strcmp(argv[3], "lag") || *end || l < 0 || l > 10000)
			return pcb_error(&s->err, PCB_E_USAGE, "usage: corr "
					 "NAME X Y [lag MAX] (MAX 0..10000)");
		maxlag = (int)l;
	}
	rc = load(s, argv[0], &ser);
	if (rc)
		return rc;
	if (argc >= 3) {
		a = series_col(ser, argv[1]);
		b = series_col(ser, argv[2]);
		if (a < 0 || b < 0)
			rc = pcb_error(&s->err, PCB_E_NOENT, "series %s has no "
				       "column '%s'", argv[0],
				       argv[a < 0 ? 1 : 2]);
		else
			rc = corr_pair(s, ser, a, b, maxlag);
	} else {
		/* the matrix of the main columns that hold data */
		double *vec[16] = { NULL };
		int idx[16], k = 0, i, j;

		for (i = 0; main_cols[i]; i++) {
			int c = series_col(ser, main_cols[i]);
			size_t r, n = 0;

			for (r = 0; c >= 0 && r < ser->nrows; r++)
				n += !isnan(series_at(ser, r, (size_t)c));
			if (c >= 0 && n >= 3) {
				idx[k] = c;
				vec[k] = column(ser, (size_t)c);
				if (!vec[k++])
					rc = pcb_error(&s->err, PCB_E_NOMEM,
						       "out of memory");
			}
		}
		if (s->out.json)
			out_arr_begin(&s->out, NULL);
		else {
			fprintf(s->out.fp, "%-12s", "pearson");
			for (j = 0; j < k; j++)
				fprintf(s->out.fp, " %11.11s",
					ser->cols[idx[j]].name);
			fputc('\n', s->out.fp);
		}
		for (i = 0; i < k && !rc; i++) {
			if (!s->out.json)
				fprintf(s->out.fp, "%-12s",
					ser->cols[idx[i]].name);
			for (j = 0; j < k; j++) {
				size_t n;
				double r = series_pearson(vec[i], vec[j],
							  ser->nrows, &n);

				if (s->out.json && j > i) {
					out_obj_begin(&s->out, NULL);
					out_str(&s->out, "x",
						ser->cols[idx[i]].name);
					out_str(&s->out, "y",
						ser->cols[idx[j]].name);
					out_real(&s->out, "pearson", r);
					out_obj_end(&s->out);
				} else if (!s->out.json) {
					fprintf(s->out.fp, " %11.3f", r);
				}
			}
			if (!s->out.json)
				fputc('\n', s->out.fp);
		}
		if (s->out.json)
			out_arr_end(&s->out);
		for (i = 0; i < k; i++)
			free(vec[i]);
	}
	series_free(ser);
	return rc;
}

const struct cmd_row cmd_series_verbs[] = {
	{ "list", cmd_series_list, NULL, 0, 0, "", "recorded series",
	  "series list", CMD_DEFAULT },
	{ "show", cmd_series_show, NULL, 1, 1, "NAME",
	  "each column: unit, points, missing, min, mean, max",
	  "series show rec1", 0 },
	{ "export", cmd_series_export, NULL, 2, 2, "NAME FILE.csv",
	  "the series as CSV (RFC 4180, header with units)",
	  "series export rec1 /tmp/rec1.csv", 0 },
	{ "drop", cmd_series_drop, NULL, 1, 1, "NAME", "delete a series",
	  "series drop rec1", 0 },
	{ NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, 0 }
};


/* ---- plot --------------------------------------------------------------- */

/* A gnuplot single-quoted string: '' stands for a quote. */
static void gp_str(char *b, size_t len, const char *s)
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
	const char *to = NULL, *prog = getenv("PCCBENCH_GNUPLOT");
	struct series *ser;
	struct run_result res;
	char *gargv[2];
	bool hist = false, svg = false;
	int sx = -1, sy = -1;
	double rval = NAN, fa = 0, fb = 0;
	int i, k, n = 0, bin0 = -1, nbins = 0, w, h, rc;
	size_t len, r;
	FILE *fp;

	rc = load(s, argv[0], &ser);
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
		double *x = column(ser, (size_t)sx), *y = column(ser,
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
		rc = series_path(s, argv[0], hist ? "hist.dat" : sx >= 0 ?
				 "scatter.dat" : "plot.dat", dat, sizeof(dat));
	if (!rc)
		rc = series_path(s, argv[0], hist ? "hist.gp" : sx >= 0 ?
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
	/* the script: built in memory, saved beside the data so it renders
	 * anywhere, and fed to gnuplot on stdin */
	fp = open_memstream(&script, &len);
	if (!fp) {
		series_free(ser);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	k = hist || sx >= 0;	/* one panel of 600 px */
	if (!to)
		fprintf(fp, "set terminal dumb size %d,%d\n", w,
			k ? h : (h > 12 * n ? 12 * n : h));
	else if (svg)
		fprintf(fp, "set terminal svg size 1200,%d dynamic\n",
			k ? 600 : 150 + 220 * n);
	else
		fprintf(fp, "set terminal pngcairo size 1200,%d\n",
			k ? 600 : 150 + 220 * n);
	fputs("set termoption noenhanced\n", fp);	/* avg_rtt, not avg subscript rtt */
	if (to) {
		gp_str(q, sizeof(q), to);
		fprintf(fp, "set output %s\n", q);
	}
	gp_str(q, sizeof(q), dat);
	fprintf(fp, "datafile = %s\n", q);
	gp_str(q, sizeof(q), title);
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
			gp_str(q, sizeof(q), lab);
			fprintf(fp, "%cname = %s\n", k ? 'y' : 'x', q);
		}
	} else if (!hist) {
		fprintf(fp, "cols = '%s'\nnames = '%s'\nunits = '%s'\n", cols,
			names, units);
	}
	gp_str(q, sizeof(q), tmpl);
	fprintf(fp, "load %s\n", q);
	if (to)
		fputs("set output\n", fp);
	series_free(ser);
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
