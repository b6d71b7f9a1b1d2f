/* fuzz_diag_state.c - the diagnostic counters' state file (the sim's
 * provider, src/sim/simtel_diag.c and simtel_file.c: sim_diag_open and the
 * header load behind every access, the sample ring) and the commands on
 * it.
 *
 * Input: $XDG_STATE_HOME/pccbench/sim/fz.diag, header then ring records.
 * The header checksum is recomputed (fz_crc_fix; where it sits is found
 * once from a file pccbench writes) so fuzzed contents reach the checks
 * behind it.  Then the diag commands through the dispatcher: show, read,
 * export (into the private root), stop, config, start, restart; and what
 * feeds and reads the sampler: the simulator (`sim run` on a two-sender
 * incast) and `record`.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sim/simtel.h"

static long crc_off;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct sim_diag *d = NULL;
	struct pcb_err err = { 0 };
	char path[4300];

	fz_setup(argc, argv);
	fz_begin();
	if (sim_diag_open(&d, "calib", &err))
		abort();
	sim_diag_close(d);
	fz_path(path, sizeof(path), "state", "sim/calib.diag");
	crc_off = fz_crc_offset(path);
	fz_end();
	if (crc_off < 0) {
		fprintf(stderr, "fuzz_diag_state: no header checksum found in "
			"a fresh .diag; update fz_crc_offset\n");
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session s;
	uint8_t *buf;

	if (size > (1 << 20))
		return -1;
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	fz_crc_fix(buf, size, crc_off);
	fz_begin();
	if (fz_put("state", "sim/fz.diag", buf, size, false) ||
	    fz_small_scenario())
		abort();
	fz_session(&s, "sim:fz");
	s.force = true;
	fz_run(&s, "diag show; sim run 20us; diag read; diag read 3; "
	       "diag export %s/tmp/out.csv 8; record for 20us every 10us "
	       "into fz; diag restart; diag stop; diag config; diag start; "
	       "sim run 20us; diag read", fz_root());
	s.out.json = true;
	fz_run(&s, "diag show; diag read");
	sess_release(&s);
	fz_end();
	free(buf);
	return 0;
}
