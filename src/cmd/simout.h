/* simout.h - what `sim run` writes besides its summary: the fabric's
 * time series, a port trace, a rate trace, a packet capture and the
 * flows file, and `sim show fct`.
 *
 * A run's outputs are parsed all at once (run_out_parse), their files
 * begun before any simulated time (run_out_open: an existing file or a
 * bad path is refused, nothing written), attached to the fabric
 * (run_out_start) and committed or removed together (run_out_finish).
 *
 * Ownership: struct run_out holds the open files between run_out_open
 * and run_out_finish, which always closes them.
 */
#ifndef PCCB_CMD_SIMOUT_H
#define PCCB_CMD_SIMOUT_H

#include "cmd.h"

struct sim;
struct simdev;

enum run_out_kind { RO_SERIES, RO_PORTS, RO_RATES, RO_PCAP, RO_FLOWS,
		    RO_N };

struct run_out {
	struct {
		const char *path;	/* NULL: not asked for */
		const char *list;	/* ports or flows */
		struct pcb_wfile w;
	} o[RO_N];
	int64_t every;		/* ps */
	uint32_t snaplen;
	uint32_t threads;	/* 1, or 2: sim_run_par */
};

#define RUN_OUT_SYNOPSIS "DURATION [every INTERVAL] [trace FILE.csv " \
	"[ports PORTS | rates FLOWS]]... [flows FILE.csv] [pcap FILE.pcap " \
	"ports PORTS [snaplen BYTES]] [threads 1|2]"

/* Their words (simout.c): the parser's, completion's (sim.c). */
extern const struct cmd_kw sim_run_keys[];

/* The words after the duration. */
int run_out_parse(struct session *s, int argc, char **argv,
		  int64_t dur_ps, struct run_out *ro);
int run_out_open(struct session *s, struct run_out *ro);
int run_out_start(struct session *s, struct sim *sim, struct run_out *ro);
/* keep: the run went far enough for its outputs to be worth having
 * (finished, interrupted, or stopped by the watchdog). */
int run_out_finish(struct session *s, struct sim *sim,
		   const struct simdev *d, struct run_out *ro, bool keep);

/* `sim show fct [step PCT]`. */
int sim_show_fct(struct session *s, struct sim *sim, int argc, char **argv);

#endif
