/* The program's threads (cli_thread.h). A place that starts a thread per chunk would say the
 * same refusal thousands of times: each fallback is said once a process. */
#include "cli_thread.h"

#include <stdio.h>
#include <string.h>

#include "core/thread_start.h"

enum { SAID_MAX = 32 };
static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *said[SAID_MAX];
static int said_count;

/* 1 the first time fallback is refused (to be said), 0 after. */
static int first_time(const char *fallback)
{
    int first = 1;
    pthread_mutex_lock(&said_lock);
    for (int i = 0; i < said_count && first; i++)
        first = strcmp(said[i], fallback) != 0;
    if (first && said_count < SAID_MAX)
        said[said_count++] = fallback;
    pthread_mutex_unlock(&said_lock);
    return first;
}

static void say_refusal(const char *fallback, int err)
{
    if (first_time(fallback))
        fprintf(stderr, "vkskin: warning: no thread could be started (%s): %s\n", strerror(err), fallback);
}

void vks_cli_thread_say_refusals(void)
{
    vks__thread_set_refusal_hook(say_refusal);
}

int vks_cli_thread_start(pthread_t *t, void *(*fn)(void *), void *arg, const char *fallback)
{
    return vks__thread_start(t, fn, arg, fallback) == 0;
}
