/* Helpers shared by the vkskin commands: file loading with one clear error line, pose options,
 * read options, number parsing. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

uint8_t *vks_cli_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "vkskin: %s: cannot open: %s\n", path, strerror(errno));
        return NULL;
    }
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 1 << 16;
            uint8_t *p = realloc(buf, nc);
            if (!p) {
                fprintf(stderr, "vkskin: %s: out of memory reading the file\n", path);
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p, cap = nc;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        fprintf(stderr, "vkskin: %s: read error: %s\n", path, strerror(errno));
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *size = n;
    return buf;
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

static int file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

/* Where the engine would find a P3D model's config: <stem>.model.cfg beside it first (how the
 * project's samples pair them), then model.cfg in the model's folder and in each parent folder
 * up to the top of the path given (binarize walks up the same way). */
static char *find_model_cfg(const char *model_path)
{
    size_t n = strlen(model_path);
    char *buf = malloc(n + 32), *dir = malloc(n + 1);
    if (!buf || !dir) {
        free(buf);
        free(dir);
        return NULL;
    }
    memcpy(buf, model_path, n + 1);
    char *dot = strrchr(buf, '.'), *slash = strrchr(buf, '/');
    if (dot && (!slash || dot > slash)) {
        strcpy(dot, ".model.cfg");
        if (file_exists(buf)) {
            free(dir);
            return buf;
        }
    }
    memcpy(dir, model_path, n + 1);
    for (;;) {
        slash = strrchr(dir, '/');
        if (!slash) {
            snprintf(buf, n + 32, "model.cfg");
            int found = file_exists(buf);
            free(dir);
            if (found)
                return buf;
            free(buf);
            return NULL;
        }
        *slash = 0; /* dir is now the folder above what it named */
        snprintf(buf, n + 32, "%s/model.cfg", dir);
        if (file_exists(buf)) {
            free(dir);
            return buf;
        }
        if (dir[0] == 0) { /* reached the root of an absolute path */
            free(dir);
            free(buf);
            return NULL;
        }
    }
}

vks_skin *vks_cli_load_skin(const char *path, const vks_read_options *opt_in)
{
    size_t size = 0;
    uint8_t *bytes = vks_cli_read_file(path, &size);
    if (!bytes)
        return NULL;
    vks_read_options opt = opt_in ? *opt_in : (vks_read_options){0};
    char *cfg_text = NULL, *stem = NULL;
    const char *fmt = NULL;
    vks_detect_format(bytes, size, path, &fmt);
    if (fmt && !strcmp(fmt, "p3d")) {
        if (!opt.p3d.model_cfg) {
            char *cfg_path = find_model_cfg(path);
            if (cfg_path) {
                size_t cfg_size = 0;
                cfg_text = (char *)vks_cli_read_file(cfg_path, &cfg_size);
                if (cfg_text) {
                    opt.p3d.model_cfg = cfg_text;
                    opt.p3d.model_cfg_size = cfg_size;
                    fprintf(stderr, "vkskin: %s: using skeleton config %s\n", path, cfg_path);
                }
                free(cfg_path);
            }
        }
        if (!opt.p3d.model_name) {
            const char *base = strrchr(path, '/');
            base = base ? base + 1 : path;
            stem = strdup(base);
            if (stem) {
                char *dot = strrchr(stem, '.');
                if (dot)
                    *dot = 0;
                opt.p3d.model_name = stem;
            }
        }
    }
    vks_skin *skin = NULL;
    vks_error err = {0};
    vks_result r = vks_read_any(&opt, bytes, size, path, &skin, &err);
    if (r == VKS_OK)
        r = vks_skin_validate(skin, &err);
    free(bytes);
    free(cfg_text);
    free(stem);
    if (r != VKS_OK) {
        char msg[512];
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, path, msg, sizeof msg));
        vks_skin_free(skin);
        return NULL;
    }
    return skin;
}

int vks_cli_parse_u64(const char *opt, const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    if (!text || !*text || *text == '-') {
        fprintf(stderr, "vkskin: %s needs a non-negative number\n", opt);
        return 0;
    }
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end) {
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

void vks_cli_pose_defaults(vks_cli_pose *p)
{
    memset(p, 0, sizeof *p);
    p->instances = 1;
    p->frames = 1;
    p->seed = 1;
    p->fps = 30.0f;
}

static const char *value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "vkskin: %s needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

int vks_cli_pose_option(vks_cli_pose *p, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v;
    if (!strcmp(a, "--procedural")) {
        p->procedural = 1;
        return 1;
    }
    if (!strcmp(a, "--pose")) {
        if (!(v = value(argc, argv, i)))
            return -1;
        p->pose_file = v;
        return 1;
    }
    if (!strcmp(a, "--instances")) {
        if (!(v = value(argc, argv, i)) || !vks_cli_parse_u32(a, v, &p->instances))
            return -1;
        if (p->instances == 0) {
            fprintf(stderr, "vkskin: --instances must be at least 1\n");
            return -1;
        }
        return 1;
    }
    if (!strcmp(a, "--frames")) {
        if (!(v = value(argc, argv, i)) || !vks_cli_parse_u32(a, v, &p->frames))
            return -1;
        if (p->frames == 0) {
            fprintf(stderr, "vkskin: --frames must be at least 1\n");
            return -1;
        }
        return 1;
    }
    if (!strcmp(a, "--seed")) {
        if (!(v = value(argc, argv, i)) || !vks_cli_parse_u64(a, v, &p->seed))
            return -1;
        return 1;
    }
    if (!strcmp(a, "--fps")) {
        if (!(v = value(argc, argv, i)))
            return -1;
        char *end;
        p->fps = strtof(v, &end);
        if (*end || !(p->fps > 0) || p->fps > 1e6f) {
            fprintf(stderr, "vkskin: --fps: '%s' is not a positive number\n", v);
            return -1;
        }
        return 1;
    }
    return 0;
}

int vks_cli_poser_init(vks_cli_poser *ps, const vks_skin *skin, const vks_cli_pose *opt)
{
    memset(ps, 0, sizeof *ps);
    ps->skin = skin;
    ps->opt = *opt;
    if (!opt->pose_file)
        return 1;
    if (opt->procedural) {
        fprintf(stderr, "vkskin: --pose and --procedural exclude each other\n");
        return 0;
    }
    size_t size = 0;
    char *json = (char *)vks_cli_read_file(opt->pose_file, &size);
    if (!json)
        return 0;
    vks_error err = {0};
    vks_result r = vks_pose_file_parse(skin, json, size, &ps->set, &err);
    free(json);
    if (r != VKS_OK) {
        char msg[512];
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, opt->pose_file, msg, sizeof msg));
        return 0;
    }
    return 1;
}

void vks_cli_poser_locals(const vks_cli_poser *ps, uint32_t instance, uint32_t frame, vks_affine *out)
{
    const vks_skin *s = ps->skin;
    if (ps->set.locals) {
        uint32_t f = frame % ps->set.frame_count;
        memcpy(out, ps->set.locals + (size_t)f * s->node_count, s->node_count * sizeof *out);
        return;
    }
    vks_pose_procedural(s, ps->opt.seed, instance, (float)frame / ps->opt.fps, 0.0f, out);
}

void vks_cli_poser_free(vks_cli_poser *ps)
{
    vks_pose_set_free(&ps->set);
}

int vks_cli_read_option(vks_read_options *opt, char **cfg_text, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v;
    if (!strcmp(a, "--model-cfg")) {
        if (!(v = value(argc, argv, i)))
            return -1;
        size_t size = 0;
        free(*cfg_text);
        *cfg_text = (char *)vks_cli_read_file(v, &size);
        if (!*cfg_text)
            return -1;
        opt->p3d.model_cfg = *cfg_text;
        opt->p3d.model_cfg_size = size;
        return 1;
    }
    if (!strcmp(a, "--model-name")) {
        if (!(v = value(argc, argv, i)))
            return -1;
        opt->p3d.model_name = v;
        return 1;
    }
    if (!strcmp(a, "--lod")) {
        if (!(v = value(argc, argv, i)))
            return -1;
        opt->p3d.lod = v;
        return 1;
    }
    if (!strcmp(a, "--bones")) {
        if (!(v = value(argc, argv, i)))
            return -1;
        opt->p3d.bones = v;
        return 1;
    }
    if (!strcmp(a, "--bone-limit")) {
        if (!(v = value(argc, argv, i)) || !vks_cli_parse_u32(a, v, &opt->p3d.bone_limit))
            return -1;
        return 1;
    }
    return 0;
}
