/* fields.h - a PPCC register as "name=value ..." for the tests that
 * compare what two backends write (tests/mstreg-emu/writes.txt).
 *
 * ppcc_fields() lists the fields that are not read-only and not zero, in
 * layout order, decimal; after " | RO " the read-only ones that are not
 * zero.  Firmware ignores read-only fields in a write, so two writes do
 * the same when the part before " | RO " is equal.
 */
#ifndef PCCB_TESTS_FIELDS_H
#define PCCB_TESTS_FIELDS_H

#include <stdio.h>
#include <string.h>

#include "adb.h"
#include "ppcc.h"

static inline void ppcc_fields(const struct adb_reg *l, const uint8_t *buf,
			       char *out, size_t len)
{
	size_t n = 0, i;
	int ro;

	out[0] = '\0';
	for (ro = 0; ro < 2; ro++) {
		if (ro && n < len)
			n += (size_t)snprintf(out + n, len - n, " | RO");
		for (i = 0; i < l->nfields && n < len; i++) {
			const struct adb_field *f = &l->fields[i];
			uint32_t v = adb_get(f, buf);

			if (!v || (f->access == ADB_ACC_RO) != ro)
				continue;
			n += (size_t)snprintf(out + n, len - n, "%s%s=%u",
					      n ? " " : "", f->name, v);
		}
	}
}

/* The SLs an operation of writes.txt names ("enable 3 sl 3,5"), all
 * when it names none; -1 for a bad list.
 */
static inline int ppcc_op_sls(const char *op, uint32_t *sls)
{
	const char *w = strstr(op, " sl ");

	*sls = PPCC_ALL_SLS;
	return w && ppcc_sl_parse(w + 4, sls, NULL) ? -1 : 0;
}

/* The request of an operation as writes.txt names it ("enable 1
 * counters", "enable 2", "disable 0", "param set 0 1 13107", "counters
 * clear 1", any with " sl LIST") into buf, its method into *m; -1 for
 * an unknown one.
 */
static inline int ppcc_op_req(const struct ppcc *p0, const char *op,
			      uint8_t *buf, enum reg_method *m)
{
	struct ppcc q = *p0, *p = &q;
	unsigned a, b, c;

	if (ppcc_op_sls(op, &q.sl_mask))
		return -1;
	if (sscanf(op, "enable %u counters", &a) == 1 &&
	    strstr(op, "counters"))
		*m = ppcc_enable_req(p, a, true, buf);
	else if (sscanf(op, "enable %u", &a) == 1)
		*m = ppcc_enable_req(p, a, false, buf);
	else if (sscanf(op, "disable %u", &a) == 1)
		*m = ppcc_disable_req(p, a, buf);
	else if (sscanf(op, "param set %u %u %u", &a, &b, &c) == 3)
		*m = ppcc_param_set_req(p, a, b, c, buf);
	else if (sscanf(op, "counters clear %u", &a) == 1)
		*m = ppcc_counters_req(p, a, true, buf);
	else
		return -1;
	return 0;
}

#endif
