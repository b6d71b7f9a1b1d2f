/* cmd.h - helpers shared by the command files in src/cmd/. */
#ifndef PCCB_CMD_H
#define PCCB_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "adb.h"
#include "cli.h"
#include "fsafe.h"
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

/* Split a `while 'CMD ARGS'` value into an argv (quotes as the command
 * line has them; no shell: ';', pipes and redirections are refused).
 * Free with cmd_argv_free.
 */
int cmd_split_argv(struct session *s, const char *who, const char *text,
		   char ***out);
void cmd_argv_free(char **argv);
/* A duration that did not parse: "20 what? write 20ms" for a bare
 * number, else the examples and the `range` allowed.
 */
int cmd_bad_duration(struct session *s, const char *who, const char *text,
		     const char *range);
/* A JSON metadata file: {"KIND":NAME,"device":..,"pccbench":..,"start":..
 * written to w->fp; the caller adds ,"key":value members, then
 * cmd_meta_close ends the object and puts the file in place (a temp file
 * renamed over `path`, see fsafe.h), reporting a failed write.
 */
int cmd_meta_open(struct session *s, struct pcb_wfile *w, const char *path,
		  const char *kind, const char *name, time_t start);
int cmd_meta_close(struct session *s, struct pcb_wfile *w);
/* ,"slot":..,"algo_id":..,"algo_version":..,"params":{..} of the active
 * slot for a JSON metadata file (nothing when no slot is enabled).
 */
void cmd_meta_algo(struct session *s, FILE *fp);

/* $XDG_DATA_HOME/pccbench/DIR/NAME SUFFIX, NAME checked first
 * ([A-Za-z0-9_.-], up to 60, not starting with '.'); `what` names the
 * thing in the error ("series", "sweep").
 */
int cmd_saved_path(struct session *s, const char *what, const char *dir,
		   const char *name, const char *suffix, bool create,
		   char *buf, size_t len);
/* The saved things under $XDG_DATA_HOME/pccbench/DIR, sorted: NAME.csv
 * files as NAME, or directories (dirs).  A NULL-terminated list freed
 * with cmd_argv_free; NULL only when out of memory.
 */
char **cmd_saved_names(const char *dir, bool dirs);
/* Series files: NAME checked ([A-Za-z0-9_.-], up to 60), then
 * $XDG_DATA_HOME/pccbench/series/NAME.EXT.
 */
int cmd_series_path(struct session *s, const char *name, const char *ext,
		    char *buf, size_t len);
struct series;
int cmd_series_load(struct session *s, const char *name,
		    struct series **out);
/* One column as a malloc'd vector (NULL: out of memory). */
double *cmd_series_column(const struct series *ser, size_t c);

/* Render through gnuplot: the terminal (dumb sized to the terminal
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

#endif
