/* mstreg-dry PROG DEVICE OP - the shell line pccbench's mstreg backend
 * runs for operation OP (tests/mstreg-emu/writes.txt names them), as a
 * dry run prints it: ppcc's request builder, then mstreg_command_line.
 * For tests/e2e/dryrun.sh, which runs the line and compares the register
 * the NIC gets with the one the backend's own run writes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "adb.h"
#include "mstreg.h"
#include "paths.h"
#include "ppcc.h"
#include "mstreg-emu/fields.h"

int main(int argc, char **argv)
{
	char path[4096], *line = NULL;
	struct pcb_err err = { 0 };
	struct adb_db *db = NULL;
	struct adb_reg *l = NULL;
	uint8_t buf[PPCC_SIZE];
	enum reg_method m;
	struct ppcc p;
	int rc = 1;

	if (argc != 4) {
		fprintf(stderr, "usage: mstreg-dry PROG DEVICE OP\n");
		return 2;
	}
	if (pcb_data_file(path, sizeof(path), "reg/ppcc.adb", &err) ||
	    adb_db_load_file(&db, path, &err) ||
	    adb_reg_load(db, "PPCC", &l, &err) ||
	    ppcc_init(&p, NULL, l, &err)) {	/* takes l, even on failure */
		fprintf(stderr, "mstreg-dry: %s\n", err.msg);
		adb_db_free(db);
		return 1;
	}
	adb_db_free(db);
	if (ppcc_op_req(&p, argv[3], buf, &m))
		fprintf(stderr, "mstreg-dry: unknown operation '%s'\n",
			argv[3]);
	else if (mstreg_command_line(argv[1], argv[2], p.layout, m, buf,
				     &line, &err))
		fprintf(stderr, "mstreg-dry: %s\n", err.msg);
	else
		rc = printf("%s\n", line) < 0;
	free(line);
	ppcc_release(&p);
	return rc;
}
