/* tap.c - a run's port trace, rate trace and packet capture, and the
 * per-flow retransmission counts (tap.h).
 *
 * Everything here reads the fabric and writes files; nothing changes a
 * queue, a timer, the RNG or the order of events.  Rows and frames go
 * straight to the caller's FILE (a temp file until the caller commits
 * it), so a long trace costs disk, not memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pcap.h"
#include "tap.h"

#define SEL_TRACE	0x1	/* port trace */
#define SEL_CAP		0x2	/* capture the port's link */
#define RATES_MAX	1024	/* flows in one rate trace */
/* The IP header's traffic class, as a RoCE deployment commonly sets it
 * [configuration, not read from a device]: data and probes DSCP 26 on
 * priority 3, control (ACK, NAK, CNP, probe answers) DSCP 48 on priority
 * 6, the simulator's two classes; data ECN-capable (ECT(0)) unless a
 * switch marked it CE, control not ECN-capable.
 */
#define DSCP_DATA	26
#define DSCP_CTRL	48
#define ECT0		2
#define CE		3

struct tap {
	uint8_t *sel;		/* per port: SEL_* */
	FILE *trace_fp, *rates_fp, *pcap_fp;
	bool failed;		/* out of memory, or a frame not written:
				 * sim_tap_stop says */
	uint32_t *rates;	/* flows sampled */
	size_t nrates;
	uint32_t snaplen;
	uint8_t *frame;		/* PCAP_FRAME_MAX bytes of scratch */
	uint64_t frames;
	/* per flow, since the tap exists: the highest PSN sent + 1, and
	 * data packets sent again */
	uint32_t *snd_max, *retx;
	uint32_t nflows;
};

static struct tap *tap_get(struct sim *s, struct pcb_err *err)
{
	if (s->tap)
		return s->tap;
	s->tap = calloc(1, sizeof(*s->tap));
	if (s->tap)
		s->tap->sel = calloc(s->nports ? s->nports : 1, 1);
	if (!s->tap || !s->tap->sel) {
		tap_free(s->tap);
		s->tap = NULL;
		pcb_error(err, PCB_E_NOMEM, "out of memory");
		return NULL;
	}
	return s->tap;
}

void tap_free(struct tap *t)
{
	if (!t)
		return;
	free(t->sel);
	free(t->rates);
	free(t->frame);
	free(t->snd_max);
	free(t->retx);
	free(t);
}

int sim_tap_stop(struct sim *s)
{
	int rc = s->tap && s->tap->failed ? -PCB_E_IO : 0;

	tap_free(s->tap);
	s->tap = NULL;
	if (!s->tr_rows)
		s->tr_every = 0;
	return rc;
}

/* The comma-separated items of list, each passed to fn with its index;
 * an empty item is an error.  Stops at the first error.
 */
static int list_each(const char *list, const char *what,
		     int (*fn)(void *ctx, const char *item,
			       struct pcb_err *err),
		     void *ctx, struct pcb_err *err)
{
	const char *p = list;
	int rc = 0;

	do {
		size_t n = strcspn(p, ",");
		char *item;

		if (!n)
			return pcb_error(err, PCB_E_INVAL, "bad %s list '%s': "
					 "an empty item", what, list);
		item = strndup(p, n);
		if (!item)
			return pcb_error(err, PCB_E_NOMEM, "out of memory");
		rc = fn(ctx, item, err);
		free(item);
		p += n;
	} while (!rc && *p++ == ',');
	return rc;
}

struct port_sel {
	struct sim *s;
	uint8_t *sel;		/* marks of this list, applied when valid */
};

static int port_item(void *ctx, const char *item, struct pcb_err *err)
{
	struct port_sel *ps = ctx;
	uint32_t pi;
	int rc = sim_port_find(ps->s, item, &pi, err);

	if (!rc)
		ps->sel[pi] = 1;
	return rc;
}

/* "all", or port names separated by commas, into the tap's sel (bit);
 * all or nothing.
 */
static int ports_parse(struct sim *s, const char *list, uint8_t bit,
		       struct pcb_err *err)
{
	struct port_sel ps = { s, calloc(s->nports ? s->nports : 1, 1) };
	uint32_t i;
	int rc = 0;

	if (!ps.sel)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	if (!strcmp(list, "all"))
		memset(ps.sel, 1, s->nports);
	else
		rc = list_each(list, "port", port_item, &ps, err);
	for (i = 0; !rc && i < s->nports; i++)
		if (ps.sel[i])
			s->tap->sel[i] |= bit;
	free(ps.sel);
	return rc;
}

/* ---- the port trace ----------------------------------------------------- */

static const char *const ev_names[] = {
	[TAP_START] = "start", [TAP_ENQ] = "enqueue", [TAP_DEQ] = "dequeue",
	[TAP_DROP] = "drop", [TAP_LOST] = "lost",
};

/* Time in ns with ps digits: exact. */
static void put_time(FILE *fp, int64_t t)
{
	fprintf(fp, "%lld.%03lld,", (long long)(t / 1000),
		(long long)(t % 1000));
}

static void trace_head(struct sim *s, uint32_t pi, const char *ev)
{
	const struct port *p = &s->ports[pi];
	char name[48];

	sim_port_name(s, pi, name, sizeof(name));
	put_time(s->tap->trace_fp, s->now);
	fprintf(s->tap->trace_fp, "%s,%s,%llu,%llu,", name, ev,
		(unsigned long long)p->data.bytes,
		(unsigned long long)p->ingress_bytes);
}

void tap_queue(struct sim *s, uint32_t pi, uint32_t ki, enum tap_ev ev)
{
	const struct pkt *k = &s->pk[ki];

	if (!(s->tap->sel[pi] & SEL_TRACE))
		return;
	trace_head(s, pi, ev_names[ev]);
	fprintf(s->tap->trace_fp, "%u,%u,%u,%d\r\n", k->size, k->qp, k->psn,
		!!(k->flags & PF_CE));
}

int sim_tap_ports(struct sim *s, FILE *fp, const char *list,
		  struct pcb_err *err)
{
	struct tap *t = tap_get(s, err);
	uint32_t i;
	int rc;

	if (!t)
		return -PCB_E_NOMEM;
	if (t->trace_fp)
		return pcb_error(err, PCB_E_USAGE, "one port trace per run");
	rc = ports_parse(s, list, SEL_TRACE, err);
	if (rc)
		return rc;
	t->trace_fp = fp;
	fprintf(fp, "t_ns,port,event,queue_bytes,ingress_bytes,size_bytes,"
		"flow,psn,ce\r\n");
	for (i = 0; i < s->nports; i++)
		if (t->sel[i] & SEL_TRACE) {
			trace_head(s, i, ev_names[TAP_START]);
			fprintf(fp, ",,,\r\n");
		}
	return 0;
}

/* ---- flows -------------------------------------------------------------- */

/* Room for flow qi in the per-flow counts; false when out of memory
 * (the counts then stop growing, and the tap reports a failure).
 */
static bool flows_room(struct tap *t, uint32_t qi)
{
	uint32_t n = t->nflows ? t->nflows : 64, *a, *b;

	if (qi < t->nflows)
		return true;
	while (n <= qi)
		n *= 2;
	a = realloc(t->snd_max, n * sizeof(*a));
	if (a)
		t->snd_max = a;
	b = a ? realloc(t->retx, n * sizeof(*b)) : NULL;
	if (!b) {
		t->failed = true;
		return false;
	}
	t->retx = b;
	memset(a + t->nflows, 0, (n - t->nflows) * sizeof(*a));
	memset(b + t->nflows, 0, (n - t->nflows) * sizeof(*b));
	t->nflows = n;
	return true;
}

uint32_t tap_retx(const struct sim *s, uint32_t qi)
{
	return s->tap && qi < s->tap->nflows ? s->tap->retx[qi] : 0;
}

int sim_tap_flows(struct sim *s, struct pcb_err *err)
{
	return tap_get(s, err) ? 0 : -PCB_E_NOMEM;
}

/* "3,7,10-12" into the rate trace's flows. */
static int rate_item(void *ctx, const char *item, struct pcb_err *err)
{
	struct tap *t = ctx;
	const char *p = item;
	uint32_t a, b;

	if (!sim_uint_word(&p, &a))
		goto bad;
	b = a;
	if (*p == '-') {
		p++;
		if (!sim_uint_word(&p, &b) || b < a)
			goto bad;
	}
	if (*p)
		goto bad;
	if (b - a >= RATES_MAX || t->nrates + (b - a) + 1 > RATES_MAX)
		return pcb_error(err, PCB_E_RANGE, "more than %d flows in a "
				 "rate trace", RATES_MAX);
	for (;;) {
		t->rates[t->nrates++] = a;
		if (a++ == b)
			break;
	}
	return 0;
bad:
	return pcb_error(err, PCB_E_INVAL, "bad flow '%s': a flow id (the "
			 "flows file's) or a range such as 0-7", item);
}

int sim_tap_rates(struct sim *s, FILE *fp, const char *list, int64_t every,
		  struct pcb_err *err)
{
	struct tap *t = tap_get(s, err);
	int rc;

	if (!t)
		return -PCB_E_NOMEM;
	if (t->rates_fp)
		return pcb_error(err, PCB_E_USAGE, "one rate trace per run");
	if (every < PS_PER_NS)
		return pcb_error(err, PCB_E_RANGE, "bad trace interval");
	t->rates = malloc(RATES_MAX * sizeof(*t->rates));
	if (!t->rates)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	t->nrates = 0;
	rc = list_each(list, "flow", rate_item, t, err);
	if (rc)
		return rc;
	t->rates_fp = fp;
	fprintf(fp, "t_us,flow,rate_gbps,cwnd_bytes,inflight_pkts,"
		"delivered_bytes\r\n");
	if (!s->tr_every) {	/* the clock the fabric's trace also uses */
		s->tr_every = every;
		s->tr_next = s->now + every;
	}
	return 0;
}

/* The chosen flows that run at t (started, not finished or stopped). */
void tap_sample(struct sim *s, int64_t t)
{
	struct tap *tp = s->tap;
	double gbps = s->cfg.rate_gbps / (double)ALGO_RATE_ONE;
	size_t i;

	for (i = 0; tp->rates_fp && i < tp->nrates; i++) {
		const struct qp *q;
		uint64_t cwnd;

		if (tp->rates[i] >= s->nqps)
			continue;
		q = &s->qps[tp->rates[i]];
		if (!q->active || q->done)
			continue;
		fprintf(tp->rates_fp, "%.6f,%u,%.4f,", t / 1e6, tp->rates[i],
			q->rate * gbps);
		/* the algorithm's window, if it keeps one and has one yet */
		cwnd = s->algo.ops && s->algo.ops->window ?
		       s->algo.ops->window(s->qpstate + (size_t)tp->rates[i] *
					   s->stride) : 0;
		if (cwnd)
			fprintf(tp->rates_fp, "%llu", (unsigned long long)cwnd);
		fprintf(tp->rates_fp, ",%u,%llu\r\n",
			q->snd_nxt > q->snd_una ? q->snd_nxt - q->snd_una : 0,
			(unsigned long long)q->win_bytes);
	}
}

/* ---- the capture -------------------------------------------------------- */

int sim_tap_pcap(struct sim *s, FILE *fp, const char *list,
		 uint32_t snaplen, struct pcb_err *err)
{
	struct tap *t = tap_get(s, err);
	int rc;

	if (!t)
		return -PCB_E_NOMEM;
	if (t->pcap_fp)
		return pcb_error(err, PCB_E_USAGE, "one capture per run");
	if (snaplen < PCAP_SNAPLEN_MIN || snaplen > PCAP_SNAPLEN_MAX)
		return pcb_error(err, PCB_E_RANGE, "snaplen %u: %d to %d "
				 "bytes", snaplen, PCAP_SNAPLEN_MIN,
				 PCAP_SNAPLEN_MAX);
	if (s->cfg.mtu + 128 > PCAP_FRAME_MAX)
		return pcb_error(err, PCB_E_RANGE, "no capture of an MTU of "
				 "%u bytes", s->cfg.mtu);
	rc = ports_parse(s, list, SEL_CAP, err);
	if (rc)
		return rc;
	t->frame = malloc(PCAP_FRAME_MAX);
	if (!t->frame)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	t->snaplen = snaplen;
	t->pcap_fp = fp;
	if (pcap_write_header(fp, snaplen))
		t->failed = true;
	return 0;
}

/* Locally administered, unicast: 02:00 and the port's index. */
static void port_mac(uint8_t *mac, uint32_t pi)
{
	mac[0] = 0x02;
	mac[1] = 0;
	mac[2] = (uint8_t)(pi >> 24);
	mac[3] = (uint8_t)(pi >> 16);
	mac[4] = (uint8_t)(pi >> 8);
	mac[5] = (uint8_t)pi;
}

static uint32_t host_ip(uint32_t h)	/* 10.0.0.1 is host 0 */
{
	return 0x0a000000u + h + 1;
}

static bool captured(const struct sim *s, uint32_t pi)
{
	return (s->tap->sel[pi] | s->tap->sel[s->ports[pi].peer]) & SEL_CAP;
}

static void frame_out(struct sim *s, const struct pcap_frame *f)
{
	struct tap *t = s->tap;

	if (pcap_write_frame(t->pcap_fp, s->now, f, t->snaplen, t->frame) < 0)
		t->failed = true;
	t->frames++;
}

/* The RoCEv2 frame packet k stands for, leaving port pi. */
static void roce_out(struct sim *s, uint32_t pi, const struct pkt *k)
{
	const struct qp *q = &s->qps[k->qp];
	bool fwd = k->type == PK_DATA || k->type == PK_PROBE;
	struct pcap_frame f;

	memset(&f, 0, sizeof(f));
	port_mac(f.src_mac, pi);
	port_mac(f.dst_mac, s->ports[pi].peer);
	f.src_ip = host_ip(fwd ? q->src : q->dst);
	f.dst_ip = host_ip(fwd ? q->dst : q->src);
	f.dscp = fwd ? DSCP_DATA : DSCP_CTRL;
	f.ecn = !fwd ? 0 : k->flags & PF_CE ? CE : ECT0;
	f.sport = (uint16_t)(0xc000 | (q->ecmp & 0x3fff));
	f.dqp = (k->qp + 0x100) & 0xffffff;
	f.psn = k->psn & 0xffffff;
	f.ackreq = k->flags & PF_ACKREQ;
	switch (k->type) {
	case PK_DATA:
		f.opcode = k->psn == 0 ? (k->flags & PF_LAST ? BTH_SEND_ONLY :
					  BTH_SEND_FIRST) :
			   k->flags & PF_LAST ? BTH_SEND_LAST : BTH_SEND_MIDDLE;
		f.payload = k->size - HDR_BYTES;
		break;
	case PK_ACK:
	case PK_NACK:
		f.opcode = BTH_ACK;
		f.aeth = true;
		f.syndrome = k->type == PK_ACK ? AETH_ACK : AETH_NAK_PSN;
		/* messages completed: the flow is one message */
		f.msn = k->type == PK_ACK && k->psn + 1 >= q->npkts;
		break;
	case PK_CNP:
		f.opcode = BTH_CNP;
		f.becn = true;
		f.psn = 0;
		f.payload = 16;		/* reserved */
		break;
	case PK_PROBE:
		f.opcode = BTH_PROBE;
		break;
	default:
		f.opcode = BTH_PROBE_RESP;
		break;
	}
	frame_out(s, &f);
}

void tap_tx(struct sim *s, uint32_t pi, uint32_t ki)
{
	const struct pkt *k = &s->pk[ki];
	struct tap *t = s->tap;

	if (t->pcap_fp && captured(s, pi))
		roce_out(s, pi, k);
	/* the requester's data: a PSN below the highest sent is sent again */
	if (k->type == PK_DATA && !s->ports[pi].is_switch &&
	    flows_room(t, k->qp)) {
		if (k->psn < t->snd_max[k->qp])
			t->retx[k->qp]++;
		else
			t->snd_max[k->qp] = k->psn + 1;
	}
}

/* The fabric's PFC is an Xoff/Xon pair on the data priority: a pause
 * frame with the longest pause time, and one with 0 to resume (as
 * switches send them); refreshes before a pause expires are not
 * modelled, nor written.
 */
void tap_pfc(struct sim *s, uint32_t pi, bool pause, bool rx)
{
	struct tap *t = s->tap;

	if (t->trace_fp && (t->sel[pi] & SEL_TRACE)) {
		trace_head(s, pi, rx ? (pause ? "pfc_pause_rx" :
					"pfc_resume_rx") :
				       (pause ? "pfc_pause_tx" :
					"pfc_resume_tx"));
		fprintf(t->trace_fp, ",,,\r\n");
	}
	if (!rx && t->pcap_fp && captured(s, pi)) {
		struct pcap_frame f;
		static const uint8_t pfc_dst[6] = { 0x01, 0x80, 0xc2, 0, 0,
						    0x01 };

		memset(&f, 0, sizeof(f));
		f.pfc = true;
		memcpy(f.dst_mac, pfc_dst, 6);
		port_mac(f.src_mac, pi);
		f.prio_mask = 1u << SIM_PRIO_DATA;
		f.quanta[SIM_PRIO_DATA] = pause ? 0xffff : 0;
		frame_out(s, &f);
	}
}
