// Plays vkskin bakes in three.js (WebGL 2; tested with r149 and the current release, README
// "Play a bake in your engine"): vertex animation textures (VAT: positions, normals, several clips
// stacked in one texture, frames interpolated, float EXR or 16-bit PNG with its bounds) and
// bone-matrix atlases. The sidecar NAME.KIND.json gives every number used here.
//
//   import { loadVat, createVatMaterial, prepareVatMesh, clipFrame } from './vkskin-bake.js';
//   const bake = await loadVat('baked/hero.vat-png16.json');   // textures and sidecar
//   const gltf = await new GLTFLoader().loadAsync(bake.restMeshUrl);
//   const material = createVatMaterial(bake);                   // a MeshStandardMaterial
//   gltf.scene.traverse(o => o.isMesh && prepareVatMesh(o, material, bake.sidecar));
//   each frame: material.userData.vks.vksClip.value = clipIndex;
//               material.userData.vks.vksFrame.value = clipFrame(bake.sidecar.clips[clipIndex], seconds);
//
// A crowd, each instance its own clip, phase and speed: vkskin-crowd.js.
//
// Texels are read with texelFetch (no filtering, no mip-maps, no colour conversion), addressed by
// the rest mesh's lookup UV: the UV set the sidecar's rest_mesh_uv.glb.lookup names (TEXCOORD_1
// when the character's own UVs are kept, Houdini's and AnimToTexture's convention; GLTFLoader
// calls it `uv2` up to r150, `uv1` from r151). The lookup is the centre of the vertex's texel in
// frame 0, v from the texture's first row.
import * as THREE from 'three';
import { EXRLoader } from 'three/addons/loaders/EXRLoader.js';
import { decodePng16 } from './png16.js';

export const VKS_MAX_CLIPS = 64;

// GLSL shared by the VAT and the atlas: the clip table, what plays (one clip and frame for the
// whole material, or, with VKS_INSTANCED, per instance of an InstancedMesh: a clip, a start
// offset and a speed, and a second clip crossfaded in with its own weight) and the two baked
// frames around a fractional frame.
const clipGlsl = /* glsl */ `
uniform vec4 vksClips[VKS_MAX_CLIPS]; // per clip: first row, frame count, loop (1) or clamp (0), fps
#ifdef VKS_INSTANCED
attribute vec4 vksPlay; // per instance: clip, start offset in it (seconds), speed (1: as baked), unused
attribute vec4 vksFade; // per instance: a second clip, its start offset, its speed, its weight (0: none)
uniform float vksTime;  // the crowd's clock (seconds); instance i plays its clip at offset + speed * vksTime
#else
uniform int vksClip;    // which clip plays
uniform float vksFrame; // frame within the clip, fractional: interpolated
#endif
int vksClipIndex(float c) { return int(clamp(floor(c + 0.5), 0.0, float(VKS_MAX_CLIPS - 1))); }
// what this vertex plays: clips a (clip.x, frame.x) and b (clip.y, frame.y), b's weight fade
void vksLayers(out ivec2 clip, out vec2 frame, out float fade) {
#ifdef VKS_INSTANCED
  clip = ivec2(vksClipIndex(vksPlay.x), vksClipIndex(vksFade.x));
  frame = vec2((vksPlay.y + vksPlay.z * vksTime) * vksClips[clip.x].w,
               (vksFade.y + vksFade.z * vksTime) * vksClips[clip.y].w);
  fade = clamp(vksFade.w, 0.0, 1.0);
#else
  clip = ivec2(vksClip);
  frame = vec2(vksFrame);
  fade = 0.0;
#endif
}
// frames f0 and f1 of the clip around frame and the weight of f1; a looping clip wraps from
// its last frame to its first, any other holds its last (and its first before 0)
void vksClipFrames(int clip, float frame, out float f0, out float f1, out float t) {
  vec4 c = vksClips[clip];
  float n = max(c.y, 1.0);
  f0 = floor(frame);
  t = frame - f0;
  if (c.z > 0.5) {
    f0 = mod(f0, n);
    f1 = mod(f0 + 1.0, n);
  } else {
    if (f0 >= n - 1.0) { f0 = n - 1.0; t = 0.0; }
    if (f0 < 0.0) { f0 = 0.0; t = 0.0; }
    f1 = min(f0 + 1.0, n - 1.0);
  }
}
`;

// The VAT decode. Defines: VKS_UNORM16 (16-bit PNG codes in an RGBA16UI texture, positions
// decoded with the bounds), VKS_HAS_NORMALS, VKS_INSTANCED.
export const vatGlsl = clipGlsl + /* glsl */ `
#ifdef VKS_UNORM16
uniform highp usampler2D vksPosTex;
uniform highp usampler2D vksNrmTex;
vec3 vksTexel(highp usampler2D t, ivec2 c) { return vec3(texelFetch(t, c, 0).rgb) / 65535.0; }
#else
uniform highp sampler2D vksPosTex;
uniform highp sampler2D vksNrmTex;
vec3 vksTexel(highp sampler2D t, ivec2 c) { return texelFetch(t, c, 0).rgb; }
#endif
uniform vec3 vksLayout;  // the sidecar's layout: width, height, rows_per_frame
uniform vec3 vksBoundsMin, vksBoundsMax;

// the texels of the clip's frames around frame for the vertex whose frame-0 texel centre is lookup
void vksVatTexels(vec2 lookup, int clip, float frame, out ivec2 a, out ivec2 b, out float t) {
  float f0, f1;
  vksClipFrames(clip, frame, f0, f1, t);
  float column = floor(lookup.x * vksLayout.x);
  float row0 = floor(lookup.y * vksLayout.y) + vksClips[clip].x; // v counts from the first row
  float ra = row0 + f0 * vksLayout.z, rb = row0 + f1 * vksLayout.z;
  // the loaders here keep rows bottom-up (EXRLoader's order): file row r is texture row height-1-r
  a = ivec2(column, vksLayout.y - 1.0 - ra);
  b = ivec2(column, vksLayout.y - 1.0 - rb);
}
vec3 vksDecodePosition(vec3 c) {
#ifdef VKS_UNORM16
  return vksBoundsMin + c * (vksBoundsMax - vksBoundsMin); // min + code / 65535 * (max - min)
#else
  return c;
#endif
}
vec3 vksVatPositionAt(vec2 lookup, int clip, float frame) {
  ivec2 a, b; float t;
  vksVatTexels(lookup, clip, frame, a, b, t);
  vec3 pa = vksDecodePosition(vksTexel(vksPosTex, a));
  if (t == 0.0) return pa; // exactly the baked frame
  return mix(pa, vksDecodePosition(vksTexel(vksPosTex, b)), t);
}
vec3 vksVatPosition(vec2 lookup) {
  ivec2 clip; vec2 frame; float fade;
  vksLayers(clip, frame, fade);
  vec3 p = vksVatPositionAt(lookup, clip.x, frame.x);
  if (fade > 0.0) p = mix(p, vksVatPositionAt(lookup, clip.y, frame.y), fade);
  return p;
}
#ifdef VKS_HAS_NORMALS
vec3 vksVatNormalAt(vec2 lookup, int clip, float frame) {
  ivec2 a, b; float t;
  vksVatTexels(lookup, clip, frame, a, b, t);
  vec3 na = vksTexel(vksNrmTex, a), nb = vksTexel(vksNrmTex, b);
#ifdef VKS_UNORM16
  na = na * 2.0 - 1.0; nb = nb * 2.0 - 1.0; // code / 65535 * 2 - 1
#endif
  return mix(na, nb, t);
}
#endif
vec3 vksVatNormal(vec2 lookup, vec3 restNormal) {
#ifdef VKS_HAS_NORMALS
  ivec2 clip; vec2 frame; float fade;
  vksLayers(clip, frame, fade);
  vec3 n = vksVatNormalAt(lookup, clip.x, frame.x);
  if (fade > 0.0) n = mix(n, vksVatNormalAt(lookup, clip.y, frame.y), fade);
  return normalize(n);
#else
  return restNormal;
#endif
}
`;

// The bone atlas: per frame one row, per bone three RGBA texels (rows x, y, z of its 3x4 skin
// matrix); a vertex is p' = sum_k w_k K_(first_bone + joint_k) (p, 1).
export const atlasGlsl = clipGlsl + /* glsl */ `
uniform highp sampler2D vksAtlasTex;
uniform float vksAtlasHeight; // the sidecar's layout.height (frames)
uniform float vksBoneBase;    // the sidecar's meshes[m].first_bone for this glTF mesh
void vksAtlasSkinAt(vec3 p, vec3 n, vec4 joints, vec4 weights, int clip, float frame, out vec3 pos, out vec3 nrm) {
  float f0, f1, t;
  vksClipFrames(clip, frame, f0, f1, t);
  int ra = int(vksAtlasHeight - 1.0 - (vksClips[clip].x + f0)); // rows bottom-up, as EXRLoader
  int rb = int(vksAtlasHeight - 1.0 - (vksClips[clip].x + f1));
  vec4 p1 = vec4(p, 1.0);
  pos = vec3(0.0); nrm = vec3(0.0);
  for (int k = 0; k < 4; k++) {
    if (weights[k] == 0.0) continue;
    int x = int(vksBoneBase + joints[k]) * 3;
    vec4 r0 = mix(texelFetch(vksAtlasTex, ivec2(x, ra), 0), texelFetch(vksAtlasTex, ivec2(x, rb), 0), t);
    vec4 r1 = mix(texelFetch(vksAtlasTex, ivec2(x + 1, ra), 0), texelFetch(vksAtlasTex, ivec2(x + 1, rb), 0), t);
    vec4 r2 = mix(texelFetch(vksAtlasTex, ivec2(x + 2, ra), 0), texelFetch(vksAtlasTex, ivec2(x + 2, rb), 0), t);
    pos += weights[k] * vec3(dot(r0, p1), dot(r1, p1), dot(r2, p1));
    nrm += weights[k] * vec3(dot(r0.xyz, n), dot(r1.xyz, n), dot(r2.xyz, n));
  }
}
void vksAtlasSkin(vec3 p, vec3 n, vec4 joints, vec4 weights, out vec3 pos, out vec3 nrm) {
  ivec2 clip; vec2 frame; float fade;
  vksLayers(clip, frame, fade);
  vksAtlasSkinAt(p, n, joints, weights, clip.x, frame.x, pos, nrm);
  if (fade > 0.0) {
    vec3 pb, nb;
    vksAtlasSkinAt(p, n, joints, weights, clip.y, frame.y, pb, nb);
    pos = mix(pos, pb, fade);
    nrm = mix(nrm, nb, fade);
  }
  nrm = normalize(nrm);
}
`;

async function fetchBuffer(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.arrayBuffer();
}

function dataTexture(data, width, height, unorm16) {
  const tex = unorm16
    ? new THREE.DataTexture(data, width, height, THREE.RGBAIntegerFormat, THREE.UnsignedShortType)
    : new THREE.DataTexture(data, width, height, THREE.RGBAFormat, THREE.FloatType);
  if (unorm16) tex.internalFormat = 'RGBA16UI';
  tex.magFilter = tex.minFilter = THREE.NearestFilter;
  tex.generateMipmaps = false;
  tex.flipY = false;
  tex.needsUpdate = true;
  return tex;
}

// An EXR (float or half, as vkskin writes it) as a float texture, rows bottom-up; a 16-bit PNG
// as an RGBA16UI texture, rows bottom-up too.
export async function loadBakeTexture(url) {
  const buffer = await fetchBuffer(url);
  if (/\.png$/i.test(url)) {
    const png = await decodePng16(buffer);
    return dataTexture(png.data, png.width, png.height, true);
  }
  const exr = new EXRLoader().setDataType(THREE.FloatType).parse(buffer);
  if (exr.format !== THREE.RGBAFormat) throw new Error(`${url}: not an RGB or RGBA EXR`);
  return dataTexture(exr.data, exr.width, exr.height, false);
}

function resolve(base, path) { return new URL(path, new URL(base, location.href)).href; }

function clipTable(sidecar) {
  if (sidecar.clips.length > VKS_MAX_CLIPS) throw new Error(`more than ${VKS_MAX_CLIPS} clips in one bake`);
  return Array.from({ length: VKS_MAX_CLIPS }, (_, i) => {
    const c = sidecar.clips[i];
    return c ? new THREE.Vector4(c.row, c.frame_count, c.loop ? 1 : 0, c.fps) : new THREE.Vector4(0, 1, 0, 1);
  });
}

// A VAT bake from its sidecar (NAME.vat-exr-float.json, NAME.vat-exr-half.json or
// NAME.vat-png16.json): {sidecar, unorm16, position, normal (null without normals), restMeshUrl}.
export async function loadVat(sidecarUrl) {
  const sidecar = await (await fetch(sidecarUrl)).json();
  if (!/^vat-/.test(sidecar.kind)) throw new Error(`${sidecarUrl}: kind ${sidecar.kind} is not a VAT`);
  const file = role => sidecar.files.find(f => f.role === role);
  const nrm = file('normal'), glb = sidecar.files.find(f => /\.glb$/.test(f.path));
  const unorm16 = sidecar.encoding === 'unorm16';
  const normal = nrm ? await loadBakeTexture(resolve(sidecarUrl, nrm.path)) : null;
  return {
    sidecar,
    unorm16,
    position: await loadBakeTexture(resolve(sidecarUrl, file('position').path)),
    // a source without normals bakes texels of zero length: played as a bake without normals
    normal: normal && hasNormals(normal, unorm16) ? normal : null,
    restMeshUrl: glb ? resolve(sidecarUrl, glb.path) : null,
  };
}

// Whether a normal texture holds normals: any texel of more than half a unit's length.
function hasNormals(texture, unorm16) {
  const d = texture.image.data;
  for (let i = 0; i < d.length; i += 4) {
    const x = unorm16 ? d[i] / 65535 * 2 - 1 : d[i], y = unorm16 ? d[i + 1] / 65535 * 2 - 1 : d[i + 1],
          z = unorm16 ? d[i + 2] / 65535 * 2 - 1 : d[i + 2];
    if (x * x + y * y + z * z > 0.25) return true;
  }
  return false;
}

// The uniforms of a VAT (shared by every material that plays it; change vksClip and vksFrame).
export function vatUniforms(bake) {
  const s = bake.sidecar, l = s.layout;
  return {
    vksPosTex: { value: bake.position },
    vksNrmTex: { value: bake.normal || bake.position },
    vksLayout: { value: new THREE.Vector3(l.width, l.height, l.rows_per_frame) },
    vksBoundsMin: { value: new THREE.Vector3(...s.bounds.min) },
    vksBoundsMax: { value: new THREE.Vector3(...s.bounds.max) },
    vksClips: { value: clipTable(s) },
    vksClip: { value: 0 },
    vksFrame: { value: 0 },
    vksTime: { value: 0 },
  };
}

// instanced: what plays comes from each instance's vksPlay and vksFade (createCrowd)
export function vatDefines(bake, instanced = false) {
  const d = { VKS_MAX_CLIPS };
  if (bake.unorm16) d.VKS_UNORM16 = '';
  if (bake.normal) d.VKS_HAS_NORMALS = '';
  if (instanced) d.VKS_INSTANCED = '';
  return d;
}

// A lit material (MeshStandardMaterial unless one is given, e.g. the character's own from the
// rest mesh) whose vertices come from the VAT; `instanced` for an InstancedMesh (createCrowd).
// `uniforms` (vatUniforms) may be shared by several materials, e.g. a crowd's clock.
export function createVatMaterial(bake, material = new THREE.MeshStandardMaterial({ color: 0xb0b0b8 }),
                                  instanced = false, uniforms = vatUniforms(bake)) {
  material.defines = Object.assign(material.defines || {}, vatDefines(bake, instanced));
  material.userData.vks = uniforms;
  material.onBeforeCompile = shader => {
    Object.assign(shader.uniforms, uniforms);
    shader.vertexShader = shader.vertexShader
      .replace('#include <common>', `#include <common>\nattribute vec2 vksLookup;\n${vatGlsl}`)
      .replace('#include <beginnormal_vertex>', 'vec3 objectNormal = vksVatNormal(vksLookup, normal);\n' +
               '#ifdef USE_TANGENT\nvec3 objectTangent = vec3(tangent.xyz);\n#endif')
      .replace('#include <begin_vertex>', 'vec3 transformed = vksVatPosition(vksLookup);');
  };
  material.customProgramCacheKey = () => `vkskin-vat-${bake.unorm16}-${!!bake.normal}-${instanced}`;
  return material;
}

// The three.js attribute GLTFLoader makes of glTF's TEXCOORD_<set>: r151 renamed them (uv, uv1,
// uv2, uv3; before: uv, uv2 for TEXCOORD_1, nothing further), so `uv2` is TEXCOORD_1 on r150 and
// older but TEXCOORD_2 on r151 and newer.
export const THREE_REVISION = parseInt(THREE.REVISION, 10);
export function uvAttributeName(set) {
  if (set === 0) return 'uv';
  if (THREE_REVISION >= 151) return `uv${set}`;
  return set === 1 ? 'uv2' : null;
}

// The lookup UV set of the rest mesh (NAME.vat.glb): the sidecar's rest_mesh_uv.glb.lookup says
// which TEXCOORD holds it (TEXCOORD_1 when the character's own UVs are kept, as Houdini and
// AnimToTexture lay it out); a sidecar without it: the second set when there is one, else the first.
export function vatLookupAttribute(geometry, sidecar = null) {
  const set = sidecar && sidecar.rest_mesh_uv && sidecar.rest_mesh_uv.glb ? sidecar.rest_mesh_uv.glb.lookup : null;
  const name = set !== null ? uvAttributeName(set) : null;
  const a = set !== null ? geometry.attributes[name]
    : geometry.attributes[uvAttributeName(1)] || geometry.attributes.uv;
  if (!a) throw new Error(`the rest mesh has no UV set holding the VAT lookup (TEXCOORD_${set ?? '0 or 1'}, ` +
                          `three.js r${THREE_REVISION} attribute ${name || 'uv'})`);
  return a;
}

export function prepareVatMesh(mesh, material, sidecar = null) {
  mesh.geometry.setAttribute('vksLookup', vatLookupAttribute(mesh.geometry, sidecar));
  mesh.material = material;
  mesh.frustumCulled = false; // the rest pose's bounds are not the animation's
  return mesh;
}

// A bone atlas from its sidecar (NAME.atlas.json): {sidecar, atlas, meshUrl}.
export async function loadAtlas(sidecarUrl) {
  const sidecar = await (await fetch(sidecarUrl)).json();
  if (sidecar.kind !== 'atlas') throw new Error(`${sidecarUrl}: kind ${sidecar.kind} is not an atlas`);
  const exr = sidecar.files.find(f => /\.exr$/.test(f.path)), glb = sidecar.files.find(f => /\.glb$/.test(f.path));
  return { sidecar, atlas: await loadBakeTexture(resolve(sidecarUrl, exr.path)), meshUrl: resolve(sidecarUrl, glb.path) };
}

export function atlasUniforms(bake, firstBone) {
  return {
    vksAtlasTex: { value: bake.atlas },
    vksAtlasHeight: { value: bake.sidecar.layout.height },
    vksBoneBase: { value: firstBone },
    vksClips: { value: clipTable(bake.sidecar) },
    vksClip: { value: 0 },
    vksFrame: { value: 0 },
    vksTime: { value: 0 },
  };
}

// A lit material for glTF mesh `meshIndex` of NAME.atlas.glb (its JOINTS_0 are relative to
// the sidecar's meshes[meshIndex].first_bone). Put it on a plain THREE.Mesh of the geometry, not
// the SkinnedMesh: the atlas does the skinning.
export function createAtlasMaterial(bake, meshIndex, material = new THREE.MeshStandardMaterial({ color: 0xb0b0b8 }),
                                    instanced = false) {
  const uniforms = atlasUniforms(bake, bake.sidecar.meshes[meshIndex].first_bone);
  material.defines = Object.assign(material.defines || {}, { VKS_MAX_CLIPS }, instanced ? { VKS_INSTANCED: '' } : {});
  material.userData.vks = uniforms;
  material.onBeforeCompile = shader => {
    Object.assign(shader.uniforms, uniforms);
    shader.vertexShader = shader.vertexShader
      .replace('#include <common>', `#include <common>\nattribute vec4 vksJoints;\nattribute vec4 vksWeights;\n${atlasGlsl}\nvec3 vksPos, vksNrm;`)
      .replace('#include <beginnormal_vertex>', 'vksAtlasSkin(position, normal, vksJoints, vksWeights, vksPos, vksNrm);\n' +
               'vec3 objectNormal = vksNrm;\n#ifdef USE_TANGENT\nvec3 objectTangent = vec3(tangent.xyz);\n#endif')
      .replace('#include <begin_vertex>', 'vec3 transformed = vksPos;');
  };
  material.customProgramCacheKey = () => `vkskin-atlas-${instanced}`;
  return material;
}

// Plain meshes of NAME.atlas.glb's skinned meshes, each with its atlas material, in glTF mesh
// order: [{mesh, meshIndex}]. `parser` is the GLTFLoader result's parser (gltf.parser).
// makeMaterial(bake, meshIndex, the glTF mesh's own material) gives each its material.
export function atlasMeshes(gltf, bake, makeMaterial = (b, m) => createAtlasMaterial(b, m)) {
  const out = [];
  gltf.scene.traverse(o => {
    if (!o.isSkinnedMesh) return;
    const assoc = gltf.parser.associations.get(o);
    const meshIndex = assoc && assoc.meshes !== undefined ? assoc.meshes
      : bake.sidecar.meshes.findIndex(m => m.name === o.name);
    const g = o.geometry;
    g.setAttribute('vksJoints', g.attributes.skinIndex);
    g.setAttribute('vksWeights', g.attributes.skinWeight);
    const mesh = new THREE.Mesh(g, makeMaterial(bake, meshIndex, o.material));
    mesh.frustumCulled = false;
    out.push({ mesh, meshIndex });
  });
  return out;
}

// The clip's frame at `seconds` after it started, for vksFrame (fractional: interpolated).
export function clipFrame(clip, seconds) {
  return seconds * clip.fps;
}

// The matrix that brings the bake's space (as the model file stores it: the sidecar's up_axis
// and handedness) to three.js's (+Y up, right-handed), for the atlas's plain meshes. A VAT needs
// none: its rest mesh's glTF node carries the same correction.
export function bakeSpace(sidecar) {
  const m = new THREE.Matrix4();
  if (sidecar.up_axis === '+z') m.makeRotationX(-Math.PI / 2);
  if (sidecar.handedness === 'left') m.multiply(new THREE.Matrix4().makeScale(1, 1, -1));
  return m;
}
