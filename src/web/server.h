/*
 * web/server.h - the HTTP side of `ttt serve`: a libmicrohttpd daemon that serves the page (web/ embedded at
 * build time, web/assets.h) and hands /api/ requests to web/api.h.
 *
 * Threads: one thread per connection (MHD_USE_THREAD_PER_CONNECTION), so a request that waits for an engine
 * holds only its own connection; at most WEB_MAX_CONNECTIONS connections, each idle one closed after
 * WEB_CONNECTION_TIMEOUT_S seconds. Request bodies above WEB_MAX_BODY bytes are answered 413.
 */
#ifndef TTT_WEB_SERVER_H
#define TTT_WEB_SERVER_H

#include <stdbool.h>

#include "web/api.h"

#define WEB_MAX_CONNECTIONS      256
#define WEB_CONNECTION_TIMEOUT_S 30

typedef struct web_server web_server;

typedef struct web_server_config {
    const char *host; /* numeric IPv4 or IPv6 address to listen on */
    int port;         /* 0: any free port (web_server_port tells which) */
    web_api_config api;
} web_server_config;

/* Starts listening and serving in background threads. On failure returns NULL and writes one line into
 * err (errsize bytes): "cannot listen on 127.0.0.1:8080 (address in use?)". */
web_server *web_server_start(const web_server_config *config, char *err, size_t errsize);

/* The port actually listened on. */
int web_server_port(const web_server *server);

/* Stops accepting, finishes or drops the connections in progress, and frees everything. NULL is allowed. */
void web_server_stop(web_server *server);

#endif
