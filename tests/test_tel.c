/* Telemetry contexts: adp_retx state machine, bins and device file;
 * pcc over PPCC on the sim firmware with DOCA's error semantics.
 */
#include <fcntl.h>
#include <stdbool.h>

#include "testutil.h"
#include "paths.h"
#include "ppcc.h"
#include "sim/firmware.h"
#include "sim/simtel.h"
#include "tel/pcc.h"
#include "tel/retx.h"
#include "tel/tel.h"

#define US 1000000LL		/* ps */

/* The sim's histogram file and its tel/ handle, as the sim device opens
 * them (src/sim/simdev.c); dev_close closes both.
 */
#define MAX_OPEN 4
static struct {
	struct retx_dev *d;
	struct sim_retx *x;
} open_devs[MAX_OPEN];

static struct retx_dev *dev_open(const char *name)
{
	struct retx_dev *d = NULL;
	struct sim_retx *x = NULL;
	struct pcb_err err = { 0 };
	int tel, i;

	assert_int_equal(sim_retx_open(&x, name, &err), 0);
	assert_int_equal(retx_dev_open_prov(&d, &sim_retx_prov, x, &tel), 0);
	for (i = 0; i < MAX_OPEN && open_devs[i].d; i++)
		;
	assert_true(i < MAX_OPEN);
	open_devs[i].d = d;
	open_devs[i].x = x;
	return d;
}

static struct sim_retx *file_of(struct retx_dev *d)
{
	int i;

	for (i = 0; i < MAX_OPEN; i++)
		if (open_devs[i].d == d)
			return open_devs[i].x;
	fail_msg("no such device");
	return NULL;
}

static void dev_close(struct retx_dev *d)
{
	struct sim_retx *x = file_of(d);
	int i;

	retx_dev_close(d);
	sim_retx_close(x);
	for (i = 0; i < MAX_OPEN; i++)
		if (open_devs[i].d == d)
			open_devs[i].d = NULL;
}

static void test_retx_states(void **state)
{
	struct retx_dev *d = dev_open("states");
	struct tel_retx t;
	uint8_t changed;

	(void)state;
	assert_int_equal(tel_retx_create(&t, d, true), TEL_OK);
	assert_int_equal(t.state, RETX_IDLE);
	/* defaults */
	assert_int_equal(t.cfg.num_bins, 8);
	assert_int_equal(t.cfg.unit, RETX_USEC);
	assert_int_equal(tel_retx_stop(&t), TEL_BAD_STATE);
	assert_int_equal(tel_retx_detect(&t, &changed), TEL_OK);
	assert_int_equal(changed, 0);
	assert_int_equal(tel_retx_start(&t), TEL_OK);
	assert_int_equal(tel_retx_start(&t), TEL_BAD_STATE);
	/* every setter refuses while running, and changes nothing */
	assert_int_equal(tel_retx_set_num_bins(&t, 4), TEL_BAD_STATE);
	assert_int_equal(tel_retx_set_bin0_width(&t, 5), TEL_BAD_STATE);
	assert_int_equal(tel_retx_set_bin1_width(&t, 5), TEL_BAD_STATE);
	assert_int_equal(tel_retx_set_mode(&t, RETX_FIXED), TEL_BAD_STATE);
	assert_int_equal(tel_retx_set_time_unit(&t, RETX_MSEC),
			 TEL_BAD_STATE);
	assert_int_equal(tel_retx_set_vhca_id(&t, 1), TEL_BAD_STATE);
	assert_int_equal(tel_retx_unset_vhca_id(&t), TEL_BAD_STATE);
	assert_int_equal(tel_retx_set_clear_on_read(&t, 1), TEL_BAD_STATE);
	assert_int_equal(tel_retx_set_count_enable(&t, 0), TEL_BAD_STATE);
	assert_int_equal(t.cfg.num_bins, 8);
	assert_int_equal(tel_retx_destroy(&t), TEL_BAD_STATE);
	assert_int_equal(tel_retx_stop(&t), TEL_OK);
	/* invalid values */
	assert_int_equal(tel_retx_set_num_bins(&t, 0), TEL_INVALID_VALUE);
	assert_int_equal(tel_retx_set_num_bins(&t, RETX_MAX_BINS + 1),
			 TEL_INVALID_VALUE);
	assert_int_equal(tel_retx_set_bin0_width(&t, 0), TEL_INVALID_VALUE);
	assert_int_equal(tel_retx_set_bin1_width(&t, 0), TEL_INVALID_VALUE);
	assert_int_equal(tel_retx_set_mode(&t, 2), TEL_INVALID_VALUE);
	assert_int_equal(tel_retx_set_time_unit(&t, 0), TEL_INVALID_VALUE);
	assert_int_equal(tel_retx_set_time_unit(&t, RETX_NSEC | RETX_USEC),
			 TEL_INVALID_VALUE);
	assert_int_equal(tel_retx_set_time_unit(&t, 0x10), TEL_INVALID_VALUE);
	assert_int_equal(tel_retx_set_clear_on_read(&t, 2),
			 TEL_INVALID_VALUE);
	assert_int_equal(tel_retx_set_count_enable(&t, 2), TEL_INVALID_VALUE);
	assert_int_equal(t.cfg.num_bins, 8);
	assert_int_equal(tel_retx_set_num_bins(&t, RETX_MAX_BINS), TEL_OK);
	assert_int_equal(tel_retx_destroy(&t), TEL_OK);
	dev_close(d);
}

static void range(const struct retx_cfg *c, uint32_t i, uint64_t lo,
		  uint64_t hi)
{
	uint64_t a, b;

	tel_retx_bin_range(c, i, &a, &b);
	assert_int_equal(a, lo);
	assert_true(b == hi);
}

static void test_retx_ranges(void **state)
{
	struct retx_cfg c = { .num_bins = 5, .bin0 = 50, .bin1 = 100,
			      .mode = RETX_DOUBLE, .unit = RETX_MSEC };

	(void)state;
	/* the adp_retx document's example: 0-50, 50-150, 150-350, ... */
	range(&c, 0, 0, 49);
	range(&c, 1, 50, 149);
	range(&c, 2, 150, 349);
	range(&c, 3, 350, 749);
	range(&c, 4, 750, UINT64_MAX);	/* the last bin is open-ended */
	c.mode = RETX_FIXED;
	c.num_bins = 4;
	c.bin0 = 10;
	c.bin1 = 20;
	range(&c, 0, 0, 9);
	range(&c, 1, 10, 29);
	range(&c, 2, 30, 49);
	range(&c, 3, 50, UINT64_MAX);
	c.num_bins = 1;
	range(&c, 0, 0, UINT64_MAX);
	assert_int_equal(tel_retx_unit_ps(RETX_NSEC), 1000);
	assert_int_equal(tel_retx_unit_ps(RETX_USEC_100), 100 * US);
	assert_int_equal(tel_retx_unit_ps(RETX_MSEC), 1000 * US);
}

static void test_retx_record(void **state)
{
	static const int64_t rto[] = { 0, 49999999, 50 * US, 749 * US,
				       750 * US, 10000000 * US };
	struct retx_dev *d = dev_open("record");
	uint64_t bins[RETX_MAX_BINS];
	struct tel_retx t;
	uint32_t n;

	(void)state;
	tel_retx_create(&t, d, false);
	tel_retx_set_num_bins(&t, 5);
	tel_retx_set_bin0_width(&t, 50);
	tel_retx_set_bin1_width(&t, 100);
	tel_retx_set_mode(&t, RETX_DOUBLE);
	tel_retx_set_time_unit(&t, RETX_USEC);
	/* stopped: nothing counts */
	sim_retx_record(file_of(d), rto, 6);
	assert_int_equal(tel_retx_read_bins(&t, &n, bins), TEL_OK);
	assert_int_equal(bins[0] + bins[1] + bins[2] + bins[3] + bins[4], 0);
	assert_int_equal(tel_retx_start(&t), TEL_OK);
	sim_retx_record(file_of(d), rto, 6);
	assert_int_equal(tel_retx_read_bins(&t, &n, bins), TEL_OK);
	assert_int_equal(n, 5);
	assert_int_equal(bins[0], 2);	/* 0 and 49.999 us */
	assert_int_equal(bins[1], 1);
	assert_int_equal(bins[2], 0);
	assert_int_equal(bins[3], 1);
	assert_int_equal(bins[4], 2);	/* 750 us and 10 s */
	/* no clear on read: the same again; start clears */
	assert_int_equal(tel_retx_read_bins(&t, &n, bins), TEL_OK);
	assert_int_equal(bins[4], 2);
	tel_retx_stop(&t);
	tel_retx_set_clear_on_read(&t, 1);
	tel_retx_start(&t);
	assert_int_equal(tel_retx_read_bins(&t, &n, bins), TEL_OK);
	assert_int_equal(bins[4], 0);
	sim_retx_record(file_of(d), rto + 4, 1);
	assert_int_equal(tel_retx_read_bins(&t, &n, bins), TEL_OK);
	assert_int_equal(bins[4], 1);
	assert_int_equal(tel_retx_read_bins(&t, &n, bins), TEL_OK);
	assert_int_equal(bins[4], 0);	/* cleared by the read */
	/* another vhca than the sim's (0) counts nothing; 0 does */
	tel_retx_stop(&t);
	tel_retx_set_vhca_id(&t, 5);
	tel_retx_start(&t);
	sim_retx_record(file_of(d), rto, 6);
	assert_int_equal(tel_retx_read_bins(&t, &n, bins), TEL_OK);
	assert_int_equal(bins[0] + bins[1] + bins[3] + bins[4], 0);
	tel_retx_stop(&t);
	tel_retx_set_vhca_id(&t, 0);
	tel_retx_start(&t);
	sim_retx_record(file_of(d), rto, 6);
	assert_int_equal(tel_retx_read_bins(&t, &n, bins), TEL_OK);
	assert_int_equal(bins[0], 2);
	/* count_enable 0: start does not start recording */
	tel_retx_stop(&t);
	tel_retx_set_count_enable(&t, 0);
	tel_retx_start(&t);
	sim_retx_record(file_of(d), rto, 6);
	assert_int_equal(tel_retx_read_bins(&t, &n, bins), TEL_OK);
	assert_int_equal(bins[0] + bins[4], 0);
	tel_retx_stop(&t);
	dev_close(d);
}

static void test_retx_two_contexts(void **state)
{
	struct retx_dev *da = dev_open("shared"), *db = dev_open("shared");
	struct tel_retx a, b, c;
	uint8_t changed;

	(void)state;
	tel_retx_create(&a, da, true);
	tel_retx_set_num_bins(&a, 6);
	assert_int_equal(tel_retx_start(&a), TEL_OK);
	/* a second process attaches to the running histogram */
	tel_retx_create(&b, db, true);
	assert_int_equal(b.state, RETX_RUNNING);
	assert_int_equal(b.cfg.num_bins, 6);
	assert_int_equal(tel_retx_detect(&b, &changed), TEL_OK);
	assert_int_equal(changed, 0);
	/* without attach a context starts stopped, with the device's cfg */
	tel_retx_create(&c, db, false);
	assert_int_equal(c.state, RETX_IDLE);
	assert_int_equal(c.cfg.num_bins, 6);
	/* no ownership: a reconfigures; b detects and sees the new cfg */
	tel_retx_stop(&a);
	tel_retx_set_num_bins(&a, 3);
	tel_retx_set_time_unit(&a, RETX_MSEC);
	tel_retx_start(&a);
	assert_int_equal(tel_retx_detect(&b, &changed), TEL_OK);
	assert_int_equal(changed, 1);
	assert_int_equal(b.cfg.num_bins, 3);
	assert_int_equal(b.cfg.unit, RETX_MSEC);
	assert_int_equal(tel_retx_detect(&b, &changed), TEL_OK);
	assert_int_equal(changed, 0);
	assert_int_equal(tel_retx_detect(&a, &changed), TEL_OK);
	assert_int_equal(changed, 0);
	/* b stops it for everyone */
	assert_int_equal(tel_retx_stop(&b), TEL_OK);
	tel_retx_destroy(&b);
	tel_retx_create(&b, db, true);
	assert_int_equal(b.state, RETX_IDLE);
	dev_close(da);
	dev_close(db);
}

static void test_retx_corrupt(void **state)
{
	static const char junk[2][32] = { "x", "PCCBRTX\0garbage-garbage" };
	static const size_t len[2] = { 1, 24 };
	char dir[4096], path[4200];
	struct sim_retx *x = NULL;
	struct retx_dev *d;
	struct pcb_err err = { 0 };
	size_t i;
	int fd;

	(void)state;
	assert_int_equal(pcb_user_dir(dir, sizeof(dir), PCB_DIR_STATE, "sim",
				      true, &err), 0);
	snprintf(path, sizeof(path), "%s/bad.retx", dir);
	for (i = 0; i < 2; i++) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		assert_true(fd >= 0);
		assert_true(write(fd, junk[i], len[i]) > 0);
		close(fd);
		memset(&err, 0, sizeof(err));
		assert_int_equal(sim_retx_open(&x, "bad", &err),
				 -PCB_E_CORRUPT);
		assert_non_null(strstr(err.msg, "bad.retx"));
	}
	/* a valid file whose bin count was tampered with */
	unlink(path);
	d = dev_open("bad");
	dev_close(d);
	fd = open(path, O_WRONLY);
	assert_int_equal(pwrite(fd, "\xff\xff\xff\xff", 4, 16), 4);
	close(fd);
	assert_int_equal(sim_retx_open(&x, "bad", &err), -PCB_E_CORRUPT);
}

/* ---- pcc ---------------------------------------------------------------- */

struct pfx {
	struct reg_dev *dev, *dev2;	/* two handles: two processes */
	struct ppcc p, p2;
	struct pcb_err err;
};

static int psetup(void **state)
{
	static int n;
	struct pfx *f = calloc(1, sizeof(*f));
	char name[32];

	snprintf(name, sizeof(name), "pcc%d", n++);
	assert_int_equal(reg_dev_open(&f->dev, &sim_backend_ops, name, name,
				      &f->err), 0);
	assert_int_equal(reg_dev_open(&f->dev2, &sim_backend_ops, name, name,
				      &f->err), 0);
	assert_int_equal(ppcc_init(&f->p, f->dev, tu_ppcc_layout(), &f->err), 0);
	assert_int_equal(ppcc_init(&f->p2, f->dev2, tu_ppcc_layout(), &f->err), 0);
	*state = f;
	return 0;
}

static int pteardown(void **state)
{
	struct pfx *f = *state;

	ppcc_release(&f->p);
	ppcc_release(&f->p2);
	reg_dev_close(f->dev);
	reg_dev_close(f->dev2);
	free(f);
	return 0;
}

static void test_pcc_slots(void **state)
{
	struct pfx *f = *state;
	struct tel_pcc t;
	uint32_t id, maj, min, n;
	uint8_t en, cen;
	char info[TEL_PCC_INFO_LEN + 1];

	assert_int_equal(tel_pcc_create(&t, &f->p, &f->err), TEL_OK);
	assert_int_equal(tel_pcc_stop(&t), TEL_BAD_STATE);
	assert_int_equal(tel_pcc_start(&t), TEL_OK);
	assert_int_equal(tel_pcc_start(&t), TEL_BAD_STATE);
	assert_int_equal(tel_pcc_destroy(&t), TEL_BAD_STATE);
	/* readers work in any state */
	assert_int_equal(tel_pcc_get_algo_id(&t, 3, &id), TEL_OK);
	assert_int_equal(id, 0xbfff);
	assert_int_equal(tel_pcc_get_algo_version(&t, 3, &maj, &min), TEL_OK);
	assert_int_equal(maj, 0);
	assert_int_equal(min, 1);
	assert_int_equal(tel_pcc_get_algo_info(&t, 3, info, sizeof(info)),
			 TEL_OK);
	assert_non_null(strstr(info, "Rtt template v0.1"));
	/* out of range: INVALID_VALUE; empty: BAD_STATE */
	assert_int_equal(tel_pcc_get_algo_id(&t, 16, &id), TEL_INVALID_VALUE);
	assert_int_equal(tel_pcc_get_algo_id(&t, 4, &id), TEL_BAD_STATE);
	assert_int_equal(tel_pcc_get_algo_version(&t, 4, &maj, &min),
			 TEL_BAD_STATE);
	/* slot-scoped readers: DRIVER for an invalid slot or counter */
	assert_int_equal(tel_pcc_get_enable_status(&t, 4, &en, &cen),
			 TEL_DRIVER);
	assert_int_equal(tel_pcc_get_enable_status(&t, 16, &en, &cen),
			 TEL_DRIVER);
	assert_int_equal(tel_pcc_get_num_counters(&t, 9, &n), TEL_DRIVER);
	assert_int_equal(tel_pcc_get_num_counters(&t, 1, &n), TEL_OK);
	assert_true(n > 10);
	assert_int_equal(tel_pcc_get_counter_info(&t, 1, n, info,
						  sizeof(info)), TEL_DRIVER);
	assert_int_equal(tel_pcc_get_counter_info(&t, 1, 0, info,
						  sizeof(info)), TEL_OK);
	assert_non_null(strstr(info, "ZTR_CC_CNP_HANDLE_COUNTER"));
	assert_int_equal(tel_pcc_get_enable_status(&t, 0, &en, &cen), TEL_OK);
	assert_int_equal(en, 1);	/* a fresh device runs slot 0 */
	assert_int_equal(cen, 0);
	assert_int_equal(tel_pcc_stop(&t), TEL_OK);
	assert_int_equal(tel_pcc_destroy(&t), TEL_OK);
}

static void test_pcc_counters(void **state)
{
	struct pfx *f = *state;
	uint32_t vals[TEL_PCC_MAX_COUNTERS], n, want;
	struct tel_pcc t;
	struct simfw *fw = NULL;

	tel_pcc_create(&t, &f->p, &f->err);
	/* slot 0 has no counters enabled: BAD_STATE, also for clear */
	assert_int_equal(tel_pcc_get_counters(&t, 0, false, &n, vals),
			 TEL_BAD_STATE);
	assert_int_equal(tel_pcc_get_counters(&t, 0, true, &n, NULL),
			 TEL_BAD_STATE);
	/* slot 1 (debug build) enabled with counters by another handle */
	assert_int_equal(ppcc_enable(&f->p2, 1, true, &f->err), 0);
	fw = simfw_of(f->dev2);
	simfw_counter_add(fw, 1, 2, 7);
	simfw_counter_add(fw, 1, 10, 3);
	assert_int_equal(tel_pcc_get_num_counters(&t, 1, &want), TEL_OK);
	assert_int_equal(tel_pcc_get_counters(&t, 1, false, &n, vals),
			 TEL_OK);
	assert_int_equal(n, want);
	assert_int_equal(vals[2], 7);
	assert_int_equal(vals[10], 3);
	/* a NULL array only resets */
	assert_int_equal(tel_pcc_get_counters(&t, 1, true, &n, NULL), TEL_OK);
	assert_int_equal(n, 0);
	assert_int_equal(tel_pcc_get_counters(&t, 1, false, &n, vals),
			 TEL_OK);
	assert_int_equal(vals[2], 0);
	assert_int_equal(tel_pcc_get_counters(&t, 1, false, &n, NULL),
			 TEL_INVALID_VALUE);
	/* disabled by the other handle between two reads: BAD_STATE */
	assert_int_equal(ppcc_disable(&f->p2, 1, &f->err), 0);
	pcb_err_reset(&f->err);
	assert_int_equal(tel_pcc_get_counters(&t, 1, false, &n, vals),
			 TEL_BAD_STATE);
	assert_non_null(strstr(f->err.msg, "disabled"));
	assert_int_equal(tel_pcc_get_counters(&t, 9, false, &n, vals),
			 TEL_DRIVER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_retx_states),
		cmocka_unit_test(test_retx_ranges),
		cmocka_unit_test(test_retx_record),
		cmocka_unit_test(test_retx_two_contexts),
		cmocka_unit_test(test_retx_corrupt),
		cmocka_unit_test_setup_teardown(test_pcc_slots, psetup,
						pteardown),
		cmocka_unit_test_setup_teardown(test_pcc_counters, psetup,
						pteardown),
	};

	tu_private_state();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
