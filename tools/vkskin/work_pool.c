/* The pool of work_pool.h: one mutex, one FIFO list of tasks, threads that take the oldest.
 * Tasks are coarse (an output file of a bake job, a share of validate's chunk: a millisecond
 * or more), so one lock is never the bottleneck. Threads start with the asynchronous signals blocked, so the signal
 * handler that removes temporaries runs on the main thread, as it did before the pool. */
#include "work_pool.h"
#include "cli_thread.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

typedef struct task {
    void (*fn)(void *);
    void *arg;
    struct task *next;
} task;

struct vks_work_pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    task *head, *tail;
    int quit;
    uint32_t count;
    pthread_t threads[];
};

static void *pool_main(void *arg)
{
    vks_work_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->head && !p->quit)
            pthread_cond_wait(&p->cv, &p->mu);
        task *t = p->head;
        if (!t)
            break; /* quit, and nothing left */
        p->head = t->next;
        if (!p->head)
            p->tail = NULL;
        pthread_mutex_unlock(&p->mu);
        t->fn(t->arg);
        free(t);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

vks_work_pool *vks_work_pool_start(uint32_t threads, const char *fallback)
{
    if (threads < 1)
        threads = 1;
    vks_work_pool *p = calloc(1, sizeof *p + threads * sizeof(pthread_t));
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
        if (vks_cli_thread_start(&p->threads[p->count], pool_main, p, fallback))
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

uint32_t vks_work_pool_threads(const vks_work_pool *p)
{
    return p ? p->count : 0;
}

void vks_work_pool_run(vks_work_pool *p, void (*fn)(void *arg), void *arg)
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

void vks_work_pool_finish(vks_work_pool *p)
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
