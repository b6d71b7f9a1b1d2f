/* fuzz_mstreg.c - mstreg's stdout table (reg/mstreg.c mstreg_parse_table)
 * and what pccbench makes of the register it yields.
 *
 * Input: what mstreg printed for each GET, the outputs separated by a
 * form feed ('\f').  The first output is also parsed alone into a
 * register of exactly the layout's size.  Then a fake device with
 * REG_CAP_REAL and no bulk set (fz_nic_session, FZ_NIC_MSTREG) hands the
 * outputs in order to the commands a user runs first: algo list, param
 * list, counter show, param get.  FZ_SEEDS=DIR writes seeds recorded on
 * the sim device (text[] rows that are 0 left out) and exits.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mstreg.h"
#include "paths.h"

static struct adb_reg *layout;

/* What a user runs first on a NIC; the seeds record its replies. */
static const char cmds[] = "algo list; param list 1; counter show 1; "
			   "param get slot 1 ALPHA";

/* FZ_SEEDS=DIR: the replies of the sim device, as it starts and with
 * counters enabled on slot 1 or 2, then exit.
 */
static void seeds(void)
{
	fz_nic_seed(FZ_NIC_MSTREG, NULL, cmds, "sim-default");
	fz_nic_seed(FZ_NIC_MSTREG, "algo enable 1 counters", cmds,
		    "sim-counters");
	fz_nic_seed(FZ_NIC_MSTREG, "algo enable 2 counters", cmds, "sim-dcqcn");
	fz_nic_seed(FZ_NIC_MSTREG, NULL, "algo list", "algo-list");
	exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[4096];
	struct adb_db *db = NULL;
	struct pcb_err err = { 0 };

	fz_setup(argc, argv);
	if (pcb_data_file(path, sizeof(path), "reg/ppcc.adb", &err) ||
	    adb_db_load_file(&db, path, &err) ||
	    adb_reg_load(db, "PPCC", &layout, &err)) {
		fprintf(stderr, "fuzz_mstreg: %s\n", err.msg);
		abort();
	}
	adb_db_free(db);
	if (fz_seeds_dir())
		seeds();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pcb_err err = { 0 };
	struct session s;
	const uint8_t *ff;
	uint8_t *buf;
	char *text;

	if (size > 131072)
		return -1;
	fz_begin();
	ff = memchr(data, '\f', size);
	text = fz_text(data, ff ? (size_t)(ff - data) : size);
	buf = calloc(1, layout->size);
	if (!buf)
		abort();
	mstreg_parse_table(text, layout, buf, &err);
	free(buf);
	free(text);
	if (!fz_nic_session(&s, "fznic", FZ_NIC_MSTREG, data, size)) {
		s.force = true;
		fz_run(&s, "%s", cmds);
	}
	sess_release(&s);
	fz_end();
	return 0;
}
