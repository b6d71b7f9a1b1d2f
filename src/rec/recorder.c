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
			  "columns", r->d->name, missing);
}

/* Each column's growth since the read before: its counters' growths,
 * each modulo the counter's width (a 32-bit Q-counter wraps: the growth
 * through one wrap is kept while less than half its range, as
 * series_growth takes it), summed and scaled.  A missing counter, or one
 * that went back more than that (a driver reload: reset), makes the
 * column's growth missing, never a smaller or negative number.
 */
static void host_growth(const struct recorder *r, double *out)
{
	size_t q;
	int k;

	for (q = 0; q < REC_H_COUNT; q++) {
		double sum = 0;

		for (k = 0; r->hidx[q][k] >= 0 && !isnan(sum); k++) {
			size_t i = (size_t)r->hidx[q][k];
			uint64_t a = r->hprev[i], b = r->hvals[i], g;
			uint64_t max = r->ctrs->max ? r->ctrs->max(r->ctrs, i) :
				       UINT64_MAX;

			if (a == UINT64_MAX || b == UINT64_MAX)
				sum = NAN;
			else if (b >= a)
				sum += (double)(b - a);
			else if (max < UINT64_MAX && a <= max && b <= max &&
				 series_growth(a, b, max, false, 0, INFINITY,
					       &g) >= 0)
				sum += (double)g;	/* wrapped */
			else
				sum = NAN;		/* reset */
		}
		out[q] = k == 0 ? NAN : sum * (double)r->hscale[q];
	}
}

/* A counter's name as a number (FNV-1a), to find it again in a new set. */
static uint64_t name_hash(const char *c)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	return h;
}

/* The last read found the device's set of counters changed (what went
 * is missing there): take the new set and map the columns again.  Each
 * counter still there keeps its read before, found by its name; a new
 * one has none (missing), so a column summing it has no growth across
 * the change, never another counter's difference.
 */
static int host_refit(struct recorder *r)
{
	size_t on = r->ctrs->n, n, i, j;
	uint64_t *okey = calloc(on ? on : 1, sizeof(*okey));
	uint64_t *v = NULL, *p = NULL;
	int rc = 0;

	if (!okey)
		return pcb_error(&r->s->err, PCB_E_NOMEM, "out of memory");
	for (i = 0; i < on; i++)
		okey[i] = name_hash(r->ctrs->name(r->ctrs, i));
	if (dev_ctrs(r->d, &r->ctrs)) {
		free(okey);
		return -r->s->err.code;
	}
	n = r->ctrs->n;
	v = calloc(n ? n : 1, sizeof(*v));
	p = calloc(n ? n : 1, sizeof(*p));
	if (!v || !p) {
		rc = pcb_error(&r->s->err, PCB_E_NOMEM, "out of memory");
		goto out_free;
	}
	for (i = 0; i < n; i++) {
		uint64_t k = name_hash(r->ctrs->name(r->ctrs, i));

		p[i] = UINT64_MAX;	/* new: no read before */
		for (j = 0; j < on; j++)
			if (okey[j] == k) {
				p[i] = r->hprev[j];
				break;
			}
	}
	free(r->hvals);
	free(r->hprev);
	r->hvals = v;
	r->hprev = p;
	v = p = NULL;
	r->hgen = r->ctrs->gen;
	host_map(r, true);
out_free:
	free(v);
	free(p);
	free(okey);
	return rc;
}

static int read_sources(struct recorder *r, struct rec_snap *n)
{
	struct retx_cfg cfg;
	bool running;
	size_t got, i;
	int rc;

	memset(n, 0, sizeof(*n));
	if (r->slot >= 0) {
		rc = dev_pcc_counters(r->d, (unsigned)r->slot, r->clear,
				      n->pcc, ALGO_MAX_COUNTERS, &got);
		if (rc)
			return rc;
	}
	for (i = 0; i < REC_H_COUNT; i++)
		n->host[i] = NAN;
	if (r->ctrs) {
		rc = r->ctrs->gen != r->hgen ? host_refit(r) : 0;
		if (!rc)
			rc = r->ctrs->read(r->ctrs, r->hvals, &r->s->err);
		if (rc)
			return rc;
		if (n != &r->prev)	/* an interval: since the read before */
			host_growth(r, n->host);
		memcpy(r->hprev, r->hvals, r->ctrs->n * sizeof(*r->hvals));
	}
	if (r->nids) {
		rc = dev_diag_sources(r->d, n->ds);
		if (rc)
			return rc;
	}
	if (n != &r->prev)
		memcpy(n->bins, r->prev.bins, sizeof(n->bins));
	if (r->retx)
		dev_retx_peek(r->d, &r->retx_gen, &cfg, &running, n->bins);
	return 0;
}

/* A gauge (MIN_/MAX_RTT, _RATE) as the interval's own extreme.  Read
 * and cleared every interval, the read is it.  Else the device keeps it
 * since its last clear, and it is the interval's only where the interval
 * set a new extreme (a max that grew, a min that fell or was first set):
 * otherwise the interval's is unknown (below the max kept), so missing,
 * never the stale value of an earlier run.
 */
static double gauge(struct recorder *r, const struct rec_snap *n, int k,
		    bool max, double scale)
{
	uint32_t v, was;

	if (r->kidx[k] < 0)
		return NAN;
	v = n->pcc[r->kidx[k]];
	was = r->prev.pcc[r->kidx[k]];
	if (!v)
		return NAN;	/* a gauge never set */
	if (r->clear || (max ? v > was : !was || v < was))
		return v * scale;
	if (!(r->unsure >> REC_C_MIN_RTT & 1))	/* said once, for all */
		sess_warn(r->s, "record: %s%smin_rtt, max_rtt, min_rate, "
			  "max_rate have a value only in the intervals that "
			  "set a new extreme (first missing at t %.6f s): the "
			  "device keeps them since its last clear; 'clear on' "
			  "reads and clears them every interval", r->prefix,
			  *r->prefix ? "." : "", dev_now(r->d) / 1e12);
	r->unsure |= 1u << REC_C_MIN_RTT;
	return NAN;
}

/* The growth of counter k over the interval, in [lo, hi] when the
 * caller knows bounds (hi = INFINITY: none); NAN when the interval was
 * too long to be sure how often it wrapped, said once per column.
 */
static double growth(struct recorder *r, const struct rec_snap *n, int k,
		     int col, double lo, double hi, double dt)
{
	uint64_t g;

	if (series_growth(r->prev.pcc[r->kidx[k]], n->pcc[r->kidx[k]],
			  r->kmax[k], r->clear, lo, hi, &g) >= 0)
		return (double)g;
	if (!(r->unsure >> col & 1))
		sess_warn(r->s, "record: %s%s%s missing from t %.6f s: %s "
			  "(wraps past %u) may have wrapped more than once in "
			  "that %.6f s interval; a shorter 'every' keeps it "
			  "sure", r->prefix, *r->prefix ? "." : "",
			  rec_fixed_cols[col].name, dev_now(r->d) / 1e12,
			  knames[k], r->kmax[k], dt);
	r->unsure |= 1u << col;
	return NAN;
}

static double rate(struct recorder *r, const struct rec_snap *n, int k,
		   int col, double dt)
{
	return r->kidx[k] < 0 ? NAN :
	       growth(r, n, k, col, 0, INFINITY, dt) / dt;
}

/* The average RTT of the interval: the growth of SUM_RTT over that of
 * NUM_RTT.  Every sample lies between the MIN_RTT and MAX_RTT gauges
 * (the interval's, or since the clear: wider), so SUM_RTT grew by
 * between NUM's growth times each: bounds that place its wraps.
 */
static double avg_rtt(struct recorder *r, const struct rec_snap *n,
		      double dt)
{
	double dn, ds, lo = 0, hi = INFINITY;

	dn = growth(r, n, REC_K_NUM, REC_C_AVG_RTT, 0, INFINITY, dt);
	if (isnan(dn)) {
		r->rtt_unsure = true;
		return NAN;
	}
	if (r->kidx[REC_K_MIN_RTT] >= 0)
		lo = dn * n->pcc[r->kidx[REC_K_MIN_RTT]];
	if (r->kidx[REC_K_MAX_RTT] >= 0 && n->pcc[r->kidx[REC_K_MAX_RTT]])
		hi = dn * n->pcc[r->kidx[REC_K_MAX_RTT]];
	ds = growth(r, n, REC_K_SUM, REC_C_AVG_RTT, lo, hi, dt);
	if (isnan(ds)) {
		r->rtt_unsure = true;
		return NAN;
	}
	r->rtt_sum += (uint64_t)ds;
	r->rtt_num += (uint64_t)dn;
	return dn ? ds / dn : NAN;
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
		if (r->kidx[REC_K_SUM] >= 0 && r->kidx[REC_K_NUM] >= 0)
			row[REC_C_AVG_RTT] = avg_rtt(r, n, dt);
		row[REC_C_MIN_RTT] = gauge(r, n, REC_K_MIN_RTT, false, 1);
		row[REC_C_MAX_RTT] = gauge(r, n, REC_K_MAX_RTT, true, 1);
		row[REC_C_MIN_RATE] = gauge(r, n, REC_K_MIN_RATE, false,
					    100.0 / (1 << 20));
		row[REC_C_MAX_RATE] = gauge(r, n, REC_K_MAX_RATE, true,
					    100.0 / (1 << 20));
		row[REC_C_AI] = rate(r, n, REC_K_AI, REC_C_AI, dt);
		row[REC_C_HAI] = rate(r, n, REC_K_HAI, REC_C_HAI, dt);
		row[REC_C_DEC] = rate(r, n, REC_K_DEC, REC_C_DEC, dt);
		row[REC_C_HYPER] = rate(r, n, REC_K_HYPER, REC_C_HYPER, dt);
		row[REC_C_TXDEC] = rate(r, n, REC_K_TXDEC, REC_C_TXDEC, dt);
	}
	for (i = 0; i < REC_H_COUNT; i++) {	/* the device's counters */
		double g = n->host[i];

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

/* The slot views are the session's of its current device: r's device
 * is current while they are read.
 */
static int find_slot(struct recorder *r)
{
	struct session *s = r->s;
	struct device *cur = s->cur;
	struct slot_view *v;
	int k, rc;

	s->cur = r->d;
	rc = sess_counters_slot(s, &r->slot);
	for (k = 0; k < REC_K_COUNT; k++)
		r->kidx[k] = -1;
	if (!rc && r->slot >= 0)
		rc = sess_slot_view(s, (unsigned)r->slot, &v);
	s->cur = cur;
	if (rc || r->slot < 0)
		return rc;
	for (k = 0; !rc && k < REC_K_COUNT; k++) {
		size_t j;

		for (j = 0; j < v->ncounters; j++)
			if (!strcmp(v->counters[j].info.name, knames[k])) {
				r->kidx[k] = (int)j;
				r->kmax[k] = v->counters[j].info.max ?
					     v->counters[j].info.max :
					     UINT32_MAX;
			}
	}
	return rc;
}

/* The device's counters, for the columns from cnp_handled on. */
static void find_ctrs(struct recorder *r)
{
	struct pcb_err keep = r->s->err;

	if (dev_ctrs(r->d, &r->ctrs) ||
	    !(r->hvals = calloc(r->ctrs->n ? r->ctrs->n : 1,
				sizeof(*r->hvals))) ||
	    !(r->hprev = calloc(r->ctrs->n ? r->ctrs->n : 1,
				sizeof(*r->hprev)))) {
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
	free(r->hprev);
	r->hvals = NULL;
	r->hprev = NULL;
	r->ctrs = NULL;
}

int rec_open(struct recorder *r, struct session *s, const uint64_t *ids,
	     uint32_t nids, bool clear, int prio)
{
	return rec_open_dev(r, s, s->cur, NULL, ids, nids, clear, prio);
}

int rec_open_dev(struct recorder *r, struct session *s, struct device *d,
		 const char *prefix, const uint64_t *ids, uint32_t nids,
		 bool clear, int prio)
{
	uint64_t ds[DS_COUNT];
	uint32_t i;
	int rc;

	memset(r, 0, sizeof(*r));
	r->s = s;
	r->d = d;
	snprintf(r->prefix, sizeof(r->prefix), "%s", prefix ? prefix : "");
	r->clear = clear;
	r->prio = prio;
	rc = dev_open(d);
	if (rc)
		return rc;
	if (nids) {	/* the device says why it has none */
		rc = dev_diag_sources(d, ds);
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
					 "not measure %s", d->name, nm);
		}
	}
	if (nids) {
		rc = dev_diag_watch(d, ids, nids);
		if (rc)
			return rc;
	}
	r->nids = nids;
	rc = find_slot(r);
	if (rc)
		return rc;
	find_ctrs(r);
	r->retx_gen = (size_t)-1;
	dev_retx_peek(d, &r->retx_gen, &r->retx_cfg, &r->retx, r->prev.bins);
	r->nbins = r->retx ? r->retx_cfg.num_bins : 0;
	if (r->slot < 0)
		sess_warn(s,
			  "record: %s%sno slot has the algorithm and counters "
			  "enabled: RTT and rate columns stay empty ('algo "
			  "debug on' enables the ZTR-RTT debug counters)",
			  *r->prefix ? d->name : "", *r->prefix ? ": " : "");
	return 0;
}

/* The columns r adds to a row (t only when it has no prefix). */
static size_t rec_ncols(const struct recorder *r)
{
	return REC_C_FIXED + r->nbins + r->nids - (*r->prefix ? 1 : 0);
}

/* A column: PREFIX.name when r has a prefix (one device of several). */
static int add_col(struct recorder *r, struct series *ser, const char *name,
		   const char *unit)
{
	char col[96];

	if (!*r->prefix)
		return series_add_col(ser, name, unit);
	snprintf(col, sizeof(col), "%s.%s", r->prefix, name);
	if (!series_name_ok(col))
		return pcb_error(&r->s->err, PCB_E_INVAL, "record: column %s "
				 "is too long (39 characters at most)", col);
	if (series_add_col(ser, col, unit))
		return pcb_error(&r->s->err, PCB_E_INVAL, "record: %s given "
				 "twice", col);
	return 0;
}

int rec_columns(struct recorder *r, struct series *ser)
{
	uint32_t i;

	for (i = *r->prefix ? 1 : 0; i < REC_C_FIXED; i++) {
		char u[48];

		/* a sum over NICs (the sim's fabric) says so in its unit
		 * ("Gb/s_sum17nic"): no port's own, it may pass a port's
		 * line rate */
		snprintf(u, sizeof(u), "%s", rec_fixed_cols[i].unit);
		if (i >= REC_H_FIRST && r->ctrs && r->ctrs->nics > 1)
			snprintf(u, sizeof(u), "%s_sum%unic",
				 rec_fixed_cols[i].unit, r->ctrs->nics);
		if (!series_unit_ok(u))		/* too long: the count out */
			snprintf(u, sizeof(u), "%s_sumnic",
				 rec_fixed_cols[i].unit);
		if (*r->prefix && add_col(r, ser, rec_fixed_cols[i].name, u))
			return -r->s->err.code;
		if (!*r->prefix)
			series_add_col(ser, rec_fixed_cols[i].name, u);
	}
	for (i = 0; i < r->nbins; i++) {
		char col[24];

		snprintf(col, sizeof(col), "retx_bin_%u", i);
		if (*r->prefix && add_col(r, ser, col, "count"))
			return -r->s->err.code;
		if (!*r->prefix)
			series_add_col(ser, col, "count");
	}
	for (i = 0; i < r->nids; i++) {
		char col[96];

		diag_id_name(r->idv[i], col, sizeof(col));
		if (*r->prefix) {
			if (add_col(r, ser, col, strstr(col, "bytes") ?
				    "B/s" : "1/s"))
				return -r->s->err.code;
		} else if (series_add_col(ser, col, strstr(col, "bytes") ?
					  "B/s" : "1/s")) {
			return pcb_error(&r->s->err, PCB_E_INVAL, "record: %s "
					 "given twice", col);
		}
	}
	return 0;
}

int rec_baseline(struct recorder *r)
{
	int64_t w0;
	int rc;

	r->rtt_sum = r->rtt_num = 0;
	r->rtt_unsure = false;
	r->retx_gen = (size_t)-1;
	r->prev_t = dev_now(r->d);
	w0 = pcb_wall_ns();
	rc = read_sources(r, &r->prev);
	r->read_ps = dev_now(r->d) - r->prev_t;
	r->wall0 = w0 + (pcb_wall_ns() - w0) / 2;
	r->have_prev = !rc;
	return rc;
}

int rec_capture(struct recorder *r, struct series *ser, int64_t dur,
		int64_t every, const char *progress, int64_t *done)
{
	return rec_capture_n(&r, 1, ser, dur, every, progress, done);
}

/* One row of several recorders: t, then each one's columns. */
static void make_rows(struct recorder **rs, size_t nr,
		      const struct rec_snap *n, double t, double dt,
		      double *row)
{
	double one[SERIES_MAX_COLS];
	size_t j, off = 1;

	if (nr == 1 && !*rs[0]->prefix) {
		make_row(rs[0], &n[0], t, dt, row);
		return;
	}
	row[0] = t;
	for (j = 0; j < nr; j++) {
		size_t c = rec_ncols(rs[j]);

		make_row(rs[j], &n[j], t, dt, one);
		if (off + c > SERIES_MAX_COLS)
			break;
		memcpy(row + off, one + 1, c * sizeof(*row));
		off += c;
	}
}

int rec_capture_n(struct recorder **rs, size_t nr, struct series *ser,
		  int64_t dur, int64_t every, const char *progress,
		  int64_t *done)
{
	struct recorder *r = rs[0];
	struct session *s = r->s;
	double row[SERIES_MAX_COLS], w0 = pcb_mono_s(), shown_at = 0;
	bool shown = false, tty = progress && isatty(STDERR_FILENO);
	uint64_t k, count = (uint64_t)(dur / every);
	int64_t t0, tprev;
	struct rec_snap *n = calloc(nr, sizeof(*n));
	size_t j;
	int rc = 0;

	*done = 0;
	if (!n)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	for (j = 0; !rc && j < nr; j++) {
		rs[j]->achieved_ps = 0;
		rc = rs[j]->have_prev ? 0 : rec_baseline(rs[j]);
		rs[j]->have_prev = false;
	}
	if (rc) {
		free(n);
		return rc;
	}
	if (r->read_ps > every) {	/* a real NIC's slow backend */
		char a[32], b[32];

		sess_warn(s, "record: one read of %s takes %s, more than the "
			  "interval %s: rows come about %s apart (the times "
			  "are the reads'); ask 'every %s' or more", r->d->name,
			  pcb_format_duration(r->read_ps, a, sizeof(a)),
			  pcb_format_duration(every, b, sizeof(b)), a, a);
	}
	t0 = tprev = r->prev_t;	/* intervals start at the baseline */
	for (k = 0; k < count; k++) {
		int64_t tn, wr;
		double w;

		/* one clock: run once, then read every device */
		rc = dev_run_until(r->d, t0 + (int64_t)(k + 1) * every, k == 0);
		if (rc)
			break;
		/* the row's wall-clock time: the midpoint of its reads */
		wr = pcb_wall_ns();
		for (j = 0; !rc && j < nr; j++)
			rc = read_sources(rs[j], &n[j]);
		if (rc)
			break;
		wr += (pcb_wall_ns() - wr) / 2;
		tn = dev_now(r->d);	/* on a real NIC reads take time */
		*done += every;
		make_rows(rs, nr, n, tn / 1e12, (double)(tn - tprev) / 1e12,
			  row);
		tprev = tn;
		if (series_add_row_wall(ser, row, wr)) {
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
			break;
		}
		for (j = 0; j < nr; j++)
			rs[j]->prev = n[j];
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
	free(n);
	return rc;
}
