/* retx.c - adaptive-retransmission histogram: device file and context. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "fsafe.h"
#include "paths.h"
#include "tel/retx.h"
#include "tel/tel.h"

#define RETX_MAGIC "PCCBRTX"
#define RETX_UNITS (RETX_NSEC | RETX_USEC | RETX_USEC_100 | RETX_MSEC)

struct retx_file {
	char magic[8];
	uint32_t version, size;
	struct retx_cfg cfg;
	uint32_t running;
	uint32_t crc;		/* of the whole file with crc = 0 */
	uint64_t bins[RETX_MAX_BINS];
};
#define RETX_VERSION 2	/* 2: crc */

/* The sim's file (fd), or a provider (prov, fd -1) and its state, the
 * configuration kept until start, whether it runs, the last bins read.
 */
struct retx_dev {
	int fd;
	const struct retx_prov *prov;
	void *pp;
	struct retx_cfg cfg;
	bool running;
	uint64_t last[RETX_MAX_BINS];
};

static void cfg_default(struct retx_cfg *c);

void retx_dev_caps(uint32_t *max_bins, uint32_t *units)
{
	*max_bins = RETX_MAX_BINS;
	*units = RETX_UNITS;
}

int retx_dev_caps_of(struct retx_dev *d, uint32_t *max_bins, uint32_t *units)
{
	if (d && d->prov)
		return d->prov->caps(d->pp, max_bins, units);
	retx_dev_caps(max_bins, units);
	return TEL_OK;
}

int retx_dev_open_prov(struct retx_dev **out, const struct retx_prov *ops,
		       void *p, int *tel)
{
	struct retx_dev *d = calloc(1, sizeof(*d));

	*tel = TEL_NO_MEMORY;
	if (!d)
		return -1;
	d->fd = -1;
	d->prov = ops;
	d->pp = p;
	*tel = ops->create(p);
	if (*tel) {
		free(d);
		return -1;
	}
	cfg_default(&d->cfg);
	*out = d;
	return 0;
}

static bool cfg_valid(const struct retx_cfg *c)
{
	return c->num_bins >= 1 && c->num_bins <= RETX_MAX_BINS &&
	       c->bin0 && c->bin1 && c->mode <= RETX_DOUBLE &&
	       (c->unit & RETX_UNITS) && !(c->unit & (c->unit - 1)) &&
	       c->vhca_set <= 1 && c->clear_on_read <= 1 &&
	       c->count_enable <= 1;
}

static void cfg_default(struct retx_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->num_bins = 8;
	c->bin0 = 100;
	c->bin1 = 100;
	c->mode = RETX_DOUBLE;
	c->unit = RETX_USEC;
	c->count_enable = 1;
}

static uint32_t file_crc(const struct retx_file *f)
{
	struct retx_file c = *f;

	c.crc = 0;
	return pcb_crc32(0, &c, sizeof(c));
}

static int load(struct retx_dev *d, struct retx_file *f)
{
	if (pread(d->fd, f, sizeof(*f), 0) != (ssize_t)sizeof(*f) ||
	    memcmp(f->magic, RETX_MAGIC, sizeof(RETX_MAGIC)) ||
	    f->version != RETX_VERSION || f->size != sizeof(*f) ||
	    !cfg_valid(&f->cfg) || f->running > 1 || f->crc != file_crc(f))
		return -1;
	return 0;
}

static int store(struct retx_dev *d, struct retx_file *f)
{
	f->crc = file_crc(f);
	return pwrite(d->fd, f, sizeof(*f), 0) == (ssize_t)sizeof(*f) ? 0 : -1;
}

int retx_dev_open(struct retx_dev **out, const char *sim_name,
		  struct pcb_err *err)
{
	char path[PCB_PATH_LEN];
	struct retx_dev *d;
	struct retx_file f;
	bool fresh;
	int fd, rc = tel_sim_file_open(sim_name, "retx", path, sizeof(path),
				       &fd, &fresh, err);

	if (rc)
		return rc;
	d = calloc(1, sizeof(*d));
	if (!d) {
		close(fd);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	d->fd = fd;
	if (fresh) {
		memset(&f, 0, sizeof(f));
		memcpy(f.magic, RETX_MAGIC, sizeof(RETX_MAGIC));
		f.version = RETX_VERSION;
		f.size = sizeof(f);
		cfg_default(&f.cfg);
		if (store(d, &f))
			rc = pcb_error(err, PCB_E_IO, "cannot write '%s'", path);
	} else if (load(d, &f)) {
		rc = pcb_error(err, PCB_E_CORRUPT,
			       "'%s' is not a valid retransmission histogram "
			       "file; remove it to start afresh", path);
	}
	flock(d->fd, LOCK_UN);
	if (rc) {
		retx_dev_close(d);
		return rc;
	}
	*out = d;
	return 0;
}

void retx_dev_close(struct retx_dev *d)
{
	if (!d)
		return;
	if (d->prov)
		d->prov->destroy(d->pp);
	else
		close(d->fd);
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

void retx_dev_record(struct retx_dev *d, const int64_t *ps, size_t n)
{
	struct retx_file f;
	uint64_t v, lo, hi;
	uint32_t i;
	size_t k;

	if (!n)
		return;
	flock(d->fd, LOCK_EX);
	if (!load(d, &f) && f.running && f.cfg.count_enable &&
	    (!f.cfg.vhca_set || f.cfg.vhca_id == 0)) {	/* the sim: vhca 0 */
		for (k = 0; k < n; k++) {
			v = (uint64_t)(ps[k] < 0 ? 0 : ps[k]) /
			    tel_retx_unit_ps(f.cfg.unit);
			for (i = 0; i < f.cfg.num_bins; i++) {
				tel_retx_bin_range(&f.cfg, i, &lo, &hi);
				if (v >= lo && v <= hi) {
					f.bins[i]++;
					break;
				}
			}
		}
		store(d, &f);
	}
	flock(d->fd, LOCK_UN);
}

void retx_dev_peek(struct retx_dev *d, struct retx_cfg *cfg, bool *running,
		   uint64_t bins[RETX_MAX_BINS])
{
	struct retx_file f;
	uint32_t n;

	if (d->prov) {	/* a read: the bins the provider has now */
		*cfg = d->cfg;
		*running = d->running;
		if (d->running && !d->cfg.clear_on_read &&
		    !d->prov->read(d->pp, &n, f.bins))
			memcpy(d->last, f.bins, sizeof(d->last));
		memcpy(bins, d->last, sizeof(d->last));
		return;
	}
	flock(d->fd, LOCK_SH);
	if (load(d, &f)) {
		memset(&f, 0, sizeof(f));
		cfg_default(&f.cfg);
	}
	flock(d->fd, LOCK_UN);
	*cfg = f.cfg;
	*running = f.running;
	memcpy(bins, f.bins, sizeof(f.bins));
}

void retx_dev_state(struct retx_dev *d, struct retx_cfg *cfg, bool *running)
{
	struct retx_file f;

	if (d->prov) {
		*cfg = d->cfg;
		*running = d->running;
		return;
	}
	flock(d->fd, LOCK_SH);
	if (load(d, &f)) {
		cfg_default(&f.cfg);
		f.running = 0;
	}
	flock(d->fd, LOCK_UN);
	*cfg = f.cfg;
	*running = f.running;
}

int retx_dev_keep_cfg(struct retx_dev *d, const struct retx_cfg *cfg)
{
	struct retx_file f;
	int rc = TEL_OK;

	if (!cfg_valid(cfg))
		return TEL_INVALID_VALUE;
	if (d->prov) {	/* the provider takes it at start */
		if (d->running)
			return TEL_BAD_STATE;
		d->cfg = *cfg;
		return TEL_OK;
	}
	flock(d->fd, LOCK_EX);
	if (load(d, &f))
		rc = TEL_DRIVER;
	else if (f.running)
		rc = TEL_BAD_STATE;
	else {
		f.cfg = *cfg;
		if (store(d, &f))
			rc = TEL_DRIVER;
	}
	flock(d->fd, LOCK_UN);
	return rc;
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
	struct retx_file f;
	int rc = TEL_OK;

	if (t->state == RETX_RUNNING)
		return TEL_BAD_STATE;
	if (!cfg_valid(&t->cfg))
		return TEL_INVALID_VALUE;
	if (t->dev->prov) {
		rc = t->dev->prov->start(t->dev->pp, &t->cfg);
		if (!rc) {
			t->state = RETX_RUNNING;
			t->dev->cfg = t->cfg;
			t->dev->running = true;
			memset(t->dev->last, 0, sizeof(t->dev->last));
		}
		return rc;
	}
	flock(t->dev->fd, LOCK_EX);
	if (load(t->dev, &f)) {
		rc = TEL_DRIVER;
	} else {
		f.cfg = t->cfg;
		memset(f.bins, 0, sizeof(f.bins));
		/* count_enable 0: start does not start recording */
		f.running = t->cfg.count_enable;
		if (store(t->dev, &f))
			rc = TEL_DRIVER;
	}
	flock(t->dev->fd, LOCK_UN);
	if (!rc)
		t->state = RETX_RUNNING;
	return rc;
}

int tel_retx_stop(struct tel_retx *t)
{
	struct retx_file f;
	int rc = TEL_OK;

	if (t->state != RETX_RUNNING)
		return TEL_BAD_STATE;
	if (t->dev->prov) {
		rc = t->dev->prov->stop(t->dev->pp);
		if (!rc) {
			t->state = RETX_IDLE;
			t->dev->running = false;
		}
		return rc;
	}
	flock(t->dev->fd, LOCK_EX);
	if (load(t->dev, &f)) {
		rc = TEL_DRIVER;
	} else {
		f.running = 0;
		if (store(t->dev, &f))
			rc = TEL_DRIVER;
	}
	flock(t->dev->fd, LOCK_UN);
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
	bool running;

	*changed = 0;
	if (t->state != RETX_RUNNING)
		return TEL_OK;	/* this context loaded nothing yet */
	if (t->dev->prov) {
		int rc = t->dev->prov->detect(t->dev->pp, changed, &dev);

		if (!rc && *changed)
			t->cfg = t->dev->cfg = dev;
		return rc;
	}
	retx_dev_state(t->dev, &dev, &running);
	*changed = memcmp(&dev, &t->cfg, sizeof(dev)) != 0;
	if (*changed)
		t->cfg = dev;	/* the getters now show the device's */
	return TEL_OK;
}

int tel_retx_read_bins(struct tel_retx *t, uint32_t *populated,
		       uint64_t bins[RETX_MAX_BINS])
{
	struct retx_file f;
	int rc = TEL_OK;

	if (t->dev->prov) {
		if (t->state != RETX_RUNNING)
			return TEL_BAD_STATE;
		rc = t->dev->prov->read(t->dev->pp, populated, bins);
		if (!rc)
			memcpy(t->dev->last, bins, sizeof(t->dev->last));
		return rc;
	}
	flock(t->dev->fd, LOCK_EX);
	if (load(t->dev, &f)) {
		rc = TEL_DRIVER;
	} else {
		memcpy(bins, f.bins, sizeof(f.bins));
		*populated = f.cfg.num_bins;
		if (f.cfg.clear_on_read) {
			memset(f.bins, 0, sizeof(f.bins));
			if (store(t->dev, &f))
				rc = TEL_DRIVER;
		}
	}
	flock(t->dev->fd, LOCK_UN);
	return rc;
}
