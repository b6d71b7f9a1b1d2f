/* diag_io.c - data-ID JSON and sample CSV in DOCA's sample formats. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fsafe.h"
#include "paths.h"
#include "tel/diag_ids.h"
#include "tel/diag_io.h"

#define MAX_JSON (1 << 20)
#define JSON_MAX_DEPTH 16

static int write_json(const char *path, const uint64_t *ids, uint32_t n,
		      const char *const *names, struct pcb_err *err)
{
	struct pcb_wfile w;
	char name[96];
	uint32_t i;
	FILE *fp;
	int rc = pcb_wfile_open(&w, path, PCB_MODE_DATA, err);

	if (rc)
		return rc;
	fp = w.fp;
	fputs("{\n  \"data-ids\":[\n", fp);
	for (i = 0; i < n; i++) {
		if (names)
			snprintf(name, sizeof(name), "%s", names[i]);
		else
			diag_id_name(ids[i], name, sizeof(name));
		fprintf(fp, "    {\n      \"name\":\"%s\",\n      \"data_id\":"
			"\"0x%" PRIx64 "\"\n    }%s\n", name, ids[i],
			i + 1 < n ? "," : "");
	}
	fputs("  ]\n}", fp);
	return pcb_wfile_commit(&w, err);
}

int diag_ids_export(const char *path, const uint64_t *ids, uint32_t n,
		    struct pcb_err *err)
{
	return write_json(path, ids, n, NULL, err);
}

int diag_ids_export_default(const char *path, uint32_t sync,
			    struct pcb_err *err)
{
	static const uint64_t port[] = { 0x1020000100000000ULL,
					 0x1140000100000000ULL,
					 0x1020000300000000ULL,
					 0x1140000300000000ULL };
	static const char *const pn[] = { "port_0_rx_bytes", "port_0_tx_bytes",
					  "port_0_rx_packets",
					  "port_0_tx_packets" };
	static const uint64_t icmc[] = { 0x1180000100000000ULL,
					 0x1180000200000000ULL,
					 0x1180000300000000ULL };
	static const char *const in[] = { "global_icmc_request",
					  "global_icmc_hit",
					  "global_icmc_miss" };

	return sync ? write_json(path, icmc, 3, in, err) :
		      write_json(path, port, 4, pn, err);
}

/* The data-ID JSON, read with json-c (as DOCA's sample does): an object
 * whose "data-ids" array holds objects with "name" and "data_id" (hex
 * text, 0x optional); other keys are ignored.  Nesting is limited; json-c
 * is not asked to be strict, so what DOCA's sample reads, we read.
 */
static int entry(json_object *o, uint64_t *id, struct pcb_err *err,
		 uint32_t k)
{
	json_object *name, *did;
	const char *idtext;
	struct diag_id x;
	char *end;

	if (!json_object_is_type(o, json_type_object))
		return pcb_error(err, PCB_E_PARSE, "data-ids[%u]: malformed "
				 "(not an object)", k);
	if (!json_object_object_get_ex(o, "name", &name) ||
	    !json_object_object_get_ex(o, "data_id", &did))
		return pcb_error(err, PCB_E_PARSE, "data-ids[%u] needs both "
				 "\"name\" and \"data_id\"", k);
	if (!json_object_is_type(name, json_type_string))
		return pcb_error(err, PCB_E_PARSE, "data-ids[%u]: name is not "
				 "a string", k);
	if (!json_object_is_type(did, json_type_string))
		return pcb_error(err, PCB_E_PARSE, "data-ids[%u]: data_id is "
				 "not a string", k);
	idtext = json_object_get_string(did);
	/* sscanf("%lx") in the sample: hex, 0x optional */
	errno = 0;
	*id = strtoull(idtext, &end, 16);
	if (!idtext[0] || *end || errno || idtext[0] == '-' ||
	    isspace((unsigned char)idtext[0]) ||
	    strlen(idtext) != (size_t)json_object_get_string_len(did))
		return pcb_error(err, PCB_E_PARSE, "data-ids[%u]: data_id "
				 "'%.40s' is not hex", k, idtext);
	if (diag_id_decode(*id, &x))
		return pcb_error(err, PCB_E_INVAL, "data-ids[%u]: 0x%" PRIx64
				 " is no data ID", k, *id);
	return 0;
}

int diag_ids_parse_json(const char *text, size_t len, uint64_t *ids,
			uint32_t max, uint32_t *n, struct pcb_err *err)
{
	struct json_tokener *tok;
	json_object *root, *arr;
	enum json_tokener_error je;
	size_t used, i, cnt = 0;
	int rc = 0;

	*n = 0;
	if (len > MAX_JSON || len > INT_MAX)
		return pcb_error(err, PCB_E_PARSE, "larger than 1 MB");
	tok = json_tokener_new_ex(JSON_MAX_DEPTH);
	if (!tok)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	root = json_tokener_parse_ex(tok, text, (int)len);
	je = json_tokener_get_error(tok);
	used = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!root || je != json_tokener_success) {
		json_object_put(root);
		return pcb_error(err, PCB_E_PARSE, "malformed JSON (%s)",
				 je == json_tokener_continue ?
				 "unexpected end" : json_tokener_error_desc(je));
	}
	for (i = used; i < len; i++)
		if (!isspace((unsigned char)text[i])) {
			json_object_put(root);
			return pcb_error(err, PCB_E_PARSE, "text after the JSON "
					 "object");
		}
	if (!json_object_is_type(root, json_type_object))
		rc = pcb_error(err, PCB_E_PARSE, "not a JSON object");
	else if (!json_object_object_get_ex(root, "data-ids", &arr))
		rc = pcb_error(err, PCB_E_INVAL, "no \"data-ids\" key");
	else if (!json_object_is_type(arr, json_type_array))
		rc = pcb_error(err, PCB_E_PARSE, "\"data-ids\" is not an array");
	else if (!(cnt = json_object_array_length(arr)))
		rc = pcb_error(err, PCB_E_INVAL, "\"data-ids\" is empty");
	else if (cnt > max)
		rc = pcb_error(err, PCB_E_RANGE, "more than %u data IDs", max);
	for (i = 0; !rc && i < cnt; i++) {
		rc = entry(json_object_array_get_idx(arr, i), &ids[i], err,
			   (uint32_t)i);
		if (!rc)
			(*n)++;
	}
	json_object_put(root);
	return rc;
}

int diag_ids_import(const char *path, uint64_t *ids, uint32_t max,
		    uint32_t *n, struct pcb_err *err)
{
	char *buf;
	size_t len;
	int rc = pcb_read_file(path, MAX_JSON, &buf, &len, err);

	if (rc)
		return rc;
	rc = diag_ids_parse_json(buf, len, ids, max, n, err);
	free(buf);
	if (rc) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		pcb_err_reset(err);
		return pcb_error(err, -rc, "%s: %s", path, msg);
	}
	return 0;
}

/* ---- CSV ---------------------------------------------------------------- */

/* Append to a line that always has room (sized for the worst row). */
__attribute__((format(printf, 3, 4)))
static char *putf(char *o, const char *lim, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o, (size_t)(lim - o), fmt, ap);
	va_end(ap);
	if (n < 0)
		return o;
	return n < lim - o ? o + n : (char *)lim - 1;
}

/* ", <h>.<l:09>" for RTC, ", <(h << 32) | l>" for FRC. */
static char *put_ts(char *o, const char *lim, uint32_t src, uint32_t h,
		    uint32_t l)
{
	if (src == DIAG_RTC)
		return putf(o, lim, ", %u.%09u", h, l);
	return putf(o, lim, ", %" PRIu64, (uint64_t)h << 32 | l);
}

static char *put_u64(char *o, uint64_t v)
{
	char tmp[24];
	int n = 0;

	*o++ = ',';
	*o++ = ' ';
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*o++ = tmp[--n];
	return o;
}

int diag_csv_fwrite(FILE *fp, const struct tel_diag *t, const void *buf,
		    uint32_t n, uint32_t size)
{
	char name[96], line[DIAG_MAX_IDS * 80 + 128], *o;
	const char *lim = line + sizeof(line);
	const uint8_t *p;
	uint32_t i, k;

	if (t->cfg.format == 0) {
		fputs("sample_id", fp);
		for (i = 0; i < t->nids; i++) {
			diag_id_name(t->ids[i], name, sizeof(name));
			fprintf(fp, ", data_id, sample_time, %s", name);
		}
	} else {
		fputs("sample_id, sample_time_start, sample_time_end", fp);
		for (i = 0; i < t->nids; i++) {
			diag_id_name(t->ids[i], name, sizeof(name));
			fprintf(fp, ", %s", name);
		}
	}
	for (k = 0; k < n; k++) {
		p = (const uint8_t *)buf + (size_t)k * size;
		o = putf(line, lim, "\n%u", diag_get32(p));
		if (t->cfg.format == 0) {
			for (i = 0; i < t->nids; i++) {
				const uint8_t *v = p + 8 + 24 * i;

				o = putf(o, lim, ", 0x%016" PRIx64, diag_get64(v));
				o = put_ts(o, lim, t->cfg.ts, diag_get32(v + 8),
					   diag_get32(v + 12));
				o = put_u64(o, diag_get64(v + 16));
			}
		} else {
			uint32_t h = diag_get32(p + 4), l = diag_get32(p + 8),
				 lat = diag_get32(p + 12);

			o = put_ts(o, lim, t->cfg.ts, h, l);
			o = put_ts(o, lim, t->cfg.ts, h + (lat < l), lat);
			for (i = 0; i < t->nids; i++)
				o = put_u64(o, t->cfg.format == 1 ?
					    diag_get64(p + 16 + 8 * i) :
					    diag_get32(p + 16 + 4 * i));
		}
		fwrite(line, 1, (size_t)(o - line), fp);
	}
	return ferror(fp) ? -1 : 0;
}

int diag_csv_write(const char *path, const struct tel_diag *t,
		   const void *buf, uint32_t n, uint32_t size,
		   struct pcb_err *err)
{
	struct pcb_wfile w;
	int rc = pcb_wfile_open(&w, path, PCB_MODE_DATA, err);

	if (rc)
		return rc;
	if (diag_csv_fwrite(w.fp, t, buf, n, size)) {
		pcb_wfile_abort(&w);
		return pcb_error(err, PCB_E_IO, "cannot write '%s'", path);
	}
	return pcb_wfile_commit(&w, err);
}
