/* run.c - fork/exec with pipes, poll, timeout and reaping, and no
 * process left behind.
 *
 * When run_prog returns (or run_bg_stop), nothing the program started
 * may still run.  How:
 *
 * - The child gets a process group of its own.  A timeout or an
 *   interrupt signals the whole group.  Once the child has exited, what
 *   is left of its group is killed *before* the child is reaped: its
 *   zombie keeps the pid, so the group id cannot have been reused.  The
 *   exit is noticed with waitid(WNOWAIT) for that reason.
 * - A descendant can leave the group (setsid(), a daemon's double fork).
 *   Two things find it.  First, pccbench makes itself a child subreaper
 *   (prctl PR_SET_CHILD_SUBREAPER): orphans of a run are re-parented to
 *   pccbench, not to init, so they stay pccbench's own children, the only
 *   processes it will signal.  Second, each run's environment carries
 *   PCCBENCH_RUN=<pccbench pid>.<run number>, which descendants inherit.
 *   After a run, the children of pccbench whose /proc/PID/environ carries
 *   that run's tag are killed with their groups, and the zombies of those
 *   groups are reaped, in rounds until none is left (bounded in time).
 *   Other children (a traffic command still running beside a recording,
 *   sweep workers) carry another tag or none and are left alone; nothing
 *   here waits with waitpid(-1).
 * - The child's exit, not EOF on its pipes, ends a run: what a grandchild
 *   holds open is not waited for.  After the exit, what is already in the
 *   pipes is read (the child wrote it all before it exited), for at most
 *   RUN_DRAIN_MS.
 *
 * - The child is tied to pccbench's life: PR_SET_PDEATHSIG (SIGKILL),
 *   set between fork and exec, ends it when pccbench dies however it
 *   dies (SIGKILL included: no cleanup of ours runs then), so a killed
 *   live sweep or `tune verify` leaves no traffic command running.
 *
 * Limits: what the child started itself is not tied so when pccbench is
 * killed (a clean exit sweeps it, above).  A descendant that leaves the
 * group and also clears its
 * environment is not found (it stays a child of pccbench); a cgroup would
 * catch it, but needs a delegated cgroup tree.  A process that runs as
 * another user cannot be killed by a pccbench that is not root.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fsafe.h"
#include "run.h"

#define RUN_MAX_OUTPUT (16 << 20)
#define RUN_DRAIN_MS	200	/* reading on after the child exited */
#define RUN_SWEEP_MS	2000	/* killing what it left, at most */
#define RUN_SWEEP_MAX	64	/* groups and pids one sweep tracks */
#define RUN_TAG		"PCCBENCH_RUN="

extern char **environ;

static long long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int slurp(int fd, char **buf, size_t *len, size_t *cap)
{
	char tmp[4096];
	ssize_t n = read(fd, tmp, sizeof(tmp));

	if (n <= 0)
		return n == 0 || (errno != EINTR && errno != EAGAIN) ? -1 : 0;
	if (*len + (size_t)n + 1 > *cap) {
		size_t nc = (*cap ? *cap * 2 : 8192);
		char *nb;

		while (nc < *len + (size_t)n + 1)
			nc *= 2;
		if (nc > RUN_MAX_OUTPUT)
			return -1;	/* runaway output: stop reading */
		nb = realloc(*buf, nc);
		if (!nb)
			return -1;
		*buf = nb;
		*cap = nc;
	}
	memcpy(*buf + *len, tmp, (size_t)n);
	*len += (size_t)n;
	(*buf)[*len] = '\0';
	return 0;
}

/* Orphans of our runs come back to us (see the head comment).  Not
 * inherited across fork, so once per process is enough; without it
 * (an old kernel) only the process group is cleaned up.
 */
static void run_subreaper(void)
{
	static bool done;

	if (!done)
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	done = true;
}

/* "PCCBENCH_RUN=<pid>.<n>", new for each run. */
static void run_tag(char *buf, size_t len)
{
	static unsigned long seq;

	snprintf(buf, len, RUN_TAG "%ld.%lu", (long)getpid(), ++seq);
}

/* Our environment with `tag` instead of any inherited one; built before
 * fork, so that the child only has to exec.  Free the array only.
 */
static char **run_env(const char *tag)
{
	size_t n = 0, i, k = 0;
	char **env;

	while (environ && environ[n])
		n++;
	env = malloc((n + 2) * sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], RUN_TAG, strlen(RUN_TAG)))
			env[k++] = environ[i];
	env[k++] = (char *)tag;
	env[k] = NULL;
	return env;
}

/* In the child: its own process group (a timeout or stop kills it and
 * what it started), killed when `parent` (pccbench) dies, the given
 * stdin/stdout/stderr, default signals, exec; 127 with a line on stderr
 * when exec fails.
 */
static void child_exec(pid_t parent, char *const argv[], char **env, int in,
		       int out, int err) __attribute__((noreturn));
static void child_exec(pid_t parent, char *const argv[], char **env, int in,
		       int out, int err)
{
	setpgid(0, 0);
	/* the death signal, then: was the parent gone before it was set? */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) || getppid() != parent)
		_exit(127);
	dup2(in, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	execvpe(argv[0], argv, env);
	fprintf(stderr, "pccbench: cannot execute %s: %s\n", argv[0],
		strerror(errno));
	_exit(127);
}

/* Has child pid exited?  It stays a zombie (WNOWAIT): its pid, and so its
 * group's id, remain ours until run_sweep and the final waitpid.
 */
static bool child_exited(pid_t pid, int *status, bool block)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	while (waitid(P_PID, (id_t)pid, &si,
		      WEXITED | WNOWAIT | (block ? 0 : WNOHANG))) {
		if (errno != EINTR) {
			*status = 255;	/* not ours to wait for: gone */
			return true;
		}
	}
	if (si.si_pid != pid)
		return false;
	*status = si.si_code == CLD_EXITED ? si.si_status :
		  si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED ?
		  128 + si.si_status : 255;
	return true;
}

/* Parent, group and state of a process, from /proc/PID/stat. */
static bool proc_stat(pid_t pid, pid_t *ppid, pid_t *pgrp, char *state)
{
	char path[64], buf[512], *p;
	long pp, pg;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* after the command name, whatever it is */
	if (!p || sscanf(p + 1, " %c %ld %ld", state, &pp, &pg) != 3)
		return false;
	*ppid = (pid_t)pp;
	*pgrp = (pid_t)pg;
	return true;
}

/* Does pid's environment hold the entry `tag` (exactly)? */
static bool proc_has_tag(pid_t pid, const char *tag)
{
	char path[64], buf[4096];
	size_t tl = strlen(tag) + 1, have = 0;	/* entries end in NUL */
	bool found = false, skip = false;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/environ", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	while (!found && (n = read(fd, buf + have, sizeof(buf) - have)) > 0) {
		size_t start = 0;
		char *nul;

		have += (size_t)n;
		while (!found && (nul = memchr(buf + start, '\0',
					       have - start))) {
			size_t el = (size_t)(nul - (buf + start)) + 1;

			found = !skip && el == tl &&
				!memcmp(buf + start, tag, tl);
			skip = false;
			start += el;
		}
		if (!start && have == sizeof(buf)) {
			skip = true;	/* an entry longer than buf */
			have = 0;
			continue;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
	}
	close(fd);
	return found;
}

static bool pid_in(const pid_t *v, size_t n, pid_t pid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == pid)
			return true;
	return false;
}

/* Kill and reap what the run with `tag`, whose child `leader` has exited
 * (unreaped), left behind: its process group, and the children of
 * pccbench that carry the tag, with their groups (never pccbench's own).
 * Only our own children are looked at (see the head comment); zombies
 * are reaped when they belong to one of those groups or were killed
 * here.  The leader is the caller's to reap.
 */
static void run_sweep(const char *tag, pid_t leader)
{
	pid_t mine[RUN_SWEEP_MAX], me = getpid(), ours = getpgrp();
	long long until = ms_now() + RUN_SWEEP_MS;
	size_t nmine = 0;

	mine[nmine++] = leader;
	kill(-leader, SIGKILL);
	for (;;) {
		struct dirent *de;
		int live = 0;
		DIR *d = opendir("/proc");

		if (!d)
			return;
		while ((de = readdir(d))) {
			pid_t pid, ppid, pgrp;
			char *end, st;
			long v = strtol(de->d_name, &end, 10);

			if (*end || v <= 0 || (pid_t)v == leader ||
			    !proc_stat((pid_t)v, &ppid, &pgrp, &st) ||
			    ppid != me)
				continue;
			pid = (pid_t)v;
			if (st == 'Z') {
				if (pid_in(mine, nmine, pgrp) ||
				    pid_in(mine, nmine, pid))
					waitpid(pid, NULL, WNOHANG);
				continue;
			}
			if (!pid_in(mine, nmine, pgrp) &&
			    !proc_has_tag(pid, tag))
				continue;
			kill(pid, SIGKILL);
			if (nmine < RUN_SWEEP_MAX && !pid_in(mine, nmine, pid))
				mine[nmine++] = pid;
			/* its group (made by the run: setsid or setpgid) goes
			 * too; its zombies, e.g. a daemon's middle process,
			 * are reaped */
			if (pgrp > 1 && pgrp != ours) {
				kill(-pgrp, SIGKILL);
				if (nmine < RUN_SWEEP_MAX &&
				    !pid_in(mine, nmine, pgrp))
					mine[nmine++] = pgrp;
			}
			live++;
		}
		closedir(d);
		if (!live || ms_now() >= until)
			return;
		usleep(1000);
	}
}

void run_result_free(struct run_result *res)
{
	free(res->out);
	free(res->err);
	memset(res, 0, sizeof(*res));
}

/* One run's child and its pipes (-1: closed). */
struct run_child {
	pid_t pid;
	int pidfd;		/* -1 before Linux 5.3: polled */
	int po[2], pe[2], pi[2];
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void close_pipes(struct run_child *c)
{
	int i;

	for (i = 0; i < 2; i++) {
		close_fd(&c->po[i]);
		close_fd(&c->pe[i]);
		close_fd(&c->pi[i]);
	}
}

/* Pipes, fork, the child's exec; the parent keeps its ends only. */
static int spawn(struct run_child *c, char *const argv[], char **env,
		 struct pcb_err *err)
{
	pid_t self = getpid();

	if (pipe2(c->po, O_CLOEXEC) || pipe2(c->pe, O_CLOEXEC) ||
	    pipe2(c->pi, O_CLOEXEC) || (c->pid = fork()) < 0)
		return pcb_error(err, PCB_E_IO, "cannot run '%s': %s", argv[0],
				 strerror(errno));
	if (c->pid == 0)
		child_exec(self, argv, env, c->pi[0], c->po[1], c->pe[1]);
	setpgid(c->pid, c->pid);	/* either side may win the race */
	/* readable when the child exits */
	c->pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
	close_fd(&c->po[1]);
	close_fd(&c->pe[1]);
	close_fd(&c->pi[0]);
	return 0;
}

/* The child's stdin, then EOF. */
static void feed(struct run_child *c, const char *input)
{
	if (input) {
		/* a child that exits unread (exec failed) must not kill us
		 * with SIGPIPE: ignore it for the write */
		struct sigaction ign, old;
		ssize_t w;

		memset(&ign, 0, sizeof(ign));
		ign.sa_handler = SIG_IGN;
		sigaction(SIGPIPE, &ign, &old);
		w = write(c->pi[1], input, strlen(input));
		sigaction(SIGPIPE, &old, NULL);
		(void)w;	/* a child that does not read is fine */
	}
	close_fd(&c->pi[1]);
}

/* Until the child exits (SIGTERM at the deadline or on *stop, SIGKILL a
 * second later); then drain what it wrote (in the pipes already), not
 * what a grandchild holding them may write.  Returns its wait status.
 */
static int collect(struct run_child *c, int timeout_ms,
		   volatile sig_atomic_t *stop, struct run_result *res,
		   int *sig_sent)
{
	long long deadline = ms_now() + timeout_ms, kill_at = 0;
	long long drain_until = 0;
	size_t ocap = 0, ecap = 0;
	int status = 255;
	bool done = false;

	for (;;) {
		struct pollfd fds[3];
		long long now = ms_now();
		int nf = 0, n, i;

		if (!done && child_exited(c->pid, &status, false)) {
			done = true;
			drain_until = now + RUN_DRAIN_MS;
		}
		if (done && ((c->po[0] < 0 && c->pe[0] < 0) ||
			     now >= drain_until))
			break;
		if (!done && ((stop && *stop) || now >= deadline)) {
			if (!*sig_sent) {
				kill(-c->pid, SIGTERM);
				*sig_sent = 1;
				kill_at = now + 1000;
				res->timed_out = !(stop && *stop);
			} else if (*sig_sent == 1 && now >= kill_at) {
				kill(-c->pid, SIGKILL);
				*sig_sent = 2;
			}
		}
		if (c->po[0] >= 0)
			fds[nf++] = (struct pollfd){ c->po[0], POLLIN, 0 };
		if (c->pe[0] >= 0)
			fds[nf++] = (struct pollfd){ c->pe[0], POLLIN, 0 };
		if (!done && c->pidfd >= 0)
			fds[nf++] = (struct pollfd){ c->pidfd, POLLIN, 0 };
		n = poll(fds, (nfds_t)nf, done ? 0 : c->pidfd >= 0 ? 50 : 10);
		if (n == 0 && done)
			break;	/* nothing more of the child's to read */
		for (i = 0; n > 0 && i < nf; i++) {
			if (!fds[i].revents || fds[i].fd == c->pidfd)
				continue;
			if (fds[i].fd == c->po[0] &&
			    slurp(c->po[0], &res->out, &res->out_len, &ocap))
				close_fd(&c->po[0]);
			else if (fds[i].fd == c->pe[0] &&
				 slurp(c->pe[0], &res->err, &res->err_len,
				       &ecap))
				close_fd(&c->pe[0]);
		}
	}
	return status;
}

/* The error a finished run is, if any. */
static int outcome(char *const argv[], int timeout_ms,
		   volatile sig_atomic_t *stop, int sig_sent,
		   struct run_result *res, struct pcb_err *err)
{
	if (!res->out)
		res->out = strdup("");
	if (!res->err)
		res->err = strdup("");
	if (!res->out || !res->err)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	if (sig_sent && stop && *stop)
		return pcb_error(err, PCB_E_INTR, "'%s' interrupted", argv[0]);
	if (res->timed_out)
		return pcb_error(err, PCB_E_DEVICE, "'%s' did not answer within "
				 "%d ms (killed)", argv[0], timeout_ms);
	if (res->status == 127 && strstr(res->err, "cannot execute"))
		return pcb_error(err, PCB_E_DEVICE, "cannot run '%s': not found "
				 "or not executable", argv[0]);
	return 0;
}

int run_prog(char *const argv[], const char *input, int timeout_ms,
	     volatile sig_atomic_t *stop, struct run_result *res,
	     struct pcb_err *err)
{
	struct run_child c = { .pidfd = -1, .po = { -1, -1 },
			       .pe = { -1, -1 }, .pi = { -1, -1 } };
	char tag[64], **env;
	int rc, sig_sent = 0, status;

	memset(res, 0, sizeof(*res));
	run_subreaper();
	run_tag(tag, sizeof(tag));
	env = run_env(tag);
	if (!env)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	rc = spawn(&c, argv, env, err);
	free(env);
	if (rc) {
		close_pipes(&c);
		return rc;
	}
	feed(&c, input);
	status = collect(&c, timeout_ms, stop, res, &sig_sent);
	close_fd(&c.pidfd);
	run_sweep(tag, c.pid);
	waitpid(c.pid, NULL, 0);
	res->status = status;
	rc = outcome(argv, timeout_ms, stop, sig_sent, res, err);
	if (rc) {
		int timed_out = res->timed_out;

		run_result_free(res);
		res->status = status;
		res->timed_out = timed_out;
	}
	close_pipes(&c);
	return rc;
}

/* The traffic log: created or appended to, never through a planted
 * symlink or into a FIFO (fsafe.h pcb_open_rw: O_NOFOLLOW, O_NONBLOCK
 * for the open, then a regular file or a refusal).
 */
static int open_log(const char *argv0, const char *log, struct pcb_err *err)
{
	struct pcb_err e = { 0 };
	int fd = pcb_open_rw(log, O_CREAT | O_APPEND, PCB_MODE_DATA, &e);

	if (fd < 0)
		return pcb_error(err, e.code ? e.code : PCB_E_IO,
				 "cannot run '%s': log: %s", argv0, e.msg);
	return fd;
}

int run_bg_start(struct run_bg *bg, char *const argv[], const char *log,
		 struct pcb_err *err)
{
	pid_t pid, self = getpid();
	char **env;
	int in, out;

	memset(bg, 0, sizeof(*bg));
	snprintf(bg->name, sizeof(bg->name), "%s", argv[0]);
	run_subreaper();
	run_tag(bg->tag, sizeof(bg->tag));
	out = log ? open_log(argv[0], log, err) :
		    open("/dev/null", O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (out < 0)
		return log ? out : pcb_error(err, PCB_E_IO, "cannot run '%s': "
					     "/dev/null: %s", argv[0],
					     strerror(errno));
	in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	env = in < 0 ? NULL : run_env(bg->tag);
	if (!env) {
		int rc = in < 0 ? pcb_error(err, PCB_E_IO, "cannot run '%s': "
					    "/dev/null: %s", argv[0],
					    strerror(errno)) :
				  pcb_error(err, PCB_E_NOMEM, "out of memory");

		if (in >= 0)
			close(in);
		close(out);
		return rc;
	}
	pid = fork();
	if (pid < 0) {
		free(env);
		close(in);
		close(out);
		return pcb_error(err, PCB_E_IO, "cannot run '%s': %s", argv[0],
				 strerror(errno));
	}
	if (pid == 0)
		child_exec(self, argv, env, in, out, out);
	free(env);
	setpgid(pid, pid);
	close(in);
	close(out);
	bg->pid = pid;
	return 0;
}

bool run_bg_done(struct run_bg *bg)
{
	if (!bg->pid || bg->exited)
		return true;
	bg->exited = child_exited(bg->pid, &bg->status, false);
	return bg->exited;
}

int run_bg_stop(struct run_bg *bg, int grace_ms)
{
	long long kill_at;

	if (!bg->pid)
		return bg->status;
	if (!run_bg_done(bg)) {
		kill(-bg->pid, SIGTERM);
		kill_at = ms_now() + grace_ms;
		while (!run_bg_done(bg)) {
			if (ms_now() >= kill_at) {
				kill(-bg->pid, SIGKILL);
				bg->exited = child_exited(bg->pid, &bg->status,
							  true);
				break;
			}
			usleep(5000);
		}
	}
	run_sweep(bg->tag, bg->pid);
	waitpid(bg->pid, NULL, 0);
	bg->pid = 0;
	return bg->status;
}
