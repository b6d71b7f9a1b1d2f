/* firmware.h - the simulated ConnectX-7 port's PPCC firmware.
 *
 * State lives in a memory-mapped file $XDG_STATE_HOME/pccbench/sim/NAME.dev
 * so that every process opening sim:NAME sees one device.  Each register
 * access takes an exclusive flock on the file.  The file is never trusted:
 * on open its header, its algorithm table and every value is checked, and a
 * corrupt or foreign file is refused with the reason.
 *
 * Slots (DESIGN.md): 0 ZTR-RTT (deployment, enabled, no counters),
 * 1 ZTR-RTT debug (counters), 2 DCQCN, 3 DOCA's RTT template; 4-15 empty.
 * counter_en is held by one slot per port; sets outside min..max or on
 * read-only params are silently ignored, as the real firmware does.
 *
 * Service levels: the device reports sl_bitmask_support = 1 and a set
 * applies to the SLs whose bits its sl_bitmask has, as the register
 * database says ("when a bit is set, its index SL shall be configured"):
 * enable and disable turn the slot on or off on those SLs only.  A mask
 * naming no SL is every SL, on a set as on a query: seed 004, the only
 * vendor document, enters debug mode with --set "cmd_type=2" and
 * "cmd_type=1,counter_en=1", no sl_bitmask, and says it works, and the
 * database gives 0 no meaning of its own (README "Service levels").
 * Each slot keeps the SLs it runs on; get enable status answers them in
 * sl_bitmask (of the SLs the query names).  Bulk counters (0xC, 0xD)
 * are answered to a set as to a query, as seed 004 uses them.
 *
 * Other firmware (simfw_set_sl_model, kept in the file): SIMFW_SL_8, a
 * port with SLs 0-7 only (a mask's other bits do nothing, enable status
 * never reports them); SIMFW_SL_NONE, no per-SL state
 * (sl_bitmask_support 0, every write configures every SL, enable status
 * reports sl_bitmask 0 whatever the enable bit says); SIMFW_SL_STALE,
 * as SIMFW_SL_NONE but reporting sl_bitmask_support 1: a mask that does
 * not follow the enable bit.  Params are one set per slot: no query can name an SL
 * through mstreg, so a value per SL could not be read back.  The
 * simulated traffic is on SL 3 (its data priority), so the active
 * algorithm is the lowest slot that runs on SL 3.
 *
 * Ownership: simfw_open returns a handle closed with simfw_close.
 */
#ifndef PCCB_SIM_FIRMWARE_H
#define PCCB_SIM_FIRMWARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "desc.h"
#include "err.h"
#include "transport.h"

#define SIMFW_SLOTS 16
#define SIMFW_PARAMS 64
#define SIMFW_COUNTERS 64
#define SIMFW_PORT 1		/* the one local port we model */
#define SIMFW_SPEED_GBPS 400
#define SIMFW_ALL_SLS 0xffffu	/* sl_bitmask: SLs 0..15 */
#define SIMFW_DATA_SL 3		/* the SL the simulated traffic uses */

struct simfw;

/* name: the part after "sim:", [A-Za-z0-9_.-]{1,64}. */
int simfw_open(struct simfw **out, const char *name, struct pcb_err *err);
void simfw_close(struct simfw *fw);
const char *simfw_path(const struct simfw *fw);
bool simfw_name_valid(const char *name);

enum simfw_sl_model {
	SIMFW_SL_16,		/* SLs 0-15, per-SL state (the default) */
	SIMFW_SL_8,		/* SLs 0-7 */
	SIMFW_SL_NONE,		/* no per-SL state */
	SIMFW_SL_STALE,		/* says it has, reports sl_bitmask 0 */
};
int simfw_set_sl_model(struct simfw *fw, enum simfw_sl_model m);

/* One PPCC access; *status gets the register status (0 ok). */
int simfw_access(struct simfw *fw, enum reg_method m, uint32_t reg_id,
		 uint8_t *buf, size_t len, uint32_t *status,
		 struct pcb_err *err);

/* Bumped by every change; lets a reader notice another process's write. */
uint32_t simfw_generation(struct simfw *fw);

/* For the simulator: the active slot (-1 none), its descriptor, and
 * counter updates that wrap at the counter's max.
 */
int simfw_active_slot(struct simfw *fw);
const struct algo_desc *simfw_slot_desc(struct simfw *fw, unsigned slot);
int simfw_params(struct simfw *fw, unsigned slot, uint32_t *vals, size_t max,
		 size_t *n);
void simfw_counter_add(struct simfw *fw, unsigned slot, unsigned idx,
		       uint32_t delta);
/* A set of param idx of slot to v would take: the param is writable
 * (read-only and debug-only ones are not, outside the debug build) and v
 * within its min..max; the firmware ignores any other set. */
bool simfw_param_settable(struct simfw *fw, unsigned slot, unsigned idx,
			  uint32_t v);
/* Fold a simulator delta in: sums add, gauges keep their min/max. */
void simfw_counter_apply(struct simfw *fw, unsigned slot, unsigned idx,
			 uint32_t value, enum algo_ckind kind);
/* The same for n counters at once (one file lock). */
void simfw_counters_apply(struct simfw *fw, unsigned slot,
			  const uint32_t *values, const bool *touched,
			  const enum algo_ckind *kinds, size_t n);
bool simfw_counters_enabled(struct simfw *fw, unsigned slot);
void simfw_counter_store(struct simfw *fw, unsigned slot, unsigned idx,
			 uint32_t value);

/* Host NICs' own params (sim:NAME/hN's writes), kept in NAME.hosts
 * beside the device file (firmware.c): simfw_set_host makes the handle
 * answer PPCC as host N's NIC's register (-1: the shared one, sim:NAME's,
 * the default): its params are the shared register's but where it has
 * its own; a param set that the firmware would take sets its own (a
 * value equal to the shared one drops it: that NIC runs the fleet's
 * again); enabling and disabling a slot are refused (BAD_PARAM: the
 * slot is the fleet's); the rest is the shared register.
 * simfw_host_params: host's own values of slot over vals[0..n-1], *own
 * their bits.  simfw_host_set: host's own value of param idx (drop, or
 * idx >= ALGO_MAX_PARAMS: every param of the slot dropped); a value the
 * firmware would not take is refused in one line, -PCB_E_RANGE, nothing
 * changed.  A damaged NAME.hosts is -PCB_E_CORRUPT naming it.
 */
void simfw_set_host(struct simfw *fw, int host);
int simfw_host(const struct simfw *fw);
int simfw_host_params(struct simfw *fw, uint32_t host, unsigned slot,
		      uint32_t *vals, size_t n, uint64_t *own,
		      struct pcb_err *err);
int simfw_host_set(struct simfw *fw, uint32_t host, unsigned slot,
		   unsigned idx, uint32_t value, bool drop,
		   struct pcb_err *err);

extern const struct reg_backend_ops sim_backend_ops;
/* The firmware of a sim device, NULL for another kind. */
struct simfw *simfw_of(const struct reg_dev *dev);

#endif
