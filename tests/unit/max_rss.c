/* max_rss COMMAND [ARG...]: runs the command and prints its peak resident set size in KiB
 * (getrusage of the waited-for child, ru_maxrss) on stdout; exits with the command's status
 * (128 + the signal when one killed it, 127 when it could not be started). Used by the memory
 * bound tests (test_render_memory.sh, cli_bake_memory.sh), so they need no /usr/bin/time. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return fprintf(stderr, "usage: max_rss COMMAND [ARG...]\n"), 2;
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
    printf("%ld\n", ru.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
