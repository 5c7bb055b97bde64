// Shader Graph Custom Function nodes for vkskin bakes (docs/baking.md "Play a bake in your engine",
// Unity). Add a Custom Function node, Type File, Source this file, Name VkskinVat (or
// VkskinVatNormal, VkskinAtlas); Shader Graph picks the _float or _half variant by the graph's
// precision. Wire its outputs to the Vertex stage's Position and Normal (Object space).
//
// Inputs of VkskinVat (the types as the node's input list names them):
//   Positions   Bare Texture 2D   NAME.vat.pos.*     (sRGB off, compression None, no mip-maps, Point)
//   ClipTable   Bare Texture 2D   the clip table: one RGBA float texel per clip (below)
//   Lookup      Vector 2          UV1 (the rest mesh's second UV set; UV0 where it has only one)
//   Layout      Vector 3          (layout.width, layout.height, layout.rows_per_frame)
//   Clip        Float             the clip's index in the sidecar's clips
//   Frame       Float             frame within the clip (Time * fps, fractional: interpolated)
//   BoundsMin   Vector 3          bounds.min (used by vat-png16)
//   BoundsMax   Vector 3          bounds.max
//   Unorm16     Float             1 for vat-png16, 0 for the EXRs
// Output: Position (Vector 3, object space).
// The clip table is a texture, a material property like the others (Shader Graph declares no
// arrays, and a global array set per material would be wrong under the SRP Batcher): from a
// script, per clip (row, frame_count, loop, fps) of the sidecar,
//   var t = new Texture2D(clips.Length, 1, TextureFormat.RGBAFloat, false, true) { filterMode = FilterMode.Point };
//   t.SetPixels(clips.Select(c => new Color(c.row, c.frame_count, c.loop ? 1 : 0, c.fps)).ToArray()); t.Apply();
//
// Crowds: VkskinVatCrowd, VkskinVatCrowdNormal and VkskinAtlasCrowd take, instead of Clip and
// Frame, Play = (clip, start offset in seconds, speed, unused) and Fade = (second clip, its
// offset, its speed, its weight) per instance, and Time (seconds). Give the graph two Vector 4
// properties for them whose Override Property Declaration is Hybrid Per Instance (Entities
// Graphics), or set them per renderer with a MaterialPropertyBlock (GPU instancing).
#ifndef VKSKIN_VAT_NODE_HLSL
#define VKSKIN_VAT_NODE_HLSL
#include "VkskinVat.hlsl"

void VkskinVat_float(Texture2D Positions, Texture2D ClipTable, float2 Lookup, float3 Layout, float Clip, float Frame,
                     float3 BoundsMin, float3 BoundsMax, float Unorm16, out float3 Position)
{
    Position = VkskinVatPosition(Positions, Lookup, Layout, VkskinClipFromTexture(ClipTable, Clip), Frame, BoundsMin, BoundsMax, Unorm16);
}

void VkskinVat_half(Texture2D Positions, Texture2D ClipTable, half2 Lookup, half3 Layout, half Clip, half Frame,
                    half3 BoundsMin, half3 BoundsMax, half Unorm16, out half3 Position)
{
    // the texel address needs more than half's 11 bits for wide textures: work in float
    Position = (half3)VkskinVatPosition(Positions, (float2)Lookup, (float3)Layout, VkskinClipFromTexture(ClipTable, Clip), (float)Frame,
                                        (float3)BoundsMin, (float3)BoundsMax, (float)Unorm16);
}

// Normals: Normals = NAME.vat.nrm.*, the other inputs as above; output Normal (object space).
void VkskinVatNormal_float(Texture2D Normals, Texture2D ClipTable, float2 Lookup, float3 Layout, float Clip, float Frame, float Unorm16,
                           out float3 Normal)
{
    Normal = VkskinVatNormal(Normals, Lookup, Layout, VkskinClipFromTexture(ClipTable, Clip), Frame, Unorm16);
}

void VkskinVatNormal_half(Texture2D Normals, Texture2D ClipTable, half2 Lookup, half3 Layout, half Clip, half Frame, half Unorm16,
                          out half3 Normal)
{
    Normal = (half3)VkskinVatNormal(Normals, (float2)Lookup, (float3)Layout, VkskinClipFromTexture(ClipTable, Clip), (float)Frame,
                                    (float)Unorm16);
}

// The bone atlas: Atlas = NAME.atlas.exr, AtlasHeight = layout.height, BoneBase =
// meshes[m].first_bone; Position and Normal of the vertex (object space); Joints and Weights its
// four bone indices (relative to BoneBase) and weights. Shader Graph has no node for a mesh's
// BLENDINDICES and BLENDWEIGHTS: copy them into UV2 and UV3 once (Mesh.SetUVs(2, ...) from
// mesh.GetAllBoneWeights()) and feed UV2 and UV3 here; a hand-written shader reads them directly.
void VkskinAtlas_float(Texture2D Atlas, Texture2D ClipTable, float AtlasHeight, float Clip, float Frame, float BoneBase,
                       float3 Position, float3 Normal, float4 Joints, float4 Weights,
                       out float3 SkinnedPosition, out float3 SkinnedNormal)
{
    VkskinAtlasSkin(Atlas, AtlasHeight, VkskinClipFromTexture(ClipTable, Clip), Frame, BoneBase, Position, Normal, Joints, Weights,
                    SkinnedPosition, SkinnedNormal);
}

void VkskinAtlas_half(Texture2D Atlas, Texture2D ClipTable, half AtlasHeight, half Clip, half Frame, half BoneBase,
                      half3 Position, half3 Normal, half4 Joints, half4 Weights,
                      out half3 SkinnedPosition, out half3 SkinnedNormal)
{
    float3 p, n;
    VkskinAtlasSkin(Atlas, (float)AtlasHeight, VkskinClipFromTexture(ClipTable, Clip), (float)Frame, (float)BoneBase, (float3)Position,
                    (float3)Normal, (float4)Joints, (float4)Weights, p, n);
    SkinnedPosition = (half3)p;
    SkinnedNormal = (half3)n;
}
// Crowds: Play and Fade per instance, Time the crowd's clock (seconds); the other inputs as above.
void VkskinVatCrowd_float(Texture2D Positions, Texture2D ClipTable, float2 Lookup, float3 Layout, float4 Play, float4 Fade,
                          float Time, float3 BoundsMin, float3 BoundsMax, float Unorm16, out float3 Position)
{
    Position = VkskinVatCrowdPosition(Positions, Lookup, Layout, Play, VkskinClipFromTexture(ClipTable, Play.x), Fade,
                                      VkskinClipFromTexture(ClipTable, Fade.x), Time, BoundsMin, BoundsMax, Unorm16);
}

void VkskinVatCrowd_half(Texture2D Positions, Texture2D ClipTable, half2 Lookup, half3 Layout, half4 Play, half4 Fade,
                         half Time, half3 BoundsMin, half3 BoundsMax, half Unorm16, out half3 Position)
{
    // offsets and times past half's 11 bits of precision: work in float
    Position = (half3)VkskinVatCrowdPosition(Positions, (float2)Lookup, (float3)Layout, (float4)Play,
                                             VkskinClipFromTexture(ClipTable, Play.x), (float4)Fade,
                                             VkskinClipFromTexture(ClipTable, Fade.x), (float)Time, (float3)BoundsMin,
                                             (float3)BoundsMax, (float)Unorm16);
}

void VkskinVatCrowdNormal_float(Texture2D Normals, Texture2D ClipTable, float2 Lookup, float3 Layout, float4 Play,
                                float4 Fade, float Time, float Unorm16, out float3 Normal)
{
    Normal = VkskinVatCrowdNormal(Normals, Lookup, Layout, Play, VkskinClipFromTexture(ClipTable, Play.x), Fade,
                                  VkskinClipFromTexture(ClipTable, Fade.x), Time, Unorm16);
}

void VkskinVatCrowdNormal_half(Texture2D Normals, Texture2D ClipTable, half2 Lookup, half3 Layout, half4 Play,
                               half4 Fade, half Time, half Unorm16, out half3 Normal)
{
    Normal = (half3)VkskinVatCrowdNormal(Normals, (float2)Lookup, (float3)Layout, (float4)Play,
                                         VkskinClipFromTexture(ClipTable, Play.x), (float4)Fade,
                                         VkskinClipFromTexture(ClipTable, Fade.x), (float)Time, (float)Unorm16);
}

void VkskinAtlasCrowd_float(Texture2D Atlas, Texture2D ClipTable, float AtlasHeight, float4 Play, float4 Fade, float Time,
                            float BoneBase, float3 Position, float3 Normal, float4 Joints, float4 Weights,
                            out float3 SkinnedPosition, out float3 SkinnedNormal)
{
    VkskinAtlasCrowdSkin(Atlas, AtlasHeight, Play, VkskinClipFromTexture(ClipTable, Play.x), Fade,
                         VkskinClipFromTexture(ClipTable, Fade.x), Time, BoneBase, Position, Normal, Joints, Weights,
                         SkinnedPosition, SkinnedNormal);
}

void VkskinAtlasCrowd_half(Texture2D Atlas, Texture2D ClipTable, half AtlasHeight, half4 Play, half4 Fade, half Time,
                           half BoneBase, half3 Position, half3 Normal, half4 Joints, half4 Weights,
                           out half3 SkinnedPosition, out half3 SkinnedNormal)
{
    float3 p, n;
    VkskinAtlasCrowdSkin(Atlas, (float)AtlasHeight, (float4)Play, VkskinClipFromTexture(ClipTable, Play.x), (float4)Fade,
                         VkskinClipFromTexture(ClipTable, Fade.x), (float)Time, (float)BoneBase, (float3)Position,
                         (float3)Normal, (float4)Joints, (float4)Weights, p, n);
    SkinnedPosition = (half3)p;
    SkinnedNormal = (half3)n;
}
#endif
