/* device.c - opening a device of the right kind, and what every kind
 * answers through its operations (device.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dev_impl.h"
#include "discover.h"
#include "fwctl.h"
#include "mstconfig.h"
#include "mstreg.h"
#include "sim/firmware.h"
#include "units.h"

const struct dev_col dev_summary_cols[DEV_S_COUNT] = {
	{ "util", "1" }, { "jain", "1" }, { "queue_mean", "B" },
	{ "queue_p99", "B" }, { "queue_max", "B" }, { "rtt_mean", "ns" },
	{ "rtt_p99", "ns" }, { "rtos", "count" },
	/* FCT slowdown of the window's finished flows (a mix) */
	{ "fct_p50", "1" }, { "fct_p99", "1" },
	/* a collective's mean completion time and nccl-tests' busbw */
	{ "coll_time", "us" }, { "busbw", "Gb/s" },
};

static bool simulated_name(const char *devname)
{
	return !strcmp(devname, "sim") || !strncmp(devname, "sim:", 4);
}

/* sim:NAME, the PCI address of a NIC however it was named, else the name:
 * one journal and one lock per device.
 */
void dev_identity(const char *devname, char *out, size_t len)
{
	char bdf[32];

	unsigned port = pcb_handle_port(devname);

	if (simulated_name(devname))
		snprintf(out, len, "sim:%s", strchr(devname, ':') ?
			 strchr(devname, ':') + 1 : "default");
	else if (!pcb_resolve_pci(devname, bdf, sizeof(bdf), NULL) &&
		 port != 1)	/* (PCI function, local_port) */
		snprintf(out, len, "%s-p%u", bdf, port);
	else if (!pcb_resolve_pci(devname, bdf, sizeof(bdf), NULL))
		snprintf(out, len, "%s", bdf);
	else
		snprintf(out, len, "%s", devname);
}

/* The register transport: the sim's firmware for sim names; for a real
 * NIC fwctl where the kernel offers it, else mstreg (or what --backend
 * says).
 */
static int open_transport(struct session *s, struct adb_reg *layout,
			  bool *sim)
{
	const struct reg_backend_ops *ops = &sim_backend_ops;
	const char *spec = s->devname;
	char bdf[32], node[64];
	bool pci;
	int rc;

	*sim = simulated_name(s->devname);
	if (s->backend && !strcmp(s->backend, "sim") && !*sim)
		return pcb_error(&s->err, PCB_E_INVAL, "'%s' is not a "
				 "simulated device (sim, sim:NAME)",
				 s->devname);
	if (s->backend && strcmp(s->backend, "sim") && *sim)
		return pcb_error(&s->err, PCB_E_INVAL, "'%s' is simulated; %s "
				 "reaches real NICs (0000:08:00.0, mlx5_0)",
				 s->devname, s->backend);
	if (*sim) {
		spec = !strcmp(s->devname, "sim") ? "default" : s->devname + 4;
	} else {
		pci = !pcb_resolve_pci(s->devname, bdf, sizeof(bdf), NULL);
		if (s->backend && !strcmp(s->backend, "fwctl")) {
			if (!pci)
				return pcb_error(&s->err, PCB_E_NOENT, "'%s': "
						 "no PCI function for fwctl",
						 s->devname);
			ops = &fwctl_backend_ops;
			spec = bdf;
		} else if (!s->backend && pci &&
			   !fwctl_find_node(bdf, node, sizeof(node))) {
			ops = &fwctl_backend_ops;
			spec = bdf;
		} else {
			ops = &mstreg_backend_ops;
		}
	}
	rc = reg_dev_open(&s->dev, ops, s->devname, spec, &s->err);
	if (!rc)	/* no tainting scope unless allowed */
		fwctl_allow_scope(s->dev, s->fwctl_scope);
	if (!rc && ops == &mstreg_backend_ops) {
		int t = s->timeout_ms > 0 ? s->timeout_ms : 10000;

		rc = mstreg_configure(s->dev, layout, s->mstreg_prog, t,
				      s->stop, &s->err);
	}
	return rc;
}

/* The device of the session's transport: the sim's for its firmware, a
 * NIC's for anything else.
 */
static int attach(struct session *s)
{
	if ((simfw_of(s->dev) ? dev_sim_new : dev_nic_new)(&s->device))
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	s->device->s = s;
	return 0;
}

const char *dev_nvc_prog(const struct session *s)
{
	const char *env = getenv("PCCBENCH_MSTCONFIG"), *base;

	if (env && *env)
		return env;
	base = s->mstreg_prog ? strrchr(s->mstreg_prog, '/') : NULL;
	base = base ? base + 1 : s->mstreg_prog;
	return base && !strcmp(base, "mlxreg") ? "mlxconfig" : "mstconfig";
}

/* mstconfig's INTERNAL_CPU_MODEL of bdf ("EMBEDDED_CPU(1)": DPU mode)
 * into mode, "" when it does not say.
 */
static void cpu_model(struct session *s, const char *bdf, char *mode,
		      size_t len)
{
	struct nvc_query q;
	size_t i;

	memset(&q, 0, sizeof(q));
	mode[0] = '\0';
	if (nvc_run(dev_nvc_prog(s), bdf, s->timeout_ms, s->stop, &q, NULL))
		return;
	for (i = 0; i < q.n; i++)
		if (!strcmp(q.p[i].name, "INTERNAL_CPU_MODEL"))
			snprintf(mode, len, "%s", q.p[i].val[NVC_CURRENT] ?
				 q.p[i].val[NVC_CURRENT] :
				 q.p[i].val[NVC_NEXT] ? q.p[i].val[NVC_NEXT] :
				 "");
	nvc_release(&q);
}

int dev_owner_check(struct session *s)
{
	uint32_t info[PPCC_SLOTS];
	struct pcb_err e = { 0 };
	char bdf[32], mode[64];
	const char *model;
	bool vf;
	long id;

	if (simfw_of(s->dev) ||
	    pcb_resolve_pci(s->devname, bdf, sizeof(bdf), NULL))
		return 0;
	id = pcb_pci_device_id(bdf);
	model = id < 0 ? NULL : pcb_nic_model((uint16_t)id, &vf);
	if (!model || !strstr(model, "BlueField") ||
	    pcb_nic_kind((uint16_t)id) != PCB_FN_PF ||
	    !ppcc_algo_info_array(&s->ppcc, info, &e))
		return 0;	/* not one, or this host may (NIC mode, or a
				 * privileged host) */
	cpu_model(s, bdf, mode, sizeof(mode));
	if (!strncmp(mode, "EMBEDDED_CPU", 12))
		return pcb_error(&s->err, PCB_E_DEVICE, "'%s' (%s %s) is in DPU "
				 "mode (INTERNAL_CPU_MODEL %s): its PPCC "
				 "belongs to the Arm side, which refuses this "
				 "host (%s); run pccbench on the DPU's Arm "
				 "cores, or make this host privileged there "
				 "(mstprivhost)", s->devname, model, bdf, mode,
				 e.msg);
	return pcb_error(&s->err, e.code ? e.code : PCB_E_DEVICE, "%s (%s %s: "
			 "%s%s%s)", e.msg, model, bdf, *mode ?
			 "INTERNAL_CPU_MODEL " : "in DPU mode with a "
			 "restricted host, PPCC belongs to the Arm side; "
			 "'mstconfig -d BDF q' says INTERNAL_CPU_MODEL "
			 "EMBEDDED_CPU then", mode, *mode ? ", not DPU mode" :
			 "");
}

int dev_open(struct session *s, struct adb_reg *layout)
{
	bool sim;
	int rc;

	dev_identity(s->devname, s->devid, sizeof(s->devid));
	rc = open_transport(s, layout, &sim);
	return rc ? rc : attach(s);
}

void dev_close(struct session *s)
{
	if (s->device)
		s->device->ops->close(s->device);
	s->device = NULL;
}

/* The session's device, opened on first use (and made for a transport
 * opened elsewhere: the fuzz harnesses' scripted NICs).
 */
int dev_get(struct session *s, struct device **out)
{
	int rc = sess_device(s);

	if (!rc && !s->device)
		rc = attach(s);
	if (!rc)
		*out = s->device;
	return rc;
}

unsigned dev_traits(struct session *s)
{
	struct device *d;

	return dev_get(s, &d) ? 0 : d->ops->traits;
}

const char *dev_kind(struct session *s)
{
	struct device *d;

	return dev_get(s, &d) ? "?" : d->ops->kind;
}

int64_t dev_tick(struct session *s)
{
	struct device *d;

	return dev_get(s, &d) ? PS_PER_S : d->ops->tick;
}

int64_t dev_now(struct session *s)
{
	struct device *d;

	return dev_get(s, &d) ? 0 : d->ops->now(d);
}

int dev_run_until(struct session *s, int64_t until, bool window)
{
	struct device *d;
	int rc = dev_get(s, &d);

	return rc ? rc : d->ops->run_until(d, until, window, &s->err);
}

int dev_run(struct session *s, int64_t ps, bool window)
{
	struct device *d;
	int rc = dev_get(s, &d);

	return rc ? rc : d->ops->run_until(d, d->ops->now(d) + ps, window,
					   &s->err);
}

int dev_advance(struct session *s, int64_t ps, bool wall)
{
	struct timespec ts;

	if (!wall)
		return dev_run(s, ps, false);
	ts.tv_sec = (time_t)(ps / 1000000000000LL);
	ts.tv_nsec = (long)(ps % 1000000000000LL / 1000);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		if (s->stop && *s->stop)
			return pcb_error(&s->err, PCB_E_INTR, "interrupted");
	return 0;
}

int dev_ctrs(struct session *s, struct dev_ctrs **out)
{
	struct device *d;
	int rc = dev_get(s, &d);

	return rc ? rc : d->ops->ctrs(d, out, &s->err);
}

int dev_ctr_find(const struct dev_ctrs *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->name(c, i), name))
			return (int)i;
	return -1;
}

int dev_retx(struct session *s, struct retx_dev **out)
{
	struct device *d;
	int rc = dev_get(s, &d);

	return rc ? rc : d->ops->retx(d, out, &s->err);
}

bool dev_retx_peek(struct session *s, size_t *gen, struct retx_cfg *cfg,
		   bool *running, uint64_t *bins)
{
	struct device *d;

	*running = false;
	return !dev_get(s, &d) && d->ops->retx_peek(d, gen, cfg, running, bins);
}

int dev_diag(struct session *s, struct diag_dev **out)
{
	struct device *d;
	int rc = dev_get(s, &d);

	return rc ? rc : d->ops->diag(d, out, &s->err);
}

int dev_diag_sources(struct session *s, uint64_t v[DS_COUNT])
{
	struct device *d;
	int rc = dev_get(s, &d);

	return rc ? rc : d->ops->diag_sources(d, v, &s->err);
}

int dev_pcc(struct session *s, const struct pcc_prov **ops, void **p)
{
	struct device *d;
	int rc = dev_get(s, &d);

	*ops = NULL;
	*p = NULL;
	if (rc || !d->ops->pcc)
		return rc;
	return d->ops->pcc(d, ops, p, &s->err);
}

int dev_diag_watch(struct session *s, const uint64_t *ids, uint32_t n)
{
	struct device *d;
	int rc = dev_get(s, &d);

	if (rc || !d->ops->diag_watch)
		return rc;
	return d->ops->diag_watch(d, ids, n, &s->err);
}

int dev_summary(struct session *s, double v[DEV_S_COUNT])
{
	struct device *d;
	int rc = dev_get(s, &d);

	return rc ? rc : d->ops->summary(d, v, &s->err);
}

int dev_workload(struct session *s, char *buf, size_t len, uint64_t *seed)
{
	struct device *d;
	int rc = dev_get(s, &d);

	return rc ? rc : d->ops->workload(d, buf, len, seed, &s->err);
}

int dev_replay(struct session *s, int argc, char **argv, uint64_t seed)
{
	struct device *d;
	int rc = dev_get(s, &d);

	return rc ? rc : d->ops->replay(d, argc, argv, seed, &s->err);
}

int dev_traffic_start(struct session *s, char **argv, const char *log)
{
	struct device *d;
	int rc = dev_get(s, &d);

	return rc ? rc : d->ops->traffic_start(d, argv, log, &s->err);
}

int dev_traffic_stop(struct session *s, int rc)
{
	struct pcb_err e = { 0 };
	int rc2 = s->device ? s->device->ops->traffic_stop(s->device, &e) : 0;

	if (rc || !rc2)
		return rc;
	s->err = e;
	return rc2;
}

int dev_copy(struct session *s, const char *dir)
{
	struct device *d;
	int rc = dev_get(s, &d);

	return rc ? rc : d->ops->copy(d, dir, &s->err);
}

void dev_meta(struct session *s, FILE *fp)
{
	if (s->device)
		s->device->ops->meta(s->device, fp);
}

size_t dev_info(struct session *s, const char *kv[][2], size_t max)
{
	struct device *d;

	return dev_get(s, &d) ? 0 : d->ops->info(d, kv, max);
}
