#!/usr/bin/env python3
"""Checks of `vkskin convert` on characters with rigid parts (issue 38).

  gltf_rigid_convert.py nodes OUT.glb RIGID
      OUT.glb holds RIGID mesh nodes without a skin, each a child of a node without a mesh (its
      bone's node), their primitives without JOINTS_n/WEIGHTS_n; and no skin has a single
      joint (a rigid part is no longer a one-joint skin).
  gltf_rigid_convert.py same SRC.raw OUT.glb OUT.raw
      OUT.raw (deform of OUT.glb) equals SRC.raw (deform of the source at the same pose)
      mapped by the correction OUT.glb records (asset.extras.vkskin.correction), within 1e-5
      of the bounding radius; normals as directions within 1e-5 (RenderWare keeps blended
      normals unrenormalised, as its engine does; the glTF reader renormalises them).

Plain Python.
"""
import json
import math
import struct
import sys


def read_json(path):
    data = open(path, "rb").read()
    if data[:4] == b"glTF":
        n = struct.unpack_from("<I", data, 12)[0]
        return json.loads(data[20:20 + n])
    return json.loads(data)


def nodes(path, want):
    doc = read_json(path)
    parent = {}
    for i, nd in enumerate(doc["nodes"]):
        for c in nd.get("children", []):
            parent[c] = i
    rigid = [i for i, nd in enumerate(doc["nodes"]) if "mesh" in nd and "skin" not in nd]
    fail = []
    if len(rigid) != int(want):
        fail.append("%d mesh nodes without a skin, expected %s" % (len(rigid), want))
    for i in rigid:
        nd = doc["nodes"][i]
        p = parent.get(i)
        if p is None or "mesh" in doc["nodes"][p]:
            fail.append("rigid mesh node %d (%s) is not under a bone's node" % (i, nd.get("name")))
        for prim in doc["meshes"][nd["mesh"]]["primitives"]:
            if any(k.startswith(("JOINTS_", "WEIGHTS_")) for k in prim["attributes"]):
                fail.append("rigid mesh %d has joints or weights" % nd["mesh"])
    for k, skin in enumerate(doc.get("skins", [])):
        if len(skin["joints"]) == 1:
            fail.append("skin %d has one joint (a rigid part written as a skin)" % k)
    if fail:
        sys.exit("FAIL: %s: %s" % (path, "; ".join(fail)))
    print("%s: %d rigid mesh nodes, each under its bone's node" % (path, len(rigid)))


def floats(path):
    data = open(path, "rb").read()
    return struct.unpack("<%df" % (len(data) // 4), data)


def same(src_raw, out_glb, out_raw):
    c = read_json(out_glb).get("asset", {}).get("extras", {}).get("vkskin", {}).get("correction")
    c = c or [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    a, b = floats(src_raw), floats(out_raw)
    if len(a) != len(b):
        sys.exit("FAIL: %s has %d vertices, the source's deformation %d" % (out_raw, len(b) // 6, len(a) // 6))

    def mapped(v, w):  # column-major 4x4 on a point (w 1) or a direction (w 0)
        return [c[r] * v[0] + c[4 + r] * v[1] + c[8 + r] * v[2] + c[12 + r] * w for r in range(3)]

    def unit(v):
        n = math.sqrt(sum(x * x for x in v))
        return [x / n for x in v] if n > 0 else list(v)

    radius = max(math.sqrt(a[i] ** 2 + a[i + 1] ** 2 + a[i + 2] ** 2) for i in range(0, len(a), 6))
    worst_p = worst_n = 0.0
    for i in range(0, len(a), 6):
        worst_p = max(worst_p, math.dist(mapped(a[i:i + 3], 1), b[i:i + 3]))
        worst_n = max(worst_n, math.dist(unit(mapped(a[i + 3:i + 6], 0)), unit(b[i + 3:i + 6])))
    if worst_p > 1e-5 * radius or worst_n > 1e-5:
        sys.exit("FAIL: the converted file deforms %.3g of the radius (normals %.3g) away from the source"
                 % (worst_p / radius, worst_n))
    print("converted = source within %.3g of the radius (normals %.3g), %d vertices"
          % (worst_p / radius, worst_n, len(a) // 6))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "nodes":
        nodes(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "same":
        same(*sys.argv[2:])
    else:
        sys.exit(__doc__)
