/* Placeholder: 'devices' lands with its issue. */
#include "cli.h"

int vks_cmd_devices(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "vkskin devices: not built yet\n");
    return VKS_EXIT_RUNTIME;
}
