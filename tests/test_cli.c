/* The command language through the real dispatcher on a sim device:
 * bad commands (one clear line, right exit code, nothing written), the
 * help walk over the table, and tokenizer corner cases.
 */
#include "cli.h"
#include "testutil.h"
#include "cmd/complete.h"
#include "words.h"
#include "sim/firmware.h"

struct bad {
	int exitc;
	const char *line;
	const char *needle;	/* must appear in the message */
};

static const struct bad bad_cmds[] = {
	/* unknown object / verb, ambiguity */
	{ 1, "frobnicate", "unknown command 'frobnicate'" },
	{ 1, "algo explode", "algo: unknown verb 'explode'" },
	{ 1, "param frob ALPHA 1", "unknown verb 'frob'" },
	{ 1, "e", "ambiguous command 'e': export, echo, exit" },
	{ 1, "algo d 1", "ambiguous verb 'd': disable, debug" },
	{ 1, "journal x", "unknown verb 'x'" },
	/* arity */
	{ 1, "algo enable", "usage: algo enable SLOT [counters]" },
	{ 1, "algo enable 1 counters extra", "usage: algo enable" },
	{ 1, "algo disable", "usage: algo disable SLOT" },
	{ 1, "algo debug", "usage: algo debug on [keep] [--force] | off [carry|discard]" },
	{ 1, "algo debug maybe", "usage: algo debug on [keep] [--force] | off [carry|discard]" },
	{ 1, "param set ALPHA", "usage: param set" },
	{ 1, "param set", "usage: param set" },
	{ 1, "param get", "usage: param get" },
	{ 1, "param reset", "usage: param reset" },
	{ 1, "param list 1 2", "usage: param list [SLOT]" },
	{ 1, "reg show", "usage: reg show REGISTER" },
	{ 1, "reg encode", "usage: reg encode" },
	{ 1, "sleep", "usage: sleep DURATION" },
	{ 1, "journal show now", "usage: journal show" },
	/* bad slots */
	{ 1, "algo enable 16", "bad slot '16' (0..15)" },
	{ 1, "algo enable -1", "bad slot '-1'" },
	{ 1, "algo disable one", "bad slot 'one'" },
	{ 1, "algo enable 9", "slot 9 is empty" },
	{ 1, "param list 12", "slot 12 is empty" },
	{ 1, "param set slot 99 ALPHA 0.2", "bad slot '99'" },
	{ 1, "param get slot", "'slot' needs a number" },
	{ 1, "algo enable 0 counters", "slot 0 (ZTR_RTT) has no counters" },
	{ 1, "algo enable 1 counter", "unknown word 'counter'" },
	/* unknown params and values */
	{ 1, "param get NOPE", "unknown param 'NOPE'" },
	{ 1, "param set NOPE 1", "unknown param 'NOPE'" },
	{ 1, "param reset NOPE", "unknown param 'NOPE'" },
	{ 1, "param set ALPHA abc", "ALPHA: 'abc' is not a number" },
	{ 1, "param set ALPHA 0.1x", "ALPHA: '0.1x' is not a number" },
	{ 1, "param set ALPHA -0.1", "ALPHA: -0.1 is negative" },
	{ 1, "param set ALPHA 1.5", "ALPHA: 1.5 (raw 98304) is out of range 0..1 (raw 0..65536)" },
	{ 1, "param set ALPHA 1e400", "ALPHA: '1e400' is not a number" },
	{ 1, "param set MAX_DELAY 2ms", "MAX_DELAY: 2000000 ns is out of "
	  "range 1..1048576 ns" },
	{ 1, "param set MAX_DELAY 10furlongs", "unknown unit" },
	{ 1, "param set MAX_DELAY 1.5ns", "not a whole number" },
	{ 1, "param set BW_G 50g", "BW_G: 50 Gb/s is out of range 100..800" },
	{ 1, "param set TX_DEC maybe", "TX_DEC: 'maybe' is not a boolean" },
	{ 1, "param set ALPHA raw 0x1ffffffff", "not a 32-bit unsigned" },
	{ 1, "param set ALPHA raw -5", "not a 32-bit unsigned" },
	{ 1, "param set FIXED_RATE 0.5", "FIXED_RATE is read-only" },
	{ 1, "param reset FIXED_RATE", "FIXED_RATE is read-only" },
	{ 1, "param set ALPHA 0.2 ALPHA 0.3", "ALPHA given twice" },
	/* a bad second param stops the first too: nothing written */
	{ 1, "param set ALPHA 0.2 MAX_DEC 7", "MAX_DEC: 7 (raw 458752) is out of range" },
	{ 1, "param set ALPHA 0.2 BOGUS 1", "unknown param 'BOGUS'" },
	{ 1, "counter show", "counters are not enabled on any slot" },
	{ 1, "counter show 0", "slot 0 (ZTR_RTT) has no counters" },
	/* reg encode/decode */
	{ 1, "reg show NOSUCHREG", "unknown register 'NOSUCHREG'" },
	{ 1, "reg encode PPCC cmd_type", "'cmd_type' is not FIELD=VALUE" },
	{ 1, "reg encode PPCC =5", "'=5' is not FIELD=VALUE" },
	{ 1, "reg encode PPCC a=1=2", "is not FIELD=VALUE" },
	{ 1, "reg encode PPCC bogus=1", "PPCC has no field 'bogus'" },
	{ 1, "reg encode PPCC cmd_type=0x100", "does not fit the 8-bit field" },
	{ 1, "reg encode PPCC cmd_type=-1", "value must be non-negative" },
	{ 1, "reg encode PPCC cmd_type=12z", "'12z' is not a number" },
	{ 1, "reg encode PPCC cmd_type=", "value is missing" },
	{ 1, "reg encode PPCC value=0x100000000", "exceeds 32 bits" },
	{ 1, "reg encode PPCC cmd_type=1,cmd_type=2", "appears twice" },
	{ 1, "reg decode PPCC xyz", "'xyz' is not a hex dword" },
	{ 1, "reg decode PPCC 123456789", "is not a hex dword" },
	/* tokenizer and misc */
	{ 1, "echo 'unterminated", "unterminated ' quote" },
	{ 1, "sleep forever", "bad duration 'forever'" },
	{ 1, "sleep -1s", "bad duration" },
	{ 1, "source /nonexistent/script.pcb", "cannot open" },
	{ 1, "help nothing", "unknown command 'nothing'" },
	{ 1, "help param nothing", "unknown verb 'nothing'" },
	/* telemetry */
	{ 1, "pcc counters 0", "BAD_STATE (slot 0: counters are disabled)" },
	{ 1, "pcc counters 16", "bad slot '16'" },
	{ 2, "pcc counters 7", "DRIVER (slot 7 is empty)" },
	{ 1, "pcc clear 0", "pcc clear: BAD_STATE" },
	{ 1, "pcc show extra", "usage: pcc show" },
	{ 1, "retx config bins 0", "bins must be 1..16, not '0'" },
	{ 1, "retx config bins 4 unit parsec", "unit is nsec (ns), usec (us)" },
	{ 1, "retx config mode triple", "mode is fixed or double" },
	{ 1, "retx config vhca 70000", "vhca must be 0..65535" },
	{ 1, "retx config clear maybe", "clear is on or off" },
	{ 1, "retx config bins", "'bins' needs a value" },
	{ 1, "retx config colour red", "unknown key 'colour'" },
	{ 1, "retx read now", "usage: retx read" },
	{ 1, "diag config period 0s", "bad period '0s'" },
	{ 1, "diag config samples 13", "samples 2^13: NOT_SUPPORTED" },
	{ 1, "diag config mode sometimes", "mode is single, repetitive or" },
	{ 1, "diag config format 3", "format must be 0..2" },
	{ 1, "diag config clear on", "INVALID_VALUE (clear needs sync on" },
	{ 1, "diag config colour red", "unknown key 'colour'" },
	{ 1, "diag config mode single colour", "diag config: unknown key "
	  "'colour' (period, samples, ids, mode, format, sync, clear, "
	  "timestamp, force)" },
	{ 1, "retx config colour red", "retx config: unknown key 'colour' "
	  "(bins, bin0, bin1, mode, unit, vhca, clear, count)" },
	{ 1, "diag config period", "'period' needs a value" },
	{ 1, "diag ids apply nothing_here", "'nothing_here' is no data ID" },
	{ 1, "diag ids apply port_0_rx_bytes", "BAD_STATE (no configuration" },
	{ 1, "diag ids frob", "usage: diag ids" },
	{ 1, "diag check port_0_rx_bytes", "diag check: BAD_STATE" },
	{ 1, "diag check port_0_bogus", "'port_0_bogus' is no data ID" },
	{ 1, "diag start", "diag start: BAD_STATE (no configuration" },
	{ 1, "diag stop", "diag stop: BAD_STATE" },
	{ 1, "diag restart", "diag restart: BAD_STATE" },
	{ 1, "diag read", "diag read: BAD_STATE (not running" },
	{ 1, "diag read 0", "bad sample count '0'" },
	{ 1, "diag advise period 100us", "usage: diag advise" },
	{ 1, "diag advise period 1fortnight poll 1s", "bad period" },
	{ 1, "diag ids import /nonexistent/ids.json", "does not exist" },
	{ 1, "set units kelvin", "usage: set units raw|real" },
	{ 1, "set units", "usage: set units raw|real" },
	{ 1, "record for 1ms", "usage: record for DURATION" },
	{ 1, "record for 1ms every 2ms", "intervals (1 to 1000000)" },
	{ 1, "record for 1ms every 1fortnight", "record: bad duration '1fortnight'" },
	{ 1, "record for 20 every 1ms", "record: 20 what? write 20ms" },
	{ 1, "sim run 20", "sim run: 20 what? write 20ms (or 20us, 20s)" },
	{ 1, "param set MAX_DELAY 200", "MAX_DELAY: 200 needs a unit: write 200ns or 200us" },
	{ 1, "param set BW_G 400 us", "BW_G: 400 needs a unit: write 400g or 400Gb/s" },
	{ 1, "record for 1ms every 100us into a/b", "bad series name 'a/b'" },
	{ 1, "record for 1ms every 100us colour red", "usage: record for" },
	{ 1, "corr", "usage: corr" },
	{ 1, "corr x y", "usage: corr NAME [X Y" },
	{ 1, "corr x y z lag -1", "usage: corr NAME X Y [lag MAX]" },
	{ 1, "series show nothing_here", "no series 'nothing_here'" },
	{ 1, "series drop nothing_here", "no series 'nothing_here'" },
	{ 1, "plot", "usage: plot NAME" },
	{ 1, "plot nothing_here", "no series 'nothing_here'" },
};

static char errbuf[8192];

/* Run a line: its errors into errbuf, its output into buf (len bytes),
 * or nowhere when buf is NULL.
 */
static int run_out(struct session *s, const char *line, char *buf, size_t len)
{
	return tu_run_line(s, line, buf, len, errbuf, sizeof(errbuf));
}

static int run(struct session *s, const char *line)
{
	return run_out(s, line, NULL, 0);
}

/* A compile-time fact, checked at compile time. */
_Static_assert(sizeof(bad_cmds) / sizeof(bad_cmds[0]) >= 40,
	       "the bad-command table covers every command object");

static void test_bad_commands(void **state)
{
	struct session s;
	struct simfw *fw = NULL;
	uint32_t gen;
	size_t i;

	(void)state;
	sess_init(&s, "sim:badcmds");
	assert_int_equal(sess_device(&s), 0);
	fw = simfw_of(s.cur->dev);
	gen = simfw_generation(fw);
	for (i = 0; i < sizeof(bad_cmds) / sizeof(bad_cmds[0]); i++) {
		const struct bad *b = &bad_cmds[i];
		unsigned long sets = s.cur->dev->n_set;
		int rc = run(&s, b->line);
		char *nl;

		if (pcb_exit_code(rc) != b->exitc || !strstr(errbuf, b->needle))
			fail_msg("'%s': exit %d (want %d), message '%s' "
				 "(want '%s')", b->line, pcb_exit_code(rc),
				 b->exitc, errbuf, b->needle);
		/* exactly one line, starting with "error: " */
		assert_true(!strncmp(errbuf, "error: ", 7));
		nl = strchr(errbuf, '\n');
		assert_non_null(nl);
		assert_int_equal(nl[1], '\0');
		/* no register write, no state change */
		assert_int_equal(s.cur->dev->n_set, sets);
		assert_int_equal(simfw_generation(fw), gen);
		assert_int_equal(journal_count(s.cur->journal), 0);
	}
	sess_release(&s);
}

/* Every row has help; every verb with a fixed arity rejects one word too
 * many; `OBJ VERB --help` prints the row's synopsis.
 */
static void test_help_walk(void **state)
{
	const struct cmd_row *o, *v;
	struct session s;
	char line[256];

	(void)state;
	sess_init(&s, "sim:helpwalk");
	for (o = cmd_top; o->name; o++) {
		assert_non_null(o->help);
		assert_true(strlen(o->help) > 8);
		snprintf(line, sizeof(line), "help %s", o->name);
		assert_int_equal(run(&s, line), 0);
		for (v = o->sub; v && v->name; v++) {
			char extra[256] = "";
			int k;

			assert_non_null(v->help);
			assert_true(v->args || v->keys);	/* a synopsis */
			assert_non_null(v->example);
			assert_non_null(v->fn);
			assert_true(!strncmp(v->example, o->name,
					     strlen(o->name)));
			snprintf(line, sizeof(line), "%s %s --help", o->name,
				 v->name);
			assert_int_equal(run(&s, line), 0);
			if (v->max_args < 0)
				continue;
			for (k = 0; k <= v->max_args; k++)
				strncat(extra, " 1", sizeof(extra) -
					strlen(extra) - 1);
			snprintf(line, sizeof(line), "%s %s%s", o->name,
				 v->name, extra);
			assert_int_equal(pcb_exit_code(run(&s, line)), 1);
			assert_non_null(strstr(errbuf, "usage: "));
		}
	}
	sess_release(&s);
}

/* The dispatcher acts on the rows' flags: in a read-only session every
 * row that may write the device (CMD_WRITES) is refused before it runs,
 * its own example included, and nothing reaches the device; a dry run
 * and the rows that only read still run.
 */
static void test_read_only_rows(void **state)
{
	static const char *const readers[] = {
		"algo list", "param list", "param get ALPHA", "counter show",
		"journal show", "pcc show", "dev show", "retx caps",
	};
	const struct cmd_row *o, *v;
	struct session s;
	size_t i, nw = 0;

	(void)state;
	sess_init(&s, "sim:readonly");
	assert_int_equal(run(&s, "algo debug on"), 0);
	sess_release(&s);
	sess_init(&s, "sim:readonly");
	s.read_only = true;
	assert_int_equal(sess_device(&s), 0);
	for (o = cmd_top; o->name; o++)
		for (v = o->sub; v && v->name; v++) {
			if (!(v->flags & CMD_WRITES))
				continue;
			nw++;
			if (pcb_exit_code(run(&s, v->example)) != 1 ||
			    !strstr(errbuf, "read-only session"))
				fail_msg("'%s' ran in a read-only session: %s",
					 v->example, errbuf);
		}
	assert_true(nw >= 10);
	assert_int_equal(s.cur->dev->n_set, 0);
	for (i = 0; i < sizeof(readers) / sizeof(readers[0]); i++)
		if (run(&s, readers[i]))
			fail_msg("'%s' refused: %s", readers[i], errbuf);
	s.dry_run = true;
	assert_int_equal(run(&s, "param set ALPHA 0.3"), 0);
	assert_int_equal(s.cur->dev->n_set, 0);
	sess_release(&s);
}

static void test_split(void **state)
{
	struct pcb_err err = { 0 };
	char ***cmds;
	int *argcs, n;

	(void)state;
	assert_int_equal(words_split("a 'b c' \"d\\\"e\"; f # g; h", &cmds,
				   &argcs, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(argcs[0], 3);
	assert_string_equal(cmds[0][1], "b c");
	assert_string_equal(cmds[0][2], "d\"e");
	assert_string_equal(cmds[1][0], "f");
	words_free_split(cmds, argcs, n);
	assert_int_equal(words_split("  ;; # only a comment", &cmds, &argcs,
				   &n, &err), 0);
	assert_int_equal(n, 0);
	words_free_split(cmds, argcs, n);
	assert_int_equal(words_split("x ''", &cmds, &argcs, &n, &err), 0);
	assert_int_equal(argcs[0], 2);
	assert_string_equal(cmds[0][1], "");
	words_free_split(cmds, argcs, n);
}

/* Prefixes that are unique work. */
/* A unique prefix runs the very command it abbreviates (the same output
 * as the full words); an ambiguous one runs nothing.
 */
static void test_prefixes(void **state)
{
	static const char *const pairs[][2] = {
		{ "al l", "algo list" },
		{ "par g ALPHA", "param get ALPHA" },
		{ "j s", "journal show" },
		{ "cou s 1", "counter show 1" },
	};
	static char a[16384], b[16384];
	struct session s;
	size_t i;

	(void)state;
	sess_init(&s, "sim:prefix");
	assert_int_equal(run(&s, "algo debug on"), 0);
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		assert_int_equal(run_out(&s, pairs[i][1], b, sizeof(b)), 0);
		assert_int_equal(run_out(&s, pairs[i][0], a, sizeof(a)), 0);
		assert_true(strlen(b) > 0);
		if (strcmp(a, b))
			fail_msg("'%s' printed\n%s\nbut '%s'\n%s", pairs[i][0],
				 a, pairs[i][1], b);
	}
	/* "s" could be sim, sleep, series, sweep, ... */
	assert_int_not_equal(run(&s, "s"), 0);
	assert_non_null(strstr(errbuf, "ambiguous"));
	sess_release(&s);
}

/* Completion walks the same rows and keyword tables as the parser:
 * each line (its words complete, the cursor after them) must offer the
 * `want` words and none of `not`, or file names.
 */
struct compl {
	const char *line;
	const char *want;	/* space separated */
	const char *not;
	int files;		/* 1: file names instead */
	char append;		/* ' ' or ',' */
};

static const struct compl compls[] = {
	{ "", "algo param sweep record help", "run", 0, ' ' },
	{ "par", "list get set reset", "record", 0, ' ' },
	{ "param set", "ALPHA slot --unchecked raw", "all", 0, ' ' },
	{ "param reset", "ALPHA all", "raw", 0, ' ' },
	{ "param get slot", "0", "ALPHA", 0, ' ' },
	{ "algo debug", "on off", "0", 0, ' ' },
	{ "algo enable", "0", "counters", 0, ' ' },
	{ "algo enable 1", "counters", "0", 0, ' ' },
	{ "counter show", "host", "ALPHA", 0, ' ' },
	{ "dev open", "sim", "", 0, ' ' },
	{ "reg show", "PPCC", "", 0, ' ' },
	{ "help", "sweep record", "", 0, ' ' },
	{ "help sweep", "run show plot", "record", 0, ' ' },
	{ "record", "for every into replace clear ids prio while", "", 0,
	  ' ' },
	{ "record for 1ms every", "", "for", 0, ' ' },
	{ "record for 1ms replace", "every ids", "", 0, ' ' },
	{ "record clear", "on off", "for", 0, ' ' },
	{ "record prio", "0 3 7", "8", 0, ' ' },
	{ "record ids", "port_0_rx_bytes", "for", 0, ',' },
	{ "record ids port_0_rx_bytes,", "port_0_tx_bytes", "for", 0, ',' },
	{ "record for 1ms while", "", "", 1, ' ' },
	{ "watch", "every for prio", "while", 0, ' ' },
	{ "diag config", "period mode force timestamp", "bins", 0, ' ' },
	{ "diag config mode", "single repetitive on_demand", "period", 0,
	  ' ' },
	{ "diag config force timestamp", "frc rtc", "", 0, ' ' },
	{ "diag ids", "list apply import export", "", 0, ' ' },
	{ "diag ids import", "", "", 1, ' ' },
	{ "diag export", "", "", 1, ' ' },
	{ "diag advise period 1ms", "poll spike", "period_x", 0, ' ' },
	{ "retx config", "bins unit vhca", "period", 0, ' ' },
	{ "retx config unit", "nsec usec_100 msec", "bins", 0, ' ' },
	{ "sim scenario", "incast", "senders", 0, ' ' },
	{ "sim scenario incast", "senders rate", "incast", 0, ' ' },
	{ "sim run 1ms", "trace every", "", 0, ' ' },
	{ "sim run 1ms trace", "", "", 1, ' ' },
	{ "sim model", "target dcqcn", "", 0, ' ' },
	{ "sim model dcqcn", "hai alpha", "target", 0, ' ' },
	{ "sim model dcqcn hai", "fixed growing", "", 0, ' ' },
	{ "sweep", "run show ALPHA", "for", 0, ' ' },
	{ "sweep ALPHA 0.1,0.2", "for measure ALPHA", "", 0, ' ' },
	{ "sweep run ALPHA 0.1,0.2 measure", "util queue_p99", "for", 0,
	  ',' },
	{ "sweep ALPHA 0.1,0.2 scenario", "incast", "for", 0, ' ' },
	{ "sweep ALPHA 0.1,0.2 plot", "", "", 1, ' ' },
	{ "sweep show x", "best", "", 0, ' ' },
	{ "sweep show x best", "min max", "", 0, ' ' },
	{ "sweep plot x to", "", "", 1, ' ' },
	{ "series export x", "", "", 1, ' ' },
	{ "plot cmpl", "avg_rtt to title hist", "", 0, ' ' },
	{ "plot cmpl avg_rtt to", "", "", 1, ' ' },
	{ "corr cmpl", "avg_rtt lag", "title", 0, ' ' },
	{ "source", "", "", 1, ' ' },
	{ "frobnicate", "", "algo", 0, ' ' },
};

static bool has_cand(const struct cands *c, const char *w, size_t len)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strlen(c->v[i]) == len && !strncmp(c->v[i], w, len))
			return true;
	return false;
}

static void test_complete(void **state)
{
	struct session s;
	size_t i;

	(void)state;
	sess_init(&s, "sim:compl");
	assert_int_equal(run(&s, "record for 1ms every 100us into cmpl"), 0);
	for (i = 0; i < sizeof(compls) / sizeof(compls[0]); i++) {
		const struct compl *t = &compls[i];
		struct cands c = { .append = ' ' };
		char line[256], *words[32], *save = NULL, *w;
		const char *p;
		int n = 0;
		bool more;

		snprintf(line, sizeof(line), "%s", t->line);
		for (w = strtok_r(line, " ", &save); w;
		     w = strtok_r(NULL, " ", &save))
			words[n++] = w;
		more = cli_complete(&s, words, n, &c);
		if (more != !t->files)
			fail_msg("'%s': %s", t->line, t->files ?
				 "no file names" : "file names");
		if (c.append != t->append)
			fail_msg("'%s': appends '%c'", t->line, c.append);
		for (p = t->want; *p; p += strspn(p, " ")) {
			size_t l = strcspn(p, " ");

			if (!has_cand(&c, p, l))
				fail_msg("'%s': no '%.*s' (%zu candidates)",
					 t->line, (int)l, p, c.n);
			p += l;
		}
		for (p = t->not; *p; p += strspn(p, " ")) {
			size_t l = strcspn(p, " ");

			if (has_cand(&c, p, l))
				fail_msg("'%s': offers '%.*s'", t->line,
					 (int)l, p);
			p += l;
		}
		assert_int_equal(s.err.code, 0);	/* completion keeps it */
		cands_free(&c);
	}
	sess_release(&s);
}

/* Issue 37.3: firmware with SLs 0-7 only, and firmware without per-SL
 * state (sl_bitmask_support 0, enable status's sl_bitmask 0 whatever the
 * enable bit says): enable, disable, debug on/off, counters and journal
 * restore all work, checked by the enable bit, and say so.
 */
static void test_sl_models(void **state)
{
	static const char *const names[] = { "sim:sl8", "sim:slnone",
					      "sim:slstale" };
	static const enum simfw_sl_model models[] = {
		SIMFW_SL_8, SIMFW_SL_NONE, SIMFW_SL_STALE };
	static const char *const said[] = {	/* at the first enable */
		"warning: slot 2: enabled on all SLs, the device reports SLs "
		"0-7: taken as every SL it has (its enable bit is set)\n",
		"warning: sim:slnone: no per-SL state (sl_bitmask_support 0): "
		"enable and disable checked by the enable bit\n",
		"warning: sim:slstale: its sl_bitmask does not follow the "
		"enable bit: enable and disable checked by the enable bit\n",
	};
	static const char *const lines[] = {
		"algo enable 2", "algo disable 2", "algo debug on",
		"counter show", "algo debug off", "algo enable 2 counters",
		"journal restore",
	};
	char out[8192];
	size_t k, i;

	(void)state;
	for (k = 0; k < 3; k++) {
		struct session s;
		bool en, cen;

		sess_init(&s, names[k]);
		assert_int_equal(sess_device(&s), 0);
		assert_int_equal(simfw_set_sl_model(simfw_of(s.cur->dev),
						    models[k]), 0);
		for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
			if (run_out(&s, lines[i], out, sizeof(out)))
				fail_msg("%s: '%s': %s", names[k], lines[i],
					 errbuf);
			else if (!i)
				assert_string_equal(errbuf, said[k]);
		/* restored: slot 2 off, slot 0 on and active */
		assert_int_equal(ppcc_enable_status(&s.cur->ppcc, 2, &en, &cen,
						    &s.err), 0);
		assert_false(en || cen);
		assert_int_equal(ppcc_enable_status(&s.cur->ppcc, 0, &en, NULL,
						    &s.err), 0);
		assert_true(en);
		assert_int_equal(ppcc_enable_status(&s.cur->ppcc, 1, &en, NULL,
						    &s.err), 0);
		assert_false(en);
		sess_release(&s);
	}
}

/* Issue 37.4 and 37.5: a param write sends counter_en and trace_en as the
 * slot has them (someone's trace, the debug counters); `algo enable N`
 * on a counting slot turns its counters off; the dry run prints exactly
 * the writes the run makes (none where there is nothing to do).
 */
static void test_writes_keep(void **state)
{
	struct session s;
	struct ppcc_status st;
	char out[8192];

	(void)state;
	sess_init(&s, "sim:keep");
	assert_int_equal(sess_device(&s), 0);
	assert_int_equal(run(&s, "algo debug on"), 0);
	s.cur->ppcc.keep_trace = 1;	/* another tool's trace on slot 1 */
	assert_int_equal(ppcc_enable(&s.cur->ppcc, 1, true, &s.err), 0);
	s.dry_run = true;
	assert_int_equal(run_out(&s, "param set slot 1 ALPHA 0.3", out,
				 sizeof(out)), 0);
	assert_non_null(strstr(out, "--op cmd_type=8 --set value=19661,"
			       "sl_bitmask=65535,counter_en=1,trace_en=1 "));
	s.dry_run = false;
	assert_int_equal(run(&s, "param set slot 1 ALPHA 0.3"), 0);
	assert_string_equal(errbuf, "");
	assert_int_equal(ppcc_status(&s.cur->ppcc, 1, &st, &s.err), 0);
	assert_true(st.enabled && st.counter_en && st.trace_en);
	/* enable without counters: counters off, trace kept */
	s.dry_run = true;
	assert_int_equal(run_out(&s, "algo enable 1", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "--op cmd_type=1 --set value=0,"
			       "sl_bitmask=65535,counter_en=0,trace_en=1 "));
	s.dry_run = false;
	assert_int_equal(run(&s, "algo enable 1"), 0);
	assert_int_equal(ppcc_status(&s.cur->ppcc, 1, &st, &s.err), 0);
	assert_true(st.enabled && !st.counter_en && st.trace_en);
	/* nothing to do: the dry run prints no write */
	s.dry_run = true;
	assert_int_equal(run_out(&s, "algo enable 1", out, sizeof(out)), 0);
	assert_null(strstr(out, "mstreg"));
	s.dry_run = false;
	sess_release(&s);
}

/* Issue 37.13: BW_G is the device's (auto-configured from the link
 * speed): `param reset all`, a profile and a bulk set leave it alone;
 * naming it writes it.
 */
static void test_bw_g_kept(void **state)
{
	struct session s;
	unsigned long sets;
	uint32_t v;

	(void)state;
	sess_init(&s, "sim:bwg");
	assert_int_equal(sess_device(&s), 0);
	assert_int_equal(run(&s, "profile save p400"), 0);
	/* the port came up at 200G: the device set BW_G */
	assert_int_equal(ppcc_param_set(&s.cur->ppcc, 0, 0, 200, &s.err), 0);
	assert_int_equal(run(&s, "param reset all"), 0);
	assert_int_equal(ppcc_param_get(&s.cur->ppcc, 0, 0, &v, &s.err), 0);
	assert_int_equal(v, 200);
	assert_int_equal(run(&s, "param set ALPHA 0.3 MAX_DEC 0.5"), 0);
	assert_int_equal(run(&s, "param set ALPHA 0.2 MAX_DEC 0.4"), 0);
	sets = s.cur->dev->n_set;	/* one set each, no bulk set of BW_G */
	assert_int_equal(run(&s, "param set ALPHA 0.3 MAX_DEC 0.5"), 0);
	assert_int_equal(s.cur->dev->n_set - sets, 2);
	assert_int_equal(run(&s, "profile apply p400"), 0);
	assert_non_null(strstr(errbuf, "warning: profile: slot 0 BW_G is set "
			       "by the device from the link speed; the "
			       "profile's value is not written"));
	assert_int_equal(ppcc_param_get(&s.cur->ppcc, 0, 0, &v, &s.err), 0);
	assert_int_equal(v, 200);
	/* named, it is written (one bulk set: BW_G is among them) */
	sets = s.cur->dev->n_set;
	assert_int_equal(run(&s, "param set BW_G 400g ALPHA 0.2"), 0);
	assert_int_equal(s.cur->dev->n_set - sets, 1);
	assert_int_equal(ppcc_param_get(&s.cur->ppcc, 0, 0, &v, &s.err), 0);
	assert_int_equal(v, 400);
	sess_release(&s);
}

/* Every row's keyword table: each word has something done with it (a
 * setter, a destination or its parser's id), a value word says its value
 * in the synopsis, no word twice; the row's synopsis (usage, help) and
 * completion both show every word.
 */
static void check_keys(struct session *s, const char *obj,
		       const struct cmd_row *r)
{
	const struct cmd_kw *k, *j;
	char syn[600], pad[620];
	struct cands c = { 0 };

	cmd_synopsis(r, syn, sizeof(syn));
	snprintf(pad, sizeof(pad), " %s ", syn);
	assert_true(cand_keywords(s, r->keys, 0, NULL, 0, &c));
	for (k = r->keys; k->name; k++) {
		char w[64], b[64];

		for (j = r->keys; j < k; j++)
			if (!strcmp(j->name, k->name))
				fail_msg("%s %s: '%s' twice", obj, r->name,
					 k->name);
		if (!k->set && k->dest == KW_D_NONE && !k->id)
			fail_msg("%s %s: nothing takes '%s'", obj, r->name,
				 k->name);
		if (!cmd_kw_alone(k) && !k->arg && !k->vals)
			fail_msg("%s %s: '%s' takes a value the synopsis does "
				 "not name", obj, r->name, k->name);
		if (k->flags & KW_HIDDEN)
			continue;
		snprintf(w, sizeof(w), " %s ", k->name);
		snprintf(b, sizeof(b), "[%s", k->name);
		if (!strstr(pad, w) && !strstr(pad, b))
			fail_msg("%s %s: '%s' not in the synopsis '%s'", obj,
				 r->name, k->name, syn);
		if (!has_cand(&c, k->name, strlen(k->name)))
			fail_msg("%s %s: completion does not offer '%s'", obj,
				 r->name, k->name);
	}
	cands_free(&c);
}

static void test_keyword_tables(void **state)
{
	const struct cmd_row *o, *v;
	struct session s;
	int n = 0;

	(void)state;
	sess_init(&s, "sim:kw");
	for (o = cmd_top; o->name; o++) {
		if (o->keys && ++n)
			check_keys(&s, o->name, o);
		for (v = o->sub; v && v->name; v++)
			if (v->keys && ++n)
				check_keys(&s, o->name, v);
	}
	assert_true(n >= 16);	/* the walk reached the tables */
	sess_release(&s);
}

/* cmd_kw_parse: setters and destinations fill the request; it stops at
 * a word that is no key or a key without its value, and on a setter's
 * error with *at on its key.
 */
struct kwreq {
	int n;
	bool flag;
	const char *str;
};

static int set_n(struct session *s, void *req, const struct cmd_kw *k,
		 const char *val)
{
	char *end;
	long x = strtol(val, &end, 10);

	if (*end || x < 0)
		return pcb_error(&s->err, PCB_E_INVAL, "%s: bad '%s'", k->name,
				 val);
	((struct kwreq *)req)->n = (int)x;
	return 0;
}

static const struct cmd_kw kwt[] = {
	{ .name = "n", .arg = "N", .set = set_n, .flags = KW_REQ },
	{ .name = "flag", .dest = KW_D_FLAG, .off = offsetof(struct kwreq,
							     flag) },
	{ .name = "str", .arg = "S", .dest = KW_D_STR,
	  .off = offsetof(struct kwreq, str) },
	{ .name = "mode", .vals = "on, off, 0 1" },
	{ .name = "old", .arg = "S", .flags = KW_HIDDEN, .id = 1 },
	{ 0 }
};

static void test_kw_parse(void **state)
{
	char *w1[] = { "n", "3", "flag", "str", "x", "n", "4", "junk" };
	char *w2[] = { "str", "a", "n" };
	char *w3[] = { "flag", "n", "-1", "str", "b" };
	struct session s;
	struct kwreq q = { 0 };
	char buf[200];
	int at;

	(void)state;
	sess_init(&s, "sim:kw");
	assert_int_equal(cmd_kw_parse(&s, kwt, &q, 8, w1, &at), 0);
	assert_int_equal(at, 7);	/* junk */
	assert_int_equal(q.n, 4);	/* the last wins */
	assert_true(q.flag);
	assert_string_equal(q.str, "x");
	memset(&q, 0, sizeof(q));
	assert_int_equal(cmd_kw_parse(&s, kwt, &q, 3, w2, &at), 0);
	assert_int_equal(at, 2);	/* n without its value */
	assert_string_equal(q.str, "a");
	memset(&q, 0, sizeof(q));
	assert_int_equal(cmd_kw_parse(&s, kwt, &q, 5, w3, &at), -PCB_E_INVAL);
	assert_int_equal(at, 1);
	assert_string_equal(s.err.msg, "n: bad '-1'");
	assert_null(q.str);		/* nothing after the error */
	pcb_err_reset(&s.err);
	assert_int_equal(cmd_kw_val(&kwt[3], "off"), 1);
	assert_int_equal(cmd_kw_val(&kwt[3], "1"), 3);
	assert_int_equal(cmd_kw_val(&kwt[3], "of"), -1);
	assert_string_equal(cmd_kw_synopsis(kwt, buf, sizeof(buf)),
			    "n N [flag] [str S] [mode on|off|0 1]");
	assert_string_equal(cmd_kw_names(kwt, buf, sizeof(buf)),
			    "n, flag, str, mode");
	assert_non_null(cmd_kw_find(kwt, "old"));	/* accepted */
	sess_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_commands),
		cmocka_unit_test(test_help_walk),
		cmocka_unit_test(test_read_only_rows),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_complete),
		cmocka_unit_test(test_sl_models),
		cmocka_unit_test(test_writes_keep),
		cmocka_unit_test(test_bw_g_kept),
		cmocka_unit_test(test_keyword_tables),
		cmocka_unit_test(test_kw_parse),
	};

	tu_private_state();
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
