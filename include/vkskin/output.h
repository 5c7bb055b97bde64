/* vkskin output files: how every file vkskin writes reaches its target without destroying
 * anything on the way (bake writers, the generator, later reports).
 *
 * STEP BY STEP
 *   vks_output_check("out.raw", expected_bytes, &err);     // optional, before long work
 *   vks_output *o; vks_output_open(&o, "out.raw", &err);
 *   fwrite(..., vks_output_stream(o));
 *   vks_output_close(o, 1, &err);   // 1: make it appear; 0: discard what was written
 *
 * What is written how
 *   - "-" is standard output, streamed.
 *   - A character device or a FIFO (/dev/null, /dev/full, mkfifo) is opened and streamed into:
 *     it is never replaced by a regular file.
 *   - A symlink is followed (to its final target, even one that does not exist yet) and the
 *     target is written as below; the link itself stays.
 *   - A regular file, or a path that does not exist yet, is written to "<target>.tmp.<pid>"
 *     beside it and renamed over it when complete, so the target holds the old content or the
 *     new, never half of either. A replaced file keeps its permission bits.
 *   - Refused: a directory, a block device, a socket, a folder that does not exist or cannot
 *     be written, and an existing file without write permission (mode bits with no w for the
 *     caller, or one the caller cannot open for writing): read-only files are protected even
 *     from root.
 *   - Temporaries left by a process that no longer exists (killed with -9) are removed when
 *     the same target is written again. A process looks for them once per folder, at its
 *     first output there (a bake of thousands of files does not read its folder each time).
 *
 * Interruption: every temporary being written is recorded in a fixed table, and
 * vks_output_discard_temporaries() unlinks them using only async-signal-safe calls, so a
 * host's SIGINT/SIGTERM handler may call it (the vkskin program does). The library installs
 * no handler itself.
 *
 * LARGE OUTPUTS (vertex caches of gigabytes), without copies: instead of the stream, ask for
 * room at the output's end, fill it and hand it over:
 *   float *v = vks_output_reserve(o, n);  ...fill n bytes...  vks_output_commit(o, n);
 * A thread of the output writes what was committed while the caller fills the next room, so
 * the caller's conversion and the copy into the page cache overlap, and the bytes go from the
 * room to the file with no copy in between. The room's address is aligned (modulo 4096) as
 * its offset in the file is, in a stream as its offset from the first reserved byte: after a
 * header of 32 bytes, floats are aligned. Once reserve is called the stream is not written
 * again (what it held is flushed first); close writes the rest.
 *
 * THREADS: different outputs may be opened, written and closed from different threads;
 * one vks_output belongs to one thread at a time.
 */
#ifndef VKSKIN_OUTPUT_H
#define VKSKIN_OUTPUT_H

#include <stdio.h>

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vks_output vks_output;

/* Checks, without creating anything, that path can be written as described above and that
 * its file system has at least min_bytes free (0: no space check; never for streams).
 * VKS_ERR_IO with a message saying what stands in the way. */
VKS_API vks_result vks_output_check(const char *path, uint64_t min_bytes, vks_error *err);

/* Opens path for writing as described above: a temporary name beside it (or the stream itself
 * for "-" and FIFOs) until vks_output_close commits or discards it. */
VKS_API vks_result vks_output_open(vks_output **out, const char *path, vks_error *err);
/* The stream to write to (buffered; the caller may setvbuf it before the first write). */
VKS_API FILE *vks_output_stream(vks_output *o);
/* The path written to while the output is open: the temporary, or the stream's target. */
VKS_API const char *vks_output_write_path(const vks_output *o);
/* Non-zero when the output is streamed into its target (no temporary, no rename). */
VKS_API int vks_output_is_stream(const vks_output *o);
/* Records errno of a failed write so close reports the call that failed, not a later one. */
VKS_API void vks_output_note_error(vks_output *o, int errnum);
/* commit != 0: flush, close and rename into place; otherwise remove the temporary (a stream
 * keeps what reached it). Returns the first write, flush, close or rename failure. */
VKS_API vks_result vks_output_close(vks_output *o, int commit, vks_error *err);

/* The largest room one vks_output_reserve gives. */
#define VKS_OUTPUT_RESERVE_MAX ((size_t)4 << 20)
/* Room for n (at most VKS_OUTPUT_RESERVE_MAX) bytes at the end of the output, valid until the
 * next reserve, write or close. NULL with errno set when a write failed earlier (close reports
 * it as well) or memory ran out. */
VKS_API void *vks_output_reserve(vks_output *o, size_t n);
/* The first n bytes of the last reserved room are the output's next bytes. Committing more
 * than was reserved, or twice, commits nothing and makes the output fail (EINVAL). */
VKS_API void vks_output_commit(vks_output *o, size_t n);
/* n bytes from data through reserve and commit, in pieces; 0, or errno of a failed write. */
VKS_API int vks_output_write(vks_output *o, const void *data, size_t n);

/* Unlinks every temporary currently being written. Async-signal-safe. */
VKS_API void vks_output_discard_temporaries(void);

/* 1 when writing path would write the file named by other (same device and inode after
 * following symlinks, or the same resolved path where either does not exist yet). */
VKS_API int vks_output_same_file(const char *path, const char *other);

#ifdef __cplusplus
}
#endif
#endif
