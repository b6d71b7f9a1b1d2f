/* complete.h - the command language's vocabulary for completion: keyword
 * tables (one per command that takes `KEY VALUE` words, read by its
 * parser, by `help` and by completion alike) and the candidate list a
 * row's completion hook fills.
 *
 * The REPL (repl.c) only walks the command tables to the row being
 * typed and calls cmd_row_complete(); what a row's words are is said
 * once, next to the row's handler.
 */
#ifndef PCCB_CMD_COMPLETE_H
#define PCCB_CMD_COMPLETE_H

#include <stdbool.h>
#include <stddef.h>

struct session;
struct cmd_row;

/* Candidates for the word under the cursor. */
struct cands {
	char **v;
	size_t n, cap;
	int append;	/* appended after a unique match: ' ' or ',' */
};

void cand_add(struct cands *c, const char *word);
/* "a, b, c" (commas and/or spaces) */
void cand_list(struct cands *c, const char *list);
void cand_rows(struct cands *c, const struct cmd_row *rows);
void cands_clear(struct cands *c);
void cands_free(struct cands *c);

/* What the device and the data dir know; each keeps s->err as it was. */
void cand_params(struct session *s, struct cands *c);
void cand_slots(struct session *s, struct cands *c, bool counters);
void cand_devices(struct session *s, struct cands *c);
void cand_data_ids(struct session *s, struct cands *c);
void cand_saved(struct cands *c, const char *sub, const char *ext);
void cand_columns(struct session *s, struct cands *c, const char *series);

/* One keyword of a command: `name ARG`, or a word alone when arg is
 * NULL.  Its values are `vals` (listed), gen's candidates, or a file
 * name (KW_FILE); KW_LIST values are comma lists (`ids a,b`).
 */
#define KW_FILE	0x1
#define KW_LIST	0x2
#define KW_REQ	0x4	/* required: no brackets in the synopsis */

struct cmd_kw {
	const char *name;
	const char *arg;
	const char *vals;
	void (*gen)(struct session *s, struct cands *c);
	unsigned flags;
};

/* A word alone (no value follows): no arg, vals, gen or file. */
bool cmd_kw_alone(const struct cmd_kw *k);
/* The entry named `word` in a table ending with { NULL }, or NULL. */
const struct cmd_kw *cmd_kw_find(const struct cmd_kw *t, const char *word);
/* "a, b, c": the names, for errors and help. */
const char *cmd_kw_names(const struct cmd_kw *t, char *buf, size_t len);
/* "for DURATION [clear on|off] [force]": the table as a synopsis (arg,
 * else vals as a|b). */
const char *cmd_kw_synopsis(const struct cmd_kw *t, char *buf, size_t len);
/* A row's synopsis: its positional args, then its keywords'. */
const char *cmd_synopsis(const struct cmd_row *row, char *buf, size_t len);
/* "WHO: unknown key 'WORD' (a, b, c)" as PCB_E_INVAL; returns -code. */
int cmd_kw_unknown(struct session *s, const char *who,
		   const struct cmd_kw *t, const char *word);

/* The keywords of record and watch (rows of cmd_top, cli.c). */
extern const struct cmd_kw cmd_record_keys[], cmd_watch_keys[];

/* `KEY VALUE ...` words after `first` positional ones: keys where a key
 * goes, the values of the key before the cursor.  false: complete file
 * names instead.
 */
bool cand_keywords(struct session *s, const struct cmd_kw *t, int first,
		   char **argv, int argc, struct cands *c);

/* A row's hook, or its keyword table; argv are the words typed after
 * the verb (after the command for a row without verbs).
 */
bool cmd_row_complete(struct session *s, const struct cmd_row *row,
		      char **argv, int argc, struct cands *c);
/* Hooks shared by several rows. */
bool cmd_complete_file(struct session *s, char **argv, int argc,
		       struct cands *c);
/* the first word: a slot holding an algorithm / one with counters */
bool cmd_complete_first_slot(struct session *s, char **argv, int argc,
			     struct cands *c);
bool cmd_complete_counter_slot(struct session *s, char **argv, int argc,
			       struct cands *c);

#endif
