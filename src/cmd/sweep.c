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
 * Results: $XDG_DATA_HOME/pccbench/sweeps/NAME/ (0700) holds results.csv
 * (one row per point and repeat, in plan order, rewritten after every run
 * so an interrupted sweep resumes), meta.json, and sweep.args (the
 * definition, one word per line, with the scenario made explicit) for
 * `sweep resume`.  Every file is written through a temp file renamed over
 * it and read only when it is a regular file (fsafe.h): a link or a FIFO
 * planted there is replaced or refused, never followed.  What is read back
 * is checked whole against the definition (counts, ranges, names, every
 * row) before it is used: a damaged file is one error naming it.
 *
 * Workers: at most SW_MAX_JOBS, by default as many as the CPUs online (and
 * no more than runs).  Their scratch devices live in
 * $XDG_CACHE_HOME/pccbench/sweep/PID/, removed at the end; those of a
 * pccbench that was killed are removed by the next sim sweep.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "axis.h"
#include "cmd.h"
#include "paths.h"
#include "rec/recorder.h"
#include "rec/series.h"
#include "rec/stats.h"
#include "device.h"
#include "units.h"

#define SW_MAX_AXES	4
#define SW_MAX_VALS	1000
#define SW_MAX_RUNS	10000
#define SW_MAX_REPEAT	100
#define SW_MAX_MEAS	16
#define SW_MAX_ARGS	200
#define SW_MAX_JOBS	256	/* worker processes (said in the help) */
#define SW_ARGS_MAX	65536	/* bytes of sweep.args */
#define SW_WORD_MAX	4096	/* bytes of one of its words */
#define SW_FIXED_COLS	3	/* point, repeat, seed */
#define SW_STR_(x)	#x
#define SW_STR(x)	SW_STR_(x)

/* Window measures a replaying device computes itself: its summary
 * (device.h, DEV_S_*).
 */
#define S_COUNT DEV_S_COUNT
#define scalar_cols dev_summary_cols
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

struct sdef;

struct plan {
	char name[64], dir[4096];
	bool replay;		/* the device replays a workload from a seed:
				 * runs start afresh, in worker processes */
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
	char **targv;		/* the `while` command, or NULL */
	char plot[4096];
	bool shuffle;
	char *args[SW_MAX_ARGS];	/* the definition, saved */
	int nargs;
	struct series *res;	/* the columns */
	double *rows;		/* nruns x ncols */
	bool *done;
	size_t ndone;
	size_t ndone0;		/* done before this session (resume) */
	double sim_s;		/* the runs' wall time in the workload */
	const struct sdef *def;	/* resume: sweep.args read back */
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
	words_free(pl->targv);
	series_free(pl->res);
	free(pl->rows);
	free(pl->done);
	free(pl);
}

static int sweeps_dir(struct session *s, const char *name, char *buf,
		      size_t len, bool create)
{
	return store_path(s, "sweep", "sweeps", name, "", create, buf,
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

/* The values of "FROM:TO:STEP" or "v1,v2,..." as texts, not yet parsed
 * for a param (so a saved definition is checked without a device).
 */
static int axis_texts(struct pcb_err *err, const char *name,
		      const char *spec, char (*texts)[48], size_t *np)
{
	char buf[4096], *w, *save;
	size_t i, n = 0;

	*np = 0;
	if (strlen(spec) >= sizeof(buf))
		return pcb_error(err, PCB_E_RANGE, "sweep: %s: the values are "
				 "longer than %zu characters", name,
				 sizeof(buf) - 1);
	if (strchr(spec, ':')) {
		double x[3], vals[SW_MAX_VALS];
		const char *u[3], *unit = "";
		char part[3][64];

		if (sscanf(spec, "%63[^:]:%63[^:]:%63s", part[0], part[1],
			   part[2]) != 3 || strchr(part[2], ':'))
			return pcb_error(err, PCB_E_INVAL, "sweep: %s: bad "
					 "range '%s' (FROM:TO:STEP, e.g. "
					 "0.05:0.5:0.05)", name, spec);
		for (i = 0; i < 3; i++) {
			if (split_number(part[i], &x[i], &u[i]))
				return pcb_error(err, PCB_E_INVAL, "sweep: %s: "
						 "'%s' is not a number", name,
						 part[i]);
			if (*u[i] && *unit && strcmp(u[i], unit))
				return pcb_error(err, PCB_E_INVAL, "sweep: %s: "
						 "one unit for the range, not "
						 "'%s' and '%s'", name, unit,
						 u[i]);
			if (*u[i])
				unit = u[i];
		}
		n = stats_range(x[0], x[1], x[2], vals, SW_MAX_VALS);
		if (!n)
			return pcb_error(err, PCB_E_RANGE, "sweep: %s: range "
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
				return pcb_error(err, PCB_E_RANGE, "sweep: %s: "
						 "more than %d values", name,
						 SW_MAX_VALS);
			snprintf(texts[n++], sizeof(texts[0]), "%s", w);
		}
		if (!n)
			return pcb_error(err, PCB_E_INVAL, "sweep: %s: no "
					 "values", name);
	}
	*np = n;
	return 0;
}

/* One axis from "FROM:TO:STEP" or "v1,v2,...": every value parsed as
 * `param set` parses it and checked against the device's range.
 */
static int parse_axis(struct session *s, struct axis *a, const char *spec)
{
	const char *name = a->p->info.name;
	char texts[SW_MAX_VALS][48];
	size_t i, n;
	int rc = axis_texts(&s->err, name, spec, texts, &n);

	if (rc)
		return rc;
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

/* A count from 1 to max, all digits; what: "worker processes". */
static int parse_count(struct pcb_err *err, const char *key, const char *val,
		       unsigned long max, const char *what, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(val, &end, 10);
	if (*val < '0' || *val > '9' || *end || errno || *out < 1 ||
	    *out > max)
		return pcb_error(err, PCB_E_RANGE, "sweep: %s '%s': 1 to %lu "
				 "%s", key, val, max, what);
	return 0;
}

/* "a,b,c" into m[]; real: a real NIC's sweep (no sim measures). */
static int parse_measures(struct pcb_err *err, bool replay, const char *list,
			  struct measure *ms, size_t *nm)
{
	char buf[1024], *w, *save;
	size_t i;

	if (strlen(list) >= sizeof(buf))
		return pcb_error(err, PCB_E_RANGE, "sweep: the measure list is "
				 "longer than %zu characters", sizeof(buf) - 1);
	snprintf(buf, sizeof(buf), "%s", list);
	*nm = 0;
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		struct measure m = { -1, -1 };

		for (i = 0; i < S_COUNT; i++)
			if (!strcmp(w, scalar_cols[i].name))
				m.scalar = (int)i;
		for (i = 1; i < REC_C_FIXED; i++)
			if (!strcmp(w, rec_fixed_cols[i].name))
				m.col = (int)i;
		if (m.scalar < 0 && m.col < 0)
			return pcb_error(err, PCB_E_INVAL, "sweep: cannot "
					 "measure '%s' (the timeline's avg_rtt"
					 ", cnp_handled, rx_gbps, ...; on the "
					 "sim also util, jain, queue_mean, "
					 "queue_p99, queue_max, rtt_mean, "
					 "rtt_p99, rtos)", w);
		if (m.scalar >= 0 && !replay)
			return pcb_error(err, PCB_E_INVAL, "sweep: '%s' is "
					 "the simulator's own measure; a real "
					 "NIC gives the timeline columns", w);
		for (i = 0; i < *nm; i++)
			if (ms[i].scalar == m.scalar && ms[i].col == m.col)
				return pcb_error(err, PCB_E_INVAL, "sweep: "
						 "'%s' measured twice", w);
		if (*nm == SW_MAX_MEAS)
			return pcb_error(err, PCB_E_RANGE, "sweep: more than "
					 "%d measures", SW_MAX_MEAS);
		ms[(*nm)++] = m;
	}
	if (!*nm)
		return pcb_error(err, PCB_E_INVAL, "sweep: measure what?");
	return 0;
}

static const char *measure_name(const struct measure *m)
{
	return m->scalar >= 0 ? scalar_cols[m->scalar].name :
				rec_fixed_cols[m->col].name;
}

/* The results columns of a measure: its name (a sim scalar) or NAME_mean,
 * NAME_p50, ... (a timeline column); how many.
 */
static size_t measure_cols(const struct measure *m, char (*names)[48],
			   const char **unit)
{
	size_t k;

	if (m->scalar >= 0) {
		snprintf(names[0], sizeof(names[0]), "%s",
			 scalar_cols[m->scalar].name);
		*unit = scalar_cols[m->scalar].unit;
		return 1;
	}
	for (k = 0; k < SW_NSTATS; k++)
		snprintf(names[k], sizeof(names[0]), "%s_%s",
			 rec_fixed_cols[m->col].name, stat_names[k]);
	*unit = rec_fixed_cols[m->col].unit;
	return SW_NSTATS;
}

/* Counter-based timeline columns need the algorithm's counters. */
static bool needs_counters(const struct measure *m)
{
	return m->col >= REC_C_AVG_RTT && m->col <= REC_C_TXDEC;
}

/* A word of the definition, as sweep.args holds it (def_load's rules). */
static int save_word(struct session *s, struct plan *pl, const char *w)
{
	const char *c;

	if (pl->nargs == SW_MAX_ARGS)
		return pcb_error(&s->err, PCB_E_RANGE, "sweep: more than %d "
				 "words", SW_MAX_ARGS);
	if (!*w || *w == '#' || strlen(w) >= SW_WORD_MAX)
		return pcb_error(&s->err, PCB_E_INVAL, "sweep: a word is "
				 "empty, starts with '#' or is longer than %d "
				 "characters", SW_WORD_MAX - 1);
	for (c = w; *c; c++)
		if ((*c > 0 && *c < ' ' && *c != '\t') || *c == 0x7f)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: a word "
					 "with a control character");
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
		char nm[SW_NSTATS][48];
		const char *unit;
		size_t n = measure_cols(&pl->m[i], nm, &unit);

		for (k = 0; k < n; k++)
			bad |= series_add_col(r, nm[k], unit);
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
	uint64_t seed0 = 0;
	bool have_for = false;
	int i, rc, k;
	size_t n;

	pl->jobs = 1;
	rc = sess_device(s);
	if (rc)
		return rc;
	pl->replay = (dev_traits(s) & DEV_T_REPLAY) != 0;
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
			rc = parse_count(&s->err, key, val, SW_MAX_REPEAT,
					 "repeats", &repeat);
			if (rc)
				return rc;
		} else if (!strcmp(key, "jobs")) {
			rc = parse_count(&s->err, key, val, SW_MAX_JOBS,
					 "worker processes", &jobs);
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
			words_free(pl->targv);
			rc = words_command(&s->err, "sweep", val, &pl->targv);
			if (rc)
				return rc;
		} else if (!strcmp(key, "scenario")) {
			/* KIND then key value pairs up to a sweep keyword */
			pl->scen = argv + i;
			for (pl->nscen = 1; i + 1 < argc &&
			     !is_keyword(argv[i + 1]); i++)
				pl->nscen++;
			rc = dev_workload_check(pl->nscen, pl->scen, &seed0,
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
	if (!pl->replay) {
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

			rc = dev_workload(s, line, sizeof(line), &seed0);
			if (!rc)
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
		if (jobs) {
			pl->jobs = (unsigned)jobs;
		} else {	/* the CPUs, capped */
			long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

			pl->jobs = ncpu < 1 ? 1 : ncpu > SW_MAX_JOBS ?
				   SW_MAX_JOBS : (unsigned)ncpu;
		}
	}
	if (!pl->dur)
		pl->dur = 10 * PS_PER_MS;
	if (!pl->every) {	/* about 200 intervals, at least 10 us */
		pl->every = pl->dur / 200;
		if (pl->every < 10 * PS_PER_US)
			pl->every = 10 * PS_PER_US;
		if (!pl->replay && pl->every < 100 * PS_PER_MS)
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
			pl->seeds[n] = pl->replay ? seed0 + n : 0;
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
		measure = !pl->replay ? "avg_rtt,max_rtt,dec,hai" :
			  k >= 0 ? "avg_rtt,util,queue_p99,cnp_handled" :
				   "rtt_mean,util,queue_p99,cnp_handled";
	}
	rc = parse_measures(&s->err, pl->replay, measure, pl->m, &pl->nmeas);
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
	}
	{	/* the canonical list: a,b,c (16 names of < 24 chars) */
		char list[SW_MAX_MEAS * 24] = "";

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
			struct stat st;

			snprintf(pl->name, sizeof(pl->name), "sweep%zu", n);
			rc = sweeps_dir(s, pl->name, pl->dir, sizeof(pl->dir),
					false);
			if (rc)
				return rc;
			if (lstat(pl->dir, &st))	/* nothing there */
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
static int summarise(struct session *s, const struct plan *pl,
		     const struct series *ser, const struct recorder *rec,
		     double *v)
{
	double x[S_COUNT];
	size_t i, o = 0;

	for (i = 0; i < S_COUNT; i++)
		x[i] = NAN;
	for (i = 0; i < pl->nmeas; i++)
		if (pl->m[i].scalar >= 0) {
			int rc = dev_summary(s, x);

			if (rc)
				return rc;
			break;
		}
	for (i = 0; i < pl->nmeas; i++) {
		const struct measure *m = &pl->m[i];
		double *col;
		struct stats st;

		if (m->scalar >= 0) {
			v[o++] = x[m->scalar];
			continue;
		}
		col = series_column(ser, (size_t)m->col);
		if (!col || stats_summary(col, ser->nrows, &st)) {
			free(col);
			return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
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
	row[2] = pl->replay ? (double)pl->seeds[run % pl->repeat] : NAN;
	for (k = 0; k < pl->naxes; k++)
		row[SW_FIXED_COLS + k] = pl->ax[k].real[idx[k]];
	memcpy(row + SW_FIXED_COLS + pl->naxes, v,
	       (nc - SW_FIXED_COLS - pl->naxes) * sizeof(double));
	if (!pl->done[run])
		pl->ndone++;
	pl->done[run] = true;
}

/* results.csv: the finished runs in plan order (whatever order they ran
 * in), written whole to a temporary file and renamed over (by
 * series_write_csv, through fsafe.h).
 */
static int save_results(struct session *s, struct plan *pl)
{
	struct series *t = series_new(pl->name);
	char path[4200];
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
	if (!rc)
		rc = series_write_csv(t, path, &s->err);
	series_free(t);
	return rc;
}

/* sweep.args (read back by def_load): a comment, "#axes N", "#fixed
 * INDEX VALUE" per param of the slot, then the words.
 */
static int save_definition(struct session *s, struct plan *pl,
			   const uint32_t *vals, size_t n)
{
	char path[4200];
	struct pcb_wfile w;
	size_t k;
	int i, rc;

	snprintf(path, sizeof(path), "%s/sweep.args", pl->dir);
	rc = pcb_wfile_open(&w, path, PCB_MODE_DATA, &s->err);
	if (rc)
		return rc;
	fprintf(w.fp, "# pccbench %s sweep on %s: one word per line\n"
		"#axes %zu\n", PCCB_VERSION, s->devname, pl->naxes);
	for (k = 0; k < n; k++)		/* the slot's values at the start */
		fprintf(w.fp, "#fixed %zu %u\n", k, vals[k]);
	for (i = 0; i < pl->nargs; i++)
		fprintf(w.fp, "%s\n", pl->args[i]);
	return pcb_wfile_commit(&w, &s->err);
}

static int save_meta(struct session *s, struct plan *pl, time_t start,
		     double wall, const char *status)
{
	char path[4200], v[40];
	struct pcb_wfile w;
	size_t k, i;
	FILE *fp;
	int rc;

	snprintf(path, sizeof(path), "%s/meta.json", pl->dir);
	rc = store_meta_open(s, &w, path, "sweep", pl->name, start);
	if (rc)
		return rc;
	fp = w.fp;
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
	if (pl->replay) {
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
	store_meta_algo(s, fp);	/* the fixed params: the device's */
	fputs(",\"args\":[", fp);
	for (i = 0; i < (size_t)pl->nargs; i++) {
		fputs(i ? "," : "", fp);
		out_json_string(fp, pl->args[i]);
	}
	fputs("]", fp);
	return store_meta_close(s, &w);
}

/* ---- running on the sim: workers on copies of the device ---------------- */

/* A device file into a worker's private, new directory: the source must
 * be a regular file (none: the device's defaults, nothing to copy), the
 * copy is created, never opened through whatever is there.
 */
static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* rm -r that never follows a link (a link is removed, not what it names). */
static void rm_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The scratch directories a killed pccbench could not remove: in the
 * cache's sweep/, each real directory (not a link) of ours named by a pid
 * whose process is gone (kill(pid, 0) fails with ESRCH).  A live
 * process's, whoever it is, is left alone.
 */
static void remove_stale(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *de;
	char path[4400];

	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		struct stat st;
		char *end;
		long pid;

		if (*n < '1' || *n > '9')
			continue;
		errno = 0;
		pid = strtol(n, &end, 10);
		if (*end || errno || pid > INT_MAX || pid == (long)getpid())
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, n) >=
		    sizeof(path))
			continue;
		if (lstat(path, &st) || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid())
			continue;
		if (!kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		rm_tree(path);
	}
	closedir(d);
}

/* A worker's device: a private state directory holding a copy of the
 * device's state, found there through XDG_STATE_HOME.
 */
static int worker_device(struct session *s, const char *dir)
{
	int rc = dev_copy(s, dir);

	if (!rc)
		setenv("XDG_STATE_HOME", dir, 1);
	return rc;
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
	int64_t done;
	double t0;
	/* the sweep's scenario (checked by the parent) */
	int rc = dev_replay(cs, pl->nscen, pl->scen,
			    pl->seeds[run % pl->repeat]);

	if (rc)
		return rc;
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
	rc = rec_open(&r, cs, NULL, 0, true, -1);
	if (!rc)
		rc = rec_columns(&r, ser);
	if (!rc && pl->warmup)
		rc = dev_run(cs, pl->warmup, true);
	if (!rc)
		rc = rec_capture(&r, ser, pl->dur, pl->every, NULL, &done);
	msg->sim_s = pcb_mono_s() - t0;
	if (!rc)
		rc = summarise(cs, pl, ser, &r, msg->v);
	rec_close(&r);
	series_free(ser);
	return rc;
}

static ssize_t sink_write(void *cookie, const char *buf, size_t len)
{
	(void)cookie;
	(void)buf;
	return (ssize_t)len;
}

/* A worker process: set up its device once, then run what the parent
 * sends (run numbers on `in`) and answer each with a wmsg on `out`, until
 * `in` closes.  What it would print goes nowhere (a stream that opens no
 * file).  Never returns.
 */
static void worker(struct session *s, struct plan *pl, const char *dir,
		   int in, int out)
{
	FILE *null = fopencookie(NULL, "w", (cookie_io_functions_t){
		.write = sink_write });
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
	pid_t pid;		/* > 0: a worker this process forked */
	int in, out;		/* to it, from it */
	long run;		/* -1: idle */
};

/* n of N runs, the time so far and, from this session's pace, the time
 * still to go.
 */
static void progress(struct session *s, const struct plan *pl, double t0,
		     bool final)
{
	double el = pcb_mono_s() - t0;
	size_t now = pl->ndone - pl->ndone0;

	if (!isatty(STDERR_FILENO) || s->out.json)
		return;
	fprintf(stderr, "\rsweep %s: %zu of %zu runs, %.1f s", pl->name,
		pl->ndone, pl->nruns, el);
	if (!final && now && pl->ndone < pl->nruns)
		fprintf(stderr, ", about %.0f s left ", el * (double)(pl->nruns -
			pl->ndone) / (double)now + 0.5);
	fputs(final ? "\n" : "", stderr);
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
		if (kill_them && jobs[i].pid > 0)	/* never 0 or -1 */
			kill(jobs[i].pid, SIGKILL);
	}
	for (i = 0; i < nj; i++) {
		close(jobs[i].out);
		if (jobs[i].pid > 0)
			waitpid(jobs[i].pid, NULL, 0);
	}
}

static int run_replay(struct session *s, struct plan *pl, double t0)
{
	struct job *jobs = calloc(pl->jobs, sizeof(*jobs));
	struct pollfd *pfd = calloc(pl->jobs, sizeof(*pfd));
	unsigned *idx = calloc(pl->jobs, sizeof(*idx));
	struct sigaction ign, old_pipe;
	char root[4200], dir[4300];
	size_t *order = run_order(pl), next = 0;
	unsigned nj = 0, nbusy = 0, i;
	bool have_root = false;
	int rc;

	if (!order || !jobs || !pfd || !idx) {
		free(order);
		free(jobs);
		free(pfd);
		free(idx);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	rc = pcb_user_dir(root, sizeof(root), PCB_DIR_CACHE, "sweep", true,
			  &s->err);
	if (!rc) {
		size_t l = strlen(root);

		remove_stale(root);
		snprintf(root + l, sizeof(root) - l, "/%ld", (long)getpid());
		rm_tree(root);
		if (mkdir(root, 0700))
			rc = pcb_error(&s->err, PCB_E_IO, "cannot create '%s': "
				       "%s", root, strerror(errno));
		have_root = !rc;
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
		unsigned np = 0;

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
	if (have_root)
		rm_tree(root);
	free(order);
	free(jobs);
	free(pfd);
	free(idx);
	return rc;
}

/* ---- running on a real NIC ---------------------------------------------- */

static int run_live(struct session *s, struct plan *pl, const uint32_t *orig,
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
	if (pl->targv) {	/* a file of ours (not a link) before use */
		int fd = pcb_open_rw(log, O_CREAT | O_APPEND, PCB_MODE_DATA,
				     &s->err);

		if (fd < 0) {
			free(order);
			return fd;
		}
		close(fd);
	}
	rc = rec_open(&r, s, NULL, 0, true, -1);
	s->yes = true;		/* confirmed once, with the plan */
	for (i = 0; !rc && i < pl->nruns; i++) {
		size_t run = order[i];
		struct series *ser;
		bool traffic = false;
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
		if (!rc && pl->targv) {
			rc = dev_traffic_start(s, pl->targv, log);
			traffic = !rc;
		}
		t1 = pcb_mono_s();
		if (!rc && pl->warmup)
			rc = dev_run(s, pl->warmup, true);
		if (!rc)
			rc = rec_capture(&r, ser, pl->dur, pl->every, NULL,
					 &done);
		pl->sim_s += pcb_mono_s() - t1;
		if (traffic)
			rc = dev_traffic_stop(s, rc);
		if (!rc)
			rc = summarise(s, pl, ser, &r, v);
		series_free(ser);
		if (rc)
			break;
		store_run(pl, run, v);
		rc = save_results(s, pl);
		progress(s, pl, t0, false);
	}
	progress(s, pl, t0, true);
	free(order);
	rec_close(&r);
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
	fprintf(s->out.fp, "%s recorded", pcb_format_duration(pl->dur, v, sizeof(v)));
	fprintf(s->out.fp, " every %s\n", pcb_format_duration(pl->every, v, sizeof(v)));
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
			measure_name(&pl->m[k]));
	fprintf(s->out.fp, "\n  %-14s %u%s; about %.1f s\n", "jobs", pl->jobs,
		!pl->replay ? " (a real NIC: one point at a time)" :
			   " worker processes, each on a copy of the device",
		estimate_s(pl));
}

/* ---- a saved sweep read back: sweep.args, results.csv -------------------- */

/* sweep.args checked whole, without a device: its lines, then its words
 * as plan_parse would take them (counts and durations parsed, the value
 * lists counted, the measures and the scenario known).  Anything else is
 * an error naming the file: a damaged definition is never guessed at.
 */
struct sdef {
	char path[4300];		/* sweep.args, named in messages */
	char **words;			/* NULL-terminated, owned */
	int nwords;
	size_t naxes;
	const char *axis[SW_MAX_AXES];	/* the params' names, in words */
	size_t npoints, repeat;
	bool have_seeds;		/* seeds[] is what the rows must say */
	uint64_t seeds[SW_MAX_REPEAT];
	size_t nmeas;
	struct measure m[SW_MAX_MEAS];
	int64_t fixed[ALGO_MAX_PARAMS];	/* the slot at the start, or -1 */
};

static void def_release(struct sdef *d)
{
	words_free(d->words);
	d->words = NULL;
	d->nwords = 0;
}

/* "'PATH' line N: what" (line 0: no line) as a PCB_E_CORRUPT error. */
static int __attribute__((format(printf, 4, 5)))
file_bad(struct session *s, const char *path, size_t line, const char *fmt,
	 ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (line)
		return pcb_error(&s->err, PCB_E_CORRUPT, "'%s' line %zu: %s",
				 path, line, what);
	return pcb_error(&s->err, PCB_E_CORRUPT, "'%s': %s", path, what);
}

/* The error a parser left in s->err, as one about the file. */
static int file_rewrap(struct session *s, const char *path)
{
	char msg[sizeof(s->err.msg)];
	const char *m = s->err.msg;

	if (!strncmp(m, "sweep: ", 7))
		m += 7;
	snprintf(msg, sizeof(msg), "%s", m);
	pcb_err_reset(&s->err);
	return file_bad(s, path, 0, "%s", msg);
}

/* Digits only, no sign or space, at most max. */
static int parse_digits(const char *t, const char **end, uint64_t max,
			uint64_t *v)
{
	*v = 0;
	if (*t < '0' || *t > '9')
		return -1;
	for (; *t >= '0' && *t <= '9'; t++) {
		uint64_t dg = (uint64_t)(*t - '0');

		if (dg > max || *v > (max - dg) / 10)
			return -1;
		*v = *v * 10 + dg;
	}
	*end = t;
	return 0;
}

/* The lines: "# comment", "#axes N" once, "#fixed INDEX VALUE", words. */
static int def_lines(struct session *s, struct sdef *d, char *buf, size_t len)
{
	size_t line = 0, i;
	bool have_axes = false;
	char *p = buf, *nl;

	if (!len)
		return file_bad(s, d->path, 0, "the file is empty");
	if (buf[len - 1] != '\n')
		return file_bad(s, d->path, 0, "the last line is cut short");
	for (; p < buf + len; p = nl + 1) {
		const char *end;
		uint64_t a, b;
		char **nv;

		nl = memchr(p, '\n', (size_t)(buf + len - p));
		*nl = '\0';
		line++;
		for (i = 0; p + i < nl; i++)
			if ((unsigned char)p[i] < ' ' ? p[i] != '\t' :
			    p[i] == 0x7f)
				return file_bad(s, d->path, line, "a control "
						"character or a NUL byte");
		if ((size_t)(nl - p) >= SW_WORD_MAX)
			return file_bad(s, d->path, line, "longer than %d "
					"characters", SW_WORD_MAX - 1);
		if (!*p)
			return file_bad(s, d->path, line, "an empty line");
		if (p[0] == '#' && p[1] == ' ')
			continue;
		if (!strncmp(p, "#axes ", 6)) {
			if (have_axes || parse_digits(p + 6, &end, SW_MAX_AXES,
						      &a) || *end || !a)
				return file_bad(s, d->path, line, "'#axes' "
						"must be given once, 1 to %d",
						SW_MAX_AXES);
			d->naxes = (size_t)a;
			have_axes = true;
			continue;
		}
		if (!strncmp(p, "#fixed ", 7)) {
			if (parse_digits(p + 7, &end, ALGO_MAX_PARAMS - 1,
					 &a) || *end != ' ' ||
			    parse_digits(end + 1, &end, UINT32_MAX, &b) ||
			    *end || d->fixed[a] >= 0)
				return file_bad(s, d->path, line, "'#fixed' "
						"needs a param index below %d "
						"(once) and a 32-bit value",
						ALGO_MAX_PARAMS);
			d->fixed[a] = (int64_t)b;
			continue;
		}
		if (p[0] == '#')
			return file_bad(s, d->path, line, "an unknown '#' "
					"line");
		if (d->nwords == SW_MAX_ARGS)
			return file_bad(s, d->path, line, "more than %d words",
					SW_MAX_ARGS);
		nv = realloc(d->words, (size_t)(d->nwords + 2) * sizeof(*nv));
		if (!nv)
			return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		d->words = nv;
		d->words[d->nwords] = strdup(p);
		d->words[d->nwords + 1] = NULL;	/* stays a list */
		if (!d->words[d->nwords])
			return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		d->nwords++;
	}
	if (!have_axes)
		return file_bad(s, d->path, 0, "no '#axes' line");
	if (!d->nwords)
		return file_bad(s, d->path, 0, "no definition (no words)");
	return 0;
}

/* The words: PARAM VALUES pairs (as many as #axes), then the keywords. */
static int def_words(struct session *s, struct sdef *d)
{
	char **w = d->words, (*texts)[48] = NULL;
	unsigned long repeat = 0, ul;
	size_t nax = 0, nseeds = 0, n, k;
	bool have_measure = false;
	int i, rc = 0;

	texts = malloc(SW_MAX_VALS * sizeof(*texts));
	if (!texts)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	d->npoints = 1;
	for (i = 0; !rc && i < d->nwords && !is_keyword(w[i]); i += 2) {
		if (nax == SW_MAX_AXES || nax == d->naxes) {
			rc = file_bad(s, d->path, 0, "'#axes %zu' but more "
				      "params than that", d->naxes);
			break;
		}
		if (!series_name_ok(w[i])) {
			rc = file_bad(s, d->path, 0, "'%.40s' is not a param "
				      "name", w[i]);
			break;
		}
		for (k = 0; k < nax; k++)
			if (!strcmp(d->axis[k], w[i]))
				rc = file_bad(s, d->path, 0, "%s swept twice",
					      w[i]);
		if (!rc && (i + 1 >= d->nwords || is_keyword(w[i + 1])))
			rc = file_bad(s, d->path, 0, "%s has no values", w[i]);
		if (!rc && axis_texts(&s->err, w[i], w[i + 1], texts, &n))
			rc = file_rewrap(s, d->path);
		if (rc)
			break;
		d->axis[nax++] = w[i];
		d->npoints *= n;
		if (d->npoints > SW_MAX_RUNS)
			rc = file_bad(s, d->path, 0, "more than %d points",
				      SW_MAX_RUNS);
	}
	free(texts);
	if (!rc && nax != d->naxes)
		rc = file_bad(s, d->path, 0, "'#axes %zu' but %zu param%s",
			      d->naxes, nax, nax == 1 ? "" : "s");
	for (; !rc && i < d->nwords; i++) {
		const char *key = w[i], *val = w[i + 1];
		int64_t ps;

		if (!is_keyword(key) || !strcmp(key, "into") ||
		    !strcmp(key, "plot")) {
			rc = file_bad(s, d->path, 0, "'%.40s' where a keyword "
				      "belongs", key);
			break;
		}
		if (!strcmp(key, "shuffle"))
			continue;
		if (!val) {
			rc = file_bad(s, d->path, 0, "'%s' without a value",
				      key);
			break;
		}
		i++;
		if (!strcmp(key, "for") || !strcmp(key, "warmup") ||
		    !strcmp(key, "every")) {
			if (pcb_parse_duration_ps(val, -1, &ps) ||
			    (ps < 1000000 && key[0] != 'w'))
				rc = file_bad(s, d->path, 0, "bad %s '%.40s'",
					      key, val);
		} else if (!strcmp(key, "repeat")) {
			if (parse_count(&s->err, key, val, SW_MAX_REPEAT,
					"repeats", &repeat))
				rc = file_rewrap(s, d->path);
		} else if (!strcmp(key, "jobs")) {
			if (parse_count(&s->err, key, val, SW_MAX_JOBS,
					"worker processes", &ul))
				rc = file_rewrap(s, d->path);
		} else if (!strcmp(key, "seeds")) {
			const char *t = val, *end;

			for (nseeds = 0; !rc; t = end + 1) {
				if (nseeds == SW_MAX_REPEAT ||
				    parse_digits(t, &end, UINT64_MAX,
						 &d->seeds[nseeds]) ||
				    (*end && *end != ',')) {
					rc = file_bad(s, d->path, 0, "bad "
						      "seeds '%.40s' (1 to %d "
						      "whole numbers)", val,
						      SW_MAX_REPEAT);
					break;
				}
				nseeds++;
				if (!*end)
					break;
			}
			d->have_seeds = !rc;
		} else if (!strcmp(key, "measure")) {
			if (parse_measures(&s->err, true, val, d->m,
					   &d->nmeas))
				rc = file_rewrap(s, d->path);
			have_measure = true;
		} else if (!strcmp(key, "scenario")) {
			uint64_t seed;
			int ns;

			for (ns = 1; i + ns < d->nwords &&
			     !is_keyword(w[i + ns]); ns++)
				;
			if (dev_workload_check(ns, w + i, &seed, &s->err))
				rc = file_rewrap(s, d->path);
			i += ns - 1;
		}			/* while: the command, run as it is */
	}
	if (!rc && !have_measure)
		rc = file_bad(s, d->path, 0, "no 'measure'");
	if (!rc && d->have_seeds && repeat && repeat != nseeds)
		rc = file_bad(s, d->path, 0, "repeat %lu but %zu seeds",
			      repeat, nseeds);
	if (rc)
		return rc;
	d->repeat = d->have_seeds ? nseeds : repeat ? repeat : 1;
	if (d->npoints * d->repeat > SW_MAX_RUNS)
		return file_bad(s, d->path, 0, "more than %d runs",
				SW_MAX_RUNS);
	return 0;
}

/* sweep NAME's definition; dir gets the sweep's directory.  No sweep
 * there: -PCB_E_NOENT; a damaged one: -PCB_E_CORRUPT naming the file.
 */
static int def_load(struct session *s, const char *name, char *dir,
		    size_t dlen, struct sdef *d)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0, i;
	int rc;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < ALGO_MAX_PARAMS; i++)
		d->fixed[i] = -1;
	rc = sweeps_dir(s, name, dir, dlen, false);
	if (rc)
		return rc;
	if (lstat(dir, &st) && errno == ENOENT)
		return pcb_error(&s->err, PCB_E_NOENT, "no sweep '%s' ('sweep "
				 "list')", name);
	rc = pcb_check_dir(dir, &s->err);
	if (rc)
		return rc;
	snprintf(d->path, sizeof(d->path), "%s/sweep.args", dir);
	rc = pcb_read_file(d->path, SW_ARGS_MAX, &buf, &len, &s->err);
	if (rc == -PCB_E_NOENT) {
		pcb_err_reset(&s->err);
		return pcb_error(&s->err, PCB_E_NOENT, "no sweep '%s' ('sweep "
				 "list')", name);
	}
	if (!rc)
		rc = def_lines(s, d, buf, len);
	free(buf);
	if (!rc)
		rc = def_words(s, d);
	if (rc)
		def_release(d);
	return rc;
}

static bool whole(double x)
{
	return isfinite(x) && x == floor(x);
}

/* results.csv against the definition: exactly its columns, and in every
 * row a point and a repeat in range (whole numbers, each pair once), a
 * whole seed (or none: a real NIC) that is the same in each repeat (the
 * definition's, when it has them) and axis values that are numbers, the
 * same in each repeat of a point.
 */
static int results_check(struct session *s, const struct sdef *d,
			 const struct series *r, const char *path)
{
	static const char *const fixed[SW_FIXED_COLS] = { "point", "repeat",
							  "seed" };
	double seed[SW_MAX_REPEAT];
	size_t nc = 0, c, k, i, *first;
	bool *seen;
	int rc = 0;

	for (k = 0; k < d->nmeas; k++) {
		char nm[SW_NSTATS][48];
		const char *unit;

		nc += measure_cols(&d->m[k], nm, &unit);
	}
	nc += SW_FIXED_COLS + d->naxes;
	if (r->ncols != nc)
		return file_bad(s, path, 1, "%zu columns where the definition "
				"('%s') gives %zu", r->ncols, d->path, nc);
	for (c = 0; c < nc; c++) {
		char nm[SW_NSTATS][48];
		const char *want = nm[0], *unit;

		if (c < SW_FIXED_COLS) {
			want = fixed[c];
		} else if (c < SW_FIXED_COLS + d->naxes) {
			want = d->axis[c - SW_FIXED_COLS];
		} else {	/* the measure this column belongs to */
			size_t o = SW_FIXED_COLS + d->naxes, n = 0;

			for (k = 0; k < d->nmeas; k++, o += n) {
				n = measure_cols(&d->m[k], nm, &unit);
				if (c < o + n)
					break;
			}
			want = nm[c - o];
		}
		if (strcmp(r->cols[c].name, want))
			return file_bad(s, path, 1, "column %zu is '%s' where "
					"the definition ('%s') has '%s'", c + 1,
					r->cols[c].name, d->path, want);
	}
	seen = calloc(d->npoints * d->repeat + 1, sizeof(*seen));
	first = malloc((d->npoints + 1) * sizeof(*first));
	if (!seen || !first) {
		free(seen);
		free(first);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	for (i = 0; i < d->npoints; i++)
		first[i] = SIZE_MAX;
	for (k = 0; k < d->repeat; k++)
		seed[k] = -1;	/* none seen */
	for (i = 0; !rc && i < r->nrows; i++) {
		double p = series_at(r, i, 0), q = series_at(r, i, 1);
		double sd = series_at(r, i, 2);
		size_t line = i + 2, pt, rp;

		if (!whole(p) || p < 0 || p >= (double)d->npoints) {
			rc = file_bad(s, path, line, "point '%g' is not one of "
				      "0 to %zu", p, d->npoints - 1);
			break;
		}
		if (!whole(q) || q < 0 || q >= (double)d->repeat) {
			rc = file_bad(s, path, line, "repeat '%g' is not one "
				      "of 0 to %zu", q, d->repeat - 1);
			break;
		}
		pt = (size_t)p;
		rp = (size_t)q;
		if (seen[pt * d->repeat + rp]) {
			rc = file_bad(s, path, line, "point %zu repeat %zu a "
				      "second time", pt, rp);
			break;
		}
		seen[pt * d->repeat + rp] = true;
		if (!isnan(sd) && (!whole(sd) || sd < 0 ||
				   sd >= 18446744073709551616.0))
			rc = file_bad(s, path, line, "seed '%g' is not a "
				      "64-bit whole number", sd);
		else if (d->have_seeds && sd != (double)d->seeds[rp])
			rc = file_bad(s, path, line, "seed '%g' where the "
				      "definition has %" PRIu64 " for repeat "
				      "%zu", sd, d->seeds[rp], rp);
		else if (seed[rp] != -1 && !(seed[rp] == sd ||
					     (isnan(seed[rp]) && isnan(sd))))
			rc = file_bad(s, path, line, "repeat %zu has seed %g "
				      "here and %g above", rp, sd, seed[rp]);
		seed[rp] = sd;
		for (c = 0; !rc && c < d->naxes; c++) {
			double v = series_at(r, i, SW_FIXED_COLS + c);

			if (!isfinite(v))
				rc = file_bad(s, path, line, "%s is not a "
					      "number", d->axis[c]);
			else if (first[pt] != SIZE_MAX &&
				 series_at(r, first[pt],
					   SW_FIXED_COLS + c) != v)
				rc = file_bad(s, path, line, "point %zu has %s "
					      "%g here and %g above", pt,
					      d->axis[c], v,
					      series_at(r, first[pt],
							SW_FIXED_COLS + c));
		}
		if (first[pt] == SIZE_MAX)
			first[pt] = i;
	}
	free(seen);
	free(first);
	return rc;
}

/* results.csv rows back into the plan (for resume): checked against the
 * definition (pl->def), then against the plan made from it.
 */
static int load_results(struct session *s, struct plan *pl)
{
	struct series *r;
	char path[4200];
	struct stat st;
	size_t i, c;
	int rc;

	snprintf(path, sizeof(path), "%s/results.csv", pl->dir);
	if (lstat(path, &st) && errno == ENOENT)
		return 0;	/* nothing ran yet */
	rc = series_read_csv(&r, pl->name, path, &s->err);
	if (rc)
		return rc;
	rc = results_check(s, pl->def, r, path);
	for (c = 0; !rc && c < r->ncols; c++)
		if (r->ncols != pl->res->ncols ||
		    strcmp(r->cols[c].name, pl->res->cols[c].name))
			rc = file_bad(s, path, 1, "the columns do not match "
				      "the sweep's definition");
	for (i = 0; !rc && i < r->nrows; i++) {
		size_t run = (size_t)series_at(r, i, 0) * pl->repeat +
			     (size_t)series_at(r, i, 1);

		memcpy(pl->rows + run * r->ncols, r->data + i * r->ncols,
		       r->ncols * sizeof(double));
		if (!pl->done[run])
			pl->ndone++;
		pl->done[run] = true;
	}
	series_free(r);
	return rc;
}

/* The slot's values now; on resume they must equal those the sweep
 * started with (the params not swept: a changed one would make the old
 * and new rows disagree).
 */
static int fixed_check(struct session *s, struct plan *pl, uint32_t *vals,
		       size_t *n, bool resume)
{
	const int64_t *was = resume ? pl->def->fixed : NULL;
	size_t i, k;
	int rc;

	rc = ppcc_bulk_get(&s->ppcc, pl->slot, vals, ALGO_MAX_PARAMS, n,
			   &s->err);
	if (rc || !resume)
		return rc;
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

static int sweep_plot(struct session *s, const char *name, const char *to);

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
	char parent[4096];
	int rc = sweeps_dir(s, pl->name, parent, sizeof(parent), true);

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
		rc = load_results(s, pl);
		if (rc)
			return rc;
	} else if (!lstat(pl->dir, &st)) {
		return sweep_exists(s, pl);
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
		if (!s->dry_run || pl->replay)
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
		rc = save_definition(s, pl, vals, n);
	if (!rc)
		rc = save_meta(s, pl, start, 0, "running");
	if (rc)
		return rc;
	pl->ndone0 = pl->ndone;
	rc = pl->replay ? run_replay(s, pl, t0) : run_live(s, pl, orig, t0);
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

/* The plan again from sweep.args (checked first, see def_load): a word
 * this device refuses is an error about the file; the plan must give the
 * points and repeats the definition does, and the rows its seeds.
 */
static int cmd_sweep_resume(struct session *s, int argc, char **argv)
{
	struct plan *pl = calloc(1, sizeof(*pl));
	struct sdef *d = calloc(1, sizeof(*d));
	char dir[4096];
	int rc;

	(void)argc;
	if (!pl || !d) {
		free(pl);
		free(d);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	rc = def_load(s, argv[0], dir, sizeof(dir), d);
	if (!rc)	/* the device's own errors are not about the file */
		rc = sess_active_slot(s, &pl->slot);
	if (!rc)
		rc = sess_slot_view(s, pl->slot, &pl->v);
	if (!rc) {
		snprintf(pl->name, sizeof(pl->name), "%s", argv[0]);
		snprintf(pl->dir, sizeof(pl->dir), "%s", dir);
		pl->def = d;
		rc = plan_parse(s, pl, d->nwords, d->words, true);
		if (rc == -PCB_E_INVAL || rc == -PCB_E_RANGE ||
		    rc == -PCB_E_USAGE || rc == -PCB_E_NOENT ||
		    rc == -PCB_E_AMBIG || rc == -PCB_E_PARSE)
			rc = file_rewrap(s, d->path);
	}
	if (!rc && (pl->npoints != d->npoints || pl->repeat != d->repeat))
		rc = file_bad(s, d->path, 0, "%zu points x %zu repeats here, "
			      "%zu x %zu on the device", d->npoints, d->repeat,
			      pl->npoints, pl->repeat);
	if (!rc && pl->replay) {	/* the seeds the rows must have */
		memcpy(d->seeds, pl->seeds, sizeof(d->seeds));
		d->have_seeds = true;
	}
	if (!rc)
		rc = sweep_exec(s, pl, true);
	def_release(d);
	free(d);
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

/* sweep NAME's results, checked against its definition (see
 * results_check), then averaged per point.
 */
static int table_load(struct session *s, const char *name, struct table *t,
		      char *dir, size_t dlen)
{
	struct sdef *d = calloc(1, sizeof(*d));
	char path[4300];
	struct stat st;
	size_t c, i, p, k;
	int rc;

	memset(t, 0, sizeof(*t));
	if (!d)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = def_load(s, name, dir, dlen, d);
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	if (!rc && lstat(path, &st) && errno == ENOENT)
		rc = pcb_error(&s->err, PCB_E_NOENT, "sweep %s has no results "
			       "yet ('sweep resume %s')", name, name);
	if (!rc)
		rc = series_read_csv(&t->r, name, path, &s->err);
	if (!rc)
		rc = results_check(s, d, t->r, path);
	t->naxes = d->naxes;
	def_release(d);
	free(d);
	if (rc)
		return rc;
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
	for (i = 0; i < t->r->nrows; i++) {	/* checked: whole, in range */
		size_t v = (size_t)series_at(t->r, i, 0);

		if (v + 1 > t->npoints)
			t->npoints = v + 1;
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
/* Which way is better for a measure: utilisation, fairness and goodput
 * up, everything else (queues, RTT, drops, pauses, CNPs, timeouts) down.
 */
static bool higher_better(const char *name)
{
	return !strncmp(name, "util", 4) || !strncmp(name, "jain", 4) ||
	       !strncmp(name, "rx_gbps", 7) || !strncmp(name, "tx_gbps", 7);
}

/* A value for a cell or a table: 4 significant digits while that reads
 * well (0.8714, 412.5), engineering form beyond (22.28M, 15µs).
 */
static void cell_text(char *b, size_t len, double v, const char *suffix,
		      bool ascii)
{
	if (isnan(v))
		snprintf(b, len, "-");
	else if (v == 0 || (fabs(v) >= 1e-3 && fabs(v) < 1e4 && !*suffix))
		snprintf(b, len, "%.4g", v);
	else
		plot_eng(b, len, v, fabs(v) / 1e3, suffix, ascii);
}

/* A number for gnuplot's parser: NaN is its constant, not "nan". */
static void gp_num(FILE *fp, double v)
{
	if (isnan(v))
		fputs("NaN", fp);
	else
		fprintf(fp, "%.17g", v);
}

/* The point of the grid (i, j) of the axes' sorted values: its index in
 * the table, or npoints when the sweep has no result there.
 */
static size_t grid_point(const struct table *t, double (*xs)[SW_MAX_VALS],
			 size_t i, size_t j)
{
	size_t p;

	for (p = 0; p < t->npoints; p++)
		if (t->first[p] >= 0 &&
		    series_at(t->r, (size_t)t->first[p], SW_FIXED_COLS) ==
		    xs[0][i] &&
		    (t->naxes == 1 ||
		     series_at(t->r, (size_t)t->first[p], SW_FIXED_COLS + 1) ==
		     xs[1][j]))
			break;
	return p;
}

/* Two params on the terminal: a table per measure (the first param down,
 * the second across), values in engineering form, the best marked '*'.
 */
static void sweep_plot_text(struct session *s, const struct table *t,
			    double (*xs)[SW_MAX_VALS], const size_t *nx,
			    const size_t (*best)[2])
{
	size_t k, i, j;
	char v[24];

	for (k = 0; k < t->nprim; k++) {
		fprintf(s->out.fp, "%s%s%s%s (%s is best; * marks it)\n",
			t->pname[k], *t->r->cols[t->prim[k]].unit ? " (" : "",
			t->r->cols[t->prim[k]].unit,
			*t->r->cols[t->prim[k]].unit ? ")" : "",
			higher_better(t->pname[k]) ? "highest" : "lowest");
		fprintf(s->out.fp, "%14s", t->r->cols[SW_FIXED_COLS].name);
		for (j = 0; j < nx[1]; j++) {
			snprintf(v, sizeof(v), "%.6g", xs[1][j]);
			fprintf(s->out.fp, " %10s", v);
		}
		fprintf(s->out.fp, "  <- %s\n", t->r->cols[SW_FIXED_COLS + 1].name);
		for (i = 0; i < nx[0]; i++) {
			snprintf(v, sizeof(v), "%.6g", xs[0][i]);
			fprintf(s->out.fp, "%14s", v);
			for (j = 0; j < nx[1]; j++) {
				size_t p = grid_point(t, xs, i, j);
				double m = p < t->npoints ?
					   t->mean[p * t->nprim + k] : NAN;

				cell_text(v, sizeof(v), m, "", true);
				fprintf(s->out.fp, " %9s%c", v,
					best[k][0] == i && best[k][1] == j ?
					'*' : ' ');
			}
			fputc('\n', s->out.fp);
		}
		fputc('\n', s->out.fp);
	}
}

/* sweep plot NAME [to FILE]: one param -> each measure against it with
 * its 95 % interval, the y range holding every error bar (from 0 when the
 * points differ by less than 10 %, so a 0.02 % difference looks as small
 * as it is) and the relative spread said; two params -> a heatmap per
 * measure (viridis, the value in each cell of a small grid) or, on the
 * terminal, a table; the best point marked either way.
 */
static int sweep_plot(struct session *s, const char *name, const char *to)
{
	char dir[4096], dat[4300], gp[4300], tmpl[4096], lab[40];
	char *vars = NULL;
	struct pcb_wfile w;
	double xs[2][SW_MAX_VALS];
	size_t nx[2] = { 0, 0 }, len, k, p, a, i, j, nt = 0;
	size_t best[SW_MAX_MEAS][2];
	struct plot_axis ax[SW_MAX_MEAS];
	double spread[SW_MAX_MEAS];
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
	if (t.naxes == 1)
		nx[1] = 1;
	/* per measure: the best grid point, the range with every error bar,
	 * the spread of the means relative to their mean */
	for (k = 0; k < t.nprim; k++) {
		double lo = NAN, hi = NAN, mlo = NAN, mhi = NAN, sum = 0, bv = NAN;
		size_t n = 0;
		bool up = higher_better(t.pname[k]);

		best[k][0] = best[k][1] = SIZE_MAX;
		for (i = 0; i < nx[0]; i++)
			for (j = 0; j < nx[1]; j++) {
				double m, c;

				p = grid_point(&t, xs, i, j);
				if (p == t.npoints)
					continue;
				m = t.mean[p * t.nprim + k];
				c = t.ci[p * t.nprim + k];
				if (isnan(m))
					continue;
				c = isnan(c) ? 0 : c;
				if (isnan(lo) || m - c < lo)
					lo = m - c;
				if (isnan(hi) || m + c > hi)
					hi = m + c;
				if (isnan(mlo) || m < mlo)
					mlo = m;
				if (isnan(mhi) || m > mhi)
					mhi = m;
				sum += m;
				n++;
				if (isnan(bv) || (up ? m > bv : m < bv)) {
					bv = m;
					best[k][0] = i;
					best[k][1] = j;
				}
			}
		spread[k] = n && sum != 0 ? (mhi - mlo) / fabs(sum / (double)n) :
			    0;
		plot_axis_make(&ax[k], t.r->cols[t.prim[k]].unit, lo, hi, !to,
			       spread[k] < 0.1);
		nt += ax[k].nticks;
	}
	if (!to && t.naxes == 2) {	/* a dumb heatmap shows nothing */
		sweep_plot_text(s, &t, xs, nx, (const size_t (*)[2])best);
		table_free(&t);
		return 0;
	}
	snprintf(dat, sizeof(dat), "%s/plot.dat", dir);
	snprintf(gp, sizeof(gp), "%s/plot.gp", dir);
	rc = pcb_wfile_open(&w, dat, PCB_MODE_DATA, &s->err);
	if (rc) {
		table_free(&t);
		return rc;
	}
	/* one param: "x mean ci ..."; two: "i j mean ci label ..." */
	fp = w.fp;
	for (i = 0; i < nx[0]; i++) {
		for (j = 0; j < nx[1]; j++) {
			p = grid_point(&t, xs, i, j);
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
				if (t.naxes == 2) {
					cell_text(lab, sizeof(lab), m *
						  ax[k].scale, ax[k].suffix,
						  false);
					fprintf(fp, " %s", lab);
				}
			}
			fputc('\n', fp);
		}
		if (t.naxes == 2)
			fputc('\n', fp);
	}
	rc = pcb_wfile_commit(&w, &s->err);
	if (rc) {
		table_free(&t);
		return rc;
	}
	vp = open_memstream(&vars, &len);
	if (!vp) {
		table_free(&t);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	plot_str(vp, "datafile", dat);
	{
		char title[200];

		snprintf(title, sizeof(title), "sweep %s", name);
		plot_str(vp, "plottitle", title);
	}
	fprintf(vp, "naxes = %zu\nnpanels = %zu\ncelllabels = %d\n"
		"array names[%zu]\narray units[%zu]\narray spread[%zu]\n"
		"array yscale[%zu]\narray ylo[%zu]\narray yhi[%zu]\n"
		"array tic0[%zu]\narray ntic[%zu]\narray ticpos[%zu]\n"
		"array ticlab[%zu]\narray bestx[%zu]\narray besty[%zu]\n",
		t.naxes, t.nprim, nx[0] * nx[1] <= 150, t.nprim, t.nprim,
		t.nprim, t.nprim, t.nprim, t.nprim, t.nprim, t.nprim,
		nt ? nt : 1, nt ? nt : 1, t.nprim, t.nprim);
	for (k = 0, nt = 0; k < t.nprim; k++) {
		char sp[64];

		plot_str_at(vp, "names", k + 1, t.pname[k]);
		plot_str_at(vp, "units", k + 1, ax[k].unit);
		snprintf(sp, sizeof(sp), "spread %.3g %% of the mean (%s is "
			 "best)", spread[k] * 100, higher_better(t.pname[k]) ?
			 "highest" : "lowest");
		plot_str_at(vp, "spread", k + 1, sp);
		fprintf(vp, "yscale[%zu] = %.17g\nylo[%zu] = %.17g\n"
			"yhi[%zu] = %.17g\ntic0[%zu] = %zu\nntic[%zu] = %zu\n",
			k + 1, ax[k].scale, k + 1, ax[k].lo, k + 1, ax[k].hi,
			k + 1, nt + 1, k + 1, ax[k].nticks);
		fprintf(vp, "bestx[%zu] = ", k + 1);
		gp_num(vp, best[k][0] >= nx[0] ? NAN : t.naxes == 2 ?
		       (double)best[k][0] : xs[0][best[k][0]]);
		fprintf(vp, "\nbesty[%zu] = ", k + 1);
		gp_num(vp, t.naxes == 2 && best[k][1] < nx[1] ?
		       (double)best[k][1] : NAN);
		fputc('\n', vp);
		for (j = 0; j < ax[k].nticks; j++, nt++) {
			fprintf(vp, "ticpos[%zu] = %.17g\n", nt + 1,
				ax[k].pos[j]);
			plot_str_at(vp, "ticlab", nt + 1, ax[k].lab[j]);
		}
	}
	for (a = 0; a < t.naxes; a++) {
		const struct series_col *c = &t.r->cols[SW_FIXED_COLS + a];
		char al[80];

		snprintf(al, sizeof(al), "%s%s%s%s", c->name,
			 *c->unit ? " (" : "", c->unit, *c->unit ? ")" : "");
		plot_str(vp, a ? "yname" : "xname", al);
		if (t.naxes == 2) {	/* tics at the grid indexes */
			fprintf(vp, "n%c = %zu\narray %ctl[%zu]\n", a ? 'y' : 'x',
				nx[a], a ? 'y' : 'x', nx[a]);
			for (i = 0; i < nx[a]; i++) {
				char el[16], v[24];

				snprintf(el, sizeof(el), "%ctl", a ? 'y' : 'x');
				snprintf(v, sizeof(v), "%.6g", xs[a][i]);
				plot_str_at(vp, el, i + 1, v);
			}
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
		char dir[4096], params[256] = "";
		struct pcb_err keep = s->err;
		int rc = table_load(s, names[i], &tt, dir, sizeof(dir));

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
		table_free(&tt);
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
	char dir[4096], path[4200];
	struct stat st;

	(void)argc;
	if (sweeps_dir(s, argv[0], dir, sizeof(dir), false))
		return -s->err.code;
	snprintf(path, sizeof(path), "%s/sweep.args", dir);
	if (lstat(dir, &st) || lstat(path, &st))
		return pcb_error(&s->err, PCB_E_NOENT, "no sweep '%s'", argv[0]);
	if (pcb_check_dir(dir, &s->err))
		return -s->err.code;
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
	  "be left out; 'jobs': worker processes on the sim (default: the "
	  "CPUs online, at most " SW_STR(SW_MAX_JOBS) ")",
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
