/* util/file_out.c - a certificate or a checkpoint written whole or not at all, a device or a pipe written into. */
#define _DEFAULT_SOURCE /* fileno, fchmod, fsync, realpath */
#include "util/file_out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The permission bits a replaced file passes on to the file replacing it. */
#define FILE_MODE_BITS 07777

const char *ttt_file_temp_name(const char *path, char *tmp)
{
    snprintf(tmp, TTT_FILE_TMP_SIZE, "%s.tmp.%ld", path, (long)getpid());
    return tmp;
}

/* Runs writer on f: NULL when it succeeds, else why it failed: the system's reason when f failed (the writers
 * say only "write error"), else the writer's message (in err). */
static const char *write_reason(FILE *f, ttt_file_writer writer, void *ctx, ttt_error *err)
{
    ttt_status st = writer(f, ctx, err);
    int e = errno; /* of the stdio call that failed: the writers stop at once */
    if (!st)
        return NULL;
    return st == TTT_EIO && ferror(f) ? strerror(e) : err->msg;
}

FILE *ttt_file_open_new(const char *tmp)
{
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = open(tmp, flags, 0666);
    if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
        fd = open(tmp, flags, 0666);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        const int e = errno;
        close(fd);
        unlink(tmp);
        errno = e;
    }
    return f;
}

bool ttt_file_replace(const char *path, const char *tmp, const char *shown, const char *what,
                      ttt_file_writer writer, void *ctx, char *msg, size_t size)
{
    FILE *f = ttt_file_open_new(tmp);
    if (!f) {
        snprintf(msg, size, "cannot write the %s %s: %s", what, tmp, strerror(errno));
        return false;
    }
    /* The file replaced keeps its permissions (a certificate made read-only for others stays so). */
    struct stat sb;
    const char *why =
        stat(path, &sb) == 0 && fchmod(fileno(f), sb.st_mode & FILE_MODE_BITS) != 0 ? strerror(errno) : NULL;
    ttt_error err;
    if (!why)
        why = write_reason(f, writer, ctx, &err);
    if (!why && (fflush(f) != 0 || fsync(fileno(f)) != 0))
        why = strerror(errno);
    if (fclose(f) != 0 && !why)
        why = strerror(errno);
    if (!why && rename(tmp, path) != 0)
        why = strerror(errno);
    if (why) {
        snprintf(msg, size, "cannot write the %s %s: %s", what, shown, why);
        remove(tmp);
        return false;
    }
    return true;
}

bool ttt_file_into(const char *path, FILE *std, const char *what, ttt_file_writer writer, void *ctx,
                   char *msg, size_t size)
{
    FILE *f = std ? std : fopen(path, "wb");
    if (!f) {
        snprintf(msg, size, "cannot write the %s %s: %s", what, path, strerror(errno));
        return false;
    }
    ttt_error err;
    const char *why = std && fflush(f) != 0 ? strerror(errno) : NULL;
    if (!why)
        why = write_reason(f, writer, ctx, &err);
    if (!why && fflush(f) != 0)
        why = strerror(errno);
    if (!std && fclose(f) != 0 && !why)
        why = strerror(errno);
    if (why)
        snprintf(msg, size, "cannot write the %s %s: %s", what, path, why);
    return !why;
}

void ttt_file_target(const char *path, FILE **std, bool *device, char *real)
{
    struct stat sb, st;
    *std = NULL;
    *device = false;
    snprintf(real, TTT_FILE_PATH_MAX, "%s", path);
    if (stat(path, &sb) != 0)
        return;
    FILE *const streams[] = {stdout, stderr};
    for (size_t i = 0; i < sizeof streams / sizeof streams[0]; i++)
        if (fstat(fileno(streams[i]), &st) == 0 && st.st_dev == sb.st_dev && st.st_ino == sb.st_ino) {
            *std = streams[i];
            return;
        }
    *device = !S_ISREG(sb.st_mode);
    char *resolved = *device ? NULL : realpath(path, NULL);
    if (resolved && strlen(resolved) < TTT_FILE_PATH_MAX)
        snprintf(real, TTT_FILE_PATH_MAX, "%s", resolved);
    free(resolved);
}

bool ttt_file_write(const char *path, const char *what, ttt_file_writer writer, void *ctx, char *tmp,
                    bool *whole, char *msg, size_t size)
{
    char real[TTT_FILE_PATH_MAX];
    FILE *std;
    bool device;
    ttt_file_target(path, &std, &device, real);
    *whole = !std && !device;
    tmp[0] = '\0';
    if (!*whole)
        return ttt_file_into(path, std, what, writer, ctx, msg, size);
    /* Named whole before tmp[0] is set: a signal handler removing tmp (ttt solve's) never sees half a name,
     * which could be path itself. */
    char name[TTT_FILE_TMP_SIZE];
    ttt_file_temp_name(real, name);
    memcpy(tmp + 1, name + 1, strlen(name));
    atomic_signal_fence(memory_order_seq_cst);
    tmp[0] = name[0];
    return ttt_file_replace(real, tmp, path, what, writer, ctx, msg, size);
}

bool ttt_file_probe(const char *path, const char *what, char *msg, size_t size)
{
    FILE *std;
    bool device;
    char real[TTT_FILE_PATH_MAX], tmp[TTT_FILE_TMP_SIZE];
    ttt_file_target(path, &std, &device, real);
    struct stat sb;
    bool exists = stat(path, &sb) == 0;
    int e = exists && S_ISDIR(sb.st_mode) ? EISDIR : exists && access(path, W_OK) != 0 ? errno : 0;
    if (!e && !std && !device) {
        FILE *f = ttt_file_open_new(ttt_file_temp_name(real, tmp));
        if (f) {
            fclose(f);
            remove(tmp);
        } else
            e = errno;
    }
    if (e)
        snprintf(msg, size, "cannot write the %s %s: %s", what, path, strerror(e));
    return !e;
}
