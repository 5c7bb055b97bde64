// Pose pass: one invocation per instance of a chunk or crowd part. Locals -> world (through the
// parents, which come before their children) -> skin matrices K_b = S_mesh * W(node_b) * IB_b
// with S_mesh = space_pre * inverse(W(space_node)), in the order of src/cpu/reference.c (float
// here, double there). Locals and world are 3x4 column-major, 12 floats (x, y, z axes,
// translation); skin matrices are written as three vec4 rows for the deform pass.
//
// Where locals come from is the instance's pose source: the locals table (a batch always; a
// crowd instance the host poses), or the procedural pose evaluated here from (seed, instance,
// node, time), so a crowd frame costs the host nothing per instance. A crowd instance's root
// transform is folded into its skin matrices (K' = root K): free per vertex.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x_id = 0) in;

#include "tables.glsl"
#include "procedural.glsl"

layout(std430, binding = 0) readonly buffer Models { Model models[]; };
layout(std430, binding = 1) readonly buffer Parents { int parents[]; };
layout(std430, binding = 2) readonly buffer Bones { Bone bones[]; };
layout(std430, binding = 3) readonly buffer Meshes { Mesh meshes[]; };
layout(std430, binding = 4) readonly buffer Insts { Inst insts[]; };
layout(std430, binding = 5) readonly buffer Locals { float locals[]; };
layout(std430, binding = 6) buffer World { float world[]; };
layout(std430, binding = 7) writeonly buffer Skin { vec4 skin[]; }; // 3 rows per matrix
layout(std430, binding = 8) readonly buffer Params { PoseParam params[]; }; // read when use_params
layout(std430, binding = 9) readonly buffer Binds { float binds[]; };       // bind locals, 12 per node

layout(push_constant) uniform Push { uint instance_count, use_params; float time; uint pad; } pc;

struct Aff { vec3 c[4]; };

Aff mul(Aff a, Aff b)
{
    Aff r;
    [[unroll]] for (int j = 0; j < 4; j++) {
        vec3 v = a.c[0] * b.c[j].x + a.c[1] * b.c[j].y + a.c[2] * b.c[j].z;
        r.c[j] = j == 3 ? v + a.c[3] : v;
    }
    return r;
}

// Inverse by the adjugate, as vks_affine_d_inverse does; identity when singular.
Aff inverse_aff(Aff a)
{
    mat3 m = mat3(a.c[0], a.c[1], a.c[2]);
    float d = determinant(m);
    Aff r;
    if (d == 0.0 || isnan(d) || isinf(d)) {
        r.c[0] = vec3(1, 0, 0); r.c[1] = vec3(0, 1, 0); r.c[2] = vec3(0, 0, 1); r.c[3] = vec3(0);
        return r;
    }
    mat3 inv = inverse(m);
    r.c[0] = inv[0]; r.c[1] = inv[1]; r.c[2] = inv[2];
    r.c[3] = -(inv * a.c[3]);
    return r;
}

Aff load_locals(uint at)
{
    Aff r;
    [[unroll]] for (int j = 0; j < 4; j++)
        r.c[j] = vec3(locals[at + 3 * j], locals[at + 3 * j + 1], locals[at + 3 * j + 2]);
    return r;
}

Aff load_bind(uint node)
{
    Aff r;
    uint at = node * 12u;
    [[unroll]] for (int j = 0; j < 4; j++)
        r.c[j] = vec3(binds[at + 3 * j], binds[at + 3 * j + 1], binds[at + 3 * j + 2]);
    return r;
}

Aff load_world(uint at)
{
    Aff r;
    [[unroll]] for (int j = 0; j < 4; j++)
        r.c[j] = vec3(world[at + 3 * j], world[at + 3 * j + 1], world[at + 3 * j + 2]);
    return r;
}

void store_world(uint at, Aff a)
{
    [[unroll]] for (int j = 0; j < 4; j++) {
        world[at + 3 * j] = a.c[j].x; world[at + 3 * j + 1] = a.c[j].y; world[at + 3 * j + 2] = a.c[j].z;
    }
}

#include "clip.glsl"

Aff root_of(PoseParam pp)
{
    Aff r;
    [[unroll]] for (int j = 0; j < 4; j++)
        r.c[j] = vec3(pp.root[3 * j], pp.root[3 * j + 1], pp.root[3 * j + 2]);
    return r;
}

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.instance_count)
        return;
    Inst inst = insts[i];
    Model mo = models[inst.model];
    PoseParam pp;
    uint source = SOURCE_LOCALS;
    if (pc.use_params != 0u) {
        pp = params[i];
        source = pp.source;
    }
    uint lbase = inst.locals_off * 12u; // world scratch shares the locals layout
    uint ce = 0u, cm = 0u, space = SPACE_LOCAL, tracks = 0u;
    float tl = 0.0;
    if ((source & 255u) == SOURCE_CLIP) { // the clip's time for this instance, once
        ce = pp.clip_entry;
        uint cc = cw[ce];
        cm = cw[ce + 1u];
        space = cw[cc + 1u];
        tracks = cw[cc + 3u];
        tl = clip_play_time(cf(cc), source >> 8, pp.clip_start, pp.clip_speed, pc.time);
        source = SOURCE_CLIP;
    }
    for (uint n = 0; n < mo.node_count; n++) {
        int p = parents[mo.node_base + n];
        Aff l;
        if (source == SOURCE_CLIP) {
            // One call of track_transform for both spaces: LLVM (lavapipe) inlines every call
            // site of the key search and the rotation paths, and two sites doubled the pose
            // shader's compile on a cold cache. A world-space track starts from identity.
            uint tr = cw[ce + 2u + n], nd = cm + n * NODE_WORDS;
            bool local_space = space == SPACE_LOCAL;
            if (tr == 0xFFFFFFFFu)
                l = local_space ? load_bind(mo.node_base + n) : identity_aff();
            else
                l = track_transform(tracks + tr * TRACK_WORDS, tl,
                                    local_space ? load_n(nd, 3u).xyz : vec3(0.0),
                                    local_space ? load_n(nd + 3u, 4u) : vec4(0, 0, 0, 1),
                                    local_space ? load_n(nd + 7u, 3u).xyz : vec3(1.0));
            if (!local_space) { // W(n) = S^-1 D(n) Wb(n) (Wb in skin space); PARENT_DELTA: W(n) = W(p) Wb(p)^-1 L(n) Wb(n)
                Aff w = mul(l, load_aff_words(nd + 10u));
                if (space == SPACE_PARENT_DELTA && p >= 0)
                    w = mul(load_world(lbase + uint(p) * 12u), mul(load_aff_words(cm + uint(p) * NODE_WORDS + 22u), w));
                else
                    w = mul(load_aff_words(cm - 12u), w);
                store_world(lbase + n * 12u, w);
                continue;
            }
        } else if (source == SOURCE_PROCEDURAL) {
            l = load_bind(mo.node_base + n);
            if (p >= 0) // roots keep their bind local
                procedural_local(uvec2(pp.seed_lo, pp.seed_hi), pp.pose_instance, pp.max_angle, n, pc.time, l.c);
        } else {
            l = load_locals(lbase + n * 12u);
        }
        store_world(lbase + n * 12u, p < 0 ? l : mul(load_world(lbase + uint(p) * 12u), l));
    }
    for (uint b = 0; b < mo.bone_count; b++) {
        Bone bo = bones[mo.bone_base + b];
        Mesh me = meshes[bo.mesh];
        Aff space, ib;
        [[unroll]] for (int j = 0; j < 4; j++) {
            space.c[j] = vec3(me.pre[3 * j], me.pre[3 * j + 1], me.pre[3 * j + 2]);
            ib.c[j] = vec3(bo.ib[3 * j], bo.ib[3 * j + 1], bo.ib[3 * j + 2]);
        }
        if (me.space_node >= 0)
            space = mul(space, inverse_aff(load_world(lbase + uint(me.space_node) * 12u)));
        Aff k = mul(space, mul(load_world(lbase + bo.node * 12u), ib));
        if (pc.use_params != 0u)
            k = mul(root_of(pp), k);
        // rows, so the deform pass transforms with three dot products
        uint at = (inst.skin_off + b) * 3u;
        skin[at] = vec4(k.c[0].x, k.c[1].x, k.c[2].x, k.c[3].x);
        skin[at + 1u] = vec4(k.c[0].y, k.c[1].y, k.c[2].y, k.c[3].y);
        skin[at + 2u] = vec4(k.c[0].z, k.c[1].z, k.c[2].z, k.c[3].z);
    }
}
