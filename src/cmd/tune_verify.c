/* tune_verify.c - `tune verify NAME while 'CMD'`: on a real NIC, the
 * default point (A) and the tune's best (B) measured alternately,
 * A B A B ..., N rounds, each with the traffic command, through the
 * sweep's live runner (one bulk set with read-back per run, journaled;
 * the original values written back at the end, on error and on Ctrl-C).
 * The difference B - A per round, its mean and 95 % interval: the tuned
 * point is never taken on faith from the simulator.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "units.h"
#include "cmd/tune_cmd.h"
#include "paths.h"
#include "rec/series.h"
#include "rec/stats.h"
#include "session.h"

#define VERIFY_WORDS	64

struct vopts {
	char *w[VERIFY_WORDS];	/* the sweep's words (owned) */
	int n;
	unsigned long rounds;
	char col[48];
};

static int vadd(struct session *s, struct vopts *o, const char *w)
{
	if (o->n == VERIFY_WORDS - 1)
		return pcb_error(&s->err, PCB_E_RANGE, "tune verify: too many "
				 "words");
	o->w[o->n] = strdup(w);
	if (!o->w[o->n])
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	o->n++;
	return 0;
}

static int v_rounds(struct session *s, void *req, const struct cmd_kw *k,
		    const char *val)
{
	return sw_parse_count(&s->err, k->name, val, SW_MAX_VALS / 2, "rounds",
			      KW_AT(req, k, unsigned long));
}

static int v_measure(struct session *s, void *req, const struct cmd_kw *k,
		     const char *val)
{
	(void)s;
	snprintf(KW_AT(req, k, char), sizeof(((struct vopts *)0)->col), "%s",
		 val);
	return 0;
}

/* tune verify's words: the sweep's (passed on, as sw_keys has them) and
 * its own.
 */
const struct cmd_kw tune_verify_keys[] = {
	{ .name = "while", .arg = "'CMD ARGS'", .flags = KW_FILE | KW_REQ,
	  .id = SW_K_WHILE },
	{ .name = "for", .arg = "D", .id = SW_K_FOR },
	{ .name = "every", .arg = "I", .id = SW_K_EVERY },
	{ .name = "warmup", .arg = "D", .id = SW_K_WARMUP },
	{ .name = "rounds", .arg = "N", .set = v_rounds,
	  .off = offsetof(struct vopts, rounds) },
	{ .name = "measure", .arg = "COL", .set = v_measure,
	  .off = offsetof(struct vopts, col) },
	{ 0 }
};

/* The params at the default (the plan's values are set afterwards), then
 * while/for/every/warmup as the sweep takes them, rounds and measure.
 */
static int verify_words(struct session *s, const struct tune_res *r,
			int argc, char **argv, struct vopts *o)
{
	char m[48];
	size_t k;
	int i, rc = 0;

	for (k = 0; k < r->nprm && !rc; k++) {
		char v[40];

		sess_format_value(s, (enum algo_ptype)r->prm[k].type,
				  r->prm[k].def, v, sizeof(v));
		rc = vadd(s, o, r->prm[k].name);
		if (!rc)
			rc = vadd(s, o, v);
	}
	o->rounds = 3;
	snprintf(o->col, sizeof(o->col), "avg_rtt_mean");
	for (i = 1; i < argc && !rc; i += 2) {
		const struct cmd_kw *kd = cmd_kw_find(tune_verify_keys,
						      argv[i]);
		char names[100];

		if (i + 1 >= argc)
			return pcb_error(&s->err, PCB_E_USAGE, "tune verify: "
					 "'%s' needs a value", argv[i]);
		if (!kd)
			return pcb_error(&s->err, PCB_E_INVAL, "tune verify: "
					 "unknown word '%s' (%s)", argv[i],
					 cmd_kw_names(tune_verify_keys, names,
						      sizeof(names)));
		if (kd->set) {	/* rounds, measure */
			rc = cmd_kw_take(s, kd, o, argv[i + 1]);
			continue;
		}
		rc = vadd(s, o, argv[i]);	/* the sweep's */
		if (!rc)
			rc = vadd(s, o, argv[i + 1]);
	}
	tune_measure_of(o->col, m, sizeof(m));
	if (!rc)
		rc = vadd(s, o, "measure");
	return rc ? rc : vadd(s, o, m);
}

/* Where the rounds ran: the deployment slot, or said plainly that it
 * was another build of the algorithm (slot 1, the debug build) and what
 * that means.
 */
static void verify_where(struct session *s, unsigned slot, unsigned dep)
{
	struct pcb_err keep = s->err;
	struct slot_view *v, *d;

	out_field_uint(&s->out, "slot", "  measured on slot %u", slot);
	out_u64(&s->out, "deployment_slot", dep);
	if (sess_slot_view(s, slot, &v) || sess_slot_view(s, dep, &d)) {
		s->err = keep;
		out_text(&s->out, "\n");
		return;
	}
	if (slot == dep) {
		out_text(&s->out, " (%s): the deployment slot, where it runs "
			 "in production\n", v->name);
		return;
	}
	out_text(&s->out, " (%s), NOT the deployment slot %u (%s): the "
		 "%s build of the same algorithm (id 0x%04x), the same "
		 "params and control law%s; production runs slot %u: 'algo "
		 "debug off' and verify again (with a column the host "
		 "counts: the algorithm's own exist in the debug build only) "
		 "to measure it there\n", v->name, dep, d->name,
		 v->ncounters ? "debug" : "other", v->algo_num >> 16,
		 v->ncounters ? " with its counters on (avg_rtt comes from "
		 "them)" : "", dep);
}

/* The results of the rounds: A's and B's means, B - A with its CI. */
static void verify_report(struct session *s, const struct tune_res *r,
			  const struct plan *pl, int col, size_t rounds,
			  unsigned slot, unsigned dep)
{
	double *d = calloc(3 * rounds + 1, sizeof(*d)), ma, mb, md, ca, cb,
	       cd;
	size_t i, used, nc = pl->res->ncols;

	if (!d)
		return;
	for (i = 0; i < rounds; i++) {
		d[rounds + i] = pl->rows[(2 * i) * nc + (size_t)col];
		d[2 * rounds + i] = pl->rows[(2 * i + 1) * nc + (size_t)col];
		d[i] = d[2 * rounds + i] - d[rounds + i];
	}
	stats_ci95(d, rounds, &md, &cd, &used);
	stats_ci95(d + rounds, rounds, &ma, &ca, &used);
	stats_ci95(d + 2 * rounds, rounds, &mb, &cb, &used);
	out_obj_begin(&s->out, NULL);
	out_field_str(&s->out, "tune", "tune %s on the device, ", r->name);
	out_field_u64(&s->out, "rounds", "%llu rounds A/B: ", rounds);
	out_field_str(&s->out, "measure", "%s\n", pl->res->cols[col].name);
	out_field_real(&s->out, "default", "  default (A) %.6g", ma);
	out_field_real(&s->out, "default_ci", " ± %.3g\n", ca);
	out_field_real(&s->out, "tuned", "  tuned   (B) %.6g", mb);
	out_field_real(&s->out, "tuned_ci", " ± %.3g\n", cb);
	out_field_real(&s->out, "diff", "  B - A       %+.6g", md);
	out_field_real(&s->out, "diff_ci", " ± %.3g", cd);
	out_text(&s->out, " (%+.2f %%)%s\n", ma ? 100 * md / fabs(ma) : 0,
		 isnan(md) ? "; the device gave no samples of it" :
		 rounds < 2 ? "; one round: no interval" :
		 fabs(md) > cd ? "" : "; the interval holds 0: no difference "
		 "shown");
	verify_where(s, slot, dep);
	out_obj_end(&s->out);
	free(d);
}

/* tune verify NAME while 'CMD' [for D] [every I] [warmup D] [rounds N]
 * [measure COL]
 */
int cmd_tune_verify(struct session *s, int argc, char **argv)
{
	struct param_write w[SW_MAX_AXES];
	uint32_t vals[ALGO_MAX_PARAMS], orig[SW_MAX_AXES];
	struct vopts o = { .n = 0 };
	struct tune_res r;
	struct plan *pl = NULL;
	char dir[PCB_PATH_LEN], what[256];
	size_t k, i, n = 0;
	unsigned slot = 0, dep = 0;
	int rc, col = -1;

	rc = tune_load(s, argv[0], &r, dir, sizeof(dir));
	if (!rc)
		rc = tune_best_writes(s, &r, TUNE_ACTIVE, &slot, w);
	if (!rc)
		rc = tune_slot(s, &r, TUNE_DEPLOY, &dep);
	if (!rc)
		rc = verify_words(s, &r, argc, argv, &o);
	if (!rc) {
		pl = calloc(1, sizeof(*pl));
		if (!pl)
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	if (!rc)
		rc = tune_retag(s, sw_plan_parse(s, pl, o.n, o.w, false));
	if (!rc && pl->replay)
		rc = pcb_error(&s->err, PCB_E_STATE, "tune verify measures a "
			       "real NIC; on the sim 'tune show %s' has the "
			       "default and the best on the same seeds",
			       r.name);
	if (!rc && !pl->targv)
		rc = pcb_error(&s->err, PCB_E_USAGE, "tune verify: give the "
			       "traffic (while 'CMD ARGS')");
	if (!rc && pl->slot != slot)
		rc = pcb_error(&s->err, PCB_E_STATE, "tune verify: the active "
			       "slot changed");
	if (!rc && pl->repeat != 1)
		rc = pcb_error(&s->err, PCB_E_INVAL, "tune verify: rounds, not "
			       "repeats");
	if (!rc && (col = tune_col_of(pl, o.col)) < 0)
		rc = pcb_error(&s->err, PCB_E_INVAL, "tune verify: no column "
			       "'%s' (avg_rtt, avg_rtt_p99, rx_gbps, ...)",
			       o.col);
	if (!rc)
		rc = sw_plan_points(s, pl, 2 * o.rounds);
	for (i = 0; !rc && i < 2 * o.rounds; i++)	/* A B A B ... */
		for (k = 0; k < r.nprm; k++) {
			char v[40];

			pl->ax[k].raw[i] = i % 2 ? w[k].value : r.prm[k].def;
			sess_format_value(s, pl->ax[k].p->type,
					  pl->ax[k].raw[i], v, sizeof(v));
			pl->ax[k].real[i] = strtod(v, NULL);
		}
	if (!rc) {
		snprintf(pl->name, sizeof(pl->name), "verify");
		rc = pcb_path(pl->dir, sizeof(pl->dir), &s->err, "%s/verify",
			      dir);
	}
	if (!rc && s->dry_run) {
		out_text(&s->out, "tune verify %s: %lu rounds of default then "
			 "tuned; nothing run (dry run)\n", r.name, o.rounds);
		goto out;
	}
	if (!rc) {
		snprintf(what, sizeof(what), "verify tune %s: %lu runs "
			 "alternating the default and the tuned point in slot "
			 "%u, restored at the end", r.name, 2 * o.rounds,
			 slot);
		rc = sess_confirm(s, what);
	}
	if (!rc) {
		sw_rm_tree(pl->dir);
		if (mkdir(pl->dir, 0700))
			rc = pcb_error(&s->err, PCB_E_IO, "cannot create '%s': "
				       "%s", pl->dir, strerror(errno));
	}
	if (!rc)
		rc = sw_fixed_check(s, pl, vals, &n, false);
	for (k = 0; !rc && k < pl->naxes; k++)
		orig[k] = vals[pl->ax[k].p->index];
	if (!rc)
		rc = sw_run_live(s, pl, orig, pcb_mono_s());
	if (!rc)
		verify_report(s, &r, pl, col, o.rounds, slot, dep);
out:
	for (i = 0; i < (size_t)o.n; i++)
		free(o.w[i]);
	if (pl)
		sw_plan_free(pl);
	tune_res_free(&r);
	return rc;
}
