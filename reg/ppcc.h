/* ppcc.h - the PPCC access register (id 0x506e), one function per cmd_type.
 *
 * All field positions come from the ADB layout given to ppcc_init; nothing
 * here shifts or masks by hand.  Commands that change the device (enable,
 * disable, set, bulk set) are sent with method SET; queries, including the
 * get-and-clear ones, with method GET so their reply can be read.
 * Every write names each read-write field (value, sl_bitmask, counter_en,
 * trace_en), zero included: mstreg reads the register before it writes
 * and keeps what it read in any field it is not given, fwctl sends the
 * buffer as built; given every field, both write the same register.  A
 * write changes only what its operation needs: counter_en and trace_en
 * go as the slot's enable status last gave them (ppcc_keep; 0 before
 * any), except an enable's counter_en, which is what the enable asks.
 * Service levels: a write's sl_bitmask is sl_mask, all 16 SLs unless a
 * command narrows it (algo enable/disable ... sl LIST); the register
 * database says only the SLs whose bits are set are configured.  Queries
 * carry 0: mstreg's --get
 * takes no data field, and a query must mean the same on every backend.
 * Every reply (whatever the transport) must echo the request's cmd_type
 * and index fields (local_port, lp_msb, pnat, algo_slot,
 * algo_param_index); one that does not is -PCB_E_DEVICE, naming the
 * fields received and requested, and its data is not used.
 *
 * local_port is the port the device's handle names (mlx5_0/2: 2), else 1.
 *
 * Ownership: ppcc_init takes the layout; ppcc_release frees it.  The
 * reg_dev stays the caller's.
 */
#ifndef PCCB_PPCC_H
#define PCCB_PPCC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adb.h"
#include "err.h"
#include "transport.h"

#define PPCC_REG_ID	0x506e
#define PPCC_SIZE	252
#define PPCC_TEXT_DWORDS 55
#define PPCC_SLOTS	16

enum ppcc_cmd {
	PPCC_ALGO_INFO = 0x0,
	PPCC_ENABLE = 0x1,
	PPCC_DISABLE = 0x2,
	PPCC_ENABLE_STATUS = 0x3,
	PPCC_NUM_PARAMS = 0x4,
	PPCC_PARAM_INFO = 0x5,
	PPCC_PARAM_GET = 0x6,
	PPCC_PARAM_GET_CLEAR = 0x7,
	PPCC_PARAM_SET = 0x8,
	PPCC_BULK_GET = 0xA,
	PPCC_BULK_SET = 0xB,
	PPCC_BULK_COUNTERS = 0xC,
	PPCC_BULK_COUNTERS_CLEAR = 0xD,
	PPCC_NUM_COUNTERS = 0xE,
	PPCC_COUNTER_INFO = 0xF,
	PPCC_ALGO_INFO_ARRAY = 0x10,
};

/* Field handles resolved once from the layout. */
enum ppcc_fld {
	PF_CMD, PF_LP_MSB, PF_PNAT, PF_PORT, PF_SLOT, PF_INDEX, PF_VALUE,
	PF_PV1, PF_PV2, PF_PV3, PF_SL_MASK, PF_PRM, PF_SL_SUPPORT,
	PF_COUNTER_EN, PF_TRACE_EN, PF_TEXT_LEN, PF_TEXT0, PF_COUNT
};

struct ppcc {
	struct reg_dev *dev;
	struct adb_reg *layout;
	const struct adb_field *f[PF_COUNT];
	uint32_t local_port;
	uint32_t pnat;
	uint32_t sl_mask;	/* the SLs writes configure (PPCC_ALL_SLS) */
	int sl_support;		/* sl_bitmask_support last replied; -1 */
	uint32_t sl_all;	/* the SLs an enable on all gave (a port
				 * with fewer SLs); PPCC_ALL_SLS */
	bool sl_said;		/* the per-SL fallback was said */
	uint32_t keep_cen;	/* counter_en, trace_en a write sends */
	uint32_t keep_trace;
};

#define PPCC_ALL_SLS	0xffffu

/* What get enable status (0x3) answers about a slot. */
struct ppcc_status {
	bool enabled;		/* on some SL */
	bool counter_en;
	bool trace_en;
	bool sl_support;	/* the device reports SLs: sls means that */
	uint32_t sls;		/* the SLs it runs on */
};

struct ppcc_info {		/* cmd 0x5 / 0xF reply */
	uint32_t def, min, max;	/* 0xF: only max */
	uint32_t prm;
	char name[224];
	char descr[224];
};

/* Check the layout has every PPCC field at a usable size; takes it. */
int ppcc_init(struct ppcc *p, struct reg_dev *dev, struct adb_reg *layout,
	      struct pcb_err *err);
void ppcc_release(struct ppcc *p);
/* Just the layout check, for a layout that stays the caller's. */
int ppcc_layout_check(const struct adb_reg *layout,
		      const struct adb_field *f[PF_COUNT],
		      struct pcb_err *err);

/* Buffer helpers shared with the firmware and the dry-run printer. */
uint32_t ppcc_get(const struct ppcc *p, enum ppcc_fld f, const uint8_t *buf);
void ppcc_set(const struct ppcc *p, enum ppcc_fld f, uint8_t *buf,
	      uint32_t v);
uint32_t ppcc_text(const struct adb_field *text0, const uint8_t *buf,
		   unsigned i);
void ppcc_set_text(const struct adb_field *text0, uint8_t *buf, unsigned i,
		   uint32_t v);
/* Split "NAME, description" text (text_length bytes) from a reply. */
void ppcc_split_text(const uint8_t *buf, const struct adb_field *text0,
		     uint32_t text_len, char *name, size_t nlen, char *descr,
		     size_t dlen);
const char *ppcc_cmd_name(unsigned cmd);

/* "3", "0-3,5", "all" -> a mask of SLs 0..15; "" or junk is -PCB_E_RANGE
 * naming the text.
 */
int ppcc_sl_parse(const char *text, uint32_t *mask, struct pcb_err *err);
/* A mask as "0-15", "3,5-7" or "none". */
void ppcc_sl_format(uint32_t mask, char *buf, size_t len);
/* Whether the device reports SLs (sl_bitmask_support), asking it once if
 * no reply has said yet.
 */
int ppcc_sl_supported(struct ppcc *p, bool *yes, struct pcb_err *err);

/* The request each operation below sends, built without sending it (for a
 * dry run): buf (PPCC_SIZE bytes) gets the register, the return value is
 * the method.  Every write carries sl_bitmask = p->sl_mask.
 */
enum reg_method ppcc_enable_req(const struct ppcc *p, unsigned slot,
				bool counters, uint8_t *buf);
enum reg_method ppcc_disable_req(const struct ppcc *p, unsigned slot,
				 uint8_t *buf);
enum reg_method ppcc_param_set_req(const struct ppcc *p, unsigned slot,
				   unsigned index, uint32_t value,
				   uint8_t *buf);
enum reg_method ppcc_counters_req(const struct ppcc *p, unsigned slot,
				  bool clear, uint8_t *buf);

int ppcc_algo_info(struct ppcc *p, unsigned slot, uint32_t *algo_num,
		   char *name, size_t nlen, char *descr, size_t dlen,
		   struct pcb_err *err);
int ppcc_enable(struct ppcc *p, unsigned slot, bool counters,
		struct pcb_err *err);
int ppcc_disable(struct ppcc *p, unsigned slot, struct pcb_err *err);
int ppcc_enable_status(struct ppcc *p, unsigned slot, bool *enabled,
		       bool *counter_en, struct pcb_err *err);
int ppcc_status(struct ppcc *p, unsigned slot, struct ppcc_status *st,
		struct pcb_err *err);
/* Enable status as an enable (enable) or a disable on p->sl_mask sees it:
 * *enabled is whether the slot runs on every SL of the mask (enable) or
 * on any (disable), so *enabled == enable says the write is done.  The
 * enable bit where the device has no per-SL state, or one that does not
 * follow that bit (sl_bitmask_support 0; enabled with no SL, or an SL
 * with the bit clear): ppcc_sl_state says which.
 */
bool ppcc_sl_state(const struct ppcc *p, const struct ppcc_status *st,
		   bool enable, bool *enabled);
/* The next writes keep st's counter_en and trace_en (st: the status of
 * the slot they write).
 */
void ppcc_keep(struct ppcc *p, const struct ppcc_status *st);
int ppcc_enable_state(struct ppcc *p, unsigned slot, bool enable,
		      bool *enabled, bool *counter_en, struct pcb_err *err);
int ppcc_num_params(struct ppcc *p, unsigned slot, uint32_t *n,
		    struct pcb_err *err);
int ppcc_param_info(struct ppcc *p, unsigned slot, unsigned index,
		    struct ppcc_info *info, struct pcb_err *err);
int ppcc_param_get(struct ppcc *p, unsigned slot, unsigned index,
		   uint32_t *value, struct pcb_err *err);
int ppcc_param_get_clear(struct ppcc *p, unsigned slot, unsigned index,
			 uint32_t *value, struct pcb_err *err);
int ppcc_param_set(struct ppcc *p, unsigned slot, unsigned index,
		   uint32_t value, struct pcb_err *err);
int ppcc_bulk_get(struct ppcc *p, unsigned slot, uint32_t *vals, size_t max,
		  size_t *n, struct pcb_err *err);
int ppcc_bulk_set(struct ppcc *p, unsigned slot, const uint32_t *vals,
		  size_t n, struct pcb_err *err);
int ppcc_counters(struct ppcc *p, unsigned slot, bool clear, uint32_t *vals,
		  size_t max, size_t *n, struct pcb_err *err);
int ppcc_num_counters(struct ppcc *p, unsigned slot, uint32_t *n,
		      struct pcb_err *err);
int ppcc_counter_info(struct ppcc *p, unsigned slot, unsigned index,
		      struct ppcc_info *info, struct pcb_err *err);
int ppcc_algo_info_array(struct ppcc *p, uint32_t info[PPCC_SLOTS],
			 struct pcb_err *err);

#endif
