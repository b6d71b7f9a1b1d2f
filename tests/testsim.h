/* testsim.h - shared set-up for the simulator's cmocka tests (test_sim,
 * test_simtopo): the algorithm descriptors, an algorithm by name, a sim.
 */
#ifndef PCCB_TESTSIM_H
#define PCCB_TESTSIM_H

#include "testutil.h"
#include "sim/sim_int.h"

static struct algo_desc *descs[3];

/* a->desc and ops for algorithm `name`; NULL: no CC (line rate). */
static inline void algo_for(struct sim_algo *a, const char *name)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	if (!name)
		return;
	for (i = 0; i < 3; i++)
		if (descs[i] && !strcmp(descs[i]->name, name))
			a->desc = descs[i];
	assert_non_null(a->desc);
	a->ops = algo_find(name);
	algo_conf_init(&a->conf, a->ops, a->desc);
	a->counters_on = true;
}

static inline struct sim *mk(const struct sim_cfg *c,
			     const struct sim_algo *a)
{
	struct sim *s = NULL;
	struct pcb_err err = { 0 };

	if (sim_create(&s, c, a, &err))
		fail_msg("sim_create: %s", err.msg);
	return s;
}

/* The seed shift of the fidelity tests: PCCB_SEED_SHIFT=N (a decimal
 * under 2^32; tests/tools/seed-robust.sh sets 100, 200, ...) adds N to
 * every seed they draw from fid_seed, so that their claims can be checked
 * on other seeds than the ones make check uses; unset or empty: 0.
 */
static inline uint64_t fid_seed(uint64_t seed)
{
	const char *v = getenv("PCCB_SEED_SHIFT");
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return seed;
	n = strtoull(v, &end, 10);
	if (*end || *v < '0' || *v > '9' || n >= 1ull << 32)
		fail_msg("PCCB_SEED_SHIFT '%s': not a decimal under 2^32", v);
	return seed + n;
}

static inline int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The median of n (> 0) values. */
static inline double median_of(const double *v, size_t n)
{
	double *w = malloc(n * sizeof(*w)), m;

	assert_true(n > 0 && w);
	memcpy(w, v, n * sizeof(*v));
	qsort(w, n, sizeof(*w), cmp_double);
	m = n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
	free(w);
	return m;
}

/* The descriptors loaded around a group of tests; PCCB_TEST_FILTER (a
 * cmocka pattern, * and ? wildcards) runs only the tests it names.
 */
static inline int tu_run_sim_group(const char *name,
				   const struct CMUnitTest *tests, size_t n)
{
	struct pcb_err err = { 0 };
	const char *filter = getenv("PCCB_TEST_FILTER");
	int i, rc;

	if (filter && *filter)
		cmocka_set_test_filter(filter);
	for (i = 0; algo_desc_names[i] && i < 3; i++)
		if (algo_desc_load(&descs[i], algo_desc_names[i], &err))
			return 1;
	rc = _cmocka_run_group_tests(name, tests, n, NULL, NULL);
	for (i = 0; i < 3; i++)
		algo_desc_free(descs[i]);
	return rc;
}

#endif
