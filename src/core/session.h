/* session.h - what one pccbench run holds: its open devices (each with
 * its PPCC handle, journal and slot views, device.h) and the current one,
 * the printer, options, and cached algorithm descriptions.
 *
 * A device is opened lazily by the first command that needs it, so
 * `reg encode` and `help` work without one.  Every register write goes
 * through sess_write_params / sess_algo_write: range check, journal,
 * write, read-back.  Ownership: sess_init/sess_release.
 */
#ifndef PCCB_SESSION_H
#define PCCB_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "desc.h"
#include "device.h"
#include "err.h"
#include "journal.h"
#include "out.h"
#include "ppcc.h"

struct session {
	struct dev_opts opt;	/* what its devices read of the options */
	char *adb_path;		/* --adb FILE for reg commands */
	bool read_only;		/* --read-only: refuse every write */
	/* the open devices, first opened first, and the current one: the
	 * one commands act on (`dev open`); never NULL, opened lazily */
	struct device *devs;
	struct device *cur;
	struct out out;
	bool dry_run, yes, force;
	bool units_raw;		/* `set units raw`: fxp values as integers */
	struct pcb_err err;
	struct algo_desc *descs[8];
	size_t ndescs;
	bool descs_loaded;
	char **dry;		/* collected mstreg lines in dry-run mode */
	size_t ndry;
	int depth;		/* source nesting */
	bool quit;
	bool reported;		/* the last error was printed */
	unsigned long nwrites;	/* journaled writes this process made */
	unsigned tx;		/* journal transaction of the writes, or 0 */
	unsigned undo;		/* the journaled write they take back, or 0 */
	/* the command running: whether it may write (its JSON error then
	 * says "changed": whether it wrote), the writes before it, and the
	 * exit status it asks for without an error (`profile diff` 1 when
	 * different; `profile apply --detailed-exitcode` 2 when changed) */
	bool cmd_writes;
	unsigned long cmd_w0;
	int status;
	bool detailed_exit;	/* the command's error exits 1 (2 means
				 * changed) */
};

void sess_init(struct session *s, const char *devname);
void sess_release(struct session *s);
/* Make devname the current device: the open one of that identity, or
 * one added to the list (the current one renamed when it was never
 * opened).  It opens on first use.
 */
int sess_set_device(struct session *s, const char *devname);
/* The session's device of devname's identity, or NULL. */
struct device *sess_find_device(struct session *s, const char *devname);
/* The same, added to the list when it is not there (the current device
 * stays current), and opened.
 */
int sess_get_device(struct session *s, const char *devname,
		    struct device **out);
/* Close d and take it off the list; when it was current, the last of
 * the rest is (an unopened "sim" when none is left).
 */
void sess_close_device(struct session *s, struct device *d);

/* Open the current device (once) and report an unclean journal. */
int sess_device(struct session *s);
/* The current device's lock (dev_lock).  A dry run writes nothing and
 * takes no lock.
 */
int sess_lock(struct session *s);
void sess_unlock(struct session *s);

int sess_slot_view(struct session *s, unsigned slot, struct slot_view **out);
/* Slot's param values (vals: ALGO_MAX_PARAMS) by one bulk get.  A reply
 * with fewer values than the view has params is an error: read short, a
 * list, diff, profile or record would pass the missing ones for absent.
 */
int sess_slot_values(struct session *s, unsigned slot,
		     const struct slot_view *v, uint32_t *vals);
/* Lowest enabled slot. */
int sess_active_slot(struct session *s, unsigned *slot);
/* The lowest slot with the algorithm and its counters enabled, or -1. */
int sess_counters_slot(struct session *s, int *slot);
int sess_param_find(struct session *s, struct slot_view *v, const char *name,
		    struct param_view **out);

/* Text -> raw for a param: real numbers by default, "0x.." or raw=true for
 * integers, unit suffixes for time (ns, us, ms, s) and Gb/s params.
 */
int sess_parse_value(const struct param_view *p, const char *text, bool raw,
		     uint32_t *out, struct pcb_err *err);
/* A unit the param's value may carry ("us" for a time in ns). */
bool sess_unit_word(const struct param_view *p, const char *word);
/* The device's range and permission (read-only, min..max) for a value
 * about to be written; a value outside the recommended range is a
 * warning.
 */
int sess_check_value(struct session *s, const struct param_view *p,
		     uint32_t raw);
/* Real numbers, or the raw integers after `set units raw`. */
void sess_format_value(const struct session *s, enum algo_ptype type,
		       uint32_t raw, char *buf, size_t len);
/* "0..1" or "100..800 Gb/s" in real units. */
void sess_format_range(const struct session *s, const struct param_view *p,
		       uint32_t lo, uint32_t hi, char *buf, size_t len);

struct param_write {
	unsigned index;
	uint32_t value;		/* to send */
	uint32_t old, readback;	/* filled in */
	bool changed;
};

/* Is this a param the firmware sets itself (seed 004: BW_G, from the
 * link speed)?  Only a write that names it writes it: `param reset all`,
 * profiles and bulk sets leave it alone.
 */
bool sess_param_auto(const char *name);

/* Write params of one slot: journal, one set (or one bulk set for several,
 * unless the bulk set would write back a sess_param_auto param not among
 * them: then one set each), read back.  A mismatch is an error naming
 * param, sent and read.  journal=false for restore, which must not add to
 * the journal.
 */
int sess_write_params(struct session *s, unsigned slot, struct param_write *w,
		      size_t n, bool journal);
int sess_algo_write(struct session *s, unsigned slot, bool enable,
		    bool counters, bool journal);
/* Through a sim host NIC (dev_view): the shared register's params of
 * slot into vals[0..ALGO_MAX_PARAMS-1] (what that NIC runs where it has
 * no value of its own); elsewhere nothing is read.
 */
int sess_shared_params(struct session *s, unsigned slot, uint32_t *vals);

/* Before a write to real hardware: -y, or a yes on the terminal; refused
 * in batch mode without -y, and always with --read-only.
 */
int sess_confirm(struct session *s, const char *what);

/* Dry-run lines: collected, printed by the command at its end. */
void sess_dry_line(struct session *s, enum reg_method m, const uint8_t *buf);
void sess_dry_flush(struct session *s);

void sess_warn(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
