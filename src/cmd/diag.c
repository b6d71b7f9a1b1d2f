/* diag.c - `diag`: diagnostic counters (DOCA telemetry diag) on the sim
 * device or through DOCA: capabilities, configuration, data IDs,
 * start/stop, reading, the DOCA sample's CSV and data-ID JSON, and buffer
 * sizing advice.
 *
 * About 900 lines, on purpose: one verb table over one context, each verb
 * a handler of its own; splitting the file would split the state machine
 * its handlers share (diag_ctx, the kept configuration).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "suggest.h"
#include "paths.h"
#include "device.h"
#include "tel/diag.h"
#include "tel/diag_ids.h"
#include "tel/diag_io.h"
#include "tel/tel.h"
#include "units.h"

static const char *state_name(enum diag_state st)
{
	static const char *n[] = { "idle", "configured", "ready", "running" };

	return n[st];
}

/* A new context replays what an earlier process configured and applied
 * (diag_dev_keep), as DOCA's calls would: config, then the IDs.
 */
static void diag_restore(struct session *s, struct tel_diag *t)
{
	uint64_t ids[DIAG_MAX_IDS], bad;
	struct diag_cfg cfg;
	uint32_t n = 0;
	int staged;

	if (t->state != DIAG_IDLE)
		return;
	staged = diag_dev_kept(t->dev, &cfg, ids, &n);
	if (!staged)
		return;
	t->cfg = cfg;
	s->cur->diag_kept = true;
	if (tel_diag_apply_config(t) ||
	    (staged == 2 && tel_diag_apply_data_ids(t, ids, n, &bad))) {
		sess_warn(s, "diag: the kept configuration no longer applies; "
			  "'diag config' anew");
		tel_diag_stop(t);
		s->cur->diag_kept = false;
	}
}

/* A replayed configuration is a starting point, not a commitment: this
 * process's own `diag config` or `diag ids` replaces it (back to Idle, or
 * to Configured with the kept configuration).
 */
static void diag_unkeep(struct session *s, struct tel_diag *t, bool config)
{
	struct diag_cfg cfg = t->cfg;

	if (!s->cur->diag_kept || t->state == DIAG_RUNNING)
		return;
	s->cur->diag_kept = false;
	tel_diag_stop(t);
	t->cfg = cfg;
	if (config)
		tel_diag_apply_config(t);
}

/* The session's context; `force` takes ownership from a live owner. */
static int diag_ctx(struct session *s, bool force, struct tel_diag **out)
{
	struct diag_dev *dd;
	int rc;

	if (s->cur->diag) {
		*out = s->cur->diag;
		return 0;
	}
	rc = dev_diag(s->cur, &dd);
	if (rc)
		return rc;
	s->cur->diag = calloc(1, sizeof(*s->cur->diag));
	if (!s->cur->diag)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = tel_diag_create(s->cur->diag, dd, force);
	if (rc) {
		free(s->cur->diag);
		s->cur->diag = NULL;
		return tel_fail(&s->err, rc, "diag", rc == TEL_IN_USE ?
			    " (another pccbench owns the diagnostic counters; "
			    "'diag config force' takes them over)" : NULL);
	}
	diag_restore(s, s->cur->diag);
	*out = s->cur->diag;
	return 0;
}

static int cmd_diag_caps(struct session *s, int argc, char **argv)
{
	struct out *o = &s->out;
	struct diag_dev *dd;
	struct diag_caps c;
	int rc;

	(void)argc;
	(void)argv;
	rc = dev_diag(s->cur, &dd);
	if (rc)
		return rc;
	rc = diag_dev_caps_of(dd, &c);
	if (rc)
		return tel_fail(&s->err, rc, "diag caps", NULL);
	out_obj_begin(o, NULL);
	out_field_uint(o, "max_num_data_ids", "max data IDs       %u\n",
		       c.max_ids);
	out_field_uint(o, "log_max_num_samples", "log max samples    %u ",
		       c.log_max_samples);
	out_text(o, "(%u samples)\n", 1u << c.log_max_samples);
	out_field_bool(o, "data_clear", "data clear         %s\n",
		       c.data_clear, "yes", "no");
	out_field_bool(o, "sync_start", "sync start         %s\n",
		       c.sync_start, "yes", "no");
	/* text names the modes and sources; JSON says which it has */
	out_bool(o, "single", c.modes[DIAG_SINGLE]);
	out_bool(o, "repetitive", c.modes[DIAG_REPETITIVE]);
	out_bool(o, "on_demand", c.modes[DIAG_ON_DEMAND]);
	out_bool(o, "frc", c.ts[DIAG_FRC]);
	out_bool(o, "rtc", c.ts[DIAG_RTC]);
	out_text(o, "sample modes      %s%s%s\ntimestamp sources %s%s\n",
		 c.modes[DIAG_SINGLE] ? " single" : "",
		 c.modes[DIAG_REPETITIVE] ? " repetitive" : "",
		 c.modes[DIAG_ON_DEMAND] ? " on_demand" : "",
		 c.ts[DIAG_FRC] ? " frc" : "", c.ts[DIAG_RTC] ? " rtc" : "");
	out_obj_end(o);
	return 0;
}

static const char *mode_names[] = { "single", "repetitive", "on_demand" };

static void print_state(struct session *s, const struct tel_diag *t)
{
	const struct diag_cfg *c = &t->cfg;
	char name[96];
	uint32_t i;

	if (s->out.json) {
		out_obj_begin(&s->out, NULL);
		out_str(&s->out, "state", state_name(t->state));
		out_u64(&s->out, "period_ns", c->period_ns);
		if (t->actual_ns)
			out_u64(&s->out, "actual_period_ns", t->actual_ns);
		else
			out_null(&s->out, "actual_period_ns");
		out_u64(&s->out, "log_num_samples", c->log_samples);
		out_u64(&s->out, "max_num_data_ids", c->max_ids);
		out_str(&s->out, "mode", mode_names[c->mode]);
		out_u64(&s->out, "format", c->format);
		out_bool(&s->out, "sync", c->sync);
		out_bool(&s->out, "clear", c->clear);
		out_str(&s->out, "timestamp", c->ts == DIAG_RTC ? "rtc" :
			"frc");
		out_arr_begin(&s->out, "data_ids");
		for (i = 0; i < t->nids; i++) {
			out_obj_begin(&s->out, NULL);
			diag_id_name(t->ids[i], name, sizeof(name));
			out_str(&s->out, "name", name);
			snprintf(name, sizeof(name), "0x%016" PRIx64,
				 t->ids[i]);
			out_str(&s->out, "data_id", name);
			out_obj_end(&s->out);
		}
		out_arr_end(&s->out);
		out_obj_end(&s->out);
		return;
	}
	fprintf(s->out.fp, "diag %s: period %" PRIu64 " ns", state_name(
		t->state), c->period_ns);
	if (t->actual_ns)
		fprintf(s->out.fp, " (actual %" PRIu64 " ns)", t->actual_ns);
	fprintf(s->out.fp, ", 2^%u samples, %s, format %u, sync %s, clear "
		"%s, timestamp %s, max %u IDs\n", c->log_samples,
		mode_names[c->mode], c->format, c->sync ? "on" : "off",
		c->clear ? "on" : "off", c->ts == DIAG_RTC ? "rtc" : "frc",
		c->max_ids);
	for (i = 0; i < t->nids; i++) {
		diag_id_name(t->ids[i], name, sizeof(name));
		fprintf(s->out.fp, "  0x%016" PRIx64 "  %s\n", t->ids[i],
			name);
	}
}

static int cmd_diag_show(struct session *s, int argc, char **argv)
{
	struct tel_diag *t = NULL;
	int rc = diag_ctx(s, false, &t);

	(void)argc;
	(void)argv;
	if (!rc)
		print_state(s, t);
	return rc;
}

static int onoff(struct session *s, const char *key, const char *v,
		 uint32_t *out)
{
	if (!strcasecmp(v, "on") || !strcmp(v, "1"))
		*out = 1;
	else if (!strcasecmp(v, "off") || !strcmp(v, "0"))
		*out = 0;
	else
		return pcb_error(&s->err, PCB_E_INVAL, "diag config: %s is on "
				 "or off, not '%s'", key, v);
	return 0;
}

static int small(struct session *s, const char *key, const char *v,
		 unsigned long max, uint32_t *out)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(v, &end, 10);
	if (!*v || *end || *v == '-' || errno || x > max)
		return pcb_error(&s->err, PCB_E_RANGE, "diag config: %s must "
				 "be 0..%lu, not '%s'", key, max, v);
	*out = (uint32_t)x;
	return 0;
}

/* diag config's setters: a value into the configuration being made
 * (req: a struct tel_diag), by DOCA's setter; its TEL_* code, or -code.
 */
static int dc_period(struct session *s, void *req, const struct cmd_kw *k,
		     const char *val)
{
	int64_t ps;

	(void)k;
	if (pcb_parse_duration_ps(val, 1000, &ps) || ps < 1000 ||
	    ps > 60000000000000LL)
		return pcb_error(&s->err, PCB_E_INVAL, "diag config: bad "
				 "period '%s' (e.g. 100us, 1ms; 1ns to 60s)",
				 val);
	return tel_diag_set_sample_period(req, (uint64_t)ps / 1000);
}

static int dc_samples(struct session *s, void *req, const struct cmd_kw *k,
		      const char *val)
{
	uint32_t v = 0;
	int rc = small(s, "samples (log2)", val, 255, &v);

	(void)k;
	if (!rc)
		rc = tel_diag_set_log_max_num_samples(req, v);
	if (rc == TEL_NOT_SUPPORTED)
		return pcb_error(&s->err, PCB_E_RANGE, "diag config: samples "
				 "2^%u: NOT_SUPPORTED (the device holds 2^%d)",
				 v, DIAG_LOG_MAX_SAMPLES);
	return rc;
}

static int dc_ids(struct session *s, void *req, const struct cmd_kw *k,
		  const char *val)
{
	uint32_t v = 0;
	int rc = small(s, k->name, val, 255, &v);

	return rc ? rc : tel_diag_set_max_num_data_ids(req, v);
}

/* single, repetitive, on_demand, or their numbers 0, 1, 2 */
static int dc_mode(struct session *s, void *req, const struct cmd_kw *k,
		   const char *val)
{
	int v = cmd_kw_val(k, val);

	if (v < 0 && val[0] >= '0' && val[0] <= '2' && !val[1])
		v = val[0] - '0';
	if (v < 0)
		return pcb_error(&s->err, PCB_E_INVAL, "diag config: mode is "
				 "single, repetitive or on_demand, not '%s'",
				 val);
	return tel_diag_set_sample_mode(req, (uint32_t)v);
}

static int dc_format(struct session *s, void *req, const struct cmd_kw *k,
		     const char *val)
{
	uint32_t v = 0;
	int rc = small(s, k->name, val, 2, &v);

	return rc ? rc : tel_diag_set_output_format(req, v);
}

static int dc_sync(struct session *s, void *req, const struct cmd_kw *k,
		   const char *val)
{
	uint32_t v = 0;
	int rc = onoff(s, k->name, val, &v);

	return rc ? rc : tel_diag_set_sync_mode(req, v);
}

static int dc_clear(struct session *s, void *req, const struct cmd_kw *k,
		    const char *val)
{
	uint32_t v = 0;
	int rc = onoff(s, k->name, val, &v);

	return rc ? rc : tel_diag_set_data_clear(req, v);
}

static int dc_timestamp(struct session *s, void *req, const struct cmd_kw *k,
			const char *val)
{
	int v = cmd_kw_val(k, val);	/* frc, rtc */

	if (v < 0)
		return pcb_error(&s->err, PCB_E_INVAL, "diag config: timestamp "
				 "is frc or rtc, not '%s'", val);
	return tel_diag_set_timestamp_source(req, v ? DIAG_RTC : DIAG_FRC);
}

/* What `diag advise` asks for. */
struct advise_req {
	int64_t period, poll;
	unsigned long spike;
};

static int da_dur(struct session *s, void *req, const struct cmd_kw *k,
		  const char *val)
{
	int64_t *p = KW_AT(req, k, int64_t);

	if (pcb_parse_duration_ps(val, -1, p) || !*p)
		return pcb_error(&s->err, PCB_E_INVAL, "diag advise: bad %s "
				 "'%s' (e.g. 100us, 500ms)", k->name, val);
	return 0;
}

static int da_spike(struct session *s, void *req, const struct cmd_kw *k,
		    const char *val)
{
	struct advise_req *q = req;
	char *end;

	(void)k;
	q->spike = strtoul(val, &end, 10);
	if (!*val || *end || q->spike > 1000000)
		return pcb_error(&s->err, PCB_E_INVAL, "diag advise: spike is "
				 "a whole factor, not '%s'", val);
	return 0;
}

/* diag config's and diag advise's words; their parsers take these. */
static const struct cmd_kw diag_config_keys[] = {
	{ .name = "period", .arg = "D", .set = dc_period },
	{ .name = "samples", .arg = "LOG2", .set = dc_samples },
	{ .name = "ids", .arg = "N", .set = dc_ids },
	{ .name = "mode", .vals = "single, repetitive, on_demand",
	  .set = dc_mode },
	{ .name = "format", .vals = "0, 1, 2", .set = dc_format },
	{ .name = "sync", .vals = "on, off", .set = dc_sync },
	{ .name = "clear", .vals = "on, off", .set = dc_clear },
	{ .name = "timestamp", .vals = "frc, rtc", .set = dc_timestamp },
	{ .name = "force", .id = 1 },	/* read first: the context's */
	{ 0 }
};

static const struct cmd_kw diag_advise_keys[] = {
	{ .name = "period", .arg = "P", .flags = KW_REQ, .set = da_dur,
	  .off = offsetof(struct advise_req, period) },
	{ .name = "poll", .arg = "Q", .flags = KW_REQ, .set = da_dur,
	  .off = offsetof(struct advise_req, poll) },
	{ .name = "spike", .arg = "K", .set = da_spike },
	{ 0 }
};

/* `diag config [KEY VALUE]... [force]`: unnamed keys take the DOCA
 * sample's defaults; the configuration is applied (Idle -> Configured).
 */
static int cmd_diag_config(struct session *s, int argc, char **argv)
{
	const struct cmd_kw *kw;
	struct tel_diag *t, tmp;
	struct diag_caps caps;
	bool force = false;
	int i, rc;

	for (i = 0; i < argc; i++)	/* force: the only word alone */
		if ((kw = cmd_kw_find(diag_config_keys, argv[i])) &&
		    cmd_kw_alone(kw))
			force = true;
	rc = diag_ctx(s, force, &t);
	if (rc)
		return rc;
	diag_unkeep(s, t, false);
	if (t->state != DIAG_IDLE)
		return tel_fail(&s->err, TEL_BAD_STATE, "diag config", " (the "
			    "configuration is applied; 'diag stop' first)");
	memset(&tmp, 0, sizeof(tmp));
	tmp.dev = t->dev;
	if (diag_dev_caps_of(t->dev, &caps) || caps.max_ids > DIAG_MAX_IDS)
		caps.max_ids = DIAG_MAX_IDS;	/* ids: the device's most */
	tmp.cfg = (struct diag_cfg){ .period_ns = 100000, .log_samples = 10,
				     .max_ids = caps.max_ids,
				     .mode = DIAG_REPETITIVE, .format = 1,
				     .ts = DIAG_RTC };
	rc = cmd_kw_parse(s, diag_config_keys, &tmp, argc, argv, &i);
	if (rc < 0)
		return rc;
	if (rc)
		return tel_fail(&s->err, rc, "diag config", NULL);
	if (i < argc && !cmd_kw_find(diag_config_keys, argv[i]))
		return cmd_kw_unknown(s, "diag config", diag_config_keys,
				      argv[i]);
	if (i < argc)
		return pcb_error(&s->err, PCB_E_USAGE, "diag config: '%s' "
				 "needs a value", argv[i]);
	rc = tel_diag_apply_config(&tmp);
	if (rc)
		return tel_fail(&s->err, rc, "diag config", rc == TEL_INVALID_VALUE ?
			    " (clear needs sync on, in single or repetitive "
			    "mode)" : NULL);
	*t = tmp;
	if (!s->dry_run) {	/* kept for the next process too */
		rc = diag_dev_keep(t->dev, &t->cfg, NULL, 0, 0);
		if (rc)
			return tel_fail(&s->err, rc, "diag config", NULL);
	}
	print_state(s, t);
	return 0;
}

/* A word that names no data ID: the closest names of instance 0. */
static int no_id(struct session *s, const char *w)
{
	char names[64][96], dym[320];
	struct suggest sg;
	size_t i, n = diag_id_count();

	suggest_init(&sg, w);
	for (i = 0; i < n && i < 64; i++) {
		struct diag_id x = { .def = diag_id_def_at(i) };

		diag_id_name(diag_id_encode(&x), names[i], sizeof(names[i]));
		suggest_add(&sg, names[i]);
	}
	return pcb_error(&s->err, PCB_E_INVAL, "diag ids: '%s' is no data ID"
			 "%s", w, sg.n ? suggest_text(&sg, dym, sizeof(dym)) :
			 " ('diag ids' lists them)");
}

/* "a,b c" -> IDs; a name or number that is no data ID fails. */
static int parse_ids(struct session *s, int argc, char **argv,
		     uint64_t *ids, uint32_t *n)
{
	char buf[4096], *w, *save;
	int i;

	*n = 0;
	for (i = 0; i < argc; i++) {
		snprintf(buf, sizeof(buf), "%s", argv[i]);
		for (w = strtok_r(buf, ",", &save); w;
		     w = strtok_r(NULL, ",", &save)) {
			if (*n == DIAG_MAX_IDS * 2)
				return pcb_error(&s->err, PCB_E_RANGE,
						 "diag ids: more than %d IDs",
						 DIAG_MAX_IDS * 2);
			if (diag_id_parse(w, &ids[*n]))
				return no_id(s, w);
			(*n)++;
		}
	}
	if (!*n)
		return pcb_error(&s->err, PCB_E_USAGE, "diag ids apply: name "
				 "at least one data ID");
	return 0;
}

static int apply_ids(struct session *s, struct tel_diag *t,
		     const uint64_t *ids, uint32_t n)
{
	uint64_t bad;
	char name[96], hint[200];
	int rc;

	diag_unkeep(s, t, true);
	rc = tel_diag_apply_data_ids(t, ids, n, &bad);

	if (!rc && !s->dry_run)	/* kept for the next process too */
		rc = diag_dev_keep(t->dev, &t->cfg, t->ids, t->nids,
				   t->actual_ns);
	if (!rc) {
		print_state(s, t);
		return 0;
	}
	if (rc == TEL_BAD_STATE)
		return tel_fail(&s->err, rc, "diag ids apply", t->state == DIAG_IDLE ?
			    " (no configuration applied; 'diag config' "
			    "first)" : " (IDs are applied; 'diag stop' "
			    "and 'diag config' to change them)");
	diag_id_name(bad, name, sizeof(name));
	snprintf(hint, sizeof(hint), " for %s (0x%016" PRIx64 ")%s", name, bad,
		 rc == TEL_FULL ? ": more IDs than 'diag config ids'" :
		 rc == TEL_BAD_CONFIG ? ": no sync start for this ID" :
		 rc == TEL_NOT_SUPPORTED ? ": the sim device does not "
		 "measure it" : rc == TEL_INVALID_VALUE ? ": given twice" :
		 "");
	return tel_fail(&s->err, rc, "diag ids apply", hint);
}

static int ids_list(struct session *s)
{
	static const struct tbl_col cols[] = {
		{ "name", "NAME", 0 }, { "data_id", "DATA_ID", 0 },
		{ "class", "CLASS", 0 }, { "sync", "SYNC", 0 },
		{ "sim", "SIM", 0 }, { "meaning", "MEANING", 0 },
	};
	static const char *inst[] = { "", "XX", "YXX", "XX", "XXXX",
				      "ZZYYXX", "ZZZZYYXX" };
	struct tbl t;
	size_t i;

	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < diag_id_count(); i++) {
		const struct diag_id_def *d = diag_id_def_at(i);
		struct diag_id x = { .def = d };
		char name[96];
		const char *in = inst[d->inst];

		diag_id_name(diag_id_encode(&x), name, sizeof(name));
		tbl_row(&t);
		tbl_str(&t, name);
		tbl_strf(&t, "0x%08x%0*u%s", d->type, (int)(8 - strlen(in)),
			 0, in);
		tbl_str(&t, d->cls == DC_COUNTER ? "counter" : "statistic");
		tbl_bool(&t, d->sync);
		tbl_bool(&t, !diag_dev_supported(diag_id_encode(&x)));
		tbl_str(&t, d->descr);
	}
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	return 0;
}

/* diag ids's words: one of these, and its argument */
enum { IDS_LIST = 1, IDS_APPLY, IDS_IMPORT, IDS_EXPORT };
static const struct cmd_kw diag_ids_words[] = {
	{ .name = "list", .id = IDS_LIST },
	{ .name = "apply", .arg = "NAME|ID,...", .gen = cand_data_ids,
	  .flags = KW_LIST, .id = IDS_APPLY },
	{ .name = "import", .arg = "FILE.json", .flags = KW_FILE,
	  .id = IDS_IMPORT },
	{ .name = "export", .arg = "FILE.json", .flags = KW_FILE,
	  .id = IDS_EXPORT },
	{ 0 }
};
#define DIAG_IDS_SYN "[list | apply NAME|ID,... | import FILE.json | " \
	"export FILE.json]"

static int cmd_diag_ids(struct session *s, int argc, char **argv)
{
	const struct cmd_kw *k = argc ? cmd_kw_find(diag_ids_words, argv[0]) :
				 NULL;
	int id = argc ? k ? k->id : 0 : IDS_LIST;
	uint64_t ids[DIAG_MAX_IDS * 2];
	struct tel_diag *t = NULL;
	uint32_t n;
	int rc;

	if (id == IDS_LIST)
		return argc > 1 ? pcb_error(&s->err, PCB_E_USAGE, "usage: "
					    "diag ids list") : ids_list(s);
	if (id == IDS_APPLY) {
		rc = parse_ids(s, argc - 1, argv + 1, ids, &n);
		if (!rc)
			rc = diag_ctx(s, false, &t);
		return rc ? rc : apply_ids(s, t, ids, n);
	}
	if (id == IDS_IMPORT && argc == 2) {
		rc = diag_ids_import(argv[1], ids, DIAG_MAX_IDS * 2, &n,
				     &s->err);
		if (!rc)
			rc = diag_ctx(s, false, &t);
		return rc ? rc : apply_ids(s, t, ids, n);
	}
	if (id == IDS_EXPORT && argc == 2) {
		rc = diag_ctx(s, false, &t);
		if (rc)
			return rc;
		if (t->nids)
			return diag_ids_export(argv[1], t->ids, t->nids,
					       &s->err);
		/* nothing applied: the sample's default list for the mode */
		return diag_ids_export_default(argv[1], t->cfg.sync,
					       &s->err);
	}
	return pcb_error(&s->err, PCB_E_USAGE, "usage: diag ids "
			 DIAG_IDS_SYN);
}

static int cmd_diag_check(struct session *s, int argc, char **argv)
{
	struct tel_diag *t = NULL;
	uint64_t id;
	char name[96];
	int rc;

	(void)argc;
	if (diag_id_parse(argv[0], &id))
		return pcb_error(&s->err, PCB_E_INVAL, "diag check: '%s' is "
				 "no data ID", argv[0]);
	rc = diag_ctx(s, false, &t);
	if (rc)
		return rc;
	rc = tel_diag_check_data_id(t, id);
	diag_id_name(id, name, sizeof(name));
	if (rc)
		return tel_fail(&s->err, rc, "diag check", rc == TEL_BAD_STATE ?
			    " (only between 'diag config' and 'diag ids "
			    "apply')" : NULL);
	fprintf(s->out.fp, "%s (0x%016" PRIx64 "): supported\n", name, id);
	return 0;
}

static int cmd_diag_start(struct session *s, int argc, char **argv)
{
	struct tel_diag *t = NULL;
	int rc = diag_ctx(s, false, &t);

	(void)argc;
	(void)argv;
	if (rc)
		return rc;
	rc = tel_diag_start(t);
	if (rc)
		return tel_fail(&s->err, rc, "diag start", rc == TEL_BAD_STATE ?
			    (t->state == DIAG_RUNNING ? " (already running)" :
			     " (no configuration or no data IDs applied)") :
			    NULL);
	print_state(s, t);
	return 0;
}

static int cmd_diag_stop(struct session *s, int argc, char **argv)
{
	struct tel_diag *t = NULL;
	int rc = diag_ctx(s, false, &t);

	(void)argc;
	(void)argv;
	if (rc)
		return rc;
	rc = tel_diag_stop(t);
	if (rc)
		return tel_fail(&s->err, rc, "diag stop", " (nothing to stop)");
	print_state(s, t);
	return 0;
}

static int cmd_diag_restart(struct session *s, int argc, char **argv)
{
	struct tel_diag *t = NULL;
	int rc = diag_ctx(s, false, &t);

	(void)argc;
	(void)argv;
	if (rc)
		return rc;
	rc = tel_diag_restart(t);
	if (rc)
		return tel_fail(&s->err, rc, "diag restart", rc == TEL_AGAIN ?
			    " (the cycle is not done)" : rc ==
			    TEL_NOT_SUPPORTED ? " (single mode only)" : NULL);
	fprintf(s->out.fp, "new cycle of 2^%u samples\n", t->cfg.log_samples);
	return 0;
}

/* Query up to `max` samples into a growing buffer. */
static int query(struct session *s, struct tel_diag *t, uint32_t max,
		 uint8_t **buf, uint32_t *got, uint32_t *size)
{
	uint32_t n;
	int rc;

	*got = 0;
	if (t->state != DIAG_RUNNING)
		return tel_fail(&s->err, TEL_BAD_STATE, "diag read", " (not running; "
			    "'diag start')");
	rc = tel_diag_sample_size(t, size);
	if (rc)
		return tel_fail(&s->err, rc, "diag read", NULL);
	*buf = malloc((size_t)*size * max);
	if (!*buf)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = tel_diag_query(t, *buf, max, &n);
	if (rc && rc != TEL_SKIPPED) {
		free(*buf);
		*buf = NULL;
		return tel_fail(&s->err, rc, "diag read", NULL);
	}
	*got = n;
	if (rc == TEL_SKIPPED)
		fprintf(s->opt.errfp, "warning: SKIPPED: %" PRIu64 " sample%s "
			"overwritten before this read (a bigger 'samples' or "
			"faster reads; see 'diag advise')\n", t->lost,
			t->lost == 1 ? " was" : "s were");
	return 0;
}

static int parse_count(struct session *s, int argc, char **argv,
		       uint32_t def, uint32_t *n)
{
	char *end;
	unsigned long v;

	*n = def;
	if (!argc)
		return 0;
	v = strtoul(argv[0], &end, 10);
	if (!*argv[0] || *end || *argv[0] == '-' || !v || v > 65536)
		return pcb_error(&s->err, PCB_E_RANGE, "bad sample count '%s' "
				 "(1..65536)", argv[0]);
	*n = (uint32_t)v;
	return 0;
}

static int cmd_diag_read(struct session *s, int argc, char **argv)
{
	struct tel_diag *t = NULL;
	struct diag_sample smp;
	struct tbl_col cols[DIAG_MAX_IDS + 2];
	char names[DIAG_MAX_IDS][96];
	uint8_t *buf = NULL;
	uint32_t n, got, size, i, k;
	struct tbl tb;
	int rc = parse_count(s, argc, argv, 128, &n);

	if (!rc)
		rc = diag_ctx(s, false, &t);
	if (!rc)
		rc = query(s, t, n, &buf, &got, &size);
	if (rc)
		return rc;
	cols[0] = (struct tbl_col){ "sample_id", "SAMPLE", TBL_RIGHT };
	cols[1] = (struct tbl_col){ "time_s", "TIME_S", TBL_RIGHT };
	for (i = 0; i < t->nids; i++) {
		diag_id_name(t->ids[i], names[i], sizeof(names[i]));
		cols[i + 2] = (struct tbl_col){ names[i], names[i],
						TBL_RIGHT };
	}
	tbl_init(&tb, cols, t->nids + 2);
	for (k = 0; k < got; k++) {
		tel_diag_decode(t, buf + (size_t)k * size, &smp);
		tbl_row(&tb);
		tbl_u64(&tb, smp.id);
		tbl_strf(&tb, "%" PRIu64 ".%09" PRIu64,
			 smp.start_ns / 1000000000, smp.start_ns % 1000000000);
		for (i = 0; i < t->nids; i++)
			tbl_u64(&tb, smp.values[i]);
	}
	if (got || s->out.json)
		tbl_print(&tb, &s->out, NULL);
	else
		fprintf(s->out.fp, "no new samples\n");
	tbl_release(&tb);
	free(buf);
	return 0;
}

static int cmd_diag_export(struct session *s, int argc, char **argv)
{
	struct tel_diag *t = NULL;
	uint8_t *buf = NULL;
	uint32_t n, got, size;
	int rc = parse_count(s, argc - 1, argv + 1, 1u << 16, &n);

	if (!rc)
		rc = diag_ctx(s, false, &t);
	if (!rc)
		rc = query(s, t, n, &buf, &got, &size);
	if (rc)
		return rc;
	rc = diag_csv_write(argv[0], t, buf, got, size, &s->err);
	free(buf);
	if (!rc)
		out_text(&s->out, "%u sample%s written to %s\n", got,
			 got == 1 ? "" : "s", argv[0]);
	return rc;
}

/* Seed 000: buffer >= 2 x samples per retrieval, x (K + 1) when the
 * reader may take K times its average.
 */
static int cmd_diag_advise(struct session *s, int argc, char **argv)
{
	struct advise_req q = { 0 };
	char syn[100];
	double per, need;
	unsigned log;
	int i, rc = cmd_kw_parse(s, diag_advise_keys, &q, argc, argv, &i);
	int64_t period = q.period, poll = q.poll;
	unsigned long spike = q.spike;

	if (rc)
		return rc;
	if (i != argc || !period || !poll)
		return pcb_error(&s->err, PCB_E_USAGE, "usage: diag advise %s",
				 cmd_kw_synopsis(diag_advise_keys, syn,
						 sizeof(syn)));
	per = (double)poll / (double)period;
	need = 2 * ceil(per) * (double)(spike + 1);
	log = (unsigned)ceil(log2(need < 1 ? 1 : need));
	out_obj_begin(&s->out, NULL);
	out_u64(&s->out, "samples_per_poll", (uint64_t)ceil(per));
	out_u64(&s->out, "samples_needed", (uint64_t)need);
	out_text(&s->out, "%.0f samples per poll; x2%s = %.0f: ", ceil(per),
		 spike ? " x(spike+1)" : "", need);
	out_field_uint(&s->out, "log_num_samples", "samples %u ", log);
	out_text(&s->out, "(2^%u = %.0f)\n", log, pow(2, log));
	out_bool(&s->out, "fits", log <= DIAG_LOG_MAX_SAMPLES);
	if (log > DIAG_LOG_MAX_SAMPLES)
		out_text(&s->out, "the sim device holds 2^%d: poll more often "
			 "or sample less often\n", DIAG_LOG_MAX_SAMPLES);
	out_obj_end(&s->out);
	return 0;
}

/* ---- completion ------------------------------------------------------------ */

/* diag ids [list|apply ID,...|import FILE|export FILE] */
static bool diag_ids_complete(struct session *s, char **argv, int argc,
			      struct cands *c)
{
	const struct cmd_kw *k = argc ? cmd_kw_find(diag_ids_words,
						    argv[0]) : NULL;

	if (argc == 0) {
		cand_kw_names(c, diag_ids_words);
		return true;
	}
	if (k && k->gen) {	/* apply */
		k->gen(s, c);
		c->append = ',';	/* lists: a,b,c */
		return true;
	}
	return argc != 1;	/* import/export FILE */
}

static bool diag_check_complete(struct session *s, char **argv, int argc,
				struct cands *c)
{
	(void)argv;
	if (argc == 0)
		cand_data_ids(s, c);
	return true;
}

const struct cmd_row cmd_diag_verbs[] = {
	{
		.name = "show",
		.fn = cmd_diag_show,
		.args = "",
		.help = "state, configuration and applied data IDs",
		.example = "diag show",
		.flags = CMD_DEFAULT | CMD_DEVICE,
	},
	{
		.name = "caps",
		.fn = cmd_diag_caps,
		.args = "",
		.help = "max data IDs and samples, data clear, sync start, modes, "
			"timestamp sources",
		.example = "diag caps",
	},
	{
		.name = "config",
		.fn = cmd_diag_config,
		.max_args = 17,
		.help = "configure and apply (from idle; unnamed keys: DOCA sample "
			"defaults)",
		.example = "diag config period 100us samples 10",
		.flags = CMD_DEVICE,
		.keys = diag_config_keys,
	},
	{
		.name = "ids",
		.fn = cmd_diag_ids,
		.max_args = -1,
		.args = DIAG_IDS_SYN,
		.help = "the data IDs: list all, apply a list, the sample's JSON file",
		.example = "diag ids apply port_0_rx_bytes,port_0_tx_bytes",
		.complete = diag_ids_complete,
	},
	{
		.name = "check",
		.fn = cmd_diag_check,
		.min_args = 1,
		.max_args = 1,
		.args = "NAME|ID",
		.help = "can this data ID be applied with the configuration?",
		.example = "diag check port_0_rx_bytes",
		.flags = CMD_DEVICE,
		.complete = diag_check_complete,
	},
	{
		.name = "start",
		.fn = cmd_diag_start,
		.args = "",
		.help = "start sampling",
		.example = "diag start",
		.flags = CMD_DEVICE,
	},
	{
		.name = "stop",
		.fn = cmd_diag_stop,
		.args = "",
		.help = "stop; back to idle",
		.example = "diag stop",
		.flags = CMD_DEVICE,
	},
	{
		.name = "restart",
		.fn = cmd_diag_restart,
		.args = "",
		.help = "a new cycle in single mode, once the last one is done",
		.example = "diag restart",
		.flags = CMD_DEVICE,
	},
	{
		.name = "read",
		.fn = cmd_diag_read,
		.max_args = 1,
		.args = "[N]",
		.help = "up to N new samples (default 128)",
		.example = "diag read 16",
		.flags = CMD_DEVICE,
	},
	{
		.name = "export",
		.fn = cmd_diag_export,
		.min_args = 1,
		.max_args = 2,
		.args = "FILE.csv [N]",
		.help = "read new samples into the DOCA sample's CSV",
		.example = "diag export /tmp/out.csv",
		.flags = CMD_DEVICE,
		.complete = cmd_complete_file,
	},
	{
		.name = "advise",
		.fn = cmd_diag_advise,
		.min_args = 4,
		.max_args = 6,
		.help = "buffer size for repetitive mode (seed 000's rule)",
		.example = "diag advise period 100us poll 500ms spike 6",
		.keys = diag_advise_keys,
	},
	{ 0 }
};
