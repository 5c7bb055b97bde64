/* Placeholder: 'bench' lands with its issue. */
#include "cli.h"

int vks_cmd_bench(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "vkskin bench: not built yet\n");
    return VKS_EXIT_RUNTIME;
}
