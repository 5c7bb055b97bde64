#!/usr/bin/env python3
"""Independent golden for glTF rigid parts (tests/cli/cli_gltf_rigid.sh).

  gltf_rigid_golden.py make IN.glb OUT.gltf OUT.bin
      IN.glb (one skinned character) with two rigid parts added: a cube under the joint
      "hand_l" (a prop on a bone) and a cube at a scene root (a static prop), each a mesh node
      without a skin, in a buffer of their own.
  gltf_rigid_golden.py check MODEL.gltf POSE.json RAW SKINNED_RAW
      RAW: vkskin deform --format raw of MODEL.gltf in the pose; SKINNED_RAW: the same without
      the props. The skinned part must equal SKINNED_RAW, and each prop's vertices must be the
      cube's corners placed by the node's world as the glTF specification composes it (the
      pose replacing a node's local rotation), within 1e-5 of the bounding radius.

  gltf_rigid_golden.py offbind IN.gltf OUT.gltf JOINT
      IN.gltf with JOINT's inverse bind moved (its buffer copied beside OUT.gltf).

Plain Python: the node worlds are composed here from the file's TRS, not by vkskin.
"""
import json
import math
import struct
import sys

from rigid_golden_math import mul, quat_matrix, set_distance

CUBE = [(x, y, z) for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)]
CUBE_TRIS = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
             (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3)]
PROPS = {"sword": {"parent": "hand_l", "translation": [0.0, 0.12, 0.03], "rotation": [0.0, 0.0, 0.3826834, 0.9238795],
                   "scale": [0.02, 0.15, 0.02]},
         "crate": {"parent": None, "translation": [0.6, 0.0, 0.1], "scale": [0.1, 0.1, 0.1]}}


def read_glb(path):
    data = open(path, "rb").read()
    n = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + n])
    m = struct.unpack_from("<I", data, 20 + n)[0]
    return doc, data[28 + n:28 + n + m]


def make(glb, out_gltf, out_bin):
    doc, bin0 = read_glb(glb)
    name = out_bin.rsplit("/", 1)[-1]
    doc["buffers"][0]["uri"] = name.replace(".bin", "_skin.bin")
    open(out_bin.replace(".bin", "_skin.bin"), "wb").write(bin0)
    pos = b"".join(struct.pack("<3f", *c) for c in CUBE)
    idx = b"".join(struct.pack("<3H", *t) for t in CUBE_TRIS)
    idx += b"\0" * (-len(idx) % 4)
    doc["buffers"].append({"uri": name, "byteLength": len(pos) + len(idx)})
    open(out_bin, "wb").write(pos + idx)
    b = len(doc["buffers"]) - 1
    v0 = len(doc["bufferViews"])
    doc["bufferViews"] += [{"buffer": b, "byteOffset": 0, "byteLength": len(pos), "target": 34962},
                           {"buffer": b, "byteOffset": len(pos), "byteLength": 72, "target": 34963}]
    a0 = len(doc["accessors"])
    doc["accessors"] += [{"bufferView": v0, "componentType": 5126, "count": 8, "type": "VEC3",
                          "min": [-1, -1, -1], "max": [1, 1, 1]},
                         {"bufferView": v0 + 1, "componentType": 5123, "count": 36, "type": "SCALAR"}]
    doc["meshes"].append({"name": "cube", "primitives": [{"attributes": {"POSITION": a0}, "indices": a0 + 1}]})
    cube = len(doc["meshes"]) - 1
    by_name = {nd.get("name"): i for i, nd in enumerate(doc["nodes"])}
    for prop, p in PROPS.items():
        node = {"name": prop, "mesh": cube}
        for k in ("translation", "rotation", "scale"):
            if k in p:
                node[k] = p[k]
        doc["nodes"].append(node)
        i = len(doc["nodes"]) - 1
        if p["parent"]:
            doc["nodes"][by_name[p["parent"]]].setdefault("children", []).append(i)
        else:
            doc["scenes"][doc.get("scene", 0)]["nodes"].append(i)
    json.dump(doc, open(out_gltf, "w"))




def local(node, pose):
    t = node.get("translation", [0, 0, 0])
    q = node.get("rotation", [0, 0, 0, 1])
    s = node.get("scale", [1, 1, 1])
    p = pose.get(node.get("name"), {})
    t, q, s = p.get("translation", t), p.get("rotation", q), p.get("scale", s)
    r = quat_matrix(q)
    return [[r[i][j] * s[j] for j in range(3)] + [t[i]] for i in range(3)] + [[0, 0, 0, 1]]




def check(model, pose_file, raw, skinned_raw):
    doc = json.load(open(model))
    pose = {e["name"]: e for e in json.load(open(pose_file))["nodes"]}
    parent = {}
    for i, nd in enumerate(doc["nodes"]):
        for c in nd.get("children", []):
            parent[c] = i

    def world(i):
        m = local(doc["nodes"][i], pose)
        return mul(world(parent[i]), m) if i in parent else m

    got = open(raw, "rb").read()
    ref = open(skinned_raw, "rb").read()
    skinned = len(ref) // 24
    vals = struct.unpack("<%df" % (len(got) // 4), got)
    verts = [vals[6 * v:6 * v + 3] for v in range(len(got) // 24)]
    radius = max(math.sqrt(sum(c * c for c in v)) for v in verts)
    fail = 0
    if got[:len(ref)] != ref:
        print("FAIL: the skinned vertices differ from the model without props")
        fail = 1
    props = [i for i, nd in enumerate(doc["nodes"]) if nd.get("name") in PROPS]
    if len(verts) != skinned + 8 * len(props):
        print("FAIL: %d vertices, expected %d skinned and %d of props" % (len(verts), skinned, 8 * len(props)))
        return 1
    worst = 0.0
    for k, i in enumerate(props):  # the props come in node order, after the character's mesh
        w = world(i)
        want = [tuple(sum(w[r][c] * p[c] for c in range(3)) + w[r][3] for r in range(3)) for p in CUBE]
        worst = max(worst, set_distance(verts[skinned + 8 * k:skinned + 8 * (k + 1)], want))
    if worst > 1e-5 * radius:
        print("FAIL: props off by %.3g (%.3g of the radius)" % (worst, worst / radius))
        fail = 1
    print("props within %.3g of the radius" % (worst / radius))
    return fail


def offbind(src, dst, joint):
    """A copy of src whose joint's inverse bind is moved 0.05 along x: the stored mesh then
    sits away from the pose its inverse binds imply, as glTF allows (rest is not bind)."""
    doc = json.load(open(src))
    skin = doc["skins"][0]
    by_name = {nd.get("name"): i for i, nd in enumerate(doc["nodes"])}
    k = skin["joints"].index(by_name[joint])
    acc = doc["accessors"][skin["inverseBindMatrices"]]
    view = doc["bufferViews"][acc["bufferView"]]
    buf = doc["buffers"][view["buffer"]]
    data = bytearray(open(buf["uri"], "rb").read())
    at = view.get("byteOffset", 0) + acc.get("byteOffset", 0) + 64 * k + 48
    struct.pack_into("<f", data, at, struct.unpack_from("<f", data, at)[0] + 0.05)
    name = dst.rsplit(".", 1)[0] + ".bin"
    open(name, "wb").write(data)
    buf["uri"] = name.rsplit("/", 1)[-1]
    json.dump(doc, open(dst, "w"))


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(*sys.argv[2:5])
    elif sys.argv[1] == "offbind":
        offbind(*sys.argv[2:5])
    else:
        sys.exit(check(*sys.argv[2:6]))
