/* retx.c - `retx`: the DOCA telemetry context adp_retx.
 *
 * `retx` drives the adaptive-retransmission histogram of the sim device,
 * which the simulator fills with its retransmission timeouts; on a real
 * NIC the histogram sits behind a fwctl command pccbench does not know
 * yet, so `retx` says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "device.h"
#include "tel/retx.h"
#include "tel/tel.h"

static const struct {
	const char *name;
	uint32_t unit;
} units[] = {
	{ "nsec", RETX_NSEC }, { "usec", RETX_USEC },
	{ "usec_100", RETX_USEC_100 }, { "msec", RETX_MSEC },
};
/* the unit words of the rest of pccbench mean the same here */
static const struct {
	const char *alias, *name;
} unit_alias[] = {
	{ "ns", "nsec" }, { "us", "usec" }, { "µs", "usec" },
	{ "100us", "usec_100" }, { "ms", "msec" },
};

static const char *unit_name(uint32_t u)
{
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (units[i].unit == u)
			return units[i].name;
	return "?";
}

/* The session's histogram context, attached to a running histogram. */
static int retx_ctx(struct session *s, struct tel_retx **out)
{
	struct retx_dev *rd;
	int rc;

	if (s->cur->retx) {
		*out = s->cur->retx;
		return 0;
	}
	rc = dev_retx(s->cur, &rd);
	if (rc)
		return rc;
	s->cur->retx = calloc(1, sizeof(*s->cur->retx));
	if (!s->cur->retx)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	tel_retx_create(s->cur->retx, rd, true);
	*out = s->cur->retx;
	return 0;
}

static int cmd_retx_caps(struct session *s, int argc, char **argv)
{
	struct tel_retx *t = NULL;
	struct out *o = &s->out;
	uint32_t max_bins, bm;
	size_t i;
	int rc = retx_ctx(s, &t);

	(void)argc;
	(void)argv;
	if (rc)
		return rc;
	rc = retx_dev_caps_of(t->dev, &max_bins, &bm);
	if (rc)
		return tel_fail(&s->err, rc, "retx caps", NULL);
	out_obj_begin(o, NULL);
	out_field_uint(o, "max_bins", "Device cap - Max bins: %u\n", max_bins);
	out_arr_begin(o, "time_units");
	out_text(o, "Device cap - time units:");
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (bm & units[i].unit)
			out_field_str(o, NULL, " %s", units[i].name);
	out_arr_end(o);
	out_nl(o);
	out_obj_end(o);
	return 0;
}

static void retx_print_cfg(struct session *s, const struct tel_retx *t)
{
	const struct retx_cfg *c = &t->cfg;
	struct out *o = &s->out;
	char vhca[16] = "any";

	if (c->vhca_set)
		snprintf(vhca, sizeof(vhca), "%u", c->vhca_id);
	out_obj_begin(o, NULL);
	out_field_str(o, "state", "histogram %s: ", t->state == RETX_RUNNING ?
		      "running" : "stopped");
	out_field_uint(o, "bins", "%u bins, ", c->num_bins);
	out_field_uint(o, "bin0", "bin0 %u, ", c->bin0);
	out_field_uint(o, "bin1", "bin1 %u ", c->bin1);
	out_text(o, "%s, ", unit_name(c->unit));	/* JSON: after mode */
	out_field_str(o, "mode", "mode %s, ", c->mode == RETX_DOUBLE ?
		      "double" : "fixed");
	out_str(o, "unit", unit_name(c->unit));
	out_text(o, "vhca %s, ", vhca);
	if (c->vhca_set)
		out_u64(o, "vhca", c->vhca_id);
	else
		out_null(o, "vhca");
	out_field_bool(o, "clear_on_read", "clear on read %s, ",
		       c->clear_on_read, "on", "off");
	out_field_bool(o, "count_enable", "count %s\n", c->count_enable, "on",
		       "off");
	out_obj_end(o);
}

static int parse_u16(struct session *s, const char *key, const char *v,
		     unsigned long lo, unsigned long max, unsigned long *out)
{
	char *end;

	*out = strtoul(v, &end, 0);
	if (!*v || *end || *v == '-' || *out < lo || *out > max)
		return pcb_error(&s->err, PCB_E_RANGE, "retx config: %s must "
				 "be %lu..%lu, not '%s'", key, lo, max, v);
	return 0;
}

static int parse_onoff(struct session *s, const char *key, const char *v,
		       uint8_t *out)
{
	if (!strcasecmp(v, "on") || !strcmp(v, "1"))
		*out = 1;
	else if (!strcasecmp(v, "off") || !strcmp(v, "0"))
		*out = 0;
	else
		return pcb_error(&s->err, PCB_E_INVAL, "retx config: %s is "
				 "on or off, not '%s'", key, v);
	return 0;
}

/* retx config's setters: a value into the configuration being made (req:
 * a struct tel_retx) by DOCA's setter; its TEL_* code, or -code.
 */
static int rc_bins(struct session *s, void *req, const struct cmd_kw *k,
		   const char *val)
{
	unsigned long v;
	int rc = parse_u16(s, k->name, val, 1, RETX_MAX_BINS, &v);

	return rc ? rc : tel_retx_set_num_bins(req, (uint32_t)v);
}

/* bin0 (id 0), bin1 (id 1) */
static int rc_bin(struct session *s, void *req, const struct cmd_kw *k,
		  const char *val)
{
	unsigned long v;
	int rc = parse_u16(s, k->name, val, 1, 0xffff, &v);

	if (rc)
		return rc;
	return k->id ? tel_retx_set_bin1_width(req, (uint16_t)v) :
		       tel_retx_set_bin0_width(req, (uint16_t)v);
}

static int rc_mode(struct session *s, void *req, const struct cmd_kw *k,
		   const char *val)
{
	int v = cmd_kw_val(k, val);	/* fixed, double */

	if (v < 0)
		return pcb_error(&s->err, PCB_E_INVAL, "retx config: mode is "
				 "fixed or double, not '%s'", val);
	return tel_retx_set_mode(req, v ? RETX_DOUBLE : RETX_FIXED);
}

static int rc_unit(struct session *s, void *req, const struct cmd_kw *k,
		   const char *val)
{
	size_t i;

	(void)k;
	for (i = 0; i < sizeof(unit_alias) / sizeof(unit_alias[0]); i++)
		if (!strcmp(val, unit_alias[i].alias))
			val = unit_alias[i].name;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(val, units[i].name))
			return tel_retx_set_time_unit(req, units[i].unit);
	return pcb_error(&s->err, PCB_E_INVAL, "retx config: unit is nsec "
			 "(ns), usec (us), usec_100 (100us) or msec (ms), not "
			 "'%s'", val);
}

static int rc_vhca(struct session *s, void *req, const struct cmd_kw *k,
		   const char *val)
{
	unsigned long v;
	int rc;

	if (cmd_kw_val(k, val) == 0)	/* any */
		return tel_retx_unset_vhca_id(req);
	rc = parse_u16(s, k->name, val, 0, 0xffff, &v);
	return rc ? rc : tel_retx_set_vhca_id(req, (uint16_t)v);
}

/* clear (id 0), count (id 1) */
static int rc_onoff(struct session *s, void *req, const struct cmd_kw *k,
		    const char *val)
{
	uint8_t b = 0;
	int rc = parse_onoff(s, k->name, val, &b);

	if (rc)
		return rc;
	return k->id ? tel_retx_set_count_enable(req, b) :
		       tel_retx_set_clear_on_read(req, b);
}

/* retx config's words; the parser below takes these. */
static const struct cmd_kw retx_config_keys[] = {
	{ .name = "bins", .arg = "N", .set = rc_bins },
	{ .name = "bin0", .arg = "W", .set = rc_bin },
	{ .name = "bin1", .arg = "W", .set = rc_bin, .id = 1 },
	{ .name = "mode", .vals = "fixed, double", .set = rc_mode },
	{ .name = "unit", .vals = "nsec, usec, usec_100, msec",
	  .set = rc_unit },
	{ .name = "vhca", .arg = "ID|any", .vals = "any", .set = rc_vhca },
	{ .name = "clear", .vals = "on, off", .set = rc_onoff },
	{ .name = "count", .vals = "on, off", .set = rc_onoff, .id = 1 },
	{ 0 }
};

/* Parse every pair into a copy first: a bad one changes nothing. */
static int cmd_retx_config(struct session *s, int argc, char **argv)
{
	struct tel_retx *t, tmp;
	int i, rc = retx_ctx(s, &t);

	if (rc)
		return rc;
	if (argc % 2)
		return pcb_error(&s->err, PCB_E_USAGE, "retx config: '%s' "
				 "needs a value", argv[argc - 1]);
	if (argc && t->state == RETX_RUNNING)
		return tel_fail(&s->err, TEL_BAD_STATE, "retx config",
				" (the histogram is running; 'retx stop' "
				"first)");
	tmp = *t;
	rc = cmd_kw_parse(s, retx_config_keys, &tmp, argc, argv, &i);
	if (rc < 0)
		return rc;
	if (rc)
		return tel_fail(&s->err, rc, "retx config", NULL);
	if (i < argc)	/* pairs: a word that is no key */
		return cmd_kw_unknown(s, "retx config", retx_config_keys,
				      argv[i]);
	if (argc && !s->dry_run) {	/* kept for the next process too */
		rc = retx_dev_keep_cfg(tmp.dev, &tmp.cfg);
		if (rc)
			return tel_fail(&s->err, rc, "retx config", NULL);
	}
	*t = tmp;
	retx_print_cfg(s, t);
	return 0;
}

static int cmd_retx_start(struct session *s, int argc, char **argv)
{
	struct tel_retx *t = NULL;
	int rc = retx_ctx(s, &t);

	(void)argc;
	(void)argv;
	if (!rc)
		rc = sess_confirm(s, "start the retransmission histogram");
	if (rc)
		return rc;
	rc = tel_retx_start(t);
	if (rc)
		return tel_fail(&s->err, rc, "retx start", rc == TEL_BAD_STATE ?
				" (already running)" : NULL);
	out_text(&s->out, "Histogram started\n");
	retx_print_cfg(s, t);
	return 0;
}

static int cmd_retx_stop(struct session *s, int argc, char **argv)
{
	struct tel_retx *t = NULL;
	int rc = retx_ctx(s, &t);

	(void)argc;
	(void)argv;
	if (!rc && t->state != RETX_RUNNING) {	/* as wanted: not a failure */
		fprintf(s->opt.errfp, "note: the histogram was not running\n");
		retx_print_cfg(s, t);
		return 0;
	}
	if (!rc)
		rc = sess_confirm(s, "stop the retransmission histogram");
	if (rc)
		return rc;
	rc = tel_retx_stop(t);
	if (rc)
		return tel_fail(&s->err, rc, "retx stop", rc == TEL_BAD_STATE ?
				" (not running)" : NULL);
	retx_print_cfg(s, t);
	return 0;
}

static int cmd_retx_detect(struct session *s, int argc, char **argv)
{
	struct tel_retx *t = NULL;
	uint8_t changed;
	int rc = retx_ctx(s, &t);

	(void)argc;
	(void)argv;
	if (rc)
		return rc;
	tel_retx_detect(t, &changed);
	out_obj_begin(&s->out, NULL);
	out_field_bool(&s->out, "changed", "%s\n", changed,
		       "configuration changed by another process; now:",
		       "configuration unchanged");
	out_obj_end(&s->out);
	if (changed)
		retx_print_cfg(s, t);
	return 0;
}

static int cmd_retx_read(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "bin", "BIN", TBL_RIGHT }, { "from", "FROM", TBL_RIGHT },
		{ "to", "TO", TBL_RIGHT }, { "unit", "UNIT", 0 },
		{ "count", "COUNT", TBL_RIGHT },
	};
	uint64_t bins[RETX_MAX_BINS], lo, hi, total = 0;
	struct retx_cfg dc;
	struct tel_retx *t = NULL;
	bool running;
	struct tbl tb;
	uint32_t n, i;
	uint8_t changed;
	int rc = retx_ctx(s, &t);

	(void)argc;
	(void)argv;
	if (rc)
		return rc;
	tel_retx_detect(t, &changed);
	rc = tel_retx_read_bins(t, &n, bins);
	if (rc)
		return tel_fail(&s->err, rc, "retx read", NULL);
	/* the bins are laid out by the configuration the device holds */
	retx_dev_state(t->dev, &dc, &running);
	tbl_init(&tb, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < n; i++) {
		tel_retx_bin_range(&dc, i, &lo, &hi);
		tbl_row(&tb);
		tbl_u64(&tb, i);
		tbl_u64(&tb, lo);
		if (hi == UINT64_MAX)
			tbl_null(&tb);
		else
			tbl_u64(&tb, hi);
		tbl_str(&tb, unit_name(dc.unit));
		tbl_u64(&tb, bins[i]);
		total += bins[i];
	}
	if (changed)
		out_text(&s->out, "note: the histogram was reconfigured by "
			 "another process\n");
	tbl_print(&tb, &s->out, NULL);
	tbl_release(&tb);
	out_text(&s->out, "%llu retransmission timeout%s\n",
		 (unsigned long long)total, total == 1 ? "" : "s");
	return 0;
}

const struct cmd_row cmd_retx_verbs[] = {
	{
		.name = "read",
		.fn = cmd_retx_read,
		.args = "",
		.help = "the histogram bins: retransmission timeouts by duration",
		.example = "retx read",
		.flags = CMD_DEFAULT | CMD_DEVICE,
	},
	{
		.name = "config",
		.fn = cmd_retx_config,
		.max_args = 14,
		.help = "show or set the histogram layout (only while stopped)",
		.example = "retx config bins 5 bin0 50 bin1 100 unit msec mode double",
		.flags = CMD_DEVICE,
		.keys = retx_config_keys,
	},
	{
		.name = "start",
		.fn = cmd_retx_start,
		.args = "",
		.help = "load the configuration, clear the bins and start counting",
		.example = "retx start",
		.flags = CMD_DEVICE | CMD_WRITES,
	},
	{
		.name = "stop",
		.fn = cmd_retx_stop,
		.args = "",
		.help = "stop counting",
		.example = "retx stop",
		.flags = CMD_DEVICE | CMD_WRITES,
	},
	{
		.name = "detect",
		.fn = cmd_retx_detect,
		.args = "",
		.help = "did another process reconfigure the histogram?",
		.example = "retx detect",
		.flags = CMD_DEVICE,
	},
	{
		.name = "caps",
		.fn = cmd_retx_caps,
		.args = "",
		.help = "maximum bins and supported time units",
		.example = "retx caps",
		.flags = CMD_DEVICE,
	},
	{ 0 }
};
