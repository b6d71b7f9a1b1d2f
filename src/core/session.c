/* session.c - the session: made, the device lock, warnings and dry-run
 * lines.  Its device is opened and released in open.c, its slot views
 * are views.c, its values values.c, its checked writes and their
 * confirmation write.c (session.h for all).  This file does not know the
 * device object: open.c sits between the two.
 */
#include <sys/file.h>
#include <strings.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fsafe.h"
#include "paths.h"
#include "session.h"
#include "units.h"
#include "mstreg.h"
#include <unistd.h>

void sess_init(struct session *s, const char *devname)
{
	memset(s, 0, sizeof(*s));
	s->devname = strdup(devname ? devname : "sim");
	s->errfp = stderr;
	s->lock_fd = -1;
	out_init(&s->out, stdout, false, false);
}

void sess_warn(struct session *s, const char *fmt, ...)
{
	va_list ap;

	fputs("warning: ", s->errfp);
	va_start(ap, fmt);
	vfprintf(s->errfp, fmt, ap);
	va_end(ap);
	fputc('\n', s->errfp);
}

static int lock_open(struct session *s)
{
	char path[PCB_PATH_LEN];
	int rc = pcb_user_file(path, sizeof(path), PCB_DIR_STATE, "lock",
			       s->devid, ".lock", &s->err);

	if (!rc)
		rc = pcb_open_rw(path, O_CREAT, PCB_MODE_STATE, &s->err);
	if (rc < 0)
		return rc;
	s->lock_fd = rc;
	return 0;
}

int sess_lock(struct session *s)
{
	double t0 = pcb_mono_s();
	bool told = false;
	char pid[24];
	int rc, n;

	if (s->dry_run)		/* nothing is written: nothing to order */
		return 0;
	if (s->lock_depth) {
		s->lock_depth++;
		return 0;
	}
	rc = sess_device(s);	/* its identity and journal */
	if (!rc && s->lock_fd < 0)
		rc = lock_open(s);
	while (!rc && flock(s->lock_fd, LOCK_EX | LOCK_NB)) {
		double waited = pcb_mono_s() - t0;

		if (errno != EWOULDBLOCK && errno != EINTR)
			return pcb_error(&s->err, PCB_E_IO, "cannot lock device "
					 "%s: %s", s->devid, strerror(errno));
		n = (int)pread(s->lock_fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		if (s->stop && *s->stop)
			return pcb_error(&s->err, PCB_E_INTR, "interrupted");
		if (waited > 60)
			return pcb_error(&s->err, PCB_E_BUSY, "device %s is busy: "
					 "pccbench pid %s has held its lock for "
					 "a minute", s->devid, *pid ? pid : "?");
		if (waited > 1 && !told) {
			sess_warn(s, "waiting for device %s: pccbench pid %s "
				  "is writing to it", s->devid,
				  *pid ? pid : "?");
			told = true;
		}
		usleep(5000);
	}
	if (rc)
		return rc;
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	/* who holds it, for the message above; nothing depends on it */
	if (!ftruncate(s->lock_fd, 0))
		n = (int)pwrite(s->lock_fd, pid, (size_t)n, 0);
	s->lock_depth = 1;
	rc = journal_reload(s->journal, &s->err);
	if (rc)
		sess_unlock(s);
	return rc;
}

void sess_unlock(struct session *s)
{
	if (!s->dry_run && s->lock_depth && !--s->lock_depth)
		flock(s->lock_fd, LOCK_UN);
}

/* ---- confirmation ------------------------------------------------------- */

/* ---- dry run ------------------------------------------------------------ */

void sess_dry_line(struct session *s, enum reg_method m, const uint8_t *buf)
{
	struct pcb_err e = { 0 };
	char *line = NULL, **nd;

	/* the argv the mstreg backend would run, shell-quoted */
	if (mstreg_command_line(s->mstreg_prog, s->devname, s->ppcc.layout, m,
				buf, &line, &e))
		return;
	nd = realloc(s->dry, (s->ndry + 1) * sizeof(*nd));
	if (!nd) {
		free(line);
		return;
	}
	s->dry = nd;
	s->dry[s->ndry++] = line;
}

void sess_dry_flush(struct session *s)
{
	size_t i;

	if (!s->ndry)
		return;
	if (s->out.json) {
		out_obj_begin(&s->out, NULL);
		out_arr_begin(&s->out, "dry_run");
		for (i = 0; i < s->ndry; i++)
			out_str(&s->out, NULL, s->dry[i]);
		out_arr_end(&s->out);
		out_obj_end(&s->out);
	} else {
		for (i = 0; i < s->ndry; i++)
			fprintf(s->out.fp, "%s\n", s->dry[i]);
	}
	for (i = 0; i < s->ndry; i++)
		free(s->dry[i]);
	s->ndry = 0;
}
