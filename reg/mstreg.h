/* mstreg.h - the PPCC register through mstflint's `mstreg` (or MFT's
 * `mlxreg`), run with fork/exec and parsed from its table output.
 *
 * mstreg 4.21 prints `Field Name | Data` with a column as wide as the
 * longest field name + 3 (newer versions + 1; both accepted), one row per
 * field, arrays as text[0]..text[54].  A GET names all five PPCC index
 * fields and cmd_type in --op; a SET also passes --set with every RW
 * field of the layout, zero or not (mstreg reads the register first and
 * keeps what it read in any field it is not given), and --yes (pccbench
 * asks its own confirmation).  Values are decimal.
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

#include <signal.h>

#include "adb.h"
#include "transport.h"

#define REG_CAP_NO_BULK_SET 0x4

extern const struct reg_backend_ops mstreg_backend_ops;

/* An mstreg device's settings, before its first access: the PPCC layout
 * (required), the program (NULL: "mstreg" from PATH), the time limit of
 * one run and the interrupt flag.  -PCB_E_INVAL when dev is not an mstreg
 * device.
 */
int mstreg_configure(struct reg_dev *dev, const struct adb_reg *layout,
		     const char *prog, int timeout_ms,
		     volatile sig_atomic_t *stop, struct pcb_err *err);

/* The argv of the mstreg run for the request in buf (method m): the one
 * the backend runs and a dry run prints.  Its strings are in *a or are
 * prog, device and the layout's; argv is NULL-terminated.
 */
struct mstreg_argv {
	char *argv[16];
	char idx[256], op[64], set[512];
};
int mstreg_build_argv(struct mstreg_argv *a, const char *prog,
		      const char *device, const struct adb_reg *layout,
		      enum reg_method m, const uint8_t *buf,
		      struct pcb_err *err);

/* The same argv as one line a POSIX shell reads back to exactly those
 * words (quoted where needed), for a dry run to print; prog NULL means
 * "mstreg".  *line is malloc'd, the caller frees it.
 */
int mstreg_command_line(const char *prog, const char *device,
			const struct adb_reg *layout, enum reg_method m,
			const uint8_t *buf, char **line, struct pcb_err *err);

/* Parse mstreg's table into buf through the layout; 0 or -PCB_E_PARSE
 * (naming what was expected).  Fields the layout lacks are ignored.
 */
int mstreg_parse_table(const char *text, const struct adb_reg *layout,
		       uint8_t *buf, struct pcb_err *err);

#endif
