/* sweep.c - `sweep`: the command over the sweep engine (src/sweep/,
 * sweep.h says what a sweep does): run, resume, show, plot, list, drop.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd.h"
#include "cmd/sweep_cmd.h"
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
		out_str(&s->out, "device", s->cur->name);
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
		"repeat%s = %zu runs%s\n", pl->name, s->cur->name, pl->slot,
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
	size_t k, n = 0, before, foreign = 0;
	struct stat st;
	int rc;

	if (resume) {
		rc = sw_load_results(s, pl);
		if (rc)
			return rc;
		if (pl->shard_n)	/* the other shards' runs are not ours */
			sw_shard_skip(pl);
	} else if (!lstat(pl->dir, &st)) {
		return sweep_exists(s, pl);
	}
	memset(vals, 0, sizeof(vals));
	rc = sw_fixed_check(s, pl, vals, &n, resume);
	if (rc)
		return rc;
	for (k = 0; k < pl->naxes; k++)
		orig[k] = vals[pl->ax[k].p->index];
	for (k = 0; k < pl->nruns; k++)	/* other shards' runs */
		foreign += !sw_in_shard(pl, k);
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
	if (before > foreign)
		out_text(&s->out, " (%zu were done)", before - foreign);
	out_field_str(&s->out, "dir", " -> %s/results.csv", pl->dir);
	if (pl->shard_n)
		out_text(&s->out, " (shard %u of %u; 'sweep merge %s' gathers "
			 "the shards)\n", pl->shard_i, pl->shard_n, pl->name);
	else
		out_text(&s->out, " ('sweep show %s')\n", pl->name);
	out_obj_end(&s->out);
	if (!pl->shard_n) {	/* a shard is not the whole grid */
		struct pcb_err keep = s->err;
		struct table t;
		char dir[PCB_PATH_LEN];

		if (!sw_table_load(s, pl->name, &t, dir, sizeof(dir)))
			sw_table_warn_flat(s, pl->name, &t, pl->warmup);
		sw_table_free(&t);
		s->err = keep;
	}
	if (*pl->plot)
		rc = sweep_plot(s, pl->name, pl->plot);
	return rc;
}

static int sweep_shard(struct session *s, int argc, char **argv);

static int cmd_sweep_run(struct session *s, int argc, char **argv)
{
	struct plan *pl;
	int rc;

	if (argc >= 2 && !strcmp(argv[1], "--shard"))
		return sweep_shard(s, argc, argv);
	pl = calloc(1, sizeof(*pl));
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
 * *pl and *d are the caller's to free (sweep_unload) either way.
 */
static int sweep_load(struct session *s, const char *name, struct plan **pl,
		      struct sdef **d)
{
	char dir[PCB_PATH_LEN];
	int rc;

	*pl = calloc(1, sizeof(**pl));
	*d = calloc(1, sizeof(**d));
	if (!*pl || !*d)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = sw_def_load(s, name, dir, sizeof(dir), *d);
	if (!rc)	/* the device's own errors are not about the file */
		rc = sess_active_slot(s, &(*pl)->slot);
	if (!rc)
		rc = sess_slot_view(s, (*pl)->slot, &(*pl)->v);
	if (rc)
		return rc;
	snprintf((*pl)->name, sizeof((*pl)->name), "%s", name);
	snprintf((*pl)->dir, sizeof((*pl)->dir), "%s", dir);
	(*pl)->def = *d;
	rc = sw_plan_parse(s, *pl, (*d)->nwords, (*d)->words, true);
	if (rc == -PCB_E_INVAL || rc == -PCB_E_RANGE || rc == -PCB_E_USAGE ||
	    rc == -PCB_E_NOENT || rc == -PCB_E_AMBIG || rc == -PCB_E_PARSE)
		return sw_file_rewrap(s, (*d)->path);
	if (!rc && ((*pl)->npoints != (*d)->npoints ||
		    (*pl)->repeat != (*d)->repeat))
		return sw_file_bad(s, (*d)->path, 0, "%zu points x %zu repeats "
				   "here, %zu x %zu on the device",
				   (*d)->npoints, (*d)->repeat,
				   (*pl)->npoints, (*pl)->repeat);
	if (!rc && (*pl)->replay) {	/* the seeds the rows must have */
		memcpy((*d)->seeds, (*pl)->seeds, sizeof((*d)->seeds));
		(*d)->have_seeds = true;
	}
	return rc;
}

static void sweep_unload(struct plan *pl, struct sdef *d)
{
	if (d)
		sw_def_release(d);
	free(d);
	if (pl)
		sw_plan_free(pl);
}

static int cmd_sweep_resume(struct session *s, int argc, char **argv)
{
	struct plan *pl = NULL;
	struct sdef *d = NULL;
	int rc = sweep_load(s, argv[0], &pl, &d);

	(void)argc;
	if (!rc)
		rc = sweep_exec(s, pl, true);
	sweep_unload(pl, d);
	return rc;
}

/* ---- beyond one machine: plan, shards, merge ------------------------------ */

/* "I/N": slice I of N, 0 <= I < N <= runs. */
static int parse_shard(struct session *s, const char *t, size_t runs,
		       unsigned *i, unsigned *n)
{
	char *end;
	unsigned long a, b;

	a = strtoul(t, &end, 10);
	if (end == t || *end != '/' || !isdigit((unsigned char)t[0]))
		goto bad;
	t = end + 1;
	b = strtoul(t, &end, 10);
	if (end == t || *end || !isdigit((unsigned char)t[0]) || !b ||
	    a >= b)
		goto bad;
	if (b > runs)
		return pcb_error(&s->err, PCB_E_RANGE, "sweep: %lu shards but "
				 "%zu runs", b, runs);
	*i = (unsigned)a;
	*n = (unsigned)b;
	return 0;
bad:
	return pcb_error(&s->err, PCB_E_USAGE, "sweep: --shard I/N with 0 <= "
			 "I < N, e.g. --shard 0/4");
}

/* sweep run NAME --shard I/N [jobs J]: the runs r with r % N == I of a
 * planned sweep, into NAME/shard-I-of-N/ (shards never share a file).
 */
static int sweep_shard(struct session *s, int argc, char **argv)
{
	struct plan *pl = NULL;
	struct sdef *d = NULL;
	unsigned long jobs = 0;
	char dir[PCB_PATH_LEN];
	int rc;

	const struct cmd_kw *k = argc == 5 ? cmd_kw_find(sw_keys, argv[3]) :
				 NULL;

	if (argc != 3 && !(k && k->id == SW_K_JOBS))
		return pcb_error(&s->err, PCB_E_USAGE, "usage: sweep run NAME "
				 "--shard I/N [jobs N]");
	if (argc == 5 && sw_parse_count(&s->err, "jobs", argv[4], SW_MAX_JOBS,
					"worker processes", &jobs))
		return -s->err.code;
	rc = sweep_load(s, argv[0], &pl, &d);
	if (!rc && !pl->replay)
		rc = pcb_error(&s->err, PCB_E_STATE, "sweep: shards need a device "
			       "that replays runs from their seeds (the sim); "
			       "a real NIC's sweep runs on it ('sweep resume "
			       "%s')", pl->name);
	if (!rc)
		rc = parse_shard(s, argv[2], pl->nruns, &pl->shard_i,
				 &pl->shard_n);
	if (!rc) {
		snprintf(dir, sizeof(dir), "%s", pl->dir);
		rc = pcb_path(pl->dir, sizeof(pl->dir), &s->err,
			      "%s/shard-%u-of-%u", dir, pl->shard_i,
			      pl->shard_n);
	}
	if (!rc && mkdir(pl->dir, 0700) && errno != EEXIST)
		rc = pcb_error(&s->err, PCB_E_IO, "cannot create '%s': %s",
			       pl->dir, strerror(errno));
	if (!rc) {
		if (jobs)
			pl->jobs = (unsigned)jobs;
		pl->plot[0] = '\0';	/* the merged sweep plots */
		rc = sweep_exec(s, pl, true);
	}
	sweep_unload(pl, d);
	return rc;
}

/* What `--slurm` writes besides the array: cpus per task (from
 * --cpus, 1 by default: the nodes', not this host's), the time limit of
 * each task and of the merge (--time, in minutes; 60 by default) and the
 * folder of their output files (--output, the sweep's slurm/ by default).
 */
struct slurm_opts {
	const char *file, *outdir;
	unsigned long shards, cpus, minutes;
	bool more;	/* --cpus, --time or --output said */
};

/* --time: minutes (Slurm's unit), or with s, min, h or d; 1 min..30 d,
 * a part minute counting whole.
 */
static int slurm_minutes(struct session *s, const char *t,
			 unsigned long *min)
{
	static const struct {
		const char *unit;
		double s;
	} u[] = { { "", 60 }, { "s", 1 }, { "min", 60 }, { "h", 3600 },
		  { "d", 86400 } };
	char *end;
	double v = strtod(t, &end);
	size_t i;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (!strcmp(end, u[i].unit) && end != t && *t != '-' &&
		    v * u[i].s >= 60 && v * u[i].s <= 30 * 86400) {
			*min = (unsigned long)ceil(v * u[i].s / 60 - 1e-9);
			return 0;
		}
	return pcb_error(&s->err, PCB_E_RANGE, "sweep plan: --time '%s': "
			 "minutes, or a number with s, min, h or d, from 1min "
			 "to 30d", t);
}

static int so_shards(struct session *s, void *req, const struct cmd_kw *k,
		     const char *val)
{
	return sw_parse_count(&s->err, k->name, val, SW_MAX_RUNS, "shards",
			      KW_AT(req, k, unsigned long));
}

static int so_cpus(struct session *s, void *req, const struct cmd_kw *k,
		   const char *val)
{
	((struct slurm_opts *)req)->more = true;
	return sw_parse_count(&s->err, k->name, val, 4096, "CPUs per task",
			      KW_AT(req, k, unsigned long));
}

static int so_time(struct session *s, void *req, const struct cmd_kw *k,
		   const char *val)
{
	((struct slurm_opts *)req)->more = true;
	return slurm_minutes(s, val, KW_AT(req, k, unsigned long));
}

static int so_output(struct session *s, void *req, const struct cmd_kw *k,
		     const char *val)
{
	(void)s;
	((struct slurm_opts *)req)->more = true;
	*KW_AT(req, k, const char *) = val;
	return 0;
}

/* sweep plan's own words, anywhere among the sweep's */
static const struct cmd_kw slurm_keys[] = {
	{ .name = "--slurm", .arg = "FILE", .flags = KW_FILE,
	  .dest = KW_D_STR, .off = offsetof(struct slurm_opts, file) },
	{ .name = "--shards", .arg = "N", .set = so_shards,
	  .off = offsetof(struct slurm_opts, shards) },
	{ .name = "--cpus", .arg = "N", .set = so_cpus,
	  .off = offsetof(struct slurm_opts, cpus) },
	{ .name = "--time", .arg = "T", .set = so_time,
	  .off = offsetof(struct slurm_opts, minutes) },
	{ .name = "--output", .arg = "DIR", .flags = KW_FILE, .set = so_output,
	  .off = offsetof(struct slurm_opts, outdir) },
	{ 0 }
};

/* s as one single-quoted shell word. */
static void sh_quote(FILE *fp, const char *s)
{
	fputc('\'', fp);
	for (; *s; s++)
		fputs(*s == '\'' ? "'\\''" : (char[2]){ *s, 0 }, fp);
	fputc('\'', fp);
}

/* A job array running every shard of the plan (sbatch FILE); its first
 * task submits the merge as a job that waits for the whole array
 * (afterok), so `sbatch FILE` leaves a merged sweep.
 */
static int write_slurm(struct session *s, const struct plan *pl,
		       const struct slurm_opts *o)
{
	char out[PCB_PATH_LEN];
	struct pcb_wfile w;
	int rc = 0;

	if (o->outdir)
		rc = realpath(o->outdir, out) && !pcb_check_dir(out, &s->err) ?
		     0 : s->err.code ? -s->err.code :
		     pcb_error(&s->err, PCB_E_NOENT, "sweep plan: --output "
			       "'%s': not a folder", o->outdir);
	else
		rc = pcb_path(out, sizeof(out), &s->err, "%s/slurm", pl->dir);
	if (!rc && !o->outdir)
		rc = pcb_mkdirs(out, 0700, &s->err);
	if (!rc && strpbrk(out, "% \t\n\"'\\"))
		rc = pcb_error(&s->err, PCB_E_INVAL, "sweep plan: --output "
			       "'%s': no %%, blank, quote or backslash in a "
			       "Slurm path", out);
	if (!rc)
		rc = pcb_wfile_open(&w, o->file, PCB_MODE_DATA, &s->err);
	if (rc)
		return rc;
	fprintf(w.fp, "#!/bin/bash\n"
		"# pccbench sweep %s: %zu runs in %lu shards as a Slurm job "
		"array.\n"
		"# Each task runs one shard; every node needs pccbench on "
		"PATH, this\n"
		"# sweep's directory (sweeps/%s/ under $XDG_DATA_HOME/"
		"pccbench, e.g. a\n"
		"# shared home) and the device the sweep was planned on, "
		"with the same\n"
		"# params.  Task 0 submits 'pccbench sweep merge %s' as a job "
		"that runs\n"
		"# when every task has succeeded (afterok).  Output: %s/\n"
		"#SBATCH --job-name=pccbench-%s\n"
		"#SBATCH --array=0-%lu\n"
		"#SBATCH --cpus-per-task=%lu\n"
		"#SBATCH --time=%lu\n"
		"#SBATCH --output=%s/%%x-%%A_%%a.out\n"
		"set -eu\n"
		"dev=", pl->name, pl->nruns, o->shards, pl->name, pl->name,
		out, pl->name, o->shards - 1, o->cpus, o->minutes, out);
	sh_quote(w.fp, s->cur->name);
	fprintf(w.fp, "\nif [ \"${SLURM_ARRAY_TASK_ID}\" = 0 ]; then\n"
		"\tsbatch --parsable --job-name=pccbench-%s-merge "
		"--dependency=afterok:\"${SLURM_ARRAY_JOB_ID}\" \\\n"
		"\t\t--time=%lu --cpus-per-task=1 --output=", pl->name,
		o->minutes);
	sh_quote(w.fp, out);
	fprintf(w.fp, "/%%x-%%j.out \\\n"
		"\t\t--wrap=\"exec pccbench -d $(printf %%q \"$dev\") sweep "
		"merge %s\"\n"
		"fi\n"
		"exec pccbench -d \"$dev\" sweep run %s --shard "
		"\"${SLURM_ARRAY_TASK_ID}/%lu\" jobs \"${SLURM_CPUS_PER_TASK:-%lu}"
		"\"\n", pl->name, pl->name, o->shards, o->cpus);
	return pcb_wfile_commit(&w, &s->err);
}

/* sweep plan NAME PARAM SPEC ... [--slurm FILE [--shards N] [--cpus N]
 * [--time T] [--output DIR]]: the plan
 * saved, nothing run.
 */
static int cmd_sweep_plan(struct session *s, int argc, char **argv)
{
	struct plan *pl = calloc(1, sizeof(*pl));
	char *words[SW_MAX_ARGS + 2];
	struct slurm_opts so = { .cpus = 1, .minutes = 60 };
	uint32_t vals[ALGO_MAX_PARAMS] = { 0 };
	size_t n = 0;
	int i, nw = 0, rc = 0;

	if (!pl)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	for (i = 1; i < argc && !rc; i++) {
		const struct cmd_kw *k = cmd_kw_find(slurm_keys, argv[i]);

		if (k && i + 1 < argc)
			rc = cmd_kw_take(s, k, &so, argv[++i]);
		else if (nw < SW_MAX_ARGS)
			words[nw++] = argv[i];
		else
			rc = pcb_error(&s->err, PCB_E_RANGE, "sweep plan: too "
				       "many words");
	}
	words[nw++] = "into";
	words[nw++] = argv[0];
	if (!rc && (so.shards || so.more) && !so.file)
		rc = pcb_error(&s->err, PCB_E_USAGE, "sweep plan: --shards, "
			       "--cpus, --time and --output go with --slurm "
			       "FILE");
	if (!rc)
		rc = sw_plan_parse(s, pl, nw, words, false);
	if (!rc && !so.shards)
		so.shards = pl->nruns < 32 ? pl->nruns : 32;
	if (!rc && so.file && !pl->replay)
		rc = pcb_error(&s->err, PCB_E_STATE, "sweep plan: shards need a "
			       "device that replays runs from their seeds (the "
			       "sim)");
	if (!rc && so.shards > pl->nruns)
		rc = pcb_error(&s->err, PCB_E_RANGE, "sweep: %lu shards but "
			       "%zu runs", so.shards, pl->nruns);
	if (!rc)
		rc = sw_fixed_check(s, pl, vals, &n, false);
	if (!rc)
		rc = sweep_mkdir(s, pl);
	if (!rc)
		rc = sw_save_definition(s, pl, vals, n);
	if (!rc)
		rc = sw_save_meta(s, pl, time(NULL), 0, "planned");
	if (!rc && so.file)
		rc = write_slurm(s, pl, &so);
	if (!rc) {
		print_plan(s, pl);
		out_text(&s->out, "sweep %s planned, nothing run: 'sweep resume "
			 "%s' runs it here, 'sweep run %s --shard I/N' one "
			 "slice, 'sweep merge %s' gathers the slices%s%s\n",
			 pl->name, pl->name, pl->name, pl->name,
			 so.file ? "; Slurm: sbatch " : "", so.file ? so.file :
			 "");
	}
	sw_plan_free(pl);
	return rc;
}

/* NAME/shard-*: the shards run on this machine, as paths, in order;
 * NULL when there is none.
 */
static char **shard_dirs(const struct plan *pl)
{
	char sub[80], path[PCB_PATH_LEN], **v;
	size_t i, n = 0;

	snprintf(sub, sizeof(sub), "sweeps/%s", pl->name);
	v = store_names(sub, NULL);	/* directories, sorted */
	for (i = 0; v && v[i]; i++) {
		char *full;

		if (strncmp(v[i], "shard-", 6) ||
		    pcb_path(path, sizeof(path), NULL, "%s/%s", pl->dir, v[i]) ||
		    !(full = strdup(path))) {
			free(v[i]);
			continue;
		}
		free(v[i]);
		v[n++] = full;
	}
	if (v)
		v[n] = NULL;
	if (v && !n) {
		words_free(v);
		v = NULL;
	}
	return v;
}

/* The runs still missing, and the first points they belong to. */
static void report_missing(struct session *s, const struct plan *pl)
{
	char pts[200] = "";
	size_t r, k = 0, last = SIZE_MAX, at = 0;

	out_u64(&s->out, "missing", pl->nruns - pl->ndone);
	if (pl->ndone == pl->nruns)
		return;
	for (r = 0; r < pl->nruns && k < 8; r++)
		if (!pl->done[r] && r / pl->repeat != last) {
			last = r / pl->repeat;
			at += (size_t)snprintf(pts + at, sizeof(pts) - at, "%s%zu",
					       k++ ? ", " : "", last);
		}
	sess_warn(s, "sweep %s: %zu of %zu runs missing (point%s %s%s); "
		  "'sweep resume %s' runs them here", pl->name,
		  pl->nruns - pl->ndone, pl->nruns, k > 1 ? "s" : "", pts,
		  k == 8 ? ", ..." : "", pl->name);
}

/* sweep merge NAME [DIR...]: shard results (NAME/shard-* by default, or
 * results copied from other machines) into NAME's results.csv.
 */
static int cmd_sweep_merge(struct session *s, int argc, char **argv)
{
	struct sw_merge m = { 0 };
	struct plan *pl = NULL;
	struct sdef *d = NULL;
	char **dirs = NULL, path[PCB_PATH_LEN];
	struct stat st;
	int i, n = 0, rc = sweep_load(s, argv[0], &pl, &d);

	if (!rc)
		rc = sw_load_results(s, pl);
	if (!rc && argc == 1 && !(dirs = shard_dirs(pl)))
		rc = pcb_error(&s->err, PCB_E_NOENT, "sweep merge: %s has no "
			       "shards ('sweep run %s --shard I/N'); name the "
			       "directories to merge", pl->name, pl->name);
	for (i = 0; !rc && (dirs ? dirs[i] != NULL : i < argc - 1); i++) {
		const char *dir = dirs ? dirs[i] : argv[i + 1];

		rc = pcb_path(path, sizeof(path), &s->err, "%s/results.csv",
			      dir);
		if (!rc && lstat(path, &st))
			rc = pcb_error(&s->err, PCB_E_NOENT, "sweep merge: %s has "
				       "no results.csv", dir);
		if (!rc)
			rc = sw_merge_results(s, pl, path, &m);
		n++;
	}
	if (!rc)
		rc = sw_save_results(s, pl);
	if (!rc)
		rc = sw_save_meta(s, pl, time(NULL), 0, pl->ndone == pl->nruns ?
				  "complete" : "partial");
	if (!rc) {
		out_obj_begin(&s->out, NULL);
		out_field_str(&s->out, "sweep", "sweep %s: ", pl->name);
		out_field_u64(&s->out, "rows", "%llu rows from ", m.rows);
		out_field_u64(&s->out, "dirs", "%llu directories: ", n);
		out_field_u64(&s->out, "added", "%llu runs added, ", m.added);
		out_field_u64(&s->out, "duplicates", "%llu duplicates (the "
			      "same numbers); ", m.dups);
		out_field_u64(&s->out, "done", "%llu of ", pl->ndone);
		out_field_u64(&s->out, "runs", "%llu runs done\n", pl->nruns);
		report_missing(s, pl);
		out_obj_end(&s->out);
	}
	words_free(dirs);
	sweep_unload(pl, d);
	return rc;
}


/* to FILE.png|FILE.svg (req: a const char *) */
static int sp_to(struct session *s, void *req, const struct cmd_kw *k,
		 const char *val)
{
	size_t l = strlen(val);

	(void)k;
	if (l < 5 || (strcmp(val + l - 4, ".png") &&
		      strcmp(val + l - 4, ".svg")))
		return pcb_error(&s->err, PCB_E_INVAL, "sweep plot: '%s' is "
				 "neither .png nor .svg", val);
	*(const char **)req = val;
	return 0;
}

static const struct cmd_kw sweep_plot_keys[] = {
	{ .name = "to", .arg = "FILE.png|FILE.svg", .flags = KW_FILE,
	  .set = sp_to },
	{ 0 }
};

static int cmd_sweep_plot(struct session *s, int argc, char **argv)
{
	const char *to = NULL;
	char syn[60];
	int at, rc = cmd_kw_parse(s, sweep_plot_keys, &to, argc - 1, argv + 1,
				  &at);

	if (!rc && at + 1 != argc)
		rc = pcb_error(&s->err, PCB_E_USAGE, "usage: sweep plot "
			       "NAME %s", cmd_kw_synopsis(sweep_plot_keys, syn,
							  sizeof(syn)));
	return rc ? rc : sweep_plot(s, argv[0], to);
}

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
	const struct cmd_kw *k, *last = NULL;
	const char *wkeys;
	int i, scen = -1;
	bool in_axes = true;

	/* "util,queue_p": the list is the word being completed */
	if (argc > 0 && argv[argc - 1][0] &&
	    argv[argc - 1][strlen(argv[argc - 1]) - 1] == ',')
		argc--;
	for (i = 0; i < argc; i++) {
		last = k = cmd_kw_find(sw_keys, argv[i]);
		if (k)
			in_axes = false;
		if (k && (k->flags & KW_SCEN))
			scen = i;
	}
	if (in_axes && argc % 2 == 0) {
		cand_params(s, c);
		if (argc > 0)
			cand_kw_names(c, sw_keys);
		return true;
	}
	if (in_axes)
		return true;		/* a range or list of values */
	if (last && last->id == SW_K_PLOT)
		return false;		/* a file */
	if (last && last->id == SW_K_MEASURE) {
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
	cand_kw_names(c, sw_keys);
	return true;
}

/* sweep plan NAME PARAM SPEC ...: after the name, as `sweep run` */
static bool sweep_plan_complete(struct session *s, char **argv, int argc,
				struct cands *c)
{
	const struct cmd_kw *k = argc ? cmd_kw_find(slurm_keys,
						    argv[argc - 1]) : NULL;

	if (argc == 0)
		return true;	/* a new name */
	if (k && (k->flags & KW_FILE))
		return false;
	size_t n0 = c->n;

	if (!sweep_run_complete(s, argv + 1, argc - 1, c))
		return false;
	if (c->n > n0)	/* where words go: --slurm ... too */
		cand_kw_names(c, slurm_keys);
	return true;
}

/* resume, drop: a saved sweep */
static bool sweep_name_complete(struct session *s, char **argv, int argc,
				struct cands *c)
{
	(void)s;
	(void)argv;
	if (argc == 0)
		cand_saved(c, "sweeps", NULL);
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
	if (argc >= 1)
		return cand_keywords(s, sweep_plot_keys, 1, argv, argc, c);
	return sweep_name_complete(s, argv, argc, c);
}


const struct cmd_row cmd_sweep_verbs[] = {
	{
		.name = "run",
		.fn = cmd_sweep_run,
		.min_args = 2,
		.max_args = -1,
		.args = "PARAM FROM:TO:STEP|v1,v2,... [PARAM2 ...]",
		.keys = sw_keys,
		.help = "sweep params over the cross product of their values; 'run' "
			"may be left out; 'jobs': worker processes on the sim "
			"(default: the CPUs online, at most " SW_STR(SW_MAX_JOBS) "); "
			"'sweep run NAME --shard I/N' runs one slice of a planned "
			"sweep ('help sweep plan')",
		.example = "sweep ALPHA 0.05:0.5:0.05 for 10ms measure "
			"avg_rtt,util,queue_p99 plot /tmp/alpha.png",
		.flags = CMD_FALLBACK | CMD_WRITES | CMD_DEVICE,
		.complete = sweep_run_complete,
	},
	{
		.name = "plan",
		.fn = cmd_sweep_plan,
		.min_args = 3,
		.max_args = -1,
		.args = "NAME PARAM SPEC ... (as 'sweep run') [--slurm FILE "
			"[--shards N] [--cpus N] [--time T] [--output DIR]]",
		.help = "save a sweep's plan without running it: 'sweep resume "
			"NAME' runs it here, 'sweep run NAME --shard I/N [jobs N]' "
			"runs the runs r with r mod N = I (on any machine, into "
			"NAME/shard-I-of-N), 'sweep merge' gathers them; --slurm "
			"writes a job array running N shards (default: the runs, "
			"at most 32), N CPUs each (1), T long (60 minutes), "
			"output in DIR (NAME/slurm), then a merge job",
		.example = "sweep plan big ALPHA 0.05:0.5:0.05 AI 5:100:5 for 10ms "
			"measure util,queue_p99 --slurm big.sbatch",
		.flags = CMD_WRITES | CMD_DEVICE,
		.complete = sweep_plan_complete,
	},
	{
		.name = "merge",
		.fn = cmd_sweep_merge,
		.min_args = 1,
		.max_args = -1,
		.args = "NAME [DIR...]",
		.help = "gather shard results (NAME/shard-* here, or directories "
			"copied from other machines) into NAME: a run twice with "
			"other numbers is an error, missing runs are named",
		.example = "sweep merge big",
		.complete = sweep_name_complete,
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
		.args = "NAME",
		.keys = sweep_plot_keys,
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
