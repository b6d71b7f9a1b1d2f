/* hostctr.c - a real host's RDMA, port and netdev counters (hostctr.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discover.h"
#include "fsafe.h"
#include "host/hostctr.h"

/* The last component of a sysfs link's target: ".../0000:08:00.0". */
static int link_base(const char *link, char *buf, size_t len)
{
	char t[PATH_MAX];
	ssize_t n = readlink(link, t, sizeof(t) - 1);
	const char *b;

	if (n <= 0)
		return -1;
	t[n] = '\0';
	b = strrchr(t, '/');
	b = b ? b + 1 : t;
	if (strlen(b) >= len)
		return -1;
	memcpy(buf, b, strlen(b) + 1);
	return 0;
}

/* Handle -> PCI function, RDMA device, port and netdev. */
static int resolve(struct hostctr *h, const char *handle, struct pcb_err *err)
{
	char name[64], path[PATH_MAX], *slash;
	struct stat st;

	snprintf(name, sizeof(name), "%s", handle);
	h->port = 1;
	slash = strchr(name, '/');
	if (slash) {	/* mlx5_0/2 */
		char *end;
		unsigned long p = strtoul(slash + 1, &end, 10);

		if (!slash[1] || *end || p < 1 || p > 255)
			return pcb_error(err, PCB_E_INVAL, "bad port in '%s' "
					 "(mlx5_0/1)", handle);
		h->port = (unsigned)p;
		*slash = '\0';
	}
	snprintf(path, sizeof(path), "%s/class/net/%s", pcb_sysfs(), name);
	if (!pcb_is_pci_name(name) && !pcb_is_rdma_handle(name) &&
	    !stat(path, &st)) {	/* a netdev */
		snprintf(h->netdev, sizeof(h->netdev), "%s", name);
		snprintf(path, sizeof(path), "%s/class/net/%s/device",
			 pcb_sysfs(), name);
		if (link_base(path, h->bdf, sizeof(h->bdf)))
			h->bdf[0] = '\0';	/* virtual: no PCI, no RDMA */
		else
			pcb_rdma_name(h->bdf, h->rdma, sizeof(h->rdma));
		return 0;
	}
	if (pcb_resolve_pci(name, h->bdf, sizeof(h->bdf), err))
		return -err->code;
	if (pcb_is_rdma_handle(name))
		snprintf(h->rdma, sizeof(h->rdma), "%s", name);
	else
		pcb_rdma_name(h->bdf, h->rdma, sizeof(h->rdma));
	if (pcb_netdev_name(h->bdf, h->netdev, sizeof(h->netdev)) > 1)
		snprintf(h->warn, sizeof(h->warn), "%s has more than one "
			 "netdev: counting %s, its uplink", h->bdf,
			 *h->netdev ? h->netdev : "none");
	return 0;
}

/* mlx5's Q-counters (spec host-counters-and-doca.md 1.3): 32-bit
 * firmware fields the kernel zero-extends; "vport_" + these on switchdev
 * representors.
 */
static const char *const q32_names[] = {
	"rx_write_requests", "rx_read_requests", "rx_atomic_requests",
	"rx_dct_connect", "out_of_buffer", "out_of_sequence",
	"duplicate_request", "rnr_nak_retry_err", "packet_seq_err",
	"implied_nak_seq_err", "local_ack_timeout_err",
	"resp_local_length_error", "resp_cqe_error", "req_cqe_error",
	"req_remote_invalid_request", "req_remote_access_errors",
	"resp_remote_access_errors", "resp_cqe_flush_error",
	"req_cqe_flush_error", "req_transport_retries_exceeded",
	"req_rnr_retries_exceeded", "roce_adp_retrans",
	"roce_adp_retrans_to", "roce_slow_restart", "roce_slow_restart_cnps",
	"roce_slow_restart_trans",
};

static bool is_q32(const char *name)
{
	size_t i;

	if (!strncmp(name, "vport_", 6))
		name += 6;
	for (i = 0; i < sizeof(q32_names) / sizeof(q32_names[0]); i++)
		if (!strcmp(name, q32_names[i]))
			return true;
	return false;
}

/* Every regular file of dir, opened for re-reading, named prefix+file. */
static int add_dir(struct hostctr *h, const char *dir, const char *prefix)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int added = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		struct hostctr_file *nf;
		int fd;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "lifespan") ||
		    strlen(prefix) + strlen(de->d_name) >= sizeof(nf->name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		/* a regular file, no link followed, no FIFO waited on */
		fd = pcb_open_read(path, NULL);
		if (fd < 0)
			continue;
		nf = realloc(h->files, (h->nfiles + 1) * sizeof(*nf));
		if (!nf) {
			close(fd);
			break;
		}
		h->files = nf;
		memset(&nf[h->nfiles], 0, sizeof(*nf));
		snprintf(nf[h->nfiles].name, sizeof(nf->name), "%s%s", prefix,
			 de->d_name);
		nf[h->nfiles].q32 = !*prefix && is_q32(de->d_name);
		nf[h->nfiles++].fd = fd;
		added++;
	}
	closedir(d);
	return added;
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct hostctr_file *)a)->name,
		      ((const struct hostctr_file *)b)->name);
}

/* The driver's ethtool names now become the view; -1: out of memory. */
static int take_view(struct hostctr *h)
{
	uint32_t k, n = h->eth.n;
	char (*names)[PCB_ETH_NAME] = malloc((n ? n : 1) * sizeof(*names));
	int32_t *map = malloc((n ? n : 1) * sizeof(*map));

	if (!names || !map) {
		free(names);
		free(map);
		return -1;
	}
	if (n)
		memcpy(names, h->eth.names, n * sizeof(*names));
	for (k = 0; k < n; k++)
		map[k] = (int32_t)k;
	free(h->enames);
	free(h->emap);
	h->enames = names;
	h->emap = map;
	h->ne = n;
	h->egen = h->eth.gen;
	h->moved = false;
	return 0;
}

/* The view's index of an ethtool name, looked for first where it was. */
static int32_t view_index(const struct hostctr *h, const char *name,
			  uint32_t guess)
{
	size_t i;

	if (guess < h->ne && !strcmp(h->enames[guess], name))
		return (int32_t)guess;
	for (i = 0; i < h->ne; i++)
		if (!strcmp(h->enames[i], name))
			return (int32_t)i;
	return -1;
}

/* Up to 6 names into a note, then how many more. */
static void note_names(char *buf, size_t len, const char *what, size_t total,
		       size_t *said, const char *name)
{
	size_t l = strlen(buf);

	if (*said == 6 || l >= len)
		return;
	snprintf(buf + l, len - l, "%s%s%s", *said ? ", " : what, name,
		 *said == 5 && total > 6 ? ", ..." : "");
	++*said;
}

/* The driver's names changed: map them onto the view by name, say what
 * went and what came.
 */
static int remap(struct hostctr *h, struct pcb_err *err)
{
	uint32_t k, n = h->eth.n;
	int32_t *map = realloc(h->emap, (n ? n : 1) * sizeof(*map));
	bool *seen = calloc(h->ne ? h->ne : 1, sizeof(*seen));
	size_t i, gone = 0, came = 0, sg = 0, sc = 0;
	char g[200] = "", c[200] = "";

	if (map)
		h->emap = map;
	if (!map || !seen) {
		free(seen);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	for (k = 0; k < n; k++) {
		map[k] = view_index(h, h->eth.names[k], k);
		if (map[k] >= 0)
			seen[map[k]] = true;
		else
			came++;
	}
	for (i = 0; i < h->ne; i++)
		gone += !seen[i];
	for (i = 0; i < h->ne; i++)
		if (!seen[i])
			note_names(g, sizeof(g), "; gone: ", gone, &sg,
				   h->enames[i]);
	for (k = 0; k < n; k++)
		if (map[k] < 0)
			note_names(c, sizeof(c), "; new: ", came, &sc,
				   h->eth.names[k]);
	free(seen);
	h->egen = h->eth.gen;
	h->moved = gone || came;
	h->gen++;
	snprintf(h->note, sizeof(h->note), "ethtool %s: the driver's statistics "
		 "changed (%zu, now %u)%s%s%s", h->eth.ifname, h->ne, n, g, c,
		 h->moved ? "" : ": the same names again");
	return 0;
}

/* Open failed half-way: release what is held, say so. */
static int hostctr_fail(struct hostctr *h, const char *handle,
			struct pcb_err *err)
{
	hostctr_close(h);
	return pcb_error(err, PCB_E_NOMEM, "'%s': out of memory", handle);
}

int hostctr_open(struct hostctr *h, const char *handle, struct pcb_err *err)
{
	char dir[PATH_MAX];
	struct pcb_err e = { 0 };
	int rc;

	memset(h, 0, sizeof(*h));
	h->eth.fd = -1;
	rc = resolve(h, handle, err);
	if (rc)
		return rc;
	if (*h->rdma) {
		snprintf(dir, sizeof(dir), "%s/class/infiniband/%s/ports/%u/"
			 "hw_counters", pcb_sysfs(), h->rdma, h->port);
		if (add_dir(h, dir, "") < 0)
			snprintf(h->warn + strlen(h->warn), sizeof(h->warn) -
				 strlen(h->warn), "%s%s port %u has no "
				 "hw_counters", *h->warn ? "; " : "", h->rdma,
				 h->port);
		snprintf(dir, sizeof(dir), "%s/class/infiniband/%s/ports/%u/"
			 "counters", pcb_sysfs(), h->rdma, h->port);
		add_dir(h, dir, "");
	} else {
		snprintf(h->warn + strlen(h->warn), sizeof(h->warn) -
			 strlen(h->warn), "%s%s has no RDMA device",
			 *h->warn ? "; " : "", handle);
	}
	if (*h->netdev) {
		snprintf(dir, sizeof(dir), "%s/class/net/%s/statistics",
			 pcb_sysfs(), h->netdev);
		add_dir(h, dir, "net_");
		if (pcb_ethtool_open(&h->eth, h->netdev, &e))
			snprintf(h->warn + strlen(h->warn), sizeof(h->warn) -
				 strlen(h->warn), "%s%s", *h->warn ? "; " : "",
				 e.msg);
		else if (take_view(h))
			return hostctr_fail(h, handle, err);
	}
	if (h->nfiles > 1)	/* qsort(NULL, 0) is undefined */
		qsort(h->files, h->nfiles, sizeof(*h->files), cmp_file);
	h->n = h->nfiles + h->ne;
	if (!h->n) {
		hostctr_close(h);
		return pcb_error(err, PCB_E_NOENT, "'%s': no host counters "
				 "(no RDMA device or netdev found)", handle);
	}
	return 0;
}

void hostctr_close(struct hostctr *h)
{
	size_t i;

	for (i = 0; i < h->nfiles; i++)
		close(h->files[i].fd);
	free(h->files);
	pcb_ethtool_close(&h->eth);
	free(h->enames);
	free(h->emap);
	memset(h, 0, sizeof(*h));
	h->eth.fd = -1;
}

const char *hostctr_name(const struct hostctr *h, size_t i)
{
	return i < h->nfiles ? h->files[i].name : h->enames[i - h->nfiles];
}

uint64_t hostctr_max(const struct hostctr *h, size_t i)
{
	/* the sysfs Q-counters (q32_names) are made 64-bit totals by
	 * hostctr_read itself; the netdev's rx_out_of_buffer, ethtool's copy
	 * of a Q-counter, is not */
	if (i < h->nfiles)
		return UINT64_MAX;
	return strcmp(hostctr_name(h, i), "rx_out_of_buffer") ? UINT64_MAX :
	       UINT32_MAX;
}

int hostctr_find(const struct hostctr *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (!strcmp(hostctr_name(h, i), name))
			return (int)i;
	return -1;
}

/* The value of a sysfs counter file: decimal digits only, then at most
 * a newline, as the kernel prints them, within 64 bits ("-5", " 5", "+5",
 * "0x5" and an overflow are not a count); anything else is UINT64_MAX
 * (missing).
 */
static uint64_t read_file(int fd)
{
	char buf[32], *end;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	size_t d;
	uint64_t v;

	if (n <= 0)
		return UINT64_MAX;
	buf[n] = '\0';
	d = strspn(buf, "0123456789");
	if (!d || (buf[d] && strcmp(buf + d, "\n")))
		return UINT64_MAX;
	errno = 0;
	v = strtoull(buf, &end, 10);
	return errno ? UINT64_MAX : v;
}

int hostctr_read(struct hostctr *h, uint64_t *vals, size_t nvals,
		 struct pcb_err *err)
{
	size_t i, nf = nvals < h->nfiles ? nvals : h->nfiles;
	uint32_t k;
	int rc;

	for (i = 0; i < nf; i++) {
		struct hostctr_file *f = &h->files[i];

		vals[i] = read_file(f->fd);
		if (!f->q32 || vals[i] == UINT64_MAX)
			continue;
		if (vals[i] > UINT32_MAX) {	/* not a 32-bit count */
			vals[i] = UINT64_MAX;
			continue;
		}
		if (vals[i] < f->last)	/* wrapped, or reset */
			f->high = f->last >= 1u << 31 ? f->high + (1ULL << 32) :
				  0;
		f->last = (uint32_t)vals[i];
		vals[i] += f->high;
	}
	if (h->eth.fd < 0 || nvals <= h->nfiles)
		return 0;
	rc = pcb_ethtool_read(&h->eth, err);
	if (!rc && h->eth.gen != h->egen)
		rc = remap(h, err);
	if (rc)
		return rc;
	for (i = h->nfiles; i < nvals; i++)
		vals[i] = UINT64_MAX;
	for (k = 0; k < h->eth.n; k++) {
		int32_t v = h->emap[k];

		if (v >= 0 && h->nfiles + (size_t)v < nvals)
			vals[h->nfiles + (size_t)v] = h->eth.vals[k];
	}
	return 0;
}

bool hostctr_refresh(struct hostctr *h)
{
	if (!h->moved || take_view(h))
		return false;
	h->n = h->nfiles + h->ne;
	return true;
}
