/* simtel_diag.c - the sim's diagnostic-counter sampler (simtel.h): the
 * provider tel/diag.c's contexts call, over NAME.diag (its header, then
 * the sample ring).  Why here and not in tel/: it is the simulated NIC's
 * side, fed by the simulator, as DOCA's provider is the real NIC's.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "sim/simtel.h"
#include "sim/simtel_file.h"
#include "tel/diag_ids.h"
#include "tel/tel.h"

struct diag_hdr {
	struct simtel_head head;	/* "PCCBDIA", DIAG_VERSION, size */
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

struct sim_diag {
	struct simtel_file f;
};

static bool cfg_valid(const struct diag_cfg *c)
{
	return c->period_ns >= 1 && c->period_ns <= DIAG_MAX_PERIOD_NS &&
	       c->log_samples <= DIAG_LOG_MAX_SAMPLES &&
	       c->max_ids >= 1 && c->max_ids <= DIAG_MAX_IDS &&
	       c->mode <= DIAG_ON_DEMAND && c->format <= 2 && c->sync <= 1 &&
	       c->clear <= 1 && c->ts <= DIAG_RTC;
}

static void hdr_init(void *p)
{
	struct diag_hdr *h = p;

	tel_diag_cfg_default(&h->cfg);
	h->cap = 1u << h->cfg.log_samples;
}

/* The header's own rules: a sample period the device could have chosen
 * (whole microseconds, at least the requested one), a ring that fits,
 * ids and times in order.
 */
static bool hdr_valid(const void *p)
{
	const struct diag_hdr *h = p;
	uint32_t i;

	if (!cfg_valid(&h->cfg) || h->running > 1 || h->nids > DIAG_MAX_IDS ||
	    h->cap != 1u << h->cfg.log_samples || h->read_next > h->next ||
	    h->cycle_first > h->next || h->now_ns < 0 || h->staged > 2 ||
	    (h->running && !h->actual_ns) ||
	    (h->actual_ns && (h->actual_ns % 1000 ||
			      h->actual_ns < h->cfg.period_ns ||
			      h->actual_ns > DIAG_MAX_PERIOD_NS)) ||
	    h->now_ns > DIAG_MAX_NOW_NS || h->due_ns < 0 ||
	    (h->running && h->due_ns > h->now_ns + (int64_t)h->actual_ns))
		return false;
	for (i = 0; i < h->nids; i++)
		if (diag_dev_supported(h->ids[i]))
			return false;
	return true;
}

static const struct simtel_kind diag_kind = {
	.ext = "diag",
	.what = "diagnostic-counter",
	.magic = "PCCBDIA",
	.version = DIAG_VERSION,
	.size = sizeof(struct diag_hdr),
	.crc_off = offsetof(struct diag_hdr, crc),
	.init = hdr_init,
	.valid = hdr_valid,
};
_Static_assert(sizeof(struct diag_hdr) <= 4096, "simtel_file's header cap");

static int load(struct sim_diag *x, struct diag_hdr *h)
{
	return simtel_file_load(&x->f, h);
}

static int store(struct sim_diag *x, struct diag_hdr *h)
{
	return simtel_file_store(&x->f, h);
}

static off_t rec_off(const struct diag_hdr *h, uint64_t id)
{
	return (off_t)(sizeof(*h) + (id % h->cap) * sizeof(struct diag_rec));
}

int sim_diag_open(struct sim_diag **out, const char *sim_name,
		  struct pcb_err *err)
{
	struct sim_diag *x = calloc(1, sizeof(*x));
	int rc;

	if (!x)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	rc = simtel_file_open(&x->f, &diag_kind, sim_name, err);
	if (rc) {
		free(x);
		return rc;
	}
	*out = x;
	return 0;
}

void sim_diag_close(struct sim_diag *x)
{
	if (!x)
		return;
	simtel_file_close(&x->f);
	free(x);
}

/* The sim device's caps. */
static int diag_caps(void *p, struct diag_caps *c)
{
	(void)p;
	memset(c, 0, sizeof(*c));
	c->max_ids = DIAG_MAX_IDS;
	c->log_max_samples = DIAG_LOG_MAX_SAMPLES;
	c->data_clear = true;
	c->sync_start = true;
	c->modes[0] = c->modes[1] = c->modes[2] = true;
	c->ts[DIAG_FRC] = c->ts[DIAG_RTC] = true;
	return TEL_OK;
}

/* Take one sample at the device's now (file locked, header loaded). */
static int take_sample(struct sim_diag *x, struct diag_hdr *h)
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
	if (pwrite(x->f.fd, &r, sizeof(r), rec_off(h, r.id)) !=
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

int64_t sim_diag_feed(struct sim_diag *x, int64_t dt_ns,
		      const uint64_t delta[DS_COUNT])
{
	struct diag_hdr h;
	int64_t r = -1;
	size_t i;

	simtel_file_lock(&x->f, LOCK_EX);
	if (!load(x, &h)) {
		h.now_ns += dt_ns;
		for (i = 0; i < DS_COUNT; i++)
			h.counters[i] += delta[i];
		if (until_due(&h) == 0) {
			take_sample(x, &h);
			h.due_ns += (int64_t)h.actual_ns;
			if (h.due_ns <= h.now_ns)
				h.due_ns = h.now_ns + (int64_t)h.actual_ns;
		}
		store(x, &h);
		r = until_due(&h);
	}
	simtel_file_unlock(&x->f);
	return r;
}

int64_t sim_diag_until_due(struct sim_diag *x)
{
	struct diag_hdr h;
	int64_t r = -1;

	simtel_file_lock(&x->f, LOCK_SH);
	if (!load(x, &h))
		r = until_due(&h);
	simtel_file_unlock(&x->f);
	return r;
}

/* ---- the provider ------------------------------------------------------- */

static bool alive(int32_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

static int diag_keep(void *p, const struct diag_cfg *cfg, const uint64_t *ids,
		     uint32_t nids, uint64_t actual_ns)
{
	struct sim_diag *x = p;
	struct diag_hdr h;
	int rc = TEL_OK;

	if (!cfg_valid(cfg) || nids > DIAG_MAX_IDS)
		return TEL_INVALID_VALUE;
	simtel_file_lock(&x->f, LOCK_EX);
	if (load(x, &h)) {
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
		if (store(x, &h))
			rc = TEL_DRIVER;
	}
	simtel_file_unlock(&x->f);
	return rc;
}

static int diag_kept(void *p, struct diag_cfg *cfg, uint64_t *ids,
		     uint32_t *nids)
{
	struct sim_diag *x = p;
	struct diag_hdr h;
	int staged = 0;

	simtel_file_lock(&x->f, LOCK_SH);
	if (!load(x, &h) && !h.running) {
		staged = (int)h.staged;
		*cfg = h.cfg;
		*nids = staged == 2 ? h.nids : 0;
		memcpy(ids, h.ids, sizeof(h.ids));
	}
	simtel_file_unlock(&x->f);
	return staged;
}

static int diag_create(void *p, bool force, struct tel_diag *t)
{
	struct sim_diag *x = p;
	struct diag_hdr h;
	int rc = TEL_OK;

	simtel_file_lock(&x->f, LOCK_EX);
	if (load(x, &h)) {
		rc = TEL_DRIVER;
	} else if (alive(h.owner) && !force) {
		rc = TEL_IN_USE;
	} else {
		h.owner = (int32_t)getpid();
		if (store(x, &h))
			rc = TEL_DRIVER;
	}
	simtel_file_unlock(&x->f);
	if (rc)
		return rc;
	if (h.running) {	/* adopt what the device runs */
		t->cfg = h.cfg;
		t->nids = h.nids;
		memcpy(t->ids, h.ids, sizeof(t->ids));
		t->actual_ns = h.actual_ns;
		t->state = DIAG_RUNNING;
	}
	return TEL_OK;
}

/* Sampling goes on; ownership ends. */
static void diag_release(void *p)
{
	struct sim_diag *x = p;
	struct diag_hdr h;

	simtel_file_lock(&x->f, LOCK_EX);
	if (!load(x, &h) && h.owner == (int32_t)getpid()) {
		h.owner = 0;
		store(x, &h);
	}
	simtel_file_unlock(&x->f);
}

/* The file is sim_diag_close's. */
static void diag_destroy(void *p)
{
	(void)p;
}

/* The sim applies a configuration at start. */
static int diag_apply_config(void *p, const struct diag_cfg *cfg)
{
	(void)p;
	(void)cfg;
	return TEL_OK;
}

static int diag_check_id(void *p, const struct diag_cfg *cfg, uint64_t id)
{
	struct diag_id x;

	(void)p;
	if (diag_id_decode(id, &x) || diag_dev_supported(id))
		return TEL_NOT_SUPPORTED;
	if (cfg->sync && !x.def->sync)
		return TEL_BAD_CONFIG;
	return TEL_OK;
}

/* The sim's period: whole microseconds, >= 1 us per 16 IDs. */
static int diag_apply_ids(void *p, const struct diag_cfg *cfg,
			  const uint64_t *ids, uint32_t n, uint64_t *failed,
			  uint64_t *actual_ns)
{
	uint64_t per;

	(void)p;
	(void)ids;
	(void)failed;
	per = (cfg->period_ns + 999) / 1000 * 1000;
	if (per < 1000ULL * ((n + 15) / 16))
		per = 1000ULL * ((n + 15) / 16);
	*actual_ns = per;
	return TEL_OK;
}

/* Owned by this process?  A forced takeover makes the old owner's
 * operations fail with IN_USE from then on.  Locked on TEL_OK.
 */
static int locked_hdr(struct sim_diag *x, struct diag_hdr *h)
{
	simtel_file_lock(&x->f, LOCK_EX);
	if (load(x, h)) {
		simtel_file_unlock(&x->f);
		return TEL_DRIVER;
	}
	if (h->owner != (int32_t)getpid()) {
		simtel_file_unlock(&x->f);
		return TEL_IN_USE;
	}
	return TEL_OK;
}

static int unlock_store(struct sim_diag *x, struct diag_hdr *h, int rc)
{
	if (!rc && store(x, h))
		rc = TEL_DRIVER;
	simtel_file_unlock(&x->f);
	return rc;
}

static int diag_start(void *p, const struct tel_diag *t)
{
	struct sim_diag *x = p;
	struct diag_hdr h;
	int rc = locked_hdr(x, &h);

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
	return unlock_store(x, &h, TEL_OK);
}

/* A context that lost the device to a forced takeover stops alone. */
static int diag_stop(void *p, const struct tel_diag *t)
{
	struct sim_diag *x = p;
	struct diag_hdr h;
	int rc;

	if (t->state != DIAG_RUNNING)
		return TEL_OK;
	rc = locked_hdr(x, &h);
	if (rc == TEL_OK) {
		h.running = 0;
		rc = unlock_store(x, &h, TEL_OK);
	}
	return rc == TEL_IN_USE ? TEL_OK : rc;
}

static int diag_restart(void *p)
{
	struct sim_diag *x = p;
	struct diag_hdr h;
	int rc = locked_hdr(x, &h);

	if (rc)
		return rc;
	if (!cycle_done(&h)) {
		simtel_file_unlock(&x->f);
		return TEL_AGAIN;
	}
	h.cycle_first = h.read_next = h.next;
	h.due_ns = h.now_ns + (int64_t)h.actual_ns;
	memcpy(h.base, h.counters, sizeof(h.base));
	return unlock_store(x, &h, TEL_OK);
}

static int diag_sample_size(void *p, const struct tel_diag *t,
			    uint32_t *size)
{
	(void)p;
	*size = tel_diag_format_size(t);
	return TEL_OK;
}

static int diag_query(void *p, const struct tel_diag *t, void *buf,
		      uint32_t max, uint32_t size, uint32_t *got,
		      uint64_t *lost)
{
	struct sim_diag *x = p;
	struct diag_hdr h;
	uint32_t n = 0;
	uint64_t oldest;
	int rc, ret = TEL_OK;

	rc = locked_hdr(x, &h);
	if (rc)
		return rc;
	if (h.cfg.mode == DIAG_ON_DEMAND && take_sample(x, &h)) {
		simtel_file_unlock(&x->f);
		return TEL_DRIVER;
	}
	oldest = h.next - (h.next - h.cycle_first < h.cap ?
			   h.next - h.cycle_first : h.cap);
	if (h.read_next < oldest) {
		*lost = oldest - h.read_next;
		h.read_next = oldest;
		ret = TEL_SKIPPED;
	} else {
		*lost = 0;
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
		if (!recs || pread(x->f.fd, recs, (size_t)want *
				   sizeof(*recs), rec_off(&h, h.read_next)) !=
			     (ssize_t)(want * sizeof(*recs))) {
			free(recs);
			simtel_file_unlock(&x->f);
			return TEL_DRIVER;
		}
		for (k = 0; k < want; k++) {
			if (recs[k].id != h.read_next + k) {
				free(recs);
				simtel_file_unlock(&x->f);
				return TEL_DRIVER;
			}
			tel_diag_encode(t, recs[k].id, recs[k].ts_ns,
					recs[k].values,
					(uint8_t *)buf + (size_t)n * size);
			n++;
		}
		h.read_next += want;
		free(recs);
	}
	*got = n;
	rc = unlock_store(x, &h, TEL_OK);
	return rc ? rc : ret;
}

const struct diag_prov sim_diag_prov = {
	.log_max_samples = DIAG_LOG_MAX_SAMPLES,
	.caps = diag_caps,
	.create = diag_create,
	.release = diag_release,
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
