/* cmd.h - helpers shared by the command files in src/cmd/. */
#ifndef PCCB_CMD_H
#define PCCB_CMD_H

#include <stdbool.h>
#include <stdint.h>

#include "adb.h"
#include "cli.h"
#include "session.h"

#define MSTFLINT_ADB "/usr/share/mstflint/prm_dbs/hca/ext/register_access_table.adb"

/* "0".."15" -> slot. */
int cmd_parse_slot(struct session *s, const char *text, unsigned *slot);
/* Leading "slot N" and flags (--unchecked) before names. Returns the
 * number of words consumed, or -code.
 */
int cmd_parse_target(struct session *s, int argc, char **argv,
		     bool *has_slot, unsigned *slot, bool *unchecked);
/* The slot to act on: the one named or the active one. */
int cmd_pick_slot(struct session *s, bool has_slot, unsigned *slot);

/* Open the ADB that describes `reg` (--adb, ours, mstflint's). */
int cmd_open_adb(struct session *s, const char *reg, struct adb_db **db);

#endif
