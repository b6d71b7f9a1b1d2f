/* device.c - a profile and the device (profile.h): the device now read
 * as a profile, a profile checked against the device, a param's view and
 * value as the device formats them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "discover.h"
#include "profile/profile.h"
#include "session.h"

/* ---- the device's side ------------------------------------------------------ */

/* t with each byte other than letters, digits and extra as '_': a
 * device's id and model as a profile may hold them (profile.h), and all
 * a line of `profile export`'s script says besides its quoted words.
 */
void profile_script_text(char *buf, size_t len, const char *t,
			 const char *extra)
{
	size_t i;

	for (i = 0; len && i < len - 1 && t[i]; i++) {
		char c[2] = { t[i], '\0' };

		buf[i] = profile_text_ok(c, extra) ? t[i] : '_';
	}
	if (len)
		buf[i] = '\0';
}

static void device_model(struct session *s, char *buf, size_t len)
{
	struct pcb_nic *nics = NULL;
	char bdf[32];
	size_t i, n = 0;

	snprintf(buf, len, "%s", dev_traits(s->cur) & DEV_T_REPLAY ?
		 "simulated" : "unknown");
	if (pcb_resolve_pci(s->cur->name, bdf, sizeof(bdf), NULL) ||
	    pcb_discover(&nics, &n, NULL))
		return;
	for (i = 0; i < n; i++)
		if (!strcmp(nics[i].bdf, bdf))
			profile_script_text(buf, len, nics[i].model,
					    PROFILE_MODEL);
	free(nics);
}

/* The device's slot as a profile slot. */
int profile_read_slot(struct session *s, unsigned slot, struct pslot *ps)
{
	uint32_t vals[ALGO_MAX_PARAMS];
	struct slot_view *v;
	size_t i;
	bool en, cen;
	int rc = sess_slot_view(s, slot, &v);

	if (!rc)
		rc = ppcc_enable_status(&s->cur->ppcc, slot, &en, &cen,
					&s->err);
	if (!rc)
		rc = sess_slot_values(s, slot, v, vals);
	if (rc)
		return rc;
	memset(ps, 0, sizeof(*ps));
	ps->slot = slot;
	snprintf(ps->algo, sizeof(ps->algo), "%s", v->name);
	ps->algo_num = v->algo_num;
	ps->enabled = en;
	ps->counters = en && cen;
	for (i = 0; i < v->nparams; i++) {
		snprintf(ps->p[i].name, sizeof(ps->p[i].name), "%s",
			 v->params[i].info.name);
		ps->p[i].index = v->params[i].index;
		ps->p[i].raw = vals[v->params[i].index];
		ps->p[i].ro = v->params[i].info.prm != ALGO_PERM_RW;
	}
	ps->nparams = i;
	return 0;
}

/* The device now: `slot` (or every slot holding an algorithm, -1). */
int profile_read_device(struct session *s, int slot, struct profile *pr)
{
	uint32_t info[PPCC_SLOTS];
	unsigned i;
	int rc = sess_device(s);

	memset(pr, 0, sizeof(*pr));
	if (!rc)
		rc = ppcc_algo_info_array(&s->cur->ppcc, info, &s->err);
	if (rc)
		return rc;
	profile_script_text(pr->device, sizeof(pr->device), s->cur->devid,
			    PROFILE_DEVICE);
	device_model(s, pr->model, sizeof(pr->model));
	for (i = 0; i < PPCC_SLOTS && !rc; i++) {
		if ((slot >= 0 && i != (unsigned)slot) || !info[i])
			continue;
		rc = profile_read_slot(s, i, &pr->s[pr->nslots++]);
	}
	if (!rc && !pr->nslots)
		rc = pcb_error(&s->err, PCB_E_NOENT, "profile: slot %d holds no "
			       "algorithm", slot);
	return rc;
}

/* ---- checked against the device ---------------------------------------------- */

/* Each slot's algorithm must be the device's (--force: another version
 * of it, or another algorithm); each param is found by name and its raw
 * value is one the device takes.  The index in the file is only a check.
 */
int profile_check(struct session *s, struct profile *pr)
{
	uint32_t info[PPCC_SLOTS];
	size_t i, k;
	int rc = ppcc_algo_info_array(&s->cur->ppcc, info, &s->err);

	for (i = 0; !rc && i < pr->nslots; i++) {
		struct pslot *ps = &pr->s[i];
		struct slot_view *v;

		if (!info[ps->slot])
			return pcb_error(&s->err, PCB_E_STATE, "profile: slot %u "
					 "of the device holds no algorithm; the "
					 "profile has %s", ps->slot, ps->algo);
		rc = sess_slot_view(s, ps->slot, &v);
		if (!rc && v->algo_num != ps->algo_num && !s->force)
			return pcb_error(&s->err, PCB_E_STATE, "profile: slot %u "
					 "runs %s id %u version %u.%u, the "
					 "profile is for %s id %u version %u.%u "
					 "(--force applies it anyway)", ps->slot,
					 v->name, v->algo_num >> 16,
					 v->algo_num >> 8 & 0xff,
					 v->algo_num & 0xff, ps->algo,
					 ps->algo_num >> 16,
					 ps->algo_num >> 8 & 0xff,
					 ps->algo_num & 0xff);
		for (k = 0; !rc && k < ps->nparams; k++) {
			struct param_view *p;

			rc = sess_param_find(s, v, ps->p[k].name, &p);
			if (rc)
				break;
			ps->p[k].index = p->index;
			ps->p[k].ro = p->info.prm != ALGO_PERM_RW;
			if (!ps->p[k].ro)
				rc = sess_check_value(s, p, ps->p[k].raw);
		}
	}
	return rc;
}

/* One param of a slot: its view on the device (for units), or NULL. */
const struct param_view *profile_view_of(struct session *s, unsigned slot,
					 const char *name)
{
	struct pcb_err keep = s->err;
	struct slot_view *v;
	struct param_view *p = NULL;

	if (sess_device(s) || sess_slot_view(s, slot, &v) ||
	    sess_param_find(s, v, name, &p))
		p = NULL;
	s->err = keep;
	return p;
}

void profile_format_raw(struct session *s, const struct param_view *p,
			uint32_t raw, char *buf, size_t len)
{
	if (p)
		sess_format_value(s, p->type, raw, buf, len);
	else
		snprintf(buf, len, "%u", raw);
}
