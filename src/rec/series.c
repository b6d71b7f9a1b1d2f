/* series.c - timelines: columns, CSV, counter deltas, correlation. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsafe.h"
#include "rec/series.h"
#include "suggest.h"

struct series *series_new(const char *name)
{
	struct series *s = calloc(1, sizeof(*s));

	if (s)
		snprintf(s->name, sizeof(s->name), "%s", name);
	return s;
}

void series_free(struct series *s)
{
	if (!s)
		return;
	free(s->data);
	free(s->wall);
	free(s);
}

/* Names and units go into CSV headers, JSON and gnuplot labels: ASCII
 * letters, digits and a few marks only, and never truncated.
 */
static bool chars_ok(const char *t, size_t max, const char *extra)
{
	size_t n = strlen(t);

	if (n > max)
		return false;
	for (; *t; t++)
		if (!((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') ||
		      (*t >= '0' && *t <= '9') || strchr(extra, *t)))
			return false;
	return true;
}

bool series_name_ok(const char *name)
{
	return *name && chars_ok(name, sizeof(((struct series_col *)0)->name)
				 - 1, "_.+-");
}

bool series_unit_ok(const char *unit)
{
	return chars_ok(unit, sizeof(((struct series_col *)0)->unit) - 1,
			"/%._+*^-");
}

int series_add_col(struct series *s, const char *name, const char *unit)
{
	if (s->nrows || s->ncols == SERIES_MAX_COLS || series_col(s, name) >= 0 ||
	    !series_name_ok(name) || !series_unit_ok(unit) ||
	    !strcmp(name, SERIES_WALL))
		return -1;
	snprintf(s->cols[s->ncols].name, sizeof(s->cols[0].name), "%s", name);
	snprintf(s->cols[s->ncols].unit, sizeof(s->cols[0].unit), "%s", unit);
	s->ncols++;
	return 0;
}

const char *series_no_col(const struct series *s, const char *name,
			  char *buf, size_t len)
{
	struct suggest sg;
	size_t i;

	suggest_init(&sg, name);
	for (i = 0; i < s->ncols; i++)
		suggest_add(&sg, s->cols[i].name);
	return suggest_text(&sg, buf, len);
}

bool series_col_is(const char *name, const char *base)
{
	size_t n = strlen(name), b = strlen(base);

	return !strcmp(name, base) || (n > b + 1 && name[n - b - 1] == '.' &&
					!strcmp(name + n - b, base));
}

int series_col(const struct series *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->ncols; i++)
		if (!strcmp(s->cols[i].name, name))
			return (int)i;
	return -1;
}

/* Room for one more row (and its wall-clock time when with_wall). */
static int grow_rows(struct series *s, bool with_wall)
{
	size_t cap = s->cap ? s->cap * 2 : 256;
	double *d;

	if (!s->ncols || cap > SIZE_MAX / sizeof(double) / s->ncols)
		return -1;
	if (with_wall) {
		int64_t *w = realloc(s->wall, cap * sizeof(*w));

		if (!w)
			return -1;
		s->wall = w;
	}
	d = realloc(s->data, cap * s->ncols * sizeof(double));
	if (!d)
		return -1;
	s->data = d;
	s->cap = cap;
	return 0;
}

static int add_row(struct series *s, const double *vals, bool with_wall,
		   int64_t wall)
{
	if (s->nrows && with_wall != !!s->wall)
		return -1;	/* every row has a wall-clock time or none */
	if ((s->nrows == s->cap || (with_wall && !s->wall)) &&
	    grow_rows(s, with_wall))
		return -1;
	memcpy(s->data + s->nrows * s->ncols, vals, s->ncols * sizeof(double));
	if (with_wall)
		s->wall[s->nrows] = wall;
	s->nrows++;
	return 0;
}

int series_add_row(struct series *s, const double *vals)
{
	return add_row(s, vals, false, 0);
}

int series_add_row_wall(struct series *s, const double *vals, int64_t wall)
{
	return add_row(s, vals, true, wall);
}

/* RFC 4180: quote a field holding a comma, quote, CR or LF. */
static void csv_field(FILE *fp, const char *f)
{
	if (!strpbrk(f, ",\"\r\n")) {
		fputs(f, fp);
		return;
	}
	fputc('"', fp);
	for (; *f; f++) {
		if (*f == '"')
			fputc('"', fp);
		fputc(*f, fp);
	}
	fputc('"', fp);
}

static int put_u64(char *b, uint64_t u)
{
	char tmp[24];
	int n = 0, o = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	while (n)
		b[o++] = tmp[--n];
	return o;
}

/* A value as CSV text, fast for what a timeline holds: whole numbers
 * (counts, most rates) exactly, others below 10^6 with 9 decimals
 * (trailing zeros dropped; times are whole picoseconds, so exact), the
 * rest with 9 significant digits.  Returns the length.
 */
static int fmt_value(char *b, size_t len, double v)
{
	double a = fabs(v);
	int o = 0;

	if (v == floor(v) && a < 1e15) {
		if (v < 0)
			b[o++] = '-';
		o += put_u64(b + o, (uint64_t)a);
	} else if (a >= 1e-9 && a < 1e6) {
		uint64_t x = (uint64_t)llround(a * 1e9);
		uint64_t frac = x % 1000000000ULL;
		int d;

		if (v < 0)
			b[o++] = '-';
		o += put_u64(b + o, x / 1000000000ULL);
		if (frac) {
			b[o++] = '.';
			for (d = 0; d < 9 && frac; d++) {
				b[o++] = (char)('0' + frac / 100000000ULL);
				frac = frac % 100000000ULL * 10;
			}
		}
	} else {
		return snprintf(b, len, "%.9g", v);
	}
	b[o] = 0;
	return o;
}

int series_fmt_value(char *buf, size_t len, double v)
{
	return fmt_value(buf, len, v);
}

int series_write_csv(const struct series *s, const char *path,
		     struct pcb_err *err)
{
	struct pcb_wfile w;
	char h[80];
	size_t r, c;
	FILE *fp;
	int rc = pcb_wfile_open(&w, path, PCB_MODE_DATA, err);

	if (rc)
		return rc;
	fp = w.fp;
	for (c = 0; c < s->ncols; c++) {
		if (*s->cols[c].unit)
			snprintf(h, sizeof(h), "%s (%s)", s->cols[c].name,
				 s->cols[c].unit);
		else
			snprintf(h, sizeof(h), "%s", s->cols[c].name);
		if (c)
			fputc(',', fp);
		csv_field(fp, h);
	}
	/* last: every other column keeps its place for what reads them
	 * by position (gnuplot's `using 1:2`) */
	if (s->wall)
		fputs("," SERIES_WALL " (ns)", fp);
	fputs("\r\n", fp);
	for (r = 0; r < s->nrows; r++) {
		char line[SERIES_MAX_COLS * 26 + 32];
		size_t o = 0;

		for (c = 0; c < s->ncols; c++) {
			double v = series_at(s, r, c);

			if (c)
				line[o++] = ',';
			if (!isnan(v))	/* missing: an empty field */
				o += (size_t)fmt_value(line + o, 25, v);
		}
		if (s->wall)
			o += (size_t)snprintf(line + o, 24, ",%" PRId64,
					      s->wall[r]);
		line[o++] = '\r';
		line[o++] = '\n';
		fwrite(line, 1, o, fp);
	}
	return pcb_wfile_commit(&w, err);
}

/* One CSV record (fields split in place); 0, 1 at EOF, -1 malformed. */
static int csv_record(FILE *fp, char *buf, size_t len, char **f, size_t max,
		      size_t *n)
{
	size_t o = 0;
	int c, q = 0;

	*n = 0;
	c = fgetc(fp);
	if (c == EOF)
		return 1;
	f[(*n)++] = buf;
	for (;; c = fgetc(fp)) {
		if (o + 2 >= len)
			return -1;
		if (c == EOF) {
			if (q)
				return -1;
			break;
		}
		if (q) {
			if (c == '"') {
				c = fgetc(fp);
				if (c != '"') {
					q = 0;
					ungetc(c, fp);
					continue;
				}
			}
			buf[o++] = (char)c;
		} else if (c == '"') {
			q = 1;
		} else if (c == ',') {
			buf[o++] = 0;
			if (*n == max)
				return -1;
			f[(*n)++] = buf + o;
		} else if (c == '\r') {
			continue;
		} else if (c == '\n') {
			break;
		} else {
			buf[o++] = (char)c;
		}
	}
	buf[o] = 0;
	return 0;
}

int series_read_csv(struct series **out, const char *name, const char *path,
		    struct pcb_err *err)
{
	FILE *fp = pcb_fopen_read(path, err);
	char buf[8192], *f[SERIES_MAX_COLS + 2], *end;
	double vals[SERIES_MAX_COLS];
	const char *why = "not a pccbench series";
	struct series *s;
	size_t n, i, k, line = 1, wcol = SIZE_MAX;	/* wall (ns) */
	long long wall = 0;
	int rc;

	if (!fp)
		return -err->code;
	s = series_new(name);
	if (!s) {
		fclose(fp);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	rc = csv_record(fp, buf, sizeof(buf), f, SERIES_MAX_COLS + 1, &n);
	if (rc == 1) {
		why = "the file is empty";
		rc = -1;
	}
	for (i = 0; !rc && i < n; i++) {
		char *u = strstr(f[i], " (");
		size_t l = strlen(f[i]);

		if (u && f[i][l - 1] == ')') {
			*u = 0;
			f[i][l - 1] = 0;
			u += 2;
		} else {
			u = NULL;
		}
		if (!series_name_ok(f[i]) || !series_unit_ok(u ? u : "")) {
			why = "a column name or unit has characters other "
			      "than letters, digits and _ . + - / % * ^";
			rc = -1;
		} else if (!strcmp(f[i], SERIES_WALL)) {
			if (wcol != SIZE_MAX || !u || strcmp(u, "ns")) {
				why = "the wall-clock column is not one "
				      "'" SERIES_WALL " (ns)'";
				rc = -1;
			}
			wcol = i;
		} else if (series_add_col(s, f[i], u ? u : "")) {
			why = "a column is named twice";
			rc = -1;
		}
	}
	if (!rc && !s->ncols) {
		why = "it has no column besides the wall clock";
		rc = -1;
	}
	while (!rc) {
		line++;
		rc = csv_record(fp, buf, sizeof(buf), f, SERIES_MAX_COLS + 1,
				&n);
		if (rc)
			break;
		if (n != s->ncols + (wcol != SIZE_MAX)) {
			why = "a row has another number of fields than the "
			      "header";
			rc = -1;
			break;
		}
		for (i = k = 0; i < n; i++) {
			if (i == wcol) {	/* ns since the epoch, whole */
				errno = 0;
				wall = strtoll(f[i], &end, 10);
				if (!*f[i] || *end || errno) {
					why = "a wall-clock time is not a "
					      "whole number of ns";
					rc = -1;
					break;
				}
				continue;
			}
			vals[k] = *f[i] ? strtod(f[i], &end) : NAN;
			if (*f[i] && *end) {
				why = "a field is not a number";
				rc = -1;
				break;
			}
			k++;
		}
		if (!rc && (wcol == SIZE_MAX ? series_add_row(s, vals) :
			    series_add_row_wall(s, vals, wall)))
			rc = -2;
	}
	fclose(fp);
	if (rc < 0) {
		series_free(s);
		if (rc == -2)
			return pcb_error(err, PCB_E_NOMEM, "out of memory");
		return pcb_error(err, PCB_E_CORRUPT, "'%s' line %zu: %s", path,
				 line, why);
	}
	*out = s;
	return 0;
}

uint64_t series_delta(uint64_t prev, uint64_t cur, uint64_t max, bool clear)
{
	if (clear)
		return cur;
	if (cur >= prev)
		return cur - prev;
	return max - prev + cur + 1;	/* wrapped once */
}

int series_growth(uint64_t prev, uint64_t cur, uint64_t max, bool clear,
		  double lo, double hi, uint64_t *out)
{
	uint64_t d = series_delta(prev, cur, max, clear);
	double w = (double)max + 1, k0, k1;

	/* the k with lo <= d + k w <= hi */
	k0 = lo > (double)d ? ceil((lo - (double)d) / w) : 0;
	k1 = isinf(hi) ? INFINITY : floor((hi - (double)d) / w);
	if (isnan(k0) || isnan(k1) || k0 > k1)
		return -1;		/* the bounds contradict the reads */
	if (k0 == k1 && k0 <= 1e6) {
		*out = d + (uint64_t)k0 * (max + 1);
		return (int)k0;		/* the only growth they allow */
	}
	/* several: without a wrap only when the reads were less than half
	 * a wrap apart */
	if (k0 > 0 || d > max / 2)
		return -1;
	*out = d;
	return 0;
}

static size_t pairs(const double *x, const double *y, size_t len,
		    double *a, double *b)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (!isnan(x[i]) && !isnan(y[i])) {
			a[n] = x[i];
			b[n] = y[i];
			n++;
		}
	return n;
}

static double pearson_full(const double *a, const double *b, size_t n)
{
	double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
	size_t i;

	if (n < 3)
		return NAN;
	for (i = 0; i < n; i++) {
		ma += a[i];
		mb += b[i];
	}
	ma /= (double)n;
	mb /= (double)n;
	for (i = 0; i < n; i++) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	if (saa <= 0 || sbb <= 0)
		return NAN;
	return sab / sqrt(saa * sbb);
}

double series_pearson(const double *x, const double *y, size_t len,
		      size_t *n)
{
	double *a = malloc(len * sizeof(double) + 1);
	double *b = malloc(len * sizeof(double) + 1);
	double r = NAN;

	*n = 0;
	if (a && b) {
		*n = pairs(x, y, len, a, b);
		r = pearson_full(a, b, *n);
	}
	free(a);
	free(b);
	return r;
}

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *p, const void *q)
{
	const struct ranked *a = p, *b = q;

	return a->v < b->v ? -1 : a->v > b->v;
}

/* Ranks 1..n, ties sharing their average rank. */
static void ranks(double *v, size_t n, struct ranked *tmp)
{
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		tmp[i].v = v[i];
		tmp[i].i = i;
	}
	qsort(tmp, n, sizeof(*tmp), cmp_ranked);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && tmp[j].v == tmp[i].v; j++)
			;
		for (k = i; k < j; k++)
			v[tmp[k].i] = (double)(i + j + 1) / 2.0;
	}
}

double series_spearman(const double *x, const double *y, size_t len,
		       size_t *n)
{
	double *a = malloc(len * sizeof(double) + 1);
	double *b = malloc(len * sizeof(double) + 1);
	struct ranked *t = malloc(len * sizeof(*t) + 1);
	double r = NAN;

	*n = 0;
	if (a && b && t) {
		*n = pairs(x, y, len, a, b);
		ranks(a, *n, t);
		ranks(b, *n, t);
		r = pearson_full(a, b, *n);
	}
	free(a);
	free(b);
	free(t);
	return r;
}

int series_linfit(const double *x, const double *y, size_t len, double *a,
		  double *b)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0;
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (!isnan(x[i]) && !isnan(y[i])) {
			mx += x[i];
			my += y[i];
			n++;
		}
	if (n < 2)
		return -1;
	mx /= (double)n;
	my /= (double)n;
	for (i = 0; i < len; i++)
		if (!isnan(x[i]) && !isnan(y[i])) {
			sxy += (x[i] - mx) * (y[i] - my);
			sxx += (x[i] - mx) * (x[i] - mx);
		}
	if (sxx <= 0)
		return -1;
	*a = sxy / sxx;
	*b = my - *a * mx;
	return 0;
}

int series_best_lag(const double *x, const double *y, size_t len, int max,
		    size_t min_pairs, double *r, size_t *n)
{
	int lag, best = 0;
	size_t m;

	*r = NAN;
	*n = 0;
	for (lag = -max; lag <= max; lag++) {
		size_t off = (size_t)(lag < 0 ? -lag : lag);
		double v;

		if (off >= len)
			continue;
		v = lag >= 0 ? series_pearson(x, y + off, len - off, &m) :
			       series_pearson(x + off, y, len - off, &m);
		if (m < min_pairs || isnan(v))
			continue;
		if (isnan(*r) || fabs(v) > fabs(*r) + 1e-12) {
			*r = v;
			*n = m;
			best = lag;
		}
	}
	return best;
}

void series_fisher_ci(double r, size_t n, double k, double *lo, double *hi)
{
	double z, h;

	*lo = *hi = NAN;
	if (n < 4 || isnan(r))
		return;
	if (fabs(r) >= 1) {
		*lo = *hi = r;
		return;
	}
	z = atanh(r);
	h = 1.959963984540054 * sqrt(k / (double)(n - 3));
	*lo = tanh(z - h);
	*hi = tanh(z + h);
}

double *series_column(const struct series *ser, size_t c)
{
	double *v = malloc(ser->nrows * sizeof(double) + 1);
	size_t r;

	for (r = 0; v && r < ser->nrows; r++)
		v[r] = series_at(ser, r, c);
	return v;
}
