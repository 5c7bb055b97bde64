/* The output encoders: CSV, raw float32, PC2 point cache, OBJ; glTF keeps its frames here and
 * is written at close by gltf_bake.c (see include/vkskin/bake.h). */
#include <stdint.h>
#include <string.h>

#include "bake_internal.h"
#include "core/float_text.h"

static int put_u32(FILE *f, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return fwrite(x, 1, 4, f) == 4;
}

static int put_f32(FILE *f, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    return put_u32(f, u);
}

int vks__bake_header(vks_bake *b)
{
    switch (b->format) {
    case VKS_BAKE_CSV:
        return fprintf(b->f, "instance,frame,mesh,vertex,x,y,z,nx,ny,nz\n") > 0;
    case VKS_BAKE_PC2: {
        uint64_t samples = (uint64_t)b->instances * b->frames;
        if (samples > INT32_MAX)
            return 0;
        return fwrite("POINTCACHE2\0", 1, 12, b->f) == 12 && put_u32(b->f, 1) &&
               put_u32(b->f, b->file_vertex_count) && put_f32(b->f, 0.0f) && put_f32(b->f, 1.0f) &&
               put_u32(b->f, (uint32_t)samples);
    }
    case VKS_BAKE_OBJ:
        return fprintf(b->f, "# vkskin: deformed vertices in the mesh's own space\n") > 0;
    case VKS_BAKE_RAW:
    case VKS_BAKE_GLB:
    case VKS_BAKE_GLTF:
        return 1;
    }
    return 0;
}

static const float zero3[3] = {0, 0, 0};

static const float *vec_at(const float *a, uint32_t model_vertex)
{
    return a && model_vertex != UINT32_MAX ? a + (size_t)model_vertex * 3 : zero3;
}

static void put_vector(FILE *f, const char *tag, const float *v)
{
    char line[VKS_TEXT_LINE_MAX];
    fwrite(line, 1, vks_text_line(line, tag, v, 3), f);
}

static int write_obj(vks_bake *b, const float *pos, const float *nrm)
{
    const vks_skin *s = b->skin;
    uint32_t base = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        fprintf(b->f, "o %s\n", me->name[0] ? me->name : "mesh");
        for (uint32_t j = 0; j < me->source_vertex_count; j++) {
            put_vector(b->f, "v", vec_at(pos, b->file_to_model[base + j]));
        }
        int has_n = nrm && (me->flags & VKS_MESH_HAS_NORMALS);
        if (has_n)
            for (uint32_t j = 0; j < me->source_vertex_count; j++) {
                put_vector(b->f, "vn", vec_at(nrm, b->file_to_model[base + j]));
            }
        for (uint32_t t = me->first_triangle; t < me->first_triangle + me->triangle_count; t++) {
            uint32_t i[3];
            for (int k = 0; k < 3; k++)
                i[k] = base + s->source_vertex[me->first_vertex + s->triangles[t][k]] + 1;
            if (has_n)
                fprintf(b->f, "f %u//%u %u//%u %u//%u\n", i[0], i[0], i[1], i[1], i[2], i[2]);
            else
                fprintf(b->f, "f %u %u %u\n", i[0], i[1], i[2]);
        }
        base += me->source_vertex_count;
    }
    return !ferror(b->f);
}

/* Little-endian float32 in place (a no-op on little-endian hosts). */
static void f32_to_le(float *v, size_t n)
{
    const uint32_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    if (!first) /* big-endian host */
        for (size_t i = 0; i < n; i++) {
            uint32_t u;
            memcpy(&u, &v[i], 4);
            u = (u >> 24) | ((u >> 8) & 0xFF00u) | ((u << 8) & 0xFF0000u) | (u << 24);
            memcpy(&v[i], &u, 4);
        }
}

/* Positions (and normals when raw) of file vertices [j0, j1) in file order into dst, 3 or 6
 * floats each. The usual model, whose vertices are the file's in order (b->in_file_order),
 * takes a loop without the map's lookups: it runs once per output byte of a vertex cache. */
static void gather(const vks_bake *b, float *dst, int raw, const float *pos, const float *nrm, uint32_t j0,
                   uint32_t j1)
{
    size_t per = raw ? 6 : 3;
    if (b->in_file_order && pos && (nrm || !raw)) {
        if (!raw) {
            memcpy(dst, pos + (size_t)j0 * 3, (size_t)(j1 - j0) * 3 * sizeof *dst);
            return;
        }
        for (size_t j = j0; j < j1; j++, dst += 6) {
            const float *p = pos + j * 3, *q = nrm + j * 3;
            dst[0] = p[0], dst[1] = p[1], dst[2] = p[2], dst[3] = q[0], dst[4] = q[1], dst[5] = q[2];
        }
        return;
    }
    for (uint32_t j = j0; j < j1; j++, dst += per) {
        uint32_t mv = b->file_to_model[j];
        const float *p = vec_at(pos, mv);
        dst[0] = p[0], dst[1] = p[1], dst[2] = p[2];
        if (raw) {
            const float *q = vec_at(nrm, mv);
            dst[3] = q[0], dst[4] = q[1], dst[5] = q[2];
        }
    }
}

/* The longest CSV row: four integers and six numbers, their commas and the newline. */
#define CSV_ROW_MAX (4 * 10 + 6 * VKS_FLOAT_TEXT_MAX + 10)

/* One frame's rows "instance,frame,mesh,vertex,x,y,z,nx,ny,nz", as fprintf("%u,...,%.9g")
 * wrote them, composed in the output's own room (as many rows as a room holds at a time). */
static int write_csv(vks_bake *b, uint32_t instance, uint32_t frame, const float *pos, const float *nrm)
{
    char prefix[2 * 11 + 1];
    size_t plen = vks_u32_text(prefix, instance);
    prefix[plen++] = ',';
    plen += vks_u32_text(prefix + plen, frame);
    prefix[plen++] = ',';
    uint32_t local = 0, mesh = UINT32_MAX, count = b->file_vertex_count;
    const uint32_t most = (uint32_t)(VKS_OUTPUT_RESERVE_MAX / CSV_ROW_MAX);
    for (uint32_t j0 = 0; j0 < count; j0 += most) {
        uint32_t j1 = count - j0 < most ? count : j0 + most;
        char *room = vks_output_reserve(b->out, (size_t)(j1 - j0) * CSV_ROW_MAX), *p = room;
        if (!room)
            return 0;
        for (uint32_t j = j0; j < j1; j++, local++) {
            if (b->mesh_of_file[j] != mesh) {
                mesh = b->mesh_of_file[j];
                local = 0;
            }
            uint32_t mv = b->file_to_model[j];
            const float *v[2] = {vec_at(pos, mv), vec_at(nrm, mv)};
            memcpy(p, prefix, plen);
            p += plen;
            p += vks_u32_text(p, mesh);
            *p++ = ',';
            p += vks_u32_text(p, local);
            for (int k = 0; k < 6; k++) {
                *p++ = ',';
                p += vks_float_text(p, v[k / 3][k % 3]);
            }
            *p++ = '\n';
        }
        vks_output_commit(b->out, (size_t)(p - room));
    }
    return 1;
}

int vks__bake_frame(vks_bake *b, uint32_t instance, uint32_t frame, const float *pos, const float *nrm)
{
    if (b->format == VKS_BAKE_OBJ)
        return write_obj(b, pos, nrm);
    uint32_t count = b->file_vertex_count;
    if (b->format == VKS_BAKE_GLB || b->format == VKS_BAKE_GLTF) { /* kept for close */
        gather(b, b->kept + (size_t)frame * count * 6, 1, pos, nrm, 0, count);
        return 1;
    }
    if (b->format == VKS_BAKE_RAW || b->format == VKS_BAKE_PC2) {
        /* assembled in the output's own room, as many vertices as one room holds at a time,
         * so nothing is copied on the way out */
        int raw = b->format == VKS_BAKE_RAW;
        size_t per = raw ? 6 : 3;
        uint32_t most = (uint32_t)(VKS_OUTPUT_RESERVE_MAX / (per * sizeof(float)));
        for (uint32_t j0 = 0; j0 < count; j0 += most) {
            uint32_t j1 = count - j0 < most ? count : j0 + most;
            size_t bytes = (size_t)(j1 - j0) * per * sizeof(float);
            float *dst = vks_output_reserve(b->out, bytes);
            if (!dst)
                return 0;
            gather(b, dst, raw, pos, nrm, j0, j1);
            f32_to_le(dst, bytes / sizeof(float));
            vks_output_commit(b->out, bytes);
        }
        return 1;
    }
    return write_csv(b, instance, frame, pos, nrm);
}
