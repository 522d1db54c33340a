/* web/server.c - the libmicrohttpd daemon of `ttt serve` (web/server.h). */
#include "web/server.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "web/assets.h"

#define JSON_TYPE "application/json; charset=utf-8"
/* The page loads nothing from elsewhere: scripts, styles and requests all go to this server. */
#define PAGE_CSP "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"

struct web_server {
    struct MHD_Daemon *daemon;
    web_api *api;
    int port;
};

/* One request's body as it arrives. */
typedef struct request {
    char *body;
    size_t len;
    bool too_big; /* more than WEB_MAX_BODY bytes: answered 413, the rest discarded */
} request;

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *type, char *text,
                                 const char *allow)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(text);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    if (allow)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
    enum MHD_Result ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *msg,
                                  const char *allow)
{
    return send_text(c, status, JSON_TYPE, web_api_error_json(msg), allow);
}

static enum MHD_Result send_asset(struct MHD_Connection *c, const char *url, const char *method)
{
    if (strcmp(url, "/") == 0)
        url = "/index.html";
    for (int i = 0; i < web_asset_count; i++) {
        const web_asset *a = &web_assets[i];
        if (strcmp(a->path, url) != 0)
            continue;
        if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
            return send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed here (use GET)",
                              "GET, HEAD");
        struct MHD_Response *r =
            MHD_create_response_from_buffer(a->size, (void *)(uintptr_t)a->data, MHD_RESPMEM_PERSISTENT);
        if (!r)
            return MHD_NO;
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, a->mime);
        MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
        MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
        MHD_add_response_header(r, "Content-Security-Policy", PAGE_CSP);
        enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
        MHD_destroy_response(r);
        return ret;
    }
    return send_error(c, MHD_HTTP_NOT_FOUND, "not found", NULL);
}

/* libmicrohttpd calls this once when the headers are in, once per piece of body, and once at the end. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_size,
                                  void **con_cls)
{
    (void)version;
    web_server *s = cls;
    request *rq = *con_cls;
    if (!rq) {
        if (!(rq = calloc(1, sizeof *rq)))
            return MHD_NO;
        *con_cls = rq;
        const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (length && strtoull(length, NULL, 10) > WEB_MAX_BODY) {
            rq->too_big =
                true; /* answered before reading the body; libmicrohttpd then closes the connection */
            char msg[64];
            snprintf(msg, sizeof msg, "request body larger than %d bytes", WEB_MAX_BODY);
            return send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, msg, NULL);
        }
        return MHD_YES;
    }
    if (*upload_size) {
        if (!rq->too_big && rq->len + *upload_size > WEB_MAX_BODY) {
            rq->too_big = true;
            free(rq->body);
            rq->body = NULL;
        }
        if (!rq->too_big) {
            char *grown = realloc(rq->body, rq->len + *upload_size + 1);
            if (!grown)
                return MHD_NO;
            memcpy(grown + rq->len, upload_data, *upload_size);
            rq->body = grown;
            rq->len += *upload_size;
        }
        *upload_size = 0;
        return MHD_YES;
    }
    if (rq->too_big) {
        char msg[64];
        snprintf(msg, sizeof msg, "request body larger than %d bytes", WEB_MAX_BODY);
        return send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, msg, NULL);
    }
    if (strncmp(url, "/api/", 5) != 0)
        return send_asset(c, url, method);
    /* The client's numeric address, for the API's per-address game cap. */
    char client[WEB_CLIENT_SIZE] = "unknown";
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = ci ? ci->client_addr : NULL;
    if (sa && sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, client, sizeof client);
    else if (sa && sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, client,
                  sizeof client);
    char *json;
    const char *allow;
    int status = web_api_handle_client(s->api, client, method, url, rq->body, rq->len, &json, &allow);
    return send_text(c, (unsigned)status, JSON_TYPE, json, allow);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls, (void)c, (void)toe;
    request *rq = *con_cls;
    if (rq) {
        free(rq->body);
        free(rq);
        *con_cls = NULL;
    }
}

web_server *web_server_start(const web_server_config *config, char *err, size_t errsize)
{
    struct sockaddr_storage addr = {0};
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION;
    struct sockaddr_in *v4 = (struct sockaddr_in *)&addr;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&addr;
    if (inet_pton(AF_INET, config->host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)config->port);
    } else if (inet_pton(AF_INET6, config->host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)config->port);
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(err, errsize, "--host '%s': expected a numeric IPv4 or IPv6 address", config->host);
        return NULL;
    }
    web_server *s = calloc(1, sizeof *s);
    if (!s || !(s->api = web_api_new(&config->api))) {
        free(s);
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    s->daemon =
        MHD_start_daemon(flags, (uint16_t)config->port, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR,
                         (struct sockaddr *)&addr, MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
                         MHD_OPTION_CONNECTION_LIMIT, (unsigned)WEB_MAX_CONNECTIONS,
                         MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)WEB_CONNECTION_TIMEOUT_S, MHD_OPTION_END);
    if (!s->daemon) {
        snprintf(err, errsize, "cannot listen on %s port %d (address in use, or not this machine's?)",
                 config->host, config->port);
        web_api_free(s->api);
        free(s);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : config->port;
    return s;
}

int web_server_port(const web_server *server) { return server->port; }

void web_server_stop(web_server *server)
{
    if (!server)
        return;
    MHD_stop_daemon(server->daemon);
    web_api_free(server->api);
    free(server);
}
