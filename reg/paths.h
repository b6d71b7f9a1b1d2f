/* paths.h - where pccbench keeps its files.
 *
 * State (sim devices, journals, history): $XDG_STATE_HOME/pccbench/...
 * (default ~/.local/state).  Cache: $XDG_CACHE_HOME/pccbench (~/.cache).
 * Data (user series and sweeps): $XDG_DATA_HOME/pccbench (~/.local/share).
 * Shipped files (reg/ppcc.adb, algos/NAME/algo.xml): $PCCBENCH_DATADIR, else
 * next to the executable (a build tree), else ../share/pccbench from it.
 */
#ifndef PCCB_PATHS_H
#define PCCB_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

enum pcb_dir { PCB_DIR_STATE, PCB_DIR_CACHE, PCB_DIR_DATA };

/* The size of every path buffer (PATH_MAX). */
#define PCB_PATH_LEN 4096

/* snprintf for a path: one that does not fit in len is an error ("path
 * too long: START..."), never a cut path that names another file.
 */
int pcb_path(char *buf, size_t len, struct pcb_err *err, const char *fmt,
	     ...) __attribute__((format(printf, 4, 5)));

/* Where a service keeps its files when it has no HOME. */
#define PCB_SERVICE_DIR "/var/lib/pccbench"

/* $XDG_..._HOME/pccbench/sub, created (mode 0700) when create is set;
 * without the XDG variable: in a service started with StateDirectory=
 * (systemd sets $STATE_DIRECTORY) $STATE_DIRECTORY/{state,cache,data}/sub,
 * else $HOME/.local/state/pccbench/sub (.cache, .local/share), and with
 * no HOME either (a system service) PCB_SERVICE_DIR/{state,cache,data}.
 */
int pcb_user_dir(char *buf, size_t len, enum pcb_dir which, const char *sub,
		 bool create, struct pcb_err *err);

/* A device's file: $XDG_..._HOME/pccbench/sub/TOKEN + tail, where TOKEN
 * is `name` as one file-name component (pcb_file_token) and tail e.g.
 * ".log"; the directory is created (0700).
 */
int pcb_user_file(char *buf, size_t len, enum pcb_dir which, const char *sub,
		  const char *name, const char *tail, struct pcb_err *err);

/* A shipped file, e.g. "algos/ztr_rtt/algo.xml". */
int pcb_data_file(char *buf, size_t len, const char *rel, struct pcb_err *err);

/* mkdir -p with the given mode. */
int pcb_mkdirs(const char *path, unsigned mode, struct pcb_err *err);

/* "sim:lab" -> "sim_lab": safe as one file-name component. */
void pcb_file_token(char *buf, size_t len, const char *name);

#endif
