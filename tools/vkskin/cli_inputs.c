/* The one rule every command applies to every output before any work (docs/safety.md): no
 * output is one of the files the run reads. The run lists what it reads (models with the
 * model.cfg a P3D reader would find, pose, crowd and clip files, manifests, goldens) and each
 * output path it will write is compared with every one of them by file identity (device and
 * inode after following symlinks, vks_output_same_file), never by spelling. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "core/vec.h"

void vks_cli_inputs_add(vks_cli_inputs *in, const char *path, const char *label, ...)
{
    struct stat st;
    if (!path || !strcmp(path, "-") || stat(path, &st) != 0)
        return; /* a file that is not there cannot be overwritten: its reader says so */
    if (in->count == in->cap) {
        size_t cap = (size_t)in->cap;
        vks_cli_input *more = vks__grow_array(NULL, in->items, (size_t)in->count, &cap, 1, sizeof *more, 16);
        if (!more) {
            in->nomem = 1;
            return;
        }
        in->items = more, in->cap = (int)cap;
    }
    char text[512];
    va_list ap;
    va_start(ap, label);
    vsnprintf(text, sizeof text, label, ap);
    va_end(ap);
    vks_cli_input *it = &in->items[in->count];
    it->dev = st.st_dev, it->ino = st.st_ino;
    it->path = strdup(path);
    it->label = strdup(text);
    if (!it->path || !it->label) {
        free(it->path), free(it->label);
        in->nomem = 1;
        return;
    }
    in->count++;
}

typedef struct side_visit {
    vks_cli_inputs *in;
    const char *of;
} side_visit;

static void add_side_file(void *user, const char *file, const char *what)
{
    const side_visit *v = user;
    if (!strcmp(what, "model.cfg"))
        vks_cli_inputs_add(v->in, file, "the model.cfg of %s", v->of);
    else
        vks_cli_inputs_add(v->in, file, "%s of %s", what, v->of);
}

void vks_cli_inputs_add_model(vks_cli_inputs *in, const char *path, const vks_read_options *ro, const char *label)
{
    if (!path)
        return;
    vks_cli_inputs_add(in, path, "%s", label);
    /* the files its reader reads or names beside it (a P3D's model.cfg, a .gltf's buffers and
       images), found by the library's own rules, so an output never replaces one */
    vks_read_options find = ro ? *ro : (vks_read_options){0};
    find.file.max_size = vks_cli_max_input_bytes;
    side_visit v = {in, path};
    if (vks_list_side_files(&find, path, add_side_file, &v, NULL) == VKS_ERR_NOMEM)
        in->nomem = 1;
}

void vks_cli_inputs_add_run(vks_cli_inputs *in, const vks_cli_pose *p, const vks_read_options *ro)
{
    for (uint32_t m = 0; m < p->plan.model_count; m++)
        vks_cli_inputs_add_model(in, p->plan.models[m], ro, "the model");
    if (ro && ro->p3d.model_cfg_name)
        vks_cli_inputs_add(in, ro->p3d.model_cfg_name, "the --model-cfg file");
    vks_cli_inputs_add(in, p->o.pose_file, "the pose file");
    int n = 0;
    const char **files = vks_pose_plan_inputs(&p->plan, &n); /* the crowd file first, then the clip files */
    if (!files && (p->o.crowd || p->plan.clips))
        in->nomem = 1;
    for (int k = 0; k < n; k++)
        vks_cli_inputs_add_model(in, files[k], ro, k == 0 && p->o.crowd ? "the crowd file" : "the clip file");
    free(files);
}

void vks_cli_inputs_free(vks_cli_inputs *in)
{
    for (int i = 0; i < in->count; i++)
        free(in->items[i].path), free(in->items[i].label);
    free(in->items);
    memset(in, 0, sizeof *in);
}

int vks_cli_refuse_input(const vks_cli_inputs *in, const char *option, const char *out)
{
    if (in->nomem) {
        fprintf(stderr, "vkskin: out of memory listing the inputs\n");
        return VKS_EXIT_RUNTIME;
    }
    /* One stat of the output against the identities taken when the inputs were listed: a bake
       checks hundreds of outputs against its every model and clip, and a comparison per pair
       (vks_output_same_file: three stats and maybe two realpaths) cost more than its writes. */
    if (out && !strcmp(out, "-")) /* standard output */
        return VKS_EXIT_OK;
    struct stat os;
    int known = out && stat(out, &os) == 0;
    if (out && !known && (errno == ENOENT || errno == ENOTDIR))
        return VKS_EXIT_OK; /* a new name, or a link to none, makes a new file: no input */
    for (int i = 0; out && i < in->count; i++)
        if (known ? os.st_dev == in->items[i].dev && os.st_ino == in->items[i].ino
                  : vks_output_same_file(out, in->items[i].path)) {
            fprintf(stderr, "vkskin: %s%s%s: the output is %s (%s), one of the inputs; refusing to overwrite it\n",
                    option ? option : "", option ? " " : "", out, in->items[i].path, in->items[i].label);
            return VKS_EXIT_USAGE;
        }
    return VKS_EXIT_OK;
}

int vks_cli_refuse_input_like(const vks_cli_inputs *in, const char *option, const char *dir, const char *prefix,
                              const char *suffix)
{
    /* Only a name that exists can lead to an input (itself, a symlink or a hard link to one): a
       new name makes a new file. So the folder's matching names are every case there is. */
    if (in->nomem)
        return vks_cli_refuse_input(in, option, NULL);
    DIR *d = opendir(dir);
    if (!d)
        return VKS_EXIT_OK;
    size_t np = strlen(prefix), ns = strlen(suffix);
    int rc = VKS_EXIT_OK;
    struct dirent *e;
    while (rc == VKS_EXIT_OK && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < np + ns || strncmp(e->d_name, prefix, np) || strcmp(e->d_name + n - ns, suffix))
            continue;
        size_t len = strlen(dir) + n + 2;
        char *path = malloc(len);
        if (!path) {
            rc = VKS_EXIT_RUNTIME;
            break;
        }
        snprintf(path, len, "%s/%s", dir, e->d_name);
        rc = vks_cli_refuse_input(in, option, path);
        free(path);
    }
    closedir(d);
    return rc;
}
