/* out.c - text tables, a small streaming JSON writer, and fields that
 * print as either.
 */
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"

void out_init(struct out *o, FILE *fp, bool json, bool pretty)
{
	memset(o, 0, sizeof(*o));
	o->fp = fp;
	o->json = json || pretty;
	o->pretty = pretty;
}

/* The shortest text that reads back as exactly v (JSON keeps every
 * bit; 0.1 stays "0.1").
 */
static void shortest(char *b, size_t len, double v)
{
	int p;

	for (p = 6; p < 17; p++) {
		snprintf(b, len, "%.*g", p, v);
		if (strtod(b, NULL) == v)
			return;
	}
	snprintf(b, len, "%.17g", v);
}

void out_real(struct out *o, const char *key, double v)
{
	char b[32];

	if (!o->json)
		return;
	if (!isfinite(v)) {
		out_null(o, key);
		return;
	}
	shortest(b, sizeof(b), v);
	out_num(o, key, b);
}

void out_json_string(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', fp);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		default:
			if (*p < 0x20)
				fprintf(fp, "\\u%04x", *p);
			else
				fputc(*p, fp);
		}
	}
	fputc('"', fp);
}

static void indent(struct out *o)
{
	int i;

	if (!o->pretty)
		return;
	fputc('\n', o->fp);
	for (i = 0; i < o->depth; i++)
		fputs("  ", o->fp);
}

/* Separator, indentation and key before a value. */
static void prefix(struct out *o, const char *key)
{
	int d = o->depth < 32 ? o->depth : 31;

	if (o->need_comma[d])
		fputc(',', o->fp);
	if (o->depth)
		indent(o);
	o->need_comma[d] = true;
	if (key) {
		out_json_string(o->fp, key);
		fputs(o->pretty ? ": " : ":", o->fp);
	}
}

static void open_(struct out *o, const char *key, char c)
{
	prefix(o, key);
	fputc(c, o->fp);
	o->depth++;
	if (o->depth < 32)
		o->need_comma[o->depth] = false;
}

static void close_(struct out *o, char c)
{
	bool had = o->depth < 32 && o->need_comma[o->depth];

	o->depth--;
	if (had)
		indent(o);
	fputc(c, o->fp);
	if (o->depth == 0) {
		fputc('\n', o->fp);
		o->need_comma[0] = false;
	}
}

void out_obj_begin(struct out *o, const char *key)
{
	if (!o->json)
		return;
	open_(o, key, '{');
}

void out_obj_end(struct out *o)
{
	if (!o->json)
		return;
	close_(o, '}');
}

void out_arr_begin(struct out *o, const char *key)
{
	if (!o->json)
		return;
	open_(o, key, '[');
}

void out_arr_end(struct out *o)
{
	if (!o->json)
		return;
	close_(o, ']');
}

void out_str(struct out *o, const char *key, const char *val)
{
	if (!o->json)
		return;
	prefix(o, key);
	if (val)
		out_json_string(o->fp, val);
	else
		fputs("null", o->fp);
}

void out_u64(struct out *o, const char *key, uint64_t v)
{
	if (!o->json)
		return;
	prefix(o, key);
	fprintf(o->fp, "%llu", (unsigned long long)v);
}

void out_i64(struct out *o, const char *key, int64_t v)
{
	if (!o->json)
		return;
	prefix(o, key);
	fprintf(o->fp, "%lld", (long long)v);
}

void out_num(struct out *o, const char *key, const char *numtext)
{
	if (!o->json)
		return;
	prefix(o, key);
	fputs(numtext, o->fp);
}

void out_bool(struct out *o, const char *key, bool v)
{
	if (!o->json)
		return;
	prefix(o, key);
	fputs(v ? "true" : "false", o->fp);
}

void out_null(struct out *o, const char *key)
{
	if (!o->json)
		return;
	prefix(o, key);
	fputs("null", o->fp);
}

void out_end_doc(struct out *o)
{
	if (!o->json)
		return;
	if (o->depth == 0)
		fputc('\n', o->fp);
}

/* ---- fields: text through fmt, or JSON ------------------------------ */

void out_text(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->json)
		return;
	va_start(ap, fmt);
	vfprintf(o->fp, fmt, ap);
	va_end(ap);
}

void out_nl(struct out *o)
{
	if (!o->json)
		fputc('\n', o->fp);
}

/* The fmt of a field is the caller's, with one conversion for the value
 * (the Makefile's -Wno-format-nonliteral lets it through).
 */
void out_field_str(struct out *o, const char *key, const char *fmt,
		   const char *val)
{
	if (o->json)
		out_str(o, key, val);
	else
		fprintf(o->fp, fmt, val ? val : "-");
}

void out_field_uint(struct out *o, const char *key, const char *fmt,
		    unsigned int v)
{
	if (o->json)
		out_u64(o, key, v);
	else
		fprintf(o->fp, fmt, v);
}

void out_field_u64(struct out *o, const char *key, const char *fmt,
		   uint64_t v)
{
	if (o->json)
		out_u64(o, key, v);
	else
		fprintf(o->fp, fmt, (unsigned long long)v);
}

void out_field_int(struct out *o, const char *key, const char *fmt, int v)
{
	if (o->json)
		out_i64(o, key, v);
	else
		fprintf(o->fp, fmt, v);
}

void out_field_real(struct out *o, const char *key, const char *fmt,
		    double v)
{
	if (o->json)
		out_real(o, key, v);
	else
		fprintf(o->fp, fmt, v);
}

void out_field_bool(struct out *o, const char *key, const char *fmt,
		    bool v, const char *yes, const char *no)
{
	if (o->json)
		out_bool(o, key, v);
	else
		fprintf(o->fp, fmt, v ? yes : no);
}

/* ---- tables ------------------------------------------------------------ */

void tbl_init(struct tbl *t, const struct tbl_col *cols, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
	t->cur = ncols;
}

void tbl_release(struct tbl *t)
{
	size_t i;

	for (i = 0; i < t->nrows * t->ncols; i++) {
		free(t->cells[i].text);
		free(t->cells[i].json);
	}
	free(t->cells);
	t->cells = NULL;
	t->nrows = t->cap = 0;
}

int tbl_row(struct tbl *t)
{
	if (t->nrows == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;
		struct tbl_cell *c = realloc(t->cells,
					     ncap * t->ncols * sizeof(*c));

		if (!c)
			return -1;
		t->cells = c;
		t->cap = ncap;
	}
	memset(&t->cells[t->nrows * t->ncols], 0,
	       t->ncols * sizeof(*t->cells));
	t->nrows++;
	t->cur = 0;
	return 0;
}

static void put(struct tbl *t, enum cell_kind k, char *text)
{
	struct tbl_cell *c;

	if (t->cur >= t->ncols || !t->nrows) {
		free(text);
		return;
	}
	c = &t->cells[(t->nrows - 1) * t->ncols + t->cur++];
	c->kind = k;
	c->text = text;
}

void tbl_str(struct tbl *t, const char *s)
{
	if (!s)
		put(t, CELL_NULL, NULL);
	else
		put(t, CELL_STR, strdup(s));
}

void tbl_strf(struct tbl *t, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	put(t, s ? CELL_STR : CELL_NULL, s);
}

void tbl_u64(struct tbl *t, uint64_t v)
{
	char *s = NULL;

	if (asprintf(&s, "%llu", (unsigned long long)v) < 0)
		s = NULL;
	put(t, s ? CELL_NUM : CELL_NULL, s);
}

void tbl_hex(struct tbl *t, uint64_t v, int width)
{
	char *s = NULL;

	/* text shows hex; JSON gets the number */
	if (asprintf(&s, "0x%0*llx", width, (unsigned long long)v) < 0)
		s = NULL;
	put(t, s ? CELL_NUM : CELL_NULL, s);
}

void tbl_num(struct tbl *t, const char *numtext)
{
	put(t, CELL_NUM, strdup(numtext));
}

void tbl_real(struct tbl *t, double v)
{
	char b[32];

	if (!isfinite(v)) {
		tbl_null(t);
		return;
	}
	snprintf(b, sizeof(b), "%.6g", v);	/* text: 6 digits */
	tbl_num(t, b);
	if (t->cur && t->nrows) {		/* JSON: every bit */
		shortest(b, sizeof(b), v);
		t->cells[(t->nrows - 1) * t->ncols + t->cur - 1].json =
			strdup(b);
	}
}

void tbl_bool(struct tbl *t, bool v)
{
	put(t, CELL_BOOL, strdup(v ? "true" : "false"));
}

void tbl_null(struct tbl *t)
{
	put(t, CELL_NULL, NULL);
}

static void cell_json(struct out *o, const char *key,
		      const struct tbl_cell *c)
{
	switch (c->kind) {
	case CELL_NUM:
		if (c->json) {
			out_num(o, key, c->json);
			break;
		}
		if (c->text && !strncmp(c->text, "0x", 2)) {
			out_u64(o, key, strtoull(c->text, NULL, 16));
			break;
		}
		out_num(o, key, c->text ? c->text : "null");
		break;
	case CELL_BOOL:
		out_bool(o, key, c->text && c->text[0] == 't');
		break;
	case CELL_NULL:
		out_null(o, key);
		break;
	default:
		out_str(o, key, c->text);
	}
}

static const char *cell_text(const struct tbl_cell *c)
{
	if (c->kind == CELL_NULL || !c->text)
		return "-";
	if (c->kind == CELL_BOOL)
		return c->text[0] == 't' ? "yes" : "no";
	return c->text;
}

void tbl_print(struct tbl *t, struct out *o, const char *key)
{
	size_t r, c, w[32] = { 0 };

	if (o->json) {
		out_arr_begin(o, key);
		for (r = 0; r < t->nrows; r++) {
			out_obj_begin(o, NULL);
			for (c = 0; c < t->ncols; c++)
				if (!(t->cols[c].flags & TBL_TEXT_ONLY))
					cell_json(o, t->cols[c].key,
						  &t->cells[r * t->ncols + c]);
			out_obj_end(o);
		}
		out_arr_end(o);
		return;
	}
	for (c = 0; c < t->ncols && c < 32; c++) {
		w[c] = strlen(t->cols[c].head);
		for (r = 0; r < t->nrows; r++) {
			size_t l = strlen(cell_text(&t->cells[r * t->ncols +
							       c]));

			if (l > w[c])
				w[c] = l;
		}
	}
	for (r = 0; r <= t->nrows; r++) {
		size_t last = 0;
		char line[4096];
		size_t n = 0;

		for (c = 0; c < t->ncols && c < 32; c++)
			if (!(t->cols[c].flags & TBL_JSON_ONLY))
				last = c;
		for (c = 0; c < t->ncols && c < 32; c++) {
			const char *s;
			int pad;

			if (t->cols[c].flags & TBL_JSON_ONLY)
				continue;
			s = r == 0 ? t->cols[c].head :
				     cell_text(&t->cells[(r - 1) * t->ncols + c]);
			pad = (int)w[c];
			if (n >= sizeof(line))
				break;
			n += (size_t)snprintf(line + n, sizeof(line) - n,
					      (t->cols[c].flags & TBL_RIGHT) ?
					      "%*s" : "%-*s",
					      c == last &&
					      !(t->cols[c].flags & TBL_RIGHT) ?
					      0 : pad, s);
			if (c != last && n < sizeof(line))
				n += (size_t)snprintf(line + n,
						      sizeof(line) - n, "  ");
		}
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		while (n && line[n - 1] == ' ')
			n--;
		line[n] = '\0';
		fprintf(o->fp, "%s\n", line);
	}
}
