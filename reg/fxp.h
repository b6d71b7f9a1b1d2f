/* fxp.h - fixed-point numbers as the NIC stores them.
 *
 * fxpN is a 32-bit unsigned integer with N fractional bits: real = raw/2^N
 * (seed 004).  Conversions are exact in the sense that
 * fxp_to_real(fxp_from_real(x)) is the closest representable value.
 */
#ifndef PCCB_FXP_H
#define PCCB_FXP_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

double fxp_to_real(uint32_t raw, unsigned frac_bits);

/* Real -> raw, rounding to nearest (halves away from zero).  A documented
 * value is often stored truncated (0.1 in fxp16 is 6553, not 6554): when
 * `hint` is within one unit of the exact product it wins, so an engineer who
 * types the documented 0.1 gets the documented 6553.  Pass hint < 0 for none.
 * Returns false when x is negative, not finite or does not fit in 32 bits.
 */
bool fxp_from_real(double x, unsigned frac_bits, int64_t hint, uint32_t *raw);

/* Shortest decimal text (up to 10 significant digits) within one unit of
 * raw and within 0.05 % of its value: 0.1 for 6553 in fxp16, 0.97 for
 * 63570.  Typing the printed text back gives raw when raw is the param's
 * default (the hint above); otherwise round to nearest.
 */
void fxp_format(char *buf, size_t len, uint32_t raw, unsigned frac_bits);

#endif
