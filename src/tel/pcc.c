/* pcc.c - PCC telemetry context over PPCC. */
#include <stdio.h>
#include <string.h>

#include "tel/pcc.h"
#include "tel/tel.h"

void tel_pcc_caps(uint32_t *max_slots, uint32_t *max_info_len,
		  uint32_t *max_counters)
{
	*max_slots = TEL_PCC_MAX_SLOTS;
	*max_info_len = TEL_PCC_INFO_LEN;
	*max_counters = TEL_PCC_MAX_COUNTERS;
}

int tel_pcc_create(struct tel_pcc *t, struct ppcc *p, struct pcb_err *err)
{
	if (!t || !p || !err)
		return TEL_INVALID_VALUE;
	memset(t, 0, sizeof(*t));
	t->p = p;
	t->err = err;
	t->state = TEL_PCC_IDLE;
	return TEL_OK;
}

int tel_pcc_create_prov(struct tel_pcc *t, const struct pcc_prov *ops,
			void *pp, struct pcb_err *err)
{
	if (!t || !ops || !err)
		return TEL_INVALID_VALUE;
	memset(t, 0, sizeof(*t));
	t->prov = ops;
	t->pp = pp;
	t->err = err;
	t->state = TEL_PCC_IDLE;
	return TEL_OK;
}

int tel_pcc_caps_of(struct tel_pcc *t, uint32_t *max_slots,
		    uint32_t *max_info_len, uint32_t *max_counters)
{
	int rc;

	if (!t->prov) {
		tel_pcc_caps(max_slots, max_info_len, max_counters);
		return TEL_OK;
	}
	rc = t->prov->caps(t->pp, max_slots, max_info_len, max_counters);
	if (!rc && *max_slots > TEL_PCC_MAX_SLOTS)
		*max_slots = TEL_PCC_MAX_SLOTS;
	return rc;
}

int tel_pcc_start(struct tel_pcc *t)
{
	if (t->state == TEL_PCC_RUNNING)
		return TEL_BAD_STATE;
	t->state = TEL_PCC_RUNNING;
	return TEL_OK;
}

int tel_pcc_stop(struct tel_pcc *t)
{
	if (t->state != TEL_PCC_RUNNING)
		return TEL_BAD_STATE;
	t->state = TEL_PCC_IDLE;
	return TEL_OK;
}

int tel_pcc_destroy(struct tel_pcc *t)
{
	if (t->state == TEL_PCC_RUNNING)
		return TEL_BAD_STATE;
	t->p = NULL;
	t->prov = NULL;
	return TEL_OK;
}

/* The slot's algo info word (id[31:16] major[15:8] minor[7:0]). */
static int info_word(struct tel_pcc *t, unsigned slot, uint32_t *w)
{
	uint32_t info[PPCC_SLOTS];

	if (slot >= TEL_PCC_MAX_SLOTS)
		return TEL_INVALID_VALUE;
	if (ppcc_algo_info_array(t->p, info, t->err))
		return TEL_DRIVER;
	if (!info[slot])
		return TEL_BAD_STATE;
	*w = info[slot];
	return TEL_OK;
}

int tel_pcc_get_algo_id(struct tel_pcc *t, unsigned slot, uint32_t *id)
{
	uint32_t w;
	int rc;

	if (t->prov)
		return t->prov->algo_id(t->pp, slot, id);
	rc = info_word(t, slot, &w);
	if (!rc)
		*id = w >> 16;
	return rc;
}

int tel_pcc_get_algo_version(struct tel_pcc *t, unsigned slot,
			     uint32_t *major, uint32_t *minor)
{
	uint32_t w;
	int rc;

	if (t->prov)
		return t->prov->version(t->pp, slot, major, minor);
	rc = info_word(t, slot, &w);
	if (!rc) {
		*major = (w >> 8) & 0xff;
		*minor = w & 0xff;
	}
	return rc;
}

/* Slot-scoped readers report an invalid slot as DRIVER, as DOCA does. */
static int slot_valid(struct tel_pcc *t, unsigned slot)
{
	uint32_t w;
	int rc = info_word(t, slot, &w);

	if (rc == TEL_INVALID_VALUE || rc == TEL_BAD_STATE) {
		pcb_error(t->err, PCB_E_NOENT, "slot %u is %s", slot,
			  rc == TEL_BAD_STATE ? "empty" : "out of range");
		return TEL_DRIVER;
	}
	return rc;
}

int tel_pcc_get_enable_status(struct tel_pcc *t, unsigned slot,
			      uint8_t *algo_en, uint8_t *counters_en)
{
	bool en, cen;
	int rc;

	if (t->prov)
		return t->prov->enable_status(t->pp, slot, algo_en,
					      counters_en);
	rc = slot_valid(t, slot);
	if (rc)
		return rc;
	if (ppcc_enable_status(t->p, slot, &en, &cen, t->err))
		return TEL_DRIVER;
	*algo_en = en;
	*counters_en = cen;
	return TEL_OK;
}

int tel_pcc_get_algo_info(struct tel_pcc *t, unsigned slot, char *buf,
			  size_t len)
{
	char name[224], descr[224];
	uint32_t num;
	int rc;

	if (!buf || !len)
		return TEL_INVALID_VALUE;
	if (t->prov)
		return t->prov->algo_info(t->pp, slot, buf, len);
	rc = slot_valid(t, slot);
	if (rc)
		return rc;
	if (ppcc_algo_info(t->p, slot, &num, name, sizeof(name), descr,
			   sizeof(descr), t->err))
		return TEL_DRIVER;
	snprintf(buf, len, "%s%s%s", name, descr[0] ? ", " : "", descr);
	return TEL_OK;
}

int tel_pcc_get_num_counters(struct tel_pcc *t, unsigned slot, uint32_t *n)
{
	int rc;

	if (t->prov)
		return t->prov->num_counters(t->pp, slot, n);
	rc = slot_valid(t, slot);
	if (rc)
		return rc;
	return ppcc_num_counters(t->p, slot, n, t->err) ? TEL_DRIVER : TEL_OK;
}

int tel_pcc_get_counter_info(struct tel_pcc *t, unsigned slot,
			     unsigned id, char *buf, size_t len)
{
	struct ppcc_info info;
	uint32_t n;
	int rc;

	if (t->prov && buf && len)
		return t->prov->counter_info(t->pp, slot, id, buf, len);
	rc = tel_pcc_get_num_counters(t, slot, &n);
	if (rc)
		return rc;
	if (!buf || !len)
		return TEL_INVALID_VALUE;
	if (id >= n) {
		pcb_error(t->err, PCB_E_NOENT, "slot %u has %u counters; no "
			  "counter %u", slot, n, id);
		return TEL_DRIVER;
	}
	if (ppcc_counter_info(t->p, slot, id, &info, t->err))
		return TEL_DRIVER;
	snprintf(buf, len, "%s%s%s", info.name, info.descr[0] ? ", " : "",
		 info.descr);
	return TEL_OK;
}

static int counters_on(struct tel_pcc *t, unsigned slot)
{
	uint8_t en, cen;
	int rc = tel_pcc_get_enable_status(t, slot, &en, &cen);

	if (!rc && !(en && cen)) {
		pcb_error(t->err, PCB_E_STATE, "slot %u: %s disabled", slot,
			  en ? "counters are" : "the algorithm is");
		return TEL_BAD_STATE;
	}
	return rc;
}

int tel_pcc_get_counters(struct tel_pcc *t, unsigned slot, bool clear,
			 uint32_t *populated, uint32_t *vals)
{
	uint32_t scratch[TEL_PCC_MAX_COUNTERS];
	size_t n;
	int rc;

	if (t->prov) {
		if (!populated || (!vals && !clear))
			return TEL_INVALID_VALUE;
		return t->prov->counters(t->pp, slot, clear, populated, vals);
	}
	rc = counters_on(t, slot);
	if (rc)
		return rc;
	if (!populated || (!vals && !clear))
		return TEL_INVALID_VALUE;
	if (ppcc_counters(t->p, slot, clear, vals ? vals : scratch,
			  TEL_PCC_MAX_COUNTERS, &n, t->err)) {
		/* disabled by someone else since the status read? */
		rc = counters_on(t, slot);
		return rc ? rc : TEL_DRIVER;
	}
	*populated = vals ? (uint32_t)n : 0;
	return TEL_OK;
}
