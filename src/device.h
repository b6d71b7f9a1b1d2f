/* device.h - what a device is beyond its register transport: a clock and
 * telemetry providers, answered by the kind of device it is (the sim
 * device or a real NIC) so commands never ask which kind they have.
 *
 * The clock: device time advances by `ps` -- the sim device runs its
 * fabric for that much simulated time, a real NIC (or `wall`) waits
 * wall time; Ctrl-C stops both.  Providers: the adaptive-retransmission
 * histogram and the diagnostic-counter sampler of the device, or
 * -PCB_E_STATE with "NOT_SUPPORTED on DEV (why)".
 *
 * This is the first part of the device object of the real-hosts issue:
 * the recorder and sweeps still hold their own sim/real branches.
 */
#ifndef PCCB_DEVICE_H
#define PCCB_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "session.h"

struct retx_dev;
struct diag_dev;

int dev_advance(struct session *s, int64_t ps, bool wall);
int dev_retx(struct session *s, struct retx_dev **out);
int dev_diag(struct session *s, struct diag_dev **out);

#endif
