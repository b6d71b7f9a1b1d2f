/* metrics.c - `export metrics`: one collection of the metrics engine
 * (src/metrics/, metrics.h) to stdout or a file replaced whole, once or
 * each interval; and the keywords it shares with `serve metrics`
 * (serve.c, metrics_cmd.h).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd/metrics_cmd.h"
#include "device.h"
#include "fsafe.h"
#include "metrics/metrics.h"
#include "units.h"

static const struct cmd_kw export_keys[] = {
	MX_KW_STR("to", "FILE", to, KW_FILE),
	MX_KW_DUR("every", "I", every),
	MX_KW_DUR("for", "D", dur),
	MX_KW_STR("devices", "all|DEV,...", devices, 0),
	MX_KW_STR("collect", "+GLOB,-GLOB,...", collect, 0),
	{ 0 }
};

int mx_set_dur(struct session *s, void *req, const struct cmd_kw *k,
	       const char *val)
{
	int64_t *d = KW_AT(req, k, int64_t);

	if (pcb_parse_duration_ps(val, -1, d) || *d < 1000000000LL ||
	    *d > 86400 * 1000000000000LL)
		return cmd_bad_duration(s, ((struct mx_req *)req)->who, val,
					"1ms..86400s");
	return 0;
}

int mx_parse_opts(struct session *s, const char *who,
		  const struct cmd_kw *keys, int argc, char **argv,
		  struct mx_opts *o)
{
	struct mx_req q = { .o = *o, .who = who };
	const struct cmd_kw *kw;
	int at, rc = cmd_kw_parse(s, keys, &q, argc, argv, &at);

	*o = q.o;
	if (rc || at == argc)
		return rc;
	kw = cmd_kw_find(keys, argv[at]);
	if (!kw)
		return cmd_kw_unknown(s, who, keys, argv[at]);
	return pcb_error(&s->err, PCB_E_USAGE, "%s: '%s' needs %s", who,
			 kw->name, kw->arg);
}

/* One collection to FILE or stdout; a device that failed (its error
 * already a warning) is the return code of a single export.
 */
static int write_out(struct session *s, struct mx_state *st, const char *to)
{
	char *buf;
	size_t len;
	int rc = mx_collect(s, st, &buf, &len);

	if (rc)
		return rc;
	if (to)
		rc = pcb_write_file(to, buf, len, PCB_MODE_DATA, &s->err);
	else if (fwrite(buf, 1, len, s->out.fp) != len || fflush(s->out.fp))
		rc = pcb_error(&s->err, PCB_E_IO, "export metrics: writing "
			       "failed");
	free(buf);
	return rc;
}

/* export metrics [to FILE] [every I] [for D]: once to stdout or FILE;
 * with `every`, FILE is written again each I of the device's clock (the
 * sim runs its fabric meanwhile; a NIC waits), for D or until Ctrl-C.
 */
static int cmd_export_metrics(struct session *s, int argc, char **argv)
{
	struct mx_opts o = { 0 };
	struct mx_state st = { 0 };
	int64_t t0, next;
	int rc = mx_parse_opts(s, "export metrics", export_keys, argc, argv,
			       &o);

	if (!rc && (o.every || o.dur) && !o.to)
		rc = pcb_error(&s->err, PCB_E_USAGE, "export metrics: 'every' "
			       "and 'for' write a file again and again: "
			       "give 'to FILE'");
	if (!rc && o.dur && !o.every)
		rc = pcb_error(&s->err, PCB_E_USAGE, "export metrics: 'for D' "
			       "needs 'every I'");
	if (!rc)
		rc = mx_state_init(s, &st, &o);
	if (!rc)
		rc = write_out(s, &st, o.to);
	if (!rc && !o.every && st.nfailed) {
		s->err = st.err;	/* reported once already: a warning */
		s->reported = true;
		rc = -st.err.code;
	}
	if (rc || !o.every)
		goto out;
	t0 = dev_now(s->cur);
	for (next = t0 + o.every; !rc && (!o.dur || next <= t0 + o.dur);
	     next += o.every) {
		rc = dev_run_until(s->cur, next, false);
		if (!rc)
			rc = write_out(s, &st, o.to);
	}
	if (rc == -PCB_E_INTR && !o.dur) {	/* Ctrl-C: the way out */
		pcb_err_reset(&s->err);
		if (s->opt.stop && *s->opt.stop == SIGINT)
			*s->opt.stop = 0;
		rc = 0;
	}
out:
	mx_state_release(&st);
	return rc;
}

const struct cmd_row cmd_export_verbs[] = {
	{
		.name = "metrics",
		.fn = cmd_export_metrics,
		.max_args = 10,
		.help = "params, algorithm and host counters and retx bins in the "
			"Prometheus text format: stdout, or FILE replaced whole "
			"(node_exporter's textfile collector), again each I",
		.example = "export metrics to /var/lib/prometheus/node-exporter/"
			   "pccbench.prom every 10s",
		.flags = CMD_DEVICE | CMD_DEFAULT,
		.keys = export_keys,
	},
	{ 0 }
};
