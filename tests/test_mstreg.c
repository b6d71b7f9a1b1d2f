/* Parsing mstreg's table: 4.21 and newer column widths, newer fields,
 * malformed output; the process runner's basics; replies for another
 * request; what is kept of output that cannot be parsed.
 */
#include <dirent.h>
#include <libgen.h>
#include <sys/stat.h>

#include "testutil.h"
#include "adb.h"
#include "mstreg.h"
#include "paths.h"
#include "ppcc.h"
#include "run.h"

static struct adb_reg *ppcc;
static char fake[4096];		/* build/tests/fake-mstreg */
static char tmpdir[] = "/tmp/pccb-mstreg-XXXXXX";

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

/* The argv a request becomes: a GET names cmd_type and the five index
 * fields; a write also every RW field, zero or not, in decimal (issue
 * #24 item 1); the dry-run line is those words, quoted for a shell where
 * they need it (item 4).
 */
static void test_argv(void **state)
{
	struct pcb_err err = { 0 };
	struct mstreg_argv a;
	struct ppcc p;
	uint8_t buf[PPCC_SIZE];
	char *line = NULL, *get[] = { (char *)"mstreg", (char *)"-d",
		(char *)"0000:08:00.0", (char *)"--reg_name", (char *)"PPCC",
		(char *)"--indexes", (char *)"local_port=1,pnat=0,lp_msb=0,"
		"algo_slot=1,algo_param_index=0", (char *)"--op",
		(char *)"cmd_type=13", (char *)"--get", NULL };
	size_t i;

	(void)state;
	assert_int_equal(ppcc_init(&p, NULL, tu_ppcc_layout(), &err), 0);
	assert_int_equal(ppcc_counters_req(&p, 1, true, buf), REG_GET);
	assert_int_equal(mstreg_build_argv(&a, "mstreg", "0000:08:00.0",
					   p.layout, REG_GET, buf, &err), 0);
	for (i = 0; get[i]; i++)
		assert_string_equal(a.argv[i], get[i]);
	assert_null(a.argv[i]);
	/* enable without counters: counter_en=0 and the rest are named */
	assert_int_equal(ppcc_enable_req(&p, 2, false, buf), REG_SET);
	assert_int_equal(mstreg_build_argv(&a, "mstreg", "0000:08:00.0",
					   p.layout, REG_SET, buf, &err), 0);
	assert_string_equal(a.argv[8], "cmd_type=1");
	assert_string_equal(a.argv[9], "--set");
	assert_string_equal(a.argv[10], "value=0,sl_bitmask=65535,counter_en=0,"
			    "trace_en=0");
	assert_string_equal(a.argv[11], "--yes");
	assert_null(a.argv[12]);
	assert_int_equal(ppcc_param_set_req(&p, 0, 1, 13107, buf), REG_SET);
	assert_int_equal(mstreg_build_argv(&a, "mstreg", "0000:08:00.0",
					   p.layout, REG_SET, buf, &err), 0);
	assert_string_equal(a.argv[10], "value=13107,sl_bitmask=65535,"
			    "counter_en=0,trace_en=0");
	/* the line: the configured program, words quoted only if needed */
	assert_int_equal(mstreg_command_line("/opt/mft/bin/mlxreg",
					     "0000:08:00.0", p.layout,
					     REG_SET, buf, &line, &err), 0);
	assert_string_equal(line, "/opt/mft/bin/mlxreg -d 0000:08:00.0 "
			    "--reg_name PPCC --indexes local_port=1,pnat=0,"
			    "lp_msb=0,algo_slot=0,algo_param_index=1 --op "
			    "cmd_type=8 --set value=13107,sl_bitmask=65535,"
			    "counter_en=0,trace_en=0 --yes");
	free(line);
	assert_int_equal(mstreg_command_line("/tmp/my mst'reg", "sim:a b",
					     p.layout, REG_GET, buf, &line,
					     &err), 0);
	assert_non_null(strstr(line, "'/tmp/my mst'\\''reg' -d 'sim:a b' "));
	free(line);
	assert_int_equal(mstreg_command_line(NULL, "", p.layout, REG_GET,
					     buf, &line, &err), 0);
	assert_non_null(strstr(line, "mstreg -d '' --reg_name"));
	free(line);
	ppcc_release(&p);
}

/* A program at tmpdir/NAME: "#!/bin/sh" and body. */
static void script(char *path, size_t len, const char *name,
		   const char *body)
{
	FILE *fp;

	snprintf(path, len, "%s/%s", tmpdir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "#!/bin/sh\n%s\n", body);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(path, 0755), 0);
}

/* The PPCC register of device 0000:08:00.0 through the mstreg backend,
 * running `prog` (the fake mstreg on sim device `sim`, or a script).
 */
static void mst_open(struct reg_dev **dev, struct ppcc *p, const char *prog,
		     const char *sim)
{
	struct pcb_err err = { 0 };

	setenv("FAKE_MSTREG_SIM", sim, 1);
	assert_int_equal(reg_dev_open(dev, &mstreg_backend_ops, "nic",
				      "0000:08:00.0", &err), 0);
	assert_int_equal(ppcc_init(p, *dev, tu_ppcc_layout(), &err), 0);
	assert_int_equal(mstreg_configure(*dev, p->layout, prog, 0, NULL,
					  &err), 0);
}

static void mst_close(struct reg_dev *dev, struct ppcc *p)
{
	ppcc_release(p);
	reg_dev_close(dev);
}

/* An mstreg that answers another request than the one asked: the fake
 * mstreg, with its arguments edited by the sed expression in $CROSS.
 */
static void test_crossed_reply(void **state)
{
	static const struct {
		const char *cross, *want;
		bool set;
	} rows[] = {
		{ "s/algo_param_index=1$/algo_param_index=4/",
		  "algo_param_index 4 (requested 1)", false },
		{ "s/algo_slot=0/algo_slot=1/", "algo_slot 1 (requested 0)",
		  false },
		{ "s/^cmd_type=6$/cmd_type=7/", "cmd_type 0x7 (requested 0x6)",
		  false },
		{ "s/pnat=0/pnat=1/", "pnat 1 (requested 0)", false },
		{ "s/algo_slot=0/algo_slot=1/", "algo_slot 1 (requested 0)",
		  true },
		{ "s/algo_param_index=1$/algo_param_index=4/",
		  "algo_param_index 4 (requested 1)", true },
	};
	struct pcb_err err = { 0 };
	struct reg_dev *dev;
	struct ppcc p;
	char prog[4200], body[4400];
	uint32_t v = 0;
	size_t i;
	int rc;

	(void)state;
	snprintf(body, sizeof(body), "for a; do shift; set -- \"$@\" "
		 "\"$(printf '%%s\\n' \"$a\" | sed \"$CROSS\")\"; done\n"
		 "exec '%s' \"$@\"", fake);
	script(prog, sizeof(prog), "cross-mstreg", body);
	mst_open(&dev, &p, prog, "cross");
	/* unedited: ALPHA's default, and a set that takes */
	setenv("CROSS", "", 1);
	assert_int_equal(ppcc_param_get(&p, 0, 1, &v, &err), 0);
	assert_int_equal(v, 6553);
	assert_int_equal(ppcc_param_set(&p, 0, 1, 19661, &err), 0);
	assert_int_equal(ppcc_param_get(&p, 0, 1, &v, &err), 0);
	assert_int_equal(v, 19661);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		setenv("CROSS", rows[i].cross, 1);
		pcb_err_reset(&err);
		rc = rows[i].set ? ppcc_param_set(&p, 0, 1, 13107, &err) :
				   ppcc_param_get(&p, 0, 1, &v, &err);
		if (rc != -PCB_E_DEVICE || !strstr(err.msg, rows[i].want))
			fail_msg("row %zu (%s): rc %d, '%s'", i, rows[i].cross,
				 rc, err.msg);
		assert_int_equal(pcb_exit_code(rc), 2);
		assert_non_null(strstr(err.msg, "nic: PPCC "));
		assert_null(strchr(err.msg, '\n'));
	}
	unsetenv("CROSS");
	mst_close(dev, &p);
}

/* The path at the end of "...; its output is in PATH". */
static const char *saved_path(const struct pcb_err *err)
{
	const char *s = strstr(err->msg, "its output is in ");

	assert_non_null(s);
	return s + strlen("its output is in ");
}

static char *slurp_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = malloc(4 << 20);

	assert_non_null(fp);
	assert_non_null(buf);
	*len = fread(buf, 1, 4 << 20, fp);
	fclose(fp);
	return buf;
}

/* Output that cannot be parsed is kept whole: bytes after a NUL too, in
 * a file only its owner reads.
 */
static void test_saved_binary(void **state)
{
	struct pcb_err err = { 0 };
	struct reg_dev *dev;
	struct ppcc p;
	char prog[4200];
	struct stat st;
	uint32_t v;
	size_t len;
	char *text;

	(void)state;
	script(prog, sizeof(prog), "nul-mstreg",
	       "printf 'hello\\000after-nul\\n'; "
	       "printf 'warn\\000err-after-nul\\n' >&2");
	mst_open(&dev, &p, prog, "saved");
	assert_int_equal(ppcc_param_get(&p, 0, 1, &v, &err), -PCB_E_DEVICE);
	text = slurp_file(saved_path(&err), &len);
	assert_non_null(memmem(text, len, "hello\0after-nul\n", 16));
	assert_non_null(memmem(text, len, "warn\0err-after-nul\n", 19));
	free(text);
	assert_int_equal(stat(saved_path(&err), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	mst_close(dev, &p);
}

/* Megabytes of output: the file is cut at about 1 MiB, and says so. */
static void test_saved_capped(void **state)
{
	struct pcb_err err = { 0 };
	struct reg_dev *dev;
	struct ppcc p;
	char prog[4200];
	uint32_t v;
	size_t len;
	char *text;

	(void)state;
	script(prog, sizeof(prog), "big-mstreg",
	       "head -c 3000000 /dev/zero | tr '\\000' x");
	mst_open(&dev, &p, prog, "saved");
	assert_int_equal(ppcc_param_get(&p, 0, 1, &v, &err), -PCB_E_DEVICE);
	text = slurp_file(saved_path(&err), &len);
	assert_true(len <= (1 << 20) + 4096);
	assert_true(len >= (1 << 19));
	assert_non_null(memmem(text, len, "cut", 3));
	free(text);
	mst_close(dev, &p);
}

/* Only the newest five such files are kept. */
static void test_saved_last_five(void **state)
{
	struct pcb_err err = { 0 };
	struct reg_dev *dev;
	struct ppcc p;
	char prog[4200], paths[7][512], dir[512];
	struct dirent *de;
	uint32_t v;
	int i, n = 0;
	DIR *d;

	(void)state;
	script(prog, sizeof(prog), "garbage-mstreg", "echo garbage");
	mst_open(&dev, &p, prog, "saved");
	for (i = 0; i < 7; i++) {
		pcb_err_reset(&err);
		assert_int_equal(ppcc_param_get(&p, 0, 1, &v, &err),
				 -PCB_E_DEVICE);
		snprintf(paths[i], sizeof(paths[i]), "%s", saved_path(&err));
	}
	for (i = 0; i < 7; i++)
		assert_int_equal(access(paths[i], F_OK) == 0, i >= 2);
	snprintf(dir, sizeof(dir), "%s", paths[6]);
	d = opendir(dirname(dir));
	assert_non_null(d);
	while ((de = readdir(d)))
		n += strstr(de->d_name, "mstreg-output") != NULL;
	closedir(d);
	assert_int_equal(n, 5);
	mst_close(dev, &p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_widths),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_argv),
		cmocka_unit_test(test_crossed_reply),
		cmocka_unit_test(test_saved_binary),
		cmocka_unit_test(test_saved_capped),
		cmocka_unit_test(test_saved_last_five),
	};
	struct pcb_err err = { 0 };
	struct adb_db *db = NULL;
	char path[4096], self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int rc;

	if (n <= 0 || !mkdtemp(tmpdir))
		return 1;
	self[n] = '\0';
	snprintf(fake, sizeof(fake), "%s/fake-mstreg", dirname(self));
	tu_private_state();
	if (pcb_data_file(path, sizeof(path), "reg/ppcc.adb", &err) ||
	    adb_db_load_file(&db, path, &err) ||
	    adb_reg_load(db, "PPCC", &ppcc, &err))
		return 1;
	adb_db_free(db);
	rc = cmocka_run_group_tests_name("mstreg", tests, NULL, NULL);
	tu_rm_dir(tmpdir);
	adb_reg_free(ppcc);
	return rc;
}
