/* complete.c - keyword tables and completion candidates (complete.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/complete.h"
#include "cmd/table.h"
#include "discover.h"
#include "fsafe.h"
#include "paths.h"
#include "store.h"
#include "tel/diag_ids.h"
#include "words.h"

/* ---- the list ------------------------------------------------------------ */

void cand_add(struct cands *c, const char *word)
{
	char **nv;

	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 32;

		nv = realloc(c->v, cap * sizeof(*nv));
		if (!nv)
			return;
		c->v = nv;
		c->cap = cap;
	}
	c->v[c->n] = strdup(word);
	if (c->v[c->n])
		c->n++;
}

void cand_list(struct cands *c, const char *list)
{
	char buf[512], *w, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
		cand_add(c, w);
}

void cand_rows(struct cands *c, const struct cmd_row *rows)
{
	for (; rows && rows->name; rows++)
		cand_add(c, rows->name);
}

void cand_kw_names(struct cands *c, const struct cmd_kw *t)
{
	for (; t && t->name; t++)
		if (!(t->flags & KW_HIDDEN))
			cand_add(c, t->name);
}

void cands_clear(struct cands *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->v[i]);
	c->n = 0;
}

void cands_free(struct cands *c)
{
	cands_clear(c);
	free(c->v);
	c->v = NULL;
	c->cap = 0;
}

/* ---- what the device and the data dir know -------------------------------- */

void cand_params(struct session *s, struct cands *c)
{
	struct pcb_err keep = s->err;
	struct slot_view *v;
	unsigned slot;
	size_t i;

	if (!sess_active_slot(s, &slot) && !sess_slot_view(s, slot, &v))
		for (i = 0; i < v->nparams; i++)
			cand_add(c, v->params[i].info.name);
	s->err = keep;
}

void cand_slots(struct session *s, struct cands *c, bool counters)
{
	struct pcb_err keep = s->err;
	uint32_t info[PPCC_SLOTS];
	unsigned i;
	char b[8];

	if (!sess_device(s) && !ppcc_algo_info_array(&s->cur->ppcc, info,
						     &s->err))
		for (i = 0; i < PPCC_SLOTS; i++) {
			struct slot_view *v;

			if (!info[i])
				continue;
			if (counters && (sess_slot_view(s, i, &v) ||
					 !v->ncounters))
				continue;
			snprintf(b, sizeof(b), "%u", i);
			cand_add(c, b);
		}
	s->err = keep;
}

/* sim, sim:NAME for every state file, and the NICs on the bus: BDF,
 * pci/BDF, mlx5_N, mlx5_N/1 and netdevs.
 */
void cand_devices(struct session *s, struct cands *c)
{
	struct pcb_nic *nics = NULL;
	char dir[PCB_PATH_LEN], name[300];
	struct dirent *de;
	size_t i, n = 0;
	DIR *d;

	(void)s;
	cand_add(c, "sim");
	if (!pcb_user_dir(dir, sizeof(dir), PCB_DIR_STATE, "sim", false,
			  NULL) && (d = opendir(dir))) {
		while ((de = readdir(d))) {
			size_t l = strlen(de->d_name);

			if (l > 4 && !strcmp(de->d_name + l - 4, ".dev") &&
			    strcmp(de->d_name, "default.dev")) {
				snprintf(name, sizeof(name), "sim:%.*s",
					 (int)(l - 4), de->d_name);
				cand_add(c, name);
			}
		}
		closedir(d);
	}
	/* each NVIDIA function under every handle it answers to */
	if (!pcb_discover(&nics, &n, NULL))
		for (i = 0; i < n; i++) {
			const char *nd = nics[i].netdev;

			cand_add(c, nics[i].bdf);
			snprintf(name, sizeof(name), "pci/%s", nics[i].bdf);
			cand_add(c, name);
			if (nics[i].rdma[0]) {
				int l = (int)strcspn(nics[i].rdma, ",");

				snprintf(name, sizeof(name), "%.*s", l,
					 nics[i].rdma);
				cand_add(c, name);
				snprintf(name, sizeof(name), "%.*s/1", l,
					 nics[i].rdma);
				cand_add(c, name);
			}
			while (*nd) {	/* comma separated */
				size_t l = strcspn(nd, ",");

				snprintf(name, sizeof(name), "%.*s", (int)l,
					 nd);
				cand_add(c, name);
				nd += l + (nd[l] == ',');
			}
		}
	free(nics);
}

/* Data-ID names: every entry with instance 0, and the 8 priorities. */
void cand_data_ids(struct session *s, struct cands *c)
{
	char name[128];
	size_t i;
	uint32_t p;

	(void)s;
	for (i = 0; i < diag_id_count(); i++) {
		struct diag_id x = { .def = diag_id_def_at(i) };

		for (p = 0; p < (x.def->inst == DI_PORT_PRIO ? 8u : 1u); p++) {
			x.prio = p;
			diag_id_name(diag_id_encode(&x), name, sizeof(name));
			cand_add(c, name);
		}
	}
}

/* Saved series (NAME.csv) or sweeps (directories) by name. */
void cand_saved(struct cands *c, const char *sub, const char *ext)
{
	char **names = store_names(sub, ext);
	size_t i;

	for (i = 0; names && names[i]; i++)
		cand_add(c, names[i]);
	words_free(names);
}

/* The column names of a saved series: its header, "name (unit),...". */
void cand_columns(struct session *s, struct cands *c, const char *series)
{
	struct pcb_err keep = s->err;
	char path[PCB_PATH_LEN], *line = NULL, *w, *save = NULL;
	size_t cap = 0;
	FILE *fp;

	if (store_series_path(s, series, "csv", path, sizeof(path)) ||
	    !(fp = pcb_fopen_read(path, &s->err))) {
		s->err = keep;
		return;
	}
	if (getline(&line, &cap, fp) > 0)
		for (w = strtok_r(line, ",\r\n", &save); w;
		     w = strtok_r(NULL, ",\r\n", &save)) {
			w[strcspn(w, " ")] = '\0';
			if (*w && strcmp(w, "t"))
				cand_add(c, w);
		}
	free(line);
	fclose(fp);
}

/* ---- keyword tables ---------------------------------------------------------- */

int cmd_kw_take(struct session *s, const struct cmd_kw *k, void *req,
		const char *val)
{
	if (k->set)
		return k->set(s, req, k, val);
	if (k->dest == KW_D_FLAG)
		*KW_AT(req, k, bool) = true;
	else if (k->dest == KW_D_STR)
		*KW_AT(req, k, const char *) = val;
	return 0;
}

int cmd_kw_parse(struct session *s, const struct cmd_kw *t, void *req,
		 int argc, char **argv, int *at)
{
	int i, rc;

	for (i = 0; i < argc; i++) {
		const struct cmd_kw *k = cmd_kw_find(t, argv[i]);
		bool alone = k && cmd_kw_alone(k);

		if (!k || (!alone && i + 1 == argc))
			break;
		rc = cmd_kw_take(s, k, req, alone ? NULL : argv[i + 1]);
		if (rc) {
			*at = i;
			return rc;
		}
		i += !alone;
	}
	*at = i;
	return 0;
}

const char *cmd_synopsis(const struct cmd_row *row, char *buf, size_t len)
{
	char keys[400];
	const char *a = row->args ? row->args : "";

	if (!row->keys)
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s%s%s", a, *a ? " " : "",
			 cmd_kw_synopsis(row->keys, keys, sizeof(keys)));
	return buf;
}

int cmd_kw_unknown(struct session *s, const char *who,
		   const struct cmd_kw *t, const char *word)
{
	char names[400];

	return pcb_error(&s->err, PCB_E_INVAL, "%s: unknown key '%s' (%s)",
			 who, word, cmd_kw_names(t, names, sizeof(names)));
}

bool cand_keywords(struct session *s, const struct cmd_kw *t, int first,
		   char **argv, int argc, struct cands *c)
{
	const struct cmd_kw *k = NULL;
	int i;

	/* "ids a,b,": the list is the word being completed */
	if (argc > first && argv[argc - 1][0] &&
	    argv[argc - 1][strlen(argv[argc - 1]) - 1] == ',')
		argc--;
	if (argc < first)
		return true;	/* a positional word: the row's hook says */
	for (i = first; i < argc; i++) {
		k = cmd_kw_find(t, argv[i]);
		if (k && !cmd_kw_alone(k) && i + 1 == argc)
			break;		/* the cursor is on its value */
		if (k && !cmd_kw_alone(k))
			i++;
		k = NULL;
	}
	if (!k) {
		cand_kw_names(c, t);
		return true;
	}
	if (k->flags & KW_FILE)
		return false;
	if (k->vals)
		cand_list(c, k->vals);
	if (k->gen)
		k->gen(s, c);
	if (k->flags & KW_LIST)
		c->append = ',';
	return true;
}

/* ---- rows ------------------------------------------------------------------ */

bool cmd_row_complete(struct session *s, const struct cmd_row *row,
		      char **argv, int argc, struct cands *c)
{
	if (row->complete)
		return row->complete(s, argv, argc, c);
	if (row->keys)
		return cand_keywords(s, row->keys, 0, argv, argc, c);
	return true;
}

bool cmd_complete_file(struct session *s, char **argv, int argc,
		       struct cands *c)
{
	(void)s;
	(void)argv;
	(void)argc;
	(void)c;
	return false;
}

bool cmd_complete_first_slot(struct session *s, char **argv, int argc,
			     struct cands *c)
{
	(void)argv;
	if (argc == 0)
		cand_slots(s, c, false);
	return true;
}

bool cmd_complete_counter_slot(struct session *s, char **argv, int argc,
			       struct cands *c)
{
	(void)argv;
	if (argc == 0)
		cand_slots(s, c, true);
	return true;
}
