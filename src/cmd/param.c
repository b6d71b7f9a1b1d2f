/* param.c - `param`: parameters as real numbers, checked writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"

static const char *perm_name(uint32_t prm)
{
	return prm == ALGO_PERM_RW ? "rw" : prm == ALGO_PERM_RO_CLEAR ?
	       "ro,clear" : "ro";
}

/* "[slot N] NAME..." of get and describe: the slot (the active one unless
 * named) and its view; the index of the first name, or -PCB_E_*.
 */
static int names_target(struct session *s, int argc, char **argv,
			const char *usage, unsigned *slot,
			struct slot_view **v)
{
	bool has_slot;
	int used = cmd_parse_target(s, argc, argv, &has_slot, slot, NULL);
	int rc;

	if (used < 0)
		return used;
	if (used == argc)
		return pcb_error(&s->err, PCB_E_USAGE, "usage: %s", usage);
	rc = cmd_pick_slot(s, has_slot, slot);
	if (!rc)
		rc = sess_slot_view(s, *slot, v);
	return rc ? rc : used;
}

static void fmt(const struct session *s, const struct param_view *p,
		uint32_t raw, char *b, size_t n)
{
	sess_format_value(s, p->type, raw, b, n);
}

static int cmd_param_list(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "index", "IDX", TBL_RIGHT },
		{ "name", "NAME", 0 },
		{ "value", "VALUE", TBL_RIGHT },
		{ "units", "UNITS", 0 },
		{ "raw", "RAW", TBL_RIGHT },
		{ "type", "TYPE", 0 },
		{ "default", "DEFAULT", TBL_RIGHT },
		{ "min", "MIN", TBL_RIGHT },
		{ "max", "MAX", TBL_RIGHT },
		{ "rec_min", "RECOMMENDED", TBL_TEXT_ONLY },
		{ "rec_min", "", TBL_JSON_ONLY },
		{ "rec_max", "", TBL_JSON_ONLY },
		{ "access", "ACCESS", 0 },
		{ "description", "", TBL_JSON_ONLY },
		/* through a sim host NIC: its own value, not the shared
		 * register's (last: only there) */
		{ "own", "OWN", 0 },
	};
	uint32_t vals[ALGO_MAX_PARAMS];
	uint64_t own = 0;
	bool host = false;
	struct slot_view *v;
	unsigned slot = 0;
	size_t i;
	struct tbl t;
	int rc;

	if (argc == 1) {
		rc = cmd_parse_slot(s, argv[0], &slot);
		if (!rc)
			rc = sess_device(s);
	} else {
		rc = sess_active_slot(s, &slot);
	}
	if (!rc)
		rc = sess_slot_view(s, slot, &v);
	if (!rc)
		rc = sess_slot_values(s, slot, v, vals);
	if (rc)
		return rc;
	host = dev_view(s->cur) >= 0;
	if (host && (rc = dev_own_params(s->cur, slot, &own)))
		return rc;	/* which are that NIC's own */
	out_text(&s->out, "slot %u: %s%s\n", slot, v->name,
		 v->desc && !strcmp(v->desc->name, "ztr_rtt") ?
		 " (ZTR-RTT model: reconstructed)" : "");
	if (host)
		out_text(&s->out, "%s: OWN marks this NIC's own values, the "
			 "rest are %s's\n", s->cur->devid, s->cur->regid);
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]) - !host);
	for (i = 0; i < v->nparams; i++) {
		const struct param_view *p = &v->params[i];
		char b[32], c[32];

		tbl_row(&t);
		tbl_u64(&t, i);
		tbl_str(&t, p->info.name);
		fmt(s, p, vals[i], b, sizeof(b));
		tbl_num(&t, b);
		tbl_str(&t, p->units);
		tbl_u64(&t, vals[i]);
		tbl_str(&t, algo_ptype_name(p->type));
		fmt(s, p, p->info.def, b, sizeof(b));
		tbl_num(&t, b);
		fmt(s, p, p->info.min, b, sizeof(b));
		tbl_num(&t, b);
		fmt(s, p, p->info.max, b, sizeof(b));
		tbl_num(&t, b);
		if (p->desc && p->desc->has_rec) {
			fmt(s, p, p->desc->rec_min, b, sizeof(b));
			fmt(s, p, p->desc->rec_max, c, sizeof(c));
			tbl_strf(&t, "%s..%s", b, c);
			fmt(s, p, p->desc->rec_min, b, sizeof(b));
			tbl_num(&t, b);
			tbl_num(&t, c);
		} else {
			tbl_null(&t);
			tbl_null(&t);
			tbl_null(&t);
		}
		tbl_str(&t, perm_name(p->info.prm));
		tbl_str(&t, p->info.descr);
		if (host)
			tbl_bool(&t, own >> i & 1);
	}
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	return 0;
}

/* Text wrapped at `width` columns, each line after `indent` spaces. */
static void wrap(FILE *fp, const char *text, int indent, int width)
{
	int col = indent;
	const char *w = text;

	fprintf(fp, "%*s", indent, "");
	while (*w) {
		size_t n = strcspn(w, " ");

		if (col > indent && col + 1 + (int)n > width) {
			fprintf(fp, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', fp);
			col++;
		}
		fprintf(fp, "%.*s", (int)n, w);
		col += (int)n;
		w += n;
		while (*w == ' ')
			w++;
	}
	fputc('\n', fp);
}

/* param diff [slot N] [defaults | slot M]: the params whose value differs
 * from the defaults (of the device's param info) or from slot M's param
 * of the same name, in real units.
 */
static int cmd_param_diff(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "name", "NAME", 0 }, { "value", "VALUE", TBL_RIGHT },
		{ "other", "OTHER", TBL_RIGHT }, { "units", "UNITS", 0 },
		{ "raw", "RAW", TBL_RIGHT }, { "raw_other", "RAW OTHER",
					       TBL_RIGHT },
	};
	uint32_t a[ALGO_MAX_PARAMS], b[ALGO_MAX_PARAMS];
	struct slot_view *v, *o = NULL;
	bool has_slot, vs_slot = false;
	unsigned slot = 0, other = 0;
	size_t i, k, ndiff = 0;
	char what[300];
	struct tbl t;
	int used, rc;

	/* one leading "slot N" names this slot; a second, the other */
	has_slot = argc >= 2 && cmd_is_slot_word(argv[0]);
	used = has_slot ? 2 : 0;
	rc = has_slot ? cmd_parse_slot(s, argv[1], &slot) : 0;
	if (!rc)
		rc = cmd_pick_slot(s, has_slot, &slot);
	if (!rc && used < argc) {
		if (argc - used == 1 && !strcmp(argv[used], "defaults"))
			;
		else if (argc - used == 2 && cmd_is_slot_word(argv[used]))
			rc = cmd_parse_slot(s, argv[used + 1], &other);
		else
			rc = pcb_error(&s->err, PCB_E_USAGE, "usage: param diff "
				       "[slot N] [defaults | slot M]");
		vs_slot = argc - used == 2;
	}
	if (!rc)
		rc = sess_slot_view(s, slot, &v);
	if (!rc)
		rc = sess_slot_values(s, slot, v, a);
	if (!rc && vs_slot) {
		rc = sess_slot_view(s, other, &o);
		if (!rc)	/* the view of slot may have moved: again */
			rc = sess_slot_view(s, slot, &v);
		if (!rc)
			rc = sess_slot_values(s, other, o, b);
	}
	if (rc)
		return rc;
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < v->nparams; i++) {
		const struct param_view *p = &v->params[i];
		uint32_t x = p->info.def;
		char va[32], vb[32];

		if (o) {
			for (k = 0; k < o->nparams; k++)
				if (!strcmp(o->params[k].info.name,
					    p->info.name) &&
				    o->params[k].type == p->type)
					break;
			if (k == o->nparams)
				continue;	/* no such param there */
			x = b[k];
		}
		if (a[i] == x)
			continue;
		fmt(s, p, a[i], va, sizeof(va));
		fmt(s, p, x, vb, sizeof(vb));
		tbl_row(&t);
		tbl_str(&t, p->info.name);
		tbl_num(&t, va);
		tbl_num(&t, vb);
		tbl_str(&t, p->units);
		tbl_u64(&t, a[i]);
		tbl_u64(&t, x);
		ndiff++;
	}
	if (o)
		snprintf(what, sizeof(what), "slot %u (%s)", other, o->name);
	else
		snprintf(what, sizeof(what), "the defaults");
	out_text(&s->out, "slot %u (%s) against %s: %zu param%s differ%s\n",
		 slot, v->name, what, ndiff, ndiff == 1 ? "" : "s",
		 ndiff == 1 ? "s" : "");
	/* no differences: no table in text, [] in JSON */
	if (s->out.json || ndiff)
		tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	return 0;
}

/* param describe [slot N] NAME...: what each param does, its value,
 * range, recommended range and access, in words.
 */
static int cmd_param_describe(struct session *s, int argc, char **argv)
{
	struct slot_view *v = NULL;
	unsigned slot = 0;
	int used, i, rc = 0;

	used = names_target(s, argc, argv, "param describe [slot N] NAME...",
			    &slot, &v);
	if (used < 0)
		return used;
	for (i = used; !rc && i < argc; i++) {
		struct param_view *p;
		char val[32], range[96], rec[96] = "-";
		uint32_t raw;

		rc = sess_param_find(s, v, argv[i], &p);
		if (!rc)
			rc = ppcc_param_get(&s->cur->ppcc, slot, p->index, &raw,
					    &s->err);
		if (rc)
			break;
		fmt(s, p, raw, val, sizeof(val));
		sess_format_range(s, p, p->info.min, p->info.max, range,
				  sizeof(range));
		if (p->desc && p->desc->has_rec)
			sess_format_range(s, p, p->desc->rec_min,
					  p->desc->rec_max, rec, sizeof(rec));
		if (s->out.json) {
			out_obj_begin(&s->out, NULL);
			out_str(&s->out, "name", p->info.name);
			out_u64(&s->out, "slot", slot);
			out_num(&s->out, "value", val);
			out_str(&s->out, "units", p->units);
			out_str(&s->out, "range", range);
			out_str(&s->out, "recommended", rec);
			out_str(&s->out, "access", p->info.prm == ALGO_PERM_RW ?
				"rw" : "ro");
			out_str(&s->out, "description", p->desc ?
				p->desc->descr : p->info.descr);
			out_obj_end(&s->out);
			continue;
		}
		fprintf(s->out.fp, "%s (slot %u, %s, %s%s)\n", p->info.name,
			slot, v->name, algo_ptype_name(p->type),
			p->info.prm == ALGO_PERM_RW ? "" : ", read-only");
		wrap(s->out.fp, p->desc && *p->desc->descr ? p->desc->descr :
		     *p->info.descr ? p->info.descr : "(no description)", 2,
		     76);
		fprintf(s->out.fp, "  value %s%s%s (raw %u), range %s, "
			"recommended %s\n", val, *p->units ? " " : "",
			p->units, raw, range, rec);
	}
	return rc;
}

static int cmd_param_get(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "name", "NAME", 0 }, { "value", "VALUE", TBL_RIGHT },
		{ "units", "UNITS", 0 }, { "raw", "RAW", TBL_RIGHT },
		{ "slot", "", TBL_JSON_ONLY },
	};
	struct slot_view *v = NULL;
	unsigned slot = 0;
	struct tbl t;
	int used, i, rc;

	used = names_target(s, argc, argv, "param get [slot N] NAME...", &slot,
			    &v);
	if (used < 0)
		return used;
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = used; i < argc; i++) {
		struct param_view *p;
		uint32_t raw;
		char b[32];

		rc = sess_param_find(s, v, argv[i], &p);
		if (!rc)
			rc = ppcc_param_get(&s->cur->ppcc, slot, p->index, &raw,
					    &s->err);
		if (rc)
			goto out_release;
		tbl_row(&t);
		tbl_str(&t, p->info.name);
		fmt(s, p, raw, b, sizeof(b));
		tbl_num(&t, b);
		tbl_str(&t, p->units);
		tbl_u64(&t, raw);
		tbl_u64(&t, slot);
	}
	tbl_print(&t, &s->out, NULL);
out_release:
	tbl_release(&t);
	return rc;
}

static void print_writes(struct session *s, const struct slot_view *v,
			 unsigned slot, const struct param_write *w, size_t n)
{
	static const struct tbl_col cols[] = {
		{ "name", "NAME", 0 }, { "old", "OLD", TBL_RIGHT },
		{ "new", "NEW", TBL_RIGHT }, { "units", "UNITS", 0 },
		{ "raw_old", "RAW OLD", TBL_RIGHT },
		{ "raw_new", "RAW NEW", TBL_RIGHT },
		{ "changed", "", TBL_JSON_ONLY }, { "slot", "", TBL_JSON_ONLY },
	};
	struct tbl t;
	size_t i;

	if (s->dry_run)
		return;
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < n; i++) {
		const struct param_view *p = &v->params[w[i].index];
		char b[32];

		tbl_row(&t);
		tbl_str(&t, p->info.name);
		fmt(s, p, w[i].old, b, sizeof(b));
		tbl_num(&t, b);
		fmt(s, p, w[i].readback, b, sizeof(b));
		tbl_num(&t, b);
		tbl_str(&t, p->units);
		tbl_u64(&t, w[i].old);
		tbl_u64(&t, w[i].readback);
		tbl_bool(&t, w[i].changed);
		tbl_u64(&t, slot);
	}
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
}

static int cmd_param_set(struct session *s, int argc, char **argv)
{
	struct param_write w[ALGO_MAX_PARAMS];
	struct slot_view *v;
	bool has_slot, unchecked;
	unsigned slot = 0;
	size_t n = 0, k;
	int used, i, rc;

	used = cmd_parse_target(s, argc, argv, &has_slot, &slot, &unchecked);
	if (used < 0)
		return used;
	if (used == argc)
		return pcb_error(&s->err, PCB_E_USAGE,
				 "usage: param set [slot N] [--unchecked] NAME "
				 "VALUE [NAME VALUE...]");
	rc = cmd_pick_slot(s, has_slot, &slot);
	if (!rc)
		rc = sess_slot_view(s, slot, &v);
	if (rc)
		return rc;
	/* parse and check everything before writing anything */
	for (i = used; i < argc;) {
		struct param_view *p;
		bool raw = false;

		rc = sess_param_find(s, v, argv[i], &p);
		if (rc)
			return rc;
		if (i + 1 < argc && !strcmp(argv[i + 1], "raw")) {
			raw = true;
			i++;
		}
		if (i + 1 >= argc)
			return pcb_error(&s->err, PCB_E_USAGE,
					 "%s: missing value", p->info.name);
		for (k = 0; k < n; k++)
			if (w[k].index == p->index)
				return pcb_error(&s->err, PCB_E_INVAL,
						 "%s given twice",
						 p->info.name);
		memset(&w[n], 0, sizeof(w[n]));
		w[n].index = p->index;
		if (!raw && i + 2 < argc && strlen(argv[i + 1]) < 40 &&
		    sess_unit_word(p, argv[i + 2])) {	/* "200 us" */
			char joined[64];

			snprintf(joined, sizeof(joined), "%s%s", argv[i + 1],
				 argv[i + 2]);
			rc = sess_parse_value(p, joined, false, &w[n].value,
					      &s->err);
			i++;
		} else {
			rc = sess_parse_value(p, argv[i + 1], raw,
					      &w[n].value, &s->err);
		}
		if (!rc)
			rc = unchecked ? 0 : sess_check_value(s, p, w[n].value);
		if (rc)
			return rc;
		n++;
		i += 2;
	}
	rc = sess_write_params(s, slot, w, n, true);
	if (rc)
		return rc;
	print_writes(s, v, slot, w, n);
	return 0;
}

/* What `param reset` puts back: each param's default, or through a sim
 * host NIC the shared register's value (that NIC runs the fleet's again:
 * its own value dropped, firmware.h). */
static int reset_values(struct session *s, unsigned slot,
			const struct slot_view *v, uint32_t *def)
{
	size_t k;

	for (k = 0; k < v->nparams && k < ALGO_MAX_PARAMS; k++)
		def[k] = v->params[k].info.def;
	return sess_shared_params(s, slot, def);
}

static int cmd_param_reset(struct session *s, int argc, char **argv)
{
	uint32_t def[ALGO_MAX_PARAMS] = { 0 };
	struct param_write w[ALGO_MAX_PARAMS];
	struct slot_view *v;
	bool has_slot;
	unsigned slot = 0;
	size_t n = 0, k;
	int used, i, rc;

	used = cmd_parse_target(s, argc, argv, &has_slot, &slot, NULL);
	if (used < 0)
		return used;
	if (used == argc)
		return pcb_error(&s->err, PCB_E_USAGE,
				 "usage: param reset [slot N] NAME...|all");
	rc = cmd_pick_slot(s, has_slot, &slot);
	if (!rc)
		rc = sess_slot_view(s, slot, &v);
	if (!rc)
		rc = reset_values(s, slot, v, def);
	if (rc)
		return rc;
	if (argc - used == 1 && !strcasecmp(argv[used], "all")) {
		for (k = 0; k < v->nparams; k++) {
			/* BW_G: the device's, from the link speed */
			if (v->params[k].info.prm != ALGO_PERM_RW ||
			    sess_param_auto(v->params[k].info.name))
				continue;
			memset(&w[n], 0, sizeof(w[n]));
			w[n].index = (unsigned)k;
			w[n++].value = def[k];
		}
	} else {
		for (i = used; i < argc; i++) {
			struct param_view *p;

			rc = sess_param_find(s, v, argv[i], &p);
			if (rc)
				return rc;
			for (k = 0; k < n; k++)
				if (w[k].index == p->index)
					return pcb_error(&s->err, PCB_E_INVAL,
							 "%s given twice",
							 p->info.name);
			if (p->info.prm != ALGO_PERM_RW)
				return pcb_error(&s->err, PCB_E_RANGE,
						 "%s is read-only on this "
						 "slot", p->info.name);
			memset(&w[n], 0, sizeof(w[n]));
			w[n].index = p->index;
			w[n++].value = def[p->index];
		}
	}
	if (!n)
		return pcb_error(&s->err, PCB_E_STATE,
				 "slot %u has no writable params", slot);
	rc = sess_write_params(s, slot, w, n, true);
	if (rc)
		return rc;
	print_writes(s, v, slot, w, n);
	return 0;
}

/* ---- completion ------------------------------------------------------------ */

/* Param names, `slot` (and --unchecked) and after it the slots; `extra`
 * words too.
 */
static bool param_words(struct session *s, char **argv, int argc,
			struct cands *c, bool unchecked, const char *extra)
{
	const struct cmd_kw *k;

	if (argc && cmd_is_slot_word(argv[argc - 1])) {
		cand_slots(s, c, false);
		return true;
	}
	cand_params(s, c);
	for (k = cmd_target_keys; k->name; k++)
		if (unchecked || k->id != CMD_TGT_UNCHECKED)
			cand_add(c, k->name);
	if (extra)
		cand_list(c, extra);
	return true;
}

static bool param_complete(struct session *s, char **argv, int argc,
			   struct cands *c)
{
	return param_words(s, argv, argc, c, false, NULL);
}

static bool param_set_complete(struct session *s, char **argv, int argc,
			       struct cands *c)
{
	return param_words(s, argv, argc, c, true, "raw");
}

static bool param_reset_complete(struct session *s, char **argv, int argc,
				 struct cands *c)
{
	return param_words(s, argv, argc, c, false, "all");
}

const struct cmd_row cmd_param_verbs[] = {
	{
		.name = "list",
		.fn = cmd_param_list,
		.max_args = 1,
		.args = "[SLOT]",
		.help = "every param: value in real units, raw, type, default, range",
		.example = "param list 1",
		.flags = CMD_DEFAULT | CMD_DEVICE,
		.complete = param_complete,
	},
	{
		.name = "get",
		.fn = cmd_param_get,
		.min_args = 1,
		.max_args = -1,
		.args = "[slot N] NAME...",
		.help = "read params (of the active slot unless a slot is named)",
		.example = "param get ALPHA MAX_DELAY",
		.flags = CMD_DEVICE,
		.complete = param_complete,
	},
	{
		.name = "set",
		.fn = cmd_param_set,
		.min_args = 2,
		.max_args = -1,
		.args = "[slot N] [--unchecked] NAME [raw] VALUE [NAME VALUE...]",
		.help = "write params (real units; 0x.. or raw for integers), read "
			"back",
		.example = "param set ALPHA 0.3 MAX_DELAY 200us",
		.flags = CMD_WRITES | CMD_DEVICE,
		.complete = param_set_complete,
	},
	{
		.name = "diff",
		.fn = cmd_param_diff,
		.max_args = 4,
		.args = "[slot N] [defaults | slot M]",
		.help = "the params that differ from the defaults or from slot M, in "
			"real units",
		.example = "param diff slot 1 slot 0",
		.flags = CMD_DEVICE,
		.complete = param_complete,
	},
	{
		.name = "describe",
		.fn = cmd_param_describe,
		.min_args = 1,
		.max_args = -1,
		.args = "[slot N] NAME...",
		.help = "what a param does, its value, range and recommended range",
		.example = "param describe ALPHA MAX_DEC",
		.flags = CMD_DEVICE,
		.complete = param_complete,
	},
	{
		.name = "reset",
		.fn = cmd_param_reset,
		.min_args = 1,
		.max_args = -1,
		.args = "[slot N] NAME...|all",
		.help = "put params back to their defaults",
		.example = "param reset all",
		.flags = CMD_WRITES | CMD_DEVICE,
		.complete = param_reset_complete,
	},
	{ 0 }
};
