/* diag_ids.h - the diagnostic data IDs of DOCA telemetry diag (seeds 000
 * and 002): 64-bit IDs = group[63:48] counter[47:32] instance[31:0].
 *
 * Every ID of the seeds' table decodes to its table entry and instance
 * fields and has a name pccbench prints and accepts: the table name with
 * the instance after its first word, as DOCA's sample names its defaults
 * (port_0_rx_bytes), e.g. port_1_priority_3_rx_bytes, host_0_..., 
 * function_5_completion_engine_rx_cqes, pcie_n0_i1_d2_link_inbound_bytes,
 * pcie_n0_i1_d2_tc3_link_tclass_read_stalled_time_ordering_ns.
 */
#ifndef PCCB_TEL_DIAG_IDS_H
#define PCCB_TEL_DIAG_IDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum diag_inst {
	DI_GLOBAL,		/* instance 0 */
	DI_PORT,		/* [7:0] local port */
	DI_PORT_PRIO,		/* [7:0] port, [11:8] priority */
	DI_HOST,		/* [7:0] host */
	DI_FUNC,		/* [15:0] vhca_id */
	DI_PCIE,		/* [7:0] node, [15:8] index, [23:16] depth */
	DI_PCIE_TC,		/* ... [31:16] = tclass << 6 | depth */
};

enum diag_class { DC_COUNTER, DC_STATISTIC };

struct diag_id_def {
	uint32_t type;		/* id >> 32: group and counter number */
	const char *name;	/* the seeds' name, without instance */
	enum diag_inst inst;
	enum diag_class cls;
	bool sync;		/* supports SYNC_START */
	const char *descr;
};

struct diag_id {
	const struct diag_id_def *def;
	uint32_t port, prio, host, vhca, node, index, depth, tclass;
};

size_t diag_id_count(void);
const struct diag_id_def *diag_id_def_at(size_t i);
/* Decode: 0, or -1 for an ID outside the table or a malformed instance
 * (reserved bits set, priority > 7, depth > 63, tclass > 7).
 */
int diag_id_decode(uint64_t id, struct diag_id *out);
uint64_t diag_id_encode(const struct diag_id *d);
void diag_id_name(uint64_t id, char *buf, size_t len);
/* A name (port_0_rx_bytes) or a number (0x1020000100000000). */
int diag_id_parse(const char *text, uint64_t *id);

#endif
