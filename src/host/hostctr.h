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
 * snapshot costs a syscall per counter and three ioctls.  hw_counters'
 * `lifespan` is a setting (ms between firmware queries), not a counter:
 * left out.  The Q-counters (out_of_sequence, packet_seq_err, the
 * roce_adp_* and roce_slow_restart* ones, ...) are 32-bit firmware
 * fields: a value above 2^32-1 is not one of them (missing), and one
 * that went back from the upper half wrapped, so they read as 64-bit
 * counts that keep growing (a fall from the lower half is a reset: the
 * count goes back, a gap to the recorder).
 *
 * The ethtool set changes at run time (reg/ethtool.h).  A struct hostctr
 * shows a *view*: the files and the ethtool names as of open or the last
 * hostctr_refresh, fixed in between, so an index a caller holds keeps
 * its name.  A read that finds the driver's names changed fills the
 * view by name: a counter gone reads UINT64_MAX (missing), a new one is
 * left out until hostctr_refresh takes it in; gen then counts one more
 * change and note says once which names went and came.
 *
 * Ownership: hostctr_open fills a struct hostctr released with
 * hostctr_close; a snapshot's names point into the struct.
 */
#ifndef PCCB_REC_HOSTCTR_H
#define PCCB_REC_HOSTCTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "ethtool.h"

struct hostctr_file {
	char name[64];
	int fd;
	bool q32;		/* a 32-bit Q-counter: read as 64 bits */
	uint32_t last;		/* its last raw value */
	uint64_t high;		/* 2^32 per wrap seen */
};

struct hostctr {
	char bdf[16], rdma[64], netdev[64];
	unsigned port;
	size_t nfiles;
	struct hostctr_file *files;	/* hw_counters, counters, statistics */
	struct pcb_ethtool eth;		/* eth.fd < 0: none */
	char (*enames)[PCB_ETH_NAME];	/* the view's ethtool names */
	size_t ne;
	int32_t *emap;		/* eth index -> view index, or -1 */
	unsigned egen;		/* eth.gen the map was made for */
	size_t n;			/* nfiles + ne */
	unsigned gen;		/* +1 each time the names left the view */
	bool moved;		/* the driver's names are not the view's */
	char warn[256];			/* what could not be read, or "" */
	char note[512];		/* the last change, until taken */
};

int hostctr_open(struct hostctr *h, const char *handle, struct pcb_err *err);
void hostctr_close(struct hostctr *h);
/* The counter's name (0 <= i < n). */
const char *hostctr_name(const struct hostctr *h, size_t i);
/* The view's first nvals counters (nvals <= n) into vals; a file that
 * cannot be read, or an ethtool statistic the driver no longer has, is
 * UINT64_MAX (missing), never 0.
 */
int hostctr_read(struct hostctr *h, uint64_t *vals, size_t nvals,
		 struct pcb_err *err);
/* Take the driver's ethtool names as they are now into the view (n may
 * change); true when it changed.
 */
bool hostctr_refresh(struct hostctr *h);
/* The index of a counter, or -1. */
int hostctr_find(const struct hostctr *h, const char *name);
/* A counter's largest value as hostctr_read gives it, past which it
 * wraps to 0: UINT32_MAX for the netdev's rx_out_of_buffer (ethtool's
 * copy of a 32-bit firmware Q-counter), else UINT64_MAX: hw_counters'
 * Q-counters (the RDMA error, retransmission and RoCE acceleration
 * counters, 32-bit firmware fields the kernel zero-extends) are made
 * 64-bit totals across their wraps by hostctr_read.
 */
uint64_t hostctr_max(const struct hostctr *h, size_t i);

#endif
