/* store.h - saved series, sweeps and their metadata (store.c). */
#ifndef PCCB_STORE_H
#define PCCB_STORE_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "fsafe.h"
#include "session.h"

/* A JSON metadata file: {"KIND":NAME,"device":..,"pccbench":..,"start":..
 * written to w->fp; the caller adds ,"key":value members, then
 * store_meta_close ends the object and puts the file in place (a temp file
 * renamed over `path`, see fsafe.h), reporting a failed write.
 */
int store_meta_open(struct session *s, struct pcb_wfile *w, const char *path,
		  const char *kind, const char *name, time_t start);
int store_meta_close(struct session *s, struct pcb_wfile *w);
/* ,"slot":..,"algo_id":..,"algo_version":..,"params":{..} of the active
 * slot for a JSON metadata file (nothing when no slot is enabled).
 */
void store_meta_algo(struct session *s, FILE *fp);

/* $XDG_DATA_HOME/pccbench/DIR/NAME SUFFIX, NAME checked first
 * ([A-Za-z0-9_.-], up to 60, not starting with '.'); `what` names the
 * thing in the error ("series", "sweep").
 */
int store_path(struct session *s, const char *what, const char *dir,
		   const char *name, const char *suffix, bool create,
		   char *buf, size_t len);
/* The saved things under $XDG_DATA_HOME/pccbench/DIR, sorted: NAME.EXT
 * files as NAME (ext ".csv"), or directories (ext NULL).  A
 * NULL-terminated list freed with words_free; NULL only when out of
 * memory.
 */
char **store_names(const char *dir, const char *ext);
/* Series files: NAME checked ([A-Za-z0-9_.-], up to 60), then
 * $XDG_DATA_HOME/pccbench/series/NAME.EXT.
 */
int store_series_path(struct session *s, const char *name, const char *ext,
		    char *buf, size_t len);

/* The line (from 1) of the nth (from 1) member "key":"value" of a JSON
 * text of len bytes, value as written unescaped (pccbench's names need
 * no escape); 0 when there is none: for an error naming the line.
 */
size_t store_json_line(const char *text, size_t len, const char *key,
		       const char *value, size_t nth);

#endif
