/* values.c - a param's value as text and back: units, ranges, the
 * device's permissions (session.h).
 */
#include <ctype.h>
#include <fcntl.h>
#include <sys/file.h>
#include <strings.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fsafe.h"
#include "fxp.h"
#include "paths.h"
#include "host/hostctr.h"
#include "session.h"
#include "suggest.h"
#include "units.h"
#include "device.h"
#include "tel/diag.h"
#include "mstreg.h"
#include "fwctl.h"
#include "discover.h"
#include <unistd.h>
/* ---- values ------------------------------------------------------------- */

void sess_format_value(const struct session *s, enum algo_ptype type,
		       uint32_t raw, char *buf, size_t len)
{
	unsigned fb = algo_ptype_frac_bits(type);

	if (fb && (!s->units_raw || s->out.json))
		fxp_format(buf, len, raw, fb);
	else
		snprintf(buf, len, "%u", raw);
}

void sess_format_range(const struct session *s, const struct param_view *p,
		       uint32_t lo, uint32_t hi, char *buf, size_t len)
{
	char a[32], b[32];

	sess_format_value(s, p->type, lo, a, sizeof(a));
	sess_format_value(s, p->type, hi, b, sizeof(b));
	snprintf(buf, len, "%s..%s%s%s", a, b, *p->units ? " " : "",
		 p->units);
}

static bool parse_u32(const char *t, uint32_t *v)
{
	unsigned long long x;
	char *end;

	if (!*t || *t == '-' || *t == '+' || *t == ' ')
		return false;
	errno = 0;
	x = strtoull(t, &end, 0);
	if (errno || *end || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

/* Multiplier of a unit suffix for a param measured in `units`. */
static double unit_scale(const char *units, const char *suffix)
{
	static const struct {
		const char *units, *suffix;
		double scale;
	} tab[] = {
		{ "ns", "ns", 1 }, { "ns", "us", 1e3 }, { "ns", "µs", 1e3 },
		{ "ns", "ms", 1e6 }, { "ns", "s", 1e9 },
		{ "us", "us", 1 }, { "us", "µs", 1 }, { "us", "ms", 1e3 },
		{ "us", "s", 1e6 }, { "us", "ns", 1e-3 },
		{ "Gb/s", "g", 1 }, { "Gb/s", "G", 1 }, { "Gb/s", "Gb/s", 1 },
		{ "Mb/s", "m", 1 }, { "Mb/s", "M", 1 }, { "Mb/s", "g", 1e3 },
		{ "Mb/s", "G", 1e3 }, { "Mb/s", "Mb/s", 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(units, tab[i].units) &&
		    !strcmp(suffix, tab[i].suffix))
			return tab[i].scale;
	return 0;
}

/* The first two ASCII suffixes a param of `units` takes: "ns", "us". */
static void unit_examples(const char *units, char *a, char *b, size_t len)
{
	static const char *const words[] = { "ns", "us", "ms", "s", "g",
					      "Gb/s", "m", "Mb/s" };
	size_t i, n = 0;

	*a = *b = '\0';
	for (i = 0; i < sizeof(words) / sizeof(words[0]) && n < 2; i++)
		if (unit_scale(units, words[i]))
			snprintf(n++ ? b : a, len, "%s", words[i]);
}

bool sess_unit_word(const struct param_view *p, const char *word)
{
	return unit_scale(p->units, word) != 0;
}

int sess_parse_value(const struct param_view *p, const char *text, bool raw,
		     uint32_t *out, struct pcb_err *err)
{
	const char *name = p->info.name;
	char *end;
	double x;

	if (raw || !strncasecmp(text, "0x", 2)) {
		if (!parse_u32(text, out))
			return pcb_error(err, PCB_E_INVAL,
					 "%s: '%s' is not a 32-bit unsigned "
					 "integer", name, text);
		return 0;
	}
	if (p->type == ALGO_T_BOOL) {
		static const char *const t[] = { "1", "on", "true", "yes" };
		static const char *const f[] = { "0", "off", "false", "no" };
		size_t i;

		for (i = 0; i < 4; i++) {
			if (!strcasecmp(text, t[i])) {
				*out = 1;
				return 0;
			}
			if (!strcasecmp(text, f[i])) {
				*out = 0;
				return 0;
			}
		}
		return pcb_error(err, PCB_E_INVAL,
				 "%s: '%s' is not a boolean (0/1, on/off)",
				 name, text);
	}
	if (!*text || *text == '+' || isspace((unsigned char)*text))
		return pcb_error(err, PCB_E_INVAL, "%s: '%s' is not a number",
				 name, text);
	errno = 0;
	x = strtod(text, &end);
	if (end == text || errno == ERANGE || !isfinite(x))
		return pcb_error(err, PCB_E_INVAL, "%s: '%s' is not a number",
				 name, text);
	if (x < 0)
		return pcb_error(err, PCB_E_RANGE,
				 "%s: %s is negative; the register holds "
				 "unsigned values", name, text);
	if (algo_ptype_frac_bits(p->type)) {
		int64_t hint = p->info.def;

		if (*end)
			return pcb_error(err, PCB_E_INVAL,
					 "%s: '%s' is not a number", name,
					 text);
		if (!fxp_from_real(x, algo_ptype_frac_bits(p->type), hint,
				   out))
			return pcb_error(err, PCB_E_RANGE,
					 "%s: %s does not fit in %s", name,
					 text, algo_ptype_name(p->type));
		return 0;
	}
	if (*end) {
		double sc = unit_scale(p->units, end);

		if (sc == 0)
			return pcb_error(err, PCB_E_INVAL,
					 "%s: '%s' has an unknown unit "
					 "(the param is in %s)", name, text,
					 *p->units ? p->units : "plain numbers");
		x *= sc;
	} else if (unit_scale(p->units, p->units)) {
		/* 200 of a time or a rate: ns or us?  Say, don't guess */
		char a[8], b[8];

		unit_examples(p->units, a, b, sizeof(a));
		return pcb_error(err, PCB_E_INVAL, "%s: %s needs a unit: write "
				 "%s%s or %s%s (the param is in %s), or 'raw "
				 "%s'", name, text, text, a, text, b, p->units,
				 text);
	}
	if (x != floor(x) || x > UINT32_MAX)
		return pcb_error(err, x > UINT32_MAX ? PCB_E_RANGE : PCB_E_INVAL,
				 "%s: %s is not a whole number%s%s", name, text,
				 *p->units ? " of " : "", p->units);
	*out = (uint32_t)x;
	return 0;
}

/* Check one value against the device's range and permission. */
int sess_check_value(struct session *s, const struct param_view *p,
		     uint32_t raw)
{
	char val[32], range[96];

	if (p->info.prm != ALGO_PERM_RW)
		return pcb_error(&s->err, PCB_E_RANGE,
				 "%s is read-only on this slot; nothing was "
				 "written", p->info.name);
	if (raw < p->info.min || raw > p->info.max) {
		/* in the units the value was typed in (real numbers are the
		 * input even under `set units raw`), the raw beside */
		unsigned fb = algo_ptype_frac_bits(p->type);

		if (fb) {
			char lo[32], hi[32];

			fxp_format(val, sizeof(val), raw, fb);
			fxp_format(lo, sizeof(lo), p->info.min, fb);
			fxp_format(hi, sizeof(hi), p->info.max, fb);
			return pcb_error(&s->err, PCB_E_RANGE, "%s: %s (raw %u) is "
					 "out of range %s..%s (raw %u..%u); "
					 "nothing was written", p->info.name,
					 val, raw, lo, hi, p->info.min,
					 p->info.max);
		}
		sess_format_value(s, p->type, raw, val, sizeof(val));
		sess_format_range(s, p, p->info.min, p->info.max, range,
				  sizeof(range));
		return pcb_error(&s->err, PCB_E_RANGE,
				 "%s: %s%s%s is out of range %s; nothing was "
				 "written", p->info.name, val,
				 *p->units ? " " : "", p->units, range);
	}
	if (p->desc && p->desc->has_rec &&
	    (raw < p->desc->rec_min || raw > p->desc->rec_max)) {
		sess_format_value(s, p->type, raw, val, sizeof(val));
		sess_format_range(s, p, p->desc->rec_min, p->desc->rec_max,
				  range, sizeof(range));
		sess_warn(s, "%s: %s is outside the recommended range %s",
			  p->info.name, val, range);
	}
	return 0;
}
