// Crowds of one vkskin bake in three.js: one InstancedMesh per mesh of the character, one draw
// call each, every instance playing its own clip from its own start offset at its own speed, and
// crossfading to a second clip with its own weight. What an instance plays is two instanced
// attributes read by the kit's shaders (VKS_INSTANCED in vkskin-bake.js):
//   vksPlay = (clip, start offset in seconds, speed, unused)
//   vksFade = (second clip, its start offset, its speed, its weight: 0 plays the first alone)
// and one clock for the whole crowd (crowd.setTime): instance i is at offset + speed * time
// seconds into its clip (a looping clip wraps, another holds its last frame).
//
//   const bake = await loadVat('baked/fox.vat-png16.json');
//   const gltf = await new GLTFLoader().loadAsync(bake.restMeshUrl);
//   const crowd = createVatCrowd(bake, gltf, 1000);       // or createAtlasCrowd(atlasBake, gltf, 1000)
//   crowd.setPlayback(7, { clip: 2, offset: 0.3, speed: 1.1, fadeClip: 1, fade: 0.25 });
//   crowd.place(7, new THREE.Matrix4().makeTranslation(x, 0, z));
//   scene.add(crowd.group);   each frame: crowd.setTime(seconds)
import * as THREE from 'three';
import { createVatMaterial, vatUniforms, vatLookupAttribute, atlasMeshes, createAtlasMaterial, bakeSpace } from './vkskin-bake.js';

// The per-instance playback table shared by every mesh of one crowd.
function playbackAttributes(count) {
  const play = new THREE.InstancedBufferAttribute(new Float32Array(count * 4), 4);
  const fade = new THREE.InstancedBufferAttribute(new Float32Array(count * 4), 4);
  for (let i = 0; i < count; i++) play.setXYZW(i, 0, 0, 1, 0); // clip 0 from its start, as baked
  play.setUsage(THREE.DynamicDrawUsage);
  fade.setUsage(THREE.DynamicDrawUsage);
  return { play, fade };
}

// parts: [{geometry, material, base}] where base is the matrix from the bake's space to the
// character's (the rest mesh node's transform, or bakeSpace for an atlas). Each instance's matrix
// is its placement times base.
function makeCrowd(parts, count, clock, sidecar) {
  const attrs = playbackAttributes(count);
  const group = new THREE.Group();
  const meshes = parts.map(({ geometry, material, base }) => {
    geometry.setAttribute('vksPlay', attrs.play);
    geometry.setAttribute('vksFade', attrs.fade);
    const mesh = new THREE.InstancedMesh(geometry, material, count);
    mesh.frustumCulled = false; // neither the rest pose's bounds nor the instances' are the animation's
    mesh.userData.vksBase = base;
    for (let i = 0; i < count; i++) mesh.setMatrixAt(i, base);
    group.add(mesh);
    return mesh;
  });
  const m = new THREE.Matrix4();
  return {
    group, meshes, count, sidecar, attributes: attrs,
    setTime(seconds) { clock.value = seconds; },
    // what instance i plays: clip (index into the sidecar's clips), offset (seconds into the clip
    // at time 0), speed; fadeClip, fadeOffset, fadeSpeed and fade (its weight, 0 to 1) crossfade
    setPlayback(i, { clip = 0, offset = 0, speed = 1, fadeClip = 0, fadeOffset = 0, fadeSpeed = 1, fade = 0 }) {
      attrs.play.setXYZW(i, clip, offset, speed, 0);
      attrs.fade.setXYZW(i, fadeClip, fadeOffset, fadeSpeed, fade);
      attrs.play.needsUpdate = attrs.fade.needsUpdate = true;
    },
    playback(i) {
      const p = attrs.play, f = attrs.fade;
      return { clip: p.getX(i), offset: p.getY(i), speed: p.getZ(i),
               fadeClip: f.getX(i), fadeOffset: f.getY(i), fadeSpeed: f.getZ(i), fade: f.getW(i) };
    },
    place(i, matrix) {
      for (const mesh of meshes) {
        mesh.setMatrixAt(i, m.multiplyMatrices(matrix, mesh.userData.vksBase));
        mesh.instanceMatrix.needsUpdate = true;
      }
    },
  };
}

// A rest mesh without normals (a source without them) is shaded by its faces: three.js's flat
// shading takes them from the animated positions.
function shadeWithoutNormals(geometry, material, bakeHasNormals) {
  if (!bakeHasNormals || !geometry.attributes.normal) material.flatShading = true;
}

// A crowd of a VAT bake (loadVat) on its rest mesh (GLTFLoader's result for bake.restMeshUrl),
// each mesh with the character's own material (and texture) from the rest mesh.
export function createVatCrowd(bake, gltf, count) {
  const uniforms = vatUniforms(bake);
  const parts = [];
  gltf.scene.updateMatrixWorld(true);
  gltf.scene.traverse(o => {
    if (!o.isMesh) return;
    const geometry = o.geometry;
    geometry.setAttribute('vksLookup', vatLookupAttribute(geometry, bake.sidecar));
    // one clock and one set of textures for every mesh of the crowd
    const material = createVatMaterial(bake, o.material.clone(), true, uniforms);
    shadeWithoutNormals(geometry, material, !!bake.normal);
    parts.push({ geometry, material, base: o.matrixWorld.clone() }); // the node's axis correction
  });
  return makeCrowd(parts, count, uniforms.vksTime, bake.sidecar);
}

// A crowd of a bone atlas (loadAtlas) on its mesh (GLTFLoader's result for bake.meshUrl).
export function createAtlasCrowd(bake, gltf, count) {
  const clock = { value: 0 };
  const parts = atlasMeshes(gltf, bake, (b, meshIndex, own) => {
    const material = createAtlasMaterial(b, meshIndex, own ? own.clone() : undefined, true);
    material.userData.vks.vksTime = clock; // shared before the shaders are compiled
    return material;
  }).map(({ mesh }) => {
    shadeWithoutNormals(mesh.geometry, mesh.material, true);
    return { geometry: mesh.geometry, material: mesh.material, base: bakeSpace(bake.sidecar) };
  });
  return makeCrowd(parts, count, clock, bake.sidecar);
}
