/* dev_nic.c - a real NIC (device.h): its clock is the monotonic wall
 * clock, its counters the host's (rec/hostctr.h), its traffic a program
 * run beside it.  Its diag and adp_retx telemetry come from DOCA's
 * libraries when they are installed (tel/doca.h, loaded at run time;
 * --telemetry doca|native|none chooses), else NOT_SUPPORTED, saying
 * why; pcc is the PPCC register's either way.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "paths.h"
#include "dev_impl.h"
#include "discover.h"
#include "fwctl.h"
#include "out.h"
#include "host/hostctr.h"
#include "run.h"
#include "tel/diag_ids.h"
#include "tel/doca_ctx.h"
#include "tel/retx.h"
#include "tel/tel.h"
#include "units.h"

struct nic_device {
	struct device *base;
	double t0;			/* monotonic s at open: device time 0 */
	struct hostctr host;
	bool host_open;
	struct dev_host_ctrs ctrs;
	struct run_bg traffic;
	bool traffic_on;
	char log[PCB_PATH_LEN];
	/* DOCA: tried once; the device opened, or why not */
	bool doca_tried, doca_open;
	struct tdoca_dev doca;
	char doca_why[640];
	struct diag_dev *diag;
	struct tdoca_diag dx;
	struct retx_dev *retx;
	struct tdoca_retx rx;
	struct tdoca_pcc px;	/* pcc through DOCA (--telemetry doca) */
	struct diag_dev *wdev;	/* record's IDs: its own context */
	struct tdoca_diag wx;
	struct tel_diag watch;
	char prov[3][1400];	/* `dev show`: who serves diag, retx, pcc */
};

static void watch_end(struct nic_device *n);

static struct nic_device *nic_of(struct device *d)
{
	return d->priv;
}

static void nic_close(struct device *d)
{
	struct nic_device *n = nic_of(d);

	if (n->traffic_on)
		run_bg_stop(&n->traffic, 2000);
	watch_end(n);
	tdoca_pcc_close(&n->px);
	diag_dev_close(n->diag);
	retx_dev_close(n->retx);
	if (n->doca_open)
		tdoca_dev_close(&n->doca);
	if (n->host_open)
		hostctr_close(&n->host);
	free(n);
}

static int64_t nic_now(struct device *d)
{
	return (int64_t)((pcb_mono_s() - nic_of(d)->t0) * 1e12);
}

/* A traffic command that ended by itself with a failure ends the run. */
static int traffic_check(struct nic_device *n, struct pcb_err *err)
{
	struct run_bg *bg = &n->traffic;

	if (!n->traffic_on || !run_bg_done(bg) || !bg->status)
		return 0;
	if (bg->status == 127)
		return pcb_error(err, PCB_E_DEVICE, "cannot run traffic "
				 "command '%s' (not found or not executable; "
				 "see %s)", bg->name, n->log);
	return pcb_error(err, PCB_E_DEVICE, "traffic command '%s' failed "
			 "(exit %d); its output is in %s", bg->name, bg->status,
			 n->log);
}

/* Wait in slices that notice an interrupt and a failed traffic command. */
static int nic_run(struct device *d, int64_t until, bool window,
		   struct pcb_err *err)
{
	struct nic_device *n = nic_of(d);
	double end = n->t0 + until / 1e12;

	(void)window;
	for (;;) {
		double left = end - pcb_mono_s();
		struct timespec ts;
		int rc = traffic_check(n, err);

		if (rc)
			return rc;
		if (d->opt->stop && *d->opt->stop)
			return pcb_error(err, PCB_E_INTR, "interrupted");
		if (left <= 0)
			return 0;
		if (left > 0.05)
			left = 0.05;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
}

static const char *host_name(const struct dev_ctrs *c, size_t i)
{
	return hostctr_name(((const struct dev_host_ctrs *)c)->h, i);
}

/* The view's c->n counters; a change in the driver's set said once. */
static int host_read(struct dev_ctrs *c, uint64_t *v, struct pcb_err *err)
{
	struct dev_host_ctrs *hc = (struct dev_host_ctrs *)c;
	int rc = hostctr_read(hc->h, v, c->n, err);

	c->gen = hc->h->gen;
	if (*hc->h->note) {
		fprintf(hc->errfp ? hc->errfp : stderr, "warning: %s\n",
			hc->h->note);
		hc->h->note[0] = '\0';
	}
	return rc;
}

static uint64_t host_max(const struct dev_ctrs *c, size_t i)
{
	return hostctr_max(((const struct dev_host_ctrs *)c)->h, i);
}

void dev_host_ctrs_init(struct dev_host_ctrs *hc, struct hostctr *h,
			FILE *errfp)
{
	hostctr_refresh(h);	/* the driver's set as it is now */
	memset(hc, 0, sizeof(*hc));
	hc->h = h;
	hc->errfp = errfp;
	hc->c.n = h->n;
	hc->c.gen = h->gen;
	hc->c.name = host_name;
	hc->c.read = host_read;
	hc->c.max = host_max;
	hc->c.port = h->port;
	snprintf(hc->c.where, sizeof(hc->c.where), "%s%s%s port %u%s%s",
		 h->bdf, *h->bdf ? " " : "", *h->rdma ? h->rdma :
		 "(no RDMA device)", h->port, *h->netdev ? ", netdev " : "",
		 h->netdev);
	snprintf(hc->c.warn, sizeof(hc->c.warn), "%s", h->warn);
}

static int nic_ctrs(struct device *d, struct dev_ctrs **out,
		    struct pcb_err *err)
{
	struct nic_device *n = nic_of(d);
	int rc;

	if (!n->host_open) {
		rc = hostctr_open(&n->host, d->name, err);
		if (rc)
			return rc;
		n->host_open = true;
		dev_host_ctrs_init(&n->ctrs, &n->host, d->opt->errfp);
	} else if (hostctr_refresh(&n->host)) {	/* new names come in */
		n->ctrs.c.n = n->host.n;
	}
	*out = &n->ctrs.c;
	return 0;
}

static int not_supported(struct device *d, const char *what, const char *why,
			 struct pcb_err *err)
{
	return pcb_error(err, PCB_E_STATE, "%s: NOT_SUPPORTED on %s (%s)", what,
			 d->name, why);
}

/* ---- telemetry: DOCA or nothing -------------------------------------- */

/* The native path: what pccbench reads without DOCA. */
static const char *const native_why[3] = {
	"pccbench drives the diagnostic counters through DOCA only, and "
	"the fwctl commands DOCA uses for them are not public",
	"pccbench reads the adaptive-retransmission histogram through DOCA "
	"only; the host's roce_adp_retrans_to counts the timeouts",
	"the PPCC register serves pcc",
};

/* The PCI address and RDMA device DOCA is asked for. */
static void doca_names(struct device *d, const char **pci, char *ib,
		       size_t len)
{
	const char *id = d->devid, *name = d->name;

	*pci = strchr(id, ':') && strchr(id, '.') ? id : NULL;
	snprintf(ib, len, "%s", pcb_is_rdma_handle(name) ? name : "");
	if (strchr(ib, '/'))
		*strchr(ib, '/') = '\0';
}

/* DOCA's device, opened on first use: 0, or 1 with doca_why said. */
static int doca_dev(struct device *d)
{
	struct nic_device *n = nic_of(d);
	const struct tdoca_api *a;
	struct pcb_err e = { 0 };
	const char *pci;
	char ib[64];
	int code;

	if (n->doca_tried)
		return n->doca_open ? 0 : 1;
	n->doca_tried = true;
	a = tdoca_load(n->doca_why, sizeof(n->doca_why));
	if (!a)
		return 1;
	doca_names(d, &pci, ib, sizeof(ib));
	if (tdoca_dev_open(&n->doca, a, pci, ib, &code, &e)) {
		snprintf(n->doca_why, sizeof(n->doca_why), "DOCA %s: %s",
			 a->version, e.msg);
		return 1;
	}
	n->doca_open = true;
	return 0;
}

/* Who serves a context (0 diag, 1 retx): NULL DOCA, else why none. */
static const char *tel_none(struct device *d, int which, unsigned feature)
{
	struct nic_device *n = nic_of(d);
	const char *t = d->opt->telemetry;
	const char *miss;

	if (t && !strcmp(t, "none"))
		return "--telemetry none";
	if (t && !strcmp(t, "native"))
		return native_why[which];
	if (doca_dev(d)) {
		if (t)	/* asked for DOCA */
			return n->doca_why;
		snprintf(n->prov[which], sizeof(n->prov[which]), "%s; %s",
			 native_why[which], n->doca_why);
		return n->prov[which];
	}
	miss = tdoca_missing(n->doca.api, feature);
	if (miss) {
		snprintf(n->prov[which], sizeof(n->prov[which]), "DOCA %s at "
			 "%.300s lacks %s", n->doca.api->version,
			 n->doca.api->tel_path, miss);
		return n->prov[which];
	}
	return NULL;
}

static int nic_retx(struct device *d, struct retx_dev **out,
		    struct pcb_err *err)
{
	struct nic_device *n = nic_of(d);
	const char *why;
	int tel;

	if (!n->retx) {
		why = tel_none(d, 1, TDOCA_F_RETX);
		if (why)
			return not_supported(d, "retx", why, err);
		n->rx = (struct tdoca_retx){ .d = &n->doca };
		if (retx_dev_open_prov(&n->retx, &tdoca_retx_prov, &n->rx,
				       &tel))
			return tel_fail(err, tel, "retx", " (DOCA's adp_retx "
					"context)");
	}
	*out = n->retx;
	return 0;
}

/* The bins as DOCA has them, each look (they change at any time). */
static bool nic_retx_peek(struct device *d, size_t *gen, struct retx_cfg *cfg,
			  bool *running, uint64_t *bins)
{
	struct nic_device *n = nic_of(d);

	*running = false;
	if (!n->retx)
		return false;
	retx_dev_peek(n->retx, cfg, running, bins);
	(*gen)++;
	return true;
}

static int nic_diag(struct device *d, struct diag_dev **out,
		    struct pcb_err *err)
{
	struct nic_device *n = nic_of(d);
	const char *why;
	int rc;

	if (!n->diag) {
		why = tel_none(d, 0, TDOCA_F_DIAG);
		if (why)
			return not_supported(d, "diag", why, err);
		n->dx = (struct tdoca_diag){ .d = &n->doca };
		rc = diag_dev_open_prov(&n->diag, &tdoca_diag_prov, &n->dx,
					err);
		if (rc)
			return rc;
	}
	*out = n->diag;
	return 0;
}

/* pcc: the PPCC register unless --telemetry doca (or none). */
static int nic_pcc(struct device *d, const struct pcc_prov **ops, void **p,
		   struct pcb_err *err)
{
	struct nic_device *n = nic_of(d);
	const char *t = d->opt->telemetry, *miss;
	int tel;

	if (t && !strcmp(t, "none"))
		return not_supported(d, "pcc", "--telemetry none", err);
	if (!t || strcmp(t, "doca"))
		return 0;
	if (doca_dev(d))
		return not_supported(d, "pcc", n->doca_why, err);
	miss = tdoca_missing(n->doca.api, TDOCA_F_PCC);
	if (miss)
		return not_supported(d, "pcc", miss, err);
	if (!n->px.ctx) {
		n->px = (struct tdoca_pcc){ .d = &n->doca };
		tel = tdoca_pcc_open(&n->px);
		if (tel)
			return tel_fail(err, tel, "pcc", " (DOCA's pcc "
					"context)");
	}
	*ops = &tdoca_pcc_prov;
	*p = &n->px;
	return 0;
}

/* `record ... ids ...`: a DOCA diag context of the recorder's own, on
 * demand, one sample per read.  DOCA has one context per device, so a
 * session whose `diag` holds it cannot record IDs too (IN_USE).
 */
static void watch_end(struct nic_device *n)
{
	if (!n->wdev)
		return;
	if (n->watch.dev) {
		tel_diag_stop(&n->watch);
		tel_diag_release(&n->watch);
	}
	diag_dev_close(n->wdev);
	n->wdev = NULL;
}

static int nic_diag_watch(struct device *d, const uint64_t *ids, uint32_t nids,
			  struct pcb_err *err)
{
	struct nic_device *n = nic_of(d);
	const char *why = tel_none(d, 0, TDOCA_F_DIAG);
	struct tel_diag *t = &n->watch;
	uint64_t bad = 0;
	int rc;

	if (why)
		return not_supported(d, "diag data IDs", why, err);
	watch_end(n);
	n->wx = (struct tdoca_diag){ .d = &n->doca };
	rc = diag_dev_open_prov(&n->wdev, &tdoca_diag_prov, &n->wx, err);
	if (rc)
		return rc;
	rc = tel_diag_create(t, n->wdev, false);
	if (rc == TEL_IN_USE)
		return tel_fail(err, rc, "record: diag data IDs", " (the "
				"device's one DOCA diag context is held by "
				"'diag' or another program; record IDs in a "
				"session of its own)");
	if (!rc)
		rc = tel_diag_set_sample_mode(t, DIAG_ON_DEMAND);
	if (!rc)
		rc = tel_diag_set_max_num_data_ids(t, nids);
	if (!rc)
		rc = tel_diag_set_log_max_num_samples(t, 1);
	if (!rc)
		rc = tel_diag_apply_config(t);
	if (!rc)
		rc = tel_diag_apply_data_ids(t, ids, nids, &bad);
	if (!rc)
		rc = tel_diag_start(t);
	if (rc) {
		char nm[96] = "", hint[110] = "";

		if (bad) {
			diag_id_name(bad, nm, sizeof(nm));
			snprintf(hint, sizeof(hint), " for %s", nm);
		}
		watch_end(n);
		return tel_fail(err, rc, "record: diag data IDs", hint);
	}
	return 0;
}

static int nic_diag_sources(struct device *d, uint64_t v[DS_COUNT],
			    struct pcb_err *err)
{
	struct nic_device *n = nic_of(d);
	const char *why = tel_none(d, 0, TDOCA_F_DIAG);
	struct diag_sample smp;
	uint32_t got = 0, i, size = 0, need;
	uint8_t *buf;
	int rc, src;

	if (why)
		return not_supported(d, "diag data IDs", why, err);
	memset(v, 0, DS_COUNT * sizeof(*v));
	if (!n->wdev)	/* nothing watched yet */
		return 0;
	/* a sample as big as DOCA says it is: a later DOCA may add
	 * fields; the values decoded must lie within it */
	rc = tel_diag_sample_size(&n->watch, &size);
	if (rc)
		return tel_fail(err, rc, "record: diag data IDs", NULL);
	need = n->watch.cfg.format == 0 ? 8 + 24 * n->watch.nids :
	       16 + (n->watch.cfg.format == 1 ? 8 : 4) * n->watch.nids;
	if (size < need || size > 1u << 20)
		return pcb_error(err, PCB_E_DEVICE, "record: DOCA's diag "
				 "sample is %u bytes; its %u values need %u",
				 size, n->watch.nids, need);
	buf = malloc(size);
	if (!buf)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	rc = tel_diag_query(&n->watch, buf, 1, &got);
	if ((rc && rc != TEL_SKIPPED) || got != 1) {
		free(buf);
		return rc && rc != TEL_SKIPPED ?
		       tel_fail(err, rc, "record: diag data IDs", NULL) :
		       tel_fail(err, TEL_EMPTY, "record: diag data IDs",
				" (DOCA gave no on-demand sample)");
	}
	tel_diag_decode(&n->watch, buf, &smp);
	free(buf);
	for (i = 0; i < n->watch.nids; i++) {
		src = diag_dev_source(n->watch.ids[i]);
		if (src >= 0)
			v[src] = smp.values[i];
	}
	return 0;
}

static int nic_summary(struct device *d, double v[DEV_S_COUNT],
		       struct pcb_err *err)
{
	(void)v;
	return not_supported(d, "run summary", "util, queue and FCT are the "
			     "simulator's own measures", err);
}

static int nic_workload(struct device *d, char *buf, size_t len,
			uint64_t *seed, struct pcb_err *err)
{
	(void)buf;
	(void)len;
	(void)seed;
	return not_supported(d, "scenario", "a real NIC's traffic is a "
			     "program: 'while'", err);
}

static int nic_replay(struct device *d, int argc, char **argv, uint64_t seed,
		      struct pcb_err *err)
{
	(void)argc;
	(void)argv;
	(void)seed;
	return nic_workload(d, NULL, 0, NULL, err);
}

static int nic_traffic_start(struct device *d, char **argv, const char *log,
			     struct pcb_err *err)
{
	struct nic_device *n = nic_of(d);
	int rc;

	if (n->traffic_on)
		return pcb_error(err, PCB_E_STATE, "a traffic command runs "
				 "already ('%s')", n->traffic.name);
	snprintf(n->log, sizeof(n->log), "%s", log ? log : "/dev/null");
	rc = run_bg_start(&n->traffic, argv, n->log, err);
	n->traffic_on = !rc;
	return rc;
}

static int nic_traffic_stop(struct device *d, struct pcb_err *err)
{
	struct nic_device *n = nic_of(d);
	int status;

	if (!n->traffic_on)
		return 0;
	n->traffic_on = false;
	status = run_bg_stop(&n->traffic, 2000);
	if (status == 127)
		return pcb_error(err, PCB_E_DEVICE, "cannot run traffic "
				 "command '%s' (see %s)", n->traffic.name,
				 n->log);
	return 0;
}

static int nic_copy(struct device *d, const char *dir, struct pcb_err *err)
{
	(void)dir;
	return not_supported(d, "copy", "a NIC is one piece of hardware", err);
}

static void nic_meta(struct device *d, FILE *fp)
{
	struct nic_device *n = nic_of(d);

	if (n->host_open) {
		fputs(",\"host_counters\":", fp);
		out_json_string(fp, n->ctrs.c.where);
	}
}

/* "DOCA 3.2.1025 (libdoca_telemetry.so.3)", or "none (why)". */
static const char *provider(struct device *d, int which, unsigned feature)
{
	struct nic_device *n = nic_of(d);
	const char *why = tel_none(d, which, feature);
	char tmp[sizeof(n->prov[0])];

	if (why) {
		snprintf(tmp, sizeof(tmp), "none (%s)", why);
		memcpy(n->prov[which], tmp, sizeof(tmp));
	} else {
		const char *rc = which == 0 ?
			tdoca_missing(n->doca.api, TDOCA_F_RECONF) : NULL;

		snprintf(n->prov[which], sizeof(n->prov[which]),
			 "DOCA %s (%.300s, device %s %s%s%s%s)",
			 n->doca.api->version, n->doca.api->tel_path,
			 n->doca.pci, n->doca.ibdev, rc ? "; lacks " : "",
			 rc ? rc : "", rc ? ", which pccbench does not use" :
			 "");
	}
	return n->prov[which];
}

/* Every NIC of this host counts on its wall clock. */
static const char *nic_clock(struct device *d)
{
	(void)d;
	return "wall";
}

static size_t nic_info(struct device *d, const char *kv[][2], size_t max)
{
	const char *node = fwctl_node(d->dev);

	if (max < 4)
		return 0;
	kv[0][0] = node ? "fwctl_node" : "program";
	kv[0][1] = node ? node : d->opt->mstreg_prog ? d->opt->mstreg_prog :
		   "mstreg";
	kv[1][0] = "diag";
	kv[1][1] = provider(d, 0, TDOCA_F_DIAG);
	kv[2][0] = "retx";
	kv[2][1] = provider(d, 1, TDOCA_F_RETX);
	kv[3][0] = "pcc";
	kv[3][1] = "PPCC register";
	if (d->opt->telemetry && !strcmp(d->opt->telemetry, "none"))
		kv[3][1] = "none (--telemetry none)";
	else if (d->opt->telemetry && !strcmp(d->opt->telemetry, "doca"))
		kv[3][1] = provider(d, 2, TDOCA_F_PCC);
	return 4;
}

const struct dev_ops dev_nic_ops = {
	.kind = "nic",
	.tick = PS_PER_S,
	.traits = DEV_T_CONFIRM | DEV_T_CACHE | DEV_T_TRAFFIC,
	.close = nic_close,
	.now = nic_now,
	.run_until = nic_run,
	.ctrs = nic_ctrs,
	.retx = nic_retx,
	.retx_peek = nic_retx_peek,
	.diag = nic_diag,
	.diag_sources = nic_diag_sources,
	.diag_watch = nic_diag_watch,
	.pcc = nic_pcc,
	.summary = nic_summary,
	.workload = nic_workload,
	.replay = nic_replay,
	.traffic_start = nic_traffic_start,
	.traffic_stop = nic_traffic_stop,
	.copy = nic_copy,
	.meta = nic_meta,
	.info = nic_info,
	.clock = nic_clock,
};

int dev_nic_new(struct device *d)
{
	struct nic_device *n = calloc(1, sizeof(*n));

	if (!n)
		return -1;
	n->base = d;
	d->priv = n;
	d->ops = &dev_nic_ops;
	n->t0 = pcb_mono_s();
	n->host.eth.fd = -1;
	return 0;
}
