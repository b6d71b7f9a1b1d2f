/* main.c - options, then the REPL, a script, -c commands or stdin. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "cli.h"

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
int main(int argc, char **argv)
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
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dev = "sim", *cmds = NULL, *script = NULL;
	bool json = false, pretty = false;
	struct session s;
	int c, rc = 0;

	LIBXML_TEST_VERSION;
	sess_init(&s, NULL);
	while ((c = getopt_long(argc, argv, "+d:c:x:jpnyhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			dev = optarg;
			break;
		case 'c':
			cmds = optarg;
			break;
		case 'x':
			script = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'p':
			pretty = true;
			break;
		case 'n':
			s.dry_run = true;
			break;
		case 'y':
			s.yes = true;
			break;
		case 'F':
			s.force = true;
			break;
		case 'A':
			free(s.adb_path);
			s.adb_path = strdup(optarg);
			break;
		case 'B':
			if (strcmp(optarg, "sim") && strcmp(optarg, "mstreg") &&
			    strcmp(optarg, "fwctl")) {
				fprintf(stderr, "error: unknown backend '%s' "
					"(sim, mstreg, fwctl)\n", optarg);
				sess_release(&s);
				return 1;
			}
			free(s.backend);
			s.backend = strdup(optarg);
			break;
		case 'M':
			free(s.mstreg_prog);
			s.mstreg_prog = strdup(optarg);
			break;
		case 'T': {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || v < 10 || v > 600000) {
				fprintf(stderr, "error: bad --timeout '%s' (ms, "
					"10..600000)\n", optarg);
				sess_release(&s);
				return 1;
			}
			s.timeout_ms = (int)v;
			break;
		}
		case 'R':
			s.read_only = true;
			break;
		case 'E':
			if (strcmp(optarg, "doca") && strcmp(optarg, "native") &&
			    strcmp(optarg, "none")) {
				fprintf(stderr, "error: unknown telemetry '%s' "
					"(doca, native, none)\n", optarg);
				sess_release(&s);
				return 1;
			}
			free(s.telemetry);
			s.telemetry = strdup(optarg);
			break;
		case 'h':
			usage(stdout);
			sess_release(&s);
			return 0;
		case 'V':
			printf("pccbench %s\n", PCCB_VERSION);
			sess_release(&s);
			return 0;
		default:
			usage(stderr);
			sess_release(&s);
			return 1;
		}
	}
	out_init(&s.out, stdout, json, pretty);
	s.stop = &interrupted;
	catch_signals();
	if (sess_set_device(&s, dev)) {
		cli_print_error(&s, -s.err.code, NULL);
		sess_release(&s);
		return 2;
	}
	if ((cmds != NULL) + (script != NULL) + (optind < argc) > 1) {
		fprintf(stderr, "error: give one of -c, -x or a command\n");
		sess_release(&s);
		return 1;
	}
	if (cmds) {
		rc = cli_run_line(&s, cmds, NULL);
	} else if (script) {
		FILE *fp = strcmp(script, "-") ? fopen(script, "r") : stdin;

		if (!fp) {
			pcb_err_reset(&s.err);
			rc = pcb_error(&s.err, PCB_E_NOENT,
				       "cannot open script '%s'", script);
			cli_print_error(&s, rc, NULL);
		} else {
			rc = cli_run_stream(&s, fp, script);
			if (fp != stdin)
				fclose(fp);
		}
	} else if (optind < argc) {
		rc = cli_run_argv(&s, argc - optind, argv + optind);
		if (rc)
			cli_print_error(&s, rc, NULL);
	} else if (!isatty(STDIN_FILENO)) {
		rc = cli_run_stream(&s, stdin, "<stdin>");
	} else {
		rc = cli_repl(&s);
	}
	sess_release(&s);
	xmlCleanupParser();
	/* a batch run stopped by Ctrl-C or SIGTERM says so the shell way:
	 * 128 + the signal (130, 143) */
	if (interrupted && (cmds || script || optind < argc ||
			    !isatty(STDIN_FILENO)))
		return 128 + interrupted;
	return pcb_exit_code(rc);
}
