/* sim.c - `sim`: the simulated fabric behind the sim device; `bench`. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "device.h"
#include "dev_sim.h"
#include "sim/simdev.h"
#include "simout.h"
#include "units.h"

/* "10ms" -> ps; 1 ns to 10 s of simulated time per command. */
static int parse_sim_dur(struct session *s, const char *t, int64_t *ps)
{
	if (pcb_parse_duration_ps(t, -1, ps) || *ps < 1000 || *ps > 10e12)
		return cmd_bad_duration(s, "sim run", t, "1ns to 10s");
	return 0;
}

static void fmt_bytes(char *b, size_t n, double v)
{
	if (v >= 1 << 20)
		snprintf(b, n, "%.2f MB", v / (1 << 20));
	else if (v >= 1024)
		snprintf(b, n, "%.1f KB", v / 1024);
	else
		snprintf(b, n, "%.0f B", v);
}

/* The last run's figures: in text scaled for reading (%, us, KB), in
 * JSON as measured (fractions, ns, bytes) with the counts text leaves out.
 */
static void print_colls(struct out *o, const struct sim *sim,
			const struct sim_summary *m);

static void print_summary(struct session *s, struct simdev *d,
			  const struct sim *sim, const struct sim_summary *m)
{
	struct out *o = &s->out;
	char cfg[1024], roles[512], a[32], b[32], c[32];
	size_t i;

	sim_cfg_format(&d->cfg, cfg, sizeof(cfg));
	sim_cfg_roles(&d->cfg, roles, sizeof(roles));
	out_obj_begin(o, NULL);
	out_field_str(o, "scenario", "scenario     %s\n", cfg);
	out_field_str(o, "hosts", "hosts        %s\n", roles);
	out_field_str(o, "algorithm", "algorithm    %s\n", d->algo_label);
	out_field_real(o, "t0_ms", "window       %.3f .. ", m->t0 / 1e9);
	out_field_real(o, "t1_ms", "%.3f ms (the last run)\n", m->t1 / 1e9);
	out_real(o, "utilisation", m->util);
	out_real(o, "payload_ceiling", m->payload_ceiling);
	out_text(o, "utilisation  %.1f %% of line on the busiest link "
		 "(payload ceiling %.1f %%)\n", 100 * m->util,
		 100 * m->payload_ceiling);
	out_field_real(o, "jain", "fairness     Jain %.4f over ", m->jain);
	out_field_uint(o, "flows", "%u flows\n", m->flows);
	out_real(o, "queue_mean_bytes", m->q_mean);
	out_real(o, "queue_p99_bytes", m->q_p99);
	out_real(o, "queue_max_bytes", m->q_max);
	fmt_bytes(a, sizeof(a), m->q_mean);
	fmt_bytes(b, sizeof(b), m->q_p99);
	fmt_bytes(c, sizeof(c), m->q_max);
	out_str(o, "queue_port", m->queue_port);
	out_text(o, "queue        mean %s  p99 %s  max %s (deepest switch "
		 "queue%s%s)\n", a, b, c, *m->queue_port ? ": " : "",
		 m->queue_port);
	out_real(o, "rtt_mean_ns", m->rtt_mean);
	out_real(o, "rtt_p99_ns", m->rtt_p99);
	out_u64(o, "rtt_samples", m->rtt_samples);
	out_u64(o, "rtt_late", m->rtt_late);
	out_u64(o, "probes_lost", m->probes_lost);
	out_real(o, "base_rtt_ns", m->base_rtt);
	/* lost probes have no RTT: the figures of those answered are then
	 * lower bounds */
	if (m->rtt_samples)
		/* what it averages, beside the algorithm's own NUM_RTT
		 * samples (counter show): the late answers differ */
		out_text(o, "RTT          mean %s%.2f us  p99 %s%.2f us  "
			 "(the %llu probes answered in this run, each alike; "
			 "%llu after the timeout, which the algorithm's "
			 "NUM_RTT does not count; idle path %.2f us)\n",
			 m->probes_lost ? ">= " : "", m->rtt_mean / 1e3,
			 m->probes_lost ? ">= " : "", m->rtt_p99 / 1e3,
			 (unsigned long long)m->rtt_samples,
			 (unsigned long long)m->rtt_late, m->base_rtt / 1e3);
	else
		out_text(o, "RTT          - (no probes answered; idle path "
			 "%.2f us)\n", m->base_rtt / 1e3);
	if (m->probes_lost)
		out_text(o, "probe loss   %.2f %% (%llu probes or answers "
			 "dropped)\n", 100.0 * (double)m->probes_lost /
			 (double)(m->probes_lost + m->rtt_samples),
			 (unsigned long long)m->probes_lost);
	out_field_u64(o, "pauses", "losses       %llu pauses  ", m->pauses);
	out_field_u64(o, "drops", "%llu drops  ", m->drops);
	out_field_u64(o, "rto", "%llu retransmission timeouts\n", m->rtos);
	out_u64(o, "rto_lossless", m->rtos_lossless);
	if (m->rtos_lossless)
		out_text(o, "anomaly      %llu retransmission timeouts though "
			 "no packet was lost: the timeout is shorter than the "
			 "queueing, or ACKs were held back\n",
			 (unsigned long long)m->rtos_lossless);
	out_u64(o, "events", m->events);
	out_arr_begin(o, "fct");
	for (i = 0; i < m->nfct; i++) {
		if (!i)
			out_text(o, "FCT slowdown   size range     flows     "
				 "p50     p95     p99\n");
		out_obj_begin(o, NULL);
		out_field_u64(o, "size_lo", "  %9llu .. ", m->fct[i].lo);
		if (m->fct[i].hi == UINT64_MAX) {	/* and above */
			out_null(o, "size_hi");
			out_text(o, "%-9s", "");
		} else {
			out_field_u64(o, "size_hi", "%-9llu", m->fct[i].hi);
		}
		out_field_uint(o, "flows", " %7u", m->fct[i].n);
		out_field_real(o, "p50", " %7.2f", m->fct[i].p50);
		out_field_real(o, "p95", " %7.2f", m->fct[i].p95);
		out_field_real(o, "p99", " %7.2f\n", m->fct[i].p99);
		out_obj_end(o);
	}
	out_arr_end(o);
	if (m->coll)
		print_colls(o, sim, m);
	out_obj_end(o);
}

/* A collective kind's figures: those of the window (none, JSON null,
 * when no collective was done in it: not a time or bandwidth of 0), then
 * the time of each collective so far (nccl-tests' algbw and busbw,
 * Gb/s). */
static void print_colls(struct out *o, const struct sim *sim,
			const struct sim_summary *m)
{
	bool done = m->colls > 0;
	const int64_t *t;
	size_t i, n = sim_coll_times(sim, &t);

	out_field_uint(o, "collectives", "collectives  %u done in the "
		       "window", m->colls);
	out_real(o, "coll_mean_us",
		 done ? (double)m->coll_mean / PS_PER_US : NAN);
	out_real(o, "coll_min_us",
		 done ? (double)m->coll_min / PS_PER_US : NAN);
	out_real(o, "coll_max_us",
		 done ? (double)m->coll_max / PS_PER_US : NAN);
	out_real(o, "algbw_gbps", done ? m->algbw : NAN);
	out_real(o, "busbw_gbps", done ? m->busbw : NAN);
	if (m->colls)
		out_text(o, ": time mean %.2f us (min %.2f, max %.2f); "
			 "algbw %.2f Gb/s, busbw %.2f Gb/s\n",
			 (double)m->coll_mean / PS_PER_US,
			 (double)m->coll_min / PS_PER_US,
			 (double)m->coll_max / PS_PER_US, m->algbw, m->busbw);
	else
		out_text(o, "\n");
	out_arr_begin(o, "coll_times_us");
	for (i = 0; i < n; i++) {
		if (!i)
			out_text(o, "collective   time (us), all so far:");
		out_field_real(o, NULL, " %.2f", (double)t[i] / PS_PER_US);
	}
	if (n)
		out_text(o, "\n");
	out_arr_end(o);
}

/* The current device's workload (the device opened on first use). */
static int workload(struct session *s, struct simdev **d)
{
	int rc = sess_device(s);

	return rc ? rc : dev_simdev(s->cur, d);
}

/* The device's workload and its fabric (built on first use). */
static int fabric(struct session *s, struct simdev **d, struct sim **sim)
{
	int rc = workload(s, d);

	return rc ? rc : simdev_sim(*d, sim, &s->err);
}

static int cmd_sim_scenario(struct session *s, int argc, char **argv)
{
	struct simdev *d;
	char cfg[1024], kept[1024] = "", roles[512];
	int rc = workload(s, &d);

	if (!rc && argc)
		rc = simdev_scenario(d, argv[0], argc - 1, argv + 1, kept,
				     sizeof(kept), &s->err);
	if (!rc)
		rc = simdev_roles(d, roles, sizeof(roles), &s->err);
	if (rc)
		return rc;
	sim_cfg_format(&d->cfg, cfg, sizeof(cfg));
	out_obj_begin(&s->out, NULL);
	out_field_str(&s->out, "scenario", "%s\n", cfg);
	/* what an earlier 'sim scenario' left set, every time */
	if (*kept) {
		out_text(&s->out, "kept from before, not %s's defaults: ",
			 argv[0]);
		out_field_str(&s->out, "kept", "%s ", kept);
		out_text(&s->out, "('sim scenario %s fresh ...' starts from "
			 "its defaults)\n", argv[0]);
	}
	/* each host's part, last: the lines above stay where they were */
	out_field_str(&s->out, "hosts", "hosts: %s\n", roles);
	out_obj_end(&s->out);
	return 0;
}

/* `sim run` longer than a second on a terminal: how far, and how long
 * still (from the pace so far).
 */
struct run_progress {
	double t0, last;
	bool shown;
};

static void run_progress(void *ctx, int64_t done, int64_t total)
{
	struct run_progress *p = ctx;
	double now = pcb_mono_s(), el = now - p->t0;

	if (el < 1 || now - p->last < 0.2 || done <= 0)
		return;
	p->last = now;
	p->shown = true;
	fprintf(stderr, "\rsim run: %3.0f %% (%.3f of %.3f ms simulated), "
		"about %.0f s left ", 100.0 * (double)done / (double)total,
		done / 1e9, total / 1e9, el * (double)(total - done) /
		(double)done + 0.5);
}

static int cmd_sim_run(struct session *s, int argc, char **argv)
{
	struct sim_summary m;
	struct simdev *d = NULL;
	struct sim *sim = NULL;
	struct run_out ro;
	int64_t ps = 0;
	int rc, orc;

	rc = parse_sim_dur(s, argv[0], &ps);
	if (!rc)
		rc = run_out_parse(s, argc - 1, argv + 1, ps, &ro);
	/* a file that cannot be written fails before any simulated time */
	if (!rc)
		rc = run_out_open(s, &ro);
	if (rc)
		return rc;
	rc = fabric(s, &d, &sim);
	/* two threads: what they refuse, before anything runs */
	if (!rc && ro.threads == 2)
		rc = sim_par_check(sim, &s->err);
	if (!rc)
		rc = run_out_start(s, sim, &ro);
	if (!rc) {
		struct run_progress pr = { pcb_mono_s(), 0, false };

		if (isatty(STDERR_FILENO) && !s->out.json) {
			d->progress = run_progress;
			d->progress_ctx = &pr;
		}
		rc = ro.threads == 2 ?
		     simdev_run_par(d, ps, s->opt.stop, &s->err) :
		     simdev_run(d, ps, s->opt.stop, &s->err);
		d->progress = NULL;
		if (pr.shown)
			fputc('\n', stderr);
		/* interrupted or stalled: the window simulated so far is
		 * worth seeing, and its outputs too (a trace of a stall
		 * shows how it came) */
		if (rc == -PCB_E_INTR || rc == -PCB_E_DEVICE) {
			sim_summary(sim, &m);
			print_summary(s, d, sim, &m);
		}
		orc = run_out_finish(s, sim, d, &ro, !rc ||
				     rc == -PCB_E_INTR || rc == -PCB_E_DEVICE);
		if (rc)
			return rc;
		if (orc)
			return orc;
		sim_summary(sim, &m);
		print_summary(s, d, sim, &m);
		return 0;
	}
	run_out_finish(s, sim, d, &ro, false);
	return rc;
}

static int cmd_sim_show(struct session *s, int argc, char **argv)
{
	struct sim_summary m;
	struct simdev *d;
	struct sim *sim;
	int rc;

	if (argc && strcmp(argv[0], "fct"))
		return pcb_error(&s->err, PCB_E_USAGE, "unknown word '%s'; "
				 "usage: sim show [fct [step PCT]]", argv[0]);
	rc = fabric(s, &d, &sim);
	if (rc)
		return rc;
	if (argc)
		return sim_show_fct(s, sim, argc - 1, argv + 1);
	sim_summary(sim, &m);
	print_summary(s, d, sim, &m);
	return 0;
}

static int cmd_sim_reset(struct session *s, int argc, char **argv)
{
	struct simdev *d;
	int rc;

	(void)argc;
	(void)argv;
	rc = workload(s, &d);
	if (rc)
		return rc;
	simdev_reset(d);
	out_text(&s->out, "fabric reset to t = 0 (scenario kept)\n");
	return 0;
}

/* `sim model [ALGO] [KEY VALUE...]`: the model options of ALGO, else of
 * the active algorithm (ZTR-RTT when none is). */
static int cmd_sim_model(struct session *s, int argc, char **argv)
{
	const struct algo_ops *z;
	const uint32_t *opts;
	struct simdev *d;
	size_t i;
	int rc;

	rc = workload(s, &d);
	if (rc)
		return rc;
	z = argc ? algo_find(argv[0]) : NULL;
	if (z) {
		argc--;
		argv++;
	} else {
		z = simdev_model_algo(d);
	}
	if (argc % 2)
		return pcb_error(&s->err, PCB_E_USAGE,
				 "usage: sim model [ALGO] [KEY VALUE...]");
	for (i = 0; i < (size_t)argc; i += 2) {
		rc = simdev_model(d, z, argv[i], argv[i + 1], &s->err);
		if (rc)
			return rc;
	}
	opts = simdev_opts(d, z);
	out_obj_begin(&s->out, NULL);
	out_field_str(&s->out, "algorithm", "%s model options", z->name);
	if (!z->nopts || !opts)
		out_text(&s->out, ": none\n");
	else
		out_text(&s->out, " (reconstructed parts):\n");
	for (i = 0; opts && i < z->nopts; i++) {
		char v[32];

		if (z->opts[i].choices)
			snprintf(v, sizeof(v), "%s",
				 z->opts[i].choices[opts[i]]);
		else
			snprintf(v, sizeof(v), "%.4g", opts[i] / 65536.0);
		out_text(&s->out, "  %-9s ", z->opts[i].name);
		out_field_str(&s->out, z->opts[i].name, "%-13s ", v);
		out_text(&s->out, "%s\n", z->opts[i].help);
	}
	out_obj_end(&s->out);
	return 0;
}

/* `host N` (or `host hN`): a host NIC the fabric has, else one line. */
static int parse_host(struct session *s, struct sim *sim, int argc,
		      char **argv, uint32_t *host)
{
	const char *t = argc == 2 ? argv[1] : "";
	uint32_t n = sim_hosts(sim);
	unsigned long v;
	char *end;

	if (argc != 2 || strcmp(argv[0], "host"))
		return pcb_error(&s->err, PCB_E_USAGE, "usage: sim counters "
				 "[host N]");
	if (*t == 'h')
		t++;
	errno = 0;
	v = *t >= '0' && *t <= '9' ? strtoul(t, &end, 10) : ULONG_MAX;
	if (v == ULONG_MAX || errno || *end || v >= n)
		return pcb_error(&s->err, PCB_E_RANGE, "sim counters: no host "
				 "'%s' (h0-h%u: 0-%u)", argv[1], n - 1, n - 1);
	*host = (uint32_t)v;
	return 0;
}

/* The device view of the NIC counters, under mlx5 / ethtool names: every
 * NIC's sums, or one host NIC's own (`host N`: the switches' and links'
 * rows, fabric-wide, left out). */
static int cmd_sim_counters(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "name", "NAME", 0 }, { "value", "VALUE", TBL_RIGHT },
		{ "meaning", "", TBL_TEXT_ONLY },
	};
	struct sim_port_counters c;
	struct simdev *d;
	struct sim *sim;
	struct tbl t;
	uint32_t host = 0;
	bool one = argc > 0;
	int rc, p;
	char name[48];

	rc = fabric(s, &d, &sim);
	if (!rc && one)
		rc = parse_host(s, sim, argc, argv, &host);
	if (rc)
		return rc;
	if (one)
		sim_host_port_counters(sim, host, &c);
	else
		sim_port_counters(sim, &c);
	tbl_init(&t, cols, 3);
#define ROW(n, v, m) do {						\
		tbl_row(&t);						\
		tbl_str(&t, n);						\
		tbl_u64(&t, v);						\
		tbl_str(&t, m);						\
	} while (0)
	ROW("rx_bytes_phy", c.rx_bytes, one ? "bytes received by this NIC" :
	    "bytes received by all NICs");
	ROW("tx_bytes_phy", c.tx_bytes, one ? "bytes sent by this NIC" :
	    "bytes sent by all NICs");
	ROW("rx_packets_phy", c.rx_pkts, "");
	ROW("tx_packets_phy", c.tx_pkts, "");
	for (p = 0; p < 8; p++) {
		/* a second data priority shows once it carries data */
		if (p != SIM_PRIO_DATA && p != SIM_PRIO_CTRL &&
		    !c.tx_pkts_prio[p] && !c.rx_pkts_prio[p])
			continue;
		snprintf(name, sizeof(name), "rx_prio%d_bytes", p);
		ROW(name, c.rx_bytes_prio[p], p == SIM_PRIO_CTRL ? "ACK, NACK, "
		    "CNP, probe responses" : "RoCE data and RTT probes");
		snprintf(name, sizeof(name), "rx_prio%d_packets", p);
		ROW(name, c.rx_pkts_prio[p], "");
		snprintf(name, sizeof(name), "tx_prio%d_bytes", p);
		ROW(name, c.tx_bytes_prio[p], "");
		snprintf(name, sizeof(name), "tx_prio%d_packets", p);
		ROW(name, c.tx_pkts_prio[p], "");
	}
	snprintf(name, sizeof(name), "rx_prio%d_pause", SIM_PRIO_DATA);
	ROW(name, c.pause_rx_prio[SIM_PRIO_DATA], one ? "PFC pause frames "
	    "this NIC received" : "PFC pause frames the NICs received");
	snprintf(name, sizeof(name), "rx_prio%d_pause_duration",
		 SIM_PRIO_DATA);
	ROW(name, c.pause_rx_ns_prio[SIM_PRIO_DATA] / 1000, one ? "us this "
	    "NIC was paused" : "us the NICs were paused");
	snprintf(name, sizeof(name), "tx_prio%d_pause", SIM_PRIO_DATA);
	ROW(name, c.pause_tx_prio[SIM_PRIO_DATA], one ? "PFC pause frames "
	    "this NIC sent (a storm's: storm_at)" : "PFC pause frames the NICs "
	    "sent (their receive side never fills; a storm's: storm_at)");
	for (p = 0; p < 8; p++) {	/* a second data priority's */
		if (p == SIM_PRIO_DATA || p == SIM_PRIO_CTRL ||
		    (!c.tx_pkts_prio[p] && !c.rx_pkts_prio[p]))
			continue;
		snprintf(name, sizeof(name), "rx_prio%d_pause", p);
		ROW(name, c.pause_rx_prio[p], "");
		snprintf(name, sizeof(name), "rx_prio%d_pause_duration", p);
		ROW(name, c.pause_rx_ns_prio[p] / 1000, "");
		snprintf(name, sizeof(name), "tx_prio%d_pause", p);
		ROW(name, c.pause_tx_prio[p], "");
	}
	ROW("np_ecn_marked_roce_packets", c.ecn_marked, "CE-marked packets "
	    "received");
	ROW("np_cnp_sent", c.cnp_sent, "CNPs sent by receivers");
	ROW("rp_cnp_handled", c.cnp_handled, "CNPs handled by senders");
	ROW("rp_cc_rate_limited", c.qp_desched, "QPs held back by the CC "
	    "rate limiter");
	ROW("out_of_sequence", c.out_of_sequence, "data past a hole "
	    "(dropped, go-back-N)");
	ROW("packet_seq_err", c.nacks, "NAKs received by senders");
	ROW("local_ack_timeout_err", c.rto, "retransmission timeouts");
	ROW("out_of_buffer", c.drops_nowqe, "no receive WQE (not modeled)");
	ROW("rx_cqe", c.rx_cqe, "messages received");
	ROW("tx_cqe", c.tx_cqe, "messages completed");
	if (!one) {
		ROW("switch_ecn_marked", c.ecn_marked_sw, "packets marked by "
		    "switches");
		ROW("switch_pause_sent", c.sw_pause_tx, "PFC frames sent by "
		    "switches");
		ROW("switch_drops_no_buffer", c.drops_nobuf, "dropped for "
		    "buffer");
		ROW("link_drops", c.drops_loss, "dropped by link loss");
	}
	ROW("rx_crc_errors_phy", c.rx_lost, one ? "lost on this NIC's own "
	    "link (not in rx_packets_phy)" : "lost on the NICs' own links "
	    "(not in rx_packets_phy)");
#undef ROW
	if (one)
		out_text(&s->out, "host NIC h%u (%s) since the fabric started "
			 "(t = %.3f ms)\n", host, sim_cfg_role(&d->cfg, host),
			 sim_now(sim) / 1e9);
	else
		out_text(&s->out, "every NIC of the fabric since it started "
			 "(t = %.3f ms)\n", sim_now(sim) / 1e9);
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	return 0;
}

/* ---- completion ------------------------------------------------------------ */

/* sim scenario KIND [KEY VALUE]... */
static bool sim_scenario_complete(struct session *s, char **argv, int argc,
				  struct cands *c)
{
	const char *wkeys;

	(void)s;
	if (argc == 0)
		cand_list(c, dev_workload_kinds());
	if (argc == 1)
		cand_add(c, "fresh");	/* from the kind's defaults */
	if (argc > 1 && !strcmp(argv[1], "fresh")) {
		argv++;
		argc--;
	}
	if (argc % 2 == 1 && (wkeys = dev_workload_keys(argv[0])))
		cand_list(c, wkeys);
	return true;
}

/* sim counters [host N] */
static bool sim_counters_complete(struct session *s, char **argv, int argc,
				  struct cands *c)
{
	(void)s;
	(void)argv;
	if (argc == 0)
		cand_add(c, "host");
	return true;
}

/* sim run DURATION [KEY VALUE]... */
static bool sim_run_complete(struct session *s, char **argv, int argc,
			     struct cands *c)
{
	return cand_keywords(s, sim_run_keys, 1, argv, argc, c);
}

/* sim model [KEY VALUE]...: the keys and choices are the model's
 * options (algo.h), as simdev_model takes them.
 */
/* `sim model [ALGO] KEY VALUE`: the algorithms with options first, then
 * the named one's options (ZTR-RTT's when none is named: completion does
 * not open the device to ask which is active). */
static bool sim_model_complete(struct session *s, char **argv, int argc,
			       struct cands *c)
{
	const struct algo_ops *z = argc ? algo_find(argv[0]) : NULL;
	size_t i, j;

	(void)s;
	if (z) {
		argv++;
		argc--;
	} else {
		for (i = 0; !argc && algo_registry[i]; i++)
			if (algo_registry[i]->nopts)
				cand_add(c, algo_registry[i]->name);
		z = algo_find("ztr_rtt");
	}
	for (i = 0; z && i < z->nopts; i++) {
		const struct algo_opt_desc *o = &z->opts[i];

		if (argc % 2 == 0)
			cand_add(c, o->name);
		else if (!strcmp(argv[argc - 1], o->name))
			for (j = 0; o->choices && o->choices[j]; j++)
				cand_add(c, o->choices[j]);
	}
	return true;
}

const struct cmd_row cmd_sim_verbs[] = {
	{
		.name = "scenario",
		.fn = cmd_sim_scenario,
		.max_args = -1,
		.args = "[NAME [fresh] KEY VALUE...]",
		.help = "set the workload: incast, staircase, permutation, mix, "
			"allreduce, alltoall (the last four on a leaf-spine, "
			"fat tree or rail-optimised fabric); the keys it keeps "
			"from before are said, 'fresh' starts from its "
			"defaults, a key given twice is refused",
		.example = "sim scenario incast senders 64 rate 400g mtu 4096 delay 1us "
			"buffer 32MB ecn 100KB:400KB:0.2 pfc on seed 7",
		.complete = sim_scenario_complete,
	},
	{
		.name = "run",
		.fn = cmd_sim_run,
		.min_args = 1,
		.max_args = -1,
		.args = RUN_OUT_SYNOPSIS,
		.help = "advance simulated time (counters flow into the device); "
			"write trace: the fabric every INTERVAL (10us), trace ports: "
			"queue and PFC events ('host N', 'switch N port M', or all), "
			"trace rates: flows' rates, flows: per-flow FCT, pcap: frames "
			"of ports' links (new files only); threads 2: two threads, "
			"the same results as one (a permutation or mix, one data "
			"priority, no outputs)",
		.example = "sim run 10ms trace q.csv ports 'switch 0 port 64' flows "
			"f.csv pcap h0.pcap ports 'host 0'",
		.flags = CMD_DEVICE,
		.complete = sim_run_complete,
	},
	{
		.name = "show",
		.fn = cmd_sim_show,
		.max_args = 3,
		.args = "[fct [step PCT]]",
		.help = "utilisation, fairness, queue, RTT, pauses, drops, FCT of the "
			"last run; fct: FCT slowdown by flow-size percentile as "
			"HPCC's fct_analysis.py (slices of 5 % of the finished flows "
			"by size: mean, p50, p95, p99)",
		.example = "sim show fct step 10",
		.flags = CMD_DEFAULT | CMD_DEVICE,
	},
	{
		.name = "counters",
		.fn = cmd_sim_counters,
		.max_args = 2,
		.args = "[host N]",
		.help = "NIC port counters of the fabric, per priority, ethtool names: "
			"every NIC's sums, or host N's own (hN: its ECN marks and CNPs "
			"sent as receiver, CNPs handled and timeouts as sender)",
		.example = "sim counters host 16",
		.complete = sim_counters_complete,
		.flags = CMD_DEVICE,
	},
	{
		.name = "reset",
		.fn = cmd_sim_reset,
		.args = "",
		.help = "empty the fabric, back to t = 0",
		.example = "sim reset",
		.flags = CMD_DEVICE,
	},
	{
		.name = "model",
		.fn = cmd_sim_model,
		.max_args = -1,
		.args = "[ALGO] [KEY VALUE...]",
		.help = "show or set an algorithm model's reconstructed options "
			"(the active algorithm's unless ALGO is named)",
		.example = "sim model dcqcn hai growing",
		.complete = sim_model_complete,
	},
	{ 0 }
};

/* ---- bench ---------------------------------------------------------------- */

struct bench_res {
	double wall, cpu, events, bpkts;
	size_t mem;
};

/* CPU time of this thread: what a core spent on the run.  On a shared VM
 * the wall clock also counts time the hypervisor gave to others (the
 * steal column of /proc/stat).
 */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int bench_one(struct session *s, const struct sim_cfg *cfg,
		     int64_t dur, struct bench_res *r)
{
	struct algo_desc *desc = NULL;
	struct sim_algo a;
	struct sim *sim = NULL;
	struct sim_summary m;
	double t0, c0;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = algo_desc_load(&desc, "ztr_rtt", &s->err);
	if (rc)
		return rc;
	a.ops = algo_find("ztr_rtt");
	a.desc = desc;
	algo_conf_init(&a.conf, a.ops, desc);
	a.counters_on = true;
	t0 = pcb_mono_s();
	c0 = cpu_s();
	rc = sim_create(&sim, cfg, &a, &s->err);
	if (!rc)
		rc = sim_run(sim, dur, s->opt.stop);
	if (!rc) {
		r->cpu = cpu_s() - c0;
		r->wall = pcb_mono_s() - t0;
		sim_summary(sim, &m);
		r->events = (double)sim_events(sim);
		/* packets through the bottleneck in the run */
		r->bpkts = m.util * ((double)dur / 8000.0 * cfg->rate_gbps) /
			   cfg->mtu;
		r->mem = sim_mem_bytes(sim);
	}
	sim_free(sim);
	algo_desc_free(desc);
	return rc;
}

#define BENCH_REPS 5

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmd_bench_sim(struct session *s, int argc, char **argv)
{
	static const struct {
		const char *name;
		uint32_t senders, rate;
	} cases[] = { { "64:1 400g (standard)", 64, 400 },
		      { "256:1 400g", 256, 400 },
		      { "64:1 800g", 64, 800 } };
	size_t i, k, n = argc && !strcmp(argv[0], "all") ? 3 : 1;
	struct bench_res r[3], rep[3][BENCH_REPS];
	double walls[3][BENCH_REPS], cpus[3][BENCH_REPS], vs[3][BENCH_REPS];
	double ratio[3];
	struct rusage ru;
	int rc;

	if (argc && strcmp(argv[0], "all"))
		return pcb_error(&s->err, PCB_E_USAGE,
				 "usage: bench sim [all]");
	{	/* warm caches, pages and clocks; not measured */
		struct sim_cfg c;

		sim_cfg_default(&c);
		rc = bench_one(s, &c, 10 * PS_PER_MS, &r[0]);
		if (rc)
			return rc;
	}
	/* rounds of every case, not every case's repeats in a row: a shared
	 * machine's speed drifts, and each round's cases see the same */
	for (k = 0; k < BENCH_REPS; k++)
		for (i = 0; i < n; i++) {
			struct sim_cfg c;

			sim_cfg_default(&c);
			c.senders = cases[i].senders;
			c.rate_gbps = cases[i].rate;
			rc = bench_one(s, &c, 10 * PS_PER_MS, &rep[i][k]);
			if (rc)
				return rc;
			walls[i][k] = rep[i][k].wall;
			cpus[i][k] = rep[i][k].cpu;
			/* ns per event against the round's standard case */
			vs[i][k] = rep[i][k].cpu / rep[i][k].events /
				   (rep[0][k].cpu / rep[0][k].events);
		}
	for (i = 0; i < n; i++) {	/* wall and CPU: medians of five */
		qsort(walls[i], BENCH_REPS, sizeof(walls[i][0]), dbl_cmp);
		qsort(cpus[i], BENCH_REPS, sizeof(cpus[i][0]), dbl_cmp);
		qsort(vs[i], BENCH_REPS, sizeof(vs[i][0]), dbl_cmp);
		r[i] = rep[i][0];
		r[i].wall = walls[i][BENCH_REPS / 2];
		r[i].cpu = cpus[i][BENCH_REPS / 2];
		ratio[i] = vs[i][BENCH_REPS / 2];
	}
	getrusage(RUSAGE_SELF, &ru);
	if (s->out.json) {
		out_arr_begin(&s->out, NULL);
		for (i = 0; i < n; i++) {
			out_obj_begin(&s->out, NULL);
			out_str(&s->out, "case", cases[i].name);
			out_real(&s->out, "simulated_ms", 10);
			out_real(&s->out, "wall_s", r[i].wall);
			out_real(&s->out, "cpu_s", r[i].cpu);
			out_real(&s->out, "events", r[i].events);
			/* per core: per second of the core's time */
			out_real(&s->out, "events_per_s", r[i].events / r[i].cpu);
			out_real(&s->out, "bottleneck_pkts_per_s",
			    r[i].bpkts / r[i].cpu);
			out_real(&s->out, "ns_per_event",
			    r[i].cpu * 1e9 / r[i].events);
			out_real(&s->out, "events_per_bottleneck_pkt",
			    r[i].events / r[i].bpkts);
			/* the median of the rounds' ratios */
			out_real(&s->out, "ns_per_event_vs_standard",
			    ratio[i]);
			out_real(&s->out, "bottleneck_pkts_per_wall_s",
			    r[i].bpkts / r[i].wall);
			out_u64(&s->out, "sim_bytes", r[i].mem);
			out_u64(&s->out, "peak_rss_kb",
				(uint64_t)ru.ru_maxrss);
			out_obj_end(&s->out);
		}
		out_arr_end(&s->out);
		return 0;
	}
	for (i = 0; i < n; i++) {
		char vs_std[64] = "";

		if (i)
			snprintf(vs_std, sizeof(vs_std), " (%.2fx the "
				 "standard's, median of the rounds)",
				 ratio[i]);
		fprintf(s->out.fp,
			"%-22s 10 ms simulated in %.3f s of CPU (%.3f s "
			"wall; medians of 5): per core %.2f M events/s, "
			"%.2f M bottleneck packets/s (%.1f events each), "
			"%.1f ns/event%s; %.1f MB of arrays\n",
			cases[i].name, r[i].cpu, r[i].wall,
			r[i].events / r[i].cpu / 1e6,
			r[i].bpkts / r[i].cpu / 1e6, r[i].events / r[i].bpkts,
			r[i].cpu * 1e9 / r[i].events, vs_std,
			r[i].mem / 1048576.0);
	}
	fprintf(s->out.fp, "peak memory (RSS) %.1f MB\n",
		ru.ru_maxrss / 1024.0);
	return 0;
}

const struct cmd_row cmd_bench_verbs[] = {
	{
		.name = "sim",
		.fn = cmd_bench_sim,
		.max_args = 1,
		.args = "[all]",
		.help = "the simulator on the standard case (all: also 256:1 and 800g)",
		.example = "bench sim",
		.flags = CMD_DEFAULT,
	},
	{ 0 }
};
