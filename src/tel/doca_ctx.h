/* doca_ctx.h - the diag and adp_retx providers over DOCA (tel/doca.h):
 * what tel/diag.c and tel/retx.c call (struct diag_prov, retx_prov) when
 * their device is a real NIC with DOCA (the sim's provider is
 * src/sim/simtel.h), making
 * DOCA's calls in the order DOCA's telemetry samples make them.  Each
 * returns a TEL_* code (DOCA's own value).  pccbench's own checks (the
 * state machine, the value ranges) run before these, so DOCA sees only
 * what the sim's context would have taken; what DOCA refuses beyond that
 * comes back as its code.
 *
 * Ownership: the caller (dev_nic.c) owns a struct tdoca_diag/tdoca_retx
 * and the struct tdoca_dev it points to; DOCA's context handle inside is
 * created by the provider's create and destroyed by its destroy.
 */
#ifndef PCCB_TEL_DOCA_CTX_H
#define PCCB_TEL_DOCA_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include "tel/diag.h"
#include "tel/doca.h"
#include "tel/pcc.h"
#include "tel/retx.h"

struct tdoca_diag {
	const struct tdoca_dev *d;
	void *ctx;		/* struct doca_telemetry_diag * */
	uint32_t state;		/* enum diag_state, DOCA's view */
	uint64_t next_id;	/* sample id expected next: lost ones */
	bool seen;		/* next_id known (not after a restart) */
};

/* DOCA's histogram keeps nothing pccbench can read back before start:
 * the configuration waits here until start loads it, and a read's bins
 * stay for the recorder's view (retx_dev_peek).
 */
struct tdoca_retx {
	const struct tdoca_dev *d;
	void *ctx;		/* struct doca_telemetry_adp_retx * */
	bool running;
	struct retx_cfg cfg;	/* kept until start, then the loaded one */
	uint64_t last[RETX_MAX_BINS];	/* the bins of the last read */
};

/* The pcc context: made and started by tdoca_pcc_open, stopped and
 * destroyed by tdoca_pcc_close (the device's life); the readers work on
 * it in any tel_pcc state, as DOCA's sample reads slots before start.
 */
struct tdoca_pcc {
	const struct tdoca_dev *d;
	void *ctx;		/* struct doca_telemetry_pcc * */
	uint32_t max_slots, info_len, counter_info_len, max_counters;
};
int tdoca_pcc_open(struct tdoca_pcc *x);
void tdoca_pcc_close(struct tdoca_pcc *x);

/* p: a struct tdoca_diag / tdoca_retx / tdoca_pcc whose d is set. */
extern const struct diag_prov tdoca_diag_prov;
extern const struct retx_prov tdoca_retx_prov;
extern const struct pcc_prov tdoca_pcc_prov;

#endif
