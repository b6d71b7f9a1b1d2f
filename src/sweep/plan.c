/* plan.c - the plan: the words of `sweep run` parsed and checked whole, the
 * points and their register writes (sweep.h).
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
#include "paths.h"
#include "rec/recorder.h"
#include "rec/series.h"
#include "rec/stats.h"
#include "device.h"
#include "units.h"
#include "store.h"
#include "sweep/sweep.h"
#include "words.h"

/* The keywords of `sweep run` (sweep.h): the parser, the usage, the
 * help, the saved sweep's check and the REPL's completion read this.
 */
const struct cmd_kw sw_keys[] = {
	{ .name = "for", .arg = "DURATION", .id = SW_K_FOR },
	{ .name = "warmup", .arg = "DURATION", .id = SW_K_WARMUP },
	{ .name = "every", .arg = "INTERVAL", .id = SW_K_EVERY },
	{ .name = "repeat", .arg = "N", .id = SW_K_REPEAT },
	{ .name = "seeds", .arg = "S1,S2,...", .id = SW_K_SEEDS },
	{ .name = "jobs", .arg = "N", .id = SW_K_JOBS },
	{ .name = "measure", .arg = "COL,...", .flags = KW_LIST,
	  .id = SW_K_MEASURE },
	{ .name = "scenario", .arg = "KIND KEY VALUE ...", .flags = KW_SCEN,
	  .id = SW_K_SCENARIO },
	{ .name = "while", .arg = "'CMD ARGS'", .flags = KW_FILE,
	  .id = SW_K_WHILE },
	{ .name = "into", .arg = "NAME", .flags = KW_UNSAVED,
	  .id = SW_K_INTO },
	{ .name = "plot", .arg = "FILE.png", .flags = KW_FILE | KW_UNSAVED,
	  .id = SW_K_PLOT },
	{ .name = "shuffle", .id = SW_K_SHUFFLE },
	{ 0 }
};

/* A timeline measure becomes five columns. */
const char *const sw_stat_names[] = { "mean", "p50", "p99", "min",
					  "max" };

const char *sw_key_name(int id)
{
	const struct cmd_kw *k;

	for (k = sw_keys; k->name && k->id != id; k++)
		;
	return k->name;
}

bool sw_is_keyword(const char *w)
{
	return cmd_kw_find(sw_keys, w) != NULL;
}

/* One more problem with the words: the first message as it is, the next
 * ones after "; " without their "sweep: ", so every bad keyword is told
 * at once.
 */
static void problem(struct session *s, struct pcb_err *all)
{
	const char *m = s->err.msg;
	size_t l = strlen(all->msg);

	if (!all->code) {
		*all = s->err;
	} else {
		if (!strncmp(m, "sweep: ", 7))
			m += 7;
		snprintf(all->msg + l, sizeof(all->msg) - l, "; %s", m);
	}
	pcb_err_reset(&s->err);
}

void sw_plan_free(struct plan *pl)
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

int sw_sweeps_dir(struct session *s, const char *name, char *buf,
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
int sw_axis_texts(struct pcb_err *err, const char *name,
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
	int rc = sw_axis_texts(&s->err, name, spec, texts, &n);

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
int sw_parse_count(struct pcb_err *err, const char *key, const char *val,
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
int sw_parse_measures(struct pcb_err *err, bool replay, const char *list,
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
					 "rtt_p99, rtos, fct_p50, fct_p99, "
					 "coll_time, busbw)", w);
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

const char *sw_measure_name(const struct measure *m)
{
	return m->scalar >= 0 ? scalar_cols[m->scalar].name :
				rec_fixed_cols[m->col].name;
}

/* The results columns of a measure: its name (a sim scalar) or NAME_mean,
 * NAME_p50, ... (a timeline column); how many.
 */
size_t sw_measure_cols(const struct measure *m, char (*names)[48],
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
			 rec_fixed_cols[m->col].name, sw_stat_names[k]);
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
		size_t n = sw_measure_cols(&pl->m[i], nm, &unit);

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

/* What the keywords gave, until the plan takes it. */
struct plan_opts {
	unsigned long repeat, jobs;
	const char *measure, *seeds;
	uint64_t seed0;
	bool have_for;
};

/* The axes: PARAM SPEC pairs up to the first keyword; *end gets the index
 * of the first keyword.
 */
static int parse_axes(struct session *s, struct plan *pl, int argc,
		      char **argv, int *end)
{
	int i, rc, k;
	size_t n;

	for (i = 0; i < argc && !sw_is_keyword(argv[i]); i += 2) {
		struct axis *a = &pl->ax[pl->naxes];

		if (pl->naxes == SW_MAX_AXES)
			return pcb_error(&s->err, PCB_E_RANGE, "sweep: at most "
					 "%d params", SW_MAX_AXES);
		rc = sess_param_find(s, pl->v, argv[i], &a->p);
		if (rc)
			return rc;
		if (i + 1 >= argc || sw_is_keyword(argv[i + 1]))
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
	*end = i;
	return 0;
}

/* The keywords: every problem with them told at once. */
static int parse_keys(struct session *s, struct plan *pl, int argc,
		      char **argv, int i, struct plan_opts *o)
{
	struct pcb_err bad = { 0 };
	int rc, k;

	for (; i < argc; i++) {
		const struct cmd_kw *kd = cmd_kw_find(sw_keys, argv[i]);
		const char *key = argv[i], *val = i + 1 < argc ? argv[i + 1] :
						  NULL;
		char list[160];
		int first = i;

		rc = 0;
		if (!kd) {
			pcb_error(&s->err, PCB_E_INVAL, "sweep: unknown keyword "
				  "'%s' (%s)", key, cmd_kw_names(sw_keys, list,
								 sizeof(list)));
			problem(s, &bad);
			if (val && !sw_is_keyword(val))
				i++;	/* its value, unread */
			continue;
		}
		if (!cmd_kw_alone(kd) && !val) {
			pcb_error(&s->err, PCB_E_USAGE, "sweep: '%s' needs a "
				  "value", key);
			problem(s, &bad);
			continue;
		}
		i += cmd_kw_alone(kd) ? 0 : 1;
		switch (kd->id) {
		case SW_K_FOR:
		case SW_K_WARMUP:
		case SW_K_EVERY: {
			int64_t *p = kd->id == SW_K_FOR ? &pl->dur :
				     kd->id == SW_K_WARMUP ? &pl->warmup :
				     &pl->every;

			if (pcb_parse_duration_ps(val, -1, p) ||
			    (*p < 1000000 && kd->id != SW_K_WARMUP))
				rc = pcb_error(&s->err, PCB_E_INVAL, "sweep: "
					       "bad %s '%s' (e.g. 10ms, 100us)",
					       key, val);
			o->have_for |= kd->id == SW_K_FOR;
			break;
		}
		case SW_K_REPEAT:
			rc = sw_parse_count(&s->err, key, val, SW_MAX_REPEAT,
					    "repeats", &o->repeat);
			break;
		case SW_K_JOBS:
			rc = sw_parse_count(&s->err, key, val, SW_MAX_JOBS,
					    "worker processes", &o->jobs);
			break;
		case SW_K_SEEDS:
			o->seeds = val;
			break;
		case SW_K_MEASURE:
			o->measure = val;
			break;
		case SW_K_INTO:
			snprintf(pl->name, sizeof(pl->name), "%s", val);
			rc = sw_sweeps_dir(s, pl->name, pl->dir, sizeof(pl->dir),
					   false);
			break;
		case SW_K_PLOT: {
			size_t l = strlen(val);

			if (l < 5 || (strcmp(val + l - 4, ".png") &&
				      strcmp(val + l - 4, ".svg")))
				rc = pcb_error(&s->err, PCB_E_INVAL, "sweep: "
					       "plot '%s' is neither .png nor "
					       ".svg", val);
			else
				snprintf(pl->plot, sizeof(pl->plot), "%s", val);
			break;
		}
		case SW_K_WHILE:
			words_free(pl->targv);
			pl->targv = NULL;
			rc = words_command(&s->err, "sweep", val, &pl->targv);
			break;
		case SW_K_SCENARIO:
			/* KIND then key value pairs up to a sweep keyword */
			pl->scen = argv + i;
			for (pl->nscen = 1; i + 1 < argc &&
			     !sw_is_keyword(argv[i + 1]); i++)
				pl->nscen++;
			rc = dev_workload_check(pl->nscen, pl->scen, &o->seed0,
						&s->err);
			break;
		case SW_K_SHUFFLE:
			pl->shuffle = true;
			break;
		}
		if (rc) {
			problem(s, &bad);
			continue;
		}
		for (k = first; !(kd->flags & KW_UNSAVED) && k <= i; k++) {
			rc = save_word(s, pl, argv[k]);
			if (rc)
				return rc;
		}
	}
	if (bad.code) {
		s->err = bad;
		return -bad.code;
	}
	return 0;
}

/* What only one kind of device has: a replaying device's scenario (its
 * own, made explicit, when none is given) and worker processes; a live
 * device's duration and traffic.
 */
static int fit_device(struct session *s, struct plan *pl,
		      struct plan_opts *o)
{
	int rc, k;

	if (!pl->replay) {
		if (pl->scen)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: "
					 "'scenario' is for the sim device; "
					 "on a real NIC give the traffic with "
					 "'while'");
		if (o->jobs > 1)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: a real "
					 "NIC runs one point at a time (no "
					 "'jobs')");
		if (!o->have_for)
			return pcb_error(&s->err, PCB_E_USAGE, "sweep: say how "
					 "long each point runs on a real NIC "
					 "('for 10s')");
		if (o->seeds)
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

			k = pl->nargs;	/* where its keyword goes */
			rc = dev_workload(s->cur, line, sizeof(line),
					  &o->seed0);
			if (!rc)
				rc = save_word(s, pl,
					       sw_key_name(SW_K_SCENARIO));
			for (w = strtok_r(line, " ", &save); w && !rc;
			     w = strtok_r(NULL, " ", &save))
				rc = save_word(s, pl, w);
			if (rc)
				return rc;
			pl->scen = pl->args + k + 1;
			pl->nscen = pl->nargs - k - 1;
		}
		if (o->jobs) {
			pl->jobs = (unsigned)o->jobs;
		} else {	/* the CPUs, capped */
			long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

			pl->jobs = ncpu < 1 ? 1 : ncpu > SW_MAX_JOBS ?
				   SW_MAX_JOBS : (unsigned)ncpu;
		}
	}
	return 0;
}

/* The window of each run: its duration and interval. */
static int plan_window(struct session *s, struct plan *pl)
{
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
	return 0;
}

/* The repeats and their seeds, and the runs they make. */
static int plan_repeats(struct session *s, struct plan *pl,
			const struct plan_opts *o)
{
	size_t n;

	if (o->seeds) {
		char buf[2048], *w, *save, *end;
		size_t ns = 0;

		snprintf(buf, sizeof(buf), "%s", o->seeds);
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
		if (o->repeat && o->repeat != ns)
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: repeat "
					 "%lu but %zu seeds", o->repeat, ns);
		pl->repeat = ns;
	} else {
		pl->repeat = o->repeat ? o->repeat : 1;
		for (n = 0; n < pl->repeat; n++)
			pl->seeds[n] = pl->replay ? o->seed0 + n : 0;
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
	return 0;
}

/* A scenario kind that reports collectives (coll_time, busbw); the
 * sweep's scenario words begin with their kind, in any case, as the sim
 * device reads it (sim_kind_parse). */
static bool coll_kind(const char *kind)
{
	return !strcasecmp(kind, "allreduce") || !strcasecmp(kind, "alltoall");
}

/* What to measure, saved as a canonical list. */
static int plan_measures(struct session *s, struct plan *pl,
			 struct plan_opts *o)
{
	size_t n;
	int rc, k;

	if (!o->measure) {
		rc = sess_counters_slot(s, &k);
		if (rc)
			return rc;
		o->measure = !pl->replay ? "avg_rtt,max_rtt,dec,hai" :
			  k >= 0 ? "avg_rtt,util,queue_p99,cnp_handled" :
				   "rtt_mean,util,queue_p99,cnp_handled";
	}
	rc = sw_parse_measures(&s->err, pl->replay, o->measure, pl->m, &pl->nmeas);
	if (rc)
		return rc;
	for (n = 0; n < pl->nmeas; n++) {
		if (pl->m[n].scalar >= 0 && scalar_cols[pl->m[n].scalar].whole &&
		    pl->nscen && !coll_kind(pl->scen[0]))
			return pcb_error(&s->err, PCB_E_INVAL, "sweep: %s is a "
					 "collective's (scenario allreduce or "
					 "alltoall), and this scenario is %s",
					 sw_measure_name(&pl->m[n]),
					 pl->scen[0]);
		if (needs_counters(&pl->m[n])) {
			rc = sess_counters_slot(s, &k);
			if (rc)
				return rc;
			if (k < 0)
				return pcb_error(&s->err, PCB_E_STATE, "sweep: "
						 "%s comes from the algorithm's "
						 "counters and no slot has them "
						 "enabled ('algo debug on')",
						 sw_measure_name(&pl->m[n]));
		}
	}
	{	/* the canonical list: a,b,c (16 names of < 24 chars) */
		char list[SW_MAX_MEAS * 24] = "";

		for (n = 0; n < pl->nmeas; n++)
			snprintf(list + strlen(list), sizeof(list) -
				 strlen(list), "%s%s", n ? "," : "",
				 sw_measure_name(&pl->m[n]));
		rc = save_word(s, pl, "measure");
		if (!rc)
			rc = save_word(s, pl, list);
	}
	if (rc)
		return rc;
	return 0;
}

/* Parse the words of `sweep run` into a plan; nothing runs, nothing is
 * written.  resume: the words come from sweep.args.
 */
int sw_plan_parse(struct session *s, struct plan *pl, int argc,
		  char **argv, bool resume)
{
	struct plan_opts o = { 0 };
	size_t n;
	int i = 0, rc;

	pl->jobs = 1;
	rc = sess_device(s);
	if (rc)
		return rc;
	pl->replay = (dev_traits(s->cur) & DEV_T_REPLAY) != 0;
	rc = sess_active_slot(s, &pl->slot);
	if (!rc)
		rc = sess_slot_view(s, pl->slot, &pl->v);
	if (rc)
		return rc;
	pl->ax = calloc(SW_MAX_AXES, sizeof(*pl->ax));
	if (!pl->ax)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = parse_axes(s, pl, argc, argv, &i);
	if (!rc)
		rc = parse_keys(s, pl, argc, argv, i, &o);
	if (!rc)
		rc = fit_device(s, pl, &o);
	if (!rc)
		rc = plan_window(s, pl);
	if (!rc)
		rc = plan_repeats(s, pl, &o);
	if (!rc)
		rc = plan_measures(s, pl, &o);
	if (rc)
		return rc;
	if (!*pl->name && !resume) {	/* sweep1, sweep2, ...: the first free */
		for (n = 1;; n++) {
			struct stat st;

			snprintf(pl->name, sizeof(pl->name), "sweep%zu", n);
			rc = sw_sweeps_dir(s, pl->name, pl->dir, sizeof(pl->dir),
					false);
			if (rc)
				return rc;
			if (lstat(pl->dir, &st))	/* nothing there */
				break;
		}
	}
	return plan_columns(s, pl);
}

int sw_plan_points(struct session *s, struct plan *pl, size_t n)
{
	size_t k, nc = pl->res->ncols;

	if (!n || n > SW_MAX_VALS || n * pl->repeat > SW_MAX_RUNS)
		return pcb_error(&s->err, PCB_E_RANGE, "sweep: %zu points "
				 "(1 to %d)", n, SW_MAX_VALS);
	free(pl->rows);
	free(pl->done);
	pl->zip = true;
	for (k = 0; k < pl->naxes; k++)
		pl->ax[k].n = n;
	pl->npoints = n;
	pl->nruns = n * pl->repeat;
	pl->ndone = pl->ndone0 = 0;
	pl->rows = calloc(pl->nruns * nc, sizeof(double));
	pl->done = calloc(pl->nruns, sizeof(bool));
	if (!pl->rows || !pl->done)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	return 0;
}

/* The point's value index on each axis: the first axis varies slowest. */
void sw_point_values(const struct plan *pl, size_t point, size_t *idx)
{
	size_t k;

	if (pl->zip) {
		for (k = 0; k < pl->naxes; k++)
			idx[k] = point;
		return;
	}
	for (k = pl->naxes; k-- > 0;) {
		idx[k] = point % pl->ax[k].n;
		point /= pl->ax[k].n;
	}
}

void sw_point_text(struct session *s, const struct plan *pl,
		   size_t point, char *buf, size_t len)
{
	size_t idx[SW_MAX_AXES], k, o = 0;
	char v[40];

	sw_point_values(pl, point, idx);
	buf[0] = '\0';
	for (k = 0; k < pl->naxes && o < len; k++) {
		sess_format_value(s, pl->ax[k].p->type,
				  pl->ax[k].raw[idx[k]], v, sizeof(v));
		o += (size_t)snprintf(buf + o, len - o, "%s%s %s",
				      k ? ", " : "", pl->ax[k].p->info.name, v);
	}
}

void sw_fill_writes(const struct plan *pl, size_t point,
		    struct param_write *w)
{
	size_t idx[SW_MAX_AXES], k;

	sw_point_values(pl, point, idx);
	for (k = 0; k < pl->naxes; k++) {
		memset(&w[k], 0, sizeof(w[k]));
		w[k].index = pl->ax[k].p->index;
		w[k].value = pl->ax[k].raw[idx[k]];
	}
}
