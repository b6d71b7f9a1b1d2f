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
	int write_scope;	/* where SETs start: the last that worked */
	int max_scope;		/* the widest the user allowed */
	bool have_caps;
	struct fwctl_info_mlx5 mlx5;
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
	return m == REG_SET ? FWCTL_RPC_CONFIGURATION :
			      FWCTL_RPC_DEBUG_READ_ONLY;
}

const char *fwctl_scope_name(int scope)
{
	static const char *const names[] = {
		[FWCTL_RPC_CONFIGURATION] = "CONFIGURATION",
		[FWCTL_RPC_DEBUG_READ_ONLY] = "DEBUG_READ_ONLY",
		[FWCTL_RPC_DEBUG_WRITE] = "DEBUG_WRITE",
		[FWCTL_RPC_DEBUG_WRITE_FULL] = "DEBUG_WRITE_FULL",
	};

	return scope >= 0 && scope <= FWCTL_RPC_DEBUG_WRITE_FULL ?
	       names[scope] : "unknown";
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

/* The file holds the modes with the active one in brackets:
 * "none [integrity] confidentiality".
 */
void fwctl_lockdown(char *mode, size_t len)
{
	char path[PATH_MAX], text[128], *a, *b;
	FILE *fp;
	size_t n;

	snprintf(mode, len, "%s", "");
	snprintf(path, sizeof(path), "%s/kernel/security/lockdown",
		 sysfs_root());
	fp = fopen(path, "re");
	if (!fp)
		return;
	n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[n] = '\0';
	a = strchr(text, '[');
	b = a ? strchr(a, ']') : NULL;
	if (b && b > a + 1)
		snprintf(mode, len, "%.*s", (int)(b - a - 1), a + 1);
}

bool fwctl_has_rawio(void)
{
	char line[256];
	bool yes = false;
	FILE *fp = fopen("/proc/self/status", "re");

	if (!fp)
		return false;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long eff;

		if (sscanf(line, "CapEff: %llx", &eff) == 1) {
			yes = eff >> 17 & 1;	/* CAP_SYS_RAWIO */
			break;
		}
	}
	fclose(fp);
	return yes;
}

void fwctl_eperm_reason(char *buf, size_t len, int scope, bool has_rawio)
{
	const char *name = fwctl_scope_name(scope);

	if (scope == FWCTL_RPC_DEBUG_WRITE_FULL && !has_rawio)
		snprintf(buf, len, "fwctl refused scope %s: the kernel allows "
			 "it only with CAP_SYS_RAWIO, which pccbench does not "
			 "hold (run as root)", name);
	else
		snprintf(buf, len, "fwctl refused scope %s with EPERM%s: not "
			 "the fwctl core's check (its one EPERM is "
			 "DEBUG_WRITE_FULL without CAP_SYS_RAWIO); the mlx5 "
			 "driver or a security module refused it", name,
			 has_rawio ? " although pccbench holds CAP_SYS_RAWIO" :
			 "");
}

void fwctl_allow_scope(struct reg_dev *dev, int scope)
{
	if (dev->ops == &fwctl_backend_ops)
		to_f(dev)->max_scope = scope;
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
	f->write_scope = fwctl_scope(REG_SET);
	f->max_scope = FWCTL_RPC_CONFIGURATION;
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
	info.device_data_len = sizeof(f->mlx5);
	info.out_device_data = (uint64_t)(uintptr_t)&f->mlx5;
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
	/* the kernel says how much it had; less than both words: no caps */
	f->have_caps = info.device_data_len >= sizeof(f->mlx5);
	return 0;
}

static void f_close(struct reg_dev *dev)
{
	struct fwctl_dev *f = to_f(dev);

	if (f->fd >= 0)
		close(f->fd);
}

/* One FWCTL_RPC; -errno when the ioctl failed. */
static int f_rpc(struct fwctl_dev *f, int scope, uint8_t *in, uint8_t *out,
		 size_t n, uint32_t *out_len)
{
	struct fwctl_rpc rpc;

	memset(out, 0, n);
	memset(&rpc, 0, sizeof(rpc));
	rpc.size = sizeof(rpc);
	rpc.scope = (uint32_t)scope;
	rpc.in_len = (uint32_t)n;
	rpc.out_len = (uint32_t)n;
	rpc.in = (uint64_t)(uintptr_t)in;
	rpc.out = (uint64_t)(uintptr_t)out;
	if (ioctl(f->fd, FWCTL_RPC, &rpc))
		return -errno;
	*out_len = rpc.out_len;
	return 0;
}

/* A SET from the device's write scope up: the next scope only when the
 * driver refused this one (EBADMSG), and never past the widest the user
 * allowed (the debug scopes taint the kernel).
 */
static int f_rpc_write(struct fwctl_dev *f, uint8_t *in, uint8_t *out,
		       size_t n, uint32_t *out_len, int *scope)
{
	int rc = -EBADMSG;

	for (*scope = f->write_scope;; (*scope)++) {
		if (*scope == FWCTL_RPC_DEBUG_READ_ONLY)
			continue;	/* reads only */
		rc = f_rpc(f, *scope, in, out, n, out_len);
		if (rc != -EBADMSG || *scope >= f->max_scope)
			break;
	}
	if (!rc)
		f->write_scope = *scope;
	return rc;
}

static int f_access(struct reg_dev *dev, enum reg_method m, uint32_t reg_id,
		    uint8_t *buf, size_t len, uint32_t *status,
		    struct pcb_err *err)
{
	struct fwctl_dev *f = to_f(dev);
	uint8_t in[MLX5_MBOX_HDR + 512], out[MLX5_MBOX_HDR + 512];
	size_t n = fwctl_access_reg_in(in, sizeof(in), m, reg_id, buf, len);
	int scope = fwctl_scope(m), rc;
	uint32_t out_len = 0;

	*status = 0;
	if (!n)
		return pcb_error(err, PCB_E_INVAL, "register of %zu bytes is "
				 "too large for fwctl here", len);
	rc = m == REG_SET ? f_rpc_write(f, in, out, n, &out_len, &scope) :
			    f_rpc(f, scope, in, out, n, &out_len);
	if (rc == -EPERM) {
		char why[320];

		fwctl_eperm_reason(why, sizeof(why), scope, fwctl_has_rawio());
		return pcb_error(err, PCB_E_DEVICE, "%s: %s", dev->name, why);
	}
	if (rc == -EBADMSG && m == REG_SET && f->max_scope <
	    FWCTL_RPC_DEBUG_WRITE_FULL)
		return pcb_error(err, PCB_E_DEVICE, "%s: the kernel's mlx5 "
				 "fwctl driver refused the ACCESS_REG write at "
				 "scope %s; a wider one taints the kernel "
				 "(TAINT_FWCTL): allow it with --fwctl-scope "
				 "%s, or use --backend mstreg", dev->name,
				 fwctl_scope_name(scope),
				 scope < FWCTL_RPC_DEBUG_WRITE ? "debug-write" :
				 "debug-write-full");
	if (rc == -EBADMSG && m == REG_SET)
		return pcb_error(err, PCB_E_DEVICE, "%s: the kernel's mlx5 "
				 "fwctl driver refused the ACCESS_REG write at "
				 "every scope up to DEBUG_WRITE_FULL",
				 dev->name);
	if (rc)
		return pcb_error(err, PCB_E_DEVICE, "%s: FWCTL_RPC (scope "
				 "%s): %s%s", dev->name,
				 fwctl_scope_name(scope), strerror(-rc),
				 rc == -EBADMSG ? " (command or scope not "
				 "allowed)" : "");
	rc = fwctl_access_reg_out(out, out_len, buf, len, dev->name, err);
	if (rc && out_len >= MLX5_MBOX_HDR && out[0] && f->have_caps &&
	    !(f->mlx5.uctx_caps & MLX5_UCTX_CAP_TOOLS_RESOURCES)) {
		size_t k = strlen(err->msg);

		snprintf(err->msg + k, sizeof(err->msg) - k, "; the fwctl "
			 "context lacks TOOLS_RESOURCES (uctx_caps 0x%x): the "
			 "firmware keeps tools registers such as PPCC from it",
			 f->mlx5.uctx_caps);
	}
	return rc;
}

const char *fwctl_node(const struct reg_dev *dev)
{
	return dev->ops == &fwctl_backend_ops ?
	       ((const struct fwctl_dev *)(const void *)dev)->node : NULL;
}

bool fwctl_uctx_caps(const struct reg_dev *dev, uint32_t *caps)
{
	const struct fwctl_dev *f;

	if (dev->ops != &fwctl_backend_ops)
		return false;
	f = (const struct fwctl_dev *)(const void *)dev;
	*caps = f->mlx5.uctx_caps;
	return f->have_caps;
}

int fwctl_write_scope(const struct reg_dev *dev)
{
	return dev->ops == &fwctl_backend_ops ?
	       ((const struct fwctl_dev *)(const void *)dev)->write_scope :
	       -1;
}

const struct reg_backend_ops fwctl_backend_ops = {
	.name = "fwctl",
	.caps = REG_CAP_REAL,
	.priv_size = sizeof(struct fwctl_dev),
	.open = f_open,
	.close = f_close,
	.access = f_access,
};
