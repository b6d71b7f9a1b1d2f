/* log-sink - a syslog daemon's socket, for tests/e2e/audit.sh.
 *
 *   log-sink SOCKET OUT READY MAXSEC STOP
 *
 * Binds a Unix datagram socket at SOCKET (where syslog(3) sends, /dev/log
 * in the test's own mount namespace), creates READY once bound, and
 * appends every datagram received to OUT as a line, until STOP exists or
 * MAXSEC have passed.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	time_t end;
	FILE *out;
	int fd, r;

	if (argc != 6 || strlen(argv[1]) >= sizeof(a.sun_path)) {
		fprintf(stderr, "usage: log-sink SOCKET OUT READY MAXSEC STOP\n");
		return 2;
	}
	end = time(NULL) + atoi(argv[4]);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", argv[1]);
	unlink(argv[1]);
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    chmod(argv[1], 0666)) {
		perror("log-sink: bind");
		return 2;
	}
	out = fopen(argv[2], "a");
	r = open(argv[3], O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (!out || r < 0) {
		perror("log-sink");
		return 2;
	}
	close(r);
	while (time(NULL) < end && access(argv[5], F_OK)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char buf[4096];
		ssize_t n;

		if (poll(&p, 1, 50) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		fprintf(out, "%s\n", buf);
		fflush(out);
	}
	fclose(out);
	unlink(argv[1]);
	return 0;
}
