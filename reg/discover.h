/* discover.h - NVIDIA/Mellanox PCI functions (vendor 0x15b3) through
 * libpci, with their netdev, RDMA and fwctl names from sysfs.
 *
 * PCCBENCH_PCI_DUMP=FILE reads an `lspci -x` style dump instead of the
 * bus; PCCBENCH_SYSFS (default /sys) roots every sysfs lookup, so tests
 * run on fixture trees.  Ownership: pcb_discover returns an array freed
 * with free().
 */
#ifndef PCCB_DISCOVER_H
#define PCCB_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

struct pcb_nic {
	char bdf[16];		/* 0000:08:00.0 */
	uint16_t device;
	char model[48];		/* ConnectX-7, BlueField-3, ... */
	bool vf;
	char netdev[96];	/* comma separated, "" when none */
	char rdma[64];
	char fwctl[32];		/* fwctl node, "" when none */
};

int pcb_discover(struct pcb_nic **out, size_t *n, struct pcb_err *err);

/* "ConnectX-7" for 0x1021; VF ids set *vf. */
const char *pcb_nic_model(uint16_t device, bool *vf);

/* The PCI function of a handle, in the forms engineers use:
 * "0000:08:00.0" and "08:00.0", devlink's "pci/0000:08:00.0", an RDMA
 * device "mlx5_0" or port "mlx5_0/1", a netdev "ens1f0np0" (the last two
 * through sysfs).  A function the bus shows with a vendor other than
 * NVIDIA's, and a name that is none of these, is -PCB_E_NOENT pointing to
 * 'dev list'; a bad address or port -PCB_E_INVAL.
 */
int pcb_resolve_pci(const char *name, char *bdf, size_t len,
		    struct pcb_err *err);
/* The port a handle names: 2 for "mlx5_0/2", else 1 (PPCC local_port). */
unsigned pcb_handle_port(const char *name);
bool pcb_is_pci_name(const char *name);
/* The RDMA device of a PCI function ("mlx5_0"), "" when none. */
void pcb_rdma_name(const char *bdf, char *buf, size_t len);
/* Its (first) netdev ("ens1f0np0"), "" when none. */
void pcb_netdev_name(const char *bdf, char *buf, size_t len);
/* $PCCBENCH_SYSFS or /sys. */
const char *pcb_sysfs(void);

#endif
