/* The output layer: each field call prints its text form or its JSON
 * form (never both), the JSON-only and text-only calls stay silent in the
 * other mode, strings are escaped, reals keep every bit, and a table
 * prints aligned or as an array of objects.
 */
#include <math.h>

#include "testutil.h"
#include "out.h"

struct cap {
	char *buf;
	size_t len;
	FILE *fp;
	struct out o;
};

static void cap_open(struct cap *c, bool json, bool pretty)
{
	c->buf = NULL;
	c->len = 0;
	c->fp = open_memstream(&c->buf, &c->len);
	assert_non_null(c->fp);
	out_init(&c->o, c->fp, json, pretty);
}

/* What was printed; the caller frees it. */
static char *cap_close(struct cap *c)
{
	fclose(c->fp);
	return c->buf;
}

/* One record, written once, in both modes. */
static void record(struct out *o)
{
	out_obj_begin(o, NULL);
	out_field_uint(o, "slot", "slot %u: ", 3);
	out_field_str(o, "name", "%s, ", "ztr_rtt");
	out_field_u64(o, "bytes", "%llu bytes, ", UINT64_MAX);
	out_field_int(o, "lag", "lag %d, ", -2);
	out_field_real(o, "r", "r %.3f, ", 0.1);
	out_field_bool(o, "enabled", "algo %s", true, "ENABLED", "DISABLED");
	out_u64(o, "json_only", 7);
	out_text(o, " (text only %d)", 42);
	out_nl(o);
	out_obj_end(o);
}

static void test_field_text(void **state)
{
	struct cap c;
	char *s;

	(void)state;
	cap_open(&c, false, false);
	record(&c.o);
	s = cap_close(&c);
	assert_string_equal(s, "slot 3: ztr_rtt, 18446744073709551615 bytes, "
			    "lag -2, r 0.100, algo ENABLED (text only 42)\n");
	free(s);
}

static void test_field_json(void **state)
{
	struct cap c;
	char *s;

	(void)state;
	cap_open(&c, true, false);
	record(&c.o);
	s = cap_close(&c);
	assert_string_equal(s, "{\"slot\":3,\"name\":\"ztr_rtt\","
			    "\"bytes\":18446744073709551615,\"lag\":-2,"
			    "\"r\":0.1,\"enabled\":true,\"json_only\":7}\n");
	free(s);
}

static void test_field_pretty(void **state)
{
	struct cap c;
	char *s;

	(void)state;
	cap_open(&c, false, true);	/* pretty implies JSON */
	out_obj_begin(&c.o, NULL);
	out_field_str(&c.o, "a", "%s\n", "x");
	out_arr_begin(&c.o, "l");
	out_field_uint(&c.o, NULL, "%u\n", 1);
	out_field_uint(&c.o, NULL, "%u\n", 2);
	out_arr_end(&c.o);
	out_obj_end(&c.o);
	s = cap_close(&c);
	assert_string_equal(s, "{\n  \"a\": \"x\",\n  \"l\": [\n    1,\n"
			    "    2\n  ]\n}\n");
	free(s);
}

/* NULL strings and missing reals: "-" or the fmt in text, null in JSON. */
static void test_field_missing(void **state)
{
	struct cap c;
	char *s;

	(void)state;
	cap_open(&c, false, false);
	out_field_str(&c.o, "s", "[%s]", NULL);
	out_field_real(&c.o, "r", "[%g]", NAN);
	s = cap_close(&c);
	assert_string_equal(s, "[-][nan]");
	free(s);
	cap_open(&c, true, false);
	out_obj_begin(&c.o, NULL);
	out_field_str(&c.o, "s", "[%s]", NULL);
	out_field_real(&c.o, "r", "[%g]", NAN);
	out_field_real(&c.o, "i", "[%g]", INFINITY);
	out_field_bool(&c.o, "b", "%s", false, "on", "off");
	out_obj_end(&c.o);
	s = cap_close(&c);
	assert_string_equal(s, "{\"s\":null,\"r\":null,\"i\":null,"
			    "\"b\":false}\n");
	free(s);
}

static void test_escape(void **state)
{
	struct cap c;
	char *s;

	(void)state;
	cap_open(&c, true, false);
	out_obj_begin(&c.o, NULL);
	out_field_str(&c.o, "k\"ey", "%s", "a\"b\\c\nd\te\rf\001g/µ");
	out_obj_end(&c.o);
	s = cap_close(&c);
	assert_string_equal(s, "{\"k\\\"ey\":\"a\\\"b\\\\c\\nd\\te\\rf"
			    "\\u0001g/µ\"}\n");
	free(s);
	/* text prints the string as it is */
	cap_open(&c, false, false);
	out_field_str(&c.o, "k", "<%s>", "a\"b\\c");
	s = cap_close(&c);
	assert_string_equal(s, "<a\"b\\c>");
	free(s);
}

/* Reals: the shortest text that reads back as the same double. */
static void test_real_bits(void **state)
{
	struct cap c;
	char *s;

	(void)state;
	cap_open(&c, true, false);
	out_arr_begin(&c.o, NULL);
	out_field_real(&c.o, NULL, "%g", 0.1);
	out_field_real(&c.o, NULL, "%g", 1.0 / 3);
	out_field_real(&c.o, NULL, "%g", 1e21);
	out_arr_end(&c.o);
	s = cap_close(&c);
	assert_string_equal(s, "[0.1,0.3333333333333333,1e+21]\n");
	free(s);
}

/* The JSON writers are silent in text, out_text and out_nl in JSON. */
static void test_modes_silent(void **state)
{
	struct cap c;
	char *s;

	(void)state;
	cap_open(&c, false, false);
	out_obj_begin(&c.o, NULL);
	out_arr_begin(&c.o, "a");
	out_str(&c.o, NULL, "x");
	out_u64(&c.o, NULL, 1);
	out_i64(&c.o, NULL, -1);
	out_num(&c.o, NULL, "2.5");
	out_real(&c.o, NULL, 2.5);
	out_bool(&c.o, NULL, true);
	out_null(&c.o, NULL);
	out_arr_end(&c.o);
	out_obj_end(&c.o);
	out_end_doc(&c.o);
	s = cap_close(&c);
	assert_string_equal(s, "");
	free(s);
	cap_open(&c, true, false);
	out_text(&c.o, "text %s", "only");
	out_nl(&c.o);
	s = cap_close(&c);
	assert_string_equal(s, "");
	free(s);
}

static const struct tbl_col cols[] = {
	{ "name", "NAME", 0 }, { "n", "N", TBL_RIGHT },
	{ "hex", "HEX", TBL_RIGHT }, { "r", "R", TBL_RIGHT },
	{ "ok", "OK", 0 }, { "note", "NOTE", TBL_TEXT_ONLY },
	{ "id", "ID", TBL_JSON_ONLY },
};

static void fill(struct tbl *t)
{
	tbl_init(t, cols, sizeof(cols) / sizeof(cols[0]));
	assert_int_equal(tbl_row(t), 0);
	tbl_str(t, "a\"b");
	tbl_u64(t, 12345);
	tbl_hex(t, 255, 4);
	tbl_real(t, 0.1);
	tbl_bool(t, true);
	tbl_strf(t, "n%d", 1);
	tbl_u64(t, 9);
	assert_int_equal(tbl_row(t), 0);
	tbl_str(t, NULL);
	tbl_u64(t, 7);
	tbl_hex(t, 16, 4);
	tbl_real(t, NAN);
	tbl_bool(t, false);
	tbl_null(t);
	tbl_num(t, "2.5");
}

static void test_tbl(void **state)
{
	struct cap c;
	struct tbl t;
	char *s;

	(void)state;
	fill(&t);
	cap_open(&c, false, false);
	tbl_print(&t, &c.o, NULL);
	s = cap_close(&c);
	assert_string_equal(s,
			    "NAME      N     HEX    R  OK   NOTE\n"
			    "a\"b   12345  0x00ff  0.1  yes  n1\n"
			    "-         7  0x0010    -  no   -\n");
	free(s);
	cap_open(&c, true, false);
	tbl_print(&t, &c.o, NULL);
	s = cap_close(&c);
	assert_string_equal(s, "[{\"name\":\"a\\\"b\",\"n\":12345,\"hex\":255,"
			    "\"r\":0.1,\"ok\":true,\"id\":9},"
			    "{\"name\":null,\"n\":7,\"hex\":16,\"r\":null,"
			    "\"ok\":false,\"id\":2.5}]\n");
	free(s);
	tbl_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_text),
		cmocka_unit_test(test_field_json),
		cmocka_unit_test(test_field_pretty),
		cmocka_unit_test(test_field_missing),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_real_bits),
		cmocka_unit_test(test_modes_silent),
		cmocka_unit_test(test_tbl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
