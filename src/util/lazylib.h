/* lazylib.h - a shared library that only some commands use, opened
 * (dlopen) by the first of them that runs instead of by every process at
 * start-up (lazylib.c).
 */
#ifndef PCCB_LAZYLIB_H
#define PCCB_LAZYLIB_H

#include <stdbool.h>

#include "err.h"

/* The library soname, what needs it (for the error: "serve metrics"),
 * the Debian package that ships it, and its functions: names[i] (NULL
 * after the last) is put in the i-th function pointer of *fns, a struct
 * of function pointers alone, in that order.
 */
struct lazylib {
	const char *soname;
	const char *what;
	const char *package;
	const char *const *names;
	void *fns;
	bool loaded;
};

/* Open the library once and resolve every name: 0, or -PCB_E_STATE
 * with one line (the library or a function missing) and *l unchanged.
 */
int lazylib_load(struct lazylib *l, struct pcb_err *err);

#endif
