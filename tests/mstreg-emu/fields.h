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

#include "adb.h"

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

#endif
