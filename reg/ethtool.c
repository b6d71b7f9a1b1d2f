/* ethtool.c - netdev statistics through SIOCETHTOOL (see ethtool.h). */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ethtool.h"

/* Reads that find the set changed between count, names and values before
 * one gives up; each is three ioctls.
 */
#define ETH_TRIES 8

static int eth_ioctl(struct pcb_ethtool *e, void *data)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, e->ifname, sizeof(e->ifname));
	ifr.ifr_data = data;
	return ioctl(e->fd, SIOCETHTOOL, &ifr);
}

/* How many statistics the driver has now. */
static int stat_count(struct pcb_ethtool *e, uint32_t *n, struct pcb_err *err)
{
	/* the header and room for one count (data[] is a flexible array) */
	union {
		struct ethtool_sset_info hdr;
		uint8_t room[sizeof(struct ethtool_sset_info) + sizeof(uint32_t)];
	} si;

	memset(&si, 0, sizeof(si));
	si.hdr.cmd = ETHTOOL_GSSET_INFO;
	si.hdr.sset_mask = 1ULL << ETH_SS_STATS;
	if (eth_ioctl(e, &si))
		return pcb_error(err, errno == ENODEV ? PCB_E_NOENT : PCB_E_IO,
				 "ethtool %s: %s", e->ifname, strerror(errno));
	*n = si.hdr.sset_mask & (1ULL << ETH_SS_STATS) ? si.hdr.data[0] : 0;
	if (*n > PCB_ETH_MAX)
		return pcb_error(err, PCB_E_DEVICE, "ethtool %s: %u statistics",
				 e->ifname, *n);
	return 0;
}

/* Buffers for n entries and half as many again: the set may grow between
 * the count and the copy, and an old kernel copies what it has then.
 */
static int make_room(struct pcb_ethtool *e, uint32_t n, struct pcb_err *err)
{
	uint32_t room = n + n / 2 + 64;
	void *gs, *st;

	if (room <= e->room)
		return 0;
	gs = calloc(1, sizeof(struct ethtool_gstrings) +
		    (size_t)room * PCB_ETH_NAME);
	st = calloc(1, sizeof(struct ethtool_stats) +
		    (size_t)room * sizeof(uint64_t));
	if (!gs || !st) {
		free(gs);
		free(st);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	free(e->gs);
	free(e->st);
	e->gs = gs;
	e->st = st;
	e->room = room;
	return 0;
}

void pcb_ethtool_close(struct pcb_ethtool *e)
{
	if (e->fd >= 0)
		close(e->fd);
	free(e->names);
	free(e->vals);
	free(e->gs);
	free(e->st);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

int pcb_ethtool_open(struct pcb_ethtool *e, const char *ifname,
		     struct pcb_err *err)
{
	int rc;

	memset(e, 0, sizeof(*e));
	e->fd = -1;
	if (!*ifname || strlen(ifname) >= sizeof(e->ifname))
		return pcb_error(err, PCB_E_INVAL, "bad interface name '%s'",
				 ifname);
	memcpy(e->ifname, ifname, strlen(ifname) + 1);
	e->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (e->fd < 0)
		return pcb_error(err, PCB_E_IO, "ethtool: socket: %s",
				 strerror(errno));
	rc = pcb_ethtool_read(e, err);
	if (rc)
		pcb_ethtool_close(e);
	return rc;
}

/* The names just copied differ from the last read's (count or text). */
static bool names_differ(const struct pcb_ethtool *e, uint32_t n)
{
	const struct ethtool_gstrings *gs = e->gs;
	uint32_t i;

	if (!e->names || n != e->n)
		return true;
	for (i = 0; i < n; i++)
		if (strncmp(e->names[i], (const char *)gs->data +
			    (size_t)i * PCB_ETH_NAME, PCB_ETH_NAME - 1))
			return true;
	return false;
}

/* Keep the n names and values just copied as the set now. */
static int keep(struct pcb_ethtool *e, uint32_t n, struct pcb_err *err)
{
	const struct ethtool_gstrings *gs = e->gs;
	const struct ethtool_stats *st = e->st;
	uint32_t i;

	if (names_differ(e, n)) {
		bool first = !e->names;
		char (*names)[PCB_ETH_NAME] = calloc(n ? n : 1, PCB_ETH_NAME);
		uint64_t *vals = calloc(n ? n : 1, sizeof(*vals));

		if (!names || !vals) {
			free(names);
			free(vals);
			return pcb_error(err, PCB_E_NOMEM, "out of memory");
		}
		for (i = 0; i < n; i++) {	/* NUL-terminated copies */
			memcpy(names[i], gs->data + (size_t)i * PCB_ETH_NAME,
			       PCB_ETH_NAME);
			names[i][PCB_ETH_NAME - 1] = '\0';
		}
		free(e->names);
		free(e->vals);
		e->names = names;
		e->vals = vals;
		if (!first)
			e->gen++;
		e->n = n;
	}
	memcpy(e->vals, st->data, (size_t)n * sizeof(uint64_t));
	return 0;
}

int pcb_ethtool_read(struct pcb_ethtool *e, struct pcb_err *err)
{
	struct ethtool_gstrings *gs;
	struct ethtool_stats *st;
	uint32_t n = 0;
	int rc, t;

	for (t = 0; t < ETH_TRIES; t++) {
		rc = stat_count(e, &n, err);
		if (!rc)
			rc = make_room(e, n, err);
		if (rc)
			return rc;
		gs = e->gs;
		memset(gs, 0, sizeof(*gs));
		gs->cmd = ETHTOOL_GSTRINGS;
		gs->string_set = ETH_SS_STATS;
		gs->len = n;
		if (n && eth_ioctl(e, gs))
			return pcb_error(err, PCB_E_IO, "ethtool %s: strings: "
					 "%s", e->ifname, strerror(errno));
		if (gs->len > e->room)	/* past our buffer: do not go on */
			return pcb_error(err, PCB_E_DEVICE, "ethtool %s: the "
					 "kernel wrote %u names into room for "
					 "%u", e->ifname, gs->len, e->room);
		st = e->st;
		memset(st, 0, sizeof(*st));
		st->cmd = ETHTOOL_GSTATS;
		st->n_stats = n;
		if (n && eth_ioctl(e, st))
			return pcb_error(err, PCB_E_IO, "ethtool %s: stats: %s",
					 e->ifname, strerror(errno));
		if (st->n_stats > e->room)
			return pcb_error(err, PCB_E_DEVICE, "ethtool %s: the "
					 "kernel wrote %u statistics into room "
					 "for %u", e->ifname, st->n_stats,
					 e->room);
		/* another count (0 from a fixed kernel): changed meanwhile */
		if (gs->len == n && st->n_stats == n)
			return keep(e, n, err);
	}
	return pcb_error(err, PCB_E_BUSY, "ethtool %s: the statistics kept "
			 "changing (%d reads)", e->ifname, ETH_TRIES);
}
