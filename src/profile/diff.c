/* diff.c - two profiles compared param by param, as a table's rows
 * (profile.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "out.h"
#include "profile/profile.h"
#include "session.h"

/* The differences of b against a, param by param; *n how many. */
void profile_diff_rows(struct session *s, const struct profile *a,
		       const struct profile *b, struct tbl *t, size_t *n)
{
	size_t i, j, k, m;

	for (i = 0; i < a->nslots; i++) {
		const struct pslot *x = &a->s[i], *y = NULL;

		for (j = 0; j < b->nslots && !y; j++)
			if (b->s[j].slot == x->slot)
				y = &b->s[j];
		for (k = 0; k < x->nparams; k++) {
			const struct param_view *p =
				profile_view_of(s, x->slot, x->p[k].name);
			char va[40], vb[40] = "-";

			for (m = 0; y && m < y->nparams &&
			     strcmp(y->p[m].name, x->p[k].name); m++)
				;
			if (y && m < y->nparams && y->p[m].raw == x->p[k].raw)
				continue;
			profile_format_raw(s, p, x->p[k].raw, va,
					   sizeof(va));
			if (y && m < y->nparams)
				profile_format_raw(s, p, y->p[m].raw, vb,
						   sizeof(vb));
			tbl_row(t);
			tbl_u64(t, x->slot);
			tbl_str(t, x->p[k].name);
			tbl_str(t, va);
			tbl_str(t, vb);
			tbl_str(t, p && p->units ? p->units : "");
			++*n;
		}
		if (y && (x->enabled != y->enabled ||
			  x->counters != y->counters)) {
			tbl_row(t);
			tbl_u64(t, x->slot);
			tbl_str(t, "(state)");
			tbl_str(t, x->enabled ? x->counters ? "counters" :
				"enabled" : "disabled");
			tbl_str(t, y->enabled ? y->counters ? "counters" :
				"enabled" : "disabled");
			tbl_str(t, "");
			++*n;
		}
	}
}
