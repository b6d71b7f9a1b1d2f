/* fsafe.c - opening, creating and replacing files without following what
 * somebody planted (see fsafe.h).
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsafe.h"

static int open_error(const char *path, int e, struct pcb_err *err)
{
	if (e == ENOENT)
		return pcb_error(err, PCB_E_NOENT, "'%s' does not exist", path);
	if (e == ELOOP)
		return pcb_error(err, PCB_E_CORRUPT, "'%s' is a symbolic link; "
				 "pccbench does not follow links to its files",
				 path);
	return pcb_error(err, PCB_E_IO, "cannot open '%s': %s", path,
			 strerror(e));
}

/* After an O_NONBLOCK open: a regular file (with one link when `single`),
 * then blocking again.
 */
static int check_regular(int fd, const char *path, bool single,
			 struct pcb_err *err)
{
	struct stat st;
	int fl;

	if (fstat(fd, &st))
		return pcb_error(err, PCB_E_IO, "cannot stat '%s': %s", path,
				 strerror(errno));
	if (!S_ISREG(st.st_mode))
		return pcb_error(err, PCB_E_CORRUPT, "'%s' is not a regular "
				 "file", path);
	if (single && st.st_nlink > 1)
		return pcb_error(err, PCB_E_CORRUPT, "'%s' has %lu hard links; "
				 "pccbench writes only files of its own",
				 path, (unsigned long)st.st_nlink);
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK))
		return pcb_error(err, PCB_E_IO, "cannot use '%s': %s", path,
				 strerror(errno));
	return 0;
}

int pcb_open_read(const char *path, struct pcb_err *err)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	int rc;

	if (fd < 0)
		return open_error(path, errno, err);
	rc = check_regular(fd, path, false, err);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

FILE *pcb_fopen_read(const char *path, struct pcb_err *err)
{
	int fd = pcb_open_read(path, err);
	FILE *fp;

	if (fd < 0)
		return NULL;
	fp = fdopen(fd, "r");
	if (!fp) {
		pcb_error(err, PCB_E_NOMEM, "cannot read '%s': %s", path,
			  strerror(errno));
		close(fd);
	}
	return fp;
}

int pcb_read_file(const char *path, size_t max, char **buf, size_t *len,
		  struct pcb_err *err)
{
	int fd = pcb_open_read(path, err);
	size_t n = 0, cap = 4096;
	char *b;
	ssize_t got;

	*buf = NULL;
	if (fd < 0)
		return fd;
	b = malloc(cap + 1);
	for (;;) {
		if (!b) {
			close(fd);
			return pcb_error(err, PCB_E_NOMEM, "out of memory");
		}
		got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(b);
			close(fd);
			return pcb_error(err, PCB_E_IO, "cannot read '%s': %s",
					 path, strerror(e));
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max) {
			free(b);
			close(fd);
			return pcb_error(err, PCB_E_CORRUPT, "'%s' is larger "
					 "than %zu bytes", path, max);
		}
		if (n == cap) {
			char *nb = realloc(b, cap * 2 + 1);

			if (!nb)
				free(b);
			b = nb;
			cap *= 2;
		}
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	if (len)
		*len = n;
	return 0;
}

int pcb_open_rw(const char *path, int flags, mode_t mode,
		struct pcb_err *err)
{
	int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK |
			    (flags & (O_CREAT | O_APPEND)), mode);
	int rc;

	if (fd < 0)
		return open_error(path, errno, err);
	rc = check_regular(fd, path, true, err);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

/* mkstemp beside `path`: "dir/.name.XXXXXX", hidden, in the target's own
 * directory (so the rename is atomic).  The fd, or -PCB_E_*.
 */
static int tmp_beside(const char *path, char **tmp, struct pcb_err *err)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
	size_t bl = strlen(path) - dl;
	int fd;

	*tmp = NULL;
	if (bl == 0 || bl > NAME_MAX - 8)
		return pcb_error(err, PCB_E_INVAL, "bad file name '%s'", path);
	*tmp = malloc(dl + bl + 10);
	if (!*tmp)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	memcpy(*tmp, path, dl);
	(*tmp)[dl] = '.';
	memcpy(*tmp + dl + 1, path + dl, bl);
	memcpy(*tmp + dl + 1 + bl, ".XXXXXX", 8);
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		free(*tmp);
		*tmp = NULL;
		if (e == ENOENT || e == ENOTDIR)
			return pcb_error(err, PCB_E_NOENT, "cannot write '%s': "
					 "its directory does not exist", path);
		return pcb_error(err, PCB_E_IO, "cannot create a file beside "
				 "'%s': %s", path, strerror(e));
	}
	return fd;
}

int pcb_tmp_beside(const char *path, mode_t mode, char **tmp,
		   struct pcb_err *err)
{
	int fd = tmp_beside(path, tmp, err);

	if (fd < 0)
		return fd;
	if (fchmod(fd, mode)) {
		int e = errno;

		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return pcb_error(err, PCB_E_IO, "cannot write '%s': %s", path,
				 strerror(e));
	}
	close(fd);
	return 0;
}

static int wfile_begin(struct pcb_wfile *w, const char *path, mode_t mode,
		       bool noreplace, struct pcb_err *err)
{
	int fd;

	memset(w, 0, sizeof(*w));
	w->path = strdup(path);
	if (!w->path)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	fd = tmp_beside(path, &w->tmp, err);
	if (fd < 0) {
		pcb_wfile_abort(w);
		return fd;
	}
	w->fp = fdopen(fd, "w");
	if (!w->fp) {
		close(fd);
		pcb_wfile_abort(w);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	w->mode = mode;
	w->noreplace = noreplace;
	return 0;
}

int pcb_wfile_open(struct pcb_wfile *w, const char *path, mode_t mode,
		   struct pcb_err *err)
{
	return wfile_begin(w, path, mode, false, err);
}

int pcb_wfile_create(struct pcb_wfile *w, const char *path, mode_t mode,
		     struct pcb_err *err)
{
	return wfile_begin(w, path, mode, true, err);
}

void pcb_wfile_abort(struct pcb_wfile *w)
{
	if (w->fp)
		fclose(w->fp);
	if (w->tmp)
		unlink(w->tmp);
	free(w->tmp);
	free(w->path);
	memset(w, 0, sizeof(*w));
}

int pcb_wfile_commit(struct pcb_wfile *w, struct pcb_err *err)
{
	int fd = fileno(w->fp), bad, rc = 0, e = 0;

	bad = fflush(w->fp) || ferror(w->fp) || fchmod(fd, w->mode) ||
	      fsync(fd);
	e = errno;
	if (fclose(w->fp) && !bad) {
		bad = 1;
		e = errno;
	}
	w->fp = NULL;
	if (bad) {
		rc = pcb_error(err, PCB_E_IO, "cannot write '%s': %s", w->path,
			       strerror(e));
	} else if (w->noreplace) {
		/* link() never follows or replaces what is at the target */
		if (link(w->tmp, w->path))
			rc = pcb_error(err, errno == EEXIST ? PCB_E_STATE :
				       PCB_E_IO, "cannot create '%s': %s",
				       w->path, errno == EEXIST ?
				       "it exists already" : strerror(errno));
	} else if (rename(w->tmp, w->path)) {
		rc = pcb_error(err, PCB_E_IO, "cannot write '%s': %s", w->path,
			       strerror(errno));
	} else {
		free(w->tmp);	/* renamed: nothing to remove */
		w->tmp = NULL;
	}
	pcb_wfile_abort(w);
	return rc;
}

int pcb_write_file(const char *path, const void *buf, size_t len,
		   mode_t mode, struct pcb_err *err)
{
	struct pcb_wfile w;
	int rc = pcb_wfile_open(&w, path, mode, err);

	if (rc)
		return rc;
	if (len && fwrite(buf, 1, len, w.fp) != len) {
		pcb_wfile_abort(&w);
		return pcb_error(err, PCB_E_IO, "cannot write '%s'", path);
	}
	return pcb_wfile_commit(&w, err);
}

int pcb_check_dir(const char *path, struct pcb_err *err)
{
	struct stat st;

	if (lstat(path, &st))
		return pcb_error(err, PCB_E_IO, "cannot use '%s': %s", path,
				 strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return pcb_error(err, PCB_E_CORRUPT, "'%s' is not a directory "
				 "(a link or a file is in its place)", path);
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return pcb_error(err, PCB_E_CORRUPT, "'%s' belongs to uid %lu, "
				 "not to you", path, (unsigned long)st.st_uid);
	return 0;
}

/* CRC-32 (IEEE 802.3, reflected, as zlib's), a byte at a time through a
 * table of the 256 remainders, built once.
 */
static uint32_t crc_table[256];

static void crc_table_init(void)
{
	uint32_t i, c;
	int k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c >> 1 ^ (0xedb88320U & (0U - (c & 1)));
		crc_table[i] = c;
	}
}

uint32_t pcb_crc32(uint32_t crc, const void *buf, size_t len)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const unsigned char *p = buf;

	pthread_once(&once, crc_table_init);
	crc = ~crc;
	while (len--)
		crc = crc >> 8 ^ crc_table[(crc ^ *p++) & 0xff];
	return ~crc;
}

int pcb_crc_seal(char **buf, size_t *len)
{
	char tail[20];
	char *nb;
	int n = snprintf(tail, sizeof(tail), "crc %08x\n",
			 pcb_crc32(0, *buf, *len));

	nb = realloc(*buf, *len + (size_t)n + 1);
	if (!nb)
		return -1;
	memcpy(nb + *len, tail, (size_t)n + 1);
	*buf = nb;
	*len += (size_t)n;
	return 0;
}

bool pcb_crc_check(const char *buf, size_t *len)
{
	size_t n = *len;
	unsigned v;
	char *end;

	/* "crc XXXXXXXX\n" ends the text and covers what is before it */
	if (n < 13 || memcmp(buf + n - 13, "crc ", 4) || buf[n - 1] != '\n' ||
	    (n > 13 && buf[n - 14] != '\n'))
		return false;
	errno = 0;
	v = (unsigned)strtoul(buf + n - 9, &end, 16);
	if (end != buf + n - 1 || errno || memchr(buf, '\0', n))
		return false;
	if (pcb_crc32(0, buf, n - 13) != v)
		return false;
	*len = n - 13;
	return true;
}

int pcb_copy_file(const char *from, const char *to, struct pcb_err *err)
{
	struct pcb_err e = { 0, "" };
	char buf[16384];
	int in = pcb_open_read(from, &e), out, rc = 0;
	ssize_t n;

	if (in == -PCB_E_NOENT)
		return 0;
	if (in < 0)
		return pcb_error(err, e.code, "%s", e.msg);
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		   PCB_MODE_STATE);
	if (out < 0) {
		rc = pcb_error(err, PCB_E_IO, "cannot create '%s': %s", to,
			       strerror(errno));
		close(in);
		return rc;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		ssize_t o = 0, w;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		while (o < n && (w = write(out, buf + o, (size_t)(n - o))) > 0)
			o += w;
		if (o < n)
			break;
	}
	if (n != 0)
		rc = pcb_error(err, PCB_E_IO, "cannot copy '%s' to '%s': %s",
			       from, to, strerror(errno));
	close(in);
	if (close(out) && !rc)
		rc = pcb_error(err, PCB_E_IO, "cannot write '%s': %s", to,
			       strerror(errno));
	return rc;
}
