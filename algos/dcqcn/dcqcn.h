/* dcqcn.h - indices of the DCQCN reaction-point model. */
#ifndef PCCB_DCQCN_H
#define PCCB_DCQCN_H

#include <stdbool.h>
#include <stdint.h>

enum dcqcn_param {
	DCQCN_TIME_RESET, DCQCN_BYTE_RESET, DCQCN_THRESHOLD, DCQCN_MAX_RATE,
	DCQCN_AI_RATE, DCQCN_HAI_RATE, DCQCN_GD, DCQCN_MIN_DEC_FAC,
	DCQCN_MIN_RATE, DCQCN_RATE_FIRST_CNP, DCQCN_G, DCQCN_ALPHA_PERIOD,
	DCQCN_MONITOR_PERIOD, DCQCN_INITIAL_ALPHA, DCQCN_CLAMP_TGT,
	DCQCN_CLAMP_AFTER_TIME_INC, DCQCN_NPARAMS
};

enum dcqcn_counter {
	DCQCN_C_CNP_HANDLE, DCQCN_C_RATE_CUT, DCQCN_C_FAST_RECOVERY,
	DCQCN_C_AI, DCQCN_C_HAI, DCQCN_C_ALPHA_UPDATE, DCQCN_C_MIN_RATE,
	DCQCN_C_MAX_RATE, DCQCN_NCOUNTERS
};

/* Model options (`sim model dcqcn`): the choices NVIDIA leaves open. */
enum dcqcn_opt { DCQCN_OPT_HAI, DCQCN_OPT_ALPHA, DCQCN_OPT_BYTE_UNIT,
		DCQCN_NOPTS };
enum { DCQCN_HAI_FIXED, DCQCN_HAI_GROWING };
enum { DCQCN_ALPHA_20BIT, DCQCN_ALPHA_10BIT };
enum { DCQCN_BYTES_KB, DCQCN_BYTES_B };

struct dcqcn_qp {
	uint32_t rc, rt;	/* current and target rate, fxp20 */
	uint32_t alpha;		/* congestion estimate, /1024: the cut's */
	uint32_t alpha_fx;	/* the same with 10 more bits, /2^20 */
	bool limited;		/* a rate limiter is allocated */
	bool cnp_in_period;	/* CNP since the last alpha update */
	bool cut_pending;	/* a CNP came since the last cut */
	bool t_inc, bc_inc;	/* timer / byte increases since the cut */
	uint32_t t_count, bc_count;	/* increase events since the cut */
	uint64_t bytes;		/* since the last byte-counter event */
	int64_t last_cut, next_cut, next_alpha, next_inc;
};

#endif
