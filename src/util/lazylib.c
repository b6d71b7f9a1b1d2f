/* lazylib.c - a shared library that only some commands use, opened when
 * the first of them runs.
 *
 * libmicrohttpd (serve metrics) and libnlopt (tune) bring 12 more
 * libraries with them (gnutls, libstdc++, ...): linked, the dynamic
 * loader mapped and relocated them in every process, 2.3 of the 6.7 ms
 * of CPU a `sim run 1us` took (tests/tools/bench-startup.sh, issue 34
 * item 6).  Opened here, a command that does not use them never loads
 * them.  The package still depends on them (debian/control).
 */
#include <dlfcn.h>
#include <string.h>

#include "lazylib.h"

typedef void (*lazy_fn)(void);

_Static_assert(sizeof(void *) == sizeof(lazy_fn),
	       "lazylib: a function pointer is stored through a void *");

int lazylib_load(struct lazylib *l, struct pcb_err *err)
{
	void *h, *f;
	size_t i;

	if (l->loaded)
		return 0;
	h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return pcb_error(err, PCB_E_STATE, "%s needs %s, which cannot "
				 "be loaded (install %s): %s", l->what,
				 l->soname, l->package, dlerror());
	for (i = 0; l->names[i]; i++)
		if (!dlsym(h, l->names[i])) {
			pcb_error(err, PCB_E_STATE, "%s needs %s from %s, "
				  "which this %s lacks", l->what, l->names[i],
				  l->soname, l->soname);
			dlclose(h);
			return -PCB_E_STATE;
		}
	/* every name resolves: only now is the table written */
	for (i = 0; l->names[i]; i++) {
		f = dlsym(h, l->names[i]);
		memcpy((char *)l->fns + i * sizeof(lazy_fn), &f, sizeof(f));
	}
	l->loaded = true;	/* the handle stays open for the process */
	return 0;
}
