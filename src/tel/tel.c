#include <stdio.h>

#include "tel/tel.h"

const char *tel_errname(int e)
{
	switch (e) {
	case TEL_OK:
		return "SUCCESS";
#define TEL_NAME(n, v, c) case TEL_##n: return #n;
	TEL_ERRORS(TEL_NAME)
#undef TEL_NAME
	default:
		return "UNKNOWN";
	}
}

int tel_pcb_code(int e)
{
	switch (e) {
#define TEL_CODE(n, v, c) case TEL_##n: return PCB_E_##c;
	TEL_ERRORS(TEL_CODE)
#undef TEL_CODE
	default:
		return PCB_E_DEVICE;
	}
}

int tel_fail(struct pcb_err *err, int e, const char *what, const char *hint)
{
	char detail[sizeof(err->msg)];

	detail[0] = '\0';
	if (err->code)
		snprintf(detail, sizeof(detail), "%s", err->msg);
	pcb_err_reset(err);
	return pcb_error(err, tel_pcb_code(e), "%s: %s%s%s%s%s", what,
			 tel_errname(e), *detail ? " (" : "", detail,
			 *detail ? ")" : "", hint ? hint : "");
}
