/* fuzz_scenario.c - the sim device's scenario file (src/sim/simdev.c
 * load: the first line through simdev_parse_scenario and scenario.c's
 * keys[], `model` lines through algo_set_opt).
 *
 * Input: $XDG_STATE_HOME/pccbench/sim/fz.scenario without its checksum
 * line; the harness adds "crc XXXXXXXX" (fz_put sealed) unless the input
 * ends with a valid one, so the parser is reached.  Then `sim scenario`
 * and `sim model` (the loaded values formatted back) and `sim show` (the
 * fabric built from them), text and JSON.
 */
#include <stdlib.h>

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_setup(argc, argv);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session s;

	if (size > 65536)
		return -1;
	fz_begin();
	if (fz_put("state", "sim/fz.scenario", data, size, true))
		abort();
	fz_session(&s, "sim:fz");
	s.force = true;
	fz_run(&s, "sim scenario; sim model; sim show; sim counters");
	s.out.json = true;
	fz_run(&s, "sim scenario; sim model");
	sess_release(&s);
	fz_end();
	return 0;
}
