/* views.c - slot views: what each algorithm slot holds, its params and counters
 * described (descriptor matching), and the on-disk info cache of real
 * devices (session.h).
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
	struct pcb_err e = { 0 };
	char tail[40];

	snprintf(tail, sizeof(tail), "-s%u-%08x.txt", slot, num);
	return pcb_user_file(buf, len, PCB_DIR_CACHE, "info", s->cur->name,
			     tail,
			     &e) ? -1 : 0;
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
	char path[PCB_PATH_LEN], *text = NULL;
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
	char path[PCB_PATH_LEN], *text, *p, *end, *line, *f[6], *save;
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
	v = &s->cur->slots[slot];
	if (v->loaded) {
		*out = v;
		return 0;
	}
	cache = (dev_traits(s->cur) & DEV_T_CACHE) != 0;
	if (cache && s->cur->info_valid) {
		/* the algo number is known: the cache may answer alone */
		v->algo_num = s->cur->info_arr[slot];
		if (v->algo_num && !cache_load(s, slot, v)) {
			view_finish(s, v);
			*out = v;
			return 0;
		}
	}
	rc = ppcc_algo_info(&s->cur->ppcc, slot, &v->algo_num, v->name,
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
	rc = ppcc_num_params(&s->cur->ppcc, slot, &n, &s->err);
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
		rc = ppcc_param_info(&s->cur->ppcc, slot, i, &v->params[i].info,
				     &s->err);
		if (rc)
			goto err_reset;
	}
	rc = ppcc_num_counters(&s->cur->ppcc, slot, &n, &s->err);
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
		rc = ppcc_counter_info(&s->cur->ppcc, slot, i,
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
	rc = ppcc_algo_info_array(&s->cur->ppcc, info, &s->err);
	if (rc)
		return rc;
	memcpy(s->cur->info_arr, info, sizeof(info));
	s->cur->info_valid = true;
	for (i = 0; i < PPCC_SLOTS; i++) {
		if (!info[i])
			continue;
		rc = ppcc_enable_status(&s->cur->ppcc, i, &en, NULL, &s->err);
		if (rc)
			return rc;
		if (en) {
			*slot = i;
			return 0;
		}
	}
	return pcb_error(&s->err, PCB_E_STATE,
			 "no algorithm is enabled on %s; name a slot or run "
			 "'algo enable SLOT'", s->cur->name);
}

int sess_counters_slot(struct session *s, int *slot)
{
	uint32_t info[PPCC_SLOTS];
	bool en, cen;
	unsigned i;
	int rc = sess_device(s);

	*slot = -1;
	if (!rc)
		rc = ppcc_algo_info_array(&s->cur->ppcc, info, &s->err);
	for (i = 0; !rc && i < PPCC_SLOTS; i++) {
		if (!info[i])
			continue;
		rc = ppcc_enable_status(&s->cur->ppcc, i, &en, &cen, &s->err);
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
