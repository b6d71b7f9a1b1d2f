/* mstreg.h - the PPCC register through mstflint's `mstreg` (or MFT's
 * `mlxreg`), run with fork/exec and parsed from its table output.
 *
 * mstreg 4.21 prints `Field Name | Data` with a column as wide as the
 * longest field name + 3 (newer versions + 1; both accepted), one row per
 * field, arrays as text[0]..text[54].  A GET names all five PPCC index
 * fields and cmd_type in --op; a SET also passes --set with the RW fields
 * the request carries, and --yes (pccbench asks its own confirmation).
 * The reply is the table in either case: a GET's is the register read, a
 * SET's the register mstreg is about to write ("You are about to send
 * access register ... with the following data:"); the caller checks its
 * index fields against the request (ppcc.c).  Output that cannot be
 * parsed is kept for the user: the newest five, at most about 1 MiB each,
 * as $XDG_CACHE_HOME/pccbench/mstreg-output-*.txt (mode 0600).
 * 4.21's ADB makes text[] read-only, so there is no bulk set through it:
 * the backend says so with REG_CAP_NO_BULK_SET and callers set one param
 * at a time.
 */
#ifndef PCCB_MSTREG_H
#define PCCB_MSTREG_H

#include "adb.h"
#include "transport.h"

#define REG_CAP_NO_BULK_SET 0x4

/* ctl ops (before the first access) */
enum mstreg_ctl {
	MSTREG_CTL_PROG = 1,	/* const char *: program path or name */
	MSTREG_CTL_TIMEOUT,	/* int *: milliseconds */
	MSTREG_CTL_LAYOUT,	/* const struct adb_reg *: PPCC layout */
	MSTREG_CTL_STOP,	/* volatile sig_atomic_t *: interrupt flag */
	MSTREG_CTL_RUNS,	/* unsigned long *: runs so far (out) */
};

extern const struct reg_backend_ops mstreg_backend_ops;

/* Parse mstreg's table into buf through the layout; 0 or -PCB_E_PARSE
 * (naming what was expected).  Fields the layout lacks are ignored.
 */
int mstreg_parse_table(const char *text, const struct adb_reg *layout,
		       uint8_t *buf, struct pcb_err *err);

#endif
