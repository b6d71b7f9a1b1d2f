/* store.c - the files: what a sweep saves and reads back (results.csv,
 * meta.json, sweep.args), checked whole (sweep.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "axis.h"
#include "paths.h"
#include "rec/recorder.h"
#include "rec/series.h"
#include "rec/stats.h"
#include "device.h"
#include "units.h"
#include "store.h"
#include "sweep/sweep.h"
#include "words.h"

void sw_store_run(struct plan *pl, size_t run, const double *v)
{
	size_t nc = pl->res->ncols, point = run / pl->repeat, k;
	size_t idx[SW_MAX_AXES];
	double *row = pl->rows + run * nc;

	sw_point_values(pl, point, idx);
	row[0] = (double)point;
	row[1] = (double)(run % pl->repeat);
	row[2] = pl->replay ? (double)pl->seeds[run % pl->repeat] : NAN;
	for (k = 0; k < pl->naxes; k++)
		row[SW_FIXED_COLS + k] = pl->ax[k].real[idx[k]];
	memcpy(row + SW_FIXED_COLS + pl->naxes, v,
	       (nc - SW_FIXED_COLS - pl->naxes) * sizeof(double));
	if (!pl->done[run])
		pl->ndone++;
	pl->done[run] = true;
}

/* results.csv: the finished runs in plan order (whatever order they ran
 * in), written whole to a temporary file and renamed over (by
 * series_write_csv, through fsafe.h).
 */
int sw_save_results(struct session *s, struct plan *pl)
{
	struct series *t = series_new(pl->name);
	char path[PCB_PATH_LEN];
	size_t r;
	int rc = 0;

	if (!t)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	memcpy(t->cols, pl->res->cols, sizeof(t->cols));
	t->ncols = pl->res->ncols;
	for (r = 0; r < pl->nruns && !rc; r++)
		if (pl->done[r] && sw_in_shard(pl, r) &&
		    series_add_row(t, pl->rows + r * pl->res->ncols))
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	if (!rc)
		rc = pcb_path(path, sizeof(path), &s->err, "%s/results.csv",
			      pl->dir);
	if (!rc)
		rc = series_write_csv(t, path, &s->err);
	series_free(t);
	return rc;
}

/* sweep.args (read back by def_load): a comment, "#axes N", "#fixed
 * INDEX VALUE" per param of the slot, then the words; sealed with the
 * "crc XXXXXXXX" line of the program's other text files (fsafe.h), so an
 * edit is refused rather than read as another definition.
 */
int sw_save_definition(struct session *s, struct plan *pl,
		       const uint32_t *vals, size_t n)
{
	char path[PCB_PATH_LEN], *text = NULL;
	size_t k, len = 0;
	FILE *fp;
	int i, rc, bad;

	rc = pcb_path(path, sizeof(path), &s->err, "%s/sweep.args", pl->dir);
	if (rc)
		return rc;
	fp = open_memstream(&text, &len);
	if (!fp)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	fprintf(fp, "# pccbench %s sweep on %s: one word per line\n"
		"#axes %zu\n", PCCB_VERSION, s->cur->name, pl->naxes);
	for (k = 0; k < n; k++)		/* the slot's values at the start */
		fprintf(fp, "#fixed %zu %u\n", k, vals[k]);
	for (i = 0; i < pl->nargs; i++)
		fprintf(fp, "%s\n", pl->args[i]);
	bad = ferror(fp);
	if (fclose(fp) || bad || pcb_crc_seal(&text, &len))
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	else
		rc = pcb_write_file(path, text, len, PCB_MODE_DATA, &s->err);
	free(text);
	return rc;
}

int sw_save_meta(struct session *s, struct plan *pl, time_t start,
		 double wall, const char *status)
{
	char path[PCB_PATH_LEN], v[40];
	struct pcb_wfile w;
	size_t k, i;
	FILE *fp;
	int rc;

	rc = pcb_path(path, sizeof(path), &s->err, "%s/meta.json", pl->dir);
	if (!rc)
		rc = store_meta_open(s, &w, path, "sweep", pl->name, start);
	if (rc)
		return rc;
	fp = w.fp;
	fprintf(fp, ",\"status\":\"%s\",\"wall_s\":%.3f,\"workload_s\":%.3f,"
		"\"points\":%zu,\"repeat\":%zu,\"runs\":%zu,\"done\":%zu,"
		"\"for_s\":%.9g,\"warmup_s\":%.9g,\"interval_s\":%.9g,"
		"\"jobs\":%u,\"axes\":[", status, wall, pl->sim_s, pl->npoints,
		pl->repeat, pl->nruns, pl->ndone, pl->dur / 1e12,
		pl->warmup / 1e12, pl->every / 1e12, pl->jobs);
	for (k = 0; k < pl->naxes; k++) {
		fputs(k ? ",{\"param\":" : "{\"param\":", fp);
		out_json_string(fp, pl->ax[k].p->info.name);
		fputs(",\"values\":[", fp);
		for (i = 0; i < pl->ax[k].n; i++) {
			sess_format_value(s, pl->ax[k].p->type,
					  pl->ax[k].raw[i], v, sizeof(v));
			fprintf(fp, "%s%s", i ? "," : "", v);
		}
		fputs("]}", fp);
	}
	fputs("],\"measure\":[", fp);
	for (k = 0; k < pl->nmeas; k++) {
		fputs(k ? "," : "", fp);
		out_json_string(fp, sw_measure_name(&pl->m[k]));
	}
	fputs("]", fp);
	if (pl->replay) {
		char line[2048] = "";

		for (k = 0; k < (size_t)pl->nscen; k++)
			snprintf(line + strlen(line), sizeof(line) -
				 strlen(line), "%s%s", k ? " " : "",
				 pl->scen[k]);
		fputs(",\"scenario\":", fp);
		out_json_string(fp, line);
		fputs(",\"seeds\":[", fp);
		for (k = 0; k < pl->repeat; k++)
			fprintf(fp, "%s%" PRIu64, k ? "," : "", pl->seeds[k]);
		fputs("]", fp);
	}
	store_meta_algo(s, fp);	/* the fixed params: the device's */
	fputs(",\"args\":[", fp);
	for (i = 0; i < (size_t)pl->nargs; i++) {
		fputs(i ? "," : "", fp);
		out_json_string(fp, pl->args[i]);
	}
	fputs("]", fp);
	return store_meta_close(s, &w);
}

void sw_def_release(struct sdef *d)
{
	words_free(d->words);
	d->words = NULL;
	d->nwords = 0;
}

/* "'PATH' line N: what" (line 0: no line) as a PCB_E_CORRUPT error. */
int __attribute__((format(printf, 4, 5)))
sw_file_bad(struct session *s, const char *path, size_t line, const char *fmt,
	    ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (line)
		return pcb_error(&s->err, PCB_E_CORRUPT, "'%s' line %zu: %s",
				 path, line, what);
	return pcb_error(&s->err, PCB_E_CORRUPT, "'%s': %s", path, what);
}

/* The error a parser left in s->err, as one about the file. */
int sw_file_rewrap(struct session *s, const char *path)
{
	char msg[sizeof(s->err.msg)];
	const char *m = s->err.msg;

	if (!strncmp(m, "sweep: ", 7))
		m += 7;
	snprintf(msg, sizeof(msg), "%s", m);
	pcb_err_reset(&s->err);
	return sw_file_bad(s, path, 0, "%s", msg);
}

/* Digits only, no sign or space, at most max. */
static int parse_digits(const char *t, const char **end, uint64_t max,
			uint64_t *v)
{
	*v = 0;
	if (*t < '0' || *t > '9')
		return -1;
	for (; *t >= '0' && *t <= '9'; t++) {
		uint64_t dg = (uint64_t)(*t - '0');

		if (dg > max || *v > (max - dg) / 10)
			return -1;
		*v = *v * 10 + dg;
	}
	*end = t;
	return 0;
}

/* The lines: "# comment", "#axes N" once, "#fixed INDEX VALUE", words. */
static int def_lines(struct session *s, struct sdef *d, char *buf, size_t len)
{
	size_t line = 0, i;
	bool have_axes = false;
	char *p = buf, *nl;

	if (!len)
		return sw_file_bad(s, d->path, 0, "the file is empty");
	if (buf[len - 1] != '\n')
		return sw_file_bad(s, d->path, 0, "the last line is cut short");
	for (; p < buf + len; p = nl + 1) {
		const char *end;
		uint64_t a, b;
		char **nv;

		nl = memchr(p, '\n', (size_t)(buf + len - p));
		*nl = '\0';
		line++;
		for (i = 0; p + i < nl; i++)
			if ((unsigned char)p[i] < ' ' ? p[i] != '\t' :
			    p[i] == 0x7f)
				return sw_file_bad(s, d->path, line, "a control "
						"character or a NUL byte");
		if ((size_t)(nl - p) >= SW_WORD_MAX)
			return sw_file_bad(s, d->path, line, "longer than %d "
					"characters", SW_WORD_MAX - 1);
		if (!*p)
			return sw_file_bad(s, d->path, line, "an empty line");
		if (p[0] == '#' && p[1] == ' ')
			continue;
		if (!strncmp(p, "#axes ", 6)) {
			if (have_axes || parse_digits(p + 6, &end, SW_MAX_AXES,
						      &a) || *end || !a)
				return sw_file_bad(s, d->path, line, "'#axes' "
						"must be given once, 1 to %d",
						SW_MAX_AXES);
			d->naxes = (size_t)a;
			have_axes = true;
			continue;
		}
		if (!strncmp(p, "#fixed ", 7)) {
			if (parse_digits(p + 7, &end, ALGO_MAX_PARAMS - 1,
					 &a) || *end != ' ' ||
			    parse_digits(end + 1, &end, UINT32_MAX, &b) ||
			    *end || d->fixed[a] >= 0)
				return sw_file_bad(s, d->path, line, "'#fixed' "
						"needs a param index below %d "
						"(once) and a 32-bit value",
						ALGO_MAX_PARAMS);
			d->fixed[a] = (int64_t)b;
			continue;
		}
		if (p[0] == '#')
			return sw_file_bad(s, d->path, line, "an unknown '#' "
					"line");
		if (d->nwords == SW_MAX_ARGS)
			return sw_file_bad(s, d->path, line, "more than %d words",
					SW_MAX_ARGS);
		nv = realloc(d->words, (size_t)(d->nwords + 2) * sizeof(*nv));
		if (!nv)
			return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		d->words = nv;
		d->words[d->nwords] = strdup(p);
		d->words[d->nwords + 1] = NULL;	/* stays a list */
		if (!d->words[d->nwords])
			return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		d->nwords++;
	}
	if (!have_axes)
		return sw_file_bad(s, d->path, 0, "no '#axes' line");
	if (!d->nwords)
		return sw_file_bad(s, d->path, 0, "no definition (no words)");
	return 0;
}

/* The words: PARAM VALUES pairs (as many as #axes), then the keywords. */
/* The axes: `PARAM VALUES` pairs before the first keyword, as many as
 * '#axes N' says; *next: the first keyword's index.
 */
static int def_axes(struct session *s, struct sdef *d, int *next)
{
	char **w = d->words, (*texts)[48] = malloc(SW_MAX_VALS * sizeof(*texts));
	size_t nax = 0, n, k;
	int i, rc = 0;

	if (!texts)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	d->npoints = 1;
	for (i = 0; !rc && i < d->nwords && !sw_is_keyword(w[i]); i += 2) {
		if (nax == SW_MAX_AXES || nax == d->naxes) {
			rc = sw_file_bad(s, d->path, 0, "'#axes %zu' but more "
				      "params than that", d->naxes);
			break;
		}
		if (!series_name_ok(w[i])) {
			rc = sw_file_bad(s, d->path, 0, "'%.40s' is not a param "
				      "name", w[i]);
			break;
		}
		for (k = 0; k < nax; k++)
			if (!strcmp(d->axis[k], w[i]))
				rc = sw_file_bad(s, d->path, 0, "%s swept twice",
					      w[i]);
		if (!rc && (i + 1 >= d->nwords || sw_is_keyword(w[i + 1])))
			rc = sw_file_bad(s, d->path, 0, "%s has no values", w[i]);
		if (!rc && sw_axis_texts(&s->err, w[i], w[i + 1], texts, &n))
			rc = sw_file_rewrap(s, d->path);
		if (rc)
			break;
		d->axis[nax++] = w[i];
		d->npoints *= n;
		if (d->npoints > SW_MAX_RUNS)
			rc = sw_file_bad(s, d->path, 0, "more than %d points",
				      SW_MAX_RUNS);
	}
	free(texts);
	if (!rc && nax != d->naxes)
		rc = sw_file_bad(s, d->path, 0, "'#axes %zu' but %zu param%s",
			      d->naxes, nax, nax == 1 ? "" : "s");
	*next = i;
	return rc;
}

/* seeds S1,S2,...: 1 to SW_MAX_REPEAT whole numbers. */
static int def_seeds(struct session *s, struct sdef *d, const char *val,
		     size_t *nseeds)
{
	const char *t = val, *end;

	for (*nseeds = 0;; t = end + 1) {
		if (*nseeds == SW_MAX_REPEAT ||
		    parse_digits(t, &end, UINT64_MAX, &d->seeds[*nseeds]) ||
		    (*end && *end != ','))
			return sw_file_bad(s, d->path, 0, "bad seeds '%.40s' (1 "
					   "to %d whole numbers)", val,
					   SW_MAX_REPEAT);
		++*nseeds;
		if (!*end)
			break;
	}
	d->have_seeds = true;
	return 0;
}

/* One `KEY VALUE` after the axes; *i moves past what it took. */
static int def_key(struct session *s, struct sdef *d, int *i,
		   unsigned long *repeat, size_t *nseeds, bool *have_measure)
{
	char **w = d->words;
	const char *key = w[*i], *val = w[*i + 1];
	const struct cmd_kw *k = cmd_kw_find(sw_keys, key);
	unsigned long ul;
	uint64_t seed;
	int64_t ps;
	int ns;

	if (!k || (k->flags & KW_UNSAVED))	/* into, plot */
		return sw_file_bad(s, d->path, 0, "'%.40s' where a keyword "
				   "belongs", key);
	if (cmd_kw_alone(k))	/* shuffle */
		return 0;
	if (!val)
		return sw_file_bad(s, d->path, 0, "'%s' without a value", key);
	++*i;
	switch (k->id) {
	case SW_K_FOR:
	case SW_K_WARMUP:
	case SW_K_EVERY:
		if (pcb_parse_duration_ps(val, -1, &ps) ||
		    (ps < 1000000 && k->id != SW_K_WARMUP))
			return sw_file_bad(s, d->path, 0, "bad %s '%.40s'",
					   key, val);
		break;
	case SW_K_REPEAT:
		if (sw_parse_count(&s->err, key, val, SW_MAX_REPEAT,
				   "repeats", repeat))
			return sw_file_rewrap(s, d->path);
		break;
	case SW_K_JOBS:
		if (sw_parse_count(&s->err, key, val, SW_MAX_JOBS,
				   "worker processes", &ul))
			return sw_file_rewrap(s, d->path);
		break;
	case SW_K_SEEDS:
		return def_seeds(s, d, val, nseeds);
	case SW_K_MEASURE:
		*have_measure = true;
		if (sw_parse_measures(&s->err, true, val, d->m, &d->nmeas))
			return sw_file_rewrap(s, d->path);
		break;
	case SW_K_SCENARIO:
		for (ns = 1; *i + ns < d->nwords && !sw_is_keyword(w[*i + ns]);
		     ns++)
			;
		if (dev_workload_check(ns, w + *i, &seed, &s->err))
			return sw_file_rewrap(s, d->path);
		*i += ns - 1;
		break;
	default:	/* while: the command, run as it is */
		break;
	}
	return 0;
}

static int def_words(struct session *s, struct sdef *d)
{
	unsigned long repeat = 0;
	size_t nseeds = 0;
	bool have_measure = false;
	int i = 0, rc = def_axes(s, d, &i);

	for (; !rc && i < d->nwords; i++)
		rc = def_key(s, d, &i, &repeat, &nseeds, &have_measure);
	if (!rc && !have_measure)
		rc = sw_file_bad(s, d->path, 0, "no 'measure'");
	if (!rc && d->have_seeds && repeat && repeat != nseeds)
		rc = sw_file_bad(s, d->path, 0, "repeat %lu but %zu seeds",
			      repeat, nseeds);
	if (rc)
		return rc;
	d->repeat = d->have_seeds ? nseeds : repeat ? repeat : 1;
	if (d->npoints * d->repeat > SW_MAX_RUNS)
		return sw_file_bad(s, d->path, 0, "more than %d runs",
				SW_MAX_RUNS);
	return 0;
}

/* sweep NAME's definition; dir gets the sweep's directory.  No sweep
 * there: -PCB_E_NOENT; a damaged one: -PCB_E_CORRUPT naming the file.
 */
int sw_def_load(struct session *s, const char *name, char *dir,
		size_t dlen, struct sdef *d)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0, i;
	int rc;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < ALGO_MAX_PARAMS; i++)
		d->fixed[i] = -1;
	rc = sw_sweeps_dir(s, name, dir, dlen, false);
	if (rc)
		return rc;
	if (lstat(dir, &st) && errno == ENOENT)
		return pcb_error(&s->err, PCB_E_NOENT, "no sweep '%s' ('sweep "
				 "list')", name);
	rc = pcb_check_dir(dir, &s->err);
	if (rc)
		return rc;
	rc = pcb_path(d->path, sizeof(d->path), &s->err, "%s/sweep.args", dir);
	if (rc)
		return rc;
	rc = pcb_read_file(d->path, SW_ARGS_MAX, &buf, &len, &s->err);
	if (rc == -PCB_E_NOENT) {
		pcb_err_reset(&s->err);
		return pcb_error(&s->err, PCB_E_NOENT, "no sweep '%s' ('sweep "
				 "list')", name);
	}
	if (!rc && !pcb_crc_check(buf, &len))
		rc = sw_file_bad(s, d->path, 0, "its crc line is missing or "
				 "does not match: damaged or edited");
	if (!rc)
		rc = def_lines(s, d, buf, len);
	free(buf);
	if (!rc)
		rc = def_words(s, d);
	if (rc)
		sw_def_release(d);
	return rc;
}

static bool whole(double x)
{
	return isfinite(x) && x == floor(x);
}

/* results.csv against the definition: exactly its columns, and in every
 * row a point and a repeat in range (whole numbers, each pair once), a
 * whole seed (or none: a real NIC) that is the same in each repeat (the
 * definition's, when it has them) and axis values that are numbers, the
 * same in each repeat of a point.
 */
int sw_results_check(struct session *s, const struct sdef *d,
		     const struct series *r, const char *path)
{
	static const char *const fixed[SW_FIXED_COLS] = { "point", "repeat",
							  "seed" };
	double seed[SW_MAX_REPEAT];
	size_t nc = 0, c, k, i, *first;
	bool *seen;
	int rc = 0;

	for (k = 0; k < d->nmeas; k++) {
		char nm[SW_NSTATS][48];
		const char *unit;

		nc += sw_measure_cols(&d->m[k], nm, &unit);
	}
	nc += SW_FIXED_COLS + d->naxes;
	if (r->ncols != nc)
		return sw_file_bad(s, path, 1, "%zu columns where the definition "
				"('%s') gives %zu", r->ncols, d->path, nc);
	for (c = 0; c < nc; c++) {
		char nm[SW_NSTATS][48];
		const char *want = nm[0], *unit;

		if (c < SW_FIXED_COLS) {
			want = fixed[c];
		} else if (c < SW_FIXED_COLS + d->naxes) {
			want = d->axis[c - SW_FIXED_COLS];
		} else {	/* the measure this column belongs to */
			size_t o = SW_FIXED_COLS + d->naxes, n = 0;

			for (k = 0; k < d->nmeas; k++, o += n) {
				n = sw_measure_cols(&d->m[k], nm, &unit);
				if (c < o + n)
					break;
			}
			want = nm[c - o];
		}
		if (strcmp(r->cols[c].name, want))
			return sw_file_bad(s, path, 1, "column %zu is '%s' where "
					"the definition ('%s') has '%s'", c + 1,
					r->cols[c].name, d->path, want);
	}
	seen = calloc(d->npoints * d->repeat + 1, sizeof(*seen));
	first = malloc((d->npoints + 1) * sizeof(*first));
	if (!seen || !first) {
		free(seen);
		free(first);
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	for (i = 0; i < d->npoints; i++)
		first[i] = SIZE_MAX;
	for (k = 0; k < d->repeat; k++)
		seed[k] = -1;	/* none seen */
	for (i = 0; !rc && i < r->nrows; i++) {
		double p = series_at(r, i, 0), q = series_at(r, i, 1);
		double sd = series_at(r, i, 2);
		size_t line = i + 2, pt, rp;

		if (!whole(p) || p < 0 || p >= (double)d->npoints) {
			rc = sw_file_bad(s, path, line, "point '%g' is not one of "
				      "0 to %zu", p, d->npoints - 1);
			break;
		}
		if (!whole(q) || q < 0 || q >= (double)d->repeat) {
			rc = sw_file_bad(s, path, line, "repeat '%g' is not one "
				      "of 0 to %zu", q, d->repeat - 1);
			break;
		}
		pt = (size_t)p;
		rp = (size_t)q;
		if (seen[pt * d->repeat + rp]) {
			rc = sw_file_bad(s, path, line, "point %zu repeat %zu a "
				      "second time", pt, rp);
			break;
		}
		seen[pt * d->repeat + rp] = true;
		if (!isnan(sd) && (!whole(sd) || sd < 0 ||
				   sd >= 18446744073709551616.0))
			rc = sw_file_bad(s, path, line, "seed '%g' is not a "
				      "64-bit whole number", sd);
		else if (d->have_seeds && sd != (double)d->seeds[rp])
			rc = sw_file_bad(s, path, line, "seed '%g' where the "
				      "definition has %" PRIu64 " for repeat "
				      "%zu", sd, d->seeds[rp], rp);
		else if (seed[rp] != -1 && !(seed[rp] == sd ||
					     (isnan(seed[rp]) && isnan(sd))))
			rc = sw_file_bad(s, path, line, "repeat %zu has seed %g "
				      "here and %g above", rp, sd, seed[rp]);
		seed[rp] = sd;
		for (c = 0; !rc && c < d->naxes; c++) {
			double v = series_at(r, i, SW_FIXED_COLS + c);

			if (!isfinite(v))
				rc = sw_file_bad(s, path, line, "%s is not a "
					      "number", d->axis[c]);
			else if (first[pt] != SIZE_MAX &&
				 series_at(r, first[pt],
					   SW_FIXED_COLS + c) != v)
				rc = sw_file_bad(s, path, line, "point %zu has %s "
					      "%g here and %g above", pt,
					      d->axis[c], v,
					      series_at(r, first[pt],
							SW_FIXED_COLS + c));
		}
		if (first[pt] == SIZE_MAX)
			first[pt] = i;
	}
	free(seen);
	free(first);
	return rc;
}

bool sw_in_shard(const struct plan *pl, size_t run)
{
	return !pl->shard_n || run % pl->shard_n == pl->shard_i;
}

void sw_shard_skip(struct plan *pl)
{
	size_t r;

	for (r = 0; r < pl->nruns; r++)
		if (!sw_in_shard(pl, r) && !pl->done[r]) {
			pl->done[r] = true;
			pl->ndone++;
		}
}

/* A row's param values are the plan's for its point, as results.csv
 * writes them: a row saying point 0 ran ALPHA 0.9 where the plan has 0.1
 * is refused, naming its line.
 */
static int row_axes_check(struct session *s, const struct plan *pl,
			  const char *path, size_t line, size_t point,
			  const double *in)
{
	size_t idx[SW_MAX_AXES], k;
	char want[40], got[40];

	sw_point_values(pl, point, idx);
	for (k = 0; k < pl->naxes; k++) {
		series_fmt_value(want, sizeof(want), pl->ax[k].real[idx[k]]);
		series_fmt_value(got, sizeof(got), in[SW_FIXED_COLS + k]);
		if (strcmp(want, got))
			return sw_file_bad(s, path, line, "point %zu has %s %s "
					   "where the plan has %s", point,
					   pl->ax[k].p->info.name, got, want);
	}
	return 0;
}

/* Rows of the results.csv at path into the plan: checked against the
 * definition (pl->def), then against the plan made from it.  m NULL:
 * resume (a row replaces the run's numbers); else a merge.
 */
static int load_rows(struct session *s, struct plan *pl, const char *path,
		     struct sw_merge *m)
{
	size_t nc = pl->res->ncols, i, c;
	bool *was = NULL;
	double *old = NULL;
	struct series *r;
	int rc;

	rc = series_read_csv(&r, pl->name, path, &s->err);
	if (rc)
		return rc;
	rc = sw_results_check(s, pl->def, r, path);
	for (c = 0; !rc && c < r->ncols; c++)
		if (r->ncols != nc || strcmp(r->cols[c].name,
					     pl->res->cols[c].name))
			rc = sw_file_bad(s, path, 1, "the columns do not match "
				      "the sweep's definition");
	if (!rc && m && (!(old = malloc(pl->nruns * nc * sizeof(*old))) ||
			 !(was = malloc(pl->nruns * sizeof(*was)))))
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	if (!rc && m) {	/* to undo a merge that fails half-way */
		memcpy(old, pl->rows, pl->nruns * nc * sizeof(*old));
		memcpy(was, pl->done, pl->nruns * sizeof(*was));
	}
	for (i = 0; !rc && i < r->nrows; i++) {
		size_t run = (size_t)series_at(r, i, 0) * pl->repeat +
			     (size_t)series_at(r, i, 1);
		double *row = pl->rows + run * nc, *in = r->data + i * nc;

		rc = row_axes_check(s, pl, path, i + 2, run / pl->repeat, in);
		if (rc)
			break;

		if (m && pl->done[run]) {
			for (c = 0; c < nc && (row[c] == in[c] ||
					       (isnan(row[c]) && isnan(in[c])));
			     c++)
				;
			if (c < nc)
				rc = sw_file_bad(s, path, i + 2, "point %zu repeat "
					      "%zu has other numbers than the "
					      "results merged before (%s: %.17g "
					      "against %.17g)", run / pl->repeat,
					      run % pl->repeat, r->cols[c].name,
					      in[c], row[c]);
			m->dups++;
			continue;
		}
		memcpy(row, in, nc * sizeof(double));
		if (!pl->done[run])
			pl->ndone++;
		pl->done[run] = true;
		if (m)
			m->added++;
	}
	if (m)
		m->rows += r->nrows;
	if (rc && m && old && was) {
		memcpy(pl->rows, old, pl->nruns * nc * sizeof(*old));
		memcpy(pl->done, was, pl->nruns * sizeof(*was));
		for (pl->ndone = 0, i = 0; i < pl->nruns; i++)
			pl->ndone += pl->done[i];
	}
	free(old);
	free(was);
	series_free(r);
	return rc;
}

/* results.csv rows back into the plan (for resume). */
int sw_load_results(struct session *s, struct plan *pl)
{
	char path[PCB_PATH_LEN];
	struct stat st;
	int rc;

	rc = pcb_path(path, sizeof(path), &s->err, "%s/results.csv", pl->dir);
	if (rc)
		return rc;
	if (lstat(path, &st) && errno == ENOENT)
		return 0;	/* nothing ran yet */
	return load_rows(s, pl, path, NULL);
}

int sw_merge_results(struct session *s, struct plan *pl, const char *path,
		     struct sw_merge *m)
{
	return load_rows(s, pl, path, m);
}

/* The slot's values now; on resume they must equal those the sweep
 * started with (the params not swept: a changed one would make the old
 * and new rows disagree).
 */
int sw_fixed_check(struct session *s, struct plan *pl, uint32_t *vals,
		   size_t *n, bool resume)
{
	const int64_t *was = resume ? pl->def->fixed : NULL;
	size_t i, k;
	int rc;

	rc = sess_slot_values(s, pl->slot, pl->v, vals);
	*n = rc ? 0 : pl->v->nparams;
	if (rc || !resume)
		return rc;
	for (i = 0; !rc && i < *n && i < pl->v->nparams; i++) {
		char a[40], b[40];

		for (k = 0; k < pl->naxes && pl->ax[k].p->index != i; k++)
			;
		if (k < pl->naxes || was[i] < 0 || was[i] == vals[i])
			continue;
		sess_format_value(s, pl->v->params[i].type, (uint32_t)was[i],
				  a, sizeof(a));
		sess_format_value(s, pl->v->params[i].type, vals[i], b,
				  sizeof(b));
		rc = pcb_error(&s->err, PCB_E_STATE, "sweep resume %s: %s was "
			       "%s when the sweep started and is %s now; set "
			       "it back or start a new sweep", pl->name,
			       pl->v->params[i].info.name, a, b);
	}
	return rc;
}
