// Compiles engines/unity/VkskinVat.hlsl and VkskinVatNode.hlsl as Unity would use them: a vertex
// shader playing a VAT (both encodings' paths), the atlas, and the Shader Graph node functions
// (float and half variants), with the clip table in the UnityPerMaterial constant buffer (the
// SRP Batcher's) and a crowd's per-instance vectors in an instancing buffer indexed by the
// instance, as UNITY_INSTANCING_BUFFER_START and UNITY_ACCESS_INSTANCED_PROP expand.
// tests/cli/engines_hlsl.sh runs glslangValidator -D -V -S vert -e main.
#include "VkskinVatNode.hlsl"

Texture2D<float4> _VatPos : register(t0);
Texture2D<float4> _VatNrm : register(t1);
Texture2D<float4> _Atlas : register(t2);
Texture2D<float4> _ClipTable : register(t3);
cbuffer UnityPerMaterial : register(b0)
{
    float3 _VatLayout;
    float _Clip;
    float3 _BoundsMin;
    float _Frame;
    float3 _BoundsMax;
    float _Unorm16;
    float _AtlasHeight;
    float _BoneBase;
    float _Time;
    float _Pad;
    float4x4 _ObjectToClip;
    VKSKIN_CLIP_TABLE
};
#define VKSKIN_TEST_INSTANCES 128
cbuffer UnityInstancing_VkskinInstance : register(b1)
{
    float4 _VkskinPlayArray[VKSKIN_TEST_INSTANCES];
    float4 _VkskinFadeArray[VKSKIN_TEST_INSTANCES];
};

struct Attributes
{
    float3 position : POSITION;
    float3 normal : NORMAL;
    float2 uv0 : TEXCOORD0;
    float2 uv1 : TEXCOORD1;
    float4 joints : BLENDINDICES;
    float4 weights : BLENDWEIGHT;
    uint instance : SV_InstanceID;
};

struct Varyings
{
    float4 position : SV_Position;
    float3 normal : NORMAL;
    float3 atlasPosition : TEXCOORD0;
    float3 atlasNormal : TEXCOORD1;
    half3 halfPosition : TEXCOORD2;
    float3 crowd : TEXCOORD3;
    half3 halfCrowd : TEXCOORD4;
};

Varyings main(Attributes v)
{
    Varyings o;
    float4 clip = VkskinClip(_Clip);
    float3 p = VkskinVatPosition(_VatPos, v.uv1, _VatLayout, clip, _Frame, _BoundsMin, _BoundsMax, _Unorm16);
    o.normal = VkskinVatNormal(_VatNrm, v.uv1, _VatLayout, clip, _Frame, _Unorm16);
    float3 sp, sn;
    VkskinAtlasSkin(_Atlas, _AtlasHeight, clip, _Frame, _BoneBase, v.position, v.normal, v.joints, v.weights, sp, sn);
    float3 np, nn;
    VkskinVat_float(_VatPos, _ClipTable, v.uv1, _VatLayout, _Clip, _Frame, _BoundsMin, _BoundsMax, _Unorm16, np);
    VkskinVatNormal_float(_VatNrm, _ClipTable, v.uv1, _VatLayout, _Clip, _Frame, _Unorm16, nn);
    half3 hp, hn;
    VkskinVat_half(_VatPos, _ClipTable, (half2)v.uv1, (half3)_VatLayout, (half)_Clip, (half)_Frame, (half3)_BoundsMin,
                   (half3)_BoundsMax, (half)_Unorm16, hp);
    VkskinVatNormal_half(_VatNrm, _ClipTable, (half2)v.uv1, (half3)_VatLayout, (half)_Clip, (half)_Frame, (half)_Unorm16, hn);
    float3 ap, an;
    VkskinAtlas_float(_Atlas, _ClipTable, _AtlasHeight, _Clip, _Frame, _BoneBase, v.position, v.normal, v.joints,
                      v.weights, ap, an);
    half3 hap2, han2;
    VkskinAtlas_half(_Atlas, _ClipTable, (half)_AtlasHeight, (half)_Clip, (half)_Frame, (half)_BoneBase, (half3)v.position,
                     (half3)v.normal, (half4)v.joints, (half4)v.weights, hap2, han2);

    // a crowd: what this instance plays, from the instancing buffer; the table in UnityPerMaterial
    float4 play = _VkskinPlayArray[v.instance], fade = _VkskinFadeArray[v.instance];
    float3 cp = VkskinVatCrowdPosition(_VatPos, v.uv1, _VatLayout, play, VkskinClip(play.x), fade, VkskinClip(fade.x),
                                       _Time, _BoundsMin, _BoundsMax, _Unorm16);
    float3 cn = VkskinVatCrowdNormal(_VatNrm, v.uv1, _VatLayout, play, VkskinClip(play.x), fade, VkskinClip(fade.x),
                                     _Time, _Unorm16);
    float3 csp, csn;
    VkskinAtlasCrowdSkin(_Atlas, _AtlasHeight, play, VkskinClip(play.x), fade, VkskinClip(fade.x), _Time, _BoneBase,
                         v.position, v.normal, v.joints, v.weights, csp, csn);
    // and the Shader Graph crowd nodes, both precisions
    float3 gp, gn, gap, gan;
    VkskinVatCrowd_float(_VatPos, _ClipTable, v.uv1, _VatLayout, play, fade, _Time, _BoundsMin, _BoundsMax, _Unorm16, gp);
    VkskinVatCrowdNormal_float(_VatNrm, _ClipTable, v.uv1, _VatLayout, play, fade, _Time, _Unorm16, gn);
    VkskinAtlasCrowd_float(_Atlas, _ClipTable, _AtlasHeight, play, fade, _Time, _BoneBase, v.position, v.normal, v.joints,
                           v.weights, gap, gan);
    half3 hgp, hgn, hgap, hgan;
    VkskinVatCrowd_half(_VatPos, _ClipTable, (half2)v.uv1, (half3)_VatLayout, (half4)play, (half4)fade, (half)_Time,
                        (half3)_BoundsMin, (half3)_BoundsMax, (half)_Unorm16, hgp);
    VkskinVatCrowdNormal_half(_VatNrm, _ClipTable, (half2)v.uv1, (half3)_VatLayout, (half4)play, (half4)fade, (half)_Time,
                              (half)_Unorm16, hgn);
    VkskinAtlasCrowd_half(_Atlas, _ClipTable, (half)_AtlasHeight, (half4)play, (half4)fade, (half)_Time, (half)_BoneBase,
                          (half3)v.position, (half3)v.normal, (half4)v.joints, (half4)v.weights, hgap, hgan);

    o.position = mul(_ObjectToClip, float4(p + np + cp + gp, 1.0));
    o.atlasPosition = sp + ap + csp + gap;
    o.atlasNormal = sn + an + nn + cn + csn + gn + gan;
    o.halfPosition = hp + hn + hap2 + han2;
    o.halfCrowd = hgp + hgn + hgap + hgan;
    o.crowd = cp;
    return o;
}
