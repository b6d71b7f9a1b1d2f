/* Series maths: counter deltas (wrap, clear-on-read), correlation with
 * missing values, the lag of a shifted copy, CSV round trip.
 */
#include <math.h>
#include <sys/stat.h>

#include "testutil.h"
#include "rec/recorder.h"
#include "rec/series.h"

static void test_delta(void **state)
{
	(void)state;
	assert_int_equal(series_delta(10, 25, UINT32_MAX, false), 15);
	/* one wrap of a 32-bit counter */
	assert_int_equal(series_delta(UINT32_MAX - 4, 5, UINT32_MAX, false),
			 10);
	/* a 16-bit counter wraps at its own width */
	assert_int_equal(series_delta(65530, 4, 65535, false), 10);
	/* clear-on-read: each read is the growth */
	assert_int_equal(series_delta(500, 7, UINT32_MAX, true), 7);
	assert_int_equal(series_delta(3, 3, UINT32_MAX, false), 0);
}

/* Issue 32.1: a growth only where it is sure */
static void test_growth(void **state)
{
	uint64_t g = 0;

	(void)state;
	/* below half the width, no bounds: one wrap at most */
	assert_int_equal(series_growth(UINT32_MAX - 4, 5, UINT32_MAX, false,
				       0, INFINITY, &g), 0);
	assert_int_equal(g, 10);
	/* above half the width another wrap may hide in it */
	g = 7;
	assert_int_equal(series_growth(0, 3000000000u, UINT32_MAX, false, 0,
				       INFINITY, &g), -1);
	assert_int_equal(g, 7);
	/* a 24-bit counter: half of its width is 8388607 */
	assert_int_equal(series_growth(0, 9000000, 16777215, false, 0,
				       INFINITY, &g), -1);
	/* bounds that allow one growth only: two more wraps, placed */
	assert_int_equal(series_growth(100, 50, 999, false, 2900, 3100, &g),
			 2);
	assert_int_equal(g, 2950);
	/* bounds that allow no growth of 0 wraps and several others */
	assert_int_equal(series_growth(0, 10, 999, false, 1500, 5000, &g),
			 -1);
	/* bounds that contradict the reads */
	assert_int_equal(series_growth(0, 500, 999, false, 0, 400, &g), -1);
	/* bounds that leave 0 wraps and more: the half-width rule */
	assert_int_equal(series_growth(0, 300, 999, false, 100, 5000, &g), 0);
	assert_int_equal(g, 300);
	assert_int_equal(series_growth(0, 700, 999, false, 100, 5000, &g),
			 -1);
	/* the whole width below hi: sure even above half of it */
	assert_int_equal(series_growth(0, 700, 999, false, 600, 999, &g), 0);
	assert_int_equal(g, 700);
	/* clear-on-read: the read is the growth, the same rules */
	assert_int_equal(series_growth(500, 7, UINT32_MAX, true, 0, INFINITY,
				       &g), 0);
	assert_int_equal(g, 7);
}

static void test_corr(void **state)
{
	double x[40], y[40], z[40], w[40], r;
	size_t n, i;
	int lag;

	(void)state;
	for (i = 0; i < 40; i++) {
		x[i] = sin((double)i * 0.7) + (double)i * 0.01;
		y[i] = 3 * x[i] + 2;		/* linear: r = 1 */
		z[i] = -x[i];			/* r = -1 */
		w[i] = exp(x[i]);		/* monotonic: spearman 1 */
	}
	assert_true(fabs(series_pearson(x, y, 40, &n) - 1) < 1e-12);
	assert_int_equal(n, 40);
	assert_true(fabs(series_pearson(x, z, 40, &n) + 1) < 1e-12);
	assert_true(fabs(series_spearman(x, w, 40, &n) - 1) < 1e-12);
	assert_true(series_pearson(x, w, 40, &n) < 0.999);
	/* missing values: pairs with a gap are left out */
	y[5] = NAN;
	x[9] = NAN;
	assert_true(fabs(series_pearson(x, y, 40, &n) - 1) < 1e-12);
	assert_int_equal(n, 38);
	assert_true(fabs(series_spearman(x, y, 40, &n) - 1) < 1e-12);
	assert_int_equal(n, 38);
	/* no variance, or too few pairs: NAN */
	for (i = 0; i < 40; i++)
		z[i] = 4;
	assert_true(isnan(series_pearson(x, z, 40, &n)));
	assert_true(isnan(series_pearson(x, y, 2, &n)));
	/* known value: x = 1..5, y = 2,4,5,4,5 -> r = 0.7745966692 */
	{
		double a[] = { 1, 2, 3, 4, 5 }, b[] = { 2, 4, 5, 4, 5 };

		assert_true(fabs(series_pearson(a, b, 5, &n) - 0.7745966692) <
			    1e-9);
		/* ranks of b with ties: 1, 2.5, 4.5, 2.5, 4.5 */
		assert_true(fabs(series_spearman(a, b, 5, &n) - 0.7378647873) <
			    1e-9);
	}
	/* least squares: y = 3x + 2 exactly, gaps ignored */
	{
		double a, b;

		assert_int_equal(series_linfit(x, y, 40, &a, &b), 0);
		assert_true(fabs(a - 3) < 1e-9 && fabs(b - 2) < 1e-9);
		assert_int_equal(series_linfit(x, z, 40, &a, &b), 0);
		assert_true(fabs(a) < 1e-12 && fabs(b - 4) < 1e-12);
		assert_int_equal(series_linfit(z, x, 40, &a, &b), -1);
	}
	/* a copy shifted by 3 intervals: y[t] = x[t - 3] */
	x[9] = 0.3;
	for (i = 0; i < 40; i++)
		y[i] = i >= 3 ? x[i - 3] : NAN;
	lag = series_best_lag(x, y, 40, 6, 20, &r, &n);
	assert_int_equal(lag, 3);
	assert_true(fabs(r - 1) < 1e-12);
	assert_int_equal(n, 37);	/* 40 - 3, and y's first 3 missing */
	lag = series_best_lag(y, x, 40, 6, 20, &r, &n);
	assert_int_equal(lag, -3);
	/* issue 32.7: a lag that leaves fewer pairs than asked is not one
	 * to pick, however high its r: y repeats x 30 intervals later, an
	 * r of 1 over the last 10 pairs only */
	for (i = 0; i < 40; i++)
		y[i] = i >= 30 ? x[i - 30] : cos((double)i * 2.3);
	lag = series_best_lag(x, y, 40, 35, 3, &r, &n);
	assert_int_equal(lag, 30);
	assert_int_equal(n, 10);
	lag = series_best_lag(x, y, 40, 35, 20, &r, &n);
	assert_true(lag < 21 && lag > -21 && n >= 20 && fabs(r) < 0.999);
	lag = series_best_lag(x, y, 40, 6, 41, &r, &n);
	assert_true(lag == 0 && isnan(r) && n == 0);
	/* Fisher's z: r 0.5 over 28 pairs: tanh(atanh(0.5) -+ 1.96/5) */
	{
		double lo, hi;

		series_fisher_ci(0.5, 28, 1, &lo, &hi);
		assert_true(fabs(lo - 0.156028) < 1e-5);
		assert_true(fabs(hi - 0.735818) < 1e-5);
		series_fisher_ci(0.5, 3, 1, &lo, &hi);
		assert_true(isnan(lo) && isnan(hi));
	}
}

static void test_csv(void **state)
{
	char path[] = "/tmp/pccb-series-XXXXXX";
	struct pcb_err err = { 0 };
	struct series *s = series_new("t1"), *b = NULL;
	double row[3];
	int fd = mkstemp(path);
	FILE *fp;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(series_add_col(s, "t", "s"), 0);
	assert_int_equal(series_add_col(s, "avg_rtt", "ns"), 0);
	assert_int_equal(series_add_col(s, "odd.name+2", ""), 0);
	assert_int_equal(series_add_col(s, "t", "s"), -1);	/* twice */
	/* names and units reach CSV, JSON and gnuplot: a few marks only */
	{
		static const char *const bad_names[] = {
			"odd,name", "q';system('touch x')#", "a b", "",
			"x\"y", "`id`", "a@b",
			"0123456789012345678901234567890123456789" };
		static const char *const bad_units[] = { "a b", "(s)", "'",
			"0123456789abcdef" };
		size_t i;

		for (i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++)
			assert_int_equal(series_add_col(s, bad_names[i], ""),
					 -1);
		for (i = 0; i < sizeof(bad_units) / sizeof(bad_units[0]); i++)
			assert_int_equal(series_add_col(s, "u", bad_units[i]),
					 -1);
		assert_int_equal(s->ncols, 3);
	}
	row[0] = 0.0001;
	row[1] = 4005.25;
	row[2] = 1;
	assert_int_equal(series_add_row(s, row), 0);
	row[0] = 0.0002;
	row[1] = NAN;			/* an interval without samples */
	row[2] = -2.5e9;
	assert_int_equal(series_add_row(s, row), 0);
	assert_int_equal(series_write_csv(s, path, &err), 0);
	assert_int_equal(series_read_csv(&b, "t1", path, &err), 0);
	assert_int_equal(b->ncols, 3);
	assert_int_equal(b->nrows, 2);
	assert_string_equal(b->cols[1].name, "avg_rtt");
	assert_string_equal(b->cols[1].unit, "ns");
	assert_string_equal(b->cols[2].name, "odd.name+2");
	assert_true(series_at(b, 0, 1) == 4005.25);
	assert_true(isnan(series_at(b, 1, 1)));
	assert_true(series_at(b, 1, 2) == -2.5e9);
	series_free(b);
	/* the header as written: units in parentheses, RFC 4180 quoting */
	fp = fopen(path, "r");
	{
		char line[256];

		assert_non_null(fgets(line, sizeof(line), fp));
		assert_string_equal(line, "t (s),avg_rtt (ns),odd.name+2\r\n");
		assert_non_null(fgets(line, sizeof(line), fp));
		assert_string_equal(line, "0.0001,4005.25,1\r\n");
		assert_non_null(fgets(line, sizeof(line), fp));
		assert_string_equal(line, "0.0002,,-2500000000\r\n");
	}
	fclose(fp);
	/* malformed files are refused */
	{
		static const char *bad[] = { "t,x\n1,2,3\n", "t,x\n1,abc\n",
					     "t,\"x\n1,2\n", ",x\n1,2\n", "",
					     "t,\"q';system('touch x')#\"\n1,2\n",
					     "t (s),x (a b)\n1,2\n",
					     "t,x,x\n1,2,3\n" };
		size_t i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			fp = fopen(path, "w");
			fputs(bad[i], fp);
			fclose(fp);
			memset(&err, 0, sizeof(err));
			b = NULL;
			assert_int_equal(series_read_csv(&b, "t1", path, &err),
					 -PCB_E_CORRUPT);
			assert_null(b);
			/* one line naming the file */
			assert_non_null(strstr(err.msg, path));
			assert_null(strchr(err.msg, '\n'));
		}
		/* a directory, a FIFO, a link: refused, never waited on */
		{
			char other[sizeof(path) + 8];

			snprintf(other, sizeof(other), "%s.d", path);
			assert_int_equal(mkdir(other, 0700), 0);
			assert_true(series_read_csv(&b, "t1", other, &err) < 0);
			rmdir(other);
			assert_int_equal(mkfifo(other, 0600), 0);
			memset(&err, 0, sizeof(err));
			assert_true(series_read_csv(&b, "t1", other, &err) < 0);
			assert_non_null(strstr(err.msg, "not a regular file"));
			unlink(other);
			assert_int_equal(symlink(path, other), 0);
			memset(&err, 0, sizeof(err));
			assert_true(series_read_csv(&b, "t1", other, &err) < 0);
			assert_non_null(strstr(err.msg, "symbolic link"));
			unlink(other);
		}
	}
	/* the fast formatter: exact for whole numbers and 9 decimals */
	{
		static const double v[] = { 0.00001, 13016.142857142857, 1e-12,
					    123456789.5, -2.5, 400.0, 1e20,
					    0.000000001, 999999.999999999 };
		struct series *t = series_new("f");
		size_t i;

		series_add_col(t, "v", "");
		for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			series_add_row(t, &v[i]);
		assert_int_equal(series_write_csv(t, path, &err), 0);
		assert_int_equal(series_read_csv(&b, "f", path, &err), 0);
		for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			if (fabs(series_at(b, i, 0) - v[i]) >
			    fabs(v[i]) * 1e-8 + 1e-9 * (fabs(v[i]) < 1e6))
				fail_msg("%.17g came back as %.17g", v[i],
					 series_at(b, i, 0));
		fp = fopen(path, "r");
		{
			char line[64];

			assert_non_null(fgets(line, sizeof(line), fp));
			assert_non_null(fgets(line, sizeof(line), fp));
			assert_string_equal(line, "0.00001\r\n");
			assert_non_null(fgets(line, sizeof(line), fp));
			assert_string_equal(line, "13016.142857143\r\n");
		}
		fclose(fp);
		series_free(b);
		series_free(t);
	}
	unlink(path);
	series_free(s);
}

/* mlx5's counter names (hw_counters, port counters, ethtool -S) and the
 * timeline columns each feeds: every column of README's table, and
 * names that must feed none.
 */
static void test_mlx5_columns(void **state)
{
#define B(c) (1ULL << (c))
	static const struct {
		const char *name;
		int prio;
		uint64_t cols, alt;
	} tab[] = {
		{ "rp_cnp_handled", -1, B(REC_C_CNP_H), 0 },
		{ "np_cnp_sent", -1, B(REC_C_CNP_S), 0 },
		{ "np_ecn_marked_roce_packets", -1, B(REC_C_ECN), 0 },
		{ "port_rcv_data", -1, B(REC_C_RX), 0 },
		{ "port_xmit_data", -1, B(REC_C_TX), 0 },
		{ "rx_bytes_phy", -1, 0, B(REC_C_RX) },
		{ "tx_bytes_phy", -1, 0, B(REC_C_TX) },
		{ "rx_prio3_pause", -1, B(REC_C_PAUSES) | B(REC_C_PAUSE_RX), 0 },
		{ "tx_prio0_pause", -1, B(REC_C_PAUSES) | B(REC_C_PAUSE_TX), 0 },
		{ "tx_prio7_pause", -1, B(REC_C_PAUSES) | B(REC_C_PAUSE_TX), 0 },
		{ "rx_prio3_pause", 3, B(REC_C_PAUSES) | B(REC_C_PAUSE_RX), 0 },
		{ "rx_prio4_pause", 3, 0, 0 },	/* another priority */
		{ "rx_prio8_pause", -1, 0, 0 },	/* no such priority */
		{ "rx_prio3_pause_duration", -1, 0, 0 },
		{ "rx_prio3_pause_transition", -1, 0, 0 },
		{ "rx_global_pause", -1, 0, 0 },
		{ "rx_discards_phy", -1, B(REC_C_DROPS), 0 },
		{ "tx_discards_phy", -1, B(REC_C_DROPS), 0 },
		{ "roce_adp_retrans", -1, B(REC_C_ADP), 0 },
		{ "roce_adp_retrans_to", -1, B(REC_C_ADP_TO), 0 },
		{ "roce_slow_restart", -1, B(REC_C_SLOW), 0 },
		{ "roce_slow_restart_cnps", -1, 0, 0 },
		{ "roce_slow_restart_trans", -1, 0, 0 },
		{ "out_of_sequence", -1, B(REC_C_OOS), 0 },
		{ "packet_seq_err", -1, B(REC_C_SEQ_ERR), 0 },
		{ "local_ack_timeout_err", -1, B(REC_C_ACK_TO), 0 },
		{ "implied_nak_seq_err", -1, 0, 0 },
		{ "rx_out_of_buffer", -1, 0, 0 },
		{ "rx_vport_rdma_unicast_bytes", -1, 0, 0 },
		{ "tx_pause_storm_warning_events", -1, 0, 0 },
		{ "rx_prio3_bytes", -1, 0, 0 },
	};
	uint64_t seen = 0;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		uint64_t c = rec_counter_columns(tab[i].name, tab[i].prio,
						 false);
		uint64_t a = rec_counter_columns(tab[i].name, tab[i].prio,
						 true);

		if (c != tab[i].cols || a != tab[i].alt)
			fail_msg("%s (prio %d): columns %#llx alt %#llx, want "
				 "%#llx %#llx", tab[i].name, tab[i].prio,
				 (unsigned long long)c, (unsigned long long)a,
				 (unsigned long long)tab[i].cols,
				 (unsigned long long)tab[i].alt);
		seen |= c | a;
	}
	/* every counter column has a source in the table */
	for (i = REC_C_CNP_H; i < REC_C_FIXED; i++)
		if (!(seen >> i & 1))
			fail_msg("column %s has no mlx5 counter",
				 rec_fixed_cols[i].name);
#undef B
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_mlx5_columns),
		cmocka_unit_test(test_corr),
		cmocka_unit_test(test_csv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
