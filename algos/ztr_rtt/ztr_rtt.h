/* ztr_rtt.h - indices of the ZTR-RTT model (seed 004 order). */
#ifndef PCCB_ZTR_RTT_H
#define PCCB_ZTR_RTT_H

#include <stdbool.h>
#include <stdint.h>

enum ztr_param {
	ZTR_BW_G, ZTR_ALPHA, ZTR_MAX_DEC, ZTR_MAX_INC, ZTR_AI, ZTR_HAI,
	ZTR_HAI_PERIOD_NS, ZTR_CONGESTION_DELAY_THRESHOLD, ZTR_MAX_DELAY,
	ZTR_RATE_ON_FIRST_CONGESTION, ZTR_DELAY_ONLY, ZTR_CNP_VLD_RTT,
	ZTR_TX_DEC, ZTR_FIXED_RATE, ZTR_FAST_SCHED, ZTR_TOPOLOGY_AWARE,
	ZTR_ADVANCED_FEATURES_EN, ZTR_NPARAMS
};

enum ztr_counter {
	ZTR_C_CNP_HANDLE, ZTR_C_NACK_HANDLE, ZTR_C_AI_INC, ZTR_C_HAI_INC,
	ZTR_C_DEC, ZTR_C_HYPER_DEC, ZTR_C_TX_DEC, ZTR_C_MAX_RTT,
	ZTR_C_MIN_RTT, ZTR_C_SUM_RTT, ZTR_C_NUM_RTT, ZTR_C_NOT_VLD_RTT,
	ZTR_C_MAX_RATE, ZTR_C_MIN_RATE, ZTR_C_EMPTY_SYS_RTT,
	ZTR_C_RTT_TIMEOUT, ZTR_NCOUNTERS
};

/* Model options: the reconstructed parts (cc-sim.md 2.5). */
enum ztr_opt { ZTR_OPT_TARGET, ZTR_OPT_DECREASE, ZTR_OPT_BETA,
	       ZTR_OPT_HYPER, ZTR_NOPTS };
enum ztr_target { ZTR_TARGET_FLOW, ZTR_TARGET_BASE, ZTR_TARGET_FLOOR };
enum ztr_decrease { ZTR_DEC_PROPORTIONAL, ZTR_DEC_RATIO };

#define ZTR_MIN_RATE 64			/* 1/16384 of line rate */
#define ZTR_PROBE_TIMEOUT_NS 300000	/* doubled per timeout */
#define ZTR_MAX_BACKOFF 6

struct ztr_qp {
	uint64_t cwnd;		/* bytes; 0 until the first RTT sample */
	uint32_t rate;		/* fxp20 */
	uint32_t last_rtt;	/* ns */
	uint32_t min_rtt;	/* ns, this flow's; 0 none */
	int64_t t_last_dec;
	int64_t probe_sent;
	bool probe_out;		/* a probe is in flight */
	bool cnp_seen;		/* a CNP arrived during this probe */
	bool first_cong_done;
	uint8_t backoff;
};

/* The target RTT the model compares samples with (ns), for tests and
 * for the simulator's reporting.
 */
uint32_t ztr_target(const uint32_t *params, const uint32_t *opts,
		    const struct ztr_qp *q, uint32_t global_min_rtt);

#endif
