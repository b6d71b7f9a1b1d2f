/* diag_io.h - the files of DOCA's telemetry_diag sample: the data-ID
 * JSON ({"data-ids":[{"name":..,"data_id":"0x.."}]}, json-c pretty
 * layout, no trailing newline) and the samples' CSV (header per output
 * format, each row preceded by a newline, ", " between fields).
 */
#ifndef PCCB_TEL_DIAG_IO_H
#define PCCB_TEL_DIAG_IO_H

#include <stdint.h>
#include <stdio.h>

#include "err.h"
#include "tel/diag.h"

int diag_ids_export(const char *path, const uint64_t *ids, uint32_t n,
		    struct pcb_err *err);
/* The sample's default list: four port IDs, or ICMC with sync start. */
int diag_ids_export_default(const char *path, uint32_t sync,
			    struct pcb_err *err);
/* Parse a data-ID JSON document; every data_id must be a known ID. */
int diag_ids_parse_json(const char *text, size_t len, uint64_t *ids,
			uint32_t max, uint32_t *n, struct pcb_err *err);
int diag_ids_import(const char *path, uint64_t *ids, uint32_t max,
		    uint32_t *n, struct pcb_err *err);
/* `n` samples of `buf` (stride `size`) as the sample's CSV. */
int diag_csv_fwrite(FILE *fp, const struct tel_diag *t, const void *buf,
		    uint32_t n, uint32_t size);
int diag_csv_write(const char *path, const struct tel_diag *t,
		   const void *buf, uint32_t n, uint32_t size,
		   struct pcb_err *err);

#endif
