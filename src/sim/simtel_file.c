/* simtel_file.c - the sim's telemetry state files (simtel_file.h): open,
 * check, store, lock; one implementation for NAME.diag and NAME.retx.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsafe.h"
#include "paths.h"
#include "sim/simtel_file.h"

/* Headers are small fixed structs: a copy on the stack computes the crc. */
#define SIMTEL_MAX_HDR 4096

static uint32_t hdr_crc(const struct simtel_kind *k, const void *hdr)
{
	unsigned char c[SIMTEL_MAX_HDR];

	memcpy(c, hdr, k->size);
	memset(c + k->crc_off, 0, sizeof(uint32_t));
	return pcb_crc32(0, c, k->size);
}

int simtel_file_load(struct simtel_file *f, void *hdr)
{
	const struct simtel_kind *k = f->kind;
	const struct simtel_head *h = hdr;
	uint32_t crc;

	if (pread(f->fd, hdr, k->size, 0) != (ssize_t)k->size)
		return -1;
	memcpy(&crc, (const unsigned char *)hdr + k->crc_off, sizeof(crc));
	if (memcmp(h->magic, k->magic, sizeof(h->magic)) ||
	    h->version != k->version || h->size != k->size ||
	    crc != hdr_crc(k, hdr) || !k->valid(hdr))
		return -1;
	return 0;
}

int simtel_file_store(struct simtel_file *f, void *hdr)
{
	const struct simtel_kind *k = f->kind;
	uint32_t crc = hdr_crc(k, hdr);

	memcpy((unsigned char *)hdr + k->crc_off, &crc, sizeof(crc));
	return pwrite(f->fd, hdr, k->size, 0) == (ssize_t)k->size ? 0 : -1;
}

void simtel_file_lock(struct simtel_file *f, int how)
{
	flock(f->fd, how);
}

void simtel_file_unlock(struct simtel_file *f)
{
	flock(f->fd, LOCK_UN);
}

int simtel_file_open(struct simtel_file *f, const struct simtel_kind *k,
		     const char *sim_name, struct pcb_err *err)
{
	unsigned char hdr[SIMTEL_MAX_HDR];
	struct simtel_head *h = (struct simtel_head *)hdr;
	char path[PCB_PATH_LEN], tail[16];
	struct stat st;
	int rc;

	f->kind = k;
	f->fd = -1;
	snprintf(tail, sizeof(tail), ".%s", k->ext);
	rc = pcb_user_file(path, sizeof(path), PCB_DIR_STATE, "sim", sim_name,
			   tail, err);
	if (rc)
		return rc;
	f->fd = pcb_open_rw(path, O_CREAT, PCB_MODE_STATE, err);
	if (f->fd < 0)
		return f->fd;
	flock(f->fd, LOCK_EX);
	if (!fstat(f->fd, &st) && st.st_size == 0) {	/* fresh */
		memset(hdr, 0, k->size);
		memcpy(h->magic, k->magic, sizeof(h->magic));
		h->version = k->version;
		h->size = (uint32_t)k->size;
		k->init(hdr);
		if (simtel_file_store(f, hdr))
			rc = pcb_error(err, PCB_E_IO, "cannot write '%s'", path);
	} else if (simtel_file_load(f, hdr)) {
		rc = pcb_error(err, PCB_E_CORRUPT, "'%s' is not a valid %s "
			       "file; remove it to start afresh", path,
			       k->what);
	}
	flock(f->fd, LOCK_UN);
	if (rc)
		simtel_file_close(f);
	return rc;
}

void simtel_file_close(struct simtel_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}
