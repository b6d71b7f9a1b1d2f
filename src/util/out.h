/* out.h - one printer for text and JSON.
 *
 * Commands describe what they print once: a table (columns + rows of typed
 * cells) or key/value records.  In text mode a table prints aligned with a
 * header; with -j/-p the same call prints a JSON array of objects keyed by
 * column keys.  Cells are kept as text; a numeric cell is emitted unquoted
 * in JSON.  Ownership: a struct tbl is built with tbl_init, filled, printed
 * with tbl_print and released with tbl_release.
 *
 * Records are a straight sequence of calls, the same in both modes (as
 * iproute2's print_*(PRINT_ANY / PRINT_JSON / PRINT_FP, ...)):
 *   out_field_*(o, key, fmt, v)  both: text prints fmt with v, JSON key: v
 *   out_str(o, key, v), ...      JSON only; nothing in text
 *   out_obj_begin, out_arr_...   JSON only; nothing in text
 *   out_text(o, fmt, ...)        text only; nothing in JSON
 *   out_nl(o)                    a newline in text
 * So a command never asks o->json to print:
 *   out_obj_begin(o, NULL);
 *   out_field_uint(o, "slot", "slot %u: ", slot);
 *   out_field_str(o, "state", "%s\n", state);
 *   out_obj_end(o);
 * Each out_field_* fmt has exactly one conversion, for the value's type
 * (str %s, uint %u/%x, u64 %llu/%llx, int %d, real %g/%f); the formats are
 * not checked at compile time, so keep them next to the call.
 */
#ifndef PCCB_OUT_H
#define PCCB_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct out {
	FILE *fp;
	bool json;
	bool pretty;
	int depth;
	bool need_comma[32];
};

void out_init(struct out *o, FILE *fp, bool json, bool pretty);

/* JSON writer, no-ops in text mode; key is NULL inside arrays and at the
 * top level.  A top-level value ends with a newline.
 */
void out_obj_begin(struct out *o, const char *key);
void out_obj_end(struct out *o);
void out_arr_begin(struct out *o, const char *key);
void out_arr_end(struct out *o);
void out_str(struct out *o, const char *key, const char *val);
void out_u64(struct out *o, const char *key, uint64_t v);
void out_i64(struct out *o, const char *key, int64_t v);
void out_num(struct out *o, const char *key, const char *numtext);
void out_bool(struct out *o, const char *key, bool v);
void out_null(struct out *o, const char *key);
/* %.6g as a number; NAN or infinite -> null. */
void out_real(struct out *o, const char *key, double v);
void out_end_doc(struct out *o);	/* newline after a top-level value */
void out_json_string(FILE *fp, const char *s);

/* Text only: printf to the output; nothing in JSON mode. */
void out_text(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void out_nl(struct out *o);	/* "\n" in text */

/* Both: in text fmt printed with the value, in JSON key: value.  A NULL
 * string is null in JSON and "-" in text; a real that is NAN or infinite
 * is null in JSON and prints through fmt in text.  A bool prints as yes
 * or no in text (the caller's words: "on"/"off", "ENABLED"/"DISABLED").
 */
void out_field_str(struct out *o, const char *key, const char *fmt,
		   const char *val);
void out_field_uint(struct out *o, const char *key, const char *fmt,
		    unsigned int v);
void out_field_u64(struct out *o, const char *key, const char *fmt,
		   uint64_t v);
void out_field_int(struct out *o, const char *key, const char *fmt, int v);
void out_field_real(struct out *o, const char *key, const char *fmt,
		    double v);
void out_field_bool(struct out *o, const char *key, const char *fmt,
		    bool v, const char *yes, const char *no);

enum cell_kind { CELL_STR, CELL_NUM, CELL_BOOL, CELL_NULL };

#define TBL_TEXT_ONLY 0x1	/* column not in JSON */
#define TBL_JSON_ONLY 0x2	/* column not in text */
#define TBL_RIGHT     0x4	/* right-align in text */

struct tbl_col {
	const char *key;	/* JSON key */
	const char *head;	/* text header */
	unsigned flags;
};

struct tbl_cell {
	enum cell_kind kind;
	char *text;
	char *json;		/* the JSON form where it differs (reals) */
};

struct tbl {
	const struct tbl_col *cols;
	size_t ncols;
	size_t nrows, cap;
	struct tbl_cell *cells;	/* nrows * ncols */
	size_t cur;		/* next cell to fill in the current row */
};

void tbl_init(struct tbl *t, const struct tbl_col *cols, size_t ncols);
void tbl_release(struct tbl *t);
int tbl_row(struct tbl *t);	/* start a row; -1 on out of memory */
void tbl_str(struct tbl *t, const char *s);	/* NULL -> null / "-" */
void tbl_strf(struct tbl *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tbl_u64(struct tbl *t, uint64_t v);
void tbl_hex(struct tbl *t, uint64_t v, int width);	/* JSON: number */
void tbl_num(struct tbl *t, const char *numtext);	/* "0.1" */
void tbl_real(struct tbl *t, double v);	/* %.6g; NAN -> null */
void tbl_bool(struct tbl *t, bool v);
void tbl_null(struct tbl *t);
/* Print; in JSON mode as an array (or under key inside an object). */
void tbl_print(struct tbl *t, struct out *o, const char *key);

#endif
