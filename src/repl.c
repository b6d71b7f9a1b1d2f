/* repl.c - the interactive loop: readline, prompt, history, completion.
 *
 * readline's completion callbacks take no user pointer, so the session of
 * the running REPL is kept in one file-static pointer (set for the loop's
 * lifetime only); nothing else in pccbench keeps parse state in globals.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "cli.h"
#include "cmd/complete.h"
#include "fsafe.h"
#include "paths.h"

#define HISTORY_MAX 2000

static struct session *repl_s;

/* ---- completion ----------------------------------------------------------- */

/* What the command tables say comes next; each row's words are said
 * next to its handler (complete.h).
 */
static struct cands current;	/* what the generator walks */

static char *cand_gen(const char *text, int state)
{
	static size_t i;
	size_t len = strlen(text);

	if (!state)
		i = 0;
	while (i < current.n) {
		const char *w = current.v[i++];

		if (!strncmp(w, text, len))
			return strdup(w);
	}
	return NULL;
}

static char **pcb_complete(const char *text, int start, int end)
{
	char *line, *w, *save = NULL, *words[64];
	int n = 0;

	(void)end;
	rl_attempted_completion_over = 1;
	cands_clear(&current);
	current.append = ' ';
	/* the words of the current command before the cursor's word */
	line = strndup(rl_line_buffer, (size_t)start);
	if (!line)
		return NULL;
	if (strrchr(line, ';'))
		memmove(line, strrchr(line, ';') + 1,
			strlen(strrchr(line, ';') + 1) + 1);
	for (w = strtok_r(line, " \t", &save); w && n < 64;
	     w = strtok_r(NULL, " \t", &save))
		words[n++] = w;
	if (!cli_complete(repl_s, words, n, &current)) {
		free(line);
		rl_attempted_completion_over = 0;	/* file names */
		return NULL;
	}
	free(line);
	rl_completion_append_character = current.append;
	return rl_completion_matches(text, cand_gen);
}

/* ---- prompt and history ------------------------------------------------- */

/* "pccbench sim:lab ztr_rtt(debug)> " on in-process devices. */
static void make_prompt(struct session *s, char *buf, size_t len)
{
	struct pcb_err keep = s->err;
	struct slot_view *v;
	unsigned slot;
	char algo[64] = "";
	size_t i, l;

	if (!strncmp(s->cur->name, "sim", 3) && !sess_active_slot(s, &slot) &&
	    !sess_slot_view(s, slot, &v)) {
		for (i = 0; v->name[i] && i + 1 < sizeof(algo); i++)
			algo[i] = (char)tolower((unsigned char)v->name[i]);
		algo[i] = '\0';
		l = strlen(algo);
		if (l > 6 && !strcmp(algo + l - 6, "_debug"))
			snprintf(algo + l - 6, sizeof(algo) - (l - 6),
				 "(debug)");
		for (i = 0; algo[i]; i++)
			if (algo[i] == ' ')
				algo[i] = '_';
	}
	s->err = keep;
	snprintf(buf, len, "pccbench %s%s%s> ", s->cur->name, *algo ? " " : "",
		 algo);
}

static void history_path(char *buf, size_t len)
{
	const char *env = getenv("PCCBENCH_HISTORY");
	struct pcb_err err = { 0 };
	char dir[PCB_PATH_LEN];

	buf[0] = '\0';
	if (env && *env ? pcb_path(buf, len, NULL, "%s", env) :
	    pcb_user_dir(dir, sizeof(dir), PCB_DIR_STATE, NULL, true, &err) ||
	    pcb_path(buf, len, NULL, "%s/history", dir))
		buf[0] = '\0';	/* no history file */
}

/* Ctrl-C at the prompt: a typed line is dropped; at an empty prompt the
 * first one says how to leave and a second one leaves (as Ctrl-D does);
 * SIGTERM leaves.  Readline's own signal handling is off so the read
 * below sees EINTR (the handler is installed without SA_RESTART).
 */
static int empty_interrupts;

static int prompt_getc(FILE *fp)
{
	unsigned char c;
	ssize_t n;

	for (;;) {
		n = read(fileno(fp), &c, 1);
		if (n == 1)
			return c;
		if (n == 0 || errno != EINTR)
			return EOF;
		if (!repl_s || !repl_s->opt.stop || !*repl_s->opt.stop)
			continue;
		if (*repl_s->opt.stop == SIGTERM ||
		    (rl_end == 0 && ++empty_interrupts >= 2)) {
			*repl_s->opt.stop = 0;
			repl_s->quit = true;
			rl_replace_line("", 0);
			return EOF;
		}
		*repl_s->opt.stop = 0;
		if (rl_end == 0)
			fputs("\n(Ctrl-C again or Ctrl-D to leave)", stdout);
		else
			empty_interrupts = 0;
		rl_replace_line("", 0);
		rl_crlf();
		rl_on_new_line();
		rl_redisplay();
	}
}

/* One line on entering: the device, what runs on it, how to go on. */
static void greet(struct session *s)
{
	struct pcb_err keep = s->err;
	struct slot_view *v;
	unsigned slot;
	char algo[300] = "no algorithm enabled";

	if (!sess_active_slot(s, &slot) && !sess_slot_view(s, slot, &v))
		snprintf(algo, sizeof(algo), "%s active (slot %u)", v->name,
			 slot);
	s->err = keep;
	printf("pccbench %s on %s%s: %s; 'help' lists the commands, 'quit' "
	       "leaves\n", PCCB_VERSION, s->cur->name, !strncmp(s->cur->name,
	       "sim", 3) ? " (simulated)" : "", algo);
}

int cli_repl(struct session *s)
{
	char prompt[256], hist[PCB_PATH_LEN];
	char *line;

	repl_s = s;
	rl_readline_name = "pccbench";
	rl_attempted_completion_function = pcb_complete;
	rl_getc_function = prompt_getc;
	rl_catch_signals = 0;
	/* readline's breaks plus the comma of data-ID lists */
	rl_completer_word_break_characters = " \t\n\"\\'`@$><=;|&{(,";
	greet(s);
	history_path(hist, sizeof(hist));
	stifle_history(HISTORY_MAX);
	if (*hist) {
		/* readline opens it by name and follows links: it must be
		 * a regular file of one link (made here if missing) */
		struct pcb_err e = { 0 };
		int fd = pcb_open_rw(hist, O_CREAT, PCB_MODE_STATE, &e);

		if (fd < 0) {
			sess_warn(s, "%s; history is not saved", e.msg);
			*hist = '\0';
		} else {
			close(fd);
			read_history(hist);
		}
	}
	while (!s->quit) {
		make_prompt(s, prompt, sizeof(prompt));
		empty_interrupts = 0;
		line = readline(prompt);
		if (!line || s->quit) {		/* Ctrl-D, Ctrl-C Ctrl-C */
			fputc('\n', stdout);
			free(line);
			break;
		}
		if (*line) {
			HIST_ENTRY *last = history_length ?
				history_get(history_base + history_length - 1) :
				NULL;

			/* no immediate duplicates; saved at once so a crash
			 * keeps it */
			if (!last || strcmp(last->line, line)) {
				add_history(line);
				if (*hist && append_history(1, hist))
					write_history(hist);
			}
		}
		if (s->opt.stop)
			/* Ctrl-C ends a command, not the REPL */
			*s->opt.stop = 0;
		cli_run_line(s, line, NULL);
		if (s->opt.stop)
			*s->opt.stop = 0;
		free(line);
	}
	if (*hist)
		history_truncate_file(hist, HISTORY_MAX);
	cands_clear(&current);
	free(current.v);
	current.v = NULL;
	current.cap = 0;
	repl_s = NULL;
	return 0;
}
