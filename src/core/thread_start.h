/* Every thread vkskin starts (the library's and the program's) is started here, so that a test
 * can refuse them and prove that each place which wants a thread still works without one, and
 * so that a refusal can be said: the library has no logger at most of these places, and never
 * prints, so the host (the CLI) installs a hook that does. */
#ifndef VKS_CORE_THREAD_START_H
#define VKS_CORE_THREAD_START_H

#include <pthread.h>

/* pthread_create(t, NULL, fn, arg): 0, or the error number, with nothing started; then the
 * hook (if any) is called with fallback, a string literal saying what runs instead ("the
 * normals' sums on the calling thread"), and the error number.
 * VKSKIN_TEST_THREAD_FAIL=N (tests only) refuses the Nth call of the process and every later
 * one with EAGAIN, as a system out of threads would (N = 1: no thread at all). */
int vks__thread_start(pthread_t *t, void *(*fn)(void *), void *arg, const char *fallback);

/* The hook every refusal is handed to, on the thread that asked (NULL: none, the default). */
void vks__thread_set_refusal_hook(void (*hook)(const char *fallback, int err));

#endif
