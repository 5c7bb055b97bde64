#!/usr/bin/env python3
"""glb_normals.py MODEL.glb BAKE.raw VERTICES [STEP]: checks the normals vkskin bake computed for a
model without normals, against normals computed here from the model file and the baked
positions alone. The triangles come from the .glb's own primitives (indices, or unindexed
triples), in the file's vertex order (the raw cache's, sidecar vertex_order "file"); every
STEP-th frame (default 7) of BAKE.raw (float32 x y z nx ny nz per vertex, frame-major): a
vertex's normal is the normalised sum of (b - a) x (c - a) over the triangles of every vertex
at its rest position (equal coordinates in the file). Prints the largest difference and
length error; exit 1 when either passes 1e-3."""
import json, math, struct, sys

glb, raw, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
step = int(sys.argv[4]) if len(sys.argv) > 4 else 7
b = open(glb, 'rb').read()
jlen = struct.unpack('<I', b[12:16])[0]
doc = json.loads(b[20:20 + jlen])
bin_ = b[28 + jlen:]


def accessor(i):
    a = doc['accessors'][i]
    v = doc['bufferViews'][a['bufferView']]
    comps = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4}[a['type']]
    fmt, size = {5126: ('f', 4), 5125: ('I', 4), 5123: ('H', 2), 5121: ('B', 1)}[a['componentType']]
    stride = v.get('byteStride', comps * size)
    at = v.get('byteOffset', 0) + a.get('byteOffset', 0)
    return [struct.unpack_from('<%d%s' % (comps, fmt), bin_, at + k * stride) for k in range(a['count'])]


rest, tris = [], []
for mesh in doc['meshes']:
    for prim in mesh['primitives']:
        first = len(rest)
        pos = accessor(prim['attributes']['POSITION'])
        rest += pos
        idx = [i[0] for i in accessor(prim['indices'])] if 'indices' in prim else list(range(len(pos)))
        tris += [(first + idx[t], first + idx[t + 1], first + idx[t + 2]) for t in range(0, len(idx), 3)]
if len(rest) != n:
    sys.exit(f'{glb}: {len(rest)} vertices, the bake {n}')
weld, rep = {}, []
for v, p in enumerate(rest):
    rep.append(weld.setdefault(struct.pack('<3f', *p), v))
data = open(raw, 'rb').read()
frames = len(data) // (n * 24)
worst = length = 0.0
for f in range(0, frames, step):
    fr = struct.unpack_from('<%df' % (n * 6), data, f * n * 24)
    P = lambda v: fr[v * 6:v * 6 + 3]
    s = [[0.0, 0.0, 0.0] for _ in range(n)]
    for a, b_, c in tris:
        pa, pb, pc = P(a), P(b_), P(c)
        e = [pb[k] - pa[k] for k in range(3)]
        g = [pc[k] - pa[k] for k in range(3)]
        x = (e[1] * g[2] - e[2] * g[1], e[2] * g[0] - e[0] * g[2], e[0] * g[1] - e[1] * g[0])
        for v in (a, b_, c):
            for k in range(3):
                s[rep[v]][k] += x[k]
    for v in range(n):
        d = s[rep[v]]
        l = math.sqrt(sum(t * t for t in d)) or 1.0
        got = fr[v * 6 + 3:v * 6 + 6]
        worst = max(worst, max(abs(got[k] - d[k] / l) for k in range(3)))
        length = max(length, abs(math.sqrt(sum(t * t for t in got)) - 1.0))
print(f'{(frames + step - 1) // step} of {frames} frames, {n} vertices: largest difference {worst:.3g}, '
      f'largest length error {length:.3g}')
sys.exit(0 if worst <= 1e-3 and length <= 1e-3 else 1)
