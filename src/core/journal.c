/* journal.c - the write-ahead journal of register writes. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsafe.h"
#include "journal.h"
#include "who.h"
#include "paths.h"

#define JOURNAL_MAX_LINE 512
/* More than any real journal holds (a record is at most ~530 bytes: over
 * 120,000 of them, and restore or clear empties it); a bigger file, a
 * sparse or runaway one, is not read (200 MB took seconds at every
 * start) and takes no write.
 */
#define JOURNAL_MAX_MB 64
#define CRC_TAIL 13		/* " crc=XXXXXXXX" */

struct jsession {
	long pid;
	bool ended;
};

struct journal {
	char *path;
	int fd;
	bool started;		/* this process wrote its "S" line */
	unsigned next_seq;
	size_t n, cap;
	struct jentry *e;
	size_t nsess, sesscap;
	struct jsession *sess;
	size_t bad;		/* damaged records */
	size_t first_bad;	/* the line of the first */
	bool torn;		/* a partial last line (a crash mid-append) */
	long long huge;		/* its size, when too large to be read */
};

const char *journal_path(const struct journal *j)
{
	return j->path;
}

unsigned journal_next_seq(const struct journal *j)
{
	return j->next_seq;
}

size_t journal_count(const struct journal *j)
{
	return j->n;
}

const struct jentry *journal_entry(const struct journal *j, size_t i)
{
	return i < j->n ? &j->e[i] : NULL;
}

size_t journal_bad_lines(const struct journal *j, size_t *first)
{
	if (first)
		*first = j->first_bad;
	return j->bad;
}

static int add_entry(struct journal *j, const struct jentry *e)
{
	if (j->n == j->cap) {
		size_t nc = j->cap ? j->cap * 2 : 32;
		struct jentry *ne = realloc(j->e, nc * sizeof(*ne));

		if (!ne)
			return -1;
		j->e = ne;
		j->cap = nc;
	}
	j->e[j->n++] = *e;
	return 0;
}

static struct jsession *find_sess(struct journal *j, long pid, bool add)
{
	size_t i;

	for (i = j->nsess; i-- > 0;)
		if (j->sess[i].pid == pid && !j->sess[i].ended)
			return &j->sess[i];
	if (!add)
		return NULL;
	if (j->nsess == j->sesscap) {
		size_t nc = j->sesscap ? j->sesscap * 2 : 8;
		struct jsession *ns = realloc(j->sess, nc * sizeof(*ns));

		if (!ns)
			return NULL;
		j->sess = ns;
		j->sesscap = nc;
	}
	j->sess[j->nsess].pid = pid;
	j->sess[j->nsess].ended = false;
	return &j->sess[j->nsess++];
}

/* A record's own checksum: " crc=XXXXXXXX" over the text before it. */
static bool line_crc_ok(char *line, size_t len)
{
	char *end;
	unsigned long v;

	if (len < CRC_TAIL + 1 || memcmp(line + len - CRC_TAIL, " crc=", 5))
		return false;
	errno = 0;
	v = strtoul(line + len - 8, &end, 16);
	if (*end || errno || pcb_crc32(0, line, len - CRC_TAIL) != v)
		return false;
	line[len - CRC_TAIL] = '\0';
	return true;
}

static void mark_bad(struct journal *j, size_t lineno)
{
	if (!j->bad++)
		j->first_bad = lineno;
}

/* The rest of an "S pid" record since who the process ran as was
 * recorded: " uid=N user=NAME host=NAME" (older journals have none).
 */
static bool who_ok(const char *line)
{
	char user[64], host[256], tail;
	unsigned uid;
	const char *t = strchr(line + 2, ' ');

	return t && sscanf(t, " uid=%u user=%63s host=%255s%c", &uid, user,
			   host, &tail) == 3;
}

/* Parse one record (checksum already checked); false if malformed. */
static bool parse_line(struct journal *j, char *line)
{
	struct jentry e;
	char kind[8], res[16], tail;
	unsigned seq;
	long pid;
	int n;

	memset(&e, 0, sizeof(e));
	n = sscanf(line, "S %ld%c", &pid, &tail);
	if (n == 1 || (n == 2 && tail == ' ' && who_ok(line))) {
		return find_sess(j, pid, true) != NULL;
	}
	if (sscanf(line, "E %ld%c", &pid, &tail) == 1) {
		struct jsession *s = find_sess(j, pid, false);

		if (s)
			s->ended = true;
		return true;
	}
	if (sscanf(line, "D %u %15s%c", &seq, res, &tail) == 2 &&
	    (!strcmp(res, "ok") || !strcmp(res, "failed"))) {
		size_t i;

		for (i = 0; i < j->n; i++)
			if (j->e[i].seq == seq)
				j->e[i].outcome = strcmp(res, "ok") ? -1 : 1;
		return true;
	}
	n = sscanf(line, "W %u %lld %ld %7s slot=%u index=%u name=%63s "
		   "old=%u new=%u", &e.seq, &e.time, &e.pid, kind, &e.slot,
		   &e.index, e.name, &e.old, &e.new);
	if (n == 9 && !strcmp(kind, "param") && e.slot < 16) {
		e.kind = J_PARAM;
	} else {
		n = sscanf(line, "W %u %lld %ld %7s slot=%u old=%u new=%u",
			   &e.seq, &e.time, &e.pid, kind, &e.slot, &e.old,
			   &e.new);
		if (n != 7 || strcmp(kind, "algo") || e.slot >= 16 ||
		    e.old > 3 || e.new > 3)
			return false;
		e.kind = J_ALGO;
	}
	{
		const char *t = strstr(line, " tx=");

		if (t && sscanf(t, " tx=%u", &e.tx) != 1)
			return false;
		t = strstr(line, " host=");
		if (t && (e.kind != J_PARAM ||
			  sscanf(t, " host=%u", &e.nic) != 1 ||
			  e.nic >= UINT32_MAX - 1))
			return false;
		if (t)
			e.nic++;	/* host N: N + 1 */
		e.fleet = e.nic && strstr(line, " was=shared");
		t = strstr(line, " undo=");
		if (t && (sscanf(t, " undo=%u", &e.undo) != 1 || !e.undo))
			return false;
	}
	/* a time a calendar can show (year 1970..9999), a real pid */
	if (!e.seq || e.time < 0 || e.time > 253402300799LL || e.pid <= 0 ||
	    add_entry(j, &e))
		return false;
	if (e.seq >= j->next_seq)
		j->next_seq = e.seq + 1;
	return true;
}

static void forget(struct journal *j)
{
	j->n = 0;
	j->nsess = 0;
	j->bad = 0;
	j->first_bad = 0;
	j->torn = false;
	j->huge = 0;
	j->next_seq = 1;
}

/* Read the whole journal afresh.  Every record must carry its checksum;
 * a record that does not (a NUL-filled block after a power loss, a flipped
 * bit) is counted as damaged.  A partial last line without NULs is an
 * append cut short by a crash: its write was never sent.
 */
static int journal_load(struct journal *j, struct pcb_err *err)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	struct stat st;
	FILE *fp;
	int fd;

	forget(j);
	if (fstat(j->fd, &st))
		return pcb_error(err, PCB_E_IO, "cannot read '%s': %s",
				 j->path, strerror(errno));
	if (st.st_size > (off_t)JOURNAL_MAX_MB << 20) {
		j->huge = (long long)st.st_size;
		return 0;
	}
	fd = dup(j->fd);
	if (fd < 0 || !(fp = fdopen(fd, "r"))) {
		if (fd >= 0)
			close(fd);
		return pcb_error(err, PCB_E_IO, "cannot read '%s': %s",
				 j->path, strerror(errno));
	}
	rewind(fp);
	while ((len = getline(&line, &cap, fp)) > 0) {
		bool nul = memchr(line, '\0', (size_t)len) != NULL;

		lineno++;
		if (line[len - 1] != '\n') {
			if (nul)
				mark_bad(j, lineno);
			else
				j->torn = true;
			continue;
		}
		line[--len] = '\0';
		if (nul || len >= JOURNAL_MAX_LINE ||
		    !line_crc_ok(line, (size_t)len) || !parse_line(j, line))
			mark_bad(j, lineno);
	}
	free(line);
	fclose(fp);
	return 0;
}

int journal_open(struct journal **out, const char *device,
		 struct pcb_err *err)
{
	char path[PCB_PATH_LEN];
	struct journal *j;
	int rc;

	rc = pcb_user_file(path, sizeof(path), PCB_DIR_STATE, "journal", device,
			   ".log", err);
	if (rc)
		return rc;
	j = calloc(1, sizeof(*j));
	if (!j || !(j->path = strdup(path))) {
		free(j);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	j->next_seq = 1;
	j->fd = pcb_open_rw(path, O_CREAT | O_APPEND, PCB_MODE_STATE, err);
	if (j->fd < 0) {
		rc = j->fd;
		free(j->path);
		free(j);
		return rc;
	}
	flock(j->fd, LOCK_SH);
	rc = journal_load(j, err);
	flock(j->fd, LOCK_UN);
	if (rc) {
		journal_close(j);
		return rc;
	}
	*out = j;
	return 0;
}

/* Append one record (text without newline) with its checksum and fsync
 * it, under the file lock.
 */
static int journal_append(struct journal *j, const char *text,
			  struct pcb_err *err)
{
	char line[JOURNAL_MAX_LINE + CRC_TAIL + 2];
	size_t len = (size_t)snprintf(line, sizeof(line), "%s crc=%08x\n",
				      text, pcb_crc32(0, text, strlen(text)));
	int rc = 0;

	flock(j->fd, LOCK_EX);
	if (write(j->fd, line, len) != (ssize_t)len || fdatasync(j->fd))
		rc = pcb_error(err, PCB_E_IO,
			       "cannot write journal '%s': %s; nothing was "
			       "sent to the device", j->path, strerror(errno));
	flock(j->fd, LOCK_UN);
	return rc;
}

void journal_close(struct journal *j)
{
	char line[64];

	if (!j)
		return;
	if (j->started) {
		snprintf(line, sizeof(line), "E %ld", (long)getpid());
		journal_append(j, line, NULL);
	}
	close(j->fd);
	free(j->e);
	free(j->sess);
	free(j->path);
	free(j);
}

bool journal_too_large(const struct journal *j, char *msg, size_t len)
{
	if (j->huge)
		snprintf(msg, len, "journal '%s' is %lld MB, too large to be "
			 "a real one (at most %d MB): not read, and no write "
			 "is made; check the device, then 'journal clear'",
			 j->path, j->huge >> 20, JOURNAL_MAX_MB);
	return j->huge;
}

int journal_begin(struct journal *j, struct jentry *e, struct pcb_err *err)
{
	char line[JOURNAL_MAX_LINE];
	int rc;

	if (journal_too_large(j, line, sizeof(line)))
		return pcb_error(err, PCB_E_CORRUPT, "%s", line);

	if (!j->started) {
		struct who w;

		who_am_i(&w);
		snprintf(line, sizeof(line), "S %ld uid=%u user=%s host=%s",
			 w.pid, (unsigned)w.uid, w.user, w.host);
		rc = journal_append(j, line, err);
		if (rc)
			return rc;
		j->started = true;
		find_sess(j, (long)getpid(), true);
	}
	e->seq = j->next_seq++;
	e->time = (long long)time(NULL);
	e->pid = (long)getpid();
	e->outcome = 0;
	if (e->kind == J_PARAM)
		snprintf(line, sizeof(line),
			 "W %u %lld %ld param slot=%u index=%u name=%s old=%u "
			 "new=%u", e->seq, e->time, e->pid, e->slot,
			 e->index, e->name[0] ? e->name : "?", e->old, e->new);
	else
		snprintf(line, sizeof(line),
			 "W %u %lld %ld algo slot=%u old=%u new=%u", e->seq,
			 e->time, e->pid, e->slot, e->old, e->new);
	if (e->kind == J_PARAM && e->nic)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 " host=%u%s", e->nic - 1,
			 e->fleet ? " was=shared" : "");
	if (e->tx)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 " tx=%u", e->tx);
	if (e->undo)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 " undo=%u", e->undo);
	rc = journal_append(j, line, err);
	if (rc)
		return rc;
	if (add_entry(j, e))
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	return 0;
}

int journal_end(struct journal *j, unsigned seq, bool ok,
		struct pcb_err *err)
{
	char line[64];
	size_t i;

	for (i = 0; i < j->n; i++)
		if (j->e[i].seq == seq)
			j->e[i].outcome = ok ? 1 : -1;
	snprintf(line, sizeof(line), "D %u %s", seq, ok ? "ok" : "failed");
	return journal_append(j, line, err);
}

bool journal_unclean(const struct journal *j, char *msg, size_t len)
{
	size_t i, pending = 0, s;
	long dead_pid = 0;

	for (i = 0; i < j->n; i++)
		if (j->e[i].outcome == 0 && j->e[i].pid != (long)getpid())
			pending++;
	for (s = 0; s < j->nsess; s++) {
		long pid = j->sess[s].pid;

		if (j->sess[s].ended || pid == (long)getpid())
			continue;
		/* still running elsewhere is not unclean */
		if (kill((pid_t)pid, 0) == 0 || errno == EPERM)
			continue;
		dead_pid = pid;
	}
	if (!pending && !dead_pid)
		return false;
	if (dead_pid)
		snprintf(msg, len,
			 "journal '%s' is unclean: pid %ld stopped without "
			 "closing it (%zu write%s unconfirmed); 'journal show' "
			 "lists the writes, 'journal restore' undoes them",
			 j->path, dead_pid, pending, pending == 1 ? "" : "s");
	else
		snprintf(msg, len,
			 "journal '%s' is unclean: %zu write%s unconfirmed; "
			 "'journal show' lists the writes, 'journal restore' "
			 "undoes them", j->path, pending,
			 pending == 1 ? "" : "s");
	return true;
}

int journal_reload(struct journal *j, struct pcb_err *err)
{
	int rc;

	flock(j->fd, LOCK_SH);
	rc = journal_load(j, err);
	flock(j->fd, LOCK_UN);
	if (!rc && j->started)	/* our "S" line was cleared by another */
		j->started = find_sess(j, (long)getpid(), false) != NULL;
	return rc;
}

int journal_clear(struct journal *j, struct pcb_err *err)
{
	flock(j->fd, LOCK_EX);
	if (ftruncate(j->fd, 0)) {
		int e = errno;

		flock(j->fd, LOCK_UN);
		return pcb_error(err, PCB_E_IO, "cannot clear '%s': %s",
				 j->path, strerror(e));
	}
	fdatasync(j->fd);
	flock(j->fd, LOCK_UN);
	forget(j);
	j->started = false;
	return 0;
}
