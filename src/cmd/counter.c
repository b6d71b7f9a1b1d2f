/* counter.c - `counter`: the algorithm counters of the slot holding them. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "fxp.h"
#include "device.h"
#include "host/hostctr.h"
#include "rec/series.h"

/* The slot with counter_en, or the one named. */
static int counter_slot(struct session *s, int argc, char **argv,
			unsigned *slot, struct slot_view **v)
{
	int rc, found;

	if (argc == 1) {
		rc = cmd_parse_slot(s, argv[0], slot);
		if (!rc)
			rc = sess_slot_view(s, *slot, v);
		return rc;
	}
	rc = sess_counters_slot(s, &found);
	if (rc)
		return rc;
	if (found >= 0) {
		*slot = (unsigned)found;
		return sess_slot_view(s, *slot, v);
	}
	return pcb_error(&s->err, PCB_E_STATE,
			 "counters are not enabled on any slot; 'algo debug "
			 "on' enables the ZTR-RTT debug counters");
}

static int find_counter(const struct slot_view *v, const char *suffix)
{
	size_t i, l = strlen(suffix);

	for (i = 0; i < v->ncounters; i++) {
		size_t n = strlen(v->counters[i].info.name);

		if (n >= l && !strcmp(v->counters[i].info.name + n - l,
				      suffix))
			return (int)i;
	}
	return -1;
}

/* The counters an average RTT is made of. */
struct rtt_idx {
	int sum, num, min, max;
};

/* A counter's largest value, as counter info reports it. */
static uint64_t cmax(const struct slot_view *v, int i)
{
	return v->counters[i].info.max ? v->counters[i].info.max : UINT32_MAX;
}

/* The average RTT between two reads of the counters (prev NULL: since
 * the clear, from 0): the growth of SUM_RTT over that of NUM_RTT, each
 * modulo its width (counter info's max).  Every sample lies between the
 * MIN_RTT and MAX_RTT gauges, so SUM_RTT's growth lies between NUM_RTT's
 * times each: bounds that place its wraps (series_growth).  Returns the
 * wraps placed, or -1 when SUM_RTT may have wrapped an unknown number of
 * times; *num the samples (0: no average).
 */
static int rtt_avg(const struct slot_view *v, const struct rtt_idx *x,
		   const uint32_t *prev, const uint32_t *cur, double *avg,
		   uint64_t *num)
{
	uint64_t ds, dn;
	double lo = 0, hi = INFINITY;
	int k;

	if (series_growth(prev ? prev[x->num] : 0, cur[x->num],
			  cmax(v, x->num), false, 0, INFINITY,
			  &dn) < 0)
		return -1;
	if (x->min >= 0)
		lo = (double)dn * cur[x->min];
	if (x->max >= 0 && cur[x->max])
		hi = (double)dn * cur[x->max];
	k = series_growth(prev ? prev[x->sum] : 0, cur[x->sum],
			  cmax(v, x->sum), false, lo, hi, &ds);
	*num = dn;
	if (k >= 0)
		*avg = dn ? (double)ds / (double)dn : NAN;
	return k;
}

/* The average RTT of `counter show`: the algorithm's own RTT samples,
 * each weighing alike, since the counters were cleared, and since the
 * last `counter show` of this session (or `counter clear`) when there
 * was one.  Unknown when SUM_RTT may have wrapped, said in words.
 */
static void show_rtt(struct session *s, const struct slot_view *v,
		     const struct rtt_idx *x, const uint32_t *vals,
		     unsigned slot)
{
	const struct device *d = s->cur;
	const uint32_t *prev = d->ctr_prev && d->ctr_prev_slot == slot ?
			       d->ctr_prev : NULL;
	const char *sum = v->counters[x->sum].info.name;
	uint64_t n = 0, pn = 0;
	double a = NAN, pa = NAN;
	int k, pk = -1;
	char b[32];

	k = rtt_avg(v, x, NULL, vals, &a, &n);
	if (prev)
		pk = rtt_avg(v, x, prev, vals, &pa, &pn);
	if (pk >= 0 && !pn)
		prev = NULL;	/* nothing new since the last look */
	if (s->out.json) {
		snprintf(b, sizeof(b), "%.1f", a);
		if (k >= 0 && n)
			out_num(&s->out, "avg_rtt_ns", b);
		else
			out_null(&s->out, "avg_rtt_ns");
		out_u64(&s->out, "avg_rtt_samples", n);
		out_str(&s->out, "avg_rtt_of", "the algorithm's RTT samples "
			"since the counters were cleared, each alike");
		if (k > 0)
			out_u64(&s->out, "sum_rtt_wraps", (uint64_t)k);
		if (k < 0)
			out_str(&s->out, "avg_rtt_unknown", "SUM_RTT may have "
				"wrapped");
		if (prev) {
			snprintf(b, sizeof(b), "%.1f", pa);
			if (pk >= 0 && pn)
				out_num(&s->out, "avg_rtt_since_last_ns", b);
			else
				out_null(&s->out, "avg_rtt_since_last_ns");
			out_u64(&s->out, "avg_rtt_since_last_samples", pn);
		}
		return;
	}
	if (k < 0)
		fprintf(s->out.fp, "avg RTT since the clear: unknown: %s "
			"(wraps past %" PRIu64 " ns) may have wrapped more often "
			"than MIN_RTT..MAX_RTT can tell\n", sum, cmax(v, x->sum));
	else if (!n)
		fprintf(s->out.fp, "avg RTT: - (no RTT samples since the "
			"clear)\n");
	else
		fprintf(s->out.fp, "avg RTT: %.1f ns over %" PRIu64 " samples "
			"since the clear (the algorithm's RTT samples, each "
			"alike: SUM_RTT/NUM_RTT%s)\n", a, n, k ? ", SUM_RTT "
			"wrapped and placed by MIN_RTT..MAX_RTT" : "");
	if (!prev)
		return;
	if (pk < 0)
		fprintf(s->out.fp, "avg RTT since the last look: unknown: %s "
			"may have wrapped more than once since\n", sum);
	else
		fprintf(s->out.fp, "avg RTT since the last look: %.1f ns over "
			"%" PRIu64 " samples\n", pa, pn);
}

/* Keep this read for the next look's average (clear: the counters now
 * hold 0).
 */
static void keep_read(struct session *s, unsigned slot, const uint32_t *vals,
		      size_t n, bool clear)
{
	if (!s->cur->ctr_prev)
		s->cur->ctr_prev = calloc(ALGO_MAX_COUNTERS,
				     sizeof(*s->cur->ctr_prev));
	if (!s->cur->ctr_prev)
		return;		/* no average since the last look */
	memset(s->cur->ctr_prev, 0,
	       ALGO_MAX_COUNTERS * sizeof(*s->cur->ctr_prev));
	if (!clear)
		memcpy(s->cur->ctr_prev, vals, n * sizeof(*vals));
	s->cur->ctr_prev_slot = slot;
}

static int show(struct session *s, int argc, char **argv, bool clear)
{
	static const struct tbl_col cols[] = {
		{ "index", "IDX", TBL_RIGHT }, { "name", "NAME", 0 },
		{ "value", "VALUE", TBL_RIGHT }, { "units", "UNITS", 0 },
		{ "description", "", TBL_JSON_ONLY },
	};
	uint32_t vals[ALGO_MAX_COUNTERS];
	struct slot_view *v;
	struct rtt_idx x;
	unsigned slot = 0;
	size_t i, n;
	struct tbl t;
	bool rtt;
	int rc;
	bool ztr;

	rc = counter_slot(s, argc, argv, &slot, &v);
	if (rc)
		return rc;
	if (!v->ncounters)
		return pcb_error(&s->err, PCB_E_STATE,
				 "slot %u (%s) has no counters", slot, v->name);
	if (s->dry_run && clear) {
		uint8_t buf[PPCC_SIZE];

		sess_dry_line(s, ppcc_counters_req(&s->cur->ppcc, slot, true,
						   buf),
			      buf);
		return 0;
	}
	rc = ppcc_counters(&s->cur->ppcc, slot, clear, vals, ALGO_MAX_COUNTERS,
			   &n,
			   &s->err);
	if (rc == -PCB_E_DEVICE)
		/* firmware refuses when counter_en is off */
		snprintf(s->err.msg + strlen(s->err.msg),
			 sizeof(s->err.msg) - strlen(s->err.msg),
			 "; are counters enabled on slot %u?", slot);
	if (rc)
		return rc;
	if (n > v->ncounters)
		n = v->ncounters;
	if (clear) {
		keep_read(s, slot, vals, n, true);
		out_obj_begin(&s->out, NULL);
		out_field_uint(&s->out, "cleared_slot", "slot %u: ", slot);
		out_text(&s->out, "%zu counters cleared\n", n);
		out_obj_end(&s->out);
		return 0;
	}
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < n; i++) {
		const struct counter_view *c = &v->counters[i];

		tbl_row(&t);
		tbl_u64(&t, i);
		tbl_str(&t, c->info.name);
		tbl_u64(&t, vals[i]);
		tbl_str(&t, c->desc ? c->desc->units : "");
		tbl_str(&t, c->info.descr);
	}
	x.sum = find_counter(v, "SUM_RTT");
	x.num = find_counter(v, "NUM_RTT");
	x.min = find_counter(v, "MIN_RTT");
	x.max = find_counter(v, "MAX_RTT");
	if ((size_t)(x.min + 1) > n)
		x.min = -1;
	if ((size_t)(x.max + 1) > n)
		x.max = -1;
	rtt = x.sum >= 0 && x.num >= 0 && (size_t)x.num < n &&
	      (size_t)x.sum < n;
	/* ZTR-RTT's RTT (ns) and rate (fxp20 of line rate) units are the
	 * reconstruction's assumption: no NVIDIA document gives them */
	ztr = v->desc && !strcmp(v->desc->name, "ztr_rtt");
	if (s->out.json) {
		out_obj_begin(&s->out, NULL);
		out_u64(&s->out, "slot", slot);
		out_str(&s->out, "algo", v->name);
		if (ztr)
			out_str(&s->out, "units_assumed", "RTT counters in ns, "
				"rates in fxp20 of line rate");
		tbl_print(&t, &s->out, "counters");
		if (rtt)
			show_rtt(s, v, &x, vals, slot);
		out_obj_end(&s->out);
	} else {
		fprintf(s->out.fp, "slot %u: %s%s\n", slot, v->name, ztr ?
			" (units assumed: RTT in ns, rates in fxp20 of line "
			"rate)" : "");
		tbl_print(&t, &s->out, NULL);
		if (rtt)
			show_rtt(s, v, &x, vals, slot);
	}
	tbl_release(&t);
	keep_read(s, slot, vals, n, false);
	return 0;
}

/* A counter that went back from a to b: its growth through one wrap of
 * its width (a 32-bit Q-counter), less than half of it; false: a reset.
 */
static bool host_wrap(const struct dev_ctrs *c, size_t i, uint64_t a,
		      uint64_t b, uint64_t *g)
{
	uint64_t max = c->max ? c->max(c, i) : UINT64_MAX;

	return max < UINT64_MAX && a <= max && b <= max &&
	       series_growth(a, b, max, false, 0, INFINITY, g) >= 0;
}

/* counter show host [HANDLE]: the device's host counters (device.h: the
 * kernel's and ethtool's names; the sim device names its host NICs'
 * alike), or those of HANDLE (mlx5_0, mlx5_0/2, a netdev, a PCI address),
 * with the growth since the last `counter show host` of the same source
 * in this session.
 */
static int show_host(struct session *s, const char *handle)
{
	static const struct tbl_col cols[] = {
		{ "name", "NAME", 0 }, { "value", "VALUE", TBL_RIGHT },
		{ "delta", "DELTA", TBL_RIGHT },
	};
	struct dev_host_ctrs other;	/* HANDLE's: another NIC */
	struct dev_ctrs *c = &other.c;
	char key[80];
	uint64_t *v, g;
	struct tbl t;
	size_t i;
	int rc = 0;

	snprintf(key, sizeof(key), "%s", handle ? handle : "");
	if (s->cur->host_prev && strcmp(key, s->cur->host_key)) {
		free(s->cur->host_prev);	/* another source: start over */
		s->cur->host_prev = NULL;
	}
	if (s->cur->host && (!handle || (strcmp(handle, s->cur->host->netdev) &&
				    strcmp(handle, s->cur->host->rdma) &&
				    strcmp(handle, s->cur->host->bdf)))) {
		hostctr_close(s->cur->host);
		free(s->cur->host);
		s->cur->host = NULL;
	}
	if (!handle) {
		rc = dev_ctrs(s->cur, &c);
	} else if (!s->cur->host) {
		s->cur->host = calloc(1, sizeof(*s->cur->host));
		if (!s->cur->host)
			return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		rc = hostctr_open(s->cur->host, handle, &s->err);
		if (rc) {
			free(s->cur->host);
			s->cur->host = NULL;
		}
	}
	if (rc)
		return rc;
	if (handle)
		dev_host_ctrs_init(&other, s->cur->host, s->opt.errfp);
	if (s->cur->host_prev && (s->cur->host_n != c->n ||
				  s->cur->host_gen != c->gen)) {
		free(s->cur->host_prev);	/* other names: start over */
		s->cur->host_prev = NULL;
	}
	if (*c->warn)
		sess_warn(s, "counter show host: %s", c->warn);
	v = calloc(c->n ? c->n : 1, sizeof(*v));
	if (!v)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = c->read(c, v, &s->err);
	if (rc) {
		free(v);
		return rc;
	}
	if (s->cur->host_prev && s->cur->host_gen != c->gen) {
		free(s->cur->host_prev);	/* changed while read */
		s->cur->host_prev = NULL;
	}
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < c->n; i++) {
		tbl_row(&t);
		tbl_str(&t, c->name(c, i));
		if (v[i] == UINT64_MAX)
			tbl_null(&t);
		else
			tbl_u64(&t, v[i]);
		if (!s->cur->host_prev || v[i] == UINT64_MAX ||
		    s->cur->host_prev[i] == UINT64_MAX)
			tbl_null(&t);	/* first look or missing */
		else if (v[i] >= s->cur->host_prev[i])
			tbl_u64(&t, v[i] - s->cur->host_prev[i]);
		else if (host_wrap(c, i, s->cur->host_prev[i], v[i], &g))
			tbl_u64(&t, g);	/* a 32-bit Q-counter wrapped */
		else
			tbl_null(&t);	/* reset */
	}
	out_text(&s->out, "%s\n", c->where);
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	free(s->cur->host_prev);
	s->cur->host_prev = v;
	s->cur->host_n = c->n;
	s->cur->host_gen = c->gen;
	snprintf(s->cur->host_key, sizeof(s->cur->host_key), "%s", key);
	return 0;
}

static int cmd_counter_show(struct session *s, int argc, char **argv)
{
	if (argc >= 1 && !strcmp(argv[0], "host"))
		return argc > 2 ? pcb_error(&s->err, PCB_E_USAGE, "usage: "
					    "counter show host [DEVICE]") :
			show_host(s, argc == 2 ? argv[1] : NULL);
	return show(s, argc, argv, false);
}

static int cmd_counter_clear(struct session *s, int argc, char **argv)
{
	return show(s, argc, argv, true);
}

/* show: a slot whose algorithm has counters, or host and a NIC */
static bool counter_show_complete(struct session *s, char **argv, int argc,
				  struct cands *c)
{
	if (argc == 1 && !strcmp(argv[0], "host"))
		cand_devices(s, c);
	if (argc == 0)
		cand_add(c, "host");
	return cmd_complete_counter_slot(s, argv, argc, c);
}

const struct cmd_row cmd_counter_verbs[] = {
	{
		.name = "show",
		.fn = cmd_counter_show,
		.max_args = 2,
		.args = "[SLOT] | host [DEVICE]",
		.help = "counters of the slot holding counter_en, with the average "
			"RTT; host: the RDMA hw_counters, port counters and ethtool "
			"statistics with the growth since the last look",
		.example = "counter show host mlx5_0",
		.flags = CMD_DEFAULT,
		.complete = counter_show_complete,
	},
	{
		.name = "watch",
		.fn = cmd_watch,
		.max_args = 7,
		.args = "[COL,...]",
		.help = "the timeline's rates as they come (the same as 'watch')",
		.example = "counter watch cnp_handled,rx_gbps",
		.keys = cmd_watch_keys,
	},
	{
		.name = "clear",
		.fn = cmd_counter_clear,
		.max_args = 1,
		.args = "[SLOT]",
		.help = "read and clear the counters (PPCC bulk get and clear)",
		.example = "counter clear",
		.flags = CMD_DEVICE,
		.complete = cmd_complete_counter_slot,
	},
	{ 0 }
};
