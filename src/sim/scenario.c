/* scenario.c - scenario keys (one declarative table), topologies and the
 * flows each scenario starts.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "suggest.h"
#include "sim_int.h"
#include "units.h"

/* ---- keys --------------------------------------------------------------- */

enum key_type { K_RATE, K_MTU, K_DUR, K_BYTES, K_ECN, K_BOOL, K_PROB, K_U32,
		K_U64, K_START, K_DIST, K_ADP };

#define KB_INCAST	(1u << SIM_INCAST)
#define KB_STAIR	(1u << SIM_STAIRCASE)
#define KB_PERM		(1u << SIM_PERMUTATION)
#define KB_MIX		(1u << SIM_MIX)
#define KB_ALL		(KB_INCAST | KB_STAIR | KB_PERM | KB_MIX)

struct key {
	const char *name;
	enum key_type type;
	size_t off;
	uint64_t min, max;
	unsigned kinds;
	const char *help;
};

#define O(f) offsetof(struct sim_cfg, f)
static const struct key keys[] = {
	{ "senders", K_U32, O(senders), 2, 4096, KB_INCAST | KB_STAIR,
	  "senders N (2-4096; staircase 2-64)" },
	{ "start", K_START, 0, 0, 0, KB_INCAST, "start sync|jitter" },
	{ "jitter", K_DUR, O(jitter_ps), 0, 10 * PS_PER_MS, KB_INCAST,
	  "start jitter (turns jittered start on)" },
	{ "size", K_BYTES, O(size), 0, 1ull << 40, KB_INCAST,
	  "bytes per flow, 0 = long-lived" },
	{ "step", K_DUR, O(step_ps), PS_PER_US, 1000 * PS_PER_MS, KB_STAIR,
	  "join/leave interval" },
	{ "leaves", K_U32, O(leaves), 1, 32, KB_PERM | KB_MIX, "leaf switches" },
	{ "spines", K_U32, O(spines), 1, 32, KB_PERM | KB_MIX,
	  "spine switches" },
	{ "hosts", K_U32, O(hosts_per_leaf), 1, 64, KB_PERM | KB_MIX,
	  "hosts per leaf" },
	{ "load", K_U32, O(load), 1, 95, KB_MIX, "percent of host links" },
	{ "dist", K_DIST, O(dist), 0, 1, KB_MIX, "websearch|hadoop" },
	{ "longflows", K_U32, O(longflows), 0, 256, KB_MIX,
	  "long-lived background flows" },
	{ "rate", K_RATE, O(rate_gbps), 25, 800, KB_ALL,
	  "link speed 25g|40g|50g|100g|200g|400g|800g" },
	{ "mtu", K_MTU, O(mtu), 1024, 4096, KB_ALL, "1024|4096" },
	{ "delay", K_DUR, O(delay_ps), PS_PER_NS, 100 * PS_PER_US, KB_ALL,
	  "link propagation delay" },
	{ "buffer", K_BYTES, O(buffer), 64 * 1024, 1ull << 32, KB_ALL,
	  "switch buffer (KB, MB)" },
	{ "ecn", K_ECN, 0, 0, 0, KB_ALL, "KMIN:KMAX:PMAX or off" },
	{ "ecnmode", K_BOOL, O(ecn_dequeue), 0, 1, KB_ALL,
	  "mark at enqueue|dequeue" },
	{ "pfc", K_BOOL, O(pfc), 0, 1, KB_ALL, "on|off" },
	{ "loss", K_PROB, O(loss), 0, 0, KB_ALL, "drop probability per link" },
	{ "seed", K_U64, O(seed), 0, UINT64_MAX, KB_ALL, "random seed" },
	{ "timeout", K_U32, O(timeout), 0, 31, KB_ALL,
	  "QP local ACK timeout: 4.096us x 2^N (0-31, 0 none)" },
	{ "adp_retx", K_ADP, O(adp_retx), 0, 0, KB_ALL,
	  "adaptive retransmission auto|on|off" },
	{ "ackreq", K_U32, O(ackreq), 0, 15, KB_ALL,
	  "AckReq every 2^N packets (0-15)" },
	{ "cnp_interval", K_DUR, O(cnp_interval_ps), 0, PS_PER_MS, KB_ALL,
	  "minimum time between CNPs of a QP" },
	{ "ack_every", K_U32, O(ack_every), 1, 64, KB_ALL,
	  "data packets per ACK" },
};
#undef O
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static const char *const kind_names[] = { "incast", "staircase",
					  "permutation", "mix" };

const char *sim_kind_name(enum sim_kind k)
{
	return k <= SIM_MIX ? kind_names[k] : "?";
}

int sim_kind_parse(const char *name, enum sim_kind *k)
{
	unsigned i;

	for (i = 0; i <= SIM_MIX; i++)
		if (!strcasecmp(name, kind_names[i])) {
			*k = (enum sim_kind)i;
			return 0;
		}
	return -PCB_E_NOENT;
}

void sim_cfg_default(struct sim_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->kind = SIM_INCAST;
	c->senders = 64;
	c->rate_gbps = 400;
	c->mtu = 4096;
	c->delay_ps = PS_PER_US;
	c->buffer = 32ull << 20;
	c->ecn_on = true;
	c->kmin = 100 * 1024;
	c->kmax = 400 * 1024;
	c->pmax = 13107;		/* 0.2 */
	/* marked as a packet leaves, as the DCQCN paper argues and HPCC's
	 * switches do (dcqcn-pfc.md 2.4, appendix A): marking at enqueue
	 * delays the signal by the queue it reports */
	c->ecn_dequeue = true;
	c->pfc = true;
	c->seed = 1;
	c->jitter_ps = 0;
	c->step_ps = PS_PER_MS;
	c->leaves = 4;
	c->spines = 4;
	c->hosts_per_leaf = 4;
	c->load = 30;
	c->longflows = 0;
	/* 4.096 us * 2^14 = 67 ms: perftest's default and NCCL's first
	 * (NCCL now sets 20, rdma_cm about 19; dcqcn-pfc.md 4.3) */
	c->timeout = 14;
	/* ConnectX enables it (NVIDIA's sample ROCE_ACCL dump), as one of
	 * its "lossy RoCE accelerations": auto models it where a packet
	 * can be lost (PFC off or link loss) [reconstructed] */
	c->adp_retx = SIM_ADP_AUTO;
	c->ackreq = 8;			/* mlx5_ib: log_ack_req_freq 8 */
	c->cnp_interval_ps = 4 * PS_PER_US;
	c->ack_every = 4;
}

const char *sim_cfg_keys(enum sim_kind k)
{
	static char buf[4][512];
	size_t i, n = 0;

	if (k > SIM_MIX)
		return "";
	buf[k][0] = '\0';
	for (i = 0; i < NKEYS; i++)
		if (keys[i].kinds & (1u << k))
			n += (size_t)snprintf(buf[k] + n, sizeof(buf[k]) - n,
					      "%s%s", n ? ", " : "",
					      keys[i].name);
	return buf[k];
}

/* "32MB" / "100KB" / "4096" -> bytes (binary multiples). */
static int parse_bytes(const char *v, uint64_t *out)
{
	static const struct {
		const char *sfx;
		uint64_t mul;
	} u[] = { { "", 1 }, { "B", 1 }, { "KB", 1024 }, { "K", 1024 },
		  { "MB", 1 << 20 }, { "M", 1 << 20 }, { "GB", 1 << 30 } };
	char *end;
	double x;
	size_t i;

	errno = 0;
	x = strtod(v, &end);
	if (end == v || errno || x < 0 || *v == '-' || *v == '+')
		return -1;
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (!strcasecmp(end, u[i].sfx)) {
			x *= (double)u[i].mul;
			if (x > 1.8e19 || x != floor(x))
				return -1;
			*out = (uint64_t)x;
			return 0;
		}
	return -1;
}

/* A duration takes its unit ("10" could be anything); 0 needs none. */
static int parse_dur(const char *v, int64_t *out)
{
	if (!strcmp(v, "0")) {
		*out = 0;
		return 0;
	}
	return pcb_parse_duration_ps(v, -1, out);
}

static int parse_u64(const char *v, uint64_t *out)
{
	char *end;

	if (!*v || *v == '-' || *v == '+')
		return -1;
	errno = 0;
	*out = strtoull(v, &end, 0);
	return errno || *end ? -1 : 0;
}

static int fmt_dur(char *b, size_t n, int64_t ps);

static int bad(struct pcb_err *err, const struct key *k, const char *v)
{
	char lo[32], hi[32];

	if (k->type != K_DUR)
		return pcb_error(err, PCB_E_INVAL,
				 "sim: bad value '%s' for '%s' (%s)", v,
				 k->name, k->help);
	fmt_dur(lo, sizeof(lo), (int64_t)k->min);
	fmt_dur(hi, sizeof(hi), (int64_t)k->max);
	return pcb_error(err, PCB_E_INVAL,
			 "sim: bad value '%s' for '%s' (%s): %s to %s, with a "
			 "unit (ns, us, ms)", v, k->name, k->help,
			 k->min ? lo : "0", hi);
}

/* One `key value` onto the config (sim.h).  Long by design: one case
 * per value type of the keys[] table (rate, MTU, duration, bytes,
 * counts, booleans, probabilities, ECN triples, start, adp_retx,
 * distribution), each with its own refusal text; the table stays the one
 * place that lists the keys.
 */
int sim_cfg_set(struct sim_cfg *cfg, const char *name, const char *v,
		struct pcb_err *err)
{
	const struct key *k = NULL;
	struct sim_cfg c = *cfg;
	char *p = (char *)&c;
	uint64_t u = 0;
	int64_t d = 0;
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (!strcasecmp(keys[i].name, name) &&
		    (keys[i].kinds & (1u << cfg->kind)))
			k = &keys[i];
	if (!k) {
		struct suggest sg;
		char dym[160];

		suggest_init(&sg, name);
		for (i = 0; i < NKEYS; i++)
			if (keys[i].kinds & (1u << cfg->kind))
				suggest_add(&sg, keys[i].name);
		if (sg.n)
			return pcb_error(err, PCB_E_NOENT, "sim: %s has no key "
					 "'%s'%s", sim_kind_name(cfg->kind),
					 name, suggest_text(&sg, dym,
							    sizeof(dym)));
		return pcb_error(err, PCB_E_NOENT,
				 "sim: %s has no key '%s'; valid keys: %s",
				 sim_kind_name(cfg->kind), name,
				 sim_cfg_keys(cfg->kind));
	}
	switch (k->type) {
	case K_RATE:
		if (parse_u64(v, &u) &&
		    (sscanf(v, "%llu", (unsigned long long *)&u) != 1 ||
		     (strcasecmp(v + strspn(v, "0123456789"), "g") &&
		      strcasecmp(v + strspn(v, "0123456789"), "gb/s"))))
			return bad(err, k, v);
		/* whole picoseconds per byte: 8000 / rate */
		if (u != 25 && u != 40 && u != 50 && u != 100 && u != 200 &&
		    u != 400 && u != 800)
			return bad(err, k, v);
		c.rate_gbps = (uint32_t)u;
		break;
	case K_MTU:
		if (parse_u64(v, &u) || (u != 1024 && u != 4096))
			return bad(err, k, v);
		c.mtu = (uint32_t)u;
		break;
	case K_DUR:
		if (parse_dur(v, &d) || d < (int64_t)k->min ||
		    d > (int64_t)k->max)
			return bad(err, k, v);
		memcpy(p + k->off, &d, sizeof(d));
		if (!strcmp(k->name, "jitter"))
			c.jitter = d > 0;
		break;
	case K_BYTES:
		if (parse_bytes(v, &u) || u < k->min || u > k->max)
			return bad(err, k, v);
		memcpy(p + k->off, &u, sizeof(u));
		break;
	case K_U32:
	case K_U64:
		if (parse_u64(v, &u) || u < k->min || u > k->max)
			return bad(err, k, v);
		if (k->type == K_U32) {
			uint32_t w = (uint32_t)u;

			memcpy(p + k->off, &w, sizeof(w));
		} else {
			memcpy(p + k->off, &u, sizeof(u));
		}
		break;
	case K_BOOL: {
		bool b;

		if (!strcasecmp(v, "on") || !strcasecmp(v, "1") ||
		    !strcasecmp(v, "dequeue"))
			b = true;
		else if (!strcasecmp(v, "off") || !strcasecmp(v, "0") ||
			 !strcasecmp(v, "enqueue"))
			b = false;
		else
			return bad(err, k, v);
		memcpy(p + k->off, &b, sizeof(b));
		break;
	}
	case K_PROB: {
		char *end;
		double x;

		errno = 0;
		x = strtod(v, &end);
		if (end == v || *end || errno || !(x >= 0 && x <= 0.5))
			return bad(err, k, v);
		c.loss = (uint32_t)(x * 4294967296.0);
		break;
	}
	case K_ECN: {
		char a[32], b[32], pm[32];
		uint64_t kmin, kmax;
		char *end;
		double x;

		if (!strcasecmp(v, "off")) {
			c.ecn_on = false;
			break;
		}
		if (sscanf(v, "%31[^:]:%31[^:]:%31s", a, b, pm) != 3 ||
		    parse_bytes(a, &kmin) || parse_bytes(b, &kmax) ||
		    kmin >= kmax)
			return bad(err, k, v);
		errno = 0;
		x = strtod(pm, &end);
		if (end == pm || *end || errno || !(x > 0 && x <= 1))
			return bad(err, k, v);
		c.ecn_on = true;
		c.kmin = kmin;
		c.kmax = kmax;
		c.pmax = (uint32_t)llround(x * 65536);
		break;
	}
	case K_START:
		if (!strcasecmp(v, "sync"))
			c.jitter = false;
		else if (!strcasecmp(v, "jitter")) {
			c.jitter = true;
			if (!c.jitter_ps)
				c.jitter_ps = 10 * PS_PER_US;
		} else {
			return bad(err, k, v);
		}
		break;
	case K_ADP:
		if (!strcasecmp(v, "off"))
			c.adp_retx = SIM_ADP_OFF;
		else if (!strcasecmp(v, "on"))
			c.adp_retx = SIM_ADP_ON;
		else if (!strcasecmp(v, "auto"))
			c.adp_retx = SIM_ADP_AUTO;
		else
			return bad(err, k, v);
		break;
	case K_DIST:
		if (!strcasecmp(v, "websearch"))
			c.dist = 0;
		else if (!strcasecmp(v, "hadoop"))
			c.dist = 1;
		else
			return bad(err, k, v);
		break;
	}
	if (c.kind != SIM_INCAST && c.kind != SIM_STAIRCASE &&
	    (uint64_t)c.leaves * c.hosts_per_leaf > 1024)
		return pcb_error(err, PCB_E_RANGE,
				 "sim: at most 1024 hosts (leaves x hosts)");
	if (c.kind == SIM_STAIRCASE && c.senders > 64)
		return pcb_error(err, PCB_E_RANGE,
				 "sim: staircase takes at most 64 senders");
	*cfg = c;
	return 0;
}

static int fmt_dur(char *b, size_t n, int64_t ps)
{
	if (ps % PS_PER_MS == 0 && ps)
		return snprintf(b, n, "%lldms", (long long)(ps / PS_PER_MS));
	if (ps % PS_PER_US == 0 && ps)
		return snprintf(b, n, "%lldus", (long long)(ps / PS_PER_US));
	if (ps % PS_PER_NS == 0)
		return snprintf(b, n, "%lldns", (long long)(ps / PS_PER_NS));
	return snprintf(b, n, "%lldps", (long long)ps);
}

static int fmt_bytes(char *b, size_t n, uint64_t v)
{
	if (v && v % (1 << 20) == 0)
		return snprintf(b, n, "%lluMB", (unsigned long long)(v >> 20));
	if (v && v % 1024 == 0)
		return snprintf(b, n, "%lluKB", (unsigned long long)(v >> 10));
	return snprintf(b, n, "%llu", (unsigned long long)v);
}

size_t sim_cfg_format(const struct sim_cfg *c, char *buf, size_t len)
{
	const char *p = (const char *)c;
	size_t n = 0, i;
	char v[160];

	n += (size_t)snprintf(buf, len, "%s", sim_kind_name(c->kind));
	for (i = 0; i < NKEYS && n < len; i++) {
		const struct key *k = &keys[i];
		uint64_t u;
		int64_t d;
		uint32_t w;

		if (!(k->kinds & (1u << c->kind)))
			continue;
		switch (k->type) {
		case K_RATE:
			snprintf(v, sizeof(v), "%ug", c->rate_gbps);
			break;
		case K_MTU:
			snprintf(v, sizeof(v), "%u", c->mtu);
			break;
		case K_DUR:
			memcpy(&d, p + k->off, sizeof(d));
			if (!strcmp(k->name, "jitter") && !c->jitter)
				continue;
			fmt_dur(v, sizeof(v), d);
			break;
		case K_BYTES:
			memcpy(&u, p + k->off, sizeof(u));
			fmt_bytes(v, sizeof(v), u);
			break;
		case K_U32:
			memcpy(&w, p + k->off, sizeof(w));
			snprintf(v, sizeof(v), "%u", w);
			break;
		case K_U64:
			memcpy(&u, p + k->off, sizeof(u));
			snprintf(v, sizeof(v), "%llu", (unsigned long long)u);
			break;
		case K_BOOL: {
			bool b;

			memcpy(&b, p + k->off, sizeof(b));
			snprintf(v, sizeof(v), "%s", !strcmp(k->name,
				 "ecnmode") ? (b ? "dequeue" : "enqueue") :
				 (b ? "on" : "off"));
			break;
		}
		case K_PROB:
			snprintf(v, sizeof(v), "%.6g",
				 c->loss / 4294967296.0);
			break;
		case K_ECN: {
			char a[32], b[32];

			if (!c->ecn_on) {
				snprintf(v, sizeof(v), "off");
				break;
			}
			fmt_bytes(a, sizeof(a), c->kmin);
			fmt_bytes(b, sizeof(b), c->kmax);
			snprintf(v, sizeof(v), "%s:%s:%.4g", a, b,
				 c->pmax / 65536.0);
			break;
		}
		case K_START:
			snprintf(v, sizeof(v), "%s",
				 c->jitter ? "jitter" : "sync");
			break;
		case K_DIST:
			snprintf(v, sizeof(v), "%s",
				 c->dist ? "hadoop" : "websearch");
			break;
		case K_ADP:
			snprintf(v, sizeof(v), "%s", c->adp_retx ==
				 SIM_ADP_AUTO ? "auto" : c->adp_retx ==
				 SIM_ADP_ON ? "on" : "off");
			break;
		}
		n += (size_t)snprintf(buf + n, len - n, " %s %s", k->name, v);
	}
	return n;
}

/* ---- topologies ----------------------------------------------------------- */

static int alloc_hosts(struct sim *s, uint32_t n, uint32_t nsw)
{
	s->hosts = calloc(n, sizeof(*s->hosts));
	s->sws = calloc(nsw, sizeof(*s->sws));
	if (!s->hosts || !s->sws)
		return -1;
	s->nhosts = n;
	s->nsw = nsw;
	return 0;
}

static void add_host(struct sim *s, uint32_t h)
{
	uint32_t ni = sim_add_node(s, false, 1);

	s->nodes[ni].idx = h;
	s->hosts[h].node = ni;
	s->hosts[h].port = s->nodes[ni].port0;
}

static int add_switch(struct sim *s, uint32_t w, uint32_t nports)
{
	uint32_t ni = sim_add_node(s, true, nports);

	s->nodes[ni].idx = w;
	s->sws[w].node = ni;
	s->sws[w].routes = calloc(s->nhosts, sizeof(struct route));
	return s->sws[w].routes ? 0 : -1;
}

/* What may still reach switch port pi after it sends Xoff, from its own
 * link: the PFC frame's serialisation and two link delays of data (the
 * bytes on the wire plus those sent while the frame crosses), the packet
 * the peer is sending when the pause lands, and one more for packet
 * boundaries.  The simulated peer stops at its next packet boundary, so
 * a real MAC's response time (802.3 Annex 31B quanta, which switch
 * vendors add) is not in it.
 */
static uint64_t port_headroom(const struct sim *s, uint32_t pi)
{
	const struct port *p = &s->ports[pi];
	uint64_t wire = ((uint64_t)p->delay + p->ppb - 1) / p->ppb;

	return CTRL_BYTES + 2 * wire + 2 * (uint64_t)(s->cfg.mtu + HDR_BYTES);
}

/* Each switch port's headroom and reserve, set aside from the buffer;
 * with PFC on, a buffer that cannot hold them is refused, naming the
 * least that would do (a lossless class cannot be promised otherwise).
 */
static int pfc_size(struct sim *s, struct pcb_err *err)
{
	uint64_t need = 0;
	uint32_t w, i, worst = 0;

	for (w = 0; w < s->nsw; w++) {
		struct sw *sw = &s->sws[w];
		const struct node *n = &s->nodes[sw->node];

		for (i = n->port0; i < n->port0 + n->nports; i++) {
			s->ports[i].headroom = (uint32_t)port_headroom(s, i);
			sw->headroom += s->ports[i].headroom;
			sw->reserve += pfc_reserve(s);
		}
		if (sw->headroom + sw->reserve > need) {
			need = sw->headroom + sw->reserve;
			worst = w;
		}
	}
	if (s->cfg.pfc && need > s->cfg.buffer) {
		char have[32];

		fmt_bytes(have, sizeof(have), s->cfg.buffer);
		return pcb_error(err, PCB_E_RANGE, "sim: buffer %s cannot "
				 "hold the PFC headroom and reserve of switch "
				 "%u's %u ports; PFC needs buffer %lluKB or "
				 "more", have, worst,
				 s->nodes[s->sws[worst].node].nports,
				 (unsigned long long)((need + 1023) / 1024));
	}
	return 0;
}

/* The idle-path RTT of a probe: 64 bytes out, 64 back, store and forward
 * at every hop. */
static double path_rtt_ns(const struct sim *s, unsigned hops)
{
	double ppb = 8000.0 / s->cfg.rate_gbps;

	return hops * (2.0 * CTRL_BYTES * ppb + 2.0 * (double)s->cfg.delay_ps) /
	       PS_PER_NS;
}

/* The idle-path RTT of a probe from host src to dst and back, on the
 * route the switches give (every ECMP choice is as long): 64 bytes each
 * way, store and forward at every hop.
 */
static int64_t sim_path_rtt(const struct sim *s, uint32_t src, uint32_t dst)
{
	uint32_t p = s->hosts[src].port, hops;
	int64_t rtt = 0;

	for (hops = 0; hops < 16; hops++) {
		const struct port *l = &s->ports[p];
		const struct port *q = &s->ports[l->peer];

		rtt += 2 * (CTRL_BYTES * (int64_t)l->ppb + l->delay);
		if (!q->is_switch)
			break;
		/* owner is not set yet while the scenario builds */
		p = s->sws[s->nodes[q->node].idx].routes[dst].first;
	}
	return rtt;
}

/* One switch, n hosts: host i on switch port i. */
static int build_star(struct sim *s, uint32_t n)
{
	uint32_t i, port0;

	if (alloc_hosts(s, n, 1))
		return -1;
	for (i = 0; i < n; i++)
		add_host(s, i);
	if (add_switch(s, 0, n))
		return -1;
	port0 = s->nodes[s->sws[0].node].port0;
	for (i = 0; i < n; i++) {
		sim_link(s, s->hosts[i].port, port0 + i, s->cfg.rate_gbps,
			 s->cfg.delay_ps);
		s->sws[0].routes[i].first = port0 + i;
		s->sws[0].routes[i].count = 1;
	}
	s->base_rtt_ns = path_rtt_ns(s, 2);
	return 0;
}

/* Leaves with `hosts` host ports then `spines` uplinks; spines with one
 * port per leaf.  Up: ECMP over the uplinks; down: the one path.
 */
static int build_leaf_spine(struct sim *s)
{
	uint32_t L = s->cfg.leaves, S = s->cfg.spines, H = s->cfg.hosts_per_leaf;
	uint32_t l, sp, h, n = L * H;

	if (alloc_hosts(s, n, L + S))
		return -1;
	for (h = 0; h < n; h++)
		add_host(s, h);
	for (l = 0; l < L; l++)
		if (add_switch(s, l, H + S))
			return -1;
	for (sp = 0; sp < S; sp++)
		if (add_switch(s, L + sp, L))
			return -1;
	for (l = 0; l < L; l++) {
		uint32_t lp0 = s->nodes[s->sws[l].node].port0;

		for (h = 0; h < H; h++)
			sim_link(s, s->hosts[l * H + h].port, lp0 + h,
				 s->cfg.rate_gbps, s->cfg.delay_ps);
		for (sp = 0; sp < S; sp++) {
			uint32_t spp = s->nodes[s->sws[L + sp].node].port0 + l;

			sim_link(s, lp0 + H + sp, spp, s->cfg.rate_gbps,
				 s->cfg.delay_ps);
		}
		for (h = 0; h < n; h++) {
			struct route *r = &s->sws[l].routes[h];

			if (h / H == l) {
				r->first = lp0 + h % H;
				r->count = 1;
			} else {
				r->first = lp0 + H;
				r->count = S;
			}
		}
	}
	for (sp = 0; sp < S; sp++) {
		uint32_t p0 = s->nodes[s->sws[L + sp].node].port0;

		for (h = 0; h < n; h++) {
			s->sws[L + sp].routes[h].first = p0 + h / H;
			s->sws[L + sp].routes[h].count = 1;
		}
	}
	s->base_rtt_ns = path_rtt_ns(s, L > 1 ? 4 : 2);
	return 0;
}

/* ---- workloads ------------------------------------------------------------ */

/* Flow size CDFs (cc-sim.md 1.1, dcqcn-pfc.md 2.7): bytes -> percent of
 * flows at or below, from (0, 0) as HPCC's files start.
 */
static const uint64_t ws_size[] = { 0, 10000, 20000, 30000, 50000, 80000,
				    200000, 1000000, 2000000, 5000000,
				    10000000, 30000000 };
static const uint32_t ws_pct[] = { 0, 15, 20, 30, 40, 53, 60, 70, 80, 90,
				   97, 100 };
static const uint64_t hd_size[] = { 0, 100, 200, 300, 350, 400, 500, 600,
				    700, 1000, 2000, 7000, 30000, 50000,
				    80000, 120000, 300000, 1000000, 2000000,
				    10000000 };
static const uint32_t hd_pct[] = { 0, 10, 20, 50, 150, 200, 300, 400, 500,
				   600, 670, 700, 720, 820, 870, 900, 950,
				   975, 990, 1000 };	/* per mille */

static double rand01(struct sim *s)
{
	return (double)(sim_rand(s) >> 11) / 9007199254740992.0;
}

/* Inverse CDF with linear interpolation; at least one byte (a flow of
 * size 0 would be a long-lived one).
 */
uint64_t sim_draw_size(struct sim *s)
{
	double u = rand01(s) * (double)s->cdf_pct[s->cdf_n - 1];
	uint64_t v = s->cdf_size[s->cdf_n - 1];
	size_t i;

	for (i = 1; i < s->cdf_n; i++)
		if (u <= s->cdf_pct[i]) {
			double f = (u - s->cdf_pct[i - 1]) /
				   (s->cdf_pct[i] - s->cdf_pct[i - 1]);

			v = s->cdf_size[i - 1] + (uint64_t)(f *
				(double)(s->cdf_size[i] - s->cdf_size[i - 1]));
			break;
		}
	return v ? v : 1;
}

static double cdf_mean(const struct sim *s)
{
	double m = s->cdf_size[0] * (double)s->cdf_pct[0];
	size_t i;

	for (i = 1; i < s->cdf_n; i++)
		m += (s->cdf_size[i] + s->cdf_size[i - 1]) / 2.0 *
		     (s->cdf_pct[i] - s->cdf_pct[i - 1]);
	return m / s->cdf_pct[s->cdf_n - 1];
}

static int64_t next_arrival(struct sim *s)
{
	/* Poisson at `load` of the host link */
	double bytes_per_ps = s->cfg.load / 100.0 / (double)s->line_ppb;
	double mean_ps = s->mean_size / bytes_per_ps;

	return (int64_t)(-log(1.0 - rand01(s)) * mean_ps) + 1;
}

static uint32_t other_host(struct sim *s, uint32_t h)
{
	uint32_t d = (uint32_t)(sim_rand(s) % (s->nhosts - 1));

	return d >= h ? d + 1 : d;
}

static void sim_flow_gen(struct sim *s, uint32_t h)
{
	/* one draw after the other: the order of a call's arguments is
	 * the compiler's choice (gcc and clang differ) */
	uint64_t size = sim_draw_size(s);
	uint32_t dst = other_host(s, h);

	sim_add_qp(s, h, dst, size, s->now, 0);
	sim_schedule(s, s->now + next_arrival(s), EV_FLOW_GEN, h);
}

static int sim_build(struct sim *s, struct pcb_err *err)
{
	const struct sim_cfg *c = &s->cfg;
	uint32_t i, n;
	int rc = 0;

	if (c->ecn_on && c->kmin >= c->kmax)
		return pcb_error(err, PCB_E_INVAL, "sim: ECN Kmin >= Kmax");
	switch (c->kind) {
	case SIM_INCAST:
	case SIM_STAIRCASE:
		n = c->senders;
		rc = build_star(s, n + 1);
		if (rc)
			break;
		for (i = 0; i < n; i++) {
			int64_t start = 0, stop = 0;

			if (c->kind == SIM_STAIRCASE) {
				start = (int64_t)i * c->step_ps;
				stop = (int64_t)(2 * n - 1 - i) * c->step_ps +
				       c->step_ps;
			} else if (c->jitter && c->jitter_ps) {
				start = (int64_t)(sim_rand(s) %
						  (uint64_t)c->jitter_ps);
			}
			sim_add_qp(s, i, n, c->kind == SIM_INCAST ? c->size :
				   0, start, stop);
		}
		break;
	case SIM_PERMUTATION: {
		uint32_t *perm;

		rc = build_leaf_spine(s);
		if (rc)
			break;
		n = s->nhosts;
		if (n < 2)
			return pcb_error(err, PCB_E_INVAL,
					 "sim: permutation needs 2 hosts");
		perm = malloc(n * sizeof(*perm));
		if (!perm)
			return pcb_error(err, PCB_E_NOMEM, "out of memory");
		/* a random derangement: a shuffled cycle */
		for (i = 0; i < n; i++)
			perm[i] = i;
		for (i = n - 1; i > 0; i--) {
			uint32_t j = (uint32_t)(sim_rand(s) % (i + 1)), t;

			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < n; i++)
			sim_add_qp(s, perm[i], perm[(i + 1) % n], 0, 0, 0);
		free(perm);
		break;
	}
	case SIM_MIX:
		rc = build_leaf_spine(s);
		if (rc)
			break;
		if (s->nhosts < 2)
			return pcb_error(err, PCB_E_INVAL,
					 "sim: mix needs 2 hosts");
		s->cdf_size = c->dist ? hd_size : ws_size;
		s->cdf_pct = c->dist ? hd_pct : ws_pct;
		s->cdf_n = c->dist ? sizeof(hd_size) / sizeof(hd_size[0]) :
				     sizeof(ws_size) / sizeof(ws_size[0]);
		s->mean_size = cdf_mean(s);
		for (i = 0; i < c->longflows; i++) {
			uint32_t src = (uint32_t)(sim_rand(s) % s->nhosts);

			sim_add_qp(s, src, other_host(s, src), 0, 0, 0);
		}
		for (i = 0; i < s->nhosts; i++)
			sim_schedule(s, next_arrival(s), EV_FLOW_GEN, i);
		break;
	}
	if (rc)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	return pfc_size(s, err);
}

static const struct sim_source scenario_source = {
	.build = sim_build,
	.path_rtt = sim_path_rtt,
	.flow_gen = sim_flow_gen,
};

int sim_create(struct sim **out, const struct sim_cfg *cfg,
	       const struct sim_algo *algo, struct pcb_err *err)
{
	return sim_fabric_create(out, cfg, algo, &scenario_source, err);
}
