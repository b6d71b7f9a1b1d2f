/* tune.h - the tune engine (src/tune/): a search over a few params of the
 * active slot for the best value of one measure under constraints, on the
 * sim device (issue #21).  `tune` (src/cmd/tune_*.c, cmd/tune_cmd.h)
 * parses the words and prints; the engine searches, saves, reads back and
 * says where the best point goes.
 *
 *   set.c      a set of scenarios: a point's values combined, its texts;
 *   file.c     tune.json written and read back, checked whole;
 *   search.c   the search (search.h: a search in progress);
 *   measure.c  a tune's columns as the sweep's measures;
 *   target.c   the slot a target names, the best point as writes.
 *
 * No module calls one above it in that list: file -> set; search -> file,
 * set; measure and target call no other tune module.
 *
 * The search: every point is run on every seed through the sweep pool
 * (src/sweep/pool.c, a zip plan: each run on a scratch copy of the
 * device, so a result depends only on (point, seed) and `jobs` changes
 * nothing).  A scrambled Latin hypercube over the box first (its own
 * deterministic generator), in parallel; then NLopt's Sbplx (a
 * derivative-free local method) from the best points in turn, constraints
 * as penalties, one point at a time.  Params are searched as their raw
 * register values (linear in the real value for int and fixed point),
 * rounded to integers; a range whose ends differ by 100x or more is
 * searched in log scale.  The budget counts runs (points x seeds) and
 * holds the default point and the sensitivity probes too.
 *
 * A set of scenarios (`scenario incast ... scenario mix ...`, at most
 * TUNE_MAX_SCEN): every point runs on every scenario (x seeds), one sweep
 * plan per scenario; the objective combined over them as the worst case
 * (the default: the largest when minimizing, the least when maximizing;
 * its interval that scenario's) or the mean (its interval from the
 * scenarios' seed intervals: sqrt(sum ci^2) / n, set.c).  A point is
 * feasible only when it meets every constraint on every scenario, in both
 * modes; a constraint's combined value is its worst scenario's.
 *
 * Saved in $XDG_DATA_HOME/pccbench/tunes/NAME/: results.csv (every run,
 * a sweep's columns, `point` = the evaluation's number) and tune.json
 * (the definition, every evaluation's means and 95 % intervals, the best,
 * the default, the sensitivity).
 */
#ifndef PCCB_TUNE_H
#define PCCB_TUNE_H

#include <stdbool.h>
#include <stdint.h>

#include "paths.h"
#include "sweep/sweep.h"

#define TUNE_MAX_CONS	8
#define TUNE_MAX_EVALS	(SW_MAX_RUNS)
#define TUNE_FILE_MAX	(16 << 20)	/* bytes of tune.json */
#define TUNE_MAX_SCEN	8	/* scenarios in a set (said in the help) */

/* A point's values on one scenario: means and 95 % intervals over the
 * seeds.
 */
struct tune_sval {
	double obj, obj_ci;
	double con[TUNE_MAX_CONS], con_ci[TUNE_MAX_CONS];
	bool feasible;
};

struct tune_eval {
	uint32_t raw[SW_MAX_AXES];
	char phase[8];		/* "default", "lhs", "local", "sens" */
	/* combined over the scenarios (one scenario: its values) */
	double obj, obj_ci;
	double con[TUNE_MAX_CONS], con_ci[TUNE_MAX_CONS];
	bool feasible;
	struct tune_sval sc[TUNE_MAX_SCEN];	/* each scenario's */
};

struct tune_prm {
	char name[224];
	unsigned index;
	int type;		/* enum algo_ptype */
	uint32_t lo, hi, def;	/* raw */
	bool log;
};

struct tune_cons {
	char col[48];
	char op[3];		/* "<=", ">=", "<", ">" */
	double v;
};

struct tune_res {
	char name[64], algo[224];
	unsigned slot;
	char obj[48];
	bool maximize;
	size_t ncons;
	struct tune_cons cons[TUNE_MAX_CONS];
	size_t nseeds;
	uint64_t seeds[SW_MAX_REPEAT];
	size_t nscen;		/* 1: one scenario */
	char **scen[TUNE_MAX_SCEN];	/* each one's words (KIND KEY VALUE
					 * ...), NULL-terminated, owned; NULL:
					 * a file from before sets (one
					 * scenario, not saved) */
	bool mean;		/* combined: the mean, else the worst case */
	size_t budget, runs;
	double wall_s;
	bool complete;		/* false: interrupted ('tune resume') */
	size_t nprm;
	struct tune_prm prm[SW_MAX_AXES];
	size_t nev;
	struct tune_eval *ev;	/* the path, in the order evaluated */
	int best;		/* index in ev, -1: nothing feasible */
	int def;		/* the default point's evaluation, -1 none */
	int sens[SW_MAX_AXES][2];	/* evaluations at -step/+step, -1 */
};

/* file.c */
int tune_dir(struct session *s, const char *name, char *buf, size_t len,
	     bool create);
int tune_save(struct session *s, const char *dir, const struct tune_res *r);
/* tune NAME's tune.json, checked whole (fields, ranges, indexes). */
int tune_load(struct session *s, const char *name, struct tune_res *r,
	      char *dir, size_t dlen);
void tune_res_free(struct tune_res *r);
/* Score for comparisons: feasible first, then the objective's sense. */
bool tune_better(const struct tune_res *r, const struct tune_eval *a,
		 const struct tune_eval *b);

/* search.c: the best point by the rule `tune show` states: the
 * least mean of the objective (the greatest when maximizing) among the
 * feasible points measured in the searched box: the hypercube, the local
 * search and (probes=true) the sensitivity probes.  The default point is
 * the baseline, never a candidate.  probes=false: the search's best, the
 * point the probes are measured around.  -1: nothing feasible.
 */
int tune_pick(const struct tune_res *r, bool probes);
/* Whether some evaluated point has the objective on each of its runs
 * (a collective not done within a run's time has no coll_time): when
 * none has, no best is for want of values, not of the constraints. */
bool tune_any_obj(const struct tune_res *r);

/* set.c: the combined values of e from its scenarios' (e->sc). */
void tune_combine(const struct tune_res *r, struct tune_eval *e);
/* "the worst case of 2 scenarios" (or "" with one), for headers. */
const char *tune_set_text(const struct tune_res *r, char *buf, size_t len);
/* "minimize rtt_p99", and for a set " (the worst case of 2 scenarios)":
 * what headers and plot titles say the tune seeks (buf: 128 is enough). */
const char *tune_goal_text(const struct tune_res *r, char *buf, size_t len);
/* scenario k's words joined by spaces ("(not saved)" when unknown). */
const char *tune_scen_text(const struct tune_res *r, size_t k, char *buf,
			   size_t len);

/* target.c */
/* Which slot the best point is for: the one the tune ran on (`tune
 * apply`: in debug mode slot 1, whose counters keep watching it), the
 * active one (`tune verify`), or the deployment slot: the lowest slot
 * holding the tune's algorithm (by algorithm id: slot 0 for ZTR-RTT,
 * whose debug build is slot 1), the one that runs it with debug mode off.
 */
enum tune_target { TUNE_TUNED, TUNE_ACTIVE, TUNE_DEPLOY };

/* The slot `to` names (the tune's algorithm found on the device). */
int tune_slot(struct session *s, const struct tune_res *r,
	      enum tune_target to, unsigned *slot);

/* The best point as writes for the target slot (*slot), checked on the
 * device (the tune's algorithm id there, the params found by name, the
 * values in range); none: an error.
 */
int tune_best_writes(struct session *s, const struct tune_res *r,
		     enum tune_target to, unsigned *slot,
		     struct param_write *w);

/* measure.c: COL as a sweep measure (avg_rtt_p99 -> avg_rtt); its
 * column in a plan's results (-1 none); "sweep: " errors as "tune: ".
 */
void tune_measure_of(const char *col, char *m, size_t len);
int tune_col_of(const struct plan *pl, const char *col);
int tune_retag(struct session *s, int rc);

#endif
