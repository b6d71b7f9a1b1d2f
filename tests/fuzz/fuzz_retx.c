/* fuzz_retx.c - the adp_retx histogram's state file (the sim's provider,
 * src/sim/simtel_retx.c and simtel_file.c: sim_retx_open and the load
 * behind every access) and the commands on it.
 *
 * Input: $XDG_STATE_HOME/pccbench/sim/fz.retx.  Its header checksum is
 * recomputed (fz_crc_fix; where it sits is found once from a file
 * pccbench writes) so fuzzed contents reach the checks behind it.  Then
 * the retx commands through the dispatcher: read, config (show and set),
 * detect, start, read, stop; and what feeds and reads the histogram: the
 * simulator (`sim run` on a two-sender incast) and `record`.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sim/simtel.h"

static long crc_off;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct sim_retx *d = NULL;
	struct pcb_err err = { 0 };
	char path[4300];

	fz_setup(argc, argv);
	fz_begin();
	if (sim_retx_open(&d, "calib", &err))
		abort();
	sim_retx_close(d);
	fz_path(path, sizeof(path), "state", "sim/calib.retx");
	crc_off = fz_crc_offset(path);
	fz_end();
	if (crc_off < 0) {
		fprintf(stderr, "fuzz_retx: no header checksum found in a "
			"fresh .retx; update fz_crc_offset\n");
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session s;
	uint8_t *buf;

	if (size > 4096)
		return -1;
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	fz_crc_fix(buf, size, crc_off);
	fz_begin();
	if (fz_put("state", "sim/fz.retx", buf, size, false) ||
	    fz_small_scenario())
		abort();
	fz_session(&s, "sim:fz");
	s.force = true;
	fz_run(&s, "retx read; retx config; retx detect; sim run 20us; "
	       "record for 20us every 10us into fz; retx start; retx read; "
	       "retx detect; retx stop; retx config bins 4 unit msec; "
	       "retx start; sim run 20us; retx read");
	s.out.json = true;
	fz_run(&s, "retx read; retx config");
	sess_release(&s);
	fz_end();
	free(buf);
	return 0;
}
