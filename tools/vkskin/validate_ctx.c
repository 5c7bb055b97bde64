/* The CLI's side of validate's engine context (check/validate_engine.h): the reference's
 * threads, a pool started once, at the first chunk that has work for two, and kept for the run
 * (a run delivers a chunk per model of each GPU chunk, and on a machine of 16 cores starting
 * and ending 15 threads for every one of them cost more than the sums); the engine's lines on
 * stderr; --readback-check's rule for a batch's reduction. */
#include <stdio.h>

#include "validate.h"
#include "work_pool.h"

/* The context's pool of `workers` threads beside the caller's, started on first use (once:
   NULL when none could be, and the caller then runs every part itself). */
static vks_work_pool *pool_of(vctx *c, int workers)
{
    if (!c->pool_tried && workers >= 1) {
        c->pool_tried = 1;
        c->pool = vks_work_pool_start((uint32_t)workers,
                                      "validate's reference: fewer threads (none: every share on the calling thread)");
    }
    return c->pool;
}

typedef struct parts_call {
    void *(*fn)(void *);
    void *const *args;
} parts_call;

static void run_part(void *arg, uint32_t i)
{
    const parts_call *p = arg;
    p->fn(p->args[i]);
}

/* vctx.parallel: the parts on the pool's threads and the caller (vks_work_pool_share). */
static void parallel(vctx *c, int parts, void *(*fn)(void *), void *const *args)
{
    parts_call p = {fn, args};
    vks_work_pool_share(pool_of(c, vks__validate_threads(c->threads) - 1), (uint32_t)parts, run_part, &p);
}

static void say(const char *line)
{
    fputs(line, stderr);
}

void vks_validate_ctx_init(vctx *c)
{
    c->parallel = parallel, c->say = say;
}

void vks_validate_ctx_free(vctx *c)
{
    vks_work_pool_finish(c->pool);
    c->pool = NULL, c->pool_tried = 0;
    vks__validate_ctx_free(c);
}

int vks_validate_reduce_mode(const vrun *r)
{
    return r->readback_check > 0 ? 1 : r->readback_check == 0 ? VKS_GPU_REDUCE_COPIED : 0;
}
