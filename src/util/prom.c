/* prom.c - the Prometheus text exposition format (prom.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prom.h"

struct prom_sample {
	char *labels;		/* "{a=\"b\",...}" or "" */
	const char *suffix;	/* a histogram's "_bucket", ... or "" */
	char value[40];
};

struct prom_family {
	char *name, *help;
	enum prom_type type;
	struct prom_sample *s;
	size_t n, cap;
};

void prom_init(struct prom_set *p)
{
	memset(p, 0, sizeof(*p));
}

void prom_release(struct prom_set *p)
{
	size_t i, k;

	for (i = 0; i < p->nfam; i++) {
		struct prom_family *f = &p->fam[i];

		for (k = 0; k < f->n; k++)
			free(f->s[k].labels);
		free(f->s);
		free(f->name);
		free(f->help);
	}
	free(p->fam);
	prom_init(p);
}

static bool name_char(char c, bool first, bool colon)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
		return true;
	if (c == ':')
		return colon;
	return !first && c >= '0' && c <= '9';
}

bool prom_name_valid(const char *name)
{
	size_t i;

	if (!name || !*name)
		return false;
	for (i = 0; name[i]; i++)
		if (!name_char(name[i], i == 0, true))
			return false;
	return true;
}

bool prom_label_name_valid(const char *name)
{
	size_t i;

	if (!name || !*name || !strncmp(name, "__", 2))
		return false;
	for (i = 0; name[i]; i++)
		if (!name_char(name[i], i == 0, false))
			return false;
	return true;
}

bool prom_name(char *out, size_t len, const char *prefix, const char *text,
	       const char *suffix)
{
	size_t i, n;
	int w = snprintf(out, len, "%s%s%s", prefix, text, suffix);

	if (w < 0 || (size_t)w >= len)
		return false;
	n = strlen(prefix);
	for (i = n; i < n + strlen(text); i++)
		if (!name_char(out[i], false, true))
			out[i] = '_';
	return prom_name_valid(out);
}

/* s escaped into fp: backslash and newline always, '"' in label values. */
static void escape(FILE *fp, const char *s, bool quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", fp);
		else if (*s == '\n')
			fputs("\\n", fp);
		else if (*s == '"' && quote)
			fputs("\\\"", fp);
		else
			fputc(*s, fp);
	}
}

/* "{a=\"b\",...}" (malloc'd), "" without labels; NULL with err set. */
static char *render_labels(const struct prom_label *l, size_t nl,
			   struct pcb_err *err)
{
	char *buf = NULL;
	size_t len = 0, i, k, shown = 0;
	FILE *fp;

	for (i = 0; i < nl; i++) {
		if (!l[i].value)
			continue;
		if (!prom_label_name_valid(l[i].name)) {
			pcb_error(err, PCB_E_INVAL, "bad label name '%s'",
				  l[i].name ? l[i].name : "");
			return NULL;
		}
		for (k = 0; k < i; k++)
			if (l[k].value && !strcmp(l[k].name, l[i].name)) {
				pcb_error(err, PCB_E_INVAL,
					  "label '%s' given twice", l[i].name);
				return NULL;
			}
	}
	fp = open_memstream(&buf, &len);
	if (!fp) {
		pcb_error(err, PCB_E_NOMEM, "out of memory");
		return NULL;
	}
	for (i = 0; i < nl; i++) {
		if (!l[i].value)
			continue;
		fprintf(fp, "%s%s=\"", shown++ ? "," : "{", l[i].name);
		escape(fp, l[i].value, true);
		fputc('"', fp);
	}
	if (shown)
		fputc('}', fp);
	if (fclose(fp) || !buf) {
		free(buf);
		pcb_error(err, PCB_E_NOMEM, "out of memory");
		return NULL;
	}
	return buf;
}

static const char *type_name(enum prom_type t)
{
	return t == PROM_COUNTER ? "counter" : t == PROM_HISTOGRAM ?
	       "histogram" : "gauge";
}

static struct prom_family *family(struct prom_set *p, const char *name,
				  enum prom_type type, const char *help,
				  struct pcb_err *err)
{
	struct prom_family *f;
	size_t i;

	for (i = p->nfam; i-- > 0;)	/* the last one first: runs of adds */
		if (!strcmp(p->fam[i].name, name)) {
			if (p->fam[i].type != type) {
				pcb_error(err, PCB_E_INVAL, "metric '%s' "
					  "added as a %s and a %s", name,
					  type_name(p->fam[i].type),
					  type_name(type));
				return NULL;
			}
			return &p->fam[i];
		}
	if (!prom_name_valid(name)) {
		pcb_error(err, PCB_E_INVAL, "bad metric name '%s'", name);
		return NULL;
	}
	if (p->nfam == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct prom_family *n = realloc(p->fam, cap * sizeof(*n));

		if (!n)
			goto out_nomem;
		p->fam = n;
		p->cap = cap;
	}
	f = &p->fam[p->nfam];
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->name = strdup(name);
	f->help = strdup(help ? help : "");
	if (!f->name || !f->help) {
		free(f->name);
		free(f->help);
		goto out_nomem;
	}
	p->nfam++;
	return f;
out_nomem:
	pcb_error(err, PCB_E_NOMEM, "out of memory");
	return NULL;
}

/* A sample of f, rendered labels and value (labels taken: freed on
 * error too).
 */
static int add_sample(struct prom_family *f, const char *suffix,
		      char *labels, const char *value, struct pcb_err *err)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->s[i].labels, labels) &&
		    !strcmp(f->s[i].suffix, suffix)) {
			pcb_error(err, PCB_E_INVAL, "metric %s%s%s added twice",
				  f->name, suffix, labels);
			free(labels);
			return -err->code;
		}
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 8;
		struct prom_sample *n = realloc(f->s, cap * sizeof(*n));

		if (!n) {
			free(labels);
			return pcb_error(err, PCB_E_NOMEM, "out of memory");
		}
		f->s = n;
		f->cap = cap;
	}
	f->s[f->n].labels = labels;
	f->s[f->n].suffix = suffix;
	snprintf(f->s[f->n].value, sizeof(f->s[0].value), "%s", value);
	f->n++;
	return 0;
}

static int add(struct prom_set *p, const char *name, enum prom_type type,
	       const char *help, const struct prom_label *l, size_t nl,
	       const char *value, struct pcb_err *err)
{
	struct prom_family *f = family(p, name, type, help, err);
	char *labels;

	if (!f)
		return -err->code;
	labels = render_labels(l, nl, err);
	if (!labels)
		return -err->code;
	return add_sample(f, "", labels, value, err);
}

/* The shortest of %.15g..%.17g that reads back as v. */
static void format_double(char *buf, size_t len, double v)
{
	int prec;

	if (isnan(v)) {
		snprintf(buf, len, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%sInf", v < 0 ? "-" : "+");
		return;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

int prom_add(struct prom_set *p, const char *name, enum prom_type type,
	     const char *help, const struct prom_label *l, size_t nl,
	     double v, struct pcb_err *err)
{
	char b[40];

	format_double(b, sizeof(b), v);
	return add(p, name, type, help, l, nl, b, err);
}

int prom_add_u64(struct prom_set *p, const char *name, enum prom_type type,
		 const char *help, const struct prom_label *l, size_t nl,
		 uint64_t v, struct pcb_err *err)
{
	char b[24];

	snprintf(b, sizeof(b), "%" PRIu64, v);
	return add(p, name, type, help, l, nl, b, err);
}

int prom_add_hist(struct prom_set *p, const char *name, const char *help,
		  const struct prom_label *l, size_t nl,
		  const struct prom_bucket *b, size_t nb, double sum,
		  struct pcb_err *err)
{
	struct prom_label *ll;
	struct prom_family *f;
	char v[40], le[40], *labels;
	uint64_t last = 0;
	size_t i;
	int rc = 0;

	if (!nb || !isinf(b[nb - 1].le) || b[nb - 1].le < 0)
		return pcb_error(err, PCB_E_INVAL, "histogram '%s': the last "
				 "bucket must be +Inf", name);
	for (i = 0; i < nb; i++) {
		if ((i && !(b[i].le > b[i - 1].le)) || b[i].count < last)
			return pcb_error(err, PCB_E_INVAL, "histogram '%s': "
					 "buckets not increasing", name);
		last = b[i].count;
	}
	f = family(p, name, PROM_HISTOGRAM, help, err);
	ll = calloc(nl + 1, sizeof(*ll));
	if (!f || !ll) {
		free(ll);
		return f ? pcb_error(err, PCB_E_NOMEM, "out of memory") :
		       -err->code;
	}
	memcpy(ll, l, nl * sizeof(*l));
	ll[nl].name = "le";
	ll[nl].value = le;
	for (i = 0; !rc && i < nb; i++) {
		format_double(le, sizeof(le), b[i].le);
		snprintf(v, sizeof(v), "%" PRIu64, b[i].count);
		labels = render_labels(ll, nl + 1, err);
		rc = labels ? add_sample(f, "_bucket", labels, v, err) :
		     -err->code;
	}
	if (!rc && !isnan(sum)) {
		format_double(v, sizeof(v), sum);
		labels = render_labels(l, nl, err);
		rc = labels ? add_sample(f, "_sum", labels, v, err) :
		     -err->code;
	}
	if (!rc) {
		snprintf(v, sizeof(v), "%" PRIu64, last);
		labels = render_labels(l, nl, err);
		rc = labels ? add_sample(f, "_count", labels, v, err) :
		     -err->code;
	}
	free(ll);
	return rc;
}

int prom_merge(struct prom_set *p, const struct prom_set *from,
	       struct pcb_err *err)
{
	size_t i, k;
	int rc = 0;

	for (i = 0; !rc && i < from->nfam; i++) {
		const struct prom_family *g = &from->fam[i];
		struct prom_family *f = family(p, g->name, g->type, g->help,
					       err);

		if (!f)
			return -err->code;
		for (k = 0; !rc && k < g->n; k++) {
			char *labels = strdup(g->s[k].labels);

			rc = labels ? add_sample(f, g->s[k].suffix, labels,
						 g->s[k].value, err) :
			     pcb_error(err, PCB_E_NOMEM, "out of memory");
		}
	}
	return rc;
}

int prom_write(const struct prom_set *p, FILE *fp, struct pcb_err *err)
{
	size_t i, k;

	for (i = 0; i < p->nfam; i++) {
		const struct prom_family *f = &p->fam[i];

		fprintf(fp, "# HELP %s ", f->name);
		escape(fp, f->help, false);
		fprintf(fp, "\n# TYPE %s %s\n", f->name, type_name(f->type));
		for (k = 0; k < f->n; k++)
			fprintf(fp, "%s%s%s %s\n", f->name, f->s[k].suffix,
				f->s[k].labels, f->s[k].value);
	}
	if (fflush(fp) || ferror(fp))
		return pcb_error(err, PCB_E_IO, "writing metrics failed");
	return 0;
}
