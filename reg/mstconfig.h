/* mstconfig.h - a NIC's non-volatile settings (NVconfig: what the
 * firmware loads at the next boot) through mstflint's `mstconfig` or MFT's
 * `mlxconfig`, run with fork/exec (never a shell) and parsed from the
 * table it prints.  Read-only: pccbench never runs `set`.
 *
 * The run is `PROG -d DEVICE -e query`.  Its output (mstflint 4.21,
 * mlxconfig/mlxcfg_ui.cpp; MFT prints the same) is, on stdout:
 *
 *	Device #1:
 *	----------
 *	Device type:    ConnectX7         (each "%-16s%-16s")
 *	Name:           ...               (not on 4th-generation devices)
 *	Description:    ...
 *	Device:         0000:08:00.0
 *	Configurations:          Default         Current       Next Boot
 *	*        ROCE_CC_LEGACY_DCQCN_P1     True(1)         True(1)  False(0)
 *	         RPG_AI_RATE_P1              5               5        5
 *	The '*' shows parameters with next value different from ...
 *
 * A row is 9 characters of margin ('*' first when the next value differs
 * from the default or current one), the name, then one value per column
 * of the header, none with a space in it: a number, "NAME(n)" for an
 * enum, "Array[0..7]", or "N/A".  The header names the columns the
 * firmware can read (Default and Current may be missing; Next Boot is
 * always last).  Errors are "-E- text" lines, on stdout, with a non-zero
 * exit (3 for a device that cannot be opened).
 *
 * Ownership: a struct nvc_query is filled by nvc_parse or nvc_run and
 * released with nvc_release (which also makes a zeroed one safe).
 */
#ifndef PCCB_MSTCONFIG_H
#define PCCB_MSTCONFIG_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "err.h"

enum nvc_col { NVC_DEFAULT, NVC_CURRENT, NVC_NEXT, NVC_NCOLS };

struct nvc_param {
	char *name;		/* ROCE_CC_LEGACY_DCQCN_P1 */
	char *val[NVC_NCOLS];	/* NULL where the column is absent */
	bool starred;		/* mstconfig's '*' */
};

struct nvc_query {
	char device_type[32];	/* "ConnectX7", "" when not printed */
	char part[64];		/* its "Name:" (the part number) */
	char device[64];	/* its "Device:" */
	bool has[NVC_NCOLS];	/* the columns the header names */
	size_t n;
	struct nvc_param *p;
};

/* Parse one device's query output.  0, or -PCB_E_PARSE naming the first
 * line that is not what mstconfig prints (quoted, cut short), or
 * -PCB_E_DEVICE quoting its "-E-" message (with the lines it continues
 * on).  Nothing is kept on an error.
 */
int nvc_parse(const char *text, struct nvc_query *q, struct pcb_err *err);
void nvc_release(struct nvc_query *q);

/* Run PROG (NULL: "mstconfig") on device (a PCI address) and parse its
 * output; its exit status and -E- text make the error.  timeout_ms <= 0
 * is 30 s; stop is polled (Ctrl-C).
 */
int nvc_run(const char *prog, const char *device, int timeout_ms,
	    volatile sig_atomic_t *stop, struct nvc_query *q,
	    struct pcb_err *err);

/* Is this a RoCE congestion-control setting (ROCE_*, RPG_*, CNP_*,
 * DCE_TCP_*, HPCC_*, USER_PROGRAMMABLE_CC, ...)?  A per-port suffix
 * (_P1) is part of the name.  How to add one: a prefix in nvc_cc[].
 */
bool nvc_is_cc(const char *name);

/* Will the next boot change it: next differs from current (false when
 * either is unknown).
 */
bool nvc_pending(const struct nvc_query *q, const struct nvc_param *p);

#endif
