/* fuzz_diag_ids.c - the data-ID JSON reader (src/tel/diag_io.c
 * diag_ids_parse_json): {"data-ids":[{"name":..,"data_id":"0x.."}]}.
 *
 * Input: the document.  It is handed over as it is in memory, len bytes
 * and no NUL after them (the contract is text + len), with room for every
 * ID and with room for two only; an accepted list is exported and
 * imported again and must come back the same.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tel/diag.h"
#include "tel/diag_io.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_setup(argc, argv);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t ids[DIAG_MAX_IDS], back[DIAG_MAX_IDS];
	struct pcb_err err = { 0 };
	char path[4300];
	uint32_t n = 0, m = 0;
	char *copy;

	if (size > (1 << 20))
		return -1;
	fz_begin();
	copy = malloc(size ? size : 1);	/* exact: no NUL after it */
	if (!copy)
		abort();
	memcpy(copy, data, size);
	if (!diag_ids_parse_json(copy, size, ids, DIAG_MAX_IDS, &n, &err)) {
		if (n > DIAG_MAX_IDS)
			abort();
		snprintf(path, sizeof(path), "%s/tmp/ids.json", fz_root());
		if (!diag_ids_export(path, ids, n, &err)) {
			if (diag_ids_import(path, back, DIAG_MAX_IDS, &m,
					    &err)) {
				fprintf(stderr, "fuzz: exported IDs do not "
					"import: %s\n", err.msg);
				abort();
			}
			if (m != n || memcmp(ids, back, n * sizeof(*ids)))
				abort();
		}
	}
	pcb_err_reset(&err);
	diag_ids_parse_json(copy, size, ids, 2, &n, &err);
	free(copy);
	fz_end();
	return 0;
}
