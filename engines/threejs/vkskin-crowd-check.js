// Reads back what a crowd's shaders decode for sampled instances, from the GPU, and compares it
// with vkskin's CPU reference (the `raw` output of the same bake, --cpu) at each instance's own
// clip and time: its clip at offset + speed * time seconds, frames interpolated, crossfaded with
// its second clip by its weight, as vkskin-crowd.js documents. The kit's GLSL and the crowd's own
// instanced attributes (the same buffers the InstancedMesh draws with) drive one instanced draw
// of points into a float render target: instance k's vertices are written when k is a multiple
// of `stride`, into its own block of rows. Then one sampled instance is given a wrong clip and
// must fail. The player page runs it with ?crowdcheck=DIR/NAME.
import * as THREE from 'three';
import { vatGlsl, vatDefines, atlasGlsl, VKS_MAX_CLIPS } from './vkskin-bake.js';

const fragment = /* glsl */ `varying vec4 vksOut; void main() { gl_FragColor = vksOut; }`;

// The CPU side of the shaders' clip arithmetic (vksClipFrames): frames f0, f1 and f1's weight.
function clipFrames(clip, frame) {
  const n = Math.max(clip.frame_count, 1);
  let f0 = Math.floor(frame), t = frame - f0, f1;
  if (clip.loop) {
    f0 = f0 - n * Math.floor(f0 / n);
    f1 = (f0 + 1) % n;
  } else {
    if (f0 >= n - 1) { f0 = n - 1; t = 0; }
    if (f0 < 0) { f0 = 0; t = 0; }
    f1 = Math.min(f0 + 1, n - 1);
  }
  return { f0, f1, t };
}

// Reference position (stream 0) or normal (stream 1) of vertex v, axis a, for an instance's
// playback at crowd time `time`: as the shaders mix them, the normal normalised last.
function expected(ref, n, clips, p, time, stream = 0) {
  const at = (clipIndex, offset, speed) => {
    const clip = clips[clipIndex];
    const { f0, f1, t } = clipFrames(clip, (offset + speed * time) * clip.fps);
    const g0 = clip.first_frame + f0, g1 = clip.first_frame + f1;
    return (v, a) => (1 - t) * ref[(g0 * n + v) * 6 + stream * 3 + a] + t * ref[(g1 * n + v) * 6 + stream * 3 + a];
  };
  const a = at(p.clip, p.offset, p.speed), b = at(p.fadeClip, p.fadeOffset, p.fadeSpeed);
  const mixed = p.fade > 0 ? (v, k) => (1 - p.fade) * a(v, k) + p.fade * b(v, k) : a;
  if (!stream) return mixed;
  return (v, k) => mixed(v, k) / Math.hypot(mixed(v, 0), mixed(v, 1), mixed(v, 2));
}

// One instanced draw of points per mesh of the crowd: the mesh's per-vertex attributes, the
// crowd's per-instance ones, no index (every vertex once).
function pointsOf(crowd, makeMaterial) {
  return crowd.meshes.map((mesh, m) => {
    const g = new THREE.InstancedBufferGeometry();
    for (const [name, attr] of Object.entries(mesh.geometry.attributes)) g.setAttribute(name, attr);
    g.instanceCount = crowd.count;
    const points = new THREE.Points(g, makeMaterial(mesh, m));
    points.frustumCulled = false;
    return points;
  });
}

function capture(renderer, points, width, height) {
  const target = new THREE.WebGLRenderTarget(width, height, { type: THREE.FloatType, format: THREE.RGBAFormat,
                                                              minFilter: THREE.NearestFilter, magFilter: THREE.NearestFilter });
  const scene = new THREE.Scene();
  points.forEach(p => scene.add(p));
  renderer.setRenderTarget(target);
  renderer.setClearColor(0x000000, 0);
  renderer.clear();
  renderer.render(scene, new THREE.Camera());
  const px = new Float32Array(width * height * 4);
  renderer.readRenderTargetPixels(target, 0, 0, width, height, px);
  renderer.setRenderTarget(null);
  target.dispose();
  return px;
}

// Where vertex v of sampled slot s is in the target: VAT, the VAT's own column and rows of a
// frame; atlas, rows of `width` vertices.
function layoutOf(kind, bake, n) {
  if (kind === 'atlas') {
    const width = Math.min(n, 1024);
    return { width, rows: Math.ceil(n / width), pixel: (s, v) => (s * Math.ceil(n / width) + Math.floor(v / width)) * width + v % width };
  }
  const l = bake.sidecar.layout;
  return { width: l.width, rows: l.rows_per_frame, pixel: (s, v) => (s * l.rows_per_frame + Math.floor(v / l.width)) * l.width + v % l.width };
}

// The shader of the read-back: the kit's decode, instance k written when k % stride == 0, to
// block k / stride (vksOutCell gives the vertex's cell within its block).
const streamUniform = { value: 0 }; // 0: positions, 1: normals (VAT)
function readMaterial(kind, bake, crowdMaterial, slots, stride) {
  const place = /* glsl */ `
    float k = float(gl_InstanceID);
    vec2 cell = vksOutCell();
    cell.y += floor(k / vksStride) * vksBlock.y;
    gl_Position = mod(k, vksStride) == 0.0
      ? vec4((cell + 0.5) / vec2(vksBlock.x, vksBlock.y * vksSlots) * 2.0 - 1.0, 0.0, 1.0)
      : vec4(2.0, 2.0, 2.0, 1.0); // outside: not sampled
    gl_PointSize = 1.0;`;
  const n = bake.sidecar.vertex_count, lay = layoutOf(kind, bake, n);
  const uniforms = Object.assign({}, crowdMaterial.userData.vks, {
    vksStride: { value: stride }, vksSlots: { value: slots }, vksBlock: { value: new THREE.Vector2(lay.width, lay.rows) },
    vksStream: streamUniform,
  });
  const head = 'uniform float vksStride, vksSlots, vksStream; uniform vec2 vksBlock; varying vec4 vksOut;\n';
  if (kind === 'atlas') {
    return new THREE.ShaderMaterial({
      defines: { VKS_MAX_CLIPS, VKS_INSTANCED: '' }, uniforms, fragmentShader: fragment,
      vertexShader: `attribute vec4 skinIndex; attribute vec4 skinWeight; attribute float vksIndex;\n${head}${atlasGlsl}
        vec2 vksOutCell() { return vec2(mod(vksIndex, vksBlock.x), floor(vksIndex / vksBlock.x)); }
        void main() {
          vec3 p, q;
          vksAtlasSkin(position, vec3(0.0, 0.0, 1.0), skinIndex, skinWeight, p, q);
          vksOut = vec4(p, 1.0);${place}
        }`,
    });
  }
  return new THREE.ShaderMaterial({
    defines: vatDefines(bake, true), uniforms, fragmentShader: fragment,
    vertexShader: `attribute vec2 vksLookup;\n${head}${vatGlsl}
      vec2 vksOutCell() { return floor(vksLookup * vksLayout.xy); } // column and row in frame 0
      void main() {
        vksOut = vec4(vksStream > 0.5 ? vksVatNormal(vksLookup, vec3(0.0)) : vksVatPosition(vksLookup), 1.0);${place}
      }`,
  });
}

// crowd: createVatCrowd or createAtlasCrowd's; kind 'vat' or 'atlas'; base: DIR/NAME of the
// bake's raw CPU reference; time: the crowd time to check at. Logs one line per verdict.
export async function runCrowdCheck(renderer, crowd, kind, bake, base, time, log, stride = 64) {
  const refSidecar = await (await fetch(`${base}.raw.json`)).json();
  if (refSidecar.engine !== 'cpu-reference') throw new Error(`${base}.raw: not the CPU reference (bake with --cpu)`);
  const ref = new Float32Array(await (await fetch(`${base}.raw`)).arrayBuffer());
  const n = refSidecar.vertex_count, s = bake.sidecar, clips = s.clips;
  if (n !== s.vertex_count) throw new Error(`${base}.raw: ${n} vertices, the bake ${s.vertex_count}`);
  if (kind === 'atlas') { // the atlas's vertices in model order over its meshes
    let first = 0;
    for (const mesh of crowd.meshes) {
      const count = mesh.geometry.attributes.position.count;
      mesh.geometry.setAttribute('vksIndex', new THREE.Float32BufferAttribute(Float32Array.from({ length: count }, (_, i) => first + i), 1));
      first += count;
    }
    if (first !== n) throw new Error(`atlas mesh: ${first} vertices, the reference ${n}`);
  }
  let ext = 0;
  for (let a = 0; a < 3; a++) {
    let lo = Infinity, hi = -Infinity;
    for (let i = a; i < ref.length; i += 6) { lo = Math.min(lo, ref[i]); hi = Math.max(hi, ref[i]); }
    ext = Math.max(ext, hi - lo);
  }
  // the encodings' bounds (as vkskin-check.js) and float32 time and interpolation on the GPU
  const encoding = kind === 'atlas' ? 1e-5 * ext : bake.unorm16 ? ext / 65535 : s.encoding === 'float16' ? 1e-3 * ext : 1e-6 * ext;
  const bound = encoding + 1e-5 * ext;
  const slots = Math.ceil(crowd.count / stride), lay = layoutOf(kind, bake, n);
  const points = pointsOf(crowd, mesh => readMaterial(kind, bake, mesh.material, slots, stride));
  crowd.setTime(time);
  const read = (normals = false) => {
    streamUniform.value = normals ? 1 : 0;
    return capture(renderer, points, lay.width, lay.rows * slots);
  };
  // the largest difference of sampled slot sl from instance i's reference; -1 where unwritten
  const error = (px, sl, want) => {
    let e = 0;
    for (let v = 0; v < n; v++) {
      const p = lay.pixel(sl, v) * 4;
      if (px[p + 3] !== 1) return -1;
      for (let a = 0; a < 3; a++) e = Math.max(e, Math.abs(px[p + a] - want(v, a)));
    }
    return e;
  };
  let ok = true, fades = 0;
  const verdict = (pass, text) => { ok = ok && pass; log(`${pass ? 'PASS' : 'FAIL'} ${text}`); };
  const px = read();
  for (let sl = 0; sl < slots; sl++) {
    const i = sl * stride, p = crowd.playback(i);
    if (p.fade > 0) fades++;
    const e = error(px, sl, expected(ref, n, clips, p, time));
    verdict(e >= 0 && e <= bound, `${kind} instance ${i}: clip ${p.clip} offset ${p.offset.toFixed(3)} speed ` +
            `${p.speed.toFixed(3)}${p.fade > 0 ? `, clip ${p.fadeClip} weight ${p.fade.toFixed(3)}` : ''} at ` +
            `${time} s: max error ${e} bound ${bound}`);
  }
  verdict(fades > 0, `${kind}: ${fades} of ${slots} sampled instances crossfade`);
  if (kind === 'vat' && bake.normal) { // the VAT's normals too, within 1e-3 (16-bit codes: 3e-5)
    const pn = read(true);
    let worst = 0;
    for (let sl = 0; sl < slots; sl++) {
      const e = error(pn, sl, expected(ref, n, clips, crowd.playback(sl * stride), time, 1));
      worst = e < 0 ? Infinity : Math.max(worst, e);
    }
    verdict(worst <= 1e-3, `vat normals of the ${slots} sampled instances: max error ${worst} bound 0.001`);
  }
  // the check can fail: instance 0 told to play another clip than the one its reference plays
  const p0 = crowd.playback(0);
  crowd.setPlayback(0, Object.assign({}, p0, { clip: (p0.clip + 1) % clips.length }));
  const ew = error(read(), 0, expected(ref, n, clips, p0, time));
  crowd.setPlayback(0, p0);
  verdict(ew > bound, `${kind} wrong instance attribute detected: instance 0 playing clip ${(p0.clip + 1) % clips.length} ` +
          `instead of ${p0.clip}: error ${ew} > bound ${bound}`);
  points.forEach(pt => pt.material.dispose());
  return ok;
}
