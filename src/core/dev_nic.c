/* dev_nic.c - a real NIC (device.h): its clock is the monotonic wall
 * clock, its counters the host's (rec/hostctr.h), its traffic a program
 * run beside it; the telemetry pccbench reads only on the sim is
 * NOT_SUPPORTED here, saying why.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dev_impl.h"
#include "fwctl.h"
#include "out.h"
#include "host/hostctr.h"
#include "run.h"
#include "units.h"

struct nic_device {
	struct device base;
	double t0;			/* monotonic s at open: device time 0 */
	struct hostctr host;
	bool host_open;
	struct dev_host_ctrs ctrs;
	struct run_bg traffic;
	bool traffic_on;
	char log[4096];
};

static struct nic_device *nic_of(struct device *d)
{
	return (struct nic_device *)d;
}

static void nic_close(struct device *d)
{
	struct nic_device *n = nic_of(d);

	if (n->traffic_on)
		run_bg_stop(&n->traffic, 2000);
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
		if (d->s->stop && *d->s->stop)
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

static int host_read(struct dev_ctrs *c, uint64_t *v, struct pcb_err *err)
{
	return hostctr_read(((struct dev_host_ctrs *)c)->h, v, err);
}

void dev_host_ctrs_init(struct dev_host_ctrs *hc, struct hostctr *h)
{
	memset(hc, 0, sizeof(*hc));
	hc->h = h;
	hc->c.n = h->n;
	hc->c.name = host_name;
	hc->c.read = host_read;
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
		rc = hostctr_open(&n->host, d->s->devname, err);
		if (rc)
			return rc;
		n->host_open = true;
		dev_host_ctrs_init(&n->ctrs, &n->host);
	}
	*out = &n->ctrs.c;
	return 0;
}

static int not_supported(struct device *d, const char *what, const char *why,
			 struct pcb_err *err)
{
	return pcb_error(err, PCB_E_STATE, "%s: NOT_SUPPORTED on %s (%s)", what,
			 d->s->devname, why);
}

static int nic_retx(struct device *d, struct retx_dev **out,
		    struct pcb_err *err)
{
	(void)out;
	return not_supported(d, "retx", "pccbench knows the adaptive-"
			     "retransmission histogram of the sim device "
			     "only; the host's roce_adp_retrans_to counts "
			     "the timeouts", err);
}

static bool nic_retx_peek(struct device *d, size_t *gen, struct retx_cfg *cfg,
			  bool *running, uint64_t *bins)
{
	(void)d;
	(void)gen;
	(void)cfg;
	(void)bins;
	*running = false;
	return false;
}

static int nic_diag(struct device *d, struct diag_dev **out,
		    struct pcb_err *err)
{
	(void)out;
	return not_supported(d, "diag", "pccbench drives the diagnostic "
			     "counters of the sim device only", err);
}

static int nic_diag_sources(struct device *d, uint64_t v[DS_COUNT],
			    struct pcb_err *err)
{
	(void)v;
	return not_supported(d, "diag data IDs", "they come from DOCA "
			     "telemetry, which pccbench reads on the sim "
			     "device only", err);
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

static size_t nic_info(struct device *d, const char *kv[][2], size_t max)
{
	const char *node = fwctl_node(d->s->dev);

	if (max < 1)
		return 0;
	kv[0][0] = node ? "fwctl_node" : "program";
	kv[0][1] = node ? node : d->s->mstreg_prog ? d->s->mstreg_prog :
		   "mstreg";
	return 1;
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
	.summary = nic_summary,
	.workload = nic_workload,
	.replay = nic_replay,
	.traffic_start = nic_traffic_start,
	.traffic_stop = nic_traffic_stop,
	.copy = nic_copy,
	.meta = nic_meta,
	.info = nic_info,
};

int dev_nic_new(struct device **out)
{
	struct nic_device *n = calloc(1, sizeof(*n));

	if (!n)
		return -1;
	n->base.ops = &dev_nic_ops;
	n->t0 = pcb_mono_s();
	n->host.eth.fd = -1;
	*out = &n->base;
	return 0;
}
