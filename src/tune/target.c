/* target.c - where a tune's best point goes: the slot a target names
 * (the tune's, the active one, the deployment slot) and the best point as
 * param writes checked on the device (tune.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "session.h"
#include "tune/tune.h"

/* The tune's algorithm id: its slot's on the device when that slot still
 * holds the tune's algorithm, else the first slot that does.
 */
static int tune_algo_id(struct session *s, const struct tune_res *r,
			uint32_t *id)
{
	uint32_t info[PPCC_SLOTS];
	struct slot_view *v;
	unsigned k;
	int rc = ppcc_algo_info_array(&s->cur->ppcc, info, &s->err);

	for (k = 0; !rc && k < PPCC_SLOTS; k++) {
		unsigned slot = (r->slot + k) % PPCC_SLOTS;

		if (!info[slot])
			continue;
		rc = sess_slot_view(s, slot, &v);
		if (!rc && !strcmp(v->name, r->algo)) {
			*id = v->algo_num >> 16;
			return 0;
		}
	}
	return rc ? rc : pcb_error(&s->err, PCB_E_STATE, "tune %s was made for "
				   "%s; no slot of %s holds it", r->name,
				   r->algo, s->cur->name);
}

/* The slot `to` names (tune.h). */
static int target_slot(struct session *s, const struct tune_res *r,
		       enum tune_target to, uint32_t id, unsigned *slot)
{
	uint32_t info[PPCC_SLOTS];
	struct slot_view *v;
	unsigned k;
	int rc;

	if (to == TUNE_TUNED) {
		*slot = r->slot;
		return 0;
	}
	if (to == TUNE_ACTIVE)
		return sess_active_slot(s, slot);
	rc = ppcc_algo_info_array(&s->cur->ppcc, info, &s->err);
	for (k = 0; !rc && k < PPCC_SLOTS; k++) {
		if (!info[k])
			continue;
		rc = sess_slot_view(s, k, &v);
		if (!rc && v->algo_num >> 16 == id) {
			*slot = k;
			return 0;
		}
	}
	return rc;
}

int tune_slot(struct session *s, const struct tune_res *r,
	      enum tune_target to, unsigned *slot)
{
	uint32_t id = 0;
	int rc = sess_device(s);

	if (!rc)
		rc = tune_algo_id(s, r, &id);
	return rc ? rc : target_slot(s, r, to, id, slot);
}

/* The best point as param writes for the slot `to` names; refused
 * without one, or when that slot holds another algorithm than the tune's
 * (another build of it, the debug one, is the same algorithm).
 */
int tune_best_writes(struct session *s, const struct tune_res *r,
		     enum tune_target to, unsigned *slot,
		     struct param_write *w)
{
	struct slot_view *v;
	uint32_t id = 0;
	size_t k;
	int rc;

	if (r->best < 0)
		return pcb_error(&s->err, PCB_E_STATE, "tune %s: no point met "
				 "the constraints; nothing to apply", r->name);
	rc = sess_device(s);
	if (!rc)
		rc = tune_algo_id(s, r, &id);
	if (!rc)
		rc = target_slot(s, r, to, id, slot);
	if (!rc)
		rc = sess_slot_view(s, *slot, &v);
	if (!rc && v->algo_num >> 16 != id)
		rc = pcb_error(&s->err, PCB_E_STATE, "tune %s was made for %s; "
			       "the %s slot %u holds %s", r->name, r->algo,
			       to == TUNE_ACTIVE ? "active" : "tune's", *slot,
			       v->name);
	for (k = 0; !rc && k < r->nprm; k++) {
		struct param_view *p;

		rc = sess_param_find(s, v, r->prm[k].name, &p);
		if (!rc)
			rc = sess_check_value(s, p, r->ev[r->best].raw[k]);
		if (rc)
			break;
		memset(&w[k], 0, sizeof(w[k]));
		w[k].index = p->index;
		w[k].value = r->ev[r->best].raw[k];
	}
	return rc;
}
