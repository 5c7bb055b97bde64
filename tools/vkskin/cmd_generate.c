/* Placeholder: 'generate' lands with its issue. */
#include "cli.h"

int vks_cmd_generate(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "vkskin generate: not built yet\n");
    return VKS_EXIT_RUNTIME;
}
