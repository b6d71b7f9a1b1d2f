/* doca_ctx.c - diag and adp_retx over DOCA's calls (doca_ctx.h), in the
 * order DOCA's telemetry samples make them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tel/doca_ctx.h"
#include "tel/tel.h"

#define T(call) tdoca_tel(call)

/* ---- diag ------------------------------------------------------------ */

static int diag_caps(void *p, struct diag_caps *c)
{
	const struct tdoca_dev *d = ((struct tdoca_diag *)p)->d;
	const struct tdoca_api *a = d->api;
	uint8_t v = 0, log = 0;
	int rc, i;

	memset(c, 0, sizeof(*c));
	rc = T(a->diag_cap_is_supported(d->devinfo));
	if (!rc)
		rc = T(a->diag_cap_max_ids(d->devinfo, &c->max_ids));
	if (!rc)
		rc = T(a->diag_cap_log_samples(d->devinfo, &log));
	c->log_max_samples = log;
	if (!rc)
		rc = T(a->diag_cap_clear(d->devinfo, &v));
	c->data_clear = v;
	v = 0;
	if (!rc)
		rc = T(a->diag_cap_sync(d->devinfo, &v));
	c->sync_start = v;
	for (i = 0; !rc && i < 3; i++) {
		v = 0;
		rc = T(a->diag_cap_mode(d->devinfo, i, &v));
		c->modes[i] = v;
	}
	for (i = 0; !rc && i < 2; i++) {
		v = 0;
		rc = T(a->diag_cap_ts(d->devinfo, i, &v));
		c->ts[i] = v;
	}
	return rc;
}

static int diag_create(void *p, bool force, struct tel_diag *t)
{
	struct tdoca_diag *x = p;
	const struct tdoca_dev *d = x->d;
	int rc;

	(void)t;	/* DOCA's context starts Idle: nothing to adopt */
	if (x->ctx)
		return TEL_OK;
	rc = T(d->api->diag_cap_is_supported(d->devinfo));
	x->state = DIAG_IDLE;
	if (!rc)
		rc = T(d->api->diag_create(d->dev, force, &x->ctx));
	if (rc)
		x->ctx = NULL;
	return rc;
}

static void diag_destroy(void *p)
{
	struct tdoca_diag *x = p;
	const struct tdoca_dev *d = x->d;

	if (!x->ctx)
		return;
	if (x->state != DIAG_IDLE)
		d->api->diag_stop(x->ctx);
	d->api->diag_destroy(x->ctx);
	x->ctx = NULL;
	x->state = DIAG_IDLE;
}

/* Nothing outlives the process: a provider's context ends with it. */
static int diag_keep(void *p, const struct diag_cfg *cfg, const uint64_t *ids,
		     uint32_t nids, uint64_t actual_ns)
{
	(void)p;
	(void)cfg;
	(void)ids;
	(void)nids;
	(void)actual_ns;
	return TEL_OK;
}

static int diag_kept(void *p, struct diag_cfg *cfg, uint64_t *ids,
		     uint32_t *nids)
{
	(void)p;
	(void)cfg;
	(void)ids;
	(void)nids;
	return 0;
}

static int diag_apply_config(void *p, const struct diag_cfg *c)
{
	struct tdoca_diag *x = p;
	const struct tdoca_api *a = x->d->api;
	int rc;

	if (!x->ctx)
		return TEL_BAD_STATE;
	rc = T(a->diag_set_format(x->ctx, (int)c->format));
	if (!rc)
		rc = T(a->diag_set_period(x->ctx, c->period_ns));
	if (!rc)
		rc = T(a->diag_set_log_samples(x->ctx, (uint8_t)c->log_samples));
	if (!rc)
		rc = T(a->diag_set_max_ids(x->ctx, c->max_ids));
	if (!rc)
		rc = T(a->diag_set_sync(x->ctx, (int)c->sync));
	if (!rc)
		rc = T(a->diag_set_mode(x->ctx, (int)c->mode));
	if (!rc)
		rc = T(a->diag_set_clear(x->ctx, (uint8_t)c->clear));
	if (!rc)
		rc = T(a->diag_set_ts(x->ctx, (int)c->ts));
	if (!rc)
		rc = T(a->diag_apply_config(x->ctx));
	if (!rc)
		x->state = DIAG_CONFIGURED;
	return rc;
}

static int diag_check_id(void *p, const struct diag_cfg *cfg, uint64_t id)
{
	struct tdoca_diag *x = p;

	(void)cfg;	/* DOCA applied it */
	return x->ctx ? T(x->d->api->diag_check_id(x->ctx, id)) :
			TEL_BAD_STATE;
}

static int diag_apply_ids(void *p, const struct diag_cfg *cfg,
			  const uint64_t *ids, uint32_t n, uint64_t *failed,
			  uint64_t *actual_ns)
{
	struct tdoca_diag *x = p;
	const struct tdoca_dev *d = x->d;
	int rc;

	(void)cfg;
	*failed = 0;
	if (!x->ctx)
		return TEL_BAD_STATE;
	rc = T(d->api->diag_apply_ids(x->ctx, ids, n, failed));
	if (rc)
		return rc;
	x->state = DIAG_READY;
	*actual_ns = 0;
	return T(d->api->diag_get_period(x->ctx, actual_ns));
}

static int diag_start(void *p, const struct tel_diag *t)
{
	struct tdoca_diag *x = p;
	int rc = x->ctx ? T(x->d->api->diag_start(x->ctx)) : TEL_BAD_STATE;

	(void)t;
	if (!rc) {	/* a start's samples count from 0 */
		x->state = DIAG_RUNNING;
		x->seen = true;
		x->next_id = 0;
	}
	return rc;
}

static int diag_stop(void *p, const struct tel_diag *t)
{
	struct tdoca_diag *x = p;
	int rc = x->ctx ? T(x->d->api->diag_stop(x->ctx)) : TEL_BAD_STATE;

	(void)t;
	if (!rc)
		x->state = DIAG_IDLE;
	return rc;
}

static int diag_restart(void *p)
{
	struct tdoca_diag *x = p;
	int rc = x->ctx ? T(x->d->api->diag_restart(x->ctx)) : TEL_BAD_STATE;

	if (!rc)
		x->seen = false;
	return rc;
}

static int diag_sample_size(void *p, const struct tel_diag *t,
			    uint32_t *size)
{
	struct tdoca_diag *x = p;

	(void)t;
	return x->ctx ? T(x->d->api->diag_sample_size(x->ctx, size)) :
			TEL_BAD_STATE;
}

static int diag_query(void *p, const struct tel_diag *t, void *buf,
		      uint32_t max, uint32_t size, uint32_t *got,
		      uint64_t *lost)
{
	struct tdoca_diag *x = p;
	const struct tdoca_dev *d = x->d;
	uint32_t first;
	int rc;

	(void)t;
	*got = 0;
	*lost = 0;
	if (!x->ctx)
		return TEL_BAD_STATE;
	rc = T(d->api->diag_query(x->ctx, buf, max, got));
	if ((rc && rc != TEL_SKIPPED) || *got > max)
		return rc ? rc : TEL_UNEXPECTED;
	if (!*got)
		return rc;
	/* every format starts with the 32-bit sample id */
	first = diag_get32(buf);
	if (rc == TEL_SKIPPED && x->seen && first > x->next_id)
		*lost = first - x->next_id;
	x->next_id = (uint64_t)diag_get32((const uint8_t *)buf +
					  (size_t)(*got - 1) * size) + 1;
	x->seen = true;
	return rc;
}

/* ---- adp_retx -------------------------------------------------------- */

static int retx_caps(void *p, uint32_t *max_bins, uint32_t *units)
{
	const struct tdoca_dev *d = ((struct tdoca_retx *)p)->d;
	const struct tdoca_api *a = d->api;
	int rc = T(a->retx_cap_is_supported(d->devinfo));

	*max_bins = 0;
	*units = 0;
	if (!rc)
		rc = T(a->retx_cap_hist(d->devinfo));
	if (!rc)
		rc = T(a->retx_cap_max_bins(d->devinfo, max_bins));
	if (!rc)
		rc = T(a->retx_cap_units(d->devinfo, units));
	/* pccbench's histogram holds RETX_MAX_BINS */
	if (*max_bins > RETX_MAX_BINS)
		*max_bins = RETX_MAX_BINS;
	return rc;
}

static int retx_create(void *p)
{
	struct tdoca_retx *x = p;
	const struct tdoca_dev *d = x->d;
	int rc;

	tel_retx_cfg_default(&x->cfg);
	memset(x->last, 0, sizeof(x->last));
	if (x->ctx)
		return TEL_OK;
	rc = T(d->api->retx_cap_is_supported(d->devinfo));
	x->running = false;
	if (!rc)
		rc = T(d->api->retx_create(d->dev, &x->ctx));
	if (rc)
		x->ctx = NULL;
	return rc;
}

static void retx_destroy(void *p)
{
	struct tdoca_retx *x = p;
	const struct tdoca_dev *d = x->d;

	if (!x->ctx)
		return;
	if (x->running)
		d->api->retx_stop(x->ctx);
	d->api->retx_destroy(x->ctx);
	x->ctx = NULL;
	x->running = false;
}

static int retx_start(void *p, const struct retx_cfg *c)
{
	struct tdoca_retx *x = p;
	const struct tdoca_api *a = x->d->api;
	int rc;

	if (!x->ctx)
		return TEL_BAD_STATE;
	rc = T(a->retx_set_bins(x->ctx, c->num_bins));
	if (!rc)
		rc = T(a->retx_set_bin0(x->ctx, c->bin0));
	if (!rc)
		rc = T(a->retx_set_bin1(x->ctx, c->bin1));
	if (!rc)
		rc = T(a->retx_set_mode(x->ctx, (int)c->mode));
	if (!rc)
		rc = T(a->retx_set_unit(x->ctx, (int)c->unit));
	if (!rc)
		rc = T(c->vhca_set ? a->retx_set_vhca(x->ctx, c->vhca_id) :
		       a->retx_unset_vhca(x->ctx));
	if (!rc)
		rc = T(a->retx_set_clear(x->ctx, c->clear_on_read));
	if (!rc)
		rc = T(a->retx_set_count(x->ctx, c->count_enable));
	if (!rc)
		rc = T(a->retx_start(x->ctx));
	if (!rc) {
		x->running = true;
		x->cfg = *c;
		memset(x->last, 0, sizeof(x->last));
	}
	return rc;
}

static int retx_stop(void *p)
{
	struct tdoca_retx *x = p;
	int rc = x->ctx ? T(x->d->api->retx_stop(x->ctx)) : TEL_BAD_STATE;

	if (!rc)
		x->running = false;
	return rc;
}

static int retx_detect(void *p, const struct retx_cfg *mine,
		       uint8_t *changed, struct retx_cfg *c)
{
	struct tdoca_retx *x = p;
	const struct tdoca_api *a = x->d->api;
	int mode = 0, unit = 0, rc;

	(void)mine;	/* DOCA knows what it loaded */
	*changed = 0;
	if (!x->ctx)
		return TEL_BAD_STATE;
	rc = T(a->retx_detect(x->ctx, changed));
	if (rc || !*changed)
		return rc;
	memset(c, 0, sizeof(*c));
	rc = T(a->retx_get_bins(x->ctx, &c->num_bins));
	if (!rc)
		rc = T(a->retx_get_bin0(x->ctx, &c->bin0));
	if (!rc)
		rc = T(a->retx_get_bin1(x->ctx, &c->bin1));
	if (!rc)
		rc = T(a->retx_get_mode(x->ctx, &mode));
	if (!rc)
		rc = T(a->retx_get_unit(x->ctx, &unit));
	if (!rc) {
		uint8_t set = 0;

		rc = T(a->retx_get_vhca(x->ctx, &set, &c->vhca_id));
		c->vhca_set = set;
	}
	if (!rc)
		rc = T(a->retx_get_clear(x->ctx, &c->clear_on_read));
	if (!rc)
		rc = T(a->retx_get_count(x->ctx, &c->count_enable));
	c->mode = (uint32_t)mode;
	c->unit = (uint32_t)unit;
	if (c->num_bins > RETX_MAX_BINS)
		c->num_bins = RETX_MAX_BINS;
	if (!rc)
		x->cfg = *c;
	return rc;
}

static int retx_read_now(struct tdoca_retx *x, uint32_t *populated,
			 uint64_t *bins)
{
	const struct tdoca_dev *d = x->d;
	uint32_t max = 0, n = 0;
	uint64_t *all;
	int rc;

	*populated = 0;
	if (!x->ctx)
		return TEL_BAD_STATE;
	/* DOCA fills as many as the device's max bins */
	rc = T(d->api->retx_cap_max_bins(d->devinfo, &max));
	if (rc)
		return rc;
	all = calloc(max ? max : 1, sizeof(*all));
	if (!all)
		return TEL_NO_MEMORY;
	rc = T(d->api->retx_read(x->ctx, &n, all));
	if (!rc) {
		if (n > max)
			n = max;
		if (n > RETX_MAX_BINS)
			n = RETX_MAX_BINS;
		memset(bins, 0, RETX_MAX_BINS * sizeof(*bins));
		memcpy(bins, all, n * sizeof(*bins));
		*populated = n;
	}
	free(all);
	return rc;
}

static int retx_read(void *p, bool started, uint32_t *populated,
		     uint64_t *bins)
{
	struct tdoca_retx *x = p;
	int rc;

	if (!started)
		return TEL_BAD_STATE;
	rc = retx_read_now(x, populated, bins);
	if (!rc)
		memcpy(x->last, bins, sizeof(x->last));
	return rc;
}

static void retx_state(void *p, struct retx_cfg *cfg, bool *running)
{
	struct tdoca_retx *x = p;

	*cfg = x->cfg;
	*running = x->running;
}

/* A read: the bins DOCA has now (unless reading clears them). */
static void retx_peek(void *p, struct retx_cfg *cfg, bool *running,
		      uint64_t *bins)
{
	struct tdoca_retx *x = p;
	uint64_t now[RETX_MAX_BINS];
	uint32_t n;

	*cfg = x->cfg;
	*running = x->running;
	if (x->running && !x->cfg.clear_on_read &&
	    !retx_read_now(x, &n, now))
		memcpy(x->last, now, sizeof(x->last));
	memcpy(bins, x->last, sizeof(x->last));
}

/* The provider takes it at start. */
static int retx_keep_cfg(void *p, const struct retx_cfg *cfg)
{
	struct tdoca_retx *x = p;

	if (x->running)
		return TEL_BAD_STATE;
	x->cfg = *cfg;
	return TEL_OK;
}

/* ---- pcc ------------------------------------------------------------ */

int tdoca_pcc_open(struct tdoca_pcc *x)
{
	const struct tdoca_dev *d = x->d;
	const struct tdoca_api *a = d->api;
	int rc;

	if (x->ctx)
		return TEL_OK;
	rc = T(a->pcc_cap_is_supported(d->devinfo));
	if (!rc)
		rc = T(a->pcc_cap_slots(d->devinfo, &x->max_slots));
	if (!rc)
		rc = T(a->pcc_cap_info_len(d->devinfo, &x->info_len));
	if (!rc)
		rc = T(a->pcc_cap_counter_info_len(d->devinfo,
						   &x->counter_info_len));
	if (!rc)
		rc = T(a->pcc_cap_counters(d->devinfo, &x->max_counters));
	if (!rc && (x->max_slots > 256 || x->info_len > 65536 ||
		    x->counter_info_len > 65536 || x->max_counters > 65536))
		rc = TEL_UNEXPECTED;	/* caps no device has: refuse */
	if (!rc)
		rc = T(a->pcc_create(d->dev, &x->ctx));
	if (rc) {
		x->ctx = NULL;
		return rc;
	}
	rc = T(a->pcc_start(x->ctx));
	if (rc) {
		a->pcc_destroy(x->ctx);
		x->ctx = NULL;
	}
	return rc;
}

void tdoca_pcc_close(struct tdoca_pcc *x)
{
	if (!x->ctx)
		return;
	x->d->api->pcc_stop(x->ctx);
	x->d->api->pcc_destroy(x->ctx);
	x->ctx = NULL;
}

static int pcc_caps(void *p, uint32_t *max_slots, uint32_t *max_info_len,
		    uint32_t *max_counters)
{
	struct tdoca_pcc *x = p;

	*max_slots = x->max_slots;
	*max_info_len = x->info_len;
	*max_counters = x->max_counters;
	return TEL_OK;
}

/* DOCA's slot numbers are uint8_t; pccbench's are checked against caps. */
static int pcc_slot(const struct tdoca_pcc *x, unsigned slot)
{
	return slot < x->max_slots && slot <= 255 ? TEL_OK : TEL_INVALID_VALUE;
}

static int pcc_algo_id(void *p, unsigned slot, uint32_t *id)
{
	struct tdoca_pcc *x = p;
	int rc = pcc_slot(x, slot);

	return rc ? rc : T(x->d->api->pcc_algo_id(x->ctx, (uint8_t)slot, id));
}

static int pcc_version(void *p, unsigned slot, uint32_t *major,
		       uint32_t *minor)
{
	struct tdoca_pcc *x = p;
	int rc = pcc_slot(x, slot);

	if (!rc)
		rc = T(x->d->api->pcc_major(x->ctx, (uint8_t)slot, major));
	if (!rc)
		rc = T(x->d->api->pcc_minor(x->ctx, (uint8_t)slot, minor));
	return rc;
}

static int pcc_enable(void *p, unsigned slot, uint8_t *en, uint8_t *cen)
{
	struct tdoca_pcc *x = p;
	int rc = pcc_slot(x, slot);

	return rc ? TEL_DRIVER :	/* as the PPCC path: a bad slot */
		    T(x->d->api->pcc_enable(x->ctx, (uint8_t)slot, en, cen));
}

/* DOCA writes up to its cap: a buffer that size, then ours. */
static int pcc_text(struct tdoca_pcc *x, unsigned slot, int counter,
		    char *buf, size_t len)
{
	size_t cap = counter < 0 ? x->info_len : x->counter_info_len;
	char *tmp = calloc(cap + 1, 1);
	int rc;

	if (!tmp)
		return TEL_NO_MEMORY;
	rc = counter < 0 ?
	     T(x->d->api->pcc_algo_info(x->ctx, (uint8_t)slot, tmp)) :
	     T(x->d->api->pcc_counter_info(x->ctx, (uint8_t)slot,
					   (uint8_t)counter, tmp));
	if (!rc)
		snprintf(buf, len, "%.*s", (int)cap, tmp);
	free(tmp);
	return rc;
}

static int pcc_info(void *p, unsigned slot, char *buf, size_t len)
{
	struct tdoca_pcc *x = p;
	int rc = pcc_slot(x, slot);

	return rc ? rc : pcc_text(x, slot, -1, buf, len);
}

static int pcc_num(void *p, unsigned slot, uint32_t *n)
{
	struct tdoca_pcc *x = p;
	int rc = pcc_slot(x, slot);

	return rc ? rc :
		    T(x->d->api->pcc_num_counters(x->ctx, (uint8_t)slot, n));
}

static int pcc_counter_info(void *p, unsigned slot, unsigned id, char *buf,
			    size_t len)
{
	struct tdoca_pcc *x = p;
	int rc = pcc_slot(x, slot);

	if (!rc && id > 255)
		rc = TEL_INVALID_VALUE;
	return rc ? rc : pcc_text(x, slot, (int)id, buf, len);
}

static int pcc_counters(void *p, unsigned slot, bool clear,
			uint32_t *populated, uint32_t *vals)
{
	struct tdoca_pcc *x = p;
	const struct tdoca_api *a = x->d->api;
	uint32_t *all, n = 0;
	int rc = pcc_slot(x, slot);

	*populated = 0;
	if (rc)
		return rc;
	if (clear && !a->pcc_clear)
		return TEL_NOT_SUPPORTED;
	all = calloc(x->max_counters ? x->max_counters : 1, sizeof(*all));
	if (!all)
		return TEL_NO_MEMORY;
	rc = clear ? T(a->pcc_clear(x->ctx, (uint8_t)slot, &n, all)) :
		     T(a->pcc_counters(x->ctx, (uint8_t)slot, &n, all));
	if (!rc && vals) {
		if (n > x->max_counters)
			n = x->max_counters;
		if (n > TEL_PCC_MAX_COUNTERS)
			n = TEL_PCC_MAX_COUNTERS;
		memcpy(vals, all, n * sizeof(*vals));
		*populated = n;
	}
	free(all);
	return rc;
}

const struct pcc_prov tdoca_pcc_prov = {
	.caps = pcc_caps,
	.algo_id = pcc_algo_id,
	.version = pcc_version,
	.enable_status = pcc_enable,
	.algo_info = pcc_info,
	.num_counters = pcc_num,
	.counter_info = pcc_counter_info,
	.counters = pcc_counters,
};

const struct diag_prov tdoca_diag_prov = {
	.log_max_samples = 255,	/* DOCA's device says at apply_config */
	.caps = diag_caps,
	.create = diag_create,
	.release = diag_destroy,	/* a DOCA context ends with its owner */
	.destroy = diag_destroy,
	.keep = diag_keep,
	.kept = diag_kept,
	.apply_config = diag_apply_config,
	.check_id = diag_check_id,
	.apply_ids = diag_apply_ids,
	.start = diag_start,
	.stop = diag_stop,
	.restart = diag_restart,
	.sample_size = diag_sample_size,
	.query = diag_query,
};

const struct retx_prov tdoca_retx_prov = {
	.caps = retx_caps,
	.create = retx_create,
	.destroy = retx_destroy,
	.state = retx_state,
	.peek = retx_peek,
	.keep_cfg = retx_keep_cfg,
	.start = retx_start,
	.stop = retx_stop,
	.detect = retx_detect,
	.read = retx_read,
};
