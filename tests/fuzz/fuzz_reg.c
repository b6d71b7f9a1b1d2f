/* fuzz_reg.c - `reg encode` and `reg decode` (src/cmd/reg.c): FIELD=VALUE
 * lists and hex dwords, through the dispatcher.
 *
 * Input: one flag byte, then the words after `reg encode` or `reg decode`
 * (REGISTER first), split as the command line splits them.  Flag bits:
 * 0x1 JSON output, 0x2 decode (else encode), 0x4 the registers of
 * tests/fuzz/data/regs.adb (PPCC, PDDR, PPCNT, MTMP, PMAOS, PTYS, MGIR cut
 * from mstflint's database: unions, arrays, enums), else reg/ppcc.adb.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "words.h"
#include "fuzz.h"
#include "paths.h"

#define MAX_WORDS 64

static char ppcc_adb[4096], regs_adb[4200];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct pcb_err err = { 0 };
	const char *top;

	fz_setup(argc, argv);
	top = getenv("PCCBENCH_DATADIR");
	if (!top || pcb_data_file(ppcc_adb, sizeof(ppcc_adb), "reg/ppcc.adb",
				  &err))
		abort();
	snprintf(regs_adb, sizeof(regs_adb), "%s/tests/fuzz/data/regs.adb",
		 top);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pcb_err err = { 0 };
	struct session s;
	char ***cmds = NULL, *line, *argv[MAX_WORDS + 3];
	int *argcs = NULL, ncmd = 0, i, rc;
	unsigned flags;

	if (size < 1 || size > 4096)
		return -1;
	flags = data[0];
	line = fz_text(data + 1, size - 1);
	fz_begin();
	if (words_split(line, &cmds, &argcs, &ncmd, &err))
		goto out_free;
	fz_session(&s, "sim:fz");
	s.adb_path = strdup(flags & 0x4 ? regs_adb : ppcc_adb);
	out_init(&s.out, fz_out(), flags & 0x1, false);
	argv[0] = (char *)"reg";
	argv[1] = (char *)(flags & 0x2 ? "decode" : "encode");
	for (i = 0; ncmd && i < argcs[0] && i < MAX_WORDS; i++)
		argv[i + 2] = cmds[0][i];
	argv[i + 2] = NULL;
	rc = cli_run_argv(&s, i + 2, argv);
	if (rc)
		cli_print_error(&s, rc, NULL);
	sess_release(&s);
	words_free_split(cmds, argcs, ncmd);
out_free:
	fz_end();
	free(line);
	return 0;
}
