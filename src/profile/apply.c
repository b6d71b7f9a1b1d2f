/* apply.c - a profile applied (profile.h): the plan (what differs), the
 * checks of every state before the first write, the writes in one journal
 * transaction under the lock, and the rollback of an apply that failed
 * part way.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "out.h"
#include "profile/profile.h"
#include "session.h"

/* The plan for every slot of the profile, printed under --check; the
 * number of changes (params + slot states) in *n.
 */
int profile_apply_plan(struct session *s, const struct profile *pr,
		       struct profile_aplan *pl, bool check, size_t *n)
{
	size_t i, k;
	int rc = 0;

	for (i = 0; i < pr->nslots && !rc; i++) {
		const struct pslot *ps = &pr->s[i];
		struct profile_aplan *a = &pl[i];
		struct pslot now;

		rc = profile_read_slot(s, ps->slot, &now);
		for (k = 0; !rc && k < ps->nparams; k++) {
			size_t m;

			for (m = 0; m < now.nparams &&
			     now.p[m].index != ps->p[k].index; m++)
				;
			if (m < now.nparams && now.p[m].raw == ps->p[k].raw)
				continue;
			if (ps->p[k].ro) {	/* the device's own */
				sess_warn(s, "profile: slot %u %s is read-only "
					  "here; the profile's value is not "
					  "written", ps->slot, ps->p[k].name);
				continue;
			}
			if (sess_param_auto(ps->p[k].name)) {
				sess_warn(s, "profile: slot %u %s is set by the "
					  "device from the link speed; the "
					  "profile's value is not written ('param "
					  "set slot %u %s' writes one)",
					  ps->slot, ps->p[k].name, ps->slot,
					  ps->p[k].name);
				continue;
			}
			if (check) {
				const struct param_view *p =
					profile_view_of(s, ps->slot,
							ps->p[k].name);
				char x[40], y[40];

				profile_format_raw(s, p, m < now.nparams ?
						   now.p[m].raw : 0, x,
						   sizeof(x));
				profile_format_raw(s, p, ps->p[k].raw, y,
						   sizeof(y));
				out_text(&s->out, "would set slot %u %s %s -> "
					 "%s%s%s\n", ps->slot, ps->p[k].name,
					 x, y, p && *p->units ? " " : "",
					 p ? p->units : "");
			}
			memset(&a->w[a->nw], 0, sizeof(a->w[a->nw]));
			a->w[a->nw].index = ps->p[k].index;
			a->w[a->nw++].value = ps->p[k].raw;
		}
		*n += a->nw;
		if (rc || (now.enabled == ps->enabled &&
			   now.counters == ps->counters))
			continue;
		a->state = true;
		a->drop_counters = ps->enabled && now.counters &&
				   !ps->counters;
		++*n;
		if (check)
			out_text(&s->out, "would %s slot %u%s\n", ps->enabled ?
				 "enable" : "disable", ps->slot, ps->counters ?
				 " with counters" : a->drop_counters ?
				 " without counters" : "");
	}
	return rc;
}

/* Everything the device would refuse or undo, before the first write (so
 * an apply never stops half way and never reports "changed" forever):
 * counters on a slot without them or on a disabled slot, counters on two
 * slots (a port holds them on one).  Then the slot that will be active:
 * params written to a slot left enabled that will not run (a lower slot
 * is enabled) are a warning before anything is written, an error under
 * --strict.
 */
int profile_apply_states(struct session *s, const struct profile *pr,
			 const struct profile_aplan *pl, bool strict)
{
	bool en[PPCC_SLOTS] = { false }, cen;
	int holder = -1, active = -1;
	uint32_t info[PPCC_SLOTS];
	size_t i;
	unsigned k;
	int rc = ppcc_algo_info_array(&s->cur->ppcc, info, &s->err);

	for (k = 0; !rc && k < PPCC_SLOTS; k++)
		if (info[k])
			rc = ppcc_enable_status(&s->cur->ppcc, k, &en[k], &cen,
						&s->err);
	for (i = 0; !rc && i < pr->nslots; i++) {
		const struct pslot *ps = &pr->s[i];
		struct slot_view *v;

		en[ps->slot] = ps->enabled;
		if (!ps->counters)
			continue;
		rc = sess_slot_view(s, ps->slot, &v);
		if (!rc && !ps->enabled)
			rc = pcb_error(&s->err, PCB_E_STATE, "profile %s: slot "
				       "%u has counters on but is disabled (a "
				       "disabled slot holds no counters); "
				       "nothing was written", pr->name,
				       ps->slot);
		if (!rc && !v->ncounters)
			rc = pcb_error(&s->err, PCB_E_STATE, "profile %s: slot "
				       "%u (%s) has no counters, the profile "
				       "turns them on; nothing was written",
				       pr->name, ps->slot, v->name);
		if (!rc && holder >= 0)
			rc = pcb_error(&s->err, PCB_E_STATE, "profile %s: "
				       "counters on slots %d and %u (a port "
				       "holds them on one slot); nothing was "
				       "written", pr->name, holder, ps->slot);
		holder = (int)ps->slot;
	}
	for (k = 0; !rc && k < PPCC_SLOTS && active < 0; k++)
		if (en[k])
			active = (int)k;
	for (i = 0; !rc && i < pr->nslots; i++) {
		char what[200];

		/* a slot the profile disables keeps its params for later */
		if (!pl[i].nw || !pr->s[i].enabled ||
		    (int)pr->s[i].slot == active)
			continue;
		if (active < 0)
			snprintf(what, sizeof(what), "no slot will be enabled");
		else
			snprintf(what, sizeof(what), "slot %d will be active "
				 "(the lowest enabled)", active);
		if (strict)
			return pcb_error(&s->err, PCB_E_STATE, "profile %s "
					 "writes params to slot %u but %s: they "
					 "would not run (--strict); nothing was "
					 "written", pr->name, pr->s[i].slot,
					 what);
		sess_warn(s, "profile %s writes params to slot %u but %s: "
			  "they will not run until slot %u is the active one",
			  pr->name, pr->s[i].slot, what, pr->s[i].slot);
	}
	return rc;
}

/* The planned writes, under the lock, in one journal transaction: per
 * slot its params (one checked, journaled write with read-back), then
 * its state.
 */
int profile_apply_locked(struct session *s, const struct profile *pr,
			 struct profile_aplan *pl)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < pr->nslots && !rc; i++) {
		const struct pslot *ps = &pr->s[i];

		if (pl[i].nw)
			rc = sess_write_params(s, ps->slot, pl[i].w, pl[i].nw,
					       true);
		if (!rc && pl[i].drop_counters)
			rc = sess_algo_write(s, ps->slot, false, false, true);
		if (!rc && pl[i].state)
			rc = sess_algo_write(s, ps->slot, ps->enabled,
					     ps->counters, true);
	}
	return rc;
}

/* An apply that failed part way (a device that refused a write the checks
 * could not foresee): its confirmed writes (transaction `tx`) taken back,
 * last first, as a transaction of their own, each marked as the undo of
 * its write; the error then says so, or says what is left to undo.
 */
void profile_apply_rollback(struct session *s, unsigned tx)
{
	struct pcb_err first = s->err;
	struct jentry *all;
	size_t i, n = journal_count(s->cur->journal), k = 0, done = 0;
	int rc = 0;

	all = malloc((n ? n : 1) * sizeof(*all));
	if (!all)
		return;
	for (i = n; i-- > 0;) {
		const struct jentry *e = journal_entry(s->cur->journal, i);

		if (e->tx == tx && e->outcome > 0)
			all[k++] = *e;	/* the journal grows as we undo */
	}
	if (!k) {
		free(all);
		return;
	}
	pcb_err_reset(&s->err);
	s->tx = journal_next_seq(s->cur->journal);
	for (i = 0; i < k && !rc; i++) {
		s->undo = all[i].seq;
		if (all[i].kind == J_PARAM) {
			struct param_write w = { .index = all[i].index,
						 .value = all[i].old };

			rc = sess_write_params(s, all[i].slot, &w, 1, true);
		} else {
			rc = sess_algo_write(s, all[i].slot, all[i].old & 1,
					     all[i].old & 2, true);
		}
		done += !rc;
	}
	s->undo = 0;
	s->tx = 0;
	if (rc) {
		struct pcb_err why = s->err;

		snprintf(s->err.msg, sizeof(s->err.msg), "%.200s; undoing its "
			 "%zu write(s) failed after %zu: %.150s; 'journal undo "
			 "%u' takes back the rest", first.msg, k, done,
			 why.msg, tx);
	}
	else {
		snprintf(s->err.msg, sizeof(s->err.msg), "%.300s; the %zu "
			 "write(s) it had made were undone (journal tx %u): the "
			 "device is as before", first.msg, k, tx);
		s->cmd_w0 = s->nwrites;	/* JSON "changed": not on balance */
	}
	s->err.code = first.code;
	free(all);
}
