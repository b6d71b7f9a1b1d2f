/* tel.h - telemetry contexts under pccbench's names (tel_retx_*,
 * tel_pcc_*), following DOCA's state machines and error semantics
 * (../shared/spec/doca-telemetry.md 1, 5).  Errors are DOCA's codes; the
 * command layer turns them into one line naming the code.
 */
#ifndef PCCB_TEL_H
#define PCCB_TEL_H

/* name, DOCA's value (doca_error_t), the project code (reg/err.h) it is
 * reported as: DOCA's whole vocabulary, so a DOCA backend (tel/doca.h)
 * passes its codes through and the sim's contexts use the same names.
 * How to add one: a line here; tel_errname and tel_pcb_code follow.
 */
#define TEL_ERRORS(X)                      \
	X(UNKNOWN, 1, DEVICE)              \
	X(NOT_PERMITTED, 2, STATE)         \
	X(IN_USE, 3, STATE)                \
	X(NOT_SUPPORTED, 4, DEVICE)        \
	X(AGAIN, 5, DEVICE)                \
	X(INVALID_VALUE, 6, INVAL)         \
	X(NO_MEMORY, 7, NOMEM)             \
	X(INITIALIZATION, 8, DEVICE)       \
	X(TIME_OUT, 9, DEVICE)             \
	X(SHUTDOWN, 10, DEVICE)            \
	X(CONNECTION_RESET, 11, DEVICE)    \
	X(CONNECTION_ABORTED, 12, DEVICE)  \
	X(CONNECTION_INPROGRESS, 13, DEVICE) \
	X(NOT_CONNECTED, 14, DEVICE)       \
	X(NO_LOCK, 15, DEVICE)             \
	X(NOT_FOUND, 16, DEVICE)           \
	X(IO_FAILED, 17, IO)               \
	X(BAD_STATE, 18, STATE)            \
	X(UNSUPPORTED_VERSION, 19, DEVICE) \
	X(OPERATING_SYSTEM, 20, DEVICE)    \
	X(DRIVER, 21, DEVICE)              \
	X(UNEXPECTED, 22, DEVICE)          \
	X(ALREADY_EXIST, 23, STATE)        \
	X(FULL, 24, INVAL)                 \
	X(EMPTY, 25, DEVICE)               \
	X(IN_PROGRESS, 26, DEVICE)         \
	X(TOO_BIG, 27, INVAL)              \
	X(AUTHENTICATION, 28, DEVICE)      \
	X(BAD_CONFIG, 29, INVAL)           \
	X(SKIPPED, 30, DEVICE)             \
	X(DEVICE_FATAL_ERROR, 31, DEVICE)

enum tel_err {
	TEL_OK = 0,
#define TEL_ENUM(n, v, c) TEL_##n = v,
	TEL_ERRORS(TEL_ENUM)
#undef TEL_ENUM
};

#include "err.h"

const char *tel_errname(int e);		/* "BAD_STATE" */
/* The project code a TEL_* error is reported as (PCB_E_STATE, ...). */
int tel_pcb_code(int e);
/* A TEL_* error as the one-line error "what: BAD_STATE (detail)hint":
 * detail is what the tel layer or transport said in err (if anything).
 * Returns -code.
 */
int tel_fail(struct pcb_err *err, int e, const char *what, const char *hint);

#endif
