/* simout.c - `sim run`'s output files and `sim show fct` (simout.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/simdev.h"
#include "simout.h"
#include "units.h"

#define USAGE "usage: sim run " RUN_OUT_SYNOPSIS
#define SNAPLEN_DEFAULT 128

static const char *const kind_word[RO_N] = {
	[RO_SERIES] = "trace", [RO_PORTS] = "trace ... ports",
	[RO_RATES] = "trace ... rates", [RO_PCAP] = "pcap",
	[RO_FLOWS] = "flows",
};

static int parse_u32(const char *t, uint32_t *v)
{
	char *end;
	unsigned long x;

	if (*t < '0' || *t > '9')
		return -1;
	errno = 0;
	x = strtoul(t, &end, 10);
	if (errno || *end || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* One output of kind k into path; a kind once, a path once. */
static int out_add(struct session *s, struct run_out *ro,
		   enum run_out_kind k, const char *path, const char *list)
{
	int i;

	if (ro->o[k].path)
		return pcb_error(&s->err, PCB_E_USAGE, "'%s' given twice; "
				 USAGE, kind_word[k]);
	for (i = 0; i < RO_N; i++)
		if (ro->o[i].path && !strcmp(ro->o[i].path, path))
			return pcb_error(&s->err, PCB_E_USAGE, "'%s' named "
					 "for two outputs", path);
	ro->o[k].path = path;
	ro->o[k].list = list;
	return 0;
}

/* sim run's words: the parser below (it switches on their ids: a trace's
 * or a capture's selector follows its file), completion (sim.c);
 * RUN_OUT_SYNOPSIS says how they nest.
 */
enum { RO_K_EVERY = 1, RO_K_TRACE, RO_K_PORTS, RO_K_RATES, RO_K_FLOWS,
       RO_K_PCAP, RO_K_SNAPLEN, RO_K_THREADS };
const struct cmd_kw sim_run_keys[] = {
	{ .name = "every", .arg = "INTERVAL", .id = RO_K_EVERY },
	{ .name = "trace", .arg = "FILE.csv", .flags = KW_FILE,
	  .id = RO_K_TRACE },
	{ .name = "ports", .arg = "PORTS", .vals = "all", .id = RO_K_PORTS },
	{ .name = "rates", .arg = "FLOWS", .id = RO_K_RATES },
	{ .name = "flows", .arg = "FILE.csv", .flags = KW_FILE,
	  .id = RO_K_FLOWS },
	{ .name = "pcap", .arg = "FILE.pcap", .flags = KW_FILE,
	  .id = RO_K_PCAP },
	{ .name = "snaplen", .arg = "BYTES", .id = RO_K_SNAPLEN },
	{ .name = "threads", .arg = "N", .vals = "1, 2", .id = RO_K_THREADS },
	{ 0 }
};

/* w's id in sim_run_keys, or 0 */
static int ro_word(const char *w)
{
	const struct cmd_kw *k = cmd_kw_find(sim_run_keys, w);

	return k ? k->id : 0;
}

/* "trace FILE [ports L | rates L]", "pcap FILE ports L", "flows FILE",
 * "every INTERVAL", "snaplen BYTES": pairs of words, a trace's or a
 * capture's selector right after it.
 */
int run_out_parse(struct session *s, int argc, char **argv,
		  int64_t dur_ps, struct run_out *ro)
{
	int i, rc = 0;
	bool snap = false;

	memset(ro, 0, sizeof(*ro));
	ro->every = 10 * PS_PER_US;
	ro->snaplen = SNAPLEN_DEFAULT;
	ro->threads = 1;
	for (i = 0; !rc && i < argc; i += 2) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int sel = i + 2 < argc ? ro_word(argv[i + 2]) : 0;
		bool has_list = i + 3 < argc;

		if (!v)
			return pcb_error(&s->err, PCB_E_USAGE, "'%s' needs a "
					 "value; " USAGE, k);
		switch (ro_word(k)) {
		case RO_K_EVERY:
			if (pcb_parse_duration_ps(v, -1, &ro->every) ||
			    ro->every < PS_PER_NS || ro->every > 10e12)
				return cmd_bad_duration(s, "sim run every", v,
							"1ns to 10s");
			break;
		case RO_K_TRACE:
			if ((sel == RO_K_PORTS || sel == RO_K_RATES) &&
			    has_list) {
				rc = out_add(s, ro, sel == RO_K_PORTS ?
					     RO_PORTS : RO_RATES, v,
					     argv[i + 3]);
				i += 2;
			} else {
				rc = out_add(s, ro, RO_SERIES, v, NULL);
			}
			break;
		case RO_K_PCAP:
			if (sel != RO_K_PORTS || !has_list)
				return pcb_error(&s->err, PCB_E_USAGE, "pcap "
						 "'%s' needs 'ports PORTS' "
						 "after it; " USAGE, v);
			rc = out_add(s, ro, RO_PCAP, v, argv[i + 3]);
			i += 2;
			break;
		case RO_K_FLOWS:
			rc = out_add(s, ro, RO_FLOWS, v, NULL);
			break;
		case RO_K_SNAPLEN:
			if (parse_u32(v, &ro->snaplen))
				return pcb_error(&s->err, PCB_E_INVAL, "bad "
						 "snaplen '%s': bytes", v);
			snap = true;
			break;
		case RO_K_THREADS:
			if (strcmp(v, "1") && strcmp(v, "2"))
				return pcb_error(&s->err, PCB_E_INVAL, "bad "
						 "threads '%s': 1 or 2", v);
			ro->threads = *v == '2' ? 2 : 1;
			break;
		case RO_K_PORTS:
		case RO_K_RATES:
			return pcb_error(&s->err, PCB_E_USAGE, "'%s' belongs "
					 "right after 'trace FILE'%s; " USAGE,
					 k, ro_word(k) == RO_K_PORTS ?
					 " or 'pcap FILE'" : "");
		default:
			return pcb_error(&s->err, PCB_E_USAGE, "unknown word "
					 "'%s'; " USAGE, k);
		}
	}
	for (i = 0; !rc && ro->threads == 2 && i < RO_N; i++)
		if (ro->o[i].path)
			rc = pcb_error(&s->err, PCB_E_USAGE, "threads 2 writes "
				       "no trace, flows or pcap output");
	if (!rc && snap && !ro->o[RO_PCAP].path)
		rc = pcb_error(&s->err, PCB_E_USAGE, "snaplen without a pcap; "
			       USAGE);
	if (!rc && (ro->o[RO_SERIES].path || ro->o[RO_RATES].path) &&
	    dur_ps / ro->every > 10000000)
		rc = pcb_error(&s->err, PCB_E_RANGE, "trace of more than 10 M "
			       "samples; use a coarser 'every'");
	return rc;
}

/* Every file begun (a temp file beside it), none if one cannot be: an
 * existing target is refused now, before the run, and again by the
 * commit, which never replaces one.
 */
int run_out_open(struct session *s, struct run_out *ro)
{
	struct stat st;
	int i, rc = 0;

	for (i = 0; !rc && i < RO_N; i++) {
		if (!ro->o[i].path)
			continue;
		if (!lstat(ro->o[i].path, &st))
			rc = pcb_error(&s->err, PCB_E_STATE, "cannot create "
				       "'%s': it exists already",
				       ro->o[i].path);
		else
			rc = pcb_wfile_create(&ro->o[i].w, ro->o[i].path,
					      PCB_MODE_DATA, &s->err);
	}
	for (i = 0; rc && i < RO_N; i++)
		if (ro->o[i].w.fp)
			pcb_wfile_abort(&ro->o[i].w);
	return rc;
}

int run_out_start(struct session *s, struct sim *sim, struct run_out *ro)
{
	int rc = 0;

	if (ro->o[RO_PORTS].path)
		rc = sim_tap_ports(sim, ro->o[RO_PORTS].w.fp,
				   ro->o[RO_PORTS].list, &s->err);
	if (!rc && ro->o[RO_RATES].path)
		rc = sim_tap_rates(sim, ro->o[RO_RATES].w.fp,
				   ro->o[RO_RATES].list, ro->every, &s->err);
	if (!rc && ro->o[RO_PCAP].path)
		rc = sim_tap_pcap(sim, ro->o[RO_PCAP].w.fp,
				  ro->o[RO_PCAP].list, ro->snaplen, &s->err);
	if (!rc && ro->o[RO_FLOWS].path)
		rc = sim_tap_flows(sim, &s->err);
	if (!rc && ro->o[RO_SERIES].path && sim_trace_start(sim, ro->every))
		rc = pcb_error(&s->err, PCB_E_RANGE, "bad trace interval");
	return rc;
}

/* The fabric's series as CSV (RFC 4180: one header row with units, no
 * quoting needed); an interval without probes leaves the RTT empty.
 */
static void write_series(struct sim *sim, FILE *fp)
{
	const struct sim_trace_row *r;
	size_t i, n = sim_trace_rows(sim, &r);

	fprintf(fp, "t_us,queue_max_bytes,rate_mean_gbps,rate_min_gbps,"
		"rate_max_gbps,rtt_mean_us,rtt_samples,rx_gbps\r\n");
	for (i = 0; i < n; i++) {
		fprintf(fp, "%.3f,%llu,%.4f,%.4f,%.4f,", r[i].t / 1e6,
			(unsigned long long)r[i].queue_max, r[i].rate_mean,
			r[i].rate_min, r[i].rate_max);
		if (r[i].rtt_n)
			fprintf(fp, "%.3f", r[i].rtt_mean / 1e3);
		fprintf(fp, ",%u,%.4f\r\n", r[i].rtt_n, r[i].rx_gbps);
	}
}

int run_out_finish(struct session *s, struct sim *sim,
		   const struct simdev *d, struct run_out *ro, bool keep)
{
	int i, rc = 0;

	if (keep && ro->o[RO_SERIES].path)
		write_series(sim, ro->o[RO_SERIES].w.fp);
	if (keep && ro->o[RO_FLOWS].path)
		sim_flows_write(sim, ro->o[RO_FLOWS].w.fp, d->algo_label);
	if (sim) {
		sim_trace_stop(sim);
		if (sim_tap_stop(sim) && keep) {
			keep = false;
			rc = pcb_error(&s->err, PCB_E_IO, "sim run: an output "
				       "could not be written (out of memory, "
				       "or of disk space)");
		}
	}
	for (i = 0; i < RO_N; i++) {
		if (!ro->o[i].w.fp)
			continue;
		if (!keep)
			pcb_wfile_abort(&ro->o[i].w);
		else if (pcb_wfile_commit(&ro->o[i].w, &s->err)) {
			rc = -s->err.code;
			keep = false;	/* the rest go too */
		}
	}
	return rc;
}

/* ---- sim show fct ------------------------------------------------------- */

/* step PCT (req: a uint32_t) */
static int fct_step(struct session *s, void *req, const struct cmd_kw *k,
		    const char *val)
{
	uint32_t *step = req;

	(void)k;
	if (parse_u32(val, step) || !*step || 100 % *step)
		return pcb_error(&s->err, PCB_E_RANGE, "bad step '%s': a "
				 "percentage that divides 100 (1, 2, 5, 10, "
				 "20, 25, 50)", val);
	return 0;
}

static const struct cmd_kw fct_keys[] = {
	{ .name = "step", .arg = "PCT", .set = fct_step },
	{ 0 }
};

int sim_show_fct(struct session *s, struct sim *sim, int argc, char **argv)
{
	struct sim_fct_table *t;
	struct out *o = &s->out;
	uint32_t step = 5, i;
	char syn[40];
	int at, rc = cmd_kw_parse(s, fct_keys, &step, argc, argv, &at);

	if (rc)
		return rc;
	if (at != argc)
		return pcb_error(&s->err, PCB_E_USAGE, "usage: sim show fct %s",
				 cmd_kw_synopsis(fct_keys, syn, sizeof(syn)));
	t = malloc(sizeof(*t));
	if (!t)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = sim_fct_table(sim, step, t);
	if (rc) {
		free(t);
		return pcb_error(&s->err, -rc, "out of memory");
	}
	out_obj_begin(o, NULL);
	out_text(o, "FCT slowdown by flow size, as HPCC's fct_analysis.py: "
		 "the window's finished flows sorted by size, in slices of "
		 "%u %% of them\n", step);
	out_field_uint(o, "finished", "%u flows finished", t->finished);
	out_field_uint(o, "running", ", %u still running at the end of "
		       "the window (not counted)\n", t->running);
	out_u64(o, "step", step);
	out_arr_begin(o, "bins");
	for (i = 0; i < t->nbins; i++) {
		const struct sim_fct_bin *b = &t->bin[i];

		if (!i)
			out_text(o, "  flows %%      size, bytes           "
				 "flows    mean     p50     p95     p99\n");
		out_obj_begin(o, NULL);
		out_field_uint(o, "pct_lo", "  %3u", b->pct_lo);
		out_field_uint(o, "pct_hi", "-%-3u ", b->pct_hi);
		out_field_u64(o, "size_lo", " %9llu", b->size_lo);
		out_field_u64(o, "size_hi", " .. %-9llu", b->size_hi);
		out_field_uint(o, "flows", " %7u", b->n);
		out_field_real(o, "mean", " %7.2f", b->mean);
		out_field_real(o, "p50", " %7.2f", b->p50);
		out_field_real(o, "p95", " %7.2f", b->p95);
		out_field_real(o, "p99", " %7.2f\n", b->p99);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_obj_end(o);
	free(t);
	return 0;
}
