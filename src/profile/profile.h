/* profile.h - the profile engine (src/profile/): a tuning profile in
 * memory and
 *
 *   file.c    its file: path, written, read back and checked as a file;
 *   device.c  the device read as a profile, a profile checked against
 *             the device, a param's view and value as the device says;
 *   diff.c    two profiles compared;
 *   apply.c   a profile applied: plan, checks, writes, rollback.
 *
 * No module calls one above it in that list.  The `profile` command
 * (src/cmd/profile.c) parses and prints; the file's schema is described
 * at the top of it.
 */
#ifndef PCCB_PROFILE_H
#define PCCB_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "algo.h"
#include "out.h"
#include "ppcc.h"
#include "session.h"

#define PROFILE_VERSION 1
#define PROFILE_MAX (1 << 20)	/* bytes of a profile file */

struct pslot {
	unsigned slot;
	char algo[224];
	uint32_t algo_num;	/* id[31:16] major[15:8] minor[7:0] */
	bool enabled, counters;
	size_t nparams;
	struct {
		char name[224];
		unsigned index;
		uint32_t raw;
		bool ro;	/* read-only on the device: never written */
	} p[ALGO_MAX_PARAMS];
};

struct profile {
	char name[64], device[80], model[96];
	size_t nslots;
	struct pslot s[PPCC_SLOTS];
};

/* What a profile's strings may hold: letters, digits and these.  They
 * reach `profile export`'s shell script (a comment, a quoted word), so
 * anything else is refused on load rather than trusted to the quoting
 * there (which makes them harmless too).
 */
#define PROFILE_WORD	"_-."		/* a profile's and a param's name */
#define PROFILE_ALGO	" _-."		/* "ZTR_RTT", "Rtt template v0.1" */
#define PROFILE_DEVICE	"_-.:/@+"	/* sim:NAME, 0000:08:00.0, /dev/mst/.. */
#define PROFILE_MODEL	" _-.,:;/()[]+#&"	/* ConnectX-7, libpci's names */
bool profile_text_ok(const char *t, const char *extra);

/* $XDG_DATA_HOME/pccbench/profiles/NAME.json */
int profile_path(struct session *s, const char *name, char *buf, size_t len);
/* The device now: `slot` (or every slot holding an algorithm, -1). */
int profile_read_device(struct session *s, int slot, struct profile *pr);
/* The profile as JSON ("value" in real units whatever `set units` says). */
void profile_write_json(struct session *s, FILE *fp, const struct profile *pr);
/* NAME (a saved profile) or a path (with a '/' or ending .json), read
 * whole and checked as a file (schema, version, fields, ranges of
 * indexes); the device's checks are the caller's.
 */
int profile_load(struct session *s, const char *name, struct profile *pr);

/* ---- device.c ---- */

/* t with each byte other than letters, digits and extra as '_': a
 * device's id and model as a profile may hold them, and all a line of
 * `profile export`'s script says besides its quoted words.
 */
void profile_script_text(char *buf, size_t len, const char *t,
			 const char *extra);
/* The device's slot as a profile slot. */
int profile_read_slot(struct session *s, unsigned slot, struct pslot *ps);
/* Each slot's algorithm must be the device's (--force: another version
 * of it, or another algorithm); each param is found by name and its raw
 * value is one the device takes.  The index in the file is only a check.
 */
int profile_check(struct session *s, struct profile *pr);
/* One param of a slot: its view on the device (for units), or NULL. */
const struct param_view *profile_view_of(struct session *s, unsigned slot,
					 const char *name);
/* raw as p's type says, or as a number without p */
void profile_format_raw(struct session *s, const struct param_view *p,
			uint32_t raw, char *buf, size_t len);

/* ---- diff.c ---- */

/* The differences of b against a, param by param, as rows of t (slot,
 * param, a, b, units); *n how many.
 */
void profile_diff_rows(struct session *s, const struct profile *a,
		       const struct profile *b, struct tbl *t, size_t *n);

/* ---- apply.c ---- */

/* What apply does to one slot of the profile: the params that differ and
 * whether its state (enabled, counters) does.
 */
struct profile_aplan {
	struct param_write w[ALGO_MAX_PARAMS];
	size_t nw;
	bool state;		/* enable/disable (and counters) to write */
	bool drop_counters;	/* enabled, counters to go off: only a
				 * disable drops counter_en */
};

/* The plan for every slot of the profile, printed under check; the
 * number of changes (params + slot states) in *n.
 */
int profile_apply_plan(struct session *s, const struct profile *pr,
		       struct profile_aplan *pl, bool check, size_t *n);
/* Everything the device would refuse or undo, before the first write;
 * params for a slot that will not run: a warning, an error when strict.
 */
int profile_apply_states(struct session *s, const struct profile *pr,
			 const struct profile_aplan *pl, bool strict);
/* The planned writes, under the lock, in one journal transaction. */
int profile_apply_locked(struct session *s, const struct profile *pr,
			 struct profile_aplan *pl);
/* An apply that failed part way: its confirmed writes (transaction tx)
 * taken back, last first; s->err says so.
 */
void profile_apply_rollback(struct session *s, unsigned tx);

#endif
