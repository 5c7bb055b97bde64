/* Bulk writes of large outputs (include/vkskin/output.h, LARGE OUTPUTS): the caller fills
 * room in one buffer while a writer thread of the output writes the other, so the conversion
 * into the file's layout and the copy into the page cache overlap each other (and the GPU's
 * next chunk), and no byte is copied on the way: stdio copied every frame into its buffer
 * before write(2) copied it again.
 *
 * Measured choices (BENCHMARKS.md, the end to end into a file; 2-vCPU VM, lavapipe):
 *   - Hand-overs of about HAND_OVER bytes: both buffers stay in the caches, and the page cache
 *     takes them at dd's speed. Hand-overs of 4 MiB made the same deform 1.8x slower: the
 *     kernel's copy of larger writes into the page cache ran at a fraction of that speed (30%
 *     of all samples in one run of 8 MiB hand-overs, 2.5% with 1 MiB writes).
 *   - Writes through the page cache, not O_DIRECT: around the page cache, a 240 MB output
 *     reached the disk during the run and the deform path took 10-20% longer (the disk's work
 *     on the same machine), where a buffered output is on its way to the disk when close
 *     returns, as every writer's is.
 * Streams (standard output, FIFOs, devices) are written with write(2) in order; files with
 * pwrite at their offsets, so the file is byte for byte what sequential writes give. */
#include "output_internal.h"
#include "core/thread_start.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A buffer is handed over once this much is in it. */
#define HAND_OVER ((size_t)1 << 20)
/* Buffers are aligned, and their bytes placed as their file offsets are modulo this, so a
 * room after a header of 32 bytes is aligned for floats. */
enum { ALIGN = 4096 };
/* One buffer: a hand-over's worth plus the largest room (pages never filled cost nothing). */
#define BUFFER_BYTES (ALIGN + HAND_OVER + VKS_OUTPUT_RESERVE_MAX)

struct vks__spans {
    uint8_t *buf[2]; /* BUFFER_BYTES each, ALIGN-aligned; the second made on first use */
    int cur;         /* the buffer being filled */
    size_t used;     /* bytes committed in it (from start(s) on) */
    size_t room;     /* bytes the last reserve gave, not committed yet */
    uint64_t offset; /* file offset of its first byte, at offset % ALIGN into it */
    int fd;
    int seekable; /* a regular file (pwrite), not a stream (write) */
    atomic_int err; /* errno of the first failed write; every later call reports it */
    /* the writer thread and the one buffer handed to it */
    pthread_t thread;
    int thread_started, quit, busy;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    const uint8_t *job;
    size_t job_len;
    uint64_t job_off;
};

/* Records the first failure (errno e); later ones keep it. Either thread may call it. */
static void fail(vks__spans *s, int e)
{
    int none = 0;
    atomic_compare_exchange_strong(&s->err, &none, e);
}

/* Writes n bytes of p that belong at file offset off; 0 or errno. */
static int write_at(vks__spans *s, const uint8_t *p, size_t n, uint64_t off)
{
    while (n) {
        ssize_t w = s->seekable ? pwrite(s->fd, p, n, (off_t)off) : write(s->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return errno;
        if (w == 0)
            return EIO;
        p += w, n -= (size_t)w, off += (uint64_t)w;
    }
    return 0;
}

static void *writer_main(void *arg)
{
    vks__spans *s = arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (!s->busy && !s->quit)
            pthread_cond_wait(&s->cv, &s->mu);
        if (!s->busy)
            break;
        const uint8_t *p = s->job;
        size_t n = s->job_len;
        uint64_t off = s->job_off;
        int failed = atomic_load(&s->err);
        pthread_mutex_unlock(&s->mu);
        int e = failed ? 0 : write_at(s, p, n, off);
        pthread_mutex_lock(&s->mu);
        if (e)
            fail(s, e);
        s->busy = 0;
        pthread_cond_broadcast(&s->cv);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Waits until the writer holds no buffer; the first write error, 0 when none. */
static int wait_idle(vks__spans *s)
{
    if (!s->thread_started)
        return atomic_load(&s->err);
    pthread_mutex_lock(&s->mu);
    while (s->busy)
        pthread_cond_wait(&s->cv, &s->mu);
    int e = atomic_load(&s->err);
    pthread_mutex_unlock(&s->mu);
    return e;
}

/* Hands n bytes at p (file offset off) to the writer thread, started on first use with the
 * asynchronous signals blocked (the host's handlers run on its own threads) but not those its
 * own calls raise: a write into a pipe whose reader has gone raises SIGPIPE on the writer, and
 * the process ends as it did when the caller wrote (quietly, `vkskin deform --out - | head`),
 * or, where the host ignores SIGPIPE, gets EPIPE. Written here when no thread can be had. The
 * writer is idle (wait_idle) when this is called. */
static void hand_over(vks__spans *s, const uint8_t *p, size_t n, uint64_t off)
{
    if (!s->thread_started) {
        sigset_t all, old;
        sigfillset(&all);
        static const int raised_by_the_thread[] = {SIGPIPE, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
        for (size_t i = 0; i < sizeof raised_by_the_thread / sizeof *raised_by_the_thread; i++)
            sigdelset(&all, raised_by_the_thread[i]);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        s->thread_started = vks__thread_start(&s->thread, writer_main, s,
                                              "an output written on the thread that fills it") == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    if (!s->thread_started) {
        int e = write_at(s, p, n, off);
        if (e)
            fail(s, e);
        return;
    }
    pthread_mutex_lock(&s->mu);
    s->job = p, s->job_len = n, s->job_off = off;
    s->busy = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* The first byte of the buffer being filled: as far into it as its file offset is into a
 * block, so rooms are aligned as their file offsets are. */
static uint8_t *start(const vks__spans *s)
{
    return s->buf[s->cur] + s->offset % ALIGN;
}

static uint8_t *buffer_new(void)
{
    void *p = NULL;
    return posix_memalign(&p, ALIGN, BUFFER_BYTES) == 0 ? p : NULL;
}

/* The first reservation: what the stream holds is flushed, the buffers start after it. */
static vks__spans *spans_start(vks_output *o)
{
    if (fflush(o->f) != 0) {
        vks__output_note_error(o, errno);
        return NULL;
    }
    vks__spans *s = calloc(1, sizeof *s);
    if (s && !(s->buf[0] = buffer_new())) {
        free(s);
        s = NULL;
    }
    if (!s) {
        errno = ENOMEM;
        return NULL;
    }
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    s->fd = fileno(o->f);
    s->seekable = o->tmp != NULL;
    off_t at = s->seekable ? lseek(s->fd, 0, SEEK_CUR) : 0;
    s->offset = at > 0 ? (uint64_t)at : 0;
    o->spans = s;
    return s;
}

void *vks_output_reserve(vks_output *o, size_t n)
{
    if (!o || n > VKS_OUTPUT_RESERVE_MAX) {
        errno = EINVAL;
        return NULL;
    }
    vks__spans *s = o->spans ? o->spans : spans_start(o);
    if (!s)
        return NULL;
    int failed = atomic_load(&s->err); /* an earlier write failed, maybe in the writer thread */
    if (failed) {
        errno = failed;
        return NULL;
    }
    s->room = n;
    if (s->used < HAND_OVER) /* then offset % ALIGN + used + n fits BUFFER_BYTES */
        return start(s) + s->used;
    /* Hand this buffer over and fill the other once the writer is done with it. */
    int e = wait_idle(s);
    int next = s->cur ^ 1;
    if (!e && !s->buf[next] && !(s->buf[next] = buffer_new()))
        e = ENOMEM;
    if (e) {
        fail(s, e);
        errno = e;
        return NULL;
    }
    hand_over(s, start(s), s->used, s->offset);
    s->offset += s->used;
    s->cur = next, s->used = 0;
    return start(s);
}

void vks_output_commit(vks_output *o, size_t n)
{
    vks__spans *s = o ? o->spans : NULL;
    if (!s)
        return;
    if (n > s->room) { /* more than was reserved: nothing of it, and the output fails */
        fail(s, EINVAL);
        return;
    }
    s->used += n;
    s->room = 0;
}

int vks_output_write(vks_output *o, const void *data, size_t n)
{
    const uint8_t *p = data;
    while (n) {
        size_t m = n < VKS_OUTPUT_RESERVE_MAX ? n : VKS_OUTPUT_RESERVE_MAX;
        void *room = vks_output_reserve(o, m);
        if (!room)
            return errno ? errno : EIO;
        memcpy(room, p, m);
        vks_output_commit(o, m);
        p += m, n -= m;
    }
    return 0;
}

int vks__spans_finish(vks_output *o, int write_rest)
{
    vks__spans *s = o->spans;
    if (!s)
        return 0;
    int e = wait_idle(s);
    if (s->thread_started) {
        pthread_mutex_lock(&s->mu);
        s->quit = 1;
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        pthread_join(s->thread, NULL);
    }
    if (write_rest && !e && s->used)
        e = write_at(s, start(s), s->used, s->offset);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s->buf[0]);
    free(s->buf[1]);
    free(s);
    o->spans = NULL;
    return e;
}
