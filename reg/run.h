/* run.h - run a program with fork/exec and an argv (never a shell),
 * capture its stdout and stderr, time it out (SIGTERM, then SIGKILL),
 * and always reap it and everything it started (run.c says how: its own
 * process group, pccbench a child subreaper, a tag in the environment).
 *
 * Ownership: run_prog fills a struct run_result whose buffers the caller
 * frees with run_result_free.
 */
#ifndef PCCB_RUN_H
#define PCCB_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>

#include "err.h"

struct run_result {
	char *out, *err;	/* NUL-terminated captures */
	size_t out_len, err_len;
	int status;		/* exit code, or 128 + signal */
	int timed_out;
};

/* argv[0] is the program (a path, or a name searched in PATH).  stdin is
 * /dev/null unless `input` is given.  stop: an interrupt flag polled while
 * waiting (kills the child).  The run ends when the child exits (what a
 * grandchild keeps open is not waited for); what it left running is
 * killed.  Returns 0 when the program ran (whatever its exit code), or
 * -PCB_E_* when it could not be started, timed out or was stopped; then
 * out and err are freed, status and timed_out are kept.
 */
int run_prog(char *const argv[], const char *input, int timeout_ms,
	     volatile sig_atomic_t *stop, struct run_result *res,
	     struct pcb_err *err);
void run_result_free(struct run_result *res);

/* A program running beside pccbench (a traffic command while recording):
 * started in its own process group with stdin /dev/null and stdout and
 * stderr appended to `log` (or /dev/null), stopped with SIGTERM, then
 * SIGKILL after grace_ms, and always reaped.  The log must be a regular
 * file if it exists (a symlink or FIFO there is refused); it is created
 * 0644.  An exec failure shows as exit status 127 with a line in the log.
 * Every run_bg_start that succeeded is ended by one run_bg_stop.
 */
struct run_bg {
	pid_t pid;		/* 0: not started, or stopped and reaped */
	bool exited;		/* the child exited (reaped by run_bg_stop) */
	int status;		/* exit code or 128 + signal, once exited */
	char name[64];		/* argv[0], for messages */
	char tag[64];		/* PCCBENCH_RUN=... in its environment */
};
int run_bg_start(struct run_bg *bg, char *const argv[], const char *log,
		 struct pcb_err *err);
/* Exited already (checked now, without waiting)?  Fills bg->status. */
bool run_bg_done(struct run_bg *bg);
/* Stop (if running), kill what it left, reap; returns the exit status. */
int run_bg_stop(struct run_bg *bg, int grace_ms);

#endif
