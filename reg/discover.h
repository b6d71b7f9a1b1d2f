/* discover.h - NVIDIA/Mellanox PCI functions (vendor 0x15b3) through
 * libpci, with their netdev, RDMA and fwctl names from sysfs.
 *
 * Only network functions (PCI class 0x02xx: Ethernet 0x0200, InfiniBand
 * 0x0207, ...) are NICs; a BlueField's SoC functions and the bridges of
 * its PCIe switch share the vendor and are left out unless asked for,
 * then labelled by kind.  Models come from our table (models[] in
 * discover.c; how to add one: a row there, with its kind), else from
 * libpci's pci_lookup_name (pci.ids, hwdb), else "NVIDIA device 0xNNNN".
 *
 * PCCBENCH_PCI_DUMP=FILE reads an `lspci -x` style dump instead of the
 * bus; PCCBENCH_SYSFS (default /sys) roots every sysfs lookup, so tests
 * run on fixture trees; PCCBENCH_PCI_IDS=FILE names libpci's ID list
 * (and skips hwdb).  Ownership: pcb_discover returns an array freed with
 * free().
 */
#ifndef PCCB_DISCOVER_H
#define PCCB_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* What a function is, for `dev list`'s FUNCTION column. */
enum pcb_fn_kind {
	PCB_FN_PF,		/* a NIC's physical function */
	PCB_FN_VF,
	PCB_FN_SOC,		/* a BlueField's SoC (Arm complex) function */
	PCB_FN_MGMT,		/* a BlueField's SoC management interface */
	PCB_FN_RECOVERY,	/* flash recovery ("livefish") */
	PCB_FN_BRIDGE,		/* PCI class 0x0604 */
	PCB_FN_OTHER,		/* none of these, not a network function */
};

struct pcb_nic {
	char bdf[16];		/* 0000:08:00.0 */
	uint16_t device;
	uint16_t pci_class;	/* 0x0200 Ethernet, 0x0207 InfiniBand */
	enum pcb_fn_kind kind;
	char model[96];		/* ConnectX-7, BlueField-3, ... */
	bool vf;
	char netdev[96];	/* comma separated, "" when none */
	char rdma[64];
	char fwctl[32];		/* fwctl node, "" when none */
};

/* The network functions, sorted by address. */
int pcb_discover(struct pcb_nic **out, size_t *n, struct pcb_err *err);
/* Every NVIDIA function when `all`, bridges and SoC functions too. */
int pcb_discover_all(struct pcb_nic **out, size_t *n, bool all,
		     struct pcb_err *err);

/* "ConnectX-7" for 0x1021; VF ids set *vf.  NULL for an ID not in the
 * table.
 */
const char *pcb_nic_model(uint16_t device, bool *vf);
/* The kind the table gives an ID (PCB_FN_PF when unknown). */
enum pcb_fn_kind pcb_nic_kind(uint16_t device);
/* "PF", "VF", "SoC", "mgmt", "recovery", "bridge", "other". */
const char *pcb_fn_kind_name(enum pcb_fn_kind kind);
/* Can PPCC be reached through this function at all? */
bool pcb_fn_has_ppcc(enum pcb_fn_kind kind);

/* The PCI function of a handle, in the forms engineers use:
 * "0000:08:00.0" and "08:00.0", devlink's "pci/0000:08:00.0", an RDMA
 * device by any name ("mlx5_0", rdma-core's "rocep8s0f0", "ibp8s0f0") or
 * port "mlx5_0/1", a netdev "ens1f0np0" (these through sysfs), an MST
 * name "mt4129_pciconf0[.1]", with or without /dev/mst/ (the card-th
 * card of that device id, by PCI address, and its function: from the
 * bus, whether or not the mst driver's node exists).  An RDMA port must
 * be a physical one: a port the device lacks, a switchdev representor
 * and a RoCE LAG (mlx5_bond_0: its PFs named) are refused.  A function
 * the bus shows with a vendor other than NVIDIA's, and a name that is
 * none of these, is -PCB_E_NOENT pointing to 'dev list'; a bad address
 * or port -PCB_E_INVAL.
 */
int pcb_resolve_pci(const char *name, char *bdf, size_t len,
		    struct pcb_err *err);
/* The port a handle names: 2 for "mlx5_0/2", else 1 (PPCC local_port). */
unsigned pcb_handle_port(const char *name);
/* Does the handle name an RDMA device (mlx5_*, or any name under
 * class/infiniband), with or without "/PORT"?
 */
bool pcb_is_rdma_handle(const char *name);
bool pcb_is_pci_name(const char *name);
/* The RDMA device of a PCI function ("mlx5_0"), "" when none. */
void pcb_rdma_name(const char *bdf, char *buf, size_t len);
/* Its uplink netdev ("ens1f0np0"): the first by name that is no
 * switchdev representor (phys_port_name pf0vf1, ...), "" when none.
 * Returns how many netdevs the function has.
 */
int pcb_netdev_name(const char *bdf, char *buf, size_t len);
/* A function's PCI device id from sysfs, -1 if unreadable. */
long pcb_pci_device_id(const char *bdf);
/* $PCCBENCH_SYSFS or /sys. */
const char *pcb_sysfs(void);

#endif
