/* The ethtool statistics when the driver's set changes at run time
 * (reg/ethtool.h) and the host counters' view over them (host/hostctr.h).
 *
 * A fake kernel answers SIOCETHTOOL for the interface "fk0": a driver
 * whose set the test changes, between reads or between the count and
 * the copy.  Kernels before 7b07be1ff1cb copy the driver's current count
 * of names and values whatever len/n_stats says (old, the default);
 * fixed kernels return 0 entries when the two differ (fixed).  Every
 * other ioctl goes to the kernel.
 */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "testutil.h"
#include "ethtool.h"
#include "host/hostctr.h"

#define DRV_MAX 200

struct drv_set {
	uint32_t n;
	char names[DRV_MAX][ETH_GSTRING_LEN];
	uint64_t vals[DRV_MAX];
};

static struct drv_set drv;	/* the driver's set now */
static struct drv_set next;	/* taken after the count `switch_at` */
static int switch_at;		/* 0: never; counts GSSET_INFO calls */
static int ncount;
static bool fixed;		/* a kernel with 7b07be1ff1cb */
static bool churn;		/* another set after every count */
static uint32_t lie;		/* GSTATS says this many (writes none) */

/* A set of n stats: rx_prio<p>_pause for p from first, then ring ones. */
static void make_set(struct drv_set *d, uint32_t n, int first, uint64_t base)
{
	uint32_t i;

	memset(d, 0, sizeof(*d));
	d->n = n;
	for (i = 0; i < n; i++) {
		if (i < 8)
			snprintf(d->names[i], ETH_GSTRING_LEN, "rx_prio%u_pause",
				 (unsigned)(first + (int)i) % 8);
		else
			snprintf(d->names[i], ETH_GSTRING_LEN, "rx%u_packets",
				 i - 8);
		d->vals[i] = base + i;
	}
}

static void reset(void)
{
	make_set(&drv, 4, 0, 1000);
	switch_at = ncount = 0;
	fixed = churn = false;
	lie = 0;
}

static int fake_ethtool(void *data)
{
	uint32_t cmd;

	memcpy(&cmd, data, sizeof(cmd));
	if (cmd == ETHTOOL_GSSET_INFO) {
		struct ethtool_sset_info *si = data;

		si->sset_mask &= 1ULL << ETH_SS_STATS;
		si->data[0] = drv.n;
		if (++ncount == switch_at)
			drv = next;	/* grows before the copy */
		if (churn)
			make_set(&drv, drv.n == 4 ? 5 : 4, 0, 7);
		return 0;
	}
	if (cmd == ETHTOOL_GSTRINGS) {
		struct ethtool_gstrings *gs = data;

		if (fixed && gs->len != drv.n) {
			gs->len = 0;
			return 0;
		}
		gs->len = drv.n;	/* an old kernel: whatever len said */
		memcpy(gs->data, drv.names, (size_t)drv.n * ETH_GSTRING_LEN);
		return 0;
	}
	if (cmd == ETHTOOL_GSTATS) {
		struct ethtool_stats *st = data;

		if (lie) {
			st->n_stats = lie;
			return 0;
		}
		if (fixed && st->n_stats != drv.n) {
			st->n_stats = 0;
			return 0;
		}
		st->n_stats = drv.n;
		memcpy(st->data, drv.vals, (size_t)drv.n * sizeof(uint64_t));
		return 0;
	}
	errno = EOPNOTSUPP;
	return -1;
}

int ioctl(int fd, unsigned long req, ...)
{
	struct ifreq *ifr;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	ifr = arg;
	if (req != SIOCETHTOOL || strcmp(ifr->ifr_name, "fk0"))
		return (int)syscall(SYS_ioctl, fd, req, arg);
	return fake_ethtool(ifr->ifr_data);
}

/* The set grew between two reads: the new count read whole, names new. */
static void test_grows_between_reads(void **state)
{
	struct pcb_ethtool e;
	struct pcb_err err = { 0 };

	(void)state;
	reset();
	assert_int_equal(pcb_ethtool_open(&e, "fk0", &err), 0);
	assert_int_equal(e.n, 4);
	assert_int_equal(e.gen, 0);
	make_set(&drv, 150, 0, 5000);	/* PFC on, more channels */
	assert_int_equal(pcb_ethtool_read(&e, &err), 0);
	assert_int_equal(e.n, 150);
	assert_int_equal(e.gen, 1);
	assert_string_equal(e.names[149], "rx141_packets");
	assert_int_equal(e.vals[149], 5149);
	assert_int_equal(pcb_ethtool_read(&e, &err), 0);
	assert_int_equal(e.gen, 1);	/* the same names: no change */
	pcb_ethtool_close(&e);
}

/* The set grew between the count and the copy: an old kernel writes the
 * larger count into the room to spare; the read starts again.
 */
static void test_grows_during_read(void **state)
{
	struct pcb_ethtool e;
	struct pcb_err err = { 0 };
	int k;

	(void)state;
	for (k = 0; k < 2; k++) {
		reset();
		fixed = k;
		make_set(&next, 40, 0, 3000);
		switch_at = 1;		/* the count at open */
		assert_int_equal(pcb_ethtool_open(&e, "fk0", &err), 0);
		assert_int_equal(e.n, 40);
		assert_int_equal(e.vals[39], 3039);
		assert_true(ncount >= 2);
		make_set(&next, 90, 2, 9000);
		switch_at = ncount + 1;	/* the next read's count */
		assert_int_equal(pcb_ethtool_read(&e, &err), 0);
		assert_int_equal(e.n, 90);
		assert_string_equal(e.names[0], "rx_prio2_pause");
		assert_int_equal(e.vals[89], 9089);
		pcb_ethtool_close(&e);
	}
}

/* Same count, other names: PFC moved from priority 3 to 4. */
static void test_same_count_other_names(void **state)
{
	struct pcb_ethtool e;
	struct pcb_err err = { 0 };

	(void)state;
	reset();
	assert_int_equal(pcb_ethtool_open(&e, "fk0", &err), 0);
	make_set(&drv, 4, 1, 1000);
	assert_int_equal(pcb_ethtool_read(&e, &err), 0);
	assert_int_equal(e.gen, 1);
	assert_string_equal(e.names[3], "rx_prio4_pause");
	pcb_ethtool_close(&e);
}

/* A kernel that says it wrote more than the room: refused; a set that
 * changes at every count: given up on, said so.
 */
static void test_refused(void **state)
{
	struct pcb_ethtool e;
	struct pcb_err err = { 0 };

	(void)state;
	reset();
	assert_int_equal(pcb_ethtool_open(&e, "fk0", &err), 0);
	lie = 100000;
	assert_int_equal(pcb_ethtool_read(&e, &err), -PCB_E_DEVICE);
	assert_non_null(strstr(err.msg, "into room for"));
	lie = 0;
	churn = true;
	pcb_err_reset(&err);
	assert_int_equal(pcb_ethtool_read(&e, &err), -PCB_E_BUSY);
	assert_string_equal(err.msg, "ethtool fk0: the statistics kept "
			    "changing (8 reads)");
	pcb_ethtool_close(&e);
}

/* The host counters' view: fixed between refreshes (a counter gone reads
 * missing, a new one waits), one note, then the new set.
 */
static void test_hostctr_view(void **state)
{
	char sys[] = "/tmp/pccb-eth-XXXXXX", dir[600];
	struct pcb_err err = { 0 };
	struct hostctr h;
	uint64_t v[8];

	(void)state;
	reset();
	assert_non_null(mkdtemp(sys));
	snprintf(dir, sizeof(dir), "%s/class", sys);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof(dir), "%s/class/net", sys);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof(dir), "%s/class/net/fk0", sys);
	assert_int_equal(mkdir(dir, 0700), 0);
	setenv("PCCBENCH_SYSFS", sys, 1);
	assert_int_equal(hostctr_open(&h, "fk0", &err), 0);
	assert_int_equal(h.n, 4);
	assert_string_equal(hostctr_name(&h, 3), "rx_prio3_pause");
	/* prio 0 off, prio 4 on */
	make_set(&drv, 4, 1, 2000);
	assert_int_equal(hostctr_read(&h, v, h.n, &err), 0);
	assert_int_equal(h.n, 4);
	assert_int_equal(h.gen, 1);
	assert_true(v[0] == UINT64_MAX);	/* rx_prio0_pause: gone */
	assert_int_equal(v[1], 2000);		/* rx_prio1_pause, moved */
	assert_int_equal(v[3], 2002);
	assert_string_equal(h.note, "ethtool fk0: the driver's statistics "
			    "changed (4, now 4); gone: rx_prio0_pause; new: "
			    "rx_prio4_pause");
	h.note[0] = '\0';
	/* a caller holding fewer: no more than that written */
	v[2] = 77;
	assert_int_equal(hostctr_read(&h, v, 2, &err), 0);
	assert_int_equal(v[2], 77);
	assert_true(hostctr_refresh(&h));
	assert_int_equal(h.n, 4);
	assert_string_equal(hostctr_name(&h, 3), "rx_prio4_pause");
	assert_false(hostctr_refresh(&h));
	assert_int_equal(hostctr_read(&h, v, h.n, &err), 0);
	assert_int_equal(v[3], 2003);
	assert_string_equal(h.note, "");
	/* 12: more than 6 new names are counted, not listed */
	make_set(&drv, 12, 1, 0);
	assert_int_equal(hostctr_read(&h, v, h.n, &err), 0);
	assert_int_equal(h.gen, 2);
	assert_string_equal(h.note, "ethtool fk0: the driver's statistics "
			    "changed (4, now 12); new: rx_prio5_pause, "
			    "rx_prio6_pause, rx_prio7_pause, rx_prio0_pause, "
			    "rx0_packets, rx1_packets, ...");
	assert_true(hostctr_refresh(&h));
	assert_int_equal(h.n, 12);
	hostctr_close(&h);
	unsetenv("PCCBENCH_SYSFS");
	snprintf(dir, sizeof(dir), "%s/class/net/fk0", sys);
	rmdir(dir);
	snprintf(dir, sizeof(dir), "%s/class/net", sys);
	rmdir(dir);
	snprintf(dir, sizeof(dir), "%s/class", sys);
	rmdir(dir);
	rmdir(sys);
}

/* Write text into dir/name (replacing it: the same file, re-read). */
static void put(const char *dir, const char *name, const char *text)
{
	char path[700];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* Issue 37.10: hw_counters/lifespan is a setting, not a counter; the
 * 32-bit Q-counters wrap at 2^32 and read on as 64-bit counts.
 */
static void test_hostctr_q32(void **state)
{
	char sys[] = "/tmp/pccb-q32-XXXXXX", hw[600], cmd[700];
	struct pcb_err err = { 0 };
	struct hostctr h;
	uint64_t v[8];
	int oos, cnp;

	(void)state;
	assert_non_null(mkdtemp(sys));
	snprintf(hw, sizeof(hw), "%s/class/infiniband/mlx5_9/ports/1/"
		 "hw_counters", sys);
	{	/* mkdir -p */
		char *p = hw + strlen(sys) + 1;

		while ((p = strchr(p, '/'))) {
			*p = '\0';
			mkdir(hw, 0700);
			*p++ = '/';
		}
		assert_int_equal(mkdir(hw, 0700), 0);
	}
	snprintf(cmd, sizeof(cmd), "%s/class/infiniband/mlx5_9/device", sys);
	assert_int_equal(symlink("../../../devices/0000:0e:00.0", cmd), 0);
	put(hw, "lifespan", "10\n");
	put(hw, "out_of_sequence", "4294967290\n");
	put(hw, "np_cnp_sent", "7\n");
	setenv("PCCBENCH_SYSFS", sys, 1);
	assert_int_equal(hostctr_open(&h, "mlx5_9", &err), 0);
	assert_int_equal(h.n, 2);		/* no lifespan */
	assert_int_equal(hostctr_find(&h, "lifespan"), -1);
	oos = hostctr_find(&h, "out_of_sequence");
	cnp = hostctr_find(&h, "np_cnp_sent");
	assert_true(oos >= 0 && cnp >= 0);
	assert_int_equal(hostctr_read(&h, v, h.n, &err), 0);
	assert_int_equal(v[oos], 4294967290ULL);
	put(hw, "out_of_sequence", "5\n");	/* 11 more: wrapped */
	put(hw, "np_cnp_sent", "3\n");		/* 64-bit: went back */
	assert_int_equal(hostctr_read(&h, v, h.n, &err), 0);
	assert_int_equal(v[oos], 4294967301ULL);
	assert_int_equal(v[cnp], 3);
	put(hw, "out_of_sequence", "4294967296\n");	/* not 32-bit */
	assert_int_equal(hostctr_read(&h, v, h.n, &err), 0);
	assert_true(v[oos] == UINT64_MAX);
	put(hw, "out_of_sequence", "2\n");	/* from 5: a reset */
	assert_int_equal(hostctr_read(&h, v, h.n, &err), 0);
	assert_int_equal(v[oos], 2);
	hostctr_close(&h);
	unsetenv("PCCBENCH_SYSFS");
	snprintf(cmd, sizeof(cmd), "%s/class/infiniband/mlx5_9/device", sys);
	unlink(cmd);
	tu_rm_dir(hw);
	while (strlen(hw) > strlen(sys)) {	/* rmdir -p */
		*strrchr(hw, '/') = '\0';
		rmdir(hw);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grows_between_reads),
		cmocka_unit_test(test_grows_during_read),
		cmocka_unit_test(test_same_count_other_names),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_hostctr_view),
		cmocka_unit_test(test_hostctr_q32),
	};

	return cmocka_run_group_tests_name("ethtool", tests, NULL, NULL);
}
