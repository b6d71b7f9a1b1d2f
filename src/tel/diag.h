/* diag.h - diagnostic counters (DOCA telemetry diag): the context and
 * its device's sampler behind a provider.
 *
 * The device side (struct diag_dev) is the NIC's sampler, reached through
 * a provider (struct diag_prov): the sim's sampler (src/sim/simtel.h: a
 * validated, flock'd file beside the device file holding the owner, the
 * loaded configuration and data IDs, the running counters and the sample
 * ring, fed as simulated time passes) or DOCA's libraries on a real NIC
 * (tel/doca_ctx.h).  A context configures it and reads it with DOCA's
 * state machine Idle -> Configured -> Ready -> Running, and errors
 * (TEL_*); what the device decides (ownership, the actual period, which
 * IDs it measures, the samples) is the provider's.
 *
 * Ownership: one context per device; the provider says how far that
 * reaches (the sim's: across processes, the file holds the owner's pid).
 */
#ifndef PCCB_TEL_DIAG_H
#define PCCB_TEL_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "err.h"

#define DIAG_MAX_IDS 64
#define DIAG_LOG_MAX_SAMPLES 12

enum diag_mode { DIAG_SINGLE = 0, DIAG_REPETITIVE = 1, DIAG_ON_DEMAND = 2 };
enum diag_ts { DIAG_FRC = 0, DIAG_RTC = 1 };

struct diag_cfg {
	uint64_t period_ns;	/* requested; actual after apply */
	uint32_t log_samples;
	uint32_t max_ids;
	uint32_t mode;		/* enum diag_mode */
	uint32_t format;	/* 0, 1, 2 */
	uint32_t sync;		/* 0 no sync, 1 sync start */
	uint32_t clear;		/* data_clear */
	uint32_t ts;		/* enum diag_ts */
	uint32_t reserved;
};

struct diag_caps {
	uint32_t max_ids;
	uint32_t log_max_samples;
	bool data_clear, sync_start;
	bool modes[3], ts[2];
};

/* What the simulator measures, cumulative (see sim_port_counters). */
enum diag_src {
	DS_RX_BYTES, DS_RX_PKTS, DS_TX_BYTES, DS_TX_PKTS,
	DS_RX_BYTES_P0, DS_RX_PKTS_P0 = DS_RX_BYTES_P0 + 8,
	DS_TX_BYTES_P0 = DS_RX_PKTS_P0 + 8, DS_TX_PKTS_P0 = DS_TX_BYTES_P0 + 8,
	DS_PAUSE_RX_P0 = DS_TX_PKTS_P0 + 8, DS_PAUSE_TX_P0 = DS_PAUSE_RX_P0 + 8,
	DS_ECN = DS_PAUSE_TX_P0 + 8, DS_CNP_HANDLED, DS_CNP_SENT, DS_DESCHED,
	DS_RX_CQE, DS_TX_CQE, DS_COUNT
};

struct diag_dev;
struct tel_diag;

/* A sampler: a provider's calls, in DOCA's terms, on its state p (the
 * sim's file, src/sim/simtel.h; DOCA's libraries, tel/doca_ctx.h).  The
 * tel_diag_* context checks states and values, then calls these; each
 * returns a TEL_* code.  How to add a provider: fill one const struct
 * diag_prov; the device (core/dev_*.c) opens it.
 */
struct diag_prov {
	/* the most tel_diag_set_log_max_num_samples takes (a device may
	 * refuse less at apply_config) */
	uint32_t log_max_samples;
	int (*caps)(void *p, struct diag_caps *c);
	/* take the device (IN_USE when another context owns it, unless
	 * force); one that runs already is adopted: its configuration, IDs
	 * and period into t, t->state Running */
	int (*create)(void *p, bool force, struct tel_diag *t);
	void (*release)(void *p);	/* give up ownership, not stopping */
	void (*destroy)(void *p);	/* stopping first */
	/* diag_dev_keep, diag_dev_kept (0 when nothing outlives a process) */
	int (*keep)(void *p, const struct diag_cfg *cfg, const uint64_t *ids,
		    uint32_t nids, uint64_t actual_ns);
	int (*kept)(void *p, struct diag_cfg *cfg, uint64_t *ids,
		    uint32_t *nids);
	int (*apply_config)(void *p, const struct diag_cfg *cfg);
	int (*check_id)(void *p, const struct diag_cfg *cfg, uint64_t id);
	int (*apply_ids)(void *p, const struct diag_cfg *cfg,
			 const uint64_t *ids, uint32_t n, uint64_t *failed,
			 uint64_t *actual_ns);
	int (*start)(void *p, const struct tel_diag *t);
	int (*stop)(void *p, const struct tel_diag *t);
	int (*restart)(void *p);
	int (*sample_size)(void *p, const struct tel_diag *t, uint32_t *size);
	/* *lost: samples dropped before these (with SKIPPED) */
	int (*query)(void *p, const struct tel_diag *t, void *buf,
		     uint32_t max, uint32_t size, uint32_t *got,
		     uint64_t *lost);
};
/* p stays the caller's; diag_dev_close destroys its context. */
int diag_dev_open_prov(struct diag_dev **out, const struct diag_prov *ops,
		       void *p, struct pcb_err *err);
void diag_dev_close(struct diag_dev *d);
/* The caps of this device; a TEL_* code. */
int diag_dev_caps_of(struct diag_dev *d, struct diag_caps *c);
/* The DS_* source (pccbench's counter vocabulary, what the sim measures)
 * of `id`, or -1.
 */
int diag_dev_source(uint64_t id);
/* 0 when the sim measures `id`; TEL_NOT_SUPPORTED otherwise. */
int diag_dev_supported(uint64_t id);
/* DOCA's defaults (telemetry_diag sample): a new context's. */
void tel_diag_cfg_default(struct diag_cfg *c);

enum diag_state { DIAG_IDLE, DIAG_CONFIGURED, DIAG_READY, DIAG_RUNNING };

struct tel_diag {
	struct diag_dev *dev;
	struct diag_cfg cfg;
	enum diag_state state;
	uint32_t nids;
	uint64_t ids[DIAG_MAX_IDS];
	uint64_t actual_ns;	/* after apply */
	uint64_t lost;		/* samples overwritten before the last read */
};

/* What `diag config` and `diag ids` chose, kept beside the stopped
 * device so the next process starts from it (`diag config` in one
 * command, `diag start` in the next).  keep: BAD_STATE while sampling;
 * kept: 0 nothing, 1 a configuration, 2 and data IDs (into ids[], which
 * holds DIAG_MAX_IDS).
 */
int diag_dev_keep(struct diag_dev *d, const struct diag_cfg *cfg,
		  const uint64_t *ids, uint32_t nids, uint64_t actual_ns);
int diag_dev_kept(struct diag_dev *d, struct diag_cfg *cfg, uint64_t *ids,
		  uint32_t *nids);

/* Take ownership (IN_USE when another live context has it, unless
 * force); a running device whose owner is gone is adopted, Running.
 */
int tel_diag_create(struct tel_diag *t, struct diag_dev *dev, bool force);
int tel_diag_destroy(struct tel_diag *t);
/* Give up ownership without stopping, as a process that exits does. */
void tel_diag_release(struct tel_diag *t);
int tel_diag_set_sample_period(struct tel_diag *t, uint64_t ns);
int tel_diag_set_log_max_num_samples(struct tel_diag *t, uint32_t log);
int tel_diag_set_max_num_data_ids(struct tel_diag *t, uint32_t n);
int tel_diag_set_sample_mode(struct tel_diag *t, uint32_t mode);
int tel_diag_set_output_format(struct tel_diag *t, uint32_t format);
int tel_diag_set_sync_mode(struct tel_diag *t, uint32_t sync);
int tel_diag_set_data_clear(struct tel_diag *t, uint32_t clear);
int tel_diag_set_timestamp_source(struct tel_diag *t, uint32_t ts);
int tel_diag_apply_config(struct tel_diag *t);
int tel_diag_check_data_id(struct tel_diag *t, uint64_t id);
/* All or nothing; *failed = the first offending ID (0: not ID-specific). */
int tel_diag_apply_data_ids(struct tel_diag *t, const uint64_t *ids,
			    uint32_t n, uint64_t *failed);
int tel_diag_start(struct tel_diag *t);
int tel_diag_stop(struct tel_diag *t);
int tel_diag_restart(struct tel_diag *t);
/* The actual period once IDs are applied, else the requested one. */
uint64_t tel_diag_sample_period(const struct tel_diag *t);
int tel_diag_sample_size(const struct tel_diag *t, uint32_t *size);
/* Up to max new samples in the output format, back to back with stride
 * sample_size.  SKIPPED (data valid) when samples were overwritten since
 * the last read; t->lost says how many.
 */
int tel_diag_query(struct tel_diag *t, void *buf, uint32_t max,
		   uint32_t *got);

/* Fields of an output-format sample: host byte order, unaligned. */
static inline uint32_t diag_get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t diag_get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* One sample of `buf` decoded: id, timestamps in ns, values. */
struct diag_sample {
	uint32_t id;
	uint64_t start_ns, end_ns;
	uint64_t values[DIAG_MAX_IDS];
};
void tel_diag_decode(const struct tel_diag *t, const void *sample,
		     struct diag_sample *out);
/* The output format, for a provider that builds the samples itself (the
 * sim): a sample's size, and sample `id` taken at `ts_ns` with values[i]
 * for t->ids[i] written into p.
 */
uint32_t tel_diag_format_size(const struct tel_diag *t);
void tel_diag_encode(const struct tel_diag *t, uint64_t id, int64_t ts_ns,
		     const uint64_t *values, uint8_t *p);

#endif
