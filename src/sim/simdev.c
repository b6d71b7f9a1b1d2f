/* simdev.c - scenario persistence, algorithm binding, counter sync. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsafe.h"
#include "paths.h"
#include "sim/sim_int.h"
#include "sim/simdev.h"

#define SYNC_PS (100 * PS_PER_US)
#define SIM_MAX_WORDS 128	/* of a scenario command */

static void diag_sync(struct simdev *d, bool force);

static int cfg_path(const struct simdev *d, char *buf, size_t len,
		    struct pcb_err *err)
{
	return pcb_user_file(buf, len, PCB_DIR_STATE, "sim", d->name,
			     ".scenario", err);
}

/* The index of ops in algo_registry (and d->opts), or -1. */
static int algo_index(const struct algo_ops *ops)
{
	int i;

	for (i = 0; algo_registry[i] && i < SIMDEV_ALGOS; i++)
		if (algo_registry[i] == ops)
			return i;
	return -1;
}

static void default_opts(struct simdev *d)
{
	const struct algo_ops *z;
	size_t a, i;

	memset(d->opts, 0, sizeof(d->opts));
	for (a = 0; (z = algo_registry[a]) && a < SIMDEV_ALGOS; a++)
		for (i = 0; i < z->nopts && i < ALGO_MAX_OPTS; i++)
			d->opts[a][i] = z->opts[i].def;
}

const uint32_t *simdev_opts(const struct simdev *d,
			    const struct algo_ops *ops)
{
	int a = algo_index(ops);

	return a < 0 ? NULL : d->opts[a];
}

const struct algo_ops *simdev_model_algo(struct simdev *d)
{
	int slot = simfw_active_slot(d->fw);
	const struct algo_desc *desc = slot >= 0 ?
		simfw_slot_desc(d->fw, (unsigned)slot) : NULL;
	const struct algo_ops *ops = desc ? algo_find(desc->name) : NULL;

	return ops && algo_index(ops) >= 0 ? ops : algo_find("ztr_rtt");
}

/* The scenario file: "KIND KEY VALUE ...", one "model ALGO OPT VALUE
 * ..." line per algorithm with options, then a checksum line (fsafe.h),
 * written whole through a temp file.
 */
static int save(struct simdev *d, struct pcb_err *err)
{
	const struct algo_ops *z;
	char path[PCB_PATH_LEN], line[2048], *text = NULL;
	size_t a, i, len = 0;
	FILE *fp;
	int rc = cfg_path(d, path, sizeof(path), err);

	if (rc)
		return rc;
	fp = open_memstream(&text, &len);
	if (!fp)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	sim_cfg_format(&d->cfg, line, sizeof(line));
	fprintf(fp, "%s\n", line);
	for (a = 0; (z = algo_registry[a]) && a < SIMDEV_ALGOS; a++) {
		if (!z->nopts)
			continue;
		fprintf(fp, "model %s", z->name);
		for (i = 0; i < z->nopts; i++) {
			if (z->opts[i].choices)
				fprintf(fp, " %s %s", z->opts[i].name,
					z->opts[i].choices[d->opts[a][i]]);
			else
				fprintf(fp, " %s %.6g", z->opts[i].name,
					d->opts[a][i] / 65536.0);
		}
		fputc('\n', fp);
	}
	if (fclose(fp) || pcb_crc_seal(&text, &len))
		rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
	else
		rc = pcb_write_file(path, text, len, PCB_MODE_STATE, err);
	free(text);
	return rc;
}

/* "k v k v ..." onto a scenario of its kind, into a copy: all or
 * nothing.  A key given twice is refused: which value was meant is the
 * user's to say (`ranks 4 ... ranks 8` ran 8 ranks, saying nothing).
 */
static int set_pairs(struct sim_cfg *out, const struct sim_cfg *base,
		     int argc, char **argv, struct pcb_err *err)
{
	struct sim_cfg c = *base;
	int i, j, rc;

	if (argc % 2)
		return pcb_error(err, PCB_E_USAGE,
				 "sim: '%s' has no value; keys come in "
				 "pairs: %s", argv[argc - 1],
				 sim_cfg_keys(c.kind));
	for (i = 0; i < argc; i += 2) {
		for (j = 0; j < i; j += 2)
			if (!strcasecmp(argv[j], argv[i]))
				return pcb_error(err, PCB_E_USAGE, "sim: '%s' "
						 "given twice ('%s', then "
						 "'%s')", argv[i], argv[j + 1],
						 argv[i + 1]);
		rc = sim_cfg_set(&c, argv[i], argv[i + 1], err);
		if (rc)
			return rc;
	}
	rc = sim_cfg_check(&c, err);
	if (rc)
		return rc;
	*out = c;
	return 0;
}

static void kind_default(struct sim_cfg *c, enum sim_kind k)
{
	sim_cfg_default(c);
	c->kind = k;
	if (k == SIM_STAIRCASE)
		c->senders = 4;
}

/* Parse "kind k v k v ..." onto defaults; all or nothing. */
int simdev_parse_scenario(struct sim_cfg *out, const char *kind, int argc,
			  char **argv, struct pcb_err *err)
{
	struct sim_cfg c;
	enum sim_kind k;

	if (sim_kind_parse(kind, &k))
		return pcb_error(err, PCB_E_NOENT,
				 "sim: unknown scenario '%s' (%s)", kind,
				 sim_kind_list());
	kind_default(&c, k);
	return set_pairs(out, &c, argc, argv, err);
}

static int load(struct simdev *d, struct pcb_err *err)
{
	char path[PCB_PATH_LEN], *text, *line, *next, *words[128], *save_ptr;
	char *w;
	const struct algo_ops *z = algo_find("ztr_rtt");
	int n, rc, lineno = 0, i;
	size_t len;

	sim_cfg_default(&d->cfg);
	default_opts(d);
	rc = cfg_path(d, path, sizeof(path), err);
	if (rc)
		return rc;
	rc = pcb_read_file(path, 65536, &text, &len, err);
	if (rc == -PCB_E_NOENT) {
		pcb_err_reset(err);
		return 0;	/* never configured: the standard case */
	}
	if (rc)
		return rc;
	if (!pcb_crc_check(text, &len) || !len) {
		free(text);
		return pcb_error(err, PCB_E_CORRUPT, "'%s' is damaged (no valid "
				 "checksum); remove it to start from the "
				 "default scenario", path);
	}
	text[len] = '\0';
	for (line = text; !rc && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		n = 0;
		save_ptr = NULL;
		for (w = strtok_r(line, " ", &save_ptr); w && n < 128;
		     w = strtok_r(NULL, " ", &save_ptr))
			words[n++] = w;
		if (lineno == 1 && n) {
			rc = simdev_parse_scenario(&d->cfg, words[0], n - 1,
						   words + 1, err);
		} else if (lineno >= 2 && n && !strcmp(words[0], "model")) {
			/* "model ALGO k v ...", or an older file's "model k v
			 * ..." of ZTR-RTT */
			const struct algo_ops *m = n > 1 ?
				algo_find(words[1]) : NULL;
			int first = m ? 2 : 1, a = algo_index(m ? m : z);

			if (a < 0)
				rc = pcb_error(err, PCB_E_PARSE, "no such "
					       "algorithm");
			for (i = first; !rc && i + 1 < n; i += 2)
				rc = algo_set_opt(d->opts[a], m ? m : z,
						  words[i], words[i + 1], err);
			if (!rc && (n - first) % 2)
				rc = pcb_error(err, PCB_E_PARSE, "'%s' has no "
					       "value", words[n - 1]);
		} else {
			rc = pcb_error(err, PCB_E_PARSE, "unexpected line");
		}
	}
	free(text);
	if (!rc && lineno < 1)
		rc = pcb_error(err, PCB_E_PARSE, "no scenario line");
	if (rc) {
		char m[sizeof(err->msg)];

		snprintf(m, sizeof(m), "%s", err->msg);
		pcb_err_reset(err);
		/* an older pccbench's keys (rto) land here too */
		return pcb_error(err, PCB_E_CORRUPT, "'%s' line %d: %.300s "
				 "('sim scenario reset' starts from the default "
				 "scenario)", path, lineno, m);
	}
	return 0;
}

int simdev_open(struct simdev **out, struct simfw *fw, const char *name,
		struct pcb_err *err)
{
	struct simdev *d = calloc(1, sizeof(*d));
	int rc, tel;

	if (!d || !(d->name = strdup(name))) {
		free(d);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	d->fw = fw;
	d->slot = -1;
	d->diag_due = DIAG_DUE_UNKNOWN;
	rc = load(d, err);
	if (!rc)
		rc = sim_retx_open(&d->retx_file, name, err);
	/* the sim's create cannot fail: only the handle's memory can */
	if (!rc && retx_dev_open_prov(&d->retx, &sim_retx_prov, d->retx_file,
				      &tel))
		rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
	if (!rc)
		rc = sim_diag_open(&d->diag_file, name, err);
	if (!rc)
		rc = diag_dev_open_prov(&d->diag, &sim_diag_prov, d->diag_file,
					err);
	if (rc) {
		simdev_close(d);
		return rc;
	}
	*out = d;
	return 0;
}

/* ---- the host counters, kept with the device ---------------------- */

/* A NIC's counters outlive the process that made the traffic, as the
 * device's other state does: each fabric's host counters are added to
 * $XDG_STATE_HOME/pccbench/sim/NAME.hostctr when the fabric goes (a new
 * scenario, `sim reset`, the end of the process), under an flock of the
 * device file, so two processes on one device add up.  The file is
 * "hostctr N" and the N fields of struct sim_port_counters in order, then
 * a checksum line (fsafe.h), written whole through a temp file.  A file
 * of another N (an older layout) starts the counters over.
 */
#define HC_N (sizeof(struct sim_port_counters) / sizeof(uint64_t))
_Static_assert(sizeof(struct sim_port_counters) % sizeof(uint64_t) == 0,
	       "struct sim_port_counters holds uint64_t fields only");

/* NAME.hostctr's path, made (its folders too) on first use */
static const char *hc_path(struct simdev *d, struct pcb_err *err)
{
	char buf[PCB_PATH_LEN];

	if (!d->hc_file &&
	    !pcb_user_file(buf, sizeof(buf), PCB_DIR_STATE, "sim", d->name,
			   ".hostctr", err) &&
	    !(d->hc_file = strdup(buf)))
		pcb_error(err, PCB_E_NOMEM, "out of memory");
	return d->hc_file;
}

/* The counters NAME.hostctr keeps: read again only when the file there
 * is another than last time (a recorder asks every interval).
 */
static int hc_load(struct simdev *d, uint64_t v[HC_N], struct pcb_err *err)
{
	const char *path = hc_path(d, err);
	char *text, *p, *end;
	unsigned long long n, x;
	struct stat st;
	size_t len, i;
	bool known;
	int rc;

	memset(v, 0, HC_N * sizeof(*v));
	if (!path)
		return -PCB_E_NOMEM;
	known = !fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW);
	if (!known) {
		d->hc_have = false;
		if (errno == ENOENT)
			return 0;	/* no traffic yet */
	} else if (d->hc_have && st.st_dev == d->hc_dev &&
		   st.st_ino == d->hc_ino && st.st_size == d->hc_size &&
		   st.st_mtim.tv_sec == d->hc_mtim.tv_sec &&
		   st.st_mtim.tv_nsec == d->hc_mtim.tv_nsec) {
		memcpy(v, &d->hc_vals, HC_N * sizeof(*v));
		return 0;
	}
	rc = pcb_read_file(path, 65536, &text, &len, err);
	if (rc == -PCB_E_NOENT) {
		pcb_err_reset(err);
		return 0;	/* no traffic yet */
	}
	if (rc)
		return rc;
	if (!pcb_crc_check(text, &len) || !len) {
		free(text);
		return pcb_error(err, PCB_E_CORRUPT, "'%s' is damaged (no valid "
				 "checksum); remove it to start the host "
				 "counters from 0", path);
	}
	text[len] = '\0';
	rc = strncmp(text, "hostctr ", 8) ? -1 : 0;
	errno = 0;
	n = rc ? 0 : strtoull(text + 8, &end, 10);
	if (!rc && n == HC_N) {
		for (i = 0, p = end; i < HC_N && !errno; i++, p = end) {
			x = strtoull(p, &end, 10);
			if (end == p || (*end != ' ' && *end != '\n'))
				break;
			v[i] = x;
		}
		rc = i == HC_N && !errno ? 0 : -1;
	}
	free(text);
	if (rc) {
		memset(v, 0, HC_N * sizeof(*v));
		return pcb_error(err, PCB_E_CORRUPT, "'%s': not a host "
				 "counters file; remove it to start them from 0",
				 path);
	}
	/* the file as it was before the read: a write since shows as
	 * another file next time, and is read then */
	d->hc_have = known;
	d->hc_dev = st.st_dev;
	d->hc_ino = st.st_ino;
	d->hc_size = st.st_size;
	d->hc_mtim = st.st_mtim;
	memcpy(&d->hc_vals, v, HC_N * sizeof(*v));
	return 0;
}

/* ---- per host NIC ----------------------------------------------------- */

/* *to += add, field by field. */
static void hc_add(struct sim_port_counters *to,
		   const struct sim_port_counters *add)
{
	uint64_t a[HC_N], b[HC_N];
	size_t i;

	memcpy(a, to, sizeof(a));
	memcpy(b, add, sizeof(b));
	for (i = 0; i < HC_N; i++)
		a[i] += b[i];
	memcpy(to, a, sizeof(a));
}

static int no_host(struct simdev *d, uint32_t host, struct pcb_err *err)
{
	uint32_t n = sim_cfg_hosts(&d->cfg);

	return pcb_error(err, PCB_E_RANGE, "sim:%s has no host h%u (h0-h%u: "
			 "%s)", d->name, host, n - 1,
			 sim_kind_name(d->cfg.kind));
}

/* Room for n hosts in the per-host arrays, the new ones 0. */
static int host_room(struct simdev *d, uint32_t n)
{
	struct sim_port_counters *hc;
	unsigned k;

	if (n <= d->nhost)
		return 0;
	hc = realloc(d->hc_host, n * sizeof(*hc));
	if (!hc)
		return -1;
	memset(hc + d->nhost, 0, (n - d->nhost) * sizeof(*hc));
	d->hc_host = hc;
	for (k = 0; k < SIMFW_SLOTS; k++) {
		uint32_t (*p)[ALGO_MAX_COUNTERS];
		if (d->pcc_host[k]) {
			p = realloc(d->pcc_host[k], n * sizeof(*p));
			if (!p)
				return -1;
			memset(p + d->nhost, 0, (n - d->nhost) * sizeof(*p));
			d->pcc_host[k] = p;
		}
	}
	d->nhost = n;
	return 0;
}

/* ---- per-host params --------------------------------------------------- */

/* Host h's own params of the fabric's slot into the fabric (none: the
 * register's again), as NAME.hosts has them (firmware.h). */
static int hpar_apply(struct simdev *d, uint32_t h)
{
	uint32_t v[ALGO_MAX_PARAMS] = { 0 };
	struct pcb_err e = { 0 };
	uint64_t own = 0;

	if (!d->sim || d->slot < 0 || !d->ops || h >= sim_hosts(d->sim))
		return 0;
	if (simfw_host_params(d->fw, h, (unsigned)d->slot, v,
			      ALGO_MAX_PARAMS, &own, &e))
		own = 0;	/* unreadable: the register's (said by a
				 * read through the host) */
	return sim_host_params(d->sim, h, own ? v : NULL, own);
}

/* Every host's, after a change of the register or NAME.hosts. */
static int hpar_apply_all(struct simdev *d)
{
	uint32_t h;

	for (h = 0; d->sim && h < sim_hosts(d->sim); h++)
		if (hpar_apply(d, h))
			return -1;
	return 0;
}

static int slot_check(struct simdev *d, uint32_t host, unsigned slot,
		      struct pcb_err *err)
{
	if (host >= sim_cfg_hosts(&d->cfg))
		return no_host(d, host, err);
	if (slot >= SIMFW_SLOTS || !simfw_slot_desc(d->fw, slot))
		return pcb_error(err, PCB_E_RANGE, "sim: slot %u holds no "
				 "algorithm", slot);
	return 0;
}

int simdev_host_param_set(struct simdev *d, uint32_t host, unsigned slot,
			  unsigned idx, uint32_t value, struct pcb_err *err)
{
	const struct algo_desc *desc;
	int rc = slot_check(d, host, slot, err);

	if (rc)
		return rc;
	desc = simfw_slot_desc(d->fw, slot);
	if (idx >= desc->nparams || idx >= ALGO_MAX_PARAMS)
		return pcb_error(err, PCB_E_RANGE, "sim: %s has no param %u "
				 "(0-%zu)", desc->name, idx, desc->nparams - 1);
	rc = simfw_host_set(d->fw, host, slot, idx, value, false, err);
	if (!rc && (int)slot == d->slot && hpar_apply(d, host))
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	if (!rc)
		d->gen = simfw_generation(d->fw);	/* applied */
	return rc;
}

void simdev_host_param_reset(struct simdev *d, uint32_t host, unsigned slot)
{
	struct pcb_err e = { 0 };

	if (slot >= SIMFW_SLOTS || !simfw_slot_desc(d->fw, slot) ||
	    simfw_host_set(d->fw, host, slot, ALGO_MAX_PARAMS, 0, true, &e))
		return;
	if ((int)slot == d->slot)
		hpar_apply(d, host);	/* back to the fabric's: no memory */
}

int simdev_host_params(struct simdev *d, uint32_t host, unsigned slot,
		       uint32_t *vals, size_t max, size_t *n, uint64_t *own,
		       struct pcb_err *err)
{
	uint64_t mine = 0;
	int rc = slot_check(d, host, slot, err);

	*n = 0;
	if (own)
		*own = 0;
	if (rc)
		return rc;
	rc = simfw_params(d->fw, slot, vals, max, n);
	if (rc)
		return pcb_error(err, -rc, "sim: slot %u has no params", slot);
	rc = simfw_host_params(d->fw, host, slot, vals, *n, &mine, err);
	if (own)
		*own = mine;
	return rc;
}

/* The fabric's per-host counters into d->hc_host: it is about to go. */
static void host_fold(struct simdev *d)
{
	struct sim_port_counters c;
	uint32_t h, n = sim_hosts(d->sim);

	if (host_room(d, n))
		return;		/* as hc_fold: lost, best effort */
	for (h = 0; h < n; h++) {
		sim_host_port_counters(d->sim, h, &c);
		hc_add(&d->hc_host[h], &c);
	}
}

int simdev_host_counters_of(struct simdev *d, uint32_t host,
			    struct sim_port_counters *out,
			    struct pcb_err *err)
{
	struct sim_port_counters c;

	memset(out, 0, sizeof(*out));
	if (host >= sim_cfg_hosts(&d->cfg))
		return no_host(d, host, err);
	if (host < d->nhost)
		*out = d->hc_host[host];
	if (d->sim && !sim_host_port_counters(d->sim, host, &c))
		hc_add(out, &c);
	return 0;
}

/* Each host's algorithm counters since the last take into its own
 * copy of the slot's register counters, by apply_one's rules
 * (firmware.c): a sum adds and wraps past its max, a gauge keeps its
 * extreme; 0 is "not touched", as sim_take_counters reads it.  Before
 * sim_take_counters zeroes them.
 */
static void host_pcc_fold(struct simdev *d, const struct algo_desc *desc)
{
	uint32_t h, n = sim_hosts(d->sim), (*p)[ALGO_MAX_COUNTERS];
	unsigned slot = (unsigned)d->slot;
	size_t c, nc = desc->ncounters < ALGO_MAX_COUNTERS ?
		       desc->ncounters : ALGO_MAX_COUNTERS;

	if (!simfw_counters_enabled(d->fw, slot) || host_room(d, n))
		return;
	if (!d->pcc_host[slot]) {
		d->pcc_host[slot] = calloc(d->nhost ? d->nhost : 1,
					   sizeof(*d->pcc_host[slot]));
		if (!d->pcc_host[slot])
			return;
	}
	p = d->pcc_host[slot];
	for (h = 0; h < n; h++) {
		const uint32_t *v = sim_host_algo_counters(d->sim, h);

		for (c = 0; v && c < nc; c++) {
			uint64_t max = desc->counters[c].max;
			uint32_t cur = p[h][c];

			if (!v[c])
				continue;
			if (desc->counters[c].kind == ALGO_CK_SUM)
				p[h][c] = (uint32_t)(((uint64_t)cur + v[c]) %
						     (max + 1));
			else if ((desc->counters[c].kind == ALGO_CK_MAX &&
				  v[c] > cur) ||
				 (desc->counters[c].kind == ALGO_CK_MIN &&
				  (!cur || v[c] < cur)))
				p[h][c] = (uint32_t)(v[c] % (max + 1));
		}
	}
}

int simdev_host_pcc_counters(struct simdev *d, uint32_t host, unsigned slot,
			     uint32_t *vals, size_t n, struct pcb_err *err)
{
	size_t i;

	memset(vals, 0, n * sizeof(*vals));
	if (host >= sim_cfg_hosts(&d->cfg))
		return no_host(d, host, err);
	if (slot >= SIMFW_SLOTS)
		return pcb_error(err, PCB_E_RANGE, "sim: no slot %u (0-%d)",
				 slot, SIMFW_SLOTS - 1);
	for (i = 0; i < n && i < ALGO_MAX_COUNTERS; i++)
		vals[i] = host < d->nhost && d->pcc_host[slot] ?
			  d->pcc_host[slot][host][i] : 0;
	return 0;
}

void simdev_host_pcc_clear(struct simdev *d, uint32_t host, unsigned slot)
{
	if (slot < SIMFW_SLOTS && host < d->nhost && d->pcc_host[slot])
		memset(d->pcc_host[slot][host], 0,
		       sizeof(d->pcc_host[slot][host]));
}

size_t simdev_host_rto_values(struct simdev *d, uint32_t host,
			      int64_t *vals, size_t max)
{
	const int64_t *v;
	const uint32_t *h;
	size_t i, n, k = 0;

	if (!d->sim)
		return 0;
	n = sim_rto_values(d->sim, &v);
	sim_rto_hosts(d->sim, &h);
	for (i = 0; i < n; i++) {
		if (h[i] != host)
			continue;
		if (k < max)
			vals[k] = v[i];
		k++;
	}
	return k;
}

const char *simdev_host_role(struct simdev *d, uint32_t host)
{
	return sim_cfg_role(&d->cfg, host);
}

int simdev_roles(struct simdev *d, char *buf, size_t len,
		 struct pcb_err *err)
{
	if (sim_cfg_roles(&d->cfg, buf, len) + 1 >= len)
		return pcb_error(err, PCB_E_RANGE, "sim: the hosts' roles are "
				 "longer than %zu bytes", len);
	return 0;
}

/* Add the fabric's host counters to the file's; the fabric is about to
 * go.  Best effort: a fabric that cannot be kept is lost, as the traffic
 * of a NIC that lost power.
 */
static void hc_fold(struct simdev *d)
{
	struct sim_port_counters c;
	uint64_t v[HC_N], w[HC_N];
	const char *path;
	char *text = NULL;
	struct pcb_err err = { 0 };
	size_t len = 0, i;
	int fd;
	FILE *fp;

	if (!d->sim)
		return;
	host_fold(d);
	sim_port_counters(d->sim, &c);
	memcpy(w, &c, sizeof(w));
	for (i = 0; i < HC_N && !w[i]; i++)
		;
	if (i == HC_N || !(path = hc_path(d, &err)))
		return;		/* nothing counted */
	fd = open(simfw_path(d->fw), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	flock(fd, LOCK_EX);
	if (!hc_load(d, v, &err) && (fp = open_memstream(&text, &len))) {
		fprintf(fp, "hostctr %zu", HC_N);
		for (i = 0; i < HC_N; i++)
			fprintf(fp, " %" PRIu64, v[i] + w[i]);
		fputc('\n', fp);
		if (!fclose(fp) && !pcb_crc_seal(&text, &len))
			pcb_write_file(path, text, len, PCB_MODE_STATE, &err);
		free(text);
	}
	flock(fd, LOCK_UN);
	close(fd);
}

int simdev_host_counters(struct simdev *d, struct sim_port_counters *out,
			 struct pcb_err *err)
{
	struct sim_port_counters c;
	uint64_t v[HC_N], w[HC_N];
	size_t i;
	int rc = hc_load(d, v, err);

	if (rc)
		return rc;
	memset(w, 0, sizeof(w));
	if (d->sim) {
		sim_port_counters(d->sim, &c);
		memcpy(w, &c, sizeof(w));
	}
	for (i = 0; i < HC_N; i++)
		w[i] += v[i];
	memcpy(out, w, sizeof(w));
	return 0;
}

int simdev_nics(struct simdev *d, uint32_t *n, struct pcb_err *err)
{
	struct sim *sim;
	int rc = simdev_sim(d, &sim, err);

	*n = rc ? 0 : sim->nhosts;
	return rc;
}

void simdev_close(struct simdev *d)
{
	unsigned k;

	if (!d)
		return;
	diag_sync(d, true);
	hc_fold(d);
	sim_free(d->sim);
	retx_dev_close(d->retx);
	sim_retx_close(d->retx_file);
	diag_dev_close(d->diag);
	sim_diag_close(d->diag_file);
	free(d->hc_host);
	for (k = 0; k < SIMFW_SLOTS; k++)
		free(d->pcc_host[k]);
	free(d->name);
	free(d->hc_file);
	free(d);
}

void simdev_reset(struct simdev *d)
{
	diag_sync(d, true);
	hc_fold(d);
	sim_free(d->sim);
	d->sim = NULL;
	d->rto_seen = 0;
	memset(d->diag_last, 0, sizeof(d->diag_last));
	d->diag_t = 0;
	d->diag_due = DIAG_DUE_UNKNOWN;
}

/* Port counters as the diag sampler's sources. */
static void diag_sources_of(const struct sim_port_counters *cp,
			    uint64_t v[DS_COUNT])
{
	const struct sim_port_counters c = *cp;
	int p;

	v[DS_RX_BYTES] = c.rx_bytes;
	v[DS_RX_PKTS] = c.rx_pkts;
	v[DS_TX_BYTES] = c.tx_bytes;
	v[DS_TX_PKTS] = c.tx_pkts;
	for (p = 0; p < 8; p++) {
		v[DS_RX_BYTES_P0 + p] = c.rx_bytes_prio[p];
		v[DS_RX_PKTS_P0 + p] = c.rx_pkts_prio[p];
		v[DS_TX_BYTES_P0 + p] = c.tx_bytes_prio[p];
		v[DS_TX_PKTS_P0 + p] = c.tx_pkts_prio[p];
		v[DS_PAUSE_RX_P0 + p] = c.pause_rx_prio[p];
		v[DS_PAUSE_TX_P0 + p] = c.pause_tx_prio[p];
	}
	v[DS_ECN] = c.ecn_marked;
	v[DS_CNP_HANDLED] = c.cnp_handled;
	v[DS_CNP_SENT] = c.cnp_sent;
	v[DS_DESCHED] = c.qp_desched;
	v[DS_RX_CQE] = c.rx_cqe;
	v[DS_TX_CQE] = c.tx_cqe;
}

/* The sim's port counters as the diag sampler's sources. */
void simdev_diag_sources(const struct sim *s, uint64_t v[DS_COUNT])
{
	struct sim_port_counters c;

	sim_port_counters(s, &c);
	diag_sources_of(&c, v);
}

void simdev_host_diag_sources(const struct sim *s, uint32_t host,
			      uint64_t v[DS_COUNT])
{
	struct sim_port_counters c;

	sim_host_port_counters(s, host, &c);	/* all 0 for no such host */
	diag_sources_of(&c, v);
}

/* Feed the diag sampler when a sample is due, every 100 us of simulated
 * time (a sampler another process started shows within that), and when
 * the fabric goes (force); in between the growth waits here.
 */
static void diag_sync(struct simdev *d, bool force)
{
	uint64_t now[DS_COUNT], delta[DS_COUNT];
	int64_t t, pending, due;
	size_t i;

	if (!d->sim)
		return;
	t = sim_now(d->sim);
	pending = t - d->diag_t;
	if (d->diag_due == DIAG_DUE_UNKNOWN) {
		due = sim_diag_until_due(d->diag_file);
		d->diag_due = due < 0 ? -1 : due * PS_PER_NS + pending;
	}
	if (!force && pending < SYNC_PS &&
	    (d->diag_due < 0 || pending < d->diag_due))
		return;
	simdev_diag_sources(d->sim, now);
	for (i = 0; i < DS_COUNT; i++)
		delta[i] = now[i] - d->diag_last[i];
	memcpy(d->diag_last, now, sizeof(now));
	due = sim_diag_feed(d->diag_file, pending / PS_PER_NS, delta);
	d->diag_t = t - pending % PS_PER_NS;
	d->diag_due = due < 0 ? -1 : due * PS_PER_NS + (t - d->diag_t);
}

/* The next step: 100 us, or less when a diag sample is due sooner. */
static int64_t next_step(struct simdev *d, int64_t left)
{
	int64_t step = left < SYNC_PS ? left : SYNC_PS;
	int64_t due = d->diag_due;

	if (d->sim && due > 0) {
		due -= sim_now(d->sim) - d->diag_t;
		if (due > 0 && due < step)
			step = due;
	}
	return step;
}

/* The "k v" pairs of c that differ from its kind's defaults and that
 * argv (the keys given now) does not set, into buf: what a scenario kept
 * from before.  Both as sim_cfg_format says them.
 */
static void kept_keys(const struct sim_cfg *c, int argc, char **argv,
		      char *buf, size_t len)
{
	char now[1024], def[1024], *w[SIM_MAX_WORDS], *dw[SIM_MAX_WORDS];
	char *sp, *save;
	struct sim_cfg d;
	int n = 0, nd = 0, i, j, a;

	*buf = '\0';
	kind_default(&d, c->kind);
	sim_cfg_format(c, now, sizeof(now));
	sim_cfg_format(&d, def, sizeof(def));
	for (sp = strtok_r(now, " ", &save); sp && n < SIM_MAX_WORDS;
	     sp = strtok_r(NULL, " ", &save))
		w[n++] = sp;
	for (sp = strtok_r(def, " ", &save); sp && nd < SIM_MAX_WORDS;
	     sp = strtok_r(NULL, " ", &save))
		dw[nd++] = sp;
	for (i = 1; i + 1 < n; i += 2) {	/* after the kind */
		for (a = 0; a < argc && strcmp(argv[a], w[i]); a += 2)
			;
		if (a < argc)
			continue;		/* given now */
		for (j = 1; j + 1 < nd && strcmp(dw[j], w[i]); j += 2)
			;
		if (j + 1 < nd && !strcmp(dw[j + 1], w[i + 1]))
			continue;		/* as its default */
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s %s",
			 *buf ? " " : "", w[i], w[i + 1]);
	}
}

int simdev_scenario(struct simdev *d, const char *kind, int argc,
		    char **argv, char *kept, size_t klen,
		    struct pcb_err *err)
{
	struct sim_cfg c, base;
	enum sim_kind k;
	int rc;

	*kept = '\0';
	if (!strcmp(kind, "reset") && !argc) {
		sim_cfg_default(&c);
		rc = 0;
	} else if (!sim_kind_parse(kind, &k)) {
		/* the current kind: its keys change, the rest stays (said);
		 * another kind, or "fresh", starts from its defaults */
		bool fresh = argc && !strcmp(argv[0], "fresh");

		if (fresh) {
			argc--;
			argv++;
		}
		if (k == d->cfg.kind && !fresh)
			base = d->cfg;
		else
			kind_default(&base, k);
		rc = set_pairs(&c, &base, argc, argv, err);
		if (!rc)
			kept_keys(&c, argc, argv, kept, klen);
	} else {	/* keys alone: onto the current scenario */
		char *w[SIM_MAX_WORDS];

		if (argc + 1 > SIM_MAX_WORDS)
			return pcb_error(err, PCB_E_USAGE, "sim: too many "
					 "words");
		w[0] = (char *)kind;
		memcpy(w + 1, argv, (size_t)argc * sizeof(*argv));
		rc = set_pairs(&c, &d->cfg, argc + 1, w, err);
		if (rc == -PCB_E_INVAL && !strchr(kind, ' ')) {
			char m[sizeof(err->msg)];

			snprintf(m, sizeof(m), "%s", err->msg);
			pcb_err_reset(err);
			rc = pcb_error(err, PCB_E_INVAL, "%s (or a scenario: "
				       "%s; 'reset' for the default)", m,
				       sim_kind_list());
		}
	}
	if (rc)
		return rc;
	d->cfg = c;
	simdev_reset(d);
	return save(d, err);
}

int simdev_model(struct simdev *d, const struct algo_ops *ops,
		 const char *key, const char *value, struct pcb_err *err)
{
	int a = algo_index(ops), rc;

	if (a < 0)
		return pcb_error(err, PCB_E_NOENT, "sim: no model '%s'",
				 ops ? ops->name : "?");
	rc = algo_set_opt(d->opts[a], ops, key, value, err);
	if (rc)
		return rc;
	simdev_reset(d);
	return save(d, err);
}

/* Bind the device's active algorithm and build the fabric. */
int simdev_sim(struct simdev *d, struct sim **out, struct pcb_err *err)
{
	struct sim_algo a;
	size_t n;
	int rc;

	if (d->sim) {
		*out = d->sim;
		return 0;
	}
	memset(&a, 0, sizeof(a));
	d->slot = simfw_active_slot(d->fw);
	d->ops = NULL;
	snprintf(d->algo_label, sizeof(d->algo_label),
		 "none (no slot enabled: line rate)");
	if (d->slot >= 0) {
		a.desc = simfw_slot_desc(d->fw, (unsigned)d->slot);
		a.ops = a.desc ? algo_find(a.desc->name) : NULL;
	}
	if (a.ops) {
		algo_conf_init(&a.conf, a.ops, a.desc);
		if (simdev_opts(d, a.ops))
			memcpy(a.conf.opts, simdev_opts(d, a.ops),
			       sizeof(a.conf.opts));
		simfw_params(d->fw, (unsigned)d->slot, a.conf.params,
			     ALGO_MAX_PARAMS, &n);
		a.counters_on = simfw_counters_enabled(d->fw,
						       (unsigned)d->slot);
		d->ops = a.ops;
		snprintf(d->algo_label, sizeof(d->algo_label), "%s, slot %d",
			 a.ops->label, d->slot);
	}
	d->gen = simfw_generation(d->fw);
	rc = sim_create(&d->sim, &d->cfg, &a, err);
	/* the NICs with params of their own (NAME.hosts) */
	if (!rc && a.ops && hpar_apply_all(d))
		rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
	if (rc) {
		sim_free(d->sim);
		d->sim = NULL;
		return rc;
	}
	*out = d->sim;
	return 0;
}

/* Counters into the firmware; parameter changes into the fabric. */
static void simdev_sync(struct simdev *d)
{
	uint32_t delta[ALGO_MAX_COUNTERS], params[ALGO_MAX_PARAMS];
	bool touched[ALGO_MAX_COUNTERS], any = false;
	enum algo_ckind kinds[ALGO_MAX_COUNTERS];
	const struct algo_desc *desc;
	uint32_t g;
	const int64_t *rto;
	size_t i, n = sim_rto_values(d->sim, &rto);

	if (n > d->rto_seen)
		sim_retx_record(d->retx_file, rto + d->rto_seen,
				n - d->rto_seen);
	d->rto_seen = n;
	diag_sync(d, false);
	if (d->slot < 0 || !d->ops)
		return;
	desc = simfw_slot_desc(d->fw, (unsigned)d->slot);
	host_pcc_fold(d, desc);
	sim_take_counters(d->sim, delta, touched, desc->ncounters);
	for (i = 0; i < desc->ncounters && i < ALGO_MAX_COUNTERS; i++) {
		kinds[i] = desc->counters[i].kind;
		any |= touched[i];
	}
	if (any)
		simfw_counters_apply(d->fw, (unsigned)d->slot, delta, touched,
				     kinds, i);
	g = simfw_generation(d->fw);
	if (g != d->gen) {
		d->gen = g;
		simfw_params(d->fw, (unsigned)d->slot, params,
			     ALGO_MAX_PARAMS, &n);
		sim_set_params(d->sim, params, n);
		hpar_apply_all(d);	/* NAME.hosts may have changed */
	}
}

/* One step of a run: one thread's, or two (par). */
static int run_step(struct sim *s, int64_t step, bool fresh, bool par,
		    volatile sig_atomic_t *stop, struct pcb_err *err)
{
	if (par)
		return sim_run_par(s, step, fresh, stop, err);
	return fresh ? sim_run(s, step, stop) : sim_run_more(s, step, stop);
}

static int run(struct simdev *d, int64_t dur_ps, bool fresh, bool par,
	       volatile sig_atomic_t *stop, struct pcb_err *err)
{
	struct sim *s;
	int64_t left = dur_ps, step;
	int rc = simdev_sim(d, &s, err);

	if (!rc)
		rc = par ? sim_par_check(s, err) : sim_par_done(s, err);
	if (rc)
		return rc;
	/* one statistics window for the whole run (or record) */
	step = next_step(d, left);
	rc = run_step(s, step, fresh, par, stop, err);
	left -= step;
	simdev_sync(d);
	while (!rc && left > 0) {
		if (d->progress)
			d->progress(d->progress_ctx, dur_ps - left, dur_ps);
		step = next_step(d, left);
		rc = run_step(s, step, false, par, stop, err);
		left -= step;
		simdev_sync(d);
	}
	if (par)
		sim_par_finish(s);
	if (rc == -PCB_E_INTR)
		return pcb_error(err, PCB_E_INTR, "sim: interrupted at "
				 "t = %.3f ms", sim_now(s) / 1e9);
	if (rc == -PCB_E_DEVICE)	/* the watchdog's */
		return sim_stall(s, err) ? -PCB_E_DEVICE :
		       pcb_error(err, PCB_E_DEVICE, "sim: the fabric stopped");
	return rc;
}

int simdev_run(struct simdev *d, int64_t dur_ps,
	       volatile sig_atomic_t *stop, struct pcb_err *err)
{
	return run(d, dur_ps, true, false, stop, err);
}

int simdev_run_par(struct simdev *d, int64_t dur_ps,
		   volatile sig_atomic_t *stop, struct pcb_err *err)
{
	return run(d, dur_ps, true, true, stop, err);
}

int simdev_run_more(struct simdev *d, int64_t dur_ps,
		    volatile sig_atomic_t *stop, struct pcb_err *err)
{
	return run(d, dur_ps, false, false, stop, err);
}
