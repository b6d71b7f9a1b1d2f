#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "units.h"

int pcb_parse_duration_ps(const char *t, double bare_unit, int64_t *ps)
{
	static const struct {
		const char *sfx;
		double mul;
	} u[] = { { "ps", 1 }, { "ns", 1e3 }, { "us", 1e6 }, { "µs", 1e6 },
		  { "ms", 1e9 }, { "s", 1e12 } };
	char *end;
	double x;
	size_t i;

	if (!*t || *t == '-' || *t == '+')
		return -1;
	errno = 0;
	x = strtod(t, &end);
	if (end == t || errno || !(x >= 0))
		return -1;
	if (!*end) {
		if (bare_unit <= 0)
			return -1;	/* a unit is required */
		x *= bare_unit;
	} else {
		for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
			if (!strcmp(end, u[i].sfx))
				break;
		if (i == sizeof(u) / sizeof(u[0]))
			return -1;
		x *= u[i].mul;
	}
	if (x > 9e18)
		return -1;
	*ps = (int64_t)llround(x);
	return 0;
}

const char *pcb_format_duration(int64_t ps, char *buf, size_t len)
{
	static const struct { const char *u; double ps; } units[] = {
		{ "s", 1e12 }, { "ms", 1e9 }, { "us", 1e6 }, { "ns", 1e3 },
		{ "ps", 1 },
	};
	size_t i;

	for (i = 0; i + 1 < sizeof(units) / sizeof(units[0]) &&
	     (double)ps < units[i].ps; i++)
		;
	snprintf(buf, len, "%.6g%s", (double)ps / units[i].ps, units[i].u);
	return buf;
}

double pcb_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int64_t pcb_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
