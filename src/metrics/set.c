/* set.c - what one collection (collect.c) covers: the devices
 * (`devices all|DEV,...`, a read-only session each), the host counters
 * (the default set and `collect` globs, the 32-bit ones), and the names
 * other exporters give a device (pccbench_device_info).
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/metrics.h"
#include "discover.h"
#include "fsafe.h"
#include "paths.h"
#include "prom.h"
#include "session.h"

void mx_state_release(struct mx_state *st)
{
	size_t i;

	for (i = 0; i < st->ndevs; i++)
		sess_release(&st->devs[i]);
	free(st->devs);
	free(st->h);
	free(st->collect_buf);
	memset(st, 0, sizeof(*st));
}

/* The host counters exported unless `collect` says otherwise: those
 * node_exporter's default collectors do not give, RoCE's congestion
 * and error counters (hw_counters), PFC pauses, discards.  Left out: the
 * InfiniBand port counters (`counters/`: its infiniband collector), the
 * netdev statistics (netdev) and byte and packet volumes (netdev; per
 * priority, ethtool's).
 */
static const char *const collect_default[] = {
	"-port_*", "-net_*", "-rx_*bytes*", "-tx_*bytes*", "-rx_*packets*",
	"-tx_*packets*", "-symbol_error", "-link_downed",
	"-link_error_recovery", "-local_link_integrity_errors",
	"-excessive_buffer_overrun_errors", "-VL15_dropped", "-multicast_*",
	"-unicast_*",
};

/* Whether a rule list (+GLOB includes, -GLOB excludes, the last that
 * matches decides) keeps name; *hit whether any matched.
 */
static bool collect_rules(const char *const *r, size_t n, const char *name,
			  bool *hit)
{
	bool keep = true;
	size_t i;

	*hit = false;
	for (i = 0; i < n; i++) {
		const char *g = r[i] + (r[i][0] == '-' || r[i][0] == '+');

		if (!fnmatch(g, name, 0)) {
			keep = r[i][0] != '-';
			*hit = true;
		}
	}
	return keep;
}

bool mx_collects(const struct mx_state *st, const char *name)
{
	size_t nd = sizeof(collect_default) / sizeof(collect_default[0]);
	bool hit, keep = collect_rules(collect_default, nd, name, &hit);
	bool mine = collect_rules((const char *const *)st->collect,
				  st->ncollect, name, &hit);

	return hit ? mine : keep;
}

/* `collect GLOB,...`: the rules after the default ones. */
static int mx_collect_parse(struct session *s, struct mx_state *st,
			    const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;

	if (!copy)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	st->collect_buf = copy;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const char *g = tok + (tok[0] == '-' || tok[0] == '+');

		if (!*g || strlen(g) > 128 || strspn(g, "abcdefghijklmnopqrstu"
		    "vwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.*?[]!-") !=
		    strlen(g))
			return pcb_error(&s->err, PCB_E_USAGE, "metrics: "
					 "collect: bad glob '%s' (+GLOB or "
					 "-GLOB, comma separated: a counter "
					 "name with * ? [...])", tok);
		if (st->ncollect == MX_MAX_COLLECT)
			return pcb_error(&s->err, PCB_E_USAGE, "metrics: "
					 "collect: more than %d globs",
					 MX_MAX_COLLECT);
		st->collect[st->ncollect++] = tok;
	}
	if (!st->ncollect)
		return pcb_error(&s->err, PCB_E_USAGE, "metrics: collect: "
				 "give +GLOB or -GLOB, comma separated");
	return 0;
}

/* mlx5's queue counters (hw_counters/, drivers/infiniband/hw/mlx5/
 * counters.c, the q-counters; not the congestion ones, np_* and rp_*,
 * which are 64-bit) are 32-bit and wrap; the kernel shows them as they
 * are.  Made 64-bit totals as the PPCC counters are (hist_extend): one
 * that is in fact wider comes out the same while it grows by less than
 * 2^31 between two readings, which events do.
 */
/* A sysfs attribute's first line ("" when it cannot be read). */
static void sysfs_line(const char *rdma, const char *attr, char *out,
		       size_t len)
{
	char path[PCB_PATH_LEN], *buf = NULL;
	struct pcb_err e = { 0 };
	size_t n = 0;

	*out = '\0';
	if (!rdma[0] || strchr(rdma, '/') || pcb_path(path, sizeof(path), &e,
	    "%s/class/infiniband/%s/%s", pcb_sysfs(), rdma, attr) ||
	    pcb_read_file(path, 256, &buf, &n, &e))
		return;
	snprintf(out, len, "%.*s", (int)strcspn(buf, "\n"), buf);
	free(buf);
}

/* pccbench_device_info: the names other exporters give the device (the
 * RDMA device and netdev node_exporter's infiniband and ethtool
 * collectors label with), its port, model and firmware, for joins.
 */
int mx_add_info(struct prom_set *p, const struct pcb_nic *nics, size_t nn,
		const char *id, const char *port, struct pcb_err *err)
{
	const struct pcb_nic *c = NULL;
	char fw[64] = "";
	struct prom_label l[6];
	size_t i;

	for (i = 0; i < nn; i++)
		if (!strcmp(nics[i].bdf, id))
			c = &nics[i];
	if (c)
		sysfs_line(c->rdma, "fw_ver", fw, sizeof(fw));
	l[0] = (struct prom_label){ "device", id };
	l[1] = (struct prom_label){ "rdma", c && c->rdma[0] ? c->rdma : NULL };
	l[2] = (struct prom_label){ "netdev", c && c->netdev[0] ? c->netdev :
				    NULL };
	l[3] = (struct prom_label){ "port", *port ? port : NULL };
	l[4] = (struct prom_label){ "model", c && c->model[0] ? c->model :
				    NULL };
	l[5] = (struct prom_label){ "fw", *fw ? fw : NULL };
	return prom_add(p, "pccbench_device_info", PROM_GAUGE, "1 for each "
			"device, its other names as labels (the RDMA device "
			"and netdev node_exporter labels with): join on them",
			l, 6, 1, err);
}

/* The sessions of `devices all|DEV,DEV...`: the host's NVIDIA NIC ports
 * (physical functions that reach PPCC) or those named, each opened like
 * the session's own device but read-only (metrics never write).
 */
static int mx_devices(struct session *s, struct mx_state *st,
		      const char *list)
{
	struct pcb_nic *nics = NULL;
	char *names[MX_MAX_DEVS], *copy = NULL, *tok, *save = NULL;
	size_t i, n = 0, nn = 0;
	int rc = 0;

	if (!strcmp(list, "all")) {
		rc = pcb_discover(&nics, &nn, &s->err);
		for (i = 0; !rc && i < nn && n < MX_MAX_DEVS; i++)
			if (pcb_fn_has_ppcc(nics[i].kind) && !nics[i].vf)
				names[n++] = nics[i].bdf;
		if (!rc && !n)
			rc = pcb_error(&s->err, PCB_E_DEVICE, "metrics: "
				       "devices all: no NVIDIA NIC port on "
				       "this host ('dev list')");
	} else {
		copy = strdup(list);
		if (!copy)
			return pcb_error(&s->err, PCB_E_NOMEM,
					 "out of memory");
		for (tok = strtok_r(copy, ",", &save); tok && !rc;
		     tok = strtok_r(NULL, ",", &save)) {
			for (i = 0; i < n && strcmp(names[i], tok); i++)
				;
			if (i < n)
				rc = pcb_error(&s->err, PCB_E_USAGE, "metrics: "
					       "devices: '%s' given twice",
					       tok);
			else if (n == MX_MAX_DEVS)
				rc = pcb_error(&s->err, PCB_E_USAGE, "metrics: "
					       "devices: more than %d",
					       MX_MAX_DEVS);
			else
				names[n++] = tok;
		}
		if (!rc && !n)
			rc = pcb_error(&s->err, PCB_E_USAGE, "metrics: "
				       "devices: give all or DEV,DEV...");
	}
	if (!rc) {
		st->devs = calloc(n, sizeof(*st->devs));
		if (!st->devs)
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	for (i = 0; !rc && i < n; i++) {
		struct session *d = &st->devs[i];

		sess_init(d, names[i]);
		st->ndevs++;
		d->opt.backend = s->opt.backend ? strdup(s->opt.backend) : NULL;
		d->opt.mstreg_prog = s->opt.mstreg_prog ?
				     strdup(s->opt.mstreg_prog) : NULL;
		d->opt.telemetry = s->opt.telemetry ?
				   strdup(s->opt.telemetry) : NULL;
		d->opt.timeout_ms = s->opt.timeout_ms;
		d->read_only = true;
		d->opt.errfp = s->opt.errfp;
		d->out = s->out;
		d->opt.stop = s->opt.stop;
		if ((s->opt.backend && !d->opt.backend) ||
		    (s->opt.mstreg_prog && !d->opt.mstreg_prog) ||
		    (s->opt.telemetry && !d->opt.telemetry))
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		else if (sess_set_device(d, names[i]))
			rc = pcb_error(&s->err, d->err.code, "%s",
				       d->err.msg);
	}
	free(copy);
	free(nics);
	return rc;
}

int mx_state_init(struct session *s, struct mx_state *st,
		  const struct mx_opts *o)
{
	int rc = 0;

	memset(st, 0, sizeof(*st));
	if (o->collect)
		rc = mx_collect_parse(s, st, o->collect);
	if (!rc && o->devices)
		rc = mx_devices(s, st, o->devices);
	return rc;
}

