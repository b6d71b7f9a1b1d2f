/* testutil.h - shared set-up for the cmocka tests: a private state dir. */
#ifndef PCCB_TESTUTIL_H
#define PCCB_TESTUTIL_H

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "adb.h"
#include "paths.h"

/* Point XDG_STATE_HOME, XDG_CACHE_HOME and XDG_DATA_HOME at a fresh
 * temp dir. */
static inline void tu_private_state(void)
{
	static char dir[] = "/tmp/pccb-test-XXXXXX";
	char sub[600];

	if (!mkdtemp(dir))
		abort();
	snprintf(sub, sizeof(sub), "%s/state", dir);
	setenv("XDG_STATE_HOME", sub, 1);
	snprintf(sub, sizeof(sub), "%s/cache", dir);
	setenv("XDG_CACHE_HOME", sub, 1);
	snprintf(sub, sizeof(sub), "%s/data", dir);
	setenv("XDG_DATA_HOME", sub, 1);
}

/* The PPCC layout from the shipped reg/ppcc.adb (for ppcc_init). */
static inline struct adb_reg *tu_ppcc_layout(void)
{
	char path[4096];
	struct adb_db *db = NULL;
	struct adb_reg *r = NULL;
	struct pcb_err err = { 0 };

	assert_int_equal(pcb_data_file(path, sizeof(path), "reg/ppcc.adb",
				       &err), 0);
	assert_int_equal(adb_db_load_file(&db, path, &err), 0);
	assert_int_equal(adb_reg_load(db, "PPCC", &r, &err), 0);
	adb_db_free(db);
	return r;
}

/* Remove the files a test made in dir (one level), and dir. */
static inline void tu_rm_dir(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	rmdir(dir);
}

/* Deterministic PRNG for the random round trips. */
static inline uint32_t tu_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 11);
}

/* For tests that include cli.h: run a command line on a session, its
 * errors into err (errlen bytes), its output into out, or nowhere when
 * out is NULL.
 */
#ifdef PCCB_CLI_H
static inline int tu_run_line(struct session *s, const char *line, char *out,
			      size_t outlen, char *err, size_t errlen)
{
	FILE *ef = fmemopen(err, errlen, "w");
	FILE *of = out ? fmemopen(out, outlen, "w") : fopen("/dev/null", "w");
	int rc;

	assert_non_null(ef);
	assert_non_null(of);
	memset(err, 0, errlen);
	if (out)
		memset(out, 0, outlen);
	s->opt.errfp = ef;
	s->out.fp = of;
	rc = cli_run_line(s, line, NULL);
	fclose(ef);
	fclose(of);
	s->opt.errfp = stderr;
	s->out.fp = stdout;
	return rc;
}
#endif

#endif
