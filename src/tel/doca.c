/* doca.c - DOCA's libraries loaded at run time (doca.h): where to look,
 * which symbols, the device lookup.
 */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tel/doca.h"
#include "tel/tel.h"

#if defined(__x86_64__)
#define TDOCA_ARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define TDOCA_ARCH "aarch64-linux-gnu"
#else
#define TDOCA_ARCH ""
#endif

static struct tdoca_api api;
static int loaded;		/* 0 not tried, 1 loaded, -1 failed */
static char load_why[2048];

/* Directories after the loader's own path (NULL); DOCA's Debian and
 * RPM layouts.
 */
static const char *const prefixes[] = {
	NULL, "/opt/mellanox/doca/lib/" TDOCA_ARCH, "/opt/mellanox/doca/lib64",
};

/* "libdoca_X.so.3", ".so.2", ".so" in dir (NULL: the loader's path). */
static void *open_lib(const char *dir, const char *base, int flags,
		      const char *const *sfx, size_t nsfx, char *path,
		      size_t len)
{
	size_t i;

	for (i = 0; i < nsfx; i++) {
		void *h;

		/* a path too long is skipped, never cut to another file */
		if (pcb_path(path, len, NULL, "%s%s%s%s", dir ? dir : "",
			     dir ? "/" : "", base, sfx[i]))
			continue;
		h = dlopen(path, flags);
		if (h)
			return h;
	}
	return NULL;
}

/* The version from the file a soname link points to:
 * libdoca_common.so.2.10.0087 -> "2.10.0087".
 */
static void version_of(void *h, char *out, size_t len)
{
	struct link_map *lm = NULL;
	char real[PATH_MAX];
	const char *v;

	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) || !lm || !lm->l_name ||
	    !realpath(lm->l_name, real))
		return;
	v = strstr(real, ".so.");
	if (v)
		snprintf(out, len, "%s", v + 4);
}

static const char *feature_name(unsigned f)
{
	switch (f) {
	case TDOCA_F_DEV:
		return "device lookup";
	case TDOCA_F_DIAG:
		return "diag";
	case TDOCA_F_RECONF:
		return "diag reconfig, DOCA 3.1+";
	case TDOCA_F_RETX:
		return "adp_retx, DOCA 3.2+";
	case TDOCA_F_PCC:
		return "pcc";
	case TDOCA_F_PCC_CLEAR:
		return "pcc clear";
	default:
		return "version";
	}
}

const char *tdoca_missing(const struct tdoca_api *a, unsigned feature);

static void *sym(void *const *h, size_t nh, const char *name, unsigned f)
{
	size_t i, b = (size_t)__builtin_ctz(f);
	void *p;

	for (i = 0; i < nh; i++) {
		if (!h[i])
			continue;
		p = dlsym(h[i], name);
		if (p)
			return p;
	}
	api.missing |= f;
	if (!api.nmissing[b]++)
		snprintf(api.missing_syms[b], sizeof(api.missing_syms[b]),
			 "%s", name);
	return NULL;
}

/* Every symbol, from whichever library holds it. */
static void resolve(void *const *h, size_t nh)
{
	void *p;

#define TDOCA_GET(m, name, f) \
	(p = sym(h, nh, name, f), memcpy(&api.m, &p, sizeof(p)))
	TDOCA_GET(devinfo_create_list, "doca_devinfo_create_list", TDOCA_F_DEV);
	TDOCA_GET(devinfo_destroy_list, "doca_devinfo_destroy_list",
		  TDOCA_F_DEV);
	TDOCA_GET(devinfo_pci_addr, "doca_devinfo_get_pci_addr_str",
		  TDOCA_F_DEV);
	TDOCA_GET(devinfo_ibdev_name, "doca_devinfo_get_ibdev_name",
		  TDOCA_F_DEV);
	TDOCA_GET(dev_open, "doca_dev_open", TDOCA_F_DEV);
	TDOCA_GET(dev_close, "doca_dev_close", TDOCA_F_DEV);
	TDOCA_GET(dev_as_devinfo, "doca_dev_as_devinfo", TDOCA_F_DEV);
	TDOCA_GET(error_name, "doca_error_get_name", TDOCA_F_DEV);
	TDOCA_GET(version_runtime, "doca_version_runtime", TDOCA_F_VERSION);
	TDOCA_GET(diag_create, "doca_telemetry_diag_create", TDOCA_F_DIAG);
	TDOCA_GET(diag_apply_ids, "doca_telemetry_diag_apply_counters_list_by_id",
		  TDOCA_F_DIAG);
	TDOCA_GET(diag_query, "doca_telemetry_diag_query_counters",
		  TDOCA_F_DIAG);
	TDOCA_GET(retx_create, "doca_telemetry_adp_retx_create", TDOCA_F_RETX);
	TDOCA_GET(retx_read, "doca_telemetry_adp_retx_read_hist_bins",
		  TDOCA_F_RETX);
	TDOCA_GET(retx_get_vhca, "doca_telemetry_adp_retx_get_hist_vhca_id",
		  TDOCA_F_RETX);
	TDOCA_GET(pcc_create, "doca_telemetry_pcc_create", TDOCA_F_PCC);
	TDOCA_GET(pcc_algo_id, "doca_telemetry_pcc_get_algo_id", TDOCA_F_PCC);
	TDOCA_GET(pcc_major, "doca_telemetry_pcc_get_algo_major_version",
		  TDOCA_F_PCC);
	TDOCA_GET(pcc_minor, "doca_telemetry_pcc_get_algo_minor_version",
		  TDOCA_F_PCC);
	TDOCA_GET(pcc_enable, "doca_telemetry_pcc_get_algo_enable_status",
		  TDOCA_F_PCC);
	TDOCA_GET(pcc_algo_info, "doca_telemetry_pcc_get_algo_info",
		  TDOCA_F_PCC);
	TDOCA_GET(pcc_num_counters, "doca_telemetry_pcc_get_num_counters",
		  TDOCA_F_PCC);
	TDOCA_GET(pcc_counter_info, "doca_telemetry_pcc_get_counter_info",
		  TDOCA_F_PCC);
	TDOCA_GET(pcc_counters, "doca_telemetry_pcc_get_counters", TDOCA_F_PCC);
	TDOCA_GET(pcc_clear, "doca_telemetry_pcc_get_and_clear_counters",
		  TDOCA_F_PCC_CLEAR);
#define TDOCA_SIMPLE(f, m, name, type) TDOCA_GET(m, name, TDOCA_F_##f);
	TDOCA_SYMS_SIMPLE(TDOCA_SIMPLE)
#undef TDOCA_SIMPLE
#undef TDOCA_GET
}

/* libdoca_common, then the telemetry library of the same major (or the
 * per-domain libraries) in the first place that has them.
 */
static int load(void)
{
	static const char *const csfx[] = { ".so.3", ".so.2", ".so" };
	static const char *const dom[] = { "libdoca_telemetry_diag",
		"libdoca_telemetry_adp_retx", "libdoca_telemetry_pcc" };
	const char *env = getenv("PCCBENCH_DOCA_LIBDIR");
	void *h[4] = { NULL, NULL, NULL, NULL }, *common = NULL;
	const char *dir = NULL;
	char path[PCB_PATH_LEN], tsfx[8];
	const char *ts[2];
	size_t i, np = env && *env ? 1 : sizeof(prefixes) / sizeof(*prefixes);

	for (i = 0; i < np && !common; i++) {
		dir = env && *env ? env : prefixes[i];
		common = open_lib(dir, "libdoca_common", RTLD_NOW | RTLD_GLOBAL,
				  csfx, 3, path, sizeof(path));
	}
	if (!common) {
		snprintf(load_why, sizeof(load_why), "DOCA not found: no "
			 "libdoca_common.so.{3,2,} %s%s", env && *env ? "in " :
			 "on the loader's path or in /opt/mellanox/doca",
			 env && *env ? env : "");
		return -1;
	}
	snprintf(api.common_path, sizeof(api.common_path), "%s", path);
	/* the telemetry library's major: the one common was found with */
	snprintf(tsfx, sizeof(tsfx), "%s", strstr(path, ".so"));
	ts[0] = tsfx;
	ts[1] = ".so";
	h[0] = open_lib(dir, "libdoca_telemetry", RTLD_NOW, ts, 2, path,
			sizeof(path));
	if (h[0]) {
		snprintf(api.tel_path, sizeof(api.tel_path), "%s", path);
	} else {
		for (i = 0; i < 3; i++) {
			h[i + 1] = open_lib(dir, dom[i], RTLD_NOW, ts, 2,
					    path, sizeof(path));
			if (h[i + 1] && !api.tel_path[0])
				snprintf(api.tel_path, sizeof(api.tel_path),
					 "%.400s (per-domain libraries)", path);
		}
	}
	if (!api.tel_path[0]) {
		snprintf(load_why, sizeof(load_why), "DOCA's libdoca_common "
			 "is at %.480s but no libdoca_telemetry%s beside it",
			 api.common_path, tsfx);
		return -1;
	}
	{
		void *all[5] = { common, h[0], h[1], h[2], h[3] };

		resolve(all, 5);
	}
	if (api.missing & TDOCA_F_DEV) {
		snprintf(load_why, sizeof(load_why), "DOCA at %.1000s lacks %s",
			 api.common_path, tdoca_missing(&api, TDOCA_F_DEV));
		return -1;
	}
	if (api.version_runtime && api.version_runtime())
		snprintf(api.version, sizeof(api.version), "%s",
			 api.version_runtime());
	else
		version_of(common, api.version, sizeof(api.version));
	return 0;
}

const struct tdoca_api *tdoca_load(char *why, size_t len)
{
	if (!loaded)
		loaded = load() ? -1 : 1;
	if (loaded < 0) {
		snprintf(why, len, "%s", load_why);
		return NULL;
	}
	return &api;
}

const char *tdoca_missing(const struct tdoca_api *a, unsigned feature)
{
	static char buf[320];
	size_t b = (size_t)__builtin_ctz(feature);

	if (!(a->missing & feature))
		return NULL;
	if (a->nmissing[b] > 1)
		snprintf(buf, sizeof(buf), "%s and %u more (%s)",
			 a->missing_syms[b], a->nmissing[b] - 1,
			 feature_name(feature));
	else
		snprintf(buf, sizeof(buf), "%s (%s)", a->missing_syms[b],
			 feature_name(feature));
	return buf;
}

int tdoca_tel(int doca)
{
	if (doca >= 0 && doca <= TEL_DEVICE_FATAL_ERROR)
		return doca;
	return TEL_UNKNOWN;
}

const char *tdoca_errname(const struct tdoca_api *a, int doca)
{
	if (a && a->error_name && a->error_name(doca))
		return a->error_name(doca);
	return tel_errname(tdoca_tel(doca));
}

/* The list's entry for pci (or ibdev), or NULL. */
static void *pick(const struct tdoca_api *a, void **list, uint32_t n,
		  const char *pci, const char *ibdev)
{
	char addr[32], name[64];
	uint32_t i;

	for (i = 0; pci && *pci && i < n; i++) {
		memset(addr, 0, sizeof(addr));
		if (!a->devinfo_pci_addr(list[i], addr) && !strcmp(addr, pci))
			return list[i];
	}
	for (i = 0; ibdev && *ibdev && i < n; i++) {
		memset(name, 0, sizeof(name));
		if (!a->devinfo_ibdev_name(list[i], name, sizeof(name)) &&
		    !strcmp(name, ibdev))
			return list[i];
	}
	return NULL;
}

int tdoca_dev_open(struct tdoca_dev *d, const struct tdoca_api *a,
		   const char *pci, const char *ibdev, int *doca,
		   struct pcb_err *err)
{
	void **list = NULL, *info;
	uint32_t n = 0;
	int rc;

	memset(d, 0, sizeof(*d));
	*doca = a->devinfo_create_list(&list, &n);
	if (*doca)
		return pcb_error(err, tel_pcb_code(tdoca_tel(*doca)),
				 "DOCA cannot list devices: %s",
				 tdoca_errname(a, *doca));
	info = pick(a, list, n, pci, ibdev);
	if (!info) {
		a->devinfo_destroy_list(list);
		return pcb_error(err, PCB_E_NOENT, "DOCA lists no device %s%s%s",
				 pci && *pci ? pci : "", pci && *pci && ibdev &&
				 *ibdev ? " or " : "", ibdev ? ibdev : "");
	}
	a->devinfo_pci_addr(info, d->pci);
	a->devinfo_ibdev_name(info, d->ibdev, sizeof(d->ibdev));
	*doca = a->dev_open(info, &d->dev);
	a->devinfo_destroy_list(list);	/* the opened device stays valid */
	if (*doca)
		return pcb_error(err, tel_pcb_code(tdoca_tel(*doca)),
				 "DOCA cannot open %s: %s", d->pci,
				 tdoca_errname(a, *doca));
	rc = 0;
	d->api = a;
	d->devinfo = a->dev_as_devinfo(d->dev);
	return rc;
}

void tdoca_dev_close(struct tdoca_dev *d)
{
	if (d->api && d->dev)
		d->api->dev_close(d->dev);
	d->dev = NULL;
	d->api = NULL;
}
