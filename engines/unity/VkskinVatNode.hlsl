// Shader Graph Custom Function nodes for vkskin bakes (README "Play a bake in your engine",
// Unity). Add a Custom Function node, Type File, Source this file, Name VkskinVat (or
// VkskinVatNormal, VkskinAtlas); Shader Graph picks the _float or _half variant by the graph's
// precision. Wire its outputs to the Vertex stage's Position and Normal (Object space).
//
// Inputs of VkskinVat (the types as the node's input list names them):
//   Positions   Bare Texture 2D   NAME.vat.pos.*     (sRGB off, compression None, no mip-maps, Point)
//   Lookup      Vector 2          UV1 (the rest mesh's second UV set; UV0 where it has only one)
//   Layout      Vector 3          (layout.width, layout.height, layout.rows_per_frame)
//   Clip        Float             the clip's index in the sidecar's clips (table: _VkskinClips)
//   Frame       Float             frame within the clip (Time * fps, fractional: interpolated)
//   BoundsMin   Vector 3          bounds.min (used by vat-png16)
//   BoundsMax   Vector 3          bounds.max
//   Unorm16     Float             1 for vat-png16, 0 for the EXRs
// Output: Position (Vector 3, object space).
// The clip table _VkskinClips is a global array the node declares; fill it from a script:
//   material.SetVectorArray("_VkskinClips", clips)  // per clip (row, frame_count, loop, fps)
#ifndef VKSKIN_VAT_NODE_HLSL
#define VKSKIN_VAT_NODE_HLSL
#include "VkskinVat.hlsl"

void VkskinVat_float(Texture2D Positions, float2 Lookup, float3 Layout, float Clip, float Frame,
                     float3 BoundsMin, float3 BoundsMax, float Unorm16, out float3 Position)
{
    Position = VkskinVatPosition(Positions, Lookup, Layout, VkskinClip(Clip), Frame, BoundsMin, BoundsMax, Unorm16);
}

void VkskinVat_half(Texture2D Positions, half2 Lookup, half3 Layout, half Clip, half Frame,
                    half3 BoundsMin, half3 BoundsMax, half Unorm16, out half3 Position)
{
    // the texel address needs more than half's 11 bits for wide textures: work in float
    Position = (half3)VkskinVatPosition(Positions, (float2)Lookup, (float3)Layout, VkskinClip(Clip), (float)Frame,
                                        (float3)BoundsMin, (float3)BoundsMax, (float)Unorm16);
}

// Normals: Normals = NAME.vat.nrm.*, the other inputs as above; output Normal (object space).
void VkskinVatNormal_float(Texture2D Normals, float2 Lookup, float3 Layout, float Clip, float Frame, float Unorm16,
                           out float3 Normal)
{
    Normal = VkskinVatNormal(Normals, Lookup, Layout, VkskinClip(Clip), Frame, Unorm16);
}

void VkskinVatNormal_half(Texture2D Normals, half2 Lookup, half3 Layout, half Clip, half Frame, half Unorm16,
                          out half3 Normal)
{
    Normal = (half3)VkskinVatNormal(Normals, (float2)Lookup, (float3)Layout, VkskinClip(Clip), (float)Frame,
                                    (float)Unorm16);
}

// The bone atlas: Atlas = NAME.atlas.exr, AtlasHeight = layout.height, BoneBase =
// meshes[m].first_bone; Position and Normal of the vertex (object space); Joints and Weights its
// four bone indices (relative to BoneBase) and weights. Shader Graph has no node for a mesh's
// BLENDINDICES and BLENDWEIGHTS: copy them into UV2 and UV3 once (Mesh.SetUVs(2, ...) from
// mesh.GetAllBoneWeights()) and feed UV2 and UV3 here; a hand-written shader reads them directly.
void VkskinAtlas_float(Texture2D Atlas, float AtlasHeight, float Clip, float Frame, float BoneBase,
                       float3 Position, float3 Normal, float4 Joints, float4 Weights,
                       out float3 SkinnedPosition, out float3 SkinnedNormal)
{
    VkskinAtlasSkin(Atlas, AtlasHeight, VkskinClip(Clip), Frame, BoneBase, Position, Normal, Joints, Weights,
                    SkinnedPosition, SkinnedNormal);
}

void VkskinAtlas_half(Texture2D Atlas, half AtlasHeight, half Clip, half Frame, half BoneBase,
                      half3 Position, half3 Normal, half4 Joints, half4 Weights,
                      out half3 SkinnedPosition, out half3 SkinnedNormal)
{
    float3 p, n;
    VkskinAtlasSkin(Atlas, (float)AtlasHeight, VkskinClip(Clip), (float)Frame, (float)BoneBase, (float3)Position,
                    (float3)Normal, (float4)Joints, (float4)Weights, p, n);
    SkinnedPosition = (half3)p;
    SkinnedNormal = (half3)n;
}
#endif
