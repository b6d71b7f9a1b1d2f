/* fwctl.c - the fwctl register backend. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adb.h"
#include "fwctl.h"

struct fwctl_dev {
	struct reg_dev base;
	int fd;
	char node[64];
};

static struct fwctl_dev *to_f(struct reg_dev *dev)
{
	if (dev->ops != &fwctl_backend_ops)
		abort();	/* broken invariant: wrong backend */
	return (struct fwctl_dev *)dev;
}

const char *mlx5_status_str(uint8_t status)
{
	switch (status) {
	case 0x0:
		return "ok";
	case 0x1:
		return "internal error";
	case 0x2:
		return "bad operation";
	case 0x3:
		return "bad parameter";
	case 0x4:
		return "bad system state";
	case 0x5:
		return "bad resource";
	case 0x6:
		return "resource busy";
	case 0x7:
		return "not ready";
	case 0x8:
		return "limits exceeded";
	case 0x9:
		return "bad resource state";
	case 0xa:
		return "bad index";
	case 0xf:
		return "no resources";
	case 0x10:
		return "bad QP state";
	case 0x30:
		return "bad packet";
	case 0x40:
		return "bad size of outstanding CQEs";
	case 0x50:
		return "bad input length";
	case 0x51:
		return "bad output length";
	default:
		return "unknown status";
	}
}

int fwctl_scope(enum reg_method m)
{
	return m == REG_SET ? FWCTL_RPC_DEBUG_WRITE_FULL :
			      FWCTL_RPC_DEBUG_READ_ONLY;
}

size_t fwctl_access_reg_in(uint8_t *in, size_t cap, enum reg_method m,
			   uint32_t reg_id, const uint8_t *data, size_t len)
{
	if (cap < MLX5_MBOX_HDR + len)
		return 0;
	memset(in, 0, MLX5_MBOX_HDR);
	in[0] = MLX5_CMD_ACCESS_REG >> 8;	/* opcode, big endian */
	in[1] = MLX5_CMD_ACCESS_REG & 0xff;	/* uid: the kernel's */
	in[7] = m == REG_SET ? 0 : 1;		/* op_mod: 0 write, 1 read */
	in[10] = (uint8_t)(reg_id >> 8);
	in[11] = (uint8_t)reg_id;		/* argument (12..15): 0 */
	memcpy(in + MLX5_MBOX_HDR, data, len);
	return MLX5_MBOX_HDR + len;
}

int fwctl_access_reg_out(const uint8_t *out, size_t out_len, uint8_t *data,
			 size_t len, const char *dev, struct pcb_err *err)
{
	uint32_t syndrome;

	if (out_len < MLX5_MBOX_HDR)
		return pcb_error(err, PCB_E_DEVICE,
				 "%s: fwctl reply of %zu bytes (a mailbox has "
				 "at least 16)", dev, out_len);
	syndrome = adb_be32(out + 4);
	if (out[0])
		return pcb_error(err, PCB_E_DEVICE,
				 "%s: ACCESS_REG failed: status 0x%x (%s), "
				 "syndrome 0x%08x", dev, out[0],
				 mlx5_status_str(out[0]), syndrome);
	if (out_len < MLX5_MBOX_HDR + len)
		return pcb_error(err, PCB_E_DEVICE,
				 "%s: fwctl reply of %zu bytes, expected %zu",
				 dev, out_len, MLX5_MBOX_HDR + len);
	memcpy(data, out + MLX5_MBOX_HDR, len);
	return 0;
}

static const char *sysfs_root(void)
{
	const char *r = getenv("PCCBENCH_SYSFS");

	return r && *r ? r : "/sys";
}

int fwctl_find_node(const char *bdf, char *node, size_t len)
{
	char dir[PATH_MAX], link[PATH_MAX + 300], target[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int found = -1;

	snprintf(dir, sizeof(dir), "%s/class/fwctl", sysfs_root());
	d = opendir(dir);
	if (!d)
		return -1;
	while (found && (de = readdir(d))) {
		const char *base;
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%s/device", dir, de->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		base = strrchr(target, '/');
		base = base ? base + 1 : target;
		if (!strcmp(base, bdf)) {
			snprintf(node, len, "%s", de->d_name);
			found = 0;
		}
	}
	closedir(d);
	return found;
}

static int f_open(struct reg_dev *dev, const char *spec, struct pcb_err *err)
{
	struct fwctl_dev *f = to_f(dev);
	struct fwctl_info info;
	char path[PATH_MAX];
	const char *devroot = getenv("PCCBENCH_DEVROOT");

	f->fd = -1;
	if (fwctl_find_node(spec, f->node, sizeof(f->node)))
		return pcb_error(err, PCB_E_DEVICE,
				 "%s: no fwctl node (needs Linux >= 6.15 with "
				 "mlx5_fwctl loaded; or --backend mstreg)",
				 spec);
	snprintf(path, sizeof(path), "%s/fwctl/%s",
		 devroot && *devroot ? devroot : "/dev", f->node);
	f->fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (f->fd < 0)
		return pcb_error(err, PCB_E_DEVICE, "%s: cannot open %s: %s%s",
				 spec, path, strerror(errno),
				 errno == EACCES ? " (run as root)" : "");
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	if (ioctl(f->fd, FWCTL_INFO, &info)) {
		int e = errno;

		close(f->fd);
		f->fd = -1;
		return pcb_error(err, PCB_E_DEVICE, "%s: FWCTL_INFO on %s: %s",
				 spec, path, strerror(e));
	}
	if (info.out_device_type != FWCTL_DEVICE_TYPE_MLX5) {
		close(f->fd);
		f->fd = -1;
		return pcb_error(err, PCB_E_DEVICE,
				 "%s: %s is not an mlx5 device (fwctl type %u)",
				 spec, path, info.out_device_type);
	}
	return 0;
}

static void f_close(struct reg_dev *dev)
{
	struct fwctl_dev *f = to_f(dev);

	if (f->fd >= 0)
		close(f->fd);
}

static int f_access(struct reg_dev *dev, enum reg_method m, uint32_t reg_id,
		    uint8_t *buf, size_t len, uint32_t *status,
		    struct pcb_err *err)
{
	struct fwctl_dev *f = to_f(dev);
	uint8_t in[MLX5_MBOX_HDR + 512], out[MLX5_MBOX_HDR + 512];
	struct fwctl_rpc rpc;
	size_t n = fwctl_access_reg_in(in, sizeof(in), m, reg_id, buf, len);

	*status = 0;
	if (!n)
		return pcb_error(err, PCB_E_INVAL, "register of %zu bytes is "
				 "too large for fwctl here", len);
	memset(out, 0, sizeof(out));
	memset(&rpc, 0, sizeof(rpc));
	rpc.size = sizeof(rpc);
	rpc.scope = (uint32_t)fwctl_scope(m);
	rpc.in_len = (uint32_t)n;
	rpc.out_len = (uint32_t)n;
	rpc.in = (uint64_t)(uintptr_t)in;
	rpc.out = (uint64_t)(uintptr_t)out;
	if (ioctl(f->fd, FWCTL_RPC, &rpc)) {
		int e = errno;

		if (e == EPERM && m == REG_SET)
			return pcb_error(err, PCB_E_DEVICE,
					 "%s: fwctl refused scope "
					 "DEBUG_WRITE_FULL: writing needs "
					 "CAP_SYS_RAWIO (run as root)",
					 dev->name);
		return pcb_error(err, PCB_E_DEVICE, "%s: FWCTL_RPC: %s%s",
				 dev->name, strerror(e), e == EBADMSG ?
				 " (command or scope not allowed)" : "");
	}
	return fwctl_access_reg_out(out, rpc.out_len, buf, len, dev->name,
				    err);
}

const char *fwctl_node(const struct reg_dev *dev)
{
	return dev->ops == &fwctl_backend_ops ?
	       ((const struct fwctl_dev *)(const void *)dev)->node : NULL;
}

const struct reg_backend_ops fwctl_backend_ops = {
	.name = "fwctl",
	.caps = REG_CAP_REAL,
	.priv_size = sizeof(struct fwctl_dev),
	.open = f_open,
	.close = f_close,
	.access = f_access,
};
