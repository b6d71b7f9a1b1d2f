/* collect.c - what the device counts, as Prometheus metrics (the text
 * exposition format, util/prom.h): one collection (metrics.h).
 *
 * One collection reads, per slot holding an algorithm: whether it is
 * enabled; for an enabled slot its params (bulk get) and, with counters
 * on, its counters (no clear) and the average RTT they give (SUM_RTT /
 * NUM_RTT, as `counter show`); then the device's host counters (the
 * kernel's and ethtool's names, device.h) and, while the adp_retx
 * histogram runs, its bins.  Values are in base units (seconds, bytes,
 * bytes per second) where the descriptor gives a unit we know, the unit
 * in the name, never in a label (param_unit says how each is decided).
 *
 * `export metrics to FILE` (src/cmd/metrics.c) replaces FILE whole (temp
 * file + rename, fsafe.h), so node_exporter's textfile collector never
 * reads half of it; `serve metrics` (src/cmd/serve.c) answers GET
 * /metrics with the same text.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "metrics/metrics.h"
#include "discover.h"
#include "session.h"
#include "device.h"
#include "fxp.h"
#include "prom.h"
#include "rec/series.h"
#include "units.h"
#include "tel/retx.h"

/* The labels every series of one device carries, and room for more. */
struct mx {
	struct session *s;
	struct prom_set *p;
	struct mx_state *st;	/* the counters' history */
	int64_t now;		/* the device's clock at this collection */
	char port[12];
	bool has_port;
};

/* One counter's history: its last reading, the 64-bit total made of it
 * and its rate over the last interval (per ps; < 0: not known).
 */
struct mx_hist {
	char key[PROM_KEY_LEN];
	uint64_t raw, ext;
	int64_t at;
	double rate;
	bool have;		/* read before */
};

/* The history of the device's 32-bit counters, made into 64-bit totals
 * across their wraps.  A counter wrapping at max + 1 read at least twice
 * per wrap increases by less than half its range between two readings;
 * so a reading below the last is a wrap when the increase it implies is
 * less than half the range, else a reset (a clear: the total goes on
 * from the new value, as Prometheus does).  The increase is not sure
 * when it is half the range or more, or when the last interval's rate
 * says so: then no average is given for the interval, and a warning.
 */
static struct mx_hist *hist_get(struct mx_state *st, const char *key)
{
	struct mx_hist *h;
	size_t i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->h[i].key, key))
			return &st->h[i];
	if (st->n == st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 16;

		h = realloc(st->h, cap * sizeof(*h));
		if (!h)
			return NULL;
		st->h = h;
		st->cap = cap;
	}
	h = &st->h[st->n++];
	memset(h, 0, sizeof(*h));
	snprintf(h->key, sizeof(h->key), "%s", key);
	h->rate = -1;
	return h;
}

/* The reading v at device time now of a counter wrapping at max + 1:
 * its 64-bit total; *d its increase since the last reading and *sure
 * whether that is certain (false on the first reading).
 */
static uint64_t hist_extend(struct mx_hist *h, uint64_t v, uint64_t max,
			    int64_t now, uint64_t *d, bool *sure)
{
	double half = ((double)max + 1) / 2;
	uint64_t g;

	*d = 0;
	*sure = false;
	if (h->have) {
		/* the growth modulo the width, sure while under half of it
		 * (series_growth, as the recorder and counter show take it)
		 */
		bool one = v <= max && h->raw <= max &&
			   series_growth(h->raw, v, max, false, 0, INFINITY,
					 &g) >= 0;

		if (one)
			*d = g;
		else if (v < h->raw)	/* a reset, not a wrap */
			*d = v;
		else			/* half the range or more: not sure */
			*d = v - h->raw;
		*sure = (one || (v < h->raw && (double)v < half)) &&
			!(h->rate > 0 && now > h->at &&
			  h->rate * (double)(now - h->at) >= half);
		h->rate = now > h->at ? (double)*d / (double)(now - h->at) :
			  h->rate;
		h->ext += *d;
	} else {
		h->ext = v;
	}
	h->raw = v;
	h->at = now;
	h->have = true;
	return h->ext;
}


enum { L_DEVICE, L_PORT, L_SLOT, L_ALGO, L_KEY, L_MAX };

static size_t labels(const struct mx *m, struct prom_label *l,
		     const char *slot, const char *algo, const char *key,
		     const char *val)
{
	l[L_DEVICE] = (struct prom_label){ "device", m->s->cur->devid };
	l[L_PORT] = (struct prom_label){ "port", m->has_port ? m->port :
					 NULL };
	l[L_SLOT] = (struct prom_label){ "slot", slot };
	l[L_ALGO] = (struct prom_label){ "algo", algo };
	l[L_KEY] = (struct prom_label){ key ? key : "param", val };
	return L_MAX;
}

/* A descriptor's unit as a metric name's suffix and what to divide by
 * for base units; NULL when it has none (param_unit decides then).
 */
static const char *base_unit(const char *units, double *div)
{
	static const struct {
		const char *units, *suffix;
		double div;
	} tab[] = {
		{ "ns", "_seconds", 1e9 }, { "us", "_seconds", 1e6 },
		{ "µs", "_seconds", 1e6 }, { "ms", "_seconds", 1e3 },
		{ "s", "_seconds", 1 }, { "B", "_bytes", 1 },
		{ "Gb/s", "_bytes_per_second", 8e-9 },
		{ "Mb/s", "_bytes_per_second", 8e-6 },
	};
	size_t i;

	*div = 1;
	for (i = 0; units && i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(units, tab[i].units)) {
			*div = tab[i].div;
			return tab[i].suffix;
		}
	return NULL;
}

/* A value in base units: divided (4005 ns is 4.005e-06 s, not
 * 4.005000000000001e-06 as 4005 * 1e-9 would be).
 */
static double in_base(double v, double div)
{
	return v / div;
}

/* A param's metric name suffix and its value in the unit that names:
 * base units where the descriptor's unit has one (base_unit); a
 * dimensionless fraction as _ratio (fixed point as its real number,
 * percent / 100, "/1024" / 1024, a log2 gain exponent as 2^-v: DCQCN's
 * rpg_gd cuts by alpha / 2^gd); "B/100Gb/s" kept and named
 * _bytes_per_100gbps (an increase per 100 Gb/s of port bandwidth, no
 * base unit says that); a bool or a plain count unsuffixed.  NULL when
 * the param is not described (a device's algorithm we have no descriptor
 * for) or its unit is one we do not know: then only its raw value.
 */
static const char *param_unit(const struct param_view *p, uint32_t raw,
			      double *v)
{
	unsigned fb = algo_ptype_frac_bits(p->type);
	const char *u = p->units ? p->units : "", *suf;
	double k;

	*v = fb ? fxp_to_real(raw, fb) : raw;
	if (!p->desc)
		return NULL;
	suf = base_unit(u, &k);
	if (suf) {
		*v = in_base(*v, k);
		return suf;
	}
	if (!*u)
		return fb ? "_ratio" : "";
	if (!strcmp(u, "%") || !strcmp(u, "/1024")) {
		*v /= u[0] == '%' ? 100 : 1024;
		return "_ratio";
	}
	if (!strcmp(u, "log2")) {
		*v = ldexp(1, -(int)(raw > 64 ? 64 : raw));
		return "_ratio";
	}
	if (!strcmp(u, "B/100Gb/s"))
		return "_bytes_per_100gbps";
	return NULL;
}

static int add_params(struct mx *m, unsigned slot, const char *sl,
		      struct slot_view *v)
{
	struct session *s = m->s;
	uint32_t vals[ALGO_MAX_PARAMS];
	struct prom_label l[L_MAX];
	size_t i;
	int rc = sess_slot_values(s, slot, v, vals);

	for (i = 0; !rc && i < v->nparams; i++) {
		const struct param_view *p = &v->params[i];
		double real;
		const char *suf = param_unit(p, vals[i], &real);
		char name[64];

		labels(m, l, sl, v->name, "param", p->info.name);
		if (suf) {
			snprintf(name, sizeof(name), "pccbench_param%s", suf);
			rc = prom_add(m->p, name, PROM_GAUGE, "an algorithm "
				      "parameter as a real number, in the unit "
				      "its name says (none: a count or a bool)",
				      l, L_MAX, real, &s->err);
		}
		if (!rc)
			rc = prom_add_u64(m->p, "pccbench_param_raw",
					  PROM_GAUGE, "an algorithm parameter's "
					  "raw register value", l, L_MAX,
					  vals[i], &s->err);
	}
	return rc;
}

/* "fxp20": a fixed-point value with 20 fraction bits; its divisor. */
static bool fxp_units(const char *units, double *div)
{
	if (!strcmp(units, "fxp16") || !strcmp(units, "fxp20")) {
		*div = units[4] == '6' ? 65536.0 : 1048576.0;
		return true;
	}
	return false;
}

static int find_counter(const struct slot_view *v, size_t n,
			const char *suffix)
{
	size_t i, l = strlen(suffix);

	for (i = 0; i < n && i < v->ncounters; i++) {
		size_t k = strlen(v->counters[i].info.name);

		if (k >= l && !strcmp(v->counters[i].info.name + k - l, suffix))
			return (int)i;
	}
	return -1;
}

/* The counters: sums as counters (_total), minima and maxima as gauges;
 * the average RTT when SUM_RTT and NUM_RTT are there and NUM_RTT > 0.
 */
static int add_counters(struct mx *m, unsigned slot, const char *sl,
			struct slot_view *v)
{
	static const char help_total[] = "an algorithm counter (PPCC) in "
		"base units: a 64-bit total this process makes of the "
		"device's 32-bit counter across its wraps, from the device's "
		"value at its first reading";
	struct session *s = m->s;
	uint32_t vals[ALGO_MAX_COUNTERS];
	uint64_t d[ALGO_MAX_COUNTERS] = { 0 };
	bool sure[ALGO_MAX_COUNTERS] = { false };
	struct prom_label l[L_MAX];
	int isum, inum, rc;
	size_t i, n;

	rc = ppcc_counters(&s->cur->ppcc, slot, false, vals, ALGO_MAX_COUNTERS,
			   &n, &s->err);
	for (i = 0; !rc && i < n && i < v->ncounters; i++) {
		const struct counter_view *c = &v->counters[i];
		const char *units = c->desc ? c->desc->units : "";
		bool gauge = c->desc && c->desc->kind != ALGO_CK_SUM;
		const char *suf;
		char name[64], key[PROM_KEY_LEN];
		uint64_t total = vals[i];
		struct mx_hist *h;
		double k;

		if (!gauge) {	/* a total across the device's wraps */
			snprintf(key, sizeof(key), "%s/%u/%s", s->cur->devid,
				 slot,
				 c->info.name);
			h = hist_get(m->st, key);
			if (!h)
				return pcb_error(&s->err, PCB_E_NOMEM,
						 "out of memory");
			total = hist_extend(h, vals[i], c->info.max ?
					    c->info.max : UINT32_MAX, m->now,
					    &d[i], &sure[i]);
		}

		suf = base_unit(units, &k);
		if (!suf && fxp_units(units, &k))
			suf = "_ratio";	/* a fraction of the line rate */
		if (gauge)	/* pccbench_algo_extreme_seconds */
			snprintf(name, sizeof(name), "pccbench_algo_extreme%s",
				 suf ? suf : "");
		else if (suf && *suf)	/* pccbench_algo_seconds_total */
			snprintf(name, sizeof(name), "pccbench_algo%s_total",
				 suf);
		else
			snprintf(name, sizeof(name),
				 "pccbench_algo_events_total");
		labels(m, l, sl, v->name, "counter", c->info.name);
		if (!suf)
			rc = prom_add_u64(m->p, name, gauge ? PROM_GAUGE :
					  PROM_COUNTER, gauge ? "an algorithm "
					  "counter (PPCC), as 'counter show'" :
					  help_total, l, L_MAX, total, &s->err);
		else
			rc = prom_add(m->p, name, gauge ? PROM_GAUGE :
				      PROM_COUNTER, gauge ? "an algorithm "
				      "counter (PPCC) in base units" :
				      help_total, l, L_MAX,
				      in_base((double)total, k), &s->err);
	}
	isum = find_counter(v, n, "SUM_RTT");
	inum = find_counter(v, n, "NUM_RTT");
	if (rc || isum < 0 || inum < 0)
		return rc;
	if ((d[isum] || d[inum]) && (!sure[isum] || !sure[inum])) {
		sess_warn(s, "metrics: slot %u: %s or %s may have wrapped more "
			  "than once since the last reading: no average RTT "
			  "for this interval (read more often)", slot,
			  v->counters[isum].info.name,
			  v->counters[inum].info.name);
		return 0;
	}
	if (!d[inum])	/* the first reading, or no sample meanwhile */
		return 0;
	labels(m, l, sl, v->name, NULL, NULL);
	return prom_add(m->p, "pccbench_algo_avg_rtt_seconds", PROM_GAUGE,
			"the average RTT over the interval since the last "
			"reading (its SUM_RTT / NUM_RTT increases); none on "
			"the first reading or without samples", l, L_MAX,
			(double)d[isum] / (double)d[inum] / 1e9, &s->err);
}

static int add_slots(struct mx *m)
{
	struct session *s = m->s;
	uint32_t info[PPCC_SLOTS];
	struct prom_label l[L_MAX];
	struct slot_view *v;
	unsigned i;
	bool en, cen;
	int rc = ppcc_algo_info_array(&s->cur->ppcc, info, &s->err);

	for (i = 0; !rc && i < PPCC_SLOTS; i++) {
		char sl[4], id[16];

		if (!info[i])
			continue;
		snprintf(sl, sizeof(sl), "%u", i);
		rc = ppcc_enable_status(&s->cur->ppcc, i, &en, &cen, &s->err);
		if (!rc)
			rc = sess_slot_view(s, i, &v);
		if (rc)
			break;
		snprintf(id, sizeof(id), "0x%04x", v->algo_num >> 16);
		labels(m, l, sl, v->name, "algo_id", id);
		rc = prom_add(m->p, "pccbench_algo_enabled", PROM_GAUGE,
			      "1 when the slot's algorithm is enabled", l,
			      L_MAX, en, &s->err);
		if (!rc)
			rc = prom_add(m->p, "pccbench_algo_counters_enabled",
				      PROM_GAUGE, "1 when the slot's algorithm "
				      "counts (counter_en)", l, L_MAX,
				      en && cen, &s->err);
		if (!rc && en)
			rc = add_params(m, i, sl, v);
		if (!rc && en && cen && v->ncounters)
			rc = add_counters(m, i, sl, v);
	}
	return rc;
}

/* A host counter's metric: its own name under pccbench_host_, a counter;
 * the IB port_*_data words (4 bytes each) as bytes, the ethtool pause
 * durations (microseconds) as seconds.
 */
static int add_host_one(struct mx *m, const char *ctr, uint64_t v,
			bool wide)
{
	struct session *s = m->s;
	struct prom_label l[L_MAX];
	size_t len = strlen(ctr);
	char name[160], help[240];

	labels(m, l, NULL, NULL, NULL, NULL);
	snprintf(help, sizeof(help), "host counter %s (the kernel's or "
		 "ethtool's name)%s", ctr, wide ? "; 32-bit on the NIC, a "
		 "64-bit total this process makes across its wraps" : "");
	if (!strcmp(ctr, "port_rcv_data") || !strcmp(ctr, "port_xmit_data")) {
		if (prom_name(name, sizeof(name), "pccbench_host_", ctr,
			      "_bytes_total"))
			return prom_add_u64(m->p, name, PROM_COUNTER, help, l,
					    L_MAX, v * 4, &s->err);
	} else if (len > 15 && !strcmp(ctr + len - 15, "_pause_duration")) {
		if (prom_name(name, sizeof(name), "pccbench_host_", ctr,
			      "_seconds_total"))
			return prom_add(m->p, name, PROM_COUNTER, help, l,
					L_MAX, v / 1e6, &s->err);
	} else if (prom_name(name, sizeof(name), "pccbench_host_", ctr,
			     "_total")) {
		return prom_add_u64(m->p, name, PROM_COUNTER, help, l, L_MAX,
				    v, &s->err);
	}
	return pcb_error(&s->err, PCB_E_INVAL, "host counter '%s': name too "
			 "long for a metric", ctr);
}

/* The host counters; one that cannot be read this time is left out (a
 * missing series, never a 0), as is one whose name clashes with
 * another's once made a metric name (a warning).
 */
static int add_host(struct mx *m)
{
	struct session *s = m->s;
	struct dev_ctrs *c;
	uint64_t *v, max;
	bool wide;
	size_t i;
	int rc = dev_ctrs(s->cur, &c);

	if (rc)
		return rc;
	if (c->port) {
		snprintf(m->port, sizeof(m->port), "%u", c->port);
		m->has_port = true;
	}
	v = calloc(c->n ? c->n : 1, sizeof(*v));
	if (!v)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = c->read(c, v, &s->err);
	for (i = 0; !rc && i < c->n; i++) {
		/* hw_counters/lifespan is a setting (ms between the
		 * driver's queries), not a count */
		if (v[i] == UINT64_MAX || !strcmp(c->name(c, i), "lifespan") ||
		    !mx_collects(m->st, c->name(c, i)))
			continue;
		max = c->max ? c->max(c, i) : UINT64_MAX;
		wide = max != UINT64_MAX;
		if (wide) {	/* 64 bits across the counter's wraps */
			char key[PROM_KEY_LEN];
			struct mx_hist *h;
			uint64_t d;
			bool sure;

			snprintf(key, sizeof(key), "%s/host/%s", s->cur->devid,
				 c->name(c, i));
			h = hist_get(m->st, key);
			if (!h) {
				rc = pcb_error(&s->err, PCB_E_NOMEM,
					       "out of memory");
				break;
			}
			v[i] = hist_extend(h, v[i], max, m->now, &d, &sure);
		}
		rc = add_host_one(m, c->name(c, i), v[i], wide);
		if (rc == -PCB_E_INVAL) {	/* the name: skip it, say so */
			sess_warn(s, "metrics: %s", s->err.msg);
			pcb_err_reset(&s->err);
			rc = 0;
		}
	}
	free(v);
	return rc;
}

/* The adp_retx bins while the histogram runs, as a Prometheus histogram
 * of the retransmission timeouts' durations: a bucket per bin, its upper
 * bound in seconds as `le` (the last bin is open: +Inf), counts
 * cumulative, so histogram_quantile() works.  No _sum: the device counts
 * per bin, and the open last bin has no value to estimate it from.
 */
static int add_retx(struct mx *m)
{
	struct session *s = m->s;
	uint64_t bins[RETX_MAX_BINS], lo, hi, u, cum = 0;
	struct prom_bucket b[RETX_MAX_BINS + 1];
	struct prom_label l[L_MAX];
	struct retx_dev *rd;
	struct retx_cfg cfg;
	bool running = false;
	uint32_t i;
	size_t nb = 0;

	if (dev_retx(s->cur, &rd)) {		/* a device without one */
		pcb_err_reset(&s->err);
		return 0;
	}
	retx_dev_peek(rd, &cfg, &running, bins);
	if (!running)
		return 0;
	u = tel_retx_unit_ps(cfg.unit);
	for (i = 0; i < cfg.num_bins && i < RETX_MAX_BINS; i++) {
		tel_retx_bin_range(&cfg, i, &lo, &hi);
		cum += bins[i];
		b[nb].le = hi == UINT64_MAX ? INFINITY :
			   (double)(hi + 1) * (double)u / 1e12;
		b[nb++].count = cum;
		if (hi == UINT64_MAX)
			break;
	}
	if (!nb || !isinf(b[nb - 1].le)) {	/* every bin closed */
		b[nb].le = INFINITY;
		b[nb++].count = cum;
	}
	labels(m, l, NULL, NULL, NULL, NULL);
	return prom_add_hist(m->p, "pccbench_retx_timeout_seconds",
			     "retransmission timeouts by duration: the adp_retx "
			     "histogram's bins as buckets (le: a bin's upper "
			     "bound); no _sum (the device counts per bin)", l,
			     L_MAX, b, nb, NAN, &s->err);
}

static int collect_dev(struct session *s, struct mx_state *st,
		       struct prom_set *p, char *port, size_t plen)
{
	struct mx m = { .s = s, .p = p, .st = st };
	int rc = sess_device(s);

	if (!rc)
		m.now = dev_now(s->cur);
	/* the host counters first: they name the port the others carry */
	if (!rc) {
		rc = add_host(&m);
		if (rc && rc != -PCB_E_NOMEM) {
			sess_warn(s, "metrics: %s: no host counters: %s",
				  s->cur->devid, s->err.msg);
			pcb_err_reset(&s->err);
			rc = 0;
		}
	}
	if (!rc)
		rc = add_slots(&m);
	if (!rc)
		rc = add_retx(&m);
	snprintf(port, plen, "%s", m.has_port ? m.port : "");
	return rc;
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Every device, each into its own set merged when whole: a device that
 * fails is pccbench_device_up 0 and a warning with its error, never a
 * hole in the others.
 */
static int collect_all(struct session *s, struct mx_state *st,
		       struct prom_set *all)
{
	static const struct prom_label ver = { "version", PCCB_VERSION };
	struct pcb_nic *nics = NULL;
	struct pcb_err e = { 0 };
	size_t i, nn = 0, nd = st->ndevs ? st->ndevs : 1;
	int rc;

	st->nfailed = 0;
	rc = prom_add(all, "pccbench_build_info", PROM_GAUGE, "1; the "
		      "version of pccbench as a label", &ver, 1, 1, &s->err);
	if (pcb_discover(&nics, &nn, &e))	/* no names to join: fine */
		nn = 0;
	for (i = 0; !rc && i < nd; i++) {
		struct session *d = st->ndevs ? &st->devs[i] : s;
		struct prom_set one;
		struct prom_label l;
		char port[12], id[sizeof(d->cur->devid)];
		int64_t t0 = mono_ns();
		int drc;

		prom_init(&one);
		drc = collect_dev(d, st, &one, port, sizeof(port));
		snprintf(id, sizeof(id), "%s",
			 d->cur->devid[0] ? d->cur->devid :
			 d->cur->name);
		if (drc == -PCB_E_NOMEM) {
			s->err = d->err;
			rc = drc;
		} else if (drc) {
			sess_warn(s, "metrics: %s: %s", id, d->err.msg);
			if (!st->nfailed++)
				st->err = d->err;
			pcb_err_reset(&d->err);
		} else {
			rc = prom_merge(all, &one, &s->err);
			if (!rc)
				rc = mx_add_info(all, nics, nn, id, port,
						 &s->err);
		}
		prom_release(&one);
		l = (struct prom_label){ "device", id };
		if (!rc)
			rc = prom_add(all, "pccbench_device_up", PROM_GAUGE,
				      "1 when the device was read whole, 0 "
				      "when it failed (the error is logged)",
				      &l, 1, !drc, &s->err);
		if (!rc)
			rc = prom_add(all, "pccbench_scrape_duration_seconds",
				      PROM_GAUGE, "how long reading the "
				      "device took", &l, 1,
				      (double)(mono_ns() - t0) / 1e9,
				      &s->err);
	}
	free(nics);
	return rc;
}

int mx_collect(struct session *s, struct mx_state *st, char **buf,
	       size_t *len)
{
	struct prom_set p;
	FILE *fp;
	int rc;

	prom_init(&p);
	rc = collect_all(s, st, &p);
	*buf = NULL;
	*len = 0;
	if (!rc) {
		fp = open_memstream(buf, len);
		if (!fp)
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		if (fp) {
			rc = prom_write(&p, fp, &s->err);
			if (fclose(fp) && !rc)
				rc = pcb_error(&s->err, PCB_E_NOMEM,
					       "out of memory");
		}
	}
	if (rc) {
		free(*buf);
		*buf = NULL;
	}
	prom_release(&p);
	return rc;
}
