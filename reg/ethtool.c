/* ethtool.c - netdev statistics through SIOCETHTOOL (see ethtool.h). */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ethtool.h"

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
	return 0;
}

void pcb_ethtool_close(struct pcb_ethtool *e)
{
	if (e->fd >= 0)
		close(e->fd);
	free(e->names);
	free(e->buf);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

int pcb_ethtool_open(struct pcb_ethtool *e, const char *ifname,
		     struct pcb_err *err)
{
	struct ethtool_gstrings *gs = NULL;
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
	rc = stat_count(e, &e->n, err);
	if (!rc && e->n > 100000)
		rc = pcb_error(err, PCB_E_DEVICE, "ethtool %s: %u statistics",
			       ifname, e->n);
	if (!rc) {
		gs = calloc(1, sizeof(*gs) + (size_t)e->n * PCB_ETH_NAME);
		e->names = calloc(e->n ? e->n : 1, PCB_ETH_NAME);
		e->buf = calloc(1, sizeof(struct ethtool_stats) +
				(size_t)e->n * sizeof(uint64_t));
		if (!gs || !e->names || !e->buf)
			rc = pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	if (!rc && e->n) {
		gs->cmd = ETHTOOL_GSTRINGS;
		gs->string_set = ETH_SS_STATS;
		gs->len = e->n;
		if (eth_ioctl(e, gs))
			rc = pcb_error(err, PCB_E_IO, "ethtool %s: strings: %s",
				       ifname, strerror(errno));
		else if (gs->len != e->n)
			rc = pcb_error(err, PCB_E_STATE, "ethtool %s: the "
				       "statistics changed; again", ifname);
	}
	if (!rc) {
		uint32_t i;

		for (i = 0; i < e->n; i++) {	/* NUL-terminated copies */
			memcpy(e->names[i], gs->data + (size_t)i * PCB_ETH_NAME,
			       PCB_ETH_NAME);
			e->names[i][PCB_ETH_NAME - 1] = '\0';
		}
	}
	free(gs);
	if (rc)
		pcb_ethtool_close(e);
	return rc;
}

int pcb_ethtool_read(struct pcb_ethtool *e, uint64_t *vals,
		     struct pcb_err *err)
{
	struct ethtool_stats *st = e->buf;

	memset(st, 0, sizeof(*st));
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = e->n;
	if (eth_ioctl(e, st))
		return pcb_error(err, PCB_E_IO, "ethtool %s: stats: %s",
				 e->ifname, strerror(errno));
	if (st->n_stats != e->n)	/* the driver's set changed */
		return pcb_error(err, PCB_E_STATE, "ethtool %s: the statistics "
				 "changed (%u, were %u)", e->ifname,
				 st->n_stats, e->n);
	memcpy(vals, st->data, (size_t)e->n * sizeof(uint64_t));
	return 0;
}
