/* ppcc.c - PPCC operations over any transport. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover.h"
#include "ppcc.h"

static const struct {
	const char *name;
	unsigned min_bits;
} ppcc_fields[PF_COUNT] = {
	[PF_CMD] = { "cmd_type", 8 },
	[PF_LP_MSB] = { "lp_msb", 2 },
	[PF_PNAT] = { "pnat", 2 },
	[PF_PORT] = { "local_port", 8 },
	[PF_SLOT] = { "algo_slot", 4 },
	[PF_INDEX] = { "algo_param_index", 16 },
	[PF_VALUE] = { "value", 32 },
	[PF_PV1] = { "param_value1", 32 },
	[PF_PV2] = { "param_value2", 32 },
	[PF_PV3] = { "param_value3", 32 },
	[PF_SL_MASK] = { "sl_bitmask", 16 },
	[PF_PRM] = { "prm", 2 },
	[PF_SL_SUPPORT] = { "sl_bitmask_support", 1 },
	[PF_COUNTER_EN] = { "counter_en", 1 },
	[PF_TRACE_EN] = { "trace_en", 1 },
	[PF_TEXT_LEN] = { "text_length", 8 },
	[PF_TEXT0] = { "text[0]", 32 },
};

const char *ppcc_cmd_name(unsigned cmd)
{
	static const char *const names[] = {
		[0x0] = "get algo info", [0x1] = "enable algo",
		[0x2] = "disable algo", [0x3] = "get enable status",
		[0x4] = "get num params", [0x5] = "get param info",
		[0x6] = "get param", [0x7] = "get and clear param",
		[0x8] = "set param", [0xA] = "bulk get",
		[0xB] = "bulk set", [0xC] = "bulk get counters",
		[0xD] = "bulk get and clear counters",
		[0xE] = "get num counters", [0xF] = "get counter info",
		[0x10] = "get algo info array",
	};

	if (cmd < sizeof(names) / sizeof(names[0]) && names[cmd])
		return names[cmd];
	return "unknown command";
}

int ppcc_layout_check(const struct adb_reg *layout,
		      const struct adb_field *f[PF_COUNT],
		      struct pcb_err *err)
{
	unsigned i;

	if (layout->size < PPCC_SIZE)
		return pcb_error(err, PCB_E_PARSE,
				 "PPCC layout '%s' is %u bytes, expected %u",
				 layout->node, layout->size, PPCC_SIZE);
	for (i = 0; i < PF_COUNT; i++) {
		f[i] = adb_reg_field(layout, ppcc_fields[i].name);
		if (!f[i] || f[i]->size < ppcc_fields[i].min_bits)
			return pcb_error(err, PCB_E_PARSE,
					 "PPCC layout '%s' lacks field '%s'",
					 layout->node, ppcc_fields[i].name);
	}
	/* text[] must be 55 consecutive dwords */
	for (i = 1; i < PPCC_TEXT_DWORDS; i++) {
		char name[16];
		const struct adb_field *t;

		snprintf(name, sizeof(name), "text[%u]", i);
		t = adb_reg_field(layout, name);
		if (!t || t->offset != f[PF_TEXT0]->offset + 32 * i)
			return pcb_error(err, PCB_E_PARSE,
					 "PPCC layout '%s': '%s' is not where "
					 "expected", layout->node, name);
	}
	return 0;
}

int ppcc_init(struct ppcc *p, struct reg_dev *dev, struct adb_reg *layout,
	      struct pcb_err *err)
{
	int rc;

	memset(p, 0, sizeof(*p));
	rc = ppcc_layout_check(layout, p->f, err);
	if (rc) {
		adb_reg_free(layout);
		return rc;
	}
	p->dev = dev;
	p->layout = layout;
	/* the port the handle names (mlx5_0/2), as devlink and rdma do */
	p->local_port = dev ? pcb_handle_port(dev->name) : 1;
	p->pnat = 0;
	p->sl_mask = PPCC_ALL_SLS;
	p->sl_support = -1;
	p->sl_all = PPCC_ALL_SLS;
	return 0;
}

void ppcc_release(struct ppcc *p)
{
	adb_reg_free(p->layout);
	p->layout = NULL;
}

uint32_t ppcc_get(const struct ppcc *p, enum ppcc_fld f, const uint8_t *buf)
{
	return adb_get(p->f[f], buf);
}

void ppcc_set(const struct ppcc *p, enum ppcc_fld f, uint8_t *buf,
	      uint32_t v)
{
	adb_set(p->f[f], buf, v);
}

uint32_t ppcc_text(const struct adb_field *text0, const uint8_t *buf,
		   unsigned i)
{
	return adb_be32(buf + text0->offset / 8 + 4 * i);
}

void ppcc_set_text(const struct adb_field *text0, uint8_t *buf, unsigned i,
		   uint32_t v)
{
	adb_put_be32(buf + text0->offset / 8 + 4 * i, v);
}

void ppcc_split_text(const uint8_t *buf, const struct adb_field *text0,
		     uint32_t text_len, char *name, size_t nlen, char *descr,
		     size_t dlen)
{
	char text[PPCC_TEXT_DWORDS * 4 + 1];
	const uint8_t *t = buf + text0->offset / 8;
	size_t i, n = text_len > PPCC_TEXT_DWORDS * 4 ? PPCC_TEXT_DWORDS * 4 :
							 text_len;
	char *comma, *d;

	for (i = 0; i < n && t[i]; i++)
		text[i] = (t[i] >= 0x20 && t[i] < 0x7f) ? (char)t[i] : '?';
	text[i] = '\0';
	comma = strchr(text, ',');
	if (comma) {
		*comma = '\0';
		d = comma + 1;
		while (*d == ' ')
			d++;
	} else {
		d = text + i;
	}
	snprintf(name, nlen, "%s", text);
	snprintf(descr, dlen, "%s", d);
}

/* The fields that say which request a reply answers: cmd_type (OP) and
 * the INDEX fields.  The device echoes them; so do mstreg's tables.
 */
static const enum ppcc_fld ppcc_key[] = {
	PF_CMD, PF_PORT, PF_LP_MSB, PF_PNAT, PF_SLOT, PF_INDEX,
};
#define PPCC_NKEY (sizeof(ppcc_key) / sizeof(ppcc_key[0]))

/* A reply for another port, slot, index or command (a crossed or stale
 * reply, a confused backend) must not be taken for this one's: a wrong
 * pre-read would be journaled as the old value, a wrong read-back would
 * make an ignored write look done.  One line names every field that
 * differs, with what came back and what was asked.
 */
static int ppcc_check_reply(const struct ppcc *p, const uint32_t *want,
			    const uint8_t *buf, unsigned cmd,
			    struct pcb_err *err)
{
	char diff[256];
	size_t i, n = 0;

	diff[0] = '\0';
	for (i = 0; i < PPCC_NKEY; i++) {
		enum ppcc_fld f = ppcc_key[i];
		uint32_t got = ppcc_get(p, f, buf);
		const char *fmt = f == PF_CMD ? "%s%s 0x%x (requested 0x%x)" :
						"%s%s %u (requested %u)";

		if (got == want[i] || n >= sizeof(diff))
			continue;
		n += (size_t)snprintf(diff + n, sizeof(diff) - n, fmt,
				      n ? ", " : "", ppcc_fields[f].name, got,
				      want[i]);
	}
	if (!n)
		return 0;
	return pcb_error(err, PCB_E_DEVICE, "%s: PPCC %s: the reply is for "
			 "another request: %s", p->dev->name,
			 ppcc_cmd_name(cmd), diff);
}

/* The read-write fields of a write, all of them (ppcc.h says why). */
struct ppcc_rw {
	uint32_t value;
	uint32_t sl_bitmask;
	uint32_t counter_en;
	uint32_t trace_en;
};

/* A request for cmd on slot/index into a zeroed buf; a write (rw given)
 * also sets every read-write field.
 */
static void ppcc_request(const struct ppcc *p, unsigned cmd, unsigned slot,
			 unsigned index, const struct ppcc_rw *rw,
			 uint8_t *buf)
{
	memset(buf, 0, p->layout->size);
	ppcc_set(p, PF_CMD, buf, cmd);
	ppcc_set(p, PF_PORT, buf, p->local_port & 0xff);
	ppcc_set(p, PF_LP_MSB, buf, (p->local_port >> 8) & 0x3);
	ppcc_set(p, PF_PNAT, buf, p->pnat);
	ppcc_set(p, PF_SLOT, buf, slot);
	ppcc_set(p, PF_INDEX, buf, index);
	if (!rw)
		return;
	ppcc_set(p, PF_VALUE, buf, rw->value);
	ppcc_set(p, PF_SL_MASK, buf, rw->sl_bitmask);
	ppcc_set(p, PF_COUNTER_EN, buf, rw->counter_en);
	ppcc_set(p, PF_TRACE_EN, buf, rw->trace_en);
}

/* Send the request in buf, leave the reply there once it is known to
 * answer this request.
 */
static int ppcc_xfer(struct ppcc *p, enum reg_method m, uint8_t *buf,
		     struct pcb_err *err)
{
	uint32_t want[PPCC_NKEY];
	unsigned cmd = ppcc_get(p, PF_CMD, buf);
	size_t i;
	int rc;

	for (i = 0; i < PPCC_NKEY; i++)
		want[i] = ppcc_get(p, ppcc_key[i], buf);
	rc = reg_access(p->dev, m, PPCC_REG_ID, "PPCC", buf, p->layout->size,
			err);
	if (!rc)
		rc = ppcc_check_reply(p, want, buf, cmd, err);
	if (!rc)
		p->sl_support = (int)ppcc_get(p, PF_SL_SUPPORT, buf);
	return rc;
}

/* Slots are 4 bits in the register: a larger one is refused before it
 * wraps to another slot.
 */
static bool slot_ok(unsigned slot, struct pcb_err *err)
{
	if (slot < PPCC_SLOTS)
		return true;
	pcb_error(err, PCB_E_RANGE, "slot %u is not 0..15", slot);
	return false;
}

static int ppcc_query(struct ppcc *p, unsigned cmd, unsigned slot,
		      unsigned index, uint8_t *buf, struct pcb_err *err)
{
	if (!slot_ok(slot, err))
		return -PCB_E_RANGE;
	ppcc_request(p, cmd, slot, index, NULL, buf);
	return ppcc_xfer(p, REG_GET, buf, err);
}

/* Bounded text length from a reply. */
static uint32_t reply_text_len(const struct ppcc *p, const uint8_t *buf)
{
	uint32_t n = ppcc_get(p, PF_TEXT_LEN, buf);

	return n > PPCC_TEXT_DWORDS * 4 ? PPCC_TEXT_DWORDS * 4 : n;
}

int ppcc_algo_info(struct ppcc *p, unsigned slot, uint32_t *algo_num,
		   char *name, size_t nlen, char *descr, size_t dlen,
		   struct pcb_err *err)
{
	uint8_t buf[PPCC_SIZE + 4];
	int rc = ppcc_query(p, PPCC_ALGO_INFO, slot, 0, buf, err);

	if (rc)
		return rc;
	*algo_num = ppcc_get(p, PF_VALUE, buf);
	if (name)
		ppcc_split_text(buf, p->f[PF_TEXT0], reply_text_len(p, buf),
				name, nlen, descr, dlen);
	return 0;
}

void ppcc_keep(struct ppcc *p, const struct ppcc_status *st)
{
	p->keep_cen = st->counter_en;
	p->keep_trace = st->trace_en;
}

/* enable: counters on or not; trace as it was. */
enum reg_method ppcc_enable_req(const struct ppcc *p, unsigned slot,
				bool counters, uint8_t *buf)
{
	const struct ppcc_rw rw = { .counter_en = counters,
				    .sl_bitmask = p->sl_mask,
				    .trace_en = p->keep_trace };

	ppcc_request(p, PPCC_ENABLE, slot, 0, &rw, buf);
	return REG_SET;
}

enum reg_method ppcc_disable_req(const struct ppcc *p, unsigned slot,
				 uint8_t *buf)
{
	const struct ppcc_rw rw = { .sl_bitmask = p->sl_mask,
				    .counter_en = p->keep_cen,
				    .trace_en = p->keep_trace };

	ppcc_request(p, PPCC_DISABLE, slot, 0, &rw, buf);
	return REG_SET;
}

enum reg_method ppcc_param_set_req(const struct ppcc *p, unsigned slot,
				   unsigned index, uint32_t value,
				   uint8_t *buf)
{
	const struct ppcc_rw rw = { .value = value, .sl_bitmask = p->sl_mask,
				    .counter_en = p->keep_cen,
				    .trace_en = p->keep_trace };

	ppcc_request(p, PPCC_PARAM_SET, slot, index, &rw, buf);
	return REG_SET;
}

/* bulk get (and clear): a query, even when it clears */
enum reg_method ppcc_counters_req(const struct ppcc *p, unsigned slot,
				  bool clear, uint8_t *buf)
{
	ppcc_request(p, clear ? PPCC_BULK_COUNTERS_CLEAR : PPCC_BULK_COUNTERS,
		     slot, 0, NULL, buf);
	return REG_GET;
}

int ppcc_enable(struct ppcc *p, unsigned slot, bool counters,
		struct pcb_err *err)
{
	uint8_t buf[PPCC_SIZE + 4];

	if (!slot_ok(slot, err))
		return -PCB_E_RANGE;
	return ppcc_xfer(p, ppcc_enable_req(p, slot, counters, buf), buf,
			 err);
}

int ppcc_disable(struct ppcc *p, unsigned slot, struct pcb_err *err)
{
	uint8_t buf[PPCC_SIZE + 4];

	if (!slot_ok(slot, err))
		return -PCB_E_RANGE;
	return ppcc_xfer(p, ppcc_disable_req(p, slot, buf), buf, err);
}

int ppcc_status(struct ppcc *p, unsigned slot, struct ppcc_status *st,
		struct pcb_err *err)
{
	uint8_t buf[PPCC_SIZE + 4];
	int rc = ppcc_query(p, PPCC_ENABLE_STATUS, slot, 0, buf, err);

	if (rc)
		return rc;
	st->enabled = ppcc_get(p, PF_VALUE, buf) != 0;
	st->counter_en = ppcc_get(p, PF_COUNTER_EN, buf) != 0;
	st->trace_en = ppcc_get(p, PF_TRACE_EN, buf) != 0;
	st->sl_support = ppcc_get(p, PF_SL_SUPPORT, buf) != 0;
	st->sls = ppcc_get(p, PF_SL_MASK, buf) & PPCC_ALL_SLS;
	return 0;
}

int ppcc_enable_status(struct ppcc *p, unsigned slot, bool *enabled,
		       bool *counter_en, struct pcb_err *err)
{
	struct ppcc_status st;
	int rc = ppcc_status(p, slot, &st, err);

	if (rc)
		return rc;
	*enabled = st.enabled;
	if (counter_en)
		*counter_en = st.counter_en;
	return 0;
}

bool ppcc_sl_state(const struct ppcc *p, const struct ppcc_status *st,
		   bool enable, bool *enabled)
{
	uint32_t want = p->sl_mask == PPCC_ALL_SLS ? p->sl_all : p->sl_mask;

	*enabled = st->enabled;
	if (!st->sl_support || (st->sls != 0) != st->enabled)
		return false;
	*enabled = enable ? (st->sls & want) == want : (st->sls & want) != 0;
	return true;
}

int ppcc_enable_state(struct ppcc *p, unsigned slot, bool enable,
		      bool *enabled, bool *counter_en, struct pcb_err *err)
{
	struct ppcc_status st;
	int rc = ppcc_status(p, slot, &st, err);

	if (rc)
		return rc;
	ppcc_sl_state(p, &st, enable, enabled);
	if (counter_en)
		*counter_en = st.counter_en;
	return 0;
}

int ppcc_sl_supported(struct ppcc *p, bool *yes, struct pcb_err *err)
{
	struct ppcc_status st;
	int rc = 0;

	if (p->sl_support < 0)
		rc = ppcc_status(p, 0, &st, err);
	*yes = p->sl_support > 0;
	return rc;
}

int ppcc_sl_parse(const char *text, uint32_t *mask, struct pcb_err *err)
{
	const char *c = text;
	uint32_t m = 0;

	if (!strcmp(text, "all")) {
		*mask = PPCC_ALL_SLS;
		return 0;
	}
	/* sl_bitmask itself, as mstreg takes it */
	if (!strncmp(text, "0x", 2) && text[2]) {
		char *end;
		unsigned long v = strtoul(text + 2, &end, 16);

		if (*end || !isxdigit((unsigned char)text[2]) || !v ||
		    v > PPCC_ALL_SLS)
			goto bad;
		*mask = (uint32_t)v;
		return 0;
	}
	while (*c) {
		unsigned long lo, hi;
		char *end;

		if (*c < '0' || *c > '9')
			goto bad;
		lo = hi = strtoul(c, &end, 10);
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				goto bad;
			hi = strtoul(end + 1, &end, 10);
		}
		if (lo > hi || hi > 15 || (*end && *end != ','))
			goto bad;
		while (lo <= hi)
			m |= 1u << lo++;
		c = *end ? end + 1 : end;
		if (*end && !*c)
			goto bad;
	}
	if (!m)
		goto bad;
	*mask = m;
	return 0;
bad:
	return pcb_error(err, PCB_E_RANGE, "bad SL list '%s' (SLs 0..15, as "
			 "3, 0-3,5, all or a mask 0x8)", text);
}

void ppcc_sl_format(uint32_t mask, char *buf, size_t len)
{
	size_t n = 0;
	unsigned i = 0, j;

	mask &= PPCC_ALL_SLS;
	snprintf(buf, len, "none");
	while (mask >> i && n < len) {
		if (!(mask >> i & 1)) {
			i++;
			continue;
		}
		for (j = i; j + 1 < 16 && mask >> (j + 1) & 1; j++)
			;
		if (j > i)
			n += (size_t)snprintf(buf + n, len - n, "%s%u-%u",
					      n ? "," : "", i, j);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%u",
					      n ? "," : "", i);
		i = j + 1;
	}
}

static int ppcc_value_query(struct ppcc *p, unsigned cmd, unsigned slot,
			    unsigned index, uint32_t *v, struct pcb_err *err)
{
	uint8_t buf[PPCC_SIZE + 4];
	int rc = ppcc_query(p, cmd, slot, index, buf, err);

	if (!rc)
		*v = ppcc_get(p, PF_VALUE, buf);
	return rc;
}

int ppcc_num_params(struct ppcc *p, unsigned slot, uint32_t *n,
		    struct pcb_err *err)
{
	return ppcc_value_query(p, PPCC_NUM_PARAMS, slot, 0, n, err);
}

int ppcc_num_counters(struct ppcc *p, unsigned slot, uint32_t *n,
		      struct pcb_err *err)
{
	return ppcc_value_query(p, PPCC_NUM_COUNTERS, slot, 0, n, err);
}

int ppcc_param_get(struct ppcc *p, unsigned slot, unsigned index,
		   uint32_t *value, struct pcb_err *err)
{
	return ppcc_value_query(p, PPCC_PARAM_GET, slot, index, value, err);
}

int ppcc_param_get_clear(struct ppcc *p, unsigned slot, unsigned index,
			 uint32_t *value, struct pcb_err *err)
{
	return ppcc_value_query(p, PPCC_PARAM_GET_CLEAR, slot, index, value,
				err);
}

static int ppcc_info_query(struct ppcc *p, unsigned cmd, unsigned slot,
			   unsigned index, struct ppcc_info *info,
			   struct pcb_err *err)
{
	uint8_t buf[PPCC_SIZE + 4];
	int rc = ppcc_query(p, cmd, slot, index, buf, err);

	if (rc)
		return rc;
	info->def = ppcc_get(p, PF_PV1, buf);
	info->min = ppcc_get(p, PF_PV2, buf);
	info->max = ppcc_get(p, PF_PV3, buf);
	info->prm = ppcc_get(p, PF_PRM, buf);
	ppcc_split_text(buf, p->f[PF_TEXT0], reply_text_len(p, buf),
			info->name, sizeof(info->name), info->descr,
			sizeof(info->descr));
	return 0;
}

int ppcc_param_info(struct ppcc *p, unsigned slot, unsigned index,
		    struct ppcc_info *info, struct pcb_err *err)
{
	return ppcc_info_query(p, PPCC_PARAM_INFO, slot, index, info, err);
}

int ppcc_counter_info(struct ppcc *p, unsigned slot, unsigned index,
		      struct ppcc_info *info, struct pcb_err *err)
{
	return ppcc_info_query(p, PPCC_COUNTER_INFO, slot, index, info, err);
}

int ppcc_param_set(struct ppcc *p, unsigned slot, unsigned index,
		   uint32_t value, struct pcb_err *err)
{
	uint8_t buf[PPCC_SIZE + 4];

	if (!slot_ok(slot, err))
		return -PCB_E_RANGE;
	return ppcc_xfer(p, ppcc_param_set_req(p, slot, index, value, buf),
			 buf, err);
}

static int ppcc_array_query(struct ppcc *p, unsigned cmd, unsigned slot,
			    uint32_t *vals, size_t max, size_t *n,
			    struct pcb_err *err)
{
	uint8_t buf[PPCC_SIZE + 4];
	size_t i, cnt;
	int rc = ppcc_query(p, cmd, slot, 0, buf, err);

	if (rc)
		return rc;
	cnt = reply_text_len(p, buf) / 4;
	if (cnt > max)
		cnt = max;
	for (i = 0; i < cnt; i++)
		vals[i] = ppcc_text(p->f[PF_TEXT0], buf, (unsigned)i);
	*n = cnt;
	return 0;
}

int ppcc_bulk_get(struct ppcc *p, unsigned slot, uint32_t *vals, size_t max,
		  size_t *n, struct pcb_err *err)
{
	return ppcc_array_query(p, PPCC_BULK_GET, slot, vals, max, n, err);
}

int ppcc_counters(struct ppcc *p, unsigned slot, bool clear, uint32_t *vals,
		  size_t max, size_t *n, struct pcb_err *err)
{
	return ppcc_array_query(p, clear ? PPCC_BULK_COUNTERS_CLEAR :
					   PPCC_BULK_COUNTERS,
				slot, vals, max, n, err);
}

int ppcc_bulk_set(struct ppcc *p, unsigned slot, const uint32_t *vals,
		  size_t n, struct pcb_err *err)
{
	const struct ppcc_rw rw = { .sl_bitmask = p->sl_mask,
				    .counter_en = p->keep_cen,
				    .trace_en = p->keep_trace };
	uint8_t buf[PPCC_SIZE + 4];
	size_t i;

	if (n > PPCC_TEXT_DWORDS)
		return pcb_error(err, PCB_E_RANGE,
				 "bulk set of %zu values (at most %d)", n,
				 PPCC_TEXT_DWORDS);
	if (!slot_ok(slot, err))
		return -PCB_E_RANGE;
	ppcc_request(p, PPCC_BULK_SET, slot, 0, &rw, buf);
	for (i = 0; i < n; i++)
		ppcc_set_text(p->f[PF_TEXT0], buf, (unsigned)i, vals[i]);
	ppcc_set(p, PF_TEXT_LEN, buf, (uint32_t)(n * 4));
	return ppcc_xfer(p, REG_SET, buf, err);
}

int ppcc_algo_info_array(struct ppcc *p, uint32_t info[PPCC_SLOTS],
			 struct pcb_err *err)
{
	uint8_t buf[PPCC_SIZE + 4];
	size_t i, cnt;
	int rc = ppcc_query(p, PPCC_ALGO_INFO_ARRAY, 0, 0, buf, err);

	if (rc)
		return rc;
	cnt = reply_text_len(p, buf) / 4;
	for (i = 0; i < PPCC_SLOTS; i++)
		info[i] = i < cnt ? ppcc_text(p->f[PF_TEXT0], buf,
					      (unsigned)i) : 0;
	return 0;
}
