/* cli.c - the front end: table dispatch, help, scripts, and completion's
 * walk of the command tables (the REPL's readline glue is repl.c, the
 * tokenizer words.c, each command's words cmd/complete.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


#include "cli.h"
#include "cmd/complete.h"
#include "words.h"
#include "suggest.h"
#include "device.h"
#include "units.h"

#define CLI_MAX_DEPTH 8		/* `source` nesting */

/* ---- lookup and dispatch ----------------------------------------------- */

const struct cmd_row *cli_lookup(struct session *s,
				 const struct cmd_row *table, const char *what,
				 const char *name)
{
	const struct cmd_row *r, *hit = NULL;
	size_t n = strlen(name), nhits = 0;
	char cands[256] = "";

	for (r = table; r->name; r++)
		if (!strcmp(r->name, name))
			return r;
	for (r = table; r->name && n; r++) {
		if (strncmp(r->name, name, n))
			continue;
		nhits++;
		hit = r;
		if (strlen(cands) + strlen(r->name) + 3 < sizeof(cands)) {
			if (*cands)
				strncat(cands, ", ", sizeof(cands) -
					strlen(cands) - 1);
			strncat(cands, r->name,
				sizeof(cands) - strlen(cands) - 1);
		}
	}
	if (nhits == 1)
		return hit;
	if (nhits > 1)
		pcb_error(&s->err, PCB_E_AMBIG, "ambiguous %s '%s': %s", what,
			  name, cands);
	else {
		struct suggest sg;
		char dym[160];

		suggest_init(&sg, name);
		for (r = table; r->name; r++)
			suggest_add(&sg, r->name);
		if (!sg.n && !strcmp(what, "verb")) {	/* say them all */
			snprintf(dym, sizeof(dym), "; the verbs are ");
			for (r = table; r->name; r++)
				snprintf(dym + strlen(dym), sizeof(dym) -
					 strlen(dym), "%s%s", r == table ? "" :
					 ", ", r->name);
		}
		pcb_error(&s->err, PCB_E_NOENT, "unknown %s '%s'%s", what,
			  name, sg.n ? suggest_text(&sg, dym, sizeof(dym)) :
			  !strcmp(what, "verb") ? dym : "; try 'help'");
	}
	return NULL;
}

void cli_print_error(struct session *s, int rc, const char *where)
{
	const char *msg = s->err.code ? s->err.msg : pcb_strerror(rc);

	if (s->out.json) {
		out_obj_begin(&s->out, NULL);
		out_obj_begin(&s->out, "error");
		out_str(&s->out, "code", pcb_errname(rc));
		out_str(&s->out, "message", msg);
		if (where)
			out_str(&s->out, "where", where);
		out_obj_end(&s->out);
		if (s->cmd_writes)	/* what Ansible's changed_when reads */
			out_bool(&s->out, "changed", s->nwrites > s->cmd_w0);
		out_obj_end(&s->out);
		fflush(s->out.fp);
	}
	fprintf(s->opt.errfp, "%s%serror: %s\n", where ? where : "",
		where ? ": " : "", msg);
	fflush(s->opt.errfp);
	s->reported = true;
}

/* " ARGS [KEY VALUE]...", or "" for a row without words. */
static const char *syn(const struct cmd_row *r, char *buf, size_t len)
{
	buf[0] = ' ';
	cmd_synopsis(r, buf + 1, len - 1);
	return buf[1] ? buf : "";
}

static void help_row(FILE *fp, const struct cmd_row *obj,
		     const struct cmd_row *v)
{
	char syn_[600], a[600];

	snprintf(syn_, sizeof(syn_), "%s %s%s", obj->name, v->name,
		 syn(v, a, sizeof(a)));
	fprintf(fp, "  %-44s %s\n", syn_, v->help);
}

static bool cli_has_verb(const struct cmd_row *t, const char *name)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name))
			return true;
	return false;
}

static void help_verb(FILE *fp, const struct cmd_row *obj,
		      const struct cmd_row *v)
{
	char a[600];

	fprintf(fp, "usage: %s %s%s\n  %s\n", obj->name, v->name,
		syn(v, a, sizeof(a)), v->help);
	if (v->example)
		fprintf(fp, "example: %s\n", v->example);
}

static int run_argv(struct session *s, int argc, char **argv);

/* -j, -p and --json after the command work as before it, for this one
 * command (`param list -j`); other options there are told where to go.
 */
int cli_run_argv(struct session *s, int argc, char **argv)
{
	bool json = s->out.json, pretty = s->out.pretty, any = false;
	char *words[WORDS_MAX];
	int i, n = 0, rc;

	pcb_err_reset(&s->err);
	s->reported = false;
	s->cmd_writes = false;
	s->cmd_w0 = s->nwrites;
	s->status = 0;
	s->detailed_exit = false;
	if (argc > WORDS_MAX)
		return run_argv(s, argc, argv);
	for (i = 0; i < argc; i++) {
		if (i && (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))) {
			s->out.json = any = true;
		} else if (i && !strcmp(argv[i], "-p")) {
			s->out.json = s->out.pretty = any = true;
		} else if (i && (!strcmp(argv[i], "-y") ||
				 !strcmp(argv[i], "-n") ||
				 !strncmp(argv[i], "-d", 2))) {
			return pcb_error(&s->err, PCB_E_USAGE, "'%s' goes before "
					 "the command: pccbench %s %s ...",
					 argv[i], argv[i], argv[0]);
		} else {
			words[n++] = argv[i];
		}
	}
	rc = run_argv(s, n, words);
	if (any) {
		s->out.json = json;
		s->out.pretty = pretty;
	}
	return rc;
}

static int run_argv(struct session *s, int argc, char **argv)
{
	const struct cmd_row *obj, *verb;
	int rc, nargs, skip = 2;
	char **args, a[600];

	if (argc < 1)
		return 0;
	obj = cli_lookup(s, cmd_top, "command", argv[0]);
	if (!obj)
		return -s->err.code;
	if (!obj->sub) {
		verb = obj;
		args = argv + 1;
		nargs = argc - 1;
		obj = NULL;
	} else if (argc < 2 || !strcmp(argv[1], "--help") ||
		   (argc == 2 && !strcmp(argv[1], "help") &&
		    !cli_has_verb(obj->sub, "help"))) {
		for (verb = obj->sub; verb->name; verb++)
			if (verb->flags & CMD_DEFAULT)
				break;
		if (argc >= 2 || !verb->name) {
			const struct cmd_row *v;

			fprintf(s->out.fp, "%s: %s\n", obj->name, obj->help);
			for (v = obj->sub; v->name; v++)
				help_row(s->out.fp, obj, v);
			return 0;
		}
		args = argv + 1;
		nargs = 0;
	} else {
		verb = cli_lookup(s, obj->sub, "verb", argv[1]);
		if (!verb && s->err.code == PCB_E_NOENT) {
			const struct cmd_row *f;

			for (f = obj->sub; f->name; f++)
				if (f->flags & CMD_FALLBACK)
					break;
			if (f->name) {
				pcb_err_reset(&s->err);
				verb = f;
				skip = 1;	/* args start at the word */
			}
		}
		if (!verb) {
			/* name the object so the user sees where */
			char m[sizeof(s->err.msg)];
			size_t l = strlen(obj->name) + 2;

			memcpy(m, s->err.msg, sizeof(m));
			if (l < sizeof(m)) {
				snprintf(s->err.msg, sizeof(s->err.msg),
					 "%s: ", obj->name);
				memcpy(s->err.msg + l, m, sizeof(m) - l);
				s->err.msg[sizeof(s->err.msg) - 1] = '\0';
			}
			return -s->err.code;
		}
		args = argv + skip;
		nargs = argc - skip;
	}
	if (nargs == 1 && !strcmp(args[0], "--help")) {
		if (obj)
			help_verb(s->out.fp, obj, verb);
		else
			fprintf(s->out.fp, "usage: %s%s\n  %s\n", verb->name,
				syn(verb, a, sizeof(a)), verb->help);
		return 0;
	}
	if (nargs < verb->min_args ||
	    (verb->max_args >= 0 && nargs > verb->max_args)) {
		return pcb_error(&s->err, PCB_E_USAGE, "usage: %s%s%s%s",
				 obj ? obj->name : "", obj ? " " : "",
				 verb->name, syn(verb, a, sizeof(a)));
	}
	/* what the row says of itself: it may write the device (refused in
	 * a read-only session, unless it is a dry run, which writes
	 * nothing), it needs the device (opened here, once) */
	if ((verb->flags & CMD_WRITES) && s->read_only && !s->dry_run)
		return pcb_error(&s->err, PCB_E_STATE, "read-only session: "
				 "'%s%s%s' may write %s", obj ? obj->name : "",
				 obj ? " " : "", verb->name, s->cur->name);
	s->cmd_writes = verb->flags & CMD_WRITES;
	if (verb->flags & CMD_DEVICE) {
		rc = sess_device(s);
		if (rc)
			return rc;
	}
	rc = verb->fn(s, nargs, args);
	sess_dry_flush(s);
	fflush(s->out.fp);
	return rc;
}

int cli_run_line(struct session *s, const char *line, const char *where)
{
	char ***cmds;
	int *argcs, ncmd, i, rc, first = 0;

	pcb_err_reset(&s->err);
	rc = words_split(line, &cmds, &argcs, &ncmd, &s->err);
	if (rc) {
		cli_print_error(s, rc, where);
		return rc;
	}
	for (i = 0; i < ncmd && !s->quit; i++) {
		if (s->opt.stop && *s->opt.stop) {
			rc = pcb_error(&s->err, PCB_E_INTR, "interrupted");
			cli_print_error(s, rc, where);
			first = rc;
			break;
		}
		rc = cli_run_argv(s, argcs[i], cmds[i]);
		if (rc) {
			/* a sourced script printed its own error */
			if (!s->reported)
				cli_print_error(s, rc, where);
			if (!first || pcb_exit_code(rc) > pcb_exit_code(first))
				first = rc;
			if (!s->force)
				break;
		}
	}
	words_free_split(cmds, argcs, ncmd);
	return first;
}

int cli_run_stream(struct session *s, FILE *fp, const char *name)
{
	char *line = NULL, where[PATH_MAX + 32];
	size_t cap = 0;
	ssize_t n;
	long lineno = 0;
	unsigned long w0 = s->nwrites;
	int rc, worst = 0;

	if (s->depth >= CLI_MAX_DEPTH)
		return pcb_error(&s->err, PCB_E_STATE,
				 "'%s': source nested more than %d deep", name,
				 CLI_MAX_DEPTH);
	s->depth++;
	while (!s->quit && !(s->opt.stop && *s->opt.stop) &&
	       (n = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		if (memchr(line, '\0', (size_t)n)) {
			snprintf(where, sizeof(where), "%s:%ld", name, lineno);
			pcb_err_reset(&s->err);
			rc = pcb_error(&s->err, PCB_E_PARSE,
				       "binary data in script");
			cli_print_error(s, rc, where);
			worst = rc;
			break;
		}
		snprintf(where, sizeof(where), "%s:%ld", name, lineno);
		rc = cli_run_line(s, line, where);
		if (rc) {
			if (!worst || pcb_exit_code(rc) > pcb_exit_code(worst))
				worst = rc;
			if (!s->force)
				break;
		}
	}
	free(line);
	s->depth--;
	/* the error was printed with its FILE:LINE already; what the script
	 * changed before it stopped is said once, at the top */
	if (worst && !s->depth && s->nwrites > w0 && !s->dry_run)
		fprintf(s->opt.errfp,
			"note: %s stopped after %lu write%s to %s; "
			"'journal show' lists them, 'journal undo' takes back "
			"the last, 'journal restore' all\n", name,
			s->nwrites - w0, s->nwrites - w0 == 1 ? "" : "s",
			s->cur->name);
	return worst;
}

int cli_run_file(struct session *s, const char *path)
{
	FILE *fp = fopen(path, "r");
	int rc;

	if (!fp)
		return pcb_error(&s->err, PCB_E_NOENT, "cannot open '%s': %s",
				 path, strerror(errno));
	rc = cli_run_stream(s, fp, path);
	fclose(fp);
	return rc;
}

/* ---- built-in commands (no object) ------------------------------------- */

static int cmd_help(struct session *s, int argc, char **argv)
{
	const struct cmd_row *obj, *v;
	FILE *fp = s->out.fp;

	if (argc == 0) {
		fprintf(fp, "pccbench %s - commands (OBJECT VERB ARGS; "
			"'help OBJECT' for its verbs)\n", PCCB_VERSION);
		for (obj = cmd_top; obj->name; obj++)
			fprintf(fp, "  %-10s %s\n", obj->name, obj->help);
		return 0;
	}
	obj = cli_lookup(s, cmd_top, "command", argv[0]);
	if (!obj)
		return -s->err.code;
	if (!obj->sub) {
		char a[600];

		fprintf(fp, "usage: %s%s\n  %s\n", obj->name,
			syn(obj, a, sizeof(a)), obj->help);
		return 0;
	}
	if (argc == 1) {
		fprintf(fp, "%s: %s\n", obj->name, obj->help);
		for (v = obj->sub; v->name; v++)
			help_row(fp, obj, v);
		return 0;
	}
	v = cli_lookup(s, obj->sub, "verb", argv[1]);
	if (!v)
		return -s->err.code;
	help_verb(fp, obj, v);
	return 0;
}

static int cmd_quit(struct session *s, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	s->quit = true;
	return 0;
}

static int cmd_echo(struct session *s, int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		fprintf(s->out.fp, "%s%s", i ? " " : "", argv[i]);
	fputc('\n', s->out.fp);
	return 0;
}

/* "500ms" -> nanoseconds; a bare number is seconds. */
static int parse_duration(struct session *s, const char *t, long long *ns)
{
	int64_t ps;

	if (pcb_parse_duration_ps(t, 1e12, &ps) || ps > 3600e12)
		return pcb_error(&s->err, PCB_E_INVAL,
				 "bad duration '%s' (e.g. 500ms, 2s, 100us; at "
				 "most 1 hour)", t);
	*ns = ps / 1000;
	return 0;
}

/* sleep DURATION [wall]: on the device's clock.  The sim device's clock
 * is simulated time, so sleeping there lets the fabric run (statistics
 * continue the last window); a real NIC, or `wall`, waits wall time.
 */
static int cmd_sleep(struct session *s, int argc, char **argv)
{
	long long ns = 0;
	int rc = parse_duration(s, argv[0], &ns);

	if (!rc && argc == 2 && strcmp(argv[1], "wall"))
		rc = pcb_error(&s->err, PCB_E_USAGE, "usage: sleep DURATION "
			       "[wall]");
	if (rc)
		return rc;
	return dev_advance(s->cur, ns * 1000, argc == 2);
}

static int cmd_source(struct session *s, int argc, char **argv)
{
	(void)argc;
	return cli_run_file(s, argv[0]);
}

/* ---- completion ----------------------------------------------------------- */

/* The row the words name and where its arguments start: an object's
 * verb, its fallback verb (`sweep ALPHA ...` = `sweep run ...`), or a
 * command without verbs.  NULL: nothing to complete.
 */
static const struct cmd_row *complete_row(struct session *s, char **words,
					  int n, int *first)
{
	const struct cmd_row *obj, *verb;

	obj = cli_lookup(s, cmd_top, "command", words[0]);
	if (!obj || !obj->sub) {
		*first = 1;
		return obj;
	}
	if (n > 1 && (verb = cli_lookup(s, obj->sub, "verb", words[1]))) {
		*first = 2;
		return verb;
	}
	for (verb = obj->sub; verb->name; verb++)
		if (verb->flags & CMD_FALLBACK) {
			*first = 1;
			return verb;
		}
	return NULL;
}

bool cli_complete(struct session *s, char **words, int n, struct cands *c)
{
	struct pcb_err keep = s->err;
	const struct cmd_row *obj, *row;
	int first = 0;
	bool more = true;

	if (n == 0) {
		cand_rows(c, cmd_top);
		return true;
	}
	row = complete_row(s, words, n, &first);
	if (n == 1 && (obj = cli_lookup(s, cmd_top, "command", words[0])) &&
	    obj->sub)
		cand_rows(c, obj->sub);	/* and the fallback's first word */
	s->err = keep;
	if (row)
		more = cmd_row_complete(s, row, words + first, n - first, c);
	s->err = keep;
	return more;
}

/* help [COMMAND [VERB]] */
static bool help_complete(struct session *s, char **argv, int argc,
			  struct cands *c)
{
	struct pcb_err keep = s->err;
	const struct cmd_row *obj;

	if (argc == 0)
		cand_rows(c, cmd_top);
	else if (argc == 1 && (obj = cli_lookup(s, cmd_top, "command",
						argv[0])))
		cand_rows(c, obj->sub);
	s->err = keep;
	return true;
}


const struct cmd_row cmd_top[] = {
	{
		.name = "dev",
		.sub = cmd_dev_verbs,
		.help = "devices: list NICs and simulated ones, show, open",
	},
	{
		.name = "algo",
		.sub = cmd_algo_verbs,
		.help = "algorithm slots: list, enable, disable, debug mode",
	},
	{
		.name = "param",
		.sub = cmd_param_verbs,
		.help = "algorithm parameters as real numbers: list, get, set, reset",
	},
	{
		.name = "counter",
		.sub = cmd_counter_verbs,
		.help = "algorithm counters: show, clear",
	},
	{
		.name = "diag",
		.sub = cmd_diag_verbs,
		.help = "diagnostic counters: config, ids, start, read, export, stop",
	},
	{
		.name = "pcc",
		.sub = cmd_pcc_verbs,
		.help = "PCC telemetry: slots, versions, enable status, counters",
	},
	{
		.name = "retx",
		.sub = cmd_retx_verbs,
		.help = "adaptive-retransmission histogram: config, start, read, stop",
	},
	{
		.name = "profile",
		.sub = cmd_profile_verbs,
		.help = "tuning profiles: save, show, diff, apply (idempotent, one "
			"journal transaction), export as mstreg/mlxreg lines",
	},
	{
		.name = "record",
		.fn = cmd_record,
		.min_args = 4,
		.max_args = 15,
		.help = "record one timeline: PCC counters, port counters, retx bins",
		.example = "record for 20ms every 100us into incast",
		.keys = cmd_record_keys,
	},
	{
		.name = "watch",
		.fn = cmd_watch,
		.max_args = 7,
		.args = "[COL,...]",
		.help = "the timeline's rates as they come: a table redrawn on a "
			"terminal, a line per interval otherwise; Ctrl-C stops",
		.example = "watch cnp_handled,ecn_marked,rx_gbps every 1s",
		.keys = cmd_watch_keys,
	},
	{
		.name = "series",
		.sub = cmd_series_verbs,
		.help = "recorded timelines: list, show, export, merge "
			"(several hosts on one time axis), drop",
	},
	{
		.name = "corr",
		.fn = cmd_corr,
		.min_args = 1,
		.max_args = 5,
		.args = "NAME [X Y [lag MAX]]",
		.help = "Pearson and Spearman of two columns, the best lag; or the "
			"matrix",
		.example = "corr incast avg_rtt cnp_handled lag 20",
		.complete = cmd_corr_complete,
	},
	{
		.name = "plot",
		.fn = cmd_plot,
		.min_args = 1,
		.max_args = 20,
		.args = "NAME [COL...|hist|scatter X Y] [to FILE.png|FILE.svg] [title "
			"TEXT]",
		.help = "a series through gnuplot: the timeline, the retx heatmap, or "
			"Y against X with the fitted line and r; on the terminal "
			"without 'to'",
		.example = "plot incast avg_rtt cnp_handled ecn_marked to /tmp/incast.png",
		.complete = cmd_plot_complete,
	},
	{
		.name = "sweep",
		.sub = cmd_sweep_verbs,
		.help = "parameter sweeps: run, show, resume, plot, list, drop",
	},
	{
		.name = "export",
		.sub = cmd_export_verbs,
		.help = "the device's metrics in the Prometheus text format",
	},
	{
		.name = "serve",
		.sub = cmd_serve_verbs,
		.help = "an HTTP endpoint /metrics for Prometheus",
	},
	{
		.name = "tune",
		.sub = cmd_tune_verbs,
		.help = "automatic tuning on the sim: run, show, resume, plot, "
			"apply, verify (a real NIC), profile, list",
	},
	{
		.name = "journal",
		.sub = cmd_journal_verbs,
		.help = "the write journal: show, restore, clear",
	},
	{
		.name = "sim",
		.sub = cmd_sim_verbs,
		.help = "the simulated fabric: scenario, run, show, reset, model",
	},
	{
		.name = "bench",
		.sub = cmd_bench_verbs,
		.help = "measure the simulator's speed",
	},
	{
		.name = "reg",
		.sub = cmd_reg_verbs,
		.help = "register layouts from ADB files: list, show, encode, decode",
	},
	{
		.name = "set",
		.sub = cmd_set_verbs,
		.help = "session settings: units raw|real",
	},
	{
		.name = "help",
		.fn = cmd_help,
		.max_args = 2,
		.args = "[OBJECT [VERB]]",
		.help = "show commands, an object's verbs or one verb",
		.example = "help param set",
		.complete = help_complete,
	},
	{
		.name = "echo",
		.fn = cmd_echo,
		.max_args = -1,
		.args = "[TEXT...]",
		.help = "print text",
	},
	{
		.name = "sleep",
		.fn = cmd_sleep,
		.min_args = 1,
		.max_args = 2,
		.args = "DURATION [wall]",
		.help = "wait on the device's clock: the sim runs its fabric for "
			"DURATION of simulated time; a real NIC (or 'wall') waits "
			"wall time",
		.example = "sleep 100ms",
	},
	{
		.name = "source",
		.fn = cmd_source,
		.min_args = 1,
		.max_args = 1,
		.args = "FILE",
		.help = "run the commands of a script file",
		.example = "source scripts/demo.pcb",
		.complete = cmd_complete_file,
	},
	{
		.name = "quit",
		.fn = cmd_quit,
		.args = "",
		.help = "leave pccbench",
	},
	{
		.name = "exit",
		.fn = cmd_quit,
		.args = "",
		.help = "leave pccbench",
	},
	{ 0 }
};

