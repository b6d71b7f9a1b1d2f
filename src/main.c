/* main.c - options, then the REPL, a script, -c commands or stdin. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "cli.h"
#include "fwctl.h"

/* The one global: the number of SIGINT/SIGTERM when one came, polled by
 * long commands (the REPL tells them apart at its prompt).
 */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

/* No SA_RESTART: a blocking read or sleep returns so the command can stop. */
static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void usage(FILE *fp)
{
	fputs("usage: pccbench [options] [COMMAND...]\n"
	      "  -d, --device DEV   sim (default), sim:NAME, 0000:08:00.0,\n"
	      "                     pci/0000:08:00.0, mlx5_0, mlx5_0/1, a netdev\n"
	      "      --backend B    sim, mstreg or fwctl (default: sim for sim\n"
	      "                     devices, fwctl where the kernel has a node,\n"
	      "                     else mstreg)\n"
	      "      --mstreg PATH  mstflint's mstreg or MFT's mlxreg\n"
	      "      --timeout MS   for each mstreg run (default 10000)\n"
	      "      --read-only    refuse every register write\n"
	      "      --fwctl-scope S  configuration (default), debug-write or\n"
	      "                     debug-write-full: the widest fwctl scope a\n"
	      "                     write may use (the debug ones taint the\n"
	      "                     kernel)\n"
	      "      --telemetry T  doca, native or none: who serves diag,\n"
	      "                     retx and pcc on a real NIC (default: DOCA\n"
	      "                     for diag and retx where installed, PPCC\n"
	      "                     for pcc)\n"
	      "  -c CMDS            run 'CMD; CMD' and exit\n"
	      "  -x, --script FILE  run a script (FILE:LINE on errors)\n"
	      "  -j, --json         JSON output; -p, --pretty: indented JSON\n"
	      "  -n, --dry-run      print the mstreg command lines, write "
	      "nothing\n"
	      "  -y, --yes          answer yes to confirmations\n"
	      "      --force        go on after errors in scripts\n"
	      "      --adb FILE     ADB register database for 'reg'\n"
	      "  -V, --version      print the version\n"
	      "Without -c, -x or a COMMAND: the REPL when stdin is a terminal,\n"
	      "else commands are read from stdin.  'help' lists commands.\n"
	      "Exit: 0 ok, 1 bad input, 2 device or backend error.\n", fp);
}

/* Long by design: getopt_long's one case per option, then the choice
 * between -c, -x, a COMMAND, the REPL and stdin.
 */
/* What the command line asks for besides the session's options. */
struct opts {
	const char *dev, *cmds, *script;
	bool json, pretty;
};

/* One of the words an option takes, or an error line. */
static bool one_of(const char *what, const char *v, const char *const *ok)
{
	size_t i;

	for (i = 0; ok[i]; i++)
		if (!strcmp(v, ok[i]))
			return true;
	fprintf(stderr, "error: unknown %s '%s' (", what, v);
	for (i = 0; ok[i]; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", ok[i]);
	fputs(")\n", stderr);
	return false;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = strdup(v);
}

/* The options into o and the session; -1: go on, else the exit code. */
static int parse_opts(int argc, char **argv, struct session *s,
		      struct opts *o)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "script", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "yes", no_argument, NULL, 'y' },
		{ "force", no_argument, NULL, 'F' },
		{ "adb", required_argument, NULL, 'A' },
		{ "backend", required_argument, NULL, 'B' },
		{ "mstreg", required_argument, NULL, 'M' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "read-only", no_argument, NULL, 'R' },
		{ "telemetry", required_argument, NULL, 'E' },
		{ "fwctl-scope", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const backends[] = { "sim", "mstreg", "fwctl",
						NULL };
	static const char *const tels[] = { "doca", "native", "none", NULL };
	/* FWCTL_RPC_CONFIGURATION, DEBUG_WRITE, DEBUG_WRITE_FULL */
	static const char *const scopes[] = { "configuration", "debug-write",
					      "debug-write-full", NULL };
	char *end;
	long v;
	int c;

	while ((c = getopt_long(argc, argv, "+d:c:x:jpnyhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			o->dev = optarg;
			break;
		case 'c':
			o->cmds = optarg;
			break;
		case 'x':
			o->script = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'p':
			o->pretty = true;
			break;
		case 'n':
			s->dry_run = true;
			break;
		case 'y':
			s->yes = true;
			break;
		case 'F':
			s->force = true;
			break;
		case 'R':
			s->read_only = true;
			break;
		case 'A':
			set_str(&s->adb_path, optarg);
			break;
		case 'M':
			set_str(&s->opt.mstreg_prog, optarg);
			break;
		case 'B':
			if (!one_of("backend", optarg, backends))
				return 1;
			set_str(&s->opt.backend, optarg);
			break;
		case 'E':
			if (!one_of("telemetry", optarg, tels))
				return 1;
			set_str(&s->opt.telemetry, optarg);
			break;
		case 'S':
			if (!one_of("fwctl-scope", optarg, scopes))
				return 1;
			s->opt.fwctl_scope = !strcmp(optarg, "configuration") ?
					 FWCTL_RPC_CONFIGURATION :
					 !strcmp(optarg, "debug-write") ?
					 FWCTL_RPC_DEBUG_WRITE :
					 FWCTL_RPC_DEBUG_WRITE_FULL;
			break;
		case 'T':
			v = strtol(optarg, &end, 10);
			if (*end || v < 10 || v > 600000) {
				fprintf(stderr, "error: bad --timeout '%s' (ms, "
					"10..600000)\n", optarg);
				return 1;
			}
			s->opt.timeout_ms = (int)v;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("pccbench %s\n", PCCB_VERSION);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	return -1;
}

/* The commands: -c, -x, the words after the options, stdin, or the
 * REPL.  Returns the last command's code.
 */
static int run_mode(struct session *s, const struct opts *o, int argc,
		    char **argv)
{
	FILE *fp;
	int rc;

	if (o->cmds)
		return cli_run_line(s, o->cmds, NULL);
	if (o->script) {
		fp = strcmp(o->script, "-") ? fopen(o->script, "r") : stdin;
		if (!fp) {
			pcb_err_reset(&s->err);
			rc = pcb_error(&s->err, PCB_E_NOENT, "cannot open "
				       "script '%s'", o->script);
			cli_print_error(s, rc, NULL);
			return rc;
		}
		rc = cli_run_stream(s, fp, o->script);
		if (fp != stdin)
			fclose(fp);
		return rc;
	}
	if (optind < argc) {
		rc = cli_run_argv(s, argc - optind, argv + optind);
		if (rc)
			cli_print_error(s, rc, NULL);
		return rc;
	}
	if (!isatty(STDIN_FILENO))
		return cli_run_stream(s, stdin, "<stdin>");
	return cli_repl(s);
}

int main(int argc, char **argv)
{
	struct opts o = { .dev = "sim" };
	struct session s;
	int rc;

	LIBXML_TEST_VERSION;
	sess_init(&s, NULL);
	rc = parse_opts(argc, argv, &s, &o);
	if (rc >= 0) {
		sess_release(&s);
		return rc;
	}
	out_init(&s.out, stdout, o.json, o.pretty);
	s.opt.stop = &interrupted;
	catch_signals();
	if (sess_set_device(&s, o.dev)) {
		cli_print_error(&s, -s.err.code, NULL);
		sess_release(&s);
		return 2;
	}
	if ((o.cmds != NULL) + (o.script != NULL) + (optind < argc) > 1) {
		fprintf(stderr, "error: give one of -c, -x or a command\n");
		sess_release(&s);
		return 1;
	}
	rc = run_mode(&s, &o, argc, argv);
	sess_release(&s);
	xmlCleanupParser();
	/* a batch run stopped by Ctrl-C or SIGTERM says so the shell way:
	 * 128 + the signal (130, 143) */
	if (interrupted && (o.cmds || o.script || optind < argc ||
			    !isatty(STDIN_FILENO)))
		return 128 + interrupted;
	if (rc && s.detailed_exit)	/* 2 is "changed" there */
		return 1;
	return rc ? pcb_exit_code(rc) : s.status;
}
