/* sweep_cmd.h - the `sweep` command's files (sweep.c: run, resume, plan,
 * shards, merge, drop; sweep_plot.c: show, list, plot).
 */
#ifndef PCCB_SWEEP_CMD_H
#define PCCB_SWEEP_CMD_H

struct session;

int cmd_sweep_show(struct session *s, int argc, char **argv);
int cmd_sweep_list(struct session *s, int argc, char **argv);
/* A saved sweep's curves or heatmaps, to FILE or the terminal. */
int sweep_plot(struct session *s, const char *name, const char *to);

#endif
