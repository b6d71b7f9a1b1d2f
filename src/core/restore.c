/* restore.c - the journal's writes taken back (restore.h): one write or
 * one transaction undone (`journal undo`), or every param and slot state
 * put back as it was before its first recorded write (`journal restore`).
 * Each is planned from the journal and checked against the device before
 * its writes, which go through the checked write path (write.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "out.h"
#include "restore.h"
#include "session.h"

static void algo_state(char *b, size_t n, uint32_t v)
{
	snprintf(b, n, "%s%s", v & 1 ? "enabled" : "disabled",
		 v & 2 ? "+counters" : "");
}

void sess_journal_what(struct session *s, const struct jentry *e,
		       char *buf, size_t len)
{
	if (e->kind == J_ALGO)
		snprintf(buf, len, "algo");
	else if (e->nic)	/* host N's NIC's own value */
		snprintf(buf, len, "%s on %s/h%u", e->name, s->cur->regid,
			 e->nic - 1);
	else
		snprintf(buf, len, "%s", e->name);
}

/* An entry's values in real units ("0.3", "200000 ns"), raw when the
 * slot or param is unknown now.
 */
void sess_journal_values(struct session *s, const struct jentry *e,
			 char *a, char *b, size_t len, const char **units)
{
	struct slot_view *v;
	struct pcb_err keep = s->err;

	*units = "";
	if (e->kind == J_ALGO) {
		algo_state(a, len, e->old);
		algo_state(b, len, e->new);
		return;
	}
	if (!sess_slot_view(s, e->slot, &v) && e->index < v->nparams) {
		const struct param_view *p = &v->params[e->index];

		sess_format_value(s, p->type, e->old, a, len);
		sess_format_value(s, p->type, e->new, b, len);
		*units = p->units;
		return;
	}
	s->err = keep;
	snprintf(a, len, "%u", e->old);
	snprintf(b, len, "%u", e->new);
}

/* The seq of the confirmed write that took write `seq` back, or 0. */
unsigned journal_undone_by(const struct journal *j, unsigned seq)
{
	size_t i, n = journal_count(j);

	for (i = 0; i < n; i++) {
		const struct jentry *x = journal_entry(j, i);

		if (x->undo == seq && x->outcome > 0)
			return x->seq;
	}
	return 0;
}

/* Is the device still where write e left it?  Safe to undo when it is
 * (or with --force).
 */
static int undo_check(struct session *s, const struct jentry *e)
{
	const struct jentry *later = NULL;
	size_t i, n = journal_count(s->cur->journal);
	char a[40], b[40];
	const char *units;
	uint32_t cur;
	int rc;

	for (i = 0; i < n; i++) {
		const struct jentry *x = journal_entry(s->cur->journal, i);

		if (x->seq > e->seq && x->kind == e->kind &&
		    x->slot == e->slot &&
		    (e->kind == J_ALGO || x->index == e->index) &&
		    x->outcome >= 0 && (!e->tx || x->tx != e->tx))
			later = x;
	}
	sess_journal_values(s, e, a, b, sizeof(a), &units);
	if (e->kind == J_PARAM) {	/* through the NIC it was made on */
		int was = dev_view_set(s->cur, (int)e->nic - 1);

		rc = ppcc_param_get(&s->cur->ppcc, e->slot, e->index, &cur,
				    &s->err);
		dev_view_set(s->cur, was);
	} else {
		bool en, cen;

		rc = ppcc_enable_status(&s->cur->ppcc, e->slot, &en, &cen,
					&s->err);
		cur = (uint32_t)en | (uint32_t)(en && cen) << 1;
	}
	if (rc)
		return rc;
	if (cur != e->new && !s->force)
		return pcb_error(&s->err, PCB_E_STATE, "journal undo: slot %u "
				 "%s was changed again since write %u (%s); "
				 "undo that first, or --force to put %s back "
				 "anyway", e->slot, e->kind == J_PARAM ?
				 e->name : "algo", e->seq, later ?
				 "by a later write" : "outside pccbench's "
				 "journal", a);
	return 0;
}

/* What taking e back writes: its old value, or where a host NIC ran the
 * shared register's value before its own, the shared value now (which
 * drops its own, firmware.h). */
static int undo_value(struct session *s, const struct jentry *e,
		      uint32_t *v)
{
	uint32_t shared[ALGO_MAX_PARAMS] = { 0 };
	int rc, was;

	*v = e->old;
	if (e->kind != J_PARAM || !e->nic || !e->fleet ||
	    e->index >= ALGO_MAX_PARAMS)
		return 0;
	was = dev_view_set(s->cur, (int)e->nic - 1);
	rc = sess_shared_params(s, e->slot, shared);
	dev_view_set(s->cur, was);
	if (!rc)
		*v = shared[e->index];
	return rc;
}

/* Write e's old value back (journaled, in s->tx) and say so. */
static int undo_one(struct session *s, const struct jentry *e)
{
	struct out *o = &s->out;
	char a[40], b[40], what[160];
	struct jentry said = *e;
	const char *units;
	int rc = undo_value(s, e, &said.old);

	if (rc)
		return rc;
	sess_journal_values(s, &said, a, b, sizeof(a), &units);
	if (e->kind == J_PARAM) {
		struct param_write w = { .index = e->index,
					 .value = said.old };
		int was = dev_view_set(s->cur, (int)e->nic - 1);

		s->undo = e->seq;
		rc = sess_write_params(s, e->slot, &w, 1, true);
		dev_view_set(s->cur, was);
	} else {
		s->undo = e->seq;
		rc = sess_algo_write(s, e->slot, e->old & 1, e->old & 2, true);
	}
	s->undo = 0;
	if (rc || s->dry_run)
		return rc;
	out_obj_begin(o, NULL);
	out_field_uint(o, "undone", "undid write %u: ", e->seq);
	out_field_uint(o, "slot", "slot %u ", e->slot);
	sess_journal_what(s, e, what, sizeof(what));
	out_field_str(o, "what", "%s ", what);
	out_text(o, "%s%s%s -> ", b, *units ? " " : "", units);
	out_field_str(o, "value", "%s", a);
	out_text(o, "%s%s\n", *units ? " " : "", units);
	out_obj_end(o);
	return 0;
}

/* The write `which` names: a seq, or `last`: the most recent confirmed
 * write that is neither undone nor itself an undo (so `undo last` twice
 * takes back two writes; it never redoes one).
 */
static int undo_find(struct session *s, const char *which,
		     const struct jentry **out)
{
	size_t i, n = journal_count(s->cur->journal);
	unsigned long seq;
	unsigned by;
	char *end;

	*out = NULL;
	if (!strcmp(which, "last")) {
		for (i = n; i-- > 0 && !*out;) {
			const struct jentry *x = journal_entry(s->cur->journal,
							       i);

			if (x->outcome > 0 && !x->undo &&
			    !journal_undone_by(s->cur->journal, x->seq))
				*out = x;
		}
		if (!*out)
			return pcb_error(&s->err, PCB_E_STATE, "journal undo: "
					 "no confirmed write left to undo "
					 "('journal show' marks the undone)");
		return 0;
	}
	seq = strtoul(which, &end, 10);
	if (!*which || *end || *which == '-')
		return pcb_error(&s->err, PCB_E_USAGE, "usage: journal undo "
				 "[SEQ|last] (SEQ from 'journal show')");
	for (i = 0; i < n && !*out; i++)
		if (journal_entry(s->cur->journal, i)->seq == seq)
			*out = journal_entry(s->cur->journal, i);
	if (!*out)
		return pcb_error(&s->err, PCB_E_NOENT, "journal undo: no write "
				 "%lu in the journal ('journal show')", seq);
	by = journal_undone_by(s->cur->journal, (*out)->seq);
	if (by)
		return pcb_error(&s->err, PCB_E_STATE, "journal undo: write %lu "
				 "was undone already (by write %u)", seq, by);
	return 0;
}

/* journal undo [SEQ|last]: one write taken back, itself journaled; a
 * write of a transaction (a profile applied) takes the whole transaction
 * back, last write first, as a transaction of its own.  A later write to
 * the same param (or slot state) would be undone too: that is refused
 * unless --force.
 */
int sess_undo_locked(struct session *s, const char *which)
{
	const struct jentry *e;
	struct jentry *all = NULL;
	size_t i, n = journal_count(s->cur->journal), k = 0;
	int rc = undo_find(s, which, &e);

	if (rc)
		return rc;
	if (!e->tx) {
		struct jentry ent = *e;	/* the journal grows as we write */

		rc = undo_check(s, &ent);
		return rc ? rc : undo_one(s, &ent);
	}
	all = malloc(n * sizeof(*all));
	if (!all)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	for (i = n; i-- > 0;) {	/* last first */
		const struct jentry *x = journal_entry(s->cur->journal, i);

		if (x->tx == e->tx && x->outcome > 0 &&
		    !journal_undone_by(s->cur->journal, x->seq))
			all[k++] = *x;
	}
	for (i = 0; i < k && !rc; i++)	/* every write checked first */
		rc = undo_check(s, &all[i]);
	if (!rc && !s->dry_run)
		s->tx = journal_next_seq(s->cur->journal);
	for (i = 0; i < k && !rc; i++)
		rc = undo_one(s, &all[i]);
	s->tx = 0;
	free(all);
	return rc;
}

/* The params written through one NIC (nic: as jentry's, 0 the shared
 * register) put back as before their first recorded write, through that
 * NIC's register. */
static int restore_params(struct session *s, unsigned nic, size_t *done)
{
	struct param_write w[PPCC_SLOTS][ALGO_MAX_PARAMS];
	size_t nw[PPCC_SLOTS] = { 0 }, i, k;
	unsigned slot;
	int rc = 0, was = dev_view_set(s->cur, (int)nic - 1);

	for (i = 0; i < journal_count(s->cur->journal) && !rc; i++) {
		const struct jentry *e = journal_entry(s->cur->journal, i);

		if (e->kind != J_PARAM || e->nic != nic)
			continue;
		for (k = 0; k < nw[e->slot]; k++)
			if (w[e->slot][k].index == e->index)
				break;
		if (k < nw[e->slot] || k >= ALGO_MAX_PARAMS)
			continue;	/* the first write holds the original */
		memset(&w[e->slot][k], 0, sizeof(w[e->slot][k]));
		w[e->slot][k].index = e->index;
		rc = undo_value(s, e, &w[e->slot][k].value);
		nw[e->slot]++;
	}
	for (slot = 0; slot < PPCC_SLOTS && !rc; slot++) {
		struct slot_view *v;

		if (!nw[slot])
			continue;
		rc = sess_slot_view(s, slot, &v);
		for (k = 0; !rc && k < nw[slot]; k++)
			if (w[slot][k].index >= v->nparams)
				rc = pcb_error(&s->err, PCB_E_CORRUPT,
					       "journal names param %u of "
					       "slot %u, which has %zu",
					       w[slot][k].index, slot,
					       v->nparams);
		if (!rc)
			rc = sess_write_params(s, slot, w[slot], nw[slot],
					       false);
		for (k = 0; !rc && k < nw[slot] && !s->dry_run; k++) {
			char a[32], b[32], on[112] = "";
			const struct param_view *p =
				&v->params[w[slot][k].index];

			if (!w[slot][k].changed)
				continue;
			sess_format_value(s, p->type, w[slot][k].old, a,
					  sizeof(a));
			sess_format_value(s, p->type, w[slot][k].readback, b,
					  sizeof(b));
			if (nic)	/* that NIC's own value */
				snprintf(on, sizeof(on), " on %s/h%u",
					 s->cur->regid, nic - 1);
			out_text(&s->out, "slot %u %s%s: %s -> %s\n", slot,
				 p->info.name, on, a, b);
			(*done)++;
		}
	}
	dev_view_set(s->cur, was);
	return rc;
}

int sess_restore_locked(struct session *s)
{
	size_t i, k, done = 0, bad, first, nnic = 0;
	int algo_old[PPCC_SLOTS];
	unsigned slot, *nics;
	int rc = 0, pass;
	char msg[sizeof(s->err.msg)];

	if (journal_too_large(s->cur->journal, msg, sizeof(msg)))
		return pcb_error(&s->err, PCB_E_CORRUPT, "%s", msg);
	for (slot = 0; slot < PPCC_SLOTS; slot++)
		algo_old[slot] = -1;
	nics = malloc((journal_count(s->cur->journal) + 1) * sizeof(*nics));
	if (!nics)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	nics[nnic++] = 0;	/* the shared register first */
	for (i = 0; i < journal_count(s->cur->journal); i++) {
		const struct jentry *e = journal_entry(s->cur->journal, i);

		if (e->kind == J_ALGO) {
			if (algo_old[e->slot] < 0)
				algo_old[e->slot] = (int)e->old;
			continue;
		}
		for (k = 0; k < nnic && nics[k] != e->nic; k++)
			;
		if (k == nnic)	/* a host NIC's own values too */
			nics[nnic++] = e->nic;
	}
	for (k = 0; k < nnic && !rc; k++)
		rc = restore_params(s, nics[k], &done);
	free(nics);
	if (rc)
		return rc;
	for (pass = 0; pass < 2; pass++) {
		for (slot = 0; slot < PPCC_SLOTS; slot++) {
			bool en, cen;
			int want = algo_old[slot];

			if (want < 0 || (pass == 0) != !(want & 1))
				continue;
			rc = ppcc_enable_status(&s->cur->ppcc, slot, &en, &cen,
						&s->err);
			if (rc)
				return rc;
			if (en == (want & 1) && cen == !!(want & 2))
				continue;
			if (en && cen && !(want & 2) && (want & 1))
				/* only a disable drops counter_en */
				rc = sess_algo_write(s, slot, false, false,
						     false);
			if (!rc)
				rc = sess_algo_write(s, slot, want & 1,
						     want & 2, false);
			if (rc)
				return rc;
			if (!s->dry_run)
				out_text(&s->out, "slot %u: %s%s\n", slot,
					 want & 1 ? "enabled" : "disabled",
					 want & 2 ? " with counters" : "");
			done++;
		}
	}
	if (s->dry_run)
		return 0;
	bad = journal_bad_lines(s->cur->journal, &first);
	if (bad)	/* what it held may be the only record of a write */
		return pcb_error(&s->err, PCB_E_CORRUPT, "journal '%s' has %zu "
				 "damaged record(s), the first at line %zu: "
				 "restored the %zu change(s) it could read and "
				 "kept the journal; check the device, then "
				 "'journal clear'",
				 journal_path(s->cur->journal), bad, first,
				 done);
	rc = journal_clear(s->cur->journal, &s->err);
	if (rc)
		return rc;
	out_obj_begin(&s->out, NULL);
	out_field_u64(&s->out, "restored", "restored %llu change", done);
	out_text(&s->out, "%s; journal cleared\n", done == 1 ? "" : "s");
	out_obj_end(&s->out);
	return 0;
}
