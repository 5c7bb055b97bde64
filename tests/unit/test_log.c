/* The library's logger plumbing (src/core/log.c): a message reaches the host's logger whole,
 * short ones and those past the kilobyte of the stack buffer alike (a path of a few thousand
 * characters in a warning was cut at 1023 before), with its level; no logger, no call. */
#include "testutil.h"

#include "core/log.h"

#include <string.h>

static char got[8192];
static int calls;
static vks_log_level got_level;

static void capture(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    snprintf(got, sizeof got, "%s", msg);
    got_level = level;
    calls++;
}

int main(void)
{
    vks_logger l = {capture, NULL};
    vks__log(&l, VKS_LOG_WARNING, "short %d", 7);
    CHECK(!strcmp(got, "short 7"));
    CHECK(got_level == VKS_LOG_WARNING);
    char path[5000];
    for (size_t i = 0; i < sizeof path - 1; i++)
        path[i] = (char)('a' + i % 26);
    path[sizeof path - 1] = 0;
    for (size_t len = 1000; len <= 4096; len += 1024 + 7) { /* about the buffer's size and well past it */
        char p[5000];
        memcpy(p, path, len), p[len] = 0;
        vks__log(&l, VKS_LOG_INFO, "%s: cannot open it", p);
        CHECK_EQ_INT(strlen(got), len + strlen(": cannot open it"));
        CHECK(!strncmp(got, p, len) && !strcmp(got + len, ": cannot open it"));
    }
    vks_logger none = {NULL, NULL};
    int before = calls;
    vks__log(&none, VKS_LOG_WARNING, "nobody hears %s", "this");
    vks__log(NULL, VKS_LOG_WARNING, "nor this");
    CHECK_EQ_INT(calls, before);
    return vks_test_finish("test_log");
}
