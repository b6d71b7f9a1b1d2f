/* file.c - a tuning profile's JSON file: its path, written and read back
 * (profile.h; the schema is at the top of src/cmd/profile.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "out.h"
#include "paths.h"
#include "profile/profile.h"
#include "session.h"
#include "store.h"

int profile_path(struct session *s, const char *name, char *buf,
		 size_t len)
{
	return store_path(s, "profile", "profiles", name, ".json", true, buf,
			  len);
}

void profile_write_json(struct session *s, FILE *fp, const struct profile *pr)
{
	char ts[32], v[40];
	time_t now = time(NULL);
	struct tm tm;
	size_t i, k;

	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	fprintf(fp, "{\"schema\":\"pccbench-profile\",\"version\":%d,"
		"\"name\":", PROFILE_VERSION);
	out_json_string(fp, pr->name);
	fprintf(fp, ",\"saved\":\"%s\",\"device\":{\"id\":", ts);
	out_json_string(fp, pr->device);
	fputs(",\"model\":", fp);
	out_json_string(fp, pr->model);
	fputs("},\"slots\":[", fp);
	for (i = 0; i < pr->nslots; i++) {
		const struct pslot *ps = &pr->s[i];
		struct slot_view *sv = NULL;
		struct pcb_err keep = s->err;

		if (sess_slot_view(s, ps->slot, &sv))
			s->err = keep;
		fprintf(fp, "%s\n {\"slot\":%u,\"algo\":", i ? "," : "",
			ps->slot);
		out_json_string(fp, ps->algo);
		fprintf(fp, ",\"algo_id\":%u,\"algo_version\":\"%u.%u\","
			"\"enabled\":%s,\"counters\":%s,\"params\":[",
			ps->algo_num >> 16, ps->algo_num >> 8 & 0xff,
			ps->algo_num & 0xff, ps->enabled ? "true" : "false",
			ps->counters ? "true" : "false");
		for (k = 0; k < ps->nparams; k++) {
			const struct param_view *p = sv && k < sv->nparams ?
						     &sv->params[k] : NULL;
			bool raw = s->units_raw;

			fprintf(fp, "%s\n  {\"name\":", k ? "," : "");
			out_json_string(fp, ps->p[k].name);
			s->units_raw = false;	/* "value" is real */
			if (p)
				sess_format_value(s, p->type, ps->p[k].raw, v,
						  sizeof(v));
			else
				snprintf(v, sizeof(v), "%u", ps->p[k].raw);
			s->units_raw = raw;
			fprintf(fp, ",\"index\":%u,\"value\":%s,\"raw\":%u,"
				"\"access\":\"%s\",\"units\":", ps->p[k].index,
				v, ps->p[k].raw, ps->p[k].ro ? "ro" : "rw");
			out_json_string(fp, p && p->units ? p->units : "");
			fputc('}', fp);
		}
		fputs("]}", fp);
	}
	fputs("\n]}\n", fp);
}

/* A JSON integer member within lo..hi. */
static bool get_uint(json_object *o, const char *key, uint64_t hi,
		     uint64_t *v)
{
	json_object *m;
	int64_t x;

	if (!json_object_object_get_ex(o, key, &m) ||
	    !json_object_is_type(m, json_type_int))
		return false;
	x = json_object_get_int64(m);
	if (x < 0 || (uint64_t)x > hi)
		return false;
	*v = (uint64_t)x;
	return true;
}

/* t holds only letters, digits and the bytes of extra. */
bool profile_text_ok(const char *t, const char *extra)
{
	for (; *t; t++)
		if (!(*t >= 'a' && *t <= 'z') && !(*t >= 'A' && *t <= 'Z') &&
		    !(*t >= '0' && *t <= '9') && !strchr(extra, *t))
			return false;
	return true;
}

/* A JSON string member shorter than len, no NUL inside, made only of
 * letters, digits and `extra`.
 */
static bool get_str(json_object *o, const char *key, char *buf, size_t len,
		    const char *extra)
{
	json_object *m;
	const char *t;
	size_t n;

	if (!json_object_object_get_ex(o, key, &m) ||
	    !json_object_is_type(m, json_type_string))
		return false;
	t = json_object_get_string(m);
	n = (size_t)json_object_get_string_len(m);
	if (n >= len || strlen(t) != n || !profile_text_ok(t, extra))
		return false;
	memcpy(buf, t, n + 1);
	return true;
}

/* An optional member: absent is "", present it must be get_str's. */
static bool get_opt_str(json_object *o, const char *key, char *buf,
			size_t len, const char *extra)
{
	*buf = '\0';
	return !json_object_object_get_ex(o, key, NULL) ||
	       get_str(o, key, buf, len, extra);
}

static bool get_bool(json_object *o, const char *key, bool *v)
{
	json_object *m;

	if (!json_object_object_get_ex(o, key, &m) ||
	    !json_object_is_type(m, json_type_boolean))
		return false;
	*v = json_object_get_boolean(m);
	return true;
}

static int parse_slot(struct session *s, const char *path, json_object *o,
		      struct profile *pr)
{
	struct pslot *ps = &pr->s[pr->nslots];
	json_object *arr;
	uint64_t slot, id, raw, index;
	char ver[16];
	unsigned maj, min;
	size_t i, k;

	memset(ps, 0, sizeof(*ps));
	if (!get_uint(o, "slot", PPCC_SLOTS - 1, &slot) ||
	    !get_str(o, "algo", ps->algo, sizeof(ps->algo), PROFILE_ALGO) ||
	    !get_uint(o, "algo_id", 0xffff, &id) ||
	    !get_str(o, "algo_version", ver, sizeof(ver), ".") ||
	    sscanf(ver, "%3u.%3u", &maj, &min) != 2 || maj > 255 ||
	    min > 255 || !get_bool(o, "enabled", &ps->enabled) ||
	    !get_bool(o, "counters", &ps->counters) ||
	    !json_object_object_get_ex(o, "params", &arr) ||
	    !json_object_is_type(arr, json_type_array) ||
	    json_object_array_length(arr) > ALGO_MAX_PARAMS)
		return pcb_error(&s->err, PCB_E_CORRUPT, "%s: slot %zu: needs "
				 "slot (0..15), algo (letters, digits, spaces, "
				 "_ - .), "
				 "algo_id, algo_version (M.m), enabled, "
				 "counters and at most %d params", path,
				 pr->nslots, ALGO_MAX_PARAMS);
	for (k = 0; k < pr->nslots; k++)
		if (pr->s[k].slot == slot)
			return pcb_error(&s->err, PCB_E_CORRUPT, "%s: slot %u "
					 "twice", path, (unsigned)slot);
	ps->slot = (unsigned)slot;
	ps->algo_num = (uint32_t)id << 16 | maj << 8 | min;
	ps->nparams = json_object_array_length(arr);
	for (i = 0; i < ps->nparams; i++) {
		json_object *p = json_object_array_get_idx(arr, i);

		if (!p || !get_str(p, "name", ps->p[i].name,
				   sizeof(ps->p[i].name), PROFILE_WORD) ||
		    !get_uint(p, "raw", UINT32_MAX, &raw) ||
		    !get_uint(p, "index", ALGO_MAX_PARAMS - 1, &index))
			return pcb_error(&s->err, PCB_E_CORRUPT, "%s: slot %u "
					 "param %zu: needs name (letters, "
					 "digits, _ - .), index (0..%d) and raw "
					 "(0..2^32-1)", path,
					 ps->slot, i, ALGO_MAX_PARAMS - 1);
		ps->p[i].raw = (uint32_t)raw;
		ps->p[i].index = (unsigned)index;
	}
	pr->nslots++;
	return 0;
}

/* How many "name":NAME members come before param k of slot i, counting
 * it (the profile's own name first, as written).
 */
static size_t name_nth(const struct profile *pr, size_t i, size_t k)
{
	const char *n = pr->s[i].p[k].name;
	size_t j, m, nth = !strcmp(pr->name, n);

	for (j = 0; j <= i; j++)
		for (m = 0; m < (j < i ? pr->s[j].nparams : k + 1); m++)
			nth += !strcmp(pr->s[j].p[m].name, n);
	return nth;
}

/* A slot naming a param twice: which value would be written?  Refused,
 * naming the line of the second.
 */
static int dup_params(struct session *s, const char *path, const char *text,
		      size_t len, const struct profile *pr)
{
	size_t i, k, m, line;

	for (i = 0; i < pr->nslots; i++) {
		const struct pslot *ps = &pr->s[i];

		for (k = 0; k < ps->nparams; k++)
			for (m = 0; m < k; m++) {
				if (strcmp(ps->p[m].name, ps->p[k].name))
					continue;
				line = store_json_line(text, len, "name",
						       ps->p[k].name,
						       name_nth(pr, i, k));
				return pcb_error(&s->err, PCB_E_CORRUPT,
						 "%s:%zu: slot %u: param '%s' "
						 "a second time (first at "
						 "line %zu)", path, line,
						 ps->slot, ps->p[k].name,
						 store_json_line(text, len,
							"name", ps->p[m].name,
							name_nth(pr, i, m)));
			}
	}
	return 0;
}

static int parse_profile(struct session *s, const char *path,
			 const char *text, size_t len, struct profile *pr)
{
	json_tokener *tok = json_tokener_new_ex(16);
	json_object *root = NULL, *arr, *dev;
	char schema[40];
	uint64_t ver;
	size_t i;
	int rc = 0;

	memset(pr, 0, sizeof(*pr));
	if (tok)
		root = json_tokener_parse_ex(tok, text, (int)len);
	if (tok && json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(root);
		root = NULL;
	}
	json_tokener_free(tok);
	if (!root || !json_object_is_type(root, json_type_object))
		rc = pcb_error(&s->err, PCB_E_CORRUPT, "%s: not a JSON object",
			       path);
	else if (!get_str(root, "schema", schema, sizeof(schema), "-") ||
		 strcmp(schema, "pccbench-profile"))
		rc = pcb_error(&s->err, PCB_E_CORRUPT, "%s: not a pccbench "
			       "profile (schema)", path);
	else if (!get_uint(root, "version", UINT32_MAX, &ver) ||
		 ver != PROFILE_VERSION)
		rc = pcb_error(&s->err, PCB_E_CORRUPT, "%s: profile version "
			       "%llu; this pccbench reads version %d", path,
			       (unsigned long long)ver, PROFILE_VERSION);
	else if (!json_object_object_get_ex(root, "slots", &arr) ||
		 !json_object_is_type(arr, json_type_array) ||
		 !json_object_array_length(arr) ||
		 json_object_array_length(arr) > PPCC_SLOTS)
		rc = pcb_error(&s->err, PCB_E_CORRUPT, "%s: 'slots' must list "
			       "1 to %d slots", path, PPCC_SLOTS);
	for (i = 0; !rc && i < json_object_array_length(arr); i++)
		rc = parse_slot(s, path, json_object_array_get_idx(arr, i), pr);
	if (!rc && !get_opt_str(root, "name", pr->name, sizeof(pr->name),
				PROFILE_WORD))
		rc = pcb_error(&s->err, PCB_E_CORRUPT, "%s: 'name' may hold "
			       "only letters, digits, _ - . (up to %zu)", path,
			       sizeof(pr->name) - 1);
	if (!rc && json_object_object_get_ex(root, "device", &dev) &&
	    (!get_opt_str(dev, "id", pr->device, sizeof(pr->device),
			  PROFILE_DEVICE) ||
	     !get_opt_str(dev, "model", pr->model, sizeof(pr->model),
			  PROFILE_MODEL)))
		rc = pcb_error(&s->err, PCB_E_CORRUPT, "%s: 'device' may hold an "
			       "id of letters, digits and \"%s\" (up to %zu) "
			       "and a model of letters, digits and \"%s\" (up "
			       "to %zu)", path, PROFILE_DEVICE,
			       sizeof(pr->device) - 1, PROFILE_MODEL,
			       sizeof(pr->model) - 1);
	if (!rc)
		rc = dup_params(s, path, text, len, pr);
	json_object_put(root);
	return rc;
}

/* NAME (a saved profile) or a path (with a '/' or ending .json). */
int profile_load(struct session *s, const char *name,
			struct profile *pr)
{
	char path[PCB_PATH_LEN], *text = NULL;
	size_t len = strlen(name), tl;
	int rc;

	if (strchr(name, '/') || (len > 5 && !strcmp(name + len - 5, ".json")))
		rc = pcb_path(path, sizeof(path), &s->err, "%s", name);
	else
		rc = profile_path(s, name, path, sizeof(path));
	if (!rc)
		rc = pcb_read_file(path, PROFILE_MAX, &text, &tl, &s->err);
	if (rc == -PCB_E_NOENT && !strchr(name, '/')) {
		pcb_err_reset(&s->err);
		rc = pcb_error(&s->err, PCB_E_NOENT, "no profile '%s' ('profile "
			       "list')", name);
	}
	if (!rc)
		rc = parse_profile(s, path, text, tl, pr);
	free(text);
	return rc;
}

