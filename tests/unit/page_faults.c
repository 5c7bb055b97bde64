/* page_faults COMMAND [ARG...]: runs the command and prints its peak resident set size in KiB
 * and its minor page faults (getrusage of the waited-for child: ru_maxrss, ru_minflt) on one
 * line of stdout; exits with the command's status (128 + the signal when one killed it, 127
 * when it could not be started). For the tests that bound how often a run faults its pages in
 * (cli_bake_faults.sh): a count, not a time. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return fprintf(stderr, "usage: page_faults COMMAND [ARG...]\n"), 2;
    pid_t pid = fork();
    if (pid < 0)
        return perror("page_faults: fork"), 127;
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid)
        return perror("page_faults: wait4"), 127;
    printf("%ld %ld\n", ru.ru_maxrss, ru.ru_minflt);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
