/* set.c - `set`: session settings. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static int cmd_set_show(struct session *s, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	out_obj_begin(&s->out, NULL);
	out_field_str(&s->out, "units", "units %s\n", s->units_raw ? "raw" :
		      "real");
	out_obj_end(&s->out);
	return 0;
}

static int cmd_set_units(struct session *s, int argc, char **argv)
{
	(void)argc;
	if (strcmp(argv[0], "raw") && strcmp(argv[0], "real"))
		return pcb_error(&s->err, PCB_E_USAGE,
				 "usage: set units raw|real");
	s->units_raw = !strcmp(argv[0], "raw");
	return cmd_set_show(s, 0, NULL);
}

const struct cmd_row cmd_set_verbs[] = {
	{ "show", cmd_set_show, NULL, 0, 0, "", "the session's settings",
	  "set show", CMD_DEFAULT },
	{ "units", cmd_set_units, NULL, 1, 1, "raw|real",
	  "show fixed-point values as register integers or real numbers "
	  "(input is always real; NAME raw N writes an integer; JSON "
	  "keeps both)", "set units raw", 0 },
	{ NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, 0 }
};
