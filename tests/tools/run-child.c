/* run-child - children that misbehave, for tests/test_run.c.
 *
 *   run-child close SECONDS          close stdout and stderr, then sleep
 *   run-child hold PIDFILE SECONDS   print "ok", leave a grandchild that
 *                                    holds stdout and stderr, exit 0
 *   run-child setsid PIDFILE SECONDS print "ok", leave a grandchild in a
 *                                    session of its own (no pipes), exit 0
 *   run-child daemon PIDFILE SECONDS the same through a double fork: the
 *                                    grandchild's child stays, in its own
 *                                    session, re-parented when it exits
 *
 * The process that stays writes its pid to PIDFILE (through a rename, so
 * a reader sees all of it or nothing) before "ok" is printed, so a test
 * never races it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void write_pid(const char *path)
{
	char tmp[4200];
	FILE *fp;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fp = fopen(tmp, "w");
	if (!fp || fprintf(fp, "%ld\n", (long)getpid()) < 0 || fclose(fp) ||
	    rename(tmp, path))
		_exit(3);
}

static void to_dev_null(void)
{
	int fd = open("/dev/null", O_RDWR);

	if (fd < 0)
		_exit(3);
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

/* The one that stays: its pid in the file, the sync pipe closed (the
 * parent's signal to go on), then sleep.
 */
static void stay(const char *pidfile, int sync_fd, unsigned secs)
{
	write_pid(pidfile);
	close(sync_fd);
	sleep(secs);
	_exit(0);
}

int main(int argc, char **argv)
{
	int sync[2];
	char c;
	pid_t pid;

	if (argc == 3 && !strcmp(argv[1], "close")) {
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		sleep((unsigned)atoi(argv[2]));
		return 0;
	}
	if (argc != 4 || pipe(sync))
		return 2;
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		close(sync[0]);
		if (!strcmp(argv[1], "hold"))
			stay(argv[2], sync[1], (unsigned)atoi(argv[3]));
		to_dev_null();
		if (setsid() < 0)
			_exit(3);
		if (!strcmp(argv[1], "daemon")) {
			pid = fork();
			if (pid < 0)
				_exit(3);
			if (pid > 0)
				_exit(0);	/* the middle one goes */
		}
		stay(argv[2], sync[1], (unsigned)atoi(argv[3]));
	}
	close(sync[1]);
	while (read(sync[0], &c, 1) < 0 && errno == EINTR)
		;
	printf("ok\n");
	return 0;
}
