/* cli.h - the front end of the command language: dispatch over the
 * command tables (cmd/table.h), help, scripts and the REPL.
 *
 * `OBJECT VERB ARGS`, iproute2 style.  The top table (cmd_top[], cli.c)
 * lists objects; each object row points at its verb table.  Dispatch,
 * usage, `help` and completion are all derived from the rows.  Names
 * match exactly or by a unique prefix; an ambiguous prefix is an error
 * listing the candidates.  Only cli_* prints errors.
 */
#ifndef PCCB_CLI_H
#define PCCB_CLI_H

#include <stdio.h>

#include "session.h"
#include "words.h"

#include "cmd/table.h"

/* The objects and built-in commands, in cli.c. */
extern const struct cmd_row cmd_top[];

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

/* Completion: candidates for the word after words[0..n-1] of a command
 * line, from the command tables and each row's keywords or hook
 * (cmd/complete.h); false: complete file names instead.  s->err is kept.
 */
bool cli_complete(struct session *s, char **words, int n, struct cands *c);

#endif
