/* ethtool.c - a fake kernel's SIOCETHTOOL for one interface, LD_PRELOADed
 * into pccbench by tests/e2e/ethtool_change.sh: a driver whose statistics
 * change at run time, answered as kernels before 7b07be1ff1cb do (the
 * driver's *current* count of names and values is copied whatever
 * len/n_stats says).  Every other ioctl goes to the kernel.
 *
 * FAKE_ETHTOOL_IF    the interface faked
 * FAKE_ETHTOOL       its set: lines "NAME BASE STEP"; a value is BASE +
 *                    STEP x the ETHTOOL_GSTATS calls so far (every
 *                    reader makes one per read)
 * FAKE_ETHTOOL_THEN  the set once FAKE_ETHTOOL_AT GSTATS calls were
 *                    answered, as a driver changes it when PFC is
 *                    enabled on another priority
 */
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SET_MAX 64

static char names[SET_MAX][ETH_GSTRING_LEN];
static uint64_t base[SET_MAX], step[SET_MAX];
static uint32_t nset;
static unsigned long nstats;	/* GSTATS calls answered */

/* The set now, from its file (none when unreadable). */
static void load(void)
{
	const char *at = getenv("FAKE_ETHTOOL_AT");
	const char *path = getenv("FAKE_ETHTOOL");
	char line[128];
	FILE *f;

	if (at && getenv("FAKE_ETHTOOL_THEN") &&
	    nstats >= strtoul(at, NULL, 10))
		path = getenv("FAKE_ETHTOOL_THEN");
	nset = 0;
	f = path ? fopen(path, "r") : NULL;
	if (!f)
		return;
	while (nset < SET_MAX && fgets(line, sizeof(line), f)) {
		unsigned long long b, s;
		char nm[ETH_GSTRING_LEN];

		if (sscanf(line, "%31s %llu %llu", nm, &b, &s) != 3)
			continue;
		memset(names[nset], 0, ETH_GSTRING_LEN);
		memcpy(names[nset], nm, strlen(nm));
		base[nset] = b;
		step[nset++] = s;
	}
	fclose(f);
}

static int fake(void *data)
{
	uint32_t cmd, i;

	memcpy(&cmd, data, sizeof(cmd));
	if (cmd == ETHTOOL_GSSET_INFO) {
		struct ethtool_sset_info *si = data;

		load();
		si->sset_mask &= 1ULL << ETH_SS_STATS;
		si->data[0] = nset;
		return 0;
	}
	load();
	if (cmd == ETHTOOL_GSTRINGS) {
		struct ethtool_gstrings *gs = data;

		gs->len = nset;
		memcpy(gs->data, names, (size_t)nset * ETH_GSTRING_LEN);
		return 0;
	}
	if (cmd == ETHTOOL_GSTATS) {
		struct ethtool_stats *st = data;

		st->n_stats = nset;
		nstats++;
		for (i = 0; i < nset; i++)
			st->data[i] = base[i] + step[i] * nstats;
		return 0;
	}
	return -1;
}

int ioctl(int fd, unsigned long req, ...)
{
	const char *ifn = getenv("FAKE_ETHTOOL_IF");
	struct ifreq *ifr;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	ifr = arg;
	if (req != SIOCETHTOOL || !ifn || strcmp(ifr->ifr_name, ifn))
		return (int)syscall(SYS_ioctl, fd, req, arg);
	return fake(ifr->ifr_data);
}
