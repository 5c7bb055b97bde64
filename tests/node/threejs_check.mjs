// three.js as an independent skinning implementation: loads each glTF with GLTFLoader, plays
// each animation with an AnimationMixer at several times, skins every vertex on the CPU with
// SkinnedMesh.applyBoneTransform, and compares the positions with vkskin's CPU reference
// deformation of the SOURCE file (`vkskin deform SRC --cpu --clip CLIP#a --format raw`) at the
// same times, mapped by the correction the writer records (asset.extras.vkskin.correction).
//   node threejs_check.mjs VKSKIN JOBS
// JOBS: one line per converted file, "GLB<TAB>SOURCE<TAB>CLIPFILE[<TAB>extra deform args...]";
// animation a of GLB is clip a of CLIPFILE. Tolerance: 1e-5 x the model's bounds diagonal.
// Times are multiples of 4/30 s, on the grid the writer samples resampled tracks at (30 fps).
// A line "BAKE<TAB>GLB<TAB>RAW<TAB>FPS" checks a deform --format glb bake instead: frame f played
// at f / FPS through the morph weights animation against deform's raw output of the same run.
// A line "SAMPLE<TAB>FILE" checks a glTF file as it is (the Khronos samples) against vkskin's
// reading of it: each animation at 5 times spread over its duration, off its keys.
// The specification ignores a skinned mesh node's own transform; three.js applies it as a bind
// shape matrix, so every skinned mesh is rebound with an identity bind matrix first, which
// makes applyBoneTransform give the specification's sum of joint matrices (vkskin's too).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

// three.js's FileLoader reports progress with a DOM event Node lacks (the data: URIs above
// are fetched through it)
globalThis.ProgressEvent ??= class extends Event {
  constructor(type, init = {}) { super(type); Object.assign(this, init); }
};

const [vkskin, jobsFile] = process.argv.slice(2);
const TOL = 1e-5;
const STEP = 4 / 30, FPS = 7.5;

async function load(file) {
  const data = selfContained(file);
  const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(data, '', resolve, reject));
  gltf.scene.traverse((o) => { if (o.isSkinnedMesh) o.bind(o.skeleton, new THREE.Matrix4()); });
  return gltf;
}

// Positions of every skinned mesh (traversal order, vertex order) at the mixer's time, in the
// scene's frame, into out.
function skinned(gltf, meshes, out) {
  gltf.scene.updateMatrixWorld(true);
  const p = new THREE.Vector3();
  let k = 0;
  for (const m of meshes) {
    const pos = m.geometry.attributes.position;
    for (let i = 0; i < pos.count; i++) {
      p.fromBufferAttribute(pos, i);
      m.applyBoneTransform(i, p);
      p.applyMatrix4(m.matrixWorld);
      out[k++] = p.x; out[k++] = p.y; out[k++] = p.z;
    }
  }
}

async function checkSample(file) {
  const gltf = await load(file);
  const meshes = [];
  gltf.scene.traverse((o) => { if (o.isSkinnedMesh) meshes.push(o); });
  const verts = meshes.reduce((n, m) => n + m.geometry.attributes.position.count, 0);
  const box = new THREE.Box3();
  for (const m of meshes) { m.geometry.computeBoundingBox(); box.union(m.geometry.boundingBox); }
  const diag = box.min.distanceTo(box.max);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const mine = new Float64Array(verts * 3);
  gltf.animations.forEach((clip, a) => {
    // A known disagreement: rotation keys stored off unit length (SimpleSkin's are rounded to
    // 3 decimals, |q| = 1 +- 2.3e-4). vkskin normalises them at load; three.js slerps them as
    // stored, which moves vertices by ~2e-4 of the model. Said, and the keys normalised here so
    // that the comparison keeps the one tolerance.
    let offUnit = 0;
    for (const track of clip.tracks) {
      if (!(track instanceof THREE.QuaternionKeyframeTrack)) continue;
      const v = track.values;
      for (let k = 0; k < v.length; k += 4) {
        const l = Math.hypot(v[k], v[k + 1], v[k + 2], v[k + 3]);
        if (Math.abs(l - 1) > 1e-6) offUnit = Math.max(offUnit, Math.abs(l - 1));
        for (let i = 0; i < 4; i++) v[k + i] /= l;
      }
    }
    if (offUnit)
      console.log(`note ${file} animation ${a}: rotation keys stored off unit length by up to ${offUnit.toExponential(2)}; ` +
        'vkskin normalises them at load, three.js would slerp them as stored: normalised here for the comparison');
    const frames = 5, fps = frames / clip.duration, start = 0.37 / fps;
    const ref = deform(file, `${file}#${a}`, frames, [], fps, start);
    if (ref.length !== frames * verts * 6)
      throw new Error(`${file}: deform wrote ${ref.length / 6} vertices, three.js has ${frames} x ${verts}`);
    mixer.stopAllAction();
    const action = mixer.clipAction(clip);
    action.play();
    let worst = 0, worstAt = '';
    for (let f = 0; f < frames; f++) {
      const t = start + f / fps;
      mixer.setTime(t);
      skinned(gltf, meshes, mine);
      for (let i = 0; i < verts; i++) {
        const b = (f * verts + i) * 6;
        const e = Math.hypot(mine[i * 3] - ref[b], mine[i * 3 + 1] - ref[b + 1], mine[i * 3 + 2] - ref[b + 2]);
        if (!(e <= worst)) { worst = e; worstAt = `t=${t.toFixed(4)} vertex ${i}`; }
      }
    }
    action.stop();
    mixer.uncacheAction(clip);
    const rel = worst / diag, ok = rel <= TOL;
    checks++;
    if (!ok) failures++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${file} animation ${a} "${clip.name}" (${frames} times): max error ` +
      `${worst.toExponential(3)} = ${rel.toExponential(3)} x diagonal ${diag.toPrecision(4)} at ${worstAt}`);
  });
}

// A .gltf or .glb as one self-contained .gltf text: buffers inlined as data URIs, images,
// textures and samplers stripped (no DOM here to decode them, and skinning needs none).
function selfContained(file) {
  const bytes = readFileSync(file);
  let json, bin = null;
  if (bytes.readUInt32LE(0) === 0x46546c67) { // "glTF"
    const jsonLen = bytes.readUInt32LE(12);
    json = JSON.parse(bytes.subarray(20, 20 + jsonLen).toString('utf8'));
    if (20 + jsonLen + 8 <= bytes.length) bin = bytes.subarray(28 + jsonLen, 28 + jsonLen + bytes.readUInt32LE(20 + jsonLen));
  } else json = JSON.parse(bytes.toString('utf8'));
  for (const [i, b] of (json.buffers ?? []).entries()) {
    const data = b.uri === undefined ? (i === 0 ? bin : null) : b.uri.startsWith('data:') ? null
      : readFileSync(join(dirname(file), decodeURIComponent(b.uri)));
    if (data) b.uri = 'data:application/octet-stream;base64,' + Buffer.from(data).toString('base64');
  }
  delete json.images; delete json.textures; delete json.samplers;
  for (const m of json.materials ?? []) {
    const pbr = m.pbrMetallicRoughness ?? {};
    delete pbr.baseColorTexture; delete pbr.metallicRoughnessTexture;
    delete m.normalTexture; delete m.occlusionTexture; delete m.emissiveTexture;
  }
  return JSON.stringify(json);
}

function deform(src, clip, frames, extra, fps = FPS, start = 0) {
  const args = ['deform', src, '--cpu', '--clip', clip, '--frames', String(frames), '--fps', String(fps),
    '--time', String(start), '--format', 'raw', '--out', '-', ...extra];
  let out;
  try {
    out = execFileSync(vkskin, args, { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    throw new Error(`vkskin ${args.join(' ')} failed: ${e.stderr ?? e.message}`);
  }
  return new Float32Array(out.buffer, out.byteOffset, out.byteLength / 4);
}

let failures = 0, checks = 0;
const jobs = readFileSync(jobsFile, 'utf8').split('\n').filter((l) => l.trim());
async function checkBake(glbPath, rawPath, fps) {
  const gltf = await load(glbPath);
  const C = new THREE.Matrix4().fromArray(gltf.parser.json.asset.extras.vkskin.correction);
  const raw = new Float32Array(new Uint8Array(readFileSync(rawPath)).buffer);
  const meshes = [];
  gltf.scene.traverse((o) => { if (o.isMesh) meshes.push(o); });
  const verts = meshes.reduce((n, m) => n + m.geometry.attributes.position.count, 0);
  const frames = raw.length / (verts * 6);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  if (gltf.animations.length) mixer.clipAction(gltf.animations[0]).play();
  gltf.scene.updateMatrixWorld(true);
  let worst = 0;
  const p = new THREE.Vector3(), q = new THREE.Vector3(), d = new THREE.Vector3();
  for (let f = 0; f < frames; f++) {
    mixer.setTime((f + 0.5) / fps); // mid-frame: STEP keys at float32 times need no tie-break
    let base = f * verts * 6;
    for (const m of meshes) {
      const pos = m.geometry.attributes.position, targets = m.geometry.morphAttributes.position ?? [];
      for (let i = 0; i < pos.count; i++, base += 6) {
        p.fromBufferAttribute(pos, i);
        targets.forEach((t, k) => p.addScaledVector(d.fromBufferAttribute(t, i), m.morphTargetInfluences[k]));
        p.applyMatrix4(m.matrixWorld);
        q.set(raw[base], raw[base + 1], raw[base + 2]).applyMatrix4(C);
        worst = Math.max(worst, p.distanceTo(q));
      }
    }
  }
  const ok = frames >= 1 && Number.isInteger(frames) && worst <= 1e-5;
  checks++;
  if (!ok) failures++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${glbPath}: ${frames} baked frame(s) played back, max error ${worst.toExponential(3)}`);
}

for (const line of jobs) {
  const [glbPath, src, clipFile, ...extra] = line.split('\t');
  if (glbPath === 'SAMPLE') {
    await checkSample(src);
    continue;
  }
  if (glbPath === 'BAKE') {
    await checkBake(src, clipFile, Number(extra[0]));
    continue;
  }
  const gltf = await load(glbPath);
  const meta = gltf.parser.json.asset.extras?.vkskin;
  const C = new THREE.Matrix4().fromArray(meta.correction);
  const meshes = [];
  gltf.scene.traverse((o) => { if (o.isSkinnedMesh) meshes.push(o); });
  const verts = meshes.reduce((n, m) => n + m.geometry.attributes.position.count, 0);
  // the model's scale: the diagonal of its bind positions' bounds
  const box = new THREE.Box3();
  for (const m of meshes) { m.geometry.computeBoundingBox(); box.union(m.geometry.boundingBox); }
  const diag = box.min.distanceTo(box.max);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  gltf.animations.forEach((clip, a) => {
    const frames = Math.max(1, Math.min(8, Math.ceil((clip.duration - 1e-3) / STEP)));
    const ref = deform(src, `${clipFile}#${a}`, frames, extra);
    if (ref.length !== frames * verts * 6)
      throw new Error(`${src}: deform wrote ${ref.length} floats, expected ${frames * verts * 6}`);
    mixer.stopAllAction();
    const action = mixer.clipAction(clip);
    action.play();
    let worst = 0, worstAt = '';
    const p = new THREE.Vector3(), q = new THREE.Vector3();
    for (let f = 0; f < frames; f++) {
      mixer.setTime(f / FPS);
      gltf.scene.updateMatrixWorld(true);
      let base = f * verts * 6;
      for (const m of meshes) {
        const pos = m.geometry.attributes.position;
        for (let i = 0; i < pos.count; i++, base += 6) {
          p.fromBufferAttribute(pos, i);
          m.applyBoneTransform(i, p);
          p.applyMatrix4(m.matrixWorld);
          q.set(ref[base], ref[base + 1], ref[base + 2]).applyMatrix4(C);
          const e = p.distanceTo(q);
          if (!(e <= worst)) { worst = e; worstAt = `t=${(f / FPS).toFixed(4)} mesh ${m.name} vertex ${i}`; }
        }
      }
    }
    action.stop();
    mixer.uncacheAction(clip);
    const rel = worst / diag, ok = rel <= TOL;
    checks++;
    if (!ok) failures++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${glbPath} animation ${a} "${clip.name}" (${frames} times): max error ` +
      `${worst.toExponential(3)} = ${rel.toExponential(3)} x diagonal ${diag.toPrecision(4)} at ${worstAt}`);
  });
}
console.log(`${checks} animations checked, ${failures} over ${TOL} x the model's diagonal`);
process.exit(failures ? 1 : 0);
