/* Threads of the program (cli_thread.c), started like the library's through vks__thread_start
 * (core/thread_start.h), so VKSKIN_TEST_THREAD_FAIL refuses both, and each refusal, the
 * library's included, is said on stderr. */
#ifndef VKSKIN_CLI_THREAD_H
#define VKSKIN_CLI_THREAD_H

#include <pthread.h>

/* Makes every refusal to start a thread, the library's and the program's, print one warning
 * line on stderr, once per fallback a process. Called by main before any command. */
void vks_cli_thread_say_refusals(void);

/* Starts fn(arg) on a thread of its own: 1 when it runs, 0 when none could be had (then
 * fallback, a string literal saying what happens instead, was said). */
int vks_cli_thread_start(pthread_t *t, void *(*fn)(void *), void *arg, const char *fallback);

#endif
