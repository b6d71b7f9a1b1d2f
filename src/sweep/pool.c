/* pool.c - the pool: runs on a replaying device (the sim): worker
 * processes, each on its own copy of the device (sweep.h).
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
void sw_rm_tree(const char *path)
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
	char path[PCB_PATH_LEN];

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
		if (pcb_path(path, sizeof(path), NULL, "%s/%s", root, n))
			continue;
		if (lstat(path, &st) || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid())
			continue;
		if (!kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		sw_rm_tree(path);
	}
	closedir(d);
}

/* A worker's device: a private state directory holding a copy of the
 * device's state, found there through XDG_STATE_HOME.
 */
static int worker_device(struct session *s, const char *dir)
{
	int rc = dev_copy(s->cur, dir);

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
	struct param_write w[SW_MAX_AXES];
	struct series *ser;
	struct recorder r;
	int64_t done;
	double t0;
	/* the sweep's scenario (checked by the parent) */
	int rc = dev_replay(cs->cur, pl->nscen, pl->scen,
			    pl->seeds[run % pl->repeat]);

	if (rc)
		return rc;
	sw_fill_writes(pl, run / pl->repeat, w);
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
		rc = dev_run(cs->cur, pl->warmup, true);
	if (!rc)
		rc = rec_capture(&r, ser, pl->dur, pl->every, NULL, &done);
	msg->sim_s = pcb_mono_s() - t0;
	if (!rc)
		rc = sw_summarise(cs, pl, ser, &r, msg->v);
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

	sess_init(&cs, s->cur->name);
	cs.opt.stop = s->opt.stop;
	cs.yes = true;
	if (null) {
		cs.opt.errfp = null;
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
			snprintf(msg.msg, sizeof(msg.msg), "%s", cs.err.msg);
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

/* The workers and what they are doing. */
struct pool {
	struct job *jobs;
	struct pollfd *pfd;
	unsigned *idx;		/* pfd[i] is jobs[idx[i]]'s */
	unsigned nj, nbusy;
	size_t *order, next;	/* the runs in order, the next to give */
};

/* This sweep's scratch directory, $XDG_CACHE_HOME/pccbench/sweep/PID
 * (those of killed sweeps removed first).
 */
static int scratch_root(struct session *s, char *root, size_t len)
{
	int rc = pcb_user_dir(root, len, PCB_DIR_CACHE, "sweep", true,
			      &s->err);
	size_t l;

	if (rc)
		return rc;
	l = strlen(root);
	remove_stale(root);
	rc = pcb_path(root + l, len - l, &s->err, "/%ld", (long)getpid());
	if (rc)
		return rc;
	sw_rm_tree(root);
	if (mkdir(root, 0700))
		return pcb_error(&s->err, PCB_E_IO, "cannot create '%s': %s",
				 root, strerror(errno));
	return 0;
}

/* The workers, each with its own device under root/wN. */
static int start_workers(struct session *s, struct plan *pl,
			 struct pool *po, const char *root)
{
	char dir[PCB_PATH_LEN];
	unsigned i;

	while (po->nj < pl->jobs) {
		int to[2], from[2];
		pid_t pid;

		if (pipe2(to, O_CLOEXEC))
			return pcb_error(&s->err, PCB_E_IO, "sweep: pipe: %s",
					 strerror(errno));
		if (pipe2(from, O_CLOEXEC)) {
			close(to[0]);
			close(to[1]);
			return pcb_error(&s->err, PCB_E_IO, "sweep: pipe: %s",
					 strerror(errno));
		}
		if (pcb_path(dir, sizeof(dir), &s->err, "%s/w%u", root,
			     po->nj)) {
			close(to[0]);
			close(to[1]);
			close(from[0]);
			close(from[1]);
			return -s->err.code;
		}
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			for (i = 0; i < po->nj; i++) {	/* the others' pipes */
				close(po->jobs[i].in);
				close(po->jobs[i].out);
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
			return pcb_error(&s->err, PCB_E_IO, "sweep: fork: %s",
					 strerror(errno));
		}
		po->jobs[po->nj++] = (struct job){ pid, to[1], from[0], -1 };
	}
	return 0;
}

/* The next runs to the idle workers. */
static int dispatch(struct session *s, struct plan *pl, struct pool *po)
{
	unsigned i;

	for (i = 0; i < po->nj && po->next < pl->nruns; i++) {
		uint32_t run;

		if (po->jobs[i].run >= 0)
			continue;
		while (po->next < pl->nruns && pl->done[po->order[po->next]])
			po->next++;
		if (po->next == pl->nruns)
			break;
		run = (uint32_t)po->order[po->next++];
		if (write(po->jobs[i].in, &run, sizeof(run)) !=
		    (ssize_t)sizeof(run))
			return pcb_error(&s->err, PCB_E_IO, "sweep: a worker "
					 "stopped listening");
		po->jobs[i].run = run;
		po->nbusy++;
	}
	return 0;
}

/* A worker's answer: its run's numbers stored and saved, or the point
 * named in the error.
 */
static int collect(struct session *s, struct plan *pl, struct job *j,
		   double t0)
{
	struct wmsg msg;
	ssize_t n = 0, got;
	char pt[256];
	int rc = 0;

	while ((size_t)n < sizeof(msg) &&
	       (got = read(j->out, (char *)&msg + n,
			   sizeof(msg) - (size_t)n)) > 0)
		n += got;
	if ((size_t)n == sizeof(msg) && msg.run == j->run && !msg.rc) {
		sw_store_run(pl, (size_t)j->run, msg.v);
		pl->sim_s += msg.sim_s;
		rc = sw_save_results(s, pl);
		sw_progress(s, pl, t0, false);
	} else {	/* name the point */
		sw_point_text(s, pl, (size_t)j->run / pl->repeat, pt,
			      sizeof(pt));
		if ((size_t)n != sizeof(msg) || msg.run != j->run)
			rc = pcb_error(&s->err, PCB_E_IO, "sweep: the worker "
				       "for point %ld (%s) died", j->run /
				       (long)pl->repeat, pt);
		else
			rc = pcb_error(&s->err, -msg.rc, "sweep: point %ld "
				       "(%s): %s", j->run / (long)pl->repeat,
				       pt, msg.msg);
	}
	j->run = -1;
	return rc;
}

/* Give out runs and collect answers until every run is done, one fails,
 * or Ctrl-C.
 */
static int drive(struct session *s, struct plan *pl, struct pool *po,
		 double t0)
{
	unsigned i, np;
	int rc = 0;

	while (!rc) {
		rc = dispatch(s, pl, po);
		if (rc || !po->nbusy)
			break;
		if (s->opt.stop && *s->opt.stop)
			return pcb_error(&s->err, PCB_E_INTR, "interrupted");
		for (i = np = 0; i < po->nj; i++)
			if (po->jobs[i].run >= 0) {
				po->pfd[np] = (struct pollfd){
					po->jobs[i].out, POLLIN, 0 };
				po->idx[np++] = i;
			}
		if (poll(po->pfd, np, 100) <= 0)
			continue;
		for (i = 0; i < np && !rc; i++)
			if (po->pfd[i].revents) {
				rc = collect(s, pl, &po->jobs[po->idx[i]], t0);
				po->nbusy--;
			}
	}
	return rc;
}

int sw_run_replay(struct session *s, struct plan *pl, double t0)
{
	struct pool po = {
		.jobs = calloc(pl->jobs, sizeof(*po.jobs)),
		.pfd = calloc(pl->jobs, sizeof(*po.pfd)),
		.idx = calloc(pl->jobs, sizeof(*po.idx)),
		.order = sw_run_order(pl),
	};
	struct sigaction ign, old_pipe;
	char root[PCB_PATH_LEN];
	bool have_root = false;
	int rc = 0;

	if (!po.order || !po.jobs || !po.pfd || !po.idx) {
		free(po.order);
		free(po.jobs);
		free(po.pfd);
		free(po.idx);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	rc = scratch_root(s, root, sizeof(root));
	have_root = !rc;
	/* a worker that died must not take the sweep with it through a
	 * write to its pipe: SIGPIPE is ignored while they run */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old_pipe);
	if (!rc)
		rc = start_workers(s, pl, &po, root);
	if (!rc)
		rc = drive(s, pl, &po, t0);
	/* an interrupt that reached the workers first shows as their error */
	if (rc && s->opt.stop && *s->opt.stop) {
		pcb_err_reset(&s->err);
		rc = pcb_error(&s->err, PCB_E_INTR, "interrupted");
	}
	workers_end(po.jobs, po.nj, rc != 0);
	sigaction(SIGPIPE, &old_pipe, NULL);
	sw_progress(s, pl, t0, true);
	if (have_root)
		sw_rm_tree(root);
	free(po.order);
	free(po.jobs);
	free(po.pfd);
	free(po.idx);
	return rc;
}
