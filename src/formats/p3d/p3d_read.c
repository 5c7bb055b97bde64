/* vks_p3d_read: MLOD or ODOL by magic, the LOD chosen by the lod option (default: the first
 * visual LOD with faces), the skeleton from the ODOL model info, else from the model.cfg text
 * (CfgModels class = model_name), else the bones option, and the model built by p3d_skin.c.
 * Only the chosen LOD and the memory LOD (pivots) are decoded in full; every LOD's structure
 * is still checked, so a damaged file fails whatever LOD is asked for. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p3d_internal.h"
#include "core/c_numeric.h"

#define RES_MEMORY 1e15

static int res_eq(double a, double b) { return fabs(a - b) <= 1e-5 * fmax(1.0, fmax(fabs(a), fabs(b))); }

typedef struct lod_kind {
    const char *name;
    double lo, hi; /* [lo, hi) */
} lod_kind;

static const lod_kind kinds[] = {
    {"visual", -1e30, 1000},      {"view-gunner", 1000, 1100}, {"view-pilot", 1100, 1200},
    {"view-cargo", 1200, 10000},  {"shadow", 10000, 20000},    {"edit", 20000, 1e13 * 0.99},
    {"geometry", 1e13 * 0.99, 1.5e13}, {"buoyancy", 1.5e13, 3e13}, {"physx", 3e13, 1e14},
    {"memory", 9.9e14, 1.5e15},   {"land-contact", 1.5e15, 2.5e15}, {"roadway", 2.5e15, 3.5e15},
    {"paths", 3.5e15, 4.5e15},    {"hit-points", 4.5e15, 5.5e15}, {"view-geometry", 5.5e15, 6.5e15},
    {"fire-geometry", 6.5e15, 7.5e15}, {"cargo-geometry", 7.5e15, 9.5e15}, {"special", 9.5e15, 1e30},
};

static const char *kind_of(double r)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (r >= kinds[i].lo && r < kinds[i].hi)
            return kinds[i].name;
    return "other";
}

static void lod_label(double r, char *buf, size_t n)
{
    const char *k = kind_of(r);
    if (!strcmp(k, "visual") || !strcmp(k, "shadow") || !strcmp(k, "edit") || !strncmp(k, "view-", 5))
        snprintf(buf, n, "%s %g", k, r);
    else
        snprintf(buf, n, "%s", k);
}

static vks_result choose_lod(const p3d_file *f, const char *want, uint32_t *out, vks_error *err)
{
    if (!want || !want[0] || !p3d_stricmp(want, "visual")) {
        for (uint32_t i = 0; i < f->lod_count; i++)
            if (f->lods[i].resolution < 1000 && f->lods[i].faces > 0) {
                *out = i;
                return VKS_OK;
            }
        if (want && want[0])
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "p3d/lod", "no visual LOD with faces");
        for (uint32_t i = 0; i < f->lod_count; i++)
            if (f->lods[i].faces > 0) {
                *out = i;
                return VKS_OK;
            }
        return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "p3d/lod", "none of the %u LODs has faces",
                             f->lod_count);
    }
    if (want[0] == '#') {
        char *end;
        unsigned long i = strtoul(want + 1, &end, 10);
        if (*end || end == want + 1 || i >= f->lod_count)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "p3d/lod",
                                 "LOD index '%s' is not one of #0..#%u", want, f->lod_count - 1);
        *out = (uint32_t)i;
        return VKS_OK;
    }
    char *end;
    double r = strtod(want, &end);
    if (end != want && !*end) {
        for (uint32_t i = 0; i < f->lod_count; i++)
            if (res_eq(f->lods[i].resolution, r)) {
                *out = i;
                return VKS_OK;
            }
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "p3d/lod", "no LOD has resolution %s", want);
    }
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        if (p3d_stricmp(kinds[k].name, want))
            continue;
        for (uint32_t i = 0; i < f->lod_count; i++)
            if (!strcmp(kind_of(f->lods[i].resolution), kinds[k].name)) {
                *out = i;
                return VKS_OK;
            }
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "p3d/lod", "the file has no %s LOD", want);
    }
    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "p3d/lod",
                         "'%.40s' is not a resolution, #index or LOD name (visual, shadow, geometry, memory, ...)",
                         want);
}

/* The skeleton: the ODOL model info, else model.cfg, else the bones option (named as the
   LOD's selections spell them); model.cfg's sections are kept whichever gives the bones. */
static vks_result choose_skeleton(p3d_pool *pool, const vks_read_options *opt, const p3d_file *file,
                                  const p3d_lod *lod, p3d_skeleton *skel, const char **model_class, vks_error *err)
{
    vks_result r;
    if (opt->p3d.model_cfg) {
        int found;
        r = p3d_cfg_skeleton(pool, opt->p3d.model_cfg, opt->p3d.model_cfg_size, opt->p3d.model_cfg_name,
                             opt->p3d.model_name, skel, model_class, &found, err);
        if (r)
            return r;
    }
    if (file->skeleton.bone_count) {
        p3d_skeleton cfg = *skel;
        *skel = file->skeleton;
        skel->section_count = cfg.section_count;
        skel->sections = cfg.sections;
    }
    if (!skel->bone_count && opt->p3d.bones && opt->p3d.bones[0]) {
        if ((r = p3d_bones_option(pool, opt->p3d.bones, skel, err)))
            return r;
        for (uint32_t b = 0; b < skel->bone_count; b++) /* the selection's own spelling */
            for (uint32_t i = 0; i < lod->sel_count; i++)
                if (!p3d_stricmp(lod->sels[i].name, skel->names[b]))
                    skel->names[b] = lod->sels[i].name;
    }
    return VKS_OK;
}

/* The memory LOD (its pivot points), read into mem unless it is the chosen LOD li itself;
 * *memp NULL when the file has none. */
static vks_result memory_lod(p3d_pool *pool, p3d_file *file, const vks_read_options *opt, uint32_t li,
                             const p3d_lod *lod, p3d_lod *mem, const p3d_lod **memp, vks_error *err)
{
    for (uint32_t i = 0; i < file->lod_count; i++) {
        if (!res_eq(file->lods[i].resolution, RES_MEMORY))
            continue;
        if (i == li) {
            *memp = lod;
            return VKS_OK;
        }
        vks_result r = file->odol ? p3d_odol_lod(pool, file, i, opt, mem, err) : p3d_mlod_lod(pool, file, i, opt, mem, err);
        if (r)
            return r;
        *memp = mem;
        return VKS_OK;
    }
    return VKS_OK;
}

static vks_result p3d_read_body(const vks_read_options *opt_in, const void *bytes, size_t size, vks_skin **out,
                                vks_error *err)
{
    vks_read_options opt = vks_read_options_defaults(opt_in);
    p3d_pool pool = p3d_pool_make(&opt.allocator);
    vks_skin *skin = NULL;
    p3d_file file;
    memset(&file, 0, sizeof file);
    vks_result r;
    if (!bytes || size < 4) {
        r = vks_error_set(err, VKS_ERR_TRUNCATED, 0, "p3d", "file of %zu bytes, a P3D starts with 4 magic bytes",
                          size);
        goto done;
    }
    if (!memcmp(bytes, "MLOD", 4))
        r = p3d_mlod_scan(&pool, bytes, size, &opt, &file, err);
    else if (!memcmp(bytes, "ODOL", 4))
        r = p3d_odol_scan(&pool, bytes, size, &opt, &file, err);
    else
        r = vks_error_set(err, VKS_ERR_FORMAT, 0, "p3d", "magic MLOD or ODOL expected");
    if (r)
        goto done;

    uint32_t li = 0;
    if ((r = choose_lod(&file, opt.p3d.lod, &li, err)))
        goto done;
    p3d_lod lod, mem;
    memset(&mem, 0, sizeof mem);
    r = file.odol ? p3d_odol_lod(&pool, &file, li, &opt, &lod, err) : p3d_mlod_lod(&pool, &file, li, &opt, &lod, err);
    if (r)
        goto done;
    const p3d_lod *memp = NULL;
    if ((r = memory_lod(&pool, &file, &opt, li, &lod, &mem, &memp, err)))
        goto done;
    if (lod.tri_count == 0) {
        r = vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "p3d/lod", "the chosen LOD has no faces");
        goto done;
    }

    /* skeleton: the ODOL model info, else model.cfg, else the bones option */
    p3d_skeleton skel;
    memset(&skel, 0, sizeof skel);
    const char *model_class = "";
    if ((r = choose_skeleton(&pool, &opt, &file, &lod, &skel, &model_class, err)))
        goto done;
    if (skel.bone_count + 1 > opt.max_nodes || skel.bone_count > 65000) {
        r = vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "p3d/skeleton", "%u bones over the node limit %u",
                          skel.bone_count, opt.max_nodes);
        goto done;
    }
    if (lod.vertex_count > opt.max_vertices || lod.tri_count > opt.max_triangles) {
        r = vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "p3d/lod", "%u vertices / %u triangles over the limits",
                          lod.vertex_count, lod.tri_count);
        goto done;
    }

    skin = vks_skin_create(opt.allocator.alloc ? &opt.allocator : NULL);
    if (!skin) {
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d", "out of memory");
        goto done;
    }
    char label[64], name[96], detail[256];
    lod_label(lod.resolution, label, sizeof label);
    snprintf(name, sizeof name, "LOD %s", label);
    p3d_build_in in = {&lod, memp, &skel, name, opt.p3d.bone_limit};
    if ((r = p3d_build_skin(skin, &in, err)))
        goto done;
    if (file.odol)
        snprintf(detail, sizeof detail, "ODOL v%u, LOD %u of %u (%s), %s%s", file.version, li, file.lod_count, label,
                 skel.bone_count ? "skeleton " : "no skeleton", skel.bone_count ? skel.name : "");
    else
        snprintf(detail, sizeof detail, "MLOD 0x%x, LOD %u of %u (%s), %s%s%s%s", file.version, li, file.lod_count,
                 label, skel.name && skel.name[0] ? "skeleton " : skel.bone_count ? "bones option" : "no skeleton",
                 skel.name && skel.name[0] ? skel.name : "", model_class[0] ? " from model " : "", model_class);
    skin->format = "p3d";
    skin->format_detail = vks_skin_strndup(skin, detail, strlen(detail));
    if (!skin->format_detail) {
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d", "out of memory");
        goto done;
    }
    r = vks_skin_validate(skin, err);
done:
    p3d_pool_free(&pool);
    if (r) {
        vks_skin_free(skin);
        if (err && err->code == VKS_OK)
            vks_error_set(err, r, VKS_NO_OFFSET, "p3d", "read failed");
        return r;
    }
    *out = skin;
    return VKS_OK;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
vks_result vks_p3d_read(const vks_read_options *opt_in, const void *bytes, size_t size, vks_skin **out,
                        vks_error *err)
{
    VKS_RETURN_IN_C_NUMERIC(vks_result, p3d_read_body(opt_in, bytes, size, out, err));
}
