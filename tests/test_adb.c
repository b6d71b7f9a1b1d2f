/* ADB loader: our PPCC layout, mstflint's real database, pack/unpack. */
#include "testutil.h"
#include "adb.h"
#include "paths.h"

#define MSTFLINT_ADB \
	"/usr/share/mstflint/prm_dbs/hca/ext/register_access_table.adb"

static struct adb_db *load_ours(void)
{
	char path[4096];
	struct adb_db *db = NULL;
	struct pcb_err err = { 0 };

	assert_int_equal(pcb_data_file(path, sizeof(path), "reg/ppcc.adb",
				       &err), 0);
	assert_int_equal(adb_db_load_file(&db, path, &err), 0);
	return db;
}

static void test_ppcc_layout(void **state)
{
	struct adb_db *db = load_ours();
	struct adb_reg *r = NULL;
	struct pcb_err err = { 0 };
	const struct adb_field *f;

	(void)state;
	assert_int_equal(adb_reg_load(db, "PPCC", &r, &err), 0);
	assert_int_equal(r->id, 0x506e);
	assert_int_equal(r->size, 252);
	assert_int_equal(r->nfields, 16 + 55);
	/* print order: dword 0 low bits first */
	assert_string_equal(r->fields[0].name, "cmd_type");
	assert_string_equal(r->fields[1].name, "lp_msb");
	assert_string_equal(r->fields[2].name, "pnat");
	assert_string_equal(r->fields[3].name, "local_port");
	f = adb_reg_field(r, "text[54]");
	assert_non_null(f);
	assert_int_equal(f->offset, 0xf8 * 8);
	f = adb_reg_field(r, "ppcc_reg_ext.algo_param_index");
	assert_non_null(f);
	assert_int_equal(f->offset, 4 * 8 + 16);
	assert_int_equal(f->size, 16);
	assert_int_equal(f->access, ADB_ACC_INDEX);
	assert_null(adb_reg_field(r, "nonexistent"));
	adb_reg_free(r);
	/* by id and by node name */
	assert_int_equal(adb_reg_load(db, "0x506e", &r, &err), 0);
	adb_reg_free(r);
	assert_int_equal(adb_reg_load(db, "ppcc_reg_ext", &r, &err), 0);
	assert_int_equal(r->id, 0x506e);
	adb_reg_free(r);
	assert_int_not_equal(adb_reg_load(db, "PPCNT", &r, &err), 0);
	assert_int_equal(err.code, PCB_E_NOENT);
	adb_db_free(db);
}

/* The spec's worked example (section 1.9). */
static void test_worked_example(void **state)
{
	struct adb_db *db = load_ours();
	struct adb_reg *r = NULL;
	struct pcb_err err = { 0 };
	uint8_t buf[256] = { 0 };
	static const uint8_t want[12] = { 0x00, 0x01, 0x00, 0x08, 0x00, 0x02,
					  0x00, 0x01, 0x00, 0x00, 0xf8, 0x52 };

	(void)state;
	assert_int_equal(adb_reg_load(db, "PPCC", &r, &err), 0);
	adb_set(adb_reg_field(r, "cmd_type"), buf, 8);
	adb_set(adb_reg_field(r, "local_port"), buf, 1);
	adb_set(adb_reg_field(r, "algo_slot"), buf, 1);
	adb_set(adb_reg_field(r, "algo_param_index"), buf, 2);
	adb_set(adb_reg_field(r, "value"), buf, 63570);
	assert_memory_equal(buf, want, sizeof(want));
	adb_set(adb_reg_field(r, "text[0]"), buf, 0x5250475f);
	assert_memory_equal(buf + 0x20, "RPG_", 4);
	adb_set(adb_reg_field(r, "counter_en"), buf, 1);
	assert_int_equal(buf[0x1f], 0x08);
	adb_reg_free(r);
	adb_db_free(db);
}

/* Random values into every field: each reads back, no other field moves.
 */
static void roundtrip(const struct adb_reg *r, uint64_t *seed)
{
	uint8_t *buf = calloc(1, r->size + 4);
	uint32_t *vals = calloc(r->nfields, sizeof(*vals));
	size_t i, j;
	int pass;

	assert_non_null(buf);
	assert_non_null(vals);
	for (pass = 0; pass < 4; pass++) {
		for (i = 0; i < r->nfields; i++) {
			vals[i] = tu_rand(seed) & adb_field_max(&r->fields[i]);
			adb_set(&r->fields[i], buf, vals[i]);
			/* overlapping union members share bits: check the
			 * one just written */
			assert_int_equal(adb_get(&r->fields[i], buf), vals[i]);
		}
		for (i = 0; i < r->nfields; i++) {
			bool overlapped = false;

			for (j = i + 1; j < r->nfields && !overlapped; j++) {
				const struct adb_field *a = &r->fields[i];
				const struct adb_field *b = &r->fields[j];

				overlapped = a->offset < b->offset + b->size &&
					     b->offset < a->offset + a->size;
			}
			if (!overlapped)
				assert_int_equal(adb_get(&r->fields[i], buf),
						 vals[i]);
		}
	}
	free(buf);
	free(vals);
}

static void test_roundtrip_ppcc(void **state)
{
	struct adb_db *db = load_ours();
	struct adb_reg *r = NULL;
	struct pcb_err err = { 0 };
	uint64_t seed = 7;

	(void)state;
	assert_int_equal(adb_reg_load(db, "PPCC", &r, &err), 0);
	roundtrip(r, &seed);
	adb_reg_free(r);
	adb_db_free(db);
}

static void test_mstflint_matches_ours(void **state)
{
	struct adb_db *ours = load_ours(), *mf = NULL;
	struct adb_reg *a = NULL, *b = NULL;
	struct pcb_err err = { 0 };
	size_t i;

	(void)state;
	if (access(MSTFLINT_ADB, R_OK)) {
		adb_db_free(ours);
		skip();
	}
	assert_int_equal(adb_db_load_file(&mf, MSTFLINT_ADB, &err), 0);
	assert_int_equal(adb_reg_load(ours, "PPCC", &a, &err), 0);
	assert_int_equal(adb_reg_load(mf, "PPCC", &b, &err), 0);
	assert_string_equal(b->node, "ppcc_reg_ext");
	assert_int_equal(b->id, 0x506e);
	assert_int_equal(a->size, b->size);
	assert_int_equal(a->nfields, b->nfields);
	for (i = 0; i < a->nfields; i++) {
		assert_string_equal(a->fields[i].name, b->fields[i].name);
		assert_int_equal(a->fields[i].offset, b->fields[i].offset);
		assert_int_equal(a->fields[i].size, b->fields[i].size);
		assert_int_equal(a->fields[i].access, b->fields[i].access);
	}
	adb_reg_free(a);
	adb_reg_free(b);
	adb_db_free(ours);
	adb_db_free(mf);
}

/* Every register named in mstflint's database loads and round-trips. */
static void test_mstflint_every_register(void **state)
{
	struct adb_db *mf = NULL;
	struct pcb_err err = { 0 };
	uint64_t seed = 99;
	size_t i, n;

	(void)state;
	if (access(MSTFLINT_ADB, R_OK))
		skip();
	assert_int_equal(adb_db_load_file(&mf, MSTFLINT_ADB, &err), 0);
	n = adb_db_count(mf);
	assert_true(n > 150);
	for (i = 0; i < n; i++) {
		struct adb_reg *r = NULL;

		pcb_err_reset(&err);
		if (adb_reg_load(mf, adb_db_name(mf, i), &r, &err)) {
			/* a name in the enum without a layout is allowed;
			 * a broken layout is not */
			assert_int_equal(err.code, PCB_E_NOENT);
			continue;
		}
		assert_true(r->nfields > 0);
		roundtrip(r, &seed);
		adb_reg_free(r);
	}
	adb_db_free(mf);
}

static void test_bad_files(void **state)
{
	static const char *const bad[] = {
		"<NodesDefinition><node name='x' size='zz'/></NodesDefinition>",
		"<NodesDefinition><node name='x' size='0x4.0'><field "
		"name='a' offset='0x0.30' size='0x0.8'/></node>"
		"</NodesDefinition>",
		"<NodesDefinition><node name='x' size='0x4.0'><field "
		"name='a' offset='0x4.0' size='0x4.0'/></node>"
		"</NodesDefinition>",
		"<NodesDefinition><node name='x' size='0x4.0'><field "
		"name='a' subnode='y' offset='0x0.0' size='0x4.0'/></node>"
		"</NodesDefinition>",
		"<NodesDefinition><node name='x' size='0x4.0'><field "
		"name='a' subnode='x' offset='0x0.0' size='0x4.0'/></node>"
		"</NodesDefinition>",
		"<NodesDefinition><node name='x' size='0x8.0'><field "
		"name='a' low_bound='0' high_bound='2' offset='0x0.0' "
		"size='0x8.0'/></node></NodesDefinition>",
		"<Nodes/>",
		"<NodesDefinition><node",
		"",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct adb_db *db = NULL;
		struct adb_reg *r = NULL;
		struct pcb_err err = { 0 };
		int rc = adb_db_load_memory(&db, bad[i], strlen(bad[i]),
					    "bad.adb", &err);

		if (!rc) {
			rc = adb_reg_load(db, "x", &r, &err);
			adb_db_free(db);
		}
		assert_int_not_equal(rc, 0);
		assert_true(err.msg[0] != '\0');
		assert_null(strchr(err.msg, '\n'));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ppcc_layout),
		cmocka_unit_test(test_worked_example),
		cmocka_unit_test(test_roundtrip_ppcc),
		cmocka_unit_test(test_mstflint_matches_ours),
		cmocka_unit_test(test_mstflint_every_register),
		cmocka_unit_test(test_bad_files),
	};

	return cmocka_run_group_tests_name("adb", tests, NULL, NULL);
}
