/* ppcc-fields - the register accesses tests/mstreg-emu/emu.so logged
 * ("GET|SET 0x506e HEX" lines on stdin), each as "GET|SET name=value ..."
 * (tests/mstreg-emu/fields.h), for tests/e2e/mstreg.sh to compare with
 * tests/mstreg-emu/writes.txt.  Lines for other registers are skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "paths.h"
#include "ppcc.h"
#include "mstreg-emu/fields.h"

static int hex_nibble(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int main(void)
{
	char path[4096], line[1024], method[8], out[2048];
	struct pcb_err err = { 0 };
	struct adb_db *db = NULL;
	struct adb_reg *l = NULL;
	unsigned id;
	int rc = 0;

	if (pcb_data_file(path, sizeof(path), "reg/ppcc.adb", &err) ||
	    adb_db_load_file(&db, path, &err) ||
	    adb_reg_load(db, "PPCC", &l, &err)) {
		fprintf(stderr, "ppcc-fields: %s\n", err.msg);
		adb_db_free(db);
		return 1;
	}
	adb_db_free(db);
	while (fgets(line, sizeof(line), stdin)) {
		uint8_t buf[PPCC_SIZE] = { 0 };
		char hex[600];
		size_t i;

		if (sscanf(line, "%7s %x %599s", method, &id, hex) != 3 ||
		    id != PPCC_REG_ID)
			continue;
		for (i = 0; i < sizeof(buf) && hex[2 * i] && hex[2 * i + 1];
		     i++) {
			int hi = hex_nibble(hex[2 * i]);
			int lo = hex_nibble(hex[2 * i + 1]);

			if (hi < 0 || lo < 0) {
				fprintf(stderr, "ppcc-fields: bad hex: %s",
					line);
				rc = 1;
				break;
			}
			buf[i] = (uint8_t)(hi << 4 | lo);
		}
		ppcc_fields(l, buf, out, sizeof(out));
		printf("%s %s\n", method, out);
	}
	adb_reg_free(l);
	return rc;
}
