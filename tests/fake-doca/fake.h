/* fake.h - what the fake DOCA libraries share (tests/fake-doca): DOCA's
 * error values and the failure injection.  Not NVIDIA's code: written
 * from ../shared/spec/host-counters-and-doca.md 5 to drive pccbench's
 * DOCA backend in tests.
 *
 * FAKE_DOCA_FAIL="func=CODE[,func=CODE...]": the named DOCA function
 * returns CODE (a number or DOCA_ERROR_... without the prefix, e.g.
 * doca_telemetry_diag_start=BAD_STATE) instead of doing its work;
 * CODE/once: only the first call fails (a failed stop, then the cleanup's
 * stop that works).
 */
#ifndef FAKE_DOCA_H
#define FAKE_DOCA_H

#include <stdlib.h>
#include <string.h>

enum {
	F_OK = 0, F_NOT_PERMITTED = 2, F_IN_USE = 3, F_NOT_SUPPORTED = 4,
	F_AGAIN = 5, F_INVALID_VALUE = 6, F_NO_MEMORY = 7,
	F_NOT_FOUND = 16, F_BAD_STATE = 18, F_OPERATING_SYSTEM = 20,
	F_DRIVER = 21, F_UNEXPECTED = 22, F_FULL = 24, F_BAD_CONFIG = 29,
	F_SKIPPED = 30,
};

static const char *const fake_doca_names[32] = {
	"DOCA_SUCCESS",
	"DOCA_ERROR_UNKNOWN",
	"DOCA_ERROR_NOT_PERMITTED",
	"DOCA_ERROR_IN_USE",
	"DOCA_ERROR_NOT_SUPPORTED",
	"DOCA_ERROR_AGAIN",
	"DOCA_ERROR_INVALID_VALUE",
	"DOCA_ERROR_NO_MEMORY",
	"DOCA_ERROR_INITIALIZATION",
	"DOCA_ERROR_TIME_OUT",
	"DOCA_ERROR_SHUTDOWN",
	"DOCA_ERROR_CONNECTION_RESET",
	"DOCA_ERROR_CONNECTION_ABORTED",
	"DOCA_ERROR_CONNECTION_INPROGRESS",
	"DOCA_ERROR_NOT_CONNECTED",
	"DOCA_ERROR_NO_LOCK",
	"DOCA_ERROR_NOT_FOUND",
	"DOCA_ERROR_IO_FAILED",
	"DOCA_ERROR_BAD_STATE",
	"DOCA_ERROR_UNSUPPORTED_VERSION",
	"DOCA_ERROR_OPERATING_SYSTEM",
	"DOCA_ERROR_DRIVER",
	"DOCA_ERROR_UNEXPECTED",
	"DOCA_ERROR_ALREADY_EXIST",
	"DOCA_ERROR_FULL",
	"DOCA_ERROR_EMPTY",
	"DOCA_ERROR_IN_PROGRESS",
	"DOCA_ERROR_TOO_BIG",
	"DOCA_ERROR_AUTHENTICATION",
	"DOCA_ERROR_BAD_CONFIG",
	"DOCA_ERROR_SKIPPED",
	"DOCA_ERROR_DEVICE_FATAL_ERROR",
};

/* The code FAKE_DOCA_FAIL gives fn, or 0. */
static inline int fake_fail(const char *fn, int *once)
{
	const char *e = getenv("FAKE_DOCA_FAIL"), *p;
	size_t n = strlen(fn);

	for (p = e; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		const char *v;
		int i;

		if (strncmp(p, fn, n) || p[n] != '=')
			continue;
		v = p + n + 1;
		*once = strcspn(v, ",") > 5 &&
			!strncmp(v + strcspn(v, ",") - 5, "/once", 5);
		if (*v >= '0' && *v <= '9')
			return atoi(v);
		for (i = 1; i < 32; i++) {
			size_t k = strlen(fake_doca_names[i]) - 11;


			if (!strncmp(v, fake_doca_names[i] + 11, k) &&
			    (!v[k] || v[k] == ',' || v[k] == '/'))
				return i;
		}
		return 1;
	}
	return 0;
}

#define FAIL_IF()                                                     \
	do {                                                          \
		static int done_;                                     \
		int once_ = 0, f_ = fake_fail(__func__, &once_);      \
		if (f_ && !(once_ && done_)) {                        \
			done_ = 1;                                    \
			return f_;                                    \
		}                                                     \
	} while (0)

#endif
