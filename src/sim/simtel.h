/* simtel.h - the sim device's telemetry as providers of tel/, as DOCA's
 * libraries are on a real NIC (tel/doca_ctx.h): the diagnostic-counter
 * sampler (struct diag_prov, tel/diag.h) and the adp_retx histogram
 * (struct retx_prov, tel/retx.h).  tel/ holds the contexts and DOCA's
 * state machines; what the NIC does is here, beside the simulator that
 * feeds it.
 *
 * Each is a validated, flock'd file beside the device file
 * ($XDG_STATE_HOME/pccbench/sim/NAME.diag, NAME.retx; simtel_file.h), so
 * every process that opens sim:NAME sees one NIC: the sampler holds the
 * owner, the loaded configuration and data IDs, the device's running
 * counters and the sample ring; the histogram its configuration, whether
 * it records, and its bins.  The simulator feeds them (sim_diag_feed,
 * sim_retx_record) as simulated time passes.
 *
 * The sim's rules where DOCA leaves them to the hardware: the actual
 * period is the requested one rounded up to a whole microsecond, at least
 * 1 us per 16 data IDs; timestamps are simulated time (FRC: ns; RTC:
 * seconds.nanoseconds since the fabric's t = 0, continuing across runs);
 * the IDs the sim measures are port 0's and the global ones it models
 * (diag_dev_supported); sync start is supported, but only for IDs that
 * support it, none of which the sim measures.  The histogram counts the
 * sim's vhca, 0.
 *
 * Ownership: one diag context per device across processes (the file
 * holds the owner's pid; a context of a process that died no longer
 * owns).  sim_diag_open/sim_diag_close and sim_retx_open/sim_retx_close
 * own the files; a tel/ handle made on one with diag_dev_open_prov /
 * retx_dev_open_prov (p = the struct sim_diag / sim_retx) borrows it and
 * is closed first.
 */
#ifndef PCCB_SIM_SIMTEL_H
#define PCCB_SIM_SIMTEL_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "tel/diag.h"
#include "tel/retx.h"

struct sim_diag;
struct sim_retx;

extern const struct diag_prov sim_diag_prov;
extern const struct retx_prov sim_retx_prov;

int sim_diag_open(struct sim_diag **out, const char *sim_name,
		  struct pcb_err *err);
void sim_diag_close(struct sim_diag *x);
/* The simulator: `dt_ns` of device time passed and the counters grew by
 * `delta`; a sample due at the end of it is taken.  Returns the time
 * until the next sample (ns), or -1: none due.
 */
int64_t sim_diag_feed(struct sim_diag *x, int64_t dt_ns,
		      const uint64_t delta[DS_COUNT]);
/* Device time until the next sample is due, or -1: none due. */
int64_t sim_diag_until_due(struct sim_diag *x);

int sim_retx_open(struct sim_retx **out, const char *sim_name,
		  struct pcb_err *err);
void sim_retx_close(struct sim_retx *x);
/* The simulator: `n` retransmission timeouts, each `ps[i]` long. */
void sim_retx_record(struct sim_retx *x, const int64_t *ps, size_t n);

#endif
