/* cli.h - the command language: one table row per command.
 *
 * `OBJECT VERB ARGS`, iproute2 style.  The top table lists objects; each
 * object row points at its verb table.  Dispatch, usage, `help` and (later)
 * completion are all derived from the rows.  Names match exactly or by a
 * unique prefix; an ambiguous prefix is an error listing the candidates.
 *
 * How to add a command: write `static int cmd_x_y(struct session *, int,
 * char **)` in src/cmd/x.c and add one row to that file's verb table (name,
 * handler, min/max args, synopsis, one line of help, an example).  A new
 * object adds one row to cmd_top[] in cli.c.
 *
 * Handlers get argv after the verb, fill s->err and return 0 or -code;
 * only cli_* prints errors.
 */
#ifndef PCCB_CLI_H
#define PCCB_CLI_H

#include <stdio.h>

#include "session.h"
#include "words.h"

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
};

extern const struct cmd_row cmd_top[];
extern const struct cmd_row cmd_reg_verbs[], cmd_algo_verbs[],
	cmd_param_verbs[], cmd_counter_verbs[], cmd_journal_verbs[],
	cmd_sim_verbs[], cmd_bench_verbs[], cmd_dev_verbs[],
	cmd_pcc_verbs[], cmd_retx_verbs[], cmd_diag_verbs[], cmd_set_verbs[],
	cmd_series_verbs[], cmd_sweep_verbs[];
int cmd_record(struct session *s, int argc, char **argv);
int cmd_watch(struct session *s, int argc, char **argv);
int cmd_corr(struct session *s, int argc, char **argv);
int cmd_plot(struct session *s, int argc, char **argv);

/* Unique-prefix lookup in a table; NULL with s->err set when none. */
const struct cmd_row *cli_lookup(struct session *s,
				 const struct cmd_row *table, const char *what,
				 const char *name);

/* Run one tokenised command; prints its error; returns 0 or -code. */
int cli_run_argv(struct session *s, int argc, char **argv);
/* Run "CMD; CMD # comment"; stops at the first error unless s->force.
 * where: "FILE:LINE" prefix for errors, or NULL.
 */
int cli_run_line(struct session *s, const char *line, const char *where);
/* Run a script file (or stdin as "<stdin>"); FILE:LINE on errors. */
int cli_run_file(struct session *s, const char *path);
int cli_run_stream(struct session *s, FILE *fp, const char *name);
/* The interactive loop (readline). */
int cli_repl(struct session *s);

void cli_print_error(struct session *s, int rc, const char *where);

#endif
