/* fuzz_adb.c - the ADB loader (reg/adb.c) from memory, then what the
 * rest of pccbench does with a layout: every register flattened by name,
 * id and node name, each field read, written, looked up, its enum named
 * and its union member tested; a layout that passes ppcc_layout_check is
 * used the way the PPCC code uses it.
 *
 * Input: an ADB XML document (as reg/ppcc.adb or mstflint's
 * register_access_table.adb).
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "adb.h"
#include "fuzz.h"
#include "ppcc.h"

#define MAX_REGS 24
#define MAX_BUF (1 << 16)

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_setup(argc, argv);
	xmlInitParser();
	return 0;
}

static void use_ppcc(const struct adb_reg *r, uint8_t *buf)
{
	const struct adb_field *f[PF_COUNT];
	char name[224], descr[224];
	struct pcb_err err = { 0 };
	uint32_t len;

	if (ppcc_layout_check(r, f, &err))
		return;
	len = adb_get(f[PF_TEXT_LEN], buf);
	ppcc_split_text(buf, f[PF_TEXT0], len, name, sizeof(name), descr,
			sizeof(descr));
	ppcc_set_text(f[PF_TEXT0], buf, 0, 0x41424344);
	ppcc_text(f[PF_TEXT0], buf, PPCC_TEXT_DWORDS - 1);
}

static void use_reg(const struct adb_reg *r)
{
	uint8_t *buf;
	size_t i;
	char en[128];

	adb_reg_name_width(r);
	if (!r->size || r->size > MAX_BUF)
		return;
	buf = malloc(r->size);	/* exact: a field past it is caught */
	if (!buf)
		return;
	memset(buf, 0xa5, r->size);
	for (i = 0; i < r->nfields; i++) {
		const struct adb_field *f = &r->fields[i];
		uint32_t v = adb_get(f, buf);

		adb_set(f, buf, ~v);
		adb_field_selected(r, f, buf);
		adb_enum_name(f, v, en, sizeof(en));
		adb_enum_name(f, 0, en, 1);
		adb_access_name(f->access);
		if (adb_reg_field_index(r, f->name) < 0 ||
		    adb_reg_field_index(r, f->path) < 0)
			abort();	/* a field must find itself */
		adb_field_max(f);
	}
	use_ppcc(r, buf);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct adb_db *db = NULL;
	struct pcb_err err = { 0 };
	size_t i, n;

	fz_begin();
	if (adb_db_load_memory(&db, (const char *)data, size, "fuzz.adb",
			       &err)) {
		fz_end();
		return 0;
	}
	n = adb_db_count(db);
	for (i = 0; i < n && i < MAX_REGS; i++) {
		const char *name = adb_db_name(db, i);
		struct adb_reg *r = NULL;
		char id[16];

		pcb_err_reset(&err);
		if (!adb_reg_load(db, name, &r, &err)) {
			struct adb_reg *byid = NULL, *bynode = NULL;

			use_reg(r);
			snprintf(id, sizeof(id), "0x%x", adb_db_id(db, i));
			if (!adb_reg_load(db, id, &byid, &err))
				adb_reg_free(byid);
			if (!adb_reg_load(db, r->node, &bynode, &err))
				adb_reg_free(bynode);
			adb_reg_free(r);
		}
	}
	/* names no summary lists: nodes, and garbage */
	for (i = 0; i < 5; i++) {
		static const char *const extra[] = { "ppcc_reg_ext", "x", "X",
						     "0x", "" };
		struct adb_reg *r = NULL;

		if (!adb_reg_load(db, extra[i], &r, &err)) {
			use_reg(r);
			adb_reg_free(r);
		}
	}
	adb_db_free(db);
	fz_end();
	return 0;
}
