/* session.c - the session: made, its current device opened and locked
 * (the device's own dev_open, dev_lock), warnings and dry-run lines.  Its
 * list of open devices is open.c, its slot views are views.c, its values
 * values.c, its checked writes and their confirmation write.c (session.h
 * for all).  The device calls nothing here: it reports into the error
 * and reads the options it was made with.
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
	s->opt.errfp = stderr;
	/* out of memory here ends the program (main's first steps) */
	s->devs = s->cur = dev_new(devname ? devname : "sim", &s->opt,
				   &s->err);
	if (!s->cur)
		abort();
	out_init(&s->out, stdout, false, false);
}

void sess_warn(struct session *s, const char *fmt, ...)
{
	va_list ap;

	fputs("warning: ", s->opt.errfp);
	va_start(ap, fmt);
	vfprintf(s->opt.errfp, fmt, ap);
	va_end(ap);
	fputc('\n', s->opt.errfp);
}

/* The current device, opened on first use. */
int sess_device(struct session *s)
{
	return dev_open(s->cur);
}

int sess_lock(struct session *s)
{
	int rc = dev_write_check(s->cur);	/* a sim host: not here */

	if (rc || s->dry_run)	/* nothing is written: nothing to order */
		return rc;
	return dev_lock(s->cur);
}

void sess_unlock(struct session *s)
{
	if (!s->dry_run)
		dev_unlock(s->cur);
}

/* ---- confirmation ------------------------------------------------------- */

/* ---- dry run ------------------------------------------------------------ */

void sess_dry_line(struct session *s, enum reg_method m, const uint8_t *buf)
{
	struct pcb_err e = { 0 };
	char *line = NULL, **nd;

	/* the argv the mstreg backend would run, shell-quoted */
	if (mstreg_command_line(s->opt.mstreg_prog, s->cur->name,
				s->cur->ppcc.layout, m,
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
