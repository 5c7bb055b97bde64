// The player page's script (index.html, whose comment lists the parameters): a crowd of `count`
// instances of a bake (1: the character alone, playing `clip`; more: each its own clip, phase and
// speed, a quarter crossfading to a second clip), with the character's material and texture,
// orbit controls, and the frame time in the status line. With ?check= it first reads back the
// decoded vertices of whole bakes (vkskin-check.js), with ?crowdcheck= those of sampled
// instances of this crowd (vkskin-crowd-check.js), against the CPU reference.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { loadVat, loadAtlas, THREE_REVISION } from './vkskin-bake.js';
import { createVatCrowd, createAtlasCrowd } from './vkskin-crowd.js';

const q = new URLSearchParams(location.search);
const status = document.getElementById('status');
const pre = document.getElementById('check');
const say = t => { status.textContent = t; };
const W = 640, H = 480;

// A small seeded generator: the same crowd on every load (a test's sampled instances are known).
function random(seed) {
  let s = seed >>> 0;
  return () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1);
                 t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

// What each instance plays; instances on a square grid `spacing` apart.
function populate(crowd, clips, spacing) {
  const count = crowd.count, rnd = random(+(q.get('seed') || 1));
  const side = Math.ceil(Math.sqrt(count));
  const fixed = Math.min(+(q.get('clip') || 0), clips.length - 1);
  const still = q.get('frame');
  for (let i = 0; i < count; i++) {
    if (count === 1) {
      // one character: clip `clip`, from its start, or still at frame `frame` (time stays 0)
      crowd.setPlayback(0, { clip: fixed, offset: still !== null ? +still / clips[fixed].fps : 0, speed: still !== null ? 0 : 1 });
    } else {
      const clip = Math.floor(rnd() * clips.length), duration = clips[clip].frame_count / clips[clip].fps;
      const p = { clip, offset: rnd() * duration, speed: 0.8 + 0.45 * rnd() };
      if (rnd() < 0.25 && clips.length > 1) // crossfading to another clip
        Object.assign(p, { fadeClip: (clip + 1 + Math.floor(rnd() * (clips.length - 1))) % clips.length,
                           fadeOffset: rnd(), fadeSpeed: 1, fade: 0.1 + 0.8 * rnd() });
      crowd.setPlayback(i, p);
    }
    const x = (i % side - (side - 1) / 2) * spacing, z = (Math.floor(i / side) - (side - 1) / 2) * spacing;
    crowd.place(i, new THREE.Matrix4().makeTranslation(x, 0, z));
  }
  return side * spacing;
}

// Draws a crowd (its first instance framed) into a small target: more than one colour?
function drawsPicture(renderer, crowd) {
  const scene = new THREE.Scene();
  scene.add(new THREE.HemisphereLight(0xffffff, 0x404040, 3));
  scene.add(crowd.group);
  const box = new THREE.Box3().setFromBufferAttribute(crowd.meshes[0].geometry.attributes.position)
    .applyMatrix4(crowd.meshes[0].userData.vksBase);
  const centre = box.getCenter(new THREE.Vector3()), size = box.getSize(new THREE.Vector3()).length();
  const camera = new THREE.PerspectiveCamera(40, 1, size / 100, size * 10);
  camera.position.copy(centre).add(new THREE.Vector3(0, 0, 2 * size));
  camera.lookAt(centre);
  const target = new THREE.WebGLRenderTarget(64, 64);
  renderer.setRenderTarget(target);
  renderer.setClearColor(0x000000, 1);
  renderer.clear();
  renderer.render(scene, camera);
  const px = new Uint8Array(64 * 64 * 4);
  renderer.readRenderTargetPixels(target, 0, 0, 64, 64, px);
  renderer.setRenderTarget(null);
  target.dispose();
  for (let i = 4; i < px.length; i += 4)
    if (px[i] !== px[0] || px[i + 1] !== px[1] || px[i + 2] !== px[2]) return true;
  return false;
}

async function runChecks(renderer, crowd, kind, bake) {
  if (!q.get('check') && !q.get('crowdcheck')) return;
  let ok = true;
  const log = base => line => { pre.textContent += `${base}: ${line}\n`; };
  if (q.get('check')) {
    const { runCheck } = await import('./vkskin-check.js');
    for (const base of q.get('check').split(',')) // several bakes: one line each, named by its base
      ok = await runCheck(renderer, base, log(base)) && ok;
  }
  if (q.get('crowdcheck') && crowd) {
    const { runCrowdCheck } = await import('./vkskin-crowd-check.js');
    const base = q.get('crowdcheck'), time = +(q.get('time') || 1.37);
    ok = await runCrowdCheck(renderer, crowd, kind, bake, base, time, log(base)) && ok;
    // and the same crowd played by the bake's bone atlas, where there is one
    if (kind !== 'atlas' && (await fetch(`${base}.atlas.json`, { method: 'HEAD' })).ok) {
      const atlas = await loadAtlas(`${base}.atlas.json`);
      const other = createAtlasCrowd(atlas, await new GLTFLoader().loadAsync(atlas.meshUrl), crowd.count);
      populate(other, atlas.sidecar.clips, 1);
      ok = await runCrowdCheck(renderer, other, 'atlas', atlas, base, time, log(base)) && ok;
      // and drawn with its lit material (the patched MeshStandardMaterial compiles and draws)
      const drawn = drawsPicture(renderer, other);
      log(base)(`${drawn ? 'PASS' : 'FAIL'} atlas crowd drawn with its material`);
      ok = ok && drawn;
    }
  }
  pre.dataset.ok = ok ? '1' : '0';
  pre.textContent += ok ? 'CHECK OK\n' : 'CHECK FAILED\n';
}

// Is the canvas more than one colour (a picture, not a cleared screen)?
function drewPicture(renderer) {
  const gl = renderer.getContext(), px = new Uint8Array(W * H * 4);
  gl.readPixels(0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, px);
  for (let i = 4; i < px.length; i += 4)
    if (px[i] !== px[0] || px[i + 1] !== px[1] || px[i + 2] !== px[2]) return true;
  return false;
}

async function main() {
  const renderer = new THREE.WebGLRenderer({ antialias: false, preserveDrawingBuffer: true });
  renderer.setSize(W, H);
  document.body.appendChild(renderer.domElement);
  const url = q.get('bake');
  if (!url) {
    if (q.get('check')) await runChecks(renderer, null, null, null);
    say('no ?bake= sidecar given');
    return;
  }
  const sidecar = await (await fetch(url)).json();
  const kind = sidecar.kind === 'atlas' ? 'atlas' : 'vat';
  const bake = kind === 'atlas' ? await loadAtlas(url) : await loadVat(url);
  const gltf = await new GLTFLoader().loadAsync(kind === 'atlas' ? bake.meshUrl : bake.restMeshUrl);
  const count = Math.max(1, +(q.get('count') || 1));
  const crowd = kind === 'atlas' ? createAtlasCrowd(bake, gltf, count) : createVatCrowd(bake, gltf, count);

  // the character's rest bounds in three.js's space set the spacing and the camera
  const g = crowd.meshes[0].geometry;
  g.computeBoundingBox();
  const box = g.boundingBox.clone().applyMatrix4(crowd.meshes[0].userData.vksBase);
  const size = box.getSize(new THREE.Vector3());
  const spacing = 1.3 * Math.max(size.x, size.z);
  const extent = populate(crowd, sidecar.clips, spacing);
  await runChecks(renderer, crowd, kind, bake);

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x303038);
  const lights = THREE_REVISION >= 155 ? Math.PI : 1; // r155 made lights physically based
  scene.add(new THREE.HemisphereLight(0xffffff, 0x404040, 0.9 * lights));
  const sun = new THREE.DirectionalLight(0xffffff, 0.9 * lights);
  sun.position.set(1, 2, 3);
  scene.add(sun);
  scene.add(crowd.group);
  const reach = Math.max(extent, size.length());
  const camera = new THREE.PerspectiveCamera(40, W / H, reach / 1000, reach * 20);
  const centre = new THREE.Vector3(0, size.y / 2, 0);
  camera.position.set(reach * 0.45, reach * 0.4, reach * 0.75 + size.length());
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.copy(centre);
  controls.update();

  const clip = sidecar.clips[Math.min(+(q.get('clip') || 0), sidecar.clips.length - 1)];
  const t0 = performance.now();
  const frame = () => {
    crowd.setTime((performance.now() - t0) / 1000);
    renderer.render(scene, camera);
  };
  frame(); // compiles the shaders
  status.dataset.drawn = '1';
  status.dataset.uniform = drewPicture(renderer) ? '0' : '1';
  // the frame time: `timed` frames, each waited for, by the page's clock or the one at
  // ?clock= (a URL answering milliseconds: a headless browser's virtual time stops the page's own)
  const clock = q.get('clock') ? async () => +(await (await fetch(q.get('clock'), { cache: 'no-store' })).text())
                               : async () => performance.now();
  const timed = Math.max(1, +(q.get('timed') || 10)), gl = renderer.getContext(), pixel = new Uint8Array(4);
  const start = await clock();
  // reading a pixel waits for the frame (WebGL's finish need not)
  for (let k = 0; k < timed; k++) { frame(); gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel); }
  const ms = (await clock() - start) / timed;
  status.dataset.frameMs = ms.toFixed(2);
  say(`three.js r${THREE_REVISION}: ${count} instance${count > 1 ? "s" : ""} of the ${sidecar.kind} bake of ` +
      `${sidecar.vertex_count} vertices, ${count > 1 ? `${sidecar.clips.length} clips` : `clip "${clip.name}"`}; ` +
      `${ms.toFixed(1)} ms a frame (mean of ${timed})`);
  // then plays, unless ?idle=1 (a test's page goes idle once measured)
  if (q.get('idle') !== '1') renderer.setAnimationLoop(() => { controls.update(); frame(); });
}
main().catch(e => { say('error: ' + e.message); console.error(e); });
