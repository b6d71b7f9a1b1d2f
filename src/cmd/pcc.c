/* pcc.c - `pcc`: the DOCA telemetry context pcc.
 *
 * `pcc` reads through the PPCC register with DOCA's semantics (an empty
 * slot, disabled counters) and prints what DOCA's telemetry_pcc sample
 * prints.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "device.h"
#include "tel/pcc.h"
#include "tel/tel.h"

/* Over the PPCC register, or the provider the device names. */
static int pcc_ctx(struct session *s, struct tel_pcc *t)
{
	const struct pcc_prov *ops;
	void *p;
	int rc = sess_device(s);

	if (!rc)
		rc = dev_pcc(s->cur, &ops, &p);
	if (rc)
		return rc;
	pcb_err_reset(&s->err);
	if (ops)
		tel_pcc_create_prov(t, ops, p, &s->err);
	else
		tel_pcc_create(t, &s->cur->ppcc, &s->err);
	return 0;
}

static int pcc_counters_print(struct session *s, struct tel_pcc *t,
			      unsigned slot, bool header)
{
	uint32_t vals[TEL_PCC_MAX_COUNTERS], n, i;
	char info[TEL_PCC_INFO_LEN + 1];
	struct out *o = &s->out;
	int rc = tel_pcc_get_counters(t, slot, false, &n, vals);

	if (rc)
		return rc;
	if (header) {
		out_obj_begin(o, NULL);
		out_field_uint(o, "slot", "Slot %u:\n", slot);
	}
	out_arr_begin(o, "counters");
	out_text(o, "-------------------------------------\n"
		 "Number of counters found is %u\n", n);
	for (i = 0; i < n; i++) {
		rc = tel_pcc_get_counter_info(t, slot, i, info, sizeof(info));
		if (rc)
			return rc;
		out_obj_begin(o, NULL);
		out_field_uint(o, "id", "Counter %u: ", i);
		out_field_uint(o, "value", "%u  - ", vals[i]);
		out_field_str(o, "info", "%s\n", info);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_text(o, "-------------------------------------\n");
	if (header)
		out_obj_end(o);
	return 0;
}

/* What DOCA's telemetry_pcc sample prints, or the same as JSON. */
static int cmd_pcc_show(struct session *s, int argc, char **argv)
{
	struct {		/* what the scan found, for the status pass */
		bool populated;
		uint32_t id, maj, min;
		char info[TEL_PCC_INFO_LEN + 1];
	} sl[TEL_PCC_MAX_SLOTS];
	uint32_t max_slots, info_len, max_counters;
	struct out *o = &s->out;
	struct tel_pcc t;
	unsigned i;
	uint8_t en, cen;
	int rc;

	(void)argc;
	(void)argv;
	rc = pcc_ctx(s, &t);
	if (rc)
		return rc;
	rc = tel_pcc_caps_of(&t, &max_slots, &info_len, &max_counters);
	if (rc)
		return tel_fail(&s->err, rc, "pcc", NULL);
	out_arr_begin(o, NULL);
	out_text(o, "*************************************\n"
		 "%u slots detected on card:\n", max_slots);
	memset(sl, 0, sizeof(sl));
	for (i = 0; i < max_slots; i++) {
		rc = tel_pcc_get_algo_id(&t, i, &sl[i].id);
		if (rc == TEL_BAD_STATE) {
			out_text(o, "Slot %u: Empty\n", i);
			continue;
		}
		if (!rc)
			rc = tel_pcc_get_algo_version(&t, i, &sl[i].maj,
						      &sl[i].min);
		if (!rc)
			rc = tel_pcc_get_algo_info(&t, i, sl[i].info,
						   sizeof(sl[i].info));
		if (rc)
			goto fail;
		sl[i].populated = true;
		out_text(o, "Slot %u: ID %04x, version %u.%02u - %s\n", i,
			 sl[i].id, sl[i].maj, sl[i].min, sl[i].info);
	}
	rc = tel_pcc_start(&t);
	out_text(o, "*************************************\n\n"
		 "Context is running. Parsing for counters...\n\n");
	for (i = 0; !rc && i < max_slots; i++) {
		char v[16];

		if (!sl[i].populated)
			continue;
		rc = tel_pcc_get_enable_status(&t, i, &en, &cen);
		if (rc)
			break;
		snprintf(v, sizeof(v), "%u.%02u", sl[i].maj, sl[i].min);
		out_obj_begin(o, NULL);
		out_field_uint(o, "slot", "Slot %u: ", i);
		out_u64(o, "algo_id", sl[i].id);
		out_str(o, "version", v);
		out_str(o, "info", sl[i].info);
		out_field_bool(o, "algo_enabled", "algo %s, ", en, "ENABLED",
			       "DISABLED");
		out_field_bool(o, "counters_enabled", "counters %s\n", cen,
			       "ENABLED", "DISABLED");
		if (en && cen)
			rc = pcc_counters_print(s, &t, i, false);
		out_obj_end(o);
	}
	tel_pcc_stop(&t);
	tel_pcc_destroy(&t);
	if (rc)
		goto fail;
	out_arr_end(o);
	out_nl(o);
	return 0;
fail:
	out_arr_end(o);
	return tel_fail(&s->err, rc, "pcc", NULL);
}

/* The slot named, or the lowest with algorithm and counters enabled. */
static int pcc_slot(struct session *s, struct tel_pcc *t, int argc,
		    char **argv, unsigned *slot)
{
	uint8_t en, cen;
	unsigned i;
	int rc;

	if (argc == 1)
		return cmd_parse_slot(s, argv[0], slot);
	for (i = 0; i < TEL_PCC_MAX_SLOTS; i++) {
		rc = tel_pcc_get_enable_status(t, i, &en, &cen);
		if (!rc && en && cen) {
			*slot = i;
			return 0;
		}
		if (rc && rc != TEL_DRIVER)
			return tel_fail(&s->err, rc, "pcc", NULL);
	}
	pcb_err_reset(&s->err);	/* the empty slots' DRIVER details */
	return pcb_error(&s->err, PCB_E_STATE, "pcc: no slot has the "
			 "algorithm and its counters enabled; 'algo debug on' "
			 "enables the ZTR-RTT debug counters");
}

static int cmd_pcc_counters(struct session *s, int argc, char **argv)
{
	struct tel_pcc t;
	unsigned slot;
	int rc = pcc_ctx(s, &t);

	if (!rc)
		rc = pcc_slot(s, &t, argc, argv, &slot);
	if (rc)
		return rc;
	rc = pcc_counters_print(s, &t, slot, true);
	if (rc)
		return tel_fail(&s->err, rc, "pcc counters", rc == TEL_BAD_STATE ?
				"; 'algo enable SLOT' and 'algo debug on' "
				"turn them on" : NULL);
	return 0;
}

static int cmd_pcc_clear(struct session *s, int argc, char **argv)
{
	struct tel_pcc t;
	unsigned slot;
	uint32_t n;
	char what[64];
	int rc = pcc_ctx(s, &t);

	if (!rc)
		rc = pcc_slot(s, &t, argc, argv, &slot);
	if (rc)
		return rc;
	snprintf(what, sizeof(what), "clear the counters of slot %u", slot);
	rc = sess_confirm(s, what);
	if (rc)
		return rc;
	rc = tel_pcc_get_counters(&t, slot, true, &n, NULL);
	if (rc)
		return tel_fail(&s->err, rc, "pcc clear", NULL);
	out_obj_begin(&s->out, NULL);
	out_field_uint(&s->out, "cleared_slot", "slot %u: counters cleared\n",
		       slot);
	out_obj_end(&s->out);
	return 0;
}

const struct cmd_row cmd_pcc_verbs[] = {
	{
		.name = "show",
		.fn = cmd_pcc_show,
		.args = "",
		.help = "every slot: algorithm id, version, info, enable status, "
			"counters (as DOCA's telemetry_pcc sample)",
		.example = "pcc show",
		.flags = CMD_DEFAULT | CMD_DEVICE,
	},
	{
		.name = "counters",
		.fn = cmd_pcc_counters,
		.max_args = 1,
		.args = "[SLOT]",
		.help = "one slot's counters as one block (BAD_STATE when disabled)",
		.example = "pcc counters 0",
		.flags = CMD_DEVICE,
		.complete = cmd_complete_counter_slot,
	},
	{
		.name = "clear",
		.fn = cmd_pcc_clear,
		.max_args = 1,
		.args = "[SLOT]",
		.help = "reset a slot's counters to 0 (get-and-clear without reading)",
		.example = "pcc clear",
		.flags = CMD_DEVICE | CMD_WRITES,
		.complete = cmd_complete_counter_slot,
	},
	{ 0 }
};
