/* retx.h - the adaptive-retransmission histogram (DOCA telemetry
 * adp_retx): caps, configuration while stopped, start/stop, bins, and
 * detection of a configuration another process changed.
 *
 * The device side (struct retx_dev) is the NIC's histogram, reached
 * through a provider (struct retx_prov): the sim's (src/sim/simtel.h: a
 * small validated file next to the .dev file, flock'd, which the
 * simulator fills with its retransmission timeouts) or DOCA's libraries
 * on a real NIC (tel/doca_ctx.h).  A context keeps its own copy of the
 * configuration; setters work only while it is stopped.  There is no
 * ownership: anyone may reconfigure; tel_retx_detect tells.
 *
 * Ownership: tel_retx_create/tel_retx_destroy; retx_dev_open_prov/close.
 */
#ifndef PCCB_TEL_RETX_H
#define PCCB_TEL_RETX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define RETX_MAX_BINS 16

enum retx_unit { RETX_NSEC = 0x1, RETX_USEC = 0x2, RETX_USEC_100 = 0x4,
		 RETX_MSEC = 0x8 };
#define RETX_UNITS (RETX_NSEC | RETX_USEC | RETX_USEC_100 | RETX_MSEC)
enum retx_mode { RETX_FIXED = 0, RETX_DOUBLE = 1 };

struct retx_cfg {
	uint32_t num_bins;
	uint16_t bin0, bin1;		/* widths in time units */
	uint32_t mode;			/* enum retx_mode */
	uint32_t unit;			/* enum retx_unit (one bit) */
	uint32_t vhca_set;
	uint16_t vhca_id;
	uint8_t clear_on_read;
	uint8_t count_enable;
};

struct retx_dev;

/* A histogram: a provider's calls, in DOCA's terms, on its state p (the
 * sim's file, src/sim/simtel.h; DOCA's libraries, tel/doca_ctx.h).  The
 * tel_retx_* context checks states and values, then calls these; each
 * returns a TEL_* code.  What the device holds (its configuration, whether
 * it records, its bins) is the provider's: the sim's outlives the
 * process, DOCA's is kept by its provider until start loads it.  How to
 * add a provider: fill one const struct retx_prov.
 */
struct retx_cfg;
struct retx_prov {
	int (*caps)(void *p, uint32_t *max_bins, uint32_t *units);
	int (*create)(void *p);
	void (*destroy)(void *p);		/* stopping first */
	/* retx_dev_state, retx_dev_peek, retx_dev_keep_cfg */
	void (*state)(void *p, struct retx_cfg *cfg, bool *running);
	void (*peek)(void *p, struct retx_cfg *cfg, bool *running,
		     uint64_t *bins);
	int (*keep_cfg)(void *p, const struct retx_cfg *cfg);
	int (*start)(void *p, const struct retx_cfg *cfg);
	int (*stop)(void *p);
	/* *changed: the device runs another configuration than `mine`;
	 * *cfg then the device's */
	int (*detect)(void *p, const struct retx_cfg *mine, uint8_t *changed,
		      struct retx_cfg *cfg);
	/* started: the context started (or attached to) the histogram */
	int (*read)(void *p, bool started, uint32_t *populated,
		    uint64_t *bins);
};
/* Its context created (-1 and *tel = the provider's code when it
 * cannot be); p stays the caller's, retx_dev_close destroys the context.
 */
int retx_dev_open_prov(struct retx_dev **out, const struct retx_prov *ops,
		       void *p, int *tel);
void retx_dev_close(struct retx_dev *d);
/* The caps of this device; a TEL_* code. */
int retx_dev_caps_of(struct retx_dev *d, uint32_t *max_bins, uint32_t *units);
/* The bins as they are, without clearing (a recorder's view). */
void retx_dev_peek(struct retx_dev *d, struct retx_cfg *cfg, bool *running,
		   uint64_t bins[RETX_MAX_BINS]);
/* The device's current configuration and whether it records. */
void retx_dev_state(struct retx_dev *d, struct retx_cfg *cfg, bool *running);
/* Keep a configuration beside the stopped device, so the next process's
 * context starts from it (`retx config` in one command, `retx start` in
 * the next); BAD_STATE while the histogram runs.
 */
int retx_dev_keep_cfg(struct retx_dev *d, const struct retx_cfg *cfg);
/* The defaults (8 bins of 100 us, doubling), and the configurations a
 * device can hold: the sim's file is checked with them.
 */
void tel_retx_cfg_default(struct retx_cfg *c);
bool tel_retx_cfg_valid(const struct retx_cfg *c);

enum retx_state { RETX_IDLE, RETX_RUNNING };

struct tel_retx {
	struct retx_dev *dev;
	struct retx_cfg cfg;		/* this context's configuration */
	enum retx_state state;
};

/* A new context starts Idle with the device's current configuration (or
 * the defaults); `attach` adopts a histogram that is already running, so
 * a one-shot `retx read` can follow a `retx start` of another process.
 */
int tel_retx_create(struct tel_retx *t, struct retx_dev *dev, bool attach);
int tel_retx_destroy(struct tel_retx *t);
int tel_retx_start(struct tel_retx *t);
int tel_retx_stop(struct tel_retx *t);
int tel_retx_set_num_bins(struct tel_retx *t, uint32_t n);
int tel_retx_set_bin0_width(struct tel_retx *t, uint16_t w);
int tel_retx_set_bin1_width(struct tel_retx *t, uint16_t w);
int tel_retx_set_mode(struct tel_retx *t, uint32_t mode);
int tel_retx_set_time_unit(struct tel_retx *t, uint32_t unit);
int tel_retx_set_vhca_id(struct tel_retx *t, uint16_t id);
int tel_retx_unset_vhca_id(struct tel_retx *t);
int tel_retx_set_clear_on_read(struct tel_retx *t, uint8_t v);
int tel_retx_set_count_enable(struct tel_retx *t, uint8_t v);
/* 1 when this context started the histogram (or attached to it) and the
 * device now runs another configuration; t->cfg then shows the device's.
 * A stopped context has loaded nothing: 0.
 */
int tel_retx_detect(struct tel_retx *t, uint8_t *changed);
int tel_retx_read_bins(struct tel_retx *t, uint32_t *populated,
		       uint64_t bins[RETX_MAX_BINS]);
/* Bin i covers [lo, hi] in time units; hi = UINT64_MAX: open-ended. */
void tel_retx_bin_range(const struct retx_cfg *c, uint32_t i, uint64_t *lo,
			uint64_t *hi);
uint64_t tel_retx_unit_ps(uint32_t unit);

#endif
