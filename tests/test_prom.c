/* The Prometheus text exposition (util/prom.c): families grouped with
 * HELP and TYPE once, labels escaped, names checked, exact integers and
 * shortest round-tripping reals, duplicates and type clashes refused.
 */
#include <math.h>

#include "testutil.h"
#include "prom.h"

static char *render(const struct prom_set *p)
{
	struct pcb_err err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(prom_write(p, fp, &err), 0);
	fclose(fp);
	return buf;
}

/* Samples added interleaved come out grouped, each family's HELP and
 * TYPE once before its samples, in the order first added.
 */
static void test_grouped(void **state)
{
	const struct prom_label a[] = { { "device", "sim:x" },
					{ "slot", "0" } };
	const struct prom_label b[] = { { "device", "sim:x" },
					{ "slot", "1" } };
	struct pcb_err err = { 0 };
	struct prom_set p;
	char *s;

	(void)state;
	prom_init(&p);
	assert_int_equal(prom_add(&p, "pccbench_param", PROM_GAUGE, "a param",
				  a, 2, 0.5, &err), 0);
	assert_int_equal(prom_add_u64(&p, "pccbench_x_total", PROM_COUNTER,
				      "x", NULL, 0, UINT64_MAX, &err), 0);
	assert_int_equal(prom_add(&p, "pccbench_param", PROM_GAUGE, "ignored",
				  b, 2, 3, &err), 0);
	s = render(&p);
	assert_string_equal(s,
		"# HELP pccbench_param a param\n"
		"# TYPE pccbench_param gauge\n"
		"pccbench_param{device=\"sim:x\",slot=\"0\"} 0.5\n"
		"pccbench_param{device=\"sim:x\",slot=\"1\"} 3\n"
		"# HELP pccbench_x_total x\n"
		"# TYPE pccbench_x_total counter\n"
		"pccbench_x_total 18446744073709551615\n");
	free(s);
	prom_release(&p);
}

/* Label values: backslash, quote and newline escaped; HELP: backslash
 * and newline (a quote stays); a NULL value leaves the label out.
 */
static void test_escape(void **state)
{
	const struct prom_label l[] = { { "algo", "a\"b\\c\nd" },
					{ "port", NULL }, { "slot", "2" } };
	struct pcb_err err = { 0 };
	struct prom_set p;
	char *s;

	(void)state;
	prom_init(&p);
	assert_int_equal(prom_add(&p, "m", PROM_GAUGE, "say \"hi\" \\ to\nall",
				  l, 3, -1.25, &err), 0);
	s = render(&p);
	assert_string_equal(s, "# HELP m say \"hi\" \\\\ to\\nall\n"
			    "# TYPE m gauge\n"
			    "m{algo=\"a\\\"b\\\\c\\nd\",slot=\"2\"} -1.25\n");
	free(s);
	prom_release(&p);
}

/* Reals: the shortest form that reads back; NaN and infinities as the
 * format spells them.
 */
static void test_values(void **state)
{
	const double v[] = { 0.1, 1e-9, 123456789012345678.0, NAN, INFINITY,
			     -INFINITY, 1.0 / 3 };
	const char *want[] = { "0.1", "1e-09", "1.2345678901234568e+17",
			       "NaN", "+Inf", "-Inf", "0.3333333333333333" };
	struct pcb_err err = { 0 };
	char name[16], *s, *line;
	struct prom_set p;
	size_t i;

	(void)state;
	prom_init(&p);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(name, sizeof(name), "v%zu", i);
		assert_int_equal(prom_add(&p, name, PROM_GAUGE, "", NULL, 0,
					  v[i], &err), 0);
	}
	s = render(&p);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char want_line[64];

		snprintf(want_line, sizeof(want_line), "\nv%zu %s\n", i,
			 want[i]);
		line = strstr(s, want_line);
		if (!line)
			fail_msg("no '%s' in:\n%s", want_line + 1, s);
		if (!isnan(v[i]) && !isinf(v[i]))
			assert_true(strtod(want[i], NULL) == v[i]);
	}
	free(s);
	prom_release(&p);
}

/* What the format forbids is refused and leaves the set as it was. */
static void test_refused(void **state)
{
	const struct prom_label bad[] = { { "__name__", "x" } };
	const struct prom_label digit[] = { { "1x", "x" } };
	const struct prom_label twice[] = { { "a", "1" }, { "a", "2" } };
	const struct prom_label one[] = { { "a", "1" } };
	struct pcb_err err = { 0 };
	struct prom_set p;
	char *s;

	(void)state;
	prom_init(&p);
	assert_int_equal(prom_add(&p, "m", PROM_GAUGE, "", bad, 1, 1, &err),
			 -PCB_E_INVAL);
	assert_int_equal(prom_add(&p, "m", PROM_GAUGE, "", digit, 1, 1, &err),
			 -PCB_E_INVAL);
	assert_int_equal(prom_add(&p, "m", PROM_GAUGE, "", twice, 2, 1, &err),
			 -PCB_E_INVAL);
	assert_int_equal(prom_add(&p, "9m", PROM_GAUGE, "", NULL, 0, 1, &err),
			 -PCB_E_INVAL);
	assert_int_equal(prom_add(&p, "a-b", PROM_GAUGE, "", NULL, 0, 1,
				  &err), -PCB_E_INVAL);
	assert_int_equal(prom_add(&p, "m", PROM_GAUGE, "", one, 1, 1, &err),
			 0);
	pcb_err_reset(&err);
	assert_int_equal(prom_add(&p, "m", PROM_GAUGE, "", one, 1, 2, &err),
			 -PCB_E_INVAL);
	assert_non_null(strstr(err.msg, "added twice"));
	pcb_err_reset(&err);
	assert_int_equal(prom_add_u64(&p, "m", PROM_COUNTER, "", NULL, 0, 1,
				      &err), -PCB_E_INVAL);
	assert_non_null(strstr(err.msg, "counter"));
	s = render(&p);
	assert_string_equal(s, "# HELP m \n# TYPE m gauge\nm{a=\"1\"} 1\n");
	free(s);
	prom_release(&p);
}

static void test_names(void **state)
{
	char b[32];

	(void)state;
	assert_true(prom_name(b, sizeof(b), "pccbench_host_", "rx-prio.3",
			      "_total"));
	assert_string_equal(b, "pccbench_host_rx_prio_3_total");
	assert_true(prom_name(b, sizeof(b), "p_", "µs", ""));
	assert_string_equal(b, "p___s");	/* µ: two bytes of UTF-8 */
	assert_false(prom_name(b, 8, "pccbench_", "x", ""));	/* too long */
	assert_false(prom_name(b, sizeof(b), "", "3x", ""));
	assert_true(prom_name_valid("a:b_c9"));
	assert_false(prom_name_valid(""));
	assert_true(prom_label_name_valid("_x1"));
	assert_false(prom_label_name_valid("a:b"));
	assert_false(prom_label_name_valid("__x"));
}

/* A histogram: cumulative buckets with le (the last +Inf), _sum when
 * given, _count; buckets that are not increasing, or without +Inf, are
 * refused; a merge adds another set's samples to the families by name
 * and refuses a series already there.
 */
static void test_hist_merge(void **state)
{
	const struct prom_label d = { "device", "a" }, e = { "device", "b" };
	const struct prom_bucket b[] = { { 0.0001, 0 }, { 0.0002, 3 },
					  { INFINITY, 5 } };
	const struct prom_bucket bad1[] = { { 0.0002, 3 }, { 0.0001, 4 },
					    { INFINITY, 5 } };
	const struct prom_bucket bad2[] = { { 0.0001, 3 }, { INFINITY, 2 } };
	const struct prom_bucket bad3[] = { { 0.0001, 3 } };
	struct pcb_err err = { 0 };
	struct prom_set p, q;
	char *s;

	(void)state;
	prom_init(&p);
	prom_init(&q);
	assert_int_equal(prom_add_hist(&p, "x_seconds", "h", &d, 1, b, 3,
				       NAN, &err), 0);
	assert_int_equal(prom_add_hist(&q, "x_seconds", "h", &e, 1, b, 3,
				       0.5, &err), 0);
	assert_int_equal(prom_add(&q, "y", PROM_GAUGE, "y", &e, 1, 1, &err),
			 0);
	assert_int_equal(prom_merge(&p, &q, &err), 0);
	s = render(&p);
	assert_string_equal(s,
		"# HELP x_seconds h\n"
		"# TYPE x_seconds histogram\n"
		"x_seconds_bucket{device=\"a\",le=\"0.0001\"} 0\n"
		"x_seconds_bucket{device=\"a\",le=\"0.0002\"} 3\n"
		"x_seconds_bucket{device=\"a\",le=\"+Inf\"} 5\n"
		"x_seconds_count{device=\"a\"} 5\n"
		"x_seconds_bucket{device=\"b\",le=\"0.0001\"} 0\n"
		"x_seconds_bucket{device=\"b\",le=\"0.0002\"} 3\n"
		"x_seconds_bucket{device=\"b\",le=\"+Inf\"} 5\n"
		"x_seconds_sum{device=\"b\"} 0.5\n"
		"x_seconds_count{device=\"b\"} 5\n"
		"# HELP y y\n"
		"# TYPE y gauge\n"
		"y{device=\"b\"} 1\n");
	free(s);
	assert_int_equal(prom_merge(&p, &q, &err), -PCB_E_INVAL);
	assert_int_equal(prom_add_hist(&p, "z", "h", &d, 1, bad1, 3, NAN,
				       &err), -PCB_E_INVAL);
	assert_int_equal(prom_add_hist(&p, "z", "h", &d, 1, bad2, 2, NAN,
				       &err), -PCB_E_INVAL);
	assert_int_equal(prom_add_hist(&p, "z", "h", &d, 1, bad3, 1, NAN,
				       &err), -PCB_E_INVAL);
	assert_int_equal(prom_add(&p, "x_seconds", PROM_GAUGE, "h", &e, 1, 1,
				  &err), -PCB_E_INVAL);
	prom_release(&p);
	prom_release(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grouped),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_hist_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
