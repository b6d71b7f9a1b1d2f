/* gnuplot.c - gnuplot as pccbench runs it: a script of variables (every
 * text a quoted literal), a terminal, and a template from plots/, fed on
 * stdin through run_prog (fork/exec, a timeout, no shell).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd.h"
#include "paths.h"
#include "run.h"

/* `name = 'text'` for gnuplot: in a single-quoted string no backquote,
 * macro or escape is processed, so any text is a literal; a newline,
 * which would end the command, is a space.  A quote is its own
 * double-quoted "'" joined on with gnuplot's '.' ('' inside the literal
 * is the documented escape, but gnuplot 5.4's tokenizer refuses '''a').
 * Nothing read from a file or typed as a name reaches gnuplot's parser
 * any other way.
 */
void plot_str(FILE *fp, const char *name, const char *text)
{
	fprintf(fp, "%s = '", name);
	for (; *text; text++) {
		if (*text == '\'')
			fputs("'.\"'\".'", fp);
		else
			fputc(*text == '\n' || *text == '\r' ? ' ' : *text, fp);
	}
	fputs("'\n", fp);
}

/* The same for element i (from 1) of a gnuplot array. */
void plot_str_at(FILE *fp, const char *array, size_t i, const char *text)
{
	char el[64];

	snprintf(el, sizeof(el), "%s[%zu]", array, i);
	plot_str(fp, el, text);
}

void plot_term_size(int *w, int *h)
{
	const char *c = getenv("COLUMNS"), *l = getenv("LINES");
	struct winsize ws;

	*w = 100;
	*h = 40;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 20 &&
	    ws.ws_row > 10) {
		*w = ws.ws_col;
		*h = ws.ws_row - 2;
	} else if (c && l && atoi(c) > 20 && atoi(l) > 10) {
		*w = atoi(c);
		*h = atoi(l) - 2;
	}
}

/* The whole gnuplot script, drawing to `out` (NULL: the terminal). */
static char *render_script(const char *out, bool svg, int panels,
			   const char *vars, const char *tmpl, size_t *len)
{
	char *script = NULL;
	int w, h, bad;
	FILE *fp = open_memstream(&script, len);

	if (!fp)
		return NULL;
	plot_term_size(&w, &h);
	if (!out)
		fprintf(fp, "set terminal dumb size %d,%d\n", w,
			!panels ? h : (h > 12 * panels ? 12 * panels : h));
	else if (svg)
		fprintf(fp, "set terminal svg size 1200,%d dynamic\n",
			!panels ? 600 : 150 + 220 * panels);
	else
		fprintf(fp, "set terminal pngcairo size 1200,%d\n",
			!panels ? 600 : 150 + 220 * panels);
	fputs("set termoption noenhanced\n", fp);	/* avg_rtt, not avg subscript rtt */
	if (out) {
		plot_str(fp, "pcb_output", out);
		fputs("set output pcb_output\n", fp);
	}
	fputs(vars, fp);
	plot_str(fp, "pcb_template", tmpl);
	fputs("load pcb_template\n", fp);
	if (out)
		fputs("set output\n", fp);
	bad = ferror(fp);
	if (fclose(fp) || bad) {
		free(script);
		return NULL;
	}
	return script;
}

int plot_render(struct session *s, const char *to, const char *vars,
		int panels, const char *tmpl, const char *dat, const char *gp)
{
	char *script = NULL, *gargv[2], *tmp = NULL;
	const char *prog = getenv("PCCBENCH_GNUPLOT");
	struct run_result res;
	size_t len, tl = to ? strlen(to) : 0;
	bool svg = tl > 4 && !strcmp(to + tl - 4, ".svg");
	int rc;

	/* the script saved beside the data renders anywhere ('gnuplot
	 * FILE'); the one run draws into a temp file beside the target,
	 * renamed into place once gnuplot succeeded */
	script = render_script(to, svg, panels, vars, tmpl, &len);
	if (!script)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = pcb_write_file(gp, script, len, PCB_MODE_DATA, &s->err);
	if (!rc && to) {
		free(script);
		script = NULL;
		rc = pcb_tmp_beside(to, PCB_MODE_DATA, &tmp, &s->err);
		if (!rc)
			script = render_script(tmp, svg, panels, vars, tmpl,
					       &len);
		if (!rc && !script)
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	}
	if (rc) {
		if (tmp)
			unlink(tmp);
		free(tmp);
		free(script);
		return rc;
	}
	gargv[0] = (char *)(prog && *prog ? prog : "gnuplot");
	gargv[1] = NULL;
	rc = run_prog(gargv, script, 30000, s->opt.stop, &res, &s->err);
	free(script);
	if (tmp) {	/* in place only when gnuplot succeeded */
		bool drew = !rc && !res.status;
		int e = drew && rename(tmp, to) ? errno : 0;

		if (!drew || e)
			unlink(tmp);
		free(tmp);
		if (e) {
			run_result_free(&res);
			return pcb_error(&s->err, PCB_E_IO, "cannot write '%s': "
					 "%s", to, strerror(e));
		}
	}
	if (rc) {
		char msg[sizeof(s->err.msg)];

		snprintf(msg, sizeof(msg), "%s", s->err.msg);
		pcb_err_reset(&s->err);
		return pcb_error(&s->err, -rc, "plot: %s; data in %s, script in "
				 "%s ('gnuplot %s' renders it)", msg, dat, gp,
				 gp);
	}
	if (res.status) {
		char *c;

		for (c = res.err; *c; c++)	/* one line */
			if (isspace((unsigned char)*c))
				*c = ' ';
		rc = pcb_error(&s->err, PCB_E_DEVICE, "plot: gnuplot failed "
			       "(exit %d): %.200s; script in %s", res.status,
			       res.err, gp);
		run_result_free(&res);
		return rc;
	}
	if (!to)
		fputs(res.out, s->out.fp);
	else {
		out_obj_begin(&s->out, NULL);
		out_field_str(&s->out, "file", "plot written to %s ", to);
		out_field_str(&s->out, "script", "(script %s)\n", gp);
		out_str(&s->out, "data", dat);
		out_obj_end(&s->out);
	}
	run_result_free(&res);
	return 0;
}
