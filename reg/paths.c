#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsafe.h"
#include "paths.h"

int pcb_path(char *buf, size_t len, struct pcb_err *err, const char *fmt,
	     ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < len)
		return 0;
	return pcb_error(err, PCB_E_INVAL, "path too long: %.60s...", buf);
}

int pcb_user_file(char *buf, size_t len, enum pcb_dir which, const char *sub,
		  const char *name, const char *tail, struct pcb_err *err)
{
	char dir[PCB_PATH_LEN], tok[128];
	int rc = pcb_user_dir(dir, sizeof(dir), which, sub, true, err);

	if (rc)
		return rc;
	pcb_file_token(tok, sizeof(tok), name);
	return pcb_path(buf, len, err, "%s/%s%s", dir, tok, tail);
}

int pcb_mkdirs(const char *path, unsigned mode, struct pcb_err *err)
{
	char tmp[PATH_MAX];
	size_t i, n = strlen(path);

	if (n == 0 || n >= sizeof(tmp))
		return pcb_error(err, PCB_E_INVAL, "bad directory '%s'", path);
	memcpy(tmp, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (tmp[i] != '/' && tmp[i] != '\0')
			continue;
		tmp[i] = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return pcb_error(err, PCB_E_IO, "cannot create '%s': %s",
					 tmp, strerror(errno));
		tmp[i] = path[i];
	}
	return 0;
}

int pcb_user_dir(char *buf, size_t len, enum pcb_dir which, const char *sub,
		 bool create, struct pcb_err *err)
{
	static const char *const env[] = { "XDG_STATE_HOME", "XDG_CACHE_HOME",
					   "XDG_DATA_HOME" };
	static const char *const dflt[] = { ".local/state", ".cache",
					    ".local/share" };
	static const char *const svc[] = { "state", "cache", "data" };
	const char *base = getenv(env[which]);
	const char *home = getenv("HOME");
	const char *sd = getenv("STATE_DIRECTORY");
	char *slash;
	int n, rc;

	if (base && base[0] == '/')
		n = snprintf(buf, len, "%s/pccbench%s%s", base, sub ? "/" : "",
			     sub ? sub : "");
	else if (sd && sd[0] == '/')	/* a service (StateDirectory=): the
					 * first of its directories */
		n = snprintf(buf, len, "%.*s/%s%s%s", (int)strcspn(sd, ":"),
			     sd, svc[which], sub ? "/" : "", sub ? sub : "");
	else if (home && *home)
		n = snprintf(buf, len, "%s/%s/pccbench%s%s", home,
			     dflt[which], sub ? "/" : "", sub ? sub : "");
	else	/* a system service has no HOME */
		n = snprintf(buf, len, "%s/%s%s%s", PCB_SERVICE_DIR,
			     svc[which], sub ? "/" : "", sub ? sub : "");
	if (n < 0 || (size_t)n >= len)
		return pcb_error(err, PCB_E_INVAL, "path too long");
	if (!create)
		return 0;
	rc = pcb_mkdirs(buf, 0700, err);
	if (rc)
		return rc;
	/* ours, not a link somebody planted: .../pccbench and .../sub */
	slash = sub ? strrchr(buf, '/') : NULL;
	if (slash) {
		*slash = '\0';
		rc = pcb_check_dir(buf, err);
		*slash = '/';
	}
	return rc ? rc : pcb_check_dir(buf, err);
}

static bool try_data(char *buf, size_t len, const char *dir, const char *rel)
{
	int n = snprintf(buf, len, "%s/%s", dir, rel);

	return n > 0 && (size_t)n < len && access(buf, R_OK) == 0;
}

int pcb_data_file(char *buf, size_t len, const char *rel, struct pcb_err *err)
{
	const char *env = getenv("PCCBENCH_DATADIR");
	char exe[PATH_MAX], dir[PATH_MAX + 32];
	ssize_t n;
	char *slash;

	if (env && *env) {
		if (try_data(buf, len, env, rel))
			return 0;
		return pcb_error(err, PCB_E_NOENT,
				 "'%s' not found in PCCBENCH_DATADIR '%s'",
				 rel, env);
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		/* build tree: the binary sits at the top (or in build-san/,
		 * build/tests/) next to reg/ and algos/ */
		if (try_data(buf, len, exe, rel))
			return 0;
		snprintf(dir, sizeof(dir), "%s/..", exe);
		if (try_data(buf, len, dir, rel))
			return 0;
		snprintf(dir, sizeof(dir), "%s/../..", exe);
		if (try_data(buf, len, dir, rel))
			return 0;
		snprintf(dir, sizeof(dir), "%s/../share/pccbench", exe);
		if (try_data(buf, len, dir, rel))
			return 0;
	}
	return pcb_error(err, PCB_E_NOENT,
			 "cannot find '%s' (set PCCBENCH_DATADIR to the "
			 "pccbench source or share directory)", rel);
}

void pcb_file_token(char *buf, size_t len, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++) {
		char c = name[i];

		buf[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '-' || c == '.' ?
			 c : '_';
	}
	if (len)
		buf[i < len ? i : len - 1] = '\0';
}
