/* util/file_out.h - writing a file the user named (a certificate, a checkpoint) so that a failure never costs
 * what was there: a regular file is replaced whole or left as it was, a device or a pipe is written into and
 * never removed (internal; `ttt solve` and its --mpi master use it). */
#ifndef TTT_UTIL_FILE_OUT_H
#define TTT_UTIL_FILE_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ttt/common.h"

/* The longest path written (its temporary file's name is longer). */
#define TTT_FILE_PATH_MAX 4096
/* The size of a temporary file's name (ttt_file_temp_name). */
#define TTT_FILE_TMP_SIZE (TTT_FILE_PATH_MAX + 32)

/* What a file holds: writes it to f, TTT_OK, or a status with err filled. A writer that stops on a failed
 * stdio call returns TTT_EIO at once, so that errno still says why. */
typedef ttt_status (*ttt_file_writer)(FILE *f, void *ctx, ttt_error *err);

/* The temporary file this process replaces `path` from: "PATH.tmp.PID", so that two runs writing the same
 * file never write into each other's. Fills tmp (TTT_FILE_TMP_SIZE bytes) and returns it. */
const char *ttt_file_temp_name(const char *path, char *tmp);

/* Opens the temporary file tmp for writing as a new file of this run: never through a symbolic link, never into
 * a file another made there (a link planted at a predictable name would have its target written); a leftover
 * there (an earlier run's crash) is removed and the file made again, once. NULL with errno set on failure. */
FILE *ttt_file_open_new(const char *tmp);

/* Writes `what` (a checkpoint, a certificate) to path through tmp, a file beside it: written, flushed, synced
 * to the disk and renamed over path, so that a failure or a kill at any moment leaves the old file or the new
 * one whole; the file replaced keeps its permissions. On failure only tmp, which this call made, is removed,
 * and msg (size bytes) holds one line "cannot write the WHAT SHOWN: reason" (the system's reason when a system
 * call failed). */
bool ttt_file_replace(const char *path, const char *tmp, const char *shown, const char *what,
                      ttt_file_writer writer, void *ctx, char *msg, size_t size);

/* Writes `what` straight into a file that is not replaced whole: std (this process's stdout or stderr, after
 * what is there) when not NULL, else path opened for writing (a device, a pipe). Never removes it. Fills msg
 * as ttt_file_replace does. */
bool ttt_file_into(const char *path, FILE *std, const char *what, ttt_file_writer writer, void *ctx,
                   char *msg, size_t size);

/* Where a file written at path goes. *std: this process's stdout or stderr when path names it (/dev/stdout
 * redirected to a file: reopening it would write over what the process prints there), to be written through
 * it; else *device: a file there that is not regular (a device, a pipe), written straight into; else a regular
 * file or none yet, replaced whole, through `real` (TTT_FILE_PATH_MAX bytes): the file a symbolic link names,
 * so that the link stays. */
void ttt_file_target(const char *path, FILE **std, bool *device, char *real);

/* Writes `what` to path where ttt_file_target says: into it (ttt_file_into) or replacing it whole
 * (ttt_file_replace, through the temporary file named into tmp, TTT_FILE_TMP_SIZE bytes, before it is made,
 * its first byte last, so that a signal handler may remove a non-empty tmp; "" when the file is written into). *whole: whether it was to be replaced whole (on failure: the old file is
 * as it was; else what was written into it is incomplete). Fills msg as ttt_file_replace does, naming path. */
bool ttt_file_write(const char *path, const char *what, ttt_file_writer writer, void *ctx, char *tmp,
                    bool *whole, char *msg, size_t size);

/* Whether `what` could be written at path by ttt_file_write, checked before the work that makes it, changing
 * nothing: a regular file (or none) needs its temporary file beside it (made and removed again) and, when it
 * exists, the right to write it; another file (a device, a pipe) is only checked for that right, since opening
 * a pipe would wait for a reader. A directory is refused. On false msg holds one line, as above. */
bool ttt_file_probe(const char *path, const char *what, char *msg, size_t size);

#endif
