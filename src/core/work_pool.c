/* The pool of work_pool.h: one mutex, one FIFO list of tasks, threads that take the oldest
 * (a share's helpers go in front).
 * Tasks are coarse (an output file of a bake job, a share of validate's chunk: a millisecond
 * or more), so one lock is never the bottleneck. Threads start with the asynchronous signals blocked, so the signal
 * handler that removes temporaries runs on the main thread, as it did before the pool. */
#include "core/work_pool.h"
#include "core/thread_start.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

typedef struct task {
    void (*fn)(void *);
    void *arg;
    struct task *next;
} task;

/* One vks__work_pool_share: its indexes, under the pool's lock. */
typedef struct share {
    vks__work_pool *pool;
    void (*fn)(void *, uint32_t);
    void *arg;
    uint32_t n, next, finished;
    uint32_t helping; /* helpers taken off the queue that may still read this share */
    pthread_cond_t cv; /* an index finished, or a helper let go */
} share;

static void share_help(void *arg);

/* The pool whose thread this is (NULL on other threads): a share's caller on one of them runs
 * the queue's tasks while it waits, rather than idling beside them. */
static _Thread_local vks__work_pool *thread_pool;
/* Tasks this thread runs inside shares' waits, one inside the other: a task run while waiting
 * may share and wait too, so the nesting is bounded to keep the thread's stack small. */
static _Thread_local unsigned help_depth;
#define HELP_DEPTH_MAX 4

struct vks_work_pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    task *head, *tail;
    int quit;
    uint32_t count;
    pthread_t threads[];
};

/* Takes the queue's oldest task and runs it (p->mu held on entry and on return). */
static void run_next(vks__work_pool *p)
{
    task *t = p->head;
    p->head = t->next;
    if (!p->head)
        p->tail = NULL;
    if (t->fn == share_help)
        ((share *)t->arg)->helping++; /* before the lock goes: its caller waits for it */
    pthread_mutex_unlock(&p->mu);
    t->fn(t->arg);
    free(t);
    pthread_mutex_lock(&p->mu);
}

static void *pool_main(void *arg)
{
    vks__work_pool *p = arg;
    thread_pool = p;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->head && !p->quit)
            pthread_cond_wait(&p->cv, &p->mu);
        if (!p->head)
            break; /* quit, and nothing left */
        run_next(p);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

vks__work_pool *vks__work_pool_start(uint32_t threads, const char *fallback)
{
    if (threads < 1)
        threads = 1;
    vks__work_pool *p = calloc(1, sizeof *p + threads * sizeof(pthread_t));
    if (!p)
        return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    sigset_t all, old;
    sigfillset(&all);
    static const int raised_by_the_thread[] = {SIGPIPE, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof raised_by_the_thread / sizeof *raised_by_the_thread; i++)
        sigdelset(&all, raised_by_the_thread[i]);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    for (uint32_t i = 0; i < threads; i++)
        if (vks__thread_start(&p->threads[p->count], pool_main, p, fallback) == 0)
            p->count++;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!p->count) {
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
        free(p);
        return NULL;
    }
    return p;
}

uint32_t vks__work_pool_threads(const vks__work_pool *p)
{
    return p ? p->count : 0;
}

void vks__work_pool_run(vks__work_pool *p, void (*fn)(void *arg), void *arg)
{
    task *t = p ? malloc(sizeof *t) : NULL;
    if (!t) {
        fn(arg);
        return;
    }
    t->fn = fn, t->arg = arg, t->next = NULL;
    pthread_mutex_lock(&p->mu);
    if (p->tail)
        p->tail->next = t;
    else
        p->head = t;
    p->tail = t;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* Takes the share's indexes until none is left (p->mu held on entry and on return). */
static void share_take(share *s)
{
    vks__work_pool *p = s->pool;
    while (s->next < s->n) {
        uint32_t i = s->next++;
        pthread_mutex_unlock(&p->mu);
        s->fn(s->arg, i);
        pthread_mutex_lock(&p->mu);
        s->finished++;
        pthread_cond_broadcast(&s->cv);
    }
}

static void share_help(void *arg)
{
    share *s = arg;
    vks__work_pool *p = s->pool;
    pthread_mutex_lock(&p->mu);
    share_take(s);
    s->helping--;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&p->mu);
}

void vks__work_pool_share(vks__work_pool *p, uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg)
{
    if (!p || n < 2) {
        for (uint32_t i = 0; i < n; i++)
            fn(arg, i);
        return;
    }
    share s = {.pool = p, .fn = fn, .arg = arg, .n = n};
    pthread_cond_init(&s.cv, NULL);
    uint32_t helpers = n - 1 < p->count ? n - 1 : p->count;
    pthread_mutex_lock(&p->mu);
    for (uint32_t h = 0; h < helpers; h++) {
        task *t = malloc(sizeof *t);
        if (!t)
            break; /* fewer helpers: the caller takes more */
        t->fn = share_help, t->arg = &s, t->next = p->head;
        p->head = t;
        if (!p->tail)
            p->tail = t;
        pthread_cond_signal(&p->cv);
    }
    share_take(&s);
    /* no index left: helpers still queued would find nothing, and must not outlive s */
    for (task **at = &p->head; *at;) {
        task *t = *at;
        if (t->fn == share_help && t->arg == &s) {
            *at = t->next;
            free(t);
        } else {
            at = &t->next;
        }
    }
    p->tail = NULL;
    for (task *t = p->head; t; t = t->next)
        p->tail = t;
    /* the indexes other threads took are still running: a thread of the pool runs queued
       tasks meanwhile (no task waits on a share's caller, so none of them can wait on this
       one); another thread (the one feeding the GPU) only waits, its next step being the
       critical one */
    while (s.finished < s.n || s.helping) {
        if (thread_pool == p && p->head && help_depth < HELP_DEPTH_MAX) {
            help_depth++;
            run_next(p);
            help_depth--;
        } else {
            pthread_cond_wait(&s.cv, &p->mu);
        }
    }
    pthread_mutex_unlock(&p->mu);
    pthread_cond_destroy(&s.cv);
}

void vks__work_pool_finish(vks__work_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1; /* the threads drain the queue, then end */
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t i = 0; i < p->count; i++)
        pthread_join(p->threads[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
}
