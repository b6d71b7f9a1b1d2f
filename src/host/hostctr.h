/* hostctr.h - a real host's counters, one named snapshot per read:
 *
 * - RDMA: every file of $SYSFS/class/infiniband/DEV/ports/P/hw_counters/
 *   (np_cnp_sent, rp_cnp_handled, roce_adp_retrans, ...) and .../counters/
 *   (port_rcv_data, port_xmit_data count 4-byte words: read as the
 *   kernel says, scaled where a column uses them);
 * - the netdev's ethtool statistics (SIOCETHTOOL, reg/ethtool.h:
 *   rx_prio3_pause, rx_discards_phy, ...) and /sys/class/net/IF/statistics
 *   (as "net_" + the file name).
 *
 * The device is found from any handle an engineer gives: a PCI address,
 * an RDMA device (mlx5_0, mlx5_0/2 for port 2) or a netdev (ens1f0np0),
 * through the kernel's sysfs links; $PCCBENCH_SYSFS roots every path.
 * The counters' files are opened once and re-read with pread, so one
 * snapshot costs a syscall per counter and one ioctl.
 *
 * Ownership: hostctr_open fills a struct hostctr released with
 * hostctr_close; a snapshot's names point into the struct.
 */
#ifndef PCCB_REC_HOSTCTR_H
#define PCCB_REC_HOSTCTR_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "ethtool.h"

struct hostctr_file {
	char name[64];
	int fd;
};

struct hostctr {
	char bdf[16], rdma[64], netdev[64];
	unsigned port;
	size_t nfiles;
	struct hostctr_file *files;	/* hw_counters, counters, statistics */
	struct pcb_ethtool eth;		/* eth.n == 0: none */
	size_t n;			/* nfiles + eth.n */
	char warn[256];			/* what could not be read, or "" */
};

int hostctr_open(struct hostctr *h, const char *handle, struct pcb_err *err);
void hostctr_close(struct hostctr *h);
/* The counter's name (0 <= i < n). */
const char *hostctr_name(const struct hostctr *h, size_t i);
/* Every counter's value into vals[n]; a file that cannot be read is
 * UINT64_MAX (missing), never 0.
 */
int hostctr_read(struct hostctr *h, uint64_t *vals, struct pcb_err *err);
/* The index of a counter, or -1. */
int hostctr_find(const struct hostctr *h, const char *name);
/* A counter's largest value, past which it wraps to 0: UINT32_MAX for
 * mlx5's Q-counters (the RDMA error, retransmission and RoCE
 * acceleration counters of hw_counters, and the netdev's
 * rx_out_of_buffer: 32-bit firmware fields the kernel zero-extends),
 * else UINT64_MAX.
 */
uint64_t hostctr_max(const struct hostctr *h, size_t i);

#endif
