/* http-flood - clients that hold an HTTP server's connections, for
 * tests/e2e/serve.sh (127.0.0.1 only; bounded in count and time).
 *
 *   http-flood idle|slow PORT N MAXSEC once
 *	N connections, never reconnected; ends when the server has closed
 *	every one (exit 0) or after MAXSEC (exit 1).  Prints
 *	"closed K of N, longest L ms" (L: the longest a connection lived).
 *   http-flood idle|slow PORT N MAXSEC flood READY STOP
 *	N connections, each reconnected when the server closes it; READY
 *	is created once all N are connected; ends when STOP exists or
 *	after MAXSEC.  Prints "connects C closed K".
 *
 * idle connections send nothing; slow ones send a request a byte every
 * 100 ms, one that never ends (a header line that goes on).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAXN 1000

static const char head[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ";

struct cl {
	int fd;
	size_t sent;
	long long t0;	/* connected (ms) */
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int dial(unsigned short port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct timeval tv = { 1, 0 };	/* a full backlog: give up */
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, O_NONBLOCK);
	return fd;
}

static bool exists(const char *p)
{
	return !access(p, F_OK);
}

int main(int argc, char **argv)
{
	static struct cl c[MAXN];
	static struct pollfd pf[MAXN];
	bool slow, flood, ready = false;
	unsigned short port;
	long long end, tick = 0, longest = 0;
	long connects = 0, closed = 0;
	int i, n;

	if (argc < 6 || (strcmp(argv[1], "idle") && strcmp(argv[1], "slow")))
		goto usage;
	slow = !strcmp(argv[1], "slow");
	port = (unsigned short)atoi(argv[2]);
	n = atoi(argv[3]);
	end = now_ms() + atoi(argv[4]) * 1000LL;
	flood = !strcmp(argv[5], "flood");
	if (n < 1 || n > MAXN || (flood && argc != 8) ||
	    (!flood && (argc != 6 || strcmp(argv[5], "once"))))
		goto usage;
	for (i = 0; i < n; i++) {
		c[i].fd = dial(port);
		if (c[i].fd < 0) {
			fprintf(stderr, "http-flood: connect: %s\n",
				strerror(errno));
			return 2;
		}
		c[i].t0 = now_ms();
		connects++;
	}
	while (now_ms() < end) {
		int nopen = 0;

		if (flood && !ready) {
			int fd = open(argv[6], O_WRONLY | O_CREAT | O_EXCL,
				      0600);

			if (fd >= 0)
				close(fd);
			ready = true;
		}
		if (flood && exists(argv[7]))
			break;
		for (i = 0; i < n; i++) {
			pf[i].fd = c[i].fd;
			pf[i].events = POLLIN;
			nopen += c[i].fd >= 0;
		}
		if (!flood && !nopen)
			break;
		poll(pf, (nfds_t)n, 20);
		for (i = 0; i < n; i++) {
			char buf[512];
			ssize_t r;

			if (c[i].fd < 0 || !(pf[i].revents &
					     (POLLIN | POLLHUP | POLLERR)))
				continue;
			r = read(c[i].fd, buf, sizeof(buf));
			if (r > 0 || (r < 0 && errno == EAGAIN))
				continue;	/* an answer: 4xx; wait */
			close(c[i].fd);
			c[i].fd = -1;
			closed++;
			if (now_ms() - c[i].t0 > longest)
				longest = now_ms() - c[i].t0;
			if (flood) {
				c[i].fd = dial(port);
				c[i].sent = 0;
				c[i].t0 = now_ms();
				connects += c[i].fd >= 0;
			}
		}
		if (slow && now_ms() - tick >= 100) {
			tick = now_ms();
			for (i = 0; i < n; i++) {
				const char *b = c[i].sent < sizeof(head) - 1 ?
						head + c[i].sent : "a";

				if (c[i].fd >= 0 && write(c[i].fd, b, 1) == 1)
					c[i].sent++;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (c[i].fd >= 0)
			close(c[i].fd);
	if (flood) {
		printf("connects %ld closed %ld\n", connects, closed);
		return 0;
	}
	printf("closed %ld of %d, longest %lld ms\n", closed, n, longest);
	return closed == n ? 0 : 1;
usage:
	fprintf(stderr, "usage: http-flood idle|slow PORT N MAXSEC once\n"
		"       http-flood idle|slow PORT N MAXSEC flood READY STOP\n");
	return 2;
}
