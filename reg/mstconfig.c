/* mstconfig.c - run `mstconfig -d DEV -e query` and read its table
 * (the format is in mstconfig.h).
 *
 * The parser takes nothing on trust: a row must be the margin, a name
 * and exactly as many values as the header has columns; anything else
 * inside the table is an error that quotes the line, so a changed or
 * garbled output is reported, never half read.  Lines outside the table
 * that mstconfig is known to print (its banner, notes, -W-/-I- lines)
 * are skipped; -E- is the tool's own error and is quoted.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mstconfig.h"
#include "run.h"

#define NVC_TIMEOUT_MS	30000	/* a query reads every TLV: slow */
#define NVC_LINE_MAX	1024	/* a table row is under 120 */
#define NVC_VAL_MAX	64
#define NVC_MAX_PARAMS	4096

/* The RoCE congestion settings, by name prefix. */
static const char *const nvc_cc[] = {
	"ROCE_",		/* ROCE_CC_*, ROCE_CONTROL, ROCE_RTT_* ... */
	"RPG_", "DCE_TCP_", "CLAMP_TGT_RATE", "CNP_", "INITIAL_ALPHA_VALUE",
	"MIN_TIME_BETWEEN_CNPS", "RATE_REDUCE_MONITOR_PERIOD",
	"RATE_TO_SET_ON_FIRST_CNP", "HPCC_", "PCC_", "USER_PROGRAMMABLE_CC",
	"LOG_TX_PSN_WINDOW", "TUNNEL_ECN_COPY_DISABLE",
};

bool nvc_is_cc(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(nvc_cc) / sizeof(nvc_cc[0]); i++)
		if (!strncmp(name, nvc_cc[i], strlen(nvc_cc[i])))
			return true;
	return false;
}

bool nvc_pending(const struct nvc_query *q, const struct nvc_param *p)
{
	const char *cur = p->val[NVC_CURRENT], *next = p->val[NVC_NEXT];

	(void)q;
	return cur && next && strcmp(cur, "N/A") && strcmp(next, "N/A") &&
	       strcmp(cur, next);
}

void nvc_release(struct nvc_query *q)
{
	size_t i;
	int c;

	for (i = 0; i < q->n; i++) {
		free(q->p[i].name);
		for (c = 0; c < NVC_NCOLS; c++)
			free(q->p[i].val[c]);
	}
	free(q->p);
	memset(q, 0, sizeof(*q));
}

/* Split a line at blanks into at most max words (in place). */
static size_t words(char *line, char **w, size_t max)
{
	size_t n = 0;
	char *p = line;

	while (*p) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		if (n == max)
			return max + 1;		/* too many */
		w[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	return n;
}

/* A name or value as mstconfig prints them: printable, no blank, short. */
static bool plain(const char *s, bool name)
{
	size_t n = strlen(s);

	if (!n || n >= NVC_VAL_MAX)
		return false;
	for (; *s; s++)
		if (name ? !(isupper((unsigned char)*s) ||
			     isdigit((unsigned char)*s) || strchr("_[].", *s)) :
			   !isgraph((unsigned char)*s))
			return false;
	return true;
}

/* "Device type:    ConnectX7      " -> "ConnectX7". */
static void field(const char *line, const char *key, char *out, size_t len)
{
	const char *v = line + strlen(key);
	size_t n;

	v += strspn(v, " \t");
	n = strlen(v);
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	snprintf(out, len, "%.*s", (int)n, v);
}

/* The header's columns: [Default] [Current] Next Boot. */
static int header(char *line, struct nvc_query *q)
{
	char *w[8];
	size_t n = words(line + strlen("Configurations:"), w, 6), i = 0;

	if (n > 6)
		return -1;
	if (i < n && !strcmp(w[i], "Default"))
		q->has[NVC_DEFAULT] = true, i++;
	if (i < n && !strcmp(w[i], "Current"))
		q->has[NVC_CURRENT] = true, i++;
	if (i + 2 != n || strcmp(w[i], "Next") || strcmp(w[i + 1], "Boot"))
		return -1;
	q->has[NVC_NEXT] = true;
	return 0;
}

static int add_row(struct nvc_query *q, char *line)
{
	char *w[NVC_NCOLS + 2];
	size_t want = 1, n, k;
	struct nvc_param *p, *np;
	bool star = line[0] == '*';
	int c;

	for (c = 0; c < NVC_NCOLS; c++)
		want += q->has[c];
	n = words(line + star, w, NVC_NCOLS + 1);
	if (n != want || !plain(w[0], true) || q->n == NVC_MAX_PARAMS)
		return -1;
	for (k = 1; k < n; k++)
		if (!plain(w[k], false))
			return -1;
	np = realloc(q->p, (q->n + 1) * sizeof(*np));
	if (!np)
		return -2;
	q->p = np;
	p = &q->p[q->n];
	memset(p, 0, sizeof(*p));
	p->starred = star;
	p->name = strdup(w[0]);
	for (c = 0, k = 1; c < NVC_NCOLS; c++)
		if (q->has[c] && !(p->val[c] = strdup(w[k++])))
			break;
	q->n++;		/* owned now, released with the rest */
	return p->name && c == NVC_NCOLS ? 0 : -2;
}

/* The first line that starts with -E-, or NULL. */
static const char *find_error(const char *text)
{
	const char *e = text;

	while ((e = strstr(e, "-E-")) && e != text && e[-1] != '\n')
		e += 3;
	return e;
}

/* The -E- message at e, and when it ends in ':' the (at most two)
 * indented lines that continue it ("Failed to query some of the TLVs:").
 */
static int tool_error(const char *e, struct pcb_err *err)
{
	char msg[400];
	size_t n = 0, l;
	int more = 2;

	e += 3;
	for (;;) {
		e += strspn(e, " \t");
		l = strcspn(e, "\n");
		while (l && (e[l - 1] == ' ' || e[l - 1] == '\t'))
			l--;
		if (l && n < sizeof(msg) - 1)
			n += (size_t)snprintf(msg + n, sizeof(msg) - n, "%s%.*s",
					      n ? " " : "", (int)l, e);
		if (n >= sizeof(msg))
			n = sizeof(msg) - 1;
		if (!l || e[l - 1] != ':' || !more--)
			break;
		e += strcspn(e, "\n");
		if (*e != '\n' || (e[1] != ' ' && e[1] != '\t'))
			break;
		e++;
	}
	msg[n] = '\0';
	if (!n)		/* still one line that says something */
		snprintf(msg, sizeof(msg), "an error without a message "
			 "('-E-')");
	return pcb_error(err, PCB_E_DEVICE, "%s", msg);
}

int nvc_parse(const char *text, struct nvc_query *q, struct pcb_err *err)
{
	enum { BEFORE, TABLE, AFTER } st = BEFORE;
	char line[NVC_LINE_MAX], raw[NVC_LINE_MAX];
	const char *p = text, *e;
	unsigned no = 0;
	int rc = 0;

	memset(q, 0, sizeof(*q));
	if ((e = find_error(text)))
		return tool_error(e, err);
	while (*p && !rc) {
		size_t l = strcspn(p, "\n");

		no++;
		if (l >= sizeof(line)) {
			rc = pcb_error(err, PCB_E_PARSE, "line %u is %zu "
				       "characters long", no, l);
			break;
		}
		memcpy(line, p, l);
		line[l] = '\0';
		memcpy(raw, line, l + 1);
		p += l + (p[l] == '\n');
		if (st == BEFORE) {
			if (!strncmp(line, "Device type:", 12))
				field(line, "Device type:", q->device_type,
				      sizeof(q->device_type));
			else if (!strncmp(line, "Name:", 5))
				field(line, "Name:", q->part, sizeof(q->part));
			else if (!strncmp(line, "Device:", 7))
				field(line, "Device:", q->device,
				      sizeof(q->device));
			else if (!strncmp(line, "Configurations:", 15)) {
				if (header(line, q))
					goto bad_line;
				st = TABLE;
			}
			continue;
		}
		if (st == TABLE && (line[0] == '*' || line[0] == ' ')) {
			int r = add_row(q, line);

			if (r == -2)
				rc = pcb_error(err, PCB_E_NOMEM,
					       "out of memory");
			else if (r)
				goto bad_line;
			continue;
		}
		st = AFTER;	/* notes after the table are not ours */
		continue;
bad_line:
		for (e = raw; *e; e++)	/* quoted as text, whatever it was */
			if (!isprint((unsigned char)*e))
				raw[e - raw] = '?';
		rc = pcb_error(err, PCB_E_PARSE, "unexpected line %u: '%.*s%s'",
			       no, l > 60 ? 60 : (int)l, raw,
			       l > 60 ? "..." : "");
	}
	if (!rc && st == BEFORE)
		rc = pcb_error(err, PCB_E_PARSE, "no 'Configurations:' table");
	else if (!rc && !q->n)
		rc = pcb_error(err, PCB_E_PARSE, "an empty 'Configurations:' "
			       "table");
	if (rc)
		nvc_release(q);
	return rc;
}

int nvc_run(const char *prog, const char *device, int timeout_ms,
	    volatile sig_atomic_t *stop, struct nvc_query *q,
	    struct pcb_err *err)
{
	char *argv[] = { (char *)(prog ? prog : "mstconfig"), (char *)"-d",
			 (char *)device, (char *)"-e", (char *)"query", NULL };
	const char *who = strrchr(argv[0], '/');
	struct run_result r;
	struct pcb_err perr = { 0 };
	const char *e;
	int rc;

	who = who ? who + 1 : argv[0];
	memset(q, 0, sizeof(*q));
	rc = run_prog(argv, NULL, timeout_ms > 0 ? timeout_ms : NVC_TIMEOUT_MS,
		      stop, &r, err);
	if (rc)
		return rc;
	/* its -E- text, wherever it is, says more than its exit code */
	e = find_error(r.out);
	if (!e)
		e = find_error(r.err);
	if (e) {
		tool_error(e, &perr);
		rc = pcb_error(err, PCB_E_DEVICE, "%s: %s: %s", device, who,
			       perr.msg);
	} else if (r.status) {
		size_t l = strcspn(r.err, "\n");

		rc = pcb_error(err, PCB_E_DEVICE, "%s: %s exited with %d%s%.*s",
			       device, who, r.status, l ? ": " : "",
			       (int)(l > 200 ? 200 : l), r.err);
	} else if ((rc = nvc_parse(r.out, q, &perr))) {
		/* its output, not the user's input, is wrong */
		rc = pcb_error(err, perr.code == PCB_E_NOMEM ? PCB_E_NOMEM :
			       PCB_E_DEVICE, "%s: %s query: %s", device, who,
			       perr.msg);
	}
	run_result_free(&r);
	return rc;
}
