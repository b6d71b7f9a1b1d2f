/* telemetry.c - a fake libdoca_telemetry (tests/fake-doca/fake.h): the
 * diag, adp_retx and (a few) pcc calls as the DOCA state machines the
 * spec documents, with a virtual clock so tests are deterministic.
 *
 * The fake's device, not NVIDIA's: caps 48 data IDs, 2^14 samples, all
 * modes and timestamp sources, 16 histogram bins, every time unit.  It
 * measures the port data IDs (type 0x1020..., 0x1140..., 0x1080...,
 * 0x1100..., 0x10c0...), none of them syncable.  Each query of a
 * running diag context makes FAKE_DOCA_STEP samples (default 4) appear
 * (on_demand: one); sample k (from 0) of ID i holds (k+1)*(i+1)*100,
 * timestamped 1000 s + (k+1) periods.  Each histogram read adds i+1 to
 * bin i.  FAKE_DOCA_DIAG_OWNER=1: another program owns diag (create
 * without force: IN_USE).  FAKE_DOCA_RETX_CHANGE=1: another program
 * reconfigured the histogram (4 bins, msec) after start.  pcc: see the
 * slots below.
 * Built without FAKE_DOCA_RETX (DOCA before 3.2) it has no adp_retx
 * symbols; without FAKE_DOCA_RECONF (before 3.1) no reconfig.
 */
#include <stdint.h>
#include <stdio.h>

#include "fake.h"

struct doca_dev;
struct doca_devinfo;

#define D_MAX_IDS 48
#define D_LOG_MAX 14
#define BASE_NS 1000000000000ULL

enum { IDLE, CONFIGURED, READY, RUNNING };

struct doca_telemetry_diag {
	int state;
	int format, sync, mode, ts;
	uint64_t period, actual;
	uint8_t log, clear;
	uint32_t max_ids, nids;
	uint64_t ids[D_MAX_IDS];
	uint64_t produced, read_next, cycle;
};

static int diag_owned;	/* one context per device (the fake has one) */

#define P(name, ...) int doca_telemetry_##name(__VA_ARGS__); \
	int doca_telemetry_##name(__VA_ARGS__)

P(diag_cap_is_supported, const struct doca_devinfo *d)
{
	(void)d;
	FAIL_IF();
	return 0;
}

P(diag_cap_get_max_num_data_ids, const struct doca_devinfo *d, uint32_t *v)
{
	(void)d;
	FAIL_IF();
	*v = D_MAX_IDS;
	return 0;
}

P(diag_cap_get_log_max_num_samples, const struct doca_devinfo *d, uint8_t *v)
{
	(void)d;
	*v = D_LOG_MAX;
	return 0;
}

P(diag_cap_is_data_clear_supported, const struct doca_devinfo *d, uint8_t *v)
{
	(void)d;
	*v = 1;
	return 0;
}

P(diag_cap_is_sync_start_supported, const struct doca_devinfo *d, uint8_t *v)
{
	(void)d;
	*v = 1;
	return 0;
}

P(diag_cap_is_sample_mode_supported, const struct doca_devinfo *d, int m,
  uint8_t *v)
{
	(void)d;
	*v = m >= 0 && m <= 2;
	return 0;
}

P(diag_cap_is_data_timestamp_source_supported, const struct doca_devinfo *d,
  int s, uint8_t *v)
{
	(void)d;
	*v = s == 0 || s == 1;
	return 0;
}

P(diag_create, struct doca_dev *dev, uint8_t force,
  struct doca_telemetry_diag **out)
{
	struct doca_telemetry_diag *x;
	const char *o = getenv("FAKE_DOCA_DIAG_OWNER");

	(void)dev;
	FAIL_IF();
	if (!force && (diag_owned || (o && *o == '1')))
		return F_IN_USE;
	x = calloc(1, sizeof(*x));
	if (!x)
		return F_NO_MEMORY;
	x->period = 100000;
	x->log = 10;
	x->max_ids = D_MAX_IDS;
	x->mode = 1;
	x->format = 1;
	x->ts = 1;
	diag_owned = 1;
	*out = x;
	return 0;
}

P(diag_destroy, struct doca_telemetry_diag *x)
{
	FAIL_IF();
	if (x->state != IDLE)
		return F_BAD_STATE;
	free(x);
	diag_owned = 0;
	return 0;
}

#define SETTER(name, field, type, check)                            \
	P(diag_set_##name, struct doca_telemetry_diag *x, type v)   \
	{                                                           \
		FAIL_IF();                                          \
		if (x->state != IDLE)                               \
			return F_BAD_STATE;                         \
		check;                                              \
		x->field = v;                                       \
		return 0;                                           \
	}

SETTER(output_format, format, int, if (v < 0 || v > 2) return F_INVALID_VALUE)
SETTER(sample_period, period, uint64_t, if (!v) return F_INVALID_VALUE)
SETTER(log_max_num_samples, log, uint8_t, if (v > D_LOG_MAX) return F_NOT_SUPPORTED)
SETTER(max_num_data_ids, max_ids, uint32_t,
       if (!v) return F_INVALID_VALUE; if (v > D_MAX_IDS) return F_NOT_SUPPORTED)
SETTER(sync_mode, sync, int, if (v < 0 || v > 1) return F_INVALID_VALUE)
SETTER(sample_mode, mode, int, if (v < 0 || v > 2) return F_INVALID_VALUE)
SETTER(data_clear, clear, uint8_t, if (v > 1) return F_INVALID_VALUE)
SETTER(data_timestamp_source, ts, int, if (v < 0 || v > 1) return F_INVALID_VALUE)

P(diag_get_sample_period, struct doca_telemetry_diag *x, uint64_t *v)
{
	*v = x->actual ? x->actual : x->period;
	return 0;
}

P(diag_apply_config, struct doca_telemetry_diag *x)
{
	FAIL_IF();
	if (x->state != IDLE)
		return F_BAD_STATE;
	x->nids = 0;
	x->actual = 0;
	x->state = CONFIGURED;
	return 0;
}

static int id_known(uint64_t id)
{
	switch (id >> 48) {
	case 0x1020: case 0x1140: case 0x1080: case 0x1100: case 0x10c0:
		return 1;
	default:
		return 0;
	}
}

P(diag_check_data_id, struct doca_telemetry_diag *x, uint64_t id)
{
	FAIL_IF();
	if (x->state != CONFIGURED)
		return F_BAD_STATE;
	if (!id_known(id))
		return F_NOT_SUPPORTED;
	if (x->sync)
		return F_BAD_CONFIG;
	return 0;
}

P(diag_apply_counters_list_by_id, struct doca_telemetry_diag *x,
  const uint64_t *ids, uint32_t n, uint64_t *failed)
{
	uint32_t i;
	int rc;

	*failed = 0;
	FAIL_IF();
	if (x->state != CONFIGURED)
		return F_BAD_STATE;
	for (i = 0; i < n; i++) {
		if (i >= x->max_ids) {
			*failed = ids[i];
			return F_FULL;
		}
		rc = doca_telemetry_diag_check_data_id(x, ids[i]);
		if (rc) {
			*failed = ids[i];
			return rc;
		}
	}
	memcpy(x->ids, ids, n * sizeof(*ids));
	x->nids = n;
	/* the fake's rule: whole microseconds, at least 2 us */
	x->actual = (x->period + 999) / 1000 * 1000;
	if (x->actual < 2000)
		x->actual = 2000;
	x->state = READY;
	return 0;
}

P(diag_get_num_applied_counters, struct doca_telemetry_diag *x, uint32_t *n)
{
	*n = x->nids;
	return 0;
}

P(diag_start, struct doca_telemetry_diag *x)
{
	FAIL_IF();
	if (x->state != READY)
		return F_BAD_STATE;
	x->produced = x->read_next = x->cycle = 0;
	x->state = RUNNING;
	return 0;
}

P(diag_stop, struct doca_telemetry_diag *x)
{
	FAIL_IF();
	if (x->state == IDLE)
		return F_BAD_STATE;
	x->state = IDLE;
	return 0;
}

P(diag_restart, struct doca_telemetry_diag *x)
{
	FAIL_IF();
	if (x->state != RUNNING)
		return F_BAD_STATE;
	if (x->mode != 0)
		return F_NOT_SUPPORTED;
	if (x->produced - x->cycle < (1ULL << x->log))
		return F_AGAIN;
	x->cycle = x->read_next = x->produced;
	return 0;
}

/* FAKE_DOCA_SAMPLE_PAD: a DOCA whose samples carry that many more bytes
 * (a later version's fields), written like the rest.
 */
static uint32_t pad(void)
{
	const char *p = getenv("FAKE_DOCA_SAMPLE_PAD");

	return p ? (uint32_t)strtoul(p, NULL, 10) : 0;
}

static uint32_t size_of(const struct doca_telemetry_diag *x)
{
	return (x->format == 0 ? 8 + 24 * x->nids :
		x->format == 1 ? 16 + 8 * x->nids : 16 + 4 * x->nids) + pad();
}

P(diag_get_sample_size, struct doca_telemetry_diag *x, uint32_t *v)
{
	FAIL_IF();
	if (x->state != RUNNING)
		return F_BAD_STATE;
	*v = size_of(x);
	return 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void sample(const struct doca_telemetry_diag *x, uint64_t k, uint8_t *p)
{
	uint64_t ns = BASE_NS + (k + 1) * x->actual;
	uint32_t hi = x->ts ? (uint32_t)(ns / 1000000000ULL) : (uint32_t)(ns >> 32);
	uint32_t lo = x->ts ? (uint32_t)(ns % 1000000000ULL) : (uint32_t)ns;
	uint32_t i;

	memset(p, 0xa5, size_of(x));	/* the pad, too */
	put32(p, (uint32_t)k);
	if (x->format == 0) {
		put32(p + 4, 0);
		for (i = 0; i < x->nids; i++) {
			uint8_t *v = p + 8 + 24 * i;

			put64(v, x->ids[i]);
			put32(v + 8, hi);
			put32(v + 12, lo);
			put64(v + 16, (k + 1) * (i + 1) * 100);
		}
		return;
	}
	put32(p + 4, hi);
	put32(p + 8, lo);
	put32(p + 12, lo);
	for (i = 0; i < x->nids; i++) {
		if (x->format == 1)
			put64(p + 16 + 8 * i, (k + 1) * (i + 1) * 100);
		else
			put32(p + 16 + 4 * i, (uint32_t)((k + 1) * (i + 1) * 100));
	}
}

P(diag_query_counters, struct doca_telemetry_diag *x, void *buf, uint32_t max,
  uint32_t *got)
{
	const char *st = getenv("FAKE_DOCA_STEP");
	uint64_t step = st ? (uint64_t)atoi(st) : 4, cap = 1ULL << x->log;
	int rc = 0;

	*got = 0;
	FAIL_IF();
	if (x->state != RUNNING)
		return F_BAD_STATE;
	if (!buf || !max)
		return F_INVALID_VALUE;
	if (x->mode == 2)
		step = 1;
	if (x->mode == 0 && x->produced + step > x->cycle + cap)
		step = x->cycle + cap - x->produced;
	x->produced += step;
	if (x->produced - x->read_next > cap) {
		x->read_next = x->produced - cap;
		rc = F_SKIPPED;
	}
	while (*got < max && x->read_next < x->produced) {
		sample(x, x->read_next, (uint8_t *)buf + (size_t)*got * size_of(x));
		x->read_next++;
		(*got)++;
	}
	return rc;
}

#ifdef FAKE_DOCA_RECONF
P(diag_reconfig_sample_period, struct doca_telemetry_diag *x, uint64_t ns)
{
	FAIL_IF();
	if (x->state != RUNNING)
		return F_BAD_STATE;
	x->actual = ns;
	return 0;
}
#endif

/* ---- adp_retx ---------------------------------------------------------- */
#ifdef FAKE_DOCA_RETX
struct doca_telemetry_adp_retx {
	int running;
	uint32_t bins;
	uint16_t bin0, bin1, vhca;
	int mode, unit;
	uint8_t vhca_set, clear, count;
	uint64_t hist[16];
};

P(adp_retx_cap_is_supported, const struct doca_devinfo *d)
{
	(void)d;
	FAIL_IF();
	return 0;
}

P(adp_retx_cap_histogram_is_supported, const struct doca_devinfo *d)
{
	(void)d;
	FAIL_IF();
	return 0;
}

P(adp_retx_cap_get_hist_max_bins, const struct doca_devinfo *d, uint32_t *v)
{
	(void)d;
	*v = 16;
	return 0;
}

P(adp_retx_cap_get_hist_time_units, const struct doca_devinfo *d, uint32_t *v)
{
	(void)d;
	*v = 0xf;
	return 0;
}

P(adp_retx_create, struct doca_dev *dev, struct doca_telemetry_adp_retx **out)
{
	struct doca_telemetry_adp_retx *x;

	(void)dev;
	FAIL_IF();
	x = calloc(1, sizeof(*x));
	if (!x)
		return F_NO_MEMORY;
	x->bins = 8;
	x->bin0 = x->bin1 = 100;
	x->unit = 2;
	*out = x;
	return 0;
}

P(adp_retx_destroy, struct doca_telemetry_adp_retx *x)
{
	FAIL_IF();
	if (x->running)
		return F_BAD_STATE;
	free(x);
	return 0;
}

P(adp_retx_start, struct doca_telemetry_adp_retx *x)
{
	FAIL_IF();
	if (x->running)
		return F_BAD_STATE;
	memset(x->hist, 0, sizeof(x->hist));
	x->running = 1;
	return 0;
}

P(adp_retx_stop, struct doca_telemetry_adp_retx *x)
{
	FAIL_IF();
	if (!x->running)
		return F_BAD_STATE;
	x->running = 0;
	return 0;
}

#define RSET(name, field, type, check)                                     \
	P(adp_retx_set_hist_##name, struct doca_telemetry_adp_retx *x, type v) \
	{                                                                  \
		FAIL_IF();                                                 \
		if (x->running)                                            \
			return F_BAD_STATE;                                \
		check;                                                     \
		x->field = v;                                              \
		return 0;                                                  \
	}                                                                  \
	P(adp_retx_get_hist_##name, struct doca_telemetry_adp_retx *x, type *v) \
	{                                                                  \
		*v = x->field;                                             \
		return 0;                                                  \
	}

RSET(num_bins, bins, uint32_t, if (!v || v > 16) return F_INVALID_VALUE)
RSET(bin0_width, bin0, uint16_t, if (!v) return F_INVALID_VALUE)
RSET(bin1_width, bin1, uint16_t, if (!v) return F_INVALID_VALUE)
RSET(bin_width_mode, mode, int, if (v < 0 || v > 1) return F_INVALID_VALUE)
RSET(time_unit, unit, int, if (v <= 0 || v > 8 || (v & (v - 1))) return F_INVALID_VALUE)
RSET(clear_on_read, clear, uint8_t, if (v > 1) return F_INVALID_VALUE)
RSET(count_enable, count, uint8_t, if (v > 1) return F_INVALID_VALUE)

P(adp_retx_set_hist_vhca_id, struct doca_telemetry_adp_retx *x, uint16_t v)
{
	FAIL_IF();
	if (x->running)
		return F_BAD_STATE;
	x->vhca_set = 1;
	x->vhca = v;
	return 0;
}

P(adp_retx_unset_hist_vhca_id, struct doca_telemetry_adp_retx *x)
{
	if (x->running)
		return F_BAD_STATE;
	x->vhca_set = 0;
	x->vhca = 0;
	return 0;
}

P(adp_retx_get_hist_vhca_id, struct doca_telemetry_adp_retx *x, uint8_t *set,
  uint16_t *v)
{
	*set = x->vhca_set;
	*v = x->vhca;
	return 0;
}

P(adp_retx_detect_hist_conf_change, struct doca_telemetry_adp_retx *x,
  uint8_t *changed)
{
	const char *c = getenv("FAKE_DOCA_RETX_CHANGE");

	FAIL_IF();
	*changed = 0;
	if (x->running && c && *c == '1' && (x->bins != 4 || x->unit != 8)) {
		x->bins = 4;	/* as another program left it */
		x->unit = 8;
		*changed = 1;
	}
	return 0;
}

P(adp_retx_read_hist_bins, struct doca_telemetry_adp_retx *x,
  uint32_t *populated, uint64_t *bins)
{
	uint32_t i;

	FAIL_IF();
	if (!x->running)
		return F_BAD_STATE;
	for (i = 0; i < x->bins && x->count; i++)
		x->hist[i] += i + 1;
	memcpy(bins, x->hist, 16 * sizeof(*bins));
	*populated = x->bins;
	if (x->clear)
		memset(x->hist, 0, sizeof(x->hist));
	return 0;
}
#endif

/* ---- pcc ------------------------------------------------------------- */
/* The fake's slots: 0 an RTT algorithm with counters on, 1 one with its
 * counters off, the rest empty.  Counter i reads (reads since the last
 * clear) * (i + 1) * 10.
 */
struct doca_telemetry_pcc {
	int running;
	uint32_t reads;
};

#define PCC_SLOTS 16
#define PCC_INFO 64
#define PCC_COUNTERS 8

P(pcc_cap_is_supported, const struct doca_devinfo *d)
{
	(void)d;
	FAIL_IF();
	return 0;
}

P(pcc_cap_get_max_algo_slots, const struct doca_devinfo *d, uint32_t *v)
{
	(void)d;
	*v = PCC_SLOTS;
	return 0;
}

P(pcc_cap_get_max_algo_info_len, const struct doca_devinfo *d, uint32_t *v)
{
	(void)d;
	*v = PCC_INFO;
	return 0;
}

P(pcc_cap_get_max_counter_info_len, const struct doca_devinfo *d, uint32_t *v)
{
	(void)d;
	*v = PCC_INFO;
	return 0;
}

P(pcc_cap_get_max_num_counters, const struct doca_devinfo *d, uint32_t *v)
{
	(void)d;
	*v = PCC_COUNTERS;
	return 0;
}

P(pcc_create, struct doca_dev *dev, struct doca_telemetry_pcc **out)
{
	(void)dev;
	FAIL_IF();
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : F_NO_MEMORY;
}

P(pcc_destroy, struct doca_telemetry_pcc *x)
{
	if (x->running)
		return F_BAD_STATE;
	free(x);
	return 0;
}

P(pcc_start, struct doca_telemetry_pcc *x)
{
	FAIL_IF();
	if (x->running)
		return F_BAD_STATE;
	x->running = 1;
	return 0;
}

P(pcc_stop, struct doca_telemetry_pcc *x)
{
	if (!x->running)
		return F_BAD_STATE;
	x->running = 0;
	return 0;
}

P(pcc_get_algo_id, struct doca_telemetry_pcc *x, uint8_t slot, uint32_t *v)
{
	(void)x;
	FAIL_IF();
	if (slot >= PCC_SLOTS)
		return F_INVALID_VALUE;
	if (slot > 1)
		return F_BAD_STATE;	/* empty */
	*v = slot ? 0x4443 : 0xbfff;
	return 0;
}

P(pcc_get_algo_major_version, struct doca_telemetry_pcc *x, uint8_t slot,
  uint32_t *v)
{
	(void)x;
	if (slot > 1)
		return F_BAD_STATE;
	*v = slot ? 1 : 0;
	return 0;
}

P(pcc_get_algo_minor_version, struct doca_telemetry_pcc *x, uint8_t slot,
  uint32_t *v)
{
	(void)x;
	if (slot > 1)
		return F_BAD_STATE;
	*v = slot ? 0 : 1;
	return 0;
}

P(pcc_get_algo_enable_status, struct doca_telemetry_pcc *x, uint8_t slot,
  uint8_t *en, uint8_t *cen)
{
	(void)x;
	FAIL_IF();
	if (slot > 1)
		return F_DRIVER;
	*en = 1;
	*cen = slot == 0;
	return 0;
}

P(pcc_get_algo_info, struct doca_telemetry_pcc *x, uint8_t slot, char *info)
{
	(void)x;
	if (slot > 1)
		return F_BAD_STATE;
	snprintf(info, PCC_INFO, "%s", slot ? "fake_dcqcn, counters off" :
		 "fake_rtt, the fake DOCA's RTT algorithm");
	return 0;
}

P(pcc_get_num_counters, struct doca_telemetry_pcc *x, uint8_t slot,
  uint32_t *n)
{
	(void)x;
	if (slot > 1)
		return F_DRIVER;
	*n = slot ? 0 : 2;
	return 0;
}

P(pcc_get_counter_info, struct doca_telemetry_pcc *x, uint8_t slot,
  uint8_t id, char *info)
{
	(void)x;
	if (slot != 0 || id > 1)
		return F_DRIVER;
	snprintf(info, PCC_INFO, "%s", id ? "fake_rtt_max, largest RTT" :
		 "fake_rtt_samples, RTT samples taken");
	return 0;
}

static int pcc_read(struct doca_telemetry_pcc *x, uint8_t slot, uint32_t *n,
		    uint32_t *c, int clear)
{
	if (slot > 1)
		return F_DRIVER;
	if (slot == 1)
		return F_BAD_STATE;	/* counters disabled */
	x->reads++;
	if (c) {
		c[0] = x->reads * 10;
		c[1] = x->reads * 20;
	}
	*n = 2;
	if (clear)
		x->reads = 0;
	return 0;
}

P(pcc_get_counters, struct doca_telemetry_pcc *x, uint8_t slot, uint32_t *n,
  uint32_t *c)
{
	FAIL_IF();
	return pcc_read(x, slot, n, c, 0);
}

P(pcc_get_and_clear_counters, struct doca_telemetry_pcc *x, uint8_t slot,
  uint32_t *n, uint32_t *c)
{
	FAIL_IF();
	return pcc_read(x, slot, n, c, 1);
}
