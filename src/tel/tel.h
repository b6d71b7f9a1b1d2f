/* tel.h - telemetry contexts under pccbench's names (tel_retx_*,
 * tel_pcc_*), following DOCA's state machines and error semantics
 * (../shared/spec/doca-telemetry.md 1, 5).  Errors are DOCA's codes; the
 * command layer turns them into one line naming the code.
 */
#ifndef PCCB_TEL_H
#define PCCB_TEL_H

/*  name            DOCA value  exit class */
#define TEL_ERRORS(X)                 \
	X(IN_USE, 3, 2)               \
	X(NOT_SUPPORTED, 4, 2)        \
	X(AGAIN, 5, 2)                \
	X(INVALID_VALUE, 6, 1)        \
	X(BAD_STATE, 18, 1)           \
	X(DRIVER, 21, 2)              \
	X(FULL, 24, 1)                \
	X(BAD_CONFIG, 29, 1)          \
	X(SKIPPED, 30, 0)

enum tel_err {
	TEL_OK = 0,
#define TEL_ENUM(n, v, c) TEL_##n = v,
	TEL_ERRORS(TEL_ENUM)
#undef TEL_ENUM
};

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

const char *tel_errname(int e);		/* "BAD_STATE" */
int tel_exit_class(int e);		/* 0, 1 or 2 */

/* The sim device's file NAME.EXT beside its .dev file, opened (created
 * when missing) and locked exclusively; *fresh when it is empty.  The
 * caller initialises or validates it, then unlocks it.  `path` gets the
 * file's name for messages.
 */
int tel_sim_file_open(const char *sim_name, const char *ext, char *path,
		      size_t len, int *fd, bool *fresh, struct pcb_err *err);

#endif
