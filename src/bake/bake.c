/* Output lifecycle: a temporary file beside the target, the map from the model's vertex
 * order back to the file's, frames in order, and the final rename that makes the output
 * appear complete or not at all. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bake_internal.h"

int vks_bake_format_parse(const char *name)
{
    if (!strcmp(name, "csv"))
        return VKS_BAKE_CSV;
    if (!strcmp(name, "raw"))
        return VKS_BAKE_RAW;
    if (!strcmp(name, "pc2"))
        return VKS_BAKE_PC2;
    if (!strcmp(name, "obj"))
        return VKS_BAKE_OBJ;
    return -1;
}

vks_bake_format vks_bake_format_from_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    int f = dot ? vks_bake_format_parse(dot + 1) : -1;
    return f < 0 ? VKS_BAKE_CSV : (vks_bake_format)f;
}

static void bake_free(vks_bake *b)
{
    if (!b)
        return;
    if (b->f)
        fclose(b->f);
    free(b->path);
    free(b->tmp_path);
    free(b->file_to_model);
    free(b->mesh_of_file);
    free(b->iobuf);
    free(b->frame);
    free(b);
}

static vks_result io_fail(vks_error *err, const char *what, const char *path)
{
    return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "%s: %s", what, strerror(errno));
}

vks_result vks_bake_open(vks_bake **out, const char *path, vks_bake_format format, const vks_skin *skin,
                         uint32_t instances, uint32_t frames, vks_error *err)
{
    *out = NULL;
    if (format == VKS_BAKE_OBJ && (uint64_t)instances * frames != 1)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                             "OBJ holds one frame of one instance (asked for %u instances x %u frames)", instances,
                             frames);
    vks_bake *b = calloc(1, sizeof *b);
    if (!b)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    b->format = format;
    b->skin = skin;
    b->instances = instances;
    b->frames = frames;
    size_t n = strlen(path);
    b->path = malloc(n + 1);
    b->tmp_path = malloc(n + 32);
    uint64_t total = 0;
    for (uint32_t m = 0; m < skin->mesh_count; m++)
        total += skin->meshes[m].source_vertex_count;
    if (total > UINT32_MAX / 2) {
        bake_free(b);
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, path, "%llu file vertices", (unsigned long long)total);
    }
    b->file_vertex_count = (uint32_t)total;
    b->file_to_model = malloc((total ? total : 1) * sizeof *b->file_to_model);
    b->mesh_of_file = malloc((total ? total : 1) * sizeof *b->mesh_of_file);
    b->iobuf = malloc(1 << 20);
    b->frame = malloc((total ? total : 1) * 6 * sizeof *b->frame);
    if (!b->path || !b->tmp_path || !b->file_to_model || !b->mesh_of_file || !b->iobuf || !b->frame) {
        bake_free(b);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    }
    memcpy(b->path, path, n + 1);
    snprintf(b->tmp_path, n + 32, "%s.tmp.%ld", path, (long)getpid());
    /* file vertex j of mesh m -> the first model vertex that came from it */
    uint32_t base = 0;
    for (uint32_t m = 0; m < skin->mesh_count; m++) {
        const vks_mesh *me = &skin->meshes[m];
        for (uint32_t j = 0; j < me->source_vertex_count; j++) {
            b->file_to_model[base + j] = UINT32_MAX;
            b->mesh_of_file[base + j] = m;
        }
        for (uint32_t v = me->vertex_count; v-- > 0;) {
            uint32_t gv = me->first_vertex + v;
            b->file_to_model[base + skin->source_vertex[gv]] = gv;
        }
        base += me->source_vertex_count;
    }
    b->f = fopen(b->tmp_path, "wb");
    if (!b->f) {
        vks_result r = io_fail(err, "cannot create the output", b->tmp_path);
        bake_free(b);
        return r;
    }
    setvbuf(b->f, b->iobuf, _IOFBF, 1 << 20);
    if (!vks__bake_header(b)) {
        vks_result r = io_fail(err, "cannot write the output", b->tmp_path);
        fclose(b->f);
        b->f = NULL;
        remove(b->tmp_path);
        bake_free(b);
        return r;
    }
    *out = b;
    return VKS_OK;
}

vks_result vks_bake_write(vks_bake *b, uint32_t instance, uint32_t frame, const float *positions,
                          const float *normals, vks_error *err)
{
    uint64_t expect = b->written;
    if (instance >= b->instances || frame >= b->frames || (uint64_t)instance * b->frames + frame != expect)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, b->path,
                             "frames must come in order: got instance %u frame %u", instance, frame);
    if (!vks__bake_frame(b, instance, frame, positions, normals))
        return io_fail(err, "cannot write the output", b->tmp_path);
    b->written++;
    return VKS_OK;
}

vks_result vks_bake_close(vks_bake *b, int commit, vks_error *err)
{
    if (!b)
        return VKS_OK;
    vks_result r = VKS_OK;
    if (commit && b->written != (uint64_t)b->instances * b->frames) {
        r = vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, b->path, "only %llu of %llu frames were written",
                          (unsigned long long)b->written, (unsigned long long)b->instances * b->frames);
        commit = 0;
    }
    int failed = ferror(b->f) != 0;
    if (fclose(b->f) != 0)
        failed = 1;
    b->f = NULL;
    if (commit && failed)
        r = io_fail(err, "cannot write the output", b->tmp_path), commit = 0;
    if (commit && rename(b->tmp_path, b->path) != 0)
        r = io_fail(err, "cannot rename the output into place", b->path), commit = 0;
    if (!commit)
        remove(b->tmp_path);
    bake_free(b);
    return r;
}
