/* sweep.h - the sweep engine (src/sweep/): one or more params over ranges
 * or lists, a workload per point, a summary per measured column, results
 * saved.  `sweep` (src/cmd/sweep.c) parses the command line and prints;
 * the engine plans, runs, saves and reads back.
 *
 *   plan.c    the plan: `sweep run`'s words checked whole, the points;
 *   store.c   results.csv, meta.json, sweep.args written and read back;
 *   run.c     what both share: the run order, the progress line, one
 *             run's numbers;
 *   pool.c    a replaying device's runs in worker processes;
 *   runner.c  a live device's runs, one at a time;
 *   table.c   results.csv per point and the `best ... where` query.
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
#ifndef PCCB_SWEEP_H
#define PCCB_SWEEP_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "device.h"
#include "rec/recorder.h"
#include "rec/series.h"
#include "keywords.h"
#include "session.h"

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

#define SW_NSTATS 5

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
	char name[64], dir[PCB_PATH_LEN];
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
	char plot[PCB_PATH_LEN];
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
	unsigned shard_i, shard_n;	/* runs r with r % n == i; n 0: all */
	bool zip;		/* a list of points (tune): point p is value p
				 * of every axis, not the cross product */
	/* who tells the progress: NULL the sweep's own line, else this
	 * (a tune: one line for the whole tune) */
	void (*progress)(void *ctx, const struct plan *pl);
	void *progress_ctx;
};

/* What `sweep merge` found in the results it merged. */
struct sw_merge {
	size_t rows;		/* rows read */
	size_t added;		/* runs that were missing */
	size_t dups;		/* runs already there, the same numbers */
};

struct wmsg {			/* worker -> parent, one write < PIPE_BUF */
	int32_t run, rc;
	double sim_s;		/* wall time inside the simulator */
	/* the run's error, whole (a stall names its ports at the end) */
	char msg[sizeof(((struct pcb_err *)0)->msg)];
	double v[SW_MAX_MEAS * SW_NSTATS];
};

_Static_assert(sizeof(struct wmsg) <= PIPE_BUF,
	       "struct wmsg: one write to a pipe, never split");


/* sweep.args checked whole, without a device: its lines, then its words
 * as plan_parse would take them (counts and durations parsed, the value
 * lists counted, the measures and the scenario known).  Anything else is
 * an error naming the file: a damaged definition is never guessed at.
 */
struct sdef {
	char path[PCB_PATH_LEN];		/* sweep.args, named in messages */
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

struct cond {
	int col;
	char op[3];
	double v;
};

/* The keywords of `sweep run` (plan.c): the table the parser (which
 * switches on their ids), the usage and help, the saved sweep's check and
 * the completion share.  KW_SCEN: a scenario, KIND and its KEY VALUE
 * pairs up to the next keyword; KW_UNSAVED: not part of the saved
 * definition.
 */
enum { SW_K_FOR = 1, SW_K_WARMUP, SW_K_EVERY, SW_K_REPEAT, SW_K_SEEDS,
       SW_K_JOBS, SW_K_MEASURE, SW_K_SCENARIO, SW_K_WHILE, SW_K_INTO,
       SW_K_PLOT, SW_K_SHUFFLE };
extern const struct cmd_kw sw_keys[];	/* ends with a NULL name */
/* the keyword of SW_K_* id */
const char *sw_key_name(int id);

extern const char *const sw_stat_names[];

/* ---- plan.c: the plan -------------------------------------------------- */

bool sw_is_keyword(const char *w);

void sw_plan_free(struct plan *pl);

int sw_sweeps_dir(struct session *s, const char *name, char *buf,
		  size_t len, bool create);

/* The values of "FROM:TO:STEP" or "v1,v2,..." as texts, not yet parsed
 * for a param (so a saved definition is checked without a device).
 */
int sw_axis_texts(struct pcb_err *err, const char *name,
		  const char *spec, char (*texts)[48], size_t *np);

/* A count from 1 to max, all digits; what: "worker processes". */
int sw_parse_count(struct pcb_err *err, const char *key, const char *val,
		   unsigned long max, const char *what, unsigned long *out);

/* "a,b,c" into m[]; real: a real NIC's sweep (no sim measures). */
int sw_parse_measures(struct pcb_err *err, bool replay, const char *list,
		      struct measure *ms, size_t *nm);

const char *sw_measure_name(const struct measure *m);

/* The results columns of a measure: its name (a sim scalar) or NAME_mean,
 * NAME_p50, ... (a timeline column); how many.
 */
size_t sw_measure_cols(const struct measure *m, char (*names)[48],
		       const char **unit);

/* Parse the words of `sweep run` into a plan; nothing runs, nothing is
 * written.  resume: the words come from sweep.args.
 */
int sw_plan_parse(struct session *s, struct plan *pl, int argc,
		  char **argv, bool resume);

/* The plan becomes a list of n points (pl->zip): every axis gets n
 * values, the caller's to fill (raw and real), and point p is value p of
 * each; the runs (n x repeats) start undone.  For `tune`, whose points
 * are chosen as it goes.
 */
int sw_plan_points(struct session *s, struct plan *pl, size_t n);

/* The point's value index on each axis: the first axis varies slowest
 * (a zip plan: p on every axis).
 */
void sw_point_values(const struct plan *pl, size_t point, size_t *idx);

void sw_point_text(struct session *s, const struct plan *pl,
		   size_t point, char *buf, size_t len);

void sw_fill_writes(const struct plan *pl, size_t point,
		    struct param_write *w);

/* ---- store.c: the files ------------------------------------------------ */

void sw_store_run(struct plan *pl, size_t run, const double *v);

/* results.csv: the finished runs in plan order (whatever order they ran
 * in), written whole to a temporary file and renamed over (by
 * series_write_csv, through fsafe.h).
 */
int sw_save_results(struct session *s, struct plan *pl);

/* sweep.args (read back by def_load): a comment, "#axes N", "#fixed
 * INDEX VALUE" per param of the slot, then the words.
 */
int sw_save_definition(struct session *s, struct plan *pl,
		       const uint32_t *vals, size_t n);

int sw_save_meta(struct session *s, struct plan *pl, time_t start,
		 double wall, const char *status);

void sw_def_release(struct sdef *d);

/* "'PATH' line N: what" (line 0: no line) as a PCB_E_CORRUPT error. */
int sw_file_bad(struct session *s, const char *path, size_t line,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The error a parser left in s->err, as one about the file. */
int sw_file_rewrap(struct session *s, const char *path);

/* sweep NAME's definition; dir gets the sweep's directory.  No sweep
 * there: -PCB_E_NOENT; a damaged one: -PCB_E_CORRUPT naming the file.
 */
int sw_def_load(struct session *s, const char *name, char *dir,
		size_t dlen, struct sdef *d);

/* results.csv against the definition: exactly its columns, and in every
 * row a point and a repeat in range (whole numbers, each pair once), a
 * whole seed (or none: a real NIC) that is the same in each repeat (the
 * definition's, when it has them) and axis values that are numbers, the
 * same in each repeat of a point.
 */
int sw_results_check(struct session *s, const struct sdef *d,
		     const struct series *r, const char *path);

/* results.csv rows back into the plan (for resume): checked against the
 * definition (pl->def), then against the plan made from it.
 */
int sw_load_results(struct session *s, struct plan *pl);
/* The rows of another results.csv (a shard's, or a copy from another
 * machine) into the plan, checked the same way; a run already there must
 * have the same numbers (a difference is an error naming the run, and
 * the plan is left as it was), else it counts in m->dups.
 */
int sw_merge_results(struct session *s, struct plan *pl, const char *path,
		     struct sw_merge *m);
/* A shard's plan: the runs of other shards count as done (and are never
 * saved); the shard's results live in NAME/shard-I-of-N/.
 */
bool sw_in_shard(const struct plan *pl, size_t run);
void sw_shard_skip(struct plan *pl);

/* The slot's values now; on resume they must equal those the sweep
 * started with (the params not swept: a changed one would make the old
 * and new rows disagree).
 */
int sw_fixed_check(struct session *s, struct plan *pl, uint32_t *vals,
		   size_t *n, bool resume);

/* ---- run.c: what the pool and the runner share ------------------------ */

/* n of N runs, the time so far and, from this session's pace, the time
 * still to go.
 */
void sw_progress(struct session *s, const struct plan *pl, double t0,
		 bool final);

/* The order runs start in: plan order, or a fixed shuffle. */
size_t *sw_run_order(const struct plan *pl);

/* The measured values of a recorded window (and the sim's own summary).
 * avg_rtt's mean is the window's: the growth of SUM_RTT over that of
 * NUM_RTT, each sample weighing alike (a mean of the intervals' averages
 * would let a few slow samples in a quiet interval outweigh thousands);
 * its p50/p99/min/max are over the intervals' averages.
 */
int sw_summarise(struct session *s, const struct plan *pl,
		 const struct series *ser, const struct recorder *rec,
		 double *v);

/* ---- pool.c: the pool -------------------------------------------------- */

/* rm -r that never follows a link (a link is removed, not what it names). */
void sw_rm_tree(const char *path);

int sw_run_replay(struct session *s, struct plan *pl, double t0);

/* ---- runner.c: the runner ---------------------------------------------- */

int sw_run_live(struct session *s, struct plan *pl, const uint32_t *orig,
		double t0);

/* ---- table.c: the table ------------------------------------------------ */

void sw_table_free(struct table *t);

/* sweep NAME's results, checked against its definition (see
 * results_check), then averaged per point.
 */
int sw_table_load(struct session *s, const char *name, struct table *t,
		  char *dir, size_t dlen);

/* One warning line naming the measures whose points do not differ: the
 * same at every point (within 0.1 % of their mean), or closer than the
 * widest 95 % interval of the repeats; with the likely cause and the
 * fix.  warmup: the sweep's (ps), or -1 when not known here.
 */
void sw_table_warn_flat(struct session *s, const char *name,
			const struct table *t, int64_t warmup);

/* The mean and 95 % half-width of n repeats' values of the results
 * column named col (stats_ci95: over those with a value); none (NAN)
 * for a whole measure (device.h) when a repeat has no value.
 */
void sw_repeats_ci(const char *col, const double *v, size_t n,
		   double *mean, double *ci);

/* The value of column `k` (table_col's answer) at point p. */
double sw_table_value(const struct table *t, size_t p, int k);

bool sw_cond_holds(const struct table *t, size_t p, const struct cond *c);

/* best min|max COL [where COL OP VALUE [and COL OP VALUE]...] */
int sw_parse_best(struct session *s, const struct table *t, int argc,
		  char **argv, bool *maximise, int *col,
		  struct cond *conds, size_t *nconds);

#endif
