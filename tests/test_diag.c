/* Diagnostic counters: data-ID table, state machine, formats 0/1/2 byte
 * by byte, ring overflow, single/on-demand modes, ownership across
 * processes, the sample's CSV and JSON files.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>

#include "testutil.h"
#include "paths.h"
#include "sim/simtel.h"
#include "tel/diag.h"
#include "tel/diag_ids.h"
#include "tel/diag_io.h"
#include "tel/tel.h"

/* The sim's sampler file and its tel/ handle, as the sim device opens
 * them (src/sim/simdev.c); dev_close closes both.
 */
#define MAX_OPEN 4
static struct {
	struct diag_dev *d;
	struct sim_diag *x;
} open_devs[MAX_OPEN];

static struct diag_dev *dev_open(const char *name)
{
	struct diag_dev *d = NULL;
	struct sim_diag *x = NULL;
	struct pcb_err err = { 0 };
	int i;

	assert_int_equal(sim_diag_open(&x, name, &err), 0);
	assert_int_equal(diag_dev_open_prov(&d, &sim_diag_prov, x, &err), 0);
	for (i = 0; i < MAX_OPEN && open_devs[i].d; i++)
		;
	assert_true(i < MAX_OPEN);
	open_devs[i].d = d;
	open_devs[i].x = x;
	return d;
}

static struct sim_diag *file_of(struct diag_dev *d)
{
	int i;

	for (i = 0; i < MAX_OPEN; i++)
		if (open_devs[i].d == d)
			return open_devs[i].x;
	fail_msg("no such device");
	return NULL;
}

static void dev_close(struct diag_dev *d)
{
	struct sim_diag *x = file_of(d);
	int i;

	diag_dev_close(d);
	sim_diag_close(x);
	for (i = 0; i < MAX_OPEN; i++)
		if (open_devs[i].d == d)
			open_devs[i].d = NULL;
}

/* ---- data IDs ----------------------------------------------------------- */

static void test_ids_table(void **state)
{
	static const struct {
		uint64_t id;
		const char *name;
	} known[] = {
		{ 0x1020000100000000ULL, "port_0_rx_bytes" },
		{ 0x1140000300000000ULL, "port_0_tx_packets" },
		{ 0x1020000200000305ULL, "port_5_priority_3_rx_bytes" },
		{ 0x1140000500000701ULL, "port_1_priority_7_tx_pauses_packets" },
		{ 0x104000010000000aULL, "host_10_rx_buffer_discards" },
		{ 0x10c0000500001234ULL, "function_4660_completion_engine_tx_cqes" },
		{ 0x1160000100030201ULL, "pcie_n1_i2_d3_link_inbound_bytes" },
		{ 0x1160000a00c50201ULL,
		  "pcie_n1_i2_d5_tc3_link_tclass_read_stalled_time_ordering_ns" },
		{ 0x1100000200000000ULL,
		  "tx_transport_done_due_to_cc_deschedule_events" },
		{ 0x1180000300000000ULL, "global_icmc_miss" },
	};
	static const uint64_t bad[] = {
		0x1020000100000100ULL,	/* port id above 8 bits */
		0x1020000200000800ULL,	/* priority 8 */
		0x1180000100000001ULL,	/* global with an instance */
		0x1160000100400000ULL,	/* depth 64 */
		0x1160000a02000000ULL,	/* tclass 8 */
		0x1020000700000000ULL,	/* no such counter */
		0x10c0000300000000ULL,	/* the gap in the table */
		0,
	};
	char name[128];
	uint64_t id;
	size_t i;

	(void)state;
	assert_int_equal(diag_id_count(), 40);
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		diag_id_name(known[i].id, name, sizeof(name));
		assert_string_equal(name, known[i].name);
		assert_int_equal(diag_id_parse(known[i].name, &id), 0);
		assert_true(id == known[i].id);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct diag_id x;

		assert_int_equal(diag_id_decode(bad[i], &x), -1);
	}
	/* every table entry, with every instance field set: decode, name,
	 * parse and encode round trip */
	for (i = 0; i < diag_id_count(); i++) {
		struct diag_id x = { .def = diag_id_def_at(i), .port = 7,
				     .prio = 5, .host = 3, .vhca = 513,
				     .node = 2, .index = 9, .depth = 63,
				     .tclass = 7 }, y;
		uint64_t enc = diag_id_encode(&x), back;

		assert_int_equal(diag_id_decode(enc, &y), 0);
		assert_ptr_equal(y.def, x.def);
		assert_true(diag_id_encode(&y) == enc);
		diag_id_name(enc, name, sizeof(name));
		assert_int_equal(diag_id_parse(name, &back), 0);
		assert_true(back == enc);
		snprintf(name, sizeof(name), "0x%llx", (unsigned long long)enc);
		assert_int_equal(diag_id_parse(name, &back), 0);
		assert_true(back == enc);
	}
	assert_int_equal(diag_id_parse("port_x_rx_bytes", &id), -1);
	assert_int_equal(diag_id_parse("port_0_priority_9_rx_bytes", &id), -1);
	assert_int_equal(diag_id_parse("port_0_rx_bytes_", &id), -1);
	assert_int_equal(diag_id_parse("0x1020000100000100", &id), -1);
	assert_int_equal(diag_id_parse("", &id), -1);
}

/* ---- state machine ------------------------------------------------------ */

static const uint64_t two[] = { 0x1020000100000000ULL, 0x1140000100000000ULL };

/* Put a fresh context into `st`. */
static void to_state(struct tel_diag *t, struct diag_dev *d,
		     enum diag_state st)
{
	uint64_t bad;

	assert_int_equal(tel_diag_create(t, d, true), TEL_OK);
	if (t->state == DIAG_RUNNING)
		assert_int_equal(tel_diag_stop(t), TEL_OK);
	if (st >= DIAG_CONFIGURED)
		assert_int_equal(tel_diag_apply_config(t), TEL_OK);
	if (st >= DIAG_READY)
		assert_int_equal(tel_diag_apply_data_ids(t, two, 2, &bad),
				 TEL_OK);
	if (st >= DIAG_RUNNING)
		assert_int_equal(tel_diag_start(t), TEL_OK);
	assert_int_equal(t->state, st);
}

enum op { O_SET, O_APPLY_CFG, O_CHECK, O_APPLY_IDS, O_START, O_STOP,
	  O_RESTART, O_QUERY, O_DESTROY, O_COUNT };

static int do_op(struct tel_diag *t, enum op op)
{
	uint8_t buf[1024];
	uint64_t bad;
	uint32_t got;
	int rc, r2;

	switch (op) {
	case O_SET:	/* every setter agrees */
		rc = tel_diag_set_sample_period(t, 200000);
		r2 = tel_diag_set_log_max_num_samples(t, 4);
		assert_int_equal(r2, rc);
		r2 = tel_diag_set_max_num_data_ids(t, 8);
		assert_int_equal(r2, rc);
		r2 = tel_diag_set_sample_mode(t, DIAG_SINGLE);
		assert_int_equal(r2, rc);
		r2 = tel_diag_set_output_format(t, 2);
		assert_int_equal(r2, rc);
		r2 = tel_diag_set_sync_mode(t, 0);
		assert_int_equal(r2, rc);
		r2 = tel_diag_set_data_clear(t, 0);
		assert_int_equal(r2, rc);
		r2 = tel_diag_set_timestamp_source(t, DIAG_FRC);
		assert_int_equal(r2, rc);
		return rc;
	case O_APPLY_CFG:
		return tel_diag_apply_config(t);
	case O_CHECK:
		return tel_diag_check_data_id(t, two[0]);
	case O_APPLY_IDS:
		return tel_diag_apply_data_ids(t, two, 2, &bad);
	case O_START:
		return tel_diag_start(t);
	case O_STOP:
		return tel_diag_stop(t);
	case O_RESTART:
		return tel_diag_restart(t);
	case O_QUERY:
		return tel_diag_query(t, buf, 4, &got);
	case O_DESTROY:
		return tel_diag_destroy(t);
	default:
		return -1;
	}
}

static void test_state_table(void **state)
{
	/* rows: states; columns: enum op (repetitive mode, the default) */
	static const int want[4][O_COUNT] = {
		[DIAG_IDLE] = { TEL_OK, TEL_OK, TEL_BAD_STATE, TEL_BAD_STATE,
				TEL_BAD_STATE, TEL_BAD_STATE, TEL_BAD_STATE,
				TEL_BAD_STATE, TEL_OK },
		[DIAG_CONFIGURED] = { TEL_BAD_STATE, TEL_BAD_STATE, TEL_OK,
				      TEL_OK, TEL_BAD_STATE, TEL_OK,
				      TEL_BAD_STATE, TEL_BAD_STATE,
				      TEL_BAD_STATE },
		[DIAG_READY] = { TEL_BAD_STATE, TEL_BAD_STATE, TEL_BAD_STATE,
				 TEL_BAD_STATE, TEL_OK, TEL_OK, TEL_BAD_STATE,
				 TEL_BAD_STATE, TEL_BAD_STATE },
		[DIAG_RUNNING] = { TEL_BAD_STATE, TEL_BAD_STATE,
				   TEL_BAD_STATE, TEL_BAD_STATE,
				   TEL_BAD_STATE, TEL_OK, TEL_NOT_SUPPORTED,
				   TEL_OK, TEL_BAD_STATE },
	};
	struct diag_dev *d = dev_open("table");
	struct tel_diag t;
	int st, op;

	(void)state;
	for (st = DIAG_IDLE; st <= DIAG_RUNNING; st++)
		for (op = 0; op < O_COUNT; op++) {
			int rc;

			to_state(&t, d, (enum diag_state)st);
			rc = do_op(&t, (enum op)op);
			if (rc != want[st][op])
				fail_msg("state %d op %d: %s, want %s", st, op,
					 tel_errname(rc),
					 tel_errname(want[st][op]));
			if (t.state != DIAG_IDLE)
				tel_diag_stop(&t);
			if (t.dev)
				tel_diag_destroy(&t);
		}
	dev_close(d);
}

static void test_config_values(void **state)
{
	struct diag_dev *d = dev_open("values");
	static const uint64_t sync_ok[] = { 0x1180000100000000ULL };
	uint64_t ids[DIAG_MAX_IDS], bad;
	struct tel_diag t;
	uint32_t i;

	(void)state;
	assert_int_equal(tel_diag_create(&t, d, false), TEL_OK);
	assert_int_equal(tel_diag_set_log_max_num_samples(&t, 13),
			 TEL_NOT_SUPPORTED);
	assert_int_equal(tel_diag_set_max_num_data_ids(&t, 65),
			 TEL_NOT_SUPPORTED);
	assert_int_equal(tel_diag_set_max_num_data_ids(&t, 0),
			 TEL_INVALID_VALUE);
	assert_int_equal(tel_diag_set_sample_mode(&t, 3), TEL_INVALID_VALUE);
	assert_int_equal(tel_diag_set_output_format(&t, 3),
			 TEL_INVALID_VALUE);
	assert_int_equal(tel_diag_set_sample_period(&t, 0), TEL_INVALID_VALUE);
	/* data_clear without sync: refused at apply */
	tel_diag_set_data_clear(&t, 1);
	assert_int_equal(tel_diag_apply_config(&t), TEL_INVALID_VALUE);
	assert_int_equal(t.state, DIAG_IDLE);
	tel_diag_set_data_clear(&t, 0);
	/* the actual period: up to a whole us, >= 1 us per 16 IDs */
	tel_diag_set_sample_period(&t, 1500);
	tel_diag_apply_config(&t);
	assert_int_equal(tel_diag_apply_data_ids(&t, two, 2, &bad), TEL_OK);
	assert_int_equal(tel_diag_sample_period(&t), 2000);
	tel_diag_stop(&t);
	for (i = 0; i < 40; i++)
		ids[i] = 0x1020000200000000ULL | (i % 8) << 8 |
			 (i < 8 ? 0 : 0);
	for (i = 0; i < 8; i++) {
		ids[i] = 0x1020000200000000ULL | (uint64_t)i << 8;
		ids[8 + i] = 0x1020000400000000ULL | (uint64_t)i << 8;
		ids[16 + i] = 0x1140000200000000ULL | (uint64_t)i << 8;
		ids[24 + i] = 0x1140000400000000ULL | (uint64_t)i << 8;
		ids[32 + i] = 0x1020000600000000ULL | (uint64_t)i << 8;
	}
	tel_diag_set_sample_period(&t, 100);
	tel_diag_apply_config(&t);
	assert_int_equal(tel_diag_apply_data_ids(&t, ids, 40, &bad), TEL_OK);
	assert_int_equal(tel_diag_sample_period(&t), 3000);
	tel_diag_stop(&t);
	/* all or nothing, naming the first offending ID */
	tel_diag_set_max_num_data_ids(&t, 3);
	tel_diag_apply_config(&t);
	ids[0] = 0x1020000100000000ULL;
	ids[1] = 0x1160000100000000ULL;	/* PCIe: not measured by the sim */
	assert_int_equal(tel_diag_apply_data_ids(&t, ids, 2, &bad),
			 TEL_NOT_SUPPORTED);
	assert_true(bad == ids[1]);
	assert_int_equal(t.state, DIAG_CONFIGURED);
	assert_int_equal(t.nids, 0);
	ids[1] = 0x1020000100000000ULL;	/* twice */
	assert_int_equal(tel_diag_apply_data_ids(&t, ids, 2, &bad),
			 TEL_INVALID_VALUE);
	assert_true(bad == ids[1]);
	ids[1] = 0x1140000100000000ULL;
	ids[2] = 0x1020000300000000ULL;
	ids[3] = 0x1140000300000000ULL;
	assert_int_equal(tel_diag_apply_data_ids(&t, ids, 4, &bad), TEL_FULL);
	assert_true(bad == ids[3]);
	assert_int_equal(tel_diag_apply_data_ids(&t, ids, 3, &bad), TEL_OK);
	tel_diag_stop(&t);
	/* sync start: port counters do not support it */
	tel_diag_set_sync_mode(&t, 1);
	tel_diag_apply_config(&t);
	assert_int_equal(tel_diag_check_data_id(&t, ids[0]), TEL_BAD_CONFIG);
	assert_int_equal(tel_diag_apply_data_ids(&t, ids, 1, &bad),
			 TEL_BAD_CONFIG);
	assert_true(bad == ids[0]);
	/* ICMC supports sync, but the sim does not measure it */
	assert_int_equal(tel_diag_apply_data_ids(&t, sync_ok, 1, &bad),
			 TEL_NOT_SUPPORTED);
	tel_diag_stop(&t);
	assert_int_equal(tel_diag_destroy(&t), TEL_OK);
	dev_close(d);
}

/* ---- sampling and formats ---------------------------------------------- */

static void feed(struct diag_dev *d, int64_t dt_ns, uint64_t rx, uint64_t tx)
{
	uint64_t delta[DS_COUNT] = { 0 };

	delta[DS_RX_BYTES] = rx;
	delta[DS_TX_BYTES] = tx;
	sim_diag_feed(file_of(d), dt_ns, delta);
}

static void start(struct tel_diag *t, struct diag_dev *d, uint32_t mode,
		  uint32_t format, uint32_t ts, uint32_t log)
{
	uint64_t bad;

	assert_int_equal(tel_diag_create(t, d, false), TEL_OK);
	tel_diag_set_sample_mode(t, mode);
	tel_diag_set_output_format(t, format);
	tel_diag_set_timestamp_source(t, ts);
	tel_diag_set_log_max_num_samples(t, log);
	tel_diag_set_sample_period(t, 100000);
	assert_int_equal(tel_diag_apply_config(t), TEL_OK);
	assert_int_equal(tel_diag_apply_data_ids(t, two, 2, &bad), TEL_OK);
	assert_int_equal(tel_diag_start(t), TEL_OK);
}

static void finish(struct tel_diag *t)
{
	assert_int_equal(tel_diag_stop(t), TEL_OK);
	assert_int_equal(tel_diag_destroy(t), TEL_OK);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static void test_formats(void **state)
{
	struct diag_dev *d = dev_open("formats");
	uint8_t buf[4096];
	struct diag_sample s;
	struct tel_diag t;
	uint32_t got, size;
	int64_t t0;

	(void)state;
	/* the device clock: 5 s in, so RTC seconds and FRC high words show */
	feed(d, 4999900000LL, 0, 0);
	t0 = 5000000000LL;	/* the first sample, one period later */

	start(&t, d, DIAG_REPETITIVE, 1, DIAG_RTC, 4);
	assert_int_equal(sim_diag_until_due(file_of(d)), 100000);
	feed(d, 100000, 1000, 2000);
	assert_int_equal(tel_diag_sample_size(&t, &size), TEL_OK);
	assert_int_equal(size, 16 + 8 * 2);
	assert_int_equal(tel_diag_query(&t, buf, 8, &got), TEL_OK);
	assert_int_equal(got, 1);
	assert_int_equal(le32(buf), 0);			/* sample_id */
	assert_int_equal(le32(buf + 4), 5);		/* seconds */
	assert_int_equal(le32(buf + 8), 0);		/* ns */
	assert_int_equal(le32(buf + 12), 0);		/* latest low */
	assert_true(le64(buf + 16) == 1000);
	assert_true(le64(buf + 24) == 2000);
	/* nothing new: 0 samples, no duplicates */
	assert_int_equal(tel_diag_query(&t, buf, 8, &got), TEL_OK);
	assert_int_equal(got, 0);
	finish(&t);

	start(&t, d, DIAG_REPETITIVE, 0, DIAG_FRC, 4);
	feed(d, 100000, 7, 0x100000000ULL);
	tel_diag_sample_size(&t, &size);
	assert_int_equal(size, 8 + 24 * 2);
	assert_int_equal(tel_diag_query(&t, buf, 8, &got), TEL_OK);
	assert_int_equal(got, 1);
	assert_int_equal(le32(buf), 0);
	assert_int_equal(le32(buf + 4), 0);		/* reserved */
	assert_true(le64(buf + 8) == two[0]);
	t0 += 100000;
	assert_int_equal(le32(buf + 16), (uint32_t)(t0 >> 32));
	assert_int_equal(le32(buf + 20), (uint32_t)t0);
	assert_true(le64(buf + 24) == 1007);		/* cumulative */
	assert_true(le64(buf + 32) == two[1]);
	assert_true(le64(buf + 48) == 0x100000000ULL + 2000);
	tel_diag_decode(&t, buf, &s);
	assert_true(s.start_ns == (uint64_t)t0);
	finish(&t);

	start(&t, d, DIAG_REPETITIVE, 2, DIAG_FRC, 4);
	feed(d, 100000, 1, 0);
	tel_diag_sample_size(&t, &size);
	assert_int_equal(size, 16 + 4 * 2);
	assert_int_equal(tel_diag_query(&t, buf, 8, &got), TEL_OK);
	t0 += 100000;
	assert_int_equal(le32(buf + 4), (uint32_t)(t0 >> 32));
	assert_int_equal(le32(buf + 8), (uint32_t)t0);
	assert_int_equal(le32(buf + 16), 1008);
	/* 32-bit values: the high word is cut */
	assert_int_equal(le32(buf + 20), 2000);
	finish(&t);
	dev_close(d);
}

static void test_ring(void **state)
{
	struct diag_dev *d = dev_open("ring");
	uint8_t buf[64 * 32];
	struct diag_sample s;
	struct tel_diag t;
	uint32_t got, size, i;

	(void)state;
	start(&t, d, DIAG_REPETITIVE, 1, DIAG_RTC, 3);	/* 8 samples */
	tel_diag_sample_size(&t, &size);
	for (i = 0; i < 3; i++)
		feed(d, 100000, 10, 0);
	assert_int_equal(tel_diag_query(&t, buf, 2, &got), TEL_OK);
	assert_int_equal(got, 2);
	assert_int_equal(tel_diag_query(&t, buf, 64, &got), TEL_OK);
	assert_int_equal(got, 1);
	tel_diag_decode(&t, buf, &s);
	assert_int_equal(s.id, 2);
	/* a slow reader: 20 samples into a ring of 8 */
	for (i = 0; i < 20; i++)
		feed(d, 100000, 10, 0);
	assert_int_equal(tel_diag_query(&t, buf, 64, &got), TEL_SKIPPED);
	assert_int_equal(t.lost, 12);
	assert_int_equal(got, 8);
	tel_diag_decode(&t, buf, &s);
	assert_int_equal(s.id, 15);
	assert_true(s.values[0] == 160);
	tel_diag_decode(&t, buf + 7 * size, &s);
	assert_int_equal(s.id, 22);
	assert_int_equal(tel_diag_query(&t, buf, 64, &got), TEL_OK);
	assert_int_equal(got, 0);
	/* a half-period feed takes no sample; the rest of it does */
	feed(d, 50000, 0, 0);
	assert_int_equal(sim_diag_until_due(file_of(d)), 50000);
	assert_int_equal(tel_diag_query(&t, buf, 64, &got), TEL_OK);
	assert_int_equal(got, 0);
	feed(d, 50000, 0, 0);
	assert_int_equal(tel_diag_query(&t, buf, 64, &got), TEL_OK);
	assert_int_equal(got, 1);
	finish(&t);
	dev_close(d);
}

static void test_single_on_demand(void **state)
{
	struct diag_dev *d = dev_open("single");
	uint8_t buf[64 * 32];
	struct diag_sample s;
	struct tel_diag t;
	uint32_t got, i;

	(void)state;
	start(&t, d, DIAG_SINGLE, 1, DIAG_RTC, 2);	/* 4 samples */
	feed(d, 100000, 1, 0);
	assert_int_equal(tel_diag_restart(&t), TEL_AGAIN);
	for (i = 0; i < 9; i++)
		feed(d, 100000, 1, 0);
	assert_int_equal(sim_diag_until_due(file_of(d)), -1);	/* cycle done */
	assert_int_equal(tel_diag_query(&t, buf, 64, &got), TEL_OK);
	assert_int_equal(got, 4);			/* stops when full */
	assert_int_equal(tel_diag_restart(&t), TEL_OK);
	feed(d, 100000, 1, 0);
	assert_int_equal(tel_diag_query(&t, buf, 64, &got), TEL_OK);
	assert_int_equal(got, 1);
	tel_diag_decode(&t, buf, &s);
	assert_int_equal(s.id, 4);
	assert_true(s.values[0] == 11);
	finish(&t);

	start(&t, d, DIAG_ON_DEMAND, 1, DIAG_RTC, 2);
	assert_int_equal(tel_diag_restart(&t), TEL_NOT_SUPPORTED);
	feed(d, 100000, 5, 0);		/* time passes: no sample by itself */
	assert_int_equal(sim_diag_until_due(file_of(d)), -1);
	assert_int_equal(tel_diag_query(&t, buf, 64, &got), TEL_OK);
	assert_int_equal(got, 1);	/* one per query */
	tel_diag_decode(&t, buf, &s);
	assert_true(s.values[0] == 16);
	feed(d, 100000, 5, 0);
	assert_int_equal(tel_diag_query(&t, buf, 64, &got), TEL_OK);
	assert_int_equal(got, 1);
	tel_diag_decode(&t, buf, &s);
	assert_int_equal(s.id, 1);
	assert_true(s.values[0] == 21);
	finish(&t);
	dev_close(d);
}

/* Ownership across processes: a live owner refuses, force takes over,
 * the old owner's operations then fail with IN_USE.
 */
static void test_ownership(void **state)
{
	struct diag_dev *d = dev_open("owner");
	struct tel_diag a, b;
	int go[2], done[2];
	char c;
	pid_t pid;
	int status;

	(void)state;
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(done), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct tel_diag t;
		uint64_t bad;
		int rc;

		rc = tel_diag_create(&t, d, false);
		if (!rc)
			rc = tel_diag_apply_config(&t);
		if (!rc)
			rc = tel_diag_apply_data_ids(&t, two, 2, &bad);
		if (write(go[1], rc ? "x" : "k", 1) != 1)
			_exit(3);
		if (read(done[0], &c, 1) != 1)
			_exit(3);
		/* the parent forced its way in: we lost the device */
		_exit(tel_diag_start(&t) == TEL_IN_USE ? 0 : 4);
	}
	assert_int_equal(read(go[0], &c, 1), 1);
	assert_int_equal(c, 'k');
	assert_int_equal(tel_diag_create(&a, d, false), TEL_IN_USE);
	assert_int_equal(tel_diag_create(&a, d, true), TEL_OK);
	/* one owner per device, also within a process */
	assert_int_equal(tel_diag_create(&b, d, false), TEL_IN_USE);
	assert_int_equal(write(done[1], "g", 1), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(tel_diag_destroy(&a), TEL_OK);
	/* released: free for the next */
	assert_int_equal(tel_diag_create(&b, d, false), TEL_OK);
	assert_int_equal(tel_diag_destroy(&b), TEL_OK);
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
	dev_close(d);
}

/* ---- files -------------------------------------------------------------- */

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *fp = fopen(path, "r");
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = 0;
	fclose(fp);
	return buf;
}

static void test_csv(void **state)
{
	struct diag_dev *d = dev_open("csv");
	char path[] = "/tmp/pccb-diag-csv-XXXXXX";
	uint8_t buf[4096];
	struct tel_diag t;
	struct pcb_err err = { 0 };
	uint32_t got, size;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	feed(d, 1999900000LL, 0, 0);		/* first sample at 2 s */
	start(&t, d, DIAG_REPETITIVE, 1, DIAG_RTC, 4);
	feed(d, 100000, 5, 6);
	feed(d, 100000, 5, 6);
	tel_diag_sample_size(&t, &size);
	tel_diag_query(&t, buf, 8, &got);
	assert_int_equal(diag_csv_write(path, &t, buf, got, size, &err), 0);
	assert_string_equal(slurp(path),
		"sample_id, sample_time_start, sample_time_end, "
		"port_0_rx_bytes, port_0_tx_bytes"
		"\n0, 2.000000000, 2.000000000, 5, 6"
		"\n1, 2.000100000, 2.000100000, 10, 12");
	finish(&t);

	start(&t, d, DIAG_REPETITIVE, 0, DIAG_FRC, 4);
	feed(d, 100000, 1, 1);
	tel_diag_sample_size(&t, &size);
	tel_diag_query(&t, buf, 8, &got);
	assert_int_equal(diag_csv_write(path, &t, buf, got, size, &err), 0);
	assert_string_equal(slurp(path),
		"sample_id, data_id, sample_time, port_0_rx_bytes, data_id, "
		"sample_time, port_0_tx_bytes"
		"\n0, 0x1020000100000000, 2000200000, 11, "
		"0x1140000100000000, 2000200000, 13");
	finish(&t);

	start(&t, d, DIAG_REPETITIVE, 2, DIAG_RTC, 4);
	feed(d, 100000, 0, 0x100000000ULL);
	tel_diag_sample_size(&t, &size);
	tel_diag_query(&t, buf, 8, &got);
	assert_int_equal(diag_csv_write(path, &t, buf, got, size, &err), 0);
	assert_string_equal(slurp(path),
		"sample_id, sample_time_start, sample_time_end, "
		"port_0_rx_bytes, port_0_tx_bytes"
		"\n0, 2.000300000, 2.000300000, 11, 13");
	finish(&t);
	unlink(path);
	dev_close(d);
}

static void test_json(void **state)
{
	char path[] = "/tmp/pccb-diag-json-XXXXXX";
	struct pcb_err err = { 0 };
	uint64_t ids[8];
	uint32_t n;
	int fd = mkstemp(path);
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "{}", "no \"data-ids\" key" },
		{ "{\"data-ids\":[]}", "\"data-ids\" is empty" },
		{ "{\"data-ids\":[{\"name\":\"a\"}]}", "needs both" },
		{ "{\"data-ids\":[{\"data_id\":\"0x1\",\"name\":\"a\"}]}",
		  "0x1 is no data ID" },
		{ "{\"data-ids\":[{\"data_id\":\"zz\",\"name\":\"a\"}]}",
		  "is not hex" },
		{ "{\"data-ids\":[{\"data_id\":\"0x1020000100000000\"",
		  "malformed" },
		{ "[1,2]", "not a JSON object" },
		{ "{\"data-ids\":{}}", "not an array" },
		{ "{\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]"
		  "]]]]]]]]]]]]]]]]]]]]]}", "malformed" },
		{ "{\"data-ids\":[{\"data_id\":\"0x1020000100000000\","
		  "\"name\":\"a\"}]} x", "text after" },
	};
	size_t i;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	/* the sample's -e output, byte for byte (json-c pretty) */
	assert_int_equal(diag_ids_export_default(path, 0, &err), 0);
	assert_string_equal(slurp(path),
		"{\n  \"data-ids\":[\n"
		"    {\n      \"name\":\"port_0_rx_bytes\",\n"
		"      \"data_id\":\"0x1020000100000000\"\n    },\n"
		"    {\n      \"name\":\"port_0_tx_bytes\",\n"
		"      \"data_id\":\"0x1140000100000000\"\n    },\n"
		"    {\n      \"name\":\"port_0_rx_packets\",\n"
		"      \"data_id\":\"0x1020000300000000\"\n    },\n"
		"    {\n      \"name\":\"port_0_tx_packets\",\n"
		"      \"data_id\":\"0x1140000300000000\"\n    }\n"
		"  ]\n}");
	assert_int_equal(diag_ids_import(path, ids, 8, &n, &err), 0);
	assert_int_equal(n, 4);
	assert_true(ids[2] == 0x1020000300000000ULL);
	assert_int_equal(diag_ids_export_default(path, 1, &err), 0);
	assert_int_equal(diag_ids_import(path, ids, 8, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_true(ids[0] == 0x1180000100000000ULL);
	/* 0x optional, other keys ignored */
	{
		const char *j = "{\"v\":1,\"data-ids\":[{\"name\":\"x\","
				"\"extra\":[1,{}],\"data_id\":"
				"\"1140000300000000\"}]}";

		assert_int_equal(diag_ids_parse_json(j, strlen(j), ids, 8, &n,
						     &err), 0);
	}
	assert_true(ids[0] == 0x1140000300000000ULL);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_true(diag_ids_parse_json(bad[i].text,
						strlen(bad[i].text), ids, 8,
						&n, &err) < 0);
		if (!strstr(err.msg, bad[i].msg))
			fail_msg("'%s': '%s', want '%s'", bad[i].text,
				 err.msg, bad[i].msg);
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_table),
		cmocka_unit_test(test_state_table),
		cmocka_unit_test(test_config_values),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_single_on_demand),
		cmocka_unit_test(test_ownership),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
	};

	tu_private_state();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
