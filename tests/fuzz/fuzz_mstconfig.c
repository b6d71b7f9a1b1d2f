/* fuzz_mstconfig.c - mstconfig's query output (reg/mstconfig.c
 * nvc_parse): the banner, the "Configurations:" header and its rows.
 *
 * Input: the text mstconfig printed (NUL-terminated copy).  An error must
 * be one line and leave the query empty; an accepted table is printed
 * again the way mstflint 4.21 prints it (mlxcfg_ui.cpp printConfHeader,
 * printSingleParam) and must parse back to the same rows.  (Where a name
 * of 36 characters or a value of 16 would run into the next column there,
 * with no blank between, the reprint keeps one: mstconfig's own output
 * would then be refused as an unexpected line.)
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mstconfig.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_setup(argc, argv);
	return 0;
}

static const char *const col_names[NVC_NCOLS] = { "Default", "Current",
						  "Next Boot" };

/* The table of q as mstconfig prints it; malloc'd. */
static char *reprint(const struct nvc_query *q)
{
	size_t cap = 256 + q->n * 400, off = 0, i;
	char *t = malloc(cap);
	int c, w;

	if (!t)
		abort();
	off += (size_t)snprintf(t + off, cap - off, "%-16s", "Configurations:");
	for (c = 0; c < NVC_NCOLS; c++)
		if (q->has[c])
			off += (size_t)snprintf(t + off, cap - off, " %s",
						col_names[c]);
	off += (size_t)snprintf(t + off, cap - off, "\n");
	for (i = 0; i < q->n; i++) {
		off += (size_t)snprintf(t + off, cap - off, "%s        %-35s ",
					q->p[i].starred ? "*" : " ",
					q->p[i].name);
		for (c = 0, w = 0; c < NVC_NCOLS; c++) {
			if (!q->has[c])
				continue;
			if (w >= 16)
				off += (size_t)snprintf(t + off, cap - off,
							" ");
			w = snprintf(t + off, cap - off, "%-16s",
				     q->p[i].val[c]);
			off += (size_t)w;
		}
		off += (size_t)snprintf(t + off, cap - off, "\n");
	}
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pcb_err err = { 0 };
	struct nvc_query q, back;
	char *text, *again;
	size_t i;
	int c;

	if (size > (1 << 20))
		return -1;
	fz_begin();
	text = fz_text(data, size);
	if (nvc_parse(text, &q, &err)) {
		if (strchr(err.msg, '\n') || !err.msg[0] || q.n || q.p)
			abort();
		goto out;
	}
	if (!q.n || !q.has[NVC_NEXT])
		abort();
	for (i = 0; i < q.n; i++) {
		for (c = 0; c < NVC_NCOLS; c++)
			if (!q.p[i].val[c] != !q.has[c])
				abort();
		(void)nvc_pending(&q, &q.p[i]);
		(void)nvc_is_cc(q.p[i].name);
	}
	again = reprint(&q);
	if (nvc_parse(again, &back, &err)) {
		fprintf(stderr, "fuzz: a table printed again does not parse: "
			"%s\n", err.msg);
		abort();
	}
	if (back.n != q.n || memcmp(back.has, q.has, sizeof(q.has)))
		abort();
	for (i = 0; i < q.n; i++) {
		if (strcmp(back.p[i].name, q.p[i].name) ||
		    back.p[i].starred != q.p[i].starred)
			abort();
		for (c = 0; c < NVC_NCOLS; c++)
			if (q.has[c] && strcmp(back.p[i].val[c],
					       q.p[i].val[c]))
				abort();
	}
	nvc_release(&back);
	free(again);
	nvc_release(&q);
out:
	free(text);
	fz_end();
	return 0;
}
