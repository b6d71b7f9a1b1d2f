/* dev_impl.h - what the device implementations share with device.c:
 * their operations and constructors.  Only device.c, dev_sim.c and
 * dev_nic.c include it.
 */
#ifndef PCCB_DEV_IMPL_H
#define PCCB_DEV_IMPL_H

#include "device.h"

extern const struct dev_ops dev_sim_ops;
extern const struct dev_ops dev_nic_ops;

/* Make d (its transport open) a device of the kind: its ops and its
 * kind's state; -1 out of memory.
 */
int dev_sim_new(struct device *d);
int dev_nic_new(struct device *d);

#endif
