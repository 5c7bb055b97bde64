#!/usr/bin/env python3
"""Seeds for the compressed-glTF harnesses, cut from real encoder output:
    make_compressed_seeds.py meshopt FILE.glb OUT_DIR   (gltfpack output: every compressed view)
    make_compressed_seeds.py draco FILE.glb OUT_DIR     (draco_transcoder output: every primitive)
Each seed is the harness's header (fuzz_gltf_meshopt.c, fuzz_gltf_draco.c) and the view's
compressed bytes. The committed seeds were made from a character vkskin generates:
    vkskin generate --format dff --bones 24 --vertices 300 --influences 4 --seed 1 --out s.dff
    vkskin convert s.dff s.glb --clip s.dff.walk.anm
    gltfpack -i s.glb -o s.mo.glb -cc && draco_transcoder -i s.glb -o s.draco.glb
"""
import json
import os
import struct
import sys


def glb(path):
    b = open(path, 'rb').read()
    n = struct.unpack('<I', b[12:16])[0]
    return json.loads(b[20:20 + n]), b[20 + n + 8:]


def main():
    kind, path, out = sys.argv[1:4]
    j, bin_ = glb(path)
    os.makedirs(out, exist_ok=True)
    base = os.path.splitext(os.path.basename(path))[0]
    if kind == 'meshopt':
        modes = {'ATTRIBUTES': 0, 'TRIANGLES': 1, 'INDICES': 2}
        filters = {'NONE': 0, 'OCTAHEDRAL': 1, 'QUATERNION': 2, 'EXPONENTIAL': 3}
        for i, v in enumerate(j['bufferViews']):
            e = v.get('extensions', {}).get('EXT_meshopt_compression')
            if not e or e['count'] > 0xFFFF:
                continue
            head = bytes([modes[e['mode']] | filters[e.get('filter', 'NONE')] << 2, e['byteStride']])
            head += struct.pack('<H', e['count'])
            at = e.get('byteOffset', 0)
            open(os.path.join(out, '%s_view%d.bin' % (base, i)), 'wb').write(head + bin_[at:at + e['byteLength']])
    else:
        for m, mesh in enumerate(j['meshes']):
            for p, prim in enumerate(mesh['primitives']):
                e = prim.get('extensions', {}).get('KHR_draco_mesh_compression')
                if not e:
                    continue
                points = j['accessors'][prim['attributes']['POSITION']]['count']
                faces = j['accessors'][prim['indices']]['count'] // 3
                v = j['bufferViews'][e['bufferView']]
                at = v.get('byteOffset', 0)
                head = struct.pack('<HH', points, faces)
                open(os.path.join(out, '%s_mesh%d_prim%d.bin' % (base, m, p)), 'wb').write(head + bin_[at:at + v['byteLength']])


main()
