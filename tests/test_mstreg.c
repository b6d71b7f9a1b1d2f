/* Parsing mstreg's table: 4.21 and newer column widths, newer fields,
 * malformed output; and the process runner's edges.
 */
#include "testutil.h"
#include "adb.h"
#include "mstreg.h"
#include "paths.h"
#include "run.h"

static struct adb_reg *ppcc;

static char *table(int extra, const char *extra_rows, int drop_text)
{
	static char out[16384];
	int w = (int)adb_reg_name_width(ppcc) + extra, i;
	size_t n = 0, k;

	n += (size_t)snprintf(out + n, sizeof(out) - n,
			      "Sending access register...\n\n%-*s | %-8s\n", w,
			      "Field Name", "Data");
	for (i = 0; i < w + 14; i++)
		out[n++] = '=';
	out[n++] = '\n';
	for (k = 0; k < ppcc->nfields; k++) {
		if (drop_text && !strcmp(ppcc->fields[k].name, "text[54]"))
			continue;
		n += (size_t)snprintf(out + n, sizeof(out) - n,
				      "%-*s | 0x%08x\n", w,
				      ppcc->fields[k].name, (unsigned)(k * 7));
	}
	n += (size_t)snprintf(out + n, sizeof(out) - n, "%s", extra_rows);
	for (i = 0; i < w + 14; i++)
		out[n++] = '=';
	out[n++] = '\n';
	out[n] = '\0';
	return out;
}

static void test_parse_widths(void **state)
{
	struct pcb_err err = { 0 };
	uint8_t buf[256];
	int extra;

	(void)state;
	for (extra = 1; extra <= 3; extra += 2) {	/* HEAD +1, 4.21 +3 */
		memset(buf, 0xee, sizeof(buf));
		memset(buf, 0, ppcc->size);
		assert_int_equal(mstreg_parse_table(table(extra, "", 0), ppcc,
						    buf, &err), 0);
		assert_int_equal(adb_get(adb_reg_field(ppcc, "value"), buf),
				 6 * 7);
		assert_int_equal(adb_get(adb_reg_field(ppcc, "text[54]"),
					 buf), (ppcc->nfields - 1) * 7);
	}
	/* a newer ADB's extra field is ignored */
	assert_int_equal(mstreg_parse_table(table(3, "target_app            "
						  "| 0x00000001\n", 0), ppcc,
					    buf, &err), 0);
}

static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
		"",
		"-E- Failed to open device\n",
		"Field Name | Data\n=====\nvalue | 12\n=====\n",
		"Field Name | Data\n=====\nvalue 0x1\n=====\n",
		"Field Name | Data\n=====\nvalue | 0x1ffffffff\n=====\n",
		"Field Name | Data\n=====\nvalue | 0x00000001\n",
	};
	struct pcb_err err = { 0 };
	uint8_t buf[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pcb_err_reset(&err);
		assert_int_equal(mstreg_parse_table(bad[i], ppcc, buf, &err),
				 -PCB_E_PARSE);
		assert_null(strchr(err.msg, '\n'));
	}
	/* a table missing a field is refused, naming the count */
	pcb_err_reset(&err);
	assert_int_equal(mstreg_parse_table(table(3, "", 1), ppcc, buf, &err),
			 -PCB_E_PARSE);
	assert_non_null(strstr(err.msg, "70 of the 71"));
}

static void test_run(void **state)
{
	struct pcb_err err = { 0 };
	struct run_result r;
	char *echo[] = { (char *)"echo", (char *)"hello", NULL };
	char *cat[] = { (char *)"cat", NULL };
	char *sleep_[] = { (char *)"sleep", (char *)"10", NULL };
	char *none[] = { (char *)"/nonexistent/prog", NULL };
	char *fail[] = { (char *)"false", NULL };

	(void)state;
	assert_int_equal(run_prog(echo, NULL, 2000, NULL, &r, &err), 0);
	assert_string_equal(r.out, "hello\n");
	assert_int_equal(r.status, 0);
	run_result_free(&r);
	assert_int_equal(run_prog(cat, "abc", 2000, NULL, &r, &err), 0);
	assert_string_equal(r.out, "abc");
	run_result_free(&r);
	assert_int_equal(run_prog(fail, NULL, 2000, NULL, &r, &err), 0);
	assert_int_equal(r.status, 1);
	run_result_free(&r);
	pcb_err_reset(&err);
	assert_int_equal(run_prog(sleep_, NULL, 200, NULL, &r, &err),
			 -PCB_E_DEVICE);
	assert_non_null(strstr(err.msg, "did not answer within 200 ms"));
	pcb_err_reset(&err);
	assert_int_equal(run_prog(none, NULL, 2000, NULL, &r, &err),
			 -PCB_E_DEVICE);
	assert_non_null(strstr(err.msg, "cannot run"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_widths),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_run),
	};
	struct pcb_err err = { 0 };
	struct adb_db *db = NULL;
	char path[4096];
	int rc;

	if (pcb_data_file(path, sizeof(path), "reg/ppcc.adb", &err) ||
	    adb_db_load_file(&db, path, &err) ||
	    adb_reg_load(db, "PPCC", &ppcc, &err))
		return 1;
	adb_db_free(db);
	rc = cmocka_run_group_tests_name("mstreg", tests, NULL, NULL);
	adb_reg_free(ppcc);
	return rc;
}
