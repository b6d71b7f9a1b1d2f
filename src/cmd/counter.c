/* counter.c - `counter`: the algorithm counters of the slot holding them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "fxp.h"
#include "device.h"
#include "host/hostctr.h"

/* The slot with counter_en, or the one named. */
static int counter_slot(struct session *s, int argc, char **argv,
			unsigned *slot, struct slot_view **v)
{
	int rc, found;

	if (argc == 1) {
		rc = cmd_parse_slot(s, argv[0], slot);
		if (!rc)
			rc = sess_slot_view(s, *slot, v);
		return rc;
	}
	rc = sess_counters_slot(s, &found);
	if (rc)
		return rc;
	if (found >= 0) {
		*slot = (unsigned)found;
		return sess_slot_view(s, *slot, v);
	}
	return pcb_error(&s->err, PCB_E_STATE,
			 "counters are not enabled on any slot; 'algo debug "
			 "on' enables the ZTR-RTT debug counters");
}

static int find_counter(const struct slot_view *v, const char *suffix)
{
	size_t i, l = strlen(suffix);

	for (i = 0; i < v->ncounters; i++) {
		size_t n = strlen(v->counters[i].info.name);

		if (n >= l && !strcmp(v->counters[i].info.name + n - l,
				      suffix))
			return (int)i;
	}
	return -1;
}

static int show(struct session *s, int argc, char **argv, bool clear)
{
	static const struct tbl_col cols[] = {
		{ "index", "IDX", TBL_RIGHT }, { "name", "NAME", 0 },
		{ "value", "VALUE", TBL_RIGHT }, { "units", "UNITS", 0 },
		{ "description", "", TBL_JSON_ONLY },
	};
	uint32_t vals[ALGO_MAX_COUNTERS];
	struct slot_view *v;
	unsigned slot = 0;
	size_t i, n;
	struct tbl t;
	int isum, inum, rc;
	bool ztr;

	rc = counter_slot(s, argc, argv, &slot, &v);
	if (rc)
		return rc;
	if (!v->ncounters)
		return pcb_error(&s->err, PCB_E_STATE,
				 "slot %u (%s) has no counters", slot, v->name);
	if (s->dry_run && clear) {
		uint8_t buf[PPCC_SIZE];

		sess_dry_line(s, ppcc_counters_req(&s->ppcc, slot, true, buf),
			      buf);
		return 0;
	}
	rc = ppcc_counters(&s->ppcc, slot, clear, vals, ALGO_MAX_COUNTERS, &n,
			   &s->err);
	if (rc == -PCB_E_DEVICE)
		/* firmware refuses when counter_en is off */
		snprintf(s->err.msg + strlen(s->err.msg),
			 sizeof(s->err.msg) - strlen(s->err.msg),
			 "; are counters enabled on slot %u?", slot);
	if (rc)
		return rc;
	if (clear) {
		out_obj_begin(&s->out, NULL);
		out_field_uint(&s->out, "cleared_slot", "slot %u: ", slot);
		out_text(&s->out, "%zu counters cleared\n", n);
		out_obj_end(&s->out);
		return 0;
	}
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < n && i < v->ncounters; i++) {
		const struct counter_view *c = &v->counters[i];

		tbl_row(&t);
		tbl_u64(&t, i);
		tbl_str(&t, c->info.name);
		tbl_u64(&t, vals[i]);
		tbl_str(&t, c->desc ? c->desc->units : "");
		tbl_str(&t, c->info.descr);
	}
	isum = find_counter(v, "SUM_RTT");
	inum = find_counter(v, "NUM_RTT");
	/* ZTR-RTT's RTT (ns) and rate (fxp20 of line rate) units are the
	 * reconstruction's assumption: no NVIDIA document gives them */
	ztr = v->desc && !strcmp(v->desc->name, "ztr_rtt");
	if (s->out.json) {
		out_obj_begin(&s->out, NULL);
		out_u64(&s->out, "slot", slot);
		out_str(&s->out, "algo", v->name);
		if (ztr)
			out_str(&s->out, "units_assumed", "RTT counters in ns, "
				"rates in fxp20 of line rate");
		tbl_print(&t, &s->out, "counters");
		if (isum >= 0 && inum >= 0 && (size_t)inum < n &&
		    (size_t)isum < n) {
			if (vals[inum]) {
				char b[32];

				snprintf(b, sizeof(b), "%.1f",
					 (double)vals[isum] / vals[inum]);
				out_num(&s->out, "avg_rtt_ns", b);
			} else {
				out_null(&s->out, "avg_rtt_ns");
			}
		}
		out_obj_end(&s->out);
	} else {
		fprintf(s->out.fp, "slot %u: %s%s\n", slot, v->name, ztr ?
			" (units assumed: RTT in ns, rates in fxp20 of line "
			"rate)" : "");
		tbl_print(&t, &s->out, NULL);
		if (isum >= 0 && inum >= 0 && (size_t)inum < n &&
		    (size_t)isum < n) {
			if (vals[inum])
				fprintf(s->out.fp,
					"avg RTT: %.1f ns%s (SUM_RTT/NUM_RTT "
					"over %u samples)\n",
					(double)vals[isum] / vals[inum],
					ztr ? ", assumed unit" : "",
					vals[inum]);
			else
				fprintf(s->out.fp,
					"avg RTT: - (no RTT samples)\n");
		}
	}
	tbl_release(&t);
	return 0;
}

/* counter show host [HANDLE]: the device's host counters (device.h: the
 * kernel's and ethtool's names; the sim device names its host NICs'
 * alike), or those of HANDLE (mlx5_0, mlx5_0/2, a netdev, a PCI address),
 * with the growth since the last `counter show host` of the same source
 * in this session.
 */
static int show_host(struct session *s, const char *handle)
{
	static const struct tbl_col cols[] = {
		{ "name", "NAME", 0 }, { "value", "VALUE", TBL_RIGHT },
		{ "delta", "DELTA", TBL_RIGHT },
	};
	struct dev_host_ctrs other;	/* HANDLE's: another NIC */
	struct dev_ctrs *c = &other.c;
	char key[80];
	uint64_t *v;
	struct tbl t;
	size_t i;
	int rc = 0;

	snprintf(key, sizeof(key), "%s", handle ? handle : "");
	if (s->host_prev && strcmp(key, s->host_key)) {
		free(s->host_prev);	/* another source: start over */
		s->host_prev = NULL;
	}
	if (s->host && (!handle || (strcmp(handle, s->host->netdev) &&
				    strcmp(handle, s->host->rdma) &&
				    strcmp(handle, s->host->bdf)))) {
		hostctr_close(s->host);
		free(s->host);
		s->host = NULL;
	}
	if (!handle) {
		rc = dev_ctrs(s, &c);
	} else if (!s->host) {
		s->host = calloc(1, sizeof(*s->host));
		if (!s->host)
			return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		rc = hostctr_open(s->host, handle, &s->err);
		if (rc) {
			free(s->host);
			s->host = NULL;
		}
	}
	if (rc)
		return rc;
	if (handle)
		dev_host_ctrs_init(&other, s->host, s);
	if (s->host_prev && (s->host_n != c->n || s->host_gen != c->gen)) {
		free(s->host_prev);	/* other names: start over */
		s->host_prev = NULL;
	}
	if (*c->warn)
		sess_warn(s, "counter show host: %s", c->warn);
	v = calloc(c->n ? c->n : 1, sizeof(*v));
	if (!v)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = c->read(c, v, &s->err);
	if (rc) {
		free(v);
		return rc;
	}
	if (s->host_prev && s->host_gen != c->gen) {
		free(s->host_prev);	/* changed while read */
		s->host_prev = NULL;
	}
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < c->n; i++) {
		tbl_row(&t);
		tbl_str(&t, c->name(c, i));
		if (v[i] == UINT64_MAX)
			tbl_null(&t);
		else
			tbl_u64(&t, v[i]);
		if (!s->host_prev || v[i] == UINT64_MAX ||
		    s->host_prev[i] == UINT64_MAX || v[i] < s->host_prev[i])
			tbl_null(&t);	/* first look, missing or reset */
		else
			tbl_u64(&t, v[i] - s->host_prev[i]);
	}
	out_text(&s->out, "%s\n", c->where);
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	free(s->host_prev);
	s->host_prev = v;
	s->host_n = c->n;
	s->host_gen = c->gen;
	snprintf(s->host_key, sizeof(s->host_key), "%s", key);
	return 0;
}

static int cmd_counter_show(struct session *s, int argc, char **argv)
{
	if (argc >= 1 && !strcmp(argv[0], "host"))
		return argc > 2 ? pcb_error(&s->err, PCB_E_USAGE, "usage: "
					    "counter show host [DEVICE]") :
			show_host(s, argc == 2 ? argv[1] : NULL);
	return show(s, argc, argv, false);
}

static int cmd_counter_clear(struct session *s, int argc, char **argv)
{
	return show(s, argc, argv, true);
}

/* show: a slot whose algorithm has counters, or host and a NIC */
static bool counter_show_complete(struct session *s, char **argv, int argc,
				  struct cands *c)
{
	if (argc == 1 && !strcmp(argv[0], "host"))
		cand_devices(s, c);
	if (argc == 0)
		cand_add(c, "host");
	return cmd_complete_counter_slot(s, argv, argc, c);
}

const struct cmd_row cmd_counter_verbs[] = {
	{
		.name = "show",
		.fn = cmd_counter_show,
		.max_args = 2,
		.args = "[SLOT] | host [DEVICE]",
		.help = "counters of the slot holding counter_en, with the average "
			"RTT; host: the RDMA hw_counters, port counters and ethtool "
			"statistics with the growth since the last look",
		.example = "counter show host mlx5_0",
		.flags = CMD_DEFAULT,
		.complete = counter_show_complete,
	},
	{
		.name = "watch",
		.fn = cmd_watch,
		.max_args = 7,
		.args = "[COL,...]",
		.help = "the timeline's rates as they come (the same as 'watch')",
		.example = "counter watch cnp_handled,rx_gbps",
		.keys = cmd_watch_keys,
	},
	{
		.name = "clear",
		.fn = cmd_counter_clear,
		.max_args = 1,
		.args = "[SLOT]",
		.help = "read and clear the counters (PPCC bulk get and clear)",
		.example = "counter clear",
		.flags = CMD_DEVICE,
		.complete = cmd_complete_counter_slot,
	},
	{ 0 }
};
