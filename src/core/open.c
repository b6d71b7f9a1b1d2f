/* open.c - the session's device: opened once (the transport and the
 * device object, the PPCC layout, the journal) and released.  The one
 * file of the session that holds the device object (device.h), so the
 * session (session.c) and the device (device.c) do not include each
 * other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "discover.h"
#include "host/hostctr.h"
#include "journal.h"
#include "paths.h"
#include "session.h"
#include "tel/diag.h"

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
	free(s->ctr_prev);
	s->ctr_prev = NULL;
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
	free(s->telemetry);
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
	if (!rc)	/* it holds the layout now: released with the device */
		s->have_ppcc = true;
	if (!rc)	/* a BlueField whose Arm side owns PPCC */
		rc = dev_owner_check(s);
	if (!rc)
		rc = journal_open(&s->journal, s->devid, &s->err);
	if (rc) {
		device_release(s);
		return rc;
	}
	if (journal_unclean(s->journal, msg, sizeof(msg)) ||
	    journal_too_large(s->journal, msg, sizeof(msg)))
		sess_warn(s, "%s", msg);
	if (journal_bad_lines(s->journal, &bad_line))
		sess_warn(s, "journal '%s' has %zu damaged record(s), the "
			  "first at line %zu; 'journal restore' will not clear "
			  "it", journal_path(s->journal),
			  journal_bad_lines(s->journal, NULL), bad_line);
	return 0;
}

