/* common.c - argument helpers shared by the commands. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <strings.h>
#include <unistd.h>

#include "cmd.h"
#include "paths.h"

int cmd_parse_slot(struct session *s, const char *text, unsigned *slot)
{
	char *end;
	unsigned long v;

	if (!*text || *text == '-' || *text == '+')
		goto bad;
	v = strtoul(text, &end, 0);
	if (*end || v >= PPCC_SLOTS)
		goto bad;
	*slot = (unsigned)v;
	return 0;
bad:
	return pcb_error(&s->err, PCB_E_RANGE, "bad slot '%s' (0..15)", text);
}

/* What the target words ask for. */
struct target_req {
	bool has_slot, unchecked;
	unsigned slot;
};

static int tgt_slot(struct session *s, void *req, const struct cmd_kw *k,
		    const char *val)
{
	struct target_req *q = req;

	(void)k;
	q->has_slot = true;
	return cmd_parse_slot(s, val, &q->slot);
}

const struct cmd_kw cmd_target_keys[] = {
	{ .name = "slot", .arg = "N", .set = tgt_slot, .id = CMD_TGT_SLOT },
	{ .name = "--unchecked", .dest = KW_D_FLAG, .id = CMD_TGT_UNCHECKED,
	  .off = offsetof(struct target_req, unchecked) },
	{ 0 }
};

int cmd_parse_target(struct session *s, int argc, char **argv,
		     bool *has_slot, unsigned *slot, bool *unchecked)
{
	struct target_req q = { 0 };
	int i = 0, rc = 0;

	while (i < argc && !rc) {
		const struct cmd_kw *k = cmd_kw_find(cmd_target_keys, argv[i]);

		if (!k || (k->id == CMD_TGT_UNCHECKED && !unchecked))
			break;
		if (!cmd_kw_alone(k) && i + 1 >= argc)
			return pcb_error(&s->err, PCB_E_USAGE, "'%s' needs a "
					 "number", k->name);
		rc = cmd_kw_take(s, k, &q, cmd_kw_alone(k) ? NULL :
				 argv[i + 1]);
		i += cmd_kw_alone(k) ? 1 : 2;
	}
	*has_slot = q.has_slot && !rc;
	if (*has_slot)
		*slot = q.slot;
	if (unchecked)
		*unchecked = q.unchecked;
	return rc ? rc : i;
}

bool cmd_is_slot_word(const char *w)
{
	const struct cmd_kw *k = cmd_kw_find(cmd_target_keys, w);

	return k && k->id == CMD_TGT_SLOT;
}

int cmd_pick_slot(struct session *s, bool has_slot, unsigned *slot)
{
	if (has_slot)
		return sess_device(s);
	return sess_active_slot(s, slot);
}

int cmd_open_adb(struct session *s, const char *reg, struct adb_db **db)
{
	char path[PCB_PATH_LEN];
	bool ppcc = reg && (!strcasecmp(reg, "PPCC") ||
			    !strcasecmp(reg, "0x506e") ||
			    !strcasecmp(reg, "ppcc_reg_ext"));
	bool have_mstflint = access(MSTFLINT_ADB, R_OK) == 0;
	int rc;

	if (s->adb_path)
		return adb_db_load_file(db, s->adb_path, &s->err);
	/* our PPCC layout first: it needs nothing installed */
	if (ppcc || (!reg && !have_mstflint)) {
		rc = pcb_data_file(path, sizeof(path), "reg/ppcc.adb", &s->err);
		if (rc)
			return rc;
		return adb_db_load_file(db, path, &s->err);
	}
	if (!have_mstflint)
		return pcb_error(&s->err, PCB_E_NOENT,
				 "register '%s' is not in pccbench's own "
				 "layout, and mstflint's register database "
				 "'%s' is not installed (apt-get install "
				 "mstflint, or give --adb FILE)", reg,
				 MSTFLINT_ADB);
	return adb_db_load_file(db, MSTFLINT_ADB, &s->err);
}

int cmd_bad_duration(struct session *s, const char *who, const char *text,
		     const char *range)
{
	char *end;

	strtod(text, &end);
	if (*text && !*end && end != text)	/* a number without a unit */
		return pcb_error(&s->err, PCB_E_INVAL, "%s%s%s what? write "
				 "%sms (or %sus, %ss)", who, *who ? ": " : "",
				 text, text, text, text);
	return pcb_error(&s->err, PCB_E_INVAL, "%s%sbad duration '%s' (e.g. "
			 "10ms, 500us, 200 us; %s)", who, *who ? ": " : "",
			 text, range);
}

int cmd_parse_prio(struct session *s, const char *who, const char *text,
		   long *prio)
{
	char *end;
	long v = strtol(text, &end, 10);

	if (*end || end == text || v < 0 || v > 7)
		return pcb_error(&s->err, PCB_E_RANGE, "%s: prio is 0..7, not "
				 "'%s'", who, text);
	*prio = v;
	return 0;
}
