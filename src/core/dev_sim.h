/* dev_sim.h - the sim device's workload, for the `sim` command (the only
 * command that knows it has a simulator).
 */
#ifndef PCCB_DEV_SIM_H
#define PCCB_DEV_SIM_H

#include "device.h"

struct simdev;
/* An open sim device's workload (opened on first use); an error on a
 * real NIC.
 */
int dev_simdev(struct device *d, struct simdev **out);

#endif
