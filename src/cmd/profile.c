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

#include "profile/profile.h"

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
	if (argc == 3 && cmd_is_slot_word(argv[1]) && strcmp(argv[2], "all"))
		rc = cmd_parse_slot(s, argv[2], &slot);
	else if (argc != 1 && !(argc == 3 && cmd_is_slot_word(argv[1])))
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
			const struct param_view *p =
				profile_view_of(s, ps->slot, ps->p[k].name);
			char v[40];

			profile_format_raw(s, p, ps->p[k].raw, v, sizeof(v));
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
		profile_diff_rows(s, a, b, &t, &n);
		out_text(&s->out, "A = profile %s, B = %s%s: %zu difference%s\n",
			 argv[0], strcmp(other, "device") ? "profile " :
			 "the device ", strcmp(other, "device") ? other :
			 s->cur->name, n, n == 1 ? "" : "s");
		if (n || s->out.json)
			tbl_print(&t, &s->out, NULL);
		tbl_release(&t);
		s->status = n ? 1 : 0;	/* as diff(1) */
	}
	free(a);
	free(b);
	return rc;
}

/* profile apply NAME|FILE [--check] [--strict] [--detailed-exitcode]
 * [--force]: only what differs is written; nothing differing is exit 0
 * and {"changed": false}.  "changed" is what the apply changes, or under
 * --check would change.  --detailed-exitcode: 0 unchanged, 2 changed
 * (would change), 1 any error.
 */
/* What profile apply's words ask for. */
struct apply_req {
	bool check, strict, detailed, force;
};

/* profile apply's and export's words: the parsers, usage and
 * completion read these.
 */
static const struct cmd_kw apply_keys[] = {
	{ .name = "--check", .dest = KW_D_FLAG,
	  .off = offsetof(struct apply_req, check) },
	{ .name = "--strict", .dest = KW_D_FLAG,
	  .off = offsetof(struct apply_req, strict) },
	{ .name = "--detailed-exitcode", .dest = KW_D_FLAG,
	  .off = offsetof(struct apply_req, detailed) },
	{ .name = "--force", .dest = KW_D_FLAG,
	  .off = offsetof(struct apply_req, force) },
	{ 0 }
};

enum { AS_MSTREG, AS_MLXREG, AS_JSON };	/* --as's values, in order */
static const struct cmd_kw export_keys[] = {
	{ .name = "--as", .arg = "mstreg|mlxreg|json",
	  .vals = "mstreg, mlxreg, json", .flags = KW_REQ,
	  .id = 1 },	/* its parser reads the value's index */
	{ 0 }
};

static int cmd_profile_apply(struct session *s, int argc, char **argv)
{
	struct profile *pr = calloc(1, sizeof(*pr));
	struct profile_aplan *pl = calloc(PPCC_SLOTS, sizeof(*pl));
	struct apply_req q = { 0 };
	bool check, strict, dry;
	char syn[100];
	size_t n = 0;
	int i, rc = pr && pl ? 0 : pcb_error(&s->err, PCB_E_NOMEM,
					     "out of memory");

	if (!rc)
		rc = cmd_kw_parse(s, apply_keys, &q, argc - 1, argv + 1, &i);
	if (!rc && i != argc - 1)
		rc = pcb_error(&s->err, PCB_E_USAGE, "usage: profile apply "
			       "NAME|FILE %s", cmd_kw_synopsis(apply_keys, syn,
							       sizeof(syn)));
	s->detailed_exit |= q.detailed;
	s->force |= q.force;
	check = q.check;
	strict = q.strict;
	dry = check || s->dry_run;
	if (!rc)
		rc = profile_load(s, argv[0], pr);
	if (!rc)
		rc = sess_device(s);
	if (!rc)
		rc = profile_check(s, pr);
	if (!rc && !dry)
		rc = sess_lock(s);
	if (!rc) {
		rc = profile_apply_plan(s, pr, pl, dry, &n);
		if (!rc)
			rc = profile_apply_states(s, pr, pl, strict);
		if (!rc && !dry) {
			unsigned tx = journal_next_seq(s->cur->journal);

			s->tx = tx;
			rc = profile_apply_locked(s, pr, pl);
			s->tx = 0;
			if (rc)
				profile_apply_rollback(s, tx);
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
	const struct cmd_kw *k0 = argc == 3 ? cmd_kw_find(export_keys,
							  argv[1]) : NULL;
	int to = k0 ? cmd_kw_val(k0, argv[2]) : -1;	/* AS_* */
	const char *as = to >= 0 ? argv[2] : "";
	char syn[60];
	size_t i, k;
	int rc = pr ? 0 : pcb_error(&s->err, PCB_E_NOMEM, "out of memory");

	if (!rc && to < 0)
		rc = pcb_error(&s->err, PCB_E_USAGE, "usage: profile export NAME "
			       "%s", cmd_kw_synopsis(export_keys, syn,
						     sizeof(syn)));
	if (!rc)
		rc = profile_load(s, argv[0], pr);
	if (!rc && to == AS_JSON) {
		profile_write_json(s, s->out.fp, pr);
		free(pr);
		return 0;
	}
	if (!rc)
		rc = sess_device(s);
	if (!rc)
		rc = profile_check(s, pr);
	if (!rc) {	/* the comment: no byte that could end it */
		char name[sizeof(pr->name)], dev[PCB_PATH_LEN];

		profile_script_text(name, sizeof(name), pr->name, PROFILE_WORD);
		profile_script_text(dev, sizeof(dev), s->cur->name,
				    PROFILE_DEVICE);
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
		rc = ppcc_status(&s->cur->ppcc, ps->slot, &st, &s->err);
		if (!rc)
			ppcc_keep(&s->cur->ppcc, &st);
		for (k = 0; !rc && k <= ps->nparams; k++) {
			if (k < ps->nparams && (ps->p[k].ro ||
			    sess_param_auto(ps->p[k].name)))
				continue;	/* never written */
			if (k < ps->nparams)
				m = ppcc_param_set_req(&s->cur->ppcc, ps->slot,
						       ps->p[k].index,
						       ps->p[k].raw, buf);
			else if (ps->enabled)
				m = ppcc_enable_req(&s->cur->ppcc, ps->slot,
						    ps->counters, buf);
			else
				m = ppcc_disable_req(&s->cur->ppcc, ps->slot,
						     buf);
			rc = mstreg_command_line(as, s->cur->name,
						 s->cur->ppcc.layout, m, buf,
						 &line, &s->err);
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
		cand_kw_names(c, apply_keys);
	return profile_name_complete(s, argv, argc, c);
}

static bool profile_export_complete(struct session *s, char **argv,
				    int argc, struct cands *c)
{
	if (argc == 1 || argc == 2)
		return cand_keywords(s, export_keys, 1, argv, argc, c);
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
		.args = "NAME|FILE",
		.keys = apply_keys,
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
		.args = "NAME",
		.keys = export_keys,
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
