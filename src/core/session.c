/* session.c - the session: its device opened and released, the device
 * lock, confirmation and dry-run lines.  Its slot views are views.c, its
 * values values.c, its checked writes write.c (session.h for all).
 */
#include <ctype.h>
#include <fcntl.h>
#include <sys/file.h>
#include <strings.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fsafe.h"
#include "fxp.h"
#include "paths.h"
#include "host/hostctr.h"
#include "session.h"
#include "suggest.h"
#include "units.h"
#include "device.h"
#include "tel/diag.h"
#include "mstreg.h"
#include "fwctl.h"
#include "discover.h"
#include <unistd.h>

void sess_init(struct session *s, const char *devname)
{
	memset(s, 0, sizeof(*s));
	s->devname = strdup(devname ? devname : "sim");
	s->errfp = stderr;
	s->lock_fd = -1;
	out_init(&s->out, stdout, false, false);
}

static void views_release(struct session *s)
{
	unsigned i;

	s->info_valid = false;
	for (i = 0; i < PPCC_SLOTS; i++) {
		free(s->slots[i].params);
		free(s->slots[i].counters);
		memset(&s->slots[i], 0, sizeof(s->slots[i]));
	}
}

static void device_release(struct session *s)
{
	/* the histogram keeps running on the device; the context goes */
	free(s->retx);
	s->retx = NULL;
	if (s->diag)	/* sampling goes on; ownership ends */
		tel_diag_release(s->diag);
	free(s->diag);
	s->diag = NULL;
	dev_close(s);
	views_release(s);
	if (s->have_ppcc)
		ppcc_release(&s->ppcc);
	s->have_ppcc = false;
	reg_dev_close(s->dev);
	s->dev = NULL;
	journal_close(s->journal);
	s->journal = NULL;
	if (s->host)
		hostctr_close(s->host);
	free(s->host);
	free(s->host_prev);
	s->host = NULL;
	s->host_prev = NULL;
	if (s->lock_fd >= 0)
		close(s->lock_fd);	/* drops the lock too */
	s->lock_fd = -1;
	s->lock_depth = 0;
	s->devid[0] = '\0';
}

void sess_release(struct session *s)
{
	size_t i;

	device_release(s);
	for (i = 0; i < s->ndescs; i++)
		algo_desc_free(s->descs[i]);
	for (i = 0; i < s->ndry; i++)
		free(s->dry[i]);
	free(s->dry);
	free(s->devname);
	free(s->adb_path);
	free(s->backend);
	free(s->mstreg_prog);
}

int sess_set_device(struct session *s, const char *devname)
{
	char bdf[32];
	char *n;

	/* 08:00.0 and 0000:08:00.0 are one device (and one journal) */
	if (pcb_is_pci_name(devname) &&
	    !pcb_resolve_pci(devname, bdf, sizeof(bdf), NULL))
		devname = bdf;
	n = strdup(devname);

	if (!n)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	device_release(s);
	free(s->devname);
	s->devname = n;
	return 0;
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

static int load_ppcc_layout(struct session *s, struct adb_reg **out)
{
	char path[PCB_PATH_LEN];
	struct adb_db *db = NULL;
	int rc;

	rc = pcb_data_file(path, sizeof(path), "reg/ppcc.adb", &s->err);
	if (rc)
		return rc;
	rc = adb_db_load_file(&db, path, &s->err);
	if (rc)
		return rc;
	rc = adb_reg_load(db, "PPCC", out, &s->err);
	adb_db_free(db);
	return rc;
}

int sess_device(struct session *s)
{
	struct adb_reg *layout = NULL;
	char msg[1024];
	size_t bad_line;
	int rc;

	if (s->dev)
		return 0;
	rc = load_ppcc_layout(s, &layout);
	if (!rc) {
		rc = dev_open(s, layout);
		if (rc) {	/* ppcc_init takes it, but not here */
			adb_reg_free(layout);
			layout = NULL;
		}
	}
	if (!rc)
		rc = ppcc_init(&s->ppcc, s->dev, layout, &s->err);
	if (!rc) {
		s->have_ppcc = true;
		rc = journal_open(&s->journal, s->devid, &s->err);
	}
	if (rc) {
		device_release(s);
		return rc;
	}
	if (journal_unclean(s->journal, msg, sizeof(msg)))
		sess_warn(s, "%s", msg);
	if (journal_bad_lines(s->journal, &bad_line))
		sess_warn(s, "journal '%s' has %zu damaged record(s), the "
			  "first at line %zu; 'journal restore' will not clear "
			  "it", journal_path(s->journal),
			  journal_bad_lines(s->journal, NULL), bad_line);
	return 0;
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

int sess_confirm(struct session *s, const char *what)
{
	char line[32];

	if (s->read_only)
		return pcb_error(&s->err, PCB_E_STATE,
				 "read-only session: will not %s", what);
	if (!(dev_traits(s) & DEV_T_CONFIRM) || s->yes)
		return 0;
	if (!isatty(STDIN_FILENO))
		return pcb_error(&s->err, PCB_E_STATE,
				 "writing to %s needs confirmation: %s; give "
				 "-y to confirm in scripts", s->devname, what);
	fprintf(stderr, "%s: %s? [y/N] ", s->devname, what);
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin) ||
	    (strcasecmp(line, "y\n") && strcasecmp(line, "yes\n")))
		return pcb_error(&s->err, PCB_E_STATE, "not confirmed: "
				 "nothing was written");
	return 0;
}

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
