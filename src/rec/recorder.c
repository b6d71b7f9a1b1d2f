/* recorder.c - polling every source of a device into a series. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rec/recorder.h"
#include "tel/diag_ids.h"
#include "units.h"

const struct series_col rec_fixed_cols[REC_C_FIXED] = {
	{ "t", "s" }, { "avg_rtt", "ns" }, { "min_rtt", "ns" },
	{ "max_rtt", "ns" }, { "min_rate", "%" }, { "max_rate", "%" },
	{ "ai", "1/s" }, { "hai", "1/s" }, { "dec", "1/s" },
	{ "hyper_dec", "1/s" }, { "tx_dec", "1/s" }, { "cnp_handled", "1/s" },
	{ "cnp_sent", "1/s" }, { "ecn_marked", "1/s" }, { "rx_gbps", "Gb/s" },
	{ "tx_gbps", "Gb/s" }, { "pauses", "1/s" }, { "drops", "1/s" },
	{ "pause_rx", "1/s" }, { "pause_tx", "1/s" }, { "adp_retrans", "1/s" },
	{ "adp_retrans_timeouts", "1/s" }, { "slow_restart", "1/s" },
	{ "out_of_sequence", "1/s" }, { "packet_seq_err", "1/s" },
	{ "local_ack_timeout", "1/s" },
};

/* The ZTR-RTT counters a timeline uses, by name. */
static const char *const knames[REC_K_COUNT] = {
	"ZTR_CC_SUM_RTT", "ZTR_CC_NUM_RTT", "ZTR_CC_MIN_RTT", "ZTR_CC_MAX_RTT",
	"ZTR_CC_MIN_RATE", "ZTR_CC_MAX_RATE", "ZTR_CC_AI_INC_COUNTER",
	"ZTR_CC_HAI_INC_COUNTER", "ZTR_CC_DEC_COUNTER",
	"ZTR_CC_HYPER_DEC_COUNTER", "ZTR_CC_TX_DEC_COUNTER",
};

/* Where the device-counter columns come from: the sum of these counters
 * (the kernel's hw_counters and port counters, ethtool's names; the sim
 * device gives the same names), times scale; for bytes the RDMA port's
 * counters first (4-byte words), else ethtool's PHY bytes.  Names of the
 * sim's own (sim_...) add what only a simulated fabric can count.
 */
static const struct {
	const char *names[4];	/* "%d" in a name: every priority 0..7 */
	uint64_t scale;
	const char *alt;	/* when none of names exists */
} hsrc[REC_H_COUNT] = {
	[REC_C_CNP_H - REC_H_FIRST] = { { "rp_cnp_handled" }, 1, NULL },
	[REC_C_CNP_S - REC_H_FIRST] = { { "np_cnp_sent" }, 1, NULL },
	[REC_C_ECN - REC_H_FIRST] = { { "np_ecn_marked_roce_packets" }, 1,
				      NULL },
	[REC_C_RX - REC_H_FIRST] = { { "port_rcv_data" }, 4, "rx_bytes_phy" },
	[REC_C_TX - REC_H_FIRST] = { { "port_xmit_data" }, 4, "tx_bytes_phy" },
	/* + global (802.3x) pauses: aPAUSEMACCtrlFrames, PAUSE opcode only,
	 * so no PFC frame twice; with no priority (not under `prio N`) */
	[REC_C_PAUSES - REC_H_FIRST] = { { "rx_prio%d_pause",
					   "tx_prio%d_pause",
					   "rx_pause_ctrl_phy",
					   "tx_pause_ctrl_phy" }, 1, NULL },
	[REC_C_DROPS - REC_H_FIRST] = { { "rx_discards_phy", "tx_discards_phy",
					  "sim_switch_drops",
					  "sim_link_drops" }, 1, NULL },
	[REC_C_PAUSE_RX - REC_H_FIRST] = { { "rx_prio%d_pause",
					     "rx_pause_ctrl_phy" }, 1, NULL },
	[REC_C_PAUSE_TX - REC_H_FIRST] = { { "tx_prio%d_pause",
					     "tx_pause_ctrl_phy" }, 1, NULL },
	[REC_C_ADP - REC_H_FIRST] = { { "roce_adp_retrans" }, 1, NULL },
	[REC_C_ADP_TO - REC_H_FIRST] = { { "roce_adp_retrans_to" }, 1, NULL },
	[REC_C_SLOW - REC_H_FIRST] = { { "roce_slow_restart" }, 1, NULL },
	[REC_C_OOS - REC_H_FIRST] = { { "out_of_sequence" }, 1, NULL },
	[REC_C_SEQ_ERR - REC_H_FIRST] = { { "packet_seq_err" }, 1, NULL },
	[REC_C_ACK_TO - REC_H_FIRST] = { { "local_ack_timeout_err" }, 1,
					 NULL },
};

/* Is col in the comma-separated list? */
static bool listed(const char *list, const char *col)
{
	size_t n = strlen(col);

	for (; list && *list; list += strcspn(list, ","),
	     list += *list == ',')
		if (!strncmp(list, col, n) && (list[n] == ',' || !list[n]))
			return true;
	return false;
}

/* Does name match pat, whose "%d" stands for a priority: prio, or any of
 * 0..7 when prio < 0?
 */
static bool pat_match(const char *pat, const char *name, int prio)
{
	const char *pc = strstr(pat, "%d");
	size_t n = pc ? (size_t)(pc - pat) : strlen(pat);

	if (!pc)	/* a global pause is no priority's */
		return !strcmp(pat, name) && (prio < 0 ||
					      !strstr(pat, "pause_ctrl"));
	return !strncmp(pat, name, n) && name[n] >= '0' && name[n] <= '7' &&
	       (prio < 0 || name[n] - '0' == prio) && !strcmp(pc + 2,
							       name + n + 1);
}

uint64_t rec_counter_columns(const char *name, int prio, bool alt)
{
	uint64_t mask = 0;
	size_t q, k;

	for (q = 0; q < REC_H_COUNT; q++) {
		bool hit = false;

		if (alt)
			hit = hsrc[q].alt && !strcmp(hsrc[q].alt, name);
		for (k = 0; !alt && k < 4 && hsrc[q].names[k]; k++)
			hit |= pat_match(hsrc[q].names[k], name, prio);
		if (hit)
			mask |= 1ULL << (REC_H_FIRST + q);
	}
	return mask;
}

/* The counters behind each column, found once (and again when the
 * device's set changed: quiet, the device said what changed): index
 * lists in r->hidx (-1 ends a list); a column whose counters all lack
 * takes its alternative.
 */
static void host_map(struct recorder *r, bool quiet)
{
	uint64_t have = 0, alt = 0;
	char missing[512] = "";
	size_t q, i, n[REC_H_COUNT] = { 0 };

	for (q = 0; q < REC_H_COUNT; q++)
		r->hscale[q] = hsrc[q].scale;
	for (i = 0; i < r->ctrs->n; i++) {
		const char *nm = r->ctrs->name(r->ctrs, i);
		uint64_t m = rec_counter_columns(nm, r->prio, false);

		for (q = 0; m && q < REC_H_COUNT; q++)
			if (m >> (REC_H_FIRST + q) & 1 && n[q] < REC_H_MAX - 1)
				r->hidx[q][n[q]++] = (int)i;
		have |= m;
		alt |= rec_counter_columns(nm, r->prio, true);
	}
	for (i = 0; i < r->ctrs->n && (alt & ~have); i++) {
		uint64_t m = rec_counter_columns(r->ctrs->name(r->ctrs, i),
						 r->prio, true) & ~have;

		for (q = 0; m && q < REC_H_COUNT; q++)
			if (m >> (REC_H_FIRST + q) & 1 && !n[q]) {
				r->hidx[q][n[q]++] = (int)i;
				r->hscale[q] = 1;
			}
	}
	for (q = 0; q < REC_H_COUNT; q++) {
		const char *col = rec_fixed_cols[REC_H_FIRST + q].name;
		const char *w = hsrc[q].names[0], *pc = strstr(w, "%d");
		char pn[8];

		r->hidx[q][n[q]] = -1;
		if (n[q] || listed(r->ctrs->unmodeled, col))
			continue;
		/* named as an engineer knows it */
		snprintf(pn, sizeof(pn), r->prio < 0 ? "N" : "%d", r->prio);
		snprintf(missing + strlen(missing), sizeof(missing) -
			 strlen(missing), "%s%s (%.*s%s%s)", *missing ? ", " : "",
			 col, pc ? (int)(pc - w) : (int)strlen(w), w,
			 pc ? pn : "", pc ? pc + 2 : "");
	}
	if (*missing && !quiet)
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

/* Which counters a column sums, by their names (FNV-1a). */
static uint64_t host_key(const struct recorder *r, size_t q)
{
	uint64_t h = 14695981039346656037ULL;
	const char *c;
	int k;

	for (k = 0; r->hidx[q][k] >= 0; k++)
		for (c = r->ctrs->name(r->ctrs, (size_t)r->hidx[q][k]); ;
		     c++) {
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
			if (!*c)
				break;
		}
	return h;
}

/* The last read found the device's set of counters changed (what went
 * is missing there): take the new set and map the columns again.  A
 * column that now sums other counters has no growth across the change
 * (prev missing), never their difference.
 */
static int host_refit(struct recorder *r)
{
	uint64_t key[REC_H_COUNT], *v;
	size_t q;

	for (q = 0; q < REC_H_COUNT; q++)
		key[q] = host_key(r, q);
	if (dev_ctrs(r->s, &r->ctrs))
		return -r->s->err.code;
	v = realloc(r->hvals, (r->ctrs->n ? r->ctrs->n : 1) * sizeof(*v));
	if (!v)
		return pcb_error(&r->s->err, PCB_E_NOMEM, "out of memory");
	r->hvals = v;
	r->hgen = r->ctrs->gen;
	host_map(r, true);
	for (q = 0; q < REC_H_COUNT; q++)
		if (host_key(r, q) != key[q])
			r->prev.host[q] = UINT64_MAX;
	return 0;
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
	if (r->ctrs) {
		rc = r->ctrs->gen != r->hgen ? host_refit(r) : 0;
		if (!rc)
			rc = r->ctrs->read(r->ctrs, r->hvals, &r->s->err);
		if (rc)
			return rc;
		host_sums(r, n->host);
	} else {
		memset(n->host, 0xff, sizeof(n->host));
	}
	if (r->nids) {
		rc = dev_diag_sources(r->s, n->ds);
		if (rc)
			return rc;
	}
	if (n != &r->prev)
		memcpy(n->bins, r->prev.bins, sizeof(n->bins));
	if (r->retx)
		dev_retx_peek(r->s, &r->retx_gen, &cfg, &running, n->bins);
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
	for (i = 0; i < REC_H_COUNT; i++) {	/* the device's counters */
		uint64_t ha = r->prev.host[i], hb = n->host[i];
		double g = ha == UINT64_MAX || hb == UINT64_MAX ? NAN :
			   grow(ha, hb);

		row[REC_H_FIRST + i] = REC_H_FIRST + i == REC_C_RX ||
				       REC_H_FIRST + i == REC_C_TX ?
				       g * 8 / dt / 1e9 : g / dt;
	}
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

/* The device's counters, for the columns from cnp_handled on. */
static void find_ctrs(struct recorder *r)
{
	struct pcb_err keep = r->s->err;

	if (dev_ctrs(r->s, &r->ctrs) ||
	    !(r->hvals = calloc(r->ctrs->n ? r->ctrs->n : 1,
				sizeof(*r->hvals)))) {
		sess_warn(r->s, "record: %s: CNP, ECN, Gb/s, pause, drop and "
			  "retransmission columns stay empty", r->ctrs ?
			  "out of memory" : r->s->err.msg);
		r->s->err = keep;
		r->ctrs = NULL;
		return;
	}
	if (*r->ctrs->warn)
		sess_warn(r->s, "record: %s", r->ctrs->warn);
	r->hgen = r->ctrs->gen;
	host_map(r, false);
}

void rec_close(struct recorder *r)
{
	free(r->hvals);
	r->hvals = NULL;
	r->ctrs = NULL;
}

int rec_open(struct recorder *r, struct session *s, const uint64_t *ids,
	     uint32_t nids, bool clear, int prio)
{
	uint64_t ds[DS_COUNT];
	uint32_t i;
	int rc;

	memset(r, 0, sizeof(*r));
	r->s = s;
	r->clear = clear;
	r->prio = prio;
	rc = sess_device(s);
	if (rc)
		return rc;
	if (nids) {	/* the device says why it has none */
		rc = dev_diag_sources(s, ds);
		if (rc)
			return rc;
	}
	for (i = 0; i < nids; i++) {
		r->idv[i] = ids[i];
		r->ids[i] = diag_dev_source(ids[i]);
		if (r->ids[i] < 0) {
			char nm[96];

			diag_id_name(ids[i], nm, sizeof(nm));
			return pcb_error(&s->err, PCB_E_INVAL, "record: %s does "
					 "not measure %s", s->devname, nm);
		}
	}
	if (nids) {
		rc = dev_diag_watch(s, ids, nids);
		if (rc)
			return rc;
	}
	r->nids = nids;
	rc = find_slot(r);
	if (rc)
		return rc;
	find_ctrs(r);
	r->retx_gen = (size_t)-1;
	dev_retx_peek(s, &r->retx_gen, &r->retx_cfg, &r->retx, r->prev.bins);
	r->nbins = r->retx ? r->retx_cfg.num_bins : 0;
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

int rec_baseline(struct recorder *r)
{
	int rc;

	r->rtt_sum = r->rtt_num = 0;
	r->retx_gen = (size_t)-1;
	r->prev_t = dev_now(r->s);
	rc = read_sources(r, &r->prev);
	r->read_ps = dev_now(r->s) - r->prev_t;
	r->have_prev = !rc;
	return rc;
}

int rec_capture(struct recorder *r, struct series *ser, int64_t dur,
		int64_t every, const char *progress, int64_t *done)
{
	struct session *s = r->s;
	double row[SERIES_MAX_COLS], w0 = pcb_mono_s(), shown_at = 0;
	bool shown = false, tty = progress && isatty(STDERR_FILENO);
	uint64_t k, count = (uint64_t)(dur / every);
	int64_t t0, tprev;
	struct rec_snap n;
	int rc;

	*done = 0;
	r->achieved_ps = 0;
	rc = r->have_prev ? 0 : rec_baseline(r);
	r->have_prev = false;
	if (rc)
		return rc;
	if (r->read_ps > every) {	/* a real NIC's slow backend */
		char a[32], b[32];

		sess_warn(s, "record: one read of %s takes %s, more than the "
			  "interval %s: rows come about %s apart (the times "
			  "are the reads'); ask 'every %s' or more", s->devname,
			  pcb_format_duration(r->read_ps, a, sizeof(a)),
			  pcb_format_duration(every, b, sizeof(b)), a, a);
	}
	t0 = tprev = r->prev_t;	/* intervals start at the baseline */
	for (k = 0; k < count; k++) {
		int64_t tn;
		double w;

		rc = dev_run_until(s, t0 + (int64_t)(k + 1) * every, k == 0);
		if (rc)
			break;
		rc = read_sources(r, &n);
		if (rc)
			break;
		tn = dev_now(s);	/* on a real NIC reads take time */
		*done += every;
		make_row(r, &n, tn / 1e12, (double)(tn - tprev) / 1e12, row);
		tprev = tn;
		if (series_add_row(ser, row)) {
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
			break;
		}
		r->prev = n;
		if (r->on_row)
			r->on_row(r->on_row_ctx, ser);
		w = pcb_mono_s();
		if (tty && w - w0 > 1.0 && (w - shown_at > 0.2 ||
					   k + 1 == count)) {
			fprintf(stderr, "\rrecord %s: %3.0f %% (%.3f of %.3f "
				"ms)", progress, 100.0 * (double)(k + 1) /
				(double)count, *done / 1e9, dur / 1e9);
			shown = true;
			shown_at = w;
		}
	}
	if (shown)
		fputc('\n', stderr);
	if (k)
		r->achieved_ps = (tprev - t0) / (int64_t)k;
	return rc;
}
