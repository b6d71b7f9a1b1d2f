/* fuzz.h - what every libFuzzer harness in tests/fuzz/ shares.
 *
 * Each harness (fuzz_NAME.c) is one translation unit linked with fuzz.c,
 * the project's objects built with -fsanitize=fuzzer-no-link and libFuzzer.
 * fuzz.c gives them:
 *
 * - a private root, made once by fz_setup() from LLVMFuzzerInitialize:
 *   XDG_STATE_HOME, XDG_CACHE_HOME and XDG_DATA_HOME point into it,
 *   PCCBENCH_GNUPLOT is /bin/false, PCCBENCH_SYSFS and PCCBENCH_DEVROOT are
 *   empty directories in it (no real NIC is ever looked at);
 * - fz_begin()/fz_end() around each input: fz_begin empties the root so a
 *   run never sees the state of the one before (a crash input replays the
 *   same way alone), and arms the sandbox;
 * - the sandbox: while armed, fork/exec/system/popen/posix_spawn fail with
 *   EPERM (no gnuplot, no mstreg, no sweep workers), and every call that
 *   creates, writes, renames or removes a file refuses paths outside the
 *   root (and /dev/null and the directories libFuzzer was given for its
 *   corpus and artefacts), so a fuzzed `... to FILE` cannot touch the
 *   tree.  Refusals are counted (fz_refused) and the first few printed;
 * - fz_session(): a session on the sim device in dry-run mode printing to
 *   /dev/null (FZ_VERBOSE=1 in the environment: to stdout/stderr).
 *
 * Ownership: fz_text() returns a malloc'd NUL-terminated copy the caller
 * frees; fz_session's session is released with sess_release.
 */
#ifndef PCCB_FUZZ_H
#define PCCB_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "session.h"

/* libFuzzer's entry points, defined by each harness. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Once, from LLVMFuzzerInitialize. */
void fz_setup(int *argc, char ***argv);
/* Around each input: empty the root, arm / disarm the sandbox. */
void fz_begin(void);
void fz_end(void);

/* The private root, "<root>/state" etc. are the XDG homes. */
const char *fz_root(void);
extern unsigned long fz_refused;

/* Where output goes: /dev/null unless FZ_VERBOSE is set. */
FILE *fz_out(void);
FILE *fz_err(void);

/* A session on devname ("sim:fz") in dry-run mode, printing to fz_out. */
void fz_session(struct session *s, const char *devname);
/* cli_run_line on a printf-formatted line. */
int fz_run(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A NUL-terminated copy of the input. */
char *fz_text(const uint8_t *data, size_t size);
/* Write the input as `rel` under the XDG home `which` ("state", "cache",
 * "data"): "<root>/<which>/pccbench/<rel>", parents made.  sealed: give
 * the text the "crc XXXXXXXX" line fsafe.h's readers want, unless it ends
 * with a valid one already (a seed written by pccbench).  0 or -1.
 */
int fz_put(const char *which, const char *rel, const uint8_t *data,
	   size_t size, bool sealed);
/* A two-sender incast as sim:fz's scenario, so that `sim run 20us` and
 * `record` (which feed the fuzzed state) stay cheap.  0 or -1.
 */
int fz_small_scenario(void);
/* "<root>/<which>/pccbench/<rel>" into buf. */
void fz_path(char *buf, size_t len, const char *which, const char *rel);

/* The first NUL splits the input into two parts (the second may be
 * empty); returns the length of the first.
 */
size_t fz_split(const uint8_t *data, size_t size, const uint8_t **rest,
		size_t *rest_len);

/* A "real NIC" for the code paths only real hardware takes (the info
 * cache, REG_CAP_REAL): a backend with REG_CAP_REAL whose accesses are
 *  FZ_NIC_SIM     forwarded to the sim device sim:fznic-sim;
 *  FZ_NIC_FWCTL   replies taken from the input, each a 2-byte big-endian
 *                 length and that many bytes of an ACCESS_REG mailbox,
 *                 decoded by fwctl_access_reg_out as the fwctl backend does;
 *  FZ_NIC_MSTREG  replies taken from the input, each mstreg's stdout up to
 *                 a form feed (or the end), parsed by mstreg_parse_table
 *                 as the mstreg backend does (no bulk set either).
 * fz_nic_session opens it as s's device (ppcc, journal: what sess_device
 * does) under devname; the input must outlive the session.  0 or -code.
 */
enum fz_nic { FZ_NIC_SIM, FZ_NIC_FWCTL, FZ_NIC_MSTREG };

int fz_nic_session(struct session *s, const char *devname, enum fz_nic kind,
		   const uint8_t *data, size_t size);
/* Replies the device has handed out so far. */
extern unsigned long fz_nic_replies;
/* Seeds: while set, every GET of an FZ_NIC_SIM device is also written
 * out as the reply an FZ_NIC_FWCTL or FZ_NIC_MSTREG device would take
 * (either path may be NULL).  FZ_SEEDS=DIR in the environment asks a
 * harness to write such seeds into DIR and exit.
 */
void fz_nic_record(const char *fwctl_path, const char *mstreg_path);
const char *fz_seeds_dir(void);
/* One seed: on a fresh FZ_NIC_SIM device run `setup` (for real, not dry),
 * then `cmds` (dry run) recording the replies into DIR/name for `kind`.
 */
void fz_nic_seed(enum fz_nic kind, const char *setup, const char *cmds,
		 const char *name);

/* Binary state files whose header (magic[8], version, size, ...) carries
 * "CRC-32 of the first `size` bytes with the crc field zeroed" (the .retx
 * and .diag telemetry files): fz_crc_offset finds where the crc sits in
 * a file pccbench just wrote (-1: no such field, the scheme changed);
 * fz_crc_fix recomputes it in buf so a fuzzed header gets past the
 * checksum to the checks behind it.
 */
long fz_crc_offset(const char *path);
void fz_crc_fix(uint8_t *buf, size_t len, long off);

#endif
