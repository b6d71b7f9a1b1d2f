/* A library opened when a command first needs it (src/util/lazylib.c):
 * its functions resolve and work; a missing library or function is one
 * line naming it and the package, and leaves the table as it was.
 */
#include <math.h>
#include <string.h>

#include "testutil.h"
#include "util/lazylib.h"

struct mfns {
	double (*cos)(double);
	double (*sqrt)(double);
};

static void test_load(void **state)
{
	static const char *const names[] = { "cos", "sqrt", NULL };
	struct mfns f = { NULL, NULL };
	struct lazylib l = { "libm.so.6", "test", "libc6", names, &f, false };
	struct pcb_err err = { 0 };

	(void)state;
	assert_int_equal(lazylib_load(&l, &err), 0);
	assert_true(l.loaded);
	assert_non_null(f.cos);
	assert_true(f.cos(0.0) == 1.0);
	assert_true(f.sqrt(16.0) == 4.0);
	/* a second load keeps what the first resolved */
	f.cos = NULL;
	assert_int_equal(lazylib_load(&l, &err), 0);
	assert_null(f.cos);
}

static void test_missing_lib(void **state)
{
	static const char *const names[] = { "cos", NULL };
	struct mfns f = { NULL, NULL };
	struct lazylib l = { "libpccbench-none.so.9", "serve metrics",
			     "libnone9", names, &f, false };
	struct pcb_err err = { 0 };

	(void)state;
	assert_int_equal(lazylib_load(&l, &err), -PCB_E_STATE);
	assert_false(l.loaded);
	assert_null(f.cos);
	assert_non_null(strstr(err.msg, "serve metrics needs "
				"libpccbench-none.so.9"));
	assert_non_null(strstr(err.msg, "install libnone9"));
	assert_null(strchr(err.msg, '\n'));
}

static void test_missing_fn(void **state)
{
	static const char *const names[] = { "cos", "pccbench_no_such_fn",
					     NULL };
	struct mfns f = { NULL, NULL };
	struct lazylib l = { "libm.so.6", "tune", "libc6", names, &f, false };
	struct pcb_err err = { 0 };

	(void)state;
	assert_int_equal(lazylib_load(&l, &err), -PCB_E_STATE);
	assert_false(l.loaded);
	assert_null(f.cos);	/* nothing written when one is missing */
	assert_non_null(strstr(err.msg, "tune needs pccbench_no_such_fn "
				"from libm.so.6"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_missing_lib),
		cmocka_unit_test(test_missing_fn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
