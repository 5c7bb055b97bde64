/* max_rss [--faults] COMMAND [ARG...]: runs the command and prints its peak resident set size
 * in KiB (getrusage of the waited-for child, ru_maxrss) on stdout, and with --faults its minor
 * page faults after it on the same line (ru_minflt); exits with the command's status (128 + the
 * signal when one killed it, 127 when it could not be started). Used by the memory bound tests
 * (test_render_memory.sh, cli_bake_memory.sh) and the page-fault count of cli_bake_faults.sh:
 * counts, not times, and no /usr/bin/time needed. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int faults = argc > 1 && strcmp(argv[1], "--faults") == 0;
    argv += faults, argc -= faults;
    if (argc < 2)
        return fprintf(stderr, "usage: max_rss [--faults] COMMAND [ARG...]\n"), 2;
    pid_t pid = fork();
    if (pid < 0)
        return perror("max_rss: fork"), 127;
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid)
        return perror("max_rss: wait4"), 127;
    if (faults)
        printf("%ld %ld\n", ru.ru_maxrss, ru.ru_minflt);
    else
        printf("%ld\n", ru.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
