#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "err.h"

static const struct {
	const char *name;
	int exitc;
	const char *descr;
} pcb_err_table[PCB_E_MAX] = {
	[PCB_OK] = { "OK", 0, "success" },
#define PCB_ERR_ROW(name, exitc, descr) \
	[PCB_E_##name] = { #name, exitc, descr },
	PCB_ERRORS(PCB_ERR_ROW)
#undef PCB_ERR_ROW
};

static int pcb_norm(int code)
{
	if (code < 0)
		code = -code;
	return code < PCB_E_MAX ? code : PCB_E_DEVICE;
}

int pcb_error(struct pcb_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	code = pcb_norm(code);
	if (err && !err->code) {
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

void pcb_err_reset(struct pcb_err *err)
{
	err->code = 0;
	err->msg[0] = '\0';
}

const char *pcb_strerror(int code)
{
	return pcb_err_table[pcb_norm(code)].descr;
}

const char *pcb_errname(int code)
{
	return pcb_err_table[pcb_norm(code)].name;
}

int pcb_exit_code(int code)
{
	return code ? pcb_err_table[pcb_norm(code)].exitc : 0;
}
