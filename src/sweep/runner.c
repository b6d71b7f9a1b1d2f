/* runner.c - the runner: runs on a live device (a real NIC): one point at
 * a time, its traffic beside it (sweep.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "axis.h"
#include "paths.h"
#include "rec/recorder.h"
#include "rec/series.h"
#include "rec/stats.h"
#include "device.h"
#include "units.h"
#include "store.h"
#include "sweep/sweep.h"
#include "words.h"

/* ---- running on a real NIC ---------------------------------------------- */

int sw_run_live(struct session *s, struct plan *pl, const uint32_t *orig,
		double t0)
{
	struct recorder r;
	struct param_write w[SW_MAX_AXES];
	char log[PCB_PATH_LEN];
	size_t *order = sw_run_order(pl), i;
	bool wrote = false, yes = s->yes;
	int rc, rc2;

	if (!order)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	if (pcb_path(log, sizeof(log), &s->err, "%s/while.log", pl->dir)) {
		free(order);
		return -s->err.code;
	}
	if (pl->targv) {	/* a file of ours (not a link) before use */
		int fd = pcb_open_rw(log, O_CREAT | O_APPEND, PCB_MODE_DATA,
				     &s->err);

		if (fd < 0) {
			free(order);
			return fd;
		}
		close(fd);
	}
	rc = rec_open(&r, s, NULL, 0, true, -1);
	s->yes = true;		/* confirmed once, with the plan */
	for (i = 0; !rc && i < pl->nruns; i++) {
		size_t run = order[i];
		struct series *ser;
		bool traffic = false;
		double v[SW_MAX_MEAS * SW_NSTATS], t1;
		int64_t done;

		if (pl->done[run])
			continue;
		sw_fill_writes(pl, run / pl->repeat, w);
		wrote = true;
		rc = sess_write_params(s, pl->slot, w, pl->naxes, true);
		if (rc)
			break;
		ser = series_new("run");
		if (!ser) {
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
			break;
		}
		rc = rec_columns(&r, ser);
		if (!rc && pl->targv) {
			rc = dev_traffic_start(s->cur, pl->targv, log);
			traffic = !rc;
		}
		t1 = pcb_mono_s();
		if (!rc && pl->warmup)
			rc = dev_run(s->cur, pl->warmup, true);
		if (!rc)
			rc = rec_capture(&r, ser, pl->dur, pl->every, NULL,
					 &done);
		pl->sim_s += pcb_mono_s() - t1;
		if (traffic)
			rc = dev_traffic_stop(s->cur, rc);
		if (!rc)
			rc = sw_summarise(s, pl, ser, &r, v);
		series_free(ser);
		if (rc)
			break;
		sw_store_run(pl, run, v);
		rc = sw_save_results(s, pl);
		sw_progress(s, pl, t0, false);
	}
	sw_progress(s, pl, t0, true);
	free(order);
	rec_close(&r);
	if (wrote) {
		/* the originals come back whatever happened, even after
		 * Ctrl-C: the flag is set aside for the restoring writes */
		struct pcb_err keep = s->err;
		sig_atomic_t stopped = s->opt.stop ? *s->opt.stop : 0;

		if (s->opt.stop)
			*s->opt.stop = 0;
		for (i = 0; i < pl->naxes; i++) {
			memset(&w[i], 0, sizeof(w[i]));
			w[i].index = pl->ax[i].p->index;
			w[i].value = orig[i];
		}
		pcb_err_reset(&s->err);
		rc2 = sess_write_params(s, pl->slot, w, pl->naxes, true);
		if (s->opt.stop && stopped)
			*s->opt.stop = stopped;
		if (rc2 && rc)
			sess_warn(s, "sweep: restoring the original values "
				  "failed too: %s ('journal restore')",
				  s->err.msg);
		if (rc)
			s->err = keep;
		else
			rc = rc2;
	}
	s->yes = yes;
	return rc;
}
