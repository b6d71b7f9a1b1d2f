/* recorder.c - polling every source of a device into a series. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rec/recorder.h"
#include "sim/simdev.h"
#include "tel/diag_ids.h"
#include "units.h"

const struct series_col rec_fixed_cols[REC_C_FIXED] = {
	{ "t", "s" }, { "avg_rtt", "ns" }, { "min_rtt", "ns" },
	{ "max_rtt", "ns" }, { "min_rate", "%" }, { "max_rate", "%" },
	{ "ai", "1/s" }, { "hai", "1/s" }, { "dec", "1/s" },
	{ "hyper_dec", "1/s" }, { "tx_dec", "1/s" }, { "cnp_handled", "1/s" },
	{ "cnp_sent", "1/s" }, { "ecn_marked", "1/s" }, { "rx_gbps", "Gb/s" },
	{ "tx_gbps", "Gb/s" }, { "pauses", "1/s" }, { "drops", "1/s" },
};

/* The ZTR-RTT counters a timeline uses, by name. */
static const char *const knames[REC_K_COUNT] = {
	"ZTR_CC_SUM_RTT", "ZTR_CC_NUM_RTT", "ZTR_CC_MIN_RTT", "ZTR_CC_MAX_RTT",
	"ZTR_CC_MIN_RATE", "ZTR_CC_MAX_RATE", "ZTR_CC_AI_INC_COUNTER",
	"ZTR_CC_HAI_INC_COUNTER", "ZTR_CC_DEC_COUNTER",
	"ZTR_CC_HYPER_DEC_COUNTER", "ZTR_CC_TX_DEC_COUNTER",
};

/* Where a real host's timeline columns come from: the sum of these
 * counters (hw_counters, port counters, ethtool names), times scale; for
 * bytes the RDMA port's counters first (4-byte words), else ethtool's
 * PHY bytes.  One vocabulary with the sim's counter names.
 */
static const struct {
	const char *col;
	const char *names[3];	/* "%d" in a name: every priority 0..7 */
	uint64_t scale;
	const char *alt;	/* when none of names exists */
} hsrc[REC_H_COUNT] = {
	[REC_H_CNP_H] = { "cnp_handled", { "rp_cnp_handled" }, 1, NULL },
	[REC_H_CNP_S] = { "cnp_sent", { "np_cnp_sent" }, 1, NULL },
	[REC_H_ECN] = { "ecn_marked", { "np_ecn_marked_roce_packets" }, 1,
			NULL },
	[REC_H_RX_BYTES] = { "rx_gbps", { "port_rcv_data" }, 4,
			     "rx_bytes_phy" },
	[REC_H_TX_BYTES] = { "tx_gbps", { "port_xmit_data" }, 4,
			     "tx_bytes_phy" },
	[REC_H_PAUSES] = { "pauses", { "rx_prio%d_pause", "tx_prio%d_pause" },
			   1, NULL },
	[REC_H_DROPS] = { "drops", { "rx_discards_phy", "tx_discards_phy" },
			  1, NULL },
};

/* The host's counters behind each column, found once: index lists in
 * r->hidx (-1 ends a list).
 */
static void host_map(struct recorder *r)
{
	char missing[256] = "", nm[64];
	size_t q, k, n;
	int p, i;

	for (q = 0; q < REC_H_COUNT; q++) {
		n = 0;
		for (k = 0; k < 3 && hsrc[q].names[k]; k++)
			for (p = 0; p < 8; p++) {
				snprintf(nm, sizeof(nm), hsrc[q].names[k], p);
				i = hostctr_find(r->host, nm);
				if (i >= 0 && n < REC_H_MAX)
					r->hidx[q][n++] = i;
				if (!strchr(hsrc[q].names[k], '%'))
					break;
			}
		r->hscale[q] = hsrc[q].scale;
		if (!n && hsrc[q].alt &&
		    (i = hostctr_find(r->host, hsrc[q].alt)) >= 0) {
			r->hidx[q][n++] = i;
			r->hscale[q] = 1;
		}
		r->hidx[q][n] = -1;
		if (!n) {	/* named as an engineer knows it */
			const char *w = hsrc[q].names[0], *pc = strstr(w, "%d");

			snprintf(missing + strlen(missing), sizeof(missing) -
				 strlen(missing), "%s%s (%.*s%s%s)",
				 *missing ? ", " : "", hsrc[q].col,
				 pc ? (int)(pc - w) : (int)strlen(w), w,
				 pc ? "N" : "", pc ? pc + 2 : "");
		}
	}
	if (*missing)
		sess_warn(r->s, "record: %s has no counter for %s: empty "
			  "columns", r->s->devname, missing);
}

/* The columns' sums from one read; a missing counter makes its sum
 * missing, never a smaller number.
 */
static void host_sums(const struct recorder *r, uint64_t *out)
{
	size_t q;
	int k;

	for (q = 0; q < REC_H_COUNT; q++) {
		uint64_t sum = 0;

		for (k = 0; r->hidx[q][k] >= 0 && sum != UINT64_MAX; k++) {
			uint64_t v = r->hvals[r->hidx[q][k]];

			sum = v == UINT64_MAX ? UINT64_MAX : sum + v;
		}
		out[q] = k == 0 ? UINT64_MAX :
			 sum == UINT64_MAX ? sum : sum * r->hscale[q];
	}
}

static int read_sources(struct recorder *r, struct rec_snap *n)
{
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
	if (r->d && r->d->sim) {
		sim_port_counters(r->d->sim, &n->port);
		if (r->nids)
			simdev_diag_sources(r->d->sim, n->ds);
	} else if (r->host) {
		rc = hostctr_read(r->host, r->hvals, &r->s->err);
		if (rc)
			return rc;
		host_sums(r, n->host);
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

static double pick(const struct recorder *r, const struct rec_snap *n, int k,
		   double scale)
{
	uint32_t v;

	if (r->kidx[k] < 0)
		return NAN;
	v = n->pcc[r->kidx[k]];
	return v ? v * scale : NAN;	/* a gauge never set: missing */
}

static uint64_t growth(const struct recorder *r, const struct rec_snap *n,
		       int k)
{
	return series_delta(r->prev.pcc[r->kidx[k]], n->pcc[r->kidx[k]],
			    UINT32_MAX, r->clear);
}

static double rate(const struct recorder *r, const struct rec_snap *n, int k,
		   double dt)
{
	return r->kidx[k] < 0 ? NAN : (double)growth(r, n, k) / dt;
}

/* A 64-bit counter's growth; a counter that went back (reset by the
 * driver) gives no number.
 */
static double grow(uint64_t a, uint64_t b)
{
	return b >= a ? (double)(b - a) : NAN;
}

/* One row from the interval that ended at `t` (s) and lasted dt. */
static void make_row(struct recorder *r, const struct rec_snap *n, double t,
		     double dt, double *row)
{
	const struct sim_port_counters *a = &r->prev.port, *b = &n->port;
	uint32_t i;

	for (i = 0; i < REC_C_FIXED; i++)
		row[i] = NAN;
	row[REC_C_T] = t;
	if (r->slot >= 0) {
		if (r->kidx[REC_K_SUM] >= 0 && r->kidx[REC_K_NUM] >= 0) {
			uint64_t ds = growth(r, n, REC_K_SUM);
			uint64_t dn = growth(r, n, REC_K_NUM);

			r->rtt_sum += ds;
			r->rtt_num += dn;

			row[REC_C_AVG_RTT] = dn ? (double)ds / (double)dn : NAN;
		}
		row[REC_C_MIN_RTT] = pick(r, n, REC_K_MIN_RTT, 1);
		row[REC_C_MAX_RTT] = pick(r, n, REC_K_MAX_RTT, 1);
		row[REC_C_MIN_RATE] = pick(r, n, REC_K_MIN_RATE,
					   100.0 / (1 << 20));
		row[REC_C_MAX_RATE] = pick(r, n, REC_K_MAX_RATE,
					   100.0 / (1 << 20));
		row[REC_C_AI] = rate(r, n, REC_K_AI, dt);
		row[REC_C_HAI] = rate(r, n, REC_K_HAI, dt);
		row[REC_C_DEC] = rate(r, n, REC_K_DEC, dt);
		row[REC_C_HYPER] = rate(r, n, REC_K_HYPER, dt);
		row[REC_C_TXDEC] = rate(r, n, REC_K_TXDEC, dt);
	}
	if (!r->d) {		/* a real host: its counters' growth */
		static const int col[REC_H_COUNT] = {
			REC_C_CNP_H, REC_C_CNP_S, REC_C_ECN, REC_C_RX, REC_C_TX,
			REC_C_PAUSES, REC_C_DROPS };
		const uint64_t *ha = r->prev.host, *hb = n->host;
		size_t q;

		for (q = 0; r->host && q < REC_H_COUNT; q++) {
			double g = ha[q] == UINT64_MAX || hb[q] == UINT64_MAX ?
				   NAN : grow(ha[q], hb[q]);

			row[col[q]] = q == REC_H_RX_BYTES ||
				      q == REC_H_TX_BYTES ? g * 8 / dt / 1e9 :
				      g / dt;
		}
		return;
	}
	row[REC_C_CNP_H] = grow(a->cnp_handled, b->cnp_handled) / dt;
	row[REC_C_CNP_S] = grow(a->cnp_sent, b->cnp_sent) / dt;
	row[REC_C_ECN] = grow(a->ecn_marked, b->ecn_marked) / dt;
	row[REC_C_RX] = grow(a->rx_bytes, b->rx_bytes) * 8 / dt / 1e9;
	row[REC_C_TX] = grow(a->tx_bytes, b->tx_bytes) * 8 / dt / 1e9;
	row[REC_C_PAUSES] = (double)(b->pause_tx + b->sw_pause_tx -
				     a->pause_tx - a->sw_pause_tx) / dt;
	row[REC_C_DROPS] = (double)(b->drops_nobuf + b->drops_loss -
				    a->drops_nobuf - a->drops_loss) / dt;
	for (i = 0; r->retx && i < r->nbins; i++)
		/* a reader that cleared in between: the bin is the growth */
		row[REC_C_FIXED + i] = (double)(n->bins[i] >= r->prev.bins[i] ?
						n->bins[i] - r->prev.bins[i] :
						n->bins[i]);
	for (i = 0; i < r->nids; i++)	/* data IDs: growth per second */
		row[REC_C_FIXED + r->nbins + i] =
			(double)(n->ds[r->ids[i]] - r->prev.ds[r->ids[i]]) / dt;
}

static int find_slot(struct recorder *r)
{
	struct session *s = r->s;
	struct slot_view *v;
	int k, rc = sess_counters_slot(s, &r->slot);

	for (k = 0; k < REC_K_COUNT; k++)
		r->kidx[k] = -1;
	if (rc || r->slot < 0)
		return rc;
	rc = sess_slot_view(s, (unsigned)r->slot, &v);
	for (k = 0; !rc && k < REC_K_COUNT; k++) {
		size_t j;

		for (j = 0; j < v->ncounters; j++)
			if (!strcmp(v->counters[j].info.name, knames[k]))
				r->kidx[k] = (int)j;
	}
	return rc;
}

/* A real NIC's host counters (hostctr.h), for the port columns. */
static void find_host(struct recorder *r)
{
	struct pcb_err e = { 0 };

	r->host = calloc(1, sizeof(*r->host));
	if (!r->host)
		return;
	if (hostctr_open(r->host, r->s->devname, &e) ||
	    !(r->hvals = calloc(r->host->n, sizeof(*r->hvals)))) {
		sess_warn(r->s, "record: %s: CNP, ECN, Gb/s, pause and drop "
			  "columns stay empty", e.code ? e.msg : "out of memory");
		rec_close(r);
		return;
	}
	host_map(r);
}

void rec_close(struct recorder *r)
{
	if (r->host)
		hostctr_close(r->host);
	free(r->host);
	free(r->hvals);
	r->host = NULL;
	r->hvals = NULL;
}

int rec_open(struct recorder *r, struct session *s, const uint64_t *ids,
	     uint32_t nids, bool clear)
{
	struct retx_cfg cfg;
	bool running = false;
	uint32_t i;
	int rc;

	memset(r, 0, sizeof(*r));
	r->s = s;
	r->clear = clear;
	rc = sess_device(s);
	if (rc)
		return rc;
	if (!(s->dev->ops->caps & REG_CAP_REAL)) {
		struct sim *sim;

		rc = sess_simdev(s, &r->d);
		if (!rc)
			rc = simdev_sim(r->d, &sim, &s->err);
		if (rc)
			return rc;
	} else if (nids) {
		return pcb_error(&s->err, PCB_E_STATE, "record: diag data IDs "
				 "come from DOCA telemetry, which pccbench "
				 "reads on the sim device only");
	} else {
		find_host(r);
	}
	for (i = 0; i < nids; i++) {
		r->idv[i] = ids[i];
		r->ids[i] = diag_dev_source(ids[i]);
		if (r->ids[i] < 0) {
			char nm[96];

			diag_id_name(ids[i], nm, sizeof(nm));
			return pcb_error(&s->err, PCB_E_INVAL, "record: the sim "
					 "device does not measure %s", nm);
		}
	}
	r->nids = nids;
	rc = find_slot(r);
	if (rc)
		return rc;
	if (r->d) {
		retx_dev_peek(r->d->retx, &cfg, &running, r->prev.bins);
		r->retx = running;
		r->nbins = running ? cfg.num_bins : 0;
		r->retx_cfg = cfg;
	}
	if (r->slot < 0)
		sess_warn(s, "record: no slot has the algorithm and counters "
			  "enabled: RTT and rate columns stay empty ('algo "
			  "debug on' enables the ZTR-RTT debug counters)");
	return 0;
}

int rec_columns(struct recorder *r, struct series *ser)
{
	uint32_t i;

	for (i = 0; i < REC_C_FIXED; i++)
		series_add_col(ser, rec_fixed_cols[i].name,
			       rec_fixed_cols[i].unit);
	for (i = 0; i < r->nbins; i++) {
		char col[24];

		snprintf(col, sizeof(col), "retx_bin_%u", i);
		series_add_col(ser, col, "count");
	}
	for (i = 0; i < r->nids; i++) {
		char col[96];

		diag_id_name(r->idv[i], col, sizeof(col));
		if (series_add_col(ser, col, strstr(col, "bytes") ? "B/s" :
				   "1/s"))
			return pcb_error(&r->s->err, PCB_E_INVAL, "record: %s "
					 "given twice", col);
	}
	return 0;
}

static int traffic_check(struct recorder *r)
{
	const char *log = r->traffic_log ? r->traffic_log : "/dev/null";

	if (!r->traffic || !run_bg_done(r->traffic) || !r->traffic->status)
		return 0;
	if (r->traffic->status == 127)
		return pcb_error(&r->s->err, PCB_E_DEVICE, "cannot run traffic "
				 "command '%s' (not found or not executable; "
				 "see %s)", r->traffic->name, log);
	return pcb_error(&r->s->err, PCB_E_DEVICE, "traffic command '%s' "
			 "failed (exit %d); its output is in %s",
			 r->traffic->name, r->traffic->status, log);
}

/* Wait until wall time `until`, in slices that notice an interrupt and a
 * traffic command that failed.
 */
static int wait_until(struct recorder *r, double until)
{
	for (;;) {
		double left = until - pcb_mono_s();
		struct timespec ts;
		int rc = traffic_check(r);

		if (rc)
			return rc;
		if (r->s->stop && *r->s->stop)
			return pcb_error(&r->s->err, PCB_E_INTR,
					 "interrupted");
		if (left <= 0)
			return 0;
		if (left > 0.05)
			left = 0.05;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
}

int rec_wait(struct recorder *r, double seconds)
{
	return wait_until(r, pcb_mono_s() + seconds);
}

int rec_baseline(struct recorder *r)
{
	int rc;

	r->rtt_sum = r->rtt_num = 0;
	r->rto_peeked = (size_t)-1;
	r->prev_w = pcb_mono_s();
	rc = read_sources(r, &r->prev);
	r->have_prev = !rc;
	return rc;
}

int rec_capture(struct recorder *r, struct series *ser, int64_t dur,
		int64_t every, const char *progress, int64_t *done)
{
	struct session *s = r->s;
	double row[SERIES_MAX_COLS], t0, w0, wprev;
	bool shown = false, tty = progress && isatty(STDERR_FILENO);
	uint64_t k, count = (uint64_t)(dur / every);
	struct rec_snap n;
	int rc;

	*done = 0;
	rc = r->have_prev ? 0 : rec_baseline(r);
	r->have_prev = false;
	if (rc)
		return rc;
	w0 = wprev = r->prev_w;	/* intervals start at the baseline */
	t0 = r->d ? sim_now(r->d->sim) / 1e12 : 0;
	for (k = 0; k < count; k++) {
		double dt = every / 1e12, w;

		if (r->d) {
			rc = k ? simdev_run_more(r->d, every, s->stop, &s->err) :
				 simdev_run(r->d, every, s->stop, &s->err);
		} else {
			rc = wait_until(r, w0 + (double)(k + 1) * dt);
		}
		if (rc)
			break;
		rc = read_sources(r, &n);
		if (rc)
			break;
		w = pcb_mono_s();
		if (!r->d)	/* the real interval: reads take time */
			dt = w - wprev;
		wprev = w;
		*done += every;
		make_row(r, &n, r->d ? t0 + *done / 1e12 : w - w0, dt, row);
		if (series_add_row(ser, row)) {
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
			break;
		}
		r->prev = n;
		if (r->on_row)
			r->on_row(r->on_row_ctx, ser);
		if (tty && w - w0 > 1.0 && (k % 64 == 0 || k + 1 == count ||
					   !r->d)) {
			fprintf(stderr, "\rrecord %s: %3.0f %% (%.3f of %.3f "
				"ms)", progress, 100.0 * (double)(k + 1) /
				(double)count, *done / 1e9, dur / 1e9);
			shown = true;
		}
	}
	if (shown)
		fputc('\n', stderr);
	return rc;
}
