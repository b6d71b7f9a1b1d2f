/* units.h - the one parser for durations typed by users. */
#ifndef PCCB_UNITS_H
#define PCCB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* "10ms", "1.5us", "250ns", "2s", "100ps" -> picoseconds; a bare number is
 * `bare_unit` ps (e.g. 1e12 for seconds), or refused when bare_unit <= 0.
 * Non-negative, at most ~106 days.
 * Returns 0 or -1.
 */
int pcb_parse_duration_ps(const char *text, double bare_unit, int64_t *ps);

/* Picoseconds as "10ms", "100us", "1.5s": the largest unit that keeps
 * the number >= 1, 6 significant digits.  Returns buf.
 */
const char *pcb_format_duration(int64_t ps, char *buf, size_t len);

/* CLOCK_MONOTONIC in seconds: wall time for intervals and progress. */
double pcb_mono_s(void);
/* CLOCK_REALTIME in ns since the Unix epoch: when something was read, to
 * line up what hosts recorded (their clocks kept in step by NTP or PTP).
 */
int64_t pcb_wall_ns(void);

/* Picoseconds per unit: the device clocks' and durations' unit. */
#ifndef PS_PER_NS
#define PS_PER_NS 1000LL
#define PS_PER_US 1000000LL
#define PS_PER_MS 1000000000LL
#endif
#define PS_PER_S 1000000000000LL

#endif
