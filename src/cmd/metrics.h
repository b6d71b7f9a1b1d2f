/* metrics.h - what metrics.c (the collection, `export metrics`) and
 * serve.c (`serve metrics`, the HTTP endpoint) share.
 */
#ifndef PCCB_CMD_METRICS_H
#define PCCB_CMD_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/complete.h"
#include "session.h"

struct mx_opts {
	const char *to;
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
struct mx_hist;
struct mx_state {
	struct mx_hist *h;
	size_t n, cap;
};
void mx_state_release(struct mx_state *st);

/* Everything, once, as exposition text (malloc'd, the caller frees);
 * st carries the counters' history from one collection to the next.
 */
int mx_collect(struct session *s, struct mx_state *st, char **buf,
	       size_t *len);

#endif
