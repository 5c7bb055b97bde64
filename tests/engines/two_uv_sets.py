#!/usr/bin/env python3
"""two_uv_sets.py IN.glb OUT.glb [SIDECAR.json...]: the VAT rest mesh as it is laid out once the character's own UVs
are kept: the lookup moved to TEXCOORD_1 and TEXCOORD_0 holding other coordinates (1 - lookup, so
a player that reads the wrong set decodes the wrong texels). Lets the engine tests check that
the kits read the set the sidecars say: each SIDECAR's rest_mesh_uv.glb is rewritten to say so
(lookup 1, character [0]), as vkskin writes it for a character whose UVs are kept."""
import json, struct, sys

moved = False

b = open(sys.argv[1], 'rb').read()
n = struct.unpack('<I', b[12:16])[0]
doc = json.loads(b[20:20 + n])
binlen = struct.unpack('<I', b[20 + n:24 + n])[0]
bin_ = bytearray(b[28 + n:28 + n + binlen])
for mesh in doc['meshes']:
    for prim in mesh['primitives']:
        attrs = prim['attributes']
        if 'TEXCOORD_1' in attrs or 'TEXCOORD_0' not in attrs:
            continue
        acc = doc['accessors'][attrs['TEXCOORD_0']]
        view = doc['bufferViews'][acc['bufferView']]
        start = view.get('byteOffset', 0) + acc.get('byteOffset', 0)
        vals = struct.unpack('<%df' % (acc['count'] * 2), bytes(bin_[start:start + acc['count'] * 8]))
        while len(bin_) % 4:
            bin_.append(0)
        off = len(bin_)
        bin_ += struct.pack('<%df' % len(vals), *[1.0 - v for v in vals])
        doc['bufferViews'].append({'buffer': 0, 'byteOffset': off, 'byteLength': len(vals) * 4})
        doc['accessors'].append({'bufferView': len(doc['bufferViews']) - 1, 'componentType': 5126,
                                 'count': acc['count'], 'type': 'VEC2'})
        attrs['TEXCOORD_1'] = attrs['TEXCOORD_0']
        attrs['TEXCOORD_0'] = len(doc['accessors']) - 1
        moved = True
while len(bin_) % 4:
    bin_.append(0)
doc['buffers'][0]['byteLength'] = len(bin_)
js = json.dumps(doc).encode()
js += b' ' * (-len(js) % 4)
out = struct.pack('<4sII', b'glTF', 2, 12 + 8 + len(js) + 8 + len(bin_))
out += struct.pack('<I4s', len(js), b'JSON') + js + struct.pack('<I4s', len(bin_), b'BIN\0') + bytes(bin_)
open(sys.argv[2], 'wb').write(out)
for path in sys.argv[3:] if moved else []:
    sidecar = json.load(open(path))
    sidecar['rest_mesh_uv']['glb'] = {'lookup': 1, 'character': [0]}
    json.dump(sidecar, open(path, 'w'), indent=1)
