/* metrics_cmd.h - what `export metrics` (metrics.c) and `serve metrics`
 * (serve.c) share: their keywords parsed.  The collection is the metrics
 * engine's (metrics/metrics.h).
 */
#ifndef PCCB_CMD_METRICS_CMD_H
#define PCCB_CMD_METRICS_CMD_H

#include "cmd/complete.h"
#include "metrics/metrics.h"
#include "session.h"

/* The keywords of `keys` (pairs KEY VALUE) into o; one error line. */
int mx_parse_opts(struct session *s, const char *who,
		  const struct cmd_kw *keys, int argc, char **argv,
		  struct mx_opts *o);

#endif
