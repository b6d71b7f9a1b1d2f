/* fwctl.h - the PPCC register through the kernel's fwctl (Linux >= 6.15,
 * module mlx5_fwctl): ACCESS_REG (0x805) in an mlx5 mailbox over FWCTL_RPC
 * on /dev/fwctl/fwctlN.  Facts: ../shared/spec/ppcc-mstreg-fwctl.md 4.
 *
 * Debian 12's kernel headers predate fwctl, so the uAPI structures are
 * declared here with the kernel's layout (include/uapi/fwctl/fwctl.h).
 *
 * Scopes: a GET uses DEBUG_READ_ONLY (the mlx5 driver reads registers at
 * no lower scope).  A SET tries the narrowest scope first: CONFIGURATION
 * (the mlx5 driver takes ACCESS_REG writes at any scope; no taint, no
 * capability), then DEBUG_WRITE (taints the kernel once), then
 * DEBUG_WRITE_FULL (taints, needs CAP_SYS_RAWIO), each only after the
 * driver refused the one before with EBADMSG, and never past the widest
 * scope the user allowed (fwctl_allow_scope; CONFIGURATION unless
 * --fwctl-scope says): pccbench does not taint a kernel unasked.  The
 * scope that worked is kept for the device's later writes.  EPERM is
 * explained by its cause: the fwctl core has no lockdown check, and its
 * one EPERM is DEBUG_WRITE_FULL without CAP_SYS_RAWIO; any other EPERM
 * came from the mlx5 driver or a security module, and is said so.
 *
 * FWCTL_INFO's mlx5 data (uid, uctx_caps) is read at open: a context
 * without TOOLS_RESOURCES may be refused tools registers such as PPCC by
 * the firmware, and a firmware error then says so.
 *
 * The node of a PCI function is found through $PCCBENCH_SYSFS (default
 * /sys)/class/fwctl/NODE/device; /dev/fwctl/NODE is opened.
 */
#ifndef PCCB_FWCTL_H
#define PCCB_FWCTL_H

#include <stdbool.h>
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

/* FWCTL_INFO's device data for mlx5 (include/uapi/fwctl/mlx5.h). */
struct fwctl_info_mlx5 {
	uint32_t uid;
	uint32_t uctx_caps;
};

#define MLX5_UCTX_CAP_TOOLS_RESOURCES 0x4

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
/* The first scope a method is tried at (a SET: CONFIGURATION). */
int fwctl_scope(enum reg_method m);
const char *fwctl_scope_name(int scope);

/* The active kernel lockdown mode ("none", "integrity",
 * "confidentiality"), "" when the kernel does not say.
 */
void fwctl_lockdown(char *mode, size_t len);
/* Whether this process holds CAP_SYS_RAWIO (/proc/self/status). */
bool fwctl_has_rawio(void);
/* Why FWCTL_RPC at scope gave EPERM: one clause for an error message. */
void fwctl_eperm_reason(char *buf, size_t len, int scope, bool has_rawio);
/* Let a fwctl device's writes go up to scope (a FWCTL_RPC_* value);
 * nothing for another kind of device.
 */
void fwctl_allow_scope(struct reg_dev *dev, int scope);

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
/* A fwctl device's uctx_caps (false if the kernel gave none, or another
 * kind of device) and the scope its writes go at now.
 */
bool fwctl_uctx_caps(const struct reg_dev *dev, uint32_t *caps);
int fwctl_write_scope(const struct reg_dev *dev);

#endif
