/* ODOL (binarised P3D), notes section 4, with the version gates of the bis-file-formats
 * reader. Read: header, model info (up to and including the skeleton; the rest is walked to
 * reach the animations and the LOD table), animations (walked), the LOD address table, and
 * in each LOD: proxies, sub-skeleton maps, textures, embedded materials, vertex maps,
 * polygons, sections, named selections (faces, vertex table indexes, weights), properties,
 * keyframes, UV sets, positions (+ BoundingCenter), packed normals, vertex bone references.
 * Every LOD must end exactly at its recorded end offset.
 *
 * Versions: 28..75 follow the gates below; only v73 is verified on real files (the ACE3
 * samples). v75+ files with non-zero encryption words, and versions outside 28..75, are
 * refused with VKS_ERR_UNSUPPORTED naming the version. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odol_reader.h"

/* ---- header and model info ---- */

static int model_info(odol_rd *r, p3d_file *f, uint32_t nlods)
{
    uint32_t v = r->v;
    snprintf(r->path, sizeof r->path, "odol/model_info");
    if (!rd_skip(r, 4 + 4 + 4 + 4 + 4 + 4 + 12 + 4 + 4 + 4 + 12 + 12, "model info bounds"))
        return 0;
    if (v >= 70 && !rd_skip(r, 4, "lod density"))
        return 0;
    if (v >= 71 && !rd_skip(r, 4, "draw importance"))
        return 0;
    if (v >= 52 && !rd_skip(r, 24, "visual bounds"))
        return 0;
    for (int k = 0; k < 3; k++)
        if (!rd_f32(r, &f->bounding_center[k], "bounding center"))
            return 0;
    if (!rd_skip(r, 12 + 12 + 36 + 4, "centres, inertia, flags"))
        return 0;
    if (v >= 73 && !rd_skip(r, 1, "AI covers"))
        return 0;
    if (v >= 42 && !rd_skip(r, 16, "thermal"))
        return 0;
    if (v >= 43 && !rd_skip(r, 8, "thermal factors"))
        return 0;
    if (v >= 33 && !rd_skip(r, 1, "force not alpha"))
        return 0;
    if (v >= 37 && !rd_skip(r, 5, "shadow source"))
        return 0;
    if (v >= 48 && !rd_skip(r, 4, "shadow offset"))
        return 0;
    if (!rd_skip(r, 1, "animated flag"))
        return 0;

    snprintf(r->path, sizeof r->path, "odol/model_info/skeleton");
    const char *sname;
    if (!rd_str(r, &sname, "skeleton name"))
        return 0;
    if (sname[0]) {
        uint8_t discrete = 0;
        uint32_t nb;
        if (v >= 23 && !rd_u8(r, &discrete, "isDiscrete"))
            return 0;
        if (!rd_u32(r, &nb, "bone count"))
            return 0;
        if (nb > 65000 || !vks_cur_fits(&r->c, nb, 2))
            return rfail(r, VKS_ERR_TRUNCATED, "bone count does not fit in the file");
        const char **names = p3d_alloc(r->pool, nb, sizeof *names);
        const char **parents = p3d_alloc(r->pool, nb, sizeof *parents);
        f->bone_order = p3d_alloc(r->pool, nb, sizeof *f->bone_order);
        if (!names || !parents || !f->bone_order)
            return rfail(r, VKS_ERR_NOMEM, "out of memory");
        for (uint32_t i = 0; i < nb; i++)
            if (!rd_str(r, &names[i], "bone name") || !rd_str(r, &parents[i], "bone parent"))
                return 0;
        if (v > 40 && !rd_str(r, NULL, "pivots name"))
            return 0;
        if (p3d_skeleton_from_pairs(r->pool, r->path, names, parents, nb, &f->skeleton, f->bone_order, r->err))
            return 0;
        f->skeleton.is_discrete = discrete != 0;
        f->skeleton.name = sname;
        f->stored_bones = nb;
    }
    snprintf(r->path, sizeof r->path, "odol/model_info");
    uint32_t n;
    const uint8_t *d;
    if (!rd_skip(r, 1, "map type") || !rd_compressed(r, 4, &n, &d, "mass array"))
        return 0;
    if (!rd_skip(r, 16, "mass and armor"))
        return 0;
    if (v >= 72 && !rd_skip(r, 4, "explosion shielding"))
        return 0;
    if (v >= 53 && !rd_skip(r, 1, "geometry simple"))
        return 0;
    if (v >= 54 && !rd_skip(r, 1, "geometry phys"))
        return 0;
    if (!rd_skip(r, 12 + 4, "special LOD indexes and min shadow"))
        return 0;
    if (v >= 38 && !rd_skip(r, 1, "can blend"))
        return 0;
    if (!rd_str(r, NULL, "class") || !rd_str(r, NULL, "damage") || !rd_skip(r, 1, "frequent"))
        return 0;
    if (v >= 31 && !rd_skip(r, 4, "unused"))
        return 0;
    if (v >= 57) {
        if (!vks_cur_fits(&r->c, nlods, 12))
            return rfail(r, VKS_ERR_TRUNCATED, "preferred shadow LODs");
        vks_cur_skip(&r->c, (size_t)nlods * 12);
    }
    return 1;
}

static int animations(odol_rd *r)
{
    snprintf(r->path, sizeof r->path, "odol/animations");
    uint32_t nc;
    if (!rd_u32(r, &nc, "animation class count"))
        return 0;
    if (!vks_cur_fits(&r->c, nc, 30))
        return rfail(r, VKS_ERR_TRUNCATED, "animation classes do not fit");
    uint32_t *types = p3d_alloc(r->pool, nc, sizeof *types);
    if (!types)
        return rfail(r, VKS_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < nc; i++) {
        snprintf(r->path, sizeof r->path, "odol/animations/class[%u]", i);
        if (!rd_u32(r, &types[i], "type") || !rd_str(r, NULL, "name") || !rd_str(r, NULL, "source") ||
            !rd_skip(r, 16, "phases and values"))
            return 0;
        if (r->v >= 56 && !rd_skip(r, 8, "period"))
            return 0;
        if (!rd_skip(r, 4, "source address"))
            return 0;
        size_t extra;
        switch (types[i]) {
        case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: extra = 8; break;
        case 8: extra = 32; break;
        case 9: extra = r->v >= 55 ? 8 : 4; break;
        default: return rfail(r, VKS_ERR_FORMAT, "unknown animation type (0..9 expected)");
        }
        if (!rd_skip(r, extra, "type parameters"))
            return 0;
    }
    snprintf(r->path, sizeof r->path, "odol/animations/bones_to_anims");
    uint32_t nl;
    if (!rd_u32(r, &nl, "LOD count"))
        return 0;
    if (!vks_cur_fits(&r->c, nl, 4))
        return rfail(r, VKS_ERR_TRUNCATED, "LOD count does not fit");
    for (uint32_t l = 0; l < nl; l++) {
        uint32_t nb;
        if (!rd_u32(r, &nb, "bone count"))
            return 0;
        if (!vks_cur_fits(&r->c, nb, 4))
            return rfail(r, VKS_ERR_TRUNCATED, "bone count does not fit");
        for (uint32_t b = 0; b < nb; b++)
            if (!rd_array_skip(r, 4, NULL, "animation list"))
                return 0;
    }
    snprintf(r->path, sizeof r->path, "odol/animations/anims_to_bones");
    for (uint32_t l = 0; l < nl; l++)
        for (uint32_t k = 0; k < nc; k++) {
            int32_t bone;
            if (!rd_i32(r, &bone, "bone index"))
                return 0;
            if (bone != -1 && types[k] != 8 && types[k] != 9 && !rd_skip(r, 24, "axis"))
                return 0;
        }
    return 1;
}

vks_result p3d_odol_scan(p3d_pool *pool, const uint8_t *bytes, size_t size, const vks_read_options *opt,
                         p3d_file *file, vks_error *err)
{
    odol_rd r = {vks_cur_make(bytes, size), 0, pool, err, "odol", 0};
    uint32_t v;
    vks_cur_skip(&r.c, 4);
    if (!rd_u32(&r, &v, "version"))
        return err->code;
    if (v < ODOL_MIN || v > ODOL_MAX)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, 4, "odol",
                             "ODOL version %u is not read (versions %u..%u; only 73 verified)", v, ODOL_MIN, ODOL_MAX);
    r.v = v;
    file->odol = 1;
    file->version = v;
    file->bytes = bytes;
    file->size = size;
    if (v >= 75) {
        uint32_t e0, e1;
        if (!rd_u32(&r, &e0, "encryption words") || !rd_u32(&r, &e1, "encryption words"))
            return err->code;
        if (e0 || e1)
            return vks_error_set(err, VKS_ERR_UNSUPPORTED, 8, "odol", "ODOL v%u file is encrypted", v);
    }
    if (v >= 59 && !rd_skip(&r, 4, "app id"))
        return err->code;
    if (v >= 58 && !rd_str(&r, NULL, "muzzle flash"))
        return err->code;
    uint32_t nl;
    if (!rd_u32(&r, &nl, "LOD count"))
        return err->code;
    if (nl == 0 || nl > P3D_MAX_LODS || !vks_cur_fits(&r.c, nl, 4 + 9))
        return vks_error_set(err, nl > P3D_MAX_LODS ? VKS_ERR_LIMIT : VKS_ERR_TRUNCATED, vks_cur_offset(&r.c) - 4,
                             "odol", "LOD count %u does not fit in the file", nl);
    file->lod_count = nl;
    file->lods = p3d_alloc(pool, nl, sizeof *file->lods);
    if (!file->lods)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "odol", "out of memory");
    for (uint32_t i = 0; i < nl; i++)
        vks_cur_f32(&r.c, &file->lods[i].resolution);
    if (!model_info(&r, file, nl))
        return err->code;
    if (v >= 30) {
        uint8_t has;
        if (!rd_u8(&r, &has, "animations flag"))
            return err->code;
        if (has && !animations(&r))
            return err->code;
    }
    snprintf(r.path, sizeof r.path, "odol/lod_table");
    if (!vks_cur_fits(&r.c, nl, 9))
        return rfail(&r, VKS_ERR_TRUNCATED, "LOD address table cut short"), err->code;
    uint32_t *ends = p3d_alloc(pool, nl, sizeof *ends);
    uint8_t *perm = p3d_alloc(pool, nl, 1);
    if (!ends || !perm)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "odol", "out of memory");
    for (uint32_t i = 0; i < nl; i++) {
        uint32_t s = 0;
        vks_cur_u32(&r.c, &s);
        file->lods[i].offset = s;
    }
    for (uint32_t i = 0; i < nl; i++)
        vks_cur_u32(&r.c, &ends[i]);
    vks_cur_bytes(&r.c, perm, nl);
    for (uint32_t i = 0; i < nl; i++)
        if (!perm[i]) {
            snprintf(r.path, sizeof r.path, "odol/lod_table/loadable[%u]", i);
            size_t n = 16 + (v >= 39 ? 1 : 0) + (v >= 51 ? 8 : 0);
            if (!rd_skip(&r, n, "loadable LOD info"))
                return err->code;
        }
    uint64_t table_end = vks_cur_offset(&r.c);
    for (uint32_t i = 0; i < nl; i++) {
        uint64_t s = file->lods[i].offset;
        file->lods[i].end = ends[i];
        if (s < table_end || s >= ends[i] || ends[i] > size)
            return vks_error_set(err, ends[i] > size ? VKS_ERR_TRUNCATED : VKS_ERR_FORMAT, table_end, "odol/lod_table",
                                 "LOD %u spans 0x%llx..0x%x, outside the file's 0x%llx..0x%zx", i,
                                 (unsigned long long)s, ends[i], (unsigned long long)table_end, size);
    }
    /* every LOD is parsed once now, so any damage fails whatever LOD is chosen */
    for (uint32_t i = 0; i < nl; i++) {
        p3d_pool tmp = p3d_pool_make(&opt->allocator);
        p3d_lod lod;
        vks_result res = p3d_odol_lod(&tmp, file, i, opt, &lod, err);
        p3d_pool_free(&tmp);
        if (res)
            return res;
        file->lods[i].points = lod.point_count;
        file->lods[i].faces = lod.face_count;
    }
    return VKS_OK;
}
