/* common.c - argument helpers shared by the commands. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <strings.h>
#include <unistd.h>

#include "cmd.h"
#include "paths.h"

int cmd_parse_slot(struct session *s, const char *text, unsigned *slot)
{
	char *end;
	unsigned long v;

	if (!*text || *text == '-' || *text == '+')
		goto bad;
	v = strtoul(text, &end, 0);
	if (*end || v >= PPCC_SLOTS)
		goto bad;
	*slot = (unsigned)v;
	return 0;
bad:
	return pcb_error(&s->err, PCB_E_RANGE, "bad slot '%s' (0..15)", text);
}

int cmd_parse_target(struct session *s, int argc, char **argv,
		     bool *has_slot, unsigned *slot, bool *unchecked)
{
	int i = 0, rc;

	*has_slot = false;
	if (unchecked)
		*unchecked = false;
	while (i < argc) {
		if (!strcmp(argv[i], "slot")) {
			if (i + 1 >= argc)
				return pcb_error(&s->err, PCB_E_USAGE,
						 "'slot' needs a number");
			rc = cmd_parse_slot(s, argv[i + 1], slot);
			if (rc)
				return rc;
			*has_slot = true;
			i += 2;
		} else if (unchecked && !strcmp(argv[i], "--unchecked")) {
			*unchecked = true;
			i++;
		} else {
			break;
		}
	}
	return i;
}

int cmd_pick_slot(struct session *s, bool has_slot, unsigned *slot)
{
	if (has_slot)
		return sess_device(s);
	return sess_active_slot(s, slot);
}

int cmd_open_adb(struct session *s, const char *reg, struct adb_db **db)
{
	char path[4096];
	bool ppcc = reg && (!strcasecmp(reg, "PPCC") ||
			    !strcasecmp(reg, "0x506e") ||
			    !strcasecmp(reg, "ppcc_reg_ext"));
	bool have_mstflint = access(MSTFLINT_ADB, R_OK) == 0;
	int rc;

	if (s->adb_path)
		return adb_db_load_file(db, s->adb_path, &s->err);
	/* our PPCC layout first: it needs nothing installed */
	if (ppcc || (!reg && !have_mstflint)) {
		rc = pcb_data_file(path, sizeof(path), "reg/ppcc.adb", &s->err);
		if (rc)
			return rc;
		return adb_db_load_file(db, path, &s->err);
	}
	if (!have_mstflint)
		return pcb_error(&s->err, PCB_E_NOENT,
				 "register '%s' is not in pccbench's own "
				 "layout, and mstflint's register database "
				 "'%s' is not installed (apt-get install "
				 "mstflint, or give --adb FILE)", reg,
				 MSTFLINT_ADB);
	return adb_db_load_file(db, MSTFLINT_ADB, &s->err);
}

int cmd_split_argv(struct session *s, const char *who, const char *text,
		   char ***out)
{
	char ***cmds;
	int *argcs, ncmd, i, rc;

	*out = NULL;
	rc = cli_split(text, &cmds, &argcs, &ncmd, &s->err);
	if (rc)
		return rc;
	if (ncmd != 1) {
		cli_free_split(cmds, argcs, ncmd);
		return pcb_error(&s->err, PCB_E_INVAL, "%s: 'while' takes one "
				 "command with its arguments, e.g. "
				 "'ib_write_bw -d mlx5_0 -D 10 host2' (no shell: "
				 "no ';', pipes or redirections)", who);
	}
	for (i = 0; i < argcs[0]; i++)
		if (strchr("|&<>", cmds[0][i][0]) && !cmds[0][i][1]) {
			rc = pcb_error(&s->err, PCB_E_INVAL, "%s: '%s' in a "
				       "'while' command: no shell runs it, so "
				       "pipes and redirections do not work",
				       who, cmds[0][i]);
			cli_free_split(cmds, argcs, ncmd);
			return rc;
		}
	*out = cmds[0];
	free(argcs);
	free(cmds);
	return 0;
}

void cmd_argv_free(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

void cmd_meta_algo(struct session *s, FILE *fp)
{
	struct slot_view *v;
	uint32_t vals[ALGO_MAX_PARAMS];
	char val[40];
	unsigned slot;
	size_t i, n = 0;

	if (sess_active_slot(s, &slot) || sess_slot_view(s, slot, &v)) {
		pcb_err_reset(&s->err);
		return;
	}
	fprintf(fp, ",\"slot\":%u,\"algo_id\":%u,\"algo_version\":\"%u.%u\","
		"\"algo_name\":", slot, v->algo_num >> 16,
		(v->algo_num >> 8) & 0xff, v->algo_num & 0xff);
	out_json_string(fp, v->name);
	fputs(",\"params\":{", fp);
	if (!ppcc_bulk_get(&s->ppcc, slot, vals, ALGO_MAX_PARAMS, &n, &s->err))
		for (i = 0; i < n && i < v->nparams; i++) {
			sess_format_value(s, v->params[i].type, vals[i], val,
					  sizeof(val));
			fprintf(fp, "%s", i ? "," : "");
			out_json_string(fp, v->params[i].info.name);
			fprintf(fp, ":%s", val);
		}
	pcb_err_reset(&s->err);
	fputc('}', fp);
}

int cmd_saved_path(struct session *s, const char *what, const char *dir_name,
		   const char *name, const char *suffix, bool create,
		   char *buf, size_t len)
{
	char dir[4000];
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
		snprintf(buf, len, "%s/%.60s%s", dir, name, suffix);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **cmd_saved_names(const char *dir_name, bool dirs)
{
	char dir[4096], **v = NULL, **nv;
	size_t n = 0;
	struct dirent *de;
	DIR *d;

	if (pcb_user_dir(dir, sizeof(dir), PCB_DIR_DATA, dir_name, false,
			 NULL) || !(d = opendir(dir)))
		return calloc(1, sizeof(*v));
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char *name = NULL;

		if (de->d_name[0] == '.')
			continue;
		if (dirs && de->d_type == DT_DIR)
			name = strdup(de->d_name);
		else if (!dirs && l > 4 && !strcmp(de->d_name + l - 4, ".csv"))
			name = strndup(de->d_name, l - 4);
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

int cmd_meta_open(struct session *s, struct pcb_wfile *w, const char *path,
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
	out_json_string(w->fp, s->devname);
	fprintf(w->fp, ",\"pccbench\":\"%s\",\"start\":\"%s\"", PCCB_VERSION,
		ts);
	return 0;
}

int cmd_meta_close(struct session *s, struct pcb_wfile *w)
{
	fputs("}\n", w->fp);
	return pcb_wfile_commit(w, &s->err);
}

int cmd_bad_duration(struct session *s, const char *who, const char *text,
		     const char *range)
{
	char *end;

	strtod(text, &end);
	if (*text && !*end && end != text)	/* a number without a unit */
		return pcb_error(&s->err, PCB_E_INVAL, "%s%s%s what? write "
				 "%sms (or %sus, %ss)", who, *who ? ": " : "",
				 text, text, text, text);
	return pcb_error(&s->err, PCB_E_INVAL, "%s%sbad duration '%s' (e.g. "
			 "10ms, 500us, 200 us; %s)", who, *who ? ": " : "",
			 text, range);
}
