/* The library's work pool (src/core/work_pool.h) under the program's names, for validate's
 * reference shares: one pool in the build, the bake engine's (src/bake/job_run.c). */
#ifndef VKSKIN_WORK_POOL_H
#define VKSKIN_WORK_POOL_H

#include "core/work_pool.h"

/* the library names the struct as validate.h declares it: struct vks_work_pool */
typedef vks__work_pool vks_work_pool;

static inline vks_work_pool *vks_work_pool_start(uint32_t threads, const char *fallback)
{
    return vks__work_pool_start(threads, fallback);
}
static inline uint32_t vks_work_pool_threads(const vks_work_pool *p) { return vks__work_pool_threads(p); }
static inline void vks_work_pool_run(vks_work_pool *p, void (*fn)(void *arg), void *arg)
{
    vks__work_pool_run(p, fn, arg);
}
static inline void vks_work_pool_share(vks_work_pool *p, uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg)
{
    vks__work_pool_share(p, n, fn, arg);
}
static inline void vks_work_pool_finish(vks_work_pool *p) { vks__work_pool_finish(p); }

#endif
