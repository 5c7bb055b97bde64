/* A pool of threads that run tasks in the order they were given (work_pool.c), and shares of
 * one task's work at the queue's front: bake (src/bake/job_run.c) encodes and writes its
 * outputs on one while the GPU deforms the next group; the program's validate takes a chunk's
 * reference shares on one. */
#ifndef VKS_CORE_WORK_POOL_H
#define VKS_CORE_WORK_POOL_H

#include <stdint.h>

typedef struct vks_work_pool vks__work_pool;

/* Starts `threads` threads (at least 1; fewer when the system gives fewer, said once with
 * `fallback`, what runs instead, through vks__thread_start's hook). NULL without memory or
 * without a single thread: vks__work_pool_run then runs each task on the caller. */
vks__work_pool *vks__work_pool_start(uint32_t threads, const char *fallback);
/* How many threads it runs (0 for NULL). */
uint32_t vks__work_pool_threads(const vks__work_pool *p);
/* Queues fn(arg); tasks start in the order given. With p NULL (or no memory for the queue's
 * entry) fn runs here, now. */
void vks__work_pool_run(vks__work_pool *p, void (*fn)(void *arg), void *arg);
/* Runs fn(arg, i) for every i < n and returns when all have finished: the caller takes
 * indexes itself while the pool's idle threads help. The helpers go to the FRONT of the queue
 * (a share is the rest of a task already running: a free thread should join it, not start
 * something new), and the caller withdraws those no thread has taken once no index is left,
 * so it never waits for a busy pool. Indexes may finish in any order and on any thread. While
 * other threads finish the indexes they took, a caller that is a thread of p runs p's queued
 * tasks (so a task must never wait for a share's caller); any other caller waits. */
void vks__work_pool_share(vks__work_pool *p, uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg);
/* Waits for every queued task to finish, then ends the threads and frees the pool. */
void vks__work_pool_finish(vks__work_pool *p);

#endif
