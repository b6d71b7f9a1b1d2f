/* fuzz_simfw.c - the sim device's state file (src/sim/firmware.c:
 * simfw_open and simfw_validate) and what reads the firmware state.
 *
 * Input: $XDG_STATE_HOME/pccbench/sim/fz.dev (a 64-byte header and 16
 * slots).  Its config_crc (CRC-32 of port and speed, then of every slot
 * up to its counters) is recomputed here so fuzzed contents reach the
 * checks behind it; that this harness computes it as firmware.c does is
 * checked once on a fresh file, and a mismatch stops it with a message
 * (the layout changed: update PORT_OFF/CRC_OFF/SLOT_CRC_LEN).  Then the
 * commands that read slots, params and counters: algo list, param list
 * of each slot, counter show, pcc show; `sim run` on a two-sender incast
 * (the fabric runs the active slot's params and folds its counters into
 * the fuzzed ones) and `record` (which reads them).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fsafe.h"
#include "fuzz.h"
#include "sim/firmware.h"

#define HDR_LEN		64
#define PORT_OFF	28	/* port, speed_gbps */
#define CRC_OFF		36	/* config_crc */
#define SLOT_LEN	((8 + SIMFW_PARAMS + SIMFW_COUNTERS) * 4)
#define SLOT_CRC_LEN	((8 + SIMFW_PARAMS) * 4)	/* up to counters */
#define FILE_LEN	(HDR_LEN + SIMFW_SLOTS * SLOT_LEN)

static uint32_t config_crc(const uint8_t *f)
{
	uint32_t c = pcb_crc32(0, f + PORT_OFF, 8);
	size_t s;

	for (s = 0; s < SIMFW_SLOTS; s++)
		c = pcb_crc32(c, f + HDR_LEN + s * SLOT_LEN, SLOT_CRC_LEN);
	return c;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct simfw *fw = NULL;
	uint8_t f[FILE_LEN + 1];
	struct pcb_err err = { 0 };
	char path[4300];
	uint32_t crc;
	FILE *fp;

	fz_setup(argc, argv);
	fz_begin();
	if (simfw_open(&fw, "calib", &err))
		abort();
	simfw_close(fw);
	fz_path(path, sizeof(path), "state", "sim/calib.dev");
	fp = fopen(path, "rb");
	if (!fp || fread(f, 1, sizeof(f), fp) != FILE_LEN)
		abort();
	fclose(fp);
	fz_end();
	memcpy(&crc, f + CRC_OFF, 4);
	if (crc != config_crc(f)) {
		fprintf(stderr, "fuzz_simfw: firmware.c's config_crc changed; "
			"update this harness\n");
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session s;
	uint8_t *buf;
	uint32_t crc;

	if (size > 2 * FILE_LEN)
		return -1;
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	if (size == FILE_LEN) {
		crc = config_crc(buf);
		memcpy(buf + CRC_OFF, &crc, 4);
	}
	fz_begin();
	if (fz_put("state", "sim/fz.dev", buf, size, false) ||
	    fz_small_scenario())
		abort();
	fz_session(&s, "sim:fz");
	s.force = true;
	fz_run(&s, "algo list; param list 0; param list 1; param list 2; "
	       "param list 3; counter show; counter show 1; pcc show; "
	       "pcc counters 1; param get ALPHA; sim run 20us; "
	       "record for 20us every 10us into fz; counter show 2");
	sess_release(&s);
	fz_end();
	free(buf);
	return 0;
}
