/* search.h - a search in progress (search.c): what the search and the
 * command that starts or resumes it (src/cmd/tune_run.c: its words, files
 * and resume) share.
 */
#ifndef PCCB_TUNE_SEARCH_H
#define PCCB_TUNE_SEARCH_H

#include <nlopt.h>

#include "tune/tune.h"
#include "rec/series.h"

/* A search in progress. */
struct tsearch {
	struct session *s;
	struct plan *pl;		/* the first scenario's (spl[0]) */
	struct plan *spl[TUNE_MAX_SCEN];	/* a plan per scenario */
	char **sargv[TUNE_MAX_SCEN];	/* their words (the plans point
					 * into them) */
	size_t rpp;			/* runs per point: seeds x scenarios */
	struct tune_res *r;
	int ocol;			/* the objective's column in pl->res */
	int ccol[TUNE_MAX_CONS];
	unsigned jobs;
	size_t cap;			/* evaluations ev[] holds */
	size_t maxpts;			/* points the budget allows */
	struct series *all;		/* every run, for results.csv */
	char dir[PCB_PATH_LEN];
	double scale;			/* of the objective, for the penalty */
	int rc;				/* an error inside nlopt's callback */
	nlopt_opt opt;
	unsigned hits;			/* cached answers in a row */
	const struct tune_res *old;	/* resume: the evaluations saved */
	const struct series *oldrows;	/* and their runs */
	double t0, wall0;		/* this session's start, time before */
	size_t ran;			/* runs run (not reused) this session */
	size_t inbatch;			/* runs of the batch's earlier
					 * scenarios */
	bool told;			/* the progress line is on screen */
};

/* Save results.csv and tune.json as they are (complete: the search
 * ended).
 */
int tune_save_progress(struct tsearch *t, bool complete);
/* The default point, the hypercube, the local runs, the sensitivity;
 * t->r->best set.  Every batch saved as it ends.
 */
int tune_search(struct tsearch *t);

/* Open libnlopt, which the search uses (0, or one line in err): before
 * a tune run or resume writes anything. */
int tune_lib_load(struct pcb_err *err);

#endif
