/* transport.h - how a register reaches a device.
 *
 * Each backend (the sim firmware in src/sim/firmware.c, reg/mstreg.c,
 * reg/fwctl.c) exports one const struct reg_backend_ops.  Its private
 * state embeds struct reg_dev first;
 * reg_dev_open allocates ops->priv_size bytes and the backend downcasts
 * with a check of dev->ops.
 *
 * A backend's access() returns 0 when the transport worked, with the
 * device's register status in *status (0 = OK); it returns a negative
 * PCB code only when the transport itself failed.  reg_access() turns a
 * bad status into one error message, so "transport failed" and "device
 * returned bad status" stay distinct in what the user reads.
 */
#ifndef PCCB_TRANSPORT_H
#define PCCB_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum reg_method { REG_GET = 1, REG_SET = 2 };

#define REG_CAP_INPROC	0x1	/* in-process, cheap accesses */
#define REG_CAP_REAL	0x2	/* real hardware: confirm writes */

/* Register status codes (ICMD register TLV status, mstflint naming). */
#define REG_STATUS_BUSY		0x1
#define REG_STATUS_BAD_VERSION	0x2
#define REG_STATUS_UNKNOWN_TLV	0x3
#define REG_STATUS_NOT_SUPP	0x4
#define REG_STATUS_BAD_CLASS	0x5
#define REG_STATUS_BAD_METHOD	0x6
#define REG_STATUS_BAD_PARAM	0x7
#define REG_STATUS_NO_RESOURCE	0x8

struct reg_dev;

struct reg_backend_ops {
	const char *name;
	unsigned caps;
	size_t priv_size;	/* >= sizeof(struct reg_dev) */
	int (*open)(struct reg_dev *dev, const char *spec,
		    struct pcb_err *err);
	void (*close)(struct reg_dev *dev);
	int (*access)(struct reg_dev *dev, enum reg_method method,
		      uint32_t reg_id, uint8_t *buf, size_t len,
		      uint32_t *status, struct pcb_err *err);
};

struct reg_dev {
	const struct reg_backend_ops *ops;
	char *name;			/* as the user gave it */
	unsigned long n_get, n_set;	/* accesses so far */
};

int reg_dev_open(struct reg_dev **out, const struct reg_backend_ops *ops,
		 const char *name, const char *spec, struct pcb_err *err);
void reg_dev_close(struct reg_dev *dev);

/* One register access; buf holds the request and receives the reply. */
int reg_access(struct reg_dev *dev, enum reg_method method, uint32_t reg_id,
	       const char *reg_name, uint8_t *buf, size_t len,
	       struct pcb_err *err);

const char *reg_status_str(uint32_t status);

#endif
