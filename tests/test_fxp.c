/* fxp conversions: the documented values and round trips. */
#include "testutil.h"
#include "fxp.h"

static void test_documented(void **state)
{
	uint32_t r;

	(void)state;
	/* seed 004 defaults, typed as documented, hint = the default */
	assert_true(fxp_from_real(0.1, 16, 6553, &r));
	assert_int_equal(r, 6553);
	assert_true(fxp_from_real(0.97, 16, 63570, &r));
	assert_int_equal(r, 63570);
	assert_true(fxp_from_real(1.06, 16, 69468, &r));
	assert_int_equal(r, 69468);
	assert_true(fxp_from_real(0.0625, 20, 65536, &r));
	assert_int_equal(r, 65536);
	/* plain round to nearest, no hint */
	assert_true(fxp_from_real(0.97, 16, -1, &r));
	assert_int_equal(r, 63570);
	assert_true(fxp_from_real(1.06, 16, -1, &r));
	assert_int_equal(r, 69468);
	assert_true(fxp_from_real(0.1, 16, -1, &r));
	assert_int_equal(r, 6554);	/* 6553.6 rounds up */
	assert_true(fxp_from_real(2.0, 20, -1, &r));
	assert_int_equal(r, 2097152);
	/* a hint more than one unit away is ignored */
	assert_true(fxp_from_real(0.2, 16, 6553, &r));
	assert_int_equal(r, 13107);
}

static void test_refuse(void **state)
{
	uint32_t r = 7;

	(void)state;
	assert_false(fxp_from_real(-0.5, 16, -1, &r));
	assert_false(fxp_from_real(70000.0, 16, -1, &r));
	assert_false(fxp_from_real(1.0 / 0.0, 16, -1, &r));
	assert_int_equal(r, 7);
}

static void test_format(void **state)
{
	char b[32];

	(void)state;
	fxp_format(b, sizeof(b), 6553, 16);
	assert_string_equal(b, "0.1");
	fxp_format(b, sizeof(b), 63570, 16);
	assert_string_equal(b, "0.97");
	fxp_format(b, sizeof(b), 69468, 16);
	assert_string_equal(b, "1.06");
	fxp_format(b, sizeof(b), 65536, 20);
	assert_string_equal(b, "0.0625");
	fxp_format(b, sizeof(b), 2097152, 20);
	assert_string_equal(b, "2");
	fxp_format(b, sizeof(b), 655360, 16);
	assert_string_equal(b, "10");
	fxp_format(b, sizeof(b), 0, 16);
	assert_string_equal(b, "0");
}

/* Every printed value parses back to the same raw (nearest or hint). */
static void test_roundtrip(void **state)
{
	uint64_t seed = 42;
	int i;

	(void)state;
	for (i = 0; i < 20000; i++) {
		uint32_t raw = tu_rand(&seed) % (1u << 24), back;
		unsigned fb = i & 1 ? 16 : 20;
		char b[32];

		fxp_format(b, sizeof(b), raw, fb);
		assert_true(fxp_from_real(strtod(b, NULL), fb, raw, &back));
		assert_int_equal(back, raw);
		assert_true(fxp_to_real(raw, fb) * (1u << fb) == raw);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_documented),
		cmocka_unit_test(test_refuse),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_roundtrip),
	};

	return cmocka_run_group_tests_name("fxp", tests, NULL, NULL);
}
