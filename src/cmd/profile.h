/* profile.h - a tuning profile in memory and its file (profile_file.c);
 * the `profile` command is profile.c.  The file's schema is described at
 * the top of profile.c.
 */
#ifndef PCCB_CMD_PROFILE_H
#define PCCB_CMD_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "algo.h"
#include "ppcc.h"

struct session;

#define PROFILE_VERSION 1
#define PROFILE_MAX (1 << 20)	/* bytes of a profile file */

struct pslot {
	unsigned slot;
	char algo[224];
	uint32_t algo_num;	/* id[31:16] major[15:8] minor[7:0] */
	bool enabled, counters;
	size_t nparams;
	struct {
		char name[224];
		unsigned index;
		uint32_t raw;
		bool ro;	/* read-only on the device: never written */
	} p[ALGO_MAX_PARAMS];
};

struct profile {
	char name[64], device[80], model[96];
	size_t nslots;
	struct pslot s[PPCC_SLOTS];
};

/* What a profile's strings may hold: letters, digits and these.  They
 * reach `profile export`'s shell script (a comment, a quoted word), so
 * anything else is refused on load rather than trusted to the quoting
 * there (which makes them harmless too).
 */
#define PROFILE_WORD	"_-."		/* a profile's and a param's name */
#define PROFILE_ALGO	" _-."		/* "ZTR_RTT", "Rtt template v0.1" */
#define PROFILE_DEVICE	"_-.:/@+"	/* sim:NAME, 0000:08:00.0, /dev/mst/.. */
#define PROFILE_MODEL	" _-.,:;/()[]+#&"	/* ConnectX-7, libpci's names */
bool profile_text_ok(const char *t, const char *extra);

/* $XDG_DATA_HOME/pccbench/profiles/NAME.json */
int profile_path(struct session *s, const char *name, char *buf, size_t len);
/* The device now: `slot` (or every slot holding an algorithm, -1). */
int profile_read_device(struct session *s, int slot, struct profile *pr);
/* The profile as JSON ("value" in real units whatever `set units` says). */
void profile_write_json(struct session *s, FILE *fp, const struct profile *pr);
/* NAME (a saved profile) or a path (with a '/' or ending .json), read
 * whole and checked as a file (schema, version, fields, ranges of
 * indexes); the device's checks are the caller's.
 */
int profile_load(struct session *s, const char *name, struct profile *pr);

#endif
