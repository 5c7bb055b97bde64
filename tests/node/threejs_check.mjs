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
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const [vkskin, jobsFile] = process.argv.slice(2);
const TOL = 1e-5;
const STEP = 4 / 30, FPS = 7.5;

function load(file) {
  const bytes = readFileSync(file);
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new Promise((resolve, reject) => new GLTFLoader().parse(data, '', resolve, reject));
}

function deform(src, clip, frames, extra) {
  const args = ['deform', src, '--cpu', '--clip', clip, '--frames', String(frames), '--fps', String(FPS),
    '--format', 'raw', '--out', '-', ...extra];
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
