/* desc.c - load and validate algorithm descriptors. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "desc.h"
#include "paths.h"

const char *const algo_desc_names[] = { "ztr_rtt", "dcqcn", "rtt_template",
					NULL };

static const char *dattr(xmlNodePtr n, const char *name)
{
	xmlAttrPtr a = xmlHasProp(n, (const xmlChar *)name);

	if (!a || !a->children || !a->children->content)
		return NULL;
	return (const char *)a->children->content;
}

static bool dnum(xmlNodePtr n, const char *name, uint32_t *v, bool required,
		 uint32_t dflt)
{
	const char *s = dattr(n, name);
	unsigned long long x;
	char *end;

	if (!s) {
		*v = dflt;
		return !required;
	}
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || end == s || *end || x > UINT32_MAX || s[0] == '-')
		return false;
	*v = (uint32_t)x;
	return true;
}

static char *dstr(xmlNodePtr n, const char *name, const char *dflt)
{
	const char *s = dattr(n, name);

	return strdup(s ? s : dflt);
}

const char *algo_ptype_name(enum algo_ptype t)
{
	switch (t) {
	case ALGO_T_BOOL:
		return "bool";
	case ALGO_T_FXP16:
		return "fxp16";
	case ALGO_T_FXP20:
		return "fxp20";
	default:
		return "int";
	}
}

unsigned algo_ptype_frac_bits(enum algo_ptype t)
{
	return t == ALGO_T_FXP16 ? 16 : t == ALGO_T_FXP20 ? 20 : 0;
}

static bool parse_type(const char *s, enum algo_ptype *t)
{
	if (!s || !strcmp(s, "int"))
		*t = ALGO_T_INT;
	else if (!strcmp(s, "bool"))
		*t = ALGO_T_BOOL;
	else if (!strcmp(s, "fxp16"))
		*t = ALGO_T_FXP16;
	else if (!strcmp(s, "fxp20"))
		*t = ALGO_T_FXP20;
	else
		return false;
	return true;
}

void algo_desc_free(struct algo_desc *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nparams; i++) {
		free(d->params[i].name);
		free(d->params[i].units);
		free(d->params[i].descr);
	}
	for (i = 0; i < d->ncounters; i++) {
		free(d->counters[i].name);
		free(d->counters[i].units);
		free(d->counters[i].descr);
	}
	free(d->params);
	free(d->counters);
	free(d->name);
	free(d->label);
	free(d->info);
	free(d->debug_info);
	free(d);
}

static int load_param(struct algo_desc *d, xmlNodePtr n, const char *path,
		      struct pcb_err *err)
{
	struct algo_param_desc *p = &d->params[d->nparams];
	const char *dbg;
	uint32_t rmin, rmax;
	long line = xmlGetLineNo(n);

	memset(p, 0, sizeof(*p));
	p->name = dstr(n, "name", "");
	p->units = dstr(n, "units", "");
	p->descr = dstr(n, "description", "");
	d->nparams++;		/* owned from here on, freed with d */
	if (!p->name || !p->units || !p->descr)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	if (!*p->name)
		return pcb_error(err, PCB_E_PARSE, "%s:%ld: param without a name",
				 path, line);
	if (!dnum(n, "index", &p->index, true, 0) ||
	    p->index != d->nparams - 1)
		return pcb_error(err, PCB_E_PARSE,
				 "%s:%ld: param '%s' must have index %zu",
				 path, line, p->name, d->nparams - 1);
	if (!parse_type(dattr(n, "type"), &p->type))
		return pcb_error(err, PCB_E_PARSE,
				 "%s:%ld: param '%s': unknown type '%s'", path,
				 line, p->name, dattr(n, "type"));
	if (!dnum(n, "min", &p->min, true, 0) ||
	    !dnum(n, "max", &p->max, true, 0) ||
	    !dnum(n, "default", &p->def, true, 0))
		return pcb_error(err, PCB_E_PARSE,
				 "%s:%ld: param '%s' needs numeric min, max "
				 "and default", path, line, p->name);
	if (p->min > p->max || p->def < p->min || p->def > p->max)
		return pcb_error(err, PCB_E_PARSE,
				 "%s:%ld: param '%s': default %u outside %u..%u",
				 path, line, p->name, p->def, p->min, p->max);
	if (p->type == ALGO_T_BOOL && p->max > 1)
		return pcb_error(err, PCB_E_PARSE,
				 "%s:%ld: bool param '%s' with max %u", path,
				 line, p->name, p->max);
	p->has_rec = dattr(n, "rec_min") || dattr(n, "rec_max");
	if (!dnum(n, "rec_min", &rmin, false, p->min) ||
	    !dnum(n, "rec_max", &rmax, false, p->max) || rmin > rmax ||
	    rmin < p->min || rmax > p->max)
		return pcb_error(err, PCB_E_PARSE,
				 "%s:%ld: param '%s': recommended range must "
				 "lie in min..max", path, line, p->name);
	p->rec_min = rmin;
	p->rec_max = rmax;
	dbg = dattr(n, "debug_only");
	p->debug_only = dbg && !strcmp(dbg, "1");
	p->perm = ALGO_PERM_RW;
	return 0;
}

static int load_counter(struct algo_desc *d, xmlNodePtr n, const char *path,
			struct pcb_err *err)
{
	struct algo_counter_desc *c = &d->counters[d->ncounters];
	long line = xmlGetLineNo(n);
	const char *kind;

	memset(c, 0, sizeof(*c));
	c->name = dstr(n, "name", "");
	c->units = dstr(n, "units", "");
	c->descr = dstr(n, "description", "");
	d->ncounters++;
	if (!c->name || !c->units || !c->descr)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	if (!*c->name)
		return pcb_error(err, PCB_E_PARSE,
				 "%s:%ld: counter without a name", path, line);
	if (!dnum(n, "index", &c->index, true, 0) ||
	    c->index != d->ncounters - 1)
		return pcb_error(err, PCB_E_PARSE,
				 "%s:%ld: counter '%s' must have index %zu",
				 path, line, c->name, d->ncounters - 1);
	if (!dnum(n, "max", &c->max, false, UINT32_MAX) || c->max == 0)
		return pcb_error(err, PCB_E_PARSE,
				 "%s:%ld: counter '%s': bad max", path, line,
				 c->name);
	c->perm = ALGO_PERM_RO_CLEAR;
	kind = dattr(n, "kind");
	if (!kind || !strcmp(kind, "sum"))
		c->kind = ALGO_CK_SUM;
	else if (!strcmp(kind, "min"))
		c->kind = ALGO_CK_MIN;
	else if (!strcmp(kind, "max"))
		c->kind = ALGO_CK_MAX;
	else
		return pcb_error(err, PCB_E_PARSE,
				 "%s:%ld: counter '%s': kind must be sum, min "
				 "or max", path, line, c->name);
	return 0;
}

static int load_doc(struct algo_desc *d, xmlDocPtr doc, const char *path,
		    struct pcb_err *err)
{
	xmlNodePtr root = xmlDocGetRootElement(doc), n;
	uint32_t v;
	size_t i, j;
	int rc;

	if (!root || strcmp((const char *)root->name, "algo"))
		return pcb_error(err, PCB_E_PARSE,
				 "%s: not an algorithm descriptor (no <algo>)",
				 path);
	d->name = dstr(root, "name", "");
	d->label = dstr(root, "label", "");
	d->info = dstr(root, "info", "");
	d->debug_info = dstr(root, "debug_info", d->info ? d->info : "");
	if (!d->name || !d->label || !d->info || !d->debug_info)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	if (!*d->name || !strchr(d->info, ','))
		return pcb_error(err, PCB_E_PARSE,
				 "%s: <algo> needs a name and an info text "
				 "\"NAME, description\"", path);
	if (!dnum(root, "id", &d->id, true, 0) || d->id == 0 ||
	    d->id > 0xffff)
		return pcb_error(err, PCB_E_PARSE,
				 "%s: algo id must be 0x1..0xffff", path);
	if (!dnum(root, "major", &v, true, 0) || v > 255)
		return pcb_error(err, PCB_E_PARSE, "%s: bad major version",
				 path);
	d->major = (uint8_t)v;
	if (!dnum(root, "minor", &v, true, 0) || v > 255)
		return pcb_error(err, PCB_E_PARSE, "%s: bad minor version",
				 path);
	d->minor = (uint8_t)v;
	d->params = calloc(ALGO_MAX_PARAMS, sizeof(*d->params));
	d->counters = calloc(ALGO_MAX_COUNTERS, sizeof(*d->counters));
	if (!d->params || !d->counters)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	for (n = root->children; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (!strcmp((const char *)n->name, "param")) {
			if (d->nparams == ALGO_MAX_PARAMS)
				return pcb_error(err, PCB_E_PARSE,
						 "%s: more than %d params",
						 path, ALGO_MAX_PARAMS);
			rc = load_param(d, n, path, err);
		} else if (!strcmp((const char *)n->name, "counter")) {
			if (d->ncounters == ALGO_MAX_COUNTERS)
				return pcb_error(err, PCB_E_PARSE,
						 "%s: more than %d counters",
						 path, ALGO_MAX_COUNTERS);
			rc = load_counter(d, n, path, err);
		} else {
			rc = pcb_error(err, PCB_E_PARSE,
				       "%s:%ld: unknown element <%s>", path,
				       xmlGetLineNo(n), n->name);
		}
		if (rc)
			return rc;
	}
	for (i = 0; i < d->nparams; i++)
		for (j = i + 1; j < d->nparams; j++)
			if (!strcasecmp(d->params[i].name, d->params[j].name))
				return pcb_error(err, PCB_E_PARSE,
						 "%s: param '%s' twice", path,
						 d->params[i].name);
	return 0;
}

int algo_desc_load_file(struct algo_desc **out, const char *path,
			struct pcb_err *err)
{
	struct algo_desc *d = calloc(1, sizeof(*d));
	xmlDocPtr doc;
	int rc;

	if (!d)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
					      XML_PARSE_NOWARNING);
	if (!doc) {
		const xmlError *xe = xmlGetLastError();

		rc = pcb_error(err, PCB_E_PARSE, "cannot parse '%s': %s", path,
			       xe && xe->message ? xe->message : "bad XML");
		if (err)
			err->msg[strcspn(err->msg, "\n")] = '\0';
		algo_desc_free(d);
		return rc;
	}
	rc = load_doc(d, doc, path, err);
	xmlFreeDoc(doc);
	if (rc) {
		algo_desc_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

int algo_desc_load(struct algo_desc **out, const char *name,
		   struct pcb_err *err)
{
	char rel[256], path[4096];
	int rc;

	snprintf(rel, sizeof(rel), "algos/%s/algo.xml", name);
	rc = pcb_data_file(path, sizeof(path), rel, err);
	if (rc)
		return rc;
	return algo_desc_load_file(out, path, err);
}

const struct algo_param_desc *algo_desc_param(const struct algo_desc *d,
					      const char *name)
{
	size_t i;

	for (i = 0; i < d->nparams; i++)
		if (!strcasecmp(d->params[i].name, name))
			return &d->params[i];
	return NULL;
}
