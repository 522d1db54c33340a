/*
 * web/server.h - the HTTP side of `ttt serve`: a libmicrohttpd daemon that serves the page (web/ embedded at
 * build time, web/assets.h) and hands /api/ requests to web/api.h.
 *
 * Threads: WEB_POLL_THREADS polling threads (libmicrohttpd's thread pool, epoll on Linux) read requests and
 * write answers for every connection; they never wait for an engine. An /api/ request, once in, is handed to
 * one of WEB_API_WORKERS worker threads and its connection suspended until the answer is ready, so a request
 * that waits for an engine slot (up to WEB_ENGINE_WAIT_MS) holds one worker and its own connection, nothing
 * else. Requests that may wait for an engine (web_api_needs_engine) queue apart and take at most
 * WEB_API_ENGINE_WORKERS workers; requests that need none are taken first, so however many analyses wait,
 * reading a game or /api/engines finds a worker at once. At most WEB_API_QUEUE requests wait for a worker (past that the answer is 503), and at most
 * WEB_API_JOBS_PER_ADDRESS of one client address are queued or answered at once (past that 429), so that one
 * client cannot keep every worker waiting for engines; with no per-address limit (max_per_address 0, behind
 * a proxy) neither is this.
 *
 * A client is an IPv4 address or an IPv6 /64 (web_client_group): every per-address limit counts by it.
 *
 * What one client can hold (slow clients, "slowloris"): at most max_per_address connections per client
 * address and max_connections in all (further connections are closed at once); a request's head and body
 * must be in within WEB_REQUEST_DEADLINE_S of the connection's opening or of the previous answer on it,
 * however steadily bytes trickle in, or the connection is shut; a connection that makes no progress for
 * WEB_CONNECTION_TIMEOUT_S (e.g. not reading its answer) is closed.
 *
 * Other sites: a request whose Host header is not one of this server's names (127.0.0.1, localhost, [::1],
 * --host, the address listened on; any numeric address when that is a wildcard) with its port is answered
 * 421, so that a page of another site that rebinds its name to this machine gets nothing; a POST (or any
 * write) whose Origin is not this server's own is answered 403; a POST to /api/ with a body that is not
 * declared "Content-Type: application/json" is answered 415 (a plain form needs no CORS preflight). All at
 * the head, before the body is read.
 *
 * Requests: bodies above WEB_MAX_BODY bytes are answered 413; a request with a Transfer-Encoding (chunked or
 * any other) is answered 411 at its head: every body needs a Content-Length. Bad Content-Length values are
 * answered 400 by libmicrohttpd itself, before the server sees the request (README: what remains).
 */
#ifndef TTT_WEB_SERVER_H
#define TTT_WEB_SERVER_H

#include <stdbool.h>

#include "web/api.h"

#define WEB_MAX_CONNECTIONS_DEFAULT 1024 /* open connections in all */
#define WEB_PER_ADDRESS_DEFAULT     32   /* open connections per client address (0: no limit) */
#define WEB_REQUEST_DEADLINE_S      10 /* a request's head and body, from the connection or the last answer */
#define WEB_CONNECTION_TIMEOUT_S    10 /* no progress at all for this long: closed */
#define WEB_REAP_INTERVAL_MS        250 /* how often the request deadline is checked */
#define WEB_POLL_THREADS            4   /* libmicrohttpd's polling threads (network I/O only) */
#define WEB_API_WORKERS             32  /* threads answering /api/ requests (they may wait for engines) */
#define WEB_API_ENGINE_WORKERS                                                                               \
    24                                /* of them, at most this many answer requests that may wait for an
                                          * engine: the others are always there for the rest */
#define WEB_API_QUEUE            1024 /* /api/ requests waiting for a worker; more get 503 */
#define WEB_API_JOBS_PER_ADDRESS 8    /* /api/ requests in flight per client address; more get 429 */
#define WEB_JOBS_RETRY_S         1    /* that 429's Retry-After: an engine request thinks up to 2 s */
#define WEB_QUEUE_RETRY_S        2 /* the queue's 503 Retry-After: a worker answers within 2 s of thinking */
#define WEB_MMAP_BYTES                                                                                       \
    (1 << 20) /* blocks this big are mapped apart: a freed move table goes back to the system at once
               * (96 tables built and evicted: RSS 114 MB with malloc's moving threshold, 67 MB) */
#define WEB_HOST_SIZE         256 /* a host name (DNS names are at most 253 characters) */
#define WEB_HTTP_DEFAULT_PORT 80  /* what a Host header without a port means */

typedef struct web_server web_server;

typedef struct web_server_config {
    const char *host;         /* where to listen: an IPv4 or IPv6 address, or a name (localhost) */
    int port;                 /* 0: any free port (web_server_port tells which) */
    unsigned max_connections; /* > 0; the process needs as many free file descriptors */
    unsigned max_per_address; /* 0: no limit */
    web_api_config api;       /* its log is the server's too */
} web_server_config;

/* Starts listening and serving in background threads. On failure returns NULL and writes one line into
 * err (errsize bytes): "cannot listen on 127.0.0.1:8080 (address in use?)". */
web_server *web_server_start(const web_server_config *config, char *err, size_t errsize);

/* Resolves host (an IPv4 or IPv6 address, or a name such as localhost) with getaddrinfo. Returns the list
 * (free it with freeaddrinfo), or NULL with one line in err: "--host 'x': Name or service not known (...)".
 */
struct addrinfo;
struct addrinfo *web_host_resolve(const char *host, char *err, size_t errsize);

/* The numeric address listened on (of those host names, the first that could be listened on). */
const char *web_server_address(const web_server *server);

/* The port actually listened on. */
int web_server_port(const web_server *server);

/* Stops accepting, answers the requests in progress (those still waiting for a worker get 503), drops the
 * connections and frees everything. NULL is allowed. */
void web_server_stop(web_server *server);

#endif
