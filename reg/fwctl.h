/* fwctl.h - the PPCC register through the kernel's fwctl (Linux >= 6.15,
 * module mlx5_fwctl): ACCESS_REG (0x805) in an mlx5 mailbox over FWCTL_RPC
 * on /dev/fwctl/fwctlN.  Facts: ../shared/spec/ppcc-mstreg-fwctl.md 4.
 *
 * Debian 12's kernel headers predate fwctl, so the uAPI structures are
 * declared here with the kernel's layout (include/uapi/fwctl/fwctl.h).
 * A GET uses scope DEBUG_READ_ONLY; a SET DEBUG_WRITE_FULL, which needs
 * CAP_SYS_RAWIO and taints the kernel once.
 *
 * The node of a PCI function is found through $PCCBENCH_SYSFS (default
 * /sys)/class/fwctl/NODE/device; /dev/fwctl/NODE is opened.
 */
#ifndef PCCB_FWCTL_H
#define PCCB_FWCTL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include "err.h"
#include "transport.h"

#define FWCTL_TYPE 0x9A
#define FWCTL_INFO _IO(FWCTL_TYPE, 0)
#define FWCTL_RPC _IO(FWCTL_TYPE, 1)

enum fwctl_device_type {
	FWCTL_DEVICE_TYPE_ERROR = 0,
	FWCTL_DEVICE_TYPE_MLX5 = 1,
	FWCTL_DEVICE_TYPE_CXL = 2,
	FWCTL_DEVICE_TYPE_PDS = 4,
};

enum fwctl_rpc_scope {
	FWCTL_RPC_CONFIGURATION = 0,
	FWCTL_RPC_DEBUG_READ_ONLY = 1,
	FWCTL_RPC_DEBUG_WRITE = 2,
	FWCTL_RPC_DEBUG_WRITE_FULL = 3,
};

struct fwctl_info {
	uint32_t size;
	uint32_t flags;
	uint32_t out_device_type;
	uint32_t device_data_len;
	uint64_t out_device_data __attribute__((aligned(8)));
};

struct fwctl_rpc {
	uint32_t size;
	uint32_t scope;
	uint32_t in_len;
	uint32_t out_len;
	uint64_t in __attribute__((aligned(8)));
	uint64_t out __attribute__((aligned(8)));
};

#define MLX5_CMD_ACCESS_REG 0x805
#define MLX5_MBOX_HDR 16

/* The ACCESS_REG mailbox for a register GET (read) or SET (write):
 * opcode 0x805, op_mod 1 read / 0 write, register id, then the data.
 * Returns the length (16 + len), or 0 if `cap` is too small.
 */
size_t fwctl_access_reg_in(uint8_t *in, size_t cap, enum reg_method m,
			   uint32_t reg_id, const uint8_t *data, size_t len);
int fwctl_scope(enum reg_method m);

/* Check an ACCESS_REG reply and copy its data out; a non-zero mlx5
 * status becomes one message naming it and the syndrome.
 */
int fwctl_access_reg_out(const uint8_t *out, size_t out_len, uint8_t *data,
			 size_t len, const char *dev, struct pcb_err *err);
const char *mlx5_status_str(uint8_t status);

/* The fwctl node (e.g. "fwctl0") of a PCI function "0000:08:00.0". */
int fwctl_find_node(const char *bdf, char *node, size_t len);

extern const struct reg_backend_ops fwctl_backend_ops;
/* The fwctl node of a fwctl device ("fwctl0"), NULL for another kind. */
const char *fwctl_node(const struct reg_dev *dev);

#endif
