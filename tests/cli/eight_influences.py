#!/usr/bin/env python3
"""A skinned tube with 5 to 8 (or more) influences per vertex, and the glTF specification's
skinning evaluated independently of vkskin, in double, with the standard library only.

  eight_influences.py make OUT.gltf [--influences K] [--rings R] [--segments S]
      A chain of 10 joints along +y and a tube around it (R rings of S vertices). Vertex
      weights fall off with the distance to each joint; ring r keeps the 5 + r % 4 largest
      (5..8, JOINTS_0/1 and WEIGHTS_0/1). --influences K instead gives every vertex exactly K
      (K <= 4: one set; K > 8: a third set, JOINTS_2/WEIGHTS_2, which vkskin keeps to the 8
      largest). Weights are stored as float32 summing to 1.
  eight_influences.py pose OUT.json [--frames F]
      A pose JSON (DESIGN.md section 6) that bends every joint differently; with --frames, F
      frames of that pose (so that the engines run many instances: the fast CPU engine's
      shared records, the GPU's instance tiles).
  eight_influences.py check MODEL.gltf POSE.json DEFORMED.csv [--keep K]
      Reads the glTF's own accessors (positions, normals, every JOINTS_n/WEIGHTS_n set, the
      inverse bind matrices, the nodes) and the pose, computes
          p' = sum_i w_i * W(joint_i) * IBM_i * p      over every set (glTF 2.0, 3.7.3.3)
      and the normals likewise (renormalised), and compares vkskin's CSV with it: exits 1 when
      a position is off by more than 1e-5 of the bounding radius or a normal by more than 1e-5.
      --keep K evaluates with the K largest weights renormalised instead (what a K-influence
      engine computes), to show how far that is from the full sum.
"""
import base64
import csv
import json
import math
import struct
import sys

JOINTS = 10


# ---- small double-precision affine algebra (4x4 as row-major nested lists) ----

def mat_mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def trs(t, q, s):
    x, y, z, w = q
    r = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
         [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
         [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    return [[r[i][0] * s[0], r[i][1] * s[1], r[i][2] * s[2], t[i]] for i in range(3)] + [[0, 0, 0, 1]]


def from_column_major(m):
    return [[m[c * 4 + r] for c in range(4)] for r in range(4)]


def apply(m, p, w):
    return [m[i][0] * p[0] + m[i][1] * p[1] + m[i][2] * p[2] + m[i][3] * w for i in range(3)]


def axis_angle(axis, angle):
    n = math.sqrt(sum(a * a for a in axis))
    s = math.sin(angle / 2) / n
    return [axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2)]


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


# ---- make ----

def vertex_weights(y, count):
    """The `count` joints nearest height y with weights falling off as a broad Gaussian, summing
    to 1 in float32 (the largest takes the rounding)."""
    raw = sorted(((math.exp(-((y - j) / 2.0) ** 2), j) for j in range(JOINTS)), reverse=True)[:count]
    total = sum(w for w, _ in raw)
    ws = [f32(w / total) for w, _ in raw]
    ws[0] = f32(1.0 - sum(ws[1:]))
    return [j for _, j in raw], ws


def make(out, influences, rings, segments):
    length, radius = JOINTS - 1.0, 0.5
    pos, nrm, joints, weights = [], [], [], []
    for r in range(rings):
        y = length * r / (rings - 1)
        count = influences if influences else 5 + r % 4
        js, ws = vertex_weights(y, count)
        for s in range(segments):
            a = 2 * math.pi * s / segments
            pos.append((radius * math.cos(a), y, radius * math.sin(a)))
            nrm.append((math.cos(a), 0.0, math.sin(a)))
            joints.append(js)
            weights.append(ws)
    tris = []
    for r in range(rings - 1):
        for s in range(segments):
            a, b = r * segments + s, r * segments + (s + 1) % segments
            c, d = a + segments, b + segments
            tris += [a, c, b, b, c, d]
    sets = max(1, (max(len(j) for j in joints) + 3) // 4)
    blob = bytearray()
    views, accessors = [], []

    def add(data, target=None):
        while len(blob) % 4:
            blob.append(0)
        view = {"buffer": 0, "byteOffset": len(blob), "byteLength": len(data)}
        if target:
            view["target"] = target
        blob.extend(data)
        views.append(view)
        return len(views) - 1

    def accessor(view, ctype, count, atype, **extra):
        accessors.append(dict(bufferView=view, componentType=ctype, count=count, type=atype, **extra))
        return len(accessors) - 1

    n = len(pos)
    p_acc = accessor(add(b''.join(struct.pack('<3f', *p) for p in pos), 34962), 5126, n, "VEC3",
                     min=[min(p[i] for p in pos) for i in range(3)], max=[max(p[i] for p in pos) for i in range(3)])
    n_acc = accessor(add(b''.join(struct.pack('<3f', *v) for v in nrm), 34962), 5126, n, "VEC3")
    attrs = {"POSITION": p_acc, "NORMAL": n_acc}
    for k in range(sets):
        jd, wd = bytearray(), bytearray()
        for js, ws in zip(joints, weights):
            part_j = (js[4 * k:4 * k + 4] + [0, 0, 0, 0])[:4]
            part_w = (ws[4 * k:4 * k + 4] + [0.0, 0.0, 0.0, 0.0])[:4]
            jd += struct.pack('<4H', *part_j)
            wd += struct.pack('<4f', *part_w)
        attrs["JOINTS_%d" % k] = accessor(add(bytes(jd), 34962), 5123, n, "VEC4")
        attrs["WEIGHTS_%d" % k] = accessor(add(bytes(wd), 34962), 5126, n, "VEC4")
    i_acc = accessor(add(b''.join(struct.pack('<I', i) for i in tris), 34963), 5125, len(tris), "SCALAR")
    # bind: joint j at (0, j, 0) in the scene, each 1 above its parent
    ibm = b''.join(struct.pack('<16f', 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -j, 0, 1) for j in range(JOINTS))
    ibm_acc = accessor(add(ibm), 5126, JOINTS, "MAT4")
    nodes = [{"name": "tube", "mesh": 0, "skin": 0}]
    for j in range(JOINTS):
        node = {"name": "J%d" % j, "translation": [0.0, 0.0 if j == 0 else 1.0, 0.0]}
        if j + 1 < JOINTS:
            node["children"] = [j + 2]
        nodes.append(node)
    doc = {
        "asset": {"version": "2.0", "generator": "vkskin tests/cli/eight_influences.py"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}],
        "nodes": nodes,
        "meshes": [{"name": "tube", "primitives": [{"attributes": attrs, "indices": i_acc}]}],
        "skins": [{"joints": list(range(1, JOINTS + 1)), "inverseBindMatrices": ibm_acc, "skeleton": 1}],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": len(blob),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(blob)).decode()}],
    }
    with open(out, "w") as f:
        json.dump(doc, f)


def pose(out, frames):
    nodes = []
    for j in range(JOINTS):
        axis = [math.cos(0.7 * j), 0.3, math.sin(0.7 * j)]
        entry = {"name": "J%d" % j, "rotation": axis_angle(axis, 0.35 + 0.05 * j)}
        if j == 0:
            entry["translation"] = [0.25, -0.5, 0.125]
        nodes.append(entry)
    with open(out, "w") as f:
        json.dump({"frames": [{"nodes": nodes}] * frames} if frames else {"nodes": nodes}, f)


# ---- check ----

def read_accessor(doc, blob, index):
    a = doc["accessors"][index]
    v = doc["bufferViews"][a["bufferView"]]
    comps = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}[a["type"]]
    fmt = {5126: 'f', 5123: 'H', 5121: 'B', 5125: 'I'}[a["componentType"]]
    size = struct.calcsize('<' + fmt)
    stride = v.get("byteStride", size * comps)
    base = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    out = []
    for i in range(a["count"]):
        vals = list(struct.unpack_from('<%d%s' % (comps, fmt), blob, base + i * stride))
        if a.get("normalized") and fmt in 'BH':
            vals = [x / (255.0 if fmt == 'B' else 65535.0) for x in vals]
        out.append(vals)
    return out


def local_of(node, override):
    if "matrix" in node and not override:
        return from_column_major(node["matrix"])
    t = override.get("translation", node.get("translation", [0, 0, 0]))
    q = override.get("rotation", node.get("rotation", [0, 0, 0, 1]))
    s = override.get("scale", node.get("scale", [1, 1, 1]))
    return trs(t, q, s)


def check(model, pose_path, deformed, keep):
    doc = json.load(open(model))
    blob = base64.b64decode(doc["buffers"][0]["uri"].split(",", 1)[1])
    pj = json.load(open(pose_path))
    posed = {e["name"]: e for e in (pj["frames"][0] if "frames" in pj else pj)["nodes"]}
    nodes = doc["nodes"]
    parent = {}
    for i, nd in enumerate(nodes):
        for c in nd.get("children", []):
            parent[c] = i
    world = {}

    def world_of(i):
        if i not in world:
            local = local_of(nodes[i], posed.get(nodes[i].get("name"), {}))
            world[i] = local if i not in parent else mat_mul(world_of(parent[i]), local)
        return world[i]

    skin = doc["skins"][0]
    ibms = [from_column_major(m) for m in read_accessor(doc, blob, skin["inverseBindMatrices"])]
    K = [mat_mul(world_of(j), ibms[k]) for k, j in enumerate(skin["joints"])]
    attrs = doc["meshes"][0]["primitives"][0]["attributes"]
    pos = read_accessor(doc, blob, attrs["POSITION"])
    nrm = read_accessor(doc, blob, attrs["NORMAL"])
    sets = []
    k = 0
    while "JOINTS_%d" % k in attrs:
        sets.append((read_accessor(doc, blob, attrs["JOINTS_%d" % k]), read_accessor(doc, blob, attrs["WEIGHTS_%d" % k])))
        k += 1
    want_p, want_n = [], []
    for v in range(len(pos)):
        infl = [(w, j) for js, ws in sets for j, w in zip(js[v], ws[v]) if w > 0]
        if keep:
            infl = sorted(infl, key=lambda x: -x[0])[:keep]
            total = sum(w for w, _ in infl)
            infl = [(w / total, j) for w, j in infl]
        p, n = [0.0] * 3, [0.0] * 3
        for w, j in infl:
            tp, tn = apply(K[j], pos[v], 1.0), apply(K[j], nrm[v], 0.0)
            p = [p[i] + w * tp[i] for i in range(3)]
            n = [n[i] + w * tn[i] for i in range(3)]
        ln = math.sqrt(sum(x * x for x in n))
        want_p.append(p)
        want_n.append([x / ln for x in n] if ln > 0 else n)
    radius = max(math.sqrt(sum(x * x for x in p)) for p in pos)
    worst_p = worst_n = 0.0
    rows = 0
    with open(deformed) as f:
        for row in csv.DictReader(f):
            v = int(row["vertex"])
            got_p = [float(row[c]) for c in ("x", "y", "z")]
            got_n = [float(row[c]) for c in ("nx", "ny", "nz")]
            worst_p = max(worst_p, max(abs(a - b) for a, b in zip(got_p, want_p[v])) / radius)
            worst_n = max(worst_n, max(abs(a - b) for a, b in zip(got_n, want_n[v])))
            rows += 1
    print("%s: %d vertices, %d influence sets; worst position error %.3g of the radius %.4g, worst normal error %.3g"
          % (deformed, rows, len(sets), worst_p, radius, worst_n))
    if rows == 0 or rows % len(pos):
        print("FAIL: %d rows for %d vertices" % (rows, len(pos)))
        return 1
    if worst_p > 1e-5 or worst_n > 1e-5:
        print("FAIL: over 1e-5")
        return 1
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "make":
        opts = dict(zip(argv[2::2], argv[3::2]))
        make(argv[1], int(opts.get("--influences", 0)), int(opts.get("--rings", 37)), int(opts.get("--segments", 12)))
        return 0
    if len(argv) in (2, 4) and argv[0] == "pose":
        pose(argv[1], int(argv[3]) if len(argv) == 4 and argv[2] == "--frames" else 0)
        return 0
    if len(argv) >= 4 and argv[0] == "check":
        keep = int(argv[5]) if len(argv) >= 6 and argv[4] == "--keep" else 0
        return check(argv[1], argv[2], argv[3], keep)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
