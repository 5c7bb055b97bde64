#include "cli.h"

int vks_cmd_deform(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "vkskin deform: not built yet\n");
    return VKS_EXIT_RUNTIME;
}
