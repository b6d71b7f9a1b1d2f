/* dev_sim.c - the sim device (device.h): its clock is simulated time,
 * its workload the scenario (sim/simdev.h), its counters the fabric's
 * host NICs named as the kernel and ethtool name a real host's.
 */
#include <stdlib.h>
#include <string.h>

#include <inttypes.h>
#include <math.h>
#include <stddef.h>

#include "dev_impl.h"
#include "dev_sim.h"
#include "fsafe.h"
#include "out.h"
#include "paths.h"
#include "sim/simdev.h"
#include "units.h"
#include "tel/retx.h"

/* One fabric per sim:NAME (and state file) in this process, whichever of
 * its devices (sim:NAME, sim:NAME/hN) opened it: running the clock
 * through one runs them all.  It works on the firmware state of one of
 * its users' transports (the same file for all).
 */
struct fabric_ref {
	char name[80];			/* sim:NAME's NAME */
	struct simdev *sd;
	struct sim_device *users;	/* who holds it */
	struct fabric_ref *next;
};
static struct fabric_ref *fabrics;

struct sim_device {
	struct device *base;
	struct simdev *sd;		/* the workload, opened on first use */
	struct fabric_ref *fab;		/* ... shared by sim:NAME's */
	struct sim_device *next_user;
	struct dev_ctrs ctrs;
	char hostno[16];		/* `dev show`'s "host" */
	char own[256];			/* ... and "own_params" */
	int64_t *rto;			/* a host's timeouts, to bin */
	size_t nrto;
};

static struct sim_device *sim_of(struct device *d)
{
	return d->priv;
}

/* The fabric of sim:NAME: the one open in this process, or opened. */
static int fabric_get(struct sim_device *m, struct pcb_err *err)
{
	const char *name = m->base->regid + 4;	/* sim:NAME */
	struct fabric_ref *f;
	int rc;

	/* of this state file: a sweep's worker process (a fork) opens its
	 * copy of the device under another state directory */
	for (f = fabrics; f && (strcmp(f->name, name) ||
				strcmp(simfw_path(f->sd->fw),
				       simfw_path(simfw_of(m->base->dev))));
	     f = f->next)
		;
	if (!f) {
		f = calloc(1, sizeof(*f));
		if (!f)
			return pcb_error(err, PCB_E_NOMEM, "out of memory");
		snprintf(f->name, sizeof(f->name), "%s", name);
		rc = simdev_open(&f->sd, simfw_of(m->base->dev), name, err);
		if (rc) {
			free(f);
			return rc;
		}
		f->next = fabrics;
		fabrics = f;
	}
	m->fab = f;
	m->sd = f->sd;
	m->next_user = f->users;
	f->users = m;
	return 0;
}

/* m lets go of its fabric: closed with its last user, else kept on the
 * firmware state of another's transport.
 */
static void fabric_put(struct sim_device *m)
{
	struct fabric_ref *f = m->fab, **pf;
	struct sim_device **pu;

	if (!f)
		return;
	for (pu = &f->users; *pu && *pu != m; pu = &(*pu)->next_user)
		;
	if (*pu)
		*pu = m->next_user;
	if (f->users) {
		if (f->sd->fw == simfw_of(m->base->dev))
			f->sd->fw = simfw_of(f->users->base->dev);
		return;
	}
	simdev_close(f->sd);
	for (pf = &fabrics; *pf && *pf != f; pf = &(*pf)->next)
		;
	if (*pf)
		*pf = f->next;
	free(f);
}

/* ---- the workload --------------------------------------------------- */

/* The workload of an open sim device, opened on first use. */
static int workload(struct device *d, struct simdev **out,
		    struct pcb_err *err)
{
	struct sim_device *m = sim_of(d);

	if (!m->sd) {
		int rc = fabric_get(m, err);

		if (rc)
			return rc;
	}
	*out = m->sd;
	return 0;
}

int dev_simdev(struct device *d, struct simdev **out)
{
	if (d->ops != &dev_sim_ops)
		return pcb_error(d->err, PCB_E_STATE, "'%s' is not a "
				 "simulated device", d->name);
	return workload(d, out, d->err);
}

static int fabric(struct device *d, struct sim **out, struct pcb_err *err)
{
	struct simdev *sd;
	int rc = workload(d, &sd, err);

	return rc ? rc : simdev_sim(sd, out, err);
}

static void sim_close(struct device *d)
{
	fabric_put(sim_of(d));
	free(sim_of(d)->rto);
	free(d->priv);
}

static int64_t sim_now_ps(struct device *d)
{
	const struct simdev *sd = sim_of(d)->sd;

	return sd && sd->sim ? sim_now(sd->sim) : 0;
}

static int simd_run(struct device *d, int64_t until, bool window,
		   struct pcb_err *err)
{
	struct sim *sim;
	int64_t ps;
	int rc = fabric(d, &sim, err);

	if (rc)
		return rc;
	ps = until - sim_now(sim);
	if (ps <= 0 && !window)
		return 0;
	return window ? simdev_run(sim_of(d)->sd, ps > 0 ? ps : 0,
				   d->opt->stop, err) :
			simdev_run_more(sim_of(d)->sd, ps, d->opt->stop, err);
}

/* ---- counters ------------------------------------------------------- */

/* The host NICs' counters: host N's own for sim:NAME/hN, else the sums. */
static int host_counters(struct sim_device *m, struct sim_port_counters *p,
			 struct pcb_err *err)
{
	int h = m->base->hostno;

	return h >= 0 ? simdev_host_counters_of(m->sd, (uint32_t)h, p, err) :
			simdev_host_counters(m->sd, p, err);
}

/* The kernel's and ethtool's names for what the fabric's host NICs count
 * (summed over every host); "%d" names go per priority 0..7.  Names of
 * the sim's own begin with sim_: a host cannot count them.
 */
enum { F_CNP_H, F_CNP_S, F_ECN, F_OOS, F_NAK, F_ACK_TO, F_RCV_WORDS,
       F_XMIT_WORDS, F_RCV_PKTS, F_XMIT_PKTS, F_RX_B, F_TX_B, F_RX_P, F_TX_P,
       F_SW_DROP, F_LINK_DROP, F_SW_PAUSE, F_SW_ECN,
       F_SCALARS, F_RX_PRIO_B = F_SCALARS, F_RX_PRIO_P, F_TX_PRIO_B,
       F_TX_PRIO_P, F_RX_PRIO_PAUSE, F_TX_PRIO_PAUSE, F_RX_PRIO_PAUSE_US,
       F_PRIO_END };

#define NCTRS (F_SCALARS + (F_PRIO_END - F_SCALARS) * 8)
#define PIDX(f, p) (F_SCALARS + ((f) - F_SCALARS) * 8 + (p))

static const char *const scalar_names[F_SCALARS] = {
	"rp_cnp_handled", "np_cnp_sent", "np_ecn_marked_roce_packets",
	"out_of_sequence", "packet_seq_err", "local_ack_timeout_err",
	"port_rcv_data", "port_xmit_data", "port_rcv_packets",
	"port_xmit_packets", "rx_bytes_phy", "tx_bytes_phy",
	"rx_packets_phy", "tx_packets_phy", "sim_switch_drops",
	"sim_link_drops", "sim_switch_pause_tx", "sim_switch_ecn_marked",
};
static const char *const prio_fmt[F_PRIO_END - F_SCALARS] = {
	"rx_prio%d_bytes", "rx_prio%d_packets", "tx_prio%d_bytes",
	"tx_prio%d_packets", "rx_prio%d_pause", "tx_prio%d_pause",
	"rx_prio%d_pause_duration",
};
static char prio_names[F_PRIO_END - F_SCALARS][8][32];

static const char *ctr_name(const struct dev_ctrs *c, size_t i)
{
	(void)c;
	if (i < F_SCALARS)
		return scalar_names[i];
	i -= F_SCALARS;
	if (!prio_names[i / 8][i % 8][0])
		snprintf(prio_names[i / 8][i % 8], sizeof(prio_names[0][0]),
			 prio_fmt[i / 8], (int)(i % 8));
	return prio_names[i / 8][i % 8];
}

static int ctr_read(struct dev_ctrs *c, uint64_t *v, struct pcb_err *err)
{
	struct sim_device *m = (struct sim_device *)((char *)c -
		offsetof(struct sim_device, ctrs));
	struct sim_port_counters pc, *p = &pc;
	struct sim *sim;
	size_t i;
	int rc = fabric(m->base, &sim, err);

	if (!rc)	/* kept with the device: they outlive a process */
		rc = host_counters(m, p, err);
	if (rc)
		return rc;
	v[F_CNP_H] = p->cnp_handled;
	v[F_CNP_S] = p->cnp_sent;
	v[F_ECN] = p->ecn_marked;
	v[F_OOS] = p->out_of_sequence;
	v[F_NAK] = p->nacks;
	v[F_ACK_TO] = p->rto;
	v[F_RCV_WORDS] = p->rx_bytes / 4;	/* 4-byte words, as mlx5 */
	v[F_XMIT_WORDS] = p->tx_bytes / 4;
	v[F_RCV_PKTS] = p->rx_pkts;
	v[F_XMIT_PKTS] = p->tx_pkts;
	v[F_RX_B] = p->rx_bytes;
	v[F_TX_B] = p->tx_bytes;
	v[F_RX_P] = p->rx_pkts;
	v[F_TX_P] = p->tx_pkts;
	v[F_SW_DROP] = p->drops_nobuf;
	v[F_LINK_DROP] = p->drops_loss;
	v[F_SW_PAUSE] = p->sw_pause_tx;
	v[F_SW_ECN] = p->ecn_marked_sw;
	for (i = 0; i < 8; i++) {
		v[PIDX(F_RX_PRIO_B, i)] = p->rx_bytes_prio[i];
		v[PIDX(F_RX_PRIO_P, i)] = p->rx_pkts_prio[i];
		v[PIDX(F_TX_PRIO_B, i)] = p->tx_bytes_prio[i];
		v[PIDX(F_TX_PRIO_P, i)] = p->tx_pkts_prio[i];
		v[PIDX(F_RX_PRIO_PAUSE, i)] =
			p->pause_rx_prio[i];
		v[PIDX(F_TX_PRIO_PAUSE, i)] =
			p->pause_tx_prio[i];
		v[PIDX(F_RX_PRIO_PAUSE_US, i)] = p->pause_rx_ns_prio[i] / 1000;
	}
	return 0;
}

static int sim_ctrs(struct device *d, struct dev_ctrs **out,
		    struct pcb_err *err)
{
	struct sim_device *m = sim_of(d);
	struct simdev *sd;
	uint32_t nics = 0;
	int rc = workload(d, &sd, err);

	if (!rc)	/* the scenario's: it may have changed */
		rc = simdev_nics(sd, &nics, err);
	if (rc)
		return rc;
	m->ctrs.nics = d->hostno >= 0 ? 1 : nics;
	if (d->hostno >= 0) {
		const char *role = simdev_host_role(sd, (uint32_t)d->hostno);

		snprintf(m->ctrs.where, sizeof(m->ctrs.where), "%s: host h%d's "
			 "NIC%s%s%s, its own counters", d->devid, d->hostno,
			 role ? " (" : "", role ? role : "", role ? ")" : "");
	} else {
		snprintf(m->ctrs.where, sizeof(m->ctrs.where), "%s: sums over "
			 "the fabric's %u host NICs, none a port's own ('sim "
			 "show' for the fabric)", d->devid, nics);
	}
	if (!m->ctrs.n) {
		m->ctrs.n = NCTRS;
		m->ctrs.name = ctr_name;
		m->ctrs.read = ctr_read;
		/* the sim retransmits on timeouts with a backed-off timer
		 * and does not tell adaptive retransmissions apart */
		m->ctrs.unmodeled = "adp_retrans,adp_retrans_timeouts,"
				    "slow_restart";
	}
	*out = &m->ctrs;
	return 0;
}

/* ---- telemetry ------------------------------------------------------ */

static int sim_retx(struct device *d, struct retx_dev **out,
		    struct pcb_err *err)
{
	struct simdev *sd;
	int rc = workload(d, &sd, err);

	if (!rc)
		*out = sd->retx;
	return rc;
}

/* Host N's retransmission timeouts in the current fabric, binned as the
 * histogram's configuration bins them (the growth between two reads is
 * the interval's, as the histogram's own).
 */
static void host_bins(struct sim_device *m, const struct retx_cfg *cfg,
		      uint64_t *bins)
{
	uint32_t h = (uint32_t)m->base->hostno, i;
	uint64_t u = tel_retx_unit_ps(cfg->unit), lo, hi;
	size_t n = simdev_host_rto_values(m->sd, h, NULL, 0), k;

	for (i = 0; i < RETX_MAX_BINS; i++)
		bins[i] = 0;
	if (n > m->nrto) {
		int64_t *v = realloc(m->rto, n * sizeof(*v));

		if (!v)
			return;
		m->rto = v;
		m->nrto = n;
	}
	n = simdev_host_rto_values(m->sd, h, m->rto, m->nrto);
	for (k = 0; k < n && k < m->nrto; k++)
		for (i = 0; i < cfg->num_bins && i < RETX_MAX_BINS; i++) {
			tel_retx_bin_range(cfg, i, &lo, &hi);
			if ((uint64_t)m->rto[k] >= lo * u &&
			    (hi == UINT64_MAX || (uint64_t)m->rto[k] <
			     (hi + 1) * u)) {
				bins[i]++;
				break;
			}
		}
}

static bool sim_retx_peek(struct device *d, size_t *gen, struct retx_cfg *cfg,
			  bool *running, uint64_t *bins)
{
	struct pcb_err e = { 0 };
	struct simdev *sd;

	if (workload(d, &sd, &e))
		return false;
	/* the bins change only with new timeouts (or another reader) */
	if (sd->rto_seen == *gen)
		return false;
	retx_dev_peek(sd->retx, cfg, running, bins);
	*gen = sd->rto_seen;
	if (d->hostno >= 0)	/* a host's: its own timeouts binned */
		host_bins(sim_of(d), cfg, bins);
	return true;
}

static int sim_diag(struct device *d, struct diag_dev **out,
		    struct pcb_err *err)
{
	struct simdev *sd;
	int rc = workload(d, &sd, err);

	if (!rc)
		*out = sd->diag;
	return rc;
}

static int sim_diag_sources(struct device *d, uint64_t v[DS_COUNT],
			    struct pcb_err *err)
{
	struct sim *sim;
	int rc = fabric(d, &sim, err);

	if (!rc && d->hostno >= 0)	/* that NIC's own */
		simdev_host_diag_sources(sim, (uint32_t)d->hostno, v);
	else if (!rc)
		simdev_diag_sources(sim, v);
	return rc;
}

/* A host's PPCC counters: that NIC's view of the register's (its own
 * RTT samples and rate events); a clearing read clears that view only.
 */
static int sim_pcc_counters(struct device *d, unsigned slot, bool clear,
			    uint32_t *vals, size_t max, size_t *n,
			    struct pcb_err *err)
{
	size_t k = max < ALGO_MAX_COUNTERS ? max : ALGO_MAX_COUNTERS;
	struct simdev *sd;
	int rc;

	if (d->hostno < 0)
		return ppcc_counters(&d->ppcc, slot, clear, vals, max, n, err);
	rc = workload(d, &sd, err);
	if (!rc)
		rc = simdev_host_pcc_counters(sd, (uint32_t)d->hostno, slot,
					      vals, k, err);
	if (!rc && clear)
		simdev_host_pcc_clear(sd, (uint32_t)d->hostno, slot);
	if (!rc)
		*n = k;
	return rc;
}

static int sim_summ(struct device *d, double v[DEV_S_COUNT],
		    struct pcb_err *err)
{
	struct sim_summary sum;
	struct sim *sim;
	int rc = fabric(d, &sim, err);

	if (rc)
		return rc;
	sim_summary(sim, &sum);
	v[DEV_S_UTIL] = sum.util;
	v[DEV_S_JAIN] = sum.jain;
	v[DEV_S_QMEAN] = sum.q_mean;
	v[DEV_S_QP99] = sum.q_p99;
	v[DEV_S_QMAX] = sum.q_max;
	v[DEV_S_RTTMEAN] = sum.rtt_samples ? sum.rtt_mean : NAN;
	v[DEV_S_RTTP99] = sum.rtt_samples ? sum.rtt_p99 : NAN;
	v[DEV_S_RTOS] = (double)sum.rtos;
	sim_fct_slowdown(sim, &v[DEV_S_FCTP50], &v[DEV_S_FCTP99]);
	v[DEV_S_COLL] = sum.colls ? (double)sum.coll_mean / PS_PER_US : NAN;
	v[DEV_S_BUSBW] = sum.colls ? sum.busbw : NAN;
	return 0;
}

/* ---- workload ------------------------------------------------------- */

static int sim_workload(struct device *d, char *buf, size_t len,
			uint64_t *seed, struct pcb_err *err)
{
	struct simdev *sd;
	int rc = workload(d, &sd, err);

	if (rc)
		return rc;
	sim_cfg_format(&sd->cfg, buf, len);
	*seed = sd->cfg.seed;
	return 0;
}

static int sim_replay(struct device *d, int argc, char **argv, uint64_t seed,
		      struct pcb_err *err)
{
	struct sim_cfg cfg;
	struct simdev *sd;
	int rc = workload(d, &sd, err);

	if (rc)
		return rc;
	sim_cfg_default(&cfg);
	if (argc < 1)
		return pcb_error(err, PCB_E_USAGE, "no scenario");
	rc = simdev_parse_scenario(&cfg, argv[0], argc - 1, argv + 1, err);
	if (rc)
		return rc;
	cfg.seed = seed;
	sd->cfg = cfg;		/* this process's run only: not saved */
	simdev_reset(sd);
	return 0;
}

int dev_workload_check(int argc, char **argv, uint64_t *seed,
		       struct pcb_err *err)
{
	struct sim_cfg cfg;
	int rc;

	sim_cfg_default(&cfg);
	if (argc < 1)
		return pcb_error(err, PCB_E_USAGE, "no scenario");
	rc = simdev_parse_scenario(&cfg, argv[0], argc - 1, argv + 1, err);
	*seed = cfg.seed;
	return rc;
}

const char *dev_workload_kinds(void)
{
	return sim_kind_list();
}

const char *dev_workload_keys(const char *kind)
{
	enum sim_kind k;

	return sim_kind_parse(kind, &k) ? NULL : sim_cfg_keys(k);
}

/* The standard case (64 flows, 400 Gb/s, 4 KB) runs about 10 ms of device
 * time in 0.1 s; the cost grows with packets.
 */
double dev_workload_cost(int argc, char **argv)
{
	struct pcb_err e = { 0 };
	struct sim_cfg c;
	double flows;

	sim_cfg_default(&c);
	if (argc >= 1)
		simdev_parse_scenario(&c, argv[0], argc - 1, argv + 1, &e);
	flows = c.kind == SIM_INCAST || c.kind == SIM_STAIRCASE ? c.senders :
		(double)c.leaves * c.hosts_per_leaf;
	return 10.0 * (flows < 64 ? 1.0 : flows / 64.0) * c.rate_gbps / 400.0 *
	       4096.0 / c.mtu;
}

static int sim_traffic(struct device *d, char **argv, const char *log,
		       struct pcb_err *err)
{
	(void)argv;
	(void)log;
	return pcb_error(err, PCB_E_STATE, "'while' runs a traffic command "
			 "on a real NIC; %s makes its own traffic ('sim "
			 "scenario')", d->name);
}

static int sim_traffic_stop(struct device *d, struct pcb_err *err)
{
	(void)d;
	(void)err;
	return 0;
}

/* The firmware state, scenario and host NICs' own params, copied into
 * dir/pccbench/sim. */
static int sim_copy(struct device *d, const char *dir, struct pcb_err *err)
{
	static const char *const ext[] = { ".dev", ".scenario", ".hosts" };
	const char *fw = simfw_path(simfw_of(d->dev));
	const char *name = strrchr(fw, '/') + 1;
	char sim[PCB_PATH_LEN], from[PCB_PATH_LEN], to[PCB_PATH_LEN];
	int stem = (int)(strrchr(fw, '.') - fw), nstem = (int)(fw + stem - name);
	size_t i;
	int rc;

	rc = pcb_path(sim, sizeof(sim), err, "%s/pccbench/sim", dir);
	if (!rc)
		rc = pcb_mkdirs(sim, 0700, err);
	/* NAME.dev, NAME.scenario (the model options live there; a
	 * device without one has the defaults) and NAME.hosts (the host
	 * NICs' own params, firmware.h; none without one) */
	for (i = 0; !rc && i < sizeof(ext) / sizeof(ext[0]); i++) {
		rc = pcb_path(from, sizeof(from), err, "%.*s%s", stem, fw,
			      ext[i]);
		if (!rc)
			rc = pcb_path(to, sizeof(to), err, "%s/%.*s%s", sim,
				      nstem, name, ext[i]);
		if (!rc)
			rc = pcb_copy_file(from, to, err);
	}
	return rc;
}

static void sim_meta(struct device *d, FILE *fp)
{
	struct simdev *sd = sim_of(d)->sd;
	char cfg[1024];

	if (!sd)
		return;
	sim_cfg_format(&sd->cfg, cfg, sizeof(cfg));
	fprintf(fp, ",\"seed\":%" PRIu64 ",\"scenario\":", sd->cfg.seed);
	out_json_string(fp, cfg);
	fputs(",\"algorithm\":", fp);
	out_json_string(fp, sd->algo_label);
	if (d->hostno >= 0) {	/* whose NIC, and its part */
		const char *role = simdev_host_role(sd, (uint32_t)d->hostno);

		fprintf(fp, ",\"host\":%d,\"role\":", d->hostno);
		out_json_string(fp, role ? role : "");
	}
}

static int sim_own(struct device *d, unsigned slot, uint64_t *mask,
		   struct pcb_err *err)
{
	struct simfw *fw = simfw_of(d->dev);
	uint32_t vals[ALGO_MAX_PARAMS];
	const struct algo_desc *desc;

	*mask = 0;
	if (d->hostno < 0 || slot >= SIMFW_SLOTS ||
	    !(desc = simfw_slot_desc(fw, slot)))
		return 0;
	return simfw_host_params(fw, (uint32_t)d->hostno, slot, vals,
				 desc->nparams, mask, err);
}

/* A host NIC's params of its own, "slot 1 FIXED_RATE, ..." (the rest
 * the shared register's), for `dev show`. */
static const char *own_params(struct device *d, char *buf, size_t len)
{
	struct simfw *fw = simfw_of(d->dev);
	struct pcb_err e = { 0 };
	size_t l = 0, i;
	unsigned slot;
	uint64_t own;

	*buf = '\0';
	for (slot = 0; slot < SIMFW_SLOTS && l < len; slot++) {
		const struct algo_desc *desc = simfw_slot_desc(fw, slot);

		if (!desc)
			continue;
		if (sim_own(d, slot, &own, &e)) {
			snprintf(buf, len, "? (%.200s)", e.msg);
			return buf;
		}
		for (i = 0; i < desc->nparams && l < len; i++)
			if (own >> i & 1)
				l += (size_t)snprintf(buf + l, len - l,
						      "%sslot %u %s",
						      l ? ", " : "", slot,
						      desc->params[i].name);
	}
	if (l >= len)	/* too many to name: ends "..." */
		memcpy(buf + len - 4, "...", 4);
	if (!*buf)
		snprintf(buf, len, "none (%s's register throughout)",
			 d->regid);
	return buf;
}

static size_t sim_info(struct device *d, const char *kv[][2], size_t max)
{
	if (max < 4)
		return 0;
	kv[0][0] = "state_file";
	kv[0][1] = simfw_path(simfw_of(d->dev));
	/* who serves each telemetry context (on a NIC: DOCA, PPCC, none) */
	kv[1][0] = "diag";
	kv[1][1] = "sim";
	kv[2][0] = "retx";
	kv[2][1] = "sim";
	kv[3][0] = "pcc";
	kv[3][1] = "PPCC register (the sim firmware's)";
	if (d->hostno < 0 || max < 7)
		return 4;
	/* a host: which, its part, and whose register it shares */
	snprintf(sim_of(d)->hostno, sizeof(sim_of(d)->hostno), "h%d",
		 d->hostno);
	kv[4][0] = "host";
	kv[4][1] = sim_of(d)->hostno;
	kv[5][0] = "role";
	kv[5][1] = sim_of(d)->sd ? simdev_host_role(sim_of(d)->sd,
						   (uint32_t)d->hostno) : NULL;
	if (!kv[5][1])
		kv[5][1] = "?";
	kv[6][0] = "register";
	kv[6][1] = d->regid;
	if (max < 8)
		return 7;
	kv[7][0] = "own_params";
	kv[7][1] = own_params(d, sim_of(d)->own, sizeof(sim_of(d)->own));
	return 8;
}

/* The fabric's simulated time: sim:NAME's and its hosts'. */
static const char *sim_clock(struct device *d)
{
	return d->regid;
}

/* sim:NAME/hN: N must be a host of the fabric. */
static int sim_opened(struct device *d, struct pcb_err *err)
{
	struct simdev *sd;
	uint32_t nics = 0;
	int rc;

	if (d->hostno < 0)
		return 0;
	rc = workload(d, &sd, err);
	if (!rc)
		rc = simdev_nics(sd, &nics, err);
	if (!rc && (uint32_t)d->hostno >= nics)
		rc = pcb_error(err, PCB_E_NOENT, "%s: the fabric of %s has "
			       "hosts h0..h%u ('sim show')", d->devid,
			       d->regid, nics - 1);
	if (!rc)	/* its register: that NIC's (firmware.h) */
		simfw_set_host(simfw_of(d->dev), d->hostno);
	return rc;
}

int dev_view(struct device *d)
{
	struct simfw *fw = d->dev ? simfw_of(d->dev) : NULL;

	return fw ? simfw_host(fw) : -1;
}

int dev_view_set(struct device *d, int host)
{
	struct simfw *fw = d->dev ? simfw_of(d->dev) : NULL;
	int was = fw ? simfw_host(fw) : -1;

	if (fw)
		simfw_set_host(fw, host);
	return was;
}

const struct dev_ops dev_sim_ops = {
	.kind = "sim",
	.tick = PS_PER_MS,
	.traits = DEV_T_REPLAY,
	.close = sim_close,
	.now = sim_now_ps,
	.run_until = simd_run,
	.ctrs = sim_ctrs,
	.retx = sim_retx,
	.retx_peek = sim_retx_peek,
	.diag = sim_diag,
	.diag_sources = sim_diag_sources,
	.summary = sim_summ,
	.workload = sim_workload,
	.replay = sim_replay,
	.traffic_start = sim_traffic,
	.traffic_stop = sim_traffic_stop,
	.copy = sim_copy,
	.meta = sim_meta,
	.info = sim_info,
	.own = sim_own,
	.clock = sim_clock,
	.opened = sim_opened,
	.pcc_counters = sim_pcc_counters,
};

int dev_sim_new(struct device *d)
{
	struct sim_device *m = calloc(1, sizeof(*m));

	if (!m)
		return -1;
	m->base = d;
	d->priv = m;
	d->ops = &dev_sim_ops;
	return 0;
}
