/* vkskin: read skinned meshes, deform posed instances on the CPU or the GPU, prove the
 * results against the CPU reference. Each command lives in its own cmd_*.c file with its
 * record and option table (cli_options.h); this file lists them and dispatches. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_thread.h"

/* In `vkskin --help` order; the references (vkskin help --man, --markdown) follow it too. */
const vks_cli_command *const vks_cli_commands[] = {
    &vks_cli_cmd_inspect, &vks_cli_cmd_deform, &vks_cli_cmd_validate,       &vks_cli_cmd_bench,
    &vks_cli_cmd_bench_crowd, &vks_cli_cmd_devices, &vks_cli_cmd_tune,      &vks_cli_cmd_generate,
    &vks_cli_cmd_render,  &vks_cli_cmd_bake,   &vks_cli_cmd_convert,
};
const size_t vks_cli_command_count = sizeof vks_cli_commands / sizeof *vks_cli_commands;

int main(int argc, char **argv)
{
    vks_cli_install_signal_cleanup(); /* an interrupted run leaves no temporary behind */
    vks_cli_thread_say_refusals();    /* a thread refused is said, with what runs instead */
    if (argc < 2) {
        vks_cli_usage(stderr);
        return VKS_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        vks_cli_usage(stdout);
        return VKS_EXIT_OK;
    }
    if (!strcmp(argv[1], "help")) /* help COMMAND, --man, --markdown, --check */
        return vks_cli_help_command(argc - 1, argv + 1);
    if (!strcmp(argv[1], "--version")) {
        /* include/vkskin/version.h, the one place the version is written */
        printf("vkskin %s%s\n", vks_version_string(),
               vks_has_gpu() ? "" : " (built without GPU support)");
        return VKS_EXIT_OK;
    }
    for (size_t i = 0; i < vks_cli_command_count; i++)
        if (vks_cli_commands[i]->run && !strcmp(argv[1], vks_cli_commands[i]->name))
            return vks_cli_commands[i]->run(argc - 1, argv + 1);
    fprintf(stderr, "vkskin: unknown command '%s'\n", argv[1]);
    vks_cli_usage(stderr);
    return VKS_EXIT_USAGE;
}
