/* words.c - the command language's tokenizer: a line into commands (';')
 * and words (quotes, backslashes, '#' comments), and one command's argv
 * for a program run without a shell (`while 'CMD ARGS'`).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "words.h"


struct words {
	char **v;
	int n, cap;
};

static int words_push(struct words *w, char *word)
{
	if (w->n + 2 > w->cap) {
		int nc = w->cap ? w->cap * 2 : 8;
		char **nv = realloc(w->v, (size_t)nc * sizeof(*nv));

		if (!nv)
			return -1;
		w->v = nv;
		w->cap = nc;
	}
	w->v[w->n++] = word;
	w->v[w->n] = NULL;
	return 0;
}

void words_free_split(char ***cmds, int *argcs, int ncmd)
{
	int i, k;

	for (i = 0; i < ncmd; i++) {
		for (k = 0; k < argcs[i]; k++)
			free(cmds[i][k]);
		free(cmds[i]);
	}
	free(cmds);
	free(argcs);
}

/* Words are separated by blanks; '...' is literal, "..." allows \" and \\;
 * ';' ends a command and '#' a line, both outside quotes.
 */
int words_split(const char *line, char ****cmdsp, int **argcsp, int *ncmdp,
	      struct pcb_err *err)
{
	char ***cmds = NULL, *word = NULL;
	int *argcs = NULL, ncmd = 0, rc = 0;
	struct words cur = { 0 };
	size_t wl = 0, wcap = 0, len = strlen(line), i;
	bool in_word = false;

#define PUTC(c) do {							\
		if (wl + 2 > wcap) {					\
			char *nw = realloc(word, wcap = wcap * 2 + 32);	\
			if (!nw) goto err_nomem;			\
			word = nw;					\
		}							\
		word[wl++] = (c);					\
		in_word = true;						\
	} while (0)

	for (i = 0; i <= len; i++) {
		char c = line[i];

		if (c == '\'' || c == '"') {
			char q = c;

			if (!word) {	/* '' is an empty word */
				wcap = 32;
				word = malloc(wcap);
				if (!word)
					goto err_nomem;
			}
			for (i++; i < len && line[i] != q; i++) {
				if (q == '"' && line[i] == '\\' &&
				    (line[i + 1] == '"' || line[i + 1] == '\\'))
					i++;
				PUTC(line[i]);
			}
			if (i >= len) {
				rc = pcb_error(err, PCB_E_PARSE,
					       "unterminated %c quote", q);
				goto err_free;
			}
			in_word = true;
			continue;
		}
		if (c == '\0' || c == ' ' || c == '\t' || c == '\n' ||
		    c == '\r' || c == ';' || c == '#') {
			if (in_word) {
				word[wl] = '\0';
				if (cur.n >= WORDS_MAX) {
					rc = pcb_error(err, PCB_E_PARSE,
						       "more than %d words",
						       WORDS_MAX);
					goto err_free;
				}
				if (words_push(&cur, word))
					goto err_nomem;
				word = NULL;
				wl = wcap = 0;
				in_word = false;
			}
			if (c == ';' || c == '#' || c == '\0') {
				if (cur.n) {
					char ***nc = realloc(cmds,
						(size_t)(ncmd + 1) * sizeof(*nc));
					int *na = realloc(argcs,
						(size_t)(ncmd + 1) * sizeof(*na));

					if (nc)
						cmds = nc;
					if (na)
						argcs = na;
					if (!nc || !na)
						goto err_nomem;
					cmds[ncmd] = cur.v;
					argcs[ncmd++] = cur.n;
					memset(&cur, 0, sizeof(cur));
				}
				if (c != ';')
					break;
			}
			continue;
		}
		if (c == '\\' && i + 1 < len) {
			PUTC(line[++i]);
			continue;
		}
		PUTC(c);
	}
#undef PUTC
	free(word);
	*cmdsp = cmds;
	*argcsp = argcs;
	*ncmdp = ncmd;
	return 0;
err_nomem:
	rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
err_free:
	free(word);
	for (i = 0; i < (size_t)cur.n; i++)
		free(cur.v[i]);
	free(cur.v);
	words_free_split(cmds, argcs, ncmd);
	return rc;
}

int words_command(struct pcb_err *err, const char *who, const char *text,
		  char ***out)
{
	char ***cmds;
	int *argcs, ncmd, i, rc;

	*out = NULL;
	rc = words_split(text, &cmds, &argcs, &ncmd, err);
	if (rc)
		return rc;
	if (ncmd != 1) {
		words_free_split(cmds, argcs, ncmd);
		return pcb_error(err, PCB_E_INVAL, "%s: 'while' takes one "
				 "command with its arguments, e.g. "
				 "'ib_write_bw -d mlx5_0 -D 10 host2' (no shell: "
				 "no ';', pipes or redirections)", who);
	}
	for (i = 0; i < argcs[0]; i++)
		if (strchr("|&<>", cmds[0][i][0]) && !cmds[0][i][1]) {
			rc = pcb_error(err, PCB_E_INVAL, "%s: '%s' in a "
				       "'while' command: no shell runs it, so "
				       "pipes and redirections do not work",
				       who, cmds[0][i]);
			words_free_split(cmds, argcs, ncmd);
			return rc;
		}
	*out = cmds[0];
	free(argcs);
	free(cmds);
	return 0;
}

void words_free(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}
