#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
