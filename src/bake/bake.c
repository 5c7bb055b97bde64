/* Output lifecycle: the output file (vks_output: temporary and rename, or a stream), the map
 * from the model's vertex order back to the file's, frames in order, and the close that makes
 * the output appear complete or not at all. Sizes and format limits are checked at open, before
 * the caller deforms anything. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (!strcmp(name, "glb"))
        return VKS_BAKE_GLB;
    if (!strcmp(name, "gltf"))
        return VKS_BAKE_GLTF;
    return -1;
}

const char *vks_bake_format_name(vks_bake_format format)
{
    switch (format) {
    case VKS_BAKE_CSV: return "csv";
    case VKS_BAKE_RAW: return "raw";
    case VKS_BAKE_PC2: return "pc2";
    case VKS_BAKE_OBJ: return "obj";
    case VKS_BAKE_GLB: return "glb";
    case VKS_BAKE_GLTF: return "gltf";
    }
    return "csv";
}

vks_bake_format vks_bake_format_from_path(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    int f = dot && (!slash || dot > slash) ? vks_bake_format_parse(dot + 1) : -1;
    return f < 0 ? VKS_BAKE_CSV : (vks_bake_format)f;
}

static uint64_t file_vertices(const vks_skin *skin)
{
    uint64_t total = 0;
    for (uint32_t m = 0; m < skin->mesh_count; m++)
        total += skin->meshes[m].source_vertex_count;
    return total;
}

/* a * b * c saturating at UINT64_MAX (the sizes asked for may exceed any disk). */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

uint64_t vks_bake_size_bound(vks_bake_format format, const vks_skin *skin, uint32_t instances, uint32_t frames)
{
    uint64_t verts = mul_sat(mul_sat(instances, frames), file_vertices(skin));
    switch (format) {
    case VKS_BAKE_RAW: return mul_sat(verts, 24);
    case VKS_BAKE_PC2: {
        uint64_t body = mul_sat(verts, 12);
        return body > UINT64_MAX - 32 ? UINT64_MAX : body + 32;
    }
    case VKS_BAKE_CSV: return mul_sat(verts, 20);  /* 10 numbers, 9 commas and a newline at least */
    case VKS_BAKE_OBJ: return mul_sat(verts, 8);   /* "v x y z\n" */
    case VKS_BAKE_GLB:
    case VKS_BAKE_GLTF: return mul_sat(verts, 24); /* positions and normals of every frame */
    }
    return 0;
}

vks_result vks_bake_check(const char *path, vks_bake_format format, const vks_skin *skin, uint32_t instances,
                          uint32_t frames, vks_error *err)
{
    uint64_t samples = (uint64_t)instances * frames, verts = file_vertices(skin);
    if (format == VKS_BAKE_OBJ && samples != 1)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                             "OBJ holds one frame of one instance (asked for %u instances x %u frames)", instances,
                             frames);
    if (format == VKS_BAKE_PC2 && (samples > INT32_MAX || verts > INT32_MAX))
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, path,
                             "PC2 stores its sample and point counts in 32 bits: %llu samples (instances x frames) "
                             "of %llu points is over %d",
                             (unsigned long long)samples, (unsigned long long)verts, INT32_MAX);
    if ((format == VKS_BAKE_GLB || format == VKS_BAKE_GLTF) && instances != 1)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                             "a glTF bake holds one instance (asked for %u): bake one file per instance", instances);
    if ((format == VKS_BAKE_GLB || format == VKS_BAKE_GLTF) && mul_sat(samples, verts) > (2ull << 30) / 24)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, path,
                             "a glTF bake keeps its frames in memory: %llu frames of %llu vertices is over 2 GiB",
                             (unsigned long long)samples, (unsigned long long)verts);
    if (verts > UINT32_MAX / 2)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, path, "%llu file vertices", (unsigned long long)verts);
    return vks_output_check(path, vks_bake_size_bound(format, skin, instances, frames), err);
}

static void bake_free(vks_bake *b)
{
    if (!b)
        return;
    vks_output_close(b->out, 0, NULL);
    free(b->path);
    free(b->file_to_model);
    free(b->mesh_of_file);
    free(b->iobuf);
    free(b->kept);
    free(b);
}

vks_result vks_bake_open(vks_bake **out, const char *path, vks_bake_format format, const vks_skin *skin,
                         uint32_t instances, uint32_t frames, vks_error *err)
{
    *out = NULL;
    vks_result r = vks_bake_check(path, format, skin, instances, frames, err);
    if (r != VKS_OK)
        return r;
    vks_bake *b = calloc(1, sizeof *b);
    if (!b)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    b->format = format;
    b->skin = skin;
    b->instances = instances;
    b->frames = frames;
    size_t n = strlen(path);
    uint64_t total = file_vertices(skin);
    b->path = malloc(n + 1);
    b->file_vertex_count = (uint32_t)total;
    b->file_to_model = malloc((total ? total : 1) * sizeof *b->file_to_model);
    b->mesh_of_file = malloc((total ? total : 1) * sizeof *b->mesh_of_file);
    b->iobuf = malloc(1 << 20);
    b->fps = 30;
    int gltf = format == VKS_BAKE_GLB || format == VKS_BAKE_GLTF;
    if (gltf) /* vks_bake_check bounded frames * total * 24 bytes */
        b->kept = malloc(((size_t)frames * total + 1) * 6 * sizeof *b->kept);
    if (!b->path || !b->file_to_model || !b->mesh_of_file || !b->iobuf || (gltf && !b->kept)) {
        bake_free(b);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    }
    memcpy(b->path, path, n + 1);
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
    b->in_file_order = total == skin->vertex_count;
    for (uint32_t j = 0; j < total && b->in_file_order; j++)
        b->in_file_order = b->file_to_model[j] == j;
    if ((r = vks_output_open(&b->out, path, err)) != VKS_OK) {
        bake_free(b);
        return r;
    }
    b->f = vks_output_stream(b->out);
    setvbuf(b->f, b->iobuf, _IOFBF, 1 << 20);
    if (!vks__bake_header(b)) {
        vks_output_note_error(b->out, errno);
        vks_output_close(b->out, 1, err); /* reports the failed write, removes the temporary */
        b->out = NULL;
        bake_free(b);
        return VKS_ERR_IO;
    }
    *out = b;
    return VKS_OK;
}

void vks_bake_set_times(vks_bake *b, double start, double fps)
{
    if (b && isfinite(start))
        b->start = start;
    if (b && fps > 0 && isfinite(fps))
        b->fps = fps;
}

const char *vks_bake_temp_path(const vks_bake *b)
{
    return b && b->out && !vks_output_is_stream(b->out) ? vks_output_write_path(b->out) : NULL;
}

/* The first non-finite float of v[0..n), or n. The exponent test is integer work the compiler
 * vectorises, so a frame costs about a copy of it; isfinite only finds the culprit. */
static size_t first_non_finite(const float *v, size_t n)
{
    enum { BLOCK = 1024 };
    for (size_t at = 0; at < n; at += BLOCK) {
        size_t end = n - at < BLOCK ? n : at + BLOCK;
        uint32_t bad = 0;
        for (size_t i = at; i < end; i++) {
            uint32_t u;
            memcpy(&u, v + i, sizeof u);
            bad |= (u & 0x7f800000u) == 0x7f800000u;
        }
        for (size_t i = at; bad && i < end; i++)
            if (!isfinite(v[i]))
                return i;
    }
    return n;
}

/* The last guard before bytes go out: a pose can take a model beyond float32 (bones and clip
 * keys are bounded, but a hierarchy composes them), and no output holds an inf or a NaN. */
static vks_result check_finite(const vks_bake *b, uint32_t instance, uint32_t frame, const float *positions,
                               const float *normals, vks_error *err)
{
    size_t n = (size_t)b->skin->vertex_count * 3, at = first_non_finite(positions, n);
    const float *bad = at < n ? positions : NULL;
    if (!bad && normals && (at = first_non_finite(normals, n)) < n)
        bad = normals;
    if (!bad)
        return VKS_OK;
    char where[64];
    snprintf(where, sizeof where, "instance %u frame %u", instance, frame);
    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, where,
                         "vertex %u: deformed %s is %g, beyond float32 (the pose is too large to deform); "
                         "nothing more is written",
                         (unsigned)(at / 3), bad == positions ? "position" : "normal", (double)bad[at]);
}

vks_result vks_bake_write(vks_bake *b, uint32_t instance, uint32_t frame, const float *positions,
                          const float *normals, vks_error *err)
{
    uint64_t expect = b->written;
    if (instance >= b->instances || frame >= b->frames || (uint64_t)instance * b->frames + frame != expect)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, b->path,
                             "frames must come in order: got instance %u frame %u", instance, frame);
    vks_result r = check_finite(b, instance, frame, positions, normals, err);
    if (r != VKS_OK)
        return r;
    errno = 0;
    if (!vks__bake_frame(b, instance, frame, positions, normals)) {
        int e = errno ? errno : EIO;
        vks_output_note_error(b->out, e);
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, vks_output_write_path(b->out),
                             "cannot write the output: %s", strerror(e));
    }
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
    if (commit && (b->format == VKS_BAKE_GLB || b->format == VKS_BAKE_GLTF)) {
        errno = 0;
        if (!vks__bake_gltf_finish(b)) { /* the whole document is written now */
            int e = errno ? errno : ENOMEM;
            vks_output_note_error(b->out, e);
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, b->path, "cannot write the glTF: %s", strerror(e));
            commit = 0;
        }
    }
    vks_result rc = vks_output_close(b->out, commit, err);
    b->out = NULL;
    if (r == VKS_OK)
        r = rc;
    bake_free(b);
    return r;
}
