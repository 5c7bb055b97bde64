// Reads back what the kit's shaders decode, from the GPU, and compares it with vkskin's CPU
// reference: the `raw` output of the same bake (float32 x y z nx ny nz per vertex, frame-major,
// the CPU reference engine). The page runs it with ?check=DIR/NAME; the test
// tests/cli/engines_threejs.sh reads the verdicts. Each decoded value is drawn as one point into a
// float render target (a pixel per vertex) and read with readRenderTargetPixels.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { loadVat, loadAtlas, vatUniforms, vatDefines, vatGlsl, vatLookupAttribute, atlasGlsl, atlasUniforms,
         VKS_MAX_CLIPS } from './vkskin-bake.js';

const fragment = /* glsl */ `varying vec4 vksOut; void main() { gl_FragColor = vksOut; }`;

async function exists(url) { return (await fetch(url, { method: 'HEAD' })).ok; }

// Draws `points` (objects whose shader writes one value per vertex) into a width x height float
// target; returns the RGBA floats, alpha 1 where a vertex wrote.
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

// Largest difference over vertices and axes between the read-back values and reference frame g
// (stream 0 positions, 1 normals); -1 when a vertex was not written.
function maxError(px, order, ref, g, stream, n, expect = null) {
  let e = 0;
  for (let v = 0; v < n; v++) {
    const p = order(v) * 4;
    if (px[p + 3] !== 1) return -1;
    for (let a = 0; a < 3; a++) {
      const want = expect ? expect(v, a) : ref[(g * n + v) * 6 + stream * 3 + a];
      e = Math.max(e, Math.abs(px[p + a] - want));
    }
  }
  return e;
}

export async function runCheck(renderer, base, log) {
  const refSidecar = await (await fetch(`${base}.raw.json`)).json();
  if (refSidecar.engine !== 'cpu-reference') throw new Error(`${base}.raw: not the CPU reference (bake with --cpu)`);
  const ref = new Float32Array(await (await fetch(`${base}.raw`)).arrayBuffer());
  const n = refSidecar.vertex_count;
  const cases = [{ clip: 1, frame: 3 }, { clip: 0, frame: 5 }].filter(c => c.clip < refSidecar.clips.length);
  let ok = true, checked = 0;
  const verdict = (pass, text) => { ok = ok && pass; log(`${pass ? 'PASS' : 'FAIL'} ${text}`); };

  // ---- VAT kinds: the rest mesh's lookup UV drives the decode
  for (const kind of ['vat-exr-float', 'vat-exr-half', 'vat-png16']) {
    if (!(await exists(`${base}.${kind}.json`))) continue;
    const bake = await loadVat(`${base}.${kind}.json`);
    const s = bake.sidecar, l = s.layout;
    if (s.vertex_order !== 'model' || refSidecar.vertex_count !== s.vertex_count) throw new Error(`${kind}: vertex order`);
    const gltf = await new GLTFLoader().loadAsync(bake.restMeshUrl);
    const uniforms = vatUniforms(bake);
    const stream = { value: 0 };
    const material = new THREE.ShaderMaterial({
      defines: vatDefines(bake), uniforms: Object.assign({ vksStream: stream }, uniforms), fragmentShader: fragment,
      vertexShader: `attribute vec2 vksLookup; uniform float vksStream; varying vec4 vksOut;\n${vatGlsl}
        void main() {
          vksOut = vec4(vksStream > 0.5 ? vksVatNormal(vksLookup, normal) : vksVatPosition(vksLookup), 1.0);
          vec2 cell = floor(vksLookup * vksLayout.xy); // the vertex's column and row in frame 0
          gl_Position = vec4((cell + 0.5) / vec2(vksLayout.x, vksLayout.z) * 2.0 - 1.0, 0.0, 1.0);
          gl_PointSize = 1.0;
        }`,
    });
    const points = [];
    gltf.scene.traverse(o => {
      if (!o.isMesh) return;
      o.geometry.setAttribute('vksLookup', vatLookupAttribute(o.geometry, s));
      points.push(new THREE.Points(o.geometry, material));
    });
    const read = (clip, frame, normals) => {
      uniforms.vksClip.value = clip; uniforms.vksFrame.value = frame; stream.value = normals ? 1 : 0;
      return capture(renderer, points, l.width, l.rows_per_frame);
    };
    const order = v => v; // pixel v % width, row v / width: the VAT's own column order
    // the encodings' bounds (docs/baking.md "Batch baking"): float exact, half 2^-11 of the largest
    // coordinate, 16-bit (max - min) / 65535
    const ext = Math.max(...[0, 1, 2].map(a => s.bounds.max[a] - s.bounds.min[a]));
    const mag = Math.max(...s.bounds.min.map(Math.abs), ...s.bounds.max.map(Math.abs));
    const bound = { 'vat-exr-float': 1e-6 * ext, 'vat-exr-half': Math.pow(2, -11) * mag, 'vat-png16': ext / 65535 }[kind];
    const nbound = { 'vat-exr-float': 1e-6, 'vat-exr-half': Math.pow(2, -10), 'vat-png16': 2 / 65535 }[kind] + 1e-6;
    for (const c of cases) {
      const clip = s.clips[c.clip], g = clip.first_frame + c.frame;
      const e = maxError(read(c.clip, c.frame, false), order, ref, g, 0, n);
      verdict(e >= 0 && e <= bound, `${kind} positions clip ${c.clip} frame ${c.frame}: max error ${e} bound ${bound} (${n} vertices)`);
      if (bake.normal) {
        const en = maxError(read(c.clip, c.frame, true), order, ref, g, 1, n);
        verdict(en >= 0 && en <= nbound, `${kind} normals clip ${c.clip} frame ${c.frame}: max error ${en} bound ${nbound}`);
      }
      // halfway between two frames: the mean of the two baked frames
      const ei = maxError(read(c.clip, c.frame + 0.5, false), order, ref, g, 0, n,
                          (v, a) => 0.5 * (ref[(g * n + v) * 6 + a] + ref[((g + 1) * n + v) * 6 + a]));
      verdict(ei >= 0 && ei <= bound + 1e-6 * ext, `${kind} positions clip ${c.clip} frame ${c.frame + 0.5} (interpolated): max error ${ei}`);
      // the check can fail: the next frame does not pass for this one
      const ew = maxError(read(c.clip, c.frame + 1, false), order, ref, g, 0, n);
      verdict(ew > bound, `${kind} wrong frame detected: frame ${c.frame + 1} against ${c.frame}: error ${ew} > bound ${bound}`);
    }
    checked++;
  }

  // ---- the atlas: its mesh's joints and weights, the matrices of the frames
  if (await exists(`${base}.atlas.json`)) {
    const bake = await loadAtlas(`${base}.atlas.json`);
    const gltf = await new GLTFLoader().loadAsync(bake.meshUrl);
    const width = Math.min(n, 1024), height = Math.ceil(n / width);
    const ctl = { vksStream: { value: 0 }, vksWidth: { value: new THREE.Vector2(width, height) } };
    const shared = atlasUniforms(bake, 0);
    const points = [];
    let first = 0;
    gltf.scene.traverse(o => {
      if (!o.isSkinnedMesh) return;
      const assoc = gltf.parser.associations.get(o);
      const g = o.geometry, count = g.attributes.position.count;
      g.setAttribute('vksIndex', new THREE.Float32BufferAttribute(Float32Array.from({ length: count }, (_, i) => first + i), 1));
      first += count;
      const u = Object.assign({}, shared, ctl, { vksBoneBase: { value: bake.sidecar.meshes[assoc.meshes].first_bone } });
      points.push(new THREE.Points(g, new THREE.ShaderMaterial({
        defines: { VKS_MAX_CLIPS }, uniforms: u, fragmentShader: fragment,
        vertexShader: `attribute vec4 skinIndex; attribute vec4 skinWeight; attribute float vksIndex;
          uniform float vksStream; uniform vec2 vksWidth; varying vec4 vksOut;\n${atlasGlsl}
          void main() {
            vec3 p, q;
            vksAtlasSkin(position, normal, skinIndex, skinWeight, p, q);
            vksOut = vec4(vksStream > 0.5 ? q : p, 1.0);
            vec2 cell = vec2(mod(vksIndex, vksWidth.x), floor(vksIndex / vksWidth.x));
            gl_Position = vec4((cell + 0.5) / vksWidth * 2.0 - 1.0, 0.0, 1.0);
            gl_PointSize = 1.0;
          }`,
      })));
    });
    if (first !== n) throw new Error(`atlas mesh: ${first} vertices, the reference ${n}`);
    const read = (clip, frame, normals) => {
      shared.vksClip.value = clip; shared.vksFrame.value = frame; ctl.vksStream.value = normals ? 1 : 0;
      return capture(renderer, points, width, height);
    };
    let ext = 0;
    for (let a = 0; a < 3; a++) {
      let lo = Infinity, hi = -Infinity;
      for (let i = a; i < ref.length; i += 6) { lo = Math.min(lo, ref[i]); hi = Math.max(hi, ref[i]); }
      ext = Math.max(ext, hi - lo);
    }
    const bound = 1e-5 * ext; // float32 matrices applied in float32 on the GPU
    for (const c of cases) {
      const g = bake.sidecar.clips[c.clip].first_frame + c.frame;
      const e = maxError(read(c.clip, c.frame, false), v => v, ref, g, 0, n);
      verdict(e >= 0 && e <= bound, `atlas positions clip ${c.clip} frame ${c.frame}: max error ${e} bound ${bound} (${n} vertices)`);
      const en = maxError(read(c.clip, c.frame, true), v => v, ref, g, 1, n);
      verdict(en >= 0 && en <= 1e-4, `atlas normals clip ${c.clip} frame ${c.frame}: max error ${en} bound 1e-4`);
      // matrices interpolated: positions are linear in them, so halfway is the mean of the frames
      const ei = maxError(read(c.clip, c.frame + 0.5, false), v => v, ref, g, 0, n,
                          (v, a) => 0.5 * (ref[(g * n + v) * 6 + a] + ref[((g + 1) * n + v) * 6 + a]));
      verdict(ei >= 0 && ei <= bound, `atlas positions clip ${c.clip} frame ${c.frame + 0.5} (interpolated): max error ${ei}`);
      const ew = maxError(read(c.clip, c.frame + 1, false), v => v, ref, g, 0, n);
      verdict(ew > bound, `atlas wrong frame detected: frame ${c.frame + 1} against ${c.frame}: error ${ew} > bound ${bound}`);
    }
    checked++;
  }
  if (!checked) verdict(false, `no VAT or atlas sidecar at ${base}`);
  return ok;
}
