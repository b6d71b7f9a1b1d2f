/* cmd.h - helpers shared by the command files in src/cmd/. */
#ifndef PCCB_CMD_H
#define PCCB_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "adb.h"
#include "cmd/table.h"
#include "cmd/complete.h"
#include "words.h"
#include "store.h"
#include "fsafe.h"
#include "paths.h"
#include "session.h"

#define MSTFLINT_ADB "/usr/share/mstflint/prm_dbs/hca/ext/register_access_table.adb"

/* "0".."15" -> slot. */
int cmd_parse_slot(struct session *s, const char *text, unsigned *slot);
/* Leading "slot N" and flags (--unchecked) before names. Returns the
 * number of words consumed, or -code.  Their table: cmd_target_keys.
 */
enum { CMD_TGT_SLOT = 1, CMD_TGT_UNCHECKED };
extern const struct cmd_kw cmd_target_keys[];
/* w is `slot` (param diff's, profile save's) */
bool cmd_is_slot_word(const char *w);
int cmd_parse_target(struct session *s, int argc, char **argv,
		     bool *has_slot, unsigned *slot, bool *unchecked);
/* The slot to act on: the one named or the active one. */
int cmd_pick_slot(struct session *s, bool has_slot, unsigned *slot);

/* `prio N`: a priority 0..7; "WHO: prio is 0..7, not 'TEXT'". */
int cmd_parse_prio(struct session *s, const char *who, const char *text,
		   long *prio);

/* Open the ADB that describes `reg` (--adb, ours, mstflint's). */
int cmd_open_adb(struct session *s, const char *reg, struct adb_db **db);

/* A duration that did not parse: "20 what? write 20ms" for a bare
 * number, else the examples and the `range` allowed.
 */
int cmd_bad_duration(struct session *s, const char *who, const char *text,
		     const char *range);
struct series;
int cmd_series_load(struct session *s, const char *name,
		    struct series **out);

/* gnuplot.c.  Render through gnuplot: the terminal (dumb sized to the terminal
 * without `to`, else pngcairo/svg by extension, `panels` x 220 px high or
 * 600 for 0), then `vars` (the template's variables), then `load TMPL`.
 * The script is saved to `gp` and fed on stdin; without gnuplot the
 * error names the data and script files.
 */
int plot_render(struct session *s, const char *to, const char *vars,
		int panels, const char *tmpl, const char *dat, const char *gp);
#define PLOT_MAX_PANELS 12

/* `name = 'text'`: any text as a gnuplot string literal (see plot.c). */
void plot_str(FILE *fp, const char *name, const char *text);
void plot_str_at(FILE *fp, const char *array, size_t i, const char *text);
/* The terminal's columns and lines (COLUMNS/LINES, else 100 x 40). */
void plot_term_size(int *w, int *h);

#endif
