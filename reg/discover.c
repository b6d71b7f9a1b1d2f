/* discover.c - libpci scan and sysfs names. */
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pci/pci.h>

#include "discover.h"
#include "fsafe.h"
#include "fwctl.h"

/* The IDs we name ourselves (kernel mlx5_core_pci_table, pci.ids and the
 * spec's table); any other NVIDIA ID is named by libpci.  A BlueField
 * shows its SoC functions with the SoC's IDs; the same IDs with PCI class
 * 0x0604 are the bridges of its PCIe switch (a bridge whatever its ID).
 */
static const struct {
	uint16_t id;
	const char *model;
	enum pcb_fn_kind kind;
} models[] = {
	{ 0x0212, "ConnectX-6 Dx flash recovery", PCB_FN_RECOVERY },
	{ 0x0214, "BlueField-2 flash recovery", PCB_FN_RECOVERY },
	{ 0x0216, "ConnectX-6 Lx flash recovery", PCB_FN_RECOVERY },
	{ 0x0218, "ConnectX-7 flash recovery", PCB_FN_RECOVERY },
	{ 0x021a, "BlueField-3 Lx flash recovery", PCB_FN_RECOVERY },
	{ 0x021c, "BlueField-3 flash recovery", PCB_FN_RECOVERY },
	{ 0x021e, "ConnectX-8 flash recovery", PCB_FN_RECOVERY },
	{ 0x101b, "ConnectX-6", PCB_FN_PF },
	{ 0x101c, "ConnectX-6 VF", PCB_FN_VF },
	{ 0x101d, "ConnectX-6 Dx", PCB_FN_PF },
	{ 0x101e, "ConnectX VF", PCB_FN_VF },
	{ 0x101f, "ConnectX-6 Lx", PCB_FN_PF },
	{ 0x1021, "ConnectX-7", PCB_FN_PF },
	{ 0x1023, "ConnectX-8", PCB_FN_PF },
	{ 0x1025, "ConnectX-9", PCB_FN_PF },
	{ 0x1027, "ConnectX-10", PCB_FN_PF },
	{ 0x2101, "ConnectX-10 NVLink-C2C", PCB_FN_PF },
	{ 0xa2d0, "BlueField SoC", PCB_FN_SOC },
	{ 0xa2d1, "BlueField SoC", PCB_FN_SOC },
	{ 0xa2d2, "BlueField", PCB_FN_PF },
	{ 0xa2d3, "BlueField VF", PCB_FN_VF },
	{ 0xa2d4, "BlueField-2 SoC", PCB_FN_SOC },
	{ 0xa2d5, "BlueField-2 SoC", PCB_FN_SOC },
	{ 0xa2d6, "BlueField-2", PCB_FN_PF },
	{ 0xa2d7, "BlueField-3 Lx SoC", PCB_FN_SOC },
	{ 0xa2d8, "BlueField-3 Lx SoC", PCB_FN_SOC },
	{ 0xa2d9, "BlueField-3 Lx", PCB_FN_PF },
	{ 0xa2da, "BlueField-3 SoC", PCB_FN_SOC },
	{ 0xa2db, "BlueField-3 SoC", PCB_FN_SOC },
	{ 0xa2dc, "BlueField-3", PCB_FN_PF },
	{ 0xa2dd, "BlueField-4 SoC", PCB_FN_SOC },
	{ 0xa2de, "BlueField-4 SoC", PCB_FN_SOC },
	{ 0xa2df, "BlueField-4", PCB_FN_PF },
	{ 0xc2d2, "BlueField SoC management", PCB_FN_MGMT },
	{ 0xc2d3, "BlueField-2 SoC management", PCB_FN_MGMT },
	{ 0xc2d4, "BlueField-3 Lx SoC management", PCB_FN_MGMT },
	{ 0xc2d5, "BlueField-3 SoC management", PCB_FN_MGMT },
	{ 0xc2d6, "BlueField-4 SoC management", PCB_FN_MGMT },
};

static int model_index(uint16_t device)
{
	size_t i;

	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (models[i].id == device)
			return (int)i;
	return -1;
}

const char *pcb_nic_model(uint16_t device, bool *vf)
{
	int i = model_index(device);

	*vf = i >= 0 && models[i].kind == PCB_FN_VF;
	return i >= 0 ? models[i].model : NULL;
}

enum pcb_fn_kind pcb_nic_kind(uint16_t device)
{
	int i = model_index(device);

	return i >= 0 ? models[i].kind : PCB_FN_PF;
}

const char *pcb_fn_kind_name(enum pcb_fn_kind kind)
{
	static const char *const names[] = {
		[PCB_FN_PF] = "PF", [PCB_FN_VF] = "VF", [PCB_FN_SOC] = "SoC",
		[PCB_FN_MGMT] = "mgmt", [PCB_FN_RECOVERY] = "recovery",
		[PCB_FN_BRIDGE] = "bridge", [PCB_FN_OTHER] = "other",
	};

	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ?
	       names[kind] : "other";
}

bool pcb_fn_has_ppcc(enum pcb_fn_kind kind)
{
	return kind == PCB_FN_PF || kind == PCB_FN_VF;
}

const char *pcb_sysfs(void)
{
	const char *r = getenv("PCCBENCH_SYSFS");

	return r && *r ? r : "/sys";
}

bool pcb_is_pci_name(const char *n)
{
	unsigned d, b, s, f;
	char tail;

	return sscanf(n, "%x:%x:%x.%x%c", &d, &b, &s, &f, &tail) == 4 ||
	       sscanf(n, "%x:%x.%x%c", &b, &s, &f, &tail) == 3;
}

/* The PCI function a sysfs link names: the last part of its target. */
static int link_bdf(const char *link, char *bdf, size_t len)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n = readlink(link, target, sizeof(target) - 1);

	if (n <= 0)
		return -1;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!pcb_is_pci_name(base))
		return -1;
	snprintf(bdf, len, "%s", base);
	return 0;
}

/* A sysfs attribute's first line, newline cut: a regular file opened
 * without following a link and without blocking (a FIFO in a hostile
 * tree must not hang a scan; fsafe.h); -1 if it is not that.
 */
static int sysfs_line(const char *path, char *buf, size_t len)
{
	FILE *fp = pcb_fopen_read(path, NULL);
	int rc = -1;

	if (!fp)
		return -1;
	if (fgets(buf, (int)len, fp)) {
		buf[strcspn(buf, "\n")] = '\0';
		rc = 0;
	}
	fclose(fp);
	return rc;
}

/* A hex ID from a sysfs attribute ("0x15b3\n", hex digits only, at most
 * 32 bits); -1 if unreadable or not that.
 */
static long sysfs_hex(const char *bdf, const char *attr)
{
	char path[PATH_MAX], text[32], *end;
	const char *h = text;
	unsigned long v;

	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/%s", pcb_sysfs(),
		 bdf, attr);
	if (sysfs_line(path, text, sizeof(text)))
		return -1;
	if (!strncmp(h, "0x", 2))
		h += 2;
	if (!*h || strspn(h, "0123456789abcdefABCDEF") != strlen(h) ||
	    strlen(h) > 8)
		return -1;
	v = strtoul(h, &end, 16);
	return (long)v;
}

bool pcb_is_rdma_handle(const char *name)
{
	char path[PATH_MAX];
	size_t l = strcspn(name, "/");
	struct stat st;

	if (!l || l >= 64 || name[0] == '.')
		return false;
	if (!strncmp(name, "mlx5_", 5))
		return true;
	snprintf(path, sizeof(path), "%s/class/infiniband/%.*s", pcb_sysfs(),
		 (int)l, name);
	return !stat(path, &st);
}

/* The netdev of an RDMA device's port (its GID table's), "" unknown. */
static void port_netdev(const char *dev, unsigned port, char *buf,
			size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%u/"
		 "gid_attrs/ndevs/0", pcb_sysfs(), dev, port);
	if (sysfs_line(path, buf, len) || strchr(buf, '/') || buf[0] == '.')
		buf[0] = '\0';
}

/* A RoCE LAG: the bond's lower PFs ("0000:08:00.0, 0000:08:00.1"). */
static int cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

static void lag_pfs(const char *bond, char *buf, size_t len)
{
	char dir[PATH_MAX], link[PATH_MAX + 300], bdf[8][32];
	struct dirent *de;
	size_t n = 0, i, k = 0;
	DIR *d;

	buf[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/class/net/%s", pcb_sysfs(), bond);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) && n < 8) {
		if (strncmp(de->d_name, "lower_", 6))
			continue;
		snprintf(link, sizeof(link), "%s/%s/device", dir, de->d_name);
		n += !link_bdf(link, bdf[n], sizeof(bdf[n]));
	}
	closedir(d);
	qsort(bdf, n, sizeof(bdf[0]), cmp_str);
	for (i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "",
				      bdf[i]);
}

/* Refuse an RDMA handle that names no physical port of one function: a
 * port the device does not have, a switchdev representor, a RoCE LAG.
 */
static int rdma_port_check(const char *name, const char *dev, unsigned port,
			   struct pcb_err *err)
{
	char path[PATH_MAX], nd[64], ppn[64], pfs[256];
	struct stat st;

	port_netdev(dev, 1, nd, sizeof(nd));
	snprintf(path, sizeof(path), "%s/class/net/%s/bonding", pcb_sysfs(),
		 nd);
	if (!strncmp(dev, "mlx5_bond_", 10) || (*nd && !stat(path, &st))) {
		lag_pfs(nd, pfs, sizeof(pfs));
		return pcb_error(err, PCB_E_INVAL, "'%s' is a RoCE LAG%s%s%s%s%s"
				 ": PPCC is per physical port; give each PF "
				 "by its PCI address%s", name, *nd ? " (" : "",
				 nd, *pfs ? " over " : "", pfs, *nd ? ")" : "",
				 *pfs ? "" : " ('dev list')");
	}
	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports", pcb_sysfs(),
		 dev);
	if (stat(path, &st))
		return 0;	/* no port table to check against */
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%u", port);
	if (stat(path, &st))
		return pcb_error(err, PCB_E_NOENT, "'%s': %s has no port %u "
				 "(each mlx5 PF is its own single-port RDMA "
				 "device: give the PF's own, 'dev list')", name,
				 dev, port);
	port_netdev(dev, port, nd, sizeof(nd));
	snprintf(path, sizeof(path), "%s/class/net/%s/phys_port_name",
		 pcb_sysfs(), nd);
	if (*nd && !sysfs_line(path, ppn, sizeof(ppn)) &&
	    (strstr(ppn, "vf") || strstr(ppn, "sf")))
		return pcb_error(err, PCB_E_INVAL, "'%s': port %u of %s is a "
				 "representor (netdev %s, %s; switchdev mode), "
				 "not a physical port: give the PF", name, port,
				 dev, nd, ppn);
	return 0;
}

/* mstflint's names: [/dev/mst/]mt<device id>_pciconf<card>[.<function>];
 * the card-th NVIDIA card with that (decimal) device id, by PCI address.
 * false: not such a name.
 */
static bool mst_name(const char *n, unsigned *id, unsigned *card,
		     unsigned *fn)
{
	char *end;

	if (!strncmp(n, "/dev/mst/", 9))
		n += 9;
	if (strncmp(n, "mt", 2) || n[2] < '0' || n[2] > '9')
		return false;
	*id = (unsigned)strtoul(n + 2, &end, 10);
	if (strncmp(end, "_pciconf", 8) || end[8] < '0' || end[8] > '9')
		return false;
	*card = (unsigned)strtoul(end + 8, &end, 10);
	*fn = 0;
	if (*end == '.' && end[1] >= '0' && end[1] <= '7' && !end[2]) {
		*fn = (unsigned)(end[1] - '0');
		end += 2;
	}
	return !*end && *id <= 0xffff && *card < 256;
}

/* The PCI function of an MST name, from the bus (the mst driver's node
 * need not exist).
 */
static int mst_bdf(const char *name, unsigned id, unsigned card, unsigned fn,
		   char *bdf, size_t len, struct pcb_err *err)
{
	char dir[PATH_MAX], cards[64][16];
	struct dirent *de;
	size_t n = 0, i;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/bus/pci/devices", pcb_sysfs());
	d = opendir(dir);
	while (d && (de = readdir(d)) && n < 64) {
		const char *dot = strrchr(de->d_name, '.');

		if (!pcb_is_pci_name(de->d_name) || !dot ||
		    (size_t)(dot - de->d_name) >= sizeof(cards[0]) ||
		    sysfs_hex(de->d_name, "vendor") != 0x15b3 ||
		    sysfs_hex(de->d_name, "device") != (long)id)
			continue;
		snprintf(cards[n], sizeof(cards[0]), "%.*s",
			 (int)(dot - de->d_name), de->d_name);
		for (i = 0; i < n && strcmp(cards[i], cards[n]); i++)
			;
		n += i == n;
	}
	if (d)
		closedir(d);
	qsort(cards, n, sizeof(cards[0]), cmp_str);
	if (card >= n)
		return pcb_error(err, PCB_E_NOENT, "'%s': %zu card%s with "
				 "device id %u (0x%04x) here; 'dev list' shows "
				 "the NVIDIA functions", name, n,
				 n == 1 ? "" : "s", id, id);
	snprintf(bdf, len, "%s.%u", cards[card], fn);
	if (sysfs_hex(bdf, "vendor") != 0x15b3)
		return pcb_error(err, PCB_E_NOENT, "'%s': %s has no function "
				 "%u; 'dev list' shows the NVIDIA functions",
				 name, cards[card], fn);
	return 0;
}

long pcb_pci_device_id(const char *bdf)
{
	return sysfs_hex(bdf, "vendor") == 0x15b3 ? sysfs_hex(bdf, "device") :
	       -1;
}

unsigned pcb_handle_port(const char *name)
{
	const char *slash = pcb_is_rdma_handle(name) ? strchr(name, '/') :
			    NULL;
	unsigned long p;
	char *end;

	if (!slash)
		return 1;
	p = strtoul(slash + 1, &end, 10);
	return slash[1] && !*end && p >= 1 && p <= 255 ? (unsigned)p : 1;
}

int pcb_resolve_pci(const char *name, char *bdf, size_t len,
		    struct pcb_err *err)
{
	unsigned d = 0, b, s, f, mid, mcard, mfn;
	char tail, link[PATH_MAX], what[80];
	const char *n = name;
	long vendor;

	if (!strncmp(n, "pci/", 4))	/* devlink's handle */
		n += 4;
	if (sscanf(n, "%x:%x:%x.%x%c", &d, &b, &s, &f, &tail) == 4 ||
	    (d = 0, sscanf(n, "%x:%x.%x%c", &b, &s, &f, &tail) == 3)) {
		if (d > 0xffff || b > 0xff || s > 0x1f || f > 7 ||
		    strspn(n, "0123456789abcdefABCDEF:.") != strlen(n))
			return pcb_error(err, PCB_E_INVAL,
					 "bad PCI address '%s'", name);
		snprintf(bdf, len, "%04x:%02x:%02x.%u", d, b, s, f);
		snprintf(what, sizeof(what), "PCI function");
	} else if (n != name) {
		return pcb_error(err, PCB_E_INVAL, "bad devlink handle '%s' "
				 "(pci/0000:08:00.0)", name);
	} else if (mst_name(n, &mid, &mcard, &mfn)) {
		int rc = mst_bdf(name, mid, mcard, mfn, bdf, len, err);

		if (rc)
			return rc;
		snprintf(what, sizeof(what), "MST device");
	} else if (pcb_is_rdma_handle(n)) {
		char dev[64];
		size_t l = strcspn(n, "/");
		int rc;

		if (n[l] && pcb_handle_port(n) == 1 && strcmp(n + l, "/1"))
			return pcb_error(err, PCB_E_INVAL, "bad port in '%s' "
					 "(mlx5_0/1)", name);
		snprintf(dev, sizeof(dev), "%.*s", (int)l, n);
		snprintf(link, sizeof(link), "%s/class/infiniband/%s/device",
			 pcb_sysfs(), dev);
		if (link_bdf(link, bdf, len))
			return pcb_error(err, PCB_E_NOENT, "RDMA device '%s' "
					 "not found (%s); 'dev list' shows the "
					 "NVIDIA functions here", dev, link);
		rc = rdma_port_check(name, dev, pcb_handle_port(n), err);
		if (rc)
			return rc;
		snprintf(what, sizeof(what), "RDMA device %s", dev);
	} else {
		snprintf(link, sizeof(link), "%s/class/net/%s/device",
			 pcb_sysfs(), n);
		if (strchr(n, '/') || !*n || link_bdf(link, bdf, len))
			return pcb_error(err, PCB_E_NOENT, "no device '%s': "
					 "give a PCI address (0000:08:00.0, "
					 "pci/0000:08:00.0), an RDMA device "
					 "(mlx5_0, mlx5_0/1) or a netdev; 'dev "
					 "list' shows the NVIDIA functions here",
					 name);
		snprintf(what, sizeof(what), "netdev %s", n);
	}
	/* a function the bus shows with another vendor is not a NIC of
	 * ours; one it does not show is left to the backend to find */
	vendor = sysfs_hex(bdf, "vendor");
	if (vendor >= 0 && vendor != 0x15b3)
		return pcb_error(err, PCB_E_NOENT, "'%s' (%s, %s) is not an "
				 "NVIDIA function (vendor 0x%04lx); 'dev list' "
				 "shows them", name, what, bdf, vendor);
	return 0;
}

/* Entries of $SYSFS/bus/pci/devices/BDF/SUB, comma separated. */
static void names_in(const char *bdf, const char *sub, char *out,
		     size_t len)
{
	char dir[PATH_MAX];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	out[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%s/%s", pcb_sysfs(), bdf,
		 sub);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) && n < len) {
		if (de->d_name[0] == '.')
			continue;
		n += (size_t)snprintf(out + n, len - n, "%s%s", n ? "," : "",
				      de->d_name);
	}
	closedir(d);
}

void pcb_rdma_name(const char *bdf, char *buf, size_t len)
{
	names_in(bdf, "infiniband", buf, len);
	buf[strcspn(buf, ",")] = '\0';	/* the first */
}

/* A netdev that is a switchdev representor: phys_port_name pf0vf1,
 * pf0sf2, c1pf0vf1 (an uplink's is p0, p1, or none).
 */
static bool is_representor(const char *netdev)
{
	char path[PATH_MAX], ppn[64];

	snprintf(path, sizeof(path), "%s/class/net/%s/phys_port_name",
		 pcb_sysfs(), netdev);
	return !sysfs_line(path, ppn, sizeof(ppn)) &&
	       (strstr(ppn, "vf") || strstr(ppn, "sf"));
}

int pcb_netdev_name(const char *bdf, char *buf, size_t len)
{
	char all[512], *p, *best = NULL;
	int n = 0;

	names_in(bdf, "net", all, sizeof(all));
	buf[0] = '\0';
	/* the uplink: the first by name that is no representor */
	for (p = all; *p; n++) {
		char *e = p + strcspn(p, ",");
		char c = *e;

		*e = '\0';
		if (!is_representor(p) && (!best || strcmp(p, best) < 0))
			best = p;
		if (!c)
			break;
		p = e + 1;
	}
	if (best)
		snprintf(buf, len, "%s", best);
	return *all ? n + 1 : 0;
}

static jmp_buf pci_jmp;
static char pci_msg[256];

/* libpci's error hook must not return: back to pcb_discover. */
static void pci_fail(char *msg, ...) __attribute__((noreturn,
						     format(printf, 1, 2)));
static void pci_fail(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_msg, sizeof(pci_msg), msg, ap);
	va_end(ap);
	longjmp(pci_jmp, 1);
}

static void pci_quiet(char *msg, ...)
{
	(void)msg;
}

static int nic_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pcb_nic *)a)->bdf,
		      ((const struct pcb_nic *)b)->bdf);
}

/* What a function is: by its class first (a bridge is a bridge whatever
 * its ID), then by the table.
 */
static enum pcb_fn_kind fn_kind(uint16_t device, uint16_t pci_class)
{
	enum pcb_fn_kind k = pcb_nic_kind(device);

	if (pci_class == 0x0604)
		return PCB_FN_BRIDGE;
	if (pci_class >> 8 == 0x02)
		return k;
	return k == PCB_FN_PF || k == PCB_FN_VF ? PCB_FN_OTHER : k;
}

/* The model: ours, else libpci's name (pci.ids, hwdb), else the ID. */
static void fn_model(struct pci_access *pa, uint16_t device, char *buf,
		     size_t len)
{
	int flags = PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS;
	const char *ids = getenv("PCCBENCH_PCI_IDS"), *m;
	bool vf;

	m = pcb_nic_model(device, &vf);
	if (!m) {
		if (ids && *ids)
			flags |= PCI_LOOKUP_NO_HWDB;
		m = pci_lookup_name(pa, buf, (int)len, flags, 0x15b3, device);
	}
	if (m && m != buf)
		snprintf(buf, len, "%s", m);
	else if (!m)
		snprintf(buf, len, "NVIDIA device 0x%04x", device);
}

int pcb_discover(struct pcb_nic **out, size_t *count, struct pcb_err *err)
{
	return pcb_discover_all(out, count, false, err);
}

/* libpci reads these of every function under bus/pci/devices with
 * plain blocking opens: in a tree where one is a FIFO (or a device, or a
 * link) the scan would hang or read something else.  Refused first.
 */
static int pci_tree_check(struct pcb_err *err)
{
	static const char *const attrs[] = {
		"vendor", "device", "class", "config", "irq", "resource",
		"revision", "subsystem_vendor", "subsystem_device",
		"numa_node", "label",
	};
	char dir[PATH_MAX], path[PATH_MAX + 300];
	struct dirent *de;
	struct stat st;
	size_t i;
	int rc = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/bus/pci/devices", pcb_sysfs());
	d = opendir(dir);
	while (d && !rc && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		for (i = 0; !rc && i < sizeof(attrs) / sizeof(attrs[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s/%s", dir,
				 de->d_name, attrs[i]);
			if (!lstat(path, &st) && !S_ISREG(st.st_mode))
				rc = pcb_error(err, PCB_E_CORRUPT, "PCI scan "
					       "refused: '%s' is not a regular "
					       "file", path);
		}
	}
	if (d)
		closedir(d);
	return rc;
}

int pcb_discover_all(struct pcb_nic **out, size_t *count, bool all,
		     struct pcb_err *err)
{
	const char *dump = getenv("PCCBENCH_PCI_DUMP");
	const char *ids = getenv("PCCBENCH_PCI_IDS");
	struct pci_access *volatile pa = NULL;
	struct pcb_nic *volatile v = NULL;
	volatile size_t n = 0, cap = 0;
	struct pci_dev *dev;
	char sysp[PATH_MAX];

	if ((!dump || !*dump) && pci_tree_check(err))
		return -err->code;
	pa = pci_alloc();
	if (!pa)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	pa->error = pci_fail;
	pa->warning = pci_quiet;
	if (setjmp(pci_jmp)) {
		free(v);
		pci_cleanup(pa);
		return pcb_error(err, PCB_E_DEVICE, "PCI scan failed: %s",
				 pci_msg);
	}
	if (ids && *ids)
		pci_set_name_list_path(pa, (char *)ids, 0);
	if (dump && *dump) {
		pa->method = PCI_ACCESS_DUMP;
		pci_set_param(pa, (char *)"dump.name", (char *)dump);
	} else if (getenv("PCCBENCH_SYSFS")) {
		snprintf(sysp, sizeof(sysp), "%s/bus/pci", pcb_sysfs());
		pa->method = PCI_ACCESS_SYS_BUS_PCI;
		pci_set_param(pa, (char *)"sysfs.path", sysp);
	}
	pci_init(pa);
	pci_scan_bus(pa);
	for (dev = pa->devices; dev; dev = dev->next) {
		struct pcb_nic *nic;
		enum pcb_fn_kind kind;

		pci_fill_info(dev, PCI_FILL_IDENT | PCI_FILL_CLASS);
		if (dev->vendor_id != 0x15b3)
			continue;
		kind = fn_kind(dev->device_id, dev->device_class);
		if (!all && dev->device_class >> 8 != 0x02)
			continue;
		if (n == cap) {
			struct pcb_nic *nv;

			cap = cap ? cap * 2 : 8;
			nv = realloc(v, cap * sizeof(*nv));
			if (!nv) {
				free(v);
				pci_cleanup(pa);
				return pcb_error(err, PCB_E_NOMEM,
						 "out of memory");
			}
			v = nv;
		}
		nic = &v[n++];
		memset(nic, 0, sizeof(*nic));
		snprintf(nic->bdf, sizeof(nic->bdf), "%04x:%02x:%02x.%u",
			 dev->domain, dev->bus, dev->dev, dev->func);
		nic->device = dev->device_id;
		nic->pci_class = dev->device_class;
		nic->kind = kind;
		nic->vf = kind == PCB_FN_VF;
		fn_model(pa, dev->device_id, nic->model, sizeof(nic->model));
		names_in(nic->bdf, "net", nic->netdev, sizeof(nic->netdev));
		names_in(nic->bdf, "infiniband", nic->rdma, sizeof(nic->rdma));
		if (fwctl_find_node(nic->bdf, nic->fwctl, sizeof(nic->fwctl)))
			nic->fwctl[0] = '\0';
	}
	pci_cleanup(pa);
	if (n)
		qsort(v, n, sizeof(*v), nic_cmp);
	*out = v;
	*count = n;
	return 0;
}
