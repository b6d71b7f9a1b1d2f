/* open.c - the session's devices: the list of those it opened, the
 * current one among them, and the session released with them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover.h"
#include "session.h"

void sess_release(struct session *s)
{
	struct device *d, *next;
	size_t i;

	for (d = s->devs; d; d = next) {
		next = d->next;
		dev_free(d);
	}
	s->devs = s->cur = NULL;
	for (i = 0; i < s->ndescs; i++)
		algo_desc_free(s->descs[i]);
	for (i = 0; i < s->ndry; i++)
		free(s->dry[i]);
	free(s->dry);
	free(s->adb_path);
	free(s->opt.backend);
	free(s->opt.mstreg_prog);
	free(s->opt.telemetry);
}

/* 08:00.0 and 0000:08:00.0 are one device (and one journal). */
static const char *canonical(const char *devname, char *bdf, size_t len)
{
	if (pcb_is_pci_name(devname) &&
	    !pcb_resolve_pci(devname, bdf, len, NULL))
		return bdf;
	return devname;
}

struct device *sess_find_device(struct session *s, const char *devname)
{
	char bdf[32], id[80], did[80];
	struct device *d;

	dev_identity(canonical(devname, bdf, sizeof(bdf)), id, sizeof(id));
	for (d = s->devs; d; d = d->next) {
		dev_identity(d->name, did, sizeof(did));
		if (!strcmp(id, did))
			return d;
	}
	return NULL;
}

/* A device named devname at the end of the list. */
static int add(struct session *s, const char *devname, struct device **out)
{
	struct device *d = dev_new(devname, &s->opt, &s->err), **p;

	if (!d)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	for (p = &s->devs; *p; p = &(*p)->next)
		;
	*p = d;
	*out = d;
	return 0;
}

int sess_set_device(struct session *s, const char *devname)
{
	struct device *d = sess_find_device(s, devname);
	char bdf[32];
	char *n;

	devname = canonical(devname, bdf, sizeof(bdf));
	if (d) {
		s->cur = d;
		return 0;
	}
	if (!dev_is_open(s->cur)) {	/* named, never opened: renamed */
		n = strdup(devname);
		if (!n)
			return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		free(s->cur->name);
		s->cur->name = n;
		return 0;
	}
	return add(s, devname, &s->cur);
}

int sess_get_device(struct session *s, const char *devname,
		    struct device **out)
{
	struct device *d = sess_find_device(s, devname);
	char bdf[32];
	int rc = 0;

	if (!d)
		rc = add(s, canonical(devname, bdf, sizeof(bdf)), &d);
	if (!rc)
		rc = dev_open(d);
	if (rc && d && !dev_is_open(d) && d != s->cur)
		sess_close_device(s, d);
	if (!rc)
		*out = d;
	return rc;
}

void sess_close_device(struct session *s, struct device *d)
{
	struct device **p, *last = NULL;

	for (p = &s->devs; *p && *p != d; p = &(*p)->next)
		;
	if (!*p)
		return;
	*p = d->next;
	dev_free(d);
	if (s->cur != d)
		return;
	for (last = s->devs; last && last->next; last = last->next)
		;
	s->cur = last;
	if (!s->cur && !add(s, "sim", &s->cur))
		return;
	if (!s->cur)	/* out of memory with no device left */
		abort();
}
