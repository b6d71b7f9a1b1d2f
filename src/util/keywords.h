/* keywords.h - a command's words, said once: one table per command that
 * takes `KEY VALUE` words (or keywords alone), read by its parser, by its
 * usage line and `help`, and by completion alike.
 *
 * A row says what the word is (name; arg, the synopsis of its value;
 * vals, its values listed; gen, a generator of its values; flags) and
 * what is done with it, one of:
 *   set   a setter: the value parsed into the command's request (req),
 *         at k->off when the setter serves several rows;
 *   dest  where the value goes without parsing: KW_D_FLAG (a bool at off
 *         set true, for a word alone) or KW_D_STR (the word itself, a
 *         const char * at off);
 *   id    the parser's own constant, for a parser that takes more than
 *         one word per key (sweep's scenario, sim run's trace): it
 *         switches on it, it never compares the word again.
 * The session-bound part (running a table over argv, the errors, the
 * completion) is src/cmd/complete.h's; the sweep and tune engines read
 * the same type (sw_keys, sweep.h).
 */
#ifndef PCCB_KEYWORDS_H
#define PCCB_KEYWORDS_H

#include <stdbool.h>
#include <stddef.h>

struct session;
struct cands;

#define KW_FILE		0x1	/* the value is a file name */
#define KW_LIST		0x2	/* a comma list (ids a,b) */
#define KW_REQ		0x4	/* required: no brackets in synopsis */
#define KW_SCEN		0x8	/* a scenario: KIND and its KEY VALUE
				 * pairs, up to the next keyword */
#define KW_UNSAVED	0x10	/* sweep: not in the saved definition */
#define KW_HIDDEN	0x20	/* accepted (a spelling), never offered:
				 * not in names, synopsis or completion */

enum kw_dest { KW_D_NONE, KW_D_FLAG, KW_D_STR };

struct cmd_kw {
	const char *name;
	const char *arg;	/* "DURATION"; NULL: vals as a|b, or alone */
	const char *vals;	/* "on, off" */
	void (*gen)(struct session *s, struct cands *c);
	unsigned flags;		/* KW_* */
	/* what is done with it (above) */
	int (*set)(struct session *s, void *req, const struct cmd_kw *k,
		   const char *val);
	enum kw_dest dest;
	size_t off;		/* offsetof(request, field) */
	int id;
};

/* The destination of k in req: KW_AT(req, k, int64_t). */
#define KW_AT(req, k, type)	((type *)(void *)((char *)(req) + (k)->off))

/* A word alone (no value follows): no arg, vals, gen or file. */
bool cmd_kw_alone(const struct cmd_kw *k);
/* The entry named `word` in a table ending with { NULL }, or NULL. */
const struct cmd_kw *cmd_kw_find(const struct cmd_kw *t, const char *word);
/* "a, b, c": the names, for errors and help. */
const char *cmd_kw_names(const struct cmd_kw *t, char *buf, size_t len);
/* "for DURATION [clear on|off] [force]": the table as a synopsis (arg,
 * else vals as a|b). */
const char *cmd_kw_synopsis(const struct cmd_kw *t, char *buf, size_t len);

/* The index of val among k's vals ("on, off": on 0, off 1), or -1. */
int cmd_kw_val(const struct cmd_kw *k, const char *val);

#endif
