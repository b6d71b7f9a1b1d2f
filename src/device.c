/* device.c - the clock and telemetry providers of the sim device and of
 * real NICs (see device.h).
 */
#include <errno.h>
#include <time.h>

#include "device.h"
#include "sim/simdev.h"

static bool simulated(const struct session *s)
{
	return !(s->dev->ops->caps & REG_CAP_REAL);
}

int dev_advance(struct session *s, int64_t ps, bool wall)
{
	struct timespec ts;
	struct simdev *d;
	struct sim *sim;
	int rc = wall ? 0 : sess_device(s);

	if (rc)
		return rc;
	if (!wall && simulated(s)) {
		rc = sess_simdev(s, &d);
		if (!rc)
			rc = simdev_sim(d, &sim, &s->err);
		if (!rc)
			rc = simdev_run_more(d, ps, s->stop, &s->err);
		return rc;
	}
	ts.tv_sec = (time_t)(ps / 1000000000000LL);
	ts.tv_nsec = (long)(ps % 1000000000000LL / 1000);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		if (s->stop && *s->stop)
			return pcb_error(&s->err, PCB_E_INTR, "interrupted");
	return 0;
}

/* The sim device's provider; a real NIC's: NOT_SUPPORTED, saying why. */
static int sim_only(struct session *s, const char *what, const char *why,
		    struct simdev **d)
{
	int rc = sess_device(s);

	if (rc)
		return rc;
	if (!simulated(s))
		return pcb_error(&s->err, PCB_E_STATE, "%s: NOT_SUPPORTED on %s "
				 "(%s)", what, s->devname, why);
	return sess_simdev(s, d);
}

int dev_retx(struct session *s, struct retx_dev **out)
{
	struct simdev *d;
	int rc = sim_only(s, "retx", "pccbench knows the adaptive-"
			  "retransmission histogram of the sim device only",
			  &d);

	if (!rc)
		*out = d->retx;
	return rc;
}

int dev_diag(struct session *s, struct diag_dev **out)
{
	struct simdev *d;
	int rc = sim_only(s, "diag", "pccbench drives the diagnostic "
			  "counters of the sim device only", &d);

	if (!rc)
		*out = d->diag;
	return rc;
}
