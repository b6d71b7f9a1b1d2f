/* diag.c - diagnostic counters: DOCA's diag state machine (create,
 * config, apply, start, query, stop, destroy) over a provider (struct
 * diag_prov: the sim's sampler in src/sim/, DOCA's in doca_ctx.c), and
 * the output formats; its file formats are diag_io.c, its data IDs
 * diag_ids.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tel/diag.h"
#include "tel/diag_ids.h"
#include "tel/tel.h"

/* A provider and its state. */
struct diag_dev {
	const struct diag_prov *prov;
	void *pp;
};

int diag_dev_open_prov(struct diag_dev **out, const struct diag_prov *ops,
		       void *p, struct pcb_err *err)
{
	struct diag_dev *d = calloc(1, sizeof(*d));

	if (!d)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	d->prov = ops;
	d->pp = p;
	*out = d;
	return 0;
}

int diag_dev_caps_of(struct diag_dev *d, struct diag_caps *c)
{
	return d->prov->caps(d->pp, c);
}

void tel_diag_cfg_default(struct diag_cfg *c)
{
	/* DOCA's telemetry_diag sample defaults */
	memset(c, 0, sizeof(*c));
	c->period_ns = 100000;
	c->log_samples = 10;
	c->max_ids = DIAG_MAX_IDS;
	c->mode = DIAG_REPETITIVE;
	c->format = 1;
	c->ts = DIAG_RTC;
}

void diag_dev_close(struct diag_dev *d)
{
	if (!d)
		return;
	d->prov->destroy(d->pp);
	free(d);
}

/* The DS_* source of an ID, or -1: not one the sim measures. */
int diag_dev_source(uint64_t id)
{
	struct diag_id x;

	if (diag_id_decode(id, &x))
		return -1;
	switch (x.def->type) {
	case 0x10200001: return x.port ? -1 : DS_RX_BYTES;
	case 0x10200003: return x.port ? -1 : DS_RX_PKTS;
	case 0x11400001: return x.port ? -1 : DS_TX_BYTES;
	case 0x11400003: return x.port ? -1 : DS_TX_PKTS;
	case 0x10200002: return x.port ? -1 : DS_RX_BYTES_P0 + (int)x.prio;
	case 0x10200004: return x.port ? -1 : DS_RX_PKTS_P0 + (int)x.prio;
	case 0x11400002: return x.port ? -1 : DS_TX_BYTES_P0 + (int)x.prio;
	case 0x11400004: return x.port ? -1 : DS_TX_PKTS_P0 + (int)x.prio;
	case 0x10200006: return x.port ? -1 : DS_PAUSE_RX_P0 + (int)x.prio;
	case 0x11400005: return x.port ? -1 : DS_PAUSE_TX_P0 + (int)x.prio;
	case 0x10800004: return x.port ? -1 : DS_ECN;
	case 0x10800005: return x.port ? -1 : DS_CNP_HANDLED;
	case 0x11000001: return x.port ? -1 : DS_CNP_SENT;
	case 0x11000002: return DS_DESCHED;
	case 0x10c00001: return DS_RX_CQE;
	case 0x10c00004: return DS_TX_CQE;
	default: return -1;
	}
}

int diag_dev_supported(uint64_t id)
{
	return diag_dev_source(id) < 0 ? TEL_NOT_SUPPORTED : TEL_OK;
}

int diag_dev_keep(struct diag_dev *d, const struct diag_cfg *cfg,
		  const uint64_t *ids, uint32_t nids, uint64_t actual_ns)
{
	return d->prov->keep(d->pp, cfg, ids, nids, actual_ns);
}

int diag_dev_kept(struct diag_dev *d, struct diag_cfg *cfg, uint64_t *ids,
		  uint32_t *nids)
{
	return d->prov->kept(d->pp, cfg, ids, nids);
}

/* ---- the context -------------------------------------------------------- */

int tel_diag_create(struct tel_diag *t, struct diag_dev *dev, bool force)
{
	int rc;

	if (!t || !dev)
		return TEL_INVALID_VALUE;
	memset(t, 0, sizeof(*t));
	tel_diag_cfg_default(&t->cfg);
	rc = dev->prov->create(dev->pp, force, t);
	if (!rc)
		t->dev = dev;
	return rc;
}

void tel_diag_release(struct tel_diag *t)
{
	if (!t->dev)
		return;
	t->dev->prov->release(t->dev->pp);
	t->dev = NULL;
}

int tel_diag_destroy(struct tel_diag *t)
{
	if (t->state != DIAG_IDLE)
		return TEL_BAD_STATE;
	tel_diag_release(t);
	return TEL_OK;
}

static int setter(struct tel_diag *t)
{
	return t->state == DIAG_IDLE ? TEL_OK : TEL_BAD_STATE;
}

int tel_diag_set_sample_period(struct tel_diag *t, uint64_t ns)
{
	int rc = setter(t);

	if (!rc && (!ns || ns > 60000000000ULL))
		rc = TEL_INVALID_VALUE;
	if (!rc)
		t->cfg.period_ns = ns;
	return rc;
}

int tel_diag_set_log_max_num_samples(struct tel_diag *t, uint32_t log)
{
	int rc = setter(t);

	/* the device may have a lower cap: it says at apply_config */
	if (!rc && log > (t->dev ? t->dev->prov->log_max_samples :
			  DIAG_LOG_MAX_SAMPLES))
		rc = TEL_NOT_SUPPORTED;
	if (!rc)
		t->cfg.log_samples = log;
	return rc;
}

int tel_diag_set_max_num_data_ids(struct tel_diag *t, uint32_t n)
{
	int rc = setter(t);

	if (!rc && !n)
		rc = TEL_INVALID_VALUE;
	if (!rc && n > DIAG_MAX_IDS)
		rc = TEL_NOT_SUPPORTED;
	if (!rc)
		t->cfg.max_ids = n;
	return rc;
}

int tel_diag_set_sample_mode(struct tel_diag *t, uint32_t mode)
{
	int rc = setter(t);

	if (!rc && mode > DIAG_ON_DEMAND)
		rc = TEL_INVALID_VALUE;
	if (!rc)
		t->cfg.mode = mode;
	return rc;
}

int tel_diag_set_output_format(struct tel_diag *t, uint32_t format)
{
	int rc = setter(t);

	if (!rc && format > 2)
		rc = TEL_INVALID_VALUE;
	if (!rc)
		t->cfg.format = format;
	return rc;
}

int tel_diag_set_sync_mode(struct tel_diag *t, uint32_t sync)
{
	int rc = setter(t);

	if (!rc && sync > 1)
		rc = TEL_INVALID_VALUE;
	if (!rc)
		t->cfg.sync = sync;
	return rc;
}

int tel_diag_set_data_clear(struct tel_diag *t, uint32_t clear)
{
	int rc = setter(t);

	if (!rc && clear > 1)
		rc = TEL_INVALID_VALUE;
	if (!rc)
		t->cfg.clear = clear;
	return rc;
}

int tel_diag_set_timestamp_source(struct tel_diag *t, uint32_t ts)
{
	int rc = setter(t);

	if (!rc && ts > DIAG_RTC)
		rc = TEL_INVALID_VALUE;
	if (!rc)
		t->cfg.ts = ts;
	return rc;
}

int tel_diag_apply_config(struct tel_diag *t)
{
	if (t->state != DIAG_IDLE)
		return TEL_BAD_STATE;
	/* data_clear: only with sync start, in single or repetitive mode */
	if (t->cfg.clear && (!t->cfg.sync || t->cfg.mode == DIAG_ON_DEMAND))
		return TEL_INVALID_VALUE;
	if (t->dev) {
		int rc = t->dev->prov->apply_config(t->dev->pp, &t->cfg);

		if (rc)
			return rc;
	}
	t->nids = 0;
	t->actual_ns = 0;
	t->state = DIAG_CONFIGURED;
	return TEL_OK;
}

int tel_diag_check_data_id(struct tel_diag *t, uint64_t id)
{
	if (t->state != DIAG_CONFIGURED || !t->dev)
		return TEL_BAD_STATE;
	return t->dev->prov->check_id(t->dev->pp, &t->cfg, id);
}

int tel_diag_apply_data_ids(struct tel_diag *t, const uint64_t *ids,
			    uint32_t n, uint64_t *failed)
{
	uint32_t i, k;
	uint64_t per;
	int rc;

	*failed = 0;
	if (t->state != DIAG_CONFIGURED)
		return TEL_BAD_STATE;
	if (!ids || !n)
		return TEL_INVALID_VALUE;
	for (i = 0; i < n; i++) {
		rc = tel_diag_check_data_id(t, ids[i]);
		for (k = 0; !rc && k < i; k++)
			if (ids[k] == ids[i])
				rc = TEL_INVALID_VALUE;	/* duplicate */
		if (!rc && i >= t->cfg.max_ids)
			rc = TEL_FULL;
		if (rc) {
			*failed = ids[i];
			return rc;
		}
	}
	rc = t->dev->prov->apply_ids(t->dev->pp, &t->cfg, ids, n, failed,
				     &per);
	if (rc)
		return rc;
	memcpy(t->ids, ids, n * sizeof(*ids));
	t->nids = n;
	t->actual_ns = per;
	t->state = DIAG_READY;
	return TEL_OK;
}

uint64_t tel_diag_sample_period(const struct tel_diag *t)
{
	return t->actual_ns ? t->actual_ns : t->cfg.period_ns;
}

int tel_diag_sample_size(const struct tel_diag *t, uint32_t *size)
{
	if (t->state != DIAG_RUNNING)
		return TEL_NOT_SUPPORTED;
	return t->dev->prov->sample_size(t->dev->pp, t, size);
}

int tel_diag_start(struct tel_diag *t)
{
	int rc;

	if (t->state != DIAG_READY)
		return TEL_BAD_STATE;
	rc = t->dev->prov->start(t->dev->pp, t);
	if (!rc) {
		t->state = DIAG_RUNNING;
		t->lost = 0;
	}
	return rc;
}

int tel_diag_stop(struct tel_diag *t)
{
	int rc;

	if (t->state == DIAG_IDLE)
		return TEL_BAD_STATE;
	rc = t->dev->prov->stop(t->dev->pp, t);
	if (!rc)
		t->state = DIAG_IDLE;
	return rc;
}

int tel_diag_restart(struct tel_diag *t)
{
	if (t->state != DIAG_RUNNING)
		return TEL_BAD_STATE;
	if (t->cfg.mode != DIAG_SINGLE)
		return TEL_NOT_SUPPORTED;
	return t->dev->prov->restart(t->dev->pp);
}

/* Timestamp words: FRC = ns as a 64-bit count; RTC = seconds, ns. */
static void ts_words(uint32_t src, int64_t ns, uint32_t *hi, uint32_t *lo)
{
	uint64_t v = (uint64_t)ns;

	if (src == DIAG_RTC) {
		*hi = (uint32_t)(v / 1000000000ULL);
		*lo = (uint32_t)(v % 1000000000ULL);
	} else {
		*hi = (uint32_t)(v >> 32);
		*lo = (uint32_t)v;
	}
}

static uint64_t ts_ns(uint32_t src, uint32_t hi, uint32_t lo)
{
	return src == DIAG_RTC ? (uint64_t)hi * 1000000000ULL + lo :
				 (uint64_t)hi << 32 | lo;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

uint32_t tel_diag_format_size(const struct tel_diag *t)
{
	return t->cfg.format == 0 ? 8 + 24 * t->nids :
	       t->cfg.format == 1 ? 16 + 8 * t->nids : 16 + 4 * t->nids;
}

/* One sample in the output format, host byte order as DOCA's structs. */
void tel_diag_encode(const struct tel_diag *t, uint64_t id, int64_t ts_ns,
		     const uint64_t *values, uint8_t *p)
{
	uint32_t hi, lo, i;

	ts_words(t->cfg.ts, ts_ns, &hi, &lo);
	put32(p, (uint32_t)id);
	if (t->cfg.format == 0) {
		put32(p + 4, 0);
		for (i = 0; i < t->nids; i++) {
			uint8_t *v = p + 8 + 24 * i;

			put64(v, t->ids[i]);
			put32(v + 8, hi);
			put32(v + 12, lo);
			put64(v + 16, values[i]);
		}
		return;
	}
	/* all IDs are read at one instant: earliest = latest */
	put32(p + 4, hi);
	put32(p + 8, lo);
	put32(p + 12, lo);
	for (i = 0; i < t->nids; i++) {
		if (t->cfg.format == 1)
			put64(p + 16 + 8 * i, values[i]);
		else
			put32(p + 16 + 4 * i, (uint32_t)values[i]);
	}
}

void tel_diag_decode(const struct tel_diag *t, const void *sample,
		     struct diag_sample *s)
{
	const uint8_t *p = sample;
	uint32_t i, hi, lo, lat;

	memset(s, 0, sizeof(*s));
	s->id = diag_get32(p);
	if (t->cfg.format == 0) {
		for (i = 0; i < t->nids; i++) {
			const uint8_t *v = p + 8 + 24 * i;
			uint64_t ns = ts_ns(t->cfg.ts, diag_get32(v + 8),
					    diag_get32(v + 12));

			if (!i || ns < s->start_ns)
				s->start_ns = ns;
			if (ns > s->end_ns)
				s->end_ns = ns;
			s->values[i] = diag_get64(v + 16);
		}
		return;
	}
	hi = diag_get32(p + 4);
	lo = diag_get32(p + 8);
	lat = diag_get32(p + 12);
	s->start_ns = ts_ns(t->cfg.ts, hi, lo);
	/* latest has only the low word: its high word is earliest's, plus
	 * one when the low word wrapped */
	s->end_ns = ts_ns(t->cfg.ts, hi + (lat < lo), lat);
	for (i = 0; i < t->nids; i++)
		s->values[i] = t->cfg.format == 1 ?
			       diag_get64(p + 16 + 8 * i) :
			       diag_get32(p + 16 + 4 * i);
}

int tel_diag_query(struct tel_diag *t, void *buf, uint32_t max,
		   uint32_t *got)
{
	uint32_t size;
	int rc;

	*got = 0;
	if (t->state != DIAG_RUNNING)
		return TEL_BAD_STATE;
	if (!buf || !max)
		return TEL_INVALID_VALUE;
	rc = tel_diag_sample_size(t, &size);
	if (rc)
		return rc;
	return t->dev->prov->query(t->dev->pp, t, buf, max, size, got,
				   &t->lost);
}
