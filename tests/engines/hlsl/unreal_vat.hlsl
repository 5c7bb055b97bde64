// Compiles engines/unreal/VkskinVat.ush as the material function's Custom nodes call it
// (VkskinVat.md): the World Position Offset, the normal and the atlas, in a vertex shader.
// tests/cli/engines_hlsl.sh runs glslangValidator -D -V -S vert -e main.
#include "VkskinVat.ush"

Texture2D Positions : register(t0);
Texture2D Normals : register(t1);
Texture2D Atlas : register(t2);
cbuffer Material : register(b0)
{
    float3 Layout;
    float Frame;
    float4 Clip;
    float3 BoundsMin;
    float Unorm16;
    float3 BoundsMax;
    float BoneBase;
    float4 Space;
};

struct VSIn
{
    float3 position : POSITION;
    float3 normal : NORMAL;
    float2 uv1 : TEXCOORD1;
    float4 joints : TEXCOORD2;
    float4 weights : TEXCOORD3;
};

struct VSOut
{
    float4 position : SV_Position;
    float3 normal : NORMAL;
    float3 atlas : TEXCOORD0;
};

VSOut main(VSIn v)
{
    VSOut o;
    float3 offset = VkskinVatOffset(Positions, v.uv1, Layout, Clip, Frame, BoundsMin, BoundsMax, Unorm16, Space, v.position);
    o.position = float4(v.position + offset, 1.0);
    o.normal = VkskinVatUnrealNormal(Normals, v.uv1, Layout, Clip, Frame, Unorm16, Space);
    float3 p, n;
    VkskinAtlasSkin(Atlas, Clip, Frame, BoneBase, v.position, v.normal, v.joints, v.weights, p, n);
    o.atlas = VkskinToUnreal(p, Space) + n;
    return o;
}
