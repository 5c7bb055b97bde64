// Pose pass: locals -> world (through the parents, which come before their children) -> skin
// matrices K_b = S_mesh * W(node_b) * IB_b with S_mesh = space_pre * inverse(W(space_node)), in
// the order of src/cpu/reference.c (float here, double there). Locals and world are 3x4
// column-major, 12 floats (x, y, z axes, translation); skin matrices are written as three vec4
// rows for the deform pass.
//
// Two launch variants of the same arithmetic (POSE_NODES, the launch shape's pose=):
//   serial: one invocation per instance walks its skeleton: W(n) = W(p) L(n) as it goes.
//   nodes:  a subgroup per instance: its invocations evaluate the nodes' locals side by side
//           (the costly part: clip keys, procedural hashes), then compose the worlds level by
//           level of depth (a node order sorted by depth, uploaded with the models), a subgroup
//           barrier between levels, then the bones side by side. Every world is the same
//           W(p) L(n) of the same floats, so both variants give the same bits. A subgroup, not
//           a workgroup: its barrier costs next to nothing (a warp's on NVIDIA; llvmpipe runs a
//           subgroup as one SIMD row, where a workgroup barrier makes coroutines), and the
//           workgroup holds several instances, so llvmpipe's per-workgroup cost is shared. The
//           workgroup (pose_wg) is a multiple of the subgroup size (src/gpu/tuning.c).
//
// Where locals come from is the instance's pose source: the locals table (a batch always; a
// crowd instance the host poses), or the procedural pose evaluated here from (seed, instance,
// node, time), so a crowd frame costs the host nothing per instance. A crowd instance's root
// transform is folded into its skin matrices (K' = root K): free per vertex. A batch's pipeline
// is made with USE_PARAMS 0, which compiles the other sources out: llvmpipe runs both sides of a
// branch under a mask, so code no instance takes still cost a batch two thirds of its pose pass.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint POSE_NODES = 0u; // 1: the nodes variant (a subgroup per instance)
layout(constant_id = 2) const uint USE_PARAMS = 1u; // 0: a batch (locals only, no roots); 2: a crowd
                                                    // with layered instances (layers.glsl)

#include "tables.glsl"
#include "procedural.glsl"

layout(std430, binding = 0) readonly buffer Models { Model models[]; };
layout(std430, binding = 1) readonly buffer Parents { int parents[]; };
layout(std430, binding = 2) readonly buffer Bones { vec4 bones4[]; }; // Bone, 4 vec4 each: see load_bone
layout(std430, binding = 3) readonly buffer Meshes { Mesh meshes[]; };
layout(std430, binding = 4) readonly buffer Insts { Inst insts[]; };
// Matrices of 12 floats (48 bytes) as three vec4: a load a vec4, not a float (wider loads on
// GPUs; llvmpipe gathers lane by lane either way). The floats are the same.
layout(std430, binding = 5) readonly buffer Locals { vec4 locals4[]; };
layout(std430, binding = 6) buffer World { vec4 world4[]; };
// The same buffer, for the nodes variant, whose invocations read the worlds others wrote.
layout(std430, binding = 6) coherent buffer WorldShared { vec4 world4_c[]; };
layout(std430, binding = 7) writeonly buffer Skin { vec4 skin[]; }; // 3 rows per matrix
layout(std430, binding = 8) readonly buffer Params { PoseParam params[]; }; // read when use_params
layout(std430, binding = 9) readonly buffer Binds { vec4 binds4[]; };       // bind locals, 3 vec4 per node
// Per model: levels[model] = B; at B the level count L, L + 1 starts, then the model's nodes
// sorted by depth (src/gpu/vulkan/models.c). Read by the nodes variant only.
layout(std430, binding = 11) readonly buffer Levels { uint levels[]; };

// Instances [instance_first, instance_end) of the table: all of them, or one slice of a crowd frame
// (src/gpu/vulkan/passes.c staggers the slices' pose and deform passes). use_params == USE_PARAMS.
layout(push_constant) uniform Push { uint instance_end, use_params; float time; uint instance_first; } pc;

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

// (x0 y0 z0 x1) (y1 z1 x2 y2) (z2 x3 y3 z3): the columns of a 12-float matrix from three vec4
Aff unpack_aff(vec4 a, vec4 b, vec4 c)
{
    Aff r;
    r.c[0] = a.xyz;
    r.c[1] = vec3(a.w, b.xy);
    r.c[2] = vec3(b.zw, c.x);
    r.c[3] = c.yzw;
    return r;
}

// at: the matrix's first float (a multiple of 12)
Aff load_locals(uint at)
{
    uint q = at / 4u;
    return unpack_aff(locals4[q], locals4[q + 1u], locals4[q + 2u]);
}

Aff load_bind(uint node)
{
    uint q = node * 3u;
    return unpack_aff(binds4[q], binds4[q + 1u], binds4[q + 2u]);
}

Aff load_world(uint at)
{
    uint q = at / 4u;
    if (POSE_NODES != 0u)
        return unpack_aff(world4_c[q], world4_c[q + 1u], world4_c[q + 2u]);
    return unpack_aff(world4[q], world4[q + 1u], world4[q + 2u]);
}

void store_world(uint at, Aff m)
{
    uint q = at / 4u;
    vec4 a = vec4(m.c[0], m.c[1].x), b = vec4(m.c[1].yz, m.c[2].xy), c = vec4(m.c[2].z, m.c[3]);
    if (POSE_NODES != 0u) {
        world4_c[q] = a; world4_c[q + 1u] = b; world4_c[q + 2u] = c;
    } else {
        world4[q] = a; world4[q + 1u] = b; world4[q + 2u] = c;
    }
}

// Bone b as four vec4: (node, mesh, pad, pad) as bits, then its inverse bind (12 floats).
void load_bone(uint b, out uint node, out uint mesh, out Aff ib)
{
    uvec4 h = floatBitsToUint(bones4[b * 4u]);
    node = h.x;
    mesh = h.y;
    ib = unpack_aff(bones4[b * 4u + 1u], bones4[b * 4u + 2u], bones4[b * 4u + 3u]);
}

#include "clip.glsl"
#include "layers.glsl"
#include "clip_morph.glsl"

Aff root_of(PoseParam pp)
{
    Aff r;
    [[unroll]] for (int j = 0; j < 4; j++)
        r.c[j] = vec3(pp.root[3 * j], pp.root[3 * j + 1], pp.root[3 * j + 2]);
    return r;
}

// The nodes variant: every invocation of the subgroup has written its nodes' worlds (or
// locals) before any reads another's.
void sync_worlds()
{
    if (POSE_NODES != 0u) {
        subgroupMemoryBarrierBuffer();
        subgroupBarrier();
    }
}

// A layered instance's layers, once per instance: each layer's clip time, weight, clip words,
// flags and mask (unused layers: weight 0, mask -1).
void layer_setup(uint i, out float ltime[4], out float lweight[4], out uvec4 lhead[4], out uint lflags[4],
                 out int lmask[4])
{
    uint count = lparams[i].count & 7u;
    float s = fade_ramp(lparams[i].fade_start, lparams[i].fade_duration, pc.time);
    [[dont_unroll]] for (uint k = 0u; k < 4u; k++) {
        ltime[k] = 0.0, lweight[k] = 0.0, lhead[k] = uvec4(0u), lflags[k] = 0u, lmask[k] = -1;
        if (k >= count)
            continue;
        uint flags = lparams[i].layers[k].flags, fade = (flags >> 10) & 3u;
        lhead[k] = layer_head(lparams[i].layers[k].entry);
        lflags[k] = flags, lmask[k] = lparams[i].layers[k].mask_node;
        ltime[k] = clip_play_time(cf(cw[lparams[i].layers[k].entry]), flags & 255u, lparams[i].layers[k].start,
                                  lparams[i].layers[k].speed, pc.time);
        // src/core/clip_layers.c's vks_clip_layer_weight: an additive weight at most 1, a
        // weight under float's smallest normal number 0 (flushed or not, on any device)
        float w = lparams[i].layers[k].weight;
        if (((flags >> 8) & 3u) == 1u)
            w = min(w, MAX_ADDITIVE_WEIGHT);
        w = fade == 0u ? w : w * (fade == 2u ? s : 1.0 - s);
        lweight[k] = w < FLT_MIN_NORMAL ? 0.0 : w;
    }
}

// Node n's transform from a clip at clip time tl (ce: the clip's entry words, cm: its node
// words): a local for LOCAL clips, for delta clips the part its parent's world multiplies.
Aff clip_local(uint ce, uint cm, uint space, uint tracks, float tl, uint node_base, uint n, int p)
{
    // One call of track_transform for both spaces: LLVM (lavapipe) inlines every call
    // site of the key search and the rotation paths, and two sites doubled the pose
    // shader's compile on a cold cache. A world-space track starts from identity.
    Aff l;
    uint tr = cw[ce + 2u + n], nd = cm + n * NODE_WORDS;
    bool local_space = space == SPACE_LOCAL;
    if (tr == 0xFFFFFFFFu)
        l = local_space ? load_bind(node_base + n) : identity_aff();
    else
        l = track_transform(tracks + tr * TRACK_WORDS, tl,
                            local_space ? load_n(nd, 3u).xyz : vec3(0.0),
                            local_space ? load_n(nd + 3u, 4u) : vec4(0, 0, 0, 1),
                            local_space ? load_n(nd + 7u, 3u).xyz : vec3(1.0));
    if (!local_space) { // W(n) = S^-1 D(n) Wb(n) (Wb in skin space); PARENT_DELTA: W(n) = W(p) Wb(p)^-1 L(n) Wb(n)
        Aff w = mul(l, load_aff_words(nd + 10u));
        if (space == SPACE_PARENT_DELTA && p >= 0)
            l = mul(load_aff_words(cm + uint(p) * NODE_WORDS + 22u), w);
        else
            l = mul(load_aff_words(cm - 12u), w);
    }
    return l;
}

// The nodes variant: the subgroup composes the stored locals into worlds level by level.
// Level 0 holds the roots; each later level's parents are all in the levels before.
void compose_levels(uint model, uint node_base, uint lbase, uint lane, uint stride, bool parent_composes)
{
    uint lb = levels[model], level_count = levels[lb], order = lb + level_count + 2u;
    sync_worlds();
    for (uint d = 1u; d < level_count; d++) {
        uint end = levels[lb + 2u + d];
        for (uint k = levels[lb + 1u + d] + lane; k < end; k += stride) {
            uint n = levels[order + k];
            int p = parents[node_base + n];
            if (parent_composes)
                store_world(lbase + n * 12u, mul(load_world(lbase + uint(p) * 12u), load_world(lbase + n * 12u)));
        }
        sync_worlds();
    }
}

// The instance's skin matrices K = S_mesh W(node) IB, as rows, from the worlds in its scratch.
void write_skin(Inst inst, Model mo, PoseParam pp, uint lbase, uint lane, uint stride)
{
    // S_mesh once per run of a mesh's bones (a mesh's bones are consecutive), not once per
    // bone, and outside the bone loop: llvmpipe runs the body of a branch under a mask whether
    // or not a lane takes it, so a "mesh changed" test in the loop cost its body every bone.
    uint b = lane;
    while (b < mo.bone_count) {
        uint mesh = floatBitsToUint(bones4[(mo.bone_base + b) * 4u].y);
        Mesh me = meshes[mesh];
        Aff mesh_space;
        [[unroll]] for (int j = 0; j < 4; j++)
            mesh_space.c[j] = vec3(me.pre[3 * j], me.pre[3 * j + 1], me.pre[3 * j + 2]);
        if (me.space_node >= 0)
            mesh_space = mul(mesh_space, inverse_aff(load_world(lbase + uint(me.space_node) * 12u)));
        for (; b < mo.bone_count; b += stride) {
            uint node, bone_mesh;
            Aff ib;
            load_bone(mo.bone_base + b, node, bone_mesh, ib);
            if (bone_mesh != mesh)
                break; // the next run
            Aff k = mul(mesh_space, mul(load_world(lbase + node * 12u), ib));
            if (USE_PARAMS != 0u)
                k = mul(root_of(pp), k);
            // rows, so the deform pass transforms with three dot products
            uint at = (inst.skin_off + b) * 3u;
            skin[at] = vec4(k.c[0].x, k.c[1].x, k.c[2].x, k.c[3].x);
            skin[at + 1u] = vec4(k.c[0].y, k.c[1].y, k.c[2].y, k.c[3].y);
            skin[at + 2u] = vec4(k.c[0].z, k.c[1].z, k.c[2].z, k.c[3].z);
        }
    }
}

void main()
{
    // serial: instance i is this invocation's, which takes every node (lane 0, stride 1);
    // nodes: instance i is this subgroup's, its invocations take every stride-th node and bone
    // from their lane.
    uint i = gl_GlobalInvocationID.x, lane = 0u, stride = 1u;
    if (POSE_NODES != 0u) {
        i = gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID;
        lane = gl_SubgroupInvocationID;
        stride = gl_SubgroupSize;
    }
    i += pc.instance_first;
    if (i >= pc.instance_end)
        return; // the whole subgroup in the nodes variant: its barriers stay uniform
    Inst inst = insts[i];
    Model mo = models[inst.model];
    PoseParam pp;
    uint source = SOURCE_LOCALS;
    if (USE_PARAMS == 1u)
        pp = params[i];
    if (USE_PARAMS == 2u)
        pp = lparams[i].base;
    if (USE_PARAMS != 0u)
        source = pp.source;
    uint lbase = inst.locals_off * 12u; // world scratch shares the locals layout
    uint ce = 0u, cm = 0u, space = SPACE_LOCAL, tracks = 0u;
    float tl = 0.0;
    if (USE_PARAMS != 0u && (source & 255u) == SOURCE_CLIP) { // the clip's time for this instance, once
        ce = pp.clip_entry;
        uint cc = cw[ce];
        cm = cw[ce + 1u];
        space = cw[cc + 1u];
        tracks = cw[cc + 3u];
        tl = clip_play_time(cf(cc), source >> 8, pp.clip_start, pp.clip_speed, pc.time);
        source = SOURCE_CLIP;
    }
    // a layered instance's, once: each layer's clip time, weight, clip words, flags and mask
    float ltime[4], lweight[4];
    uvec4 lhead[4];
    uint lflags[4];
    int lmask[4];
    if (USE_PARAMS == 2u && (source & 255u) == SOURCE_LAYERS) {
        layer_setup(i, ltime, lweight, lhead, lflags, lmask);
        source = SOURCE_LAYERS;
    }
    // Which nodes take their parent's world: W(n) = W(p) X(n). Model-space clips give worlds.
    bool parent_composes = source != SOURCE_CLIP || space == SPACE_LOCAL || space == SPACE_PARENT_DELTA;
    for (uint n = lane; n < mo.node_count; n += stride) {
        int p = parents[mo.node_base + n];
        Aff l;
        if (USE_PARAMS == 2u && source == SOURCE_LAYERS) {
            l = layered_local(i, mo.node_base, n, p, ltime, lweight, lhead, lflags, lmask);
        } else if (USE_PARAMS != 0u && source == SOURCE_CLIP) {
            l = clip_local(ce, cm, space, tracks, tl, mo.node_base, n, p);
        } else if (USE_PARAMS != 0u && source == SOURCE_PROCEDURAL) {
            l = load_bind(mo.node_base + n);
            if (p >= 0) // roots keep their bind local
                procedural_local(uvec2(pp.seed_lo, pp.seed_hi), pp.pose_instance, pp.max_angle, n, pc.time, l.c);
        } else {
            l = load_locals(lbase + n * 12u);
        }
        // the nodes variant stores the local: the levels below compose it
        bool compose = POSE_NODES == 0u && p >= 0 && parent_composes;
        store_world(lbase + n * 12u, compose ? mul(load_world(lbase + uint(p) * 12u), l) : l);
    }
    if (USE_PARAMS != 0u) // morph weights: the deform pass's morph stage reads them (clip_morph.glsl)
        write_morph(i, mo, lbase, source, ce, tl, ltime, lweight, lflags, lmask, lane, stride);
    if (POSE_NODES != 0u)
        compose_levels(inst.model, mo.node_base, lbase, lane, stride, parent_composes);
    write_skin(inst, mo, pp, lbase, lane, stride);
}
