#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsafe.h"
#include "paths.h"
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

int tel_sim_file_open(const char *sim_name, const char *ext, char *path,
		      size_t len, int *fd, bool *fresh, struct pcb_err *err)
{
	char tail[16];
	struct stat st;
	int rc;

	snprintf(tail, sizeof(tail), ".%s", ext);
	rc = pcb_user_file(path, len, PCB_DIR_STATE, "sim", sim_name, tail,
			   err);
	if (rc)
		return rc;
	*fd = pcb_open_rw(path, O_CREAT, PCB_MODE_STATE, err);
	if (*fd < 0)
		return *fd;
	flock(*fd, LOCK_EX);
	*fresh = !fstat(*fd, &st) && st.st_size == 0;
	return 0;
}
