/* words.h - the command language's tokenizer (words.c). */
#ifndef PCCB_WORDS_H
#define PCCB_WORDS_H

#include "err.h"

#define WORDS_MAX 256	/* words in one command */

/* Split a line into commands and words.  On success *ncmd command lists
 * are in *cmds, each NULL-terminated; free with words_free_split.
 */
int words_split(const char *line, char ****cmds, int **argcs, int *ncmd,
		struct pcb_err *err);
void words_free_split(char ***cmds, int *argcs, int ncmd);

/* One command with its arguments ('ib_write_bw -d mlx5_0 -D 10 host2')
 * as a NULL-terminated argv for fork/exec: no ';', pipes or redirections
 * (no shell runs it); who names the command in errors.  Free with
 * words_free.
 */
int words_command(struct pcb_err *err, const char *who, const char *text,
		  char ***out);
void words_free(char **argv);

#endif
