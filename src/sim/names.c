/* names.c - ports by name, both ways: "host N" and "switch N port M",
 * as the watchdog, `sim show` and the traces print them and as the tap's
 * port lists take them.  Why apart: the tap, the watchdog and the
 * summary all name ports, and none of them should call another for it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

bool sim_uint_word(const char **p, uint32_t *v)
{
	char *end;
	unsigned long x;

	while (**p == ' ')
		(*p)++;
	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	x = strtoul(*p, &end, 10);
	if (errno || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	*p = end;
	return true;
}

static bool word(const char **p, const char *w)
{
	size_t n = strlen(w);

	while (**p == ' ')
		(*p)++;
	if (strncmp(*p, w, n) || ((*p)[n] != ' ' && (*p)[n] != '\0'))
		return false;
	*p += n;
	return true;
}

int sim_port_find(const struct sim *s, const char *name, uint32_t *pi,
		  struct pcb_err *err)
{
	const char *p = name;
	uint32_t a, b;

	if (word(&p, "host") && sim_uint_word(&p, &a) && !*p) {
		if (a >= s->nhosts)
			return pcb_error(err, PCB_E_NOENT, "no port '%s': "
					 "hosts are 0 to %u", name,
					 s->nhosts - 1);
		*pi = s->hosts[a].port;
		return 0;
	}
	p = name;
	if (word(&p, "switch") && sim_uint_word(&p, &a) && word(&p, "port") &&
	    sim_uint_word(&p, &b)) {
		while (*p == ' ')
			p++;
		if (*p)
			goto bad;
		if (a >= s->nsw)
			return pcb_error(err, PCB_E_NOENT, "no port '%s': "
					 "switches are 0 to %u", name,
					 s->nsw - 1);
		if (b >= s->nodes[s->sws[a].node].nports)
			return pcb_error(err, PCB_E_NOENT, "no port '%s': "
					 "switch %u has ports 0 to %u", name,
					 a, s->nodes[s->sws[a].node].nports -
					 1);
		*pi = s->nodes[s->sws[a].node].port0 + b;
		return 0;
	}
bad:
	return pcb_error(err, PCB_E_INVAL, "bad port '%s': 'host N' or "
			 "'switch N port M', as the watchdog and 'sim show' "
			 "name them", name);
}

int sim_port_name(const struct sim *s, uint32_t pi, char *b, size_t n)
{
	const struct port *p = &s->ports[pi];

	if (!p->is_switch)
		return snprintf(b, n, "host %u", p->owner);
	return snprintf(b, n, "switch %u port %u", p->owner,
			pi - s->nodes[p->node].port0);
}
