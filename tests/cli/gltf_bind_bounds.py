#!/usr/bin/env python3
"""The bind-pose bounding box of a glTF 2.0 file as a viewer shows it, read without vkskin.

    gltf_bind_bounds.py FILE.glb|FILE.gltf ...

Prints one line per file: its name, then min x y z and max x y z. Each skinned primitive is
posed as the specification says (sum over its influences of weight x joint world x inverse
bind), every other primitive by its node's world transform, so the box is where Blender and
three.js put the vertices at rest, in glTF's frame (Y up). Only the Python standard library:
an implementation of its own, independent of vkskin's reader and writer.
"""
import base64
import json
import struct
import sys

COMPONENT = {5120: ('b', 1), 5121: ('B', 1), 5122: ('h', 2), 5123: ('H', 2), 5125: ('I', 4), 5126: ('f', 4)}
NORM = {5120: 127.0, 5121: 255.0, 5122: 32767.0, 5123: 65535.0}
WIDTH = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4, 'MAT4': 16}


def load(path):
    data = open(path, 'rb').read()
    if data[:4] == b'glTF':
        jlen = struct.unpack_from('<I', data, 12)[0]
        doc = json.loads(data[20:20 + jlen])
        bin_chunk = None
        if 28 + jlen <= len(data):
            blen = struct.unpack_from('<I', data, 20 + jlen)[0]
            bin_chunk = data[28 + jlen:28 + jlen + blen]
    else:
        doc, bin_chunk = json.loads(data), None
    buffers = []
    for i, b in enumerate(doc.get('buffers', [])):
        uri = b.get('uri')
        if uri is None:
            buffers.append(bin_chunk)
        elif uri.startswith('data:'):
            buffers.append(base64.b64decode(uri.split(',', 1)[1]))
        else:
            import os
            buffers.append(open(os.path.join(os.path.dirname(path), uri), 'rb').read())
    return doc, buffers


def accessor(doc, buffers, index):
    a = doc['accessors'][index]
    fmt, size = COMPONENT[a['componentType']]
    n = WIDTH[a['type']]
    out = [[0.0] * n for _ in range(a['count'])]
    if 'bufferView' in a:
        v = doc['bufferViews'][a['bufferView']]
        buf = buffers[v['buffer']]
        base = v.get('byteOffset', 0) + a.get('byteOffset', 0)
        stride = v.get('byteStride', size * n)
        for i in range(a['count']):
            out[i] = list(struct.unpack_from('<' + fmt * n, buf, base + i * stride))
    if 'sparse' in a:
        s = a['sparse']
        iv = doc['bufferViews'][s['indices']['bufferView']]
        ifmt, isize = COMPONENT[s['indices']['componentType']]
        ibase = iv.get('byteOffset', 0) + s['indices'].get('byteOffset', 0)
        vv = doc['bufferViews'][s['values']['bufferView']]
        vbase = vv.get('byteOffset', 0) + s['values'].get('byteOffset', 0)
        for k in range(s['count']):
            i = struct.unpack_from('<' + ifmt, buffers[iv['buffer']], ibase + k * isize)[0]
            out[i] = list(struct.unpack_from('<' + fmt * n, buffers[vv['buffer']], vbase + k * size * n))
    if a.get('normalized') and a['componentType'] in NORM:
        d = NORM[a['componentType']]
        out = [[max(x / d, -1.0) for x in row] for row in out]
    return out


def mat_mul(a, b):  # 4x4 column-major
    return [sum(a[r + 4 * k] * b[k + 4 * c] for k in range(4)) for c in range(4) for r in range(4)]


def local_matrix(node):
    if 'matrix' in node:
        return [float(x) for x in node['matrix']]
    t = node.get('translation', [0, 0, 0])
    x, y, z, w = node.get('rotation', [0, 0, 0, 1])
    s = node.get('scale', [1, 1, 1])
    r = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
         2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
         2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]
    return [r[0] * s[0], r[1] * s[0], r[2] * s[0], 0, r[3] * s[1], r[4] * s[1], r[5] * s[1], 0,
            r[6] * s[2], r[7] * s[2], r[8] * s[2], 0, t[0], t[1], t[2], 1]


def apply(m, p):
    return [m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] for r in range(3)]


def bounds(path):
    doc, buffers = load(path)
    nodes = doc.get('nodes', [])
    parent = {}
    for i, n in enumerate(nodes):
        for c in n.get('children', []):
            parent[c] = i
    world = {}

    def world_of(i):
        if i not in world:
            m = local_matrix(nodes[i])
            world[i] = mat_mul(world_of(parent[i]), m) if i in parent else m
        return world[i]

    lo, hi = [float('inf')] * 3, [float('-inf')] * 3
    for ni, node in enumerate(nodes):
        if 'mesh' not in node:
            continue
        skin = doc['skins'][node['skin']] if 'skin' in node else None
        if skin:
            joints = [world_of(j) for j in skin['joints']]
            ibm = accessor(doc, buffers, skin['inverseBindMatrices']) if 'inverseBindMatrices' in skin else None
            K = [mat_mul(joints[j], ibm[j]) if ibm else joints[j] for j in range(len(joints))]
        for prim in doc['meshes'][node['mesh']]['primitives']:
            pos = accessor(doc, buffers, prim['attributes']['POSITION'])
            if skin and 'JOINTS_0' in prim['attributes']:
                js = accessor(doc, buffers, prim['attributes']['JOINTS_0'])
                ws = accessor(doc, buffers, prim['attributes']['WEIGHTS_0'])
                posed = []
                for p, j, w in zip(pos, js, ws):
                    q = [0.0, 0.0, 0.0]
                    for k in range(4):
                        if w[k]:
                            v = apply(K[int(j[k])], p)
                            q = [q[c] + w[k] * v[c] for c in range(3)]
                    posed.append(q)
            else:
                m = world_of(ni)
                posed = [apply(m, p) for p in pos]
            for q in posed:
                for c in range(3):
                    lo[c], hi[c] = min(lo[c], q[c]), max(hi[c], q[c])
    return lo, hi


if __name__ == '__main__':
    for f in sys.argv[1:]:
        lo, hi = bounds(f)
        print(f, ' '.join('%.6g' % v for v in lo + hi))
