/* common.c - a fake libdoca_common (tests/fake-doca/fake.h): the device
 * list, doca_dev_open/close, error names, the runtime version.
 *
 * FAKE_DOCA_DEVICES="PCI=IBDEV[,...]" (default 0000:08:00.1=mlx5_1) are
 * the devices it lists; FAKE_DOCA_VERSION the version it reports.
 */
#include <stdint.h>
#include <stdio.h>

#include "fake.h"

#define FAKE_MAX_DEVS 8

struct doca_devinfo {
	char pci[16];
	char ibdev[64];
};

struct doca_dev {
	struct doca_devinfo info;
	int refs;
};

static struct doca_devinfo devs[FAKE_MAX_DEVS];

int doca_devinfo_create_list(struct doca_devinfo ***list, uint32_t *n);
int doca_devinfo_destroy_list(struct doca_devinfo **list);
int doca_devinfo_get_pci_addr_str(const struct doca_devinfo *d, char *out);
int doca_devinfo_get_ibdev_name(const struct doca_devinfo *d, char *out,
				uint32_t size);
int doca_dev_open(struct doca_devinfo *d, struct doca_dev **out);
int doca_dev_close(struct doca_dev *d);
struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *d);
const char *doca_error_get_name(int e);
const char *doca_version_runtime(void);

int doca_devinfo_create_list(struct doca_devinfo ***list, uint32_t *n)
{
	const char *e = getenv("FAKE_DOCA_DEVICES"), *p;
	uint32_t k = 0, i;

	FAIL_IF();
	if (!e)
		e = "0000:08:00.1=mlx5_1";
	for (p = e; p && *p && k < FAKE_MAX_DEVS; k++) {
		const char *eq = strchr(p, '='), *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		memset(&devs[k], 0, sizeof(devs[k]));
		if (!eq || eq > p + len)
			break;
		snprintf(devs[k].pci, sizeof(devs[k].pci), "%.*s",
			 (int)(eq - p), p);
		snprintf(devs[k].ibdev, sizeof(devs[k].ibdev), "%.*s",
			 (int)(p + len - eq - 1), eq + 1);
		p = end ? end + 1 : NULL;
	}
	*list = calloc(k + 1, sizeof(**list));
	if (!*list)
		return F_NO_MEMORY;
	for (i = 0; i < k; i++)
		(*list)[i] = &devs[i];
	*n = k;
	return 0;
}

int doca_devinfo_destroy_list(struct doca_devinfo **list)
{
	free(list);
	return 0;
}

int doca_devinfo_get_pci_addr_str(const struct doca_devinfo *d, char *out)
{
	FAIL_IF();
	snprintf(out, 13, "%.12s", d->pci);
	return 0;
}

int doca_devinfo_get_ibdev_name(const struct doca_devinfo *d, char *out,
				uint32_t size)
{
	if (size < 64)
		return F_INVALID_VALUE;
	snprintf(out, size, "%s", d->ibdev);
	return 0;
}

int doca_dev_open(struct doca_devinfo *d, struct doca_dev **out)
{
	struct doca_dev *x;

	FAIL_IF();
	x = calloc(1, sizeof(*x));
	if (!x)
		return F_NO_MEMORY;
	x->info = *d;	/* stays valid after the list goes */
	x->refs = 1;
	*out = x;
	return 0;
}

int doca_dev_close(struct doca_dev *d)
{
	if (--d->refs == 0)
		free(d);
	return 0;
}

struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *d)
{
	return (struct doca_devinfo *)&d->info;
}

const char *doca_error_get_name(int e)
{
	return e >= 0 && e < 32 ? fake_doca_names[e] : "unrecognized error code";
}

const char *doca_version_runtime(void)
{
	const char *v = getenv("FAKE_DOCA_VERSION");

	return v ? v : FAKE_DOCA_VER;
}
