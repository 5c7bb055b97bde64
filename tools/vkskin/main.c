/* vkskin: read skinned meshes, deform posed instances on the CPU or the GPU, prove the
 * results against the CPU reference. Each command lives in its own cmd_*.c file. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_thread.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"inspect", vks_cmd_inspect, "print a file's skin model and its bind-pose check"},
    {"deform", vks_cmd_deform, "deform posed instances (--cpu or --gpu) and write the vertices"},
    {"validate", vks_cmd_validate, "deform on the GPU and the CPU reference and compare"},
    {"bench", vks_cmd_bench, "measure vertex-instances per second for every engine"},
    {"devices", vks_cmd_devices, "list the Vulkan devices and the limits that matter"},
    {"tune", vks_cmd_tune, "time the launch shapes on this device and keep the fastest"},
    {"generate", vks_cmd_generate, "write procedural skinned characters (test and bench data)"},
    {"render", vks_cmd_render, "draw posed instances on the GPU into a PNG contact sheet"},
    {"bake", vks_cmd_bake, "bake a manifest of characters and clips into VAT textures, bone atlases and caches"},
    {"convert", vks_cmd_convert, "write a model and its clips as glTF 2.0 (.glb or .gltf)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: vkskin COMMAND [options]   (vkskin COMMAND --help for each)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    /* the library's format registry: a format added there shows here */
    fprintf(f, "\nformats (model files; clip files; pose JSON plays on every model):\n");
    for (uint32_t i = 0; i < vks_format_count(); i++) {
        const vks_format_info *fi = vks_format_at(i);
        int col = fprintf(f, "  %-17s", fi->title);
        for (const char *const *e = fi->model_extensions; *e; e++)
            col += fprintf(f, " %s", *e);
        if (fi->side_file)
            col += fprintf(f, " (+ %s)", fi->side_file);
        fprintf(f, "%*s", col < 40 ? 40 - col : 1, "");
        for (const char *const *e = fi->clip_extensions; e && *e; e++)
            fprintf(f, "%s%s", e == fi->clip_extensions ? "" : " ", *e);
        fprintf(f, "\n");
    }
    fprintf(f, "\nexit codes: 0 ok, 1 bad input, 2 usage, 3 validation failed, 4 no Vulkan device,\n"
               "            5 runtime failure (Vulkan, memory, output), 6 bind-pose check failed\n");
}

int main(int argc, char **argv)
{
    vks_cli_install_signal_cleanup(); /* an interrupted run leaves no temporary behind */
    vks_cli_thread_say_refusals();    /* a thread refused is said, with what runs instead */
    if (argc < 2) {
        usage(stderr);
        return VKS_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return VKS_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        /* include/vkskin/version.h, the one place the version is written */
        printf("vkskin %s%s\n", vks_version_string(),
               vks_has_gpu() ? "" : " (built without GPU support)");
        return VKS_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "vkskin: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return VKS_EXIT_USAGE;
}
