/* The one place threads are started (thread_start.h). */
#include "core/thread_start.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef void (*refusal_hook)(const char *fallback, int err);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static unsigned long refuse_from; /* 0: never refuse */
static atomic_ulong calls;
static _Atomic(refusal_hook) hook;

static void read_test_switch(void)
{
    const char *s = getenv("VKSKIN_TEST_THREAD_FAIL");
    if (s && *s)
        refuse_from = strtoul(s, NULL, 10);
}

void vks__thread_set_refusal_hook(void (*h)(const char *fallback, int err))
{
    atomic_store(&hook, h);
}

int vks__thread_start(pthread_t *t, void *(*fn)(void *), void *arg, const char *fallback)
{
    pthread_once(&once, read_test_switch);
    unsigned long n = atomic_fetch_add(&calls, 1) + 1;
    int e = refuse_from && n >= refuse_from ? EAGAIN : pthread_create(t, NULL, fn, arg);
    refusal_hook h = atomic_load(&hook);
    if (e && h)
        h(fallback, e);
    return e;
}
