/* fuzz.c - private root, sandbox and session set-up for the harnesses
 * (see fuzz.h).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "fsafe.h"
#include "fuzz.h"
#include "fwctl.h"
#include "mstreg.h"
#include "paths.h"
#include "sim/firmware.h"

#define FZ_MAX_ALLOW 8
#define FZ_MAX_SAY 5		/* refusals printed */

static char root[PATH_MAX];
static char *allow[FZ_MAX_ALLOW];
static int nallow;
static bool armed;
static FILE *out_fp, *err_fp;
unsigned long fz_refused;

/* ---- the sandbox --------------------------------------------------------- */

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

/* May this path (relative to dirfd) be created, written or removed now? */
static bool path_ok(int dirfd, const char *path)
{
	char abs[2 * PATH_MAX + 2], base[PATH_MAX];
	size_t n;
	int i;

	if (!armed || !path)
		return true;
	if (!strcmp(path, "/dev/null"))
		return true;
	if (path[0] == '/') {
		snprintf(abs, sizeof(abs), "%s", path);
	} else {
		if (dirfd == AT_FDCWD) {
			if (!getcwd(base, sizeof(base)))
				return false;
		} else {
			char link[64];
			ssize_t l;

			snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
			l = readlink(link, base, sizeof(base) - 1);
			if (l < 0)
				return false;
			base[l] = '\0';
		}
		snprintf(abs, sizeof(abs), "%s/%s", base, path);
	}
	n = strlen(abs);
	if (strstr(abs, "/../") || (n >= 3 && !strcmp(abs + n - 3, "/..")))
		return false;
	if (under(abs, root))
		return true;
	for (i = 0; i < nallow; i++)
		if (under(abs, allow[i]))
			return true;
	return false;
}

static int refuse(const char *what, const char *path)
{
	if (fz_refused++ < FZ_MAX_SAY)
		fprintf(stderr, "fuzz: sandbox refused %s '%s'\n", what,
			path ? path : "(null)");
	errno = EPERM;
	return -1;
}

/* The next definition of a libc function (ours shadows it). */
static void *real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "fuzz: no libc '%s'\n", name);
		abort();
	}
	return f;
}

/* real_NAME: libc's NAME, with the type of its declaration. */
#define REAL(name) \
	static __typeof__(name) *real_##name; \
	if (!real_##name) \
		real_##name = (__typeof__(name) *)real(#name)

static bool writes(int flags)
{
	return flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND);
}

static bool has_mode(int flags)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	REAL(open);
	if (has_mode(flags)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, unsigned);
		va_end(ap);
	}
	if (writes(flags) && !path_ok(AT_FDCWD, path))
		return refuse("open", path);
	return real_open(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	REAL(openat);
	if (has_mode(flags)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, unsigned);
		va_end(ap);
	}
	if (writes(flags) && !path_ok(dirfd, path))
		return refuse("openat", path);
	return real_openat(dirfd, path, flags, mode);
}

int creat(const char *path, mode_t mode)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}

FILE *fopen(const char *path, const char *mode)
{
	REAL(fopen);
	if (mode && strpbrk(mode, "wa+") && !path_ok(AT_FDCWD, path)) {
		refuse("fopen", path);
		return NULL;
	}
	return real_fopen(path, mode);
}

int rename(const char *from, const char *to)
{
	REAL(rename);
	if (!path_ok(AT_FDCWD, from) || !path_ok(AT_FDCWD, to))
		return refuse("rename to", to);
	return real_rename(from, to);
}

int renameat(int fd1, const char *from, int fd2, const char *to)
{
	REAL(renameat);
	if (!path_ok(fd1, from) || !path_ok(fd2, to))
		return refuse("renameat to", to);
	return real_renameat(fd1, from, fd2, to);
}

int link(const char *from, const char *to)
{
	REAL(link);
	if (!path_ok(AT_FDCWD, to))
		return refuse("link", to);
	return real_link(from, to);
}

int linkat(int fd1, const char *from, int fd2, const char *to, int flags)
{
	REAL(linkat);
	if (!path_ok(fd2, to))
		return refuse("linkat", to);
	return real_linkat(fd1, from, fd2, to, flags);
}

int symlink(const char *target, const char *path)
{
	REAL(symlink);
	if (!path_ok(AT_FDCWD, path))
		return refuse("symlink", path);
	return real_symlink(target, path);
}

int unlink(const char *path)
{
	REAL(unlink);
	if (!path_ok(AT_FDCWD, path))
		return refuse("unlink", path);
	return real_unlink(path);
}

int unlinkat(int dirfd, const char *path, int flags)
{
	REAL(unlinkat);
	if (!path_ok(dirfd, path))
		return refuse("unlinkat", path);
	return real_unlinkat(dirfd, path, flags);
}

int remove(const char *path)
{
	REAL(remove);
	if (!path_ok(AT_FDCWD, path))
		return refuse("remove", path);
	return real_remove(path);
}

int rmdir(const char *path)
{
	REAL(rmdir);
	if (!path_ok(AT_FDCWD, path))
		return refuse("rmdir", path);
	return real_rmdir(path);
}

int mkdir(const char *path, mode_t mode)
{
	REAL(mkdir);
	if (!path_ok(AT_FDCWD, path)) {
		struct stat st;

		/* mkdir -p walks down from "/": existing ones are no write */
		if (!stat(path, &st)) {
			errno = EEXIST;
			return -1;
		}
		return refuse("mkdir", path);
	}
	return real_mkdir(path, mode);
}

int truncate(const char *path, off_t len)
{
	REAL(truncate);
	if (!path_ok(AT_FDCWD, path))
		return refuse("truncate", path);
	return real_truncate(path, len);
}

int mkstemp(char *tmpl)
{
	REAL(mkstemp);
	if (!path_ok(AT_FDCWD, tmpl))
		return refuse("mkstemp", tmpl);
	return real_mkstemp(tmpl);
}

int mkostemp(char *tmpl, int flags)
{
	REAL(mkostemp);
	if (!path_ok(AT_FDCWD, tmpl))
		return refuse("mkostemp", tmpl);
	return real_mkostemp(tmpl, flags);
}

/* No program runs while an input is being executed. */
pid_t fork(void)
{
	REAL(fork);
	if (armed)
		return refuse("fork", NULL);
	return real_fork();
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	REAL(execve);
	if (armed)
		return refuse("execve", path);
	return real_execve(path, argv, envp);
}

int execv(const char *path, char *const argv[])
{
	REAL(execv);
	if (armed)
		return refuse("execv", path);
	return real_execv(path, argv);
}

int execvp(const char *file, char *const argv[])
{
	REAL(execvp);
	if (armed)
		return refuse("execvp", file);
	return real_execvp(file, argv);
}

int posix_spawn(pid_t *pid, const char *path,
		const posix_spawn_file_actions_t *fa,
		const posix_spawnattr_t *attr, char *const argv[],
		char *const envp[])
{
	REAL(posix_spawn);
	if (armed) {
		refuse("posix_spawn", path);
		return EPERM;
	}
	return real_posix_spawn(pid, path, fa, attr, argv, envp);
}

int posix_spawnp(pid_t *pid, const char *file,
		 const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *attr, char *const argv[],
		 char *const envp[])
{
	REAL(posix_spawnp);
	if (armed) {
		refuse("posix_spawnp", file);
		return EPERM;
	}
	return real_posix_spawnp(pid, file, fa, attr, argv, envp);
}

int system(const char *cmd)
{
	REAL(system);
	if (armed)
		return refuse("system", cmd);
	return real_system(cmd);
}

FILE *popen(const char *cmd, const char *mode)
{
	REAL(popen);
	if (armed) {
		refuse("popen", cmd);
		return NULL;
	}
	return real_popen(cmd, mode);
}

/* ---- the private root ---------------------------------------------------- */

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level > 0)
		remove(path);
	return 0;
}

static void rm_under(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void cleanup(void)
{
	armed = false;
	if (*root) {
		rm_under(root);
		rmdir(root);
	}
}

static void add_allow(const char *dir)
{
	char buf[PATH_MAX];

	if (nallow < FZ_MAX_ALLOW && realpath(dir, buf))
		allow[nallow++] = strdup(buf);
}

/* libFuzzer writes crash, leak and timeout artefacts while an input runs:
 * to -artifact_prefix (a directory or a prefix in one), to
 * -exact_artifact_path, else to the current directory.
 */
static void allow_artifacts(int argc, char **argv)
{
	bool prefix = false;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = strchr(a, '=');
		char dir[PATH_MAX];
		char *slash;

		if (a[0] != '-' || !v)
			continue;
		if (strncmp(a, "-artifact_prefix=", 17) &&
		    strncmp(a, "-exact_artifact_path=", 21))
			continue;
		prefix = true;
		snprintf(dir, sizeof(dir), "%s", v + 1);
		slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		add_allow(slash ? (*dir ? dir : "/") : ".");
	}
	if (!prefix)
		add_allow(".");
}

static void set_under(const char *var, const char *sub)
{
	char p[PATH_MAX + 32];

	snprintf(p, sizeof(p), "%s/%s", root, sub);
	setenv(var, p, 1);
}

/* The source tree: the harness sits in build-fuzz/ (or deeper). */
static void set_datadir(void)
{
	char exe[PATH_MAX], try[PATH_MAX + 64];
	ssize_t n;
	char *slash;
	int up;

	if (getenv("PCCBENCH_DATADIR"))
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	for (up = 0; up < 3 && (slash = strrchr(exe, '/')); up++) {
		*slash = '\0';
		snprintf(try, sizeof(try), "%s/reg/ppcc.adb", exe);
		if (!access(try, R_OK)) {
			setenv("PCCBENCH_DATADIR", exe, 1);
			return;
		}
	}
}

void fz_setup(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/pccb-fuzz-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir) || !realpath(dir, root)) {
		perror("fuzz: private root");
		abort();
	}
	atexit(cleanup);
	allow_artifacts(*argc, *argv);
	set_under("XDG_STATE_HOME", "state");
	set_under("XDG_CACHE_HOME", "cache");
	set_under("XDG_DATA_HOME", "data");
	set_under("HOME", "home");
	set_under("PCCBENCH_SYSFS", "fixed/sysfs");
	set_under("PCCBENCH_DEVROOT", "fixed/dev");
	setenv("PCCBENCH_GNUPLOT", "/bin/false", 1);
	setenv("PCCBENCH_HISTORY", "/dev/null", 1);
	unsetenv("PCCBENCH_PCI_DUMP");
	set_datadir();
	snprintf(dir, sizeof(dir), "%s/fixed", root);
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s/fixed/sysfs", root);
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s/fixed/dev", root);
	mkdir(dir, 0700);
	if (getenv("FZ_VERBOSE")) {
		out_fp = stdout;
		err_fp = stderr;
	} else {
		out_fp = fopen("/dev/null", "w");
		err_fp = out_fp;
	}
	if (!out_fp)
		abort();
}

const char *fz_root(void)
{
	return root;
}

FILE *fz_out(void)
{
	return out_fp;
}

FILE *fz_err(void)
{
	return err_fp;
}

void fz_begin(void)
{
	static const char *const subs[] = { "state", "cache", "data", "home",
					    "tmp" };
	char dir[PATH_MAX + 16];
	size_t i;

	armed = false;
	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/%s", root, subs[i]);
		rm_under(dir);
		mkdir(dir, 0700);
	}
	armed = true;
}

void fz_end(void)
{
	fflush(out_fp);
	armed = false;
}

/* ---- sessions and files -------------------------------------------------- */

void fz_session(struct session *s, const char *devname)
{
	sess_init(s, devname);
	s->dry_run = true;
	s->yes = true;
	out_init(&s->out, out_fp, false, false);
	s->opt.errfp = err_fp;
}

int fz_run(struct session *s, const char *fmt, ...)
{
	char line[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return cli_run_line(s, line, NULL);
}

char *fz_text(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);

	if (!t)
		abort();
	memcpy(t, data, size);
	t[size] = '\0';
	return t;
}

void fz_path(char *buf, size_t len, const char *which, const char *rel)
{
	snprintf(buf, len, "%s/%s/pccbench/%s", root, which, rel);
}

static int put_raw(const char *path, const void *buf, size_t len)
{
	char dir[PATH_MAX + 300];
	struct pcb_err err = { 0 };
	char *slash;
	int fd, rc = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		if (pcb_mkdirs(dir, 0700, &err))
			return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (len && write(fd, buf, len) != (ssize_t)len)
		rc = -1;
	if (close(fd))
		rc = -1;
	return rc;
}

int fz_put(const char *which, const char *rel, const uint8_t *data,
	   size_t size, bool sealed)
{
	char path[PATH_MAX + 300];
	char *text;
	size_t len = size;
	int rc;

	fz_path(path, sizeof(path), which, rel);
	if (!sealed || pcb_crc_check((const char *)data, &len))
		return put_raw(path, data, size);
	text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	len = size;
	if (pcb_crc_seal(&text, &len)) {
		free(text);
		return -1;
	}
	rc = put_raw(path, text, len);
	free(text);
	return rc;
}

int fz_small_scenario(void)
{
	static const char scen[] = "incast senders 2 rate 100g\n";

	return fz_put("state", "sim/fz.scenario", (const uint8_t *)scen,
		      sizeof(scen) - 1, true);
}

size_t fz_split(const uint8_t *data, size_t size, const uint8_t **rest,
		size_t *rest_len)
{
	const uint8_t *z = memchr(data, 0, size);

	if (!z) {
		*rest = data + size;
		*rest_len = 0;
		return size;
	}
	*rest = z + 1;
	*rest_len = size - (size_t)(z - data) - 1;
	return (size_t)(z - data);
}

/* ---- a fake real NIC ----------------------------------------------------- */

struct nic_dev {
	struct reg_dev base;
	struct reg_dev *inner;		/* FZ_NIC_SIM */
	enum fz_nic kind;
	const struct adb_reg *layout;	/* the session's PPCC layout */
};

static const uint8_t *nic_data;
static size_t nic_left;
static FILE *rec_fwctl, *rec_mstreg;
static bool rec_first;		/* no '\f' before a file's first reply */
static const struct adb_reg *rec_layout;
unsigned long fz_nic_replies;

void fz_nic_record(const char *fwctl_path, const char *mstreg_path)
{
	armed = false;
	if (rec_fwctl)
		fclose(rec_fwctl);
	if (rec_mstreg)
		fclose(rec_mstreg);
	rec_first = true;
	rec_fwctl = fwctl_path ? fopen(fwctl_path, "wb") : NULL;
	rec_mstreg = mstreg_path ? fopen(mstreg_path, "w") : NULL;
}

const char *fz_seeds_dir(void)
{
	return getenv("FZ_SEEDS");
}

/* One reply as the fwctl and mstreg fakes read them. */
static void record(enum reg_method m, const uint8_t *buf, size_t len)
{
	uint8_t hdr[MLX5_MBOX_HDR + 2] = { 0 };
	size_t i, w;

	if (rec_fwctl) {
		hdr[0] = (uint8_t)((MLX5_MBOX_HDR + len) >> 8);
		hdr[1] = (uint8_t)(MLX5_MBOX_HDR + len);
		fwrite(hdr, 1, sizeof(hdr), rec_fwctl);
		fwrite(buf, 1, len, rec_fwctl);
	}
	if (!rec_mstreg || !rec_layout)
		return;
	if (!rec_first)
		fputc('\f', rec_mstreg);
	rec_first = false;
	if (m != REG_GET)
		return;
	w = adb_reg_name_width(rec_layout) + 3;
	fprintf(rec_mstreg, "%-*s | %-8s\n", (int)w, "Field Name", "Data");
	for (i = 0; i < w + 14; i++)
		fputc('=', rec_mstreg);
	fputc('\n', rec_mstreg);
	/* text[] rows that are 0 are left out: the parser leaves a field it
	 * is not given at 0, and the seeds stay small */
	for (i = 0; i < rec_layout->nfields; i++) {
		const struct adb_field *f = &rec_layout->fields[i];
		uint32_t v = adb_get(f, buf);

		if (!v && !strncmp(f->name, "text[", 5))
			continue;
		fprintf(rec_mstreg, "%-*s | 0x%08x\n", (int)w, f->name, v);
	}
	for (i = 0; i < w + 14; i++)
		fputc('=', rec_mstreg);
	fputc('\n', rec_mstreg);
}

static const struct reg_backend_ops nic_ops[3];

static struct nic_dev *to_nic(struct reg_dev *dev)
{
	if (dev->ops != &nic_ops[0] && dev->ops != &nic_ops[1] &&
	    dev->ops != &nic_ops[2])
		abort();
	return (struct nic_dev *)dev;
}

static int nic_open(struct reg_dev *dev, const char *spec,
		    struct pcb_err *err)
{
	struct nic_dev *n = to_nic(dev);

	(void)spec;
	n->kind = (enum fz_nic)(dev->ops - nic_ops);
	if (n->kind != FZ_NIC_SIM)
		return 0;
	return reg_dev_open(&n->inner, &sim_backend_ops, "sim:fznic-sim",
			    "fznic-sim", err);
}

static void nic_close(struct reg_dev *dev)
{
	reg_dev_close(to_nic(dev)->inner);
}

/* The next reply of the input: FWCTL length-prefixed, MSTREG up to '\f'. */
static bool next_reply(enum fz_nic kind, const uint8_t **p, size_t *len)
{
	const uint8_t *ff;

	if (!nic_left)
		return false;
	if (kind == FZ_NIC_FWCTL) {
		size_t l = nic_left >= 2 ? (size_t)nic_data[0] << 8 |
					   nic_data[1] : 0;

		if (nic_left < 2)
			return false;
		if (l > nic_left - 2)
			l = nic_left - 2;
		*p = nic_data + 2;
		*len = l;
		nic_data += 2 + l;
		nic_left -= 2 + l;
		return true;
	}
	ff = memchr(nic_data, '\f', nic_left);
	*p = nic_data;
	*len = ff ? (size_t)(ff - nic_data) : nic_left;
	nic_data += *len + (ff != NULL);
	nic_left -= *len + (ff != NULL);
	return true;
}

static int nic_access(struct reg_dev *dev, enum reg_method m,
		      uint32_t reg_id, uint8_t *buf, size_t len,
		      uint32_t *status, struct pcb_err *err)
{
	struct nic_dev *n = to_nic(dev);
	const uint8_t *r;
	size_t rl;
	char *text;
	int rc;

	*status = 0;
	if (n->kind == FZ_NIC_SIM) {
		rc = n->inner->ops->access(n->inner, m, reg_id, buf, len,
					   status, err);
		if (!rc && !*status)
			record(m, buf, len);
		return rc;
	}
	if (!next_reply(n->kind, &r, &rl))
		return pcb_error(err, PCB_E_IO, "%s: no more replies",
				 dev->name);
	fz_nic_replies++;
	if (n->kind == FZ_NIC_FWCTL) {
		uint8_t *out = malloc(rl ? rl : 1);	/* exact size */

		if (!out)
			abort();
		memcpy(out, r, rl);
		rc = fwctl_access_reg_out(out, rl, buf, len, dev->name, err);
		free(out);
		return rc;
	}
	if (m != REG_GET)
		return 0;
	text = malloc(rl + 1);
	if (!text)
		abort();
	memcpy(text, r, rl);
	text[rl] = '\0';
	memset(buf, 0, n->layout->size);
	rc = mstreg_parse_table(text, n->layout, buf, err);
	free(text);
	if (rc && err)
		err->code = PCB_E_DEVICE;
	return rc ? -PCB_E_DEVICE : 0;
}

static const struct reg_backend_ops nic_ops[3] = {
	[FZ_NIC_SIM] = { .name = "fznic-sim", .caps = REG_CAP_REAL,
			 .priv_size = sizeof(struct nic_dev),
			 .open = nic_open, .close = nic_close,
			 .access = nic_access },
	[FZ_NIC_FWCTL] = { .name = "fznic-fwctl", .caps = REG_CAP_REAL,
			   .priv_size = sizeof(struct nic_dev),
			   .open = nic_open, .close = nic_close,
			   .access = nic_access },
	[FZ_NIC_MSTREG] = { .name = "fznic-mstreg",
			    .caps = REG_CAP_REAL | REG_CAP_NO_BULK_SET,
			    .priv_size = sizeof(struct nic_dev),
			    .open = nic_open, .close = nic_close,
			    .access = nic_access },
};

int fz_nic_session(struct session *s, const char *devname, enum fz_nic kind,
		   const uint8_t *data, size_t size)
{
	char path[4096];
	struct adb_db *db = NULL;
	struct adb_reg *layout = NULL;
	int rc;

	fz_session(s, devname);
	nic_data = data;
	nic_left = size;
	fz_nic_replies = 0;
	rc = pcb_data_file(path, sizeof(path), "reg/ppcc.adb", &s->err);
	if (!rc)
		rc = adb_db_load_file(&db, path, &s->err);
	if (!rc)
		rc = adb_reg_load(db, "PPCC", &layout, &s->err);
	adb_db_free(db);
	if (!rc)
		rc = reg_dev_open(&s->cur->dev, &nic_ops[kind], devname,
				  devname,
				  &s->err);
	if (rc) {
		adb_reg_free(layout);
		return rc;
	}
	/* FZ_NIC_MSTREG parses its replies with it */
	to_nic(s->cur->dev)->layout = layout;
	rec_layout = layout;
	rc = ppcc_init(&s->cur->ppcc, s->cur->dev, layout, &s->err);
	if (rc)
		return rc;
	s->cur->have_ppcc = true;
	/* what sess_device does for a real NIC after the backend: identity,
	 * journal (its lock file is opened by sess_lock when needed) */
	snprintf(s->cur->devid, sizeof(s->cur->devid), "%s", devname);
	return journal_open(&s->cur->journal, s->cur->devid, &s->err);
}

/* ---- header checksums ---------------------------------------------------- */

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint32_t hdr_crc(const uint8_t *buf, size_t hlen, size_t off)
{
	uint8_t *c = malloc(hlen);
	uint32_t v;

	if (!c)
		abort();
	memcpy(c, buf, hlen);
	memset(c + off, 0, 4);
	v = pcb_crc32(0, c, hlen);
	free(c);
	return v;
}

long fz_crc_offset(const char *path)
{
	uint8_t buf[65536];
	size_t len, hlen, off;
	FILE *fp = fopen(path, "rb");

	if (!fp)
		return -1;
	len = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	if (len < 16)
		return -1;
	hlen = get32(buf + 12);
	if (hlen < 20 || hlen > len)
		return -1;
	for (off = 16; off + 4 <= hlen; off += 4)
		if (get32(buf + off) == hdr_crc(buf, hlen, off))
			return (long)off;
	return -1;
}

void fz_crc_fix(uint8_t *buf, size_t len, long off)
{
	size_t hlen;
	uint32_t v;

	if (off < 0 || len < 16)
		return;
	hlen = get32(buf + 12);
	if (hlen > len || (size_t)off + 4 > hlen)
		return;
	v = hdr_crc(buf, hlen, (size_t)off);
	memcpy(buf + off, &v, 4);
}

void fz_nic_seed(enum fz_nic kind, const char *setup, const char *cmds,
		 const char *name)
{
	char path[PATH_MAX + 300];
	struct session s;

	snprintf(path, sizeof(path), "%s/%s", fz_seeds_dir(), name);
	fz_begin();
	if (setup) {	/* for real, in a session of its own */
		if (fz_nic_session(&s, "fznic", FZ_NIC_SIM, NULL, 0))
			abort();
		s.dry_run = false;
		fz_run(&s, "%s", setup);
		sess_release(&s);
		/* the replay starts without the info cache it wrote */
		snprintf(path, sizeof(path), "%s/cache", root);
		rm_under(path);
		snprintf(path, sizeof(path), "%s/%s", fz_seeds_dir(), name);
	}
	if (fz_nic_session(&s, "fznic", FZ_NIC_SIM, NULL, 0))
		abort();
	s.force = true;
	fz_nic_record(kind == FZ_NIC_FWCTL ? path : NULL,
		      kind == FZ_NIC_MSTREG ? path : NULL);
	fz_run(&s, "%s", cmds);
	fz_nic_record(NULL, NULL);
	sess_release(&s);
	fz_end();
}
