/* fuzz_cache.c - the param/counter info cache of real NICs (src/core/session.c
 * cache_load, reached through sess_slot_view).
 *
 * The cache is only read for devices with REG_CAP_REAL, so the session
 * runs on fz_nic_session's FZ_NIC_SIM device: a "real NIC" that forwards
 * to a sim device.  Once, at start, its slots are listed so pccbench
 * writes its own cache files; their names (DEVICE-sSLOT-ALGONUM.txt) are
 * kept.  Each input (one cache file without its checksum line; fz_put
 * seals it unless it ends with a valid one) is then written under every
 * kept name and the views are built from it: algo list, param list of
 * each slot, counter show, param get, and a dry-run param set.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "fsafe.h"
#include "fuzz.h"

#define NIC "fznic"
#define MAX_NAMES 8

static char *names[MAX_NAMES];
static size_t nnames;
static const char slots_cmd[] = "algo list; param list 0; param list 1; "
				"param list 2; param list 3";

/* FZ_SEEDS=DIR: the cache files pccbench wrote, without their checksum
 * line (fz_put adds one), then exit.
 */
static void seeds(const char *dir)
{
	char from[4600], to[4600], buf[65536];
	size_t i, len;
	FILE *in, *out;

	for (i = 0; i < nnames; i++) {
		snprintf(from, sizeof(from), "%s/%s", dir, names[i]);
		snprintf(to, sizeof(to), "%s/slot-%zu", fz_seeds_dir(), i);
		in = fopen(from, "r");
		out = fopen(to, "w");
		if (!in || !out)
			abort();
		len = fread(buf, 1, sizeof(buf), in);
		if (!pcb_crc_check(buf, &len))
			abort();
		fwrite(buf, 1, len, out);
		fclose(in);
		fclose(out);
	}
	exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[4300];
	struct session s;
	struct dirent *e;
	DIR *d;

	fz_setup(argc, argv);
	fz_begin();
	if (fz_nic_session(&s, NIC, FZ_NIC_SIM, NULL, 0))
		abort();
	fz_run(&s, "%s", slots_cmd);
	sess_release(&s);
	fz_path(dir, sizeof(dir), "cache", "info");
	d = opendir(dir);
	while (d && (e = readdir(d)) && nnames < MAX_NAMES)
		if (!strncmp(e->d_name, NIC "-s", strlen(NIC "-s")))
			names[nnames++] = strdup(e->d_name);
	if (d)
		closedir(d);
	if (fz_seeds_dir())
		seeds(dir);
	fz_end();
	if (!nnames) {
		fprintf(stderr, "fuzz_cache: pccbench wrote no cache file "
			"for a real NIC; nothing to fuzz\n");
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char rel[300];
	struct session s;
	size_t i;

	if (size > 65536)
		return -1;
	fz_begin();
	for (i = 0; i < nnames; i++) {
		snprintf(rel, sizeof(rel), "info/%s", names[i]);
		if (fz_put("cache", rel, data, size, true))
			abort();
	}
	if (!fz_nic_session(&s, NIC, FZ_NIC_SIM, NULL, 0)) {
		s.force = true;
		fz_run(&s, "%s; counter show 1; param get slot 1 ALPHA; "
		       "param set slot 2 rpg_gd 9; param list 3", slots_cmd);
	}
	sess_release(&s);
	fz_end();
	return 0;
}
