/* Series maths: counter deltas (wrap, clear-on-read), correlation with
 * missing values, the lag of a shifted copy, CSV round trip.
 */
#include <math.h>
#include <sys/stat.h>

#include "testutil.h"
#include "rec/merge.h"
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

/* Issue 36: the wall-clock time of each row, exact to the ns through the
 * CSV, beside t; a file without it loads as before.
 */
static void test_wall_csv(void **state)
{
	char path[] = "/tmp/pccb-wall-XXXXXX", line[256];
	struct pcb_err err = { 0 };
	struct series *s = series_new("w"), *b = NULL;
	double row[2] = { 0.00002, 4005.5 };
	int fd = mkstemp(path);
	FILE *fp;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(series_add_col(s, "t", "s"), 0);
	assert_int_equal(series_add_col(s, "avg_rtt", "ns"), 0);
	assert_int_equal(series_add_col(s, SERIES_WALL, "ns"), -1);
	assert_int_equal(series_add_row_wall(s, row, 1795810842153902837LL),
			 0);
	/* every row has one or none has */
	assert_int_equal(series_add_row(s, row), -1);
	row[0] = 0.00004;
	row[1] = NAN;
	assert_int_equal(series_add_row_wall(s, row, 1795810842153946371LL),
			 0);
	assert_int_equal(series_write_csv(s, path, &err), 0);
	fp = fopen(path, "r");
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_string_equal(line, "t (s),avg_rtt (ns),wall (ns)\r\n");
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_string_equal(line, "0.00002,4005.5,1795810842153902837\r\n");
	fclose(fp);
	assert_int_equal(series_read_csv(&b, "w", path, &err), 0);
	assert_int_equal(b->ncols, 2);
	assert_int_equal(b->nrows, 2);
	assert_non_null(b->wall);
	assert_true(b->wall[0] == 1795810842153902837LL);
	assert_true(b->wall[1] == 1795810842153946371LL);
	assert_true(series_at(b, 0, 1) == 4005.5);
	assert_true(isnan(series_at(b, 1, 1)));
	series_free(b);
	/* a series without wall-clock times: none, and rows as before */
	fp = fopen(path, "w");
	fputs("t (s),x\n0.1,2\n", fp);
	fclose(fp);
	assert_int_equal(series_read_csv(&b, "w", path, &err), 0);
	assert_null(b->wall);
	assert_int_equal(b->ncols, 2);
	series_free(b);
	/* anywhere in the header; malformed: refused naming the file */
	fp = fopen(path, "w");
	fputs("t (s),wall (ns),x\n0.1,-5,2\n", fp);
	fclose(fp);
	assert_int_equal(series_read_csv(&b, "w", path, &err), 0);
	assert_true(b->wall[0] == -5);
	assert_true(series_at(b, 0, 1) == 2);
	series_free(b);
	{
		static const char *bad[] = {
			"t (s),wall (ns)\n1,2.5\n", "t (s),wall (ns)\n1,\n",
			"t (s),wall (s)\n1,2\n", "t (s),wall\n1,2\n",
			"wall (ns)\n1\n", "t (s),wall (ns),wall (ns)\n1,2,3\n",
			"t (s),wall (ns)\n1,99999999999999999999\n",
			"t (s),wall (ns)\n1,2,3\n" };
		size_t i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			fp = fopen(path, "w");
			fputs(bad[i], fp);
			fclose(fp);
			b = NULL;
			memset(&err, 0, sizeof(err));
			if (series_read_csv(&b, "w", path, &err) !=
			    -PCB_E_CORRUPT)
				fail_msg("accepted: %s", bad[i]);
			assert_null(b);
			assert_non_null(strstr(err.msg, path));
		}
	}
	unlink(path);
	series_free(s);
}

/* A hand-made series: t and one value column v, rows read at wall[] ms
 * past base (NAN in vals: missing).
 */
#define MS 1000000LL
static const int64_t base = 1795810842000000000LL;

static struct series *hand(const char *name, const char *col,
			   const double *ms, const double *vals, size_t n)
{
	struct series *s = series_new(name);
	size_t i;

	assert_int_equal(series_add_col(s, "t", "s"), 0);
	assert_int_equal(series_add_col(s, col, "1/s"), 0);
	for (i = 0; i < n; i++) {
		double row[2] = { (double)i * 0.001, vals[i] };

		assert_int_equal(series_add_row_wall(s, row, base +
						     (int64_t)(ms[i] * MS)), 0);
	}
	return s;
}

/* Issue 36: series from several hosts aligned on the first one's grid:
 * the nearest row within half its interval, each source row once, never
 * interpolated; gaps, other intervals and partial overlap.
 */
static void test_merge(void **state)
{
	/* the grid: every 10 ms from 0 to 90 */
	static const double ams[] = { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90 };
	static const double av[] = { 100, 101, 102, 103, 104, 105, 106, 107,
				     108, 109 };
	/* every 5 ms from 23, a gap (43, 48, 53 never read), past the
	 * grid's end; a missing value stays missing */
	static const double bms[] = { 23, 28, 33, 38, 58, 63, 68, 73, 78, 83,
				      88, 93, 98, 103, 108 };
	static const double bv[] = { 0, 1, 2, 3, 7, NAN, 9, 10, 11, 12, 13,
				     14, 15, 16, 17 };
	/* every 20 ms, 3 ms late */
	static const double cms[] = { 3, 23, 43, 63 };
	static const double cv[] = { 1000, 1001, 1002, 1003 };
	/* one read exactly between two grid rows: the earlier takes it */
	static const double dms[] = { 5 };
	static const double dv[] = { 7 };
	static const double wb[] = { NAN, NAN, 0, 1, 3, NAN, 7, 9, 11, 13 };
	static const double wc[] = { 1000, NAN, 1001, NAN, 1002, NAN, 1003,
				     NAN, NAN, NAN };
	struct series *in[5], *m = NULL;
	struct pcb_err err = { 0 };
	struct series_merge mi;
	size_t i;

	(void)state;
	in[0] = hand("h0", "avg_rtt", ams, av, 10);
	in[1] = hand("h16", "cnp_sent", bms, bv, 15);
	in[2] = hand("c", "v", cms, cv, 4);
	in[3] = hand("d", "v", dms, dv, 1);
	assert_int_equal(series_merge(&m, "m", in, 4, &mi, &err), 0);
	assert_true(mi.interval_ns == 10 * MS);
	assert_true(mi.tolerance_ns == 5 * MS);
	assert_true(mi.offset_ns == 0);
	assert_int_equal(mi.aligned[0], 10);
	assert_int_equal(mi.aligned[1], 7);
	assert_int_equal(mi.aligned[2], 4);
	assert_int_equal(mi.aligned[3], 1);
	assert_int_equal(m->ncols, 9);
	assert_int_equal(m->nrows, 10);
	assert_string_equal(m->cols[0].name, "t");
	assert_string_equal(m->cols[1].name, "h0.t");
	assert_string_equal(m->cols[2].name, "h0.avg_rtt");
	assert_string_equal(m->cols[3].name, "h16.t");
	assert_string_equal(m->cols[4].name, "h16.cnp_sent");
	assert_string_equal(m->cols[4].unit, "1/s");
	assert_string_equal(m->cols[6].name, "c.v");
	assert_string_equal(m->cols[8].name, "d.v");
	for (i = 0; i < 10; i++) {
		assert_true(m->wall[i] == base + (int64_t)i * 10 * MS);
		assert_true(fabs(series_at(m, i, 0) - (double)i * 0.01) <
			    1e-12);
		assert_true(series_at(m, i, 2) == av[i]);
		if (isnan(wb[i]) ? !isnan(series_at(m, i, 4)) :
		    series_at(m, i, 4) != wb[i])
			fail_msg("row %zu: h16 %g, not %g", i,
				 series_at(m, i, 4), wb[i]);
		if (isnan(wc[i]) ? !isnan(series_at(m, i, 6)) :
		    series_at(m, i, 6) != wc[i])
			fail_msg("row %zu: c %g, not %g", i,
				 series_at(m, i, 6), wc[i]);
		/* the source row's own t came along */
		assert_true(isnan(series_at(m, i, 5)) ==
			    isnan(series_at(m, i, 6)));
		assert_true(i ? isnan(series_at(m, i, 8)) :
			    series_at(m, i, 8) == 7);
	}
	assert_true(series_at(m, 6, 3) == 0.004);	/* h16's row 4 */
	assert_true(isnan(series_at(m, 5, 3)));		/* the gap */
	series_free(m);
	m = NULL;
	/* a grid read 3 ms apart around others: B's interval plays no part */
	{
		static const double gms[] = { 30, 33, 36, 39 };
		struct series *two[2];

		two[0] = hand("g", "x", gms, av, 4);
		two[1] = in[1];
		assert_int_equal(series_merge(&m, "m", two, 2, &mi, &err), 0);
		assert_true(mi.tolerance_ns == 3 * MS / 2);
		assert_int_equal(mi.aligned[1], 2);	/* 33 and 38 */
		assert_true(isnan(series_at(m, 0, 4)));
		assert_true(series_at(m, 1, 4) == 2);
		assert_true(isnan(series_at(m, 2, 4)));
		assert_true(series_at(m, 3, 4) == 3);
		series_free(m);
		m = NULL;
		series_free(two[0]);
	}
	/* an irregular grid (a loaded machine's reads): half its interval
	 * on each side of a row, not of its mean (10 ms) */
	{
		static const double gms[] = { 0, 2, 10, 30 };
		static const double hms[] = { 1.2, 6.5, 24, 39 };
		static const double hv[] = { 0, 1, 2, 3 };
		struct series *two[2];

		two[0] = hand("g", "x", gms, av, 4);
		two[1] = hand("h", "y", hms, hv, 4);
		assert_int_equal(series_merge(&m, "m", two, 2, &mi, &err), 0);
		assert_true(mi.tolerance_ns == 5 * MS);
		assert_int_equal(mi.aligned[1], 3);
		/* 1.2 is nearer 2 than 0 */
		assert_true(isnan(series_at(m, 0, 4)));
		assert_true(series_at(m, 1, 4) == 0);
		/* 6.5 is 3.5 from 10, within half of 2..10 */
		assert_true(series_at(m, 2, 4) == 1);
		/* 24 is 6 from 30: within half of 10..30, past the mean's */
		assert_true(series_at(m, 3, 4) == 2);
		series_free(m);
		m = NULL;
		series_free(two[0]);
		series_free(two[1]);
	}
	/* refused, nothing made: */
	{
		static const double ems[] = { 200, 210 };
		static const double backms[] = { 10, 30, 20 };
		struct series *pair[2] = { in[0], NULL }, *old;
		double row[2] = { 1, 2 };

		/* fewer than two */
		assert_int_equal(series_merge(&m, "m", in, 1, &mi, &err),
				 -PCB_E_USAGE);
		/* spans that do not overlap */
		pair[1] = hand("late", "v", ems, av, 2);
		pcb_err_reset(&err);
		assert_int_equal(series_merge(&m, "m", pair, 2, &mi, &err),
				 -PCB_E_STATE);
		if (!strstr(err.msg, "do not overlap"))
			fail_msg("%s", err.msg);
		series_free(pair[1]);
		/* no wall-clock times */
		old = series_new("old");
		series_add_col(old, "t", "s");
		series_add_col(old, "v", "");
		series_add_row(old, row);
		pair[1] = old;
		pcb_err_reset(&err);
		assert_int_equal(series_merge(&m, "m", pair, 2, &mi, &err),
				 -PCB_E_STATE);
		assert_non_null(strstr(err.msg, "series old has no wall-clock"));
		series_free(old);
		/* a clock stepped back */
		pair[1] = hand("back", "v", backms, av, 3);
		pcb_err_reset(&err);
		assert_int_equal(series_merge(&m, "m", pair, 2, &mi, &err),
				 -PCB_E_STATE);
		assert_non_null(strstr(err.msg, "goes back in wall time at "
				       "row 3"));
		series_free(pair[1]);
		/* wall-clock times that are no ns since 1970 */
		pair[1] = hand("neg", "v", backms, av, 1);
		pair[1]->wall[0] = -1;
		pcb_err_reset(&err);
		assert_int_equal(series_merge(&m, "m", pair, 2, &mi, &err),
				 -PCB_E_CORRUPT);
		series_free(pair[1]);
		/* a merged name too long for a column */
		pair[1] = hand("a_series_name_of_thirty_two_chars", "cnp_sent",
			       bms, bv, 15);
		pcb_err_reset(&err);
		assert_int_equal(series_merge(&m, "m", pair, 2, &mi, &err),
				 -PCB_E_RANGE);
		series_free(pair[1]);
		/* the same series twice */
		pair[1] = in[0];
		pcb_err_reset(&err);
		assert_int_equal(series_merge(&m, "m", pair, 2, &mi, &err),
				 -PCB_E_INVAL);
		assert_null(m);
	}
	for (i = 0; i < 4; i++)
		series_free(in[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_mlx5_columns),
		cmocka_unit_test(test_corr),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_wall_csv),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
