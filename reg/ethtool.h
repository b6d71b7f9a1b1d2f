/* ethtool.h - a netdev's statistics through the SIOCETHTOOL ioctl, as
 * `ethtool -S IF` prints them, without running ethtool.
 *
 * The driver's set changes at run time (mlx5: PFC enabled on another
 * priority adds rx_prioN_*, channel, PTP and QoS changes add ring
 * counters), and kernels before 7b07be1ff1cb (2025-12) copy the
 * driver's *current* count of names or values whatever len/n_stats
 * says, while fixed kernels return 0 entries when the two differ.  So
 * every read asks the count (ETHTOOL_GSSET_INFO), then the names
 * (ETHTOOL_GSTRINGS) and the values (ETHTOOL_GSTATS) into buffers with
 * room to spare beyond that count, checks each count the kernel returns
 * against the room and against the count asked, and starts again (a
 * few times) when the set changed in between.  A read leaves the set as
 * it is now in n, names and vals; gen counts the reads that found other
 * names than the read before.
 *
 * Ownership: pcb_ethtool_open fills a struct pcb_ethtool (and reads it
 * once) released with pcb_ethtool_close.
 */
#ifndef PCCB_ETHTOOL_H
#define PCCB_ETHTOOL_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define PCB_ETH_NAME 32		/* ETH_GSTRING_LEN */
#define PCB_ETH_MAX 100000	/* more statistics than that: not a driver */

struct pcb_ethtool {
	int fd;			/* an AF_INET datagram socket for the ioctl */
	char ifname[16];
	uint32_t n;		/* statistics at the last read */
	char (*names)[PCB_ETH_NAME];	/* n NUL-terminated names */
	uint64_t *vals;		/* n values, in the order of names */
	unsigned gen;		/* +1 at each read that found other names */
	uint32_t room;		/* entries the two ioctl buffers hold */
	void *gs;		/* struct ethtool_gstrings + room names */
	void *st;		/* struct ethtool_stats + room u64 */
};

int pcb_ethtool_open(struct pcb_ethtool *e, const char *ifname,
		     struct pcb_err *err);
/* The statistics now: n, names (when they changed: gen + 1) and vals. */
int pcb_ethtool_read(struct pcb_ethtool *e, struct pcb_err *err);
void pcb_ethtool_close(struct pcb_ethtool *e);

#endif
