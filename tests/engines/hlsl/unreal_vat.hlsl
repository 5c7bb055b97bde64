// Compiles engines/unreal/Shaders/VkskinVat.ush as the material function's Custom nodes call it
// (VkskinVat.md): the World Position Offset, the normal and the atlas, in a vertex shader; and a
// crowd's, each instance's playback from its per-instance custom data (PerInstanceCustomData
// 0 to 7, here attributes), the clip table a texture, at full and at half precision (mobile).
// tests/cli/engines_hlsl.sh runs glslangValidator -D -V -S vert -e main.
#include "VkskinVat.ush"

Texture2D Positions : register(t0);
Texture2D Normals : register(t1);
Texture2D Atlas : register(t2);
Texture2D ClipTable : register(t3);
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
    float Time;
};

struct VSIn
{
    float3 position : POSITION;
    float3 normal : NORMAL;
    float2 uv1 : TEXCOORD1;
    float4 joints : TEXCOORD2;
    float4 weights : TEXCOORD3;
    float4 play : TEXCOORD4; // PerInstanceCustomData 0 to 3
    float4 fade : TEXCOORD5; // PerInstanceCustomData 4 to 7
};

struct VSOut
{
    float4 position : SV_Position;
    float3 normal : NORMAL;
    float3 atlas : TEXCOORD0;
    float3 crowd : TEXCOORD1;
    half3 halfCrowd : TEXCOORD2;
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

    float3 co = VkskinVatCrowdOffset(Positions, ClipTable, v.uv1, Layout, v.play, v.fade, Time, BoundsMin, BoundsMax,
                                     Unorm16, Space, v.position);
    float3 cn = VkskinVatCrowdUnrealNormal(Normals, ClipTable, v.uv1, Layout, v.play, v.fade, Time, Unorm16, Space);
    float3 cp, cq;
    VkskinAtlasCrowdSkin(Atlas, ClipTable, v.play, v.fade, Time, BoneBase, v.position, v.normal, v.joints, v.weights, cp, cq);
    o.crowd = co + cn + VkskinToUnreal(cp, Space) + cq;
    // half precision (Unreal's mobile materials): the inputs arrive as half, the kit works in float
    half4 hplay = (half4)v.play, hfade = (half4)v.fade;
    half3 ho = (half3)VkskinVatCrowdOffset(Positions, ClipTable, (float2)(half2)v.uv1, Layout, (float4)hplay, (float4)hfade,
                                           Time, BoundsMin, BoundsMax, Unorm16, Space, (float3)(half3)v.position);
    half3 hn = (half3)VkskinVatCrowdUnrealNormal(Normals, ClipTable, (float2)(half2)v.uv1, Layout, (float4)hplay,
                                                 (float4)hfade, Time, Unorm16, Space);
    float3 hp, hq;
    VkskinAtlasCrowdSkin(Atlas, ClipTable, (float4)hplay, (float4)hfade, Time, BoneBase, (float3)(half3)v.position,
                         (float3)(half3)v.normal, (float4)(half4)v.joints, (float4)(half4)v.weights, hp, hq);
    o.halfCrowd = ho + hn + (half3)hp + (half3)hq;
    return o;
}
