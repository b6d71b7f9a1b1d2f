/* emu.c - a ConnectX-7's PCI config-space gateway for the real mstreg.
 *
 * LD_PRELOADed into Debian's mstreg 4.21 (mstflint), this library answers
 * the reads and writes mstreg makes on one fake device's sysfs `config`
 * file, and hands each access-register TLV it sends to the simulated
 * firmware (src/sim/firmware.c), whose state file persists from one
 * mstreg run to the next.  What is emulated, and why it is enough, is in
 * ../shared/spec/ppcc-mstreg-fwctl.md 3.2 and 3.2a:
 *
 *   vendor capability (ID 9) at VSEC_AT:
 *     +0x4 control   space [15:0]; status [31:29] != 0: space supported
 *     +0x8 counter   a new ticket per read
 *     +0xC semaphore plain dword
 *     +0x10 address  [29:0], flag bit 31: 1 = write; flipped when done
 *     +0x14 data
 *   space 2 (CR):     0xF0014 hardware id 0x218 (ConnectX-7); else 0
 *   space 3 (ICMD):   0x0 control (opcode [31:16], status [15:8], busy
 *                     bit 0), 0x1000 mailbox size, 0x100000 mailbox
 *   space 0xA:        the ICMD semaphore, a plain dword
 *
 * ICMD opcodes: 0x8400 (capabilities: "access register allowed on all
 * registers", dword 0 bit 29) and 0x9001 (access register: operation TLV
 * + register TLV + data).  Everything else is ICMD status 2 (bad opcode).
 *
 * A GET with the cmd_type of a write (enable 0x1, disable 0x2, set param
 * 0x8) is answered as the ConnectX-7 in issue #24 answered mstreg's read
 * before its write: with the slot's read-write state (counter_en,
 * trace_en, sl_bitmask, from the firmware's enable status), which mstreg
 * then keeps in every field it was not given.  The sim firmware answers
 * those GETs with the request alone, which would hide that merge.
 *
 * Environment (all set by tests/mstreg-emu/emu.inc):
 *   PCCB_EMU_CONFIG  the fake `config` file (matched by device and inode,
 *                    so any path to it, e.g. through a bind mount, works)
 *   PCCB_EMU_SIM     the sim device behind it (default "emu"), in
 *                    $XDG_STATE_HOME/pccbench/sim/NAME.dev
 *   PCCB_EMU_LOG     optional: one line per register access the firmware
 *                    got: "GET|SET <id> <register bytes in hex>"
 *
 * Every other file descriptor, and every other offset of the config file,
 * goes to the kernel unchanged.  mstreg is not instrumented, so neither
 * is this library (Makefile: no sanitizer flags).
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "adb.h"
#include "err.h"
#include "paths.h"
#include "ppcc.h"
#include "sim/firmware.h"

#define VSEC_AT		0x40
#define VS_CTRL		(VSEC_AT + 0x4)
#define VS_COUNTER	(VSEC_AT + 0x8)
#define VS_SEM		(VSEC_AT + 0xc)
#define VS_ADDR		(VSEC_AT + 0x10)
#define VS_DATA		(VSEC_AT + 0x14)
#define VS_END		(VSEC_AT + 0x18)

#define AS_ICMD_EXT	0x1
#define AS_CR		0x2
#define AS_ICMD		0x3
#define AS_SEMAPHORE	0xa

#define CR_HW_ID	0xf0014
#define CX7_HW_ID	0x218
#define ICMD_CTRL	0x0
#define ICMD_MB_SIZE	0x1000
#define ICMD_MB		0x100000
#define MB_BYTES	0x340

#define OP_QUERY_CAP	0x8400
#define OP_ACCESS_REG	0x9001
#define ICMD_BAD_OPCODE	0x2

/* The gateway, per mstreg process; the firmware's state is in its file. */
static struct {
	int known;		/* 1: config identified, -1: not configured */
	dev_t dev;
	ino_t ino;
	uint32_t ctrl, counter, sem, addr, data;
	uint32_t icmd_ctrl, icmd_sem;
	uint32_t mb[MB_BYTES / 4];	/* dwords as mstreg wrote them */
	struct simfw *fw;
	struct adb_reg *ppcc;		/* the layout, for the read-back */
} gw;

static void emu_say(const char *fmt, const char *arg)
{
	fprintf(stderr, "mstreg-emu: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
}

static bool is_config(int fd)
{
	struct stat st;

	if (!gw.known) {
		const char *p = getenv("PCCB_EMU_CONFIG");

		gw.known = -1;
		if (p && *p && !stat(p, &st)) {
			gw.dev = st.st_dev;
			gw.ino = st.st_ino;
			gw.known = 1;
		}
	}
	return gw.known == 1 && !fstat(fd, &st) && st.st_dev == gw.dev &&
	       st.st_ino == gw.ino;
}

static bool space_supported(uint32_t space)
{
	return space == AS_ICMD_EXT || space == AS_CR || space == AS_ICMD ||
	       space == AS_SEMAPHORE;
}

/* Mailbox bytes as the firmware sees them: each dword big endian. */
static uint8_t mb_byte(size_t i)
{
	return (uint8_t)(gw.mb[i / 4] >> (24 - 8 * (i % 4)));
}

static void mb_put(size_t i, uint8_t v)
{
	unsigned sh = 24 - 8 * (unsigned)(i % 4);

	gw.mb[i / 4] = (gw.mb[i / 4] & ~(0xffu << sh)) | (uint32_t)v << sh;
}

static void log_access(enum reg_method m, uint32_t id, const uint8_t *reg,
		       size_t len)
{
	const char *path = getenv("PCCB_EMU_LOG");
	FILE *fp;
	size_t i;

	if (!path || !*path || !(fp = fopen(path, "a")))
		return;
	fprintf(fp, "%s 0x%04x ", m == REG_SET ? "SET" : "GET", id);
	for (i = 0; i < len; i++)
		fprintf(fp, "%02x", reg[i]);
	fputc('\n', fp);
	fclose(fp);
}

/* The read-back of a write's GET (the head comment): the slot's RW state
 * from an enable-status query with the same index fields.
 */
static void write_readback(uint8_t *reg, size_t len)
{
	static const char *const rw[] = { "counter_en", "trace_en",
					   "sl_bitmask" };
	const struct adb_field *cmd;
	struct pcb_err err = { 0 };
	uint8_t q[MB_BYTES];
	uint32_t st = 0, c;
	size_t i;

	if (!gw.ppcc) {
		char path[4096];
		struct adb_db *db = NULL;

		if (pcb_data_file(path, sizeof(path), "reg/ppcc.adb", &err) ||
		    adb_db_load_file(&db, path, &err) ||
		    adb_reg_load(db, "PPCC", &gw.ppcc, &err)) {
			emu_say("%s", err.msg);
			adb_db_free(db);
			return;
		}
		adb_db_free(db);
	}
	cmd = adb_reg_field(gw.ppcc, "cmd_type");
	c = adb_get(cmd, reg);
	if (len < gw.ppcc->size || (c != PPCC_ENABLE && c != PPCC_DISABLE &&
				    c != PPCC_PARAM_SET))
		return;
	memcpy(q, reg, len);
	adb_set(cmd, q, PPCC_ENABLE_STATUS);
	if (simfw_access(gw.fw, REG_GET, PPCC_REG_ID, q, sizeof(q), &st,
			 &err) || st)
		return;
	for (i = 0; i < sizeof(rw) / sizeof(rw[0]); i++) {
		const struct adb_field *f = adb_reg_field(gw.ppcc, rw[i]);

		adb_set(f, reg, adb_get(f, q));
	}
}

/* Operation TLV (16 bytes): byte 2 [6:0] status; bytes 4-5 register id;
 * byte 6 r [7] and method [6:0] (1 query, 2 write); then the register TLV
 * header, its length in dwords (with the header) in bytes 16-17 [10:0],
 * and the register data from byte 20.
 */
static void access_reg(void)
{
	uint8_t reg[MB_BYTES];
	uint32_t id = (uint32_t)mb_byte(4) << 8 | mb_byte(5);
	uint32_t method = mb_byte(6) & 0x7f, status = 0;
	size_t dw = ((size_t)(mb_byte(16) & 0x7) << 8 | mb_byte(17));
	size_t len = dw ? (dw - 1) * 4 : 0, i;
	struct pcb_err err = { 0 };
	enum reg_method m = method == 2 ? REG_SET : REG_GET;

	if (len > MB_BYTES - 20)
		len = MB_BYTES - 20;
	memset(reg, 0, sizeof(reg));
	for (i = 0; i < len; i++)
		reg[i] = mb_byte(20 + i);
	if (method != 1 && method != 2) {
		status = REG_STATUS_BAD_METHOD;
	} else if (!gw.fw) {
		const char *name = getenv("PCCB_EMU_SIM");

		if (simfw_open(&gw.fw, name && *name ? name : "emu", &err)) {
			emu_say("%s", err.msg);
			gw.fw = NULL;
			status = REG_STATUS_NO_RESOURCE;
		}
	}
	if (!status) {
		log_access(m, id, reg, len);
		if (simfw_access(gw.fw, m, id, reg, sizeof(reg), &status,
				 &err)) {
			emu_say("%s", err.msg);
			status = REG_STATUS_BAD_PARAM;
		}
		if (!status && m == REG_GET && id == PPCC_REG_ID)
			write_readback(reg, len);
	}
	for (i = 0; i < len; i++)
		mb_put(20 + i, reg[i]);
	mb_put(2, (uint8_t)((mb_byte(2) & 0x80) | (status & 0x7f)));
	mb_put(6, (uint8_t)(mb_byte(6) | 0x80));	/* a response */
}

/* The go bit was set: run the opcode, clear busy, put the status. */
static void icmd_go(void)
{
	uint32_t op = gw.icmd_ctrl >> 16, st = 0;

	if (op == OP_QUERY_CAP) {
		gw.mb[0] = 1u << 29;	/* access register on all registers */
		gw.mb[1] = 0;
	} else if (op == OP_ACCESS_REG) {
		access_reg();	/* its status is in the operation TLV */
	} else {
		char hex[16];

		snprintf(hex, sizeof(hex), "0x%x", op);
		emu_say("ICMD opcode %s is not emulated", hex);
		st = ICMD_BAD_OPCODE;
	}
	gw.icmd_ctrl = (gw.icmd_ctrl & ~0xff01u) | st << 8;
}

static uint32_t space_read(uint32_t space, uint32_t a)
{
	switch (space) {
	case AS_CR:
		return a == CR_HW_ID ? CX7_HW_ID : 0;
	case AS_ICMD:
	case AS_ICMD_EXT:
		if (a == ICMD_CTRL)
			return gw.icmd_ctrl;
		if (a == ICMD_MB_SIZE)
			return MB_BYTES;
		if (a >= ICMD_MB && a < ICMD_MB + MB_BYTES)
			return gw.mb[(a - ICMD_MB) / 4];
		return 0;
	case AS_SEMAPHORE:
		return a == 0 ? gw.icmd_sem : 0;
	default:
		return 0;
	}
}

static void space_write(uint32_t space, uint32_t a, uint32_t v)
{
	switch (space) {
	case AS_ICMD:
	case AS_ICMD_EXT:
		if (a == ICMD_CTRL) {
			gw.icmd_ctrl = v;
			if (v & 1)
				icmd_go();
		} else if (a >= ICMD_MB && a < ICMD_MB + MB_BYTES) {
			gw.mb[(a - ICMD_MB) / 4] = v;
		}
		break;
	case AS_SEMAPHORE:
		if (a == 0)
			gw.icmd_sem = v;
		break;
	default:
		break;		/* CR space: writes go nowhere */
	}
}

static uint32_t vsec_read(off_t off)
{
	uint32_t space = gw.ctrl & 0xffff;

	switch (off) {
	case VS_CTRL:
		return space | (space_supported(space) ? 1u << 29 : 0);
	case VS_COUNTER:
		return ++gw.counter;
	case VS_SEM:
		return gw.sem;
	case VS_ADDR:
		return gw.addr;
	case VS_DATA:
		return gw.data;
	default:
		return 0;
	}
}

static void vsec_write(off_t off, uint32_t v)
{
	uint32_t space = gw.ctrl & 0xffff;

	switch (off) {
	case VS_CTRL:
		gw.ctrl = v;
		break;
	case VS_SEM:
		gw.sem = v;
		break;
	case VS_ADDR:
		if (v >> 31) {		/* write: done when the flag drops */
			space_write(space, v & 0x3fffffff, gw.data);
			gw.addr = v & 0x7fffffff;
		} else {		/* read: done when the flag rises */
			gw.data = space_read(space, v & 0x3fffffff);
			gw.addr = v | 1u << 31;
		}
		break;
	case VS_DATA:
		gw.data = v;
		break;
	default:
		break;
	}
}

static bool emulated(int fd, size_t n, off_t off)
{
	return off >= VS_CTRL && off < VS_END && n == 4 && !(off & 3) &&
	       is_config(fd);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off);
ssize_t pread64(int fd, void *buf, size_t n, off_t off);
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off);

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	uint32_t v;

	if (!emulated(fd, n, off))
		return syscall(SYS_pread64, fd, buf, n, off);
	v = htole32(vsec_read(off));
	memcpy(buf, &v, 4);
	return 4;
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	uint32_t v;

	if (!emulated(fd, n, off))
		return syscall(SYS_pwrite64, fd, buf, n, off);
	memcpy(&v, buf, 4);
	vsec_write(off, le32toh(v));
	return 4;
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	return pwrite(fd, buf, n, off);
}

__attribute__((destructor)) static void emu_fini(void)
{
	simfw_close(gw.fw);
	adb_reg_free(gw.ppcc);
	gw.fw = NULL;
	gw.ppcc = NULL;
}
