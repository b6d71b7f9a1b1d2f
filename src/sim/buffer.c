/* buffer.c - the switches' shared buffer: its settings, and each port's
 * PFC headroom and reserve (dcqcn-pfc.md section 3).
 *
 * The model (fabric.c applies it per packet) is an independent-headroom
 * shared buffer.  With PFC, each ingress port has a reserve (its Xoff
 * floor) and a headroom of its own; the rest is the shared pool, and an
 * ingress port sends Xoff once it holds more than its reserve plus
 * alpha x the pool's free bytes (a dynamic threshold, SAI's
 * SHARED_DYNAMIC_TH with alpha = 2^n), Xon at max(one packet, Xoff -
 * the Xon offset).  Without PFC, an egress queue takes a packet while it
 * holds less than its reserve or alpha x the buffer's free bytes, else
 * drops it.
 *
 * Defaults, as before these were settings: alpha 1/8 for Xoff (HPCC
 * ns-3's for ports at host speed), 1 for a lossy queue; a reserve of two
 * packets per ingress port with PFC, none without; the Xon offset HPCC's
 * 3 KB; the headroom computed per port (port_headroom).  An explicit
 * headroom is the same for every port and may not be less than the
 * largest computed one: a smaller one loses packets on a lossless class.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim_int.h"

#define RESERVE_PKTS 2

/* What may still reach a switch port after it sends Xoff, from a link of
 * ppb ps per byte and `delay`: the PFC frame's serialisation and two
 * link delays of data (the bytes on the wire plus those sent while the
 * frame crosses), the packet the peer is sending when the pause lands,
 * and one more for packet boundaries.  The simulated peer stops at its
 * next packet boundary, so a real MAC's response time (802.3 Annex 31B
 * quanta, which switch vendors add) is not in it.
 */
static uint64_t headroom_of(uint64_t ppb, int64_t delay, uint32_t mtu)
{
	uint64_t wire = ((uint64_t)delay + ppb - 1) / ppb;

	return CTRL_BYTES + 2 * wire + 2 * (uint64_t)(mtu + HDR_BYTES);
}

uint64_t sim_headroom_min(const struct sim_cfg *c)
{
	uint64_t h = headroom_of(8000 / c->rate_gbps, c->delay_ps, c->mtu);

	if (sim_kind_fabric(c->kind)) {
		uint32_t ppb = sim_fabric_ppb(c);
		int64_t d = c->fabric_delay_ps ? c->fabric_delay_ps :
						 c->delay_ps;
		uint64_t f = ppb ? headroom_of(ppb, d, c->mtu) : 0;

		h = f > h ? f : h;
	}
	return h;
}

static void fmt_kb(char *b, size_t n, uint64_t v)
{
	if (v && v % (1 << 20) == 0)
		snprintf(b, n, "%lluMB", (unsigned long long)(v >> 20));
	else if (v && v % 1024 == 0)
		snprintf(b, n, "%lluKB", (unsigned long long)(v >> 10));
	else
		snprintf(b, n, "%llu", (unsigned long long)v);
}

bool sim_pfc_on(const struct sim_cfg *c, uint32_t prio)
{
	return c->pfc && (!c->pfc_prios || (c->pfc_prios >> prio & 1));
}

/* The data classes: 0 priority 3, 1 the mix's incast's when it has its
 * own priority; which are lossless; class 1's per-port state.  A class
 * without PFC makes adaptive retransmission 'auto' model it.
 */
static int classes(struct sim *s)
{
	const struct sim_cfg *c = &s->cfg;
	bool two = c->kind == SIM_MIX && c->incast_prio != SIM_PRIO_DATA;
	uint32_t i;

	s->prio_c[0] = SIM_PRIO_DATA;
	s->prio_c[1] = (uint8_t)(two ? c->incast_prio : SIM_PRIO_DATA);
	s->pfc_c[0] = sim_pfc_on(c, SIM_PRIO_DATA);
	s->pfc_c[1] = two && sim_pfc_on(c, c->incast_prio);
	if (c->adp_retx == SIM_ADP_AUTO &&
	    (!s->pfc_c[0] || (two && !s->pfc_c[1])))
		s->adp = true;
	if (!two)
		return 0;
	s->c1 = calloc(s->nports, sizeof(*s->c1));
	if (!s->c1)
		return -1;
	for (i = 0; i < s->nports; i++)
		s->c1[i].data.head = s->c1[i].data.tail = NONE;
	return 0;
}

int sim_buffer_setup(struct sim *s, struct pcb_err *err)
{
	const struct sim_cfg *c = &s->cfg;
	uint64_t need = 0, pkt = c->mtu + HDR_BYTES;
	uint32_t w, i, worst = 0, nc, nl;

	if (classes(s))
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	/* reserves per class, headrooms per lossless class (the figures
	 * of the one class when none is lossless: nothing reads them) */
	nc = s->c1 ? 2 : 1;
	nl = s->pfc_c[0] + (s->c1 && s->pfc_c[1]);
	nl = nl ? nl : 1;

	s->buf_reserve = c->reserve != SIM_AUTO ? c->reserve :
			 c->pfc ? RESERVE_PKTS * pkt : 0;
	s->xon_offset = c->xon_offset;
	s->alpha_xoff = c->alpha_log2 != SIM_ALPHA_AUTO ? c->alpha_log2 : -3;
	s->alpha_drop = c->alpha_log2 != SIM_ALPHA_AUTO ? c->alpha_log2 : 0;
	for (w = 0; w < s->nsw; w++) {
		struct sw *sw = &s->sws[w];
		const struct node *n = &s->nodes[sw->node];

		for (i = n->port0; i < n->port0 + n->nports; i++) {
			const struct port *p = &s->ports[i];
			uint64_t h = c->headroom != SIM_AUTO ? c->headroom :
				     headroom_of(p->ppb, p->delay, c->mtu);

			s->ports[i].headroom = (uint32_t)h;
			sw->headroom += nl * h;
			sw->reserve += nc * s->buf_reserve;
		}
		if (sw->headroom + sw->reserve > need) {
			need = sw->headroom + sw->reserve;
			worst = w;
		}
	}
	if ((s->pfc_c[0] || s->pfc_c[1]) && need > c->buffer) {
		char have[32];

		fmt_kb(have, sizeof(have), c->buffer);
		return pcb_error(err, PCB_E_RANGE, "sim: buffer %s cannot "
				 "hold the PFC headroom and reserve of switch "
				 "%u's %u ports; PFC needs buffer %lluKB or "
				 "more", have, worst,
				 s->nodes[s->sws[worst].node].nports,
				 (unsigned long long)((need + 1023) / 1024));
	}
	return 0;
}
