/* prom.h - metrics in the Prometheus text exposition format (0.0.4), the
 * format node_exporter's textfile collector reads and a Prometheus
 * server scrapes.
 *
 * A struct prom_set collects samples in any order and writes them
 * grouped by family: each family once, its "# HELP" and "# TYPE" lines
 * first, then its samples in the order they were added.  Names and
 * label names are checked (metric [a-zA-Z_:][a-zA-Z0-9_:]*, label
 * [a-zA-Z_][a-zA-Z0-9_]*, not "__"-prefixed), label values and HELP text
 * escaped as the format says (\\, \" in values, \n).  No timestamps:
 * the textfile collector refuses them and a scrape stamps its own.
 *
 * A family added again keeps its first type and help; another type is
 * refused (-PCB_E_INVAL), as is a sample whose family and labels are
 * already in the set (one series, one value).  Counters are named with
 * their "_total" suffix by the caller (prom_name builds names).
 *
 * Ownership: prom_init, any number of prom_add*, prom_write (any number
 * of times), prom_release.  The set copies every string it is given.
 */
#ifndef PCCB_PROM_H
#define PCCB_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "err.h"

enum prom_type { PROM_GAUGE, PROM_COUNTER, PROM_HISTOGRAM };

/* A label: a NULL value leaves the label out. */
struct prom_label {
	const char *name, *value;
};

struct prom_sample;
struct prom_family;

struct prom_set {
	struct prom_family *fam;
	size_t nfam, cap;
};

void prom_init(struct prom_set *p);
void prom_release(struct prom_set *p);

/* One sample of family `name`; labels l[0..nl).  A value that is not
 * finite is written NaN, +Inf or -Inf.
 */
int prom_add(struct prom_set *p, const char *name, enum prom_type type,
	     const char *help, const struct prom_label *l, size_t nl,
	     double v, struct pcb_err *err);
/* The same for an exact 64-bit integer (a counter past 2^53 stays
 * exact).
 */
int prom_add_u64(struct prom_set *p, const char *name, enum prom_type type,
		 const char *help, const struct prom_label *l, size_t nl,
		 uint64_t v, struct pcb_err *err);

/* A histogram: buckets b[0..nb) with increasing upper bounds `le`, the
 * last +Inf, and cumulative counts (observations <= le); written as
 * name_bucket{...,le="..."}, name_sum (left out when sum is NaN) and
 * name_count (the +Inf bucket's count).
 */
struct prom_bucket {
	double le;
	uint64_t count;
};
int prom_add_hist(struct prom_set *p, const char *name, const char *help,
		  const struct prom_label *l, size_t nl,
		  const struct prom_bucket *b, size_t nb, double sum,
		  struct pcb_err *err);

/* Every sample of `from` added to p (families by name, as prom_add). */
int prom_merge(struct prom_set *p, const struct prom_set *from,
	       struct pcb_err *err);

/* The exposition text; -PCB_E_IO when the stream fails. */
int prom_write(const struct prom_set *p, FILE *fp, struct pcb_err *err);

/* prefix + text + suffix as a metric name: every character outside
 * [a-zA-Z0-9_:] of text becomes '_' (so "rx-prio.3" is "rx_prio_3").
 * false when it does not fit in len or would start with a digit.
 */
bool prom_name(char *out, size_t len, const char *prefix, const char *text,
	       const char *suffix);
bool prom_name_valid(const char *name);
bool prom_label_name_valid(const char *name);

#endif
