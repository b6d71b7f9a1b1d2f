/* sweep.c - `sweep`: the command over the sweep engine (src/sweep/,
 * sweep.h says what a sweep does): run, resume, show, plot, list, drop.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd.h"
#include "paths.h"
#include "rec/recorder.h"
#include "rec/series.h"
#include "device.h"
#include "units.h"
#include "sweep/sweep.h"

/* ---- the commands ------------------------------------------------------- */

static double estimate_s(const struct plan *pl)
{
	double runs = (double)(pl->nruns - pl->ndone);

	if (!pl->replay)	/* device time is wall time */
		return runs * ((pl->warmup + pl->dur) / 1e12 + 0.5);
	return runs * ((pl->warmup + pl->dur) / 1e12 *
		       dev_workload_cost(pl->nscen, pl->scen) + 0.01) /
	       pl->jobs;
}

static void print_plan(struct session *s, const struct plan *pl)
{
	char v[40], scen[2048] = "";
	size_t k, i;
	int j;

	for (j = 0; j < pl->nscen; j++)
		snprintf(scen + strlen(scen), sizeof(scen) - strlen(scen),
			 "%s%s", j ? " " : "", pl->scen[j]);
	if (s->out.json) {
		out_obj_begin(&s->out, NULL);
		out_str(&s->out, "sweep", pl->name);
		out_str(&s->out, "device", s->devname);
		out_u64(&s->out, "slot", pl->slot);
		out_u64(&s->out, "points", pl->npoints);
		out_u64(&s->out, "repeat", pl->repeat);
		out_u64(&s->out, "runs", pl->nruns);
		out_u64(&s->out, "done", pl->ndone);
		out_u64(&s->out, "jobs", pl->jobs);
		snprintf(v, sizeof(v), "%.1f", estimate_s(pl));
		out_num(&s->out, "estimate_s", v);
		if (pl->replay)
			out_str(&s->out, "scenario", scen);
		out_arr_begin(&s->out, "axes");
		for (k = 0; k < pl->naxes; k++) {
			out_obj_begin(&s->out, NULL);
			out_str(&s->out, "param", pl->ax[k].p->info.name);
			out_arr_begin(&s->out, "values");
			for (i = 0; i < pl->ax[k].n; i++) {
				sess_format_value(s, pl->ax[k].p->type,
						  pl->ax[k].raw[i], v,
						  sizeof(v));
				out_num(&s->out, NULL, v);
			}
			out_arr_end(&s->out);
			out_obj_end(&s->out);
		}
		out_arr_end(&s->out);
		out_obj_end(&s->out);
		return;
	}
	fprintf(s->out.fp, "sweep %s on %s, slot %u (%s): %zu points x %zu "
		"repeat%s = %zu runs%s\n", pl->name, s->devname, pl->slot,
		pl->v->name, pl->npoints, pl->repeat, pl->repeat > 1 ? "s" : "",
		pl->nruns, pl->ndone ? " (some done)" : "");
	for (k = 0; k < pl->naxes; k++) {
		fprintf(s->out.fp, "  %-14s", pl->ax[k].p->info.name);
		for (i = 0; i < pl->ax[k].n; i++) {
			if (i == 6 && pl->ax[k].n > 8) {
				fputs(" ...", s->out.fp);
				i = pl->ax[k].n - 1;
			}
			sess_format_value(s, pl->ax[k].p->type,
					  pl->ax[k].raw[i], v, sizeof(v));
			fprintf(s->out.fp, "%s%s", i ? ", " : " ", v);
		}
		fprintf(s->out.fp, "%s%s (%zu values)\n",
			*pl->ax[k].p->units ? " " : "", pl->ax[k].p->units,
			pl->ax[k].n);
	}
	fprintf(s->out.fp, "  %-14s ", "each run");
	if (pl->warmup)
		fprintf(s->out.fp, "warmup %s, then ",
			pcb_format_duration(pl->warmup, v, sizeof(v)));
	fprintf(s->out.fp, "%s recorded", pcb_format_duration(pl->dur, v,
							      sizeof(v)));
	fprintf(s->out.fp, " every %s\n", pcb_format_duration(pl->every, v,
							       sizeof(v)));
	if (pl->replay) {
		fprintf(s->out.fp, "  %-14s %s; seeds", "scenario", scen);
		for (k = 0; k < pl->repeat; k++)
			fprintf(s->out.fp, "%s%" PRIu64, k ? ", " : " ",
				pl->seeds[k]);
		fputc('\n', s->out.fp);
	} else if (pl->targv) {
		fprintf(s->out.fp, "  %-14s", "traffic");
		for (j = 0; pl->targv[j]; j++)
			fprintf(s->out.fp, " %s", pl->targv[j]);
		fputc('\n', s->out.fp);
	}
	fprintf(s->out.fp, "  %-14s", "measure");
	for (k = 0; k < pl->nmeas; k++)
		fprintf(s->out.fp, "%s%s", k ? ", " : " ",
			sw_measure_name(&pl->m[k]));
	fprintf(s->out.fp, "\n  %-14s %u%s; about %.1f s\n", "jobs", pl->jobs,
		!pl->replay ? " (a real NIC: one point at a time)" :
			   " worker processes, each on a copy of the device",
		estimate_s(pl));
}


static int sweep_exists(struct session *s, const struct plan *pl)
{
	return pcb_error(&s->err, PCB_E_STATE, "sweep %s exists ('sweep resume "
			 "%s' continues it, 'sweep drop %s' deletes it)",
			 pl->name, pl->name, pl->name);
}

/* A new sweep's directory, private (0700), in a sweeps/ of ours: made
 * here, not found (a sweep of that name made meanwhile is refused).
 */
static int sweep_mkdir(struct session *s, const struct plan *pl)
{
	char parent[PCB_PATH_LEN];
	int rc = sw_sweeps_dir(s, pl->name, parent, sizeof(parent), true);

	if (rc)
		return rc;
	if (!mkdir(pl->dir, 0700))
		return 0;
	if (errno == EEXIST)
		return sweep_exists(s, pl);
	return pcb_error(&s->err, PCB_E_IO, "cannot create '%s': %s", pl->dir,
			 strerror(errno));
}

/* Run (or resume) a parsed plan. */
static int sweep_exec(struct session *s, struct plan *pl, bool resume)
{
	uint32_t orig[SW_MAX_AXES], vals[ALGO_MAX_PARAMS];
	time_t start = time(NULL);
	double t0 = pcb_mono_s();
	size_t k, n = 0, before;
	struct stat st;
	int rc;

	if (resume) {
		rc = sw_load_results(s, pl);
		if (rc)
			return rc;
	} else if (!lstat(pl->dir, &st)) {
		return sweep_exists(s, pl);
	}
	memset(vals, 0, sizeof(vals));
	rc = sw_fixed_check(s, pl, vals, &n, resume);
	if (rc)
		return rc;
	for (k = 0; k < pl->naxes; k++)
		orig[k] = vals[pl->ax[k].p->index];
	before = pl->ndone;
	if (s->dry_run || pl->ndone == pl->nruns) {
		struct param_write w[SW_MAX_AXES];

		print_plan(s, pl);
		if (!s->dry_run)
			fprintf(s->out.fp, "sweep %s: every run is done\n",
				pl->name);
		if (!s->dry_run || pl->replay)
			return 0;
		/* the register writes a real sweep would make, then the
		 * restore */
		for (k = 0; k <= pl->nruns && !rc; k += pl->repeat) {
			sw_fill_writes(pl, k / pl->repeat, w);
			for (n = 0; k == pl->nruns && n < pl->naxes; n++)
				w[n].value = orig[n];
			rc = sess_write_params(s, pl->slot, w, pl->naxes,
					       false);
		}
		return rc;
	}
	if (!pl->replay) {	/* one confirmation for the whole plan */
		char what[256];

		if (!s->yes && isatty(STDIN_FILENO))
			print_plan(s, pl);
		snprintf(what, sizeof(what), "run sweep %s: %zu runs writing "
			 "%zu param%s of slot %u, restored at the end",
			 pl->name, pl->nruns - pl->ndone, pl->naxes,
			 pl->naxes > 1 ? "s" : "", pl->slot);
		rc = sess_confirm(s, what);
		if (rc)
			return rc;
	}
	rc = resume ? pcb_check_dir(pl->dir, &s->err) : sweep_mkdir(s, pl);
	if (!rc && !resume)
		rc = sw_save_definition(s, pl, vals, n);
	if (!rc)
		rc = sw_save_meta(s, pl, start, 0, "running");
	if (rc)
		return rc;
	pl->ndone0 = pl->ndone;
	rc = pl->replay ? sw_run_replay(s, pl, t0) : sw_run_live(s, pl, orig, t0);
	{
		struct pcb_err keep = s->err;
		int rc2 = sw_save_meta(s, pl, start, pcb_mono_s() - t0, !rc ?
				    "complete" : rc == -PCB_E_INTR ?
				    "interrupted" : "failed");

		if (rc)
			s->err = keep;
		else
			rc = rc2;
	}
	if (rc) {
		if (pl->ndone)	/* say what is kept */
			sess_warn(s, "sweep %s: %zu of %zu runs saved; 'sweep "
				  "resume %s' continues", pl->name, pl->ndone,
				  pl->nruns, pl->name);
		return rc;
	}
	out_obj_begin(&s->out, NULL);
	out_field_str(&s->out, "sweep", "sweep %s: ", pl->name);
	out_u64(&s->out, "runs", pl->nruns);
	out_field_u64(&s->out, "ran", "%llu runs in ", pl->ndone - before);
	out_u64(&s->out, "jobs", pl->jobs);
	out_field_real(&s->out, "wall_s", "%.2f s", pcb_mono_s() - t0);
	out_real(&s->out, "workload_s", pl->sim_s);
	if (before)
		out_text(&s->out, " (%zu were done)", before);
	out_field_str(&s->out, "dir", " -> %s/results.csv", pl->dir);
	out_text(&s->out, " ('sweep show %s')\n", pl->name);
	out_obj_end(&s->out);
	if (*pl->plot)
		rc = sweep_plot(s, pl->name, pl->plot);
	return rc;
}

static int cmd_sweep_run(struct session *s, int argc, char **argv)
{
	struct plan *pl = calloc(1, sizeof(*pl));
	int rc;

	if (!pl)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = sw_plan_parse(s, pl, argc, argv, false);
	if (!rc)
		rc = sweep_exec(s, pl, false);
	sw_plan_free(pl);
	return rc;
}

/* The plan again from sweep.args (checked first, see def_load): a word
 * this device refuses is an error about the file; the plan must give the
 * points and repeats the definition does, and the rows its seeds.
 */
static int cmd_sweep_resume(struct session *s, int argc, char **argv)
{
	struct plan *pl = calloc(1, sizeof(*pl));
	struct sdef *d = calloc(1, sizeof(*d));
	char dir[PCB_PATH_LEN];
	int rc;

	(void)argc;
	if (!pl || !d) {
		free(pl);
		free(d);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	rc = sw_def_load(s, argv[0], dir, sizeof(dir), d);
	if (!rc)	/* the device's own errors are not about the file */
		rc = sess_active_slot(s, &pl->slot);
	if (!rc)
		rc = sess_slot_view(s, pl->slot, &pl->v);
	if (!rc) {
		snprintf(pl->name, sizeof(pl->name), "%s", argv[0]);
		snprintf(pl->dir, sizeof(pl->dir), "%s", dir);
		pl->def = d;
		rc = sw_plan_parse(s, pl, d->nwords, d->words, true);
		if (rc == -PCB_E_INVAL || rc == -PCB_E_RANGE ||
		    rc == -PCB_E_USAGE || rc == -PCB_E_NOENT ||
		    rc == -PCB_E_AMBIG || rc == -PCB_E_PARSE)
			rc = sw_file_rewrap(s, d->path);
	}
	if (!rc && (pl->npoints != d->npoints || pl->repeat != d->repeat))
		rc = sw_file_bad(s, d->path, 0, "%zu points x %zu repeats here, "
			      "%zu x %zu on the device", d->npoints, d->repeat,
			      pl->npoints, pl->repeat);
	if (!rc && pl->replay) {	/* the seeds the rows must have */
		memcpy(d->seeds, pl->seeds, sizeof(d->seeds));
		d->have_seeds = true;
	}
	if (!rc)
		rc = sweep_exec(s, pl, true);
	sw_def_release(d);
	free(d);
	sw_plan_free(pl);
	return rc;
}

static int cmd_sweep_show(struct session *s, int argc, char **argv)
{
	struct tbl_col cols[2 + SW_MAX_AXES + 2 * SW_MAX_MEAS + 1];
	char heads[2 * SW_MAX_MEAS][48], dir[PCB_PATH_LEN];
	struct cond conds[8];
	struct table t;
	struct tbl tb;
	size_t nc = 0, k, p, nconds = 0, reps = 1;
	int best = -1, bcol = -1, rc;
	bool maximise = false, ci;

	rc = sw_table_load(s, argv[0], &t, dir, sizeof(dir));
	if (!rc && argc > 1)
		rc = sw_parse_best(s, &t, argc - 1, argv + 1, &maximise, &bcol,
				conds, &nconds);
	if (rc) {
		sw_table_free(&t);
		return rc;
	}
	for (p = 0; p < t.npoints; p++)
		reps = t.n[p] > reps ? t.n[p] : reps;
	ci = reps > 1;
	cols[nc++] = (struct tbl_col){ "point", "POINT", TBL_RIGHT };
	for (k = 0; k < t.naxes; k++)
		cols[nc++] = (struct tbl_col){
			t.r->cols[SW_FIXED_COLS + k].name,
			t.r->cols[SW_FIXED_COLS + k].name, TBL_RIGHT };
	if (ci)
		cols[nc++] = (struct tbl_col){ "n", "N", TBL_RIGHT };
	for (k = 0; k < t.nprim; k++) {
		const char *u = t.r->cols[t.prim[k]].unit;

		snprintf(heads[2 * k], sizeof(heads[0]), "%s%s%s%s",
			 t.pname[k], *u ? " (" : "", u, *u ? ")" : "");
		cols[nc++] = (struct tbl_col){ t.pname[k], heads[2 * k],
					       TBL_RIGHT };
		if (ci) {
			snprintf(heads[2 * k + 1], sizeof(heads[0]),
				 "%s_ci95", t.pname[k]);
			cols[nc++] = (struct tbl_col){ heads[2 * k + 1], "±95%",
						       TBL_RIGHT };
		}
	}
	if (bcol != -1)
		cols[nc++] = (struct tbl_col){ "best", "BEST", 0 };
	for (p = 0; bcol != -1 && p < t.npoints; p++) {
		double v = sw_table_value(&t, p, bcol);
		size_t c;

		for (c = 0; c < nconds && sw_cond_holds(&t, p, &conds[c]); c++)
			;
		if (c < nconds || isnan(v) || t.first[p] < 0)
			continue;
		if (best < 0 || (maximise ? v > sw_table_value(&t, (size_t)best,
							     bcol) :
				 v < sw_table_value(&t, (size_t)best, bcol)))
			best = (int)p;
	}
	tbl_init(&tb, cols, nc);
	for (p = 0; p < t.npoints; p++) {
		if (t.first[p] < 0)
			continue;
		tbl_row(&tb);
		tbl_u64(&tb, p);
		for (k = 0; k < t.naxes; k++)
			tbl_real(&tb, series_at(t.r, (size_t)t.first[p],
					       SW_FIXED_COLS + k));
		if (ci)
			tbl_u64(&tb, t.n[p]);
		for (k = 0; k < t.nprim; k++) {
			tbl_real(&tb, t.mean[p * t.nprim + k]);
			if (ci)
				tbl_real(&tb, t.ci[p * t.nprim + k]);
		}
		if (bcol != -1) {
			if (s->out.json)
				tbl_bool(&tb, (int)p == best);
			else
				tbl_str(&tb, (int)p == best ? "*" : "");
		}
	}
	tbl_print(&tb, &s->out, NULL);
	tbl_release(&tb);
	if (bcol != -1 && !s->out.json) {
		if (best < 0)
			fprintf(s->out.fp, "no point meets the conditions\n");
		else
		{
			fprintf(s->out.fp, "best (%s %s): point %d,", argv[2],
				argv[3], best);
			for (k = 0; k < t.naxes; k++)
				fprintf(s->out.fp, " %s %.6g",
					t.r->cols[SW_FIXED_COLS + k].name,
					series_at(t.r, (size_t)t.first[best],
						  SW_FIXED_COLS + k));
			fprintf(s->out.fp, ": %s %.6g\n", argv[3],
				sw_table_value(&t, (size_t)best, bcol));
		}
	}
	sw_table_free(&t);
	return 0;
}

static int cmd_sweep_plot(struct session *s, int argc, char **argv)
{
	if (argc == 2 || (argc == 3 && strcmp(argv[1], "to")))
		return pcb_error(&s->err, PCB_E_USAGE, "usage: sweep plot NAME "
				 "[to FILE.png|FILE.svg]");
	if (argc == 3) {
		size_t l = strlen(argv[2]);

		if (l < 5 || (strcmp(argv[2] + l - 4, ".png") &&
			      strcmp(argv[2] + l - 4, ".svg")))
			return pcb_error(&s->err, PCB_E_INVAL, "sweep plot: "
					 "'%s' is neither .png nor .svg",
					 argv[2]);
	}
	return sweep_plot(s, argv[0], argc == 3 ? argv[2] : NULL);
}

static int cmd_sweep_list(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "name", "NAME", 0 }, { "runs", "RUNS", TBL_RIGHT },
		{ "params", "PARAMS", 0 },
	};
	char **names = store_names("sweeps", true);
	struct tbl t;
	size_t i, k;

	(void)argc;
	(void)argv;
	if (!names)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; names[i]; i++) {
		struct table tt;
		char dir[PCB_PATH_LEN], params[256] = "";
		struct pcb_err keep = s->err;
		int rc = sw_table_load(s, names[i], &tt, dir, sizeof(dir));

		/* not a sweep, or none of its runs done: not listed; a
		 * damaged one: said, and the others listed all the same */
		if (rc && rc != -PCB_E_NOENT)
			sess_warn(s, "sweep %s skipped: %s", names[i],
				  s->err.msg);
		if (!rc) {
			for (k = 0; k < tt.naxes; k++)
				snprintf(params + strlen(params),
					 sizeof(params) - strlen(params),
					 "%s%s", k ? " " : "",
					 tt.r->cols[SW_FIXED_COLS + k].name);
			tbl_row(&t);
			tbl_str(&t, names[i]);
			tbl_u64(&t, tt.r->nrows);
			tbl_str(&t, params);
		}
		sw_table_free(&tt);
		s->err = keep;
	}
	words_free(names);
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	return 0;
}

/* A sweep, damaged or not, goes (its directory must be one, not a link). */
static int cmd_sweep_drop(struct session *s, int argc, char **argv)
{
	char dir[PCB_PATH_LEN], path[PCB_PATH_LEN];
	struct stat st;

	(void)argc;
	if (sw_sweeps_dir(s, argv[0], dir, sizeof(dir), false) ||
	    pcb_path(path, sizeof(path), &s->err, "%s/sweep.args", dir))
		return -s->err.code;
	if (lstat(dir, &st) || lstat(path, &st))
		return pcb_error(&s->err, PCB_E_NOENT, "no sweep '%s'", argv[0]);
	if (pcb_check_dir(dir, &s->err))
		return -s->err.code;
	sw_rm_tree(dir);
	out_text(&s->out, "sweep %s dropped\n", argv[0]);
	return 0;
}

/* ---- completion ------------------------------------------------------------ */

/* sweep [run] PARAM SPEC ... KEYWORD VALUE ...: argv from the first word
 * after `sweep` or `sweep run`.  The keywords are sw_keys (sweep.h).
 */
static bool sweep_run_complete(struct session *s, char **argv, int argc,
			       struct cands *c)
{
	char keys[160];
	const char *wkeys;
	int i, scen = -1;
	bool in_axes = true;

	sw_key_list(keys, sizeof(keys));
	/* "util,queue_p": the list is the word being completed */
	if (argc > 0 && argv[argc - 1][0] &&
	    argv[argc - 1][strlen(argv[argc - 1]) - 1] == ',')
		argc--;
	for (i = 0; i < argc; i++) {
		if (sw_is_keyword(argv[i]))
			in_axes = false;
		if (!strcmp(argv[i], "scenario"))
			scen = i;
	}
	if (in_axes && argc % 2 == 0) {
		cand_params(s, c);
		if (argc > 0)
			cand_list(c, keys);
		return true;
	}
	if (in_axes)
		return true;		/* a range or list of values */
	if (!strcmp(argv[argc - 1], "plot"))
		return false;		/* a file */
	if (!strcmp(argv[argc - 1], "measure")) {
		for (i = 1; i < REC_C_FIXED; i++)
			cand_add(c, rec_fixed_cols[i].name);
		for (i = 0; i < DEV_S_COUNT; i++)
			cand_add(c, dev_summary_cols[i].name);
		c->append = ',';
		return true;
	}
	if (scen == argc - 1) {
		cand_list(c, dev_workload_kinds());
		return true;
	}
	if (scen >= 0 && (wkeys = dev_workload_keys(argv[scen + 1])) &&
	    (argc - scen) % 2 == 0)
		cand_list(c, wkeys);
	cand_list(c, keys);
	return true;
}

/* resume, drop: a saved sweep */
static bool sweep_name_complete(struct session *s, char **argv, int argc,
				struct cands *c)
{
	(void)s;
	(void)argv;
	if (argc == 0)
		cand_saved(c, "sweeps", true);
	return true;
}

/* show NAME [best min|max COL] */
static bool sweep_show_complete(struct session *s, char **argv, int argc,
				struct cands *c)
{
	if (argc == 1)
		cand_add(c, "best");
	else if (argc == 2)
		cand_list(c, "min, max");
	return sweep_name_complete(s, argv, argc, c);
}

/* plot NAME [to FILE] */
static bool sweep_plot_complete(struct session *s, char **argv, int argc,
				struct cands *c)
{
	if (argc == 1)
		cand_add(c, "to");
	if (argc == 2)
		return false;	/* a file */
	return sweep_name_complete(s, argv, argc, c);
}


const struct cmd_row cmd_sweep_verbs[] = {
	{
		.name = "run",
		.fn = cmd_sweep_run,
		.min_args = 2,
		.max_args = -1,
		.args = "PARAM FROM:TO:STEP|v1,v2,... [PARAM2 ...] [for DURATION] "
			"[warmup DURATION] [every INTERVAL] [repeat N] [seeds "
			"S1,S2,...] [jobs N] [measure COL,...] [scenario KIND KEY "
			"VALUE ...] [while 'CMD ARGS'] [into NAME] [plot FILE.png] "
			"[shuffle]",
		.help = "sweep params over the cross product of their values; 'run' "
			"may be left out; 'jobs': worker processes on the sim "
			"(default: the CPUs online, at most " SW_STR(SW_MAX_JOBS) ")",
		.example = "sweep ALPHA 0.05:0.5:0.05 for 10ms measure "
			"avg_rtt,util,queue_p99 plot /tmp/alpha.png",
		.flags = CMD_FALLBACK | CMD_WRITES | CMD_DEVICE,
		.complete = sweep_run_complete,
	},
	{
		.name = "resume",
		.fn = cmd_sweep_resume,
		.min_args = 1,
		.max_args = 1,
		.args = "NAME",
		.help = "run what an interrupted sweep has not finished",
		.example = "sweep resume sweep1",
		.flags = CMD_WRITES | CMD_DEVICE,
		.complete = sweep_name_complete,
	},
	{
		.name = "show",
		.fn = cmd_sweep_show,
		.min_args = 1,
		.max_args = 40,
		.args = "NAME [best min|max COL [where COL OP VALUE [and ...]]]",
		.help = "each point's mean over repeats (with 95 % intervals), the "
			"best point marked",
		.example = "sweep show sweep1 best min avg_rtt where util > 0.95",
		.complete = sweep_show_complete,
	},
	{
		.name = "plot",
		.fn = cmd_sweep_plot,
		.min_args = 1,
		.max_args = 3,
		.args = "NAME [to FILE.png|FILE.svg]",
		.help = "each measure against the param (with 95 % intervals), or a "
			"heatmap for two params",
		.example = "sweep plot sweep1 to /tmp/sweep1.png",
		.complete = sweep_plot_complete,
	},
	{
		.name = "list",
		.fn = cmd_sweep_list,
		.args = "",
		.help = "saved sweeps",
		.example = "sweep list",
		.flags = CMD_DEFAULT,
	},
	{
		.name = "drop",
		.fn = cmd_sweep_drop,
		.min_args = 1,
		.max_args = 1,
		.args = "NAME",
		.help = "delete a sweep and its results",
		.example = "sweep drop sweep1",
		.complete = sweep_name_complete,
	},
	{ 0 }
};
