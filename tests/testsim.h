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

/* The descriptors loaded around a group of tests. */
static inline int tu_run_sim_group(const char *name,
				   const struct CMUnitTest *tests, size_t n)
{
	struct pcb_err err = { 0 };
	int i, rc;

	for (i = 0; algo_desc_names[i] && i < 3; i++)
		if (algo_desc_load(&descs[i], algo_desc_names[i], &err))
			return 1;
	rc = _cmocka_run_group_tests(name, tests, n, NULL, NULL);
	for (i = 0; i < 3; i++)
		algo_desc_free(descs[i]);
	return rc;
}

#endif
