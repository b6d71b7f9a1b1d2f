/* err.h - one error vocabulary for pccbench.
 *
 * Actions return 0 or a negative project code (-PCB_E_*); predicates return
 * bool.  The layer that detects a problem writes one message into a
 * caller-owned struct pcb_err; only the top (the command runner) prints it.
 * Messages start lowercase, have no trailing period and quote the subject.
 *
 * Every code belongs to an exit class: 1 = bad input (nothing was written),
 * 2 = device or backend error.  How to add a code: one X() line below.
 */
#ifndef PCCB_ERR_H
#define PCCB_ERR_H

#include <stddef.h>

/*  name       exit  description */
#define PCB_ERRORS(X)                                          \
	X(INVAL,     1, "invalid argument")                    \
	X(RANGE,     1, "value out of range")                  \
	X(NOENT,     1, "no such object")                      \
	X(AMBIG,     1, "ambiguous name")                      \
	X(USAGE,     1, "wrong usage")                         \
	X(PARSE,     1, "malformed input")                     \
	X(STATE,     1, "operation not allowed in this state") \
	X(DEVICE,    2, "device error")                        \
	X(IO,        2, "input/output error")                  \
	X(MISMATCH,  2, "read-back mismatch")                  \
	X(CORRUPT,   1, "corrupt or foreign file")             \
	X(BUSY,      2, "device busy")                         \
	X(NOMEM,     2, "out of memory")                       \
	X(INTR,      2, "interrupted")

enum pcb_errno {
	PCB_OK = 0,
#define PCB_ERR_ENUM(name, exitc, descr) PCB_E_##name,
	PCB_ERRORS(PCB_ERR_ENUM)
#undef PCB_ERR_ENUM
	PCB_E_MAX
};

struct pcb_err {
	int code;		/* PCB_E_*, 0 when no error */
	char msg[512];		/* one line, no trailing newline */
};

/* Record an error (first one wins unless overwritten with err_reset) and
 * return -code, so "return pcb_error(err, PCB_E_INVAL, ...)" reads well.
 * err may be NULL.
 */
int pcb_error(struct pcb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void pcb_err_reset(struct pcb_err *err);
const char *pcb_strerror(int code);	/* accepts code or -code */
int pcb_exit_code(int code);		/* 0, 1 or 2; accepts code or -code */
const char *pcb_errname(int code);	/* "INVAL" */

#endif
