/* The one rule every output obeys before any work (docs/safety.md): no output is one of the
 * files the run reads. The run lists what it reads (models with the model.cfg a P3D reader
 * would find and a .gltf's buffers, pose, crowd and clip files, manifests, goldens) and each
 * output path it will write is compared with every one of them by file identity (device and
 * inode after following symlinks, vks_output_same_file), never by spelling. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bake/output_plan_internal.h"
#include "core/path_join.h"
#include "core/vec.h"
#include "vkskin/output.h"

struct vks_output_input {
    char *path;
    char *label;
    dev_t dev; /* its identity when listed (stat, symlinks followed) */
    ino_t ino;
};

vks_result vks__output_say(const vks_logger *log, vks_error *err, vks_result code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *line = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (line) {
        va_start(ap, fmt);
        vsnprintf(line, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    const char *text = line ? line : "out of memory saying why an output is refused";
    if (log && log->func)
        log->func(log->user, VKS_LOG_ERROR, text);
    vks_error_set(err, code, VKS_NO_OFFSET, NULL, "%s", text);
    free(line);
    return code;
}

void vks_output_inputs_add(vks_output_inputs *in, const char *path, const char *label)
{
    struct stat st;
    if (!in || !path || !strcmp(path, "-") || stat(path, &st) != 0)
        return; /* a file that is not there cannot be overwritten: its reader says so */
    if (in->count == in->cap) {
        size_t cap = in->cap;
        vks_output_input *more = vks__grow_array(NULL, in->items, in->count, &cap, 1, sizeof *more, 16);
        if (!more) {
            in->nomem = 1;
            return;
        }
        in->items = more, in->cap = (uint32_t)cap;
    }
    vks_output_input *it = &in->items[in->count];
    it->dev = st.st_dev, it->ino = st.st_ino;
    it->path = strdup(path);
    it->label = strdup(label ? label : "an input");
    if (!it->path || !it->label) {
        free(it->path), free(it->label);
        in->nomem = 1;
        return;
    }
    in->count++;
}

typedef struct side_visit {
    vks_output_inputs *in;
    const char *of;
} side_visit;

static void add_side_file(void *user, const char *file, const char *what)
{
    const side_visit *v = user;
    char label[512];
    if (!strcmp(what, "model.cfg"))
        snprintf(label, sizeof label, "the model.cfg of %s", v->of);
    else
        snprintf(label, sizeof label, "%s of %s", what, v->of);
    vks_output_inputs_add(v->in, file, label);
}

void vks_output_inputs_add_model(vks_output_inputs *in, const char *path, const vks_read_options *ro,
                                 const char *label)
{
    if (!in || !path)
        return;
    vks_output_inputs_add(in, path, label);
    /* the files its reader reads or names beside it (a P3D's model.cfg, a .gltf's buffers and
       images), found by the library's own rules, so an output never replaces one */
    side_visit v = {in, path};
    if (vks_list_side_files(ro, path, add_side_file, &v, NULL) == VKS_ERR_NOMEM)
        in->nomem = 1;
}

static int named_like(const char *name, const char *prefix, const char *suffix)
{
    size_t n = strlen(name), np = strlen(prefix), ns = strlen(suffix);
    return n >= np + ns && !strncmp(name, prefix, np) && !strcmp(name + n - ns, suffix);
}

void vks_output_inputs_add_like(vks_output_inputs *in, const char *dir, const char *prefix, const char *suffix,
                                const char *label)
{
    DIR *d = in && dir ? opendir(dir) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        /* a name that is the suffix alone (".json") is no file of the kind */
        if (!named_like(e->d_name, prefix, suffix) || strlen(e->d_name) == strlen(suffix))
            continue;
        char *path = vks__path_join(dir, e->d_name);
        if (!path) {
            in->nomem = 1;
            break;
        }
        vks_output_inputs_add(in, path, label);
        free(path);
    }
    if (d)
        closedir(d);
}

void vks_output_inputs_free(vks_output_inputs *in)
{
    if (!in)
        return;
    for (uint32_t i = 0; i < in->count; i++)
        free(in->items[i].path), free(in->items[i].label);
    free(in->items);
    memset(in, 0, sizeof *in);
}

vks_result vks_output_refuse_input(const vks_output_inputs *in, const char *option, const char *out,
                                   const vks_logger *log, vks_error *err)
{
    if (in->nomem)
        return vks__output_say(log, err, VKS_ERR_NOMEM, "out of memory listing the inputs");
    /* One stat of the output against the identities taken when the inputs were listed: a bake
       checks hundreds of outputs against its every model and clip, and a comparison per pair
       (vks_output_same_file: three stats and maybe two realpaths) cost more than its writes. */
    if (!out || !strcmp(out, "-")) /* standard output */
        return VKS_OK;
    struct stat os;
    int known = stat(out, &os) == 0;
    if (!known && (errno == ENOENT || errno == ENOTDIR))
        return VKS_OK; /* a new name, or a link to none, makes a new file: no input */
    for (uint32_t i = 0; i < in->count; i++)
        if (known ? os.st_dev == in->items[i].dev && os.st_ino == in->items[i].ino
                  : vks_output_same_file(out, in->items[i].path))
            return vks__output_say(log, err, VKS_ERR_INVALID,
                                   "%s%s%s: the output is %s (%s), one of the inputs; refusing to overwrite it",
                                   option ? option : "", option ? " " : "", out, in->items[i].path,
                                   in->items[i].label);
    return VKS_OK;
}

vks_result vks_output_refuse_input_like(const vks_output_inputs *in, const char *option, const char *dir,
                                        const char *prefix, const char *suffix, const vks_logger *log,
                                        vks_error *err)
{
    /* Only a name that exists can lead to an input (itself, a symlink or a hard link to one): a
       new name makes a new file. So the folder's matching names are every case there is. */
    if (in->nomem)
        return vks_output_refuse_input(in, option, NULL, log, err);
    DIR *d = opendir(dir);
    if (!d)
        return VKS_OK;
    vks_result r = VKS_OK;
    struct dirent *e;
    while (r == VKS_OK && (e = readdir(d))) {
        if (!named_like(e->d_name, prefix, suffix))
            continue;
        char *path = vks__path_join(dir, e->d_name);
        r = path ? vks_output_refuse_input(in, option, path, log, err)
                 : vks__output_say(log, err, VKS_ERR_NOMEM, "out of memory listing the inputs");
        free(path);
    }
    closedir(d);
    return r;
}
