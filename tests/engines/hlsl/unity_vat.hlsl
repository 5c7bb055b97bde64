// Compiles engines/unity/VkskinVat.hlsl and VkskinVatNode.hlsl as Unity would use them: a vertex
// shader playing a VAT (both encodings' paths), the atlas, and the Shader Graph node functions
// (float and half variants). tests/cli/engines_hlsl.sh runs glslangValidator -D -V -S vert -e main.
#include "VkskinVatNode.hlsl"

Texture2D<float4> _VatPos : register(t0);
Texture2D<float4> _VatNrm : register(t1);
Texture2D<float4> _Atlas : register(t2);
cbuffer VkskinParams : register(b0)
{
    float3 _VatLayout;
    float _Clip;
    float3 _BoundsMin;
    float _Frame;
    float3 _BoundsMax;
    float _Unorm16;
    float _AtlasHeight;
    float _BoneBase;
    float4x4 _ObjectToClip;
};

struct Attributes
{
    float3 position : POSITION;
    float3 normal : NORMAL;
    float2 uv0 : TEXCOORD0;
    float2 uv1 : TEXCOORD1;
    float4 joints : BLENDINDICES;
    float4 weights : BLENDWEIGHT;
};

struct Varyings
{
    float4 position : SV_Position;
    float3 normal : NORMAL;
    float3 atlasPosition : TEXCOORD0;
    float3 atlasNormal : TEXCOORD1;
    half3 halfPosition : TEXCOORD2;
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
    VkskinVat_float(_VatPos, v.uv1, _VatLayout, _Clip, _Frame, _BoundsMin, _BoundsMax, _Unorm16, np);
    VkskinVatNormal_float(_VatNrm, v.uv1, _VatLayout, _Clip, _Frame, _Unorm16, nn);
    half3 hp, hn, hap;
    VkskinVat_half(_VatPos, (half2)v.uv1, (half3)_VatLayout, (half)_Clip, (half)_Frame, (half3)_BoundsMin,
                   (half3)_BoundsMax, (half)_Unorm16, hp);
    VkskinVatNormal_half(_VatNrm, (half2)v.uv1, (half3)_VatLayout, (half)_Clip, (half)_Frame, (half)_Unorm16, hn);
    float3 ap, an;
    VkskinAtlas_float(_Atlas, _AtlasHeight, _Clip, _Frame, _BoneBase, v.position, v.normal, v.joints, v.weights, ap, an);
    half3 hap2, han2;
    VkskinAtlas_half(_Atlas, (half)_AtlasHeight, (half)_Clip, (half)_Frame, (half)_BoneBase, (half3)v.position,
                     (half3)v.normal, (half4)v.joints, (half4)v.weights, hap2, han2);
    o.position = mul(_ObjectToClip, float4(p + np, 1.0));
    o.atlasPosition = sp + ap;
    o.atlasNormal = sn + an + nn;
    o.halfPosition = hp + hn + hap2 + han2;
    return o;
}
