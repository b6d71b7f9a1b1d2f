/* mstreg.c - the mstreg register backend. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsafe.h"
#include "discover.h"
#include "mstreg.h"
#include "paths.h"
#include "run.h"

struct mstreg_dev {
	struct reg_dev base;
	char *prog;
	char *device;
	int timeout_ms;
	const struct adb_reg *layout;
	volatile sig_atomic_t *stop;
	unsigned long runs;
};

static struct mstreg_dev *to_m(struct reg_dev *dev)
{
	if (dev->ops != &mstreg_backend_ops)
		abort();	/* broken invariant: wrong backend */
	return (struct mstreg_dev *)dev;
}

/* The -d argument for a handle: the PCI function it names, as pccbench
 * resolves every form (pci/BDF, mlx5_0/1, a netdev, an MST name with or
 * without /dev/mst/; discover.h), so mstreg opens the function pccbench
 * checked (Debian's mstreg cannot open /dev/mst/ names without NVIDIA's
 * mst driver); other paths and mstflint's own pciconf-, lid-, ibdr-
 * names go as they are.
 */
static int mstreg_device_arg(const char *spec, char *buf, size_t len,
			     struct pcb_err *err)
{
	if (!strncmp(spec, "/dev/mst/mt", 11))	/* the function it names */
		return pcb_resolve_pci(spec, buf, len, err);
	if (spec[0] == '/' || !strncmp(spec, "pciconf-", 8) ||
	    !strncmp(spec, "lid-", 4) || !strncmp(spec, "ibdr-", 5)) {
		snprintf(buf, len, "%s", spec);
		return 0;
	}
	return pcb_resolve_pci(spec, buf, len, err);
}

static int m_open(struct reg_dev *dev, const char *spec, struct pcb_err *err)
{
	struct mstreg_dev *m = to_m(dev);
	char arg[PATH_MAX];
	int rc = mstreg_device_arg(spec, arg, sizeof(arg), err);

	if (rc)
		return rc;
	m->device = strdup(arg);
	m->prog = strdup("mstreg");
	m->timeout_ms = 10000;
	if (!m->device || !m->prog) {
		free(m->device);
		free(m->prog);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	return 0;
}

static void m_close(struct reg_dev *dev)
{
	struct mstreg_dev *m = to_m(dev);

	free(m->device);
	free(m->prog);
}

int mstreg_configure(struct reg_dev *dev, const struct adb_reg *layout,
		     const char *prog, int timeout_ms,
		     volatile sig_atomic_t *stop, struct pcb_err *err)
{
	struct mstreg_dev *m;
	char *p = NULL;

	if (dev->ops != &mstreg_backend_ops)
		return pcb_error(err, PCB_E_INVAL, "%s is not an mstreg device",
				 dev->name);
	m = to_m(dev);
	if (prog && !(p = strdup(prog)))
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	if (p) {
		free(m->prog);
		m->prog = p;
	}
	m->layout = layout;
	if (timeout_ms > 0)
		m->timeout_ms = timeout_ms;
	m->stop = stop;
	return 0;
}

/* "Name    | 0x0000abcd" rows between the `=` rules after the header. */
int mstreg_parse_table(const char *text, const struct adb_reg *layout,
		       uint8_t *buf, struct pcb_err *err)
{
	const char *p = text, *nl;
	int state = 0;		/* 0 header, 1 first rule, 2 rows, 3 done */
	size_t rows = 0, known = 0;

	for (; *p && state < 3; p = nl ? nl + 1 : p + strlen(p)) {
		char line[512], name[256];
		unsigned long long v;
		const char *bar;
		size_t len;
		char *end;
		int fi;

		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (state == 0) {
			if (!strncmp(line, "Field Name", 10) &&
			    strstr(line, "| Data"))
				state = 1;
			continue;
		}
		if (line[0] == '=' && strspn(line, "=") == len) {
			state++;
			continue;
		}
		if (state != 2)
			continue;
		bar = strchr(line, '|');
		if (!bar)
			goto bad_row;
		len = (size_t)(bar - line);
		while (len && line[len - 1] == ' ')
			len--;
		if (!len || len >= sizeof(name))
			goto bad_row;
		memcpy(name, line, len);
		name[len] = '\0';
		bar++;
		while (*bar == ' ')
			bar++;
		if (strncmp(bar, "0x", 2))
			goto bad_row;
		errno = 0;
		v = strtoull(bar, &end, 16);
		while (*end == ' ')
			end++;
		if (errno || *end || v > UINT32_MAX)
			goto bad_row;
		rows++;
		fi = adb_reg_field_index(layout, name);
		if (fi < 0)
			continue;	/* a newer ADB's field */
		adb_set(&layout->fields[fi], buf, (uint32_t)v);
		known++;
		continue;
bad_row:
		return pcb_error(err, PCB_E_PARSE,
				 "unexpected mstreg row '%s' (expected "
				 "'NAME | 0xHEX')", line);
	}
	if (state < 3 || !rows)
		return pcb_error(err, PCB_E_PARSE,
				 "mstreg printed no complete 'Field Name | "
				 "Data' table");
	if (known < layout->nfields)
		return pcb_error(err, PCB_E_PARSE,
				 "mstreg's table has %zu of the %zu PPCC fields",
				 known, layout->nfields);
	return 0;
}

/* What is kept of output that cannot be parsed: each stream up to half of
 * MST_SAVE_MAX bytes (mstreg's table is at the top), in at most
 * MST_SAVE_KEEP files; older ones are removed.
 */
#define MST_SAVE_MAX	(1 << 20)
#define MST_SAVE_KEEP	5
#define MST_SAVE_PREFIX	"mstreg-output-"

/* One stream, whole up to `max` bytes (NULs and all), and a note when it
 * was cut.
 */
static void save_stream(FILE *fp, const char *name, const char *data,
			size_t len, size_t max)
{
	size_t n = len > max ? max : len;

	fprintf(fp, "--- %s (%zu bytes)\n", name, len);
	fwrite(data, 1, n, fp);
	if (n < len)
		fprintf(fp, "\n--- %s cut: the first %zu of %zu bytes are "
			"above\n", name, n, len);
}

struct saved_file {
	char *name;
	struct timespec mtime;
};

static int saved_newer_first(const void *a, const void *b)
{
	const struct saved_file *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? 1 : -1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? 1 : -1;
	return -strcmp(x->name, y->name);
}

/* Remove all but the newest MST_SAVE_KEEP saved outputs in dir (regular
 * files named mstreg-output-*.txt; nothing else is touched).
 */
static void prune_saved(const char *dir)
{
	struct saved_file *v = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct stat st;

		if (strncmp(de->d_name, MST_SAVE_PREFIX,
			    strlen(MST_SAVE_PREFIX)) || len < 4 ||
		    strcmp(de->d_name + len - 4, ".txt") ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			struct saved_file *nv = realloc(v, nc * sizeof(*v));

			if (!nv)
				break;
			v = nv;
			cap = nc;
		}
		v[n].name = strdup(de->d_name);
		if (!v[n].name)
			break;
		v[n++].mtime = st.st_mtim;
	}
	if (n > MST_SAVE_KEEP) {
		qsort(v, n, sizeof(*v), saved_newer_first);
		for (i = MST_SAVE_KEEP; i < n; i++)
			unlinkat(dirfd(d), v[i].name, 0);
	}
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	closedir(d);
}

/* Keep what mstreg said when it cannot be understood, for the user to
 * read: a new 0600 file in the cache dir, written through a temp file
 * (fsafe.h); path is "" when that failed.
 */
static void save_output(const struct run_result *r, char *path, size_t len)
{
	static unsigned long seq;
	char dir[4096];
	struct pcb_err e = { 0 };
	struct pcb_wfile w;

	path[0] = '\0';
	if (pcb_user_dir(dir, sizeof(dir), PCB_DIR_CACHE, NULL, true, &e))
		return;
	snprintf(path, len, "%s/" MST_SAVE_PREFIX "%lld-%ld-%lu.txt", dir,
		 (long long)time(NULL), (long)getpid(), seq++);
	if (pcb_wfile_open(&w, path, PCB_MODE_STATE, &e)) {
		path[0] = '\0';
		return;
	}
	fprintf(w.fp, "exit %d\n", r->status);
	save_stream(w.fp, "stdout", r->out, r->out_len, MST_SAVE_MAX / 2);
	save_stream(w.fp, "stderr", r->err, r->err_len, MST_SAVE_MAX / 2);
	if (pcb_wfile_commit(&w, &e)) {
		path[0] = '\0';
		return;
	}
	prune_saved(dir);
}

/* The first "-E- ..." line of stderr (or stdout), without the marker. */
static const char *mst_error(const struct run_result *r, char *buf,
			     size_t len)
{
	const char *src[2] = { r->err, r->out };
	int i;

	for (i = 0; i < 2; i++) {
		const char *e = strstr(src[i], "-E- ");

		if (e) {
			size_t n = strcspn(e + 4, "\n");

			snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1),
				 e + 4);
			return buf;
		}
	}
	return NULL;
}

static uint32_t fget(const struct adb_reg *l, const uint8_t *buf,
		     const char *name)
{
	const struct adb_field *f = adb_reg_field(l, name);

	return f ? adb_get(f, buf) : 0;
}

/* "name=v,..." of the fields with access `acc` (all of them), in layout
 * order; decimal, as mstreg reads them.
 */
static int field_list(char *out, size_t len, const struct adb_reg *l,
		      const uint8_t *buf, enum adb_access acc,
		      struct pcb_err *err)
{
	size_t i, n = 0;

	out[0] = '\0';
	for (i = 0; i < l->nfields; i++) {
		const struct adb_field *f = &l->fields[i];

		if (f->access != acc)
			continue;
		n += (size_t)snprintf(out + n, len - n, "%s%s=%u",
				      n ? "," : "", f->name, adb_get(f, buf));
		if (n >= len)
			return pcb_error(err, PCB_E_INVAL,
					 "mstreg argument too long");
	}
	return 0;
}

int mstreg_build_argv(struct mstreg_argv *a, const char *prog,
		      const char *device, const struct adb_reg *l,
		      enum reg_method method, const uint8_t *buf,
		      struct pcb_err *err)
{
	int argc = 0, rc;

	snprintf(a->op, sizeof(a->op), "cmd_type=%u", fget(l, buf, "cmd_type"));
	snprintf(a->idx, sizeof(a->idx), "local_port=%u,pnat=%u,lp_msb=%u,"
		 "algo_slot=%u,algo_param_index=%u", fget(l, buf, "local_port"),
		 fget(l, buf, "pnat"), fget(l, buf, "lp_msb"),
		 fget(l, buf, "algo_slot"), fget(l, buf, "algo_param_index"));
	a->argv[argc++] = (char *)prog;
	a->argv[argc++] = (char *)"-d";
	a->argv[argc++] = (char *)device;
	a->argv[argc++] = (char *)"--reg_name";
	a->argv[argc++] = l->name;
	a->argv[argc++] = (char *)"--indexes";
	a->argv[argc++] = a->idx;
	a->argv[argc++] = (char *)"--op";
	a->argv[argc++] = a->op;
	if (method == REG_GET) {
		a->argv[argc++] = (char *)"--get";
	} else {
		rc = field_list(a->set, sizeof(a->set), l, buf, ADB_ACC_RW,
				err);
		if (rc)
			return rc;
		if (!a->set[0])
			return pcb_error(err, PCB_E_INVAL, "register '%s' has "
					 "no read-write field to set", l->name);
		a->argv[argc++] = (char *)"--set";
		a->argv[argc++] = a->set;
		a->argv[argc++] = (char *)"--yes";
	}
	a->argv[argc] = NULL;
	return 0;
}

/* Append c to out (len bytes) at *n, counting what does not fit. */
static void put_c(char *out, size_t len, size_t *n, char c)
{
	if (*n + 1 < len)
		out[*n] = c;
	(*n)++;
}

/* A word as a POSIX shell reads it back: bare when it holds only
 * characters no shell treats specially, else in single quotes (a quote
 * inside as '\'').  Returns the length (like snprintf); out may be NULL
 * when len is 0.
 */
static size_t shell_word(char *out, size_t len, const char *w)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				   "_@%+=:,./-";
	bool bare = *w && strspn(w, safe) == strlen(w);
	size_t n = 0;

	if (!bare)
		put_c(out, len, &n, '\'');
	for (; *w; w++) {
		if (*w == '\'') {
			put_c(out, len, &n, '\'');
			put_c(out, len, &n, '\\');
			put_c(out, len, &n, '\'');
		}
		put_c(out, len, &n, *w);
	}
	if (!bare)
		put_c(out, len, &n, '\'');
	if (len)
		out[n < len ? n : len - 1] = '\0';
	return n;
}

int mstreg_command_line(const char *prog, const char *device,
			const struct adb_reg *l, enum reg_method method,
			const uint8_t *buf, char **line, struct pcb_err *err)
{
	struct mstreg_argv a;
	size_t len = 0, n, i;
	char *out, arg[PATH_MAX];
	int rc;

	*line = NULL;
	/* what the backend would run: the device it would name */
	if (mstreg_device_arg(device, arg, sizeof(arg), NULL))
		snprintf(arg, sizeof(arg), "%s", device);
	rc = mstreg_build_argv(&a, prog ? prog : "mstreg", arg, l, method,
			       buf, err);
	if (rc)
		return rc;
	for (i = 0; a.argv[i]; i++)
		len += shell_word(NULL, 0, a.argv[i]) + 1;
	out = malloc(len + 1);
	if (!out)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	for (i = 0, n = 0; a.argv[i]; i++) {
		if (i)
			out[n++] = ' ';
		n += shell_word(out + n, len + 1 - n, a.argv[i]);
	}
	out[n] = '\0';
	*line = out;
	return 0;
}

/* mstflint's lock (mtcr_ul: flock on /tmp/mstflint_lockfiles/BDF_config,
 * 4096 non-blocking tries) lost to another mstflint tool on the device:
 * it says so with perror, then fails with an unrelated -E- line.
 */
static bool lock_lost(const struct run_result *r)
{
	static const char sign[] = "failed to perform lock operation";

	return (r->err && strstr(r->err, sign)) ||
	       (r->out && strstr(r->out, sign));
}

/* Tries of one mstreg run that lost mstflint's lock: the waits between
 * them double from 10 ms (about 1.3 s in all).
 */
#define MST_LOCK_TRIES 8

/* Wait ms, or less when stop is raised; whether to go on. */
static bool lock_backoff(int ms, volatile sig_atomic_t *stop)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		if (stop && *stop)
			return false;
	return !(stop && *stop);
}

static int m_access(struct reg_dev *dev, enum reg_method method,
		    uint32_t reg_id, uint8_t *buf, size_t len,
		    uint32_t *status, struct pcb_err *err)
{
	struct mstreg_dev *m = to_m(dev);
	const struct adb_reg *l = m->layout;
	char emsg[400], saved[4300];
	struct mstreg_argv a;
	struct run_result r;
	size_t n = 0;
	int rc, tries, waited = 0;

	*status = 0;
	if (!l || reg_id != l->id || len < l->size)
		return pcb_error(err, PCB_E_INVAL,
				 "mstreg backend: register 0x%x not supported",
				 reg_id);
	rc = mstreg_build_argv(&a, m->prog, m->device, l, method, buf, err);
	if (rc)
		return rc;
	for (tries = 1;; tries++) {
		m->runs++;
		rc = run_prog(a.argv, NULL, m->timeout_ms, m->stop, &r, err);
		if (rc)
			return rc;
		if (!lock_lost(&r))
			break;
		run_result_free(&r);
		if (tries == MST_LOCK_TRIES)
			return pcb_error(err, PCB_E_BUSY, "%s: mstreg could not "
					 "take mstflint's lock on %s (another "
					 "mstflint tool, e.g. mstreg, mlxreg, "
					 "mstconfig or mlxlink, holds "
					 "/tmp/mstflint_lockfiles/%s_config); "
					 "%d tries over %.1f s", dev->name,
					 m->device, m->device, tries,
					 waited / 1000.0);
		if (!lock_backoff(10 << (tries - 1), m->stop))
			return pcb_error(err, PCB_E_INTR, "interrupted");
		waited += 10 << (tries - 1);
	}
	if (r.status || mst_error(&r, emsg, sizeof(emsg))) {
		if (mst_error(&r, emsg, sizeof(emsg)))
			rc = pcb_error(err, PCB_E_DEVICE, "%s: mstreg: %s",
				       dev->name, emsg);
		else
			rc = pcb_error(err, PCB_E_DEVICE,
				       "%s: mstreg exited with %d", dev->name,
				       r.status);
		run_result_free(&r);
		return rc;
	}
	/* A GET's table is the register read; a SET's, the register mstreg
	 * is about to write (after its own read).  Either is the reply whose
	 * index fields ppcc checks against the request.
	 */
	memset(buf, 0, l->size);
	rc = mstreg_parse_table(r.out, l, buf, err);
	if (rc) {
		/* the backend failed, not the user's input */
		rc = -PCB_E_DEVICE;
		if (err)
			err->code = PCB_E_DEVICE;
		save_output(&r, saved, sizeof(saved));
		if (*saved && err) {
			n = strlen(err->msg);
			snprintf(err->msg + n, sizeof(err->msg) - n,
				 "; its output is in %s", saved);
		}
	}
	run_result_free(&r);
	return rc;
}

const struct reg_backend_ops mstreg_backend_ops = {
	.name = "mstreg",
	.caps = REG_CAP_REAL | REG_CAP_NO_BULK_SET,
	.priv_size = sizeof(struct mstreg_dev),
	.open = m_open,
	.close = m_close,
	.access = m_access,
};
