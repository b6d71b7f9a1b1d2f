/* ethtool.h - a netdev's statistics through the SIOCETHTOOL ioctl, as
 * `ethtool -S IF` prints them, without running ethtool: ETHTOOL_GSSET_INFO
 * for the count, ETHTOOL_GSTRINGS for the names (once, at open),
 * ETHTOOL_GSTATS for the values (every read: one ioctl).
 *
 * A driver reload can change the set; a read that finds another count
 * reports PCB_E_STATE and the caller opens again.
 *
 * Ownership: pcb_ethtool_open fills a struct pcb_ethtool released with
 * pcb_ethtool_close.
 */
#ifndef PCCB_ETHTOOL_H
#define PCCB_ETHTOOL_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define PCB_ETH_NAME 32		/* ETH_GSTRING_LEN */

struct pcb_ethtool {
	int fd;			/* an AF_INET datagram socket for the ioctl */
	char ifname[16];
	uint32_t n;
	char (*names)[PCB_ETH_NAME];
	void *buf;		/* struct ethtool_stats + n u64 */
};

int pcb_ethtool_open(struct pcb_ethtool *e, const char *ifname,
		     struct pcb_err *err);
/* The n values, in the order of names. */
int pcb_ethtool_read(struct pcb_ethtool *e, uint64_t *vals,
		     struct pcb_err *err);
void pcb_ethtool_close(struct pcb_ethtool *e);

#endif
