/* repl.c - the interactive loop: readline, prompt, history, completion.
 *
 * readline's completion callbacks take no user pointer, so the session of
 * the running REPL is kept in one file-static pointer (set for the loop's
 * lifetime only); nothing else in pccbench keeps parse state in globals.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "adb.h"
#include "cli.h"
#include "fsafe.h"
#include "cmd/cmd.h"
#include "discover.h"
#include "paths.h"
#include "device.h"
#include "rec/recorder.h"
#include "sweep/sweep.h"
#include "tel/diag_ids.h"

#define HISTORY_MAX 2000

static struct session *repl_s;

/* ---- candidates ---------------------------------------------------------- */

struct cands {
	char **v;
	size_t n, cap;
};

static void cand_add(struct cands *c, const char *word)
{
	char **nv;

	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 32;
		nv = realloc(c->v, c->cap * sizeof(*nv));
		if (!nv)
			return;
		c->v = nv;
	}
	c->v[c->n] = strdup(word);
	if (c->v[c->n])
		c->n++;
}

static void cand_rows(struct cands *c, const struct cmd_row *rows)
{
	for (; rows && rows->name; rows++)
		cand_add(c, rows->name);
}

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

static void cands_clear(struct cands *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->v[i]);
	c->n = 0;
}

/* ---- what the device knows ------------------------------------------------ */

static void cand_params(struct cands *c, struct session *s)
{
	struct pcb_err keep = s->err;
	struct slot_view *v;
	unsigned slot;
	size_t i;

	if (!sess_active_slot(s, &slot) && !sess_slot_view(s, slot, &v))
		for (i = 0; i < v->nparams; i++)
			cand_add(c, v->params[i].info.name);
	s->err = keep;
}

static void cand_slots(struct cands *c, struct session *s, bool counters)
{
	struct pcb_err keep = s->err;
	uint32_t info[PPCC_SLOTS];
	unsigned i;
	char b[8];

	if (!sess_device(s) && !ppcc_algo_info_array(&s->ppcc, info, &s->err))
		for (i = 0; i < PPCC_SLOTS; i++) {
			struct slot_view *v;

			if (!info[i])
				continue;
			if (counters && (sess_slot_view(s, i, &v) ||
					 !v->ncounters))
				continue;
			snprintf(b, sizeof(b), "%u", i);
			cand_add(c, b);
		}
	s->err = keep;
}

static void cand_registers(struct cands *c, struct session *s)
{
	struct pcb_err keep = s->err;
	struct adb_db *db = NULL;
	size_t i;

	if (!cmd_open_adb(s, NULL, &db)) {
		for (i = 0; i < adb_db_count(db); i++)
			cand_add(c, adb_db_name(db, i));
		adb_db_free(db);
	}
	s->err = keep;
}

static void cand_list(struct cands *c, const char *list)
{
	char buf[512], *w, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
		cand_add(c, w);
}

/* sim, sim:NAME for every state file, and the NICs on the bus: BDF,
 * pci/BDF, mlx5_N, mlx5_N/1 and netdevs.
 */
static void cand_devices(struct cands *c)
{
	struct pcb_nic *nics = NULL;
	char dir[4096], name[300];
	struct dirent *de;
	size_t i, n = 0;
	DIR *d;

	cand_add(c, "sim");
	if (!pcb_user_dir(dir, sizeof(dir), PCB_DIR_STATE, "sim", false,
			  NULL) && (d = opendir(dir))) {
		while ((de = readdir(d))) {
			size_t l = strlen(de->d_name);

			if (l > 4 && !strcmp(de->d_name + l - 4, ".dev") &&
			    strcmp(de->d_name, "default.dev")) {
				snprintf(name, sizeof(name), "sim:%.*s",
					 (int)(l - 4), de->d_name);
				cand_add(c, name);
			}
		}
		closedir(d);
	}
	/* each NVIDIA function under every handle it answers to */
	if (!pcb_discover(&nics, &n, NULL))
		for (i = 0; i < n; i++) {
			const char *nd = nics[i].netdev;

			cand_add(c, nics[i].bdf);
			snprintf(name, sizeof(name), "pci/%s", nics[i].bdf);
			cand_add(c, name);
			if (nics[i].rdma[0]) {
				int l = (int)strcspn(nics[i].rdma, ",");

				snprintf(name, sizeof(name), "%.*s", l,
					 nics[i].rdma);
				cand_add(c, name);
				snprintf(name, sizeof(name), "%.*s/1", l,
					 nics[i].rdma);
				cand_add(c, name);
			}
			while (*nd) {	/* comma separated */
				size_t l = strcspn(nd, ",");

				snprintf(name, sizeof(name), "%.*s", (int)l,
					 nd);
				cand_add(c, name);
				nd += l + (nd[l] == ',');
			}
		}
	free(nics);
}

/* Candidates for word number `n` (0-based) after words[0..n-1]. */
static int append_char = ' ';	/* after a unique match */

/* Data-ID names: every entry with instance 0, and the 8 priorities. */
static void cand_data_ids(struct cands *c)
{
	char name[128];
	size_t i;
	uint32_t p;

	for (i = 0; i < diag_id_count(); i++) {
		struct diag_id x = { .def = diag_id_def_at(i) };

		for (p = 0; p < (x.def->inst == DI_PORT_PRIO ? 8u : 1u); p++) {
			x.prio = p;
			diag_id_name(diag_id_encode(&x), name, sizeof(name));
			cand_add(c, name);
		}
	}
}

/* `KEY VALUE...` pairs: keys at even positions after the verb. */
static void cand_pairs(struct cands *c, char **words, int n,
		       const char *keys, const char *const *vals)
{
	size_t i;

	if (n % 2 == 0) {
		cand_list(c, keys);
		return;
	}
	for (i = 0; vals[i]; i += 2)
		if (!strcmp(words[n - 1], vals[i]))
			cand_list(c, vals[i + 1]);
}

/* Saved series (NAME.csv) or sweeps (directories) by name. */
static void cand_saved(struct cands *c, const char *sub, bool dirs)
{
	char **names = store_names(sub, dirs);
	size_t i;

	for (i = 0; names && names[i]; i++)
		cand_add(c, names[i]);
	words_free(names);
}

/* The column names of a saved series: its header, "name (unit),...". */
static void cand_columns(struct cands *c, struct session *s,
			 const char *series)
{
	struct pcb_err keep = s->err;
	char path[4200], *line = NULL, *w, *save = NULL;
	size_t cap = 0;
	FILE *fp;

	if (store_series_path(s, series, "csv", path, sizeof(path)) ||
	    !(fp = pcb_fopen_read(path, &s->err))) {
		s->err = keep;
		return;
	}
	if (getline(&line, &cap, fp) > 0)
		for (w = strtok_r(line, ",\r\n", &save); w;
		     w = strtok_r(NULL, ",\r\n", &save)) {
			w[strcspn(w, " ")] = '\0';
			if (*w && strcmp(w, "t"))
				cand_add(c, w);
		}
	free(line);
	fclose(fp);
}

/* record's keys and values. */
static void complete_record(char **words, int n, struct cands *c)
{
	if (n > 1 && words[n - 1][strlen(words[n - 1]) - 1] == ',')
		n--;	/* "ids a,b": the list is the word being completed */
	if (n % 2 == 1) {
		cand_list(c, "for, every, into, clear, ids, while");
	} else if (!strcmp(words[n - 1], "clear")) {
		cand_list(c, "on, off");
	} else if (!strcmp(words[n - 1], "ids")) {
		cand_data_ids(c);
		append_char = ',';
	}
}

/* sweep [run] PARAM SPEC ... KEYWORD VALUE ...; words[first] is the
 * first word after `sweep` or `sweep run`.
 */
static void complete_sweep(struct session *s, char **words, int n, int first,
			   struct cands *c)
{
	char keys[160];
	const char *kinds = dev_workload_kinds();
	const char *wkeys;
	int i, scen = -1;
	bool in_axes = true;

	sw_key_list(keys, sizeof(keys));
	/* "util,queue_p": the list is the word being completed */
	if (n > first && words[n - 1][strlen(words[n - 1]) - 1] == ',')
		n--;

	for (i = first; i < n; i++) {
		if (sw_is_keyword(words[i]))
			in_axes = false;
		if (!strcmp(words[i], "scenario"))
			scen = i;
	}
	if (in_axes && (n - first) % 2 == 0) {
		cand_params(c, s);
		if (n > first)
			cand_list(c, keys);
		return;
	}
	if (in_axes)
		return;		/* a range or list of values */
	if (!strcmp(words[n - 1], "measure")) {
		for (i = 1; i < REC_C_FIXED; i++)
			cand_add(c, rec_fixed_cols[i].name);
		for (i = 0; i < DEV_S_COUNT; i++)
			cand_add(c, dev_summary_cols[i].name);
		append_char = ',';
		return;
	}
	if (scen == n - 1) {
		cand_list(c, kinds);
		return;
	}
	if (scen >= 0 && (wkeys = dev_workload_keys(words[scen + 1])) &&
	    (n - scen) % 2 == 0) {
		cand_list(c, wkeys);
		cand_list(c, keys);
		return;
	}
	if (!strcmp(words[n - 1], "plot"))
		return;		/* a file */
	cand_list(c, keys);
}

static bool complete_tel(struct session *s, const char *obj,
			 const char *verb, char **words, int n,
			 struct cands *c)
{
	static const char *const diag_vals[] = {
		"mode", "single, repetitive, on_demand", "format", "0, 1, 2",
		"sync", "on, off", "clear", "on, off", "timestamp", "frc, rtc",
		NULL };
	static const char *const retx_vals[] = {
		"mode", "fixed, double", "unit", "nsec, usec, usec_100, msec",
		"clear", "on, off", "count", "on, off", "vhca", "any", NULL };

	if (!strcmp(obj, "diag")) {
		if (!strcmp(verb, "config"))
			cand_pairs(c, words, n, "period, samples, ids, mode, "
				   "format, sync, clear, timestamp, force",
				   diag_vals);
		else if (!strcmp(verb, "ids") && n == 2)
			cand_list(c, "list, apply, import, export");
		else if (!strcmp(verb, "ids") && n >= 3 &&
			 !strcmp(words[2], "apply")) {
			cand_data_ids(c);
			append_char = ',';	/* lists: a,b,c */
		}
		else if ((!strcmp(verb, "ids") && n == 3) ||
			 (!strcmp(verb, "export") && n == 2))
			return false;	/* a file */
		else if (!strcmp(verb, "check") && n == 2)
			cand_data_ids(c);
		else if (!strcmp(verb, "advise") && n % 2 == 0)
			cand_list(c, "period, poll, spike");
	} else if (!strcmp(obj, "retx") && !strcmp(verb, "config")) {
		cand_pairs(c, words, n, "bins, bin0, bin1, mode, unit, vhca, "
			   "clear, count", retx_vals);
	} else if (!strcmp(obj, "pcc") && n == 2 && strcmp(verb, "show")) {
		cand_slots(c, s, true);
	}
	return true;
}

static bool complete_for(struct session *s, char **words, int n,
			 struct cands *c)
{
	const struct cmd_row *obj, *verb = NULL;
	struct pcb_err keep = s->err;
	const char *kinds = dev_workload_kinds();
	const char *wkeys;

	if (n == 0) {
		cand_rows(c, cmd_top);
		return true;
	}
	obj = cli_lookup(s, cmd_top, "command", words[0]);
	s->err = keep;
	if (!obj)
		return true;
	if (!strcmp(obj->name, "help")) {
		if (n == 1)
			cand_rows(c, cmd_top);
		else if (n == 2 && (obj = cli_lookup(s, cmd_top, "command",
						     words[1])))
			cand_rows(c, obj->sub);
		s->err = keep;
		return true;
	}
	if (!strcmp(obj->name, "source"))
		return false;		/* file names */
	if (!strcmp(obj->name, "record")) {
		complete_record(words, n, c);
		return strcmp(words[n - 1], "while");
	}
	if (!strcmp(obj->name, "corr") || !strcmp(obj->name, "plot")) {
		if (n == 1)
			cand_saved(c, "series", false);
		else if (!strcmp(obj->name, "plot") &&
			 !strcmp(words[n - 1], "to"))
			return false;	/* a file */
		else if (strcmp(words[n - 1], "title"))
			cand_columns(c, s, words[1]);
		if (n > 1 && !strcmp(obj->name, "plot"))
			cand_list(c, "to, title, hist, scatter");
		if (n > 1 && !strcmp(obj->name, "corr"))
			cand_add(c, "lag");
		return true;
	}
	if (!obj->sub)
		return true;
	if (n == 1) {
		cand_rows(c, obj->sub);
		if (!strcmp(obj->name, "sweep"))
			cand_params(c, s);	/* sweep PARAM = sweep run */
		return true;
	}
	verb = cli_lookup(s, obj->sub, "verb", words[1]);
	s->err = keep;
	if (!verb && !strcmp(obj->name, "sweep")) {
		complete_sweep(s, words, n, 1, c);
		return strcmp(words[n - 1], "plot");
	}
	if (!verb)
		return true;
	if (!strcmp(obj->name, "sweep")) {
		if (!strcmp(verb->name, "run")) {
			complete_sweep(s, words, n, 2, c);
			return strcmp(words[n - 1], "plot");
		}
		if (n == 2 && strcmp(verb->name, "list"))
			cand_saved(c, "sweeps", true);
		else if (!strcmp(verb->name, "plot") && n == 3)
			cand_add(c, "to");
		else if (!strcmp(verb->name, "plot") && n == 4)
			return false;	/* a file */
		else if (!strcmp(verb->name, "show") && n == 3)
			cand_add(c, "best");
		else if (!strcmp(verb->name, "show") && n == 4)
			cand_list(c, "min, max");
		return true;
	}
	if (!strcmp(obj->name, "series")) {
		if (n == 2 && strcmp(verb->name, "list"))
			cand_saved(c, "series", false);
		else if (n == 3 && !strcmp(verb->name, "export"))
			return false;	/* a file */
		return true;
	}
	if (!strcmp(obj->name, "diag") || !strcmp(obj->name, "retx") ||
	    !strcmp(obj->name, "pcc"))
		return complete_tel(s, obj->name, verb->name, words, n, c);
	if (!strcmp(obj->name, "param")) {
		cand_params(c, s);
		cand_add(c, "slot");
		if (!strcmp(verb->name, "set")) {
			cand_add(c, "--unchecked");
			cand_add(c, "raw");
		}
		if (!strcmp(verb->name, "reset"))
			cand_add(c, "all");
		if (n >= 3 && !strcmp(words[n - 1], "slot")) {
			cands_clear(c);
			cand_slots(c, s, false);
		}
	} else if (!strcmp(obj->name, "algo")) {
		if (!strcmp(verb->name, "debug") && n == 2)
			cand_list(c, "on, off");
		else if (n == 2 && strcmp(verb->name, "list"))
			cand_slots(c, s, false);
		else if (n == 3 && !strcmp(verb->name, "enable"))
			cand_add(c, "counters");
	} else if (!strcmp(obj->name, "dev") && n == 2 &&
		   !strcmp(verb->name, "open")) {
		cand_devices(c);
	} else if (!strcmp(obj->name, "counter") && n == 2) {
		cand_slots(c, s, true);
	} else if (!strcmp(obj->name, "reg") && n == 2) {
		cand_registers(c, s);
	} else if (!strcmp(obj->name, "sim")) {
		if (!strcmp(verb->name, "scenario") && n == 2)
			cand_list(c, kinds);
		else if (!strcmp(verb->name, "scenario") && n % 2 == 1 &&
			 (wkeys = dev_workload_keys(words[2])))
			cand_list(c, wkeys);
		else if (!strcmp(verb->name, "run") && n >= 3) {
			if (!strcmp(words[n - 1], "trace"))
				return false;	/* a file */
			if (n % 2 == 1)
				cand_list(c, "trace, every");
		} else if (!strcmp(verb->name, "model") && n % 2 == 0) {
			cand_list(c, "target, decrease, beta, hyper");
		}
	}
	return true;
}

static char **pcb_complete(const char *text, int start, int end)
{
	char *line, *w, *save = NULL, *words[64];
	int n = 0;

	(void)end;
	rl_attempted_completion_over = 1;
	append_char = ' ';
	cands_clear(&current);
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
	if (!complete_for(repl_s, words, n, &current)) {
		free(line);
		rl_attempted_completion_over = 0;	/* file names */
		return NULL;
	}
	free(line);
	rl_completion_append_character = append_char;
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

	if (!strncmp(s->devname, "sim", 3) && !sess_active_slot(s, &slot) &&
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
	snprintf(buf, len, "pccbench %s%s%s> ", s->devname, *algo ? " " : "",
		 algo);
}

static void history_path(char *buf, size_t len)
{
	const char *env = getenv("PCCBENCH_HISTORY");
	struct pcb_err err = { 0 };
	char dir[4096];

	buf[0] = '\0';
	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return;
	}
	if (!pcb_user_dir(dir, sizeof(dir), PCB_DIR_STATE, NULL, true, &err))
		snprintf(buf, len, "%s/history", dir);
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
		if (!repl_s || !repl_s->stop || !*repl_s->stop)
			continue;
		if (*repl_s->stop == SIGTERM ||
		    (rl_end == 0 && ++empty_interrupts >= 2)) {
			*repl_s->stop = 0;
			repl_s->quit = true;
			rl_replace_line("", 0);
			return EOF;
		}
		*repl_s->stop = 0;
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
	       "leaves\n", PCCB_VERSION, s->devname, !strncmp(s->devname,
	       "sim", 3) ? " (simulated)" : "", algo);
}

int cli_repl(struct session *s)
{
	char prompt[256], hist[4200];
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
		if (s->stop)
			*s->stop = 0;	/* Ctrl-C ends a command, not the REPL */
		cli_run_line(s, line, NULL);
		if (s->stop)
			*s->stop = 0;
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
