/* device.c - opening a device of the right kind, and what every kind
 * answers through its operations (device.h).
 */
#include <sys/file.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dev_impl.h"
#include "discover.h"
#include "fsafe.h"
#include "host/hostctr.h"
#include "paths.h"
#include "fwctl.h"
#include "mstconfig.h"
#include "mstreg.h"
#include "sim/firmware.h"
#include "units.h"

const struct dev_col dev_summary_cols[DEV_S_COUNT] = {
	{ "util", "1", false }, { "jain", "1", false },
	{ "queue_mean", "B", false }, { "queue_p99", "B", false },
	{ "queue_max", "B", false }, { "rtt_mean", "ns", false },
	{ "rtt_p99", "ns", false }, { "rtos", "count", false },
	/* FCT slowdown of the window's finished flows (a mix) */
	{ "fct_p50", "1", false }, { "fct_p99", "1", false },
	/* a collective's mean completion time and nccl-tests' busbw */
	{ "coll_time", "us", true }, { "busbw", "Gb/s", true },
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
static int open_transport(struct device *d, struct adb_reg *layout,
			  bool *sim)
{
	const struct reg_backend_ops *ops = &sim_backend_ops;
	const struct dev_opts *o = d->opt;
	const char *spec = d->name;
	char bdf[32], node[64];
	bool pci;
	int rc;

	*sim = simulated_name(d->name);
	if (o->backend && !strcmp(o->backend, "sim") && !*sim)
		return pcb_error(d->err, PCB_E_INVAL, "'%s' is not a "
				 "simulated device (sim, sim:NAME)",
				 d->name);
	if (o->backend && strcmp(o->backend, "sim") && *sim)
		return pcb_error(d->err, PCB_E_INVAL, "'%s' is simulated; %s "
				 "reaches real NICs (0000:08:00.0, mlx5_0)",
				 d->name, o->backend);
	if (*sim) {	/* sim:NAME/hN: the register of sim:NAME */
		spec = d->regid + 4;
	} else {
		pci = !pcb_resolve_pci(d->name, bdf, sizeof(bdf), NULL);
		if (o->backend && !strcmp(o->backend, "fwctl")) {
			if (!pci)
				return pcb_error(d->err, PCB_E_NOENT, "'%s': "
						 "no PCI function for fwctl",
						 d->name);
			ops = &fwctl_backend_ops;
			spec = bdf;
		} else if (!o->backend && pci &&
			   !fwctl_find_node(bdf, node, sizeof(node))) {
			ops = &fwctl_backend_ops;
			spec = bdf;
		} else {
			ops = &mstreg_backend_ops;
		}
	}
	rc = reg_dev_open(&d->dev, ops, d->name, spec, d->err);
	if (!rc)	/* no tainting scope unless allowed */
		fwctl_allow_scope(d->dev, o->fwctl_scope);
	if (!rc && ops == &mstreg_backend_ops) {
		int t = o->timeout_ms > 0 ? o->timeout_ms : 10000;

		rc = mstreg_configure(d->dev, layout, o->mstreg_prog, t,
				      o->stop, d->err);
	}
	return rc;
}

/* The kind of the device's transport: the sim's for its firmware, a
 * NIC's for anything else.
 */
static int attach(struct device *d)
{
	if ((simfw_of(d->dev) ? dev_sim_new : dev_nic_new)(d))
		return pcb_error(d->err, PCB_E_NOMEM, "out of memory");
	return 0;
}

const char *dev_nvc_prog(const struct dev_opts *o)
{
	const char *env = getenv("PCCBENCH_MSTCONFIG"), *base;

	if (env && *env)
		return env;
	base = o->mstreg_prog ? strrchr(o->mstreg_prog, '/') : NULL;
	base = base ? base + 1 : o->mstreg_prog;
	return base && !strcmp(base, "mlxreg") ? "mlxconfig" : "mstconfig";
}

/* mstconfig's INTERNAL_CPU_MODEL of bdf ("EMBEDDED_CPU(1)": DPU mode)
 * into mode, "" when it does not say.
 */
static void cpu_model(struct device *d, const char *bdf, char *mode,
		      size_t len)
{
	struct nvc_query q;
	size_t i;

	memset(&q, 0, sizeof(q));
	mode[0] = '\0';
	if (nvc_run(dev_nvc_prog(d->opt), bdf, d->opt->timeout_ms, d->opt->stop,
		    &q, NULL))
		return;
	for (i = 0; i < q.n; i++)
		if (!strcmp(q.p[i].name, "INTERNAL_CPU_MODEL"))
			snprintf(mode, len, "%s", q.p[i].val[NVC_CURRENT] ?
				 q.p[i].val[NVC_CURRENT] :
				 q.p[i].val[NVC_NEXT] ? q.p[i].val[NVC_NEXT] :
				 "");
	nvc_release(&q);
}

static int owner_check(struct device *d)
{
	uint32_t info[PPCC_SLOTS];
	struct pcb_err e = { 0 };
	char bdf[32], mode[64];
	const char *model;
	bool vf;
	long id;

	if (simfw_of(d->dev) ||
	    pcb_resolve_pci(d->name, bdf, sizeof(bdf), NULL))
		return 0;
	id = pcb_pci_device_id(bdf);
	model = id < 0 ? NULL : pcb_nic_model((uint16_t)id, &vf);
	if (!model || !strstr(model, "BlueField") ||
	    pcb_nic_kind((uint16_t)id) != PCB_FN_PF ||
	    !ppcc_algo_info_array(&d->ppcc, info, &e))
		return 0;	/* not one, or this host may (NIC mode, or a
				 * privileged host) */
	cpu_model(d, bdf, mode, sizeof(mode));
	if (!strncmp(mode, "EMBEDDED_CPU", 12))
		return pcb_error(d->err, PCB_E_DEVICE, "'%s' (%s %s) is in DPU "
				 "mode (INTERNAL_CPU_MODEL %s): its PPCC "
				 "belongs to the Arm side, which refuses this "
				 "host (%s); run pccbench on the DPU's Arm "
				 "cores, or make this host privileged there "
				 "(mstprivhost)", d->name, model, bdf, mode,
				 e.msg);
	return pcb_error(d->err, e.code ? e.code : PCB_E_DEVICE, "%s (%s %s: "
			 "%s%s%s)", e.msg, model, bdf, *mode ?
			 "INTERNAL_CPU_MODEL " : "in DPU mode with a "
			 "restricted host, PPCC belongs to the Arm side; "
			 "'mstconfig -d BDF q' says INTERNAL_CPU_MODEL "
			 "EMBEDDED_CPU then", mode, *mode ? ", not DPU mode" :
			 "");
}

struct device *dev_new(const char *name, const struct dev_opts *opt,
		       struct pcb_err *err)
{
	struct device *d = calloc(1, sizeof(*d));

	if (!d || !(d->name = strdup(name))) {
		free(d);
		return NULL;
	}
	d->opt = opt;
	d->err = err;
	d->lock_fd = -1;
	d->hostno = -1;
	return d;
}

static void views_release(struct device *d)
{
	unsigned i;

	d->info_valid = false;
	for (i = 0; i < PPCC_SLOTS; i++) {
		free(d->slots[i].params);
		free(d->slots[i].counters);
		memset(&d->slots[i], 0, sizeof(d->slots[i]));
	}
}

/* Everything the device holds, back to unopened. */
static void dev_shut(struct device *d)
{
	/* the histogram keeps running on the device; the context goes */
	free(d->retx);
	d->retx = NULL;
	if (d->diag)	/* sampling goes on; ownership ends */
		tel_diag_release(d->diag);
	free(d->diag);
	d->diag = NULL;
	if (d->ops)
		d->ops->close(d);
	d->ops = NULL;
	d->priv = NULL;
	views_release(d);
	if (d->have_ppcc)
		ppcc_release(&d->ppcc);
	d->have_ppcc = false;
	reg_dev_close(d->dev);
	d->dev = NULL;
	journal_close(d->journal);
	d->journal = NULL;
	if (d->host)
		hostctr_close(d->host);
	free(d->host);
	free(d->host_prev);
	d->host = NULL;
	d->host_prev = NULL;
	free(d->ctr_prev);
	d->ctr_prev = NULL;
	if (d->lock_fd >= 0)
		close(d->lock_fd);	/* drops the lock too */
	d->lock_fd = -1;
	d->lock_depth = 0;
	d->devid[0] = '\0';
	d->regid[0] = '\0';
	d->hostno = -1;
}

void dev_free(struct device *d)
{
	if (!d)
		return;
	dev_shut(d);
	free(d->name);
	free(d);
}

void dev_warn(const struct device *d, const char *fmt, ...)
{
	FILE *fp = d->opt->errfp ? d->opt->errfp : stderr;
	va_list ap;

	fputs("warning: ", fp);
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
	fputc('\n', fp);
}

static int load_ppcc_layout(struct device *d, struct adb_reg **out)
{
	char path[PCB_PATH_LEN];
	struct adb_db *db = NULL;
	int rc;

	rc = pcb_data_file(path, sizeof(path), "reg/ppcc.adb", d->err);
	if (rc)
		return rc;
	rc = adb_db_load_file(&db, path, d->err);
	if (rc)
		return rc;
	rc = adb_reg_load(db, "PPCC", out, d->err);
	adb_db_free(db);
	return rc;
}

bool dev_is_open(const struct device *d)
{
	return d->dev != NULL;
}

/* sim:NAME/hN: host N's NIC of fabric NAME, whose register (journal,
 * lock) is sim:NAME's; else the device's own.
 */
static int sim_host(struct device *d)
{
	const char *slash = strchr(d->devid, '/');
	char *end;
	unsigned long h;

	snprintf(d->regid, sizeof(d->regid), "%s", d->devid);
	d->hostno = -1;
	if (!simulated_name(d->name) || !slash)
		return 0;
	errno = 0;
	h = strtoul(slash + 2, &end, 10);
	if (slash[1] != 'h' || !isdigit((unsigned char)slash[2]) || *end ||
	    errno || h > 65535)
		return pcb_error(d->err, PCB_E_INVAL, "'%s': a sim host is "
				 "sim:NAME/hN (N: 0, 1, ... a host of the "
				 "fabric, 'sim show')", d->name);
	d->regid[slash - d->devid] = '\0';
	d->hostno = (int)h;
	return 0;
}

int dev_open(struct device *d)
{
	struct adb_reg *layout = NULL;
	char msg[1024];
	size_t bad_line;
	bool sim;
	int rc;

	if (d->dev)	/* (a transport opened elsewhere: the fuzz
			 * harnesses' scripted NICs get their kind here) */
		return d->ops ? 0 : attach(d);
	dev_identity(d->name, d->devid, sizeof(d->devid));
	rc = sim_host(d);
	if (!rc)
		rc = load_ppcc_layout(d, &layout);
	if (!rc) {
		rc = open_transport(d, layout, &sim);
		if (!rc)
			rc = attach(d);
		if (rc) {	/* ppcc_init takes it, but not here */
			adb_reg_free(layout);
			layout = NULL;
		}
	}
	if (!rc)
		rc = ppcc_init(&d->ppcc, d->dev, layout, d->err);
	if (!rc)	/* it holds the layout now: released with the device */
		d->have_ppcc = true;
	if (!rc)	/* a BlueField whose Arm side owns PPCC */
		rc = owner_check(d);
	if (!rc && d->ops->opened)	/* its kind's own checks */
		rc = d->ops->opened(d, d->err);
	if (!rc)
		rc = journal_open(&d->journal, d->regid, d->err);
	if (rc) {
		dev_shut(d);
		return rc;
	}
	if (journal_unclean(d->journal, msg, sizeof(msg)) ||
	    journal_too_large(d->journal, msg, sizeof(msg)))
		dev_warn(d, "%s", msg);
	if (journal_bad_lines(d->journal, &bad_line))
		dev_warn(d, "journal '%s' has %zu damaged record(s), the "
			 "first at line %zu; 'journal restore' will not clear "
			 "it", journal_path(d->journal),
			 journal_bad_lines(d->journal, NULL), bad_line);
	return 0;
}

static int lock_open(struct device *d)
{
	char path[PCB_PATH_LEN];
	int rc = pcb_user_file(path, sizeof(path), PCB_DIR_STATE, "lock",
			       *d->regid ? d->regid : d->devid, ".lock",
			       d->err);

	if (!rc)
		rc = pcb_open_rw(path, O_CREAT, PCB_MODE_STATE, d->err);
	if (rc < 0)
		return rc;
	d->lock_fd = rc;
	return 0;
}

int dev_write_check(struct device *d)
{
	return dev_open(d);
}

int dev_slot_write_check(struct device *d)
{
	int rc = dev_open(d);

	if (!rc && d->hostno >= 0)
		return pcb_error(d->err, PCB_E_STATE, "%s shares %s's slots: "
				 "enable, disable and debug mode go through %s "
				 "('dev open %s'); a host takes params of its "
				 "own", d->devid, d->regid, d->regid,
				 d->regid);
	return rc;
}

int dev_lock(struct device *d)
{
	double t0 = pcb_mono_s();
	bool told = false;
	char pid[24];
	int rc, n;

	if (d->lock_depth) {
		d->lock_depth++;
		return 0;
	}
	rc = dev_write_check(d);	/* its identity and journal */
	if (!rc && d->lock_fd < 0)
		rc = lock_open(d);
	while (!rc && flock(d->lock_fd, LOCK_EX | LOCK_NB)) {
		double waited = pcb_mono_s() - t0;

		if (errno != EWOULDBLOCK && errno != EINTR)
			return pcb_error(d->err, PCB_E_IO, "cannot lock device "
					 "%s: %s", d->devid, strerror(errno));
		n = (int)pread(d->lock_fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		if (d->opt->stop && *d->opt->stop)
			return pcb_error(d->err, PCB_E_INTR, "interrupted");
		if (waited > 60)
			return pcb_error(d->err, PCB_E_BUSY,
					 "device %s is busy: "
					 "pccbench pid %s has held its lock for "
					 "a minute", d->devid, *pid ? pid : "?");
		if (waited > 1 && !told) {
			dev_warn(d, "waiting for device %s: pccbench pid %s "
				 "is writing to it", d->devid,
				 *pid ? pid : "?");
			told = true;
		}
		usleep(5000);
	}
	if (rc)
		return rc;
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	/* who holds it, for the message above; nothing depends on it */
	if (!ftruncate(d->lock_fd, 0))
		n = (int)pwrite(d->lock_fd, pid, (size_t)n, 0);
	d->lock_depth = 1;
	rc = journal_reload(d->journal, d->err);
	if (rc)
		dev_unlock(d);
	return rc;
}

void dev_unlock(struct device *d)
{
	if (d->lock_depth && !--d->lock_depth)
		flock(d->lock_fd, LOCK_UN);
}

const char *dev_clock(struct device *d)
{
	return dev_open(d) ? NULL : d->ops->clock(d);
}

unsigned dev_traits(struct device *d)
{
	return dev_open(d) ? 0 : d->ops->traits;
}

const char *dev_kind(struct device *d)
{
	return dev_open(d) ? "?" : d->ops->kind;
}

int64_t dev_tick(struct device *d)
{
	return dev_open(d) ? PS_PER_S : d->ops->tick;
}

int64_t dev_now(struct device *d)
{
	return dev_open(d) ? 0 : d->ops->now(d);
}

int dev_run_until(struct device *d, int64_t until, bool window)
{
	int rc = dev_open(d);

	return rc ? rc : d->ops->run_until(d, until, window, d->err);
}

int dev_run(struct device *d, int64_t ps, bool window)
{
	int rc = dev_open(d);

	return rc ? rc : d->ops->run_until(d, d->ops->now(d) + ps, window,
					   d->err);
}

int dev_advance(struct device *d, int64_t ps, bool wall)
{
	struct timespec ts;

	if (!wall)
		return dev_run(d, ps, false);
	ts.tv_sec = (time_t)(ps / 1000000000000LL);
	ts.tv_nsec = (long)(ps % 1000000000000LL / 1000);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		if (d->opt->stop && *d->opt->stop)
			return pcb_error(d->err, PCB_E_INTR, "interrupted");
	return 0;
}

int dev_ctrs(struct device *d, struct dev_ctrs **out)
{
	int rc = dev_open(d);

	return rc ? rc : d->ops->ctrs(d, out, d->err);
}

int dev_pcc_counters(struct device *d, unsigned slot, bool clear,
		     uint32_t *vals, size_t max, size_t *n)
{
	int rc = dev_open(d);

	if (rc)
		return rc;
	if (d->ops->pcc_counters)
		return d->ops->pcc_counters(d, slot, clear, vals, max, n,
					    d->err);
	return ppcc_counters(&d->ppcc, slot, clear, vals, max, n, d->err);
}

int dev_ctr_find(const struct dev_ctrs *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->name(c, i), name))
			return (int)i;
	return -1;
}

int dev_retx(struct device *d, struct retx_dev **out)
{
	int rc = dev_open(d);

	return rc ? rc : d->ops->retx(d, out, d->err);
}

bool dev_retx_peek(struct device *d, size_t *gen, struct retx_cfg *cfg,
		   bool *running, uint64_t *bins)
{
	*running = false;
	return !dev_open(d) && d->ops->retx_peek(d, gen, cfg, running, bins);
}

int dev_diag(struct device *d, struct diag_dev **out)
{
	int rc = dev_open(d);

	return rc ? rc : d->ops->diag(d, out, d->err);
}

int dev_diag_sources(struct device *d, uint64_t v[DS_COUNT])
{
	int rc = dev_open(d);

	return rc ? rc : d->ops->diag_sources(d, v, d->err);
}

int dev_pcc(struct device *d, const struct pcc_prov **ops, void **p)
{
	int rc = dev_open(d);

	*ops = NULL;
	*p = NULL;
	if (rc || !d->ops->pcc)
		return rc;
	return d->ops->pcc(d, ops, p, d->err);
}

int dev_diag_watch(struct device *d, const uint64_t *ids, uint32_t n)
{
	int rc = dev_open(d);

	if (rc || !d->ops->diag_watch)
		return rc;
	return d->ops->diag_watch(d, ids, n, d->err);
}

int dev_summary(struct device *d, double v[DEV_S_COUNT])
{
	int rc = dev_open(d);

	return rc ? rc : d->ops->summary(d, v, d->err);
}

int dev_workload(struct device *d, char *buf, size_t len, uint64_t *seed)
{
	int rc = dev_open(d);

	return rc ? rc : d->ops->workload(d, buf, len, seed, d->err);
}

int dev_replay(struct device *d, int argc, char **argv, uint64_t seed)
{
	int rc = dev_open(d);

	return rc ? rc : d->ops->replay(d, argc, argv, seed, d->err);
}

int dev_traffic_start(struct device *d, char **argv, const char *log)
{
	int rc = dev_open(d);

	return rc ? rc : d->ops->traffic_start(d, argv, log, d->err);
}

int dev_traffic_stop(struct device *d, int rc)
{
	struct pcb_err e = { 0 };
	int rc2 = d->ops ? d->ops->traffic_stop(d, &e) : 0;

	if (rc || !rc2)
		return rc;
	*d->err = e;
	return rc2;
}

int dev_copy(struct device *d, const char *dir)
{
	int rc = dev_open(d);

	return rc ? rc : d->ops->copy(d, dir, d->err);
}

void dev_meta(struct device *d, FILE *fp)
{
	if (d->ops)
		d->ops->meta(d, fp);
}

int dev_own_params(struct device *d, unsigned slot, uint64_t *mask)
{
	int rc = dev_open(d);

	*mask = 0;
	if (rc || !d->ops->own)
		return rc;
	return d->ops->own(d, slot, mask, d->err);
}

size_t dev_info(struct device *d, const char *kv[][2], size_t max)
{
	return dev_open(d) ? 0 : d->ops->info(d, kv, max);
}
