/* complete.h - the command language's vocabulary: keyword tables (one
 * per command that takes `KEY VALUE` words, keywords.h) run over a
 * command's words (cmd_kw_parse), their errors, and completion: the
 * candidate list a row's completion hook fills.
 *
 * The REPL (repl.c) only walks the command tables to the row being
 * typed and calls cmd_row_complete(); what a row's words are is said
 * once, next to the row's handler.
 */
#ifndef PCCB_CMD_COMPLETE_H
#define PCCB_CMD_COMPLETE_H

#include <stdbool.h>
#include <stddef.h>

#include "keywords.h"

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
/* a keyword table's names (not the hidden ones) */
void cand_kw_names(struct cands *c, const struct cmd_kw *t);
void cands_clear(struct cands *c);
void cands_free(struct cands *c);

/* What the device and the data dir know; each keeps s->err as it was. */
void cand_params(struct session *s, struct cands *c);
void cand_slots(struct session *s, struct cands *c, bool counters);
void cand_devices(struct session *s, struct cands *c);
void cand_data_ids(struct session *s, struct cands *c);
void cand_saved(struct cands *c, const char *sub, const char *ext);
void cand_columns(struct session *s, struct cands *c, const char *series);

/* The keyword tables' type and reading are keywords.h's (src/util: the
 * sweep engine shares them); running one over the words is here.
 */

/* k's value (NULL for a word alone) into req: its setter, or its
 * destination; 0 or -code with s->err set.  A row with only an id is
 * its parser's to take (0, nothing done).
 */
int cmd_kw_take(struct session *s, const struct cmd_kw *k, void *req,
		const char *val);
/* KEY VALUE words (and words alone) from argv[0], each taken into req,
 * until a word that is no key of t, or a key whose value is missing
 * (the last word): *at is its index (argc: every word taken).  Repeated
 * keys are taken again (the last wins).  0, or the first setter's error
 * (*at on its key).
 */
int cmd_kw_parse(struct session *s, const struct cmd_kw *t, void *req,
		 int argc, char **argv, int *at);
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
