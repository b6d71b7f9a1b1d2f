/* tap.h - the outputs a run writes as it goes: a port trace (queue and
 * PFC events of chosen ports), a rate trace (samples of chosen flows), a
 * packet capture (pcap of chosen links) and the per-flow retransmission
 * counts behind the flows file.
 *
 * The fabric calls the hooks below through TAP(), one test of s->tap
 * (NULL unless an output is on), at the points where a data queue
 * changes, a packet leaves a port, a PFC frame is sent or takes effect;
 * the samples ride on the fabric's trace clock (trace_sample).  A hook
 * only reads the fabric: a run with outputs is the run without them,
 * event for event.
 *
 * Ownership: the tap belongs to its sim (sim_tap_* make it,
 * sim_tap_stop and sim_free free it); the FILEs are the caller's.
 */
#ifndef PCCB_SIM_TAP_H
#define PCCB_SIM_TAP_H

#include "sim_int.h"

#define TAP(s, call) do {						\
		if (__builtin_expect((s)->tap != NULL, 0))		\
			call;						\
	} while (0)

enum tap_ev {
	TAP_START,	/* the port's state when the trace starts */
	TAP_ENQ,	/* a data packet joins the egress queue */
	TAP_DEQ,	/* ... leaves it for the wire */
	TAP_DROP,	/* the switch had no buffer for it */
	TAP_LOST,	/* lost on the link into the port (FCS error) */
};

/* Data queue change at port pi, packet ki (still valid). */
void tap_queue(struct sim *s, uint32_t pi, uint32_t ki, enum tap_ev ev);
/* Packet ki starts on port pi's wire. */
void tap_tx(struct sim *s, uint32_t pi, uint32_t ki);
/* A PFC frame: sent by port pi (rx false: its ingress crossed Xoff or
 * Xon) or taking effect at port pi (rx true).
 */
void tap_pfc(struct sim *s, uint32_t pi, bool pause, bool rx);
/* Data packets flow qi sent again since the tap exists. */
uint32_t tap_retx(const struct sim *s, uint32_t qi);
/* The rate trace's samples at time t. */
void tap_sample(struct sim *s, int64_t t);
void tap_free(struct tap *t);

#endif
