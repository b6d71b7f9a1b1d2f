/* diag.c - diagnostic counters: the sim device's sampler and a context.
 *
 * About 900 lines, on purpose: DOCA's diag state machine (create, config,
 * apply, start, query, stop, destroy) in one place, with the sim's
 * sampler and the provider table (struct diag_prov) a DOCA device fills
 * instead; its file formats are diag_io.c, its data IDs diag_ids.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "fsafe.h"
#include "paths.h"
#include "tel/diag.h"
#include "tel/diag_ids.h"
#include "tel/tel.h"

#define DIAG_MAGIC "PCCBDIA"

struct diag_hdr {
	char magic[8];
	uint32_t version, size;
	int32_t owner;			/* pid, 0: none */
	uint32_t running;
	struct diag_cfg cfg;
	uint64_t actual_ns;
	uint32_t nids, cap;		/* ring: 2^log_samples records */
	uint64_t ids[DIAG_MAX_IDS];
	uint64_t next;			/* sample id of the next sample */
	uint64_t read_next;		/* the owner's next unread id */
	uint64_t cycle_first;		/* SINGLE: first id of the cycle */
	int64_t now_ns, due_ns;		/* device time, next sample */
	uint64_t counters[DS_COUNT];	/* cumulative */
	uint64_t base[DS_COUNT];	/* at the period start (data_clear) */
	uint32_t crc;			/* of the header with crc = 0 */
	uint32_t staged;		/* stopped: cfg (1), and ids (2) kept */
};
#define DIAG_VERSION 2	/* 2: crc */
/* Bounds no device reaches, so no sum of them overflows: a sample period
 * of at most 2^40 ns (18 minutes), a device clock of at most 2^53 ns (104
 * days of simulated time).
 */
#define DIAG_MAX_PERIOD_NS (1ULL << 40)
#define DIAG_MAX_NOW_NS (1LL << 53)

struct diag_rec {
	uint64_t id;
	int64_t ts_ns;
	uint64_t values[DIAG_MAX_IDS];
};

/* The sim's file (fd), or a provider (prov, fd -1) and its state. */
struct diag_dev {
	int fd;
	const struct diag_prov *prov;
	void *pp;
};

int diag_dev_open_prov(struct diag_dev **out, const struct diag_prov *ops,
		       void *p, struct pcb_err *err)
{
	struct diag_dev *d = calloc(1, sizeof(*d));

	if (!d)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	d->fd = -1;
	d->prov = ops;
	d->pp = p;
	*out = d;
	return 0;
}

int diag_dev_caps_of(struct diag_dev *d, struct diag_caps *c)
{
	if (d && d->prov)
		return d->prov->caps(d->pp, c);
	diag_dev_caps(c);
	return TEL_OK;
}

void diag_dev_caps(struct diag_caps *c)
{
	memset(c, 0, sizeof(*c));
	c->max_ids = DIAG_MAX_IDS;
	c->log_max_samples = DIAG_LOG_MAX_SAMPLES;
	c->data_clear = true;
	c->sync_start = true;
	c->modes[0] = c->modes[1] = c->modes[2] = true;
	c->ts[DIAG_FRC] = c->ts[DIAG_RTC] = true;
}

static void cfg_default(struct diag_cfg *c)
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

static bool cfg_valid(const struct diag_cfg *c)
{
	return c->period_ns >= 1 && c->period_ns <= DIAG_MAX_PERIOD_NS && c->log_samples <= DIAG_LOG_MAX_SAMPLES &&
	       c->max_ids >= 1 && c->max_ids <= DIAG_MAX_IDS &&
	       c->mode <= DIAG_ON_DEMAND && c->format <= 2 && c->sync <= 1 &&
	       c->clear <= 1 && c->ts <= DIAG_RTC;
}

static uint32_t hdr_crc(const struct diag_hdr *h)
{
	struct diag_hdr c = *h;

	c.crc = 0;
	return pcb_crc32(0, &c, sizeof(c));
}

/* The header, checked: a sample period the device could have chosen
 * (whole microseconds, at least the requested one), a ring that fits,
 * ids and times in order, and its checksum.
 */
static int load(struct diag_dev *d, struct diag_hdr *h)
{
	uint32_t i;

	if (pread(d->fd, h, sizeof(*h), 0) != (ssize_t)sizeof(*h) ||
	    memcmp(h->magic, DIAG_MAGIC, sizeof(DIAG_MAGIC)) ||
	    h->version != DIAG_VERSION || h->size != sizeof(*h) ||
	    h->crc != hdr_crc(h) || !cfg_valid(&h->cfg) ||
	    h->running > 1 || h->nids > DIAG_MAX_IDS ||
	    h->cap != 1u << h->cfg.log_samples || h->read_next > h->next ||
	    h->cycle_first > h->next || h->now_ns < 0 || h->staged > 2 ||
	    (h->running && !h->actual_ns) ||
	    (h->actual_ns && (h->actual_ns % 1000 ||
			      h->actual_ns < h->cfg.period_ns ||
			      h->actual_ns > DIAG_MAX_PERIOD_NS)) ||
	    h->now_ns > DIAG_MAX_NOW_NS || h->due_ns < 0 ||
	    (h->running && h->due_ns > h->now_ns + (int64_t)h->actual_ns))
		return -1;
	for (i = 0; i < h->nids; i++)
		if (diag_dev_supported(h->ids[i]))
			return -1;
	return 0;
}

static int store(struct diag_dev *d, struct diag_hdr *h)
{
	h->crc = hdr_crc(h);
	return pwrite(d->fd, h, sizeof(*h), 0) == (ssize_t)sizeof(*h) ? 0 : -1;
}

static off_t rec_off(const struct diag_hdr *h, uint64_t id)
{
	return (off_t)(sizeof(*h) + (id % h->cap) * sizeof(struct diag_rec));
}

int diag_dev_open(struct diag_dev **out, const char *sim_name,
		  struct pcb_err *err)
{
	char path[PCB_PATH_LEN];
	struct diag_dev *d;
	struct diag_hdr h;
	bool fresh;
	int fd, rc = tel_sim_file_open(sim_name, "diag", path, sizeof(path),
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
		memset(&h, 0, sizeof(h));
		memcpy(h.magic, DIAG_MAGIC, sizeof(DIAG_MAGIC));
		h.version = DIAG_VERSION;
		h.size = sizeof(h);
		cfg_default(&h.cfg);
		h.cap = 1u << h.cfg.log_samples;
		if (store(d, &h))
			rc = pcb_error(err, PCB_E_IO, "cannot write '%s'", path);
	} else if (load(d, &h)) {
		rc = pcb_error(err, PCB_E_CORRUPT, "'%s' is not a valid "
			       "diagnostic-counter file; remove it to start "
			       "afresh", path);
	}
	flock(d->fd, LOCK_UN);
	if (rc) {
		diag_dev_close(d);
		return rc;
	}
	*out = d;
	return 0;
}

void diag_dev_close(struct diag_dev *d)
{
	if (!d)
		return;
	if (d->prov)
		d->prov->destroy(d->pp);
	else
		close(d->fd);
	free(d);
}

/* The source of an ID on the sim device, or -1: not measured. */
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

/* Take one sample at the device's now (file locked, header loaded). */
static int take_sample(struct diag_dev *d, struct diag_hdr *h)
{
	struct diag_rec r;
	uint32_t i;

	memset(&r, 0, sizeof(r));
	r.id = h->next;
	r.ts_ns = h->now_ns;
	for (i = 0; i < h->nids; i++) {
		int src = diag_dev_source(h->ids[i]);

		r.values[i] = h->counters[src] -
			      (h->cfg.clear ? h->base[src] : 0);
	}
	memcpy(h->base, h->counters, sizeof(h->base));
	if (pwrite(d->fd, &r, sizeof(r), rec_off(h, r.id)) !=
	    (ssize_t)sizeof(r))
		return -1;
	h->next++;
	return 0;
}

static bool cycle_done(const struct diag_hdr *h)
{
	return h->cfg.mode == DIAG_SINGLE && h->next - h->cycle_first >= h->cap;
}

static int64_t until_due(const struct diag_hdr *h)
{
	if (!h->running || h->cfg.mode == DIAG_ON_DEMAND || cycle_done(h))
		return -1;
	return h->due_ns > h->now_ns ? h->due_ns - h->now_ns : 0;
}

int64_t diag_dev_feed(struct diag_dev *d, int64_t dt_ns,
		      const uint64_t delta[DS_COUNT])
{
	struct diag_hdr h;
	int64_t r = -1;
	size_t i;

	flock(d->fd, LOCK_EX);
	if (!load(d, &h)) {
		h.now_ns += dt_ns;
		for (i = 0; i < DS_COUNT; i++)
			h.counters[i] += delta[i];
		if (until_due(&h) == 0) {
			take_sample(d, &h);
			h.due_ns += (int64_t)h.actual_ns;
			if (h.due_ns <= h.now_ns)
				h.due_ns = h.now_ns + (int64_t)h.actual_ns;
		}
		store(d, &h);
		r = until_due(&h);
	}
	flock(d->fd, LOCK_UN);
	return r;
}

int64_t diag_dev_until_due(struct diag_dev *d)
{
	struct diag_hdr h;
	int64_t r = -1;

	flock(d->fd, LOCK_SH);
	if (!load(d, &h))
		r = until_due(&h);
	flock(d->fd, LOCK_UN);
	return r;
}

/* ---- the context -------------------------------------------------------- */

static bool alive(int32_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

int diag_dev_keep(struct diag_dev *d, const struct diag_cfg *cfg,
		  const uint64_t *ids, uint32_t nids, uint64_t actual_ns)
{
	struct diag_hdr h;
	int rc = TEL_OK;

	if (d->prov)	/* a provider's context ends with its process */
		return TEL_OK;
	if (!cfg_valid(cfg) || nids > DIAG_MAX_IDS)
		return TEL_INVALID_VALUE;
	flock(d->fd, LOCK_EX);
	if (load(d, &h)) {
		rc = TEL_DRIVER;
	} else if (h.running) {
		rc = TEL_BAD_STATE;
	} else {
		h.cfg = *cfg;
		h.cap = 1u << cfg->log_samples;
		h.nids = nids;
		memset(h.ids, 0, sizeof(h.ids));
		if (nids)
			memcpy(h.ids, ids, nids * sizeof(*ids));
		h.actual_ns = nids ? actual_ns : 0;
		h.next = h.read_next = h.cycle_first = 0;
		h.staged = nids ? 2 : 1;
		if (store(d, &h))
			rc = TEL_DRIVER;
	}
	flock(d->fd, LOCK_UN);
	return rc;
}

int diag_dev_kept(struct diag_dev *d, struct diag_cfg *cfg, uint64_t *ids,
		  uint32_t *nids)
{
	struct diag_hdr h;
	int staged = 0;

	if (d->prov)
		return 0;
	flock(d->fd, LOCK_SH);
	if (!load(d, &h) && !h.running) {
		staged = (int)h.staged;
		*cfg = h.cfg;
		*nids = staged == 2 ? h.nids : 0;
		memcpy(ids, h.ids, sizeof(h.ids));
	}
	flock(d->fd, LOCK_UN);
	return staged;
}

int tel_diag_create(struct tel_diag *t, struct diag_dev *dev, bool force)
{
	struct diag_hdr h;
	int rc = TEL_OK;

	if (!t || !dev)
		return TEL_INVALID_VALUE;
	memset(t, 0, sizeof(*t));
	cfg_default(&t->cfg);
	if (dev->prov) {
		rc = dev->prov->create(dev->pp, force);
		if (!rc)
			t->dev = dev;
		return rc;
	}
	flock(dev->fd, LOCK_EX);
	if (load(dev, &h)) {
		rc = TEL_DRIVER;
	} else if (alive(h.owner) && !force) {
		rc = TEL_IN_USE;
	} else {
		h.owner = (int32_t)getpid();
		if (store(dev, &h))
			rc = TEL_DRIVER;
	}
	flock(dev->fd, LOCK_UN);
	if (rc)
		return rc;
	t->dev = dev;
	if (h.running) {	/* adopt what the device runs */
		t->cfg = h.cfg;
		t->nids = h.nids;
		memcpy(t->ids, h.ids, sizeof(t->ids));
		t->actual_ns = h.actual_ns;
		t->state = DIAG_RUNNING;
	}
	return TEL_OK;
}

void tel_diag_release(struct tel_diag *t)
{
	struct diag_hdr h;

	if (!t->dev)
		return;
	if (t->dev->prov) {
		t->dev->prov->destroy(t->dev->pp);
		t->dev = NULL;
		return;
	}
	flock(t->dev->fd, LOCK_EX);
	if (!load(t->dev, &h) && h.owner == (int32_t)getpid()) {
		h.owner = 0;
		store(t->dev, &h);
	}
	flock(t->dev->fd, LOCK_UN);
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

	/* a provider's device has its own cap: it says at apply_config */
	if (!rc && log > (t->dev && t->dev->prov ? 255u : DIAG_LOG_MAX_SAMPLES))
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
	if (t->dev && t->dev->prov) {
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
	struct diag_id x;

	if (t->state != DIAG_CONFIGURED)
		return TEL_BAD_STATE;
	if (t->dev && t->dev->prov)
		return t->dev->prov->check_id(t->dev->pp, id);
	if (diag_id_decode(id, &x) || diag_dev_supported(id))
		return TEL_NOT_SUPPORTED;
	if (t->cfg.sync && !x.def->sync)
		return TEL_BAD_CONFIG;
	return TEL_OK;
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
	if (t->dev && t->dev->prov) {
		rc = t->dev->prov->apply_ids(t->dev->pp, ids, n, failed, &per);
		if (rc)
			return rc;
		memcpy(t->ids, ids, n * sizeof(*ids));
		t->nids = n;
		t->actual_ns = per;
		t->state = DIAG_READY;
		return TEL_OK;
	}
	memcpy(t->ids, ids, n * sizeof(*ids));
	t->nids = n;
	/* the sim's period: whole microseconds, >= 1 us per 16 IDs */
	per = (t->cfg.period_ns + 999) / 1000 * 1000;
	if (per < 1000ULL * ((n + 15) / 16))
		per = 1000ULL * ((n + 15) / 16);
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
	if (t->dev && t->dev->prov)
		return t->dev->prov->sample_size(t->dev->pp, size);
	*size = t->cfg.format == 0 ? 8 + 24 * t->nids :
		t->cfg.format == 1 ? 16 + 8 * t->nids : 16 + 4 * t->nids;
	return TEL_OK;
}

/* Owned by this process?  A forced takeover makes the old owner's
 * operations fail with IN_USE from then on.
 */
static int locked_hdr(struct tel_diag *t, struct diag_hdr *h)
{
	flock(t->dev->fd, LOCK_EX);
	if (load(t->dev, h)) {
		flock(t->dev->fd, LOCK_UN);
		return TEL_DRIVER;
	}
	if (h->owner != (int32_t)getpid()) {
		flock(t->dev->fd, LOCK_UN);
		return TEL_IN_USE;
	}
	return TEL_OK;
}

static int unlock_store(struct tel_diag *t, struct diag_hdr *h, int rc)
{
	if (!rc && store(t->dev, h))
		rc = TEL_DRIVER;
	flock(t->dev->fd, LOCK_UN);
	return rc;
}

int tel_diag_start(struct tel_diag *t)
{
	struct diag_hdr h;
	int rc;

	if (t->state != DIAG_READY)
		return TEL_BAD_STATE;
	if (t->dev->prov) {
		rc = t->dev->prov->start(t->dev->pp);
		if (!rc) {
			t->state = DIAG_RUNNING;
			t->lost = 0;
		}
		return rc;
	}
	rc = locked_hdr(t, &h);
	if (rc)
		return rc;
	h.cfg = t->cfg;
	h.cap = 1u << t->cfg.log_samples;
	h.nids = t->nids;
	memset(h.ids, 0, sizeof(h.ids));
	memcpy(h.ids, t->ids, t->nids * sizeof(*t->ids));
	h.actual_ns = t->actual_ns;
	h.next = h.read_next = h.cycle_first = 0;
	h.due_ns = h.now_ns + (int64_t)t->actual_ns;
	memcpy(h.base, h.counters, sizeof(h.base));
	h.running = 1;
	h.staged = 2;	/* after a stop, the next process starts the same */
	rc = unlock_store(t, &h, TEL_OK);
	if (!rc) {
		t->state = DIAG_RUNNING;
		t->lost = 0;
	}
	return rc;
}

int tel_diag_stop(struct tel_diag *t)
{
	struct diag_hdr h;
	int rc;

	if (t->state == DIAG_IDLE)
		return TEL_BAD_STATE;
	if (t->dev && t->dev->prov) {
		rc = t->dev->prov->stop(t->dev->pp);
		if (!rc)
			t->state = DIAG_IDLE;
		return rc;
	}
	if (t->state == DIAG_RUNNING) {
		rc = locked_hdr(t, &h);
		if (rc == TEL_OK) {
			h.running = 0;
			rc = unlock_store(t, &h, TEL_OK);
		}
		if (rc && rc != TEL_IN_USE)
			return rc;
	}
	t->state = DIAG_IDLE;
	return TEL_OK;
}

int tel_diag_restart(struct tel_diag *t)
{
	struct diag_hdr h;
	int rc;

	if (t->state != DIAG_RUNNING)
		return TEL_BAD_STATE;
	if (t->cfg.mode != DIAG_SINGLE)
		return TEL_NOT_SUPPORTED;
	if (t->dev->prov)
		return t->dev->prov->restart(t->dev->pp);
	rc = locked_hdr(t, &h);
	if (rc)
		return rc;
	if (!cycle_done(&h)) {
		flock(t->dev->fd, LOCK_UN);
		return TEL_AGAIN;
	}
	h.cycle_first = h.read_next = h.next;
	h.due_ns = h.now_ns + (int64_t)h.actual_ns;
	memcpy(h.base, h.counters, sizeof(h.base));
	return unlock_store(t, &h, TEL_OK);
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

/* One record in the output format, host byte order as DOCA's structs. */
static void encode(const struct tel_diag *t, const struct diag_rec *r,
		   uint8_t *p)
{
	uint32_t hi, lo, i;

	ts_words(t->cfg.ts, r->ts_ns, &hi, &lo);
	put32(p, (uint32_t)r->id);
	if (t->cfg.format == 0) {
		put32(p + 4, 0);
		for (i = 0; i < t->nids; i++) {
			uint8_t *v = p + 8 + 24 * i;

			put64(v, t->ids[i]);
			put32(v + 8, hi);
			put32(v + 12, lo);
			put64(v + 16, r->values[i]);
		}
		return;
	}
	/* all IDs are read at one instant: earliest = latest */
	put32(p + 4, hi);
	put32(p + 8, lo);
	put32(p + 12, lo);
	for (i = 0; i < t->nids; i++) {
		if (t->cfg.format == 1)
			put64(p + 16 + 8 * i, r->values[i]);
		else
			put32(p + 16 + 4 * i, (uint32_t)r->values[i]);
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
	struct diag_hdr h;
	uint32_t size, n = 0;
	uint64_t oldest;
	int rc, ret = TEL_OK;

	*got = 0;
	if (t->state != DIAG_RUNNING)
		return TEL_BAD_STATE;
	if (!buf || !max)
		return TEL_INVALID_VALUE;
	rc = tel_diag_sample_size(t, &size);
	if (rc)
		return rc;
	if (t->dev->prov)
		return t->dev->prov->query(t->dev->pp, buf, max,
					size, got, &t->lost);
	rc = locked_hdr(t, &h);
	if (rc)
		return rc;
	if (h.cfg.mode == DIAG_ON_DEMAND && take_sample(t->dev, &h)) {
		flock(t->dev->fd, LOCK_UN);
		return TEL_DRIVER;
	}
	oldest = h.next - (h.next - h.cycle_first < h.cap ?
			   h.next - h.cycle_first : h.cap);
	if (h.read_next < oldest) {
		t->lost = oldest - h.read_next;
		h.read_next = oldest;
		ret = TEL_SKIPPED;
	} else {
		t->lost = 0;
	}
	/* the unread records, in at most two reads (the ring wraps) */
	while (n < max && h.read_next < h.next) {
		uint64_t first = h.read_next % h.cap;
		uint64_t want = h.next - h.read_next, k;
		struct diag_rec *recs;

		if (want > max - n)
			want = max - n;
		if (want > h.cap - first)
			want = h.cap - first;
		if (want > 256)
			want = 256;
		recs = malloc((size_t)want * sizeof(*recs));
		if (!recs || pread(t->dev->fd, recs, (size_t)want *
				   sizeof(*recs), rec_off(&h, h.read_next)) !=
			     (ssize_t)(want * sizeof(*recs))) {
			free(recs);
			flock(t->dev->fd, LOCK_UN);
			return TEL_DRIVER;
		}
		for (k = 0; k < want; k++) {
			if (recs[k].id != h.read_next + k) {
				free(recs);
				flock(t->dev->fd, LOCK_UN);
				return TEL_DRIVER;
			}
			encode(t, &recs[k], (uint8_t *)buf + (size_t)n * size);
			n++;
		}
		h.read_next += want;
		free(recs);
	}
	*got = n;
	rc = unlock_store(t, &h, TEL_OK);
	return rc ? rc : ret;
}
