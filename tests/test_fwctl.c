/* fwctl request bytes and reply decoding; replies for another request;
 * node lookup, name resolution and libpci discovery on fixture trees
 * (tests/fixtures).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "testutil.h"
#include "discover.h"
#include "fwctl.h"
#include "ppcc.h"
#include "mstreg-emu/fields.h"

/* A fake fwctl device: ioctl() on the file the backend opened as
 * /dev/fwctl/fwctl0 answers FWCTL_INFO as mlx5 and FWCTL_RPC with the
 * request's register echoed, value 1234, then one edit (below).  Every
 * other ioctl goes to the kernel.
 */
enum cross { ECHO, CROSS_INDEX, CROSS_SLOT, CROSS_CMD, CROSS_PORT,
	     CROSS_LP_MSB };
static enum cross cross;
static ino_t fake_ino;
static uint8_t last_in[MLX5_MBOX_HDR + 512];	/* the last RPC's request */
/* canned kernel answers: a write below scope refuse_below is EBADMSG (the
 * mlx5 driver's "not allowed"), at eperm_from or above EPERM; the scopes
 * of the RPCs so far; FWCTL_INFO's uctx_caps (none: no device data); a
 * firmware status byte in every reply */
static int refuse_below, eperm_from = 99, scopes[16];
static size_t nscopes;
static uint32_t fake_caps = MLX5_UCTX_CAP_TOOLS_RESOURCES;
static bool fake_no_data;
static uint8_t fw_status;

static bool is_fake(int fd)
{
	struct stat st;

	return fake_ino && !fstat(fd, &st) && st.st_ino == fake_ino;
}

int ioctl(int fd, unsigned long req, ...)
{
	struct fwctl_rpc *rpc;
	uint8_t *reg;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!is_fake(fd))
		return (int)syscall(SYS_ioctl, fd, req, arg);
	if (req == FWCTL_INFO) {
		struct fwctl_info *info = arg;
		struct fwctl_info_mlx5 d = { 0x17, fake_caps };

		info->out_device_type = FWCTL_DEVICE_TYPE_MLX5;
		if (info->device_data_len >= sizeof(d) && !fake_no_data)
			memcpy((void *)(uintptr_t)info->out_device_data, &d,
			       sizeof(d));
		info->device_data_len = fake_no_data ? 0 : sizeof(d);
		return 0;
	}
	if (req != FWCTL_RPC) {
		errno = ENOTTY;
		return -1;
	}
	rpc = arg;
	if (nscopes < sizeof(scopes) / sizeof(scopes[0]))
		scopes[nscopes++] = (int)rpc->scope;
	if (((uint8_t *)(uintptr_t)rpc->in)[7] == 0 &&	/* op_mod: write */
	    (int)rpc->scope < refuse_below) {
		errno = EBADMSG;
		return -1;
	}
	if ((int)rpc->scope >= eperm_from) {
		errno = EPERM;
		return -1;
	}
	memset(last_in, 0, sizeof(last_in));
	memcpy(last_in, (void *)(uintptr_t)rpc->in,
	       rpc->in_len < sizeof(last_in) ? rpc->in_len : sizeof(last_in));
	memcpy((void *)(uintptr_t)rpc->out, (void *)(uintptr_t)rpc->in,
	       rpc->in_len);
	memset((void *)(uintptr_t)rpc->out, 0, MLX5_MBOX_HDR);
	((uint8_t *)(uintptr_t)rpc->out)[0] = fw_status;
	reg = (uint8_t *)(uintptr_t)rpc->out + MLX5_MBOX_HDR;
	reg[8] = 0;			/* value (dword 2) = 1234 */
	reg[9] = 0;
	reg[10] = 1234 >> 8;
	reg[11] = 1234 & 0xff;
	switch (cross) {
	case CROSS_INDEX:		/* algo_param_index, dw1 [31:16] */
		reg[4] = 0;
		reg[5] = 4;
		break;
	case CROSS_SLOT:		/* algo_slot, dw1 [3:0] */
		reg[7] = (uint8_t)((reg[7] & 0xf0) | 3);
		break;
	case CROSS_CMD:			/* cmd_type, dw0 [7:0] */
		reg[3] = 0x7;
		break;
	case CROSS_PORT:		/* local_port, dw0 [23:16] */
		reg[1] = 2;
		break;
	case CROSS_LP_MSB:		/* lp_msb, dw0 [13:12] */
		reg[2] |= 0x10;
		break;
	case ECHO:
		break;
	}
	rpc->out_len = rpc->in_len;
	return 0;
}

static void test_struct_layout(void **state)
{
	(void)state;
	/* include/uapi/fwctl/fwctl.h */
	assert_int_equal(sizeof(struct fwctl_rpc), 32);
	assert_int_equal(sizeof(struct fwctl_info), 24);
	assert_int_equal(FWCTL_INFO, 0x9a00);
	assert_int_equal(FWCTL_RPC, 0x9a01);
}

static void test_request_bytes(void **state)
{
	static const uint8_t get_hdr[16] = {
		0x08, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x50, 0x6e, 0x00, 0x00, 0x00, 0x00 };
	static const uint8_t set_hdr[16] = {
		0x08, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x50, 0x6e, 0x00, 0x00, 0x00, 0x00 };
	uint8_t ppcc[252], in[300];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ppcc); i++)
		ppcc[i] = (uint8_t)i;
	assert_int_equal(fwctl_access_reg_in(in, sizeof(in), REG_GET, 0x506e,
					     ppcc, 252), 268);
	assert_memory_equal(in, get_hdr, 16);
	assert_memory_equal(in + 16, ppcc, 252);
	assert_int_equal(fwctl_scope(REG_GET), FWCTL_RPC_DEBUG_READ_ONLY);
	assert_int_equal(fwctl_access_reg_in(in, sizeof(in), REG_SET, 0x506e,
					     ppcc, 252), 268);
	assert_memory_equal(in, set_hdr, 16);
	assert_int_equal(fwctl_scope(REG_SET), FWCTL_RPC_CONFIGURATION);
	assert_int_equal(fwctl_access_reg_in(in, 100, REG_GET, 0x506e, ppcc,
					     252), 0);
}

static void test_replies(void **state)
{
	uint8_t out[268] = { 0 }, data[252];
	struct pcb_err err = { 0 };
	size_t i;

	(void)state;
	for (i = 16; i < sizeof(out); i++)
		out[i] = (uint8_t)(i * 3);
	assert_int_equal(fwctl_access_reg_out(out, 268, data, 252, "d", &err),
			 0);
	assert_memory_equal(data, out + 16, 252);
	/* bad status, with its syndrome */
	out[0] = 0x03;
	out[4] = 0x12;
	out[5] = 0x34;
	out[6] = 0x56;
	out[7] = 0x78;
	assert_int_equal(fwctl_access_reg_out(out, 268, data, 252, "d", &err),
			 -PCB_E_DEVICE);
	assert_string_equal(err.msg, "d: ACCESS_REG failed: status 0x3 (bad "
			    "parameter), syndrome 0x12345678");
	pcb_err_reset(&err);
	out[0] = 0x51;
	assert_int_equal(fwctl_access_reg_out(out, 268, data, 252, "d", &err),
			 -PCB_E_DEVICE);
	assert_non_null(strstr(err.msg, "bad output length"));
	/* short replies */
	out[0] = 0;
	pcb_err_reset(&err);
	assert_int_equal(fwctl_access_reg_out(out, 8, data, 252, "d", &err),
			 -PCB_E_DEVICE);
	pcb_err_reset(&err);
	assert_int_equal(fwctl_access_reg_out(out, 100, data, 252, "d", &err),
			 -PCB_E_DEVICE);
	assert_non_null(strstr(err.msg, "expected 268"));
}

static void test_sysfs(void **state)
{
	struct pcb_err err = { 0 };
	char node[32], bdf[32];

	(void)state;
	setenv("PCCBENCH_SYSFS", "tests/fixtures/sysfs", 1);
	assert_int_equal(fwctl_find_node("0000:08:00.0", node, sizeof(node)),
			 0);
	assert_string_equal(node, "fwctl0");
	assert_int_not_equal(fwctl_find_node("0000:08:00.1", node,
					     sizeof(node)), 0);
	assert_int_equal(pcb_resolve_pci("08:00.1", bdf, sizeof(bdf), &err),
			 0);
	assert_string_equal(bdf, "0000:08:00.1");
	assert_int_equal(pcb_resolve_pci("mlx5_1", bdf, sizeof(bdf), &err),
			 0);
	assert_string_equal(bdf, "0000:08:00.1");
	assert_int_equal(pcb_resolve_pci("mlx5_9", bdf, sizeof(bdf), &err),
			 -PCB_E_NOENT);
	assert_int_equal(pcb_resolve_pci("eth0", bdf, sizeof(bdf), &err),
			 -PCB_E_NOENT);
	assert_int_not_equal(pcb_resolve_pci("0000:08:40.0", bdf, sizeof(bdf),
					     &err), 0);
	assert_true(pcb_is_pci_name("08:00.0"));
	assert_false(pcb_is_pci_name("sim:lab"));
	/* issue #24 item 5: devlink's and rdma's handles, the port of one */
	assert_int_equal(pcb_resolve_pci("pci/0000:08:00.1", bdf, sizeof(bdf),
					 &err), 0);
	assert_string_equal(bdf, "0000:08:00.1");
	assert_int_equal(pcb_resolve_pci("mlx5_1/1", bdf, sizeof(bdf), &err),
			 0);
	assert_string_equal(bdf, "0000:08:00.1");
	assert_int_equal(pcb_resolve_pci("mlx5_1/0", bdf, sizeof(bdf), &err),
			 -PCB_E_INVAL);
	assert_int_equal(pcb_resolve_pci("pci/mlx5_1", bdf, sizeof(bdf), &err),
			 -PCB_E_INVAL);
	assert_int_equal(pcb_resolve_pci("08:00.0 ", bdf, sizeof(bdf), &err),
			 -PCB_E_NOENT);
	assert_int_equal(pcb_handle_port("mlx5_0/2"), 2);
	assert_int_equal(pcb_handle_port("mlx5_0"), 1);
	assert_int_equal(pcb_handle_port("mlx5_0/x"), 1);
	assert_int_equal(pcb_handle_port("mlx5_0/256"), 1);
	assert_int_equal(pcb_handle_port("0000:08:00.0"), 1);
}

static void test_discover(void **state)
{
	struct pcb_err err = { 0 };
	struct pcb_nic *v = NULL;
	size_t n = 0;
	bool vf;

	(void)state;
	assert_string_equal(pcb_nic_model(0x1021, &vf), "ConnectX-7");
	assert_false(vf);
	assert_string_equal(pcb_nic_model(0xa2dc, &vf), "BlueField-3");
	pcb_nic_model(0x101e, &vf);
	assert_true(vf);
	assert_null(pcb_nic_model(0x1234, &vf));
	setenv("PCCBENCH_SYSFS", "tests/fixtures/sysfs", 1);
	setenv("PCCBENCH_PCI_DUMP", "tests/fixtures/pci/lspci-x.txt", 1);
	assert_int_equal(pcb_discover(&v, &n, &err), 0);
	assert_int_equal(n, 4);		/* the Intel device is not ours */
	assert_string_equal(v[0].bdf, "0000:03:00.0");
	assert_string_equal(v[0].model, "BlueField-3");
	assert_string_equal(v[0].netdev, "p0");
	assert_string_equal(v[1].bdf, "0000:08:00.0");
	assert_string_equal(v[1].model, "ConnectX-7");
	assert_string_equal(v[1].netdev, "ens1f0np0");
	assert_string_equal(v[1].rdma, "mlx5_0");
	assert_string_equal(v[1].fwctl, "fwctl0");
	assert_string_equal(v[2].fwctl, "");
	assert_true(v[3].vf);
	free(v);
	/* a broken dump is an error, not an exit */
	setenv("PCCBENCH_PCI_DUMP", "/nonexistent/dump", 1);
	assert_int_equal(pcb_discover(&v, &n, &err), -PCB_E_DEVICE);
	assert_non_null(strstr(err.msg, "PCI scan failed"));
	unsetenv("PCCBENCH_PCI_DUMP");
}

/* The fake fwctl node in a temp dir (dir: "/tmp/pccb-fwctl-XXXXXX"),
 * a fwctl device on it and PPCC over that.
 */
static void fake_open(char *dir, struct reg_dev **dev, struct ppcc *p)
{
	struct pcb_err err = { 0 };
	char path[200];
	struct stat st;
	int fd;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fwctl", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/fwctl/fwctl0", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	close(fd);
	fake_ino = st.st_ino;
	setenv("PCCBENCH_SYSFS", "tests/fixtures/sysfs", 1);
	setenv("PCCBENCH_DEVROOT", dir, 1);
	assert_int_equal(reg_dev_open(dev, &fwctl_backend_ops, "nic",
				      "0000:08:00.0", &err), 0);
	assert_int_equal(ppcc_init(p, *dev, tu_ppcc_layout(), &err), 0);
	cross = ECHO;
}

static void fake_close(const char *dir, struct reg_dev *dev, struct ppcc *p)
{
	char path[200];

	ppcc_release(p);
	reg_dev_close(dev);
	fake_ino = 0;
	snprintf(path, sizeof(path), "%s/fwctl/fwctl0", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/fwctl", dir);
	rmdir(path);
	rmdir(dir);
	unsetenv("PCCBENCH_DEVROOT");
}

/* A reply for another index, slot, cmd_type or port is an error (exit
 * class 2) naming the received and the requested value; for a get and
 * for a set.
 */
static void test_crossed_reply(void **state)
{
	static const struct {
		enum cross cross;
		const char *want;
		bool set;
	} rows[] = {
		{ CROSS_INDEX, "algo_param_index 4 (requested 1)", false },
		{ CROSS_SLOT, "algo_slot 3 (requested 0)", false },
		{ CROSS_CMD, "cmd_type 0x7 (requested 0x6)", false },
		{ CROSS_PORT, "local_port 2 (requested 1)", false },
		{ CROSS_LP_MSB, "lp_msb 1 (requested 0)", false },
		{ CROSS_INDEX, "algo_param_index 4 (requested 1)", true },
		{ CROSS_CMD, "cmd_type 0x7 (requested 0x8)", true },
	};
	char dir[] = "/tmp/pccb-fwctl-XXXXXX";
	struct pcb_err err = { 0 };
	struct reg_dev *dev = NULL;
	struct ppcc p;
	uint32_t v = 0;
	size_t i;
	int rc;

	(void)state;
	fake_open(dir, &dev, &p);
	assert_int_equal(ppcc_param_get(&p, 0, 1, &v, &err), 0);
	assert_int_equal(v, 1234);
	assert_int_equal(ppcc_param_set(&p, 0, 1, 5, &err), 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		cross = rows[i].cross;
		pcb_err_reset(&err);
		rc = rows[i].set ? ppcc_param_set(&p, 0, 1, 5, &err) :
				   ppcc_param_get(&p, 0, 1, &v, &err);
		if (rc != -PCB_E_DEVICE || !strstr(err.msg, rows[i].want))
			fail_msg("row %zu: rc %d, '%s'", i, rc, err.msg);
		assert_int_equal(pcb_exit_code(rc), 2);
		assert_non_null(strstr(err.msg, "nic: PPCC "));
		assert_null(strchr(err.msg, '\n'));
	}
	fake_close(dir, dev, &p);
}


/* Issue #24 item 1: each operation of tests/mstreg-emu/writes.txt puts
 * the register listed there in the ACCESS_REG mailbox, with the method
 * (op_mod) listed; tests/e2e/mstreg.sh checks the real mstreg against the
 * same lines.  Read-only fields are zero: fwctl sends what ppcc built.
 */
static void test_writes(void **state)
{
	char dir[] = "/tmp/pccb-fwctl-XXXXXX", line[512], got[1024], exp[600];
	struct pcb_err err = { 0 };
	struct reg_dev *dev = NULL;
	struct ppcc p;
	unsigned ops = 0;
	FILE *fp;

	(void)state;
	fake_open(dir, &dev, &p);
	fp = fopen("tests/mstreg-emu/writes.txt", "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		char *cmd = strchr(line, '|'), *want;
		unsigned a, b, c;
		uint32_t vals[64];
		size_t n;
		int rc = -1;

		if (line[0] == '#' || !cmd || !(want = strchr(cmd + 1, '|')))
			continue;
		*cmd = '\0';
		want[strcspn(want, "\n")] = '\0';
		want++;
		memset(last_in, 0, sizeof(last_in));
		assert_int_equal(ppcc_op_sls(line, &p.sl_mask), 0);
		if (sscanf(line, "enable %u counters", &a) == 1 &&
		    strstr(line, "counters"))
			rc = ppcc_enable(&p, a, true, &err);
		else if (sscanf(line, "enable %u", &a) == 1)
			rc = ppcc_enable(&p, a, false, &err);
		else if (sscanf(line, "disable %u", &a) == 1)
			rc = ppcc_disable(&p, a, &err);
		else if (sscanf(line, "param set %u %u %u", &a, &b, &c) == 3)
			rc = ppcc_param_set(&p, a, b, c, &err);
		else if (sscanf(line, "counters clear %u", &a) == 1)
			rc = ppcc_counters(&p, a, true, vals, 64, &n, &err);
		else
			fail_msg("writes.txt: unknown operation '%s'", line);
		assert_int_equal(rc, 0);
		snprintf(got, sizeof(got), "%s ", last_in[7] ? "GET" : "SET");
		ppcc_fields(p.layout, last_in + MLX5_MBOX_HDR,
			    got + 4, sizeof(got) - 4);
		/* and no read-only field set */
		snprintf(exp, sizeof(exp), "%s | RO", want);
		if (strcmp(got, exp))
			fail_msg("'%s': fwctl sent [%s], expected [%s]", line,
				 got, exp);
		ops++;
	}
	fclose(fp);
	assert_int_equal(ops, 7);
	fake_close(dir, dev, &p);
}

/* The scopes the RPCs so far went at, as "0 2 3", and forget them. */
static const char *scopes_seen(void)
{
	static char buf[64];
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < nscopes; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d",
				      i ? " " : "", scopes[i]);
	nscopes = 0;
	return buf;
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* Issue #24 item 3: a write goes at the narrowest scope the kernel takes,
 * climbs only on EBADMSG, keeps the scope that worked; EPERM and a refusal
 * at every scope say why; reads stay at DEBUG_READ_ONLY.  Issue 37.9:
 * never to a tainting scope unless allowed (--fwctl-scope).
 */
static void test_scopes(void **state)
{
	char dir[] = "/tmp/pccb-fwctl-XXXXXX", sys[] = "/tmp/pccb-sys-XXXXXX";
	char path[200], want[400];
	struct pcb_err err = { 0 };
	struct reg_dev *dev = NULL;
	struct ppcc p;
	uint32_t v;

	(void)state;
	fake_open(dir, &dev, &p);
	nscopes = 0;
	assert_int_equal(ppcc_param_set(&p, 0, 1, 5, &err), 0);
	assert_string_equal(scopes_seen(), "0");
	assert_int_equal(ppcc_param_get(&p, 0, 1, &v, &err), 0);
	assert_string_equal(scopes_seen(), "1");
	/* a driver that takes writes from DEBUG_WRITE on: not asked, no
	 * tainting scope is tried, and the refusal says how to allow it */
	refuse_below = FWCTL_RPC_DEBUG_WRITE;
	assert_int_equal(ppcc_param_set(&p, 0, 1, 5, &err), -PCB_E_DEVICE);
	assert_string_equal(scopes_seen(), "0");
	assert_non_null(strstr(err.msg, "refused the ACCESS_REG write at scope "
			       "CONFIGURATION; a wider one taints the kernel "
			       "(TAINT_FWCTL): allow it with --fwctl-scope "
			       "debug-write, or use --backend mstreg"));
	pcb_err_reset(&err);
	/* allowed: one refusal, then the device's writes start there */
	fwctl_allow_scope(dev, FWCTL_RPC_DEBUG_WRITE_FULL);
	assert_int_equal(ppcc_param_set(&p, 0, 1, 5, &err), 0);
	assert_string_equal(scopes_seen(), "0 2");
	assert_int_equal(ppcc_enable(&p, 1, false, &err), 0);
	assert_string_equal(scopes_seen(), "2");
	assert_int_equal(fwctl_write_scope(dev), FWCTL_RPC_DEBUG_WRITE);
	/* only DEBUG_WRITE_FULL, which the kernel refuses with EPERM: the
	 * cause (a lockdown mode in the (fake) sysfs is no part of it) */
	refuse_below = FWCTL_RPC_DEBUG_WRITE_FULL;
	eperm_from = FWCTL_RPC_DEBUG_WRITE_FULL;
	assert_non_null(mkdtemp(sys));
	snprintf(path, sizeof(path), "%s/kernel", sys);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/kernel/security", sys);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/kernel/security/lockdown", sys);
	write_file(path, "none [integrity] confidentiality\n");
	setenv("PCCBENCH_SYSFS", sys, 1);
	assert_int_equal(ppcc_param_set(&p, 0, 1, 5, &err), -PCB_E_DEVICE);
	assert_string_equal(scopes_seen(), "2 3");
	fwctl_eperm_reason(want, sizeof(want), FWCTL_RPC_DEBUG_WRITE_FULL,
			   fwctl_has_rawio());
	assert_non_null(strstr(err.msg, want));
	assert_null(strstr(err.msg, "lockdown"));
	assert_int_equal(fwctl_write_scope(dev), FWCTL_RPC_DEBUG_WRITE);
	/* refused at every scope */
	pcb_err_reset(&err);
	refuse_below = 4;
	eperm_from = 99;
	assert_int_equal(ppcc_param_set(&p, 0, 1, 5, &err), -PCB_E_DEVICE);
	assert_string_equal(scopes_seen(), "2 3");
	assert_non_null(strstr(err.msg, "refused the ACCESS_REG write at "
				"every scope up to DEBUG_WRITE_FULL"));
	assert_null(strchr(err.msg, '\n'));
	refuse_below = 0;
	unlink(path);
	snprintf(path, sizeof(path), "%s/kernel/security", sys);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/kernel", sys);
	rmdir(path);
	rmdir(sys);
	fake_close(dir, dev, &p);
}

/* EPERM's cause (issue 37.9): the fwctl core's one EPERM is
 * DEBUG_WRITE_FULL without CAP_SYS_RAWIO, and it has no lockdown check;
 * any other EPERM is said to come from elsewhere.
 */
static void test_eperm_reasons(void **state)
{
	static const struct {
		int scope;
		bool rawio;
		const char *has, *hasnt;
	} rows[] = {
		{ FWCTL_RPC_DEBUG_WRITE_FULL, false, "scope DEBUG_WRITE_FULL: "
		  "the kernel allows it only with CAP_SYS_RAWIO, which "
		  "pccbench does not hold (run as root)", "lockdown" },
		{ FWCTL_RPC_DEBUG_WRITE_FULL, true, "scope DEBUG_WRITE_FULL "
		  "with EPERM although pccbench holds CAP_SYS_RAWIO: not the "
		  "fwctl core's check", "lockdown" },
		{ FWCTL_RPC_CONFIGURATION, false, "scope CONFIGURATION with "
		  "EPERM: not the fwctl core's check (its one EPERM is "
		  "DEBUG_WRITE_FULL without CAP_SYS_RAWIO); the mlx5 driver "
		  "or a security module refused it", "run as root" },
	};
	char buf[400];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		fwctl_eperm_reason(buf, sizeof(buf), rows[i].scope,
				   rows[i].rawio);
		if (!strstr(buf, rows[i].has) || strstr(buf, rows[i].hasnt))
			fail_msg("row %zu: '%s'", i, buf);
	}
}

/* /sys/kernel/security/lockdown: the bracketed mode, "" otherwise. */
static void test_lockdown_file(void **state)
{
	static const struct {
		const char *text, *mode;
	} rows[] = {
		{ "none [integrity] confidentiality\n", "integrity" },
		{ "[none] integrity confidentiality\n", "none" },
		{ "none integrity [confidentiality]", "confidentiality" },
		{ "no brackets\n", "" }, { "[]\n", "" }, { "", "" },
	};
	char sys[] = "/tmp/pccb-sys-XXXXXX", path[200], mode[32];
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(sys));
	setenv("PCCBENCH_SYSFS", sys, 1);
	fwctl_lockdown(mode, sizeof(mode));	/* no such file */
	assert_string_equal(mode, "");
	snprintf(path, sizeof(path), "%s/kernel", sys);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/kernel/security", sys);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/kernel/security/lockdown", sys);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		write_file(path, rows[i].text);
		fwctl_lockdown(mode, sizeof(mode));
		assert_string_equal(mode, rows[i].mode);
	}
	unlink(path);
	snprintf(path, sizeof(path), "%s/kernel/security", sys);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/kernel", sys);
	rmdir(path);
	rmdir(sys);
	setenv("PCCBENCH_SYSFS", "tests/fixtures/sysfs", 1);
}

/* FWCTL_INFO's uctx_caps: a firmware error on a context without
 * TOOLS_RESOURCES says so; with it, or when the kernel gave no device
 * data, the error is the firmware's alone.
 */
static void test_uctx_caps(void **state)
{
	static const struct {
		uint32_t caps;
		bool no_data, hint;
	} rows[] = {
		{ 0x0, false, true }, { 0x3, false, true },
		{ MLX5_UCTX_CAP_TOOLS_RESOURCES, false, false },
		{ 0x0, true, false },
	};
	char dir[] = "/tmp/pccb-fwctl-XXXXXX";
	struct pcb_err err = { 0 };
	struct reg_dev *dev = NULL;
	struct ppcc p;
	uint32_t v, caps;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memcpy(dir, "/tmp/pccb-fwctl-XXXXXX", sizeof(dir));
		fake_caps = rows[i].caps;
		fake_no_data = rows[i].no_data;
		fake_open(dir, &dev, &p);
		assert_int_equal(fwctl_uctx_caps(dev, &caps), !rows[i].no_data);
		if (!rows[i].no_data)
			assert_int_equal(caps, rows[i].caps);
		fw_status = 0x3;
		pcb_err_reset(&err);
		assert_int_equal(ppcc_param_get(&p, 0, 1, &v, &err),
				 -PCB_E_DEVICE);
		assert_non_null(strstr(err.msg, "bad parameter"));
		if (!!strstr(err.msg, "lacks TOOLS_RESOURCES") != rows[i].hint)
			fail_msg("row %zu: '%s'", i, err.msg);
		fw_status = 0;
		assert_int_equal(ppcc_param_get(&p, 0, 1, &v, &err), 0);
		fake_close(dir, dev, &p);
	}
	fake_caps = MLX5_UCTX_CAP_TOOLS_RESOURCES;
	fake_no_data = false;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_struct_layout),
		cmocka_unit_test(test_request_bytes),
		cmocka_unit_test(test_replies),
		cmocka_unit_test(test_crossed_reply),
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_scopes),
		cmocka_unit_test(test_eperm_reasons),
		cmocka_unit_test(test_lockdown_file),
		cmocka_unit_test(test_uctx_caps),
		cmocka_unit_test(test_sysfs),
		cmocka_unit_test(test_discover),
	};

	return cmocka_run_group_tests_name("fwctl", tests, NULL, NULL);
}
