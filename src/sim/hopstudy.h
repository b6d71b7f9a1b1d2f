/* hopstudy.h - counters for issue 34 item 5's study (one event per hop),
 * compiled only with -DSIM_HOP_STUDY (tests/tools/hop-study.sh builds
 * so); the default build has none of it.  Included by fabric.c alone.
 *
 * For each class-0 data packet a switch queues, the departure it would
 * have if nothing came between (the port's tail-free time then: the
 * transmission on the wire, the control and data packets queued ahead)
 * against the one it gets, and when they differ, why: a control packet
 * that was not queued yet left first (strict priority), the port was
 * paused meanwhile (or already), the second data priority took a turn.
 * Also the events by type, and the departure events that sent nothing.
 * Printed to stderr, one line, when the fabric is freed.
 */
#ifndef PCCB_SIM_HOPSTUDY_H
#define PCCB_SIM_HOPSTUDY_H

#ifdef SIM_HOP_STUDY
#include <stdio.h>

struct hs_pkt {
	int64_t pred;		/* predicted departure */
	uint64_t ctrl_tx;	/* port's control sent + queued then */
	uint64_t pause_rx;	/* port's pauses received then */
	uint64_t c1_tx;		/* port's class-1 departures then */
	bool paused;		/* the port was paused then */
	bool on;		/* a prediction was made */
};

static struct {
	struct hs_pkt *pk;
	uint32_t cap;
	uint64_t *c1_tx;	/* per port */
	uint32_t nports;
	uint64_t ev[16];
	uint64_t free_idle;	/* departure/wake events that sent nothing */
	uint64_t at_once;	/* queued at a free, empty port */
	uint64_t queued;	/* waited for the port */
	uint64_t exact, late, early;
	uint64_t ctrl, pause, c1, other;	/* causes (of late) */
	uint64_t ctrl_only;	/* late for control packets alone */
	double late_ps;		/* summed lateness */
	double ctrl_ps;		/* ... of those late for control alone */
	uint64_t draws;		/* departures that drew ECN's RNG */
	uint64_t exact_draws;	/* ... of those on time */
	uint64_t xon;		/* Xon frames a departure sent */
	uint64_t c1_pkts;	/* class-1 packets queued (not predicted) */
} hs;

static void hs_port_c1(const struct sim *s, uint32_t pi)
{
	if (pi >= hs.nports) {
		uint32_t n = s->nports > pi ? s->nports : pi + 1;
		uint64_t *c = realloc(hs.c1_tx, n * sizeof(*c));

		if (!c)
			abort();
		memset(c + hs.nports, 0, (n - hs.nports) * sizeof(*c));
		hs.c1_tx = c;
		hs.nports = n;
	}
}

static struct hs_pkt *hs_pkt(uint32_t ki)
{
	if (ki >= hs.cap) {
		uint32_t n = 2 * ki + 1024;
		struct hs_pkt *p = realloc(hs.pk, n * sizeof(*p));

		if (!p)
			abort();
		memset(p + hs.cap, 0, (n - hs.cap) * sizeof(*p));
		hs.pk = p;
		hs.cap = n;
	}
	return &hs.pk[ki];
}

/* Before class-0 data packet ki joins switch port pi's data queue. */
static void hs_enqueue(const struct sim *s, uint32_t pi, uint32_t ki)
{
	const struct port *p = &s->ports[pi];
	struct hs_pkt *h = hs_pkt(ki);
	int64_t t = p->free_at > s->now ? p->free_at : s->now;

	hs_port_c1(s, pi);
	t += (int64_t)(p->ctrl.bytes + p->data.bytes) * p->ppb;
	h->on = true;
	h->pred = t;
	h->ctrl_tx = p->tx_pkts_c[1] + p->ctrl.n;
	h->pause_rx = p->pause_rx;
	h->paused = p->paused;
	h->c1_tx = hs.c1_tx[pi];
	if (t > s->now || p->paused)
		hs.queued++;
	else
		hs.at_once++;
}

/* Class-0 data packet ki leaves switch port pi now. */
static void hs_dequeue(const struct sim *s, uint32_t pi, uint32_t ki)
{
	const struct port *p = &s->ports[pi];
	struct hs_pkt *h = hs_pkt(ki);
	bool c, pa, one, draw;

	if (!h->on)
		return;
	h->on = false;
	hs_port_c1(s, pi);
	/* ecn_mark after the pop: a draw between Kmin and Kmax */
	draw = s->cfg.ecn_on && s->cfg.ecn_dequeue &&
	       s->pk[ki].type == PK_DATA && p->data.bytes > s->cfg.kmin &&
	       p->data.bytes < s->cfg.kmax;
	hs.draws += draw;
	if (s->now == h->pred && !h->paused) {
		hs.exact++;
		hs.exact_draws += draw;
		return;
	}
	if (s->now < h->pred) {
		hs.early++;
		return;
	}
	hs.late++;
	hs.late_ps += (double)(s->now - h->pred);
	c = p->tx_pkts_c[1] > h->ctrl_tx;
	pa = h->paused || p->pause_rx != h->pause_rx;
	one = hs.c1_tx[pi] != h->c1_tx;
	hs.ctrl += c;
	hs.pause += pa;
	hs.c1 += one;
	hs.ctrl_only += c && !pa && !one;
	if (c && !pa && !one)
		hs.ctrl_ps += (double)(s->now - h->pred);
	hs.other += !c && !pa && !one;
}

static void hs_c1_tx(const struct sim *s, uint32_t pi)
{
	hs_port_c1(s, pi);
	hs.c1_tx[pi]++;
	hs.c1_pkts++;
}

static void hs_print(const struct sim *s)
{
	static const char *const nm[] = {
		"PORT_FREE", "ARRIVE", "NIC_WAKE", "TIMER_SCAN", "STORM",
		"ALGO_TIMER", "PFC_PAUSE", "PFC_RESUME", "FLOW_START",
		"FLOW_STOP", "FLOW_GEN", "PFC1_PAUSE", "PFC1_RESUME",
	};
	uint64_t tot = 0;
	unsigned i;

	for (i = 0; i < 16; i++)
		tot += hs.ev[i];
	fprintf(stderr, "hop-study: events %llu", (unsigned long long)tot);
	for (i = 0; i < 13; i++)
		if (hs.ev[i])
			fprintf(stderr, " %s %llu", nm[i],
				(unsigned long long)hs.ev[i]);
	fprintf(stderr, " free_idle %llu at_once %llu queued %llu exact %llu"
		" late %llu early %llu ctrl %llu pause %llu c1 %llu"
		" ctrl_only %llu other %llu late_ps %.0f c1_pkts %llu"
		" sw_ports %u ctrl_ps %.0f draws %llu exact_draws %llu"
		" xon %llu\n",
		(unsigned long long)hs.free_idle,
		(unsigned long long)hs.at_once, (unsigned long long)hs.queued,
		(unsigned long long)hs.exact, (unsigned long long)hs.late,
		(unsigned long long)hs.early, (unsigned long long)hs.ctrl,
		(unsigned long long)hs.pause, (unsigned long long)hs.c1,
		(unsigned long long)hs.ctrl_only,
		(unsigned long long)hs.other, hs.late_ps,
		(unsigned long long)hs.c1_pkts, s->nports, hs.ctrl_ps,
		(unsigned long long)hs.draws,
		(unsigned long long)hs.exact_draws,
		(unsigned long long)hs.xon);
	free(hs.pk);
	free(hs.c1_tx);
	memset(&hs, 0, sizeof(hs));
}

/* -DSIM_STUDY_CLASSES=1: ACK and NACK travel in the data's class (as a
 * ConnectX ACK does by default: it carries its QP's DSCP), queued with
 * the data at switches, paused and counted with it; =2: the RTT probe's
 * response too (as if rtt_resp_dscp mapped to the data's priority), so
 * that only CNPs go ahead of data.  A NIC still sends its own control
 * packets ahead of its data.  Results differ from the default's. */
#ifdef SIM_STUDY_CLASSES
static bool hs_data_class(const struct pkt *k)
{
	return SIM_STUDY_CLASSES == 1 ? k->type <= PK_NACK :
					k->type != PK_CNP;
}
#endif

#define HS(x) x
#else
#define HS(x) ((void)0)
#endif

#endif
