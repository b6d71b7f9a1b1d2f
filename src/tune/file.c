/* file.c - a tune's tune.json written and read back, checked whole:
 * a damaged file is one error naming it (tune.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "fsafe.h"
#include "out.h"
#include "paths.h"
#include "session.h"
#include "store.h"
#include "sweep/sweep.h"
#include "tune/tune.h"
#include "words.h"

int tune_dir(struct session *s, const char *name, char *buf, size_t len,
	     bool create)
{
	return store_path(s, "tune", "tunes", name, "", create, buf, len);
}

bool tune_better(const struct tune_res *r, const struct tune_eval *a,
		 const struct tune_eval *b)
{
	if (a->feasible != b->feasible)
		return a->feasible;
	return r->maximize ? a->obj > b->obj : a->obj < b->obj;
}

void tune_res_free(struct tune_res *r)
{
	size_t k;

	free(r->ev);
	r->ev = NULL;
	r->nev = 0;
	for (k = 0; k < TUNE_MAX_SCEN; k++) {
		words_free(r->scen[k]);
		r->scen[k] = NULL;
	}
}

static void real(FILE *fp, const char *key, double v)
{
	if (isfinite(v))
		fprintf(fp, "\"%s\":%.17g", key, v);
	else
		fprintf(fp, "\"%s\":null", key);
}

/* "obj":..,"obj_ci":..,"cons":[..],"feasible":.. of one set of values */
static void values_json(FILE *fp, const struct tune_res *r, double obj,
			double obj_ci, const double *con, const double *con_ci,
			bool feasible)
{
	size_t k;

	real(fp, "obj", obj);
	fputc(',', fp);
	real(fp, "obj_ci", obj_ci);
	fputs(",\"cons\":[", fp);
	for (k = 0; k < r->ncons; k++)
		fprintf(fp, "%s%.17g,%.17g", k ? "," : "",
			isfinite(con[k]) ? con[k] : 0,
			isfinite(con_ci[k]) ? con_ci[k] : 0);
	fprintf(fp, "],\"feasible\":%s", feasible ? "true" : "false");
}

/* An evaluation: its combined values and, in a set, each scenario's. */
static void eval_json(FILE *fp, const struct tune_res *r,
		      const struct tune_eval *e)
{
	size_t k;

	fprintf(fp, "{\"phase\":\"%s\",\"raw\":[", e->phase);
	for (k = 0; k < r->nprm; k++)
		fprintf(fp, "%s%" PRIu32, k ? "," : "", e->raw[k]);
	fputs("],", fp);
	values_json(fp, r, e->obj, e->obj_ci, e->con, e->con_ci, e->feasible);
	if (r->nscen > 1) {
		fputs(",\"scen\":[", fp);
		for (k = 0; k < r->nscen; k++) {
			const struct tune_sval *v = &e->sc[k];

			fputs(k ? ",{" : "{", fp);
			values_json(fp, r, v->obj, v->obj_ci, v->con,
				    v->con_ci, v->feasible);
			fputc('}', fp);
		}
		fputc(']', fp);
	}
	fputc('}', fp);
}

/* "combine" and "scenarios": each scenario's words (a set: version 2). */
static void scen_json(FILE *fp, const struct tune_res *r)
{
	size_t k, i;

	fprintf(fp, ",\"combine\":\"%s\",\"scenarios\":[", r->mean ? "mean" :
		"worst");
	for (k = 0; k < r->nscen && r->scen[k]; k++) {
		fputs(k ? ",[" : "[", fp);
		for (i = 0; r->scen[k][i]; i++) {
			if (i)
				fputc(',', fp);
			out_json_string(fp, r->scen[k][i]);
		}
		fputc(']', fp);
	}
	fputc(']', fp);
}

int tune_save(struct session *s, const char *dir, const struct tune_res *r)
{
	char path[PCB_PATH_LEN];
	struct pcb_wfile w;
	size_t k;
	FILE *fp;
	int rc = pcb_path(path, sizeof(path), &s->err, "%s/tune.json", dir);

	if (!rc)
		rc = pcb_wfile_open(&w, path, PCB_MODE_DATA, &s->err);
	if (rc)
		return rc;
	fp = w.fp;
	fprintf(fp, "{\"version\":%d,\"name\":", r->nscen > 1 ? 2 : 1);
	out_json_string(fp, r->name);
	fputs(",\"algo\":", fp);
	out_json_string(fp, r->algo);
	fprintf(fp, ",\"slot\":%u,\"objective\":", r->slot);
	out_json_string(fp, r->obj);
	fprintf(fp, ",\"sense\":\"%s\",\"constraints\":[", r->maximize ?
		"maximize" : "minimize");
	for (k = 0; k < r->ncons; k++) {
		fprintf(fp, "%s{\"col\":", k ? "," : "");
		out_json_string(fp, r->cons[k].col);
		fprintf(fp, ",\"op\":\"%s\",\"value\":%.17g}", r->cons[k].op,
			r->cons[k].v);
	}
	fputc(']', fp);
	scen_json(fp, r);
	fputs(",\"seeds\":[", fp);
	for (k = 0; k < r->nseeds; k++)
		fprintf(fp, "%s%" PRIu64, k ? "," : "", r->seeds[k]);
	fprintf(fp, "],\"budget\":%zu,\"runs\":%zu,\"wall_s\":%.3f,"
		"\"complete\":%s,\"params\":[", r->budget, r->runs, r->wall_s,
		r->complete ? "true" : "false");
	for (k = 0; k < r->nprm; k++) {
		const struct tune_prm *p = &r->prm[k];

		fprintf(fp, "%s{\"name\":", k ? "," : "");
		out_json_string(fp, p->name);
		fprintf(fp, ",\"index\":%u,\"type\":%d,\"lo\":%" PRIu32
			",\"hi\":%" PRIu32 ",\"default\":%" PRIu32
			",\"log\":%s}", p->index, p->type, p->lo, p->hi,
			p->def, p->log ? "true" : "false");
	}
	fputs("],\"evals\":[", fp);
	for (k = 0; k < r->nev; k++) {
		fputs(k ? ",\n" : "\n", fp);
		eval_json(fp, r, &r->ev[k]);
	}
	fprintf(fp, "],\"best\":%d,\"default\":%d,\"sensitivity\":[",
		r->best, r->def);
	for (k = 0; k < r->nprm; k++)
		fprintf(fp, "%s[%d,%d]", k ? "," : "", r->sens[k][0],
			r->sens[k][1]);
	fputs("]}\n", fp);
	return pcb_wfile_commit(&w, &s->err);
}

/* ---- reading back ---------------------------------------------------- */

static bool get(json_object *o, const char *key, json_type t,
		json_object **v)
{
	return json_object_object_get_ex(o, key, v) &&
	       json_object_is_type(*v, t);
}

static bool get_num(json_object *o, const char *key, double *v)
{
	json_object *m;

	if (json_object_object_get_ex(o, key, &m) &&
	    json_object_is_type(m, json_type_null)) {
		*v = NAN;
		return true;
	}
	if (!json_object_object_get_ex(o, key, &m) ||
	    !(json_object_is_type(m, json_type_double) ||
	      json_object_is_type(m, json_type_int)))
		return false;
	*v = json_object_get_double(m);
	return true;
}

static bool get_u32(json_object *o, const char *key, uint32_t *v)
{
	double x;

	if (!get_num(o, key, &x) || !(x >= 0 && x <= UINT32_MAX) ||
	    x != floor(x))
		return false;
	*v = (uint32_t)x;
	return true;
}

static bool get_strv(json_object *o, const char *key, char *buf,
		     size_t len)
{
	json_object *m;

	if (!get(o, key, json_type_string, &m) ||
	    strlen(json_object_get_string(m)) >= len)
		return false;
	snprintf(buf, len, "%s", json_object_get_string(m));
	return true;
}

static bool arr_u32(json_object *a, size_t i, uint32_t *v)
{
	json_object *m = json_object_array_get_idx(a, i);
	double x;

	if (!m || !json_object_is_type(m, json_type_int))
		return false;
	x = json_object_get_double(m);
	if (!(x >= 0 && x <= UINT32_MAX))
		return false;
	*v = (uint32_t)x;
	return true;
}

static const char *load_params(json_object *root, struct tune_res *r)
{
	json_object *a, *p;
	size_t k;

	if (!get(root, "params", json_type_array, &a) ||
	    !json_object_array_length(a) ||
	    json_object_array_length(a) > SW_MAX_AXES)
		return "params";
	r->nprm = json_object_array_length(a);
	for (k = 0; k < r->nprm; k++) {
		struct tune_prm *q = &r->prm[k];
		json_object *lg;
		uint32_t idx, type;

		p = json_object_array_get_idx(a, k);
		if (!p || !get_strv(p, "name", q->name, sizeof(q->name)) ||
		    !get_u32(p, "index", &idx) || idx >= ALGO_MAX_PARAMS ||
		    !get_u32(p, "type", &type) || type > 16 ||
		    !get_u32(p, "lo", &q->lo) || !get_u32(p, "hi", &q->hi) ||
		    q->lo > q->hi || !get_u32(p, "default", &q->def) ||
		    !get(p, "log", json_type_boolean, &lg))
			return "a param";
		q->index = idx;
		q->type = (int)type;
		q->log = json_object_get_boolean(lg);
	}
	return NULL;
}

/* One set of values: "obj", "obj_ci", "cons" (value, interval pairs),
 * "feasible".
 */
static bool load_values(json_object *e, const struct tune_res *r,
			double *obj, double *obj_ci, double *con,
			double *con_ci, bool *feasible)
{
	json_object *cons, *f;
	size_t k;

	if (!get_num(e, "obj", obj) || !get_num(e, "obj_ci", obj_ci) ||
	    !get(e, "cons", json_type_array, &cons) ||
	    json_object_array_length(cons) != 2 * r->ncons ||
	    !get(e, "feasible", json_type_boolean, &f))
		return false;
	for (k = 0; k < 2 * r->ncons; k++) {
		json_object *m = json_object_array_get_idx(cons, k);

		if (!m || !(json_object_is_type(m, json_type_double) ||
			    json_object_is_type(m, json_type_int)))
			return false;
		*(k % 2 ? &con_ci[k / 2] : &con[k / 2]) =
			json_object_get_double(m);
	}
	*feasible = json_object_get_boolean(f);
	return true;
}

static bool same_num(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* A set's evaluation: each scenario's values, which must combine to the
 * saved combined ones.
 */
static const char *load_scen_vals(json_object *e, const struct tune_res *r,
				  struct tune_eval *v)
{
	struct tune_eval c;
	json_object *a;
	size_t k;

	if (r->nscen < 2) {	/* one scenario: the values are its own */
		struct tune_sval *q = &v->sc[0];

		q->obj = v->obj;
		q->obj_ci = v->obj_ci;
		memcpy(q->con, v->con, sizeof(q->con));
		memcpy(q->con_ci, v->con_ci, sizeof(q->con_ci));
		q->feasible = v->feasible;
		return NULL;
	}
	if (!get(e, "scen", json_type_array, &a) ||
	    json_object_array_length(a) != r->nscen)
		return "an evaluation's scenarios";
	for (k = 0; k < r->nscen; k++) {
		struct tune_sval *q = &v->sc[k];
		json_object *m = json_object_array_get_idx(a, k);

		if (!m || !load_values(m, r, &q->obj, &q->obj_ci, q->con,
				       q->con_ci, &q->feasible))
			return "an evaluation's scenarios";
	}
	memcpy(&c, v, sizeof(c));
	tune_combine(r, &c);
	if (!same_num(c.obj, v->obj) || !same_num(c.obj_ci, v->obj_ci) ||
	    c.feasible != v->feasible)
		return "an evaluation (its scenarios do not combine to it)";
	return NULL;
}

static const char *load_evals(json_object *root, struct tune_res *r)
{
	json_object *a, *e, *raw;
	const char *bad;
	size_t i, k, n;

	if (!get(root, "evals", json_type_array, &a) ||
	    json_object_array_length(a) > TUNE_MAX_EVALS)
		return "evals";
	n = json_object_array_length(a);
	r->ev = calloc(n + 1, sizeof(*r->ev));
	if (!r->ev)
		return "evals (out of memory)";
	for (i = 0; i < n; i++) {
		struct tune_eval *v = &r->ev[i];

		e = json_object_array_get_idx(a, i);
		if (!e || !get_strv(e, "phase", v->phase, sizeof(v->phase)) ||
		    !get(e, "raw", json_type_array, &raw) ||
		    json_object_array_length(raw) != r->nprm ||
		    !load_values(e, r, &v->obj, &v->obj_ci, v->con,
				 v->con_ci, &v->feasible))
			return "an evaluation";
		for (k = 0; k < r->nprm; k++)
			if (!arr_u32(raw, k, &v->raw[k]) ||
			    v->raw[k] < r->prm[k].lo || v->raw[k] > r->prm[k].hi)
				if (strcmp(v->phase, "default"))
					return "an evaluation's point";
		bad = load_scen_vals(e, r, v);
		if (bad)
			return bad;
		r->nev++;
	}
	return NULL;
}

/* "combine" and "scenarios" (a file from before sets has neither: one
 * scenario, its words not saved); version 2: a set of 2 or more.
 */
static const char *load_scen(json_object *root, struct tune_res *r,
			     int version)
{
	json_object *a, *m, *w;
	size_t k, i, n;

	r->nscen = 1;
	if (json_object_object_get_ex(root, "combine", &m)) {
		if (!json_object_is_type(m, json_type_string) ||
		    (strcmp(json_object_get_string(m), "mean") &&
		     strcmp(json_object_get_string(m), "worst")))
			return "combine";
		r->mean = !strcmp(json_object_get_string(m), "mean");
	}
	if (!json_object_object_get_ex(root, "scenarios", &a))
		return version == 1 ? NULL : "scenarios";
	n = json_object_is_type(a, json_type_array) ?
	    json_object_array_length(a) : 0;
	if (!json_object_is_type(a, json_type_array) || n > TUNE_MAX_SCEN ||
	    (version == 1 && n > 1) || (version == 2 && n < 2))
		return "scenarios";
	r->nscen = n ? n : 1;
	for (k = 0; k < n; k++) {
		m = json_object_array_get_idx(a, k);
		if (!m || !json_object_is_type(m, json_type_array) ||
		    !json_object_array_length(m) ||
		    json_object_array_length(m) > SW_MAX_ARGS)
			return "scenarios";
		r->scen[k] = calloc(json_object_array_length(m) + 1,
				    sizeof(char *));
		if (!r->scen[k])
			return "scenarios (out of memory)";
		for (i = 0; i < json_object_array_length(m); i++) {
			w = json_object_array_get_idx(m, i);
			if (!w || !json_object_is_type(w, json_type_string) ||
			    !*json_object_get_string(w) ||
			    strlen(json_object_get_string(w)) >= SW_WORD_MAX)
				return "scenarios";
			r->scen[k][i] = strdup(json_object_get_string(w));
			if (!r->scen[k][i])
				return "scenarios (out of memory)";
		}
	}
	return NULL;
}

static const char *load_root(json_object *root, struct tune_res *r)
{
	json_object *a, *m, *x;
	const char *bad;
	size_t k;
	double v;

	if (!json_object_is_type(root, json_type_object) ||
	    !get_num(root, "version", &v) || (v != 1 && v != 2))
		return "version";
	if ((bad = load_scen(root, r, (int)v)))
		return bad;
	if (!get_strv(root, "name", r->name, sizeof(r->name)) ||
	    !get_strv(root, "algo", r->algo, sizeof(r->algo)) ||
	    !get_strv(root, "objective", r->obj, sizeof(r->obj)) ||
	    !get(root, "sense", json_type_string, &m))
		return "name, algo, objective or sense";
	r->maximize = !strcmp(json_object_get_string(m), "maximize");
	if (!r->maximize && strcmp(json_object_get_string(m), "minimize"))
		return "sense";
	if (!get_num(root, "slot", &v) || v < 0 || v > 15)
		return "slot";
	r->slot = (unsigned)v;
	if (!get(root, "constraints", json_type_array, &a) ||
	    json_object_array_length(a) > TUNE_MAX_CONS)
		return "constraints";
	r->ncons = json_object_array_length(a);
	for (k = 0; k < r->ncons; k++) {
		struct tune_cons *c = &r->cons[k];

		m = json_object_array_get_idx(a, k);
		if (!m || !get_strv(m, "col", c->col, sizeof(c->col)) ||
		    !get_strv(m, "op", c->op, sizeof(c->op)) ||
		    !get_num(m, "value", &c->v) || !isfinite(c->v))
			return "a constraint";
	}
	if (!get(root, "seeds", json_type_array, &a) ||
	    !json_object_array_length(a) ||
	    json_object_array_length(a) > SW_MAX_REPEAT)
		return "seeds";
	r->nseeds = json_object_array_length(a);
	for (k = 0; k < r->nseeds; k++) {
		x = json_object_array_get_idx(a, k);
		if (!x || !json_object_is_type(x, json_type_int))
			return "seeds";
		r->seeds[k] = (uint64_t)json_object_get_uint64(x);
	}
	if (!get_num(root, "budget", &v) || v < 1 || v > SW_MAX_RUNS)
		return "budget";
	r->budget = (size_t)v;
	if (!get_num(root, "runs", &v) || v < 0 || v > SW_MAX_RUNS)
		return "runs";
	r->runs = (size_t)v;
	if (!get_num(root, "wall_s", &r->wall_s))
		return "wall_s";
	if (!get(root, "complete", json_type_boolean, &m))
		return "complete";
	r->complete = json_object_get_boolean(m);
	if ((bad = load_params(root, r)) || (bad = load_evals(root, r)))
		return bad;
	if (!get_num(root, "best", &v) || v < -1 || v >= (double)r->nev ||
	    v != floor(v))
		return "best";
	r->best = (int)v;
	if (!get_num(root, "default", &v) || v < -1 || v >= (double)r->nev ||
	    v != floor(v))
		return "default";
	r->def = (int)v;
	if (!get(root, "sensitivity", json_type_array, &a) ||
	    json_object_array_length(a) != r->nprm)
		return "sensitivity";
	for (k = 0; k < r->nprm; k++) {
		int side;

		m = json_object_array_get_idx(a, k);
		if (!m || !json_object_is_type(m, json_type_array) ||
		    json_object_array_length(m) != 2)
			return "sensitivity";
		for (side = 0; side < 2; side++) {
			x = json_object_array_get_idx(m, (size_t)side);
			if (!x || !json_object_is_type(x, json_type_int))
				return "sensitivity";
			v = json_object_get_double(x);
			if (v < -1 || v >= (double)r->nev)
				return "sensitivity";
			r->sens[k][side] = (int)v;
		}
	}
	return NULL;
}

/* How many "name":NAME members come before param k, counting it (the
 * tune's own name first, as written).
 */
static size_t name_nth(const struct tune_res *r, size_t k)
{
	size_t m, nth = !strcmp(r->name, r->prm[k].name);

	for (m = 0; m <= k; m++)
		nth += !strcmp(r->prm[m].name, r->prm[k].name);
	return nth;
}

/* A param named twice: which one would `tune apply` write?  Refused,
 * naming the line of the second.
 */
static int dup_params(struct session *s, const char *path, const char *text,
		      size_t len, const struct tune_res *r)
{
	size_t k, m;

	for (k = 0; k < r->nprm; k++)
		for (m = 0; m < k; m++)
			if (!strcmp(r->prm[m].name, r->prm[k].name))
				return pcb_error(&s->err, PCB_E_CORRUPT,
						 "'%s' line %zu: param '%s' a "
						 "second time (first at line "
						 "%zu)",
						 path, store_json_line(text,
						 len, "name", r->prm[k].name,
						 name_nth(r, k)),
						 r->prm[k].name,
						 store_json_line(text, len,
						 "name", r->prm[m].name,
						 name_nth(r, m)));
	return 0;
}

int tune_load(struct session *s, const char *name, struct tune_res *r,
	      char *dir, size_t dlen)
{
	char path[PCB_PATH_LEN], *text = NULL;
	json_tokener *tok;
	json_object *root = NULL;
	const char *bad;
	size_t len;
	int rc = tune_dir(s, name, dir, dlen, false);

	memset(r, 0, sizeof(*r));
	r->best = r->def = -1;
	if (!rc)
		rc = pcb_path(path, sizeof(path), &s->err, "%s/tune.json", dir);
	if (!rc)
		rc = pcb_read_file(path, TUNE_FILE_MAX, &text, &len, &s->err);
	if (rc == -PCB_E_NOENT) {
		pcb_err_reset(&s->err);
		return pcb_error(&s->err, PCB_E_NOENT, "no tune '%s' ('tune "
				 "list')", name);
	}
	if (rc)
		return rc;
	tok = json_tokener_new_ex(32);
	if (tok)
		root = json_tokener_parse_ex(tok, text, (int)len);
	if (!tok || json_tokener_get_error(tok) != json_tokener_success ||
	    !root)
		bad = "not JSON";
	else
		bad = load_root(root, r);
	if (tok)
		json_tokener_free(tok);
	json_object_put(root);
	if (bad)
		rc = pcb_error(&s->err, PCB_E_CORRUPT, "'%s': bad %s", path,
			       bad);
	else
		rc = dup_params(s, path, text, len, r);
	free(text);
	if (rc)
		tune_res_free(r);
	return rc;
}
