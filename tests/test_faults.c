/* Fault paths the simulator cannot produce, through a scripted register
 * transport: the sim's firmware behind a backend whose every SET (and,
 * when asked, GET) takes its fate from cmocka's will_return queue —
 * the device ignores a write, the transport fails halfway through a
 * multi-param write, the device answers BUSY, the read-back fails.
 * Each test then checks what the user is told, what the journal holds,
 * and that the device holds what the tool says it holds.
 */
#include "cli.h"
#include "testutil.h"
#include "fsafe.h"
#include "journal.h"
#include "mstreg.h"
#include "paths.h"
#include "ppcc.h"
#include "session.h"
#include "sim/firmware.h"
#include "transport.h"

enum act {
	PASS = 1,	/* to the sim's firmware */
	IGNORE,		/* SET: "done", but nothing reaches the device */
	IO_FAIL,	/* the transport fails */
	BUSY,		/* the device answers status BUSY */
};

struct scr_dev {
	struct reg_dev base;
	struct reg_dev *inner;
};

static bool script_readback;	/* the GETs after a SET take a will_return */
static bool after_set;

static const struct reg_backend_ops scr_ops[2];

static struct scr_dev *to_scr(struct reg_dev *dev)
{
	if (dev->ops != &scr_ops[0] && dev->ops != &scr_ops[1])
		abort();
	return (struct scr_dev *)dev;
}

static int scr_open(struct reg_dev *dev, const char *spec,
		    struct pcb_err *err)
{
	return reg_dev_open(&to_scr(dev)->inner, &sim_backend_ops, "sim:scr",
			    spec, err);
}

static void scr_close(struct reg_dev *dev)
{
	reg_dev_close(to_scr(dev)->inner);
}

/* Every SET asks the script; a GET only after a SET when
 * script_readback is set (the reads before a write pass).
 */
static int set_act(void)
{
	return mock_type(int);
}

static int get_act(void)
{
	if (!script_readback || !after_set)
		return PASS;
	return mock_type(int);
}

static int scr_access(struct reg_dev *dev, enum reg_method m,
		      uint32_t reg_id, uint8_t *buf, size_t len,
		      uint32_t *status, struct pcb_err *err)
{
	struct reg_dev *in = to_scr(dev)->inner;
	int act = m == REG_SET ? set_act() : get_act();

	after_set |= m == REG_SET;
	*status = 0;
	switch (act) {
	case IGNORE:
		return 0;
	case IO_FAIL:
		return pcb_error(err, PCB_E_IO, "scripted: transport failed");
	case BUSY:
		*status = REG_STATUS_BUSY;
		return 0;
	default:
		return in->ops->access(in, m, reg_id, buf, len, status, err);
	}
}

/* [0]: a NIC with bulk set (fwctl-like); [1]: one SET per param
 * (mstreg-like).
 */
static const struct reg_backend_ops scr_ops[2] = {
	{ .name = "scripted", .caps = REG_CAP_REAL,
	  .priv_size = sizeof(struct scr_dev), .open = scr_open,
	  .close = scr_close, .access = scr_access },
	{ .name = "scripted-nobulk", .caps = REG_CAP_REAL | REG_CAP_NO_BULK_SET,
	  .priv_size = sizeof(struct scr_dev), .open = scr_open,
	  .close = scr_close, .access = scr_access },
};

static char errbuf[8192], outbuf[16384];

static int run(struct session *s, const char *line)
{
	return tu_run_line(s, line, outbuf, sizeof(outbuf), errbuf,
			   sizeof(errbuf));
}

/* A real-NIC session (confirmation given, as -y does) on the scripted
 * transport over a fresh sim firmware `name`.
 */
static void open_scripted(struct session *s, const char *name, int kind)
{
	struct adb_reg *layout = tu_ppcc_layout();	/* the session's */

	sess_init(s, name);
	s->yes = true;
	assert_int_equal(reg_dev_open(&s->cur->dev, &scr_ops[kind], name, name,
				      &s->err), 0);
	assert_int_equal(ppcc_init(&s->cur->ppcc, s->cur->dev, layout, &s->err),
			 0);
	s->cur->have_ppcc = true;
	snprintf(s->cur->devid, sizeof(s->cur->devid), "%s", name);
	assert_int_equal(journal_open(&s->cur->journal, s->cur->devid, &s->err),
			 0);
}

/* A param's raw value as the firmware holds it, read past the script. */
static uint32_t device_raw(struct session *s, unsigned index)
{
	struct ppcc p;
	uint32_t v = 0;

	p = s->cur->ppcc;
	p.dev = to_scr(s->cur->dev)->inner;
	assert_int_equal(ppcc_param_get(&p, 0, index, &v, &s->err), 0);
	return v;
}

#define ALPHA 1		/* ZTR_RTT's param indexes (algos/ztr_rtt) */
#define MAX_DEC 2

static void test_write_ignored(void **state)
{
	struct session s;
	uint32_t before;
	int rc;

	(void)state;
	open_scripted(&s, "scr-ignored", 0);
	before = device_raw(&s, ALPHA);
	will_return(set_act, IGNORE);
	rc = run(&s, "param set ALPHA 0.2");
	assert_int_equal(pcb_exit_code(rc), 2);
	assert_non_null(strstr(errbuf, "ALPHA: sent 0.2 (raw 13107) but read "
			       "back 0.1 (raw 6553); the device ignored the "
			       "write"));
	assert_int_equal(device_raw(&s, ALPHA), before);
	/* the journal says the write did not take */
	assert_int_equal(run(&s, "journal show"), 0);
	assert_non_null(strstr(outbuf, "ALPHA"));
	assert_non_null(strstr(outbuf, "failed"));
	sess_release(&s);
}

static void test_busy(void **state)
{
	struct session s;
	uint32_t before;
	int rc;

	(void)state;
	open_scripted(&s, "scr-busy", 0);
	before = device_raw(&s, ALPHA);
	will_return(set_act, BUSY);
	rc = run(&s, "param set ALPHA 0.3");
	assert_int_equal(pcb_exit_code(rc), 2);
	assert_non_null(strstr(errbuf, reg_status_str(REG_STATUS_BUSY)));
	assert_int_equal(device_raw(&s, ALPHA), before);
	sess_release(&s);
}

/* mstreg-like: two params are two SETs; the second fails.  The first
 * stays written; the journal says which took (read back after the
 * failure), and `journal undo last` takes it back.
 */
static void test_half_written(void **state)
{
	struct session s;
	uint32_t alpha, maxdec;
	int rc;

	(void)state;
	open_scripted(&s, "scr-half", 1);
	alpha = device_raw(&s, ALPHA);
	maxdec = device_raw(&s, MAX_DEC);
	will_return(set_act, PASS);
	will_return(set_act, IO_FAIL);
	rc = run(&s, "param set ALPHA 0.25 MAX_DEC 0.9");
	assert_int_equal(pcb_exit_code(rc), 2);
	assert_non_null(strstr(errbuf, "scripted: transport failed"));
	assert_int_equal(device_raw(&s, ALPHA), 16384);	/* 0.25 */
	assert_int_equal(device_raw(&s, MAX_DEC), maxdec);
	assert_int_equal(run(&s, "journal show"), 0);
	/* the journal tells what the device holds: ALPHA took, MAX_DEC not */
	assert_non_null(strstr(outbuf, "ALPHA     0.1  0.25            6553    "
			       "16384  ok\n"));
	assert_non_null(strstr(outbuf, "MAX_DEC  0.97   0.9           63570    "
			       "58982  failed\n"));
	/* so `journal undo last` finds the write that took and takes it
	 * back: one SET */
	will_return(set_act, PASS);
	assert_int_equal(run(&s, "journal undo last"), 0);
	assert_int_equal(device_raw(&s, ALPHA), alpha);
	assert_int_equal(device_raw(&s, MAX_DEC), maxdec);
	sess_release(&s);
}

/* The write goes through but its read-back fails: the tool cannot know
 * what the device holds, and must not claim success.
 */
static void test_readback_fails(void **state)
{
	struct session s;
	int rc;

	(void)state;
	open_scripted(&s, "scr-readback", 0);
	/* the reads before the write pass, the read-back fails */
	script_readback = true;
	after_set = false;
	will_return(set_act, PASS);
	will_return(get_act, IO_FAIL);
	rc = run(&s, "param set ALPHA 0.5");
	assert_int_equal(pcb_exit_code(rc), 2);
	assert_non_null(strstr(errbuf, "scripted: transport failed"));
	script_readback = false;
	assert_int_equal(device_raw(&s, ALPHA), 32768);
	/* and the journal does not call it done, nor failed */
	assert_int_equal(run(&s, "journal show"), 0);
	assert_non_null(strstr(outbuf, "unconfirmed\n"));
	sess_release(&s);
}

/* A path that does not fit is an error, never a cut path naming another
 * file: the journal of a device under a state dir so deep that its file
 * name no longer fits in PATH_MAX.
 */
static void test_path_too_long(void **state)
{
	char deep[PCB_PATH_LEN], buf[8], *old = getenv("XDG_STATE_HOME");
	struct pcb_err err = { 0 };
	struct journal *j = NULL;
	size_t l;

	(void)state;
	assert_int_equal(pcb_path(buf, sizeof(buf), &err, "%s/%s", "abc",
				  "defgh"), -PCB_E_INVAL);
	assert_non_null(strstr(err.msg, "path too long: abc/def"));
	pcb_err_reset(&err);
	assert_int_equal(pcb_path(buf, sizeof(buf), &err, "%s/%s", "ab", "cd"),
			 0);
	assert_string_equal(buf, "ab/cd");

	/* .../pccbench/journal fits (4095), .../journal/scr-deep.log not */
	old = old ? strdup(old) : NULL;
	l = (size_t)snprintf(deep, sizeof(deep), "%s/deep", old);
	while (l + 17 < 4095) {	/* components of at most 200 chars */
		size_t k = 4095 - 17 - l - 1 > 200 ? 200 : 4095 - 17 - l - 1;

		deep[l++] = '/';
		memset(deep + l, 'd', k);
		l += k;
		deep[l] = '\0';
	}
	assert_int_equal(strlen(deep) + strlen("/pccbench/journal"), 4095);
	setenv("XDG_STATE_HOME", deep, 1);
	assert_int_equal(journal_open(&j, "scr-deep", &err), -PCB_E_INVAL);
	assert_non_null(strstr(err.msg, "path too long"));
	assert_null(j);
	setenv("XDG_STATE_HOME", old, 1);
	free(old);
}

/* The checksum every file of ours ends with: CRC-32 as zlib computes it
 * (the check value of the catalogue, and a run split in two parts), so
 * files written before the table-driven version still read.
 */
static void test_crc32(void **state)
{
	static const char nine[] = "123456789";
	char big[3000];
	size_t i;
	uint32_t a;

	(void)state;
	assert_int_equal(pcb_crc32(0, nine, 9), 0xcbf43926u);
	assert_int_equal(pcb_crc32(0, "", 0), 0);
	for (i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7 + 3);
	a = pcb_crc32(0, big, 1000);
	assert_int_equal(pcb_crc32(a, big + 1000, 2000),
			 pcb_crc32(0, big, 3000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_ignored),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_half_written),
		cmocka_unit_test(test_readback_fails),
		cmocka_unit_test(test_path_too_long),
		cmocka_unit_test(test_crc32),
	};

	tu_private_state();
	return cmocka_run_group_tests_name("faults", tests, NULL, NULL);
}
