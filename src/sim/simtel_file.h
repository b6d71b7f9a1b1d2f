/* simtel_file.h - the one implementation of the sim's telemetry state
 * files (NAME.diag, NAME.retx beside NAME.dev): opened safely, created
 * with a fresh header when empty, else validated, and every access under
 * flock.  Why one: the sampler and the histogram are two files of one
 * kind (a header that starts with magic, version and size and holds a
 * CRC-32 of itself), so opening, checking and storing are written once.
 *
 * A header is checked whole: magic, version, size, its CRC (computed
 * with the crc field zeroed) and the kind's own rules (valid).  A file
 * that fails is refused with one line naming it; it is never repaired.
 *
 * Ownership: simtel_file_open/simtel_file_close; the kind is static.
 */
#ifndef PCCB_SIM_SIMTEL_FILE_H
#define PCCB_SIM_SIMTEL_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* Every file's first 16 bytes. */
struct simtel_head {
	char magic[8];
	uint32_t version, size;
};

struct simtel_kind {
	const char *ext;	/* "diag": NAME.diag */
	const char *what;	/* for messages: "diagnostic-counter" */
	const char *magic;	/* 7 characters and the NUL */
	uint32_t version;
	size_t size;		/* of the header */
	size_t crc_off;		/* of its uint32_t crc */
	/* a fresh file's header, the head and crc aside */
	void (*init)(void *hdr);
	/* the kind's rules beyond the head and the crc */
	bool (*valid)(const void *hdr);
};

struct simtel_file {
	const struct simtel_kind *kind;
	int fd;
};

/* Open (creating) NAME.EXT, write a fresh header into an empty file or
 * check the one there; unlocked after.  PCB_E_CORRUPT names the file.
 */
int simtel_file_open(struct simtel_file *f, const struct simtel_kind *k,
		     const char *sim_name, struct pcb_err *err);
void simtel_file_close(struct simtel_file *f);
/* flock: LOCK_EX, LOCK_SH; unlock with simtel_file_unlock. */
void simtel_file_lock(struct simtel_file *f, int how);
void simtel_file_unlock(struct simtel_file *f);
/* The header into hdr: 0, or -1 when unreadable or invalid. */
int simtel_file_load(struct simtel_file *f, void *hdr);
/* hdr's crc set, then written: 0 or -1. */
int simtel_file_store(struct simtel_file *f, void *hdr);

#endif
