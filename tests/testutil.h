/* testutil.h - shared set-up for the cmocka tests: a private state dir. */
#ifndef PCCB_TESTUTIL_H
#define PCCB_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* Point XDG_STATE_HOME, XDG_CACHE_HOME and XDG_DATA_HOME at a fresh
 * temp dir. */
static inline void tu_private_state(void)
{
	static char dir[] = "/tmp/pccb-test-XXXXXX";
	char sub[600];

	if (!mkdtemp(dir))
		abort();
	snprintf(sub, sizeof(sub), "%s/state", dir);
	setenv("XDG_STATE_HOME", sub, 1);
	snprintf(sub, sizeof(sub), "%s/cache", dir);
	setenv("XDG_CACHE_HOME", sub, 1);
	snprintf(sub, sizeof(sub), "%s/data", dir);
	setenv("XDG_DATA_HOME", sub, 1);
}

/* Deterministic PRNG for the random round trips. */
static inline uint32_t tu_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 11);
}

#endif
