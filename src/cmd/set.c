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
	{
		.name = "show",
		.fn = cmd_set_show,
		.args = "",
		.help = "the session's settings",
		.example = "set show",
		.flags = CMD_DEFAULT,
	},
	{
		.name = "units",
		.fn = cmd_set_units,
		.min_args = 1,
		.max_args = 1,
		.args = "raw|real",
		.help = "show fixed-point values as register integers or real numbers "
			"(input is always real; NAME raw N writes an integer; JSON "
			"keeps both)",
		.example = "set units raw",
	},
	{ 0 }
};
