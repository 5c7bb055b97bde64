#!/usr/bin/env python3
"""Variants of a .glb for the three.js goldens (tests/node/threejs_goldens.sh); JSON edits,
plus the keys of weights channels for `face`.

  gltf_variants.py face IN.glb OUT.glb
      every float weights channel's keys replaced by a wave between 0 and 1 (a different phase
      per target): RobotExpressive's clips hold its face's morph targets at 0 throughout, so
      this copy is the one whose morph targets move
  gltf_variants.py nomorph IN.glb OUT.glb
      without morph targets, mesh and node weights and weights channels (draco_transcoder
      refuses a file with morph targets; RobotExpressive's are never driven, so its deformation
      is the same)
The negative cases: what vkskin must not agree with three.js's golden of IN.glb
  gltf_variants.py detach IN.glb OUT.glb     the first rigid mesh node under a joint (at any depth)
                                             moved to the scene's root, its local transform kept
  gltf_variants.py weights IN.glb OUT.glb    without its weights channels
  gltf_variants.py influences IN.glb OUT.glb without JOINTS_1/WEIGHTS_1
"""
import json
import math
import struct
import sys


def read_glb(path):
    data = open(path, "rb").read()
    n = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + n])
    m = struct.unpack_from("<I", data, 20 + n)[0]
    return doc, bytearray(data[28 + n:28 + n + m])


def write_glb(path, doc, binary):
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    binary = bytes(binary) + b"\0" * (-len(binary) % 4)
    with open(path, "wb") as f:
        f.write(struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(binary)))
        f.write(struct.pack("<II", len(text), 0x4E4F534A) + text)
        f.write(struct.pack("<II", len(binary), 0x004E4942) + binary)


def weights_samplers(doc):
    for anim in doc.get("animations", []):
        for c in anim["channels"]:
            if c["target"]["path"] == "weights":
                yield anim["samplers"][c["sampler"]]


def face(doc, binary):
    done = set()
    for s in weights_samplers(doc):
        acc = doc["accessors"][s["output"]]
        keys = doc["accessors"][s["input"]]["count"]
        if s["output"] in done or acc["componentType"] != 5126 or "bufferView" not in acc:
            continue
        done.add(s["output"])
        view = doc["bufferViews"][acc["bufferView"]]
        at, targets = view.get("byteOffset", 0) + acc.get("byteOffset", 0), acc["count"] // keys
        for k in range(keys):
            for t in range(targets):
                w = 0.5 - 0.5 * math.cos(2 * math.pi * (k / max(1, keys - 1) + t / 3))
                struct.pack_into("<f", binary, at + 4 * (k * targets + t), w)
    if not done:
        sys.exit("face: no float weights channel to drive")


def nomorph(doc):
    for mesh in doc["meshes"]:
        mesh.pop("weights", None)
        mesh.get("extras", {}).pop("targetNames", None)
        for prim in mesh["primitives"]:
            prim.pop("targets", None)
    for node in doc["nodes"]:
        node.pop("weights", None)
    weights(doc)


def weights(doc):
    for anim in doc.get("animations", []):
        anim["channels"] = [c for c in anim["channels"] if c["target"]["path"] != "weights"]


def detach(doc):
    joints = {j for skin in doc.get("skins", []) for j in skin["joints"]}
    parent = {c: p for p, node in enumerate(doc["nodes"]) for c in node.get("children", [])}

    def under_joint(n):
        while n in parent:
            n = parent[n]
            if n in joints:
                return True
        return False

    for n, node in enumerate(doc["nodes"]):
        if "mesh" in node and "skin" not in node and n in parent and under_joint(n):
            up = doc["nodes"][parent[n]]
            up["children"].remove(n)
            if not up["children"]:
                del up["children"]
            doc["scenes"][doc.get("scene", 0)]["nodes"].append(n)
            return
    sys.exit("detach: no mesh node without a skin under a joint")


def influences(doc):
    found = False
    for mesh in doc["meshes"]:
        for prim in mesh["primitives"]:
            for key in ("JOINTS_1", "WEIGHTS_1"):
                found = prim["attributes"].pop(key, None) is not None or found
    if not found:
        sys.exit("influences: no JOINTS_1/WEIGHTS_1 to take away")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("face", "nomorph", "detach", "weights", "influences"):
        sys.exit(__doc__)
    kind, src, out = sys.argv[1:]
    doc, binary = read_glb(src)
    if kind == "face":
        face(doc, binary)
    else:
        globals()[kind](doc)
    write_glb(out, doc, binary)


main()
