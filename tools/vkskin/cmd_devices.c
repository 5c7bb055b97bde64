/* vkskin devices [--json]: the Vulkan devices this machine sees, with the limits that size
 * the GPU batches (storage binding range, shared memory, subgroup size, memory heaps), every
 * queue family (flags, queue count, timestamp bits, as vulkaninfo lists them), the family and
 * queue batch work, rendering and the stream's readback copies use on each (readback: a copy
 * engine's family beside batch work's where the device has one), the launch shape a run would
 * start with and why (vks_gpu_list_launch_shapes), and which device `--gpu` picks by default.
 * The list, its text and its JSON are the library's (devices.h); this file is the options and
 * the exit codes. Exit 4 when there is none. */
#include <stdlib.h>

#include "cli.h"
#include "vkskin/devices.h"

static const vks_cli_option devices_options[] = {
    {"--json", 0, NULL, vks_cli_store_flag, 0, 0, 0, "machine-readable output on stdout", NULL},
};
static const vks_cli_group devices_group = VKS_CLI_GROUP("options", devices_options);
static const vks_cli_group *const devices_groups[] = {&devices_group, NULL};

const vks_cli_command vks_cli_cmd_devices = {
    .name = "devices",
    .summary = "list the Vulkan devices and the limits that matter",
    .synopsis = "[--json]",
    .description = "Lists the Vulkan devices with the limits that size GPU batches, every queue family and the family "
                   "and queue batch work and rendering use; '*' marks the one --gpu uses by default. For each, the "
                   "launch shape a run would start with and why: the tuning table's row (\"table\"), a shape "
                   "measured before on this device and driver (\"cache\"), or VKSKIN_LAUNCH_SHAPE (\"forced\"); "
                   "the launch-shape cache file it looked at; and whether a large first run calibrates (a device "
                   "the table does not know; docs/performance.md: Calibration at first use).",
    .epilogue = "exit codes: 0 ok, 4 no Vulkan device",
    .groups = devices_groups,
    .run = vks_cmd_devices,
};

int vks_cmd_devices(int argc, char **argv)
{
    int json = 0, operands = 0;
    int parsed = vks_cli_parse(&vks_cli_cmd_devices, (void *[]){&json}, argc, argv, &operands, NULL, NULL);
    if (parsed != VKS_CLI_GO_ON)
        return parsed;
    if (operands) {
        fprintf(stderr, "vkskin devices: takes no operand ('%s')\n", argv[1]);
        return VKS_EXIT_USAGE;
    }
    /* What a context of vkskin's own would run with: the CLI's options (VKSKIN_LAUNCH_SHAPE as
     * every GPU command takes it; the cache where they look). */
    vks_gpu_options so = {0};
    so.launch_shape = getenv("VKSKIN_LAUNCH_SHAPE");
    so.logger.func = vks_log_stderr; /* a damaged cache entry is named, as the GPU commands do */
    vks_device_list *list = malloc(sizeof *list);
    vks_error err = {0};
    if (!list) {
        fprintf(stderr, "vkskin devices: out of memory\n");
        return VKS_EXIT_RUNTIME;
    }
    int rc = VKS_EXIT_OK;
    if (vks_device_list_get(&so, list, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: no Vulkan device: %s (exit %d)\n", err.msg, VKS_EXIT_NO_DEVICE);
        rc = err.code == VKS_ERR_NO_DEVICE ? VKS_EXIT_NO_DEVICE : VKS_EXIT_RUNTIME;
    } else if ((json ? vks_device_list_write_json(list, stdout, &err) : vks_device_list_write_text(list, stdout, &err))
               != VKS_OK) {
        fprintf(stderr, "vkskin devices: %s\n", err.msg);
        rc = VKS_EXIT_RUNTIME;
    }
    free(list);
    return rc;
}
