/* Helpers shared by the vkskin commands: file loading with one clear error line, read options,
 * number parsing. Pose options are in cli_pose.c, clips and crowds in cli_anim.c. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inspect/findings.h"

uint64_t vks_cli_max_input_bytes = VKS_CLI_DEFAULT_MAX_INPUT_MB << 20;

/* The library's reader, so the CLI and every host of the library read an input the same way:
 * a large regular file refused by its size before a byte is read, anything else read until it
 * ends or passes the limit, and never further. */
uint8_t *vks_cli_read_file(const char *path, size_t *size)
{
    void *bytes = NULL;
    vks_error err = {0};
    vks_result r = vks_file_read_default(NULL, path, vks_cli_max_input_bytes, &bytes, size, &err);
    if (r != VKS_OK) {
        fprintf(stderr, "vkskin: %s: %s%s\n", path, err.msg, r == VKS_ERR_LIMIT ? " (--max-input-mb N)" : "");
        return NULL;
    }
    return bytes; /* the default allocator's: free() releases it */
}

static int exit_rank(int code)
{
    static const int order[] = {0, 2, 1, 6, 3, 4, 5}; /* least severe first */
    for (int i = 0; i < (int)(sizeof order / sizeof *order); i++)
        if (order[i] == code)
            return i;
    return (int)(sizeof order / sizeof *order); /* an unknown code counts as the worst */
}

int vks_cli_worse_exit(int a, int b)
{
    return exit_rank(b) > exit_rank(a) ? b : a;
}

int vks_cli_exit_code(vks_result r)
{
    switch (r) {
    case VKS_OK: return VKS_EXIT_OK;
    case VKS_ERR_NO_DEVICE: return VKS_EXIT_NO_DEVICE;
    case VKS_ERR_VULKAN:
    case VKS_ERR_NOMEM:
    case VKS_ERR_IO: return VKS_EXIT_RUNTIME;
    default: return VKS_EXIT_INPUT;
    }
}

/* The reader's warnings and notes name the part of the file (a block, a chunk path, an
 * offset); the file itself is named here, as every other message of the CLI names it. */
static void log_naming_file(void *user, vks_log_level level, const char *msg)
{
    (void)level;
    const char *path = user;
    size_t n = strlen(path);
    /* a note that names the file itself already (P3D's "PATH: using skeleton config ...") */
    if (!strncmp(msg, path, n) && msg[n] == ':')
        fprintf(stderr, "vkskin: %s\n", msg);
    else
        fprintf(stderr, "vkskin: %s: %s\n", path, msg);
}

/* The library reads and validates the model and, for a P3D, finds its model.cfg
 * (vks_load_model); the CLI only adds its input limit and prints the library's notes (lost
 * influences included), naming the file. */
static vks_skin *load_skin(const char *path, const vks_read_options *opt_in, const uint8_t *bytes, size_t size)
{
    vks_read_options opt = opt_in ? *opt_in : (vks_read_options){0};
    opt.file.max_size = vks_cli_max_input_bytes;
    if (!opt.logger.func) {
        opt.logger.func = log_naming_file;
        opt.logger.user = (void *)path;
    }
    vks_skin *skin = NULL;
    vks_error err = {0};
    vks_result r = bytes ? vks_load_model_bytes(&opt, path, bytes, size, &skin, &err) /* inspect's: read once */
                         : vks_load_model(&opt, path, &skin, &err);
    if (r != VKS_OK) { /* its notes went through the logger */
        char msg[512];
        fprintf(stderr, "vkskin: %s\n", vks_load_error_format(&err, path, "(--max-input-mb N)", msg, sizeof msg));
        return NULL;
    }
    return skin;
}

vks_skin *vks_cli_load_skin(const char *path, const vks_read_options *opt)
{
    return load_skin(path, opt, NULL, 0);
}

vks_skin *vks_cli_load_skin_bytes(const char *path, const uint8_t *bytes, size_t size, const vks_read_options *opt)
{
    return load_skin(path, opt, bytes, size);
}

int vks_cli_parse_u64(const char *opt, const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    if (!text || !*text || *text == '-') {
        fprintf(stderr, "vkskin: %s needs a non-negative number\n", opt);
        return 0;
    }
    /* strtoull takes leading spaces and a sign: " 5" and "+5" are not what the user meant to type */
    unsigned long long v = *text >= '0' && *text <= '9' ? strtoull(text, &end, 10) : 0;
    if (errno || !end || *end) {
        fprintf(stderr, "vkskin: %s: '%s' is not a number\n", opt, text);
        return 0;
    }
    *out = v;
    return 1;
}

int vks_cli_parse_u32(const char *opt, const char *text, uint32_t *out)
{
    uint64_t v;
    if (!vks_cli_parse_u64(opt, text, &v))
        return 0;
    if (v > UINT32_MAX) {
        fprintf(stderr, "vkskin: %s: %s is too large\n", opt, text);
        return 0;
    }
    *out = (uint32_t)v;
    return 1;
}

int vks_cli_decimal_text(const char *text)
{
    if (!text || !(*text == '-' || *text == '.' || (*text >= '0' && *text <= '9')))
        return 0;
    for (const char *p = text; *p; p++)
        if (!strchr("0123456789.-+eE", *p))
            return 0;
    return 1;
}

/* --max-input-mb N: a limit of the whole run, not of one read. */
static int set_max_input(void *field, const vks_cli_option *o, const char *v)
{
    (void)field;
    uint64_t mb;
    if (!vks_cli_parse_u64(o->name, v, &mb))
        return 0;
    if (mb == 0 || mb > (UINT64_MAX >> 20)) {
        fprintf(stderr, "vkskin: --max-input-mb must be between 1 and %llu\n", (unsigned long long)(UINT64_MAX >> 20));
        return 0;
    }
    vks_cli_max_input_bytes = mb << 20;
    return 1;
}

#define AT(field) offsetof(vks_read_options, field)
static const vks_cli_option read_options[] = {
    {"--model-cfg", 0, "FILE", vks_cli_store_string, AT(p3d.model_cfg_name), 0, 0,
     "P3D: model.cfg with CfgSkeletons (default: found beside the model)", NULL},
    {"--model-name", 0, "NAME", vks_cli_store_string, AT(p3d.model_name), 0, 0,
     "P3D: the CfgModels class (default: the file's stem)", NULL},
    {"--lod", 0, "X", vks_cli_store_string, AT(p3d.lod), 0, 0, "P3D: the LOD to read (default: the first visual LOD)", NULL},
    {"--bones", 0, "a,b,...", vks_cli_store_string, AT(p3d.bones), 0, 0,
     "P3D: bone selections when there is no skeleton", NULL},
    {"--bone-limit", 0, "N", vks_cli_store_u32, AT(p3d.bone_limit), 0, 0,
     "P3D: bones per section palette (default 64)", NULL},
    {"--uri-root", 0, "DIR", vks_cli_store_string, AT(gltf.root), 0, 0,
     "glTF: external buffers and images may also lie in DIR",
     "default: only the model's folder and below; see docs/safety.md"},
    {"--max-input-mb", 0, "N", set_max_input, 0, 0, 0, "a model and every file it reads together stay within N MB (default 2048)",
     "larger inputs are refused: a regular file by its size before it is read, a pipe or device once it passes "
     "the limit"},
};
#undef AT

const vks_cli_group vks_cli_read_options = VKS_CLI_GROUP("read options (P3D, glTF, limits)", read_options);

vks_clip_set *vks_cli_read_clips(const char *where, const char *path, const uint8_t *bytes, size_t size,
                                 const vks_skin *json_skin, const vks_read_options *ropt)
{
    vks_clip_set *set = NULL;
    vks_error err = {0};
    if (vks_read_clip_bytes(ropt, path, bytes, size, json_skin, &set, &err) == VKS_OK)
        return set;
    char msg[512];
    fprintf(stderr, "vkskin: %s%s%s\n", where ? where : "", where ? ": " : "",
            vks_load_error_format(&err, path, NULL, msg, sizeof msg));
    return NULL;
}

int vks_cli_bind_check(const char *path, const vks_skin *skin, int allow_mismatch, vks_bind_check *out)
{
    const vks_logger on_stderr = {vks_log_stderr, NULL};
    vks_error err = {0};
    int finding = 0;
    if (vks__bind_check_say(path, skin, allow_mismatch, &on_stderr, out, &finding, &err) != VKS_OK) {
        char msg[512];
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, path, msg, sizeof msg));
        return VKS_EXIT_RUNTIME;
    }
    return finding ? VKS_EXIT_BIND : VKS_EXIT_OK;
}
