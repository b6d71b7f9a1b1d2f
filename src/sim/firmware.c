/* firmware.c - PPCC semantics of the simulated device, over its state file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adb.h"
#include "algo.h"
#include "firmware.h"
#include "fsafe.h"
#include "paths.h"
#include "ppcc.h"

#define SIMFW_MAGIC "PCCBSIM"
#define SIMFW_VERSION 3	/* 2: config_crc; 3: SLs per slot */

struct simfw_slot {
	uint32_t algo_info;	/* id[31:16] major[15:8] minor[7:0]; 0 empty */
	uint32_t enabled;	/* on some SL: sl_bitmask != 0 */
	uint32_t counter_en;
	uint32_t trace_en;
	uint32_t sl_bitmask;	/* the SLs it runs on */
	uint32_t nparams;
	uint32_t ncounters;
	uint32_t debug;
	uint32_t params[SIMFW_PARAMS];
	uint32_t counters[SIMFW_COUNTERS];
};

struct simfw_file {
	char magic[8];
	uint32_t version;
	uint32_t size;		/* sizeof(struct simfw_file) */
	uint64_t layout_hash;	/* of the descriptors the file was made for */
	uint32_t generation;
	uint32_t port;
	uint32_t speed_gbps;
	uint32_t config_crc;	/* of the port and every slot but counters */
	uint32_t changing;	/* a SET is under way (crc not yet updated) */
	uint32_t sl_model;	/* enum simfw_sl_model; 0 in older files */
	uint32_t reserved[4];	/* header is 64 bytes */
	struct simfw_slot slots[SIMFW_SLOTS];
};

_Static_assert(sizeof(struct simfw_slot) == 544, "slot layout");
_Static_assert(offsetof(struct simfw_file, slots) == 64, "header layout");

/* What each slot holds: descriptor name and build. */
static const struct {
	const char *algo;
	bool debug;
	bool enabled;
} simfw_slot_map[] = {
	{ "ztr_rtt", false, true },
	{ "ztr_rtt", true, false },
	{ "dcqcn", true, false },
	{ "rtt_template", true, false },
};
#define SIMFW_USED (sizeof(simfw_slot_map) / sizeof(simfw_slot_map[0]))

struct simfw {
	int fd;
	char *path;
	struct simfw_file *st;
	struct algo_desc *desc[SIMFW_USED];	/* unique per slot */
	struct adb_reg *layout;
	const struct adb_field *f[PF_COUNT];
	uint64_t hash;
	/* host NICs' own params (NAME.hosts, "host NICs' own params"
	 * below): as last read, at generation hov_gen */
	int host;		/* whose register this handle answers as:
				 * host N's NIC, or -1 the shared one */
	char *hpath;
	struct simfw_hov {
		uint32_t host, slot, idx, value;
	} *hov;
	size_t nhov;
	uint32_t hov_gen;
	bool hov_read;
};

struct sim_dev {
	struct reg_dev base;
	struct simfw *fw;
};

bool simfw_name_valid(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n > 64 || name[0] == '.')
		return false;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      c == '.'))
			return false;
	}
	return true;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

/* Hash of everything in the descriptors the state depends on. */
static uint64_t desc_hash(struct simfw *fw)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t s, i;

	for (s = 0; s < SIMFW_USED; s++) {
		const struct algo_desc *d = fw->desc[s];

		h = fnv(h, d->name, strlen(d->name));
		h = fnv(h, &d->id, sizeof(d->id));
		h = fnv(h, &d->major, 1);
		h = fnv(h, &d->minor, 1);
		for (i = 0; i < d->nparams; i++) {
			const struct algo_param_desc *p = &d->params[i];

			h = fnv(h, p->name, strlen(p->name));
			h = fnv(h, &p->min, 4);
			h = fnv(h, &p->max, 4);
			h = fnv(h, &p->def, 4);
			h = fnv(h, &p->debug_only, 1);
		}
		for (i = 0; i < d->ncounters; i++) {
			h = fnv(h, d->counters[i].name,
				strlen(d->counters[i].name));
			h = fnv(h, &d->counters[i].max, 4);
		}
	}
	return h;
}

static uint32_t algo_info_of(const struct algo_desc *d)
{
	return d->id << 16 | (uint32_t)d->major << 8 | d->minor;
}

static enum algo_perm param_perm(const struct simfw_slot *s,
				 const struct algo_param_desc *p)
{
	return p->debug_only && !s->debug ? ALGO_PERM_RO : p->perm;
}

/* CRC-32 of what only a PPCC write changes: the port and each slot up
 * to its counters (which the simulation updates all the time).  A bit
 * flip in a param is found when the file is next opened.
 */
static uint32_t config_crc(const struct simfw_file *st)
{
	uint32_t c = pcb_crc32(0, &st->port, 2 * sizeof(uint32_t));
	size_t s;

	for (s = 0; s < SIMFW_SLOTS; s++)
		c = pcb_crc32(c, &st->slots[s],
			      offsetof(struct simfw_slot, counters));
	return c;
}

/* The SLs the port has (SIMFW_SL_8: 0-7). */
static uint32_t sl_valid(const struct simfw_file *st)
{
	return st->sl_model == SIMFW_SL_8 ? 0xffu : SIMFW_ALL_SLS;
}

/* Fresh device: every slot at its descriptor's defaults. */
static void simfw_init_state(struct simfw *fw, struct simfw_file *st)
{
	size_t s, i;

	memset(st, 0, sizeof(*st));
	memcpy(st->magic, SIMFW_MAGIC, sizeof(SIMFW_MAGIC));
	st->version = SIMFW_VERSION;
	st->size = sizeof(*st);
	st->layout_hash = fw->hash;
	st->port = SIMFW_PORT;
	st->speed_gbps = SIMFW_SPEED_GBPS;
	for (s = 0; s < SIMFW_USED; s++) {
		const struct algo_desc *d = fw->desc[s];
		struct simfw_slot *sl = &st->slots[s];

		sl->algo_info = algo_info_of(d);
		sl->enabled = simfw_slot_map[s].enabled;
		sl->debug = simfw_slot_map[s].debug;
		sl->sl_bitmask = sl->enabled ? SIMFW_ALL_SLS : 0;
		sl->nparams = (uint32_t)d->nparams;
		sl->ncounters = sl->debug ? (uint32_t)d->ncounters : 0;
		for (i = 0; i < d->nparams; i++)
			sl->params[i] = d->params[i].def;
	}
	st->config_crc = config_crc(st);
}

/* Refuse anything the firmware could not have written. */
static int simfw_validate(struct simfw *fw, struct pcb_err *err)
{
	const struct simfw_file *st = fw->st;
	unsigned s, i, holders = 0;

	if (memcmp(st->magic, SIMFW_MAGIC, sizeof(SIMFW_MAGIC)))
		return pcb_error(err, PCB_E_CORRUPT,
				 "'%s' is not a pccbench sim device file",
				 fw->path);
	if (st->version != SIMFW_VERSION || st->size != sizeof(*st))
		return pcb_error(err, PCB_E_CORRUPT,
				 "'%s' has format version %u, this pccbench "
				 "uses %u; remove the file to start afresh",
				 fw->path, st->version, SIMFW_VERSION);
	if (st->layout_hash != fw->hash)
		return pcb_error(err, PCB_E_CORRUPT,
				 "'%s' was made for other algorithm "
				 "descriptors; remove the file to start afresh",
				 fw->path);
	for (s = 0; s < sizeof(st->reserved) / sizeof(st->reserved[0]); s++)
		if (st->reserved[s])
			return pcb_error(err, PCB_E_CORRUPT,
					 "'%s': reserved header bytes are set",
					 fw->path);
	if (st->port != SIMFW_PORT || st->speed_gbps != SIMFW_SPEED_GBPS)
		return pcb_error(err, PCB_E_CORRUPT,
				 "'%s': bad port description", fw->path);
	if (st->changing > 1)
		return pcb_error(err, PCB_E_CORRUPT, "'%s': bad change flag",
				 fw->path);
	if (st->sl_model > SIMFW_SL_STALE)
		return pcb_error(err, PCB_E_CORRUPT, "'%s': bad SL model %u",
				 fw->path, st->sl_model);
	/* a process killed in the middle of a SET (we hold the lock, so it
	 * is gone): its write stands as far as it got, as a register write
	 * cut short would; the journal still holds the old values */
	if (st->changing) {
		fw->st->config_crc = config_crc(st);
		__atomic_store_n(&fw->st->changing, 0, __ATOMIC_RELEASE);
	}
	if (st->config_crc != config_crc(st))
		return pcb_error(err, PCB_E_CORRUPT,
				 "'%s': checksum mismatch (the file was "
				 "damaged); remove it to start afresh",
				 fw->path);
	for (s = 0; s < SIMFW_SLOTS; s++) {
		const struct simfw_slot *sl = &st->slots[s];
		const struct algo_desc *d = s < SIMFW_USED ? fw->desc[s] : NULL;

		if (!d) {
			static const struct simfw_slot empty;

			if (memcmp(sl, &empty, sizeof(empty)))
				return pcb_error(err, PCB_E_CORRUPT,
						 "'%s': empty slot %u holds "
						 "data", fw->path, s);
			continue;
		}
		if (sl->algo_info != algo_info_of(d) || sl->enabled > 1 ||
		    sl->counter_en > 1 || sl->trace_en > 1 ||
		    (sl->sl_bitmask & ~sl_valid(st)) ||
		    sl->enabled != (sl->sl_bitmask != 0) ||
		    sl->debug != simfw_slot_map[s].debug ||
		    sl->nparams != d->nparams ||
		    sl->ncounters != (sl->debug ? d->ncounters : 0))
			return pcb_error(err, PCB_E_CORRUPT,
					 "'%s': slot %u is inconsistent",
					 fw->path, s);
		if (sl->counter_en && (!sl->ncounters || !sl->enabled))
			return pcb_error(err, PCB_E_CORRUPT,
					 "'%s': slot %u has counters enabled "
					 "but cannot count", fw->path, s);
		holders += sl->counter_en;
		for (i = 0; i < sl->nparams; i++) {
			const struct algo_param_desc *p = &d->params[i];

			if (sl->params[i] < p->min || sl->params[i] > p->max)
				return pcb_error(err, PCB_E_CORRUPT,
						 "'%s': slot %u param %s = %u "
						 "outside %u..%u", fw->path, s,
						 p->name, sl->params[i],
						 p->min, p->max);
		}
		for (i = sl->nparams; i < SIMFW_PARAMS; i++)
			if (sl->params[i])
				return pcb_error(err, PCB_E_CORRUPT,
						 "'%s': slot %u has data past "
						 "its params", fw->path, s);
		for (i = 0; i < SIMFW_COUNTERS; i++)
			if ((i >= sl->ncounters && sl->counters[i]) ||
			    (i < sl->ncounters &&
			     sl->counters[i] > d->counters[i].max))
				return pcb_error(err, PCB_E_CORRUPT,
						 "'%s': slot %u counter %u is "
						 "impossible", fw->path, s, i);
	}
	if (holders > 1)
		return pcb_error(err, PCB_E_CORRUPT,
				 "'%s': counters enabled on %u slots",
				 fw->path, holders);
	return 0;
}

/* Create the file atomically: a temp file linked into place (fsafe's
 * create).  If another process won the race, its file is used.
 */
static int simfw_create(struct simfw *fw, struct pcb_err *err)
{
	struct simfw_file *st = malloc(sizeof(*st));
	struct pcb_wfile w;
	int rc;

	if (!st)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	simfw_init_state(fw, st);
	rc = pcb_wfile_create(&w, fw->path, PCB_MODE_STATE, err);
	if (!rc && fwrite(st, sizeof(*st), 1, w.fp) != 1) {
		pcb_wfile_abort(&w);
		rc = pcb_error(err, PCB_E_IO, "cannot write '%s'", fw->path);
	} else if (!rc) {
		rc = pcb_wfile_commit(&w, err);
		if (rc == -PCB_E_STATE) {	/* made by another process */
			pcb_err_reset(err);
			rc = 0;
		}
	}
	free(st);
	return rc;
}

static int simfw_load_descs(struct simfw *fw, struct pcb_err *err)
{
	char path[PCB_PATH_LEN];
	struct adb_db *db = NULL;
	size_t s;
	int rc;

	for (s = 0; s < SIMFW_USED; s++) {
		/* slots 0 and 1 both load the ZTR-RTT descriptor */
		rc = algo_desc_load(&fw->desc[s], simfw_slot_map[s].algo, err);
		if (rc)
			return rc;
		/* the model the simulator runs must agree with it */
		rc = algo_check_desc(algo_find(simfw_slot_map[s].algo),
				     fw->desc[s], err);
		if (rc)
			return rc;
	}
	rc = pcb_data_file(path, sizeof(path), "reg/ppcc.adb", err);
	if (rc)
		return rc;
	rc = adb_db_load_file(&db, path, err);
	if (rc)
		return rc;
	rc = adb_reg_load(db, "PPCC", &fw->layout, err);
	adb_db_free(db);
	if (rc)
		return rc;
	return ppcc_layout_check(fw->layout, fw->f, err);
}

void simfw_close(struct simfw *fw)
{
	size_t s;

	if (!fw)
		return;
	if (fw->st)
		munmap(fw->st, sizeof(*fw->st));
	if (fw->fd >= 0)
		close(fw->fd);
	for (s = 0; s < SIMFW_USED; s++)
		algo_desc_free(fw->desc[s]);
	adb_reg_free(fw->layout);
	free(fw->path);
	free(fw->hpath);
	free(fw->hov);
	free(fw);
}

int simfw_open(struct simfw **out, const char *name, struct pcb_err *err)
{
	char dir[PCB_PATH_LEN], path[PCB_PATH_LEN];
	struct simfw *fw;
	struct stat stt;
	void *map;
	int rc;

	if (!simfw_name_valid(name))
		return pcb_error(err, PCB_E_INVAL,
				 "bad sim device name '%s' (letters, digits, "
				 "'_', '-', '.'; at most 64)", name);
	fw = calloc(1, sizeof(*fw));
	if (!fw)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	fw->fd = -1;
	fw->host = -1;
	rc = simfw_load_descs(fw, err);
	if (rc)
		goto err_close;
	fw->hash = desc_hash(fw);
	rc = pcb_user_dir(dir, sizeof(dir), PCB_DIR_STATE, "sim", true, err);
	if (!rc)
		rc = pcb_path(path, sizeof(path), err, "%s/%s.dev", dir, name);
	if (rc)
		goto err_close;
	fw->path = strdup(path);
	if (fw->path)
		rc = pcb_path(dir, sizeof(dir), err, "%.*s.hosts",
			      (int)(strlen(path) - 4), path);
	fw->hpath = fw->path && !rc ? strdup(dir) : NULL;
	if (rc)
		goto err_close;
	if (!fw->hpath) {
		rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
		goto err_close;
	}
	fw->fd = pcb_open_rw(path, 0, 0, err);
	if (fw->fd == -PCB_E_NOENT) {
		pcb_err_reset(err);
		rc = simfw_create(fw, err);
		if (rc)
			goto err_close;
		fw->fd = pcb_open_rw(path, 0, 0, err);
	}
	if (fw->fd < 0) {
		rc = fw->fd;
		fw->fd = -1;
		goto err_close;
	}
	if (fstat(fw->fd, &stt) ||
	    stt.st_size != (off_t)sizeof(struct simfw_file)) {
		rc = pcb_error(err, PCB_E_CORRUPT,
			       "'%s' has the wrong size for a sim device "
			       "file; remove it to start afresh", path);
		goto err_close;
	}
	map = mmap(NULL, sizeof(struct simfw_file), PROT_READ | PROT_WRITE,
		   MAP_SHARED, fw->fd, 0);
	if (map == MAP_FAILED) {
		rc = pcb_error(err, PCB_E_IO, "cannot map '%s': %s", path,
			       strerror(errno));
		goto err_close;
	}
	fw->st = map;
	flock(fw->fd, LOCK_EX);
	rc = simfw_validate(fw, err);
	flock(fw->fd, LOCK_UN);
	if (rc)
		goto err_close;
	*out = fw;
	return 0;
err_close:
	simfw_close(fw);
	return rc;
}

const char *simfw_path(const struct simfw *fw)
{
	return fw->path;
}

uint32_t simfw_generation(struct simfw *fw)
{
	return __atomic_load_n(&fw->st->generation, __ATOMIC_ACQUIRE);
}

static void changed(struct simfw *fw)
{
	fw->st->config_crc = config_crc(fw->st);
	__atomic_add_fetch(&fw->st->generation, 1, __ATOMIC_RELEASE);
}

/* Put "NAME, description" into text[] and text_length. */
static void put_text(struct simfw *fw, uint8_t *buf, const char *a,
		     const char *b)
{
	char text[PPCC_TEXT_DWORDS * 4];
	uint8_t *t = buf + fw->f[PF_TEXT0]->offset / 8;
	int n = snprintf(text, sizeof(text), "%s%s%s", a, b ? ", " : "",
			 b ? b : "");

	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(text))
		n = sizeof(text) - 1;
	memset(t, 0, PPCC_TEXT_DWORDS * 4);
	memcpy(t, text, (size_t)n);
	adb_set(fw->f[PF_TEXT_LEN], buf, (uint32_t)n);
}

static void set_param(struct simfw_slot *sl, const struct algo_desc *d,
		      unsigned idx, uint32_t v, bool *did)
{
	const struct algo_param_desc *p = &d->params[idx];

	/* firmware: silently ignore out-of-range and read-only sets */
	if (param_perm(sl, p) != ALGO_PERM_RW || v < p->min || v > p->max)
		return;
	if (sl->params[idx] != v) {
		sl->params[idx] = v;
		*did = true;
	}
}

/* Long by design: one case per PPCC cmd_type (the register's command
 * set, spec ppcc-mstreg-fwctl.md), each a few lines against the slot
 * state; the switch reads as the register's table does.
 */
/* The PPCC command itself, with the file locked.  Returns a status. */
/* ENABLE on the SLs of the mask; the counters of one slot at a time.
 * Whether anything changed.
 */
static bool slot_enable(struct simfw *fw, struct simfw_slot *sl,
			uint32_t sls, uint32_t counter_en, uint32_t trace_en)
{
	bool did = false;
	unsigned i;

	if (!sls)	/* only SLs the port does not have */
		return false;
	if ((sl->sl_bitmask | sls) != sl->sl_bitmask)
		did = true;
	sl->sl_bitmask |= sls;
	sl->enabled = 1;
	if (counter_en && sl->ncounters && !sl->counter_en) {
		for (i = 0; i < SIMFW_SLOTS; i++)
			fw->st->slots[i].counter_en = 0;
		sl->counter_en = 1;
		did = true;
	} else if (!counter_en && sl->counter_en) {	/* as asked: off */
		sl->counter_en = 0;
		did = true;
	}
	if (sl->trace_en != trace_en) {
		sl->trace_en = !sl->trace_en;
		did = true;
	}
	return did;
}

/* The slot's counters into the reply, cleared after when asked. */
static bool read_counters(const struct adb_field *const *f, uint8_t *buf,
			  struct simfw_slot *sl, bool clear)
{
	bool did = false;
	unsigned i;

	for (i = 0; i < sl->ncounters; i++) {
		ppcc_set_text(f[PF_TEXT0], buf, i, sl->counters[i]);
		if (clear && sl->counters[i]) {
			sl->counters[i] = 0;
			did = true;
		}
	}
	adb_set(f[PF_TEXT_LEN], buf, sl->ncounters * 4);
	return did;
}

/* One PPCC access: a case per command (the PRM's table of cmd_type),
 * kept as one switch on purpose (about 125 lines) so it reads as that
 * table; what a case does beyond a field or two is a function above.
 */
static uint32_t simfw_ppcc(struct simfw *fw, enum reg_method m, uint8_t *buf)
{
	const struct adb_field *const *f = fw->f;
	uint32_t cmd = adb_get(f[PF_CMD], buf);
	uint32_t slot = adb_get(f[PF_SLOT], buf);
	uint32_t idx = adb_get(f[PF_INDEX], buf);
	uint32_t port = adb_get(f[PF_PORT], buf) |
			adb_get(f[PF_LP_MSB], buf) << 8;
	struct simfw_slot *sl = &fw->st->slots[slot];
	const struct algo_desc *d = slot < SIMFW_USED ? fw->desc[slot] : NULL;
	/* a mask naming no SL (seed 004's writes: none in --set) is every
	 * SL, on a set as on a query */
	uint32_t sls = adb_get(f[PF_SL_MASK], buf) & SIMFW_ALL_SLS;
	bool did = false;
	unsigned i, n;

	if (port != SIMFW_PORT || adb_get(f[PF_PNAT], buf) > 1)
		return REG_STATUS_BAD_PARAM;
	/* commands other than 0x0 and 0x10 need a present algorithm */
	if (cmd != PPCC_ALGO_INFO && cmd != PPCC_ALGO_INFO_ARRAY && !d)
		return REG_STATUS_BAD_PARAM;
	if (!sls || fw->st->sl_model >= SIMFW_SL_NONE)
		sls = SIMFW_ALL_SLS;
	sls &= sl_valid(fw->st);
	adb_set(f[PF_SL_SUPPORT], buf, fw->st->sl_model != SIMFW_SL_NONE);
	switch (cmd) {
	case PPCC_ALGO_INFO:
		adb_set(f[PF_VALUE], buf, d ? sl->algo_info : 0);
		if (d)
			put_text(fw, buf, sl->debug ? d->debug_info : d->info,
				 NULL);
		else
			adb_set(f[PF_TEXT_LEN], buf, 0);
		break;
	case PPCC_ENABLE:
		if (m == REG_SET)
			did = slot_enable(fw, sl, sls,
					  adb_get(f[PF_COUNTER_EN], buf),
					  adb_get(f[PF_TRACE_EN], buf));
		break;
	case PPCC_DISABLE:
		/* off on the SLs of the mask; counters go with the last */
		if (m == REG_SET && (sl->sl_bitmask & sls)) {
			sl->sl_bitmask &= ~sls;
			sl->enabled = sl->sl_bitmask != 0;
			if (!sl->enabled)
				sl->counter_en = 0;
			did = true;
		}
		break;
	case PPCC_ENABLE_STATUS:
		/* the SLs it runs on, of those asked */
		n = sl->sl_bitmask & sls;
		adb_set(f[PF_VALUE], buf, n != 0);
		adb_set(f[PF_COUNTER_EN], buf, sl->counter_en);
		adb_set(f[PF_TRACE_EN], buf, sl->trace_en);
		/* a firmware without per-SL state says nothing there */
		adb_set(f[PF_SL_MASK], buf, fw->st->sl_model >= SIMFW_SL_NONE ?
			0 : n);
		break;
	case PPCC_NUM_PARAMS:
		adb_set(f[PF_VALUE], buf, sl->nparams);
		break;
	case PPCC_PARAM_INFO:
		if (idx >= sl->nparams)
			return REG_STATUS_BAD_PARAM;
		adb_set(f[PF_PV1], buf, d->params[idx].def);
		adb_set(f[PF_PV2], buf, d->params[idx].min);
		adb_set(f[PF_PV3], buf, d->params[idx].max);
		adb_set(f[PF_PRM], buf, param_perm(sl, &d->params[idx]));
		put_text(fw, buf, d->params[idx].name, d->params[idx].descr);
		break;
	case PPCC_PARAM_GET:
	case PPCC_PARAM_GET_CLEAR:	/* params are RW: nothing to clear */
		if (idx >= sl->nparams)
			return REG_STATUS_BAD_PARAM;
		adb_set(f[PF_VALUE], buf, sl->params[idx]);
		break;
	case PPCC_PARAM_SET:
		if (idx >= sl->nparams)
			return REG_STATUS_BAD_PARAM;
		if (m == REG_SET)
			set_param(sl, d, idx, adb_get(f[PF_VALUE], buf), &did);
		else	/* mstreg's read-modify-write reads first */
			adb_set(f[PF_VALUE], buf, sl->params[idx]);
		break;
	case PPCC_BULK_GET:
		if (m == REG_SET)
			return REG_STATUS_BAD_PARAM;
		for (i = 0; i < sl->nparams; i++)
			ppcc_set_text(f[PF_TEXT0], buf, i, sl->params[i]);
		adb_set(f[PF_TEXT_LEN], buf, sl->nparams * 4);
		break;
	case PPCC_BULK_SET:
		if (m == REG_GET)
			return REG_STATUS_BAD_PARAM;
		n = adb_get(f[PF_TEXT_LEN], buf) / 4;
		if (n > sl->nparams)
			n = sl->nparams;
		for (i = 0; i < n; i++)
			set_param(sl, d, i, ppcc_text(f[PF_TEXT0], buf, i),
				  &did);
		break;
	case PPCC_BULK_COUNTERS:
	case PPCC_BULK_COUNTERS_CLEAR:
		/* the register database marks a set reserved, yet seed 004
		 * queries and resets the counters with --set "cmd_type=12"
		 * and "13": a set is answered as the query */
		if (!sl->counter_en || !sl->enabled)
			return REG_STATUS_NO_RESOURCE;
		did = read_counters(f, buf, sl, cmd == PPCC_BULK_COUNTERS_CLEAR);
		break;
	case PPCC_NUM_COUNTERS:
		adb_set(f[PF_VALUE], buf, sl->ncounters);
		break;
	case PPCC_COUNTER_INFO:
		if (idx >= sl->ncounters)
			return REG_STATUS_BAD_PARAM;
		adb_set(f[PF_PV3], buf, d->counters[idx].max);
		adb_set(f[PF_PRM], buf, d->counters[idx].perm);
		put_text(fw, buf, d->counters[idx].name,
			 d->counters[idx].descr);
		break;
	case PPCC_ALGO_INFO_ARRAY:
		for (i = 0; i < SIMFW_SLOTS; i++)
			ppcc_set_text(f[PF_TEXT0], buf, i,
				      fw->st->slots[i].algo_info);
		adb_set(f[PF_TEXT_LEN], buf, SIMFW_SLOTS * 4);
		break;
	default:
		return REG_STATUS_BAD_PARAM;
	}
	if (did)
		changed(fw);
	return 0;
}

/* ---- host NICs' own params -------------------------------------------
 *
 * sim:NAME/hN's register is host N's NIC's: its params are the shared
 * register's (the fleet's, sim:NAME's) but where that NIC has a value of
 * its own, set through it.  They are kept in NAME.hosts beside the
 * device file, one line a value ("h0 slot 1 param 13 value 104858"),
 * sealed with a CRC, replaced whole (a temp file renamed into place)
 * under the device file's lock, whose generation then counts up: every
 * process reads it again when the generation moved.
 */

#define SIMFW_HOSTS_MAX (1u << 20)	/* bytes: a sane NAME.hosts */

/* Read NAME.hosts again if another write may have changed it.  Under
 * the file lock. */
static int hov_sync(struct simfw *fw, struct pcb_err *err)
{
	uint32_t g = simfw_generation(fw);
	struct simfw_hov *v = NULL, *nv, e;
	char *text = NULL, *line, *save = NULL, tail;
	size_t len = 0, n = 0;
	int rc;

	if (fw->hov_read && g == fw->hov_gen)
		return 0;
	rc = pcb_read_file(fw->hpath, SIMFW_HOSTS_MAX, &text, &len, err);
	if (rc == -PCB_E_NOENT) {	/* none has params of its own */
		pcb_err_reset(err);
		rc = 0;
		len = 0;
	} else if (!rc && (!pcb_crc_check(text, &len) ||
			   strncmp(text, "pccbench sim hosts 1\n", 21))) {
		rc = pcb_error(err, PCB_E_CORRUPT, "'%s' is damaged; remove "
			       "it to drop every host NIC's own params",
			       fw->hpath);
	}
	if (rc) {
		free(text);
		return rc;
	}
	if (text)
		text[len] = '\0';
	for (line = text ? strtok_r(text + 21, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "h%u slot %u param %u value %u%c", &e.host,
			   &e.slot, &e.idx, &e.value, &tail) != 4 ||
		    e.slot >= SIMFW_USED || !fw->desc[e.slot] ||
		    e.idx >= fw->desc[e.slot]->nparams ||
		    e.idx >= ALGO_MAX_PARAMS) {
			free(v);
			free(text);
			return pcb_error(err, PCB_E_CORRUPT, "'%s': bad line "
					 "'%.60s'; remove it to drop every "
					 "host NIC's own params", fw->hpath,
					 line);
		}
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			free(text);
			return pcb_error(err, PCB_E_NOMEM, "out of memory");
		}
		v = nv;
		v[n++] = e;
	}
	free(text);
	free(fw->hov);
	fw->hov = v;
	fw->nhov = n;
	fw->hov_gen = g;
	fw->hov_read = true;
	return 0;
}

/* NAME.hosts written from fw->hov; then a new generation.  Under the
 * file lock. */
static int hov_write(struct simfw *fw, struct pcb_err *err)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *fp = open_memstream(&text, &len);
	int rc;

	if (!fp)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	fputs("pccbench sim hosts 1\n", fp);
	for (i = 0; i < fw->nhov; i++)
		fprintf(fp, "h%u slot %u param %u value %u\n", fw->hov[i].host,
			fw->hov[i].slot, fw->hov[i].idx, fw->hov[i].value);
	if (fclose(fp) || pcb_crc_seal(&text, &len))
		rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
	else
		rc = pcb_write_file(fw->hpath, text, len, PCB_MODE_STATE, err);
	free(text);
	fw->hov_read = false;	/* read it back at the next access */
	if (!rc)
		changed(fw);
	return rc;
}

static struct simfw_hov *hov_find(struct simfw *fw, uint32_t host,
				  unsigned slot, unsigned idx)
{
	size_t i;

	for (i = 0; i < fw->nhov; i++)
		if (fw->hov[i].host == host && fw->hov[i].slot == slot &&
		    fw->hov[i].idx == idx)
			return &fw->hov[i];
	return NULL;
}

/* Host `host`'s own value of param idx: set, or dropped (drop, or the
 * shared register's value: that NIC runs the fleet's again).  Under the
 * file lock; *did when it changed. */
static int hov_set(struct simfw *fw, uint32_t host, unsigned slot,
		   unsigned idx, uint32_t v, bool drop, bool *did,
		   struct pcb_err *err)
{
	struct simfw_hov *h = hov_find(fw, host, slot, idx), *nv;

	drop = drop || v == fw->st->slots[slot].params[idx];
	if (drop && !h)
		return 0;
	if (drop) {
		*h = fw->hov[--fw->nhov];
	} else if (h) {
		if (h->value == v)
			return 0;
		h->value = v;
	} else {
		nv = realloc(fw->hov, (fw->nhov + 1) * sizeof(*nv));
		if (!nv)
			return pcb_error(err, PCB_E_NOMEM, "out of memory");
		fw->hov = nv;
		nv[fw->nhov++] = (struct simfw_hov){ host, slot, idx, v };
	}
	*did = true;
	return 0;
}

static bool settable(struct simfw *fw, unsigned slot, unsigned idx,
		     uint32_t v)
{
	const struct algo_param_desc *p = &fw->desc[slot]->params[idx];

	return param_perm(&fw->st->slots[slot], p) == ALGO_PERM_RW &&
	       v >= p->min && v <= p->max;
}

/* Host h's own values of slot over vals[0..n-1]; *own their bits. */
static void hov_overlay(struct simfw *fw, uint32_t h, unsigned slot,
			uint32_t *vals, size_t n, uint64_t *own)
{
	size_t i;

	*own = 0;
	for (i = 0; i < fw->nhov; i++)
		if (fw->hov[i].host == h && fw->hov[i].slot == slot &&
		    fw->hov[i].idx < n) {
			vals[fw->hov[i].idx] = fw->hov[i].value;
			*own |= 1ull << fw->hov[i].idx;
		}
}

/* A PPCC access through host N's register: the param commands answered
 * and set as that NIC's (a set the firmware would ignore is ignored
 * here too), enabling and disabling refused (the slot is the fleet's),
 * the rest as the shared register.  Under the file lock; 1: not a
 * command of its own (the shared register answers). */
static int host_ppcc(struct simfw *fw, enum reg_method m, uint8_t *buf,
		     uint32_t *status, struct pcb_err *err)
{
	const struct adb_field *const *f = fw->f;
	uint32_t cmd = adb_get(f[PF_CMD], buf);
	uint32_t slot = adb_get(f[PF_SLOT], buf);
	uint32_t idx = adb_get(f[PF_INDEX], buf);
	uint32_t h = (uint32_t)fw->host, vals[SIMFW_PARAMS];
	const struct simfw_slot *sl = &fw->st->slots[slot];
	bool did = false, set = m == REG_SET;
	uint64_t own;
	unsigned i, n;
	int rc;

	if (adb_get(f[PF_PORT], buf) != SIMFW_PORT ||
	    adb_get(f[PF_LP_MSB], buf) || adb_get(f[PF_PNAT], buf) > 1 ||
	    slot >= SIMFW_USED || !fw->desc[slot])
		return 1;	/* the shared register's refusal */
	if (set && (cmd == PPCC_ENABLE || cmd == PPCC_DISABLE)) {
		*status = REG_STATUS_BAD_PARAM;	/* the fleet's slot */
		return 0;
	}
	if ((cmd != PPCC_PARAM_GET && cmd != PPCC_PARAM_GET_CLEAR &&
	     cmd != PPCC_PARAM_SET && cmd != PPCC_BULK_GET &&
	     cmd != PPCC_BULK_SET) ||
	    ((cmd == PPCC_PARAM_GET || cmd == PPCC_PARAM_GET_CLEAR ||
	      cmd == PPCC_PARAM_SET) && idx >= sl->nparams))
		return 1;	/* the shared register's answer or refusal */
	rc = hov_sync(fw, err);
	if (rc)
		return rc;
	*status = 0;
	n = sl->nparams < ALGO_MAX_PARAMS ? sl->nparams : ALGO_MAX_PARAMS;
	memcpy(vals, sl->params, sizeof(vals));
	hov_overlay(fw, h, slot, vals, n, &own);
	if (cmd == PPCC_BULK_SET) {
		if (!set)
			return 1;
		n = adb_get(f[PF_TEXT_LEN], buf) / 4;
		for (i = 0; !rc && i < n && i < sl->nparams &&
		     i < ALGO_MAX_PARAMS; i++) {
			uint32_t v = ppcc_text(f[PF_TEXT0], buf, i);

			if (v != vals[i] && settable(fw, slot, i, v))
				rc = hov_set(fw, h, slot, i, v, false, &did,
					     err);
		}
	} else if (cmd == PPCC_PARAM_SET && set) {
		uint32_t v = adb_get(f[PF_VALUE], buf);

		if (idx < ALGO_MAX_PARAMS && v != vals[idx] &&
		    settable(fw, slot, idx, v))
			rc = hov_set(fw, h, slot, idx, v, false, &did, err);
	} else if (cmd == PPCC_BULK_GET) {
		if (set)
			return 1;
		for (i = 0; i < sl->nparams; i++)
			ppcc_set_text(f[PF_TEXT0], buf, i, vals[i]);
		adb_set(f[PF_TEXT_LEN], buf, sl->nparams * 4);
		adb_set(f[PF_SL_SUPPORT], buf, fw->st->sl_model !=
			SIMFW_SL_NONE);
	} else {	/* a get, or mstreg's read before its set */
		adb_set(f[PF_VALUE], buf, vals[idx]);
		adb_set(f[PF_SL_SUPPORT], buf, fw->st->sl_model !=
			SIMFW_SL_NONE);
	}
	if (!rc && did)
		rc = hov_write(fw, err);
	return rc;
}

void simfw_set_host(struct simfw *fw, int host)
{
	fw->host = host;
}

int simfw_host(const struct simfw *fw)
{
	return fw->host;
}

int simfw_host_params(struct simfw *fw, uint32_t host, unsigned slot,
		      uint32_t *vals, size_t n, uint64_t *own,
		      struct pcb_err *err)
{
	int rc;

	*own = 0;
	if (flock(fw->fd, LOCK_EX))
		return pcb_error(err, PCB_E_IO, "cannot lock '%s': %s",
				 fw->path, strerror(errno));
	rc = hov_sync(fw, err);
	if (!rc)
		hov_overlay(fw, host, slot, vals,
			    n < ALGO_MAX_PARAMS ? n : ALGO_MAX_PARAMS, own);
	flock(fw->fd, LOCK_UN);
	return rc;
}

int simfw_host_set(struct simfw *fw, uint32_t host, unsigned slot,
		   unsigned idx, uint32_t value, bool drop,
		   struct pcb_err *err)
{
	bool did = false;
	unsigned i;
	int rc;

	if (slot >= SIMFW_USED || !fw->desc[slot])
		return pcb_error(err, PCB_E_RANGE, "sim: slot %u holds no "
				 "algorithm", slot);
	if (flock(fw->fd, LOCK_EX))
		return pcb_error(err, PCB_E_IO, "cannot lock '%s': %s",
				 fw->path, strerror(errno));
	rc = hov_sync(fw, err);
	if (!rc && idx < ALGO_MAX_PARAMS && !drop &&
	    !settable(fw, slot, idx, value))
		rc = pcb_error(err, PCB_E_RANGE, "sim: h%u: %s %u is not "
			       "taken (read-only, or outside %u..%u)", host,
			       fw->desc[slot]->params[idx].name, value,
			       fw->desc[slot]->params[idx].min,
			       fw->desc[slot]->params[idx].max);
	else if (!rc && idx < ALGO_MAX_PARAMS)
		rc = hov_set(fw, host, slot, idx, value, drop, &did, err);
	else if (!rc)	/* every param of the slot dropped */
		for (i = 0; !rc && i < fw->desc[slot]->nparams &&
		     i < ALGO_MAX_PARAMS; i++)
			rc = hov_set(fw, host, slot, i, 0, true, &did, err);
	if (!rc && did)
		rc = hov_write(fw, err);
	else if (rc)
		fw->hov_read = false;	/* as the file is */
	flock(fw->fd, LOCK_UN);
	return rc;
}

int simfw_access(struct simfw *fw, enum reg_method m, uint32_t reg_id,
		 uint8_t *buf, size_t len, uint32_t *status,
		 struct pcb_err *err)
{
	int rc;

	if (reg_id != PPCC_REG_ID) {
		*status = REG_STATUS_NOT_SUPP;
		return 0;
	}
	if (len < fw->layout->size)
		return pcb_error(err, PCB_E_INVAL,
				 "PPCC buffer of %zu bytes (need %u)", len,
				 fw->layout->size);
	if (flock(fw->fd, LOCK_EX))
		return pcb_error(err, PCB_E_IO, "cannot lock '%s': %s",
				 fw->path, strerror(errno));
	/* flagged while a SET changes the file, so a process killed half
	 * way is told apart from damage (simfw_validate) */
	rc = fw->host >= 0 ? host_ppcc(fw, m, buf, status, err) : 1;
	if (rc < 0 || !rc) {	/* host N's NIC's own: answered */
		flock(fw->fd, LOCK_UN);
		return rc;
	}
	if (m == REG_SET)
		__atomic_store_n(&fw->st->changing, 1, __ATOMIC_SEQ_CST);
	*status = simfw_ppcc(fw, m, buf);
	if (m == REG_SET)
		__atomic_store_n(&fw->st->changing, 0, __ATOMIC_SEQ_CST);
	flock(fw->fd, LOCK_UN);
	return 0;
}

int simfw_set_sl_model(struct simfw *fw, enum simfw_sl_model m)
{
	unsigned s;

	if (m > SIMFW_SL_STALE)
		return -PCB_E_INVAL;
	flock(fw->fd, LOCK_EX);
	fw->st->sl_model = m;
	for (s = 0; s < SIMFW_SLOTS; s++) {	/* the SLs it has */
		struct simfw_slot *sl = &fw->st->slots[s];

		sl->sl_bitmask &= sl_valid(fw->st);
		if (sl->enabled && !sl->sl_bitmask)
			sl->sl_bitmask = sl_valid(fw->st);
	}
	changed(fw);
	flock(fw->fd, LOCK_UN);
	return 0;
}

int simfw_active_slot(struct simfw *fw)
{
	unsigned s;

	for (s = 0; s < SIMFW_SLOTS; s++)
		if (fw->st->slots[s].algo_info &&
		    (fw->st->slots[s].sl_bitmask & 1u << SIMFW_DATA_SL))
			return (int)s;
	return -1;
}

const struct algo_desc *simfw_slot_desc(struct simfw *fw, unsigned slot)
{
	return slot < SIMFW_USED ? fw->desc[slot] : NULL;
}

int simfw_params(struct simfw *fw, unsigned slot, uint32_t *vals, size_t max,
		 size_t *n)
{
	const struct simfw_slot *sl;
	size_t i;

	if (slot >= SIMFW_USED)
		return -PCB_E_NOENT;
	sl = &fw->st->slots[slot];
	flock(fw->fd, LOCK_SH);
	for (i = 0; i < sl->nparams && i < max; i++)
		vals[i] = sl->params[i];
	flock(fw->fd, LOCK_UN);
	*n = i;
	return 0;
}

bool simfw_param_settable(struct simfw *fw, unsigned slot, unsigned idx,
			  uint32_t v)
{
	const struct algo_param_desc *p;
	bool ok;

	if (slot >= SIMFW_USED || !fw->desc[slot] ||
	    idx >= fw->desc[slot]->nparams)
		return false;
	p = &fw->desc[slot]->params[idx];
	flock(fw->fd, LOCK_SH);
	ok = param_perm(&fw->st->slots[slot], p) == ALGO_PERM_RW &&
	     v >= p->min && v <= p->max;
	flock(fw->fd, LOCK_UN);
	return ok;
}

static void counter_update(struct simfw *fw, unsigned slot, unsigned idx,
			   uint32_t v, bool add)
{
	struct simfw_slot *sl;
	uint64_t max, nv;

	if (slot >= SIMFW_USED)
		return;
	sl = &fw->st->slots[slot];
	if (idx >= sl->ncounters || !sl->counter_en)
		return;
	max = fw->desc[slot]->counters[idx].max;
	nv = add ? (uint64_t)sl->counters[idx] + v : v;
	/* wrap to 0 past max, as counter info says */
	sl->counters[idx] = (uint32_t)(nv % (max + 1));
}

void simfw_counter_add(struct simfw *fw, unsigned slot, unsigned idx,
		       uint32_t delta)
{
	counter_update(fw, slot, idx, delta, true);
}

void simfw_counter_store(struct simfw *fw, unsigned slot, unsigned idx,
			 uint32_t value)
{
	counter_update(fw, slot, idx, value, false);
}

/* Under the file lock already held. */
static void apply_one(struct simfw *fw, unsigned slot, unsigned idx,
		      uint32_t value, enum algo_ckind kind)
{
	uint32_t cur = fw->st->slots[slot].counters[idx];

	if (kind == ALGO_CK_SUM)
		counter_update(fw, slot, idx, value, true);
	else if ((kind == ALGO_CK_MAX && value > cur) ||
		 (kind == ALGO_CK_MIN && (!cur || value < cur)))
		counter_update(fw, slot, idx, value, false);
}

void simfw_counter_apply(struct simfw *fw, unsigned slot, unsigned idx,
			 uint32_t value, enum algo_ckind kind)
{
	if (slot >= SIMFW_USED || idx >= fw->st->slots[slot].ncounters)
		return;
	flock(fw->fd, LOCK_EX);
	apply_one(fw, slot, idx, value, kind);
	flock(fw->fd, LOCK_UN);
}

void simfw_counters_apply(struct simfw *fw, unsigned slot,
			  const uint32_t *values, const bool *touched,
			  const enum algo_ckind *kinds, size_t n)
{
	size_t i;

	if (slot >= SIMFW_USED)
		return;
	flock(fw->fd, LOCK_EX);
	for (i = 0; i < n && i < fw->st->slots[slot].ncounters; i++)
		if (touched[i])
			apply_one(fw, slot, (unsigned)i, values[i], kinds[i]);
	flock(fw->fd, LOCK_UN);
}

bool simfw_counters_enabled(struct simfw *fw, unsigned slot)
{
	return slot < SIMFW_SLOTS && fw->st->slots[slot].counter_en &&
	       fw->st->slots[slot].enabled;
}

/* ---- the "sim" register backend ---------------------------------------- */

static struct sim_dev *to_sim(struct reg_dev *dev)
{
	if (dev->ops != &sim_backend_ops)
		abort();	/* broken invariant: wrong backend */
	return (struct sim_dev *)dev;
}

static int sim_open(struct reg_dev *dev, const char *spec,
		    struct pcb_err *err)
{
	return simfw_open(&to_sim(dev)->fw, spec, err);
}

static void sim_close(struct reg_dev *dev)
{
	simfw_close(to_sim(dev)->fw);
}

static int sim_access(struct reg_dev *dev, enum reg_method m,
		      uint32_t reg_id, uint8_t *buf, size_t len,
		      uint32_t *status, struct pcb_err *err)
{
	return simfw_access(to_sim(dev)->fw, m, reg_id, buf, len, status,
			    err);
}

struct simfw *simfw_of(const struct reg_dev *dev)
{
	return dev->ops == &sim_backend_ops ?
	       ((const struct sim_dev *)(const void *)dev)->fw : NULL;
}

const struct reg_backend_ops sim_backend_ops = {
	.name = "sim",
	.caps = REG_CAP_INPROC,
	.priv_size = sizeof(struct sim_dev),
	.open = sim_open,
	.close = sim_close,
	.access = sim_access,
};
