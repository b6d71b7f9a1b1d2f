/* diag_io.c - data-ID JSON and sample CSV in DOCA's sample formats. */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "tel/diag_ids.h"
#include "tel/diag_io.h"

#define MAX_JSON (1 << 20)

static int write_json(const char *path, const uint64_t *ids, uint32_t n,
		      const char *const *names, struct pcb_err *err)
{
	FILE *fp = fopen(path, "w");
	char name[96];
	uint32_t i;
	int bad;

	if (!fp)
		return pcb_error(err, PCB_E_IO, "cannot write '%s': %s", path,
				 strerror(errno));
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
	bad = ferror(fp);
	if (fclose(fp) || bad)
		return pcb_error(err, PCB_E_IO, "cannot write '%s'", path);
	return 0;
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

/* ---- a small JSON reader: enough for the data-ID file ------------------ */

struct jp {
	const char *p, *end;
	int depth;
};

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool eat(struct jp *j, char c)
{
	ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	return false;
}

/* A string into buf (escapes kept simple: \" \\ \/ and letters). */
static int jstring(struct jp *j, char *buf, size_t len)
{
	size_t n = 0;

	if (!eat(j, '"'))
		return -1;
	while (j->p < j->end && *j->p != '"') {
		char c = *j->p++;

		if ((unsigned char)c < 0x20)
			return -1;
		if (c == '\\') {
			if (j->p >= j->end)
				return -1;
			c = *j->p++;
			if (c == 'u') {
				if (j->end - j->p < 4)
					return -1;
				j->p += 4;
				c = '?';
			} else if (c == 'n' || c == 't' || c == 'r' ||
				   c == 'b' || c == 'f') {
				c = ' ';
			} else if (c != '"' && c != '\\' && c != '/') {
				return -1;
			}
		}
		if (n + 1 < len)
			buf[n++] = c;
	}
	if (j->p >= j->end)
		return -1;
	j->p++;
	if (len)
		buf[n] = 0;
	return 0;
}

static int jskip(struct jp *j)
{
	char tmp[1];

	ws(j);
	if (j->p >= j->end || ++j->depth > 32)
		return -1;
	if (*j->p == '"') {
		j->depth--;
		return jstring(j, tmp, 0);
	}
	if (*j->p == '{' || *j->p == '[') {
		char close = *j->p == '{' ? '}' : ']';

		j->p++;
		if (eat(j, close)) {
			j->depth--;
			return 0;
		}
		do {
			if (close == '}' && (jstring(j, tmp, 0) ||
					     !eat(j, ':')))
				return -1;
			if (jskip(j))
				return -1;
		} while (eat(j, ','));
		j->depth--;
		return eat(j, close) ? 0 : -1;
	}
	while (j->p < j->end && strchr("0123456789+-.eEtruefalsn", *j->p))
		j->p++;
	j->depth--;
	return 0;
}

static int entry(struct jp *j, uint64_t *id, struct pcb_err *err,
		 uint32_t k)
{
	char key[64], val[300], idtext[300] = "";
	bool have_name = false, have_id = false;
	char *end;

	if (!eat(j, '{'))
		return pcb_error(err, PCB_E_PARSE, "data-ids[%u] is not an "
				 "object", k);
	if (!eat(j, '}')) {
		do {
			if (jstring(j, key, sizeof(key)) || !eat(j, ':'))
				return pcb_error(err, PCB_E_PARSE,
						 "data-ids[%u]: malformed", k);
			ws(j);
			if (!strcmp(key, "name") || !strcmp(key, "data_id")) {
				if (jstring(j, val, sizeof(val)))
					return pcb_error(err, PCB_E_PARSE,
							 "data-ids[%u]: %s is "
							 "not a string", k,
							 key);
				if (key[0] == 'n') {
					have_name = true;
				} else {
					have_id = true;
					snprintf(idtext, sizeof(idtext), "%s",
						 val);
				}
			} else if (jskip(j)) {
				return pcb_error(err, PCB_E_PARSE,
						 "data-ids[%u]: malformed", k);
			}
		} while (eat(j, ','));
		if (!eat(j, '}'))
			return pcb_error(err, PCB_E_PARSE, "data-ids[%u]: "
					 "malformed", k);
	}
	if (!have_name || !have_id)
		return pcb_error(err, PCB_E_PARSE, "data-ids[%u] needs both "
				 "\"name\" and \"data_id\"", k);
	/* sscanf("%lx") in the sample: hex, 0x optional */
	errno = 0;
	*id = strtoull(idtext, &end, 16);
	if (!idtext[0] || *end || errno || idtext[0] == '-')
		return pcb_error(err, PCB_E_PARSE, "data-ids[%u]: data_id "
				 "'%s' is not hex", k, idtext);
	{
		struct diag_id x;

		if (diag_id_decode(*id, &x))
			return pcb_error(err, PCB_E_INVAL, "data-ids[%u]: "
					 "0x%" PRIx64 " is no data ID", k,
					 *id);
	}
	return 0;
}

int diag_ids_parse_json(const char *text, size_t len, uint64_t *ids,
			uint32_t max, uint32_t *n, struct pcb_err *err)
{
	struct jp j = { text, text + len, 0 };
	char key[64];
	bool found = false;
	int rc;

	*n = 0;
	if (!eat(&j, '{'))
		return pcb_error(err, PCB_E_PARSE, "not a JSON object");
	if (!eat(&j, '}')) {
		do {
			if (jstring(&j, key, sizeof(key)) || !eat(&j, ':'))
				return pcb_error(err, PCB_E_PARSE,
						 "malformed JSON");
			if (strcmp(key, "data-ids") || found) {
				if (jskip(&j))
					return pcb_error(err, PCB_E_PARSE,
							 "malformed JSON");
				continue;
			}
			found = true;
			if (!eat(&j, '['))
				return pcb_error(err, PCB_E_PARSE, "\"data-ids\" "
						 "is not an array");
			if (eat(&j, ']'))
				continue;
			do {
				if (*n == max)
					return pcb_error(err, PCB_E_RANGE,
							 "more than %u data "
							 "IDs", max);
				rc = entry(&j, &ids[*n], err, *n);
				if (rc)
					return rc;
				(*n)++;
			} while (eat(&j, ','));
			if (!eat(&j, ']'))
				return pcb_error(err, PCB_E_PARSE,
						 "malformed \"data-ids\" array");
		} while (eat(&j, ','));
		if (!eat(&j, '}'))
			return pcb_error(err, PCB_E_PARSE, "malformed JSON");
	}
	ws(&j);
	if (j.p != j.end)
		return pcb_error(err, PCB_E_PARSE, "text after the JSON object");
	if (!found)
		return pcb_error(err, PCB_E_INVAL, "no \"data-ids\" key");
	if (!*n)
		return pcb_error(err, PCB_E_INVAL, "\"data-ids\" is empty");
	return 0;
}

int diag_ids_import(const char *path, uint64_t *ids, uint32_t max,
		    uint32_t *n, struct pcb_err *err)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	size_t len;
	int rc;

	if (!fp)
		return pcb_error(err, PCB_E_IO, "cannot open '%s': %s", path,
				 strerror(errno));
	buf = malloc(MAX_JSON + 1);
	if (!buf) {
		fclose(fp);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	len = fread(buf, 1, MAX_JSON + 1, fp);
	fclose(fp);
	if (len > MAX_JSON) {
		free(buf);
		return pcb_error(err, PCB_E_PARSE, "%s: larger than 1 MB", path);
	}
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
	FILE *fp = fopen(path, "w");
	int bad;

	if (!fp)
		return pcb_error(err, PCB_E_IO, "cannot write '%s': %s", path,
				 strerror(errno));
	bad = diag_csv_fwrite(fp, t, buf, n, size);
	if (fclose(fp) || bad)
		return pcb_error(err, PCB_E_IO, "cannot write '%s'", path);
	return 0;
}
