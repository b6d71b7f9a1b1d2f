/* algo.c - `algo`: slots, enable/disable, ZTR-RTT debug mode. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static int cmd_algo_list(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "slot", "SLOT", TBL_RIGHT },
		{ "algo_id", "ID", 0 },
		{ "version", "VERSION", 0 },
		{ "name", "NAME", 0 },
		{ "enabled", "ENABLED", 0 },
		{ "counters", "COUNTERS", 0 },
		{ "active", "ACTIVE", 0 },
		{ "description", "DESCRIPTION", 0 },
	};
	uint32_t info[PPCC_SLOTS];
	int active = -1, rc;
	unsigned i;
	struct tbl t;

	(void)argc;
	(void)argv;
	rc = sess_device(s);
	if (rc)
		return rc;
	rc = ppcc_algo_info_array(&s->ppcc, info, &s->err);
	if (rc)
		return rc;
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < PPCC_SLOTS; i++) {
		char name[224], descr[224];
		uint32_t num, ncnt;
		bool en, cen;

		if (!info[i])
			continue;
		rc = ppcc_algo_info(&s->ppcc, i, &num, name, sizeof(name),
				    descr, sizeof(descr), &s->err);
		if (!rc)
			rc = ppcc_enable_status(&s->ppcc, i, &en, &cen,
						&s->err);
		if (!rc)
			rc = ppcc_num_counters(&s->ppcc, i, &ncnt, &s->err);
		if (rc)
			goto out_release;
		if (en && active < 0)
			active = (int)i;
		tbl_row(&t);
		tbl_u64(&t, i);
		tbl_hex(&t, num >> 16, 4);
		tbl_strf(&t, "%u.%u", (num >> 8) & 0xff, num & 0xff);
		tbl_str(&t, name);
		tbl_bool(&t, en);
		if (ncnt)
			tbl_str(&t, cen ? "on" : "off");
		else
			tbl_null(&t);
		if (active == (int)i)
			tbl_bool(&t, true);
		else
			tbl_bool(&t, false);
		tbl_str(&t, descr);
	}
	tbl_print(&t, &s->out, NULL);
	if (!s->out.json && active < 0)
		fprintf(s->out.fp, "no slot is enabled\n");
out_release:
	tbl_release(&t);
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
		if (!s->out.json)
			fprintf(s->out.fp, "%s; no slot is enabled now\n",
				what);
		else {
			out_obj_begin(&s->out, NULL);
			out_str(&s->out, "result", what);
			out_null(&s->out, "active_slot");
			out_obj_end(&s->out);
		}
		return;
	}
	if (sess_slot_view(s, act, &v))
		s->err = keep;
	if (s->out.json) {
		out_obj_begin(&s->out, NULL);
		out_str(&s->out, "result", what);
		out_u64(&s->out, "active_slot", act);
		out_obj_end(&s->out);
	} else {
		fprintf(s->out.fp, "%s; active: slot %u (%s)\n", what, act,
			v ? v->name : "?");
	}
}

static int cmd_algo_enable(struct session *s, int argc, char **argv)
{
	unsigned slot;
	bool counters = false;
	char what[64];
	int rc = cmd_parse_slot(s, argv[0], &slot);

	if (rc)
		return rc;
	if (argc == 2) {
		if (strcmp(argv[1], "counters"))
			return pcb_error(&s->err, PCB_E_USAGE,
					 "unknown word '%s'; usage: algo "
					 "enable SLOT [counters]", argv[1]);
		counters = true;
	}
	rc = sess_algo_write(s, slot, true, counters, true);
	if (rc)
		return rc;
	snprintf(what, sizeof(what), "slot %u enabled%s", slot,
		 counters ? " with counters" : "");
	report(s, what);
	return 0;
}

static int cmd_algo_disable(struct session *s, int argc, char **argv)
{
	unsigned slot;
	char what[64];
	int rc = cmd_parse_slot(s, argv[0], &slot);

	(void)argc;
	if (rc)
		return rc;
	rc = sess_algo_write(s, slot, false, false, true);
	if (rc)
		return rc;
	snprintf(what, sizeof(what), "slot %u disabled", slot);
	report(s, what);
	return 0;
}

/* Seed 004 "Debug Mode": disable slot 0, enable slot 1 with counters.
 * Off: enable slot 0 first (it becomes active), then disable slot 1.
 */
static int cmd_algo_debug(struct session *s, int argc, char **argv)
{
	struct slot_view *v;
	int rc;

	(void)argc;
	if (strcmp(argv[0], "on") && strcmp(argv[0], "off"))
		return pcb_error(&s->err, PCB_E_USAGE,
				 "usage: algo debug on|off");
	rc = sess_slot_view(s, 0, &v);
	if (!rc)
		rc = sess_slot_view(s, 1, &v);
	if (rc)
		return rc;
	if (!v->ncounters)
		return pcb_error(&s->err, PCB_E_STATE,
				 "slot 1 (%s) has no counters: not a debug "
				 "build", v->name);
	if (!strcmp(argv[0], "on")) {
		rc = sess_algo_write(s, 0, false, false, true);
		if (!rc)
			rc = sess_algo_write(s, 1, true, true, true);
	} else {
		rc = sess_algo_write(s, 0, true, false, true);
		if (!rc)
			rc = sess_algo_write(s, 1, false, false, true);
	}
	if (rc)
		return rc;
	report(s, !strcmp(argv[0], "on") ? "debug mode on" :
					   "debug mode off");
	return 0;
}

const struct cmd_row cmd_algo_verbs[] = {
	{ "list", cmd_algo_list, NULL, 0, 0, "",
	  "slots with algo id, version, name, enable and counter status",
	  "algo list", CMD_DEFAULT | CMD_DEVICE },
	{ "enable", cmd_algo_enable, NULL, 1, 2, "SLOT [counters]",
	  "enable a slot (and its counters: one slot per port holds them)",
	  "algo enable 1 counters", CMD_WRITES | CMD_DEVICE },
	{ "disable", cmd_algo_disable, NULL, 1, 1, "SLOT",
	  "disable a slot; the lowest enabled slot is the active one",
	  "algo disable 0", CMD_WRITES | CMD_DEVICE },
	{ "debug", cmd_algo_debug, NULL, 1, 1, "on|off",
	  "ZTR-RTT debug mode: slot 1 with counters instead of slot 0",
	  "algo debug on", CMD_WRITES | CMD_DEVICE },
	{ NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, 0 }
};
