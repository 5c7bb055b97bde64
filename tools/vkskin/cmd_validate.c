/* Placeholder: 'validate' lands with its issue. */
#include "cli.h"

int vks_cmd_validate(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "vkskin validate: not built yet\n");
    return VKS_EXIT_RUNTIME;
}
