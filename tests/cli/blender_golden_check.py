#!/usr/bin/env python3
"""Compare vkskin's deformation with a golden Blender made (tests/blender/blender_goldens.py).

  blender_golden_check.py times GOLDEN.json
      prints "--time T0 --frames N --fps F" for deform, from the golden's evenly spaced times.
  blender_golden_check.py check GOLDEN.json RAW
      RAW: `vkskin deform --format raw` of the golden's model with its own clip at those
      frames (one instance: frames x vertices x (x y z nx ny nz) float32). Every position
      must be within 1e-5 of the bounding radius (the largest distance of a golden vertex from
      the origin) of Blender's, and the vertex counts must match part for part.
  blender_golden_check.py compare GOLDEN.json OTHER.json
      the same parts and times, and positions within 1e-5 of the radius (a golden Blender made
      again against the committed one).
  blender_golden_check.py strip MODEL.glb OUT.glb props|weights|influences
      MODEL as a vkskin that dropped a feature would see it, for the negative cases: without
      its rigid mesh nodes (props), without its weights channels (weights: the shape keys stay
      at their defaults), or without JOINTS_1/WEIGHTS_1 (influences: the 4 in JOINTS_0 kept,
      renormalised as the reader does). The golden check must fail on each.

Plain Python, nothing of vkskin: the golden's positions are Blender's.
"""
import json
import math
import os
import struct
import sys

TOLERANCE = 1e-5


def load(path):
    doc = json.load(open(path))
    n = sum(p["vertices"] for p in doc["parts"])
    if "positions_file" in doc:  # a large golden: float32, times x vertices x 3, beside it
        data = open(os.path.join(os.path.dirname(path), doc["positions_file"]), "rb").read()
        if len(data) != 12 * n * len(doc["times"]):
            sys.exit("%s: %s has %d bytes, not %d" % (path, doc["positions_file"], len(data), 12 * n * len(doc["times"])))
        doc["positions"] = [list(struct.unpack_from("<%df" % (3 * n), data, 12 * n * f)) for f in range(len(doc["times"]))]
    for row in doc["positions"]:
        if len(row) != 3 * n:
            sys.exit("%s: a time has %d coordinates for %d vertices" % (path, len(row), n))
    return doc, n


def radius(doc):
    return max(math.sqrt(r[i] ** 2 + r[i + 1] ** 2 + r[i + 2] ** 2) for r in doc["positions"]
               for i in range(0, len(r), 3))


def times(doc):
    t = doc["times"]
    step = (t[-1] - t[0]) / (len(t) - 1) if len(t) > 1 else 1.0
    if any(abs(t[0] + k * step - x) > 1e-9 for k, x in enumerate(t)):
        sys.exit("the golden's times are not evenly spaced")
    print("--time %g --frames %d --fps %g" % (t[0], len(t), 1.0 / step))


def worst_by_part(doc, want_rows, got_rows):
    """The largest distance, and the part and time where it is."""
    worst = (0.0, None, None)
    for f, (want, got) in enumerate(zip(want_rows, got_rows)):
        v = 0
        for part in doc["parts"]:
            for _ in range(part["vertices"]):
                d = math.dist(want[3 * v:3 * v + 3], got[3 * v:3 * v + 3])
                if d > worst[0] or worst[1] is None:
                    worst = (max(d, worst[0]), part, doc["times"][f]) if d >= worst[0] else worst
                v += 1
    return worst


def check(golden_path, raw_path):
    doc, n = load(golden_path)
    data = open(raw_path, "rb").read()
    frames = len(doc["times"])
    if len(data) != frames * n * 24:
        sys.exit("FAIL: %s has %d bytes; %d frames of the golden's %d vertices (%s) are %d bytes" %
                 (raw_path, len(data), frames, n, ", ".join("%s %d" % (p["name"], p["vertices"]) for p in doc["parts"]),
                  frames * n * 24))
    got = []
    for f in range(frames):
        vals = struct.unpack_from("<%df" % (6 * n), data, f * n * 24)
        got.append([c for v in range(n) for c in vals[6 * v:6 * v + 3]])
    r = radius(doc)
    d, part, t = worst_by_part(doc, doc["positions"], got)
    if d > TOLERANCE * r:
        sys.exit("FAIL: %s: off Blender's by %.3g (%.3g of the radius %.4g), worst in %s (node %d, primitive %d) at %g s"
                 % (doc["model"], d, d / r, r, part["name"], part["node"], part["primitive"], t))
    print("%s: within %.3g of the radius of Blender's (%d vertices, %d times)" % (doc["model"], d / r, n, frames))


def compare(a_path, b_path):
    a, n = load(a_path)
    b, m = load(b_path)
    if a["parts"] != b["parts"] or a["times"] != b["times"]:
        sys.exit("FAIL: %s and %s differ in parts or times" % (a_path, b_path))
    r = radius(a)
    d, part, t = worst_by_part(a, a["positions"], b["positions"])
    if d > TOLERANCE * r:
        sys.exit("FAIL: %s: Blender now gives positions %.3g of the radius away in %s at %g s"
                 % (a["model"], d / r, part["name"], t))
    print("%s: Blender's golden made again is within %.3g of the radius" % (a["model"], d / r))


def read_glb(path):
    data = open(path, "rb").read()
    n = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + n])
    m = struct.unpack_from("<I", data, 20 + n)[0]
    return doc, data[28 + n:28 + n + m]


def write_glb(path, doc, binary):
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    total = 12 + 8 + len(text) + 8 + len(binary)
    with open(path, "wb") as f:
        f.write(struct.pack("<III", 0x46546C67, 2, total))
        f.write(struct.pack("<II", len(text), 0x4E4F534A) + text)
        f.write(struct.pack("<II", len(binary), 0x004E4942) + binary)


def strip(model, out, what):
    doc, binary = read_glb(model)
    if what == "props":
        for node in doc["nodes"]:
            if "mesh" in node and "skin" not in node:
                del node["mesh"]
    elif what == "weights":
        for anim in doc.get("animations", []):
            anim["channels"] = [c for c in anim["channels"] if c["target"]["path"] != "weights"]
    elif what == "influences":
        for mesh in doc["meshes"]:
            for prim in mesh["primitives"]:
                for key in ("JOINTS_1", "WEIGHTS_1"):
                    prim["attributes"].pop(key, None)
    else:
        sys.exit("strip: props, weights or influences")
    write_glb(out, doc, binary)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "times":
        times(load(sys.argv[2])[0])
    elif len(sys.argv) == 4 and sys.argv[1] in ("check", "compare"):
        (check if sys.argv[1] == "check" else compare)(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "strip":
        strip(*sys.argv[2:])
    else:
        sys.exit(__doc__)


main()
