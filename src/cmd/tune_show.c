/* tune_show.c - a saved tune shown (tune_print.c prints it), plotted,
 * applied (one journal transaction), made a profile and dropped; the
 * `tune` verbs.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "profile/profile.h"
#include "cmd/table.h"
#include "cmd/tune_cmd.h"
#include "complete.h"
#include "fsafe.h"
#include "journal.h"
#include "paths.h"
#include "session.h"
#include "store.h"
#include "words.h"

static int cmd_tune_show(struct session *s, int argc, char **argv)
{
	struct tune_res r;
	char dir[PCB_PATH_LEN];
	int rc;

	(void)argc;
	rc = tune_load(s, argv[0], &r, dir, sizeof(dir));
	if (!rc)
		tune_print(s, &r);
	tune_res_free(&r);
	return rc;
}

/* tune drop NAME: the tune's directory, whatever it holds (a tune killed
 * before its first save has no tune.json to load).
 */
static int cmd_tune_drop(struct session *s, int argc, char **argv)
{
	char dir[PCB_PATH_LEN];
	struct stat st;
	int rc = tune_dir(s, argv[0], dir, sizeof(dir), false);

	(void)argc;
	if (rc)
		return rc;
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode))
		return pcb_error(&s->err, PCB_E_NOENT, "no tune '%s' ('tune "
				 "list')", argv[0]);
	if (pcb_check_dir(dir, &s->err))
		return -s->err.code;
	sw_rm_tree(dir);
	if (!lstat(dir, &st))
		return pcb_error(&s->err, PCB_E_IO, "cannot remove '%s'", dir);
	out_text(&s->out, "tune %s dropped\n", argv[0]);
	return 0;
}

/* tune apply NAME: the best point written to the slot the tune ran on
 * (in debug mode slot 1: its counters keep watching the result),
 * checked, journaled and read back in one transaction ('journal undo'
 * takes it back).  A slot that is not the active one is said.
 */
static int cmd_tune_apply(struct session *s, int argc, char **argv)
{
	struct param_write w[SW_MAX_AXES];
	struct tune_res r;
	char dir[PCB_PATH_LEN], pt[256];
	unsigned slot = 0, act;
	int rc;

	(void)argc;
	rc = tune_load(s, argv[0], &r, dir, sizeof(dir));
	if (!rc)
		rc = tune_best_writes(s, &r, TUNE_TUNED, &slot, w);
	if (!rc && !s->dry_run)
		rc = sess_lock(s);
	if (!rc) {
		if (!s->dry_run)
			s->tx = journal_next_seq(s->cur->journal);
		rc = sess_write_params(s, slot, w, r.nprm, true);
		s->tx = 0;
		if (!s->dry_run)
			sess_unlock(s);
	}
	if (!rc) {
		tune_point_text(s, &r, &r.ev[r.best], pt, sizeof(pt));
		out_obj_begin(&s->out, NULL);
		out_field_str(&s->out, "tune", "tune %s: ", r.name);
		out_field_str(&s->out, "point", "%s", pt);
		out_field_uint(&s->out, "slot", " written to slot %u", slot);
		out_text(&s->out, "%s\n", s->dry_run ? " (dry run: nothing "
			 "written)" : " ('journal undo' takes it back)");
		out_bool(&s->out, "changed", s->nwrites > s->cmd_w0);
		out_obj_end(&s->out);
		if (!sess_active_slot(s, &act) && act != slot)
			sess_warn(s, "slot %u is not the active one (slot %u "
				  "is): the values run when slot %u does; 'tune "
				  "profile %s' makes a profile for the "
				  "deployment slot", slot, act, slot, r.name);
		pcb_err_reset(&s->err);
	}
	tune_res_free(&r);
	return rc;
}

/* The deployment profile of pr (the device's slots) with the best point
 * w in slot `dep`: that slot enabled without counters, every other slot
 * of the algorithm (its debug build) and every lower slot disabled (so
 * `dep` is the active one), with their states only; other slots left out.
 */
static int deploy_slots(struct session *s, struct profile *pr, unsigned dep,
			uint32_t id, const struct param_write *w, size_t nw)
{
	size_t i, k, j, n = 0;

	for (i = 0; i < pr->nslots; i++) {
		struct pslot *ps = &pr->s[i];

		if (ps->slot != dep && ps->slot > dep &&
		    ps->algo_num >> 16 != id)
			continue;
		if (ps->slot == dep) {
			for (k = 0; k < nw; k++) {
				for (j = 0; j < ps->nparams &&
				     ps->p[j].index != w[k].index; j++)
					;
				if (j == ps->nparams)
					return pcb_error(&s->err, PCB_E_STATE,
							 "tune: slot %u has no "
							 "param %u", dep,
							 w[k].index);
				ps->p[j].raw = w[k].value;
			}
			ps->enabled = true;
		} else {
			ps->nparams = 0;
			ps->enabled = false;
		}
		ps->counters = false;
		if (n != i)
			pr->s[n] = *ps;
		n++;
	}
	pr->nslots = n;
	return 0;
}

/* tune profile NAME [PROFILE]: the best point as a deployment profile
 * (tune.h: the slot that runs the algorithm with debug mode off, enabled;
 * no debug slot enabled), whatever slot the tune ran on.
 */
static int cmd_tune_profile(struct session *s, int argc, char **argv)
{
	struct param_write w[SW_MAX_AXES];
	struct profile *pr = calloc(1, sizeof(*pr));
	const char *pname = argc > 1 ? argv[1] : argv[0];
	struct tune_res r = { .ev = NULL };
	char dir[PCB_PATH_LEN], path[PCB_PATH_LEN];
	struct slot_view *v;
	struct pcb_wfile wf;
	unsigned slot = 0;
	int rc = pr ? 0 : pcb_error(&s->err, PCB_E_NOMEM, "out of memory");

	if (!rc)
		rc = tune_load(s, argv[0], &r, dir, sizeof(dir));
	if (!rc)
		rc = tune_best_writes(s, &r, TUNE_DEPLOY, &slot, w);
	if (!rc)
		rc = profile_path(s, pname, path, sizeof(path));
	if (!rc)
		rc = profile_read_device(s, -1, pr);
	if (!rc)
		rc = sess_slot_view(s, slot, &v);
	if (!rc)
		rc = deploy_slots(s, pr, slot, v->algo_num >> 16, w, r.nprm);
	if (!rc) {
		snprintf(pr->name, sizeof(pr->name), "%s", pname);
		rc = pcb_wfile_open(&wf, path, PCB_MODE_DATA, &s->err);
	}
	if (!rc) {
		profile_write_json(s, wf.fp, pr);
		rc = pcb_wfile_commit(&wf, &s->err);
	}
	if (!rc) {
		out_obj_begin(&s->out, NULL);
		out_field_str(&s->out, "profile", "profile %s: ", pname);
		out_field_str(&s->out, "tune", "tune %s's best", r.name);
		out_field_uint(&s->out, "slot", " in slot %u", slot);
		out_text(&s->out, " (%s, enabled; its debug build disabled) -> ",
			 v->name);
		out_field_str(&s->out, "file", "%s\n", path);
		out_obj_end(&s->out);
	}
	free(pr);
	tune_res_free(&r);
	return rc;
}

/* A param's raw value as a real number (fixed point scaled). */
static double real_of(const struct tune_prm *p, uint32_t raw)
{
	unsigned fb = algo_ptype_frac_bits((enum algo_ptype)p->type);

	return fb ? (double)raw / (double)(1u << fb) : (double)raw;
}

/* The x and y of an evaluation in the space plot: the first param, and
 * the second or the objective.
 */
static void space_xy(const struct tune_res *r, const struct tune_eval *e,
		     double *x, double *y)
{
	*x = real_of(&r->prm[0], e->raw[0]);
	*y = r->nprm > 1 ? real_of(&r->prm[1], e->raw[1]) : e->obj;
}

/* tune plot NAME space: the evaluations over the (first two) params. */
static int tune_plot_space(struct session *s, struct tune_res *r,
			   const char *dir, const char *to)
{
	char dat[PCB_PATH_LEN], gp[PCB_PATH_LEN], tmpl[PCB_PATH_LEN];
	char *vars = NULL, t[600], goal[128];
	struct pcb_wfile w;
	double x, y;
	size_t i, vlen;
	FILE *m;
	int rc = pcb_data_file(tmpl, sizeof(tmpl), "plots/tune_space.gp",
			       &s->err);

	if (!rc)
		rc = pcb_path(dat, sizeof(dat), &s->err, "%s/space.dat", dir);
	if (!rc)
		rc = pcb_path(gp, sizeof(gp), &s->err, "%s/space.gp", dir);
	if (!rc)
		rc = pcb_wfile_open(&w, dat, PCB_MODE_DATA, &s->err);
	if (rc)
		return rc;
	fputs("# x y obj feasible\n", w.fp);
	for (i = 0; i < r->nev; i++) {
		space_xy(r, &r->ev[i], &x, &y);
		fprintf(w.fp, "%.9g %.9g %.9g %d\n", x, y, r->ev[i].obj,
			r->ev[i].feasible);
	}
	rc = pcb_wfile_commit(&w, &s->err);
	if (rc)
		return rc;
	m = open_memstream(&vars, &vlen);	/* the paths whole */
	if (!m)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	plot_str(m, "datafile", dat);
	plot_str(m, "objname", r->obj);
	plot_str(m, "xname", r->prm[0].name);
	plot_str(m, "yname", r->nprm > 1 ? r->prm[1].name : r->obj);
	fprintf(m, "nparams = %d\nxlog = %d\nylog = %d\n", r->nprm > 1 ? 2 : 1,
		r->prm[0].log, r->nprm > 1 && r->prm[1].log);
	space_xy(r, &r->ev[r->best >= 0 ? r->best : 0], &x, &y);
	fprintf(m, "bestx = %.9g\nbesty = %.9g\n", r->best >= 0 ? x : NAN,
		r->best >= 0 ? y : NAN);
	space_xy(r, &r->ev[r->def >= 0 ? r->def : 0], &x, &y);
	fprintf(m, "defx = %.9g\ndefy = %.9g\n", r->def >= 0 ? x : NAN,
		r->def >= 0 ? y : NAN);
	snprintf(t, sizeof(t), "tune %.64s: %s over %.64s%s%.64s%s",
		 r->name, tune_goal_text(r, goal, sizeof(goal)), r->prm[0].name,
		 r->nprm > 1 ? " and " : "", r->nprm > 1 ? r->prm[1].name : "",
		 r->nprm > 2 ? " (the first two params)" : "");
	plot_str(m, "plottitle", t);
	rc = ferror(m);
	if (fclose(m) || rc)
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	else
		rc = plot_render(s, to, vars, 0, tmpl, dat, gp);
	free(vars);
	return rc;
}

/* What tune plot's words ask for. */
struct tplot_req {
	bool space;
	const char *to;
};

static const struct cmd_kw tune_plot_keys[] = {
	{ .name = "space", .dest = KW_D_FLAG,
	  .off = offsetof(struct tplot_req, space) },
	{ .name = "to", .arg = "FILE.png|FILE.svg", .flags = KW_FILE,
	  .dest = KW_D_STR, .off = offsetof(struct tplot_req, to) },
	{ 0 }
};

/* tune plot NAME [space] [to FILE]: the objective of every evaluation in order,
 * its interval, the best so far (feasible searched points: as `best`),
 * infeasible ones apart, the default's value as a line.
 */
static int cmd_tune_plot(struct session *s, int argc, char **argv)
{
	char dir[PCB_PATH_LEN], dat[PCB_PATH_LEN], gp[PCB_PATH_LEN];
	char tmpl[PCB_PATH_LEN], *vars = NULL;
	const char *to = NULL;
	struct tune_res r;
	struct pcb_wfile w;
	double best = NAN;
	struct tplot_req q = { 0 };
	size_t i, vlen;
	bool space;
	char syn[80];
	int at, rc;

	rc = cmd_kw_parse(s, tune_plot_keys, &q, argc - 1, argv + 1, &at);
	if (!rc && at + 1 != argc)
		rc = pcb_error(&s->err, PCB_E_USAGE, "usage: tune plot NAME %s",
			       cmd_kw_synopsis(tune_plot_keys, syn,
					       sizeof(syn)));
	if (rc)
		return rc;
	space = q.space;
	to = q.to;
	rc = tune_load(s, argv[0], &r, dir, sizeof(dir));
	if (!rc && space) {
		rc = r.nev ? tune_plot_space(s, &r, dir, to) :
		     pcb_error(&s->err, PCB_E_STATE, "tune %s: no evaluations",
			       argv[0]);
		goto out;
	}
	if (!rc)
		rc = pcb_data_file(tmpl, sizeof(tmpl), "plots/tune.gp",
				   &s->err);
	if (!rc)
		rc = pcb_path(dat, sizeof(dat), &s->err, "%s/plot.dat", dir);
	if (!rc)
		rc = pcb_path(gp, sizeof(gp), &s->err, "%s/plot.gp", dir);
	if (!rc)
		rc = pcb_wfile_open(&w, dat, PCB_MODE_DATA, &s->err);
	if (rc)
		goto out;
	fputs("# eval obj ci feasible best_so_far\n", w.fp);
	for (i = 0; i < r.nev; i++) {
		const struct tune_eval *e = &r.ev[i];

		if (e->feasible && strcmp(e->phase, "default") &&
		    strcmp(e->phase, "sens") &&
		    (isnan(best) || (r.maximize ? e->obj > best : e->obj < best)))
			best = e->obj;
		fprintf(w.fp, "%zu %.9g %.9g %d %.9g\n", i, e->obj, e->obj_ci,
			e->feasible, best);
	}
	rc = pcb_wfile_commit(&w, &s->err);
	if (!rc) {
		FILE *m = open_memstream(&vars, &vlen); /* paths whole */

		if (!m) {
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
			goto out;
		}
		plot_str(m, "datafile", dat);
		plot_str(m, "objname", r.obj);
		fprintf(m, "defobj = %.9g\n", r.def >= 0 ? r.ev[r.def].obj : 0);
		{
			char t[224], goal[128];

			snprintf(t, sizeof(t), "tune %s: %s", r.name,
				 tune_goal_text(&r, goal, sizeof(goal)));
			plot_str(m, "plottitle", t);
		}
		rc = ferror(m);
		if (fclose(m) || rc)
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		else
			rc = plot_render(s, to, vars, 1, tmpl, dat, gp);
	}
out:
	free(vars);
	tune_res_free(&r);
	return rc;
}

static int cmd_tune_list(struct session *s, int argc, char **argv)
{
	char **names = store_names("tunes", NULL);
	size_t i;

	(void)argc;
	(void)argv;
	if (!names)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	for (i = 0; names[i]; i++)
		out_text(&s->out, "%s\n", names[i]);
	words_free(names);
	return 0;
}

static bool tune_name_complete(struct session *s, char **argv, int argc,
			       struct cands *c)
{
	(void)s;
	(void)argv;
	if (argc == 0)
		cand_saved(c, "tunes", NULL);
	return true;
}

/* tune plot NAME [space] [to FILE] */
static bool tune_plot_complete(struct session *s, char **argv, int argc,
			       struct cands *c)
{
	if (argc == 0)
		return tune_name_complete(s, argv, argc, c);
	return cand_keywords(s, tune_plot_keys, 1, argv, argc, c);
}

/* tune verify NAME KEY VALUE ... */
static bool tune_verify_complete(struct session *s, char **argv, int argc,
				 struct cands *c)
{
	if (argc == 0)
		return tune_name_complete(s, argv, argc, c);
	return cand_keywords(s, tune_verify_keys, 1, argv, argc, c);
}

/* tune run's words: the params, the objective's sense and the keywords. */
static bool tune_run_complete(struct session *s, char **argv, int argc,
			      struct cands *c)
{
	(void)argv;
	(void)argc;
	cand_params(s, c);
	cand_kw_names(c, tune_run_keys);
	return true;
}

const struct cmd_row cmd_tune_verbs[] = {
	{
		.name = "run",
		.fn = cmd_tune_run,
		.min_args = 3,
		.max_args = -1,
		.args = "PARAM FROM:TO [PARAM FROM:TO ...] minimize|maximize "
			"COL [subject to COL OP VALUE [and ...]] [budget N runs] "
			"[scenario KIND KEY VALUE ... [scenario ...] [worst|mean]] "
			"[for D] [warmup D] [seeds S1,S2,...] [jobs N] [into NAME]",
		.help = "search the params (sim device, scratch copies: the "
			"device is never written) for the best COL under the "
			"constraints: a Latin hypercube, then NLopt Sbplx; every "
			"point on every seed (default 3); budget in runs (default "
			"200); 'run' may be left out. A set of up to 8 scenarios: "
			"every point runs on each, the objective is their worst "
			"case (default; its CI that scenario's) or their mean "
			"('mean'; CI sqrt(sum of squared CIs)/n); a point is "
			"feasible only if every scenario meets every constraint "
			"(a constraint shows its worst scenario's value); the "
			"budget counts runs on all scenarios",
		.example = "tune ALPHA 0.02:0.5 AI 1:100 minimize queue_p99 "
			"subject to util >= 0.9 budget 120 runs",
		.flags = CMD_FALLBACK | CMD_DEVICE,
		.complete = tune_run_complete,
	},
	{
		.name = "show",
		.fn = cmd_tune_show,
		.min_args = 1,
		.max_args = 1,
		.args = "NAME",
		.help = "the path of evaluations, the best point and the default "
			"with objective and constraints ± 95 % CI (a set: "
			"combined, then each scenario's), the sensitivity around "
			"the best",
		.example = "tune show tune1",
		.flags = CMD_DEFAULT,
		.complete = tune_name_complete,
	},
	{
		.name = "resume",
		.fn = cmd_tune_resume,
		.min_args = 1,
		.max_args = 1,
		.args = "NAME",
		.help = "continue an interrupted tune: its words again, the points "
			"it evaluated taken as the search asks for them again (the "
			"same seeds, the same path), the rest run",
		.example = "tune resume tune1",
		.flags = CMD_DEVICE,
		.complete = tune_name_complete,
	},
	{
		.name = "plot",
		.fn = cmd_tune_plot,
		.min_args = 1,
		.max_args = 4,
		.args = "NAME",
		.keys = tune_plot_keys,
		.help = "the objective of each evaluation and the best so far; "
			"space: the evaluations over the params (one: the "
			"objective against it; two: coloured by the objective), "
			"the best and the default marked",
		.example = "tune plot tune1 space to /tmp/space.png",
		.complete = tune_plot_complete,
	},
	{
		.name = "apply",
		.fn = cmd_tune_apply,
		.min_args = 1,
		.max_args = 1,
		.args = "NAME",
		.help = "write the best point to the slot the tune ran on (in "
			"debug mode slot 1; checked, journaled, read back; one "
			"journal transaction: 'journal undo' takes it back)",
		.example = "tune apply tune1",
		.flags = CMD_WRITES | CMD_DEVICE,
		.complete = tune_name_complete,
	},
	{
		.name = "verify",
		.fn = cmd_tune_verify,
		.min_args = 3,
		.max_args = -1,
		.args = "NAME",
		.keys = tune_verify_keys,
		.help = "on a real NIC: the default (A) and the tuned point (B) "
			"alternately, A B A B, N rounds (default 3) with the "
			"traffic command; B - A with its 95 % CI (COL default "
			"avg_rtt_mean); the original values written back at the "
			"end",
		.example = "tune verify tune1 while 'ib_write_bw -d mlx5_0' for "
			"10s rounds 5",
		.flags = CMD_WRITES | CMD_DEVICE,
		.complete = tune_verify_complete,
	},
	{
		.name = "profile",
		.fn = cmd_tune_profile,
		.min_args = 1,
		.max_args = 2,
		.args = "NAME [PROFILE]",
		.help = "the best point as a deployment profile: the slot that "
			"runs the algorithm with debug mode off (slot 0 for "
			"ZTR-RTT) with it, enabled, no debug slot enabled "
			"('profile apply' writes it)",
		.example = "tune profile tune1 tuned",
		.flags = CMD_DEVICE,
		.complete = tune_name_complete,
	},
	{
		.name = "list",
		.fn = cmd_tune_list,
		.min_args = 0,
		.max_args = 0,
		.args = "",
		.help = "the saved tunes",
		.example = "tune list",
	},
	{
		.name = "drop",
		.fn = cmd_tune_drop,
		.min_args = 1,
		.max_args = 1,
		.args = "NAME",
		.help = "delete a tune and its results (an interrupted one "
			"too, whatever it holds)",
		.example = "tune drop tune1",
		.complete = tune_name_complete,
	},
	{ .name = NULL },
};
