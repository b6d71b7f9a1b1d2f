/* metrics.h - what metrics.c (the collection, `export metrics`) and
 * serve.c (`serve metrics`, the HTTP endpoint) share.
 */
#ifndef PCCB_CMD_METRICS_H
#define PCCB_CMD_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/complete.h"
#include "session.h"

struct mx_opts {
	const char *to, *devices, *collect, *web;
	int64_t every, dur, timeout;	/* ps; 0: not given */
};

/* The keywords of `keys` (pairs KEY VALUE) into o; one error line. */
int mx_parse_opts(struct session *s, const char *who,
		  const struct cmd_kw *keys, int argc, char **argv,
		  struct mx_opts *o);

#define PROM_KEY_LEN 320

/* What one collection leaves for the next: the counters' last readings
 * (metrics.c), so totals go on across the device's 32-bit wraps and an
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
