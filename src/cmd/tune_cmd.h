/* tune_cmd.h - the `tune` command (src/cmd/tune_*.c) over the tune engine
 * (tune/tune.h): tune_show.c holds the verb table and shows, plots,
 * applies a tune and makes a profile of it; tune_run.c parses `tune run`
 * and `tune resume` and starts the search; tune_verify.c measures a tune
 * against the default on a real NIC; tune_print.c prints.
 */
#ifndef PCCB_CMD_TUNE_CMD_H
#define PCCB_CMD_TUNE_CMD_H

#include <stddef.h>

#include "keywords.h"
#include "session.h"
#include "tune/tune.h"

/* tune_print.c */
void tune_print(struct session *s, const struct tune_res *r);
/* "± 1.2e+03", or no interval from a single seed */
const char *tune_ci_text(double ci, char *buf, size_t len);
/* "name value, name value": a point's params, formatted by their type */
void tune_point_text(struct session *s, const struct tune_res *r,
		     const struct tune_eval *e, char *buf, size_t len);
/* Each scenario's objective and constraints for e (text or JSON), when a
 * set.
 */
void tune_print_scen(struct session *s, const struct tune_res *r,
		     const struct tune_eval *e);
void tune_json_scen(struct session *s, const struct tune_res *r,
		    const struct tune_eval *e);

/* tune_verify.c */
int cmd_tune_verify(struct session *s, int argc, char **argv);
extern const struct cmd_kw tune_verify_keys[];

/* tune_run.c; its words past the params */
extern const struct cmd_kw tune_run_keys[];
int cmd_tune_run(struct session *s, int argc, char **argv);
int cmd_tune_resume(struct session *s, int argc, char **argv);

#endif
