/* Every PPCC cmd_type against the sim firmware, and its state file. */
#include <fcntl.h>
#include <sys/stat.h>

#include "testutil.h"
#include "paths.h"
#include "ppcc.h"
#include "sim/firmware.h"

struct fx {
	struct reg_dev *dev;
	struct ppcc p;
	struct pcb_err err;
};

static int setup(void **state)
{
	static int n;
	struct fx *f = calloc(1, sizeof(*f));
	char name[32];

	snprintf(name, sizeof(name), "t%d", n++);
	assert_int_equal(reg_dev_open(&f->dev, &sim_backend_ops, name, name,
				      &f->err), 0);
	assert_int_equal(ppcc_init(&f->p, f->dev, tu_ppcc_layout(), &f->err), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	ppcc_release(&f->p);
	reg_dev_close(f->dev);
	free(f);
	return 0;
}

static void test_info(void **state)
{
	struct fx *f = *state;
	uint32_t num, arr[PPCC_SLOTS], n;
	char name[224], descr[224];

	/* 0x10 algo info array */
	assert_int_equal(ppcc_algo_info_array(&f->p, arr, &f->err), 0);
	assert_int_equal(arr[0], 0x5a540100);
	assert_int_equal(arr[1], 0x5a540100);
	assert_int_equal(arr[2], 0x44430100);
	assert_int_equal(arr[3], 0xbfff0001);	/* DOCA RTT template v0.1 */
	assert_int_equal(arr[4], 0);
	/* 0x0 algo info with text */
	assert_int_equal(ppcc_algo_info(&f->p, 3, &num, name, sizeof(name),
					descr, sizeof(descr), &f->err), 0);
	assert_int_equal(num, 0xbfff0001);
	assert_string_equal(name, "Rtt template v0.1");
	assert_int_equal(ppcc_algo_info(&f->p, 9, &num, name, sizeof(name),
					descr, sizeof(descr), &f->err), 0);
	assert_int_equal(num, 0);
	/* 0x4 / 0xE */
	assert_int_equal(ppcc_num_params(&f->p, 0, &n, &f->err), 0);
	assert_int_equal(n, 17);
	assert_int_equal(ppcc_num_counters(&f->p, 0, &n, &f->err), 0);
	assert_int_equal(n, 0);		/* deployment build: none */
	assert_int_equal(ppcc_num_counters(&f->p, 1, &n, &f->err), 0);
	assert_int_equal(n, 16);
	/* a command other than 0x0/0x10 on an empty slot: bad param */
	assert_int_equal(ppcc_num_params(&f->p, 9, &n, &f->err),
			 -PCB_E_DEVICE);
	assert_non_null(strstr(f->err.msg, "bad parameter"));
}

static void test_param_info(void **state)
{
	struct fx *f = *state;
	struct ppcc_info in;

	/* 0x5 */
	assert_int_equal(ppcc_param_info(&f->p, 0, 2, &in, &f->err), 0);
	assert_string_equal(in.name, "MAX_DEC");
	assert_int_equal(in.def, 63570);
	assert_int_equal(in.min, 1);
	assert_int_equal(in.max, 65536);
	assert_int_equal(in.prm, 1);
	/* FIXED_RATE: debug build only */
	assert_int_equal(ppcc_param_info(&f->p, 0, 13, &in, &f->err), 0);
	assert_int_equal(in.prm, 0);
	assert_int_equal(ppcc_param_info(&f->p, 1, 13, &in, &f->err), 0);
	assert_int_equal(in.prm, 1);
	assert_int_not_equal(ppcc_param_info(&f->p, 0, 17, &in, &f->err), 0);
	/* 0xF */
	pcb_err_reset(&f->err);
	assert_int_equal(ppcc_counter_info(&f->p, 1, 9, &in, &f->err), 0);
	assert_string_equal(in.name, "ZTR_CC_SUM_RTT");
	assert_int_equal(in.max, 0xffffffff);
	assert_int_equal(in.prm, 2);
}

static void test_get_set(void **state)
{
	struct fx *f = *state;
	uint32_t v, vals[64], set[64];
	size_t n, i;

	/* 0x6, 0x8 */
	assert_int_equal(ppcc_param_get(&f->p, 0, 1, &v, &f->err), 0);
	assert_int_equal(v, 6553);
	assert_int_equal(ppcc_param_set(&f->p, 0, 1, 19661, &f->err), 0);
	assert_int_equal(ppcc_param_get(&f->p, 0, 1, &v, &f->err), 0);
	assert_int_equal(v, 19661);
	/* 0x7 on a read-write param returns it, clears nothing */
	assert_int_equal(ppcc_param_get_clear(&f->p, 0, 1, &v, &f->err), 0);
	assert_int_equal(v, 19661);
	assert_int_equal(ppcc_param_get(&f->p, 0, 1, &v, &f->err), 0);
	assert_int_equal(v, 19661);
	/* silently ignored: out of range, read-only; the set "succeeds" */
	assert_int_equal(ppcc_param_set(&f->p, 0, 1, 65537, &f->err), 0);
	assert_int_equal(ppcc_param_get(&f->p, 0, 1, &v, &f->err), 0);
	assert_int_equal(v, 19661);
	assert_int_equal(ppcc_param_set(&f->p, 0, 13, 5, &f->err), 0);
	assert_int_equal(ppcc_param_get(&f->p, 0, 13, &v, &f->err), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ppcc_param_set(&f->p, 1, 13, 5, &f->err), 0);
	assert_int_equal(ppcc_param_get(&f->p, 1, 13, &v, &f->err), 0);
	assert_int_equal(v, 5);
	/* 0xA, 0xB */
	assert_int_equal(ppcc_bulk_get(&f->p, 0, vals, 64, &n, &f->err), 0);
	assert_int_equal(n, 17);
	assert_int_equal(vals[1], 19661);
	assert_int_equal(vals[8], 250000);
	memcpy(set, vals, sizeof(set));
	set[4] = 20;		/* AI */
	set[8] = 2000000;	/* MAX_DELAY above 2^20: ignored */
	set[13] = 7;		/* read-only here: ignored */
	assert_int_equal(ppcc_bulk_set(&f->p, 0, set, n, &f->err), 0);
	assert_int_equal(ppcc_bulk_get(&f->p, 0, vals, 64, &n, &f->err), 0);
	assert_int_equal(vals[4], 20);
	assert_int_equal(vals[8], 250000);
	assert_int_equal(vals[13], 0);
	for (i = 0; i < n; i++)
		if (i != 4)
			assert_int_equal(vals[i], set[i] == vals[i] ? set[i] :
					 vals[i]);
}

static void test_enable_counters(void **state)
{
	struct fx *f = *state;
	uint32_t vals[64];
	bool en, cen;
	size_t n;
	struct simfw *fw = NULL;

	/* 0x3 */
	assert_int_equal(ppcc_enable_status(&f->p, 0, &en, &cen, &f->err), 0);
	assert_true(en);
	assert_false(cen);
	assert_int_equal(ppcc_enable_status(&f->p, 1, &en, &cen, &f->err), 0);
	assert_false(en);
	/* 0xC refused while counters are off */
	assert_int_equal(ppcc_counters(&f->p, 1, false, vals, 64, &n,
				       &f->err), -PCB_E_DEVICE);
	pcb_err_reset(&f->err);
	/* 0x2, 0x1 with counters: the seed's debug-mode steps */
	assert_int_equal(ppcc_disable(&f->p, 0, &f->err), 0);
	assert_int_equal(ppcc_enable(&f->p, 1, true, &f->err), 0);
	assert_int_equal(ppcc_enable_status(&f->p, 0, &en, &cen, &f->err), 0);
	assert_false(en);
	assert_int_equal(ppcc_enable_status(&f->p, 1, &en, &cen, &f->err), 0);
	assert_true(en);
	assert_true(cen);
	fw = simfw_of(f->dev);
	assert_int_equal(simfw_active_slot(fw), 1);
	/* counters count and wrap at 32 bits */
	simfw_counter_add(fw, 1, 10, 5);
	simfw_counter_add(fw, 1, 9, 0xfffffff0);
	simfw_counter_add(fw, 1, 9, 0x20);
	assert_int_equal(ppcc_counters(&f->p, 1, false, vals, 64, &n,
				       &f->err), 0);
	assert_int_equal(n, 16);
	assert_int_equal(vals[10], 5);
	assert_int_equal(vals[9], 0x10);
	/* 0xD clears */
	assert_int_equal(ppcc_counters(&f->p, 1, true, vals, 64, &n, &f->err),
			 0);
	assert_int_equal(vals[10], 5);
	assert_int_equal(ppcc_counters(&f->p, 1, false, vals, 64, &n,
				       &f->err), 0);
	assert_int_equal(vals[10], 0);
	/* counter_en is one slot per port */
	assert_int_equal(ppcc_enable(&f->p, 2, true, &f->err), 0);
	assert_int_equal(ppcc_enable_status(&f->p, 1, &en, &cen, &f->err), 0);
	assert_true(en);
	assert_false(cen);
	/* slot 0 has no counters: counter_en is not taken */
	assert_int_equal(ppcc_enable(&f->p, 0, true, &f->err), 0);
	assert_int_equal(ppcc_enable_status(&f->p, 0, &en, &cen, &f->err), 0);
	assert_true(en);
	assert_false(cen);
	assert_int_equal(simfw_active_slot(fw), 0);
}

/* Issue #24 item 2: a set applies to the SLs of its sl_bitmask, enable
 * status reports the SLs a slot runs on, and the simulated traffic (SL
 * 3) runs the lowest slot that runs on SL 3.
 */
static void test_sl_bitmask(void **state)
{
	struct fx *f = *state;
	struct simfw *fw = simfw_of(f->dev);
	struct ppcc_status st;
	bool en, cen, yes;
	uint32_t v;

	/* fresh: slot 0 on every SL, the others on none */
	assert_int_equal(ppcc_sl_supported(&f->p, &yes, &f->err), 0);
	assert_true(yes);
	assert_int_equal(ppcc_status(&f->p, 0, &st, &f->err), 0);
	assert_true(st.enabled && st.sl_support);
	assert_int_equal(st.sls, 0xffff);
	assert_int_equal(ppcc_status(&f->p, 2, &st, &f->err), 0);
	assert_false(st.enabled);
	assert_int_equal(st.sls, 0);
	/* enable slot 2 on SLs 3 and 5 only */
	f->p.sl_mask = 0x28;
	assert_int_equal(ppcc_enable(&f->p, 2, false, &f->err), 0);
	assert_int_equal(ppcc_status(&f->p, 2, &st, &f->err), 0);
	assert_true(st.enabled);
	assert_int_equal(st.sls, 0x28);
	assert_int_equal(simfw_active_slot(fw), 0);	/* 0 is on SL 3 */
	/* slot 0 off on SL 3: SL 3 runs slot 2; slot 0 stays on the rest */
	f->p.sl_mask = 0x8;
	assert_int_equal(ppcc_disable(&f->p, 0, &f->err), 0);
	assert_int_equal(ppcc_status(&f->p, 0, &st, &f->err), 0);
	assert_true(st.enabled);
	assert_int_equal(st.sls, 0xfff7);
	assert_int_equal(simfw_active_slot(fw), 2);
	/* as a write on SLs 3,4 sees slot 2 (on 3, not 4): an enable is
	 * not done yet, a disable has something to do */
	f->p.sl_mask = 0x18;
	assert_int_equal(ppcc_enable_state(&f->p, 2, true, &en, &cen,
					   &f->err), 0);
	assert_false(en);
	assert_int_equal(ppcc_enable_state(&f->p, 2, false, &en, &cen,
					   &f->err), 0);
	assert_true(en);
	/* a set whose mask names no SL configures every SL (seed 004's
	 * writes name none) */
	f->p.sl_mask = 0;
	assert_int_equal(ppcc_enable(&f->p, 3, false, &f->err), 0);
	assert_int_equal(ppcc_status(&f->p, 3, &st, &f->err), 0);
	assert_true(st.enabled);
	assert_int_equal(st.sls, 0xffff);
	assert_int_equal(ppcc_disable(&f->p, 3, &f->err), 0);
	assert_int_equal(ppcc_status(&f->p, 3, &st, &f->err), 0);
	assert_false(st.enabled);
	assert_int_equal(ppcc_param_set(&f->p, 0, 1, 19661, &f->err), 0);
	assert_int_equal(ppcc_param_get(&f->p, 0, 1, &v, &f->err), 0);
	assert_int_equal(v, 19661);
	assert_int_equal(ppcc_param_set(&f->p, 0, 1, 6553, &f->err), 0);
	assert_int_equal(ppcc_status(&f->p, 2, &st, &f->err), 0);
	assert_int_equal(st.sls, 0x28);
	/* counters go with the last SL a slot runs on */
	f->p.sl_mask = 0x1;
	assert_int_equal(ppcc_enable(&f->p, 1, true, &f->err), 0);
	f->p.sl_mask = 0x2;
	assert_int_equal(ppcc_disable(&f->p, 1, &f->err), 0);
	assert_int_equal(ppcc_enable_status(&f->p, 1, &en, &cen, &f->err), 0);
	assert_true(en && cen);
	f->p.sl_mask = 0x1;
	assert_int_equal(ppcc_disable(&f->p, 1, &f->err), 0);
	assert_int_equal(ppcc_enable_status(&f->p, 1, &en, &cen, &f->err), 0);
	assert_false(en || cen);
}

static void test_sl_lists(void **state)
{
	static const struct {
		const char *text;
		uint32_t mask;		/* 0: refused */
		const char *back;
	} rows[] = {
		{ "3", 0x8, "3" }, { "0-3,5", 0x2f, "0-3,5" },
		{ "all", 0xffff, "0-15" }, { "0x8", 0x8, "3" },
		{ "15,0", 0x8001, "0,15" }, { "0xFFFF", 0xffff, "0-15" },
		{ "2-2", 0x4, "2" }, { "", 0, NULL }, { "16", 0, NULL },
		{ "3-", 0, NULL }, { "-3", 0, NULL }, { "3,", 0, NULL },
		{ ",3", 0, NULL }, { "5-3", 0, NULL }, { "0x0", 0, NULL },
		{ "0x10000", 0, NULL }, { "a", 0, NULL }, { "3 4", 0, NULL },
		{ "0x 8", 0, NULL }, { "0x", 0, NULL }, { "3,,4", 0, NULL },
		{ "99999999999999999999", 0, NULL }, { "0x-1", 0, NULL },
	};
	struct pcb_err err = { 0 };
	char buf[48];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint32_t m = 0xdead;
		int rc = ppcc_sl_parse(rows[i].text, &m, &err);

		if (!rows[i].mask) {
			if (rc != -PCB_E_RANGE || m != 0xdead ||
			    !strstr(err.msg, rows[i].text))
				fail_msg("'%s': rc %d mask 0x%x", rows[i].text,
					 rc, m);
			pcb_err_reset(&err);
			continue;
		}
		if (rc || m != rows[i].mask)
			fail_msg("'%s': rc %d mask 0x%x", rows[i].text, rc, m);
		ppcc_sl_format(m, buf, sizeof(buf));
		assert_string_equal(buf, rows[i].back);
	}
	ppcc_sl_format(0, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	ppcc_sl_format(0x5555, buf, sizeof(buf));
	assert_string_equal(buf, "0,2,4,6,8,10,12,14");
}

static void test_bad_requests(void **state)
{
	struct fx *f = *state;
	uint32_t v;

	/* port 2 does not exist */
	f->p.local_port = 2;
	assert_int_equal(ppcc_param_get(&f->p, 0, 1, &v, &f->err),
			 -PCB_E_DEVICE);
	f->p.local_port = 1;
	pcb_err_reset(&f->err);
	assert_int_equal(ppcc_param_get(&f->p, 16, 1, &v, &f->err),
			 -PCB_E_RANGE);
}

/* A second handle (as a second process would) sees the first's writes. */
static void test_shared_state(void **state)
{
	struct fx *f = *state;
	struct reg_dev *d2 = NULL;
	struct ppcc p2;
	uint32_t v;

	assert_int_equal(reg_dev_open(&d2, &sim_backend_ops, f->dev->name,
				      f->dev->name, &f->err), 0);
	assert_int_equal(ppcc_init(&p2, d2, tu_ppcc_layout(), &f->err), 0);
	assert_int_equal(ppcc_param_set(&f->p, 0, 1, 100, &f->err), 0);
	assert_int_equal(ppcc_param_get(&p2, 0, 1, &v, &f->err), 0);
	assert_int_equal(v, 100);
	ppcc_release(&p2);
	reg_dev_close(d2);
}

static void corrupt_and_open(const char *name, long off, const void *bytes,
			     size_t n, long truncate_to)
{
	struct simfw *fw = NULL;
	struct pcb_err err = { 0 };
	char dir[4096], path[4200];
	int fd;

	assert_int_equal(simfw_open(&fw, name, &err), 0);
	simfw_close(fw);
	assert_int_equal(pcb_user_dir(dir, sizeof(dir), PCB_DIR_STATE, "sim",
				      false, &err), 0);
	snprintf(path, sizeof(path), "%s/%s.dev", dir, name);
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	if (truncate_to >= 0)
		assert_int_equal(ftruncate(fd, truncate_to), 0);
	else
		assert_int_equal(pwrite(fd, bytes, n, off), (ssize_t)n);
	close(fd);
	fw = NULL;
	assert_int_equal(simfw_open(&fw, name, &err), -PCB_E_CORRUPT);
	assert_null(fw);
	assert_non_null(strstr(err.msg, name));
	assert_null(strchr(err.msg, '\n'));
}

static void test_corrupt_files(void **state)
{
	static const uint32_t big = 0xffffffff, two = 2, one = 1;
	struct simfw *fw = NULL;
	struct pcb_err err = { 0 };

	(void)state;
	corrupt_and_open("c1", 0, "XXXX", 4, -1);		/* magic */
	corrupt_and_open("c2", 8, &one, 4, -1);			/* version */
	corrupt_and_open("c3", 0, NULL, 0, 100);		/* size */
	corrupt_and_open("c4", 16, &big, 4, -1);		/* hash */
	/* slot 0 header starts at 64; enabled = 2 */
	corrupt_and_open("c5", 64 + 4, &two, 4, -1);
	corrupt_and_open("c8", 40, &two, 4, -1);		/* reserved */
	/* slot 0 param ALPHA (offset 64 + 32 + 4) beyond its max */
	corrupt_and_open("c6", 64 + 32 + 4, &big, 4, -1);
	/* data in an empty slot */
	corrupt_and_open("c7", 64 + 10 * (32 + 512) + 40, &two, 4, -1);
	/* a bit flip in a param, in range: ALPHA 0.1 (6553) -> 0.6 */
	corrupt_and_open("c9", 64 + 32 + 4, &(uint32_t){ 6553 | 32768 }, 4,
			 -1);
	/* slot 0 enabled but on no SL (sl_bitmask at 64 + 16) */
	corrupt_and_open("c10", 64 + 16, &(uint32_t){ 0 }, 4, -1);
	assert_int_equal(simfw_open(&fw, "../escape", &err), -PCB_E_INVAL);
	assert_int_equal(simfw_open(&fw, "", &err), -PCB_E_INVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_info, setup, teardown),
		cmocka_unit_test_setup_teardown(test_param_info, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_get_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enable_counters, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sl_bitmask, setup,
						teardown),
		cmocka_unit_test(test_sl_lists),
		cmocka_unit_test_setup_teardown(test_bad_requests, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_shared_state, setup,
						teardown),
		cmocka_unit_test(test_corrupt_files),
	};

	tu_private_state();
	return cmocka_run_group_tests_name("ppcc", tests, NULL, NULL);
}
