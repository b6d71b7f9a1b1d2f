/* fsafe.h - the one way pccbench opens its files.
 *
 * pccbench runs as root; its state, data and cache directories and the
 * paths a user names may hold whatever somebody planted there.  So:
 *
 * - Reads open with O_NOFOLLOW|O_CLOEXEC|O_NONBLOCK (a FIFO cannot hang the
 *   open), then fstat: anything but a regular file is refused with one
 *   line naming it; O_NONBLOCK is then cleared.
 * - Whole files are written to a temp file made with mkstemp (O_EXCL) in
 *   the target's own directory, flushed, fsync'd, given their mode and
 *   renamed over the target: a planted symlink is replaced, never
 *   followed, and a reader never sees half a file.
 * - Files kept open read-write (journal, sim device, telemetry state,
 *   locks) open with O_NOFOLLOW and must be regular files with one link.
 * - Modes: state, journal and cache 0600; data 0644; directories 0700.
 *
 * Errors: -PCB_E_NOENT when the file does not exist (callers that treat a
 * missing file as "defaults" test for it), -PCB_E_CORRUPT for a file of
 * the wrong kind, -PCB_E_IO otherwise; the message names the path.
 *
 * Ownership: pcb_wfile_open fills a struct pcb_wfile that is finished by
 * exactly one of pcb_wfile_commit or pcb_wfile_abort.
 */
#ifndef PCCB_FSAFE_H
#define PCCB_FSAFE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "err.h"

#define PCB_MODE_STATE	0600
#define PCB_MODE_DATA	0644

/* A regular file for reading: an fd, or -PCB_E_*. */
int pcb_open_read(const char *path, struct pcb_err *err);
/* The same as a stdio stream; NULL with err set. */
FILE *pcb_fopen_read(const char *path, struct pcb_err *err);
/* A whole regular file into memory (NUL-terminated), at most max bytes:
 * a longer file is an error, not a truncation.
 */
int pcb_read_file(const char *path, size_t max, char **buf, size_t *len,
		  struct pcb_err *err);

/* A regular file kept open for reading and writing: flags may add O_CREAT
 * and O_APPEND; mode is used when it is created.
 */
int pcb_open_rw(const char *path, int flags, mode_t mode,
		struct pcb_err *err);

struct pcb_wfile {
	FILE *fp;		/* write here */
	char *tmp, *path;
	mode_t mode;
	bool noreplace;		/* commit fails if path exists */
};

/* Begin writing `path` (through a temp file beside it). */
int pcb_wfile_open(struct pcb_wfile *w, const char *path, mode_t mode,
		   struct pcb_err *err);
/* The same, but the commit refuses to replace an existing file. */
int pcb_wfile_create(struct pcb_wfile *w, const char *path, mode_t mode,
		     struct pcb_err *err);
/* Flush, fsync, rename into place.  On failure the temp file is removed
 * and the target is untouched.
 */
int pcb_wfile_commit(struct pcb_wfile *w, struct pcb_err *err);
void pcb_wfile_abort(struct pcb_wfile *w);

/* An empty file of `mode` made with mkstemp beside `path`, for a program
 * that writes it by name (gnuplot's output); the caller renames it into
 * place or unlinks it, and frees *tmp.  A missing directory is
 * -PCB_E_NOENT with a message saying so.
 */
int pcb_tmp_beside(const char *path, mode_t mode, char **tmp,
		   struct pcb_err *err);

/* One buffer as a whole file, through the above. */
int pcb_write_file(const char *path, const void *buf, size_t len,
		   mode_t mode, struct pcb_err *err);

/* CRC-32 (IEEE, as zlib's crc32) of buf, continuing from crc (0 first). */
uint32_t pcb_crc32(uint32_t crc, const void *buf, size_t len);
/* Text files we write end with "crc XXXXXXXX\n" over everything before
 * it: seal appends that line to a malloc'd buffer (-1 out of memory);
 * check verifies it (and that the text has no NUL) and shortens *len to
 * the text before it.
 */
int pcb_crc_seal(char **buf, size_t *len);
bool pcb_crc_check(const char *buf, size_t *len);

/* Is `path` a real directory (not a symlink) owned by us or root? */
int pcb_check_dir(const char *path, struct pcb_err *err);

/* A copy of the regular file `from` as the new file `to` (O_EXCL, mode
 * PCB_MODE_STATE); a missing `from` copies nothing.
 */
int pcb_copy_file(const char *from, const char *to, struct pcb_err *err);

#endif
