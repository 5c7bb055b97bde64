/* The work pool (src/core/work_pool.c, under the program's names): every task runs once; a share runs each
 * index exactly once, from the caller or from a pool task (a bake's VAT kind shares its
 * textures from inside a task), and its caller does not wait for a pool whose threads are all
 * busy: the helpers it queued and no thread took are withdrawn; a caller that is a thread of
 * the pool runs queued tasks while it waits. */
#include "testutil.h"
#include "work_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { N = 257 };

typedef struct counts {
    atomic_int runs[N];
} counts;

static void count_index(void *arg, uint32_t i)
{
    counts *c = arg;
    atomic_fetch_add(&c->runs[i], 1);
}

static int each_once(counts *c, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (atomic_load(&c->runs[i]) != 1)
            return 0;
    for (uint32_t i = n; i < N; i++)
        if (atomic_load(&c->runs[i]) != 0)
            return 0;
    return 1;
}

/* A pool task that shares n indexes itself, as a bake's VAT kind does. */
typedef struct nested {
    vks_work_pool *pool;
    counts c;
    uint32_t n;
    atomic_int done;
} nested;

static void nested_task(void *arg)
{
    nested *t = arg;
    vks_work_pool_share(t->pool, t->n, count_index, &t->c);
    atomic_store(&t->done, 1);
}

/* Flags between threads, each under its struct's mutex and condition. */
static void raise_flag(pthread_mutex_t *mu, pthread_cond_t *cv, int *flag)
{
    pthread_mutex_lock(mu);
    *flag = 1;
    pthread_cond_broadcast(cv);
    pthread_mutex_unlock(mu);
}

static void await_flag(pthread_mutex_t *mu, pthread_cond_t *cv, const int *flag)
{
    pthread_mutex_lock(mu);
    while (!*flag)
        pthread_cond_wait(cv, mu);
    pthread_mutex_unlock(mu);
}

/* A task that holds its thread until released. */
typedef struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int open, started;
} gate;

static void blocked_task(void *arg)
{
    gate *g = arg;
    raise_flag(&g->mu, &g->cv, &g->started);
    await_flag(&g->mu, &g->cv, &g->open);
}

/* A share whose index 1, on the other thread, cannot end before a task queued afterwards has
 * run: with every other thread busy in it, only the caller, waiting on index 1, can run that
 * task. Without the caller running queued tasks while it waits this never ends (the test's
 * timeout). */
typedef struct waits {
    vks_work_pool *pool;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int one_started, queued_ran, done;
} waits;

static void queued_task(void *arg)
{
    waits *w = arg;
    raise_flag(&w->mu, &w->cv, &w->queued_ran);
}

static void waits_index(void *arg, uint32_t i)
{
    waits *w = arg;
    if (i == 1) {
        raise_flag(&w->mu, &w->cv, &w->one_started);
        await_flag(&w->mu, &w->cv, &w->queued_ran);
    } else {
        await_flag(&w->mu, &w->cv, &w->one_started);
        vks_work_pool_run(w->pool, queued_task, w);
    }
}

static void waits_task(void *arg)
{
    waits *w = arg;
    vks_work_pool_share(w->pool, 2, waits_index, w);
    raise_flag(&w->mu, &w->cv, &w->done);
}

int main(void)
{
    /* no pool, and shares of 0, 1 and many on pools of 1 and 4 threads */
    static counts c;
    memset(&c, 0, sizeof c);
    vks_work_pool_share(NULL, N, count_index, &c);
    CHECK(each_once(&c, N));
    for (uint32_t threads = 1; threads <= 4; threads += 3) {
        vks_work_pool *p = vks_work_pool_start(threads, "test_work_pool: no thread");
        CHECK(p && vks_work_pool_threads(p) == threads);
        const uint32_t sizes[] = {0, 1, 2, 3, N};
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            memset(&c, 0, sizeof c);
            vks_work_pool_share(p, sizes[s], count_index, &c);
            CHECK(each_once(&c, sizes[s]));
        }
        /* shares from inside tasks, several at once: each index of each once */
        static nested t[8];
        for (int k = 0; k < 8; k++) {
            memset(&t[k], 0, sizeof t[k]);
            t[k].pool = p, t[k].n = (uint32_t)(k * 31 + 2) % N;
            vks_work_pool_run(p, nested_task, &t[k]);
        }
        vks_work_pool_finish(p); /* waits for every task */
        for (int k = 0; k < 8; k++)
            CHECK(atomic_load(&t[k].done) && each_once(&t[k].c, t[k].n));
    }
    /* every thread of the pool held by a task: a share from outside runs all on its caller
       and returns (its queued helpers withdrawn), while the gate is still closed */
    vks_work_pool *p = vks_work_pool_start(2, "test_work_pool: no thread");
    CHECK(p != NULL);
    gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
    gate g2 = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
    vks_work_pool_run(p, blocked_task, &g);
    vks_work_pool_run(p, blocked_task, &g2);
    await_flag(&g.mu, &g.cv, &g.started);
    await_flag(&g2.mu, &g2.cv, &g2.started);
    memset(&c, 0, sizeof c);
    vks_work_pool_share(p, N, count_index, &c);
    CHECK(each_once(&c, N));
    CHECK(!g.open); /* it returned with the pool still busy (only this thread opens the gates) */
    raise_flag(&g.mu, &g.cv, &g.open);
    raise_flag(&g2.mu, &g2.cv, &g2.open);
    vks_work_pool_finish(p);
    /* a caller of the pool's own runs queued tasks while the others finish its indexes */
    waits w = {vks_work_pool_start(2, "test_work_pool: no thread"), PTHREAD_MUTEX_INITIALIZER,
               PTHREAD_COND_INITIALIZER, 0, 0, 0};
    CHECK(w.pool != NULL);
    vks_work_pool_run(w.pool, waits_task, &w);
    /* not finished before: a pool finishing lets a thread with an empty queue end, and the
       share needs both threads (the helper's index on the other) */
    await_flag(&w.mu, &w.cv, &w.done);
    vks_work_pool_finish(w.pool);
    CHECK(w.done && w.queued_ran);
    return vks_test_finish("test_work_pool");
}
