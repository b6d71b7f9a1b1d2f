/* retx.c - adaptive-retransmission histogram: the context over a provider
 * (struct retx_prov: the sim's file in src/sim/, DOCA's in doca_ctx.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tel/retx.h"
#include "tel/tel.h"

/* A provider and its state. */
struct retx_dev {
	const struct retx_prov *prov;
	void *pp;
};

int retx_dev_caps_of(struct retx_dev *d, uint32_t *max_bins, uint32_t *units)
{
	return d->prov->caps(d->pp, max_bins, units);
}

int retx_dev_open_prov(struct retx_dev **out, const struct retx_prov *ops,
		       void *p, int *tel)
{
	struct retx_dev *d = calloc(1, sizeof(*d));

	*tel = TEL_NO_MEMORY;
	if (!d)
		return -1;
	d->prov = ops;
	d->pp = p;
	*tel = ops->create(p);
	if (*tel) {
		free(d);
		return -1;
	}
	*out = d;
	return 0;
}

bool tel_retx_cfg_valid(const struct retx_cfg *c)
{
	return c->num_bins >= 1 && c->num_bins <= RETX_MAX_BINS &&
	       c->bin0 && c->bin1 && c->mode <= RETX_DOUBLE &&
	       (c->unit & RETX_UNITS) && !(c->unit & (c->unit - 1)) &&
	       c->vhca_set <= 1 && c->clear_on_read <= 1 &&
	       c->count_enable <= 1;
}

void tel_retx_cfg_default(struct retx_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->num_bins = 8;
	c->bin0 = 100;
	c->bin1 = 100;
	c->mode = RETX_DOUBLE;
	c->unit = RETX_USEC;
	c->count_enable = 1;
}

void retx_dev_close(struct retx_dev *d)
{
	if (!d)
		return;
	d->prov->destroy(d->pp);
	free(d);
}

uint64_t tel_retx_unit_ps(uint32_t unit)
{
	switch (unit) {
	case RETX_NSEC:
		return 1000ULL;
	case RETX_USEC:
		return 1000000ULL;
	case RETX_USEC_100:
		return 100000000ULL;
	default:
		return 1000000000ULL;
	}
}

void tel_retx_bin_range(const struct retx_cfg *c, uint32_t i, uint64_t *lo,
			uint64_t *hi)
{
	uint64_t start = 0, w = c->bin0;
	uint32_t k;

	for (k = 0; k < i; k++) {
		start += w;
		w = k == 0 ? c->bin1 : c->mode == RETX_DOUBLE ? w * 2 : w;
	}
	*lo = start;
	*hi = i + 1 >= c->num_bins ? UINT64_MAX : start + w - 1;
}

void retx_dev_peek(struct retx_dev *d, struct retx_cfg *cfg, bool *running,
		   uint64_t bins[RETX_MAX_BINS])
{
	d->prov->peek(d->pp, cfg, running, bins);
}

void retx_dev_state(struct retx_dev *d, struct retx_cfg *cfg, bool *running)
{
	d->prov->state(d->pp, cfg, running);
}

int retx_dev_keep_cfg(struct retx_dev *d, const struct retx_cfg *cfg)
{
	if (!tel_retx_cfg_valid(cfg))
		return TEL_INVALID_VALUE;
	return d->prov->keep_cfg(d->pp, cfg);
}

/* ---- the context -------------------------------------------------------- */

int tel_retx_create(struct tel_retx *t, struct retx_dev *dev, bool attach)
{
	bool running;

	if (!dev)
		return TEL_INVALID_VALUE;
	memset(t, 0, sizeof(*t));
	t->dev = dev;
	retx_dev_state(dev, &t->cfg, &running);
	t->state = attach && running ? RETX_RUNNING : RETX_IDLE;
	return TEL_OK;
}

int tel_retx_destroy(struct tel_retx *t)
{
	if (t->state != RETX_IDLE)
		return TEL_BAD_STATE;	/* must be stopped */
	t->dev = NULL;
	return TEL_OK;
}

int tel_retx_start(struct tel_retx *t)
{
	int rc;

	if (t->state == RETX_RUNNING)
		return TEL_BAD_STATE;
	if (!tel_retx_cfg_valid(&t->cfg))
		return TEL_INVALID_VALUE;
	rc = t->dev->prov->start(t->dev->pp, &t->cfg);
	if (!rc)
		t->state = RETX_RUNNING;
	return rc;
}

int tel_retx_stop(struct tel_retx *t)
{
	int rc;

	if (t->state != RETX_RUNNING)
		return TEL_BAD_STATE;
	rc = t->dev->prov->stop(t->dev->pp);
	if (!rc)
		t->state = RETX_IDLE;
	return rc;
}

/* Setters: only while stopped; values checked against the caps. */
static int set_prep(struct tel_retx *t)
{
	return t->state == RETX_IDLE ? TEL_OK : TEL_BAD_STATE;
}

int tel_retx_set_num_bins(struct tel_retx *t, uint32_t n)
{
	int rc = set_prep(t);

	if (rc)
		return rc;
	if (n == 0 || n > RETX_MAX_BINS)
		return TEL_INVALID_VALUE;
	t->cfg.num_bins = n;
	return TEL_OK;
}

int tel_retx_set_bin0_width(struct tel_retx *t, uint16_t w)
{
	int rc = set_prep(t);

	if (rc)
		return rc;
	if (!w)
		return TEL_INVALID_VALUE;
	t->cfg.bin0 = w;
	return TEL_OK;
}

int tel_retx_set_bin1_width(struct tel_retx *t, uint16_t w)
{
	int rc = set_prep(t);

	if (rc)
		return rc;
	if (!w)
		return TEL_INVALID_VALUE;
	t->cfg.bin1 = w;
	return TEL_OK;
}

int tel_retx_set_mode(struct tel_retx *t, uint32_t mode)
{
	int rc = set_prep(t);

	if (rc)
		return rc;
	if (mode > RETX_DOUBLE)
		return TEL_INVALID_VALUE;
	t->cfg.mode = mode;
	return TEL_OK;
}

int tel_retx_set_time_unit(struct tel_retx *t, uint32_t unit)
{
	int rc = set_prep(t);

	if (rc)
		return rc;
	if (!(unit & RETX_UNITS) || (unit & (unit - 1)))
		return TEL_INVALID_VALUE;
	t->cfg.unit = unit;
	return TEL_OK;
}

int tel_retx_set_vhca_id(struct tel_retx *t, uint16_t id)
{
	int rc = set_prep(t);

	if (rc)
		return rc;
	t->cfg.vhca_set = 1;
	t->cfg.vhca_id = id;
	return TEL_OK;
}

int tel_retx_unset_vhca_id(struct tel_retx *t)
{
	int rc = set_prep(t);

	if (rc)
		return rc;
	t->cfg.vhca_set = 0;
	t->cfg.vhca_id = 0;
	return TEL_OK;
}

int tel_retx_set_clear_on_read(struct tel_retx *t, uint8_t v)
{
	int rc = set_prep(t);

	if (rc)
		return rc;
	if (v > 1)
		return TEL_INVALID_VALUE;
	t->cfg.clear_on_read = v;
	return TEL_OK;
}

int tel_retx_set_count_enable(struct tel_retx *t, uint8_t v)
{
	int rc = set_prep(t);

	if (rc)
		return rc;
	if (v > 1)
		return TEL_INVALID_VALUE;
	t->cfg.count_enable = v;
	return TEL_OK;
}

int tel_retx_detect(struct tel_retx *t, uint8_t *changed)
{
	struct retx_cfg dev;
	int rc;

	*changed = 0;
	if (t->state != RETX_RUNNING)
		return TEL_OK;	/* this context loaded nothing yet */
	rc = t->dev->prov->detect(t->dev->pp, &t->cfg, changed, &dev);
	if (!rc && *changed)
		t->cfg = dev;	/* the getters now show the device's */
	return rc;
}

int tel_retx_read_bins(struct tel_retx *t, uint32_t *populated,
		       uint64_t bins[RETX_MAX_BINS])
{
	return t->dev->prov->read(t->dev->pp, t->state == RETX_RUNNING,
				  populated, bins);
}
