// vkskin bakes in Unity (docs/baking.md "Play a bake in your engine", Unity): vertex animation textures
// (VAT: positions, normals, several clips stacked in one texture, frames interpolated, float EXR or
// 16-bit PNG decoded with the sidecar's bounds) and bone-matrix atlases, for a vertex shader.
// Plain HLSL (Texture2D.Load, no Unity macros), so it serves the built-in pipeline, URP and HDRP
// shaders alike; VkskinVatNode.hlsl wraps it for Shader Graph's Custom Function node.
//
//   #include "VkskinVat.hlsl"
//   CBUFFER_START(UnityPerMaterial)        // every per-material value here: the SRP Batcher's rule
//       float4 _VatLayout; ...
//       VKSKIN_CLIP_TABLE                  // the clip table, set from the sidecar (below)
//   CBUFFER_END
//   float4 clip = VkskinClip(_Clip);
//   float3 p = VkskinVatPosition(_VatPos, v.uv1, _VatLayout, clip, _Frame, _BoundsMin, _BoundsMax, _Unorm16);
//   float3 n = VkskinVatNormal(_VatNrm, v.uv1, _VatLayout, clip, _Frame, _Unorm16);
//
// A crowd (GPU instancing: Graphics.RenderMeshInstanced, or a MaterialPropertyBlock per
// renderer) reads what each instance plays from two per-instance vectors instead:
//   UNITY_INSTANCING_BUFFER_START(VkskinInstance)
//       UNITY_DEFINE_INSTANCED_PROP(float4, _VkskinPlay)  // clip, start offset (s), speed, unused
//       UNITY_DEFINE_INSTANCED_PROP(float4, _VkskinFade)  // second clip, its offset, its speed, its weight
//   UNITY_INSTANCING_BUFFER_END(VkskinInstance)
//   float4 play = UNITY_ACCESS_INSTANCED_PROP(VkskinInstance, _VkskinPlay), fade = ...;
//   float3 p = VkskinVatCrowdPosition(_VatPos, v.uv1, _VatLayout, play, VkskinClip(play.x), fade,
//                                     VkskinClip(fade.x), _Time.y, _BoundsMin, _BoundsMax, _Unorm16);
// (#pragma multi_compile_instancing. The material's values stay in UnityPerMaterial, which the
// SRP Batcher reads, the instances' in their own buffer.) Instance i is at offset + speed * time
// seconds into its clip, crossfaded by the weight with its second clip.
//
// The numbers come from the sidecar NAME.KIND.json: layout = (layout.width, layout.height,
// layout.rows_per_frame); per clip (clips[i].row, clips[i].frame_count, clips[i].loop ? 1 : 0,
// clips[i].fps); bounds.min, bounds.max; unorm16 = 1 for vat-png16 (its texels hold
// code / 65535), 0 for the EXRs. The lookup is the rest mesh's second UV set (TEXCOORD1, "uv1",
// as Houdini and AnimToTexture place it; use the first where the mesh has only one): the centre of
// the vertex's texel in frame 0.
//
// Texels are read with Load, never filtered, so no sampler state matters; import the textures
// as data (docs/baking.md: sRGB off, no compression, no mip-maps, filter Point). Unity counts a UV's v and
// a texture's rows from the bottom: both are the defaults below. A renderer whose UVs or
// textures count from the top defines VKSKIN_UV_FROM_TOP or VKSKIN_ROWS_FROM_TOP first.
#ifndef VKSKIN_VAT_HLSL
#define VKSKIN_VAT_HLSL

// Unity's importers (glTFast for .glb, the OBJ and FBX importers) turn a right-handed file
// left-handed by negating every vertex's x; the textures hold the file's own coordinates, so the
// decoded vertices are mirrored the same way. VKSKIN_NO_MIRROR_X keeps them as stored.
float3 VkskinToEngine(float3 v)
{
#ifdef VKSKIN_NO_MIRROR_X
    return v;
#else
    return float3(-v.x, v.y, v.z);
#endif
}

#ifndef VKSKIN_MAX_CLIPS
#define VKSKIN_MAX_CLIPS 64
#endif

// The clip table, filled once per bake: material.SetVectorArray("_VkskinClips", rows) with one
// Vector4 per clip as above. It is a per-material value, so it belongs in the shader's
// UnityPerMaterial constant buffer with the others (the SRP Batcher reads a material's values
// from there only, and would draw one bake's materials with another's table): put
// VKSKIN_CLIP_TABLE inside that buffer; VkskinClip(i) reads it wherever the buffer is declared.
// Shader Graph, which declares no arrays, reads the table from a texture instead
// (VkskinClipFromTexture, VkskinVatNode.hlsl). VKSKIN_GLOBAL_CLIP_TABLE declares it here, as a
// global, for the built-in pipeline without the SRP Batcher.
#define VKSKIN_CLIP_TABLE float4 _VkskinClips[VKSKIN_MAX_CLIPS];
#define VkskinClip(index) (_VkskinClips[(int)clamp((index), 0.0, VKSKIN_MAX_CLIPS - 1.0)])
#ifdef VKSKIN_GLOBAL_CLIP_TABLE
VKSKIN_CLIP_TABLE
#endif

// The clip table as a texture of one row, one RGBA float texel per clip (x = the clip's index),
// the same four numbers: Texture2D(clips, 1, TextureFormat.RGBAFloat, false, true), filter Point.
float4 VkskinClipFromTexture(Texture2D<float4> table, float index)
{
    return table.Load(int3((int)clamp(index, 0.0, VKSKIN_MAX_CLIPS - 1.0), 0, 0));
}

// The frame within its clip of an instance that plays it from `offset` seconds at `speed`, at
// time `time` (seconds): (offset + speed * time) * fps.
float VkskinInstanceFrame(float4 clip, float offset, float speed, float time)
{
    return (offset + speed * time) * clip.w;
}

// Frames f0 and f1 of the clip around `frame` (fractional) and the weight t of f1: a looping
// clip wraps from its last frame to its first, any other holds its ends.
void VkskinClipFrames(float4 clip, float frame, out float f0, out float f1, out float t)
{
    float n = max(clip.y, 1.0);
    f0 = floor(frame);
    t = frame - f0;
    if (clip.z > 0.5) {
        f0 = f0 - n * floor(f0 / n); // a modulo that stays positive
        f1 = f0 + 1.0 >= n ? 0.0 : f0 + 1.0;
    } else {
        if (f0 >= n - 1.0) { f0 = n - 1.0; t = 0.0; }
        if (f0 < 0.0) { f0 = 0.0; t = 0.0; }
        f1 = min(f0 + 1.0, n - 1.0);
    }
}

// The texel of file row `row` (0 = the file's first scanline) in the column of `lookup`.
int2 VkskinTexel(float2 lookup, float3 layout, float row)
{
#ifdef VKSKIN_UV_FROM_TOP
    float v = lookup.y;
#else
    float v = 1.0 - lookup.y;
#endif
    float r = floor(v * layout.y) + row;
#ifndef VKSKIN_ROWS_FROM_TOP
    r = layout.y - 1.0 - r;
#endif
    return int2((int)floor(lookup.x * layout.x), (int)r);
}

float3 VkskinVatDecodePosition(float3 c, float3 boundsMin, float3 boundsMax, float unorm16)
{
    return unorm16 > 0.5 ? boundsMin + c * (boundsMax - boundsMin) : c; // min + code / 65535 * (max - min)
}

float3 VkskinVatPosition(Texture2D<float4> positions, float2 lookup, float3 layout, float4 clip, float frame,
                         float3 boundsMin, float3 boundsMax, float unorm16)
{
    float f0, f1, t;
    VkskinClipFrames(clip, frame, f0, f1, t);
    float3 a = positions.Load(int3(VkskinTexel(lookup, layout, clip.x + f0 * layout.z), 0)).rgb;
    float3 b = positions.Load(int3(VkskinTexel(lookup, layout, clip.x + f1 * layout.z), 0)).rgb;
    return VkskinToEngine(lerp(VkskinVatDecodePosition(a, boundsMin, boundsMax, unorm16),
                               VkskinVatDecodePosition(b, boundsMin, boundsMax, unorm16), t));
}

float3 VkskinVatNormal(Texture2D<float4> normals, float2 lookup, float3 layout, float4 clip, float frame, float unorm16)
{
    float f0, f1, t;
    VkskinClipFrames(clip, frame, f0, f1, t);
    float3 a = normals.Load(int3(VkskinTexel(lookup, layout, clip.x + f0 * layout.z), 0)).rgb;
    float3 b = normals.Load(int3(VkskinTexel(lookup, layout, clip.x + f1 * layout.z), 0)).rgb;
    if (unorm16 > 0.5) { a = a * 2.0 - 1.0; b = b * 2.0 - 1.0; } // code / 65535 * 2 - 1
    return VkskinToEngine(normalize(lerp(a, b, t)));
}

// A crowd's instance: play = (clip, offset, speed, unused) of the clip it plays, playClip that
// clip's vector (VkskinClip(play.x)); fade = (clip, offset, speed, weight) of a second clip
// crossfaded in, fadeClip its vector; weight 0 plays the first alone (and reads no more texels).
float3 VkskinVatCrowdPosition(Texture2D<float4> positions, float2 lookup, float3 layout, float4 play, float4 playClip,
                              float4 fade, float4 fadeClip, float time, float3 boundsMin, float3 boundsMax, float unorm16)
{
    float3 p = VkskinVatPosition(positions, lookup, layout, playClip, VkskinInstanceFrame(playClip, play.y, play.z, time),
                                 boundsMin, boundsMax, unorm16);
    [branch] if (fade.w > 0.0)
        p = lerp(p, VkskinVatPosition(positions, lookup, layout, fadeClip, VkskinInstanceFrame(fadeClip, fade.y, fade.z, time),
                                      boundsMin, boundsMax, unorm16), saturate(fade.w));
    return p;
}

float3 VkskinVatCrowdNormal(Texture2D<float4> normals, float2 lookup, float3 layout, float4 play, float4 playClip,
                            float4 fade, float4 fadeClip, float time, float unorm16)
{
    float3 n = VkskinVatNormal(normals, lookup, layout, playClip, VkskinInstanceFrame(playClip, play.y, play.z, time), unorm16);
    [branch] if (fade.w > 0.0)
        n = normalize(lerp(n, VkskinVatNormal(normals, lookup, layout, fadeClip,
                                              VkskinInstanceFrame(fadeClip, fade.y, fade.z, time), unorm16), saturate(fade.w)));
    return n;
}

// The bone atlas (NAME.atlas.exr, RGBA float): per frame one row, per bone three texels holding
// rows x, y, z of its 3x4 skin matrix. joints are the mesh's JOINTS_0 (BLENDINDICES), relative
// to boneBase = the sidecar's meshes[m].first_bone; weights its WEIGHTS_0 (BLENDWEIGHTS). The
// vertex and normal are those of NAME.atlas.glb (skin space, mirrored by the importer as above):
// p' = sum w K (p, 1) in the file's coordinates.
float4 VkskinAtlasRow(Texture2D<float4> atlas, float atlasHeight, float texel, float row)
{
#ifndef VKSKIN_ROWS_FROM_TOP
    row = atlasHeight - 1.0 - row;
#endif
    return atlas.Load(int3((int)texel, (int)row, 0));
}

void VkskinAtlasSkin(Texture2D<float4> atlas, float atlasHeight, float4 clip, float frame, float boneBase,
                     float3 position, float3 normal, float4 joints, float4 weights,
                     out float3 skinnedPosition, out float3 skinnedNormal)
{
    float f0, f1, t;
    VkskinClipFrames(clip, frame, f0, f1, t);
    float ra = clip.x + f0, rb = clip.x + f1; // one row per frame
    float4 p1 = float4(VkskinToEngine(position), 1.0); // the file's coordinates, as the matrices'
    normal = VkskinToEngine(normal);
    skinnedPosition = 0;
    skinnedNormal = 0;
    [unroll] for (int k = 0; k < 4; k++) {
        float x = (boneBase + joints[k]) * 3.0;
        float4 r0 = lerp(VkskinAtlasRow(atlas, atlasHeight, x, ra), VkskinAtlasRow(atlas, atlasHeight, x, rb), t);
        float4 r1 = lerp(VkskinAtlasRow(atlas, atlasHeight, x + 1.0, ra), VkskinAtlasRow(atlas, atlasHeight, x + 1.0, rb), t);
        float4 r2 = lerp(VkskinAtlasRow(atlas, atlasHeight, x + 2.0, ra), VkskinAtlasRow(atlas, atlasHeight, x + 2.0, rb), t);
        skinnedPosition += weights[k] * float3(dot(r0, p1), dot(r1, p1), dot(r2, p1));
        skinnedNormal += weights[k] * float3(dot(r0.xyz, normal), dot(r1.xyz, normal), dot(r2.xyz, normal));
    }
    skinnedPosition = VkskinToEngine(skinnedPosition);
    skinnedNormal = VkskinToEngine(normalize(skinnedNormal));
}

// The atlas for a crowd's instance (play, fade as for VkskinVatCrowdPosition): the two clips'
// skinned vertices blended by the weight.
void VkskinAtlasCrowdSkin(Texture2D<float4> atlas, float atlasHeight, float4 play, float4 playClip, float4 fade,
                          float4 fadeClip, float time, float boneBase, float3 position, float3 normal, float4 joints,
                          float4 weights, out float3 skinnedPosition, out float3 skinnedNormal)
{
    VkskinAtlasSkin(atlas, atlasHeight, playClip, VkskinInstanceFrame(playClip, play.y, play.z, time), boneBase,
                    position, normal, joints, weights, skinnedPosition, skinnedNormal);
    [branch] if (fade.w > 0.0) {
        float3 p, n;
        VkskinAtlasSkin(atlas, atlasHeight, fadeClip, VkskinInstanceFrame(fadeClip, fade.y, fade.z, time), boneBase,
                        position, normal, joints, weights, p, n);
        skinnedPosition = lerp(skinnedPosition, p, saturate(fade.w));
        skinnedNormal = normalize(lerp(skinnedNormal, n, saturate(fade.w)));
    }
}

#endif
