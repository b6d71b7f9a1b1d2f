/* run.c - fork/exec with pipes, poll, timeout and reaping. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

#define RUN_MAX_OUTPUT (16 << 20)

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

/* In the child: its own process group (a timeout or stop kills it and
 * what it started), the given stdin/stdout/stderr, default signals, exec;
 * 127 with a line on stderr when exec fails.
 */
static void child_exec(char *const argv[], int in, int out, int err)
	__attribute__((noreturn));
static void child_exec(char *const argv[], int in, int out, int err)
{
	setpgid(0, 0);
	dup2(in, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execvp(argv[0], argv);
	fprintf(stderr, "pccbench: cannot execute %s: %s\n", argv[0],
		strerror(errno));
	_exit(127);
}

void run_result_free(struct run_result *res)
{
	free(res->out);
	free(res->err);
	memset(res, 0, sizeof(*res));
}

int run_prog(char *const argv[], const char *input, int timeout_ms,
	     volatile sig_atomic_t *stop, struct run_result *res,
	     struct pcb_err *err)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, pi[2] = { -1, -1 };
	size_t ocap = 0, ecap = 0;
	long long deadline, kill_at = 0;
	pid_t pid;
	int st = 0, rc = 0, open_fds = 2, sig_sent = 0;

	memset(res, 0, sizeof(*res));
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC) ||
	    pipe2(pi, O_CLOEXEC)) {
		rc = pcb_error(err, PCB_E_IO, "cannot run '%s': %s", argv[0],
			       strerror(errno));
		goto out_close;
	}
	pid = fork();
	if (pid < 0) {
		rc = pcb_error(err, PCB_E_IO, "cannot run '%s': %s", argv[0],
			       strerror(errno));
		goto out_close;
	}
	if (pid == 0)
		child_exec(argv, pi[0], po[1], pe[1]);
	setpgid(pid, pid);	/* either side may win the race */
	close(po[1]);
	close(pe[1]);
	close(pi[0]);
	po[1] = pe[1] = pi[0] = -1;
	if (input) {
		/* a child that exits unread (exec failed) must not kill us
		 * with SIGPIPE: ignore it for the write */
		struct sigaction ign, old;
		ssize_t w;

		memset(&ign, 0, sizeof(ign));
		ign.sa_handler = SIG_IGN;
		sigaction(SIGPIPE, &ign, &old);
		w = write(pi[1], input, strlen(input));
		sigaction(SIGPIPE, &old, NULL);
		(void)w;	/* a child that does not read is fine */
	}
	close(pi[1]);
	pi[1] = -1;
	deadline = ms_now() + timeout_ms;
	while (open_fds > 0) {
		struct pollfd fds[2] = { { po[0], POLLIN, 0 },
					 { pe[0], POLLIN, 0 } };
		long long now = ms_now();
		int n;

		if ((stop && *stop) || now >= deadline) {
			if (!sig_sent) {
				kill(-pid, SIGTERM);
				sig_sent = 1;
				kill_at = now + 1000;
				res->timed_out = !(stop && *stop);
			} else if (now >= kill_at && sig_sent == 1) {
				kill(-pid, SIGKILL);
				sig_sent = 2;
				kill_at = now + 1000;
			} else if (now >= kill_at && sig_sent == 2) {
				break;	/* whatever holds the pipes: done */
			}
		}
		n = poll(fds, 2, 50);
		if (n < 0 && errno != EINTR)
			break;
		if (n <= 0)
			continue;
		if (fds[0].revents && fds[0].fd >= 0 &&
		    slurp(po[0], &res->out, &res->out_len, &ocap)) {
			close(po[0]);
			po[0] = -1;
			open_fds--;
		}
		if (fds[1].revents && fds[1].fd >= 0 &&
		    slurp(pe[0], &res->err, &res->err_len, &ecap)) {
			close(pe[0]);
			pe[0] = -1;
			open_fds--;
		}
	}
	/* pipes closed (or the child ran away): reap, killing if needed */
	while (waitpid(pid, &st, sig_sent ? 0 : WNOHANG) == 0) {
		if (ms_now() >= deadline || (stop && *stop)) {
			kill(-pid, SIGKILL);
			sig_sent = 2;
		}
		usleep(10000);
	}
	res->status = WIFEXITED(st) ? WEXITSTATUS(st) :
		      WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
	if (!res->out)
		res->out = strdup("");
	if (!res->err)
		res->err = strdup("");
	if (!res->out || !res->err)
		rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
	else if (sig_sent && stop && *stop)
		rc = pcb_error(err, PCB_E_INTR, "'%s' interrupted", argv[0]);
	else if (res->timed_out)
		rc = pcb_error(err, PCB_E_DEVICE,
			       "'%s' did not answer within %d ms (killed)",
			       argv[0], timeout_ms);
	else if (res->status == 127 && strstr(res->err, "cannot execute"))
		rc = pcb_error(err, PCB_E_DEVICE, "cannot run '%s': not found "
			       "or not executable", argv[0]);
	if (rc)
		run_result_free(res);
	return rc;
out_close:
	if (po[0] >= 0)
		close(po[0]);
	if (po[1] >= 0)
		close(po[1]);
	if (pe[0] >= 0)
		close(pe[0]);
	if (pe[1] >= 0)
		close(pe[1]);
	if (pi[0] >= 0)
		close(pi[0]);
	if (pi[1] >= 0)
		close(pi[1]);
	return rc;
}

int run_bg_start(struct run_bg *bg, char *const argv[], const char *log,
		 struct pcb_err *err)
{
	int in, out;
	pid_t pid;

	memset(bg, 0, sizeof(*bg));
	snprintf(bg->name, sizeof(bg->name), "%s", argv[0]);
	in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	out = open(log ? log : "/dev/null",
		   O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (in < 0 || out < 0) {
		if (in >= 0)
			close(in);
		return pcb_error(err, PCB_E_IO, "cannot run '%s': %s: %s",
				 argv[0], log ? log : "/dev/null",
				 strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		close(in);
		close(out);
		return pcb_error(err, PCB_E_IO, "cannot run '%s': %s", argv[0],
				 strerror(errno));
	}
	if (pid == 0)
		child_exec(argv, in, out, out);
	setpgid(pid, pid);
	close(in);
	close(out);
	bg->pid = pid;
	return 0;
}

static void bg_status(struct run_bg *bg, int st)
{
	bg->status = WIFEXITED(st) ? WEXITSTATUS(st) :
		     WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
	bg->pid = 0;
}

bool run_bg_done(struct run_bg *bg)
{
	int st;

	if (!bg->pid)
		return true;
	if (waitpid(bg->pid, &st, WNOHANG) != bg->pid)
		return false;
	bg_status(bg, st);
	return true;
}

int run_bg_stop(struct run_bg *bg, int grace_ms)
{
	long long kill_at;
	int st;

	if (run_bg_done(bg))
		return bg->status;
	kill(-bg->pid, SIGTERM);
	kill_at = ms_now() + grace_ms;
	while (waitpid(bg->pid, &st, WNOHANG) == 0) {
		if (ms_now() >= kill_at) {
			kill(-bg->pid, SIGKILL);
			waitpid(bg->pid, &st, 0);
			break;
		}
		usleep(5000);
	}
	bg_status(bg, st);
	return bg->status;
}
