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

/* Everything, once, as exposition text (malloc'd, the caller frees). */
int mx_collect(struct session *s, char **buf, size_t *len);

#endif
