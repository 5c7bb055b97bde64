// The tables both passes read, std430. Their C twins are in src/gpu/tables.h, tied to
// these by _Static_assert on size and offsets: change both together.

struct Model { uint node_base, node_count, bone_base, bone_count, mesh_base, mesh_count, vert_base, vert_count; };
struct Bone { uint node, mesh, pad0, pad1; float ib[12]; };
// morph_count, morph_back: the mesh's morph targets and where its weights sit (src/gpu/tables.h)
struct Mesh { int space_node; uint morph_count, morph_back, pad2; float pre[12]; };
// infl_more: groups of more than 4 influences: slots 4..7 of the group's first vertex in infl[];
// morph_base, morph: the group's morph targets (src/gpu/tables.h, compute/morph.glsl)
struct Group { uint first_vertex, vertex_count, first_palette, palette_count, flags, vert_base, infl_more, pad1,
               morph_base, morph, pad2, pad3; };
struct Infl { uint idx01, idx23; float w[4]; };
struct Inst { uint model, locals_off, skin_off, out_off; };
struct Work { uint group, vstart, vcount, inst_first, inst_count, pad0, pad1, pad2; };

// Per instance of a crowd: where its locals come from and where it stands (root, applied to
// the skin matrices). Read only when the pose pass's use_params is set.
struct PoseParam {
    uint source;                 // SOURCE_* | cycle << 8 (clips)
    uint seed_lo, seed_hi, pose_instance;
    float max_angle;
    uint clip_entry;             // clips: word offset of the (model, clip) entry (clip.glsl)
    float clip_start, clip_speed;
    float root[12];
};

// A layered instance (src/gpu/gpu_internal.h's vks__gpu_layered_param; compute/layers.glsl):
// in a crowd with any, every instance's entry has this stride (pose pipeline USE_PARAMS 2).
struct LayerParam {
    uint entry;                  // word offset of the (model, clip) entry
    uint flags;                  // cycle | mode << 8 (1: additive) | fade << 10 (1 out, 2 in)
    float start, speed, weight;
    int mask_node;               // -1: every node
    uint ref_entry;              // additive: the reference pose's (model, clip) entry
    float ref_time;              // ... sampled at this clip time (the first frame: entry's at 0)
};
struct LayeredParam {
    PoseParam base;
    uint count;                  // layers | root motion's up axis << 8 (0 off, 1 y, 2 z) | yaw << 10
    float fade_start, fade_duration;
    int motion_node;
    LayerParam layers[4];        // normal layers first, then additive ones
    float motion[4];             // written here: root motion (x, y, z, yaw) at the frame's time
};

const uint SOURCE_LOCALS = 0u;     // the locals table (the host's, or the batch's)
const uint SOURCE_PROCEDURAL = 1u; // vks_pose_procedural, evaluated here
const uint SOURCE_CLIP = 2u;       // a clip sampled here from keys uploaded once (clip.glsl)
const uint SOURCE_LAYERS = 3u;     // up to four clips blended here (layers.glsl)

const uint FLAG_RENORMALIZE = 1u;
const uint FLAG_HAS_NORMALS = 2u;
