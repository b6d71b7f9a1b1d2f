/* keywords.c - a command's keyword table read (keywords.h). */
#include <stdio.h>
#include <string.h>

#include "keywords.h"

bool cmd_kw_alone(const struct cmd_kw *k)
{
	return !k->arg && !k->vals && !k->gen && !(k->flags & KW_FILE);
}

const struct cmd_kw *cmd_kw_find(const struct cmd_kw *t, const char *word)
{
	for (; t && t->name; t++)
		if (!strcmp(t->name, word))
			return t;
	return NULL;
}

const char *cmd_kw_names(const struct cmd_kw *t, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (; t && t->name && at < len; t++)
		if (!(t->flags & KW_HIDDEN))
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? ", " : "", t->name);
	return buf;
}

const char *cmd_kw_synopsis(const struct cmd_kw *t, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (; t && t->name && at < len; t++) {
		bool opt = !(t->flags & KW_REQ);
		char vals[160] = "";
		const char *a = t->arg;
		size_t i;

		if (t->flags & KW_HIDDEN)
			continue;
		if (!a && t->vals) {	/* "on, off" -> "on|off" */
			snprintf(vals, sizeof(vals), "%s", t->vals);
			for (i = 0; vals[i]; i++)
				if (vals[i] == ',' && vals[i + 1] == ' ')
					memmove(vals + i + 1, vals + i + 2,
						strlen(vals + i + 2) + 1);
			for (i = 0; vals[i]; i++)
				if (vals[i] == ',')
					vals[i] = '|';
			a = vals;
		}
		at += (size_t)snprintf(buf + at, len - at, "%s%s%s%s%s%s",
				       at ? " " : "", opt ? "[" : "", t->name,
				       a ? " " : "", a ? a : "",
				       opt ? "]" : "");
	}
	return buf;
}

int cmd_kw_val(const struct cmd_kw *k, const char *val)
{
	const char *v = k->vals;
	int i;

	for (i = 0; v && *v; i++) {
		size_t l = strcspn(v, ", ");

		if (l && l == strlen(val) && !strncmp(v, val, l))
			return i;
		v += l;
		v += strspn(v, ", ");
	}
	return -1;
}
