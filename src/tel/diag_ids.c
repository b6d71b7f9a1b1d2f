/* diag_ids.c - the diagnostic data-ID table, decoding and names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tel/diag_ids.h"

#define C DC_COUNTER
#define S DC_STATISTIC

/* Seeds 000 + 002; which IDs support sync start is documented for the
 * port byte/packet counters (no) and ICMC (yes) only; the rest are
 * marked no, the conservative reading.
 */
static const struct diag_id_def defs[] = {
	{ 0x10200001, "port_rx_bytes", DI_PORT, C, false,
	  "bytes received on the physical port" },
	{ 0x10200002, "port_priority_rx_bytes", DI_PORT_PRIO, C, false,
	  "bytes received on the port and priority" },
	{ 0x10200003, "port_rx_packets", DI_PORT, C, false,
	  "packets received on the port" },
	{ 0x10200004, "port_priority_rx_packets", DI_PORT_PRIO, C, false,
	  "packets received on the port and priority" },
	{ 0x10200005, "port_rx_discard_buf_packets", DI_PORT, C, false,
	  "RX packets dropped for lack of buffers on the port" },
	{ 0x10200006, "port_priority_rx_pauses_packets", DI_PORT_PRIO, C,
	  false, "link-layer pause packets received, port and priority" },
	{ 0x10400001, "host_rx_buffer_discards", DI_HOST, C, false,
	  "packets discarded for lack of RX buffer, per host" },
	{ 0x10800001, "host_rx_transport_pass_packets", DI_HOST, C, false,
	  "packets passed RX transport to the scatter engine, per host" },
	{ 0x10800002, "host_rx_transport_out_of_buffer_packets", DI_HOST, C,
	  false, "drops for lack of WQE (non-hairpin), per host" },
	{ 0x10800003, "host_rx_transport_out_of_buffer_hairpin_packets",
	  DI_HOST, C, false, "drops for lack of WQE (hairpin), per host" },
	{ 0x10800004, "port_rx_transport_ecn_packets", DI_PORT, C, false,
	  "RoCEv2 packets received with ECN CE at the NP" },
	{ 0x10800005, "port_rx_transport_cnp_handled_packets", DI_PORT, C,
	  false, "CNPs received and handled by the RP" },
	{ 0x11000001, "port_tx_transport_cnp_sent_packets", DI_PORT, C, false,
	  "CNPs sent by the NP" },
	{ 0x11000002, "tx_transport_done_due_to_cc_deschedule_events",
	  DI_GLOBAL, C, false, "QPs descheduled by CC rate limiting" },
	{ 0x11400001, "port_tx_bytes", DI_PORT, C, false,
	  "bytes transmitted on the port (no loopback)" },
	{ 0x11400002, "port_priority_tx_bytes", DI_PORT_PRIO, C, false,
	  "bytes transmitted, port and priority" },
	{ 0x11400003, "port_tx_packets", DI_PORT, C, false,
	  "packets transmitted on the port (no loopback)" },
	{ 0x11400004, "port_priority_tx_packets", DI_PORT_PRIO, C, false,
	  "packets transmitted, port and priority" },
	{ 0x11400005, "port_priority_tx_pauses_packets", DI_PORT_PRIO, C,
	  false, "link-layer pause packets transmitted, port and priority" },
	{ 0x11600001, "pcie_link_inbound_bytes", DI_PCIE, C, false,
	  "bytes from PCIe toward the device" },
	{ 0x11600002, "pcie_link_outbound_bytes", DI_PCIE, C, false,
	  "bytes from the device toward PCIe" },
	{ 0x11600003, "pcie_link_inbound_data_bytes", DI_PCIE, C, false,
	  "inbound data bytes without headers" },
	{ 0x11600004, "pcie_link_outbound_data_bytes", DI_PCIE, C, false,
	  "outbound data bytes without headers" },
	{ 0x11600005, "pcie_link_write_stalled_time_no_posted_data_credits_ns",
	  DI_PCIE, C, false, "ns stalled on posted writes, no data credits" },
	{ 0x11600006,
	  "pcie_link_write_stalled_time_no_posted_header_credits_ns", DI_PCIE,
	  C, false, "ns stalled on posted writes, no header credits" },
	{ 0x11600007,
	  "pcie_link_read_stalled_time_no_non_posted_data_credits_ns",
	  DI_PCIE, C, false, "ns stalled on reads, no data credits" },
	{ 0x11600008,
	  "pcie_link_read_stalled_time_no_non_posted_header_credits_ns",
	  DI_PCIE, C, false, "ns stalled on reads, no header credits" },
	{ 0x11600009, "pcie_link_read_stalled_time_no_completion_buffers_ns",
	  DI_PCIE, C, false, "ns stalled on reads, no completion buffers" },
	{ 0x1160000a, "pcie_link_tclass_read_stalled_time_ordering_ns",
	  DI_PCIE_TC, C, false, "ns stalled on reads for PCIe ordering" },
	{ 0x1160000b, "pcie_link_latency_total_read_ns", DI_PCIE, C, false,
	  "total latency of all PCIe reads" },
	{ 0x1160000c, "pcie_link_latency_total_read_packets", DI_PCIE, C,
	  false, "reads in the total latency" },
	{ 0x1160000d, "pcie_link_latency_max_read_ns", DI_PCIE, S, false,
	  "maximal single-read latency" },
	{ 0x1160000e, "pcie_link_latency_min_read_ns", DI_PCIE, S, false,
	  "minimal single-read latency" },
	{ 0x10c00001, "global_completion_engine_rx_cqes", DI_GLOBAL, C, false,
	  "responder (RX) CQEs" },
	{ 0x10c00002, "function_completion_engine_rx_cqes", DI_FUNC, C, false,
	  "RX CQEs per function" },
	{ 0x10c00004, "global_completion_engine_tx_cqes", DI_GLOBAL, C, false,
	  "requestor (TX) CQEs" },
	{ 0x10c00005, "function_completion_engine_tx_cqes", DI_FUNC, C, false,
	  "TX CQEs per function" },
	{ 0x11800001, "global_icmc_request", DI_GLOBAL, C, true,
	  "ICMC accesses" },
	{ 0x11800002, "global_icmc_hit", DI_GLOBAL, C, true, "ICMC hits" },
	{ 0x11800003, "global_icmc_miss", DI_GLOBAL, C, true, "ICMC misses" },
};

size_t diag_id_count(void)
{
	return sizeof(defs) / sizeof(defs[0]);
}

const struct diag_id_def *diag_id_def_at(size_t i)
{
	return i < diag_id_count() ? &defs[i] : NULL;
}

int diag_id_decode(uint64_t id, struct diag_id *d)
{
	uint32_t type = (uint32_t)(id >> 32), in = (uint32_t)id;
	size_t i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < diag_id_count() && defs[i].type != type; i++)
		;
	if (i == diag_id_count())
		return -1;
	d->def = &defs[i];
	switch (d->def->inst) {
	case DI_GLOBAL:
		return in ? -1 : 0;
	case DI_PORT:
		d->port = in & 0xff;
		return in >> 8 ? -1 : 0;
	case DI_PORT_PRIO:
		d->port = in & 0xff;
		d->prio = (in >> 8) & 0xf;
		return in >> 12 || d->prio > 7 ? -1 : 0;
	case DI_HOST:
		d->host = in & 0xff;
		return in >> 8 ? -1 : 0;
	case DI_FUNC:
		d->vhca = in & 0xffff;
		return in >> 16 ? -1 : 0;
	case DI_PCIE:
		d->node = in & 0xff;
		d->index = (in >> 8) & 0xff;
		d->depth = (in >> 16) & 0xff;
		return in >> 24 || d->depth > 63 ? -1 : 0;
	case DI_PCIE_TC:
		d->node = in & 0xff;
		d->index = (in >> 8) & 0xff;
		d->depth = (in >> 16) & 0x3f;
		d->tclass = in >> 22;
		return d->tclass > 7 ? -1 : 0;
	}
	return -1;
}

uint64_t diag_id_encode(const struct diag_id *d)
{
	uint64_t in = 0;

	switch (d->def->inst) {
	case DI_GLOBAL:
		break;
	case DI_PORT:
		in = d->port;
		break;
	case DI_PORT_PRIO:
		in = d->port | d->prio << 8;
		break;
	case DI_HOST:
		in = d->host;
		break;
	case DI_FUNC:
		in = d->vhca;
		break;
	case DI_PCIE:
		in = d->node | d->index << 8 | d->depth << 16;
		break;
	case DI_PCIE_TC:
		in = d->node | d->index << 8 |
		     (uint64_t)(d->tclass << 6 | d->depth) << 16;
		break;
	}
	return (uint64_t)d->def->type << 32 | in;
}

/* The instance words: "0", "0_priority_3", "n0_i1_d2_tc3". */
static void inst_text(const struct diag_id *d, char *b, size_t n)
{
	switch (d->def->inst) {
	case DI_GLOBAL:
		b[0] = 0;
		break;
	case DI_PORT:
		snprintf(b, n, "%u", d->port);
		break;
	case DI_PORT_PRIO:
		snprintf(b, n, "%u_priority_%u", d->port, d->prio);
		break;
	case DI_HOST:
		snprintf(b, n, "%u", d->host);
		break;
	case DI_FUNC:
		snprintf(b, n, "%u", d->vhca);
		break;
	case DI_PCIE:
		snprintf(b, n, "n%u_i%u_d%u", d->node, d->index, d->depth);
		break;
	case DI_PCIE_TC:
		snprintf(b, n, "n%u_i%u_d%u_tc%u", d->node, d->index, d->depth,
			 d->tclass);
		break;
	}
}

/* The table name with the instance after its first word; the priority
 * form drops "priority_" from the rest (port_0_priority_3_rx_bytes).
 */
static void build_name(const struct diag_id *d, char *buf, size_t len)
{
	const char *name = d->def->name, *rest = strchr(name, '_');
	char inst[48];

	inst_text(d, inst, sizeof(inst));
	if (!inst[0] || !rest) {
		snprintf(buf, len, "%s", name);
		return;
	}
	rest++;
	if (d->def->inst == DI_PORT_PRIO && !strncmp(rest, "priority_", 9))
		rest += 9;
	snprintf(buf, len, "%.*s_%s_%s", (int)(strchr(name, '_') - name),
		 name, inst, rest);
}

void diag_id_name(uint64_t id, char *buf, size_t len)
{
	struct diag_id d;

	if (diag_id_decode(id, &d))
		snprintf(buf, len, "0x%016llx", (unsigned long long)id);
	else
		build_name(&d, buf, len);
}

static int num(const char **p, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	v = strtoul(*p, &end, 10);
	if (errno || v > max)
		return -1;
	*out = (uint32_t)v;
	*p = end;
	return 0;
}

static int lit(const char **p, const char *s)
{
	size_t l = strlen(s);

	if (strncmp(*p, s, l))
		return -1;
	*p += l;
	return 0;
}

/* Parse the instance text of `def` at *p (the inverse of inst_text). */
static int parse_inst(const char **p, struct diag_id *d)
{
	switch (d->def->inst) {
	case DI_GLOBAL:
		return 0;
	case DI_PORT:
		return num(p, 255, &d->port);
	case DI_PORT_PRIO:
		return num(p, 255, &d->port) || lit(p, "_priority_") ||
		       num(p, 7, &d->prio) ? -1 : 0;
	case DI_HOST:
		return num(p, 255, &d->host);
	case DI_FUNC:
		return num(p, 65535, &d->vhca);
	case DI_PCIE:
	case DI_PCIE_TC:
		if (lit(p, "n") || num(p, 255, &d->node) || lit(p, "_i") ||
		    num(p, 255, &d->index) || lit(p, "_d") ||
		    num(p, 63, &d->depth))
			return -1;
		if (d->def->inst == DI_PCIE_TC)
			return lit(p, "_tc") || num(p, 7, &d->tclass) ? -1 : 0;
		return 0;
	}
	return -1;
}

int diag_id_parse(const char *text, uint64_t *id)
{
	struct diag_id d;
	size_t i, w;

	if (text[0] >= '0' && text[0] <= '9') {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(text, &end, 0);
		if (errno || *end || diag_id_decode(v, &d))
			return -1;
		*id = v;
		return 0;
	}
	for (i = 0; i < diag_id_count(); i++) {
		const char *name = defs[i].name, *p = text, *rest;

		memset(&d, 0, sizeof(d));
		d.def = &defs[i];
		if (d.def->inst == DI_GLOBAL) {
			if (!strcmp(text, name)) {
				*id = diag_id_encode(&d);
				return 0;
			}
			continue;
		}
		w = (size_t)(strchr(name, '_') - name) + 1;
		rest = name + w;
		if (d.def->inst == DI_PORT_PRIO &&
		    !strncmp(rest, "priority_", 9))
			rest += 9;
		if (strncmp(p, name, w))
			continue;
		p += w;
		if (parse_inst(&p, &d) || *p != '_' || strcmp(p + 1, rest))
			continue;
		*id = diag_id_encode(&d);
		return 0;
	}
	return -1;
}
