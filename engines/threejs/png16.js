// A 16-bit PNG reader for vkskin's VAT-png16 textures. Browsers decode PNGs to 8 bits per channel
// (an <img>, a canvas, three.js's TextureLoader), which would throw away the codes the bounds decode
// needs, so the file is read here: chunks, zlib through the browser's DecompressionStream, the five
// scanline filters. Only what vkskin writes is accepted (16-bit RGB or RGBA, not interlaced).
//
// decodePng16(arrayBuffer) -> Promise<{width, height, data: Uint16Array}>, data RGBA per texel (alpha
// 65535 where the file has none), rows bottom-up as three.js's EXRLoader gives its rows, so the two
// encodings address texels alike (row 0 of the data is the file's last scanline).

export async function decodePng16(buffer) {
  const b = new Uint8Array(buffer);
  const sig = [137, 80, 78, 71, 13, 10, 26, 10];
  if (b.length < 8 || sig.some((x, i) => b[i] !== x)) throw new Error('png16: not a PNG file');
  const view = new DataView(buffer);
  let width = 0, height = 0, channels = 0;
  const idat = [];
  for (let i = 8; i + 8 <= b.length;) {
    const n = view.getUint32(i);
    const type = String.fromCharCode(b[i + 4], b[i + 5], b[i + 6], b[i + 7]);
    if (i + 12 + n > b.length) throw new Error(`png16: chunk ${type} at byte ${i} runs past the end`);
    const body = b.subarray(i + 8, i + 8 + n);
    if (type === 'IHDR') {
      width = view.getUint32(i + 8);
      height = view.getUint32(i + 12);
      const depth = body[8], color = body[9], interlace = body[12];
      channels = color === 2 ? 3 : color === 6 ? 4 : 0;
      if (depth !== 16 || !channels || interlace !== 0)
        throw new Error(`png16: IHDR: ${depth}-bit colour type ${color} interlace ${interlace}; want 16-bit RGB(A), not interlaced`);
    } else if (type === 'IDAT') {
      idat.push(body);
    } else if (type === 'IEND') {
      break;
    }
    i += 12 + n;
  }
  if (!width || !idat.length) throw new Error('png16: no IHDR or IDAT chunk');
  const raw = new Uint8Array(await new Response(
    new Blob(idat).stream().pipeThrough(new DecompressionStream('deflate'))).arrayBuffer());
  const bpp = channels * 2, stride = width * bpp;
  if (raw.length < height * (stride + 1)) throw new Error('png16: IDAT holds fewer bytes than the image needs');
  const out = new Uint16Array(width * height * 4);
  let prev = new Uint8Array(stride), cur = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? cur[x - bpp] : 0, up = prev[x], c = x >= bpp ? prev[x - bpp] : 0;
      let p;
      switch (f) {
        case 0: p = 0; break;
        case 1: p = a; break;
        case 2: p = up; break;
        case 3: p = (a + up) >> 1; break;
        case 4: {
          const pa = Math.abs(up - c), pb = Math.abs(a - c), pc = Math.abs(a + up - 2 * c);
          p = pa <= pb && pa <= pc ? a : pb <= pc ? up : c;
          break;
        }
        default: throw new Error(`png16: scanline ${y}: filter ${f}`);
      }
      cur[x] = (src[x] + p) & 255;
    }
    const row = (height - 1 - y) * width * 4; // bottom-up, as EXRLoader
    for (let x = 0; x < width; x++) {
      for (let k = 0; k < 4; k++)
        out[row + x * 4 + k] = k < channels ? (cur[x * bpp + k * 2] << 8) | cur[x * bpp + k * 2 + 1] : 65535;
    }
    [prev, cur] = [cur, prev];
  }
  return { width, height, data: out };
}
