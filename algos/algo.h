/* algo.h - the interface every congestion-control model implements.
 *
 * The simulator runs one instance per QP.  Arithmetic mirrors the NIC's DPA:
 * rates are fxp20 fractions of line rate (1 << 20 = line rate, FAST_SCHED
 * may allow more), multiplicative factors are fxp16 and multiplied as
 * (a * b) >> 16 on 64 bits, time is integer nanoseconds.  No floating point
 * in the event path, no wall clock, no globals: everything lives in the
 * per-QP state (qp_state_size bytes aligned for any type, i.e. to
 * max_align_t, zeroed by the caller before init) and
 * the per-port struct algo_port, so a run is a pure function of its events.
 *
 * Counters are the algorithm's PPCC counter table (one set per port, as on
 * the NIC): 32-bit, wrapping at counter_max, updated only while counters
 * are enabled (counter_en).  Model options tune the parts of a model that
 * are a reconstruction (ZTR-RTT's lost formulas); they are not firmware
 * parameters and never go to a device.
 *
 * How to add an algorithm: algos/NAME/algo.xml (descriptor), algos/NAME/
 * NAME.c exporting `const struct algo_ops NAME_ops`, and one line in
 * algo_registry[] (registry.c).  The descriptor test checks that the
 * descriptor and the ops table list the same params and counters in the
 * same order.
 */
#ifndef PCCB_ALGO_H
#define PCCB_ALGO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "desc.h"

#define ALGO_RATE_ONE	(1u << 20)	/* fxp20 line rate */
#define ALGO_FXP16_ONE	(1u << 16)
#define ALGO_MAX_OPTS	8

/* fxp16 multiply as on the DPA: (a * b) >> 16 on 64 bits. */
static inline uint64_t algo_fxp16_mul(uint64_t a, uint32_t f16)
{
	return (a * f16) >> 16;
}

struct algo_opt_desc {
	const char *name;
	const char *help;
	const char *const *choices;	/* NULL-terminated; NULL: fxp16 */
	uint32_t def;			/* index into choices, or fxp16 */
};

/* A device's configuration, which all its ports read: the register's
 * parameters, the counters' maxima, the model options.  The simulator
 * keeps one for the whole fabric, so every host reads the same lines.
 */
struct algo_conf {
	uint32_t opts[ALGO_MAX_OPTS];		/* model options */
	uint32_t params[ALGO_MAX_PARAMS];	/* raw, as in the register */
	uint32_t counter_max[ALGO_MAX_COUNTERS];
};

/* One port's state (the simulator keeps one per host and touches it on
 * each packet): its counters, and the configuration it runs with.
 */
struct algo_port {
	const struct algo_conf *conf;
	bool counters_on;			/* counter_en */
	uint32_t line_gbps;			/* the port's link speed */
	uint32_t global_min_rtt;		/* ns, 0 = none yet */
	uint32_t counters[ALGO_MAX_COUNTERS];
};

struct algo_out {
	uint32_t rate;		/* fxp20 of line rate, > 0 */
	bool probe_req;		/* send an RTT probe; the simulator sends it
				 * as soon as the port is free, ahead of the
				 * rate limiter (a modelling choice) */
	int64_t probe_timeout;	/* ns after the probe leaves; 0 = none */
	int64_t timer_at;	/* absolute ns of the next on_timer; 0 none */
};

struct algo_ops {
	const char *name;	/* the descriptor folder: "ztr_rtt" */
	const char *label;	/* for output: "ZTR-RTT (reconstructed)" */
	size_t qp_state_size;
	size_t nparams, ncounters;
	const char *const *param_names;
	const char *const *counter_names;
	size_t nopts;
	const struct algo_opt_desc *opts;

	/* A new flow at time now. */
	void (*init)(struct algo_port *p, void *qp, int64_t now,
		     struct algo_out *out);
	/* A data packet of `bytes` left; probe_sent: it carried the probe
	 * requested earlier (the RTT measurement starts now).
	 */
	void (*on_tx)(struct algo_port *p, void *qp, int64_t now,
		      uint32_t bytes, bool probe_sent, struct algo_out *out);
	/* The probe sent at send_ns was answered; the responder stamped it at
	 * recv_ns (its clock, informational); now is the arrival time.
	 */
	void (*on_rtt)(struct algo_port *p, void *qp, int64_t now,
		       int64_t send_ns, int64_t recv_ns, struct algo_out *out);
	void (*on_cnp)(struct algo_port *p, void *qp, int64_t now,
		       struct algo_out *out);
	void (*on_nack)(struct algo_port *p, void *qp, int64_t now,
			struct algo_out *out);
	void (*on_probe_timeout)(struct algo_port *p, void *qp, int64_t now,
				 struct algo_out *out);
	void (*on_timer)(struct algo_port *p, void *qp, int64_t now,
			 struct algo_out *out);
	/* Optional, NULL for an algorithm of rate alone: the congestion
	 * window the QP holds, bytes, 0 while it has none.  Read only (the
	 * simulator's traces).
	 */
	uint64_t (*window)(const void *qp);
};

extern const struct algo_ops *const algo_registry[];	/* NULL-terminated */
const struct algo_ops *algo_find(const char *name);

/* Configuration from a descriptor: defaults, counter maxima, options. */
void algo_conf_init(struct algo_conf *c, const struct algo_ops *ops,
		    const struct algo_desc *d);
/* A port running with c (which must outlive it): counters zero and on,
 * a 400 Gb/s link.
 */
void algo_port_init(struct algo_port *p, const struct algo_conf *c);
/* Check a descriptor against an ops table; 0 or -PCB_E_PARSE. */
int algo_check_desc(const struct algo_ops *ops, const struct algo_desc *d,
		    struct pcb_err *err);
/* Option by name ("target") and value text ("flow", "0.8") into opts
 * (ALGO_MAX_OPTS of them); unchanged on error.
 */
int algo_set_opt(uint32_t *opts, const struct algo_ops *ops,
		 const char *name, const char *value, struct pcb_err *err);

/* Counter updates, wrapping at the counter's max (0: 32 bits).  Inline:
 * they run on every simulated event that touches a counter.
 */
static inline void algo_count(struct algo_port *p, unsigned idx,
			      uint32_t delta)
{
	uint64_t max, v;

	if (!p->counters_on || idx >= ALGO_MAX_COUNTERS)
		return;
	max = p->conf->counter_max[idx] ? p->conf->counter_max[idx] :
					    UINT32_MAX;
	v = (uint64_t)p->counters[idx] + delta;
	if (v > max)	/* rare: the division only when it wraps */
		v %= max + 1;
	p->counters[idx] = (uint32_t)v;
}

static inline void algo_count_max(struct algo_port *p, unsigned idx,
				  uint32_t v)
{
	if (p->counters_on && idx < ALGO_MAX_COUNTERS && v > p->counters[idx])
		p->counters[idx] = v;
}

/* Minimum gauges read 0 until their first sample. */
static inline void algo_count_min(struct algo_port *p, unsigned idx,
				  uint32_t v)
{
	if (p->counters_on && idx < ALGO_MAX_COUNTERS &&
	    (p->counters[idx] == 0 || v < p->counters[idx]))
		p->counters[idx] = v;
}

#endif
