/* Progress lines on stderr (cli_progress.h). */
#include "cli_progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int quiet;

void vks_cli_progress_quiet(int q)
{
    quiet = q;
}

int vks_cli_set_quiet(void *field, const struct vks_cli_option *o, const char *value)
{
    (void)field, (void)o, (void)value;
    quiet = 1;
    return 1;
}

int vks_cli_progress_is_quiet(void)
{
    return quiet;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void vks_cli_progress_begin(vks_cli_progress *p, const char *what, const char *unit, uint64_t total)
{
    memset(p, 0, sizeof *p);
    p->what = what, p->unit = unit, p->total = total;
    p->on = !quiet;
    p->tty = isatty(2);
    p->interval = 2.0;
    const char *env = getenv("VKSKIN_PROGRESS_INTERVAL_MS");
    if (env && *env) {
        char *end = NULL;
        double ms = strtod(env, &end);
        if (end != env && !*end && ms >= 0)
            p->interval = ms / 1e3;
    }
    p->start = p->last = now_s();
    pthread_mutex_init(&p->lock, NULL);
}

/* "vkskin validate: 1200/4000 poses (30%), 412 poses/s, 7 s left": with the lock held. */
static void print_line(vks_cli_progress *p, double now, int final)
{
    double el = now - p->start, rate = el > 0 ? (double)p->done / el : 0;
    double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 100.0;
    char left[48];
    if (final)
        snprintf(left, sizeof left, "done in %.1f s", el);
    else if (p->done >= p->total)
        snprintf(left, sizeof left, "0 s left");
    else if (p->done)
        snprintf(left, sizeof left, "%.0f s left", el / (double)p->done * (double)(p->total - p->done));
    else
        snprintf(left, sizeof left, "time left unknown");
    char bar[24] = "";
    if (p->tty) { /* a terminal: one line redrawn, with a bar */
        int fill = (int)(pct / 5.0 + 0.5);
        bar[0] = '[';
        for (int i = 0; i < 20; i++)
            bar[1 + i] = i < fill ? '#' : '.';
        bar[21] = ']', bar[22] = ' ', bar[23] = 0;
    }
    fprintf(stderr, "%svkskin %s: %s%llu/%llu %s (%.0f%%), %.0f %s/s, %s%s%s%s", p->tty ? "\r\033[K" : "", p->what,
            bar, (unsigned long long)p->done, (unsigned long long)p->total, p->unit, pct, rate, p->unit, left,
            p->detail[0] ? "; " : "", p->detail, p->tty && !final ? "" : "\n");
    fflush(stderr);
    p->last = now, p->printed = 1;
}

/* A line when one is due: with the lock held. */
static void maybe_print(vks_cli_progress *p)
{
    double now = now_s();
    /* the first line after one interval of work; then a terminal's bar 5 times a second, a log
       a line an interval */
    double gap = p->printed && p->tty && p->interval > 0.2 ? 0.2 : p->interval;
    if (now - p->start >= p->interval && now - p->last >= gap)
        print_line(p, now, 0);
}

void vks_cli_progress_set(vks_cli_progress *p, uint64_t done, const char *detail)
{
    if (!p || !p->on)
        return;
    pthread_mutex_lock(&p->lock);
    if (done > p->done)
        p->done = done > p->total ? p->total : done;
    if (detail)
        snprintf(p->detail, sizeof p->detail, "%s", detail);
    maybe_print(p);
    pthread_mutex_unlock(&p->lock);
}

void vks_cli_progress_add(vks_cli_progress *p, uint64_t n)
{
    if (!p || !p->on)
        return;
    pthread_mutex_lock(&p->lock);
    p->done = n > p->total - p->done ? p->total : p->done + n;
    maybe_print(p);
    pthread_mutex_unlock(&p->lock);
}

void vks_cli_progress_end(vks_cli_progress *p)
{
    if (!p)
        return;
    if (p->on) {
        pthread_mutex_lock(&p->lock);
        if (p->printed)
            print_line(p, now_s(), 1);
        pthread_mutex_unlock(&p->lock);
    }
    pthread_mutex_destroy(&p->lock);
}
