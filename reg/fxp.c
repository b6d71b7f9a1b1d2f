#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxp.h"

double fxp_to_real(uint32_t raw, unsigned frac_bits)
{
	return ldexp((double)raw, -(int)frac_bits);
}

bool fxp_from_real(double x, unsigned frac_bits, int64_t hint, uint32_t *raw)
{
	double exact, r;

	if (!isfinite(x) || x < 0 || frac_bits > 31)
		return false;
	exact = ldexp(x, (int)frac_bits);
	if (exact > 4294967295.0 + 0.5)
		return false;
	if (hint >= 0 && hint <= UINT32_MAX && fabs(exact - (double)hint) < 1.0) {
		*raw = (uint32_t)hint;
		return true;
	}
	r = floor(exact + 0.5);
	if (r > 4294967295.0)
		return false;
	*raw = (uint32_t)r;
	return true;
}

void fxp_format(char *buf, size_t len, uint32_t raw, unsigned frac_bits)
{
	double v = fxp_to_real(raw, frac_bits);
	int prec;

	/* shortest text within one unit of raw and within 0.05 % of it, so a
	 * documented default (6553 = "0.1") prints as documented
	 */
	for (prec = 1; prec <= 10; prec++) {
		double back;

		snprintf(buf, len, "%.*g", prec, v);
		/* "1e+01" for 10: only tiny values may use an exponent */
		if (v >= 1e-3 && strchr(buf, 'e'))
			continue;
		back = strtod(buf, NULL);
		if (fabs(ldexp(back, (int)frac_bits) - raw) < 1.0 &&
		    fabs(back - v) <= 5e-4 * v)
			return;
	}
	snprintf(buf, len, "%.10g", v);
}
