/* fuzz_sweep.c - a saved sweep (src/cmd/sweep.c): sweep.args through the
 * definition reader, results.csv through table_load, and the commands
 * that use them.
 *
 * Input: sweep.args (given its "crc XXXXXXXX" line unless it ends with a
 * valid one), a NUL, results.csv, optionally a NUL and the words after
 * `sweep show fz` (best min|max COL where COL OP VALUE ...).  The
 * files go to $XDG_DATA_HOME/pccbench/sweeps/fz/; then `sweep list`,
 * `sweep show fz` (with and without the words, text and JSON) and, in dry
 * run, `sweep resume fz` (the definition re-parsed into a plan and the
 * results loaded into it; nothing runs).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "words.h"
#include "fuzz.h"

#define MAX_WORDS 40

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_setup(argc, argv);
	return 0;
}

static void show_with(struct session *s, const uint8_t *w, size_t len)
{
	struct pcb_err err = { 0 };
	char ***cmds = NULL, *line = fz_text(w, len), *argv[MAX_WORDS + 4];
	int *argcs = NULL, ncmd = 0, i, rc;

	if (words_split(line, &cmds, &argcs, &ncmd, &err))
		goto out_free;
	argv[0] = (char *)"sweep";
	argv[1] = (char *)"show";
	argv[2] = (char *)"fz";
	for (i = 0; ncmd && i < argcs[0] && i < MAX_WORDS; i++)
		argv[i + 3] = cmds[0][i];
	argv[i + 3] = NULL;
	rc = cli_run_argv(s, i + 3, argv);
	if (rc)
		cli_print_error(s, rc, NULL);
	words_free_split(cmds, argcs, ncmd);
out_free:
	free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *res, *words;
	size_t alen, rlen, wlen;
	struct session s;

	if (size > 65536)
		return -1;
	alen = fz_split(data, size, &res, &rlen);
	rlen = fz_split(res, rlen, &words, &wlen);
	fz_begin();
	if (fz_put("data", "sweeps/fz/sweep.args", data, alen, true) ||
	    fz_put("data", "sweeps/fz/results.csv", res, rlen, false))
		abort();
	fz_session(&s, "sim:fz");
	s.force = true;
	fz_run(&s, "sweep list; sweep show fz");
	if (wlen)
		show_with(&s, words, wlen);
	s.out.json = true;
	fz_run(&s, "sweep list; sweep show fz");
	if (wlen)
		show_with(&s, words, wlen);
	s.out.json = false;
	fz_run(&s, "sweep resume fz");
	sess_release(&s);
	fz_end();
	return 0;
}
