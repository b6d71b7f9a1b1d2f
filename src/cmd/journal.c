/* journal.c - `journal`: show, undo, restore and clear the write journal;
 * what undo and restore write is planned and made by core/restore.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "restore.h"

static int cmd_journal_show(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "seq", "SEQ", TBL_RIGHT }, { "time", "TIME", 0 },
		{ "pid", "PID", TBL_RIGHT }, { "slot", "SLOT", TBL_RIGHT },
		{ "what", "WHAT", 0 }, { "old", "OLD", TBL_RIGHT },
		{ "new", "NEW", TBL_RIGHT }, { "units", "UNITS", 0 },
		{ "raw_old", "RAW OLD", TBL_RIGHT },
		{ "raw_new", "RAW NEW", TBL_RIGHT },
		{ "outcome", "OUTCOME", 0 },
		{ "undo_of", "", TBL_JSON_ONLY },
		{ "undone_by", "", TBL_JSON_ONLY },
	};
	struct tbl t;
	size_t i;
	int rc;

	(void)argc;
	(void)argv;
	rc = sess_device(s);
	if (!rc)
		rc = sess_lock(s);	/* what every process wrote till now */
	if (rc)
		return rc;
	sess_unlock(s);
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < journal_count(s->cur->journal); i++) {
		const struct jentry *e = journal_entry(s->cur->journal, i);
		unsigned by = journal_undone_by(s->cur->journal, e->seq);
		char tb[80], a[40], b[40], what[160];
		const char *units;
		time_t tt = (time_t)e->time;
		struct tm tm;

		if (localtime_r(&tt, &tm))
			strftime(tb, sizeof(tb), "%Y-%m-%d %H:%M:%S", &tm);
		else
			snprintf(tb, sizeof(tb), "%lld", e->time);
		sess_journal_values(s, e, a, b, sizeof(a), &units);
		tbl_row(&t);
		tbl_u64(&t, e->seq);
		tbl_str(&t, tb);
		tbl_u64(&t, (uint64_t)e->pid);
		tbl_u64(&t, e->slot);
		sess_journal_what(s, e, what, sizeof(what));
		tbl_str(&t, what);
		if (e->kind == J_PARAM) {	/* numbers in JSON */
			tbl_num(&t, a);
			tbl_num(&t, b);
		} else {
			tbl_str(&t, a);
			tbl_str(&t, b);
		}
		tbl_str(&t, units);
		tbl_u64(&t, e->old);
		tbl_u64(&t, e->new);
		snprintf(tb, sizeof(tb), "%s", e->outcome > 0 ? "ok" :
			 e->outcome < 0 ? "failed" : "unconfirmed");
		if (e->tx)	/* a transaction: undone as one */
			snprintf(tb + strlen(tb), sizeof(tb) - strlen(tb),
				 " (tx %u)", e->tx);
		if (e->undo)
			snprintf(tb + strlen(tb), sizeof(tb) - strlen(tb),
				 ", undoes %u", e->undo);
		if (by)
			snprintf(tb + strlen(tb), sizeof(tb) - strlen(tb),
				 ", UNDONE by %u", by);
		tbl_str(&t, tb);
		if (e->undo)
			tbl_u64(&t, e->undo);
		else
			tbl_null(&t);
		if (by)
			tbl_u64(&t, by);
		else
			tbl_null(&t);
	}
	out_text(&s->out, "journal %s: %zu write%s since the last restore or "
		 "clear\n", journal_path(s->cur->journal),
		 journal_count(s->cur->journal),
		 journal_count(s->cur->journal) == 1 ? "" : "s");
	/* an empty journal: no header in text, [] in JSON */
	if (s->out.json || journal_count(s->cur->journal))
		tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	return 0;
}

static int cmd_journal_undo(struct session *s, int argc, char **argv)
{
	char which[24];
	int rc;

	snprintf(which, sizeof(which), "%s", argc ? argv[0] : "last");
	rc = sess_device(s);
	if (!rc)
		rc = sess_lock(s);
	if (rc)
		return rc;
	rc = sess_undo_locked(s, which);
	sess_unlock(s);
	return rc;
}

/* The whole restore under the device lock: no write can land between
 * reading the journal and clearing it.
 */
static int cmd_journal_restore(struct session *s, int argc, char **argv)
{
	int rc;

	(void)argc;
	(void)argv;
	rc = sess_device(s);
	if (!rc)
		rc = sess_lock(s);
	if (rc)
		return rc;
	rc = sess_restore_locked(s);
	sess_unlock(s);
	return rc;
}

static int cmd_journal_clear(struct session *s, int argc, char **argv)
{
	int rc;

	(void)argc;
	(void)argv;
	rc = sess_device(s);
	if (!rc)
		rc = sess_lock(s);
	if (!rc) {
		rc = journal_clear(s->cur->journal, &s->err);
		sess_unlock(s);
	}
	if (!rc) {
		out_obj_begin(&s->out, NULL);
		out_bool(&s->out, "cleared", true);
		out_text(&s->out, "journal cleared; the device keeps its "
			 "current values\n");
		out_obj_end(&s->out);
	}
	return rc;
}

const struct cmd_row cmd_journal_verbs[] = {
	{
		.name = "show",
		.fn = cmd_journal_show,
		.args = "",
		.help = "every write since the last restore or clear, with old values",
		.example = "journal show",
		.flags = CMD_DEFAULT | CMD_DEVICE,
	},
	{
		.name = "undo",
		.fn = cmd_journal_undo,
		.max_args = 1,
		.args = "[SEQ|last]",
		.help = "take back one write, or its whole transaction (last: the "
			"most recent write not undone and not an undo; refused "
			"when a later write changed the same param, unless "
			"--force); itself journaled",
		.example = "journal undo 12",
		.flags = CMD_WRITES | CMD_DEVICE,
	},
	{
		.name = "restore",
		.fn = cmd_journal_restore,
		.args = "",
		.help = "put back the values from before the first journaled write",
		.example = "journal restore",
		.flags = CMD_WRITES | CMD_DEVICE,
	},
	{
		.name = "clear",
		.fn = cmd_journal_clear,
		.args = "",
		.help = "forget the journal, keeping the device as it is",
		.example = "journal clear",
		.flags = CMD_DEVICE,
	},
	{ 0 }
};
