/* write.c - the checked write path: range checks, journal, one set (or
 * bulk set), read-back, for params and algorithm enables (session.h).
 */
#include <ctype.h>
#include <fcntl.h>
#include <sys/file.h>
#include <strings.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>

#include "fsafe.h"
#include "fxp.h"
#include "paths.h"
#include "host/hostctr.h"
#include "session.h"
#include "suggest.h"
#include "units.h"
#include "who.h"
#include "device.h"
#include "tel/diag.h"
#include "mstreg.h"
#include "fwctl.h"
#include "discover.h"
#include <unistd.h>
/* Before a write to real hardware (session.h). */
int sess_confirm(struct session *s, const char *what)
{
	char line[32];

	if (s->read_only)
		return pcb_error(&s->err, PCB_E_STATE,
				 "read-only session: will not %s", what);
	if (!(dev_traits(s->cur) & DEV_T_CONFIRM) || s->yes)
		return 0;
	if (!isatty(STDIN_FILENO))
		return pcb_error(&s->err, PCB_E_STATE,
				 "writing to %s needs confirmation: %s; give "
				 "-y to confirm in scripts", s->cur->name,
				 what);
	fprintf(stderr, "%s: %s? [y/N] ", s->cur->name, what);
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin) ||
	    (strcasecmp(line, "y\n") && strcasecmp(line, "yes\n")))
		return pcb_error(&s->err, PCB_E_STATE, "not confirmed: "
				 "nothing was written");
	return 0;
}

/* ---- the write path ----------------------------------------------------- */

static int read_values(struct session *s, unsigned slot, struct slot_view *v,
		       uint32_t *vals, size_t n_single, unsigned single_idx)
{
	if (n_single == 1)
		return ppcc_param_get(&s->cur->ppcc, slot, single_idx,
				      &vals[single_idx], &s->err);
	return sess_slot_values(s, slot, v, vals);
}

int sess_slot_values(struct session *s, unsigned slot,
		     const struct slot_view *v, uint32_t *vals)
{
	size_t got = 0;
	int rc = ppcc_bulk_get(&s->cur->ppcc, slot, vals, ALGO_MAX_PARAMS, &got,
			       &s->err);

	if (!rc && got < v->nparams)
		rc = pcb_error(&s->err, PCB_E_DEVICE,
			       "bulk get on slot %u returned %zu of %zu params",
			       slot, got, v->nparams);
	return rc;
}

static int write_params_locked(struct session *s, unsigned slot,
			       struct param_write *w, size_t n, bool journal);

int sess_write_params(struct session *s, unsigned slot, struct param_write *w,
		      size_t n, bool journal)
{
	int rc = sess_lock(s);

	if (!rc) {
		rc = write_params_locked(s, slot, w, n, journal);
		sess_unlock(s);
	}
	return rc;
}

/* "set slot 0 ALPHA 0.1 -> 0.2 (PPCC index 1 value ...)" for the
 * confirmation question.
 */
static void describe_writes(struct session *s, unsigned slot,
			    const struct slot_view *v,
			    const struct param_write *w, size_t n,
			    char *what, size_t len)
{
	size_t i, wl;

	wl = (size_t)snprintf(what, len, "set slot %u", slot);
	for (i = 0; i < n && wl < len; i++) {
		const struct param_view *p = &v->params[w[i].index];
		char a[32], b[32];

		if (!w[i].changed)
			continue;
		sess_format_value(s, p->type, w[i].old, a, sizeof(a));
		sess_format_value(s, p->type, w[i].value, b, sizeof(b));
		wl += (size_t)snprintf(what + wl, len - wl, " %s %s -> %s "
				       "(PPCC index %u value 0x%08x -> "
				       "0x%08x)", p->info.name, a, b,
				       w[i].index, w[i].old, w[i].value);
	}
}

/* The audit trail: every register write, once its outcome is known (ok,
 * failed, or unknown when the read-back failed), also a syslog record
 * (LOG_AUTHPRIV: it names who changed a production machine's
 * configuration, as configuration tools' records do): who (uid, user,
 * host, pid), when (local time with its UTC offset), what (device, port,
 * slot, param or algorithm, old -> new) and the journal's seq.  One line
 * of key=value words; what comes from the device is made one word first.
 */
static void audit(struct session *s, unsigned slot, const char *what,
		  int outcome, unsigned seq)
{
	static bool open;
	unsigned port = pcb_handle_port(s->cur->name);
	char when[40], ps[24] = "", js[24] = "";
	struct who w;

	if (!open) {
		openlog("pccbench", LOG_PID, LOG_AUTHPRIV);
		open = true;
	}
	who_am_i(&w);
	who_time(when, sizeof(when));
	if (port)
		snprintf(ps, sizeof(ps), " port=%u", port);
	if (seq)
		snprintf(js, sizeof(js), " journal_seq=%u", seq);
	syslog(LOG_AUTHPRIV | (outcome > 0 ? LOG_NOTICE : LOG_WARNING),
	       "register write device=%s%s slot=%u %s result=%s uid=%u "
	       "user=%s host=%s pid=%ld time=%s%s", s->cur->devid, ps, slot,
	       what,
	       outcome > 0 ? "ok" : outcome < 0 ? "failed" : "unknown",
	       (unsigned)w.uid, w.user, w.host, w.pid, when, js);
}

/* audit() for a param: "param=NAME old=A new=B raw=0x..->0x.." */
static void audit_param(struct session *s, unsigned slot,
			const struct param_view *p, const struct param_write *w,
			int outcome, unsigned seq)
{
	char name[64], a[32], b[32], what[200];

	pcb_file_token(name, sizeof(name), p->info.name);
	sess_format_value(s, p->type, w->old, a, sizeof(a));
	sess_format_value(s, p->type, w->value, b, sizeof(b));
	snprintf(what, sizeof(what), "param=%s old=%s new=%s raw=0x%08x->"
		 "0x%08x", name, a, b, w->old, w->value);
	audit(s, slot, what, outcome, seq);
}

/* A journal line per changed param, before anything is sent. */
static int journal_writes(struct session *s, unsigned slot,
			  const struct slot_view *v,
			  const struct param_write *w, size_t n,
			  unsigned *seq)
{
	uint32_t shared[ALGO_MAX_PARAMS] = { 0 };
	size_t i;
	int rc = sess_shared_params(s, slot, shared);

	for (i = 0; !rc && i < n; i++) {
		struct jentry e = { .kind = J_PARAM };

		if (!w[i].changed)
			continue;
		e.slot = slot;
		e.index = w[i].index;
		/* one word in the journal line */
		pcb_file_token(e.name, sizeof(e.name),
			       v->params[w[i].index].info.name);
		e.old = w[i].old;
		e.new = w[i].value;
		e.tx = s->tx;
		e.undo = s->undo;
		/* through a sim host: that NIC's own value */
		e.nic = (unsigned)(dev_view(s->cur) + 1);
		e.fleet = e.nic && w[i].old == shared[w[i].index];
		rc = journal_begin(s->cur->journal, &e, &s->err);
		if (rc)
			return rc;
		seq[i] = e.seq;
		s->nwrites++;
	}
	return rc;
}

int sess_shared_params(struct session *s, unsigned slot, uint32_t *vals)
{
	struct slot_view *v;
	int rc, was;

	if (dev_view(s->cur) < 0)
		return 0;
	rc = sess_slot_view(s, slot, &v);
	if (rc)
		return rc;
	was = dev_view_set(s->cur, -1);
	rc = sess_slot_values(s, slot, v, vals);
	dev_view_set(s->cur, was);
	return rc;
}

bool sess_param_auto(const char *name)
{
	return !strcmp(name, "BW_G");
}

/* Would a bulk set write back a param the device sets itself, not one
 * of w's?
 */
static bool bulk_writes_auto(const struct slot_view *v,
			     const struct param_write *w, size_t n)
{
	size_t i, k;

	for (k = 0; k < v->nparams; k++) {
		if (!sess_param_auto(v->params[k].info.name))
			continue;
		for (i = 0; i < n && w[i].index != k; i++)
			;
		if (i == n)
			return true;
	}
	return false;
}

/* One set for one param, one bulk set for several (or one set per
 * param where the transport has no bulk set, or where the bulk set would
 * write back BW_G).  `vals` holds the slot's current values.
 */
static int send_writes(struct session *s, unsigned slot,
		       const struct slot_view *v, const struct param_write *w,
		       size_t n, uint32_t *vals)
{
	size_t i;
	int rc = 0;

	if (n == 1)
		return ppcc_param_set(&s->cur->ppcc, slot, w[0].index,
				      w[0].value,
				      &s->err);
	if ((s->cur->dev->ops->caps & REG_CAP_NO_BULK_SET) ||
	    bulk_writes_auto(v, w, n)) {
		for (i = 0; i < n && !rc; i++)
			if (w[i].changed)
				rc = ppcc_param_set(&s->cur->ppcc, slot,
						    w[i].index,
						    w[i].value, &s->err);
		return rc;
	}
	for (i = 0; i < n; i++)
		vals[w[i].index] = w[i].value;
	return ppcc_bulk_set(&s->cur->ppcc, slot, vals, v->nparams, &s->err);
}

/* Read back and close each journal entry with what the device holds —
 * also after a failed send, where some params may have been written
 * (one set per param).  A read-back that fails leaves the outcome
 * unknown.  *bad: the index of the first param the device did not
 * take, or -1.  Returns the read-back's error.
 */
static int settle_writes(struct session *s, unsigned slot,
			 struct slot_view *v, struct param_write *w,
			 size_t n, const unsigned *seq, bool sent, int *bad)
{
	uint32_t back[ALGO_MAX_PARAMS] = { 0 };
	struct pcb_err keep = s->err;
	bool known;
	size_t i;
	int rc;

	rc = read_values(s, slot, v, back, n, w[0].index);
	known = !rc;
	if (!sent)
		s->err = keep;	/* the send's error is the one to tell */
	*bad = -1;
	for (i = 0; i < n; i++) {
		bool ok = known && back[w[i].index] == w[i].value;

		w[i].readback = known ? back[w[i].index] : w[i].old;
		if (known && !ok && *bad < 0)
			*bad = (int)i;
		if (seq[i] && known)
			journal_end(s->cur->journal, seq[i], ok, NULL);
		if (w[i].changed)
			audit_param(s, slot, &v->params[w[i].index], &w[i],
				    !known ? 0 : ok ? 1 : -1, seq[i]);
	}
	return rc;
}

/* What a param write must leave as it was (counter_en, trace_en, the
 * SLs the slot runs on) against what the device reports after it: each
 * change said.
 */
static void check_kept(struct session *s, unsigned slot,
		       const struct ppcc_status *a)
{
	struct pcb_err keep = s->err;
	struct ppcc_status b;
	char la[48], lb[48];

	if (ppcc_status(&s->cur->ppcc, slot, &b, &s->err)) {
		sess_warn(s, "slot %u: enable status after the write: %s",
			  slot, s->err.msg);
		s->err = keep;
		return;
	}
	if (a->counter_en != b.counter_en || a->trace_en != b.trace_en)
		sess_warn(s, "slot %u: the param write changed counter_en %d "
			  "-> %d, trace_en %d -> %d (sent as they were)", slot,
			  a->counter_en, b.counter_en, a->trace_en, b.trace_en);
	if (a->enabled != b.enabled || a->sls != b.sls) {
		ppcc_sl_format(a->sls, la, sizeof(la));
		ppcc_sl_format(b.sls, lb, sizeof(lb));
		sess_warn(s, "slot %u: the param write changed where it runs: "
			  "%s on SLs '%s' -> %s on SLs '%s'", slot,
			  a->enabled ? "enabled" : "disabled", la,
			  b.enabled ? "enabled" : "disabled", lb);
	}
}

/* Read, journal, write, read back: under the device lock. */
static int write_params_locked(struct session *s, unsigned slot,
			       struct param_write *w, size_t n, bool journal)
{
	uint32_t cur[ALGO_MAX_PARAMS] = { 0 };
	unsigned seq[ALGO_MAX_PARAMS] = { 0 };
	struct ppcc_status st;
	struct slot_view *v;
	size_t i, nchanged = 0;
	int rc, rb, bad;

	rc = sess_slot_view(s, slot, &v);
	if (!rc)	/* counter_en, trace_en go as they are */
		rc = ppcc_status(&s->cur->ppcc, slot, &st, &s->err);
	if (rc)
		return rc;
	ppcc_keep(&s->cur->ppcc, &st);
	if (n == 0 || n > v->nparams)
		return pcb_error(&s->err, PCB_E_INVAL, "nothing to write");
	if (s->dry_run) {
		for (i = 0; i < n; i++) {
			uint8_t buf[PPCC_SIZE];
			enum reg_method m = ppcc_param_set_req(&s->cur->ppcc,
							       slot,
							       w[i].index,
							       w[i].value, buf);

			sess_dry_line(s, m, buf);
		}
		return 0;
	}
	rc = read_values(s, slot, v, cur, n, w[0].index);
	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		w[i].old = cur[w[i].index];
		w[i].readback = w[i].old;
		w[i].changed = w[i].old != w[i].value;
		nchanged += w[i].changed;
	}
	if (!nchanged)
		return 0;
	{
		char what[512];

		describe_writes(s, slot, v, w, n, what, sizeof(what));
		rc = sess_confirm(s, what);
	}
	if (!rc && journal)
		rc = journal_writes(s, slot, v, w, n, seq);
	if (rc)
		return rc;
	rc = send_writes(s, slot, v, w, n, cur);
	rb = settle_writes(s, slot, v, w, n, seq, !rc, &bad);
	if (!rc && !rb)
		check_kept(s, slot, &st);
	if (rc || rb)
		return rc ? rc : rb;
	if (bad >= 0) {
		const struct param_view *p = &v->params[w[bad].index];
		char a[32], b[32];

		sess_format_value(s, p->type, w[bad].value, a, sizeof(a));
		sess_format_value(s, p->type, w[bad].readback, b, sizeof(b));
		return pcb_error(&s->err, PCB_E_MISMATCH,
				 "%s: sent %s (raw %u) but read back %s "
				 "(raw %u); the device ignored the write",
				 p->info.name, a, w[bad].value, b,
				 w[bad].readback);
	}
	return 0;
}

static int algo_write_locked(struct session *s, unsigned slot, bool enable,
			     bool counters, bool journal);

int sess_algo_write(struct session *s, unsigned slot, bool enable,
		    bool counters, bool journal)
{
	int rc = dev_slot_write_check(s->cur);	/* a sim host: not here */

	if (!rc)
		rc = sess_lock(s);

	if (!rc) {
		rc = algo_write_locked(s, slot, enable, counters, journal);
		sess_unlock(s);
	}
	return rc;
}

/* After an enable or disable: whether the device shows it done, by its
 * per-SL state where that is there and consistent, else by the enable
 * bit, said once a session.  A port with fewer SLs than 16 runs an enable
 * on all on every SL it has: taken as done by the enable bit, the SLs it
 * reported kept as "all" for the session, and said.
 */
static int algo_check(struct session *s, unsigned slot, bool enable,
		      bool *en, bool *cen)
{
	struct ppcc *p = &s->cur->ppcc;
	struct ppcc_status st;
	char list[48];
	int rc = ppcc_status(p, slot, &st, &s->err);

	if (rc)
		return rc;
	*cen = st.counter_en;
	if (!ppcc_sl_state(p, &st, enable, en)) {
		if (!p->sl_said)
			sess_warn(s, "%s: %s: enable and disable checked by "
				  "the enable bit", s->cur->name,
				  st.sl_support ? "its sl_bitmask does not "
				  "follow the enable bit" : "no per-SL state "
				  "(sl_bitmask_support 0)");
		p->sl_said = true;
		return 0;
	}
	if (*en != enable && enable && st.enabled &&
	    p->sl_mask == PPCC_ALL_SLS) {
		ppcc_sl_format(st.sls, list, sizeof(list));
		sess_warn(s, "slot %u: enabled on all SLs, the device reports "
			  "SLs %s: taken as every SL it has (its enable bit "
			  "is set)", slot, list);
		p->sl_all = st.sls;
		*en = true;
	}
	return 0;
}

static int algo_write_locked(struct session *s, unsigned slot, bool enable,
			     bool counters, bool journal)
{
	struct slot_view *v;
	struct jentry e = { .kind = J_ALGO };
	struct ppcc_status st;
	bool en, cen, en2, cen2;
	int rc;

	rc = sess_slot_view(s, slot, &v);
	if (rc)
		return rc;
	if (counters && !v->ncounters)
		return pcb_error(&s->err, PCB_E_INVAL,
				 "slot %u (%s) has no counters", slot,
				 v->name);
	/* as the device is: whether there is anything to do (an enable
	 * sets counter_en as asked: without counters, off), and the trace
	 * the write keeps */
	rc = ppcc_status(&s->cur->ppcc, slot, &st, &s->err);
	if (rc)
		return rc;
	ppcc_keep(&s->cur->ppcc, &st);
	ppcc_sl_state(&s->cur->ppcc, &st, enable, &en);
	cen = st.counter_en;
	if (en == enable && (!enable || cen == counters))
		return 0;	/* already so: the dry run prints nothing */
	if (s->dry_run) {
		uint8_t buf[PPCC_SIZE];

		sess_dry_line(s, enable ? ppcc_enable_req(&s->cur->ppcc, slot,
							  counters, buf) :
				  ppcc_disable_req(&s->cur->ppcc, slot,
						   buf), buf);
		return 0;
	}
	{
		char what[200];

		snprintf(what, sizeof(what), "%s slot %u (%.60s)%s (PPCC "
			 "cmd_type %u, enabled %u -> %u, counter_en %u -> %u)",
			 enable ? "enable" : "disable", slot, v->name,
			 enable && counters ? " with counters" : "",
			 enable ? PPCC_ENABLE : PPCC_DISABLE, en, enable, cen,
			 enable && counters);
		rc = sess_confirm(s, what);
		if (rc)
			return rc;
	}
	if (journal) {
		e.slot = slot;
		e.old = (uint32_t)en | (uint32_t)cen << 1;
		e.new = (uint32_t)enable | (uint32_t)(enable && counters) << 1;
		e.tx = s->tx;
		e.undo = s->undo;
		rc = journal_begin(s->cur->journal, &e, &s->err);
		if (rc)
			return rc;
		s->nwrites++;
	}
	rc = enable ? ppcc_enable(&s->cur->ppcc, slot, counters, &s->err) :
		      ppcc_disable(&s->cur->ppcc, slot, &s->err);
	if (!rc)
		rc = algo_check(s, slot, enable, &en2, &cen2);
	if (!rc && en2 && enable && !counters && cen2)
		rc = pcb_error(&s->err, PCB_E_MISMATCH, "slot %u: enabled, but "
			       "the device kept its counters on ('algo "
			       "disable %u' then 'algo enable %u' turns them "
			       "off)", slot, slot, slot);
	else if (!rc && (en2 != enable || (enable && counters && !cen2)))
		rc = pcb_error(&s->err, PCB_E_MISMATCH,
			       "slot %u: asked to %s%s but the device reports "
			       "%s, counters %s", slot,
			       enable ? "enable" : "disable",
			       counters ? " with counters" : "",
			       en2 ? "enabled" : "disabled",
			       cen2 ? "on" : "off");
	if (journal)
		journal_end(s->cur->journal, e.seq, rc == 0, NULL);
	{
		char what[160], name[64];

		pcb_file_token(name, sizeof(name), v->name);
		snprintf(what, sizeof(what), "algo=%s enabled=%u->%u "
			 "counter_en=%u->%u", name, en, enable, cen,
			 enable && (counters || cen));
		audit(s, slot, what, rc ? -1 : 1, journal ? e.seq : 0);
	}
	return rc;
}
