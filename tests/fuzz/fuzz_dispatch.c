/* fuzz_dispatch.c - the command language: words_split and cli_run_line on
 * a dry-run session on the sim device.
 *
 * Input: one flag byte, then a command line ("CMD ARGS; CMD # comment").
 * Flag bits: 0x1 JSON output, 0x2 pretty JSON, 0x4 --force (go on after
 * an error), 0x8 `set units raw` first.  '0' (0x30) is plain text.
 *
 * Lines that would run programs, write files the user names, or keep the
 * simulator busy are skipped whole (see skip()): record, watch and
 * `counter watch` (they run until interrupted), plot, sweep, source,
 * sleep, quit/exit, bench, `sim run`, `diag export`, `diag ids
 * import|export`, `series export`, `serve` (it listens until
 * interrupted), `export metrics` with keys (`to FILE`, `every`), and
 * `dev open` of anything but a sim device.  The decision uses the real
 * table lookup (cli_lookup), so a unique prefix ("sw", "rec") is caught
 * as well.  `reg` reads our small
 * reg/ppcc.adb (--adb), not mstflint's 650 KB database.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "words.h"
#include "fuzz.h"
#include "paths.h"

#define DEVNAME "sim:fz"

static char adb[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct pcb_err err = { 0 };
	fz_setup(argc, argv);
	if (pcb_data_file(adb, sizeof(adb), "reg/ppcc.adb", &err))
		abort();
	return 0;
}

static const struct cmd_row *find(struct session *s,
				  const struct cmd_row *table,
				  const char *name)
{
	const struct cmd_row *r = cli_lookup(s, table, "x", name);

	pcb_err_reset(&s->err);
	return r;
}

static bool is(const struct cmd_row *r, const char *name)
{
	return r && !strcmp(r->name, name);
}

/* Would this command run a program, write a named file or run long? */
static bool skip(struct session *s, int argc, char **argv)
{
	static const char *const objs[] = { "record", "watch", "plot",
					    "sweep", "source", "sleep", "quit",
					    "exit", "bench", "serve", NULL };
	const struct cmd_row *obj = find(s, cmd_top, argv[0]), *verb;
	size_t i;

	if (!obj)
		return false;
	for (i = 0; objs[i]; i++)
		if (is(obj, objs[i]))
			return true;
	if (!obj->sub || argc < 2)
		return false;
	verb = find(s, obj->sub, argv[1]);
	if ((is(obj, "sim") && is(verb, "run")) ||
	    (is(obj, "counter") && is(verb, "watch")))
		return true;
	if (is(obj, "series") && is(verb, "export"))
		return true;
	if (is(obj, "export") && argc > 2)	/* to FILE, every I */
		return true;
	if (is(obj, "diag") && is(verb, "export"))
		return true;
	/* `diag ids list|apply ...` only */
	if (is(obj, "diag") && is(verb, "ids") && argc > 2 &&
	    strncmp(argv[2], "list", 4) && strncmp(argv[2], "apply", 5))
		return true;
	/* `dev open sim` or `dev open sim:NAME` only */
	if (is(obj, "dev") && is(verb, "open"))
		return argc < 3 || strncmp(argv[2], "sim", 3) ||
		       (argv[2][3] && argv[2][3] != ':');
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session s;
	struct pcb_err err = { 0 };
	char ***cmds = NULL, *line;
	int *argcs = NULL, ncmd = 0, i, rc;
	bool bad = false;
	unsigned flags;

	if (size < 1 || size > 4096)
		return -1;
	flags = data[0];
	line = fz_text(data + 1, size - 1);
	fz_begin();
	/* the tokenizer alone, and what the dispatcher would be given */
	rc = words_split(line, &cmds, &argcs, &ncmd, &err);
	if (rc) {
		fz_end();
		free(line);
		return 0;
	}
	fz_session(&s, DEVNAME);
	for (i = 0; i < ncmd && !bad; i++) {
		if (!cmds[i] || argcs[i] < 1 || cmds[i][argcs[i]])
			abort();	/* the split's own contract */
		bad = skip(&s, argcs[i], cmds[i]);
	}
	words_free_split(cmds, argcs, ncmd);
	if (!bad) {
		s.adb_path = strdup(adb);
		out_init(&s.out, fz_out(), flags & 0x1, flags & 0x2);
		s.force = flags & 0x4;
		if (flags & 0x8)
			cli_run_line(&s, "set units raw", NULL);
		cli_run_line(&s, line, "fuzz:1");
	}
	sess_release(&s);
	fz_end();
	free(line);
	return 0;
}
