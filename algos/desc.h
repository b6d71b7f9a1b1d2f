/* desc.h - algorithm descriptors (algos/NAME/algo.xml, read with libxml2).
 *
 * A descriptor names an algorithm's parameters and counters with what the
 * PPCC register cannot carry: units, type (int/bool/fxp16/fxp20) and the
 * recommended range.  The sim firmware builds its slots from descriptors;
 * the REPL uses them to show real numbers for any device whose algorithm it
 * recognises.  Ownership: algo_desc_load returns a descriptor the caller
 * frees with algo_desc_free.
 *
 * How to add an algorithm: a folder algos/NAME/ with algo.xml, and its name
 * in algo_desc_names[] (desc.c).
 */
#ifndef PCCB_ALGO_DESC_H
#define PCCB_ALGO_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define ALGO_MAX_PARAMS 44	/* DOCA PCC limit; fits a bulk get */
#define ALGO_MAX_COUNTERS 55	/* text[] holds 55 dwords */

enum algo_ptype { ALGO_T_INT, ALGO_T_BOOL, ALGO_T_FXP16, ALGO_T_FXP20 };

/* How a counter aggregates: sums add, gauges keep a minimum/maximum. */
enum algo_ckind { ALGO_CK_SUM, ALGO_CK_MIN, ALGO_CK_MAX };

/* PPCC "prm" field */
enum algo_perm { ALGO_PERM_RO = 0, ALGO_PERM_RW = 1, ALGO_PERM_RO_CLEAR = 2 };

struct algo_param_desc {
	uint32_t index;
	char *name;
	char *units;		/* "" when none */
	char *descr;
	enum algo_ptype type;
	uint32_t min, max, def;
	bool has_rec;
	uint32_t rec_min, rec_max;
	bool debug_only;	/* read-only outside the debug build */
	enum algo_perm perm;
};

struct algo_counter_desc {
	uint32_t index;
	char *name;
	char *units;
	char *descr;
	uint32_t max;
	enum algo_perm perm;
	enum algo_ckind kind;
};

struct algo_desc {
	char *name;		/* folder name: "ztr_rtt" */
	char *label;		/* "ZTR-RTT" */
	char *info;		/* PPCC cmd 0 text: "NAME, description" */
	char *debug_info;	/* same, for the debug build */
	uint32_t id;		/* 16-bit algo id */
	uint8_t major, minor;
	size_t nparams;
	struct algo_param_desc *params;
	size_t ncounters;
	struct algo_counter_desc *counters;
};

extern const char *const algo_desc_names[];	/* NULL-terminated */

int algo_desc_load_file(struct algo_desc **out, const char *path,
			struct pcb_err *err);
/* algos/NAME/algo.xml from the data directory. */
int algo_desc_load(struct algo_desc **out, const char *name,
		   struct pcb_err *err);
void algo_desc_free(struct algo_desc *d);

const struct algo_param_desc *algo_desc_param(const struct algo_desc *d,
					      const char *name);
const char *algo_ptype_name(enum algo_ptype t);
unsigned algo_ptype_frac_bits(enum algo_ptype t);	/* 0 for int/bool */

#endif
