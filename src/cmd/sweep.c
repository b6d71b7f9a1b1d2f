/* sweep.c - `sweep`: one or more params over ranges or lists, a workload
 * per point, a summary per measured column, results saved and plotted.
 *
 * A sweep is a plan (the cross product of the axes x repeats, each run
 * with its seed), validated whole before anything runs: unknown params,
 * bad ranges, read-only params and values outside the device's min..max
 * are refused with nothing written.
 *
 * On the sim device every run happens in a worker process on its own copy
 * of the device (the firmware state and scenario files copied into a
 * private $XDG_STATE_HOME): the worker applies the point with one bulk set
 * and read-back, builds the fabric from the sweep's scenario with the
 * run's seed, runs the warmup, records the measured window and sends its
 * summary back over a pipe.  The user's device is never written, and a
 * run's result depends only on (point, seed): `jobs 2` = `jobs 1`.
 *
 * On a real NIC runs go one after another in this process: one bulk set
 * (or one set per param where the backend has no bulk set) with
 * read-back, the `while` traffic command started, the warmup waited, the
 * window recorded, the command stopped.  The original values are written
 * back at the end, on error and on Ctrl-C/SIGTERM; every write is in the
 * journal, so after a crash `journal restore` brings them back.
 *
 * Results: $XDG_DATA_HOME/pccbench/sweeps/NAME/ holds results.csv (one row
 * per point and repeat, in plan order, rewritten after every run so an
 * interrupted sweep resumes), meta.json, and sweep.args (the definition,
 * one word per line, with the scenario made explicit) for `sweep resume`.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "paths.h"
#include "rec/recorder.h"
#include "rec/series.h"
#include "rec/stats.h"
#include "sim/simdev.h"
#include "units.h"

#define SW_MAX_AXES	4
#define SW_MAX_VALS	1000
#define SW_MAX_RUNS	10000
#define SW_MAX_REPEAT	100
#define SW_MAX_MEAS	16
#define SW_MAX_ARGS	200
#define SW_FIXED_COLS	3	/* point, repeat, seed */

/* Window measures the simulator computes itself (the sim device only). */
enum { S_UTIL, S_JAIN, S_QMEAN, S_QP99, S_QMAX, S_RTTMEAN, S_RTTP99, S_RTOS,
       S_COUNT };
static const struct series_col scalar_cols[S_COUNT] = {
	{ "util", "1" }, { "jain", "1" }, { "queue_mean", "B" },
	{ "queue_p99", "B" }, { "queue_max", "B" }, { "rtt_mean", "ns" },
	{ "rtt_p99", "ns" }, { "rtos", "count" },
};
/* A timeline measure becomes five columns. */
static const char *const stat_names[] = { "mean", "p50", "p99", "min",
					  "max" };
#define SW_NSTATS 5

static const char *const keywords[] = {
	"for", "warmup", "every", "repeat", "seeds", "jobs", "measure",
	"scenario", "while", "into", "plot", "shuffle", NULL };

struct axis {
	struct param_view *p;
	size_t n;
	uint32_t raw[SW_MAX_VALS];
	double real[SW_MAX_VALS];
};

struct measure {
	int scalar;		/* S_*, or -1 */
	int col;		/* timeline column, or -1 */
};

struct plan {
	char name[64], dir[4096];
	bool real;		/* a real NIC: runs in this process */
	unsigned slot;
	struct slot_view *v;
	size_t naxes;
	struct axis *ax;
	size_t npoints, repeat, nruns;
	uint64_t seeds[SW_MAX_REPEAT];
	int64_t dur, warmup, every;
	unsigned jobs;
	size_t nmeas;
	struct measure m[SW_MAX_MEAS];
	char **scen;		/* kind and pairs, or NULL */
	int nscen;
	struct sim_cfg cfg;	/* the scenario they give (sim) */
	char **targv;		/* the `while` command, or NULL */
	char plot[4096];
	bool shuffle;
	char *args[SW_MAX_ARGS];	/* the definition, saved */
	int nargs;
	struct series *res;	/* the columns */
	double *rows;		/* nruns x ncols */
	bool *done;
	size_t ndone;
	double sim_s;		/* the runs' wall time in the workload */
};

struct wmsg {			/* worker -> parent, one write < PIPE_BUF */
	int32_t run, rc;
	double sim_s;		/* wall time inside the simulator */
	char msg[200];
	double v[SW_MAX_MEAS * SW_NSTATS];
};

static bool is_keyword(const char *w)
{
	size_t i;

	for (i = 0; keywords[i]; i++)
		if (!strcmp(w, keywords[i]))
			return true;
	return false;
}

static void plan_free(struct plan *pl)
{
	int i;

	if (!pl)
		return;
	free(pl->ax);
	for (i = 0; i < pl->nargs; i++)
		free(pl->args[i]);
	cmd_argv_free(pl->targv);
	series_free(pl->res);
	free(pl->rows);
	free(pl->done);
	free(pl);
}

static int sweeps_dir(struct session *s, const char *name, char *buf,
		      size_t len, bool create)
{
	return cmd_saved_path(s, "sweep", "sweeps", name, "", create, buf,
			      len);
}

/* ---- the plan ------------------------------------------------------------ */

/* "0.05", "10us": the number and what follows it. */
static int split_number(const char *t, double *x, const char **unit)
{
	char *end;

	if (!*t || *t == '+' || *t == '-')
		return -1;
	errno = 0;
	*x = strtod(t, &end);
	if (end == t || errno || !isfinite(*x))
		return -1;
	*unit = end;
	return 0;
}

/* One axis from "FROM:TO:STEP" or "v1,v2,...": every value parsed as
 * `param set` parses it and checked against the device's range.
 */
static int parse_axis(struct session *s, struct axis *a, const char *spec)
{
	const char *name = a->p->info.name;
	char texts[SW_MAX_VALS][48], buf[4096], *w, *save;
	size_t i, n = 0;
	int rc;

	if (strchr(spec, ':')) {
		double x[3], vals[SW_MAX_VALS];
		const char *u[3], *unit = "";
		char part[3][64];

		if (sscanf(spec, "%63[^:]:%63[^:]:%63s", part[0], part[1],
			   part[2]) != 3 || strchr(part[2], ':'))
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: %s: bad "
					 "range '%s' (FROM:TO:STEP, e.g. "
					 "0.05:0.5:0.05)", name, spec);
		for (i = 0; i < 3; i++) {
			if (split_number(part[i], &x[i], &u[i]))
				return pcb_error(&s->err, PCB_E_INVAL, "sweep: "
						 "%s: '%s' is not a number",
						 name, part[i]);
			if (*u[i] && *unit && strcmp(u[i], unit))
				return pcb_error(&s->err, PCB_E_INVAL, "sweep: "
						 "%s: one unit for the range, "
						 "not '%s' and '%s'", name,
						 unit, u[i]);
			if (*u[i])
				unit = u[i];
		}
		n = stats_range(x[0], x[1], x[2], vals, SW_MAX_VALS);
		if (!n)
			return pcb_error(&s->err, PCB_E_RANGE, "sweep: %s: range "
					 "'%s' is empty or has more than %d "
					 "values (FROM <= TO, STEP > 0)", name,
					 spec, SW_MAX_VALS);
		for (i = 0; i < n; i++)
			snprintf(texts[i], sizeof(texts[i]), "%.12g%s",
				 vals[i], unit);
	} else {
		snprintf(buf, sizeof(buf), "%s", spec);
		for (w = strtok_r(buf, ",", &save); w;
		     w = strtok_r(NULL, ",", &save)) {
			if (n == SW_MAX_VALS)
				return pcb_error(&s->err, PCB_E_RANGE, "sweep: "
						 "%s: more than %d values",
						 name, SW_MAX_VALS);
			snprintf(texts[n++], sizeof(texts[0]), "%s", w);
		}
		if (!n)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: %s: no "
					 "values", name);
	}
	for (i = 0; i < n; i++) {
		char shown[40];
		size_t k;

		rc = sess_parse_value(a->p, texts[i], false, &a->raw[i],
				      &s->err);
		if (!rc)
			rc = sess_check_value(s, a->p, a->raw[i]);
		if (rc)
			return rc;
		sess_format_value(s, a->p->type, a->raw[i], shown,
				  sizeof(shown));
		a->real[i] = strtod(shown, NULL);
		for (k = 0; k < i; k++)
			if (a->raw[k] == a->raw[i])
				return pcb_error(&s->err, PCB_E_INVAL, "sweep: "
						 "%s: '%s' gives the same "
						 "register value as an earlier "
						 "one (%s)", name, texts[i],
						 shown);
	}
	a->n = n;
	return 0;
}

static int parse_count(struct session *s, const char *key, const char *val,
		       unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(val, &end, 10);
	if (*val == '-' || *end || errno || *out < 1 || *out > max)
		return pcb_error(&s->err, PCB_E_RANGE, "sweep: %s '%s' (1 to "
				 "%lu)", key, val, max);
	return 0;
}

static int parse_measures(struct session *s, struct plan *pl,
			  const char *list)
{
	char buf[1024], *w, *save;
	size_t i;

	snprintf(buf, sizeof(buf), "%s", list);
	pl->nmeas = 0;
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		struct measure m = { -1, -1 };

		for (i = 0; i < S_COUNT; i++)
			if (!strcmp(w, scalar_cols[i].name))
				m.scalar = (int)i;
		for (i = 1; i < REC_C_FIXED; i++)
			if (!strcmp(w, rec_fixed_cols[i].name))
				m.col = (int)i;
		if (m.scalar < 0 && m.col < 0)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: cannot "
					 "measure '%s' (the timeline's avg_rtt"
					 ", cnp_handled, rx_gbps, ...; on the "
					 "sim also util, jain, queue_mean, "
					 "queue_p99, queue_max, rtt_mean, "
					 "rtt_p99, rtos)", w);
		if (m.scalar >= 0 && pl->real)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: '%s' is "
					 "the simulator's own measure; a real "
					 "NIC gives the timeline columns", w);
		for (i = 0; i < pl->nmeas; i++)
			if (pl->m[i].scalar == m.scalar &&
			    pl->m[i].col == m.col)
				return pcb_error(&s->err, PCB_E_INVAL, "sweep: "
						 "'%s' measured twice", w);
		if (pl->nmeas == SW_MAX_MEAS)
			return pcb_error(&s->err, PCB_E_RANGE, "sweep: more "
					 "than %d measures", SW_MAX_MEAS);
		pl->m[pl->nmeas++] = m;
	}
	if (!pl->nmeas)
		return pcb_error(&s->err, PCB_E_INVAL, "sweep: measure what?");
	return 0;
}

static const char *measure_name(const struct measure *m)
{
	return m->scalar >= 0 ? scalar_cols[m->scalar].name :
				rec_fixed_cols[m->col].name;
}

/* Counter-based timeline columns need the algorithm's counters. */
static bool needs_counters(const struct measure *m)
{
	return m->col >= REC_C_AVG_RTT && m->col <= REC_C_TXDEC;
}

static int save_word(struct session *s, struct plan *pl, const char *w)
{
	if (pl->nargs == SW_MAX_ARGS)
		return pcb_error(&s->err, PCB_E_RANGE, "sweep: more than %d "
				 "words", SW_MAX_ARGS);
	if (strchr(w, '\n'))
		return pcb_error(&s->err, PCB_E_INVAL, "sweep: a word with a "
				 "line break");
	pl->args[pl->nargs] = strdup(w);
	if (!pl->args[pl->nargs])
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	pl->nargs++;
	return 0;
}

static int plan_columns(struct session *s, struct plan *pl)
{
	struct series *r = series_new(pl->name);
	size_t i, k;
	int bad = 0;

	if (!r)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	pl->res = r;
	bad |= series_add_col(r, "point", "");
	bad |= series_add_col(r, "repeat", "");
	bad |= series_add_col(r, "seed", "");
	for (i = 0; i < pl->naxes; i++)
		bad |= series_add_col(r, pl->ax[i].p->info.name,
				      *pl->ax[i].p->units ? pl->ax[i].p->units :
				      "");
	for (i = 0; i < pl->nmeas && !bad; i++) {
		const struct measure *m = &pl->m[i];

		if (m->scalar >= 0) {
			bad |= series_add_col(r, scalar_cols[m->scalar].name,
					      scalar_cols[m->scalar].unit);
			continue;
		}
		for (k = 0; k < SW_NSTATS; k++) {
			char nm[48];

			snprintf(nm, sizeof(nm), "%s_%s",
				 rec_fixed_cols[m->col].name, stat_names[k]);
			bad |= series_add_col(r, nm, rec_fixed_cols[m->col].unit);
		}
	}
	if (bad)
		return pcb_error(&s->err, PCB_E_INVAL, "sweep: a param is "
				 "swept twice or the columns overflow");
	pl->rows = calloc(pl->nruns * r->ncols, sizeof(double));
	pl->done = calloc(pl->nruns, sizeof(bool));
	if (!pl->rows || !pl->done)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	return 0;
}

/* Parse the words of `sweep run` into a plan; nothing runs, nothing is
 * written.  resume: the words come from sweep.args.
 */
static int plan_parse(struct session *s, struct plan *pl, int argc,
		      char **argv, bool resume)
{
	unsigned long repeat = 0, jobs = 0;
	const char *measure = NULL, *seeds = NULL;
	struct sim_cfg cfg;
	struct simdev *d = NULL;
	bool have_for = false;
	int i, rc, k;
	size_t n;

	pl->jobs = 1;
	sim_cfg_default(&cfg);
	rc = sess_device(s);
	if (rc)
		return rc;
	pl->real = s->dev->ops->caps & REG_CAP_REAL;
	if (!pl->real) {
		rc = sess_simdev(s, &d);
		if (rc)
			return rc;
	}
	rc = sess_active_slot(s, &pl->slot);
	if (!rc)
		rc = sess_slot_view(s, pl->slot, &pl->v);
	if (rc)
		return rc;
	pl->ax = calloc(SW_MAX_AXES, sizeof(*pl->ax));
	if (!pl->ax)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	/* the axes: PARAM SPEC pairs up to the first keyword */
	for (i = 0; i < argc && !is_keyword(argv[i]); i += 2) {
		struct axis *a = &pl->ax[pl->naxes];

		if (pl->naxes == SW_MAX_AXES)
			return pcb_error(&s->err, PCB_E_RANGE, "sweep: at most "
					 "%d params", SW_MAX_AXES);
		rc = sess_param_find(s, pl->v, argv[i], &a->p);
		if (rc)
			return rc;
		if (i + 1 >= argc || is_keyword(argv[i + 1]))
			return pcb_error(&s->err, PCB_E_USAGE, "sweep: %s needs "
					 "FROM:TO:STEP or v1,v2,...",
					 a->p->info.name);
		for (n = 0; n < pl->naxes; n++)
			if (pl->ax[n].p == a->p)
				return pcb_error(&s->err, PCB_E_INVAL, "sweep: "
						 "%s swept twice",
						 a->p->info.name);
		rc = parse_axis(s, a, argv[i + 1]);
		if (rc)
			return rc;
		pl->naxes++;
	}
	if (!pl->naxes)
		return pcb_error(&s->err, PCB_E_USAGE, "usage: sweep PARAM "
				 "FROM:TO:STEP|v1,v2,... [PARAM2 ...] [for "
				 "DURATION] [warmup DURATION] [repeat N] ...; "
				 "'sweep run --help'");
	for (k = 0; k < i; k++) {
		rc = save_word(s, pl, argv[k]);
		if (rc)
			return rc;
	}
	/* the keywords */
	for (; i < argc; i++) {
		const char *key = argv[i], *val = i + 1 < argc ? argv[i + 1] :
						  NULL;
		int first = i;

		if (!strcmp(key, "shuffle")) {
			pl->shuffle = true;
			rc = save_word(s, pl, key);
			if (rc)
				return rc;
			continue;
		}
		if (!val)
			return pcb_error(&s->err, PCB_E_USAGE, "sweep: '%s' "
					 "needs a value", key);
		i++;
		if (!strcmp(key, "for") || !strcmp(key, "warmup") ||
		    !strcmp(key, "every")) {
			int64_t *p = key[0] == 'f' ? &pl->dur :
				     key[0] == 'w' ? &pl->warmup : &pl->every;

			if (pcb_parse_duration_ps(val, -1, p) ||
			    (*p < 1000000 && key[0] != 'w'))
				return pcb_error(&s->err, PCB_E_INVAL, "sweep: "
						 "bad %s '%s' (e.g. 10ms, "
						 "100us)", key, val);
			have_for |= key[0] == 'f';
		} else if (!strcmp(key, "repeat")) {
			rc = parse_count(s, key, val, SW_MAX_REPEAT, &repeat);
			if (rc)
				return rc;
		} else if (!strcmp(key, "jobs")) {
			rc = parse_count(s, key, val, 256, &jobs);
			if (rc)
				return rc;
		} else if (!strcmp(key, "seeds")) {
			seeds = val;
		} else if (!strcmp(key, "measure")) {
			measure = val;
		} else if (!strcmp(key, "into")) {
			snprintf(pl->name, sizeof(pl->name), "%s", val);
			rc = sweeps_dir(s, pl->name, pl->dir, sizeof(pl->dir),
					false);
			if (rc)
				return rc;
		} else if (!strcmp(key, "plot")) {
			size_t l = strlen(val);

			if (l < 5 || (strcmp(val + l - 4, ".png") &&
				      strcmp(val + l - 4, ".svg")))
				return pcb_error(&s->err, PCB_E_INVAL, "sweep: "
						 "plot '%s' is neither .png nor "
						 ".svg", val);
			snprintf(pl->plot, sizeof(pl->plot), "%s", val);
		} else if (!strcmp(key, "while")) {
			cmd_argv_free(pl->targv);
			rc = cmd_split_argv(s, "sweep", val, &pl->targv);
			if (rc)
				return rc;
		} else if (!strcmp(key, "scenario")) {
			/* KIND then key value pairs up to a sweep keyword */
			pl->scen = argv + i;
			for (pl->nscen = 1; i + 1 < argc &&
			     !is_keyword(argv[i + 1]); i++)
				pl->nscen++;
			rc = simdev_parse_scenario(&cfg, pl->scen[0],
						   pl->nscen - 1, pl->scen + 1,
						   &s->err);
			if (rc)
				return rc;
		} else {
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: unknown "
					 "keyword '%s' (for, warmup, every, "
					 "repeat, seeds, jobs, measure, "
					 "scenario, while, into, plot, "
					 "shuffle)", key);
		}
		/* `into` and `plot` are not part of the definition */
		if (strcmp(key, "into") && strcmp(key, "plot"))
			for (k = first; k <= i; k++) {
				rc = save_word(s, pl, argv[k]);
				if (rc)
					return rc;
			}
	}
	/* what only one kind of device has */
	if (pl->real) {
		if (pl->scen)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: "
					 "'scenario' is for the sim device; "
					 "on a real NIC give the traffic with "
					 "'while'");
		if (jobs > 1)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: a real "
					 "NIC runs one point at a time (no "
					 "'jobs')");
		if (!have_for)
			return pcb_error(&s->err, PCB_E_USAGE, "sweep: say how "
					 "long each point runs on a real NIC "
					 "('for 10s')");
		if (seeds)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: 'seeds' "
					 "are the simulator's; use 'repeat'");
	} else {
		if (pl->targv)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: 'while' "
					 "runs a traffic command on a real "
					 "NIC; the sim device makes its own "
					 "traffic ('scenario')");
		if (!pl->scen) {	/* the device's, made explicit */
			char line[2048], *w, *save;

			cfg = d->cfg;
			sim_cfg_format(&cfg, line, sizeof(line));
			rc = save_word(s, pl, "scenario");
			for (w = strtok_r(line, " ", &save); w && !rc;
			     w = strtok_r(NULL, " ", &save))
				rc = save_word(s, pl, w);
			if (rc)
				return rc;
			for (k = pl->nargs - 1; strcmp(pl->args[k],
						       "scenario"); k--)
				;
			pl->scen = pl->args + k + 1;
			pl->nscen = pl->nargs - k - 1;
		}
		pl->cfg = cfg;	/* given, or the device's */
		pl->jobs = jobs ? (unsigned)jobs :
			   (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
		if (pl->jobs < 1)
			pl->jobs = 1;
	}
	if (!pl->dur)
		pl->dur = 10 * PS_PER_MS;
	if (!pl->every) {	/* about 200 intervals, at least 10 us */
		pl->every = pl->dur / 200;
		if (pl->every < 10 * PS_PER_US)
			pl->every = 10 * PS_PER_US;
		if (pl->real && pl->every < 100 * PS_PER_MS)
			pl->every = 100 * PS_PER_MS;
		if (pl->every > pl->dur)
			pl->every = pl->dur;
	}
	if (pl->every > pl->dur || pl->dur / pl->every > 100000)
		return pcb_error(&s->err, PCB_E_RANGE, "sweep: %" PRId64
				 " intervals per point (1 to 100000)",
				 pl->dur / pl->every);
	/* repeats and their seeds */
	if (seeds) {
		char buf[2048], *w, *save, *end;
		size_t ns = 0;

		snprintf(buf, sizeof(buf), "%s", seeds);
		for (w = strtok_r(buf, ",", &save); w;
		     w = strtok_r(NULL, ",", &save)) {
			if (ns == SW_MAX_REPEAT)
				return pcb_error(&s->err, PCB_E_RANGE, "sweep: "
						 "more than %d seeds",
						 SW_MAX_REPEAT);
			errno = 0;
			pl->seeds[ns++] = strtoull(w, &end, 0);
			if (*end || errno || *w == '-')
				return pcb_error(&s->err, PCB_E_INVAL, "sweep: "
						 "bad seed '%s'", w);
		}
		if (repeat && repeat != ns)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: repeat "
					 "%lu but %zu seeds", repeat, ns);
		pl->repeat = ns;
	} else {
		pl->repeat = repeat ? repeat : 1;
		for (n = 0; n < pl->repeat; n++)
			pl->seeds[n] = pl->real ? 0 : cfg.seed + n;
	}
	pl->npoints = 1;
	for (n = 0; n < pl->naxes; n++) {
		pl->npoints *= pl->ax[n].n;
		if (pl->npoints > SW_MAX_RUNS)
			break;
	}
	pl->nruns = pl->npoints * pl->repeat;
	if (pl->npoints > SW_MAX_RUNS || pl->nruns > SW_MAX_RUNS)
		return pcb_error(&s->err, PCB_E_RANGE, "sweep: more than %d "
				 "runs; narrow the ranges", SW_MAX_RUNS);
	if (pl->jobs > pl->nruns)
		pl->jobs = (unsigned)pl->nruns;
	/* what to measure */
	if (!measure) {
		rc = sess_counters_slot(s, &k);
		if (rc)
			return rc;
		measure = pl->real ? "avg_rtt,max_rtt,dec,hai" :
			  k >= 0 ? "avg_rtt,util,queue_p99,cnp_handled" :
				   "rtt_mean,util,queue_p99,cnp_handled";
	}
	rc = parse_measures(s, pl, measure);
	if (rc)
		return rc;
	for (n = 0; n < pl->nmeas; n++) {
		if (needs_counters(&pl->m[n])) {
			rc = sess_counters_slot(s, &k);
			if (rc)
				return rc;
			if (k < 0)
				return pcb_error(&s->err, PCB_E_STATE, "sweep: "
						 "%s comes from the algorithm's "
						 "counters and no slot has them "
						 "enabled ('algo debug on')",
						 measure_name(&pl->m[n]));
		}
		if (pl->real && (pl->m[n].col == REC_C_PAUSES ||
				 pl->m[n].col == REC_C_DROPS))
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: on a real "
					 "NIC pccbench reads the PCC counters "
					 "and the RDMA port's counters; %s is "
					 "in neither",
					 measure_name(&pl->m[n]));
	}
	{	/* the canonical list: a,b,c (16 names of < 16 chars) */
		char list[SW_MAX_MEAS * 16] = "";

		for (n = 0; n < pl->nmeas; n++)
			snprintf(list + strlen(list), sizeof(list) -
				 strlen(list), "%s%s", n ? "," : "",
				 measure_name(&pl->m[n]));
		rc = save_word(s, pl, "measure");
		if (!rc)
			rc = save_word(s, pl, list);
	}
	if (rc)
		return rc;
	if (!*pl->name && !resume) {	/* sweep1, sweep2, ...: the first free */
		for (n = 1;; n++) {
			snprintf(pl->name, sizeof(pl->name), "sweep%zu", n);
			rc = sweeps_dir(s, pl->name, pl->dir, sizeof(pl->dir),
					false);
			if (rc)
				return rc;
			if (access(pl->dir, F_OK))
				break;
		}
	}
	return plan_columns(s, pl);
}

/* The point's value index on each axis: the first axis varies slowest. */
static void point_values(const struct plan *pl, size_t point, size_t *idx)
{
	size_t k;

	for (k = pl->naxes; k-- > 0;) {
		idx[k] = point % pl->ax[k].n;
		point /= pl->ax[k].n;
	}
}

static void point_text(struct session *s, const struct plan *pl,
		       size_t point, char *buf, size_t len)
{
	size_t idx[SW_MAX_AXES], k, o = 0;
	char v[40];

	point_values(pl, point, idx);
	buf[0] = '\0';
	for (k = 0; k < pl->naxes && o < len; k++) {
		sess_format_value(s, pl->ax[k].p->type,
				  pl->ax[k].raw[idx[k]], v, sizeof(v));
		o += (size_t)snprintf(buf + o, len - o, "%s%s %s",
				      k ? ", " : "", pl->ax[k].p->info.name, v);
	}
}

static void fill_writes(const struct plan *pl, size_t point,
			struct pwrite *w)
{
	size_t idx[SW_MAX_AXES], k;

	point_values(pl, point, idx);
	for (k = 0; k < pl->naxes; k++) {
		memset(&w[k], 0, sizeof(w[k]));
		w[k].index = pl->ax[k].p->index;
		w[k].value = pl->ax[k].raw[idx[k]];
	}
}

/* ---- one run's numbers --------------------------------------------------- */

/* The measured values of a recorded window (and the sim's own summary).
 * avg_rtt's mean is the window's: the growth of SUM_RTT over that of
 * NUM_RTT, each sample weighing alike (a mean of the intervals' averages
 * would let a few slow samples in a quiet interval outweigh thousands);
 * its p50/p99/min/max are over the intervals' averages.
 */
static int summarise(const struct plan *pl, const struct series *ser,
		     const struct recorder *rec, struct sim *sim, double *v)
{
	struct sim_summary sum;
	size_t i, o = 0;

	memset(&sum, 0, sizeof(sum));
	if (sim)
		sim_summary(sim, &sum);
	for (i = 0; i < pl->nmeas; i++) {
		const struct measure *m = &pl->m[i];
		double *col;
		struct stats st;

		if (m->scalar >= 0) {
			double x[S_COUNT] = {
				sum.util, sum.jain, sum.q_mean, sum.q_p99,
				sum.q_max, sum.rtt_samples ? sum.rtt_mean : NAN,
				sum.rtt_samples ? sum.rtt_p99 : NAN,
				(double)sum.rtos };

			v[o++] = x[m->scalar];
			continue;
		}
		col = cmd_series_column(ser, (size_t)m->col);
		if (!col)
			return -1;
		if (stats_summary(col, ser->nrows, &st)) {
			free(col);
			return -1;
		}
		free(col);
		if (m->col == REC_C_AVG_RTT)
			st.mean = rec->rtt_num ? (double)rec->rtt_sum /
						 (double)rec->rtt_num : NAN;
		v[o++] = st.mean;
		v[o++] = st.p50;
		v[o++] = st.p99;
		v[o++] = st.min;
		v[o++] = st.max;
	}
	return 0;
}

static void store_run(struct plan *pl, size_t run, const double *v)
{
	size_t nc = pl->res->ncols, point = run / pl->repeat, k;
	size_t idx[SW_MAX_AXES];
	double *row = pl->rows + run * nc;

	point_values(pl, point, idx);
	row[0] = (double)point;
	row[1] = (double)(run % pl->repeat);
	row[2] = pl->real ? NAN : (double)pl->seeds[run % pl->repeat];
	for (k = 0; k < pl->naxes; k++)
		row[SW_FIXED_COLS + k] = pl->ax[k].real[idx[k]];
	memcpy(row + SW_FIXED_COLS + pl->naxes, v,
	       (nc - SW_FIXED_COLS - pl->naxes) * sizeof(double));
	if (!pl->done[run])
		pl->ndone++;
	pl->done[run] = true;
}

/* results.csv: the finished runs in plan order (whatever order they ran
 * in), written whole to a temporary file and renamed over.
 */
static int save_results(struct session *s, struct plan *pl)
{
	struct series *t = series_new(pl->name);
	char path[4200], tmp[4300];
	size_t r;
	int rc = 0;

	if (!t)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	memcpy(t->cols, pl->res->cols, sizeof(t->cols));
	t->ncols = pl->res->ncols;
	for (r = 0; r < pl->nruns && !rc; r++)
		if (pl->done[r] &&
		    series_add_row(t, pl->rows + r * pl->res->ncols))
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	snprintf(path, sizeof(path), "%s/results.csv", pl->dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!rc)
		rc = series_write_csv(t, tmp, &s->err);
	if (!rc && rename(tmp, path))
		rc = pcb_error(&s->err, PCB_E_IO, "cannot write '%s': %s",
			       path, strerror(errno));
	series_free(t);
	return rc;
}

static int save_definition(struct session *s, struct plan *pl,
			   const uint32_t *vals, size_t n)
{
	char path[4200];
	FILE *fp;
	size_t k;
	int i, bad;

	snprintf(path, sizeof(path), "%s/sweep.args", pl->dir);
	fp = fopen(path, "w");
	if (!fp)
		return pcb_error(&s->err, PCB_E_IO, "cannot write '%s': %s",
				 path, strerror(errno));
	fprintf(fp, "# pccbench %s sweep on %s: one word per line\n#axes %zu\n",
		PCCB_VERSION, s->devname, pl->naxes);
	for (k = 0; k < n; k++)		/* the slot's values at the start */
		fprintf(fp, "#fixed %zu %u\n", k, vals[k]);
	for (i = 0; i < pl->nargs; i++)
		fprintf(fp, "%s\n", pl->args[i]);
	bad = ferror(fp);
	if (fclose(fp) || bad)
		return pcb_error(&s->err, PCB_E_IO, "cannot write '%s'", path);
	return 0;
}

static int save_meta(struct session *s, struct plan *pl, time_t start,
		     double wall, const char *status)
{
	char path[4200], v[40];
	size_t k, i;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/meta.json", pl->dir);
	fp = cmd_meta_open(s, path, "sweep", pl->name, start);
	if (!fp)
		return -s->err.code;
	fprintf(fp, ",\"status\":\"%s\",\"wall_s\":%.3f,\"workload_s\":%.3f,"
		"\"points\":%zu,\"repeat\":%zu,\"runs\":%zu,\"done\":%zu,"
		"\"for_s\":%.9g,\"warmup_s\":%.9g,\"interval_s\":%.9g,"
		"\"jobs\":%u,\"axes\":[", status, wall, pl->sim_s, pl->npoints,
		pl->repeat, pl->nruns, pl->ndone, pl->dur / 1e12,
		pl->warmup / 1e12, pl->every / 1e12, pl->jobs);
	for (k = 0; k < pl->naxes; k++) {
		fputs(k ? ",{\"param\":" : "{\"param\":", fp);
		out_json_string(fp, pl->ax[k].p->info.name);
		fputs(",\"values\":[", fp);
		for (i = 0; i < pl->ax[k].n; i++) {
			sess_format_value(s, pl->ax[k].p->type,
					  pl->ax[k].raw[i], v, sizeof(v));
			fprintf(fp, "%s%s", i ? "," : "", v);
		}
		fputs("]}", fp);
	}
	fputs("],\"measure\":[", fp);
	for (k = 0; k < pl->nmeas; k++) {
		fputs(k ? "," : "", fp);
		out_json_string(fp, measure_name(&pl->m[k]));
	}
	fputs("]", fp);
	if (!pl->real) {
		char line[2048] = "";

		for (k = 0; k < (size_t)pl->nscen; k++)
			snprintf(line + strlen(line), sizeof(line) -
				 strlen(line), "%s%s", k ? " " : "",
				 pl->scen[k]);
		fputs(",\"scenario\":", fp);
		out_json_string(fp, line);
		fputs(",\"seeds\":[", fp);
		for (k = 0; k < pl->repeat; k++)
			fprintf(fp, "%s%" PRIu64, k ? "," : "", pl->seeds[k]);
		fputs("]", fp);
	}
	cmd_meta_algo(s, fp);	/* the fixed params: the device's */
	fputs(",\"args\":[", fp);
	for (i = 0; i < (size_t)pl->nargs; i++) {
		fputs(i ? "," : "", fp);
		out_json_string(fp, pl->args[i]);
	}
	fputs("]", fp);
	return cmd_meta_close(s, fp, path);
}

/* ---- running on the sim: workers on copies of the device ---------------- */

static int copy_file(const char *from, const char *to)
{
	char buf[16384];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;
	int rc = 0;

	if (in < 0)
		return errno == ENOENT ? 0 : -1;	/* none: defaults */
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			rc = -1;
			break;
		}
	if (n < 0)
		rc = -1;
	close(in);
	if (close(out))
		rc = -1;
	return rc;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void rm_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* A worker's device: a private state directory holding a copy of the
 * sim device's firmware state and scenario files.
 */
static int worker_device(struct session *s, const char *dir)
{
	char sim[4400], from[4200], to[4500], *dot;
	struct simfw *fw;
	int rc;

	snprintf(sim, sizeof(sim), "%s/pccbench/sim", dir);
	rc = pcb_mkdirs(sim, 0700, &s->err);
	if (rc)
		return rc;
	s->dev->ops->ctl(s->dev, 0, &fw);
	snprintf(from, sizeof(from), "%s", simfw_path(fw));
	snprintf(to, sizeof(to), "%s/%s", sim, strrchr(from, '/') + 1);
	if (copy_file(from, to))
		return pcb_error(&s->err, PCB_E_IO, "cannot copy '%s'", from);
	dot = strrchr(from, '.');
	if (dot && strlen(dot) >= strlen(".scenario")) {
		snprintf(dot, sizeof(from) - (size_t)(dot - from), ".scenario");
		snprintf(to, sizeof(to), "%s/%s", sim, strrchr(from, '/') + 1);
		if (copy_file(from, to))
			return pcb_error(&s->err, PCB_E_IO, "cannot copy '%s'",
					 from);
	}
	setenv("XDG_STATE_HOME", dir, 1);
	return 0;
}

/* One run on the worker's device.  Every run starts from an empty fabric
 * at t = 0 with the run's seed, writes every swept param and reads the
 * counters with clear, so what ran before in this worker leaves no trace.
 */
static int worker_run(struct session *cs, struct plan *pl, size_t run,
		      struct wmsg *msg)
{
	struct pwrite w[SW_MAX_AXES];
	struct series *ser;
	struct recorder r;
	struct simdev *d;
	int64_t done;
	double t0;
	int rc = sess_simdev(cs, &d);

	if (rc)
		return rc;
	d->cfg = pl->cfg;	/* the sweep's scenario (checked by the parent) */
	d->cfg.seed = pl->seeds[run % pl->repeat];
	simdev_reset(d);
	fill_writes(pl, run / pl->repeat, w);
	/* checked and read back, not journaled: the worker's device is a
	 * scratch copy deleted with the sweep, and the journal's two
	 * fdatasyncs per run would hold a Ctrl-C up on a busy disk */
	rc = sess_write_params(cs, pl->slot, w, pl->naxes, false);
	if (rc)
		return rc;
	ser = series_new("run");
	if (!ser)
		return pcb_error(&cs->err, PCB_E_NOMEM, "out of memory");
	t0 = pcb_mono_s();	/* building the fabric is part of simulating */
	rc = rec_open(&r, cs, NULL, 0, true);
	if (!rc)
		rc = rec_columns(&r, ser);
	if (!rc && pl->warmup)
		rc = simdev_run(d, pl->warmup, cs->stop, &cs->err);
	if (!rc)
		rc = rec_capture(&r, ser, pl->dur, pl->every, NULL, &done);
	msg->sim_s = pcb_mono_s() - t0;
	if (!rc && summarise(pl, ser, &r, d->sim, msg->v))
		rc = pcb_error(&cs->err, PCB_E_NOMEM, "out of memory");
	series_free(ser);
	return rc;
}

/* A worker process: set up its device once, then run what the parent
 * sends (run numbers on `in`) and answer each with a wmsg on `out`, until
 * `in` closes.  Never returns.
 */
static void worker(struct session *s, struct plan *pl, const char *dir,
		   int in, int out)
{
	FILE *null = fopen("/dev/null", "w");
	struct session cs;
	uint32_t run;
	int rc = worker_device(s, dir);

	sess_init(&cs, s->devname);
	cs.stop = s->stop;
	cs.yes = true;
	if (null) {
		cs.errfp = null;
		cs.out.fp = null;
	}
	if (rc)
		cs.err = s->err;
	while (read(in, &run, sizeof(run)) == (ssize_t)sizeof(run)) {
		struct wmsg msg;

		memset(&msg, 0, sizeof(msg));
		msg.run = (int32_t)run;
		msg.rc = rc ? rc : worker_run(&cs, pl, run, &msg);
		if (msg.rc)
			snprintf(msg.msg, sizeof(msg.msg), "%.199s",
				 cs.err.msg);
		if (write(out, &msg, sizeof(msg)) != (ssize_t)sizeof(msg))
			_exit(3);
		pcb_err_reset(&cs.err);
	}
	_exit(0);	/* no atexit, no stdio flush: the parent's buffers */
}

struct job {
	pid_t pid;
	int in, out;		/* to it, from it */
	long run;		/* -1: idle */
};

static void progress(struct session *s, const struct plan *pl, double t0,
		     bool final)
{
	if (!isatty(STDERR_FILENO) || s->out.json)
		return;
	fprintf(stderr, "\rsweep %s: %zu of %zu runs, %.1f s%s", pl->name,
		pl->ndone, pl->nruns, pcb_mono_s() - t0, final ? "\n" : "");
}

/* The order runs start in: plan order, or a fixed shuffle. */
static size_t *run_order(const struct plan *pl)
{
	size_t *o = malloc(pl->nruns * sizeof(*o)), i;
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (i = 0; o && i < pl->nruns; i++)
		o[i] = i;
	for (i = pl->nruns; o && pl->shuffle && i > 1; i--) {
		size_t j, t;

		x ^= x << 13;	/* xorshift64: the same shuffle every time */
		x ^= x >> 7;
		x ^= x << 17;
		j = (size_t)(x % i);
		t = o[i - 1];
		o[i - 1] = o[j];
		o[j] = t;
	}
	return o;
}

/* Stop the workers: no more runs (they exit at EOF), and reap them all.
 * When the sweep failed or was interrupted they are killed (SIGKILL): all
 * they hold is their scratch device, deleted next, and a worker that is in
 * the middle of building a fabric or writing its copy would otherwise keep
 * the prompt waiting.
 */
static void workers_end(struct job *jobs, unsigned nj, bool kill_them)
{
	unsigned i;

	for (i = 0; i < nj; i++) {
		close(jobs[i].in);
		if (kill_them)
			kill(jobs[i].pid, SIGKILL);
	}
	for (i = 0; i < nj; i++) {
		close(jobs[i].out);
		waitpid(jobs[i].pid, NULL, 0);
	}
}

static int run_sim(struct session *s, struct plan *pl, double t0)
{
	struct job jobs[256];
	struct sigaction ign, old_pipe;
	char root[4200], dir[4300];
	size_t *order = run_order(pl), next = 0;
	unsigned nj = 0, nbusy = 0, i;
	int rc;

	if (!order)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = pcb_user_dir(root, sizeof(root), PCB_DIR_CACHE, "sweep", true,
			  &s->err);
	if (!rc) {
		size_t l = strlen(root);

		snprintf(root + l, sizeof(root) - l, "/%ld", (long)getpid());
		rm_tree(root);
		rc = pcb_mkdirs(root, 0700, &s->err);
	}
	/* a worker that died must not take the sweep with it through a
	 * write to its pipe: SIGPIPE is ignored while they run */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old_pipe);
	/* the workers, each with its own device */
	while (!rc && nj < pl->jobs) {
		int to[2], from[2];
		pid_t pid;

		if (pipe2(to, O_CLOEXEC)) {
			rc = pcb_error(&s->err, PCB_E_IO, "sweep: pipe: %s",
				       strerror(errno));
			break;
		}
		if (pipe2(from, O_CLOEXEC)) {
			close(to[0]);
			close(to[1]);
			rc = pcb_error(&s->err, PCB_E_IO, "sweep: pipe: %s",
				       strerror(errno));
			break;
		}
		snprintf(dir, sizeof(dir), "%s/w%u", root, nj);
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			for (i = 0; i < nj; i++) {	/* the others' pipes */
				close(jobs[i].in);
				close(jobs[i].out);
			}
			close(to[1]);
			close(from[0]);
			worker(s, pl, dir, to[0], from[1]);
		}
		close(to[0]);
		close(from[1]);
		if (pid < 0) {
			close(to[1]);
			close(from[0]);
			rc = pcb_error(&s->err, PCB_E_IO, "sweep: fork: %s",
				       strerror(errno));
			break;
		}
		jobs[nj++] = (struct job){ pid, to[1], from[0], -1 };
	}
	while (!rc) {
		struct pollfd pfd[256];
		unsigned idx[256], np = 0;

		/* the next runs to the idle workers */
		for (i = 0; i < nj && next < pl->nruns; i++) {
			uint32_t run;

			if (jobs[i].run >= 0)
				continue;
			while (next < pl->nruns && pl->done[order[next]])
				next++;
			if (next == pl->nruns)
				break;
			run = (uint32_t)order[next++];
			if (write(jobs[i].in, &run, sizeof(run)) !=
			    (ssize_t)sizeof(run)) {
				rc = pcb_error(&s->err, PCB_E_IO, "sweep: a "
					       "worker stopped listening");
				break;
			}
			jobs[i].run = run;
			nbusy++;
		}
		if (rc || !nbusy)
			break;
		if (s->stop && *s->stop) {
			rc = pcb_error(&s->err, PCB_E_INTR, "interrupted");
			break;
		}
		for (i = 0; i < nj; i++)
			if (jobs[i].run >= 0) {
				pfd[np] = (struct pollfd){ jobs[i].out, POLLIN,
							   0 };
				idx[np++] = i;
			}
		if (poll(pfd, np, 100) <= 0)
			continue;
		for (i = 0; i < np && !rc; i++) {
			struct job *j = &jobs[idx[i]];
			struct wmsg msg;
			ssize_t n = 0, got;
			char pt[256];

			if (!pfd[i].revents)
				continue;
			while ((size_t)n < sizeof(msg) &&
			       (got = read(j->out, (char *)&msg + n,
					   sizeof(msg) - (size_t)n)) > 0)
				n += got;
			if ((size_t)n == sizeof(msg) && msg.run == j->run &&
			    !msg.rc) {
				store_run(pl, (size_t)j->run, msg.v);
				pl->sim_s += msg.sim_s;
				rc = save_results(s, pl);
				progress(s, pl, t0, false);
			} else {	/* name the point */
				point_text(s, pl, (size_t)j->run / pl->repeat,
					   pt, sizeof(pt));
				if ((size_t)n != sizeof(msg) ||
				    msg.run != j->run)
					rc = pcb_error(&s->err, PCB_E_IO, "sweep: "
						       "the worker for point "
						       "%ld (%s) died", j->run /
						       (long)pl->repeat, pt);
				else
					rc = pcb_error(&s->err, -msg.rc, "sweep: "
						       "point %ld (%s): %s",
						       j->run /
						       (long)pl->repeat, pt,
						       msg.msg);
			}
			j->run = -1;
			nbusy--;
		}
	}
	/* an interrupt that reached the workers first shows as their error */
	if (rc && s->stop && *s->stop) {
		pcb_err_reset(&s->err);
		rc = pcb_error(&s->err, PCB_E_INTR, "interrupted");
	}
	workers_end(jobs, nj, rc != 0);
	sigaction(SIGPIPE, &old_pipe, NULL);
	progress(s, pl, t0, true);
	rm_tree(root);
	free(order);
	return rc;
}

/* ---- running on a real NIC ---------------------------------------------- */

static int run_real(struct session *s, struct plan *pl, const uint32_t *orig,
		    double t0)
{
	struct recorder r;
	struct pwrite w[SW_MAX_AXES];
	char log[4300];
	size_t *order = run_order(pl), i;
	bool wrote = false, yes = s->yes;
	int rc, rc2;

	if (!order)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	snprintf(log, sizeof(log), "%s/while.log", pl->dir);
	rc = rec_open(&r, s, NULL, 0, true);
	s->yes = true;		/* confirmed once, with the plan */
	for (i = 0; !rc && i < pl->nruns; i++) {
		size_t run = order[i];
		struct series *ser;
		struct run_bg bg;
		double v[SW_MAX_MEAS * SW_NSTATS], t1;
		int64_t done;

		if (pl->done[run])
			continue;
		fill_writes(pl, run / pl->repeat, w);
		wrote = true;
		rc = sess_write_params(s, pl->slot, w, pl->naxes, true);
		if (rc)
			break;
		ser = series_new("run");
		if (!ser) {
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
			break;
		}
		rc = rec_columns(&r, ser);
		r.traffic = NULL;
		if (!rc && pl->targv) {
			rc = run_bg_start(&bg, pl->targv, log, &s->err);
			if (!rc) {
				r.traffic = &bg;
				r.traffic_log = log;
			}
		}
		t1 = pcb_mono_s();
		if (!rc && pl->warmup)
			rc = rec_wait(&r, pl->warmup / 1e12);
		if (!rc)
			rc = rec_capture(&r, ser, pl->dur, pl->every, NULL,
					 &done);
		pl->sim_s += pcb_mono_s() - t1;
		if (r.traffic && run_bg_stop(&bg, 2000) == 127 && !rc)
			rc = pcb_error(&s->err, PCB_E_DEVICE, "sweep: cannot run "
				       "'%s' (see %s)", bg.name, log);
		if (!rc && summarise(pl, ser, &r, NULL, v))
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		series_free(ser);
		if (rc)
			break;
		store_run(pl, run, v);
		rc = save_results(s, pl);
		progress(s, pl, t0, false);
	}
	progress(s, pl, t0, true);
	free(order);
	if (wrote) {
		/* the originals come back whatever happened, even after
		 * Ctrl-C: the flag is set aside for the restoring writes */
		struct pcb_err keep = s->err;
		sig_atomic_t stopped = s->stop ? *s->stop : 0;

		if (s->stop)
			*s->stop = 0;
		for (i = 0; i < pl->naxes; i++) {
			memset(&w[i], 0, sizeof(w[i]));
			w[i].index = pl->ax[i].p->index;
			w[i].value = orig[i];
		}
		pcb_err_reset(&s->err);
		rc2 = sess_write_params(s, pl->slot, w, pl->naxes, true);
		if (s->stop && stopped)
			*s->stop = stopped;
		if (rc2 && rc)
			sess_warn(s, "sweep: restoring the original values "
				  "failed too: %s ('journal restore')",
				  s->err.msg);
		if (rc)
			s->err = keep;
		else
			rc = rc2;
	}
	s->yes = yes;
	return rc;
}

/* ---- the commands ------------------------------------------------------- */

static double estimate_s(const struct plan *pl)
{
	const struct sim_cfg *c = &pl->cfg;
	double flows, per_run, runs = (double)(pl->nruns - pl->ndone);

	if (pl->real)
		return runs * ((pl->warmup + pl->dur) / 1e12 + 0.5);
	/* the standard case (64 flows, 400 Gb/s, 4 KB) runs about 10 ms of
	 * device time in 0.1 s; cost grows with packets */
	flows = c->kind == SIM_INCAST || c->kind == SIM_STAIRCASE ?
		c->senders : (double)c->leaves * c->hosts_per_leaf;
	per_run = (pl->warmup + pl->dur) / 1e12 * 10.0 *
		  (flows < 64 ? 1.0 : flows / 64.0) * c->rate_gbps / 400.0 *
		  4096.0 / c->mtu + 0.01;
	return runs * per_run / pl->jobs;
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
		if (!pl->real)
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
	fprintf(s->out.fp, "%s recorded", pcb_format_duration(pl->dur, v, sizeof(v)));
	fprintf(s->out.fp, " every %s\n", pcb_format_duration(pl->every, v, sizeof(v)));
	if (!pl->real) {
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
			measure_name(&pl->m[k]));
	fprintf(s->out.fp, "\n  %-14s %u%s; about %.1f s\n", "jobs", pl->jobs,
		pl->real ? " (a real NIC: one point at a time)" :
			   " worker processes, each on a copy of the device",
		estimate_s(pl));
}

/* results.csv rows back into the plan (for resume). */
static int load_results(struct session *s, struct plan *pl)
{
	struct series *r;
	char path[4200];
	size_t i, c;
	int rc;

	snprintf(path, sizeof(path), "%s/results.csv", pl->dir);
	if (access(path, F_OK))
		return 0;
	rc = series_read_csv(&r, pl->name, path, &s->err);
	if (rc)
		return rc;
	if (r->ncols != pl->res->ncols)
		rc = -1;
	for (c = 0; !rc && c < r->ncols; c++)
		if (strcmp(r->cols[c].name, pl->res->cols[c].name))
			rc = -1;
	for (i = 0; !rc && i < r->nrows; i++) {
		double p = series_at(r, i, 0), k = series_at(r, i, 1);
		size_t run;

		if (!(p >= 0 && p < (double)pl->npoints && k >= 0 &&
		      k < (double)pl->repeat)) {
			rc = -1;
			break;
		}
		run = (size_t)p * pl->repeat + (size_t)k;
		memcpy(pl->rows + run * r->ncols, r->data + i * r->ncols,
		       r->ncols * sizeof(double));
		if (!pl->done[run])
			pl->ndone++;
		pl->done[run] = true;
	}
	series_free(r);
	if (rc)
		return pcb_error(&s->err, PCB_E_PARSE, "sweep %s: '%s' does not "
				 "match the sweep's definition", pl->name,
				 path);
	return 0;
}

static int sweep_plot(struct session *s, const char *name, const char *to);

/* Run (or resume) a parsed plan. */
/* sweep.args: the words, and "#axes N" for readers without a device. */
static int read_definition(struct session *s, const char *name, char *dir,
			   size_t dlen, char ***words, int *nwords,
			   size_t *naxes, int64_t *fixed)
{
	char path[4300], *line = NULL, **w = NULL;
	size_t cap = 0;
	ssize_t n;
	int nw = 0, rc;
	FILE *fp;

	rc = sweeps_dir(s, name, dir, dlen, false);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/sweep.args", dir);
	fp = fopen(path, "r");
	if (!fp)
		return pcb_error(&s->err, PCB_E_NOENT, "no sweep '%s' ('sweep "
				 "list')", name);
	*naxes = 0;
	for (n = 0; fixed && n < ALGO_MAX_PARAMS; n++)
		fixed[n] = -1;
	while ((n = getline(&line, &cap, fp)) > 0) {
		unsigned idx, raw;
		char **nv;

		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "#axes ", 6))
			*naxes = strtoul(line + 6, NULL, 10);
		if (fixed && sscanf(line, "#fixed %u %u", &idx, &raw) == 2 &&
		    idx < ALGO_MAX_PARAMS)
			fixed[idx] = raw;
		if (line[0] == '#')
			continue;
		nv = nw < SW_MAX_ARGS ? realloc(w, (size_t)(nw + 2) *
						sizeof(*w)) : NULL;
		if (nv) {
			w = nv;
			w[nw] = strdup(line);
			w[nw + 1] = NULL;
		}
		if (!nv || !w[nw]) {	/* w stays a NULL-terminated list */
			rc = pcb_error(&s->err, PCB_E_PARSE, "sweep %s: '%s' "
				       "is too long or out of memory", name,
				       path);
			break;
		}
		nw++;
	}
	free(line);
	fclose(fp);
	if (rc) {
		cmd_argv_free(w);
		return rc;
	}
	*words = w;
	*nwords = nw;
	return 0;
}

/* The slot's values now; on resume they must equal those the sweep
 * started with (the params not swept: a changed one would make the old
 * and new rows disagree).
 */
static int fixed_check(struct session *s, struct plan *pl, uint32_t *vals,
		       size_t *n, bool resume)
{
	int64_t was[ALGO_MAX_PARAMS];
	char **words = NULL, dir[4096];
	size_t naxes, i, k;
	int nw, rc;

	rc = ppcc_bulk_get(&s->ppcc, pl->slot, vals, ALGO_MAX_PARAMS, n,
			   &s->err);
	if (rc || !resume)
		return rc;
	rc = read_definition(s, pl->name, dir, sizeof(dir), &words, &nw,
			     &naxes, was);
	cmd_argv_free(words);
	for (i = 0; !rc && i < *n && i < pl->v->nparams; i++) {
		char a[40], b[40];

		for (k = 0; k < pl->naxes && pl->ax[k].p->index != i; k++)
			;
		if (k < pl->naxes || was[i] < 0 || was[i] == vals[i])
			continue;
		sess_format_value(s, pl->v->params[i].type, (uint32_t)was[i],
				  a, sizeof(a));
		sess_format_value(s, pl->v->params[i].type, vals[i], b,
				  sizeof(b));
		rc = pcb_error(&s->err, PCB_E_STATE, "sweep resume %s: %s was "
			       "%s when the sweep started and is %s now; set "
			       "it back or start a new sweep", pl->name,
			       pl->v->params[i].info.name, a, b);
	}
	return rc;
}

/* Run (or resume) a parsed plan. */
static int sweep_exec(struct session *s, struct plan *pl, bool resume)
{
	uint32_t orig[SW_MAX_AXES], vals[ALGO_MAX_PARAMS];
	time_t start = time(NULL);
	double t0 = pcb_mono_s();
	size_t k, n = 0, before;
	int rc;

	if (resume) {
		rc = load_results(s, pl);
		if (rc)
			return rc;
	} else if (!access(pl->dir, F_OK)) {
		return pcb_error(&s->err, PCB_E_STATE, "sweep %s exists ('sweep "
				 "resume %s' continues it, 'sweep drop %s' "
				 "deletes it)", pl->name, pl->name, pl->name);
	}
	memset(vals, 0, sizeof(vals));
	rc = fixed_check(s, pl, vals, &n, resume);
	if (rc)
		return rc;
	for (k = 0; k < pl->naxes; k++)
		orig[k] = vals[pl->ax[k].p->index];
	before = pl->ndone;
	if (s->dry_run || pl->ndone == pl->nruns) {
		struct pwrite w[SW_MAX_AXES];

		print_plan(s, pl);
		if (!s->dry_run)
			fprintf(s->out.fp, "sweep %s: every run is done\n",
				pl->name);
		if (!s->dry_run || !pl->real)
			return 0;
		/* the register writes a real sweep would make, then the
		 * restore */
		for (k = 0; k <= pl->nruns && !rc; k += pl->repeat) {
			fill_writes(pl, k / pl->repeat, w);
			for (n = 0; k == pl->nruns && n < pl->naxes; n++)
				w[n].value = orig[n];
			rc = sess_write_params(s, pl->slot, w, pl->naxes,
					       false);
		}
		return rc;
	}
	if (pl->real) {		/* one confirmation for the whole plan */
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
	rc = pcb_mkdirs(pl->dir, 0755, &s->err);
	if (!rc && !resume)
		rc = save_definition(s, pl, vals, n);
	if (!rc)
		rc = save_meta(s, pl, start, 0, "running");
	if (rc)
		return rc;
	rc = pl->real ? run_real(s, pl, orig, t0) : run_sim(s, pl, t0);
	{
		struct pcb_err keep = s->err;
		int rc2 = save_meta(s, pl, start, pcb_mono_s() - t0, !rc ?
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
	if (s->out.json) {
		out_obj_begin(&s->out, NULL);
		out_str(&s->out, "sweep", pl->name);
		out_u64(&s->out, "runs", pl->nruns);
		out_u64(&s->out, "ran", pl->ndone - before);
		out_u64(&s->out, "jobs", pl->jobs);
		out_real(&s->out, "wall_s", pcb_mono_s() - t0);
		out_real(&s->out, "workload_s", pl->sim_s);
		out_str(&s->out, "dir", pl->dir);
		out_obj_end(&s->out);
	} else {
		fprintf(s->out.fp, "sweep %s: %zu runs in %.2f s", pl->name,
			pl->ndone - before, pcb_mono_s() - t0);
		if (before)
			fprintf(s->out.fp, " (%zu were done)", before);
		fprintf(s->out.fp, " -> %s/results.csv ('sweep show %s')\n",
			pl->dir, pl->name);
	}
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
	rc = plan_parse(s, pl, argc, argv, false);
	if (!rc)
		rc = sweep_exec(s, pl, false);
	plan_free(pl);
	return rc;
}

static int cmd_sweep_resume(struct session *s, int argc, char **argv)
{
	struct plan *pl = calloc(1, sizeof(*pl));
	char dir[4096], **words = NULL;
	size_t naxes;
	int nw = 0, rc;

	(void)argc;
	if (!pl)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = read_definition(s, argv[0], dir, sizeof(dir), &words, &nw, &naxes,
			     NULL);
	if (!rc) {
		snprintf(pl->name, sizeof(pl->name), "%s", argv[0]);
		snprintf(pl->dir, sizeof(pl->dir), "%s", dir);
		rc = words ? plan_parse(s, pl, nw, words, true) :
			     pcb_error(&s->err, PCB_E_PARSE, "sweep %s: empty "
				       "sweep.args", argv[0]);
	}
	if (!rc)
		rc = sweep_exec(s, pl, true);
	cmd_argv_free(words);
	plan_free(pl);
	return rc;
}

/* ---- results: show, plot, list, drop ------------------------------------ */

struct table {			/* results.csv read back, per point */
	struct series *r;
	size_t naxes;
	size_t nprim;		/* measured values: scalars and X_mean */
	int prim[SW_MAX_MEAS];
	char pname[SW_MAX_MEAS][40];
	size_t npoints;
	int *first;		/* per point: its first row, -1 none */
	double *mean, *ci;	/* npoints x nprim over the repeats */
	size_t *n;		/* repeats present per point */
	size_t maxpoint;
};

static void table_free(struct table *t)
{
	series_free(t->r);
	free(t->first);
	free(t->mean);
	free(t->ci);
	free(t->n);
}

static int table_load(struct session *s, const char *name, struct table *t,
		      char *dir, size_t dlen)
{
	char path[4300], **words = NULL;
	size_t c, i, p, k;
	int nw, rc;

	memset(t, 0, sizeof(*t));
	rc = read_definition(s, name, dir, dlen, &words, &nw, &t->naxes, NULL);
	cmd_argv_free(words);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	if (access(path, F_OK))
		return pcb_error(&s->err, PCB_E_NOENT, "sweep %s has no results "
				 "yet ('sweep resume %s')", name, name);
	rc = series_read_csv(&t->r, name, path, &s->err);
	if (rc)
		return rc;
	if (t->r->ncols < SW_FIXED_COLS + t->naxes + 1 || !t->naxes ||
	    strcmp(t->r->cols[0].name, "point"))
		return pcb_error(&s->err, PCB_E_PARSE, "sweep %s: '%s' is not "
				 "a sweep's results", name, path);
	for (c = SW_FIXED_COLS + t->naxes; c < t->r->ncols; c++) {
		const char *cn = t->r->cols[c].name;
		size_t l = strlen(cn);
		bool stat = false;

		for (k = 1; k < SW_NSTATS; k++) {	/* X_p50 beside X_mean */
			size_t sl = strlen(stat_names[k]);
			char mean[64];

			if (l > sl + 1 && cn[l - sl - 1] == '_' &&
			    !strcmp(cn + l - sl, stat_names[k])) {
				snprintf(mean, sizeof(mean), "%.*s_mean",
					 (int)(l - sl - 1), cn);
				stat |= series_col(t->r, mean) >= 0;
			}
		}
		if (stat || t->nprim == SW_MAX_MEAS)
			continue;
		t->prim[t->nprim] = (int)c;
		snprintf(t->pname[t->nprim], sizeof(t->pname[0]), "%s", cn);
		if (l > 5 && !strcmp(cn + l - 5, "_mean")) {	/* X_mean, X_p50 */
			char p50[64];

			snprintf(p50, sizeof(p50), "%.*s_p50", (int)l - 5, cn);
			if (series_col(t->r, p50) >= 0)
				t->pname[t->nprim][l - 5] = '\0';
		}
		t->nprim++;
	}
	for (i = 0; i < t->r->nrows; i++) {
		double v = series_at(t->r, i, 0);

		if (!(v >= 0 && v < SW_MAX_RUNS))
			return pcb_error(&s->err, PCB_E_PARSE, "sweep %s: bad "
					 "point number in '%s'", name, path);
		if ((size_t)v + 1 > t->npoints)
			t->npoints = (size_t)v + 1;
	}
	t->first = malloc((t->npoints + 1) * sizeof(*t->first));
	t->mean = calloc(t->npoints * t->nprim + 1, sizeof(double));
	t->ci = calloc(t->npoints * t->nprim + 1, sizeof(double));
	t->n = calloc(t->npoints + 1, sizeof(size_t));
	if (!t->first || !t->mean || !t->ci || !t->n)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	for (p = 0; p < t->npoints; p++)
		t->first[p] = -1;
	for (i = 0; i < t->r->nrows; i++) {
		p = (size_t)series_at(t->r, i, 0);
		if (t->first[p] < 0)
			t->first[p] = (int)i;
		t->n[p]++;
	}
	for (p = 0; p < t->npoints; p++)
		for (k = 0; k < t->nprim; k++) {
			double v[SW_MAX_REPEAT];
			size_t m = 0, used;

			for (i = (size_t)(t->first[p] < 0 ? 0 : t->first[p]);
			     t->first[p] >= 0 && i < t->r->nrows &&
			     m < SW_MAX_REPEAT; i++)
				if ((size_t)series_at(t->r, i, 0) == p)
					v[m++] = series_at(t->r, i,
							   (size_t)t->prim[k]);
			stats_ci95(v, m, &t->mean[p * t->nprim + k],
				   &t->ci[p * t->nprim + k], &used);
		}
	return 0;
}

/* A results column by name: exact, or a measure's mean. */
static int table_col(const struct table *t, const char *name)
{
	char nm[64];
	int c = series_col(t->r, name);
	size_t k;

	if (c < 0) {
		snprintf(nm, sizeof(nm), "%s_mean", name);
		c = series_col(t->r, nm);
	}
	for (k = 0; c >= 0 && k < t->nprim; k++)
		if (t->prim[k] == c)
			return (int)k;
	return c < 0 ? -1 : -2 - c;	/* a column that is not averaged */
}

/* The value of column `k` (table_col's answer) at point p. */
static double table_value(const struct table *t, size_t p, int k)
{
	if (k >= 0)
		return t->mean[p * t->nprim + (size_t)k];
	if (t->first[p] < 0)
		return NAN;
	return series_at(t->r, (size_t)t->first[p], (size_t)(-2 - k));
}

struct cond {
	int col;
	char op[3];
	double v;
};

static bool cond_holds(const struct table *t, size_t p, const struct cond *c)
{
	double x = table_value(t, p, c->col);

	if (isnan(x))
		return false;
	if (!strcmp(c->op, "<"))
		return x < c->v;
	if (!strcmp(c->op, "<="))
		return x <= c->v;
	if (!strcmp(c->op, ">"))
		return x > c->v;
	if (!strcmp(c->op, ">="))
		return x >= c->v;
	if (!strcmp(c->op, "="))
		return x == c->v;
	return x != c->v;
}

/* best min|max COL [where COL OP VALUE [and COL OP VALUE]...] */
static int parse_best(struct session *s, const struct table *t, int argc,
		      char **argv, bool *maximise, int *col,
		      struct cond *conds, size_t *nconds)
{
	static const char *const ops[] = { "<", "<=", ">", ">=", "=", "!=",
					   NULL };
	int i, k;
	char *end;

	*nconds = 0;
	if (argc < 3 || strcmp(argv[0], "best") ||
	    (strcmp(argv[1], "min") && strcmp(argv[1], "max")))
		return pcb_error(&s->err, PCB_E_USAGE, "usage: sweep show NAME "
				 "[best min|max COL [where COL OP VALUE [and "
				 "...]]]");
	*maximise = !strcmp(argv[1], "max");
	*col = table_col(t, argv[2]);
	if (*col == -1)
		return pcb_error(&s->err, PCB_E_NOENT, "sweep %s has no column "
				 "'%s'", t->r->name, argv[2]);
	for (i = 3; i < argc; i += 4) {
		struct cond *c = &conds[*nconds];

		if (i + 3 >= argc)
			return pcb_error(&s->err, PCB_E_USAGE, "sweep show: "
					 "'%s' needs COL OP VALUE", argv[i]);
		if (strcmp(argv[i], *nconds ? "and" : "where") ||
		    *nconds == 8)
			return pcb_error(&s->err, PCB_E_USAGE, "sweep show: "
					 "expected '%s', not '%s'",
					 *nconds ? "and" : "where", argv[i]);
		c->col = table_col(t, argv[i + 1]);
		if (c->col == -1)
			return pcb_error(&s->err, PCB_E_NOENT, "sweep %s has "
					 "no column '%s'", t->r->name,
					 argv[i + 1]);
		for (k = 0; ops[k] && strcmp(ops[k], argv[i + 2]); k++)
			;
		if (!ops[k])
			return pcb_error(&s->err, PCB_E_INVAL, "sweep show: "
					 "bad operator '%s' (< <= > >= = !=)",
					 argv[i + 2]);
		snprintf(c->op, sizeof(c->op), "%s", ops[k]);
		errno = 0;
		c->v = strtod(argv[i + 3], &end);
		if (end == argv[i + 3] || *end || errno)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep show: "
					 "'%s' is not a number", argv[i + 3]);
		(*nconds)++;
	}
	return 0;
}

static int cmd_sweep_show(struct session *s, int argc, char **argv)
{
	struct tbl_col cols[2 + SW_MAX_AXES + 2 * SW_MAX_MEAS + 1];
	char heads[2 * SW_MAX_MEAS][48], dir[4096];
	struct cond conds[8];
	struct table t;
	struct tbl tb;
	size_t nc = 0, k, p, nconds = 0, reps = 1;
	int best = -1, bcol = -1, rc;
	bool maximise = false, ci;

	rc = table_load(s, argv[0], &t, dir, sizeof(dir));
	if (!rc && argc > 1)
		rc = parse_best(s, &t, argc - 1, argv + 1, &maximise, &bcol,
				conds, &nconds);
	if (rc) {
		table_free(&t);
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
		double v = table_value(&t, p, bcol);
		size_t c;

		for (c = 0; c < nconds && cond_holds(&t, p, &conds[c]); c++)
			;
		if (c < nconds || isnan(v) || t.first[p] < 0)
			continue;
		if (best < 0 || (maximise ? v > table_value(&t, (size_t)best,
							     bcol) :
				 v < table_value(&t, (size_t)best, bcol)))
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
				table_value(&t, (size_t)best, bcol));
		}
	}
	table_free(&t);
	return 0;
}

static int cmp_x(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* plot.dat and the variables of plots/sweep.gp. One param: rows "x mean
 * ci ..." sorted by x.  Two: rows "i j mean ci ..." on the grid of value
 * indexes (a blank line between i), tics labelled with the values.
 */
static int sweep_plot(struct session *s, const char *name, const char *to)
{
	char dir[4096], dat[4300], gp[4300], tmpl[4096], q[4400];
	char *vars = NULL;
	double xs[2][SW_MAX_VALS];
	size_t nx[2] = { 0, 0 }, len, k, p, a, i, j;
	struct table t;
	FILE *fp = NULL, *vp = NULL;
	int rc;

	rc = table_load(s, name, &t, dir, sizeof(dir));
	if (!rc && t.naxes > 2)
		rc = pcb_error(&s->err, PCB_E_STATE, "sweep %s has %zu params; "
			       "a plot shows one (lines) or two (heatmap); "
			       "'sweep show %s' lists every point", name,
			       t.naxes, name);
	if (!rc && !t.r->nrows)
		rc = pcb_error(&s->err, PCB_E_STATE, "sweep %s: no results",
			       name);
	if (!rc)
		rc = pcb_data_file(tmpl, sizeof(tmpl), "plots/sweep.gp",
				   &s->err);
	if (rc) {
		table_free(&t);
		return rc;
	}
	/* the distinct values of each axis, ascending */
	for (a = 0; a < t.naxes; a++) {
		for (p = 0; p < t.npoints; p++) {
			double v;

			if (t.first[p] < 0)
				continue;
			v = series_at(t.r, (size_t)t.first[p], SW_FIXED_COLS + a);
			for (i = 0; i < nx[a] && xs[a][i] != v; i++)
				;
			if (i == nx[a] && nx[a] < SW_MAX_VALS)
				xs[a][nx[a]++] = v;
		}
		qsort(xs[a], nx[a], sizeof(double), cmp_x);
	}
	snprintf(dat, sizeof(dat), "%s/plot.dat", dir);
	snprintf(gp, sizeof(gp), "%s/plot.gp", dir);
	fp = fopen(dat, "w");
	if (!fp) {
		table_free(&t);
		return pcb_error(&s->err, PCB_E_IO, "cannot write '%s': %s",
				 dat, strerror(errno));
	}
	for (i = 0; i < nx[0]; i++) {
		for (j = 0; j < (t.naxes == 2 ? nx[1] : 1); j++) {
			for (p = 0; p < t.npoints; p++) {
				if (t.first[p] < 0 ||
				    series_at(t.r, (size_t)t.first[p],
					      SW_FIXED_COLS) != xs[0][i] ||
				    (t.naxes == 2 &&
				     series_at(t.r, (size_t)t.first[p],
					       SW_FIXED_COLS + 1) != xs[1][j]))
					continue;
				break;
			}
			if (t.naxes == 2)
				fprintf(fp, "%zu %zu", i, j);
			else
				fprintf(fp, "%.12g", xs[0][i]);
			for (k = 0; k < t.nprim; k++) {
				double m = p < t.npoints ?
					   t.mean[p * t.nprim + k] : NAN;
				double c = p < t.npoints ?
					   t.ci[p * t.nprim + k] : NAN;

				fprintf(fp, " %.9g %.9g", m, isnan(c) ? 0 : c);
			}
			fputc('\n', fp);
		}
		if (t.naxes == 2)
			fputc('\n', fp);
	}
	rc = ferror(fp);
	if (fclose(fp) || rc) {
		table_free(&t);
		return pcb_error(&s->err, PCB_E_IO, "cannot write '%s'", dat);
	}
	vp = open_memstream(&vars, &len);
	if (!vp) {
		table_free(&t);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	plot_quote(q, sizeof(q), dat);
	fprintf(vp, "datafile = %s\n", q);
	{
		char title[200];

		snprintf(title, sizeof(title), "sweep %s", name);
		plot_quote(q, sizeof(q), title);
		fprintf(vp, "plottitle = %s\n", q);
	}
	fprintf(vp, "naxes = %zu\nnames = '", t.naxes);
	for (k = 0; k < t.nprim; k++)
		fprintf(vp, "%s%s", k ? " " : "", t.pname[k]);
	fputs("'\nunits = '", vp);
	for (k = 0; k < t.nprim; k++)
		fprintf(vp, "%s%s", k ? " " : "",
			*t.r->cols[t.prim[k]].unit ? t.r->cols[t.prim[k]].unit :
			"-");
	fputs("'\n", vp);
	for (a = 0; a < t.naxes; a++) {
		const struct series_col *c = &t.r->cols[SW_FIXED_COLS + a];
		char lab[80];

		snprintf(lab, sizeof(lab), "%s%s%s%s", c->name,
			 *c->unit ? " (" : "", c->unit, *c->unit ? ")" : "");
		plot_quote(q, sizeof(q), lab);
		fprintf(vp, "%cname = %s\n", a ? 'y' : 'x', q);
		if (t.naxes == 2) {	/* tics at the grid indexes */
			fprintf(vp, "%ctics = \"(", a ? 'y' : 'x');
			for (i = 0; i < nx[a]; i++)
				fprintf(vp, "%s'%.6g' %zu", i ? ", " : "",
					xs[a][i], i);
			fputs(")\"\n", vp);
		}
	}
	rc = ferror(vp);
	if (fclose(vp) || rc) {
		free(vars);
		table_free(&t);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	rc = plot_render(s, to, vars, (int)t.nprim, tmpl, dat, gp);
	free(vars);
	table_free(&t);
	return rc;
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
	char **names = cmd_saved_names("sweeps", true);
	struct tbl t;
	size_t i, k;

	(void)argc;
	(void)argv;
	if (!names)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; names[i]; i++) {
		struct table tt;
		char dir[4096], params[256] = "";
		struct pcb_err keep = s->err;

		if (!table_load(s, names[i], &tt, dir, sizeof(dir))) {
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
		table_free(&tt);
		s->err = keep;	/* a sweep without results is skipped */
	}
	cmd_argv_free(names);
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	return 0;
}

static int cmd_sweep_drop(struct session *s, int argc, char **argv)
{
	char dir[4096], path[4200];

	(void)argc;
	if (sweeps_dir(s, argv[0], dir, sizeof(dir), false))
		return -s->err.code;
	snprintf(path, sizeof(path), "%s/sweep.args", dir);
	if (access(path, F_OK))
		return pcb_error(&s->err, PCB_E_NOENT, "no sweep '%s'", argv[0]);
	rm_tree(dir);
	if (!s->out.json)
		fprintf(s->out.fp, "sweep %s dropped\n", argv[0]);
	return 0;
}

const struct cmd_row cmd_sweep_verbs[] = {
	{ "run", cmd_sweep_run, NULL, 2, -1,
	  "PARAM FROM:TO:STEP|v1,v2,... [PARAM2 ...] [for DURATION] "
	  "[warmup DURATION] [every INTERVAL] [repeat N] [seeds S1,S2,...] "
	  "[jobs N] [measure COL,...] [scenario KIND KEY VALUE ...] "
	  "[while 'CMD ARGS'] [into NAME] [plot FILE.png] [shuffle]",
	  "sweep params over the cross product of their values; 'run' may "
	  "be left out",
	  "sweep ALPHA 0.05:0.5:0.05 for 10ms measure avg_rtt,util,queue_p99 "
	  "plot /tmp/alpha.png", CMD_FALLBACK | CMD_WRITES | CMD_DEVICE },
	{ "resume", cmd_sweep_resume, NULL, 1, 1, "NAME",
	  "run what an interrupted sweep has not finished",
	  "sweep resume sweep1", CMD_WRITES | CMD_DEVICE },
	{ "show", cmd_sweep_show, NULL, 1, 40,
	  "NAME [best min|max COL [where COL OP VALUE [and ...]]]",
	  "each point's mean over repeats (with 95 % intervals), the best "
	  "point marked",
	  "sweep show sweep1 best min avg_rtt where util > 0.95", 0 },
	{ "plot", cmd_sweep_plot, NULL, 1, 3, "NAME [to FILE.png|FILE.svg]",
	  "each measure against the param (with 95 % intervals), or a "
	  "heatmap for two params", "sweep plot sweep1 to /tmp/sweep1.png",
	  0 },
	{ "list", cmd_sweep_list, NULL, 0, 0, "", "saved sweeps",
	  "sweep list", CMD_DEFAULT },
	{ "drop", cmd_sweep_drop, NULL, 1, 1, "NAME",
	  "delete a sweep and its results", "sweep drop sweep1", 0 },
	{ NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, 0 }
};
