/* registry.c - the algorithm models and what they share. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "algo.h"
#include "fxp.h"

extern const struct algo_ops ztr_rtt_ops, dcqcn_ops, rtt_template_ops;

const struct algo_ops *const algo_registry[] = {
	&ztr_rtt_ops,
	&dcqcn_ops,
	&rtt_template_ops,
	NULL
};

const struct algo_ops *algo_find(const char *name)
{
	size_t i;

	for (i = 0; algo_registry[i]; i++)
		if (!strcmp(algo_registry[i]->name, name))
			return algo_registry[i];
	return NULL;
}

void algo_conf_init(struct algo_conf *c, const struct algo_ops *ops,
		    const struct algo_desc *d)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < d->nparams && i < ALGO_MAX_PARAMS; i++)
		c->params[i] = d->params[i].def;
	for (i = 0; i < d->ncounters && i < ALGO_MAX_COUNTERS; i++)
		c->counter_max[i] = d->counters[i].max;
	for (i = 0; i < ops->nopts && i < ALGO_MAX_OPTS; i++)
		c->opts[i] = ops->opts[i].def;
}

void algo_port_init(struct algo_port *p, const struct algo_conf *c)
{
	memset(p, 0, sizeof(*p));
	p->conf = c;
	p->counters_on = true;
	p->line_gbps = 400;
}

int algo_check_desc(const struct algo_ops *ops, const struct algo_desc *d,
		    struct pcb_err *err)
{
	size_t i;

	if (strcmp(ops->name, d->name))
		return pcb_error(err, PCB_E_PARSE,
				 "descriptor '%s' given to model '%s'",
				 d->name, ops->name);
	if (ops->nparams != d->nparams || ops->ncounters != d->ncounters)
		return pcb_error(err, PCB_E_PARSE,
				 "%s: model has %zu params and %zu counters, "
				 "descriptor %zu and %zu", ops->name,
				 ops->nparams, ops->ncounters, d->nparams,
				 d->ncounters);
	for (i = 0; i < ops->nparams; i++)
		if (strcmp(ops->param_names[i], d->params[i].name))
			return pcb_error(err, PCB_E_PARSE,
					 "%s: param %zu is '%s' in the model, "
					 "'%s' in the descriptor", ops->name,
					 i, ops->param_names[i],
					 d->params[i].name);
	for (i = 0; i < ops->ncounters; i++)
		if (strcmp(ops->counter_names[i], d->counters[i].name))
			return pcb_error(err, PCB_E_PARSE,
					 "%s: counter %zu is '%s' in the "
					 "model, '%s' in the descriptor",
					 ops->name, i, ops->counter_names[i],
					 d->counters[i].name);
	return 0;
}

int algo_set_opt(uint32_t *opts, const struct algo_ops *ops,
		 const char *name, const char *value, struct pcb_err *err)
{
	const struct algo_opt_desc *o = NULL;
	size_t i;

	for (i = 0; i < ops->nopts; i++)
		if (!strcasecmp(ops->opts[i].name, name))
			o = &ops->opts[i];
	if (!o)
		return pcb_error(err, PCB_E_NOENT,
				 "%s has no model option '%s'", ops->name,
				 name);
	i = (size_t)(o - ops->opts);
	if (o->choices) {
		size_t k;

		char list[128];
		size_t n = 0;

		for (k = 0; o->choices[k]; k++)
			if (!strcasecmp(o->choices[k], value)) {
				opts[i] = (uint32_t)k;
				return 0;
			}
		list[0] = '\0';
		for (k = 0; o->choices[k] && n < sizeof(list); k++)
			n += (size_t)snprintf(list + n, sizeof(list) - n,
					      "%s%s", k ? ", " : "",
					      o->choices[k]);
		return pcb_error(err, PCB_E_INVAL,
				 "%s: '%s' is not one of its choices (%s)",
				 name, value, list);
	} else {
		char *end;
		double x;
		uint32_t raw;

		errno = 0;
		x = strtod(value, &end);
		if (end == value || *end || errno || x < 0 || x > 1 ||
		    !fxp_from_real(x, 16, -1, &raw))
			return pcb_error(err, PCB_E_RANGE,
					 "%s: '%s' is not a number in 0..1",
					 name, value);
		opts[i] = raw;
	}
	return 0;
}
