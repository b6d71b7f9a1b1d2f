/* table.h - the command tables: one row per command, the commands'
 * side of the command language (the front end, cli.h, dispatches).
 *
 * How to add a command: write `static int cmd_x_y(struct session *, int,
 * char **)` in src/cmd/x.c and add one row to that file's verb table
 * (name, handler, min/max args, synopsis, one line of help, an example,
 * its keyword table (keywords.h: the parser, usage, help and completion
 * read it) and/or a completion hook; complete.h).
 * A new object adds one row to cmd_top[] in cli.c.
 *
 * Handlers get argv after the verb, fill s->err and return 0 or -code.
 */
#ifndef PCCB_CMD_TABLE_H
#define PCCB_CMD_TABLE_H

#include <stdbool.h>

#include "session.h"

struct cands;
struct cmd_kw;

#define CMD_DEFAULT	0x1	/* verb run when the object is given alone */
#define CMD_WRITES	0x2	/* may write the device */
#define CMD_DEVICE	0x4	/* needs a device */
#define CMD_FALLBACK	0x8	/* runs when the word after the object is no
				 * verb: `sweep ALPHA ...` = `sweep run ...` */

struct cmd_row {
	const char *name;
	int (*fn)(struct session *s, int argc, char **argv);
	const struct cmd_row *sub;	/* verbs of an object */
	int min_args, max_args;		/* max -1: unlimited */
	const char *args;		/* synopsis of the arguments */
	const char *help;		/* one line */
	const char *example;
	unsigned flags;
	const struct cmd_kw *keys;	/* its KEY VALUE words (complete.h) */
	/* candidates for the word after argv (the words typed after the
	 * verb); false: file names.  NULL: from keys, or none.
	 */
	bool (*complete)(struct session *s, char **argv, int argc,
			 struct cands *c);
};

extern const struct cmd_row cmd_reg_verbs[], cmd_algo_verbs[],
	cmd_param_verbs[], cmd_counter_verbs[], cmd_journal_verbs[],
	cmd_sim_verbs[], cmd_bench_verbs[], cmd_dev_verbs[],
	cmd_pcc_verbs[], cmd_retx_verbs[], cmd_diag_verbs[], cmd_set_verbs[],
	cmd_series_verbs[], cmd_sweep_verbs[], cmd_profile_verbs[],
	cmd_tune_verbs[];
/* metrics.c: `export metrics`, `serve metrics` */
extern const struct cmd_row cmd_export_verbs[], cmd_serve_verbs[];
int cmd_record(struct session *s, int argc, char **argv);
int cmd_watch(struct session *s, int argc, char **argv);
int cmd_corr(struct session *s, int argc, char **argv);
int cmd_plot(struct session *s, int argc, char **argv);
bool cmd_corr_complete(struct session *s, char **argv, int argc,
		       struct cands *c);
bool cmd_plot_complete(struct session *s, char **argv, int argc,
		       struct cands *c);

#endif
