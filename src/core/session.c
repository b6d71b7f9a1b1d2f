/* session.c - device, views, value conversion and the checked write path.
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

#include "fsafe.h"
#include "fxp.h"
#include "paths.h"
#include "host/hostctr.h"
#include "session.h"
#include "suggest.h"
#include "units.h"
#include "device.h"
#include "tel/diag.h"
#include "mstreg.h"
#include "fwctl.h"
#include "discover.h"
#include <unistd.h>

void sess_init(struct session *s, const char *devname)
{
	memset(s, 0, sizeof(*s));
	s->devname = strdup(devname ? devname : "sim");
	s->errfp = stderr;
	s->lock_fd = -1;
	out_init(&s->out, stdout, false, false);
}

static void views_release(struct session *s)
{
	unsigned i;

	s->info_valid = false;
	for (i = 0; i < PPCC_SLOTS; i++) {
		free(s->slots[i].params);
		free(s->slots[i].counters);
		memset(&s->slots[i], 0, sizeof(s->slots[i]));
	}
}

static void device_release(struct session *s)
{
	/* the histogram keeps running on the device; the context goes */
	free(s->retx);
	s->retx = NULL;
	if (s->diag)	/* sampling goes on; ownership ends */
		tel_diag_release(s->diag);
	free(s->diag);
	s->diag = NULL;
	dev_close(s);
	views_release(s);
	if (s->have_ppcc)
		ppcc_release(&s->ppcc);
	s->have_ppcc = false;
	reg_dev_close(s->dev);
	s->dev = NULL;
	journal_close(s->journal);
	s->journal = NULL;
	if (s->host)
		hostctr_close(s->host);
	free(s->host);
	free(s->host_prev);
	s->host = NULL;
	s->host_prev = NULL;
	if (s->lock_fd >= 0)
		close(s->lock_fd);	/* drops the lock too */
	s->lock_fd = -1;
	s->lock_depth = 0;
	s->devid[0] = '\0';
}

void sess_release(struct session *s)
{
	size_t i;

	device_release(s);
	for (i = 0; i < s->ndescs; i++)
		algo_desc_free(s->descs[i]);
	for (i = 0; i < s->ndry; i++)
		free(s->dry[i]);
	free(s->dry);
	free(s->devname);
	free(s->adb_path);
	free(s->backend);
	free(s->mstreg_prog);
}

int sess_set_device(struct session *s, const char *devname)
{
	char bdf[32];
	char *n;

	/* 08:00.0 and 0000:08:00.0 are one device (and one journal) */
	if (pcb_is_pci_name(devname) &&
	    !pcb_resolve_pci(devname, bdf, sizeof(bdf), NULL))
		devname = bdf;
	n = strdup(devname);

	if (!n)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	device_release(s);
	free(s->devname);
	s->devname = n;
	return 0;
}

void sess_warn(struct session *s, const char *fmt, ...)
{
	va_list ap;

	fputs("warning: ", s->errfp);
	va_start(ap, fmt);
	vfprintf(s->errfp, fmt, ap);
	va_end(ap);
	fputc('\n', s->errfp);
}

static int load_ppcc_layout(struct session *s, struct adb_reg **out)
{
	char path[4096];
	struct adb_db *db = NULL;
	int rc;

	rc = pcb_data_file(path, sizeof(path), "reg/ppcc.adb", &s->err);
	if (rc)
		return rc;
	rc = adb_db_load_file(&db, path, &s->err);
	if (rc)
		return rc;
	rc = adb_reg_load(db, "PPCC", out, &s->err);
	adb_db_free(db);
	return rc;
}

int sess_device(struct session *s)
{
	struct adb_reg *layout = NULL;
	char msg[1024];
	size_t bad_line;
	int rc;

	if (s->dev)
		return 0;
	rc = load_ppcc_layout(s, &layout);
	if (!rc) {
		rc = dev_open(s, layout);
		if (rc) {	/* ppcc_init takes it, but not here */
			adb_reg_free(layout);
			layout = NULL;
		}
	}
	if (!rc)
		rc = ppcc_init(&s->ppcc, s->dev, layout, &s->err);
	if (!rc) {
		s->have_ppcc = true;
		rc = journal_open(&s->journal, s->devid, &s->err);
	}
	if (rc) {
		device_release(s);
		return rc;
	}
	if (journal_unclean(s->journal, msg, sizeof(msg)))
		sess_warn(s, "%s", msg);
	if (journal_bad_lines(s->journal, &bad_line))
		sess_warn(s, "journal '%s' has %zu damaged record(s), the "
			  "first at line %zu; 'journal restore' will not clear "
			  "it", journal_path(s->journal),
			  journal_bad_lines(s->journal, NULL), bad_line);
	return 0;
}

static int lock_open(struct session *s)
{
	char dir[4096], tok[128], path[4300];
	int rc = pcb_user_dir(dir, sizeof(dir), PCB_DIR_STATE, "lock", true,
			      &s->err);

	if (rc)
		return rc;
	pcb_file_token(tok, sizeof(tok), s->devid);
	snprintf(path, sizeof(path), "%s/%s.lock", dir, tok);
	rc = pcb_open_rw(path, O_CREAT, PCB_MODE_STATE, &s->err);
	if (rc < 0)
		return rc;
	s->lock_fd = rc;
	return 0;
}

int sess_lock(struct session *s)
{
	double t0 = pcb_mono_s();
	bool told = false;
	char pid[24];
	int rc, n;

	if (s->dry_run)		/* nothing is written: nothing to order */
		return 0;
	if (s->lock_depth) {
		s->lock_depth++;
		return 0;
	}
	rc = sess_device(s);	/* its identity and journal */
	if (!rc && s->lock_fd < 0)
		rc = lock_open(s);
	while (!rc && flock(s->lock_fd, LOCK_EX | LOCK_NB)) {
		double waited = pcb_mono_s() - t0;

		if (errno != EWOULDBLOCK && errno != EINTR)
			return pcb_error(&s->err, PCB_E_IO, "cannot lock device "
					 "%s: %s", s->devid, strerror(errno));
		n = (int)pread(s->lock_fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		if (s->stop && *s->stop)
			return pcb_error(&s->err, PCB_E_INTR, "interrupted");
		if (waited > 60)
			return pcb_error(&s->err, PCB_E_BUSY, "device %s is busy: "
					 "pccbench pid %s has held its lock for "
					 "a minute", s->devid, *pid ? pid : "?");
		if (waited > 1 && !told) {
			sess_warn(s, "waiting for device %s: pccbench pid %s "
				  "is writing to it", s->devid,
				  *pid ? pid : "?");
			told = true;
		}
		usleep(5000);
	}
	if (rc)
		return rc;
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	/* who holds it, for the message above; nothing depends on it */
	if (!ftruncate(s->lock_fd, 0))
		n = (int)pwrite(s->lock_fd, pid, (size_t)n, 0);
	s->lock_depth = 1;
	rc = journal_reload(s->journal, &s->err);
	if (rc)
		sess_unlock(s);
	return rc;
}

void sess_unlock(struct session *s)
{
	if (!s->dry_run && s->lock_depth && !--s->lock_depth)
		flock(s->lock_fd, LOCK_UN);
}

static void load_descs(struct session *s)
{
	size_t i;
	struct pcb_err e = { 0 };

	if (s->descs_loaded)
		return;
	s->descs_loaded = true;
	for (i = 0; algo_desc_names[i] && s->ndescs < 8; i++) {
		pcb_err_reset(&e);
		if (algo_desc_load(&s->descs[s->ndescs], algo_desc_names[i],
				   &e) == 0)
			s->ndescs++;
		else
			sess_warn(s, "%s", e.msg);
	}
}

/* A descriptor fits a device slot when the algo id and version agree, or
 * when every parameter name agrees in order (a real NIC's ids differ).
 */
static const struct algo_desc *match_desc(struct session *s,
					  const struct slot_view *v)
{
	size_t i, k;

	load_descs(s);
	for (i = 0; i < s->ndescs; i++) {
		const struct algo_desc *d = s->descs[i];
		uint32_t info = d->id << 16 | (uint32_t)d->major << 8 |
				d->minor;

		if (info == v->algo_num && d->nparams == v->nparams)
			return d;
	}
	for (i = 0; i < s->ndescs; i++) {
		const struct algo_desc *d = s->descs[i];

		if (d->nparams != v->nparams || !v->nparams)
			continue;
		for (k = 0; k < d->nparams; k++)
			if (strcasecmp(d->params[k].name, v->params[k].info.name))
				break;
		if (k == d->nparams)
			return d;
	}
	return NULL;
}

/* ---- param/counter info cache (real devices) ---------------------------- */

/* $XDG_CACHE_HOME/pccbench/info/DEVICE-sSLOT-ALGONUM.txt: what cmd 0x0, 0x4,
 * 0x5, 0xE and 0xF said about an algorithm, so listing params on a real NIC
 * costs a few mstreg runs, not dozens.  A malformed file is ignored.
 */
static int cache_path(struct session *s, unsigned slot, uint32_t num,
		      char *buf, size_t len)
{
	char dir[4096], tok[128];
	struct pcb_err e = { 0 };

	if (pcb_user_dir(dir, sizeof(dir), PCB_DIR_CACHE, "info", true, &e))
		return -1;
	pcb_file_token(tok, sizeof(tok), s->devname);
	snprintf(buf, len, "%s/%s-s%u-%08x.txt", dir, tok, slot, num);
	return 0;
}

static void clean(char *t)
{
	for (; *t; t++)
		if (*t == '\t' || *t == '\n' || *t == '\r')
			*t = ' ';
}

static void cache_save(struct session *s, unsigned slot,
		       const struct slot_view *v)
{
	char path[4300], *text = NULL;
	size_t i, len = 0;
	FILE *fp;

	if (cache_path(s, slot, v->algo_num, path, sizeof(path)))
		return;
	fp = open_memstream(&text, &len);
	if (!fp)
		return;
	fprintf(fp, "pccbench-info 2 %08x %zu %zu\n%s\n%s\n", v->algo_num,
		v->nparams, v->ncounters, v->name, v->descr);
	for (i = 0; i < v->nparams; i++) {
		const struct ppcc_info *in = &v->params[i].info;

		fprintf(fp, "%u\t%u\t%u\t%u\t%s\t%s\n", in->def, in->min,
			in->max, in->prm, in->name, in->descr);
	}
	for (i = 0; i < v->ncounters; i++) {
		const struct ppcc_info *in = &v->counters[i].info;

		fprintf(fp, "%u\t%u\t%s\t%s\n", in->max, in->prm, in->name,
			in->descr);
	}
	if (!fclose(fp) && !pcb_crc_seal(&text, &len))
		pcb_write_file(path, text, len, PCB_MODE_STATE, NULL);
	free(text);
}

/* The next line of the text at *p (in place), or NULL at its end. */
static char *cache_line(char **p, char *end)
{
	char *l = *p, *nl;

	if (l >= end)
		return NULL;
	nl = memchr(l, '\n', (size_t)(end - l));
	if (!nl)
		return NULL;
	*nl = '\0';
	*p = nl + 1;
	return l;
}

static bool cache_u32(const char *t, uint32_t *v)
{
	unsigned long x;
	char *end;

	errno = 0;
	x = strtoul(t, &end, 10);
	if (!*t || *end || errno || x > UINT32_MAX || *t == '-')
		return false;
	*v = (uint32_t)x;
	return true;
}

static void cache_text(char *dst, size_t len, const char *src, bool *ok)
{
	if (strlen(src) >= len)
		*ok = false;
	snprintf(dst, len, "%s", src);
}

/* The cached view of a slot: 0, or -1 when there is none or it is not
 * whole (then the device is asked again; a damaged cache is reported).
 */
static int cache_load(struct session *s, unsigned slot, struct slot_view *v)
{
	char path[4300], *text, *p, *end, *line, *f[6], *save;
	unsigned num;
	size_t np, nc, i, len;
	struct pcb_err e = { 0 };
	bool ok = true;
	int k;

	if (cache_path(s, slot, v->algo_num, path, sizeof(path)))
		return -1;
	if (pcb_read_file(path, 1 << 20, &text, &len, &e)) {
		if (e.code != PCB_E_NOENT) {	/* said once: it goes */
			sess_warn(s, "%s; reading the device instead", e.msg);
			unlink(path);
		}
		return -1;
	}
	if (!strncmp(text, "pccbench-info 1 ", 16)) {
		free(text);	/* an older pccbench's: made anew */
		return -1;
	}
	if (!pcb_crc_check(text, &len))
		goto bad;
	p = text;
	end = text + len;
	line = cache_line(&p, end);
	if (!line ||
	    sscanf(line, "pccbench-info 2 %x %zu %zu", &num, &np, &nc) != 3 ||
	    num != v->algo_num || np > ALGO_MAX_PARAMS ||
	    nc > ALGO_MAX_COUNTERS || !(line = cache_line(&p, end)))
		goto bad;
	cache_text(v->name, sizeof(v->name), line, &ok);
	if (!(line = cache_line(&p, end)))
		goto bad;
	cache_text(v->descr, sizeof(v->descr), line, &ok);
	v->params = calloc(np ? np : 1, sizeof(*v->params));
	v->counters = calloc(nc ? nc : 1, sizeof(*v->counters));
	if (!v->params || !v->counters)
		goto bad;
	for (i = 0; i < np + nc && ok; i++) {
		struct ppcc_info *in = i < np ? &v->params[i].info :
					      &v->counters[i - np].info;
		int want = i < np ? 6 : 4;

		if (!(line = cache_line(&p, end)))
			goto bad;
		save = NULL;
		for (k = 0; k < want; k++) {
			f[k] = strtok_r(k ? NULL : line, "\t", &save);
			if (!f[k] && k < want - 1)
				goto bad;
			if (!f[k])
				f[k] = (char *)"";
		}
		if (i < np) {
			ok = cache_u32(f[0], &in->def) &&
			     cache_u32(f[1], &in->min) &&
			     cache_u32(f[2], &in->max) &&
			     cache_u32(f[3], &in->prm) && in->min <= in->max;
			cache_text(in->name, sizeof(in->name), f[4], &ok);
			cache_text(in->descr, sizeof(in->descr), f[5], &ok);
			v->params[i].index = (unsigned)i;
		} else {
			ok = cache_u32(f[0], &in->max) &&
			     cache_u32(f[1], &in->prm);
			cache_text(in->name, sizeof(in->name), f[2], &ok);
			cache_text(in->descr, sizeof(in->descr), f[3], &ok);
			v->counters[i - np].index = (unsigned)(i - np);
		}
	}
	if (!ok || p != end)
		goto bad;
	free(text);
	v->nparams = np;
	v->ncounters = nc;
	return 0;
bad:
	sess_warn(s, "param cache '%s' is damaged; reading the device instead",
		  path);
	unlink(path);
	free(text);
	free(v->params);
	free(v->counters);
	v->params = NULL;
	v->counters = NULL;
	return -1;
}

/* Descriptor match and view fields derived from the infos. */
static void view_finish(struct session *s, struct slot_view *v)
{
	size_t i;

	v->desc = match_desc(s, v);
	for (i = 0; i < v->nparams; i++) {
		struct param_view *p = &v->params[i];

		p->desc = v->desc ? &v->desc->params[i] : NULL;
		p->type = p->desc ? p->desc->type : ALGO_T_INT;
		p->units = p->desc ? p->desc->units : "";
	}
	for (i = 0; v->desc && i < v->ncounters &&
		    i < v->desc->ncounters; i++)
		v->counters[i].desc = &v->desc->counters[i];
	v->loaded = true;
}

int sess_slot_view(struct session *s, unsigned slot, struct slot_view **out)
{
	struct slot_view *v;
	uint32_t n;
	unsigned i;
	bool cache;
	int rc;

	if (slot >= PPCC_SLOTS)
		return pcb_error(&s->err, PCB_E_RANGE,
				 "slot %u is not 0..15", slot);
	rc = sess_device(s);
	if (rc)
		return rc;
	v = &s->slots[slot];
	if (v->loaded) {
		*out = v;
		return 0;
	}
	cache = (dev_traits(s) & DEV_T_CACHE) != 0;
	if (cache && s->info_valid) {
		/* the algo number is known: the cache may answer alone */
		v->algo_num = s->info_arr[slot];
		if (v->algo_num && !cache_load(s, slot, v)) {
			view_finish(s, v);
			*out = v;
			return 0;
		}
	}
	rc = ppcc_algo_info(&s->ppcc, slot, &v->algo_num, v->name,
			    sizeof(v->name), v->descr, sizeof(v->descr),
			    &s->err);
	if (rc)
		return rc;
	if (cache && v->algo_num && !cache_load(s, slot, v)) {
		view_finish(s, v);
		*out = v;
		return 0;
	}
	clean(v->name);
	clean(v->descr);
	if (!v->algo_num)
		return pcb_error(&s->err, PCB_E_NOENT, "slot %u is empty",
				 slot);
	rc = ppcc_num_params(&s->ppcc, slot, &n, &s->err);
	if (rc)
		return rc;
	if (n > ALGO_MAX_PARAMS)
		return pcb_error(&s->err, PCB_E_DEVICE,
				 "slot %u reports %u params (at most %d)", slot,
				 n, ALGO_MAX_PARAMS);
	v->params = calloc(n ? n : 1, sizeof(*v->params));
	if (!v->params)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	v->nparams = n;
	for (i = 0; i < n; i++) {
		v->params[i].index = i;
		rc = ppcc_param_info(&s->ppcc, slot, i, &v->params[i].info,
				     &s->err);
		if (rc)
			goto err_reset;
	}
	rc = ppcc_num_counters(&s->ppcc, slot, &n, &s->err);
	if (rc)
		goto err_reset;
	if (n > ALGO_MAX_COUNTERS) {
		rc = pcb_error(&s->err, PCB_E_DEVICE,
			       "slot %u reports %u counters", slot, n);
		goto err_reset;
	}
	v->counters = calloc(n ? n : 1, sizeof(*v->counters));
	if (!v->counters) {
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		goto err_reset;
	}
	v->ncounters = n;
	for (i = 0; i < n; i++) {
		v->counters[i].index = i;
		rc = ppcc_counter_info(&s->ppcc, slot, i,
				       &v->counters[i].info, &s->err);
		if (rc)
			goto err_reset;
	}
	for (i = 0; i < v->nparams; i++) {
		clean(v->params[i].info.name);
		clean(v->params[i].info.descr);
	}
	for (i = 0; i < v->ncounters; i++) {
		clean(v->counters[i].info.name);
		clean(v->counters[i].info.descr);
	}
	view_finish(s, v);
	if (cache)
		cache_save(s, slot, v);
	*out = v;
	return 0;
err_reset:
	free(v->params);
	free(v->counters);
	memset(v, 0, sizeof(*v));
	return rc;
}

int sess_active_slot(struct session *s, unsigned *slot)
{
	uint32_t info[PPCC_SLOTS];
	unsigned i;
	bool en;
	int rc;

	rc = sess_device(s);
	if (rc)
		return rc;
	rc = ppcc_algo_info_array(&s->ppcc, info, &s->err);
	if (rc)
		return rc;
	memcpy(s->info_arr, info, sizeof(info));
	s->info_valid = true;
	for (i = 0; i < PPCC_SLOTS; i++) {
		if (!info[i])
			continue;
		rc = ppcc_enable_status(&s->ppcc, i, &en, NULL, &s->err);
		if (rc)
			return rc;
		if (en) {
			*slot = i;
			return 0;
		}
	}
	return pcb_error(&s->err, PCB_E_STATE,
			 "no algorithm is enabled on %s; name a slot or run "
			 "'algo enable SLOT'", s->devname);
}

int sess_counters_slot(struct session *s, int *slot)
{
	uint32_t info[PPCC_SLOTS];
	bool en, cen;
	unsigned i;
	int rc = sess_device(s);

	*slot = -1;
	if (!rc)
		rc = ppcc_algo_info_array(&s->ppcc, info, &s->err);
	for (i = 0; !rc && i < PPCC_SLOTS; i++) {
		if (!info[i])
			continue;
		rc = ppcc_enable_status(&s->ppcc, i, &en, &cen, &s->err);
		if (!rc && en && cen) {
			*slot = (int)i;
			break;
		}
	}
	return rc;
}

int sess_param_find(struct session *s, struct slot_view *v, const char *name,
		    struct param_view **out)
{
	size_t i;

	struct suggest sg;
	char dym[160];

	for (i = 0; i < v->nparams; i++)
		if (!strcasecmp(v->params[i].info.name, name)) {
			*out = &v->params[i];
			return 0;
		}
	suggest_init(&sg, name);
	for (i = 0; i < v->nparams; i++)
		suggest_add(&sg, v->params[i].info.name);
	return pcb_error(&s->err, PCB_E_NOENT,
			 "unknown param '%s' for %s%s", name, v->name,
			 sg.n ? suggest_text(&sg, dym, sizeof(dym)) :
			 "; 'param list' shows them");
}

/* ---- values ------------------------------------------------------------- */

void sess_format_value(const struct session *s, enum algo_ptype type,
		       uint32_t raw, char *buf, size_t len)
{
	unsigned fb = algo_ptype_frac_bits(type);

	if (fb && (!s->units_raw || s->out.json))
		fxp_format(buf, len, raw, fb);
	else
		snprintf(buf, len, "%u", raw);
}

void sess_format_range(const struct session *s, const struct param_view *p,
		       uint32_t lo, uint32_t hi, char *buf, size_t len)
{
	char a[32], b[32];

	sess_format_value(s, p->type, lo, a, sizeof(a));
	sess_format_value(s, p->type, hi, b, sizeof(b));
	snprintf(buf, len, "%s..%s%s%s", a, b, *p->units ? " " : "",
		 p->units);
}

static bool parse_u32(const char *t, uint32_t *v)
{
	unsigned long long x;
	char *end;

	if (!*t || *t == '-' || *t == '+' || *t == ' ')
		return false;
	errno = 0;
	x = strtoull(t, &end, 0);
	if (errno || *end || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

/* Multiplier of a unit suffix for a param measured in `units`. */
static double unit_scale(const char *units, const char *suffix)
{
	static const struct {
		const char *units, *suffix;
		double scale;
	} tab[] = {
		{ "ns", "ns", 1 }, { "ns", "us", 1e3 }, { "ns", "µs", 1e3 },
		{ "ns", "ms", 1e6 }, { "ns", "s", 1e9 },
		{ "us", "us", 1 }, { "us", "µs", 1 }, { "us", "ms", 1e3 },
		{ "us", "s", 1e6 }, { "us", "ns", 1e-3 },
		{ "Gb/s", "g", 1 }, { "Gb/s", "G", 1 }, { "Gb/s", "Gb/s", 1 },
		{ "Mb/s", "m", 1 }, { "Mb/s", "M", 1 }, { "Mb/s", "g", 1e3 },
		{ "Mb/s", "G", 1e3 }, { "Mb/s", "Mb/s", 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(units, tab[i].units) &&
		    !strcmp(suffix, tab[i].suffix))
			return tab[i].scale;
	return 0;
}

/* The first two ASCII suffixes a param of `units` takes: "ns", "us". */
static void unit_examples(const char *units, char *a, char *b, size_t len)
{
	static const char *const words[] = { "ns", "us", "ms", "s", "g",
					      "Gb/s", "m", "Mb/s" };
	size_t i, n = 0;

	*a = *b = '\0';
	for (i = 0; i < sizeof(words) / sizeof(words[0]) && n < 2; i++)
		if (unit_scale(units, words[i]))
			snprintf(n++ ? b : a, len, "%s", words[i]);
}

bool sess_unit_word(const struct param_view *p, const char *word)
{
	return unit_scale(p->units, word) != 0;
}

int sess_parse_value(const struct param_view *p, const char *text, bool raw,
		     uint32_t *out, struct pcb_err *err)
{
	const char *name = p->info.name;
	char *end;
	double x;

	if (raw || !strncasecmp(text, "0x", 2)) {
		if (!parse_u32(text, out))
			return pcb_error(err, PCB_E_INVAL,
					 "%s: '%s' is not a 32-bit unsigned "
					 "integer", name, text);
		return 0;
	}
	if (p->type == ALGO_T_BOOL) {
		static const char *const t[] = { "1", "on", "true", "yes" };
		static const char *const f[] = { "0", "off", "false", "no" };
		size_t i;

		for (i = 0; i < 4; i++) {
			if (!strcasecmp(text, t[i])) {
				*out = 1;
				return 0;
			}
			if (!strcasecmp(text, f[i])) {
				*out = 0;
				return 0;
			}
		}
		return pcb_error(err, PCB_E_INVAL,
				 "%s: '%s' is not a boolean (0/1, on/off)",
				 name, text);
	}
	if (!*text || *text == '+' || isspace((unsigned char)*text))
		return pcb_error(err, PCB_E_INVAL, "%s: '%s' is not a number",
				 name, text);
	errno = 0;
	x = strtod(text, &end);
	if (end == text || errno == ERANGE || !isfinite(x))
		return pcb_error(err, PCB_E_INVAL, "%s: '%s' is not a number",
				 name, text);
	if (x < 0)
		return pcb_error(err, PCB_E_RANGE,
				 "%s: %s is negative; the register holds "
				 "unsigned values", name, text);
	if (algo_ptype_frac_bits(p->type)) {
		int64_t hint = p->info.def;

		if (*end)
			return pcb_error(err, PCB_E_INVAL,
					 "%s: '%s' is not a number", name,
					 text);
		if (!fxp_from_real(x, algo_ptype_frac_bits(p->type), hint,
				   out))
			return pcb_error(err, PCB_E_RANGE,
					 "%s: %s does not fit in %s", name,
					 text, algo_ptype_name(p->type));
		return 0;
	}
	if (*end) {
		double sc = unit_scale(p->units, end);

		if (sc == 0)
			return pcb_error(err, PCB_E_INVAL,
					 "%s: '%s' has an unknown unit "
					 "(the param is in %s)", name, text,
					 *p->units ? p->units : "plain numbers");
		x *= sc;
	} else if (unit_scale(p->units, p->units)) {
		/* 200 of a time or a rate: ns or us?  Say, don't guess */
		char a[8], b[8];

		unit_examples(p->units, a, b, sizeof(a));
		return pcb_error(err, PCB_E_INVAL, "%s: %s needs a unit: write "
				 "%s%s or %s%s (the param is in %s), or 'raw "
				 "%s'", name, text, text, a, text, b, p->units,
				 text);
	}
	if (x != floor(x) || x > UINT32_MAX)
		return pcb_error(err, x > UINT32_MAX ? PCB_E_RANGE : PCB_E_INVAL,
				 "%s: %s is not a whole number%s%s", name, text,
				 *p->units ? " of " : "", p->units);
	*out = (uint32_t)x;
	return 0;
}

/* Check one value against the device's range and permission. */
int sess_check_value(struct session *s, const struct param_view *p,
		     uint32_t raw)
{
	char val[32], range[96];

	if (p->info.prm != ALGO_PERM_RW)
		return pcb_error(&s->err, PCB_E_RANGE,
				 "%s is read-only on this slot; nothing was "
				 "written", p->info.name);
	if (raw < p->info.min || raw > p->info.max) {
		/* in the units the value was typed in (real numbers are the
		 * input even under `set units raw`), the raw beside */
		unsigned fb = algo_ptype_frac_bits(p->type);

		if (fb) {
			char lo[32], hi[32];

			fxp_format(val, sizeof(val), raw, fb);
			fxp_format(lo, sizeof(lo), p->info.min, fb);
			fxp_format(hi, sizeof(hi), p->info.max, fb);
			return pcb_error(&s->err, PCB_E_RANGE, "%s: %s (raw %u) is "
					 "out of range %s..%s (raw %u..%u); "
					 "nothing was written", p->info.name,
					 val, raw, lo, hi, p->info.min,
					 p->info.max);
		}
		sess_format_value(s, p->type, raw, val, sizeof(val));
		sess_format_range(s, p, p->info.min, p->info.max, range,
				  sizeof(range));
		return pcb_error(&s->err, PCB_E_RANGE,
				 "%s: %s%s%s is out of range %s; nothing was "
				 "written", p->info.name, val,
				 *p->units ? " " : "", p->units, range);
	}
	if (p->desc && p->desc->has_rec &&
	    (raw < p->desc->rec_min || raw > p->desc->rec_max)) {
		sess_format_value(s, p->type, raw, val, sizeof(val));
		sess_format_range(s, p, p->desc->rec_min, p->desc->rec_max,
				  range, sizeof(range));
		sess_warn(s, "%s: %s is outside the recommended range %s",
			  p->info.name, val, range);
	}
	return 0;
}


/* ---- confirmation ------------------------------------------------------- */

int sess_confirm(struct session *s, const char *what)
{
	char line[32];

	if (s->read_only)
		return pcb_error(&s->err, PCB_E_STATE,
				 "read-only session: will not %s", what);
	if (!(dev_traits(s) & DEV_T_CONFIRM) || s->yes)
		return 0;
	if (!isatty(STDIN_FILENO))
		return pcb_error(&s->err, PCB_E_STATE,
				 "writing to %s needs confirmation: %s; give "
				 "-y to confirm in scripts", s->devname, what);
	fprintf(stderr, "%s: %s? [y/N] ", s->devname, what);
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin) ||
	    (strcasecmp(line, "y\n") && strcasecmp(line, "yes\n")))
		return pcb_error(&s->err, PCB_E_STATE, "not confirmed: "
				 "nothing was written");
	return 0;
}

/* ---- dry run ------------------------------------------------------------ */

void sess_dry_line(struct session *s, enum reg_method m, const uint8_t *buf)
{
	struct pcb_err e = { 0 };
	char *line = NULL, **nd;

	/* the argv the mstreg backend would run, shell-quoted */
	if (mstreg_command_line(s->mstreg_prog, s->devname, s->ppcc.layout, m,
				buf, &line, &e))
		return;
	nd = realloc(s->dry, (s->ndry + 1) * sizeof(*nd));
	if (!nd) {
		free(line);
		return;
	}
	s->dry = nd;
	s->dry[s->ndry++] = line;
}

void sess_dry_flush(struct session *s)
{
	size_t i;

	if (!s->ndry)
		return;
	if (s->out.json) {
		out_obj_begin(&s->out, NULL);
		out_arr_begin(&s->out, "dry_run");
		for (i = 0; i < s->ndry; i++)
			out_str(&s->out, NULL, s->dry[i]);
		out_arr_end(&s->out);
		out_obj_end(&s->out);
	} else {
		for (i = 0; i < s->ndry; i++)
			fprintf(s->out.fp, "%s\n", s->dry[i]);
	}
	for (i = 0; i < s->ndry; i++)
		free(s->dry[i]);
	s->ndry = 0;
}

/* ---- the write path ----------------------------------------------------- */

static int read_values(struct session *s, unsigned slot, struct slot_view *v,
		       uint32_t *vals, size_t n_single, unsigned single_idx)
{
	size_t got;
	int rc;

	if (n_single == 1)
		return ppcc_param_get(&s->ppcc, slot, single_idx,
				      &vals[single_idx], &s->err);
	rc = ppcc_bulk_get(&s->ppcc, slot, vals, ALGO_MAX_PARAMS, &got,
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

/* Read, journal, write, read back: under the device lock. */
static int write_params_locked(struct session *s, unsigned slot,
			       struct param_write *w, size_t n, bool journal)
{
	uint32_t cur[ALGO_MAX_PARAMS] = { 0 }, back[ALGO_MAX_PARAMS] = { 0 };
	unsigned seq[ALGO_MAX_PARAMS] = { 0 };
	struct slot_view *v;
	size_t i, nchanged = 0;
	int rc, bad = -1;

	rc = sess_slot_view(s, slot, &v);
	if (rc)
		return rc;
	if (n == 0 || n > v->nparams)
		return pcb_error(&s->err, PCB_E_INVAL, "nothing to write");
	if (s->dry_run) {
		for (i = 0; i < n; i++) {
			uint8_t buf[PPCC_SIZE];
			enum reg_method m = ppcc_param_set_req(&s->ppcc, slot,
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
		w[i].changed = w[i].old != w[i].value;
		nchanged += w[i].changed;
	}
	if (nchanged) {
		char what[512];
		size_t wl = 0;

		wl += (size_t)snprintf(what, sizeof(what), "set slot %u", slot);
		for (i = 0; i < n && wl < sizeof(what); i++) {
			const struct param_view *p = &v->params[w[i].index];
			char a[32], b[32];

			if (!w[i].changed)
				continue;
			sess_format_value(s, p->type, w[i].old, a, sizeof(a));
			sess_format_value(s, p->type, w[i].value, b, sizeof(b));
			wl += (size_t)snprintf(what + wl, sizeof(what) - wl,
					       " %s %s -> %s (PPCC index %u "
					       "value 0x%08x -> 0x%08x)",
					       p->info.name, a, b, w[i].index,
					       w[i].old, w[i].value);
		}
		rc = sess_confirm(s, what);
		if (rc)
			return rc;
	}
	for (i = 0; i < n && journal; i++) {
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
		rc = journal_begin(s->journal, &e, &s->err);
		if (rc)
			return rc;
		seq[i] = e.seq;
		s->nwrites++;
	}
	if (!nchanged) {
		for (i = 0; i < n; i++)
			w[i].readback = w[i].old;
		return 0;
	}
	/* one set for one param, one bulk set for several (or one set per
	 * param where the transport has no bulk set) */
	if (n == 1) {
		rc = ppcc_param_set(&s->ppcc, slot, w[0].index, w[0].value,
				    &s->err);
	} else if (s->dev->ops->caps & REG_CAP_NO_BULK_SET) {
		for (i = 0; i < n && !rc; i++)
			if (w[i].changed)
				rc = ppcc_param_set(&s->ppcc, slot, w[i].index,
						    w[i].value, &s->err);
	} else {
		memcpy(back, cur, sizeof(back));
		for (i = 0; i < n; i++)
			back[w[i].index] = w[i].value;
		rc = ppcc_bulk_set(&s->ppcc, slot, back, v->nparams, &s->err);
	}
	if (!rc)
		rc = read_values(s, slot, v, back, n, w[0].index);
	for (i = 0; i < n; i++) {
		bool ok = !rc && back[w[i].index] == w[i].value;

		w[i].readback = back[w[i].index];
		if (!rc && !ok && bad < 0)
			bad = (int)i;
		if (seq[i])
			journal_end(s->journal, seq[i], ok, NULL);
	}
	if (rc)
		return rc;
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
	int rc = sess_lock(s);

	if (!rc) {
		rc = algo_write_locked(s, slot, enable, counters, journal);
		sess_unlock(s);
	}
	return rc;
}

static int algo_write_locked(struct session *s, unsigned slot, bool enable,
			     bool counters, bool journal)
{
	struct slot_view *v;
	struct jentry e = { .kind = J_ALGO };
	bool en, cen, en2, cen2;
	int rc;

	rc = sess_slot_view(s, slot, &v);
	if (rc)
		return rc;
	if (counters && !v->ncounters)
		return pcb_error(&s->err, PCB_E_INVAL,
				 "slot %u (%s) has no counters", slot,
				 v->name);
	if (s->dry_run) {
		uint8_t buf[PPCC_SIZE];

		sess_dry_line(s, enable ? ppcc_enable_req(&s->ppcc, slot,
							  counters, buf) :
				  ppcc_disable_req(&s->ppcc, slot, buf), buf);
		return 0;
	}
	rc = ppcc_enable_state(&s->ppcc, slot, enable, &en, &cen, &s->err);
	if (rc)
		return rc;
	if (en == enable && (!enable || !counters || cen))
		return 0;	/* already so */
	{
		char what[200];

		snprintf(what, sizeof(what), "%s slot %u (%.60s)%s (PPCC "
			 "cmd_type %u, enabled %u -> %u, counter_en %u -> %u)",
			 enable ? "enable" : "disable", slot, v->name,
			 enable && counters ? " with counters" : "",
			 enable ? PPCC_ENABLE : PPCC_DISABLE, en, enable, cen,
			 enable && (counters || cen));
		rc = sess_confirm(s, what);
		if (rc)
			return rc;
	}
	if (journal) {
		e.slot = slot;
		e.old = (uint32_t)en | (uint32_t)cen << 1;
		e.new = (uint32_t)enable | (uint32_t)(enable && (counters || cen))
								<< 1;
		rc = journal_begin(s->journal, &e, &s->err);
		if (rc)
			return rc;
		s->nwrites++;
	}
	rc = enable ? ppcc_enable(&s->ppcc, slot, counters, &s->err) :
		      ppcc_disable(&s->ppcc, slot, &s->err);
	if (!rc)
		rc = ppcc_enable_state(&s->ppcc, slot, enable, &en2, &cen2,
				       &s->err);
	if (!rc && (en2 != enable || (enable && counters && !cen2)))
		rc = pcb_error(&s->err, PCB_E_MISMATCH,
			       "slot %u: asked to %s%s but the device reports "
			       "%s, counters %s", slot,
			       enable ? "enable" : "disable",
			       counters ? " with counters" : "",
			       en2 ? "enabled" : "disabled",
			       cen2 ? "on" : "off");
	if (journal)
		journal_end(s->journal, e.seq, rc == 0, NULL);
	return rc;
}
