/* profile.c - `profile`: a device's algorithm slots and params saved as
 * one JSON file, compared, applied idempotently (one journal
 * transaction), and exported as the exact register writes for hosts
 * without pccbench.
 *
 * The file, $XDG_DATA_HOME/pccbench/profiles/NAME.json (schema
 * "pccbench-profile", version 1):
 *   { "schema": "pccbench-profile", "version": 1, "name": NAME,
 *     "saved": "2026-11-24T07:00:00Z",
 *     "device": { "id": "sim:lab" | "0000:08:00.0", "model": TEXT },
 *     "slots": [ { "slot": 0, "algo": "ZTR_RTT",
 *                  "algo_id": 0x..., "algo_version": "1.0",
 *                  "enabled": true, "counters": false,
 *                  "params": [ { "name": "ALPHA", "index": 1,
 *                                "value": 0.1, "raw": 6553,
 *                                "units": "" }, ... ] }, ... ] }
 * "raw" is what is written; "value" (real units) is for people.  A file
 * is read whole and checked before anything is written: the schema and
 * version, every slot 0..15 once, the algorithm's id and version against
 * the device's (another is refused unless --force), every param by
 * name, its raw value within the device's min..max.  A param the device
 * has read-only is saved for the record and never written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <json-c/json.h>

#include "cmd.h"
#include "device.h"
#include "discover.h"
#include "journal.h"
#include "mstreg.h"

#include "cmd/profile.h"

/* ---- the device's side ------------------------------------------------------ */

/* t with each byte other than letters, digits and extra as '_': a
 * device's id and model as a profile may hold them (profile.h), and all
 * a line of `profile export`'s script says besides its quoted words.
 */
static void script_text(char *buf, size_t len, const char *t,
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

	snprintf(buf, len, "%s", dev_traits(s) & DEV_T_REPLAY ?
		 "simulated" : "unknown");
	if (pcb_resolve_pci(s->devname, bdf, sizeof(bdf), NULL) ||
	    pcb_discover(&nics, &n, NULL))
		return;
	for (i = 0; i < n; i++)
		if (!strcmp(nics[i].bdf, bdf))
			script_text(buf, len, nics[i].model, PROFILE_MODEL);
	free(nics);
}

/* The device's slot as a profile slot. */
static int read_slot(struct session *s, unsigned slot, struct pslot *ps)
{
	uint32_t vals[ALGO_MAX_PARAMS];
	struct slot_view *v;
	size_t n = 0, i;
	bool en, cen;
	int rc = sess_slot_view(s, slot, &v);

	if (!rc)
		rc = ppcc_enable_status(&s->ppcc, slot, &en, &cen, &s->err);
	if (!rc)
		rc = ppcc_bulk_get(&s->ppcc, slot, vals, ALGO_MAX_PARAMS, &n,
				   &s->err);
	if (rc)
		return rc;
	memset(ps, 0, sizeof(*ps));
	ps->slot = slot;
	snprintf(ps->algo, sizeof(ps->algo), "%s", v->name);
	ps->algo_num = v->algo_num;
	ps->enabled = en;
	ps->counters = en && cen;
	for (i = 0; i < v->nparams && i < n; i++) {
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
		rc = ppcc_algo_info_array(&s->ppcc, info, &s->err);
	if (rc)
		return rc;
	script_text(pr->device, sizeof(pr->device), s->devid, PROFILE_DEVICE);
	device_model(s, pr->model, sizeof(pr->model));
	for (i = 0; i < PPCC_SLOTS && !rc; i++) {
		if ((slot >= 0 && i != (unsigned)slot) || !info[i])
			continue;
		rc = read_slot(s, i, &pr->s[pr->nslots++]);
	}
	if (!rc && !pr->nslots)
		rc = pcb_error(&s->err, PCB_E_NOENT, "profile: slot %d holds no "
			       "algorithm", slot);
	return rc;
}

/* ---- the file ---------------------------------------------------------------- */

int profile_path(struct session *s, const char *name, char *buf,
		 size_t len)
{
	return store_path(s, "profile", "profiles", name, ".json", true, buf,
			  len);
}

/* ---- checked against the device ---------------------------------------------- */

/* Each slot's algorithm must be the device's (--force: another version
 * of it, or another algorithm); each param is found by name and its raw
 * value is one the device takes.  The index in the file is only a check.
 */
static int check_profile(struct session *s, struct profile *pr)
{
	uint32_t info[PPCC_SLOTS];
	size_t i, k;
	int rc = ppcc_algo_info_array(&s->ppcc, info, &s->err);

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

/* ---- the commands ----------------------------------------------------------- */

/* profile save NAME [slot N|all] */
static int cmd_profile_save(struct session *s, int argc, char **argv)
{
	struct profile *pr = calloc(1, sizeof(*pr));
	char path[PCB_PATH_LEN];
	struct pcb_wfile w;
	unsigned slot;
	int which = -1, rc = 0;

	if (!pr)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	if (argc == 3 && !strcmp(argv[1], "slot") && strcmp(argv[2], "all"))
		rc = cmd_parse_slot(s, argv[2], &slot);
	else if (argc != 1 && !(argc == 3 && !strcmp(argv[1], "slot")))
		rc = pcb_error(&s->err, PCB_E_USAGE, "usage: profile save NAME "
			       "[slot N|all]");
	if (!rc && argc == 3 && strcmp(argv[2], "all"))
		which = (int)slot;
	if (!rc)
		rc = profile_path(s, argv[0], path, sizeof(path));
	if (!rc)
		rc = profile_read_device(s, which, pr);
	if (!rc) {
		snprintf(pr->name, sizeof(pr->name), "%s", argv[0]);
		rc = pcb_wfile_open(&w, path, PCB_MODE_DATA, &s->err);
	}
	if (!rc) {
		profile_write_json(s, w.fp, pr);
		rc = pcb_wfile_commit(&w, &s->err);
	}
	if (!rc) {
		out_obj_begin(&s->out, NULL);
		out_field_str(&s->out, "profile", "profile %s: ", pr->name);
		out_field_u64(&s->out, "slots", "%llu slot(s) of ", pr->nslots);
		out_field_str(&s->out, "device", "%s -> ", pr->device);
		out_field_str(&s->out, "file", "%s\n", path);
		out_obj_end(&s->out);
	}
	free(pr);
	return rc;
}

/* One param of a slot: its view on the device (for units), or NULL. */
static const struct param_view *view_of(struct session *s, unsigned slot,
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

static void format_raw(struct session *s, const struct param_view *p,
		       uint32_t raw, char *buf, size_t len)
{
	if (p)
		sess_format_value(s, p->type, raw, buf, len);
	else
		snprintf(buf, len, "%u", raw);
}

static int cmd_profile_show(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "slot", "SLOT", TBL_RIGHT }, { "algo", "ALGO", 0 },
		{ "param", "PARAM", 0 }, { "value", "VALUE", TBL_RIGHT },
		{ "units", "UNITS", 0 }, { "raw", "RAW", TBL_RIGHT },
	};
	struct profile *pr = calloc(1, sizeof(*pr));
	struct tbl t;
	size_t i, k;
	int rc;

	(void)argc;
	if (!pr)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = profile_load(s, argv[0], pr);
	if (rc) {
		free(pr);
		return rc;
	}
	out_text(&s->out, "profile %s: from %s (%s)\n", pr->name, pr->device,
		 pr->model);
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < pr->nslots; i++) {
		const struct pslot *ps = &pr->s[i];

		out_text(&s->out, "slot %u: %s %u.%u, %s%s\n", ps->slot,
			 ps->algo, ps->algo_num >> 8 & 0xff,
			 ps->algo_num & 0xff, ps->enabled ? "enabled" :
			 "disabled", ps->counters ? ", counters on" : "");
		for (k = 0; k < ps->nparams; k++) {
			const struct param_view *p = view_of(s, ps->slot,
							     ps->p[k].name);
			char v[40];

			format_raw(s, p, ps->p[k].raw, v, sizeof(v));
			tbl_row(&t);
			tbl_u64(&t, ps->slot);
			tbl_str(&t, ps->algo);
			tbl_str(&t, ps->p[k].name);
			tbl_num(&t, v);
			tbl_str(&t, p && p->units ? p->units : "");
			tbl_u64(&t, ps->p[k].raw);
		}
	}
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	free(pr);
	return 0;
}

/* The differences of b against a, param by param; *n how many. */
static void diff_rows(struct session *s, const struct profile *a,
		      const struct profile *b, struct tbl *t, size_t *n)
{
	size_t i, j, k, m;

	for (i = 0; i < a->nslots; i++) {
		const struct pslot *x = &a->s[i], *y = NULL;

		for (j = 0; j < b->nslots && !y; j++)
			if (b->s[j].slot == x->slot)
				y = &b->s[j];
		for (k = 0; k < x->nparams; k++) {
			const struct param_view *p = view_of(s, x->slot,
							     x->p[k].name);
			char va[40], vb[40] = "-";

			for (m = 0; y && m < y->nparams &&
			     strcmp(y->p[m].name, x->p[k].name); m++)
				;
			if (y && m < y->nparams && y->p[m].raw == x->p[k].raw)
				continue;
			format_raw(s, p, x->p[k].raw, va, sizeof(va));
			if (y && m < y->nparams)
				format_raw(s, p, y->p[m].raw, vb, sizeof(vb));
			tbl_row(t);
			tbl_u64(t, x->slot);
			tbl_str(t, x->p[k].name);
			tbl_str(t, va);
			tbl_str(t, vb);
			tbl_str(t, p && p->units ? p->units : "");
			++*n;
		}
		if (y && (x->enabled != y->enabled ||
			  x->counters != y->counters)) {
			tbl_row(t);
			tbl_u64(t, x->slot);
			tbl_str(t, "(state)");
			tbl_str(t, x->enabled ? x->counters ? "counters" :
				"enabled" : "disabled");
			tbl_str(t, y->enabled ? y->counters ? "counters" :
				"enabled" : "disabled");
			tbl_str(t, "");
			++*n;
		}
	}
}

/* profile diff NAME [NAME2|device]: what NAME2 (the device by default)
 * has other than NAME; exit 1 when they differ, as diff(1) does.
 */
static int cmd_profile_diff(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "slot", "SLOT", TBL_RIGHT }, { "param", "PARAM", 0 },
		{ "a", "A", TBL_RIGHT }, { "b", "B", TBL_RIGHT },
		{ "units", "UNITS", 0 },
	};
	struct profile *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	const char *other = argc > 1 ? argv[1] : "device";
	struct tbl t;
	size_t n = 0;
	int rc = a && b ? 0 : pcb_error(&s->err, PCB_E_NOMEM, "out of memory");

	if (!rc)
		rc = profile_load(s, argv[0], a);
	if (!rc)
		rc = strcmp(other, "device") ? profile_load(s, other, b) :
		     profile_read_device(s, -1, b);
	if (!rc) {
		tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
		diff_rows(s, a, b, &t, &n);
		out_text(&s->out, "A = profile %s, B = %s%s: %zu difference%s\n",
			 argv[0], strcmp(other, "device") ? "profile " :
			 "the device ", strcmp(other, "device") ? other :
			 s->devname, n, n == 1 ? "" : "s");
		if (n || s->out.json)
			tbl_print(&t, &s->out, NULL);
		tbl_release(&t);
		s->status = n ? 1 : 0;	/* as diff(1) */
	}
	free(a);
	free(b);
	return rc;
}

/* What apply does to one slot of the profile: the params that differ and
 * whether its state (enabled, counters) does.
 */
struct aplan {
	struct param_write w[ALGO_MAX_PARAMS];
	size_t nw;
	bool state;		/* enable/disable (and counters) to write */
	bool drop_counters;	/* enabled, counters to go off: only a
				 * disable drops counter_en */
};

/* The plan for every slot of the profile, printed under --check; the
 * number of changes (params + slot states) in *n.
 */
static int apply_plan(struct session *s, const struct profile *pr,
		      struct aplan *pl, bool check, size_t *n)
{
	size_t i, k;
	int rc = 0;

	for (i = 0; i < pr->nslots && !rc; i++) {
		const struct pslot *ps = &pr->s[i];
		struct aplan *a = &pl[i];
		struct pslot now;

		rc = read_slot(s, ps->slot, &now);
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
					view_of(s, ps->slot, ps->p[k].name);
				char x[40], y[40];

				format_raw(s, p, m < now.nparams ?
					   now.p[m].raw : 0, x, sizeof(x));
				format_raw(s, p, ps->p[k].raw, y, sizeof(y));
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
static int apply_states(struct session *s, const struct profile *pr,
			const struct aplan *pl, bool strict)
{
	bool en[PPCC_SLOTS] = { false }, cen;
	int holder = -1, active = -1;
	uint32_t info[PPCC_SLOTS];
	size_t i;
	unsigned k;
	int rc = ppcc_algo_info_array(&s->ppcc, info, &s->err);

	for (k = 0; !rc && k < PPCC_SLOTS; k++)
		if (info[k])
			rc = ppcc_enable_status(&s->ppcc, k, &en[k], &cen,
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
static int apply_locked(struct session *s, const struct profile *pr,
			struct aplan *pl)
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
static void apply_rollback(struct session *s, unsigned tx)
{
	struct pcb_err first = s->err;
	struct jentry *all;
	size_t i, n = journal_count(s->journal), k = 0, done = 0;
	int rc = 0;

	all = malloc((n ? n : 1) * sizeof(*all));
	if (!all)
		return;
	for (i = n; i-- > 0;) {
		const struct jentry *e = journal_entry(s->journal, i);

		if (e->tx == tx && e->outcome > 0)
			all[k++] = *e;	/* the journal grows as we undo */
	}
	if (!k) {
		free(all);
		return;
	}
	pcb_err_reset(&s->err);
	s->tx = journal_next_seq(s->journal);
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

/* profile apply NAME|FILE [--check] [--strict] [--detailed-exitcode]
 * [--force]: only what differs is written; nothing differing is exit 0
 * and {"changed": false}.  "changed" is what the apply changes, or under
 * --check would change.  --detailed-exitcode: 0 unchanged, 2 changed
 * (would change), 1 any error.
 */
static int cmd_profile_apply(struct session *s, int argc, char **argv)
{
	struct profile *pr = calloc(1, sizeof(*pr));
	struct aplan *pl = calloc(PPCC_SLOTS, sizeof(*pl));
	bool check = false, strict = false, dry;
	size_t n = 0;
	int i, rc = pr && pl ? 0 : pcb_error(&s->err, PCB_E_NOMEM,
					     "out of memory");

	for (i = 1; !rc && i < argc; i++)
		if (!strcmp(argv[i], "--check"))
			check = true;
		else if (!strcmp(argv[i], "--strict"))
			strict = true;
		else if (!strcmp(argv[i], "--detailed-exitcode"))
			s->detailed_exit = true;
		else if (!strcmp(argv[i], "--force"))
			s->force = true;
		else
			rc = pcb_error(&s->err, PCB_E_USAGE, "usage: profile "
				       "apply NAME|FILE [--check] [--strict] "
				       "[--detailed-exitcode] [--force]");
	dry = check || s->dry_run;
	if (!rc)
		rc = profile_load(s, argv[0], pr);
	if (!rc)
		rc = sess_device(s);
	if (!rc)
		rc = check_profile(s, pr);
	if (!rc && !dry)
		rc = sess_lock(s);
	if (!rc) {
		rc = apply_plan(s, pr, pl, dry, &n);
		if (!rc)
			rc = apply_states(s, pr, pl, strict);
		if (!rc && !dry) {
			unsigned tx = journal_next_seq(s->journal);

			s->tx = tx;
			rc = apply_locked(s, pr, pl);
			s->tx = 0;
			if (rc)
				apply_rollback(s, tx);
		}
		if (!dry)
			sess_unlock(s);
	}
	if (!rc) {
		out_obj_begin(&s->out, NULL);
		out_field_str(&s->out, "profile", "profile %s: ", pr->name);
		out_field_bool(&s->out, "changed", "%s", n, "", "");
		out_field_u64(&s->out, "writes", "%llu", n);
		out_text(&s->out, " write%s %s\n", n == 1 ? "" : "s", !n ?
			 "needed: the device matches it" : dry ?
			 "needed (--check: nothing written)" : "made ('journal "
			 "undo last' takes them all back)");
		out_bool(&s->out, "check", check);
		out_obj_end(&s->out);
		if (s->detailed_exit && n)
			s->status = 2;
	}
	free(pl);
	free(pr);
	return rc;
}

/* profile export NAME --as mstreg|mlxreg|json: a script of every write
 * the profile makes (the argv pccbench's mstreg backend runs, with its
 * device), or the profile itself.
 */
static int cmd_profile_export(struct session *s, int argc, char **argv)
{
	struct profile *pr = calloc(1, sizeof(*pr));
	const char *as = argc == 3 && !strcmp(argv[1], "--as") ? argv[2] : "";
	size_t i, k;
	int rc = pr ? 0 : pcb_error(&s->err, PCB_E_NOMEM, "out of memory");

	if (!rc && strcmp(as, "mstreg") && strcmp(as, "mlxreg") &&
	    strcmp(as, "json"))
		rc = pcb_error(&s->err, PCB_E_USAGE, "usage: profile export NAME "
			       "--as mstreg|mlxreg|json");
	if (!rc)
		rc = profile_load(s, argv[0], pr);
	if (!rc && !strcmp(as, "json")) {
		profile_write_json(s, s->out.fp, pr);
		free(pr);
		return 0;
	}
	if (!rc)
		rc = sess_device(s);
	if (!rc)
		rc = check_profile(s, pr);
	if (!rc) {	/* the comment: no byte that could end it */
		char name[sizeof(pr->name)], dev[PCB_PATH_LEN];

		script_text(name, sizeof(name), pr->name, PROFILE_WORD);
		script_text(dev, sizeof(dev), s->devname, PROFILE_DEVICE);
		fprintf(s->out.fp, "#!/bin/sh\n# profile %s for %s: every "
			"write, as pccbench makes them with %s\nset -e\n",
			name, dev, as);
	}
	for (i = 0; !rc && i < pr->nslots; i++) {
		const struct pslot *ps = &pr->s[i];
		struct ppcc_status st;
		uint8_t buf[PPCC_SIZE];
		enum reg_method m;
		char *line = NULL;

		/* counter_en, trace_en: as the slot has them now */
		rc = ppcc_status(&s->ppcc, ps->slot, &st, &s->err);
		if (!rc)
			ppcc_keep(&s->ppcc, &st);
		for (k = 0; !rc && k <= ps->nparams; k++) {
			if (k < ps->nparams && (ps->p[k].ro ||
			    sess_param_auto(ps->p[k].name)))
				continue;	/* never written */
			if (k < ps->nparams)
				m = ppcc_param_set_req(&s->ppcc, ps->slot,
						       ps->p[k].index,
						       ps->p[k].raw, buf);
			else if (ps->enabled)
				m = ppcc_enable_req(&s->ppcc, ps->slot,
						    ps->counters, buf);
			else
				m = ppcc_disable_req(&s->ppcc, ps->slot, buf);
			rc = mstreg_command_line(as, s->devname,
						 s->ppcc.layout, m, buf, &line,
						 &s->err);
			if (!rc)
				fprintf(s->out.fp, "%s\n", line);
			free(line);
			line = NULL;
		}
	}
	free(pr);
	return rc;
}

static int cmd_profile_list(struct session *s, int argc, char **argv)
{
	char **names = store_names("profiles", ".json");
	size_t i;

	(void)argc;
	(void)argv;
	if (!names)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	out_arr_begin(&s->out, NULL);
	for (i = 0; names[i]; i++) {
		out_str(&s->out, NULL, names[i]);
		out_text(&s->out, "%s\n", names[i]);
	}
	out_arr_end(&s->out);
	words_free(names);
	return 0;
}

static int cmd_profile_drop(struct session *s, int argc, char **argv)
{
	char path[PCB_PATH_LEN];
	struct stat st;
	int rc = profile_path(s, argv[0], path, sizeof(path));

	(void)argc;
	if (rc)
		return rc;
	if (lstat(path, &st) || !S_ISREG(st.st_mode))
		return pcb_error(&s->err, PCB_E_NOENT, "no profile '%s'",
				 argv[0]);
	if (unlink(path))
		return pcb_error(&s->err, PCB_E_IO, "cannot remove '%s': %s",
				 path, strerror(errno));
	out_text(&s->out, "profile %s dropped\n", argv[0]);
	return 0;
}

/* ---- completion -------------------------------------------------------------- */

static bool profile_name_complete(struct session *s, char **argv, int argc,
				  struct cands *c)
{
	(void)s;
	(void)argv;
	if (argc == 0)
		cand_saved(c, "profiles", ".json");
	return true;
}

static bool profile_apply_complete(struct session *s, char **argv, int argc,
				   struct cands *c)
{
	if (argc)
		cand_list(c, "--check, --strict, --detailed-exitcode, "
			  "--force");
	return profile_name_complete(s, argv, argc, c);
}

static bool profile_export_complete(struct session *s, char **argv,
				    int argc, struct cands *c)
{
	if (argc == 1)
		cand_add(c, "--as");
	else if (argc == 2)
		cand_list(c, "mstreg, mlxreg, json");
	return profile_name_complete(s, argv, argc, c);
}

const struct cmd_row cmd_profile_verbs[] = {
	{
		.name = "save",
		.fn = cmd_profile_save,
		.min_args = 1,
		.max_args = 3,
		.args = "NAME [slot N|all]",
		.help = "the device's slots (algorithm, id, version, enabled, "
			"counters) and every param (real value and raw) as a JSON "
			"profile",
		.example = "profile save tuned",
		.flags = CMD_DEVICE,
	},
	{
		.name = "show",
		.fn = cmd_profile_show,
		.min_args = 1,
		.max_args = 1,
		.args = "NAME|FILE",
		.help = "a profile's slots and params in real units",
		.example = "profile show tuned",
		.complete = profile_name_complete,
	},
	{
		.name = "diff",
		.fn = cmd_profile_diff,
		.min_args = 1,
		.max_args = 2,
		.args = "NAME [NAME2|device]",
		.help = "param by param, what NAME2 (the device by default) has "
			"other than NAME; exit 1 when they differ",
		.example = "profile diff tuned",
		.complete = profile_name_complete,
	},
	{
		.name = "apply",
		.fn = cmd_profile_apply,
		.min_args = 1,
		.max_args = 5,
		.args = "NAME|FILE [--check] [--strict] [--detailed-exitcode] "
			"[--force]",
		.help = "write what differs (checked, journaled, read back; one "
			"journal transaction: 'journal undo' takes it all back); "
			"another algorithm id or version is refused unless "
			"--force; what the device cannot take is refused before "
			"any write; a written slot that will not be active is a "
			"warning (--strict: refused); --check prints the plan; "
			"JSON: changed true|false (would change under --check); "
			"--detailed-exitcode: exit 0 unchanged, 2 changed, 1 error",
		.example = "profile apply tuned --check",
		.flags = CMD_WRITES | CMD_DEVICE,
		.complete = profile_apply_complete,
	},
	{
		.name = "export",
		.fn = cmd_profile_export,
		.min_args = 3,
		.max_args = 3,
		.args = "NAME --as mstreg|mlxreg|json",
		.help = "a standalone script of every register write the profile "
			"makes (the argv pccbench runs), or the profile as JSON",
		.example = "profile export tuned --as mstreg",
		.flags = CMD_DEVICE,
		.complete = profile_export_complete,
	},
	{
		.name = "list",
		.fn = cmd_profile_list,
		.args = "",
		.help = "the saved profiles",
		.example = "profile list",
		.flags = CMD_DEFAULT,
	},
	{
		.name = "drop",
		.fn = cmd_profile_drop,
		.min_args = 1,
		.max_args = 1,
		.args = "NAME",
		.help = "delete a saved profile",
		.example = "profile drop tuned",
		.complete = profile_name_complete,
	},
	{ 0 }
};
