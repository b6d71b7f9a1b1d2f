/* serve.c - `serve metrics`: the text of `export metrics` (the metrics
 * engine's, src/metrics/) on http://ADDR:PORT/metrics for a Prometheus
 * server to scrape.
 *
 * libmicrohttpd, driven from this thread (its epoll descriptor), so the
 * device is only ever read here, at most once per interval however often
 * it is scraped.
 *
 * One local user must not be able to silence the endpoint by holding
 * connections open (idle ones, or slow ones that send a request a byte
 * at a time).  So every connection is accounted here (the daemon's
 * connection notifications) and
 *   - has `timeout` (10 s) from its accept, or from its last answer, to
 *     send a whole request; past that it is shut down, however much it
 *     has trickled meanwhile (the daemon's own timeout is an idle one,
 *     which a byte now and then resets);
 *   - a connection beyond SRV_PER_IP from one address, or beyond
 *     SRV_CONNS in all, makes room by shutting down the oldest one still
 *     waiting for its request: of its own address, or of the address
 *     holding the most.  A scraper sends its request at once and is
 *     answered within a pass of the loop, so a flood, which is what
 *     waits, only ever pushes out itself.
 * A shut-down socket is left to the daemon, which sees the end of it in
 * its next pass and closes it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>

#include "cmd.h"
#include "cmd/metrics_cmd.h"
#include "units.h"
#include "util/lazylib.h"

/* libmicrohttpd, opened by serve metrics (mhd_lib): linked, it and
 * gnutls cost every process its start-up (src/util/lazylib.c). */
static struct {
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_basic_auth_get_username_password) *auth_get;
	__typeof__(MHD_create_response_from_buffer) *resp_buf;
	__typeof__(MHD_destroy_response) *destroy_response;
	__typeof__(MHD_free) *free;
	__typeof__(MHD_get_connection_info) *get_connection_info;
	__typeof__(MHD_get_daemon_info) *get_daemon_info;
	__typeof__(MHD_get_timeout) *get_timeout;
	__typeof__(MHD_is_feature_supported) *is_feature_supported;
	__typeof__(MHD_queue_basic_auth_fail_response) *auth_fail;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_run) *run;
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
} mhd;
static const char *const mhd_names[] = {
	"MHD_add_response_header", "MHD_basic_auth_get_username_password",
	"MHD_create_response_from_buffer", "MHD_destroy_response", "MHD_free",
	"MHD_get_connection_info", "MHD_get_daemon_info", "MHD_get_timeout",
	"MHD_is_feature_supported", "MHD_queue_basic_auth_fail_response",
	"MHD_queue_response", "MHD_run", "MHD_start_daemon",
	"MHD_stop_daemon", NULL
};
static struct lazylib mhd_lib = { "libmicrohttpd.so.12", "serve metrics",
				  "libmicrohttpd12", mhd_names, &mhd, false };
#define MHD_add_response_header (*mhd.add_response_header)
#define MHD_basic_auth_get_username_password (*mhd.auth_get)
#define MHD_create_response_from_buffer (*mhd.resp_buf)
#define MHD_destroy_response (*mhd.destroy_response)
#define MHD_free (*mhd.free)
#define MHD_get_connection_info (*mhd.get_connection_info)
#define MHD_get_daemon_info (*mhd.get_daemon_info)
#define MHD_get_timeout (*mhd.get_timeout)
#define MHD_is_feature_supported (*mhd.is_feature_supported)
#define MHD_queue_basic_auth_fail_response (*mhd.auth_fail)
#define MHD_queue_response (*mhd.queue_response)
#define MHD_run (*mhd.run)
#define MHD_start_daemon (*mhd.start_daemon)
#define MHD_stop_daemon (*mhd.stop_daemon)
#include "webcfg.h"

enum {
	SRV_CONNS = 256,	/* connections we keep */
	SRV_PER_IP = 128,	/* of them from one address */
	SRV_SLACK = 16,		/* the daemon's limit is ours + this: room
				 * for those shut down but not yet closed */
};

/* A connection the daemon has open. */
struct conn {
	bool used;
	bool busy;		/* its request is being answered */
	bool dropped;		/* shut down by us, not closed yet */
	MHD_socket fd;
	int64_t since;		/* accepted or last answered (mono ns) */
	struct sockaddr_storage peer;
};

struct srv {
	struct session *s;
	int64_t every_ns, timeout_ns;
	struct mx_state st;	/* the counters' history */
	struct webcfg web;	/* `web-config`: TLS, basic auth */
	char *text;		/* the last collection */
	size_t len;
	int64_t at;		/* when (monotonic ns); text NULL: never */
	/* the last collection's error and a newline, or "" */
	char err[sizeof(((struct pcb_err *)0)->msg) + 1];
	struct conn conns[SRV_CONNS + SRV_SLACK];
	unsigned long dropped;	/* connections we shut down */
};

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ---- the connections ---------------------------------------------------- */

static bool same_addr(const struct sockaddr_storage *a,
		      const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return true;
}

/* Connections open and not dropped: all, or those from peer. */
static unsigned conn_count(const struct srv *v,
			   const struct sockaddr_storage *peer)
{
	unsigned i, n = 0;

	for (i = 0; i < SRV_CONNS + SRV_SLACK; i++)
		n += v->conns[i].used && !v->conns[i].dropped &&
		     (!peer || same_addr(&v->conns[i].peer, peer));
	return n;
}

static void conn_drop(struct srv *v, struct conn *c)
{
	shutdown(c->fd, SHUT_RDWR);
	c->dropped = true;
	v->dropped++;
}

/* The oldest connection waiting for its request (from peer, when
 * given), not `keep`; NULL when there is none.
 */
static struct conn *conn_oldest(struct srv *v,
				const struct sockaddr_storage *peer,
				const struct conn *keep)
{
	struct conn *o = NULL;
	unsigned i;

	for (i = 0; i < SRV_CONNS + SRV_SLACK; i++) {
		struct conn *c = &v->conns[i];

		if (!c->used || c->dropped || c->busy || c == keep ||
		    (peer && !same_addr(&c->peer, peer)))
			continue;
		if (!o || c->since < o->since)
			o = c;
	}
	return o;
}

/* The address that holds the most connections. */
static const struct sockaddr_storage *conn_greediest(const struct srv *v)
{
	const struct sockaddr_storage *g = NULL;
	unsigned i, n, best = 0;

	for (i = 0; i < SRV_CONNS + SRV_SLACK; i++) {
		const struct conn *c = &v->conns[i];

		if (!c->used || c->dropped)
			continue;
		n = conn_count(v, &c->peer);
		if (n > best) {
			best = n;
			g = &c->peer;
		}
	}
	return g;
}

/* A new connection c: make room when its address or all hold too many;
 * c itself goes when nothing else can.
 */
static void conn_admit(struct srv *v, struct conn *c)
{
	struct conn *o = NULL;

	if (conn_count(v, &c->peer) > SRV_PER_IP)
		o = conn_oldest(v, &c->peer, c);
	else if (conn_count(v, NULL) > SRV_CONNS)
		o = conn_oldest(v, conn_greediest(v), c);
	else
		return;
	conn_drop(v, o ? o : c);
}

static void on_connection(void *cls, struct MHD_Connection *mc,
			  void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct srv *v = cls;
	const union MHD_ConnectionInfo *fd, *addr;
	struct conn *c = *socket_context;
	unsigned i;

	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (c)
			memset(c, 0, sizeof(*c));
		*socket_context = NULL;
		return;
	}
	fd = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
	addr = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	for (i = 0; i < SRV_CONNS + SRV_SLACK && v->conns[i].used; i++)
		;
	if (!fd || i == SRV_CONNS + SRV_SLACK) {
		/* cannot happen: the daemon's limit is our table's size */
		if (fd)
			shutdown(fd->connect_fd, SHUT_RDWR);
		return;
	}
	c = &v->conns[i];
	memset(c, 0, sizeof(*c));
	c->used = true;
	c->fd = fd->connect_fd;
	c->since = mono_ns();
	if (addr && addr->client_addr) {
		size_t l = addr->client_addr->sa_family == AF_INET6 ?
			   sizeof(struct sockaddr_in6) :
			   sizeof(struct sockaddr_in);

		memcpy(&c->peer, addr->client_addr, l);
	}
	*socket_context = c;
	conn_admit(v, c);
}

/* A request answered (or abandoned): the connection's clock restarts. */
static void on_completed(void *cls, struct MHD_Connection *mc,
			 void **con_cls, enum MHD_RequestTerminationCode toe)
{
	const union MHD_ConnectionInfo *ci;
	struct conn *c;

	(void)cls;
	(void)con_cls;
	(void)toe;
	ci = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	c = ci ? ci->socket_context : NULL;
	if (c) {
		c->busy = false;
		c->since = mono_ns();
	}
}

/* Shut down every connection that has waited longer than the timeout
 * for its request.
 */
static void conn_expire(struct srv *v)
{
	int64_t now = mono_ns();
	unsigned i;

	for (i = 0; i < SRV_CONNS + SRV_SLACK; i++) {
		struct conn *c = &v->conns[i];

		if (c->used && !c->dropped && !c->busy &&
		    now - c->since > v->timeout_ns)
			conn_drop(v, c);
	}
}

/* ---- the answers -------------------------------------------------------- */

/* The cached text, collected again when older than the interval. */
static void srv_refresh(struct srv *v)
{
	int64_t now = mono_ns();
	char *buf;
	size_t len;

	if ((v->text || *v->err) && now - v->at < v->every_ns)
		return;
	v->at = now;
	if (mx_collect(v->s, &v->st, &buf, &len)) {
		snprintf(v->err, sizeof(v->err), "%s\n", v->s->err.msg);
		fprintf(v->s->opt.errfp, "serve metrics: %s", v->err);
		pcb_err_reset(&v->s->err);
		free(v->text);
		v->text = NULL;
		return;
	}
	*v->err = '\0';
	free(v->text);
	v->text = buf;
	v->len = len;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code,
			     const char *type, const char *body, size_t len)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, (void *)body,
					    MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", type);
	if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, "Allow", "GET, HEAD");
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

/* Basic auth against the web configuration's users. */
static bool authorized(struct srv *v, struct MHD_Connection *c)
{
	char *pass = NULL, *user;
	bool ok;

	user = MHD_basic_auth_get_username_password(c, &pass);
	ok = user && pass && webcfg_check(&v->web, user, pass);
	if (pass) {
		memset(pass, 0, strlen(pass));
		MHD_free(pass);
	}
	if (user)
		MHD_free(user);
	return ok;
}

static enum MHD_Result deny(struct MHD_Connection *c)
{
	static const char msg[] = "401 unauthorized: this endpoint wants a "
				  "user and password\n";
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(sizeof(msg) - 1, (void *)msg,
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "text/plain; "
				"charset=utf-8");
	ret = MHD_queue_basic_auth_fail_response(c, "pccbench", r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_len, void **con_cls)
{
	static const char text[] = "text/plain; charset=utf-8";
	const union MHD_ConnectionInfo *ci;
	struct srv *v = cls;

	(void)version;
	(void)upload;
	(void)con_cls;
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	if (ci && ci->socket_context)	/* a whole request: no deadline */
		((struct conn *)ci->socket_context)->busy = true;
	if (*upload_len) {	/* a body we do not read */
		*upload_len = 0;
		return MHD_YES;
	}
	if (v->web.nusers && !authorized(v, c))
		return deny(c);
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, text,
			     "only GET\n", 9);
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, text,
			     "not found: try /metrics\n", 24);
	srv_refresh(v);
	if (!v->text)
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, text, v->err,
			     strlen(v->err));
	return reply(c, MHD_HTTP_OK, "text/plain; version=0.0.4; "
		     "charset=utf-8", v->text, v->len);
}

/* ---- the daemon --------------------------------------------------------- */

static const struct cmd_kw serve_keys[] = {
	MX_KW_DUR("every", "I", every),
	MX_KW_DUR("for", "D", dur),
	MX_KW_DUR("timeout", "T", timeout),
	MX_KW_STR("devices", "all|DEV,...", devices, 0),
	MX_KW_STR("collect", "+GLOB,-GLOB,...", collect, 0),
	MX_KW_STR("web-config", "FILE", web, KW_FILE),
	{ 0 }
};

/* "[ADDR:]PORT": an IPv4 address or [IPv6]; 127.0.0.1 without one. */
static int parse_listen(struct session *s, const char *t,
			struct sockaddr_storage *sa, bool *v6)
{
	const char *colon = strrchr(t, ':');
	char host[64] = "127.0.0.1", *end;
	unsigned long port;
	size_t hl;

	if (colon) {
		hl = (size_t)(colon - t);
		if (hl >= sizeof(host))
			hl = sizeof(host) - 1;
		memcpy(host, t, hl);
		host[hl] = '\0';
		t = colon + 1;
	}
	errno = 0;
	port = strtoul(t, &end, 10);
	if (!*t || *end || errno || port > 65535 || *t == '-' || *t == '+')
		return pcb_error(&s->err, PCB_E_INVAL, "serve metrics: bad "
				 "port '%s' (0..65535; 0: any free one)", t);
	memset(sa, 0, sizeof(*sa));
	hl = strlen(host);
	*v6 = hl > 2 && host[0] == '[' && host[hl - 1] == ']';
	if (*v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)sa;

		host[hl - 1] = '\0';
		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		if (inet_pton(AF_INET6, host + 1, &a->sin6_addr) == 1)
			return 0;
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)sa;

		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		if (inet_pton(AF_INET, host, &a->sin_addr) == 1)
			return 0;
	}
	return pcb_error(&s->err, PCB_E_INVAL, "serve metrics: bad address "
			 "'%s' (an IPv4 address or [IPv6], no names)", host);
}

/* One pass of the daemon's sockets: wait at most 100 ms on its epoll
 * descriptor (no FD_SETSIZE bound on the descriptors: hundreds of
 * connections beside many devices' open counter files), then run it.
 */
static int srv_poll(struct session *s, struct MHD_Daemon *d, int efd)
{
	struct pollfd p = { .fd = efd, .events = POLLIN };
	MHD_UNSIGNED_LONG_LONG to;
	int ms = 100;

	if (MHD_get_timeout(d, &to) == MHD_YES && to < 100)
		ms = (int)to;
	if (poll(&p, 1, ms) < 0 && errno != EINTR)
		return pcb_error(&s->err, PCB_E_IO, "serve metrics: poll: %s",
				 strerror(errno));
	if (MHD_run(d) != MHD_YES)
		return pcb_error(&s->err, PCB_E_IO, "serve metrics: the "
				 "HTTP daemon failed");
	return 0;
}

/* serve metrics [ADDR:]PORT [every I] [for D]: GET /metrics until Ctrl-C
 * (or for D of wall time); the device is read at most once per I (1 s
 * unless given), from this thread.
 */
static int cmd_serve_metrics(struct session *s, int argc, char **argv)
{
	struct mx_opts o = { 0 };
	struct srv v = { .s = s };
	struct sockaddr_storage sa;
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *di;
	char addr[64];
	bool v6 = false;
	unsigned idle;
	int64_t end;
	int rc, efd;

	rc = lazylib_load(&mhd_lib, &s->err);
	if (!rc)
		rc = mx_parse_opts(s, "serve metrics", serve_keys, argc - 1,
				   argv + 1, &o);
	if (!rc)
		rc = parse_listen(s, argv[0], &sa, &v6);
	if (!rc)
		rc = mx_state_init(s, &v.st, &o);
	if (!rc && o.web)
		rc = webcfg_load(&v.web, o.web, &s->err);
	if (!rc && v.web.cert && MHD_is_feature_supported(MHD_FEATURE_TLS) !=
	    MHD_YES)
		rc = pcb_error(&s->err, PCB_E_STATE, "serve metrics: this "
			       "libmicrohttpd has no TLS: cannot serve "
			       "https");
	if (rc)
		goto out;
	v.every_ns = o.every ? o.every / 1000 : 1000000000LL;
	v.timeout_ns = o.timeout ? o.timeout / 1000 : 10000000000LL;
	/* the daemon's idle timeout (whole seconds): for a connection
	 * whose answer is not being read
	 */
	idle = (unsigned)((v.timeout_ns + 999999999) / 1000000000);
	{
		/* TLS: the PEM texts from the web configuration */
		struct MHD_OptionItem tls[] = {
			{ MHD_OPTION_HTTPS_MEM_KEY, 0, v.web.key },
			{ MHD_OPTION_HTTPS_MEM_CERT, 0, v.web.cert },
			{ MHD_OPTION_END, 0, NULL }
		};

		if (!v.web.cert)
			tls[0].option = MHD_OPTION_END;
		d = MHD_start_daemon(MHD_USE_EPOLL | (v6 ? MHD_USE_IPv6 : 0) |
				     (v.web.cert ? MHD_USE_TLS : 0), 0, NULL,
				     NULL, on_request, &v,
				     MHD_OPTION_SOCK_ADDR,
				     (struct sockaddr *)&sa,
				     MHD_OPTION_CONNECTION_LIMIT,
				     (unsigned)(SRV_CONNS + SRV_SLACK),
				     MHD_OPTION_CONNECTION_TIMEOUT, idle,
				     MHD_OPTION_NOTIFY_CONNECTION,
				     on_connection, &v,
				     MHD_OPTION_NOTIFY_COMPLETED,
				     on_completed, &v,
				     MHD_OPTION_ARRAY, tls, MHD_OPTION_END);
	}
	if (!d) {
		rc = pcb_error(&s->err, PCB_E_IO, "serve metrics: cannot "
			       "listen on %s (in use, not an address of this "
			       "host%s?)", argv[0], v.web.cert ? ", or a "
			       "certificate and key that do not match" : "");
		goto out;
	}
	di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_EPOLL_FD);
	efd = di ? di->epoll_fd : -1;
	di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	if (v6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&sa)->sin6_addr,
			  addr, sizeof(addr));
	else
		inet_ntop(AF_INET, &((struct sockaddr_in *)&sa)->sin_addr,
			  addr, sizeof(addr));
	fprintf(s->out.fp, "serving http%s://%s%s%s:%u/metrics%s (Ctrl-C "
		"stops)\n", v.web.cert ? "s" : "", v6 ? "[" : "", addr,
		v6 ? "]" : "", di ? (unsigned)di->port : 0,
		v.web.nusers ? ", basic auth" : "");
	fflush(s->out.fp);
	end = o.dur ? mono_ns() + o.dur / 1000 : 0;
	while (!rc && !(s->opt.stop && *s->opt.stop) &&
	       (!end || mono_ns() < end)) {
		rc = srv_poll(s, d, efd);
		conn_expire(&v);
	}
	MHD_stop_daemon(d);
	if (!rc && s->opt.stop && *s->opt.stop == SIGINT)
		*s->opt.stop = 0;	/* Ctrl-C: the way out */
out:
	free(v.text);
	mx_state_release(&v.st);
	webcfg_release(&v.web);
	return rc;
}

const struct cmd_row cmd_serve_verbs[] = {
	{
		.name = "metrics",
		.fn = cmd_serve_metrics,
		.min_args = 1,
		.max_args = 13,
		.args = "[ADDR:]PORT",
		.help = "an HTTP endpoint /metrics for Prometheus (127.0.0.1 "
			"unless ADDR is given); the device is read at most once "
			"per I (1s); a connection has T (10s) to send its "
			"request; Ctrl-C stops",
		.example = "serve metrics 9464",
		.flags = CMD_DEVICE | CMD_DEFAULT,
		.keys = serve_keys,
	},
	{ 0 }
};
