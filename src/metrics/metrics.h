/* metrics.h - the metrics engine (src/metrics/): the device's values
 * collected into a Prometheus text, and the state one collection leaves
 * for the next.
 *
 *   set.c      what a collection covers: the devices, the host counters
 *              (`collect`), the names other exporters give a device;
 *   collect.c  one collection, as exposition text.
 *
 * collect.c calls set.c, never the other way.  The commands parse and
 * deliver the text: `export metrics` (src/cmd/metrics.c) to a file,
 * `serve metrics` (src/cmd/serve.c) over HTTP.
 */
#ifndef PCCB_METRICS_H
#define PCCB_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session.h"

struct mx_opts {
	const char *to, *devices, *collect, *web;
	int64_t every, dur, timeout;	/* ps; 0: not given */
};

#define PROM_KEY_LEN 320

/* What one collection leaves for the next: the counters' last readings
 * (collect.c), so totals go on across the device's 32-bit wraps and an
 * average covers the interval between two collections.  Zeroed to start;
 * mx_state_release frees it.
 */
#define MX_MAX_DEVS 64
#define MX_MAX_COLLECT 64

struct mx_hist;
struct mx_state {
	struct mx_hist *h;
	size_t n, cap;
	/* `devices`: a session per device; none: the session's own */
	struct session *devs;
	size_t ndevs;
	/* `collect`: the host counters' rules after the default ones */
	char *collect[MX_MAX_COLLECT], *collect_buf;
	size_t ncollect;
	/* the last collection: devices that failed, the first's error */
	size_t nfailed;
	struct pcb_err err;
};
/* The devices of o->devices (none: the session's own device). */
int mx_state_init(struct session *s, struct mx_state *st,
		  const struct mx_opts *o);
void mx_state_release(struct mx_state *st);
/* Whether a host counter is exported (the default set, then `collect`). */
bool mx_collects(const struct mx_state *st, const char *name);
/* pccbench_device_info{device,rdma,netdev,port,model,fw} for device id
 * (port "" when unknown), its names from the NICs discovered.
 */
struct pcb_nic;
struct prom_set;
int mx_add_info(struct prom_set *p, const struct pcb_nic *nics, size_t nn,
		const char *id, const char *port, struct pcb_err *err);

/* Everything, once, as exposition text (malloc'd, the caller frees);
 * st carries the counters' history from one collection to the next.
 */
int mx_collect(struct session *s, struct mx_state *st, char **buf,
	       size_t *len);

#endif
