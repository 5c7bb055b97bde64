#include "cli.h"

int vks_cmd_inspect(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "vkskin inspect: not built yet\n");
    return VKS_EXIT_RUNTIME;
}
