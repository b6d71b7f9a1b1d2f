/* restore.h - the journal's writes taken back (restore.c), on the
 * session's device, by the caller holding the device lock (sess_lock):
 *
 * - sess_undo_locked: the write `which` names (a seq from `journal show`,
 *   or "last": the latest confirmed write neither undone nor an undo)
 *   taken back, itself journaled; a write of a transaction takes the
 *   whole transaction back, last write first, as one transaction.  A
 *   param or slot state changed again since is refused unless --force.
 * - sess_restore_locked: for each param and slot state the value before
 *   its first recorded write, written back; then the journal cleared
 *   (kept, with an error, when it has damaged records).
 *
 * Both print what they changed (text or JSON) and, under --dry-run,
 * write nothing.
 */
#ifndef PCCB_RESTORE_H
#define PCCB_RESTORE_H

#include <stddef.h>

#include "journal.h"
#include "session.h"

/* An entry's values in real units ("0.3", "200000 ns"), raw when the
 * slot or param is unknown now; a slot state as "enabled+counters".
 */
void sess_journal_values(struct session *s, const struct jentry *e,
			 char *a, char *b, size_t len, const char **units);
/* What an entry wrote: "ALPHA", "algo", or through a sim host NIC
 * "ALPHA on sim:NAME/hN". */
void sess_journal_what(struct session *s, const struct jentry *e,
		       char *buf, size_t len);
/* The seq of the confirmed write that took write `seq` back, or 0. */
unsigned journal_undone_by(const struct journal *j, unsigned seq);

int sess_undo_locked(struct session *s, const char *which);
int sess_restore_locked(struct session *s);

#endif
