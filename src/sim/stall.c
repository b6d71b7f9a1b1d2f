/* stall.c - the watchdog: a fabric that PFC holds for good (a pause
 * never lifted, a deadlock) is found and named, port by port.  Why apart:
 * the run loop's test (sim_stalled, in fabric.c beside the loop that
 * calls it) finds it; naming the held ports is the error's.
 */
#include <stdio.h>

#include "sim_int.h"

/* Since when PFC holds port pi (either class's pause, the older). */
static int64_t held_since(const struct sim *s, uint32_t pi)
{
	int64_t t = s->ports[pi].paused ? s->ports[pi].pause_start : INT64_MAX;

	if (s->c1 && s->c1[pi].paused && s->c1[pi].pause_start < t)
		t = s->c1[pi].pause_start;
	return t;
}

/* Port pi is a switch's, and the NIC at its other end paused it. */
static bool nic_paused(const struct sim *s, uint32_t pi)
{
	return s->ports[pi].is_switch && !s->ports[s->ports[pi].peer].is_switch;
}

/* The order the watchdog names held ports in: those a NIC paused first
 * (a NIC pauses only when it cannot take in more, the root of a storm;
 * the senders it backs up into are held since an earlier pause of the
 * incast that was never lifted), then the longest held (a deadlock's
 * first pause is where it began).
 */
static bool stall_before(const struct sim *s, uint32_t a, uint32_t b)
{
	if (nic_paused(s, a) != nic_paused(s, b))
		return nic_paused(s, a);
	return held_since(s, a) < held_since(s, b);
}

#define STALL_NAMES 8

/* The watchdog's error: the ports PFC holds with data waiting, in
 * stall_before's order, at most STALL_NAMES of them by name. */
int sim_stall(const struct sim *s, struct pcb_err *err)
{
	char names[STALL_NAMES * 40 + 32];	/* a name: 33 at most */
	size_t len = 0;
	uint64_t queued = 0;
	uint32_t i, j, top[STALL_NAMES], ntop = 0, more = 0;

	if (!sim_stalled(s))
		return 0;
	for (i = 0; i < s->nports; i++) {
		queued += q_bytes(s, &s->ports[i]);
		if (!port_held(s, i) || !sim_port_waits(s, i))
			continue;
		if (ntop == STALL_NAMES) {	/* the last of the kept out */
			more++;
			if (!stall_before(s, i, top[ntop - 1]))
				continue;
			ntop--;
		}
		for (j = ntop++; j && stall_before(s, i, top[j - 1]); j--)
			top[j] = top[j - 1];
		top[j] = i;
	}
	names[0] = '\0';
	for (j = 0; j < ntop; j++) {
		len += (size_t)snprintf(names + len, sizeof(names) - len,
					"%s", j ? ", " : "");
		len += (size_t)sim_port_name(s, top[j], names + len,
					     sizeof(names) - len);
	}
	if (more)
		snprintf(names + len, sizeof(names) - len, " and %u more",
			 more);
	return pcb_error(err, PCB_E_DEVICE, "sim: fabric stalled at t = "
			 "%.3f ms: no data has left any port since %.3f ms, "
			 "%llu bytes queued; paused by PFC (by a NIC first, "
			 "then the longest held): %s",
			 (double)s->now / PS_PER_MS,
			 (double)s->last_tx / PS_PER_MS,
			 (unsigned long long)queued, names);
}
