/* store.c - what pccbench saves under $XDG_DATA_HOME/pccbench: names
 * checked, paths made, listings, and the JSON metadata beside a series or
 * a sweep.  Below the commands: the sweep engine and the REPL use it too.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "out.h"
#include "paths.h"
#include "store.h"

void store_meta_algo(struct session *s, FILE *fp)
{
	struct slot_view *v;
	uint32_t vals[ALGO_MAX_PARAMS];
	char val[40];
	unsigned slot;
	size_t i;

	if (sess_active_slot(s, &slot) || sess_slot_view(s, slot, &v)) {
		pcb_err_reset(&s->err);
		return;
	}
	fprintf(fp, ",\"slot\":%u,\"algo_id\":%u,\"algo_version\":\"%u.%u\","
		"\"algo_name\":", slot, v->algo_num >> 16,
		(v->algo_num >> 8) & 0xff, v->algo_num & 0xff);
	out_json_string(fp, v->name);
	fputs(",\"params\":{", fp);
	if (!sess_slot_values(s, slot, v, vals))
		for (i = 0; i < v->nparams; i++) {
			sess_format_value(s, v->params[i].type, vals[i], val,
					  sizeof(val));
			fprintf(fp, "%s", i ? "," : "");
			out_json_string(fp, v->params[i].info.name);
			fprintf(fp, ":%s", val);
		}
	pcb_err_reset(&s->err);
	fputc('}', fp);
}

int store_path(struct session *s, const char *what, const char *dir_name,
		   const char *name, const char *suffix, bool create,
		   char *buf, size_t len)
{
	char dir[PCB_PATH_LEN];
	size_t i;
	int rc;

	for (i = 0; name[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-.", name[i]) || i >= 60 ||
		    name[0] == '.')
			return pcb_error(&s->err, PCB_E_INVAL, "bad %s name "
					 "'%s' (letters, digits, _ - .; up "
					 "to 60)", what, name);
	if (!*name)
		return pcb_error(&s->err, PCB_E_INVAL, "empty %s name", what);
	rc = pcb_user_dir(dir, sizeof(dir), PCB_DIR_DATA, dir_name, create,
			  &s->err);
	if (!rc)
		rc = pcb_path(buf, len, &s->err, "%s/%.60s%s", dir, name, suffix);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **store_names(const char *dir_name, const char *ext)
{
	char dir[PCB_PATH_LEN], **v = NULL, **nv;
	size_t n = 0;
	struct dirent *de;
	DIR *d;

	if (pcb_user_dir(dir, sizeof(dir), PCB_DIR_DATA, dir_name, false,
			 NULL) || !(d = opendir(dir)))
		return calloc(1, sizeof(*v));
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name), el = ext ? strlen(ext) : 0;
		char *name = NULL;

		if (de->d_name[0] == '.')
			continue;
		if (!ext && de->d_type == DT_DIR)
			name = strdup(de->d_name);
		else if (ext && l > el && !strcmp(de->d_name + l - el, ext))
			name = strndup(de->d_name, l - el);
		if (!name)
			continue;
		nv = realloc(v, (n + 2) * sizeof(*v));
		if (!nv) {
			free(name);
			break;
		}
		v = nv;
		v[n++] = name;
	}
	closedir(d);
	if (!v)
		return calloc(1, sizeof(*v));
	v[n] = NULL;
	qsort(v, n, sizeof(*v), cmp_str);
	return v;
}

int store_meta_open(struct session *s, struct pcb_wfile *w, const char *path,
		  const char *kind, const char *name, time_t start)
{
	char ts[40];
	struct tm tm;
	int rc = pcb_wfile_open(w, path, PCB_MODE_DATA, &s->err);

	if (rc)
		return rc;
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&start, &tm));
	fprintf(w->fp, "{\"%s\":", kind);
	out_json_string(w->fp, name);
	fputs(",\"device\":", w->fp);
	out_json_string(w->fp, s->cur->name);
	fprintf(w->fp, ",\"pccbench\":\"%s\",\"start\":\"%s\"", PCCB_VERSION,
		ts);
	return 0;
}

int store_meta_close(struct session *s, struct pcb_wfile *w)
{
	fputs("}\n", w->fp);
	return pcb_wfile_commit(w, &s->err);
}

int store_series_path(struct session *s, const char *name, const char *ext,
		    char *buf, size_t len)
{
	char sfx[32];

	snprintf(sfx, sizeof(sfx), ".%s", ext);
	return store_path(s, "series", "series", name, sfx, true, buf,
			      len);
}

/* At text[i], "w" (w unescaped)?  Its end, else 0. */
static size_t json_word_at(const char *text, size_t len, size_t i,
			   const char *w)
{
	size_t n = strlen(w);

	if (i + n + 2 > len || text[i] != '"' || memcmp(text + i + 1, w, n) ||
	    text[i + n + 1] != '"')
		return 0;
	return i + n + 2;
}

size_t store_json_line(const char *text, size_t len, const char *key,
		       const char *value, size_t nth)
{
	size_t i, j, line = 1;

	for (i = 0; i < len; i++) {
		if (text[i] == '\n')
			line++;
		j = json_word_at(text, len, i, key);
		if (!j)
			continue;
		while (j < len && strchr(" \t\r\n", text[j]) && text[j])
			j++;
		if (j >= len || text[j] != ':')
			continue;
		for (j++; j < len && strchr(" \t\r\n", text[j]) && text[j]; j++)
			;
		if (json_word_at(text, len, j, value) && !--nth)
			return line;
	}
	return 0;
}
