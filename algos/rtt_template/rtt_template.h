/* rtt_template.h - indices of DOCA's reference RTT algorithm. */
#ifndef PCCB_RTT_TEMPLATE_H
#define PCCB_RTT_TEMPLATE_H

#include <stdbool.h>
#include <stdint.h>

enum rtt_tmpl_param {
	RTT_T_UPDATE_FACTOR, RTT_T_AI, RTT_T_BASE_RELATIVE_RTT,
	RTT_T_NEW_FLOW_RATE, RTT_T_MIN_RATE, RTT_T_MAX_DELAY, RTT_T_NPARAMS
};

enum rtt_tmpl_counter { RTT_T_C_TX_EVENT, RTT_T_C_RTT_EVENT,
			RTT_T_NCOUNTERS };

#define RTT_T_INITIAL_MIN_RTT 200000	/* ns */
#define RTT_T_ABORT_TIME 300000		/* ns, << abort_cnt */

struct rtt_tmpl_qp {
	uint32_t rate;		/* fxp20 */
	uint32_t min_rtt;
	int64_t start;		/* request or probe send time */
	bool outstanding;	/* the probe left, no answer yet */
	bool was_cnp, was_nack;
	uint8_t abort_cnt;
	uint32_t tx_since_req;
};

#endif
