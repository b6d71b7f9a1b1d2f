/* simtel_retx.c - the sim's adp_retx histogram (simtel.h): the provider
 * tel/retx.c's contexts call, over NAME.retx, which the simulator fills
 * with its retransmission timeouts.  Why here and not in tel/: it is the
 * simulated NIC's side, as DOCA's provider is the real NIC's.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>

#include "sim/simtel.h"
#include "sim/simtel_file.h"
#include "tel/tel.h"

struct retx_file {
	struct simtel_head head;	/* "PCCBRTX", RETX_VERSION, size */
	struct retx_cfg cfg;
	uint32_t running;
	uint32_t crc;		/* of the whole file with crc = 0 */
	uint64_t bins[RETX_MAX_BINS];
};
#define RETX_VERSION 2	/* 2: crc */

struct sim_retx {
	struct simtel_file f;
};

static void file_init(void *p)
{
	tel_retx_cfg_default(&((struct retx_file *)p)->cfg);
}

static bool file_valid(const void *p)
{
	const struct retx_file *f = p;

	return tel_retx_cfg_valid(&f->cfg) && f->running <= 1;
}

static const struct simtel_kind retx_kind = {
	.ext = "retx",
	.what = "retransmission histogram",
	.magic = "PCCBRTX",
	.version = RETX_VERSION,
	.size = sizeof(struct retx_file),
	.crc_off = offsetof(struct retx_file, crc),
	.init = file_init,
	.valid = file_valid,
};
_Static_assert(sizeof(struct retx_file) <= 4096, "simtel_file's header cap");

static int load(struct sim_retx *x, struct retx_file *f)
{
	return simtel_file_load(&x->f, f);
}

static int store(struct sim_retx *x, struct retx_file *f)
{
	return simtel_file_store(&x->f, f);
}

int sim_retx_open(struct sim_retx **out, const char *sim_name,
		  struct pcb_err *err)
{
	struct sim_retx *x = calloc(1, sizeof(*x));
	int rc;

	if (!x)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	rc = simtel_file_open(&x->f, &retx_kind, sim_name, err);
	if (rc) {
		free(x);
		return rc;
	}
	*out = x;
	return 0;
}

void sim_retx_close(struct sim_retx *x)
{
	if (!x)
		return;
	simtel_file_close(&x->f);
	free(x);
}

void sim_retx_record(struct sim_retx *x, const int64_t *ps, size_t n)
{
	struct retx_file f;
	uint64_t v, lo, hi;
	uint32_t i;
	size_t k;

	if (!n)
		return;
	simtel_file_lock(&x->f, LOCK_EX);
	if (!load(x, &f) && f.running && f.cfg.count_enable &&
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
		store(x, &f);
	}
	simtel_file_unlock(&x->f);
}

/* ---- the provider ------------------------------------------------------- */

/* The sim device's caps. */
static int retx_caps(void *p, uint32_t *max_bins, uint32_t *units)
{
	(void)p;
	*max_bins = RETX_MAX_BINS;
	*units = RETX_UNITS;
	return TEL_OK;
}

/* No context to make: the file is the histogram. */
static int retx_create(void *p)
{
	(void)p;
	return TEL_OK;
}

/* The file is sim_retx_close's. */
static void retx_destroy(void *p)
{
	(void)p;
}

static void retx_peek(void *p, struct retx_cfg *cfg, bool *running,
		      uint64_t *bins)
{
	struct sim_retx *x = p;
	struct retx_file f;

	simtel_file_lock(&x->f, LOCK_SH);
	if (load(x, &f)) {
		memset(&f, 0, sizeof(f));
		tel_retx_cfg_default(&f.cfg);
	}
	simtel_file_unlock(&x->f);
	*cfg = f.cfg;
	*running = f.running;
	memcpy(bins, f.bins, sizeof(f.bins));
}

static void retx_state(void *p, struct retx_cfg *cfg, bool *running)
{
	struct sim_retx *x = p;
	struct retx_file f;

	simtel_file_lock(&x->f, LOCK_SH);
	if (load(x, &f)) {
		tel_retx_cfg_default(&f.cfg);
		f.running = 0;
	}
	simtel_file_unlock(&x->f);
	*cfg = f.cfg;
	*running = f.running;
}

static int retx_keep_cfg(void *p, const struct retx_cfg *cfg)
{
	struct sim_retx *x = p;
	struct retx_file f;
	int rc = TEL_OK;

	simtel_file_lock(&x->f, LOCK_EX);
	if (load(x, &f))
		rc = TEL_DRIVER;
	else if (f.running)
		rc = TEL_BAD_STATE;
	else {
		f.cfg = *cfg;
		if (store(x, &f))
			rc = TEL_DRIVER;
	}
	simtel_file_unlock(&x->f);
	return rc;
}

static int retx_start(void *p, const struct retx_cfg *cfg)
{
	struct sim_retx *x = p;
	struct retx_file f;
	int rc = TEL_OK;

	simtel_file_lock(&x->f, LOCK_EX);
	if (load(x, &f)) {
		rc = TEL_DRIVER;
	} else {
		f.cfg = *cfg;
		memset(f.bins, 0, sizeof(f.bins));
		/* count_enable 0: start does not start recording */
		f.running = cfg->count_enable;
		if (store(x, &f))
			rc = TEL_DRIVER;
	}
	simtel_file_unlock(&x->f);
	return rc;
}

static int retx_stop(void *p)
{
	struct sim_retx *x = p;
	struct retx_file f;
	int rc = TEL_OK;

	simtel_file_lock(&x->f, LOCK_EX);
	if (load(x, &f)) {
		rc = TEL_DRIVER;
	} else {
		f.running = 0;
		if (store(x, &f))
			rc = TEL_DRIVER;
	}
	simtel_file_unlock(&x->f);
	return rc;
}

/* Anyone may reconfigure the file: compare it with what `mine` loaded. */
static int retx_detect(void *p, const struct retx_cfg *mine,
		       uint8_t *changed, struct retx_cfg *cfg)
{
	bool running;

	retx_state(p, cfg, &running);
	*changed = memcmp(cfg, mine, sizeof(*cfg)) != 0;
	return TEL_OK;
}

/* The file's bins, whoever started the histogram. */
static int retx_read(void *p, bool started, uint32_t *populated,
		     uint64_t *bins)
{
	struct sim_retx *x = p;
	struct retx_file f;
	int rc = TEL_OK;

	(void)started;
	simtel_file_lock(&x->f, LOCK_EX);
	if (load(x, &f)) {
		rc = TEL_DRIVER;
	} else {
		memcpy(bins, f.bins, sizeof(f.bins));
		*populated = f.cfg.num_bins;
		if (f.cfg.clear_on_read) {
			memset(f.bins, 0, sizeof(f.bins));
			if (store(x, &f))
				rc = TEL_DRIVER;
		}
	}
	simtel_file_unlock(&x->f);
	return rc;
}

const struct retx_prov sim_retx_prov = {
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
