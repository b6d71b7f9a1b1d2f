/* pcc.h - the PCC telemetry context (DOCA telemetry pcc) over the PPCC
 * register: which algorithm sits in each slot, whether it and its
 * counters are enabled, and the counters as one block of 32-bit values.
 *
 * Only create/start/stop/destroy are state-checked, as in DOCA; the
 * readers work in any state.  Slot and counter definitions are read from
 * the device on every call: the context does not cache them, so an
 * algorithm enabled or disabled by another process shows at the next
 * call.  Errors are TEL_* codes (tel.h); a DRIVER error leaves the
 * transport's message in *t->err.
 *
 * Ownership: the context borrows the struct ppcc and the pcb_err.
 */
#ifndef PCCB_TEL_PCC_H
#define PCCB_TEL_PCC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "ppcc.h"

#define TEL_PCC_MAX_SLOTS PPCC_SLOTS
#define TEL_PCC_INFO_LEN 220		/* text bytes of one PPCC reply */
#define TEL_PCC_MAX_COUNTERS 55		/* 32-bit values of one reply */

enum tel_pcc_state { TEL_PCC_IDLE, TEL_PCC_RUNNING };

/* A source other than the PPCC register: a provider's readers, in DOCA's
 * terms, on its state p (tel/doca_ctx.h: DOCA's libraries on a real
 * NIC), each returning a TEL_* code.  Its context is the provider's
 * (made when the device hands it out, gone with the device); the
 * tel_pcc state machine stays pccbench's.  How to add one: fill a const
 * struct pcc_prov; the device (core/dev_*.c) hands it out.
 */
struct pcc_prov {
	int (*caps)(void *p, uint32_t *max_slots, uint32_t *max_info_len,
		    uint32_t *max_counters);
	int (*algo_id)(void *p, unsigned slot, uint32_t *id);
	int (*version)(void *p, unsigned slot, uint32_t *major,
		       uint32_t *minor);
	int (*enable_status)(void *p, unsigned slot, uint8_t *algo_en,
			     uint8_t *counters_en);
	int (*algo_info)(void *p, unsigned slot, char *buf, size_t len);
	int (*num_counters)(void *p, unsigned slot, uint32_t *n);
	int (*counter_info)(void *p, unsigned slot, unsigned id, char *buf,
			    size_t len);
	/* vals: TEL_PCC_MAX_COUNTERS; NULL with clear: reset only */
	int (*counters)(void *p, unsigned slot, bool clear,
			uint32_t *populated, uint32_t *vals);
};

struct tel_pcc {
	struct ppcc *p;
	struct pcb_err *err;
	enum tel_pcc_state state;
	const struct pcc_prov *prov;	/* NULL: the PPCC register */
	void *pp;
};

void tel_pcc_caps(uint32_t *max_slots, uint32_t *max_info_len,
		  uint32_t *max_counters);
int tel_pcc_create(struct tel_pcc *t, struct ppcc *p, struct pcb_err *err);
/* The same over a provider instead of PPCC. */
int tel_pcc_create_prov(struct tel_pcc *t, const struct pcc_prov *ops,
			void *pp, struct pcb_err *err);
/* The caps of the context's source (PPCC's: tel_pcc_caps). */
int tel_pcc_caps_of(struct tel_pcc *t, uint32_t *max_slots,
		    uint32_t *max_info_len, uint32_t *max_counters);
int tel_pcc_start(struct tel_pcc *t);
int tel_pcc_stop(struct tel_pcc *t);
int tel_pcc_destroy(struct tel_pcc *t);

/* INVALID_VALUE: slot out of range; BAD_STATE: slot not populated. */
int tel_pcc_get_algo_id(struct tel_pcc *t, unsigned slot, uint32_t *id);
int tel_pcc_get_algo_version(struct tel_pcc *t, unsigned slot,
			     uint32_t *major, uint32_t *minor);
/* DRIVER: the slot is invalid (out of range or empty). */
int tel_pcc_get_enable_status(struct tel_pcc *t, unsigned slot,
			      uint8_t *algo_en, uint8_t *counters_en);
/* "NAME, description" as the firmware reports it, in `len` bytes. */
int tel_pcc_get_algo_info(struct tel_pcc *t, unsigned slot, char *buf,
			  size_t len);
int tel_pcc_get_num_counters(struct tel_pcc *t, unsigned slot, uint32_t *n);
int tel_pcc_get_counter_info(struct tel_pcc *t, unsigned slot,
			     unsigned id, char *buf, size_t len);
/* BAD_STATE: the algorithm or its counters are disabled.  `vals` holds
 * TEL_PCC_MAX_COUNTERS; with clear, vals = NULL only resets.
 */
int tel_pcc_get_counters(struct tel_pcc *t, unsigned slot, bool clear,
			 uint32_t *populated, uint32_t *vals);

#endif
