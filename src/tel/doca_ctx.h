/* doca_ctx.h - the diag and adp_retx contexts over DOCA (tel/doca.h):
 * what tel/diag.c and tel/retx.c call when their device is a DOCA one
 * instead of the sim's file.  Each returns a TEL_* code (DOCA's own
 * value); the context handle is DOCA's (`void *`), created here and
 * destroyed here.  pccbench's own checks (the state machine, the value
 * ranges) run before these in diag.c and retx.c, so a DOCA call sees
 * only what the sim's context would have taken; what DOCA refuses
 * beyond that comes back as its code.
 *
 * Ownership: the struct tdoca_dev is borrowed from the device
 * (dev_nic.c); *ctx belongs to the diag_dev / retx_dev.
 */
#ifndef PCCB_TEL_DOCA_CTX_H
#define PCCB_TEL_DOCA_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include "tel/diag.h"
#include "tel/doca.h"
#include "tel/retx.h"

struct tdoca_diag {
	void *ctx;		/* struct doca_telemetry_diag * */
	uint32_t state;		/* enum diag_state, DOCA's view */
	uint64_t next_id;	/* sample id expected next: lost ones */
	bool seen;
};

int tdoca_diag_caps(const struct tdoca_dev *d, struct diag_caps *c);
int tdoca_diag_create(const struct tdoca_dev *d, struct tdoca_diag *x,
		      bool force);
/* Stop when needed, then destroy (a process's context ends with it). */
void tdoca_diag_destroy(const struct tdoca_dev *d, struct tdoca_diag *x);
/* The properties set, then apply_config (Idle -> Configured). */
int tdoca_diag_apply_config(const struct tdoca_dev *d, struct tdoca_diag *x,
			    const struct diag_cfg *cfg);
int tdoca_diag_check_id(const struct tdoca_dev *d, struct tdoca_diag *x,
			uint64_t id);
/* The IDs; *actual_ns: the period the device chose. */
int tdoca_diag_apply_ids(const struct tdoca_dev *d, struct tdoca_diag *x,
			 const uint64_t *ids, uint32_t n, uint64_t *failed,
			 uint64_t *actual_ns);
int tdoca_diag_start(const struct tdoca_dev *d, struct tdoca_diag *x);
int tdoca_diag_stop(const struct tdoca_dev *d, struct tdoca_diag *x);
int tdoca_diag_restart(const struct tdoca_dev *d, struct tdoca_diag *x);
int tdoca_diag_sample_size(const struct tdoca_dev *d, struct tdoca_diag *x,
			   uint32_t *size);
/* *lost: samples DOCA dropped before these (SKIPPED), from the ids. */
int tdoca_diag_query(const struct tdoca_dev *d, struct tdoca_diag *x,
		     void *buf, uint32_t max, uint32_t size, uint32_t *got,
		     uint64_t *lost);

struct tdoca_retx {
	void *ctx;		/* struct doca_telemetry_adp_retx * */
	bool running;
	struct retx_cfg cfg;	/* what this context loaded at start */
	uint64_t last[RETX_MAX_BINS];	/* the bins of the last read */
};

int tdoca_retx_caps(const struct tdoca_dev *d, uint32_t *max_bins,
		    uint32_t *units);
int tdoca_retx_create(const struct tdoca_dev *d, struct tdoca_retx *x);
void tdoca_retx_destroy(const struct tdoca_dev *d, struct tdoca_retx *x);
/* The configuration set, then start (Idle -> Running). */
int tdoca_retx_start(const struct tdoca_dev *d, struct tdoca_retx *x,
		     const struct retx_cfg *cfg);
int tdoca_retx_stop(const struct tdoca_dev *d, struct tdoca_retx *x);
/* 1 when another program changed the device's histogram; *cfg then the
 * device's configuration as DOCA's getters report it.
 */
int tdoca_retx_detect(const struct tdoca_dev *d, struct tdoca_retx *x,
		      uint8_t *changed, struct retx_cfg *cfg);
int tdoca_retx_read(const struct tdoca_dev *d, struct tdoca_retx *x,
		    uint32_t *populated, uint64_t bins[RETX_MAX_BINS]);

#endif
