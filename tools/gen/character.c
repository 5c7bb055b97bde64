/* vks_gen_character: skeleton plan -> float bind locals and inverse binds -> capsule tubes
 * with smooth weights -> the model builder (groups under the palette limit). */
#if defined(__clang__) /* gcc in ISO C mode (-std=c11) already contracts nothing */
#pragma STDC FP_CONTRACT OFF
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "character_internal.h"
#include "vkskin/build.h"

vks_gen_params vks_gen_params_defaults(const vks_gen_params *p)
{
    vks_gen_params d = p ? *p : (vks_gen_params){0};
    if (!d.seed)
        d.seed = 1;
    if (!d.bones)
        d.bones = 32;
    if (!d.vertices)
        d.vertices = 2000;
    if (!d.max_influences)
        d.max_influences = 4;
    if (!d.materials)
        d.materials = 3;
    if (!d.name)
        d.name = "character";
    if (!d.texture)
        d.texture = "char_skin";
    if (!d.material_suffix)
        d.material_suffix = "";
    return d;
}

static uint32_t isqrt_u64(uint64_t v)
{
    uint64_t r = 0, bit = 1ull << 62;
    while (bit > v)
        bit >>= 2;
    while (bit) {
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return (uint32_t)r;
}

static double length3(const double a[3], const double b[3])
{
    double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* Affine (double, column-major 3x4) applied to a point / a direction. */
static void xform_point(const double *m, const double p[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = m[i] * p[0] + m[3 + i] * p[1] + m[6 + i] * p[2] + m[9 + i];
}
static void xform_dir(const double *m, const double d[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = m[i] * d[0] + m[3 + i] * d[1] + m[6 + i] * d[2];
}

/* Candidate influence list of one vertex: sorted descending (ties by bone), truncated. */
typedef struct cand {
    int bone;
    double w;
} cand;

static void add_cand(cand *c, int *n, int bone, double w)
{
    if (bone < 0 || !(w > 0))
        return;
    for (int i = 0; i < *n; i++)
        if (c[i].bone == bone) {
            c[i].w += w;
            return;
        }
    c[(*n)++] = (cand){bone, w};
}

static void sort_cands(cand *c, int n)
{
    for (int i = 1; i < n; i++) {
        cand x = c[i];
        int j = i;
        while (j > 0 && (c[j - 1].w < x.w || (c[j - 1].w == x.w && c[j - 1].bone > x.bone))) {
            c[j] = c[j - 1];
            j--;
        }
        c[j] = x;
    }
}

typedef struct gen_arrays {
    float (*pos)[3];
    float (*nrm)[3];
    uint16_t (*bone)[4];
    float (*weight)[4];
    uint32_t (*tri)[3];
    uint16_t *mat;
    float (*uv)[2];
} gen_arrays;

static void free_arrays(gen_arrays *a)
{
    free(a->pos);
    free(a->nrm);
    free(a->bone);
    free(a->weight);
    free(a->tri);
    free(a->mat);
    free(a->uv);
}

static int alloc_arrays(gen_arrays *a, uint64_t nv, uint64_t nt)
{
    a->pos = calloc(nv, sizeof *a->pos);
    a->nrm = calloc(nv, sizeof *a->nrm);
    a->bone = calloc(nv, sizeof *a->bone);
    a->weight = calloc(nv, sizeof *a->weight);
    a->tri = calloc(nt, sizeof *a->tri);
    a->mat = calloc(nt, sizeof *a->mat);
    a->uv = calloc(nv, sizeof *a->uv);
    return a->pos && a->nrm && a->bone && a->weight && a->tri && a->mat && a->uv;
}

static vks_result gen_nomem(vks_error *err)
{
    return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gen", "out of memory");
}

/* Parameters outside what the generator makes are refused before any work. */
static int check_params(const vks_gen_params *p, vks_error *err)
{
    if (p->bones < VKS_GEN_MIN_BONES || p->bones > VKS_GEN_MAX_BONES) {
        vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gen/bones", "bone count %u outside %u..%u",
                      p->bones, VKS_GEN_MIN_BONES, VKS_GEN_MAX_BONES);
        return 0;
    }
    if (p->vertices > VKS_GEN_MAX_VERTICES) {
        vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "gen/vertices", "target of %u vertices over %u",
                      p->vertices, VKS_GEN_MAX_VERTICES);
        return 0;
    }
    if (p->max_influences > VKS_GEN_MAX_INFLUENCES) {
        vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gen/influences", "%u influences outside 1..4",
                      p->max_influences);
        return 0;
    }
    if ((unsigned)p->frame >= VKS_GEN_FRAME_COUNT) {
        vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gen/frame", "frame %u unknown", (unsigned)p->frame);
        return 0;
    }
    if (p->materials > 256) {
        vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gen/materials", "%u materials outside 1..256",
                      p->materials);
        return 0;
    }
    return 1;
}

/* Skeleton: node 0 the root, node i+1 bone i. Bind locals are stored as float; the bind
   worlds and inverse binds are recomputed from those floats so the bind pose is exact to
   float rounding of the inverse binds. world[i]: bone i's skin-space bind world. 0 when out
   of memory. */
static int skeleton_nodes(vks_skin *s, const gen_skeleton *sk, vks_bone *bones, double (*world)[12])
{
    const int nb = sk->count;
    s->node_count = (uint32_t)nb + 1;
    s->nodes = vks_skin_alloc_array(s, s->node_count, sizeof *s->nodes);
    if (!s->nodes)
        return 0;
    s->nodes[0].name = vks_skin_strndup(s, "Character", 9);
    s->nodes[0].parent = -1;
    for (int k = 0; k < 12; k++)
        s->nodes[0].bind_local.m[k] = (float)sk->root_local[k];
    for (int i = 0; i < nb; i++) {
        const gen_bone *b = &sk->bone[i];
        vks_node *n = &s->nodes[i + 1];
        n->name = vks_skin_strndup(s, b->name, strlen(b->name));
        if (!n->name)
            return 0;
        n->parent = b->parent + 1;
        vks_affine_d f, local, pinv;
        memcpy(f.m, b->frame, sizeof f.m);
        if (b->parent >= 0) {
            vks_affine_d pf;
            memcpy(pf.m, sk->bone[b->parent].frame, sizeof pf.m);
            vks_affine_d_inverse(&pf, &pinv);
            local = vks_affine_d_mul(&pinv, &f);
        } else {
            local = f;
        }
        for (int k = 0; k < 12; k++)
            n->bind_local.m[k] = (float)local.m[k];
        vks_affine_d lf = vks_affine_d_from(&n->bind_local), w, inv;
        if (b->parent >= 0) {
            vks_affine_d pw;
            memcpy(pw.m, world[b->parent], sizeof pw.m);
            w = vks_affine_d_mul(&pw, &lf);
        } else {
            w = lf;
        }
        memcpy(world[i], w.m, sizeof w.m);
        vks_affine_d_inverse(&w, &inv);
        bones[i].node = (uint32_t)i + 1;
        for (int k = 0; k < 12; k++)
            bones[i].inverse_bind.m[k] = (float)inv.m[k];
    }
    return s->nodes[0].name != NULL;
}

/* The tubes being generated: their sizes, the ring's sines and cosines, the arrays and how
   many vertices (v) and triangles (t) are written so far. */
typedef struct tube_gen {
    const vks_gen_params *p;
    const gen_skeleton *sk;
    const double (*world)[12];
    gen_rng *rng;
    uint32_t segs;                       /* vertices around every ring */
    uint32_t rings[VKS_GEN_MAX_BONES];   /* per bone; 0 without a tube */
    double ring_cos[64], ring_sin[64];
    gen_arrays a;
    uint32_t v, t;
} tube_gen;

/* Tube sizes: `segs` vertices around every ring; rings shared out by bone length (at least 3
   per tube, the rest by largest remainders, ties to the lower bone) so that rings * segs
   lands close to the target. */
static void plan_rings(tube_gen *g)
{
    const gen_skeleton *sk = g->sk;
    const int nb = sk->count;
    int ntubes = 0;
    double total_len = 0;
    for (int i = 0; i < nb; i++)
        if (sk->bone[i].geometry) {
            ntubes++;
            total_len += length3(sk->bone[i].head, sk->bone[i].tail);
        }
    uint32_t segs = isqrt_u64((uint64_t)g->p->vertices * 2u / (uint32_t)ntubes);
    if (segs < 4)
        segs = 4;
    if (segs > 64)
        segs = 64;
    uint32_t total_rings = g->p->vertices / segs;
    if (total_rings < 3u * (uint32_t)ntubes)
        total_rings = 3u * (uint32_t)ntubes;
    double frac[VKS_GEN_MAX_BONES] = {0};
    uint32_t spare = total_rings - 3u * (uint32_t)ntubes, given = 0;
    for (int i = 0; i < nb; i++)
        if (sk->bone[i].geometry) {
            double share = spare * (length3(sk->bone[i].head, sk->bone[i].tail) / total_len);
            double fl = floor(share);
            g->rings[i] = 3u + (uint32_t)fl;
            frac[i] = share - fl;
            given += (uint32_t)fl;
        }
    while (given < spare) {
        int best = -1;
        for (int i = 0; i < nb; i++)
            if (sk->bone[i].geometry && (best < 0 || frac[i] > frac[best]))
                best = i;
        g->rings[best]++;
        frac[best] = -1;
        given++;
    }
    g->segs = segs;
}

/* Triangles of a tube of n rings: two per quad between rings. */
static uint32_t tube_triangles(uint32_t n, uint32_t segs) { return 2u * segs * (n - 1) + 2u * (segs - 2); }

/* Weights of one vertex of bone i's tube at tt along it: its own bone, the parent near the
   head, the chain child near the tail, the twist bone along the middle, a little of a
   neighbour (random, so the rng advances once per vertex); the largest max_influences kept
   and scaled to sum 1. */
static void vertex_weights(tube_gen *g, int i, int neighbour, double tt, uint16_t bone[4], float weight[4])
{
    const gen_bone *b = &g->sk->bone[i];
    cand c[6];
    int nc = 0;
    add_cand(c, &nc, i, 1.0);
    if (tt < 0.25)
        add_cand(c, &nc, b->parent, 1.0 - tt / 0.25);
    if (tt > 0.75)
        add_cand(c, &nc, b->chain_child, (tt - 0.75) / 0.25);
    if (b->twist >= 0) {
        double d = fabs(tt - 0.6) / 0.4;
        add_cand(c, &nc, b->twist, 0.8 * (1.0 - d));
    }
    add_cand(c, &nc, neighbour, 0.02 + 0.1 * vks__gen_unit(g->rng));
    sort_cands(c, nc);
    if (nc > (int)g->p->max_influences)
        nc = (int)g->p->max_influences;
    double sum = 0;
    for (int q = 0; q < nc; q++)
        sum += c[q].w;
    for (int q = 0; q < nc; q++) {
        bone[q] = (uint16_t)c[q].bone;
        weight[q] = (float)(c[q].w / sum);
    }
}

/* Bone i's tube: rings along the bone with a capsule profile (full radius in the middle,
   closing to 0.44 at the ends), positions and normals in skin space, weights per vertex. */
static void tube_vertices(tube_gen *g, int i)
{
    const gen_bone *b = &g->sk->bone[i];
    const double len = length3(b->head, b->tail);
    const int gp = b->parent >= 0 ? g->sk->bone[b->parent].parent : -1;
    const int neighbour = gp >= 0 ? gp : (b->parent >= 0 ? -1 : b->chain_child);
    const uint32_t n = g->rings[i];
    gen_arrays *a = &g->a;
    for (uint32_t j = 0; j < n; j++) {
        double tt = (double)j / (double)(n - 1);
        double e = fabs(2.0 * tt - 1.0), u = (e - 0.6) / 0.4, prof = 1.0, slope = 0.0;
        if (u > 0) {
            if (u > 0.9)
                u = 0.9;
            prof = sqrt(1.0 - u * u);
            slope = -u / prof * (tt < 0.5 ? -5.0 : 5.0) / len; /* d prof / d s */
        }
        double r = b->radius * prof;
        for (uint32_t k = 0; k < g->segs; k++, g->v++) {
            double lp[3] = {tt * len, r * g->ring_cos[k], r * g->ring_sin[k]};
            double ln[3] = {-b->radius * slope, g->ring_cos[k], g->ring_sin[k]};
            double wp[3], wn[3];
            xform_point(g->world[i], lp, wp);
            xform_dir(g->world[i], ln, wn);
            double nn = sqrt(wn[0] * wn[0] + wn[1] * wn[1] + wn[2] * wn[2]);
            for (int c = 0; c < 3; c++) {
                a->pos[g->v][c] = (float)wp[c];
                a->nrm[g->v][c] = (float)(wn[c] / nn);
            }
            vertex_weights(g, i, neighbour, tt, a->bone[g->v], a->weight[g->v]);
        }
    }
}

/* Bone i's tube's triangles (its vertices start at base): two per quad between rings, then
   the end caps as fans facing outwards; all with the bone's region's material. */
static void tube_faces(tube_gen *g, int i, uint32_t base)
{
    const uint32_t n = g->rings[i], segs = g->segs;
    const uint16_t mat = (uint16_t)(g->sk->bone[i].region % (int)g->p->materials);
    gen_arrays *a = &g->a;
    uint32_t t = g->t;
    for (uint32_t j = 0; j + 1 < n; j++)
        for (uint32_t k = 0; k < segs; k++) {
            uint32_t k1 = (k + 1) % segs;
            uint32_t q0 = base + j * segs + k, q1 = base + j * segs + k1;
            uint32_t q2 = q0 + segs, q3 = q1 + segs;
            a->tri[t][0] = q0, a->tri[t][1] = q1, a->tri[t][2] = q2, a->mat[t++] = mat;
            a->tri[t][0] = q1, a->tri[t][1] = q3, a->tri[t][2] = q2, a->mat[t++] = mat;
        }
    const uint32_t last = base + (n - 1) * segs;
    for (uint32_t k = 1; k + 1 < segs; k++) {
        a->tri[t][0] = base, a->tri[t][1] = base + k + 1, a->tri[t][2] = base + k, a->mat[t++] = mat;
        a->tri[t][0] = last, a->tri[t][1] = last + k, a->tri[t][2] = last + k + 1, a->mat[t++] = mat;
    }
    g->t = t;
}

/* Every tube's vertices and triangles into freshly allocated arrays; 0 when out of memory. */
static int make_tubes(tube_gen *g)
{
    const int nb = g->sk->count;
    uint64_t nv = 0, nt = 0;
    for (int i = 0; i < nb; i++)
        if (g->rings[i]) {
            nv += (uint64_t)g->rings[i] * g->segs;
            nt += 2ull * g->segs * (g->rings[i] - 1) + 2ull * (g->segs - 2);
        }
    if (!alloc_arrays(&g->a, nv, nt))
        return 0;
    for (uint32_t k = 0; k < g->segs; k++)
        vks__gen_sincos(6.283185307179586476925286766559 * k / g->segs, &g->ring_sin[k], &g->ring_cos[k]);
    for (int i = 0; i < nb; i++) {
        if (!g->sk->bone[i].geometry)
            continue;
        uint32_t base = g->v;
        tube_vertices(g, i);
        tube_faces(g, i, base);
    }
    vks__gen_uvs((const float(*)[3])g->a.pos, g->v, g->a.uv);
    return 1;
}

/* Vertices [v0, v1) and triangles [t0, t1) as one mesh. The builder wants mesh-relative
   indices: past the first vertex they are copied into *local_tri, shifted. */
static vks_result add_part(vks_skin_builder *bld, const tube_gen *g, const char *name, uint32_t v0, uint32_t v1,
                           uint32_t t0, uint32_t t1, const vks_bone *bones, uint32_t (**local_tri)[3],
                           vks_error *err)
{
    const gen_arrays *a = &g->a;
    vks_mesh_source m = {0};
    m.name = name;
    m.vertex_count = v1 - v0;
    m.positions = (const float(*)[3])(a->pos + v0);
    m.normals = (const float(*)[3])(a->nrm + v0);
    m.bone = (const uint16_t(*)[4])(a->bone + v0);
    m.weight = (const float(*)[4])(a->weight + v0);
    m.triangle_count = t1 - t0;
    if (v0) {
        free(*local_tri);
        *local_tri = malloc((size_t)(t1 - t0) * sizeof **local_tri);
        if (!*local_tri)
            return gen_nomem(err);
        for (uint32_t q = t0; q < t1; q++)
            for (int c = 0; c < 3; c++)
                (*local_tri)[q - t0][c] = a->tri[q][c] - v0;
        m.triangles = (const uint32_t(*)[3])*local_tri;
    } else {
        m.triangles = (const uint32_t(*)[3])(a->tri + t0);
    }
    m.triangle_material = a->mat + t0;
    m.uv[0] = (const float(*)[2])(a->uv + v0);
    m.uv_set_count = 1;
    m.material_count = g->p->materials;
    m.bone_count = (uint32_t)g->sk->count;
    m.bones = bones;
    m.space_node = 0;
    m.palette_limit = g->p->palette_limit;
    return vks_builder_add_mesh(bld, &m, err);
}

/* One mesh, or consecutive whole tubes per mesh under max_mesh_vertices (a tube is never
   cut, so every triangle stays inside its mesh), built into s. */
static vks_result add_meshes(vks_skin *s, const tube_gen *g, const vks_bone *bones, vks_error *err)
{
    const vks_gen_params *p = g->p;
    const int nb = g->sk->count;
    vks_skin_builder *bld = vks_builder_create(s);
    if (!bld)
        return gen_nomem(err);
    uint32_t (*local_tri)[3] = NULL;
    char mesh_name[160];
    uint32_t mv0 = 0, mt0 = 0, part = 0, tv = 0, tt = 0;
    int split = p->max_mesh_vertices && g->v > p->max_mesh_vertices;
    for (int i = 0; i <= nb; i++) {
        /* tube i spans rings[i]*segs vertices and its triangles in generation order */
        uint32_t nvi = i < nb && g->rings[i] ? g->rings[i] * g->segs : 0;
        uint32_t nti = i < nb && g->rings[i] ? tube_triangles(g->rings[i], g->segs) : 0;
        int flush = i == nb || (split && tv - mv0 + nvi > p->max_mesh_vertices && tv > mv0);
        if (flush && tv > mv0) {
            if (split)
                snprintf(mesh_name, sizeof mesh_name, "%.120s_part%u", p->name, part);
            vks_result rc = add_part(bld, g, split ? mesh_name : p->name, mv0, tv, mt0, tt, bones, &local_tri, err);
            if (rc != VKS_OK) {
                free(local_tri);
                vks_builder_destroy(bld);
                return rc;
            }
            mv0 = tv, mt0 = tt, part++;
        }
        tv += nvi, tt += nti;
    }
    free(local_tri);
    return vks_builder_finish(bld, err);
}

vks_skin *vks_gen_character(const vks_gen_params *params, vks_error *err)
{
    vks_gen_params p = vks_gen_params_defaults(params);
    if (!check_params(&p, err))
        return NULL;
    gen_rng rng = {p.seed};
    gen_skeleton *sk = malloc(sizeof *sk);
    if (!sk) {
        gen_nomem(err);
        return NULL;
    }
    vks__gen_skeleton(&p, &rng, sk);

    vks_skin *s = vks_skin_create(NULL);
    vks_bone bones[VKS_GEN_MAX_BONES];
    double world[VKS_GEN_MAX_BONES][12]; /* skin-space bind world from the float locals */
    tube_gen g = {.p = &p, .sk = sk, .world = (const double(*)[12])world, .rng = &rng};
    if (!s)
        goto nomem;
    s->format = "generated";
    s->format_detail = "vkskin procedural character";
    if (!skeleton_nodes(s, sk, bones, world))
        goto nomem;
    plan_rings(&g);
    if (!make_tubes(&g))
        goto nomem;
    if (add_meshes(s, &g, bones, err) != VKS_OK)
        goto fail;
    if (!vks__gen_materials(s, p.materials, p.texture, p.material_suffix))
        goto nomem;
    vks__gen_apply_frame(s, p.frame);
    free_arrays(&g.a);
    free(sk);
    return s;

nomem:
    gen_nomem(err);
fail:
    free_arrays(&g.a);
    free(sk);
    vks_skin_free(s);
    return NULL;
}
