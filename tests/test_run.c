/* The process runner's edges: a child that closes its pipes and hangs, a
 * grandchild that holds them after the child exited, grandchildren that
 * leave the process group (setsid, double fork), and the traffic log of
 * run_bg_start.  The misbehaving children are tests/tools/run-child.c.
 *
 * Time limits have at least 10x headroom over what the runner needs (CI
 * runs this under ASan on a loaded machine).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include "testutil.h"
#include "run.h"

static char helper[4096];	/* build/tests/run-child */
static char tmpdir[] = "/tmp/pccb-run-XXXXXX";

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* The pid the helper's staying process wrote; 0 while there is none. */
static pid_t read_pid(const char *path)
{
	FILE *fp = fopen(path, "r");
	long pid = 0;

	if (!fp)
		return 0;
	if (fscanf(fp, "%ld", &pid) != 1)
		pid = 0;
	fclose(fp);
	return (pid_t)pid;
}

/* Is pid still a process (a zombie counts: nobody reaped it)? */
static bool alive(pid_t pid)
{
	return kill(pid, 0) == 0 || errno != ESRCH;
}

/* How many processes (zombies too) are children of this one. */
static int children_left(void)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		char path[300], buf[512], *p;
		long ppid;
		FILE *fp;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		p = fgets(buf, sizeof(buf), fp) ? strrchr(buf, ')') : NULL;
		fclose(fp);
		if (p && sscanf(p + 1, " %*c %ld", &ppid) == 1 &&
		    ppid == (long)getpid())
			n++;
	}
	closedir(d);
	return n;
}

/* A test that failed must not leave its sleeper behind. */
static void kill_left(pid_t pid)
{
	if (pid > 0)
		kill(pid, SIGKILL);
}

static void pidfile(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s.pid", tmpdir, name);
	unlink(buf);
}

/* (a) stdout and stderr closed, then a hang: a timeout, not "exit 137". */
static void test_closed_pipes_hang(void **state)
{
	char *argv[] = { helper, (char *)"close", (char *)"60", NULL };
	struct pcb_err err = { 0 };
	struct run_result r;
	long long t0 = now_ms();

	(void)state;
	assert_int_equal(run_prog(argv, NULL, 300, NULL, &r, &err),
			 -PCB_E_DEVICE);
	assert_true(r.timed_out);
	assert_non_null(strstr(err.msg, "did not answer within 300 ms"));
	assert_true(now_ms() - t0 < 10000);
}

/* (b) "ok", exit 0, a grandchild keeps stdout open for a minute: the
 * child's status and output, promptly; the grandchild (in the child's
 * process group) is gone afterwards.
 */
static void test_grandchild_holds_stdout(void **state)
{
	char pf[4200];
	char *argv[] = { helper, (char *)"hold", pf, (char *)"60", NULL };
	struct pcb_err err = { 0 };
	struct run_result r;
	long long t0;
	pid_t gc;

	(void)state;
	pidfile(pf, sizeof(pf), "hold");
	t0 = now_ms();
	assert_int_equal(run_prog(argv, NULL, 20000, NULL, &r, &err), 0);
	gc = read_pid(pf);
	kill_left(alive(gc) ? gc : 0);
	assert_true(now_ms() - t0 < 5000);
	assert_false(r.timed_out);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "ok\n");
	run_result_free(&r);
	assert_true(gc > 0);
	assert_false(alive(gc));
	assert_int_equal(children_left(), 0);
}

/* (c) a grandchild that left the process group with setsid(), directly
 * or through a double fork, does not outlive run_prog.
 */
static void test_setsid_grandchild(void **state)
{
	static const char *const modes[] = { "setsid", "daemon" };
	struct pcb_err err = { 0 };
	struct run_result r;
	char pf[4200];
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		char *argv[] = { helper, (char *)modes[i], pf, (char *)"60",
				 NULL };
		pid_t gc;
		bool left;

		pidfile(pf, sizeof(pf), modes[i]);
		assert_int_equal(run_prog(argv, NULL, 20000, NULL, &r, &err),
				 0);
		gc = read_pid(pf);
		left = gc > 0 && alive(gc);
		kill_left(left ? gc : 0);
		assert_int_equal(r.status, 0);
		assert_string_equal(r.out, "ok\n");
		run_result_free(&r);
		assert_true(gc > 0);
		assert_false(left);
		assert_int_equal(children_left(), 0);	/* all reaped */
	}
}

/* The same for a program run beside pccbench: after run_bg_stop, what it
 * left in another session is gone too.
 */
static void test_bg_setsid_grandchild(void **state)
{
	static const char *const modes[] = { "setsid", "daemon", "hold" };
	struct pcb_err err = { 0 };
	struct run_bg bg;
	char pf[4200];
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		char *argv[] = { helper, (char *)modes[i], pf, (char *)"60",
				 NULL };
		long long t0;
		pid_t gc = 0;
		bool left;

		pidfile(pf, sizeof(pf), modes[i]);
		assert_int_equal(run_bg_start(&bg, argv, NULL, &err), 0);
		t0 = now_ms();
		while (!run_bg_done(&bg) && now_ms() - t0 < 10000)
			usleep(10000);
		gc = read_pid(pf);	/* written before the child exits */
		assert_int_equal(run_bg_stop(&bg, 2000), 0);
		left = gc > 0 && alive(gc);
		kill_left(left ? gc : 0);
		assert_true(gc > 0);
		assert_false(left);
		assert_int_equal(children_left(), 0);
	}
}

/* A traffic log where a FIFO was planted is refused, with a line naming
 * it (and the open does not block, even with a reader on the FIFO).
 */
static void test_bg_log_fifo(void **state)
{
	char *argv[] = { (char *)"echo", (char *)"hello", NULL };
	struct pcb_err err = { 0 };
	struct run_bg bg;
	char fifo[4200];
	int rd;

	(void)state;
	snprintf(fifo, sizeof(fifo), "%s/fifo.log", tmpdir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	assert_int_not_equal(run_bg_start(&bg, argv, fifo, &err), 0);
	close(rd);
	assert_int_equal(bg.pid, 0);
	assert_non_null(strstr(err.msg, fifo));
	assert_non_null(strstr(err.msg, "not a regular file"));
	assert_null(strchr(err.msg, '\n'));
}

/* A symlink planted as the log is refused, not followed. */
static void test_bg_log_symlink(void **state)
{
	char *argv[] = { (char *)"echo", (char *)"hello", NULL };
	struct pcb_err err = { 0 };
	char link[4200], target[4200];
	struct run_bg bg;
	struct stat st;

	(void)state;
	snprintf(target, sizeof(target), "%s/target", tmpdir);
	snprintf(link, sizeof(link), "%s/link.log", tmpdir);
	assert_int_equal(symlink(target, link), 0);
	assert_int_not_equal(run_bg_start(&bg, argv, link, &err), 0);
	assert_int_equal(bg.pid, 0);
	assert_non_null(strstr(err.msg, link));
	assert_non_null(strstr(err.msg, "symbolic link"));
	assert_null(strchr(err.msg, '\n'));
	assert_int_equal(lstat(target, &st), -1);	/* nothing created */
}

/* A regular log is appended to. */
static void test_bg_log_append(void **state)
{
	char *argv[] = { (char *)"echo", (char *)"hello", NULL };
	struct pcb_err err = { 0 };
	char log[4200], text[64];
	struct run_bg bg;
	long long t0;
	size_t n;
	FILE *fp;

	(void)state;
	snprintf(log, sizeof(log), "%s/ok.log", tmpdir);
	fp = fopen(log, "w");
	assert_non_null(fp);
	fputs("before\n", fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(run_bg_start(&bg, argv, log, &err), 0);
	t0 = now_ms();
	while (!run_bg_done(&bg) && now_ms() - t0 < 10000)
		usleep(10000);
	assert_int_equal(run_bg_stop(&bg, 2000), 0);
	fp = fopen(log, "r");
	assert_non_null(fp);
	n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[n] = '\0';
	assert_string_equal(text, "before\nhello\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closed_pipes_hang),
		cmocka_unit_test(test_grandchild_holds_stdout),
		cmocka_unit_test(test_setsid_grandchild),
		cmocka_unit_test(test_bg_setsid_grandchild),
		cmocka_unit_test(test_bg_log_fifo),
		cmocka_unit_test(test_bg_log_symlink),
		cmocka_unit_test(test_bg_log_append),
	};
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int rc;

	if (n <= 0 || !mkdtemp(tmpdir))
		return 1;
	self[n] = '\0';
	snprintf(helper, sizeof(helper), "%s/run-child", dirname(self));
	if (access(helper, X_OK)) {
		fprintf(stderr, "test_run: %s not built\n", helper);
		return 1;
	}
	rc = cmocka_run_group_tests_name("run", tests, NULL, NULL);
	tu_rm_dir(tmpdir);
	return rc;
}
