/* algo.c - `algo`: slots, enable/disable, ZTR-RTT debug mode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "journal.h"
#include "paths.h"

/* One row of algo list. */
struct algo_row {
	uint32_t num, ncnt;
	struct ppcc_status st;
	char name[224], descr[224];
};

/* The slots with their state.  SLS (the service levels a slot runs on,
 * as enable status reports them) is shown when some slot runs on some
 * SLs only: on every SL or none, ENABLED says it all.
 */
static int cmd_algo_list(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "slot", "SLOT", TBL_RIGHT },
		{ "algo_id", "ID", 0 },
		{ "version", "VERSION", 0 },
		{ "name", "NAME", 0 },
		{ "enabled", "ENABLED", 0 },
		{ "sls", "SLS", 0 },
		{ "counters", "COUNTERS", 0 },
		{ "active", "ACTIVE", 0 },
		{ "description", "DESCRIPTION", 0 },
	};
	enum { COL_SLS = 5, NCOLS = sizeof(cols) / sizeof(cols[0]) };
	struct tbl_col shown[NCOLS];
	struct algo_row *r = NULL;
	uint32_t info[PPCC_SLOTS];
	int active = -1, rc;
	unsigned i, k = 0;
	bool some = false;
	struct tbl t;

	(void)argc;
	(void)argv;
	rc = sess_device(s);
	if (!rc)
		rc = ppcc_algo_info_array(&s->cur->ppcc, info, &s->err);
	if (rc)
		return rc;
	r = calloc(PPCC_SLOTS, sizeof(*r));
	if (!r)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	for (i = 0; i < PPCC_SLOTS && !rc; i++) {
		if (!info[i])
			continue;
		rc = ppcc_algo_info(&s->cur->ppcc, i, &r[i].num, r[i].name,
				    sizeof(r[i].name), r[i].descr,
				    sizeof(r[i].descr), &s->err);
		if (!rc)
			rc = ppcc_status(&s->cur->ppcc, i, &r[i].st, &s->err);
		if (!rc)
			rc = ppcc_num_counters(&s->cur->ppcc, i, &r[i].ncnt,
					       &s->err);
		some |= !rc && r[i].st.sl_support && r[i].st.sls &&
			r[i].st.sls != PPCC_ALL_SLS;
	}
	if (rc)
		goto out_free;
	for (i = 0; i < NCOLS; i++)
		if (i != COL_SLS || some)
			shown[k++] = cols[i];
	tbl_init(&t, shown, k);
	for (i = 0; i < PPCC_SLOTS; i++) {
		const struct algo_row *a = &r[i];
		char list[48];

		if (!info[i])
			continue;
		if (a->st.enabled && active < 0)
			active = (int)i;
		tbl_row(&t);
		tbl_u64(&t, i);
		tbl_hex(&t, a->num >> 16, 4);
		tbl_strf(&t, "%u.%u", (a->num >> 8) & 0xff, a->num & 0xff);
		tbl_str(&t, a->name);
		tbl_bool(&t, a->st.enabled);
		if (some && a->st.sl_support) {
			ppcc_sl_format(a->st.sls, list, sizeof(list));
			tbl_str(&t, list);
		} else if (some) {
			tbl_null(&t);
		}
		if (a->ncnt)
			tbl_str(&t, a->st.counter_en ? "on" : "off");
		else
			tbl_null(&t);
		tbl_bool(&t, active == (int)i);
		tbl_str(&t, a->descr);
	}
	tbl_print(&t, &s->out, NULL);
	if (active < 0)
		out_text(&s->out, "no slot is enabled\n");
	tbl_release(&t);
out_free:
	free(r);
	return rc;
}

static void report(struct session *s, const char *what)
{
	unsigned act;
	struct slot_view *v = NULL;
	struct pcb_err keep = s->err;

	if (s->dry_run)
		return;
	if (sess_active_slot(s, &act)) {
		s->err = keep;
		out_obj_begin(&s->out, NULL);
		out_field_str(&s->out, "result", "%s; no slot is enabled now\n",
			      what);
		out_null(&s->out, "active_slot");
		out_bool(&s->out, "changed", s->nwrites > s->cmd_w0);
		out_obj_end(&s->out);
		return;
	}
	if (sess_slot_view(s, act, &v))
		s->err = keep;
	out_obj_begin(&s->out, NULL);
	out_field_str(&s->out, "result", "%s; ", what);
	out_field_uint(&s->out, "active_slot", "active: slot %u ", act);
	out_text(&s->out, "(%s)\n", v ? v->name : "?");
	out_bool(&s->out, "changed", s->nwrites > s->cmd_w0);
	out_obj_end(&s->out);
}

/* What enable's and disable's words after SLOT ask for. */
struct switch_req {
	bool counters;
	uint32_t sls;	/* every SL unless `sl` names some */
};

static int sw_sl(struct session *s, void *req, const struct cmd_kw *k,
		 const char *val)
{
	(void)k;
	return ppcc_sl_parse(val, &((struct switch_req *)req)->sls, &s->err);
}

/* their words, in any order, each once */
static const struct cmd_kw algo_enable_keys[] = {
	{ .name = "counters", .dest = KW_D_FLAG,
	  .off = offsetof(struct switch_req, counters) },
	{ .name = "sl", .arg = "LIST", .set = sw_sl },
	{ 0 }
};

static const struct cmd_kw algo_disable_keys[] = {
	{ .name = "sl", .arg = "LIST", .set = sw_sl },
	{ 0 }
};

static int algo_words(struct session *s, int argc, char **argv, bool enable,
		      struct switch_req *q)
{
	const struct cmd_kw *t = enable ? algo_enable_keys : algo_disable_keys;
	char usage[80], syn[48];
	unsigned seen = 0;
	int i;

	snprintf(usage, sizeof(usage), "algo %s SLOT %s",
		 enable ? "enable" : "disable",
		 cmd_kw_synopsis(t, syn, sizeof(syn)));
	q->counters = false;
	q->sls = PPCC_ALL_SLS;
	for (i = 1; i < argc; i++) {
		const struct cmd_kw *k = cmd_kw_find(t, argv[i]);
		int rc;

		if (!k || (seen & (1u << (k - t))))
			return pcb_error(&s->err, PCB_E_USAGE,
					 "unknown word '%s'; usage: %s",
					 argv[i], usage);
		seen |= 1u << (k - t);
		if (!cmd_kw_alone(k) && i + 1 == argc)
			return pcb_error(&s->err, PCB_E_USAGE,
					 "'%s' needs a list of SLs; "
					 "usage: %s", k->name, usage);
		rc = cmd_kw_take(s, k, q, cmd_kw_alone(k) ? NULL : argv[++i]);
		if (rc)
			return rc;
	}
	return 0;
}

/* enable or disable SLOT on the SLs asked: a device that does not report
 * SLs is refused a narrower set than all of them (it would configure
 * every SL).  Says what it did.
 */
static int algo_switch(struct session *s, int argc, char **argv,
		       bool enable)
{
	char what[96], list[48] = "";
	struct switch_req q = { .sls = PPCC_ALL_SLS };
	unsigned slot;
	bool counters, yes;
	uint32_t sls;
	int rc = cmd_parse_slot(s, argv[0], &slot);

	if (!rc)
		rc = algo_words(s, argc, argv, enable, &q);
	counters = q.counters;
	sls = q.sls;
	if (!rc && sls != PPCC_ALL_SLS) {
		rc = sess_device(s);
		if (!rc)
			rc = ppcc_sl_supported(&s->cur->ppcc, &yes, &s->err);
		if (!rc && !yes)
			rc = pcb_error(&s->err, PCB_E_STATE,
				       "'%s' does not report service levels "
				       "(sl_bitmask_support 0): a write "
				       "there configures every SL; leave out "
				       "'sl'", s->cur->name);
		ppcc_sl_format(sls, list, sizeof(list));
	}
	if (rc)
		return rc;
	s->cur->ppcc.sl_mask = sls;
	rc = sess_algo_write(s, slot, enable, counters, true);
	s->cur->ppcc.sl_mask = PPCC_ALL_SLS;
	if (rc)
		return rc;
	snprintf(what, sizeof(what), "slot %u %s%s%s%s", slot,
		 enable ? "enabled" : "disabled",
		 counters ? " with counters" : "", *list ? " on SLs " : "",
		 list);
	report(s, what);
	return 0;
}

static int cmd_algo_enable(struct session *s, int argc, char **argv)
{
	return algo_switch(s, argc, argv, true);
}

static int cmd_algo_disable(struct session *s, int argc, char **argv)
{
	return algo_switch(s, argc, argv, false);
}

/* Where debug mode remembers what it replaced: the slot active before
 * and whether slot 0 was enabled, so `debug off` goes back to exactly
 * that (DCQCN active -> on -> off leaves DCQCN active).  A small state
 * file beside the device's journal, checksummed like the others.
 */
static int debug_state_path(struct session *s, char *buf, size_t len)
{
	return pcb_user_file(buf, len, PCB_DIR_STATE, "debug", s->cur->devid,
			     "",
			     &s->err);
}

/* 0 and *prev, *en0; -PCB_E_NOENT when debug mode was not turned on by
 * pccbench (then off behaves as the seed says: slot 0 enabled).
 */
static int debug_state_load(struct session *s, int *prev, int *en0)
{
	char path[PCB_PATH_LEN], *text;
	size_t len;
	int rc = debug_state_path(s, path, sizeof(path));

	if (!rc)
		rc = pcb_read_file(path, 4096, &text, &len, &s->err);
	if (rc)
		return rc;
	if (!pcb_crc_check(text, &len) ||
	    sscanf(text, "active %d slot0 %d", prev, en0) != 2 ||
	    *prev < -1 || *prev >= PPCC_SLOTS || *en0 < 0 || *en0 > 1) {
		free(text);
		return pcb_error(&s->err, PCB_E_CORRUPT, "'%s' is damaged; "
				 "remove it ('algo debug off' then enables "
				 "slot 0)", path);
	}
	free(text);
	return 0;
}

static int debug_state_save(struct session *s, int prev, bool en0)
{
	char path[PCB_PATH_LEN], *text = NULL;
	size_t len;
	int rc = debug_state_path(s, path, sizeof(path));

	if (rc)
		return rc;
	if (asprintf(&text, "active %d slot0 %d\n", prev, en0) < 0)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	len = strlen(text);
	if (pcb_crc_seal(&text, &len))
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	else
		rc = pcb_write_file(path, text, len, PCB_MODE_STATE, &s->err);
	free(text);
	return rc;
}

/* What a copy of slot `from`'s tuning onto slot `to` writes: every param
 * of `to` that `from` has under the same name and type, writable on `to`,
 * in its range and different.  `line` says the new values ("ALPHA 0.35,
 * AI 20 B/100Gb/s"), `old` what they replace; *same: how many params the
 * slots share.
 */
struct dcopy {
	struct param_write w[ALGO_MAX_PARAMS];
	size_t n, same;
	char line[1024], old[1024];
	const char *from_name;
};

static void append_value(struct session *s, char *buf, size_t len,
			 bool first, const struct param_view *p, uint32_t v)
{
	char x[32];
	size_t l = strlen(buf);

	sess_format_value(s, p->type, v, x, sizeof(x));
	snprintf(buf + l, len - l, "%s%s %s%s%s", first ? "" : ", ",
		 p->info.name, x, *p->units ? " " : "", p->units);
}

static int copy_plan(struct session *s, unsigned from, unsigned to,
		     struct dcopy *c)
{
	uint32_t a[ALGO_MAX_PARAMS], b[ALGO_MAX_PARAMS];
	struct slot_view *src, *dst;
	size_t i, k;
	int rc = sess_slot_view(s, from, &src);

	memset(c, 0, sizeof(*c));
	if (!rc)
		rc = sess_slot_view(s, to, &dst);
	if (!rc)
		rc = sess_slot_values(s, from, src, a);
	if (!rc)
		rc = sess_slot_values(s, to, dst, b);
	if (rc)
		return rc;
	c->from_name = src->name;
	for (i = 0; i < dst->nparams; i++) {
		const struct param_view *d = &dst->params[i];

		for (k = 0; k < src->nparams; k++)
			if (!strcmp(src->params[k].info.name, d->info.name))
				break;
		if (k == src->nparams || src->params[k].type != d->type)
			continue;
		c->same++;
		if (a[k] == b[i] || d->info.prm != ALGO_PERM_RW ||
		    a[k] < d->info.min || a[k] > d->info.max)
			continue;
		append_value(s, c->line, sizeof(c->line), !c->n, d, a[k]);
		append_value(s, c->old, sizeof(c->old), !c->n, d, b[i]);
		memset(&c->w[c->n], 0, sizeof(c->w[c->n]));
		c->w[c->n].index = (unsigned)i;
		c->w[c->n++].value = a[k];
	}
	return 0;
}

/* The tuning of slot `from` onto slot 1 (the debug build), in one
 * checked, journaled write; says what was copied and what it replaced
 * (the journal keeps that: `journal undo` puts it back).
 */
static int debug_copy(struct session *s, unsigned from)
{
	struct dcopy *c = malloc(sizeof(*c));
	int rc = c ? copy_plan(s, from, 1, c) :
		 pcb_error(&s->err, PCB_E_NOMEM, "out of memory");

	if (rc)
		goto out;
	if (!c->n) {
		if (!s->dry_run)
			out_text(&s->out, c->same ? "slot 1 already has the "
				 "params of slot %u (%s)\n" : "slot %u (%s) has "
				 "no param of slot 1's: nothing copied\n", from,
				 c->from_name);
		goto out;
	}
	rc = sess_write_params(s, 1, c->w, c->n, true);
	if (!rc && !s->dry_run)
		out_text(&s->out, "copied from slot %u to slot 1: %s\n"
			 "slot 1 had: %s ('journal undo %u' takes this debug "
			 "on back, them with it)\n",
			 from, c->line, c->old, s->tx);
out:
	free(c);
	return rc;
}

/* A question on the terminal; *answer: the first letter of the reply
 * ('\0' for none).  Refused without a terminal.
 */
static int ask(struct session *s, const char *question, const char *refusal,
	       char *answer)
{
	char line[32];

	*answer = '\0';
	if (!isatty(STDIN_FILENO))
		return pcb_error(&s->err, PCB_E_STATE, "%s", refusal);
	fprintf(stderr, "%s ", question);
	fflush(stderr);
	if (fgets(line, sizeof(line), stdin))
		*answer = line[0];
	return 0;
}

/* Debug mode on: the active slot (and whether slot 0 is enabled)
 * remembered, its tuning copied to slot 1 (not with `keep`), slot 0 off,
 * slot 1 on with counters.  Another algorithm active (DCQCN) is asked
 * about: ZTR-RTT replaces it (-y: refused unless --force).
 */
static int debug_on(struct session *s, bool keep, bool en0, bool en1,
		    bool cen1)
{
	struct slot_view *v1, *va;
	int rc, prev = -1;
	unsigned act;

	if (!sess_active_slot(s, &act))
		prev = (int)act;
	pcb_err_reset(&s->err);
	rc = sess_slot_view(s, 1, &v1);
	if (!rc && prev >= 0 && prev != 1 && !s->force) {
		rc = sess_slot_view(s, (unsigned)prev, &va);
		if (!rc && va->algo_num >> 16 != v1->algo_num >> 16) {
			char q[400], no[400], a = '\0';

			snprintf(q, sizeof(q), "the active algorithm is %.60s "
				 "(slot %d); debug mode makes it %.60s (slot 1). "
				 "Switch? [y/N]", va->name, prev, v1->name);
			snprintf(no, sizeof(no), "algo debug on: the active "
				 "algorithm is %.60s (slot %d), debug mode would "
				 "make it %.60s (slot 1); --force switches it; "
				 "nothing was written", va->name, prev,
				 v1->name);
			rc = s->yes ? pcb_error(&s->err, PCB_E_STATE, "%s", no) :
			     ask(s, q, no, &a);
			if (!rc && a != 'y' && a != 'Y')
				rc = pcb_error(&s->err, PCB_E_STATE, "not "
					       "switched: nothing was written");
		}
	}
	if (rc)
		return rc;
	/* already on: what it replaced is remembered from then */
	if (!(en1 && cen1 && prev == 1) && !s->dry_run)
		rc = debug_state_save(s, prev, en0);
	if (!rc && !keep && prev >= 0 && prev != 1)
		rc = debug_copy(s, (unsigned)prev);
	if (!rc)
		rc = sess_algo_write(s, 0, false, false, true);
	if (!rc)
		rc = sess_algo_write(s, 1, true, true, true);
	return rc;
}

/* Debug mode off.  Slot 1's tuning that differs from slot 0 is a
 * decision: `carry` writes it to slot 0 (the deployment slot), `discard`
 * leaves it (the journal keeps it); asked on a terminal, else (and with
 * -y) the word is required.  Then back to what was active before.
 */
/* algo debug's words: on or off, then each one's own */
enum { DBG_ON = 1, DBG_OFF, DBG_KEEP, DBG_FORCE, DBG_CARRY, DBG_DISCARD };
static const struct cmd_kw debug_on_keys[] = {
	{ .name = "keep", .id = DBG_KEEP },
	{ .name = "--force", .id = DBG_FORCE },
	{ 0 }
};

static const struct cmd_kw debug_off_keys[] = {
	{ .name = "carry", .id = DBG_CARRY },
	{ .name = "discard", .id = DBG_DISCARD },
	{ 0 }
};

static const struct cmd_kw debug_keys[] = {
	{ .name = "on", .id = DBG_ON },
	{ .name = "off", .id = DBG_OFF },
	{ 0 }
};

static int debug_off(struct session *s, const struct cmd_kw *choice,
		     bool en1)
{
	struct dcopy *c = NULL;
	int rc, prev = -1, was0 = 1;
	bool carry = choice && choice->id == DBG_CARRY;

	rc = debug_state_load(s, &prev, &was0);
	if (rc == -PCB_E_NOENT) {
		pcb_err_reset(&s->err);
		rc = 0;
	}
	if (!rc && en1) {
		c = malloc(sizeof(*c));
		rc = c ? copy_plan(s, 1, 0, c) : pcb_error(&s->err,
							   PCB_E_NOMEM,
							   "out of memory");
	}
	if (!rc && c && c->n && !choice) {
		char q[2600], no[2600], a = '\0';

		snprintf(q, sizeof(q), "slot 1 (debug) has %s; slot 0 has %s. "
			 "Carry them to slot 0 or discard them? [c/d]",
			 c->line, c->old);
		snprintf(no, sizeof(no), "algo debug off: slot 1 (debug) has "
			 "%s, slot 0 has %s; say 'algo debug off carry' "
			 "(to slot 0) or 'algo debug off discard'; nothing was "
			 "written", c->line, c->old);
		rc = s->yes ? pcb_error(&s->err, PCB_E_STATE, "%s", no) :
		     ask(s, q, no, &a);
		if (!rc && a != 'c' && a != 'd')
			rc = pcb_error(&s->err, PCB_E_STATE, "neither carry "
				       "nor discard: nothing was written");
		carry = a == 'c';
	}
	if (!rc && c && c->n && carry)
		rc = sess_write_params(s, 0, c->w, c->n, true);
	if (!rc && was0)
		rc = sess_algo_write(s, 0, true, false, true);
	if (!rc)
		rc = sess_algo_write(s, 1, false, false, true);
	if (!rc && !s->dry_run) {
		char path[PCB_PATH_LEN];

		if (!debug_state_path(s, path, sizeof(path)))
			unlink(path);
		if (c && c->n && carry)
			out_text(&s->out, "carried to slot 0: %s (was %s)\n",
				 c->line, c->old);
		else if (c && c->n)
			out_text(&s->out, "discarded slot 1's %s ('journal "
				 "show' has them); slot 0 keeps %s\n", c->line,
				 c->old);
		if (c && c->n && carry && !was0)
			out_text(&s->out, "slot 0 stays disabled (it was before "
				 "debug mode): the carried values run when it "
				 "is enabled\n");
	}
	free(c);
	return rc;
}

/* Seed 004 "Debug Mode": disable slot 0, enable slot 1 with counters,
 * and back; each direction one journal transaction (`journal undo`
 * takes it back whole).
 */
static int cmd_algo_debug(struct session *s, int argc, char **argv)
{
	const char *usage = "usage: algo debug on [keep] [--force] | off "
			    "[carry|discard]";
	const struct cmd_kw *mode = cmd_kw_find(debug_keys, argv[0]), *choice =
		NULL;
	bool on = mode && mode->id == DBG_ON, keep = false, en0, cen, en1, cen1;
	struct slot_view *v;
	int i, rc;

	if (!mode)
		return pcb_error(&s->err, PCB_E_USAGE, "%s", usage);
	for (i = 1; i < argc; i++) {
		const struct cmd_kw *k = cmd_kw_find(on ? debug_on_keys :
						     debug_off_keys, argv[i]);

		if (k && k->id == DBG_KEEP && !keep)
			keep = true;
		else if (k && k->id == DBG_FORCE)
			s->force = true;
		else if (k && !on && !choice)	/* carry, discard */
			choice = k;
		else
			return pcb_error(&s->err, PCB_E_USAGE, "%s", usage);
	}
	rc = dev_slot_write_check(s->cur);	/* a sim host: not here */
	if (!rc)
		rc = sess_slot_view(s, 0, &v);
	if (!rc)
		rc = sess_slot_view(s, 1, &v);
	if (rc)
		return rc;
	if (!v->ncounters)
		return pcb_error(&s->err, PCB_E_STATE,
				 "slot 1 (%s) has no counters: not a debug "
				 "build", v->name);
	rc = ppcc_enable_status(&s->cur->ppcc, 0, &en0, &cen, &s->err);
	if (!rc)
		rc = ppcc_enable_status(&s->cur->ppcc, 1, &en1, &cen1, &s->err);
	if (!rc && !s->dry_run)
		rc = sess_lock(s);
	if (rc)
		return rc;
	if (!s->dry_run)
		s->tx = journal_next_seq(s->cur->journal);
	rc = on ? debug_on(s, keep, en0, en1, cen1) :
	     debug_off(s, choice, en1);
	s->tx = 0;
	if (!s->dry_run)
		sess_unlock(s);
	if (rc)
		return rc;
	report(s, on ? "debug mode on" : "debug mode off");
	return 0;
}

/* ---- completion ------------------------------------------------------------ */

static bool algo_enable_complete(struct session *s, char **argv, int argc,
				 struct cands *c)
{
	if (argc >= 1)
		return cand_keywords(s, algo_enable_keys, 1, argv, argc, c);
	return cmd_complete_first_slot(s, argv, argc, c);
}

static bool algo_disable_complete(struct session *s, char **argv, int argc,
				  struct cands *c)
{
	if (argc >= 1)
		return cand_keywords(s, algo_disable_keys, 1, argv, argc, c);
	return cmd_complete_first_slot(s, argv, argc, c);
}

static bool algo_debug_complete(struct session *s, char **argv, int argc,
				struct cands *c)
{
	const struct cmd_kw *mode = argc == 1 ? cmd_kw_find(debug_keys,
							   argv[0]) : NULL;

	(void)s;
	if (argc == 0)
		cand_kw_names(c, debug_keys);
	else if (mode)
		cand_kw_names(c, mode->id == DBG_ON ? debug_on_keys :
			      debug_off_keys);
	return true;
}

const struct cmd_row cmd_algo_verbs[] = {
	{
		.name = "list",
		.fn = cmd_algo_list,
		.args = "",
		.help = "slots with algo id, version, name, enable and counter status",
		.example = "algo list",
		.flags = CMD_DEFAULT | CMD_DEVICE,
	},
	{
		.name = "enable",
		.fn = cmd_algo_enable,
		.min_args = 1,
		.max_args = 4,
		.args = "SLOT",
		.keys = algo_enable_keys,
		.help = "enable a slot (and its counters: one slot per port holds "
			"them) on every SL, or on the SLs listed (3, 0-3,5, 0x8)",
		.example = "algo enable 1 counters",
		.flags = CMD_WRITES | CMD_DEVICE,
		.complete = algo_enable_complete,
	},
	{
		.name = "disable",
		.fn = cmd_algo_disable,
		.min_args = 1,
		.max_args = 3,
		.args = "SLOT",
		.keys = algo_disable_keys,
		.help = "disable a slot on every SL or on the SLs listed; the lowest "
			"enabled slot is the active one",
		.example = "algo disable 0",
		.flags = CMD_WRITES | CMD_DEVICE,
		.complete = algo_disable_complete,
	},
	{
		.name = "debug",
		.fn = cmd_algo_debug,
		.min_args = 1,
		.max_args = 3,
		.args = "on [keep] [--force] | off [carry|discard]",
		.help = "ZTR-RTT debug mode: slot 1 with counters instead of slot 0, "
			"with the active slot's params (not with keep; what slot 1 "
			"had is named, 'journal undo' puts it back); another "
			"algorithm active is asked about (-y: --force); off: back "
			"to the slot active before, slot 1's params that differ "
			"carried to slot 0 or discarded (asked; -y: say which)",
		.example = "algo debug on",
		.flags = CMD_WRITES | CMD_DEVICE,
		.complete = algo_debug_complete,
	},
	{ 0 }
};
