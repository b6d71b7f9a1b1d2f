/* journal.h - every register write, recorded before it is sent.
 *
 * One append-only text file per device identity (sim:NAME or the PCI
 * address, so `-d sim` and `-d sim:default` share one),
 * $XDG_STATE_HOME/pccbench/journal/DEVICE.log.  Before a write the old
 * value is appended and fsync'd ("W" line); after the read-back the outcome
 * ("D seq ok|failed").  A write that is part of a transaction (a
 * profile applied, an undo of one) ends its W line with " tx=N", N the
 * transaction's first seq: `journal undo` takes the whole transaction
 * back.  A param write through a sim host NIC, sim:NAME/hN (that NIC's
 * own value, in sim:NAME's journal), ends it with " host=N" (older
 * journals have none), and " was=shared" when that NIC ran the shared
 * register's value before.  A write that takes another back (`journal undo`)
 * ends it with " undo=N", N the seq it undoes: a write with a confirmed undo is
 * undone.  Each process brackets its writes with "S pid" and
 * "E pid".  Every line ends with " crc=XXXXXXXX", the CRC-32 of the text
 * before it, so a torn, zeroed or flipped record is found, never read as
 * something else.  The journal holds every write since the last restore or
 * clear, across processes and crashes; restore puts back, for each param
 * and slot, the value before its first recorded write.
 *
 * Concurrency: the caller holds the device lock (session.h) around
 * journal_reload, journal_begin/_end and journal_clear, so sequence
 * numbers come from the file and are unique across processes, and a
 * restore cannot clear a record written while it ran.
 *
 * Unclean: a write without an outcome, or a process that started writing
 * and never closed (crashed, killed).  Reported at start-up.
 *
 * Ownership: journal_open returns a handle freed with journal_close (which
 * appends the "E" line if this process wrote anything).
 */
#ifndef PCCB_JOURNAL_H
#define PCCB_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum jkind { J_PARAM, J_ALGO };

struct jentry {
	unsigned seq;
	long long time;		/* unix seconds */
	long pid;
	enum jkind kind;
	unsigned slot;
	unsigned index;		/* J_PARAM */
	char name[64];		/* J_PARAM */
	uint32_t old, new;	/* J_PARAM raw; J_ALGO enabled | counters<<1 */
	int outcome;		/* 0 unknown, 1 ok, -1 failed */
	unsigned tx;		/* a transaction (its first seq), or 0 */
	unsigned undo;		/* the write this one takes back, or 0 */
	unsigned nic;		/* J_PARAM through sim:NAME/hN (host N's
				 * NIC's own value): N + 1; 0 the shared
				 * register's */
	bool fleet;		/* nic: that NIC ran the shared register's
				 * value before (no own value): taking the
				 * write back drops its own again */
};

struct journal;

int journal_open(struct journal **out, const char *device,
		 struct pcb_err *err);
void journal_close(struct journal *j);
const char *journal_path(const struct journal *j);

/* Record a write about to happen; sets e->seq. */
int journal_begin(struct journal *j, struct jentry *e, struct pcb_err *err);
int journal_end(struct journal *j, unsigned seq, bool ok,
		struct pcb_err *err);

size_t journal_count(const struct journal *j);
/* The seq the next write gets (under the device lock: a transaction's
 * id).
 */
unsigned journal_next_seq(const struct journal *j);
const struct jentry *journal_entry(const struct journal *j, size_t i);

/* Read the file again (under the device lock: what other processes
 * wrote since is then known).
 */
int journal_reload(struct journal *j, struct pcb_err *err);

/* One line describing why the journal is unclean; false when clean. */
bool journal_unclean(const struct journal *j, char *msg, size_t len);
/* The one line saying the journal file is too large to be real (not
 * read; journal_begin refuses every write); false when it is not.
 */
bool journal_too_large(const struct journal *j, char *msg, size_t len);
/* Damaged records (and the line of the first); a journal with any is
 * never cleared by restore.
 */
size_t journal_bad_lines(const struct journal *j, size_t *first);

/* Forget everything (after restore, or on request). */
int journal_clear(struct journal *j, struct pcb_err *err);

#endif
