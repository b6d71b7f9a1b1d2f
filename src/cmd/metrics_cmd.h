/* metrics_cmd.h - what `export metrics` (metrics.c) and `serve metrics`
 * (serve.c) share: their keywords parsed.  The collection is the metrics
 * engine's (metrics/metrics.h).
 */
#ifndef PCCB_CMD_METRICS_CMD_H
#define PCCB_CMD_METRICS_CMD_H

#include <stddef.h>

#include "cmd/complete.h"
#include "metrics/metrics.h"
#include "session.h"

/* What their keywords fill: the options, and who asks (for errors). */
struct mx_req {
	struct mx_opts o;
	const char *who;
};

/* every, for, timeout: 1ms..86400s */
int mx_set_dur(struct session *s, void *req, const struct cmd_kw *k,
	       const char *val);
#define MX_KW_DUR(n, a, field) { .name = n, .arg = a, .set = mx_set_dur, \
	.off = offsetof(struct mx_req, o.field) }
#define MX_KW_STR(n, a, field, fl) { .name = n, .arg = a, .flags = fl, \
	.dest = KW_D_STR, .off = offsetof(struct mx_req, o.field) }

/* The keywords of `keys` (pairs KEY VALUE) into o; one error line. */
int mx_parse_opts(struct session *s, const char *who,
		  const struct cmd_kw *keys, int argc, char **argv,
		  struct mx_opts *o);

#endif
