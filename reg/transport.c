#include <stdlib.h>
#include <string.h>

#include "transport.h"

const char *reg_status_str(uint32_t status)
{
	switch (status) {
	case 0:
		return "ok";
	case REG_STATUS_BUSY:
		return "device is busy";
	case REG_STATUS_BAD_VERSION:
		return "version not supported";
	case REG_STATUS_UNKNOWN_TLV:
		return "unknown TLV";
	case REG_STATUS_NOT_SUPP:
		return "register not supported";
	case REG_STATUS_BAD_CLASS:
		return "class not supported";
	case REG_STATUS_BAD_METHOD:
		return "method not supported";
	case REG_STATUS_BAD_PARAM:
		return "bad parameter";
	case REG_STATUS_NO_RESOURCE:
		return "resource not available";
	case 0x20:
		return "bad configuration";
	case 0x70:
		return "internal error";
	default:
		return "unknown status";
	}
}

int reg_dev_open(struct reg_dev **out, const struct reg_backend_ops *ops,
		 const char *name, const char *spec, struct pcb_err *err)
{
	struct reg_dev *dev;
	int rc;

	if (ops->priv_size < sizeof(*dev))
		return pcb_error(err, PCB_E_INVAL, "backend '%s' is broken",
				 ops->name);
	dev = calloc(1, ops->priv_size);
	if (!dev)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	dev->ops = ops;
	dev->name = strdup(name);
	if (!dev->name) {
		free(dev);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	rc = ops->open(dev, spec, err);
	if (rc) {
		free(dev->name);
		free(dev);
		return rc;
	}
	*out = dev;
	return 0;
}

void reg_dev_close(struct reg_dev *dev)
{
	if (!dev)
		return;
	dev->ops->close(dev);
	free(dev->name);
	free(dev);
}

int reg_access(struct reg_dev *dev, enum reg_method method, uint32_t reg_id,
	       const char *reg_name, uint8_t *buf, size_t len,
	       struct pcb_err *err)
{
	uint32_t status = 0;
	int rc;

	if (method == REG_SET)
		dev->n_set++;
	else
		dev->n_get++;
	rc = dev->ops->access(dev, method, reg_id, buf, len, &status, err);
	if (rc)
		return rc;
	if (status)
		return pcb_error(err, PCB_E_DEVICE,
				 "%s: %s %s returned status 0x%x (%s)",
				 dev->name, reg_name,
				 method == REG_SET ? "set" : "get", status,
				 reg_status_str(status));
	return 0;
}
