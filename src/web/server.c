/* web/server.c - the libmicrohttpd daemon of `ttt serve` (web/server.h). */
#define _GNU_SOURCE /* strcasecmp */
#include "web/server.h"

#include <arpa/inet.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include "web/assets.h"

#define JSON_TYPE "application/json; charset=utf-8"
/* The page loads nothing from elsewhere: scripts, styles and requests all go to this server. */
#define PAGE_CSP    "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"
#define CLIENT_SIZE WEB_CLIENT_SIZE /* a client as text: an address, or an IPv6 /64 */

/* One open connection, for the request deadline. Linked in web_server.conns from libmicrohttpd's "started"
 * notification to its "closed" one, which comes before the socket is closed: the reaper shuts down fd only
 * under conns_lock while the connection is in the list, so it never touches a reused descriptor. */
typedef struct web_conn {
    struct web_conn *prev, *next;
    int fd;
    struct timespec since;   /* the current request's deadline runs from here (opening, or the last answer) */
    bool answering;          /* the request is in and being answered: no deadline */
    char group[CLIENT_SIZE]; /* its client (client_group), for max_per_address */
    bool shut;               /* shut down by the reaper; libmicrohttpd closes it next */
} web_conn;

/* One request: its body as it arrives, then its answer from an API worker. */
typedef struct request {
    char *body;
    size_t len;
    bool too_big; /* more than WEB_MAX_BODY bytes: answered 413, the rest discarded */
    struct MHD_Connection *connection;
    const char *method, *url; /* libmicrohttpd's, valid until the request completes */
    char client[CLIENT_SIZE];
    bool engine;                       /* the request may wait for an engine (web_api_needs_engine) */
    struct request *next;              /* in its queue for the workers */
    struct request *in_prev, *in_next; /* in web_server.in_flight */
    bool answered; /* set by a worker with status, json and allow, before it resumes the connection */
    int status;
    char *json;
    const char *allow;
    int retry_after_s; /* > 0: a Retry-After header */
} request;

/* Requests waiting for a worker, first come first served. */
typedef struct job_queue {
    request *head, *tail;
} job_queue;

struct web_server {
    struct MHD_Daemon *daemon;
    web_api *api;
    int port;
    char address[INET6_ADDRSTRLEN]; /* the numeric address listened on */
    char host[WEB_HOST_SIZE];       /* --host as given */

    pthread_mutex_t conns_lock; /* conns, every web_conn's fields, stopping */
    pthread_cond_t reaper_wake;
    web_conn *conns;
    bool stopping;
    unsigned max_per_address; /* open connections per client (client_group); 0: no limit */
    bool reaper_started;
    pthread_t reaper;

    pthread_mutex_t jobs_lock; /* the queues, queued, engine_jobs, in_flight, closed */
    pthread_cond_t jobs_ready;
    job_queue cheap;    /* requests that need no engine: taken first */
    job_queue engine;   /* requests that may wait for an engine: taken by at most WEB_API_ENGINE_WORKERS */
    int queued;         /* in both queues */
    int engine_jobs;    /* engine requests being answered */
    request *in_flight; /* queued or being answered by a worker */
    unsigned jobs_per_address; /* at most this many of them per client address; 0: no limit */
    bool closed;               /* stopping: queued requests get 503, new ones are not queued */
    int workers_started;
    pthread_t workers[WEB_API_WORKERS];
};

/* --- Answers -------------------------------------------------------------------------------------------- */

/* Queues text (malloc'd, taken) as the answer. close: the connection is closed after it (an answer given
 * before the body was read); retry_after_s > 0: a Retry-After header. */
static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *type, char *text,
                                 const char *allow, bool close, int retry_after_s)
{
    if (!text)
        return MHD_NO;
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
    if (close)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    if (retry_after_s > 0) {
        char seconds[16];
        snprintf(seconds, sizeof seconds, "%d", retry_after_s);
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, seconds);
    }
    enum MHD_Result ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *msg,
                                  const char *allow, bool close)
{
    return send_text(c, status, JSON_TYPE, web_api_error_json(msg), allow, close, 0);
}

/* A refusal that says when to retry: the Retry-After header and "retry_after" in the JSON, as the API's. */
static enum MHD_Result send_retry(struct MHD_Connection *c, unsigned status, const char *msg,
                                  int retry_after_s)
{
    char *error = web_api_error_json(msg), *text = NULL; /* {"error":"..."}: the field goes before its '}' */
    size_t len = error ? strlen(error) : 0;
    if (len && error[len - 1] == '}' &&
        asprintf(&text, "%.*s,\"retry_after\":%d}", (int)len - 1, error, retry_after_s) < 0)
        text = NULL;
    if (text)
        free(error);
    return send_text(c, status, JSON_TYPE, text ? text : error, NULL, false, retry_after_s);
}

static enum MHD_Result send_too_big(struct MHD_Connection *c, bool close)
{
    char msg[64];
    snprintf(msg, sizeof msg, "request body larger than %d bytes", WEB_MAX_BODY);
    return send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, msg, NULL, close);
}

static enum MHD_Result send_asset(struct MHD_Connection *c, const char *url, const char *method)
{
    if (strcmp(url, "/") == 0)
        url = "/index.html";
    else if (strcmp(url, "/favicon.ico") == 0) /* browsers ask for it whatever the page links */
        url = "/favicon.svg";
    for (int i = 0; i < web_asset_count; i++) {
        const web_asset *a = &web_assets[i];
        if (strcmp(a->path, url) != 0)
            continue;
        if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
            return send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed here (use GET)",
                              "GET, HEAD", false);
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
    return send_error(c, MHD_HTTP_NOT_FOUND, "not found", NULL, false);
}

/* --- Connections and the request deadline --------------------------------------------------------------- */

static double seconds_since(const struct timespec *t, const struct timespec *now)
{
    return (double)(now->tv_sec - t->tv_sec) + (double)(now->tv_nsec - t->tv_nsec) / 1e9;
}

static web_conn *conn_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* answering: the request is in (its deadline stops); else the next request's deadline starts now. */
static void conn_set_answering(web_server *s, struct MHD_Connection *c, bool answering)
{
    web_conn *wc = conn_of(c);
    if (!wc)
        return;
    pthread_mutex_lock(&s->conns_lock);
    wc->answering = answering;
    if (!answering)
        clock_gettime(CLOCK_MONOTONIC, &wc->since);
    pthread_mutex_unlock(&s->conns_lock);
}

/* The client every per-address limit counts c as (web_client_group: "127.0.0.1", "2001:db8:1:2::/64") into
 * out (WEB_CLIENT_SIZE bytes), or "" when unknown. */
static void client_group(struct MHD_Connection *c, char *out)
{
    out[0] = '\0';
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr)
        return;
    char text[INET6_ADDRSTRLEN];
    const struct sockaddr *sa = info->client_addr;
    const void *addr = sa->sa_family == AF_INET6 ? (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr
                       : sa->sa_family == AF_INET ? (const void *)&((const struct sockaddr_in *)sa)->sin_addr
                                                  : NULL;
    if (addr && inet_ntop(sa->sa_family, addr, text, sizeof text))
        web_client_group(text, out, WEB_CLIENT_SIZE);
}

/* Open connections of group (under conns_lock). */
static unsigned conns_of(const web_server *s, const char *group)
{
    unsigned n = 0;
    for (const web_conn *wc = s->conns; wc; wc = wc->next)
        n += strcmp(wc->group, group) == 0;
    return n;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe)
{
    web_server *s = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        web_conn *wc = calloc(1, sizeof *wc);
        if (!wc || !info) {
            free(wc); /* not tracked, so not bounded: refused instead */
            if (info)
                shutdown(info->connect_fd, SHUT_RDWR);
            return;
        }
        wc->fd = info->connect_fd;
        clock_gettime(CLOCK_MONOTONIC, &wc->since);
        client_group(c, wc->group);
        pthread_mutex_lock(&s->conns_lock);
        /* libmicrohttpd counts single addresses; an IPv6 client holds a whole /64 of them. */
        if (s->max_per_address && wc->group[0] && conns_of(s, wc->group) >= s->max_per_address) {
            pthread_mutex_unlock(&s->conns_lock);
            shutdown(wc->fd, SHUT_RDWR);
            free(wc);
            return;
        }
        wc->next = s->conns;
        if (s->conns)
            s->conns->prev = wc;
        s->conns = wc;
        pthread_mutex_unlock(&s->conns_lock);
        *socket_context = wc;
        return;
    }
    web_conn *wc = *socket_context;
    if (!wc)
        return;
    pthread_mutex_lock(&s->conns_lock);
    if (wc->prev)
        wc->prev->next = wc->next;
    else
        s->conns = wc->next;
    if (wc->next)
        wc->next->prev = wc->prev;
    pthread_mutex_unlock(&s->conns_lock);
    free(wc);
    *socket_context = NULL;
}

/* Every WEB_REAP_INTERVAL_MS: shuts down each connection whose request is not in by its deadline. The
 * polling thread then sees the connection end and closes it (shutdown, never close: the descriptor stays
 * libmicrohttpd's). */
static void *reaper_main(void *arg)
{
    web_server *s = arg;
    pthread_mutex_lock(&s->conns_lock);
    while (!s->stopping) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        for (web_conn *wc = s->conns; wc; wc = wc->next) {
            if (!wc->answering && !wc->shut && seconds_since(&wc->since, &now) >= WEB_REQUEST_DEADLINE_S) {
                shutdown(wc->fd, SHUT_RDWR);
                wc->shut = true;
            }
        }
        struct timespec wake = now;
        wake.tv_nsec += (long)WEB_REAP_INTERVAL_MS * 1000000L;
        wake.tv_sec += wake.tv_nsec / 1000000000L;
        wake.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&s->reaper_wake, &s->conns_lock, &wake);
    }
    pthread_mutex_unlock(&s->conns_lock);
    return NULL;
}

/* --- API workers ---------------------------------------------------------------------------------------- */

static void queue_push(job_queue *q, request *rq)
{
    rq->next = NULL;
    if (q->tail)
        q->tail->next = rq;
    else
        q->head = rq;
    q->tail = rq;
}

static request *queue_pop(job_queue *q)
{
    request *rq = q->head;
    if (rq && !(q->head = rq->next))
        q->tail = NULL;
    return rq;
}

/* Under jobs_lock: the next request a free worker answers, or NULL to wait: one that needs no engine first;
 * one that may wait for an engine only while fewer than WEB_API_ENGINE_WORKERS workers answer those, so that
 * the others are always free for the rest (reading a game, /api/engines). Stopping, every one (each gets
 * 503 at once). */
static request *next_job(web_server *s)
{
    request *rq = queue_pop(&s->cheap);
    if (!rq && (s->engine_jobs < WEB_API_ENGINE_WORKERS || s->closed) && (rq = queue_pop(&s->engine)))
        s->engine_jobs++;
    s->queued -= rq != NULL;
    return rq;
}

static void *worker_main(void *arg)
{
    web_server *s = arg;
    pthread_mutex_lock(&s->jobs_lock);
    for (;;) {
        request *rq;
        while (!(rq = next_job(s)) && !(s->closed && !s->queued))
            pthread_cond_wait(&s->jobs_ready, &s->jobs_lock);
        if (!rq)
            break; /* closed, and nothing left */
        bool closed = s->closed, engine = rq->engine;
        pthread_mutex_unlock(&s->jobs_lock);
        if (closed) {
            rq->status = MHD_HTTP_SERVICE_UNAVAILABLE;
            rq->json = web_api_error_json("the server is stopping");
            rq->allow = NULL;
        } else {
            rq->status = web_api_handle_client(s->api, rq->client[0] ? rq->client : NULL, rq->method, rq->url,
                                               rq->body, rq->len, &rq->json, &rq->allow, &rq->retry_after_s);
        }
        rq->answered = true;
        pthread_mutex_lock(&s->jobs_lock);
        if (engine) { /* a worker waiting for an engine request may take one now */
            s->engine_jobs--;
            pthread_cond_broadcast(&s->jobs_ready);
        }
        if (rq->in_prev)
            rq->in_prev->in_next = rq->in_next;
        else
            s->in_flight = rq->in_next;
        if (rq->in_next)
            rq->in_next->in_prev = rq->in_prev;
        pthread_mutex_unlock(&s->jobs_lock);
        /* The polling thread sends the answer (on_request again); rq may be freed from here on. */
        MHD_resume_connection(rq->connection);
        pthread_mutex_lock(&s->jobs_lock);
    }
    pthread_mutex_unlock(&s->jobs_lock);
    return NULL;
}

/* Requests from client in flight (under jobs_lock). */
static unsigned jobs_of(const web_server *s, const char *client)
{
    unsigned n = 0;
    for (const request *r = s->in_flight; r; r = r->in_next)
        n += strcmp(r->client, client) == 0;
    return n;
}

/* Hands rq to the workers and suspends its connection until one has answered; 503 when too many wait, 429
 * when its client already has jobs_per_address requests in flight (so that one client cannot keep every
 * worker waiting for engines). */
static enum MHD_Result dispatch(web_server *s, struct MHD_Connection *c, request *rq)
{
    pthread_mutex_lock(&s->jobs_lock);
    if (s->closed || s->queued >= WEB_API_QUEUE) {
        bool closed = s->closed;
        pthread_mutex_unlock(&s->jobs_lock);
        if (closed)
            return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the server is stopping", NULL, false);
        char msg[96];
        snprintf(msg, sizeof msg, "too many requests waiting (%d): retry in %d s", WEB_API_QUEUE,
                 WEB_QUEUE_RETRY_S);
        return send_retry(c, MHD_HTTP_SERVICE_UNAVAILABLE, msg, WEB_QUEUE_RETRY_S);
    }
    if (s->jobs_per_address && jobs_of(s, rq->client) >= s->jobs_per_address) {
        pthread_mutex_unlock(&s->jobs_lock);
        char msg[160];
        snprintf(msg, sizeof msg,
                 "too many requests at once from %s (%u): retry in %d s, once one is answered", rq->client,
                 s->jobs_per_address, WEB_JOBS_RETRY_S);
        return send_retry(c, MHD_HTTP_TOO_MANY_REQUESTS, msg, WEB_JOBS_RETRY_S);
    }
    rq->in_prev = NULL;
    rq->in_next = s->in_flight;
    if (s->in_flight)
        s->in_flight->in_prev = rq;
    s->in_flight = rq;
    MHD_suspend_connection(c);
    rq->connection = c;
    rq->engine = web_api_needs_engine(rq->method, rq->url);
    queue_push(rq->engine ? &s->engine : &s->cheap, rq);
    s->queued++;
    pthread_cond_signal(&s->jobs_ready);
    pthread_mutex_unlock(&s->jobs_lock);
    return MHD_YES;
}

/* --- Requests ------------------------------------------------------------------------------------------- */

static enum MHD_Result count_lengths(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind, (void)value;
    *(int *)cls += strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0;
    return MHD_YES;
}

/* Whether name (a Host header's name, IPv6 literals in brackets) is one this server answers to: the loopback
 * names, --host and the address listened on; when that is a wildcard (0.0.0.0, ::), any numeric address too
 * (a DNS rebinding attack needs a name of the attacker's). */
static bool host_name_ok(const web_server *s, const char *name, size_t len)
{
    const char *names[] = {"127.0.0.1", "localhost", "::1", s->host, s->address};
    char bare[WEB_HOST_SIZE];
    if (len >= 2 && name[0] == '[' && name[len - 1] == ']')
        name++, len -= 2;
    if (len == 0 || len >= sizeof bare)
        return false;
    memcpy(bare, name, len);
    bare[len] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcasecmp(bare, names[i]) == 0)
            return true;
    unsigned char any[sizeof(struct in6_addr)];
    bool wildcard = strcmp(s->address, "0.0.0.0") == 0 || strcmp(s->address, "::") == 0;
    return wildcard && (inet_pton(AF_INET, bare, any) == 1 || inet_pton(AF_INET6, bare, any) == 1);
}

/* Whether a Host header ("localhost:8080", "[::1]:8080") names this server and its port (no port: 80). */
static bool host_ok(const web_server *s, const char *host)
{
    const char *end = host + strlen(host), *colon = strrchr(host, ':');
    if (colon && (host[0] != '[' || colon > strchr(host, ']'))) { /* a port, not a colon of an IPv6 literal */
        char *stop;
        long port = strtol(colon + 1, &stop, 10);
        return colon[1] && !*stop && port == s->port && host_name_ok(s, host, (size_t)(colon - host));
    }
    return s->port == WEB_HTTP_DEFAULT_PORT && host_name_ok(s, host, (size_t)(end - host));
}

/* Whether a Content-Type header says JSON ("application/json", with parameters or not). */
static bool json_type(const char *type)
{
    static const char json[] = "application/json";
    while (*type == ' ' || *type == '\t')
        type++;
    if (strncasecmp(type, json, sizeof json - 1) != 0)
        return false;
    type += sizeof json - 1;
    while (*type == ' ' || *type == '\t')
        type++;
    return !*type || *type == ';';
}

/* What a web page of another site could send through a visitor's browser: a Host that is not this server's
 * (DNS rebinding: 421), a write from another origin (403), a body that is not declared JSON (415: a plain
 * form or a text/plain request needs no preflight). NULL when the request may go on, else the error's
 * message into msg and its status into *status. */
static const char *check_site(const web_server *s, struct MHD_Connection *c, const char *method,
                              const char *url, char *msg, size_t size, unsigned *status)
{
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (host && !host_ok(s, host)) { /* HTTP/1.0 may leave it out; a browser never does */
        *status = MHD_HTTP_MISDIRECTED_REQUEST;
        snprintf(msg, size,
                 "Host '%.60s' is not this server's: use http://127.0.0.1:%d/ or http://localhost:%d/", host,
                 s->port, s->port);
        return msg;
    }
    if (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0)
        return NULL;
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ORIGIN);
    static const char scheme[] = "http://";
    if (origin && !(host && strncasecmp(origin, scheme, sizeof scheme - 1) == 0 &&
                    strcasecmp(origin + sizeof scheme - 1, host) == 0)) {
        *status = MHD_HTTP_FORBIDDEN;
        snprintf(msg, size, "cross-origin request refused: Origin '%.60s' is not this server", origin);
        return msg;
    }
    const char *type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    bool body = type || (length && strtoull(length, NULL, 10) > 0);
    if (strcmp(method, "POST") == 0 && strncmp(url, "/api/", 5) == 0 && body && !(type && json_type(type))) {
        *status = MHD_HTTP_UNSUPPORTED_MEDIA_TYPE;
        snprintf(msg, size, "Content-Type '%.40s' refused: send JSON with 'Content-Type: application/json'",
                 type ? type : "none");
        return msg;
    }
    return NULL;
}

/* The head is in: answers now, before any body is read, what the head alone shows is wrong. Returns MHD_YES
 * with nothing queued when the request may go on. */
static enum MHD_Result check_head(web_server *s, struct MHD_Connection *c, request *rq, const char *method,
                                  const char *url)
{
    const char *coding = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
    const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    int lengths = 0;
    MHD_get_connection_values(c, MHD_HEADER_KIND, count_lengths, &lengths);
    char site[160];
    unsigned site_status = 0;
    const char *refused = check_site(s, c, method, url, site, sizeof site, &site_status);
    if (!coding && lengths <= 1 && !(length && strtoull(length, NULL, 10) > WEB_MAX_BODY) && !refused)
        return MHD_YES;
    conn_set_answering(s, c, true);
    if (!coding && lengths <= 1 && refused) /* framing first: it decides where the next request starts */
        return send_error(c, site_status, refused, NULL, true);
    /* libmicrohttpd reads the first of several lengths; another reader could take another (smuggling). */
    if (lengths > 1)
        return send_error(c, MHD_HTTP_BAD_REQUEST, "several Content-Length headers", NULL, true);
    if (!coding) {
        rq->too_big = true;
        return send_too_big(c, true);
    }
    /* libmicrohttpd waits for a body of unknown length until the connection ends when the coding is not
     * chunked, and a chunk may announce up to 2^64 - 1 bytes: a body must come with its length instead. */
    char msg[128];
    bool chunked = strcasecmp(coding, "chunked") == 0;
    snprintf(msg, sizeof msg,
             "Transfer-Encoding '%.40s' is not accepted: send the body with a Content-Length", coding);
    return send_error(c, chunked ? MHD_HTTP_LENGTH_REQUIRED : MHD_HTTP_BAD_REQUEST, msg, NULL, true);
}

/* libmicrohttpd calls this once when the head is in, once per piece of body, once at the end, and once more
 * after an API worker resumed the connection. */
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
        return check_head(s, c, rq, method, url);
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
    if (rq->answered) {
        char *json = rq->json;
        rq->json = NULL;
        return send_text(c, (unsigned)rq->status, JSON_TYPE, json, rq->allow, false, rq->retry_after_s);
    }
    conn_set_answering(s, c, true);
    if (rq->too_big)
        return send_too_big(c, false);
    if (strncmp(url, "/api/", 5) != 0)
        return send_asset(c, url, method);
    client_group(c, rq->client); /* for the per-address limits here and in the API */
    rq->method = method;
    rq->url = url;
    return dispatch(s, c, rq);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)toe;
    conn_set_answering(cls, c, false);
    request *rq = *con_cls;
    if (rq) {
        free(rq->body);
        free(rq->json);
        free(rq);
        *con_cls = NULL;
    }
}

/* --- The server ----------------------------------------------------------------------------------------- */

/* Ends the workers (after they answered what was queued, 503) and the reaper. */
static void stop_threads(web_server *s)
{
    pthread_mutex_lock(&s->jobs_lock);
    s->closed = true;
    pthread_cond_broadcast(&s->jobs_ready);
    pthread_mutex_unlock(&s->jobs_lock);
    for (int i = 0; i < s->workers_started; i++)
        pthread_join(s->workers[i], NULL);
    s->workers_started = 0;
    pthread_mutex_lock(&s->conns_lock);
    s->stopping = true;
    pthread_cond_signal(&s->reaper_wake);
    pthread_mutex_unlock(&s->conns_lock);
    if (s->reaper_started)
        pthread_join(s->reaper, NULL);
    s->reaper_started = false;
}

static void free_server(web_server *s)
{
    pthread_mutex_destroy(&s->conns_lock);
    pthread_cond_destroy(&s->reaper_wake);
    pthread_mutex_destroy(&s->jobs_lock);
    pthread_cond_destroy(&s->jobs_ready);
    web_api_free(s->api);
    free(s);
}

/* The server's state and threads, without the daemon; NULL when out of memory or threads. */
static web_server *new_server(const web_server_config *config)
{
    web_server *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    pthread_condattr_t monotonic;
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_mutex_init(&s->conns_lock, NULL);
    pthread_cond_init(&s->reaper_wake, &monotonic);
    pthread_condattr_destroy(&monotonic);
    pthread_mutex_init(&s->jobs_lock, NULL);
    pthread_cond_init(&s->jobs_ready, NULL);
    s->jobs_per_address = config->max_per_address ? WEB_API_JOBS_PER_ADDRESS : 0;
    s->max_per_address = config->max_per_address;
    bool ok = (s->api = web_api_new(&config->api)) != NULL;
    ok = ok && pthread_create(&s->reaper, NULL, reaper_main, s) == 0;
    s->reaper_started = ok;
    while (ok && s->workers_started < WEB_API_WORKERS) {
        ok = pthread_create(&s->workers[s->workers_started], NULL, worker_main, s) == 0;
        s->workers_started += ok;
    }
    if (!ok) {
        stop_threads(s);
        free_server(s);
        return NULL;
    }
    return s;
}

struct addrinfo *web_host_resolve(const char *host, char *err, size_t errsize)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    struct addrinfo *list = NULL;
    int rc = getaddrinfo(host, NULL, &hints, &list);
    if (rc == 0 && list)
        return list;
    snprintf(err, errsize,
             "--host '%s': %s (expected an address such as 127.0.0.1 or ::1, or a name such as "
             "localhost)",
             host, rc == 0 ? "no address" : gai_strerror(rc));
    if (list)
        freeaddrinfo(list);
    return NULL;
}

/* Starts the daemon on one resolved address; false when it cannot listen there. */
static bool listen_on(web_server *s, const web_server_config *config, const struct addrinfo *ai)
{
    struct sockaddr_storage addr = {0};
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME;
    if (ai->ai_family == AF_INET) {
        struct sockaddr_in *v4 = (struct sockaddr_in *)&addr;
        memcpy(v4, ai->ai_addr, sizeof *v4);
        v4->sin_port = htons((uint16_t)config->port);
        inet_ntop(AF_INET, &v4->sin_addr, s->address, sizeof s->address);
    } else if (ai->ai_family == AF_INET6) {
        struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&addr;
        memcpy(v6, ai->ai_addr, sizeof *v6);
        v6->sin6_port = htons((uint16_t)config->port);
        inet_ntop(AF_INET6, &v6->sin6_addr, s->address, sizeof s->address);
        flags |= MHD_USE_IPv6;
    } else
        return false;
    s->daemon =
        MHD_start_daemon(flags, (uint16_t)config->port, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR,
                         (struct sockaddr *)&addr, MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
                         MHD_OPTION_NOTIFY_CONNECTION, on_connection, s, MHD_OPTION_THREAD_POOL_SIZE,
                         (unsigned)WEB_POLL_THREADS, MHD_OPTION_CONNECTION_LIMIT, config->max_connections,
                         MHD_OPTION_PER_IP_CONNECTION_LIMIT, config->max_per_address,
                         MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)WEB_CONNECTION_TIMEOUT_S, MHD_OPTION_END);
    return s->daemon != NULL;
}

web_server *web_server_start(const web_server_config *config, char *err, size_t errsize)
{
    struct addrinfo *list = web_host_resolve(config->host, err, errsize);
    if (!list)
        return NULL;
    /* A fixed threshold (malloc raises its own up to 32 MiB, and keeps freed tables in its heaps). */
    mallopt(M_MMAP_THRESHOLD, WEB_MMAP_BYTES);
    web_server *s = new_server(config);
    if (s)
        snprintf(s->host, sizeof s->host, "%s", config->host);
    if (!s) {
        freeaddrinfo(list);
        snprintf(err, errsize, "out of memory or threads");
        return NULL;
    }
    /* The first of the host's addresses that can be listened on (localhost may name ::1 where IPv6 is off).
     */
    for (const struct addrinfo *ai = list; ai && !s->daemon; ai = ai->ai_next)
        listen_on(s, config, ai);
    freeaddrinfo(list);
    if (!s->daemon) {
        snprintf(err, errsize, "cannot listen on %s port %d (address in use, or not this machine's?)",
                 config->host, config->port);
        stop_threads(s);
        free_server(s);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : config->port;
    return s;
}

const char *web_server_address(const web_server *server) { return server->address; }

int web_server_port(const web_server *server) { return server->port; }

void web_server_stop(web_server *server)
{
    if (!server)
        return;
    /* The workers first: each suspended connection is resumed with its answer (libmicrohttpd must not be
     * stopped with a connection suspended); requests coming in meanwhile get 503 at once. */
    stop_threads(server);
    MHD_stop_daemon(server->daemon);
    free_server(server);
}
