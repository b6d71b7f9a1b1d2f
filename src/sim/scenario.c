/* scenario.c - scenario keys (one declarative table), their checks, and
 * each scenario's build: its fabric (topo.c), its first flows, the mix's
 * traffic (workload.c), the buffer's settings (buffer.c).
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
		K_U64, K_START, K_DIST, K_ADP, K_TOPO, K_ALPHA, K_AUTO_BYTES,
		K_PRIOS, K_COLL };

#define KB_INCAST	(1u << SIM_INCAST)
#define KB_STAIR	(1u << SIM_STAIRCASE)
#define KB_PERM		(1u << SIM_PERMUTATION)
#define KB_MIX		(1u << SIM_MIX)
#define KB_ALLRED	(1u << SIM_ALLREDUCE)
#define KB_COLL		(KB_ALLRED | 1u << SIM_ALLTOALL)
#define KB_ALL		(KB_INCAST | KB_STAIR | KB_PERM | KB_MIX | KB_COLL)
#define KB_FABRIC	(KB_PERM | KB_MIX | KB_COLL)
/* shown (sim_cfg_format) only when set off its default */
#define KB_QUIET	(1u << 8)

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
	{ "ranks", K_U32, O(ranks), 2, 1024, KB_COLL,
	  "ranks, one a host from host 0 (2-1024)" },
	{ "size", K_BYTES, O(coll_size), 1, 1ull << 40, KB_COLL,
	  "bytes of each rank's buffer (B, KB, MB, GB)" },
	{ "algo", K_COLL, O(coll_algo), 0, 1, KB_ALLRED, "ring|tree" },
	{ "iters", K_U32, O(iters), 1, 100000, KB_COLL,
	  "collectives back to back (1-100000)" },
	{ "leaves", K_U32, O(leaves), 1, 32, KB_FABRIC, "leaf switches" },
	{ "spines", K_U32, O(spines), 1, 32, KB_FABRIC, "spine switches" },
	{ "hosts", K_U32, O(hosts_per_leaf), 1, 64, KB_FABRIC,
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
	{ "topo", K_TOPO, O(topo), 0, 2, KB_FABRIC | KB_QUIET,
	  "leafspine|fattree|rail" },
	{ "k", K_U32, O(k), 2, 16, KB_FABRIC | KB_QUIET,
	  "fat tree arity (even, 2-16: k^3/4 hosts)" },
	{ "rails", K_U32, O(rails), 1, 16, KB_FABRIC | KB_QUIET,
	  "topo rail: NICs per server, each on its rail's leaf (1-16)" },
	{ "fabric_rate", K_RATE, O(fabric_gbps), 25, 800,
	  KB_FABRIC | KB_QUIET, "switch-to-switch link speed "
	  "25g|40g|50g|100g|200g|400g|800g (default: rate)" },
	{ "fabric_delay", K_DUR, O(fabric_delay_ps), PS_PER_NS,
	  100 * PS_PER_US, KB_FABRIC | KB_QUIET,
	  "switch-to-switch link delay (default: delay)" },
	{ "oversub", K_U32, O(oversub), 1, 16, KB_FABRIC | KB_QUIET,
	  "leaf-spine oversubscription N:1 (1-16; sets the uplinks' speed)" },
	{ "incast_period", K_DUR, O(incast_period_ps), PS_PER_US,
	  100 * PS_PER_MS, KB_MIX | KB_QUIET,
	  "a periodic incast over the mix, every T" },
	{ "incast_senders", K_U32, O(incast_senders), 1, 1023,
	  KB_MIX | KB_QUIET, "senders of the periodic incast (1-1023)" },
	{ "incast_size", K_BYTES, O(incast_size), 1, 1ull << 30,
	  KB_MIX | KB_QUIET, "bytes per incast sender (1 B to 1GB)" },
	{ "alpha", K_ALPHA, O(alpha_log2), 0, 0, KB_ALL | KB_QUIET,
	  "dynamic threshold alpha, a power of 2 from 1/256 to 8, or auto" },
	{ "reserve", K_AUTO_BYTES, O(reserve), 0, 16 << 20, KB_ALL | KB_QUIET,
	  "reserved bytes per queue (0 to 16MB, or auto)" },
	{ "headroom", K_AUTO_BYTES, O(headroom), 1, 64 << 20,
	  KB_ALL | KB_QUIET, "PFC headroom per port (1 B to 64MB, or auto)" },
	{ "xon_offset", K_BYTES, O(xon_offset), 0, 1 << 20, KB_ALL | KB_QUIET,
	  "Xon this many bytes below Xoff (0 to 1MB)" },
	{ "incast_prio", K_U32, O(incast_prio), 0, 7, KB_MIX | KB_QUIET,
	  "priority of the periodic incast (0-7, not 6; 3: the mix's)" },
	{ "pfc_prios", K_PRIOS, O(pfc_prios), 0, 0, KB_ALL | KB_QUIET,
	  "priorities with PFC: a list of 0-7 such as 3,4, or all" },
	{ "storm_at", K_DUR, O(storm_at_ps), 0, 1000 * PS_PER_MS,
	  KB_ALL | KB_QUIET, "a PFC storm: the receiver's NIC (an incast's; "
	  "host 0 otherwise) stops draining at T and pauses its switch port "
	  "for good (0: none)" },
};
#undef O
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static const char *const kind_names[] = { "incast", "staircase",
					  "permutation", "mix", "allreduce",
					  "alltoall" };

const char *sim_kind_name(enum sim_kind k)
{
	return k < SIM_NKINDS ? kind_names[k] : "?";
}

const char *sim_kind_list(void)
{
	static char list[96];
	size_t i, n = 0;

	if (!*list)
		for (i = 0; i < SIM_NKINDS; i++)
			n += (size_t)snprintf(list + n, sizeof(list) - n,
					      "%s%s", i ? ", " : "",
					      kind_names[i]);
	return list;
}

int sim_kind_parse(const char *name, enum sim_kind *k)
{
	unsigned i;

	for (i = 0; i < SIM_NKINDS; i++)
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
	c->topo = SIM_TOPO_LEAFSPINE;
	c->rails = 8;
	c->k = 4;
	c->incast_senders = 60;		/* HPCC's Fig. 11: 60 x 500 KB */
	c->incast_size = 500000;
	c->alpha_log2 = SIM_ALPHA_AUTO;
	c->reserve = SIM_AUTO;
	c->headroom = SIM_AUTO;
	c->xon_offset = 3072;		/* HPCC ns-3's */
	c->incast_prio = SIM_PRIO_DATA;
	c->pfc_prios = 0;		/* all data priorities */
	c->ranks = 8;
	c->coll_size = 16 << 20;
	c->coll_algo = SIM_COLL_RING;
	c->iters = 1;
}

const char *sim_cfg_keys(enum sim_kind k)
{
	static char buf[SIM_NKINDS][1024];
	size_t i, n = 0;

	if (k >= SIM_NKINDS)
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

/* Decimal, or hexadecimal after 0x: a leading zero is no octal ("ranks
 * 010" is 10, as a user means it, not 8). */
static int parse_u64(const char *v, uint64_t *out)
{
	char *end;

	if (!*v || *v == '-' || *v == '+')
		return -1;
	errno = 0;
	*out = strtoull(v, &end, v[0] == '0' && (v[1] == 'x' || v[1] == 'X') ?
			16 : 10);
	return errno || *end || end == v ? -1 : 0;
}

static int fmt_dur(char *b, size_t n, int64_t ps);

/* "all" (0) or "3,4": priorities 0-7 -> a bit each. */
static int parse_prios(const char *v, uint32_t *out)
{
	uint32_t m = 0;

	if (!strcasecmp(v, "all")) {
		*out = 0;
		return 0;
	}
	for (;;) {
		if (*v < '0' || *v > '7' || (v[1] && v[1] != ','))
			return -1;
		m |= 1u << (*v - '0');
		if (!v[1])
			break;
		v += 2;
	}
	*out = m;
	return 0;
}

/* "auto", "1/8", "0.125", "2": a power of two from 1/256 to 8 -> its
 * log2 (SAI's dynamic_th). */
static int parse_alpha(const char *v, int32_t *out)
{
	char *end;
	double x;
	int n;

	if (!strcasecmp(v, "auto")) {
		*out = SIM_ALPHA_AUTO;
		return 0;
	}
	errno = 0;
	if (!strncmp(v, "1/", 2)) {
		x = strtod(v + 2, &end);
		if (end == v + 2 || *end || errno || !(x > 0))
			return -1;
		x = 1 / x;
	} else {
		x = strtod(v, &end);
		if (end == v || *end || errno)
			return -1;
	}
	for (n = -8; n <= 3; n++)
		if (ldexp(1, n) == x) {
			*out = n;
			return 0;
		}
	return -1;
}

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
/* The key `name` of the scenario's kind, or an error naming the kind's
 * keys (or the one meant).
 */
static int find_key(const struct sim_cfg *cfg, const char *name,
		    const struct key **out, struct pcb_err *err)
{
	struct suggest sg;
	char dym[160];
	size_t i;

	*out = NULL;
	for (i = 0; i < NKEYS; i++)
		if (!strcasecmp(keys[i].name, name) &&
		    (keys[i].kinds & (1u << cfg->kind)))
			*out = &keys[i];
	if (*out)
		return 0;
	suggest_init(&sg, name);
	for (i = 0; i < NKEYS; i++)
		if (keys[i].kinds & (1u << cfg->kind))
			suggest_add(&sg, keys[i].name);
	if (sg.n)
		return pcb_error(err, PCB_E_NOENT, "sim: %s has no key '%s'%s",
				 sim_kind_name(cfg->kind), name,
				 suggest_text(&sg, dym, sizeof(dym)));
	return pcb_error(err, PCB_E_NOENT, "sim: %s has no key '%s'; valid "
			 "keys: %s", sim_kind_name(cfg->kind), name,
			 sim_cfg_keys(cfg->kind));
}

/* One of the words of a key with named values (start, adp_retx, dist,
 * topo): its index in `words` (NULL-terminated), or -1.
 */
static int word_of(const char *v, const char *const *words)
{
	int i;

	for (i = 0; words[i]; i++)
		if (!strcasecmp(v, words[i]))
			return i;
	return -1;
}

/* ecn off | KMIN:KMAX:PMAX */
static int set_ecn(struct sim_cfg *c, const struct key *k, const char *v,
		   struct pcb_err *err)
{
	char a[32], b[32], pm[32];
	uint64_t kmin, kmax;
	char *end;
	double x;

	if (!strcasecmp(v, "off")) {
		c->ecn_on = false;
		return 0;
	}
	if (sscanf(v, "%31[^:]:%31[^:]:%31s", a, b, pm) != 3 ||
	    parse_bytes(a, &kmin) || parse_bytes(b, &kmax) || kmin >= kmax)
		return bad(err, k, v);
	errno = 0;
	x = strtod(pm, &end);
	if (end == pm || *end || errno || !(x > 0 && x <= 1))
		return bad(err, k, v);
	c->ecn_on = true;
	c->kmin = kmin;
	c->kmax = kmax;
	c->pmax = (uint32_t)llround(x * 65536);
	return 0;
}

/* A number-valued key (rate, mtu, durations, bytes, counts, a
 * probability) into c at the key's offset.
 */
static int set_number(struct sim_cfg *c, const struct key *k, const char *v,
		      struct pcb_err *err)
{
	char *p = (char *)c, *end;
	uint64_t u = 0;
	int64_t d = 0;
	uint32_t w;
	double x;

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
		w = (uint32_t)u;
		memcpy(p + k->off, &w, sizeof(w));
		return 0;
	case K_MTU:
		if (parse_u64(v, &u) || (u != 1024 && u != 4096))
			return bad(err, k, v);
		c->mtu = (uint32_t)u;
		return 0;
	case K_DUR:
		if (parse_dur(v, &d) || d < (int64_t)k->min ||
		    d > (int64_t)k->max)
			return bad(err, k, v);
		memcpy(p + k->off, &d, sizeof(d));
		if (!strcmp(k->name, "jitter"))
			c->jitter = d > 0;
		return 0;
	case K_AUTO_BYTES:
	case K_BYTES:
		if (k->type == K_AUTO_BYTES && !strcasecmp(v, "auto"))
			u = SIM_AUTO;
		else if (parse_bytes(v, &u) || u < k->min || u > k->max)
			return bad(err, k, v);
		memcpy(p + k->off, &u, sizeof(u));
		return 0;
	case K_U32:
	case K_U64:
		if (parse_u64(v, &u) || u < k->min || u > k->max)
			return bad(err, k, v);
		if (k->type == K_U32) {
			w = (uint32_t)u;
			memcpy(p + k->off, &w, sizeof(w));
		} else {
			memcpy(p + k->off, &u, sizeof(u));
		}
		return 0;
	default:	/* K_PROB */
		errno = 0;
		x = strtod(v, &end);
		if (end == v || *end || errno || !(x >= 0 && x <= 0.5))
			return bad(err, k, v);
		c->loss = (uint32_t)(x * 4294967296.0);
		return 0;
	}
}

/* A key with named values into c. */
static int set_word(struct sim_cfg *c, const struct key *k, const char *v,
		    struct pcb_err *err)
{
	static const char *const onoff[] = { "off", "0", "enqueue", "on", "1",
					     "dequeue", NULL };
	static const char *const starts[] = { "sync", "jitter", NULL };
	static const char *const adps[] = { "off", "on", "auto", NULL };
	static const char *const dists[] = { "websearch", "hadoop", NULL };
	static const char *const topos[] = { "leafspine", "fattree", "rail",
					     NULL };
	static const char *const algos[] = { "ring", "tree", NULL };
	bool b;
	int i;

	switch (k->type) {
	case K_BOOL:
		if ((i = word_of(v, onoff)) < 0)
			return bad(err, k, v);
		b = i >= 3;
		memcpy((char *)c + k->off, &b, sizeof(b));
		return 0;
	case K_START:
		if ((i = word_of(v, starts)) < 0)
			return bad(err, k, v);
		c->jitter = i == 1;
		if (c->jitter && !c->jitter_ps)
			c->jitter_ps = 10 * PS_PER_US;
		return 0;
	case K_ADP:
		if ((i = word_of(v, adps)) < 0)
			return bad(err, k, v);
		c->adp_retx = i == 0 ? SIM_ADP_OFF : i == 1 ? SIM_ADP_ON :
			      SIM_ADP_AUTO;
		return 0;
	case K_DIST:
		if ((i = word_of(v, dists)) < 0)
			return bad(err, k, v);
		c->dist = (uint32_t)i;
		return 0;
	case K_TOPO:
		if ((i = word_of(v, topos)) < 0)
			return bad(err, k, v);
		c->topo = i == 2 ? SIM_TOPO_RAIL : i ? SIM_TOPO_FATTREE :
			  SIM_TOPO_LEAFSPINE;
		return 0;
	case K_COLL:
		if ((i = word_of(v, algos)) < 0)
			return bad(err, k, v);
		c->coll_algo = i ? SIM_COLL_TREE : SIM_COLL_RING;
		return 0;
	case K_ALPHA:
		return parse_alpha(v, &c->alpha_log2) ? bad(err, k, v) : 0;
	case K_PRIOS:
		return parse_prios(v, &c->pfc_prios) ? bad(err, k, v) : 0;
	case K_ECN:
		return set_ecn(c, k, v, err);
	default:
		return set_number(c, k, v, err);
	}
}

int sim_cfg_set(struct sim_cfg *cfg, const char *name, const char *v,
		struct pcb_err *err)
{
	const struct key *k;
	struct sim_cfg c = *cfg;
	int rc = find_key(cfg, name, &k, err);

	if (!rc)
		rc = set_word(&c, k, v, err);
	if (rc)
		return rc;
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

static int fmt_bytes(char *b, size_t n, uint64_t v);

static uint32_t fabric_hosts(const struct sim_cfg *c)
{
	return c->topo == SIM_TOPO_FATTREE ? c->k * c->k * c->k / 4 :
					     c->leaves * c->hosts_per_leaf;
}

int sim_cfg_check(const struct sim_cfg *c, struct pcb_err *err)
{
	bool fabric = sim_kind_fabric(c->kind);
	char a[32];
	uint32_t i;

	if (fabric && c->topo == SIM_TOPO_FATTREE && c->k % 2)
		return pcb_error(err, PCB_E_RANGE, "sim: fat tree k %u is odd; "
				 "k is even, 2-16", c->k);
	if (fabric && c->topo == SIM_TOPO_RAIL && c->leaves % c->rails)
		return pcb_error(err, PCB_E_RANGE, "sim: topo rail: leaves %u "
				 "is not a multiple of rails %u (a leaf per "
				 "rail in each group of servers)", c->leaves,
				 c->rails);
	if (fabric && c->oversub && c->topo == SIM_TOPO_FATTREE)
		return pcb_error(err, PCB_E_INVAL, "sim: oversub is for "
				 "leaf-spine; a fat tree has full bisection");
	if (fabric && c->oversub && c->fabric_gbps)
		return pcb_error(err, PCB_E_INVAL, "sim: oversub sets the "
				 "uplinks' speed; set oversub or fabric_rate, "
				 "not both");
	if (fabric && !sim_fabric_ppb(c))
		return pcb_error(err, PCB_E_RANGE, "sim: oversub %u with %u "
				 "hosts at %ug and %u spines gives uplinks of "
				 "%.4g Gb/s, not a whole number of ps per byte",
				 c->oversub, c->hosts_per_leaf, c->rate_gbps,
				 c->spines, (double)c->hosts_per_leaf *
				 c->rate_gbps / c->spines / c->oversub);
	if ((c->kind == SIM_ALLREDUCE || c->kind == SIM_ALLTOALL) &&
	    c->ranks > fabric_hosts(c))
		return pcb_error(err, PCB_E_RANGE, "sim: ranks %u needs more "
				 "hosts than the %u there are (one rank a "
				 "host: leaves x hosts, or a fat tree's k^3/4)",
				 c->ranks, fabric_hosts(c));
	if (c->kind == SIM_MIX && c->incast_period_ps &&
	    c->incast_senders >= fabric_hosts(c))
		return pcb_error(err, PCB_E_RANGE, "sim: incast_senders %u "
				 "needs more hosts than the %u there are (1-%u)",
				 c->incast_senders, fabric_hosts(c),
				 fabric_hosts(c) - 1);
	if (c->kind == SIM_MIX && c->incast_prio == SIM_PRIO_CTRL)
		return pcb_error(err, PCB_E_RANGE, "sim: incast_prio %u is the "
				 "control priority (ACK, NACK, CNP); 0-7 but %u",
				 SIM_PRIO_CTRL, SIM_PRIO_CTRL);
	for (i = 0; i < 8; i++)
		if ((c->pfc_prios >> i & 1) && i != SIM_PRIO_DATA &&
		    (c->kind != SIM_MIX || i != c->incast_prio))
			return pcb_error(err, PCB_E_RANGE, "sim: pfc_prios: "
					 "priority %u carries no data (data "
					 "priorities: %u%s)", i, SIM_PRIO_DATA,
					 c->kind == SIM_MIX &&
					 c->incast_prio != SIM_PRIO_DATA ?
					 " and incast_prio's" : "");
	if (c->storm_at_ps && !sim_pfc_on(c, SIM_PRIO_DATA))
		return pcb_error(err, PCB_E_INVAL, "sim: storm_at needs PFC "
				 "on priority %u (pfc on)", SIM_PRIO_DATA);
	if (c->headroom != SIM_AUTO && c->headroom < sim_headroom_min(c)) {
		unsigned long long m = sim_headroom_min(c);

		fmt_bytes(a, sizeof(a), c->headroom);
		return pcb_error(err, PCB_E_RANGE, "sim: headroom %s is below "
				 "the %llu B a port needs (its link's delay and "
				 "speed, the MTU): %llu or more, or auto", a, m,
				 m);
	}
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

/* The bytes a key's value takes in struct sim_cfg. */
static size_t key_size(enum key_type t)
{
	switch (t) {
	case K_DUR:
	case K_BYTES:
	case K_U64:
	case K_AUTO_BYTES:
		return 8;
	case K_BOOL:
		return sizeof(bool);
	case K_RATE:
	case K_MTU:
	case K_U32:
	case K_PROB:
	case K_DIST:
	case K_ADP:
	case K_TOPO:
	case K_ALPHA:
	case K_PRIOS:
	case K_COLL:
		return 4;
	case K_ECN:
	case K_START:
		break;
	}
	return 0;
}

/* A KB_QUIET key at its default (not shown). */
static bool key_quiet(const struct key *k, const struct sim_cfg *c)
{
	struct sim_cfg d;

	if (!(k->kinds & KB_QUIET))
		return false;
	sim_cfg_default(&d);
	return !memcmp((const char *)c + k->off, (const char *)&d + k->off,
		       key_size(k->type));
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

		if (!(k->kinds & (1u << c->kind)) || key_quiet(k, c))
			continue;
		switch (k->type) {
		case K_RATE:
			memcpy(&w, p + k->off, sizeof(w));
			snprintf(v, sizeof(v), "%ug", w);
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
		case K_TOPO:
			snprintf(v, sizeof(v), "%s", c->topo ==
				 SIM_TOPO_FATTREE ? "fattree" : c->topo ==
				 SIM_TOPO_RAIL ? "rail" : "leafspine");
			break;
		case K_COLL:
			snprintf(v, sizeof(v), "%s", c->coll_algo ==
				 SIM_COLL_TREE ? "tree" : "ring");
			break;
		case K_ALPHA:
			if (c->alpha_log2 == SIM_ALPHA_AUTO)
				snprintf(v, sizeof(v), "auto");
			else if (c->alpha_log2 >= 0)
				snprintf(v, sizeof(v), "%d",
					 1 << c->alpha_log2);
			else
				snprintf(v, sizeof(v), "1/%d",
					 1 << -c->alpha_log2);
			break;
		case K_PRIOS: {
			size_t m = 0;
			int b;

			for (b = 0; b < 8; b++)
				if (c->pfc_prios >> b & 1)
					m += (size_t)snprintf(v + m,
							      sizeof(v) - m,
							      "%s%d", m ? "," :
							      "", b);
			if (!m)
				snprintf(v, sizeof(v), "all");
			break;
		}
		case K_AUTO_BYTES:
			memcpy(&u, p + k->off, sizeof(u));
			if (u == SIM_AUTO)
				snprintf(v, sizeof(v), "auto");
			else
				fmt_bytes(v, sizeof(v), u);
			break;
		}
		n += (size_t)snprintf(buf + n, len - n, " %s %s", k->name, v);
	}
	return n;
}

/* ---- the hosts' parts ------------------------------------------------ */

uint32_t sim_cfg_hosts(const struct sim_cfg *c)
{
	return sim_kind_fabric(c->kind) ? fabric_hosts(c) : c->senders + 1;
}

/* The host whose NIC a storm stops (sim_build's), or NONE. */
static uint32_t storm_host(const struct sim_cfg *c)
{
	if (!c->storm_at_ps)
		return NONE;
	return c->kind == SIM_INCAST || c->kind == SIM_STAIRCASE ?
	       c->senders : 0;
}

const char *sim_cfg_role(const struct sim_cfg *c, uint32_t h)
{
	if (h >= sim_cfg_hosts(c))
		return NULL;
	switch (c->kind) {
	case SIM_INCAST:
	case SIM_STAIRCASE:
		return h == c->senders ? "receiver" : "sender";
	case SIM_PERMUTATION:
	case SIM_MIX:
		return "both";
	case SIM_ALLREDUCE:
	case SIM_ALLTOALL:
		return h < c->ranks ? "rank" : "idle";
	case SIM_NKINDS:
		break;
	}
	return NULL;
}

/* "hA-hB" (or "hA" alone) at the end of buf. */
static void fmt_hosts(char *buf, size_t len, uint32_t a, uint32_t b)
{
	size_t n = strlen(buf);

	if (n >= len)
		return;
	if (a == b)
		snprintf(buf + n, len - n, "h%u", a);
	else
		snprintf(buf + n, len - n, "h%u-h%u", a, b);
}

static void cat(char *buf, size_t len, const char *text)
{
	size_t n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "%s", text);
}

size_t sim_cfg_roles(const struct sim_cfg *c, char *buf, size_t len)
{
	uint32_t n = sim_cfg_hosts(c), st = storm_host(c);
	char t[32];

	if (!len)
		return 0;
	*buf = '\0';
	switch (c->kind) {
	case SIM_INCAST:
	case SIM_STAIRCASE:
		cat(buf, len, "receiver ");
		fmt_hosts(buf, len, c->senders, c->senders);
		cat(buf, len, "; senders ");
		fmt_hosts(buf, len, 0, c->senders - 1);
		if (c->kind == SIM_STAIRCASE)
			cat(buf, len, " (joining in that order)");
		break;
	case SIM_PERMUTATION:
		fmt_hosts(buf, len, 0, n - 1);
		cat(buf, len, " each sender and receiver (one flow out, one "
		    "in: a random permutation)");
		break;
	case SIM_MIX:
		fmt_hosts(buf, len, 0, n - 1);
		cat(buf, len, " each sender and receiver (flows between random "
		    "hosts)");
		if (c->incast_period_ps) {
			fmt_dur(t, sizeof(t), c->incast_period_ps);
			snprintf(buf + strlen(buf), len - strlen(buf), "; every "
				 "%s %u senders to a random receiver", t,
				 c->incast_senders);
		}
		break;
	case SIM_ALLREDUCE:
	case SIM_ALLTOALL:
		cat(buf, len, "ranks ");
		fmt_hosts(buf, len, 0, c->ranks - 1);
		cat(buf, len, c->kind == SIM_ALLTOALL ? " (each sender and "
		    "receiver)" : c->coll_algo == SIM_COLL_RING ? " (a ring: "
		    "each sends to the next)" : " (a tree: h0 the root)");
		if (c->ranks < n) {
			cat(buf, len, "; idle ");
			fmt_hosts(buf, len, c->ranks, n - 1);
		}
		break;
	case SIM_NKINDS:
		break;
	}
	if (st != NONE) {
		cat(buf, len, "; storm ");
		fmt_hosts(buf, len, st, st);
	}
	return strlen(buf);
}

static int sim_build(struct sim *s, struct pcb_err *err)
{
	const struct sim_cfg *c = &s->cfg;
	uint32_t i, n;
	int rc = 0;

	if (c->ecn_on && c->kmin >= c->kmax)
		return pcb_error(err, PCB_E_INVAL, "sim: ECN Kmin >= Kmax");
	rc = sim_cfg_check(c, err);
	if (rc)
		return rc;
	switch (c->kind) {
	case SIM_INCAST:
	case SIM_STAIRCASE:
		n = c->senders;
		rc = sim_topo_star(s, n + 1);
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

		rc = sim_topo_fabric(s);
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
		rc = sim_topo_fabric(s);
		if (rc)
			break;
		if (s->nhosts < 2)
			return pcb_error(err, PCB_E_INVAL,
					 "sim: mix needs 2 hosts");
		sim_mix_start(s);
		break;
	case SIM_ALLREDUCE:
	case SIM_ALLTOALL:
		rc = sim_topo_fabric(s);
		if (!rc)
			rc = sim_coll_start(s);
		break;
	case SIM_NKINDS:
		break;
	}
	if (rc)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	if (c->storm_at_ps)
		sim_schedule(s, c->storm_at_ps, EV_STORM,
			     s->hosts[storm_host(c)].port);
	return sim_buffer_setup(s, err);
}

static const struct sim_source scenario_source = {
	.build = sim_build,
	.path_rtt = sim_topo_path_rtt,
	.path_ppb = sim_topo_path_ppb,
	.flow_gen = sim_flow_gen,
	.flow_arrived = sim_coll_arrived,
	.summary = sim_coll_summary,
	.release = sim_coll_free,
};

int sim_create(struct sim **out, const struct sim_cfg *cfg,
	       const struct sim_algo *algo, struct pcb_err *err)
{
	return sim_fabric_create(out, cfg, algo, &scenario_source, err);
}
