/* mstconfig's query table (reg/mstconfig.c): rows built with the format
 * mstflint 4.21 prints them with (mlxcfg_ui.cpp printSingleParam,
 * printConfHeader), each header variant, and a table of outputs that must
 * fail in one line naming the line at fault; then the real run against
 * tests/tools/fake-mstconfig (found beside this binary): its device, its
 * -E- quoted, a hang timed out, a missing program.
 */
#include <libgen.h>
#include <time.h>

#include "testutil.h"
#include "mstconfig.h"

static char fake[4096];		/* build/tests/fake-mstconfig */

/* One row as printSingleParam prints it: a value wider than 16 is
 * followed by a space.
 */
static size_t row(char *buf, size_t len, bool star, const char *name,
		  const char *const *vals, size_t n)
{
	size_t k, off;
	int w = 0;

	off = (size_t)snprintf(buf, len, "%s        %-36s", star ? "*" : " ",
			       name);
	for (k = 0; k < n; k++) {
		if (w > 16)
			off += (size_t)snprintf(buf + off, len - off, " ");
		w = snprintf(buf + off, len - off, "%-16s", vals[k]);
		off += (size_t)w;
	}
	off += (size_t)snprintf(buf + off, len - off, "\n");
	return off;
}

static const char opening[] =
	"\nDevice #1:\n----------\n\n"
	"Device type:    ConnectX7       \n"
	"Name:           MCX75310AAS-NEA_Ax\n"
	"Description:    NVIDIA ConnectX-7 HHHL adapter card; 400GbE\n"
	"Device:         0000:08:00.0    \n\n";

static void test_three_columns(void **state)
{
	static const char *const a[] = { "ROCE_ENABLE_WITH_A_LONG_NAME(2)",
					 "ROCE_ENABLE_WITH_A_LONG_NAME(2)",
					 "ROCE_DISABLE(0)" };
	static const char *const b[] = { "Array[0..7]", "Array[0..7]",
					 "Array[0..7]" };
	static const char *const c[] = { "N/A", "4", "0" };
	char text[4096];
	struct nvc_query q;
	struct pcb_err err = { 0 };
	size_t off;

	(void)state;
	off = (size_t)snprintf(text, sizeof(text), "%s%-16s%36s%16s%18s\n",
			       opening, "Configurations:", "Default",
			       "Current", "Next Boot");
	off += row(text + off, sizeof(text) - off, true, "ROCE_CONTROL", a, 3);
	off += row(text + off, sizeof(text) - off, false, "ESWITCH_HAIRPIN",
		   b, 3);
	off += row(text + off, sizeof(text) - off, true,
		   "MIN_TIME_BETWEEN_CNPS_P1", c, 3);
	snprintf(text + off, sizeof(text) - off, "The '*' shows parameters "
		 "with next value different from default/current value.\n");
	assert_int_equal(nvc_parse(text, &q, &err), 0);
	assert_string_equal(q.device_type, "ConnectX7");
	assert_string_equal(q.part, "MCX75310AAS-NEA_Ax");
	assert_string_equal(q.device, "0000:08:00.0");
	assert_true(q.has[NVC_DEFAULT] && q.has[NVC_CURRENT] &&
		    q.has[NVC_NEXT]);
	assert_int_equal(q.n, 3);
	assert_string_equal(q.p[0].name, "ROCE_CONTROL");
	assert_string_equal(q.p[0].val[NVC_CURRENT],
			    "ROCE_ENABLE_WITH_A_LONG_NAME(2)");
	assert_string_equal(q.p[0].val[NVC_NEXT], "ROCE_DISABLE(0)");
	assert_true(q.p[0].starred);
	assert_true(nvc_pending(&q, &q.p[0]));
	assert_string_equal(q.p[1].val[NVC_DEFAULT], "Array[0..7]");
	assert_false(q.p[1].starred);
	assert_false(nvc_pending(&q, &q.p[1]));
	assert_string_equal(q.p[2].val[NVC_DEFAULT], "N/A");
	assert_true(nvc_pending(&q, &q.p[2]));	/* 4 now, 0 next */
	nvc_release(&q);
	assert_null(q.p);
	assert_int_equal(q.n, 0);
}

/* Without -e, or firmware that cannot read the current values. */
static void test_fewer_columns(void **state)
{
	static const char *const v1[] = { "True(1)" };
	static const char *const v2[] = { "5", "5" };
	char text[2048];
	struct nvc_query q;
	size_t off;

	(void)state;
	off = (size_t)snprintf(text, sizeof(text), "%s%-16s%38s\n", opening,
			       "Configurations:", "Next Boot");
	row(text + off, sizeof(text) - off, false, "ROCE_CC_PRIO_MASK_P1",
	    v1, 1);
	assert_int_equal(nvc_parse(text, &q, NULL), 0);
	assert_false(q.has[NVC_DEFAULT] || q.has[NVC_CURRENT]);
	assert_int_equal(q.n, 1);
	assert_null(q.p[0].val[NVC_CURRENT]);
	assert_string_equal(q.p[0].val[NVC_NEXT], "True(1)");
	assert_false(nvc_pending(&q, &q.p[0]));
	nvc_release(&q);

	off = (size_t)snprintf(text, sizeof(text), "%s%-16s%36s%18s\n",
			       opening, "Configurations:", "Default",
			       "Next Boot");
	off += row(text + off, sizeof(text) - off, false, "RPG_AI_RATE_P1",
		   v2, 2);
	/* a blank line ends the table: what follows is not a setting */
	off += (size_t)snprintf(text + off, sizeof(text) - off, "\n");
	row(text + off, sizeof(text) - off, false, "RPG_GD_P1", v2, 2);
	assert_int_equal(nvc_parse(text, &q, NULL), 0);
	assert_true(q.has[NVC_DEFAULT] && !q.has[NVC_CURRENT]);
	assert_int_equal(q.n, 1);
	assert_string_equal(q.p[0].val[NVC_DEFAULT], "5");
	assert_null(q.p[0].val[NVC_CURRENT]);
	nvc_release(&q);
}

#define HDR "Configurations:                                      Default" \
	"         Current       Next Boot\n"
#define ROW3(n, a, b, c) "         " n "    " a "    " b "    " c "\n"

static void test_bad_outputs(void **state)
{
	static const struct {
		const char *text;
		int code;
		const char *msg;
	} cases[] = {
		{ "", PCB_E_PARSE, "no 'Configurations:' table" },
		{ "garbage\n\x01\x02\n", PCB_E_PARSE,
		  "no 'Configurations:' table" },
		{ "-E- Failed to open the device\n", PCB_E_DEVICE,
		  "Failed to open the device" },
		{ HDR ROW3("A", "1", "1", "1")
		  "-E- Failed to query some of the TLVs:\n    Failed to "
		  "query the next values of the following TLVs:\n    "
		  "nv_roce_cc nv_pcc \n\n", PCB_E_DEVICE,
		  "Failed to query some of the TLVs: Failed to query the "
		  "next values of the following TLVs: nv_roce_cc nv_pcc" },
		{ "-E- \nDevice #1:\n", PCB_E_DEVICE,
		  "an error without a message ('-E-')" },
		{ "-E- invalid argument: --x\n    NAME:\n", PCB_E_DEVICE,
		  "invalid argument: --x" },
		{ HDR, PCB_E_PARSE, "an empty 'Configurations:' table" },
		{ HDR "The '*' shows ...\n", PCB_E_PARSE, "empty" },
		{ "Configurations:    Next Boot  Later\n", PCB_E_PARSE,
		  "unexpected line 1: 'Configurations:    Next Boot  Later'" },
		{ "Configurations:    Current  Default  Next Boot\n",
		  PCB_E_PARSE, "unexpected line 1" },
		{ HDR ROW3("A", "1", "1", "1") "         B    1    1\n",
		  PCB_E_PARSE, "unexpected line 3: '         B    1    1'" },
		{ HDR "         B    1    1    1    1\n", PCB_E_PARSE,
		  "unexpected line 2" },
		{ HDR ROW3("lower_case", "1", "1", "1"), PCB_E_PARSE,
		  "unexpected line 2" },
		{ HDR ROW3("A", "\x01\xff", "1", "1"), PCB_E_PARSE,
		  "'         A    ??    1    1'" },
		{ HDR "   \n", PCB_E_PARSE, "unexpected line 2: '   '" },
		{ HDR ROW3("A_VALUE_THAT_IS_FAR_TOO_LONG_TO_BE_A_NAME_MSTCONFIG"
			   "_WOULD_EVER_PRINT_X", "1", "1", "1"), PCB_E_PARSE,
		  "...'" },
	};
	char long_line[3000];
	struct pcb_err err;
	struct nvc_query q;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&err, 0, sizeof(err));
		memset(&q, 0x5a, sizeof(q));	/* cleared on an error too */
		assert_int_equal(nvc_parse(cases[i].text, &q, &err),
				 -cases[i].code);
		if (!strstr(err.msg, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg,
				 cases[i].msg);
		assert_null(strchr(err.msg, '\n'));
		assert_int_equal(q.n, 0);
		assert_null(q.p);
	}
	memset(long_line, 'A', sizeof(long_line) - 1);
	long_line[sizeof(long_line) - 1] = '\0';
	memset(&err, 0, sizeof(err));
	assert_int_equal(nvc_parse(long_line, &q, &err), -PCB_E_PARSE);
	assert_non_null(strstr(err.msg, "line 1 is 2999 characters long"));
}

static void test_is_cc(void **state)
{
	static const char *const yes[] = {
		"ROCE_CC_PRIO_MASK_P1", "ROCE_CC_LEGACY_DCQCN", "ROCE_CONTROL",
		"RPG_AI_RATE_P2", "DCE_TCP_G_P1", "CNP_DSCP_P1",
		"CLAMP_TGT_RATE_AFTER_TIME_INC_P1", "USER_PROGRAMMABLE_CC",
		"HPCC_INT_EN", "MIN_TIME_BETWEEN_CNPS_P1",
	};
	static const char *const no[] = {
		"SRIOV_EN", "NUM_OF_VFS", "LINK_TYPE_P1", "MEMIC_BAR_SIZE",
		"roce_cc", "",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!nvc_is_cc(yes[i]))
			fail_msg("'%s' is a CC setting", yes[i]);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (nvc_is_cc(no[i]))
			fail_msg("'%s' is no CC setting", no[i]);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* The program: its argv, its device, its errors, its time limit. */
static void test_run_fake(void **state)
{
	struct pcb_err err = { 0 };
	struct nvc_query q;
	long long t0;
	size_t i;

	(void)state;
	unsetenv("FAKE_MSTCONFIG_MODE");
	setenv("FAKE_MSTCONFIG_DEVICE", "0000:08:00.0", 1);
	assert_int_equal(nvc_run(fake, "0000:08:00.0", 5000, NULL, &q, &err),
			 0);
	assert_int_equal(q.n, 20);	/* the fake's rows, all of them */
	assert_string_equal(q.device, "0000:08:00.0");
	for (i = 0; i < q.n; i++)
		if (!strcmp(q.p[i].name, "ROCE_CC_LEGACY_DCQCN_P1"))
			break;
	assert_true(i < q.n);
	assert_string_equal(q.p[i].val[NVC_CURRENT], "True(1)");
	assert_string_equal(q.p[i].val[NVC_NEXT], "False(0)");
	nvc_release(&q);

	assert_int_equal(nvc_run(fake, "0000:09:00.0", 5000, NULL, &q, &err),
			 -PCB_E_DEVICE);
	assert_string_equal(err.msg, "0000:09:00.0: fake-mstconfig: Failed "
			    "to open the device");

	setenv("FAKE_MSTCONFIG_MODE", "garbage", 1);
	memset(&err, 0, sizeof(err));
	assert_int_equal(nvc_run(fake, "0000:08:00.0", 5000, NULL, &q, &err),
			 -PCB_E_DEVICE);
	assert_non_null(strstr(err.msg, "fake-mstconfig query: unexpected "
			       "line 20"));
	assert_null(q.p);

	setenv("FAKE_MSTCONFIG_MODE", "hang", 1);
	memset(&err, 0, sizeof(err));
	t0 = now_ms();
	assert_true(nvc_run(fake, "0000:08:00.0", 300, NULL, &q, &err) < 0);
	assert_true(now_ms() - t0 < 5000);
	assert_true(err.msg[0] != '\0');
	unsetenv("FAKE_MSTCONFIG_MODE");

	memset(&err, 0, sizeof(err));
	assert_true(nvc_run("/nonexistent/mstconfig", "0000:08:00.0", 5000,
			    NULL, &q, &err) < 0);
	assert_true(err.msg[0] != '\0');
	assert_null(strchr(err.msg, '\n'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_columns),
		cmocka_unit_test(test_fewer_columns),
		cmocka_unit_test(test_bad_outputs),
		cmocka_unit_test(test_is_cc),
		cmocka_unit_test(test_run_fake),
	};
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return 1;
	self[n] = '\0';
	snprintf(fake, sizeof(fake), "%s/fake-mstconfig", dirname(self));
	tu_private_state();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
