#!/usr/bin/env python3
"""Independent golden for glTF morph targets on a skinned mesh (tests/cli/cli_gltf_morph.sh).

  gltf_morph_golden.py make CASE OUT.gltf
      A skinned box tube (rings of 4 vertices at y = 0, 1, 2; the bottom ring on joint "root",
      the middle half and half, the top on joint "bone" at y = 1) with two morph targets:
      "bulge" (dense: every vertex moves 0.4 of its (x, 0, z), its normal by (0, 0.5, 0)) and
      "tip" (a sparse accessor without a bufferView: only the top ring moves, by (0, 0.6, 0)).
      CASE: mesh   the mesh's default weights [0.5, 0.25]
            node   the same mesh weights, overridden by the node's [0.25, 1.0]
            sparse the node's weights [0, 1]: only the sparse target moves
            linear, step, cubic   the mesh weights and an animation "morph" whose `weights`
                   channel on the mesh node has keys at 0, 1, 2 s with that interpolation
                   (cubic: CUBICSPLINE with tangents of their own); step and cubic also turn
                   the joint "bone" by a constant rotation channel, linear drives only weights
            stepw, cubicw   step and cubic without the rotation channel (weights only)
            linear_u8, linear_s16   linear with its weights keys stored as normalized unsigned
                   bytes or signed shorts (as gltfpack writes them; the specification allows
                   both), played as the specification decodes them: c / 255, max(c / 32767, -1)
  gltf_morph_golden.py check-frames MODEL.gltf POSE.json RAW
      RAW against each frame of a pose file whose frames give the tube's weights ("weights":
      {"tube" or "body": [w0, w1]}; a frame without them: the model's default weights).
  gltf_morph_golden.py crowd OUT.json
      A crowd of three layered instances of linear.gltf (LAYERS below): two normal layers
      (LINEAR and CUBICSPLINE weights), a LINEAR layer with an additive STEP one, and a LINEAR
      layer beside a masked normal and a masked additive one.
  gltf_morph_golden.py check-crowd MODEL.gltf RAW TIME FRAMES FPS
      RAW (vkskin deform --crowd of that crowd) against the layer rule computed here: normal
      layers' weights by their weighted mean, additive ones adding weight * (w(t) - w(0)); masked
      layers drive no weights.
  gltf_morph_golden.py check MODEL.gltf POSE.json RAW [TIME FRAMES FPS]
      RAW (vkskin deform --format raw of MODEL.gltf in the pose, or with TIME: playing its
      animation over FRAMES frames at FPS from TIME, the weights sampled here as the
      specification interpolates them and the pose being the animation's rotation) must be the glTF
      specification's result, computed here from the file: p_m = p + sum w dp, n_m = n + sum w
      dn, then p' = sum_j w_j W(joint_j) IB_j p_m and n' = normalize(sum_j w_j R_j n_m), within
      1e-5 of the bounding radius (normals within 1e-5).

Plain Python: nothing here comes from vkskin.
"""
import base64
import json
import math
import struct
import sys

RINGS = (0.0, 1.0, 2.0)
CORNERS = ((0.5, 0.5), (-0.5, 0.5), (-0.5, -0.5), (0.5, -0.5))
WEIGHTS = {"mesh": ([0.5, 0.25], None), "node": ([0.5, 0.25], [0.25, 1.0]), "sparse": ([0.5, 0.25], [0.0, 1.0]),
           "linear": ([0.5, 0.25], None), "step": ([0.5, 0.25], None), "cubic": ([0.5, 0.25], None),
           "stepw": ([0.5, 0.25], None), "cubicw": ([0.5, 0.25], None), "linear_u8": ([0.5, 0.25], None),
           "linear_s16": ([0.5, 0.25], None)}
INTERP = {"linear": "LINEAR", "step": "STEP", "cubic": "CUBICSPLINE", "stepw": "STEP", "cubicw": "CUBICSPLINE",
          "linear_u8": "LINEAR", "linear_s16": "LINEAR"}
# weights keys as normalized integers: (struct format, componentType, the specification's divisor)
QUANTISED = {"linear_u8": ("B", 5121, 255.0), "linear_s16": ("h", 5122, 32767.0)}
# per instance: (clip case, start, weight, additive[, mask node]); a masked layer drives the
# nodes under its mask and no mesh's weights (the third instance: the first layer's alone)
LAYERS = [[("linear", 0.25, 0.6, False), ("cubicw", 0.75, 0.4, False)],
          [("linear", 0.25, 1.0, False), ("stepw", 1.25, 0.5, True)],
          [("linear", 0.25, 0.5, False), ("cubicw", 0.75, 1.0, False, "bone"), ("stepw", 1.25, 0.5, True, "bone")]]
KEY_TIMES = [0.0, 1.0, 2.0]
KEY_WEIGHTS = [[0.0, 0.0], [1.0, 0.5], [0.25, 1.0]]
IN_TANGENTS = [[0.5, -1.0], [-0.25, 0.75], [1.0, 0.5]]
OUT_TANGENTS = [[-0.75, 2.0], [0.5, -0.5], [0.0, 0.25]]
BEND = [0.0, 0.0, 0.7071068, 0.7071068]  # the rotation channel's value: 90 degrees about z


def tube():
    pos, nrm, joints, weights = [], [], [], []
    for r, y in enumerate(RINGS):
        for x, z in CORNERS:
            pos.append((x, y, z))
            nrm.append((x / math.hypot(x, z), 0.0, z / math.hypot(x, z)))
            joints.append(((0, 0, 0, 0), (0, 1, 0, 0), (1, 0, 0, 0))[r])
            weights.append(((1.0, 0.0), (0.5, 0.5), (1.0, 0.0))[r] + (0.0, 0.0))
    tris = []
    for r in range(len(RINGS) - 1):
        for c in range(4):
            a, b = r * 4 + c, r * 4 + (c + 1) % 4
            tris += [(a, b, b + 4), (a, b + 4, a + 4)]
    return pos, nrm, joints, weights, tris


def deltas():
    pos, _, _, _, _ = tube()
    bulge = [(0.4 * p[0], 0.0, 0.4 * p[2]) for p in pos]
    bulge_n = [(0.0, 0.5, 0.0)] * len(pos)
    tip = {i: (0.0, 0.6, 0.0) for i in range(8, 12)}
    return bulge, bulge_n, tip


class Blob:
    def __init__(self):
        self.data, self.views, self.accessors = b"", [], []

    def view(self, raw, target=None):
        self.data += b"\0" * (-len(self.data) % 4)
        v = {"buffer": 0, "byteOffset": len(self.data), "byteLength": len(raw)}
        if target:
            v["target"] = target
        self.data += raw
        self.views.append(v)
        return len(self.views) - 1

    def accessor(self, fmt, rows, ctype, atype, target=None, minmax=False):
        raw = b"".join(struct.pack("<" + fmt, *r) for r in rows)
        a = {"bufferView": self.view(raw, target), "componentType": ctype, "count": len(rows), "type": atype}
        if minmax:
            a["min"] = [min(r[k] for r in rows) for k in range(3)]
            a["max"] = [max(r[k] for r in rows) for k in range(3)]
        self.accessors.append(a)
        return len(self.accessors) - 1

    def sparse_vec3(self, count, values):
        idx = sorted(values)
        iv = self.view(b"".join(struct.pack("<H", i) for i in idx))
        vv = self.view(b"".join(struct.pack("<3f", *values[i]) for i in idx))
        lo = [min([0.0] + [values[i][k] for i in idx]) for k in range(3)]
        hi = [max([0.0] + [values[i][k] for i in idx]) for k in range(3)]
        self.accessors.append({"componentType": 5126, "count": count, "type": "VEC3", "min": lo, "max": hi,
                               "sparse": {"count": len(idx), "indices": {"bufferView": iv, "componentType": 5123},
                                          "values": {"bufferView": vv}}})
        return len(self.accessors) - 1


def document(case):
    pos, nrm, joints, weights, tris = tube()
    bulge, bulge_n, tip = deltas()
    b = Blob()
    a_pos = b.accessor("3f", pos, 5126, "VEC3", 34962, True)
    a_nrm = b.accessor("3f", nrm, 5126, "VEC3", 34962)
    a_j = b.accessor("4B", joints, 5121, "VEC4", 34962)
    a_w = b.accessor("4f", weights, 5126, "VEC4", 34962)
    a_i = b.accessor("H", [(i,) for t in tris for i in t], 5123, "SCALAR", 34963)
    a_bulge = b.accessor("3f", bulge, 5126, "VEC3", 34962, True)
    a_bulge_n = b.accessor("3f", bulge_n, 5126, "VEC3", 34962, True)
    a_tip = b.sparse_vec3(len(pos), tip)
    ibm = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] + [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1]
    a_ibm = b.accessor("16f", [ibm[:16], ibm[16:]], 5126, "MAT4")
    animations = animation(b, case) if case in INTERP else None
    mesh_w, node_w = WEIGHTS[case]
    body = {"name": "body", "mesh": 0, "skin": 0}
    if node_w is not None:
        body["weights"] = node_w
    doc = {
        "asset": {"version": "2.0", "generator": "gltf_morph_golden.py"},
        "scene": 0, "scenes": [{"nodes": [0, 2]}],
        "nodes": [{"name": "root", "children": [1]}, {"name": "bone", "translation": [0, 1, 0]}, body],
        "skins": [{"joints": [0, 1], "inverseBindMatrices": a_ibm, "skeleton": 0}],
        "meshes": [{"name": "tube", "weights": mesh_w, "extras": {"targetNames": ["bulge", "tip"]},
                    "primitives": [{"attributes": {"POSITION": a_pos, "NORMAL": a_nrm, "JOINTS_0": a_j,
                                                   "WEIGHTS_0": a_w}, "indices": a_i,
                                    "targets": [{"POSITION": a_bulge, "NORMAL": a_bulge_n}, {"POSITION": a_tip}]}]}],
        "buffers": [{"byteLength": len(b.data),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(b.data).decode()}],
        "bufferViews": b.views, "accessors": b.accessors,
    }
    if animations:
        doc["animations"] = animations
    return doc


def key_weights(divisor=None):
    """KEY_WEIGHTS, or as they read back from normalized integers of that divisor."""
    return [[round(w * divisor) / divisor for w in k] for k in KEY_WEIGHTS] if divisor else KEY_WEIGHTS


def animation(b, case):
    """Animation "morph": a weights channel on the mesh node (node 2) with CASE's interpolation,
    and for step and cubic a constant rotation of node 1 ("bone")."""
    a_t = b.accessor("f", [(t,) for t in KEY_TIMES], 5126, "SCALAR")
    b.accessors[a_t]["min"], b.accessors[a_t]["max"] = [KEY_TIMES[0]], [KEY_TIMES[-1]]
    if INTERP[case] == "CUBICSPLINE":
        rows = [(w,) for k in range(3) for v in (IN_TANGENTS[k], KEY_WEIGHTS[k], OUT_TANGENTS[k]) for w in v]
    else:
        rows = [(w,) for k in range(3) for w in KEY_WEIGHTS[k]]
    if case in QUANTISED:
        fmt, ctype, divisor = QUANTISED[case]
        a_w = b.accessor(fmt, [(round(w * divisor),) for (w,) in rows], ctype, "SCALAR")
        b.accessors[a_w]["normalized"] = True
    else:
        a_w = b.accessor("f", rows, 5126, "SCALAR")
    interp = INTERP[case]
    samplers = [{"input": a_t, "output": a_w, "interpolation": interp}]
    channels = [{"sampler": 0, "target": {"node": 2, "path": "weights"}}]
    if case in ("step", "cubic"):
        a_r = b.accessor("4f", [BEND] * 3, 5126, "VEC4")
        samplers.append({"input": a_t, "output": a_r})
        channels.append({"sampler": 1, "target": {"node": 1, "path": "rotation"}})
    return [{"name": "morph", "samplers": samplers, "channels": channels}]


def weights_at(interp, t, keys=KEY_WEIGHTS):
    """The specification's interpolation of the weights keys at time t (inside the keys)."""
    k = max(i for i in range(len(KEY_TIMES) - 1) if KEY_TIMES[i] <= t)
    td = KEY_TIMES[k + 1] - KEY_TIMES[k]
    s = (t - KEY_TIMES[k]) / td
    a, b = keys[k], keys[k + 1]
    if interp == "STEP":
        return list(a)
    if interp == "LINEAR":
        return [a[i] + (b[i] - a[i]) * s for i in range(2)]
    out_k, in_k1 = OUT_TANGENTS[k], IN_TANGENTS[k + 1]
    return [(2 * s ** 3 - 3 * s ** 2 + 1) * a[i] + td * (s ** 3 - 2 * s ** 2 + s) * out_k[i] +
            (-2 * s ** 3 + 3 * s ** 2) * b[i] + td * (s ** 3 - s ** 2) * in_k1[i] for i in range(2)]


def quat(q):
    x, y, z, w = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]


def affine(rot, t):
    return [rot[r] + [t[r]] for r in range(3)]


def mul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(3)) + (a[r][3] if c == 3 else 0) for c in range(4)]
            for r in range(3)]


def node_local(nd, pose):
    e = pose.get(nd.get("name"), {})
    t = e.get("translation", nd.get("translation", [0, 0, 0]))
    q = e.get("rotation", nd.get("rotation", [0, 0, 0, 1]))
    return affine(quat(q), t)


def apply(m, p, w=1.0):
    return [sum(m[r][c] * p[c] for c in range(3)) + w * m[r][3] for r in range(3)]


def expected(doc, pose, weights):
    """The specification's deformation of the tube at morph weights `weights`."""
    pos, nrm, joints, jw, _ = tube()
    bulge, bulge_n, tip = deltas()
    root = node_local(doc["nodes"][0], pose)
    bone = mul(root, node_local(doc["nodes"][1], pose))
    ib = [affine([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [0, 0, 0]), affine([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [0, -1, 0])]
    K = [mul(root, ib[0]), mul(bone, ib[1])]
    out = []
    for v, p in enumerate(pos):
        d_tip = tip.get(v, (0.0, 0.0, 0.0))
        pm = [p[k] + weights[0] * bulge[v][k] + weights[1] * d_tip[k] for k in range(3)]
        nm = [nrm[v][k] + weights[0] * bulge_n[v][k] for k in range(3)]
        op, on = [0.0] * 3, [0.0] * 3
        for j in range(2):
            w = jw[v][j]
            q, n = apply(K[joints[v][j]], pm), apply(K[joints[v][j]], nm, 0.0)
            op = [op[k] + w * q[k] for k in range(3)]
            on = [on[k] + w * n[k] for k in range(3)]
        length = math.sqrt(sum(c * c for c in on))
        out.append((op, [c / length for c in on]))
    return out


def check(model, pose_file, raw, time=None, frames=1, fps=30.0):
    doc = json.load(open(model))
    pose = {e["name"]: e for e in json.load(open(pose_file)).get("nodes", [])}
    body = doc["nodes"][2]
    weights = body.get("weights", doc["meshes"][0].get("weights", [0.0, 0.0]))
    runs = [(weights, pose)]
    if time is not None:  # the animation: weights interpolated, and its rotation as the pose
        anim = doc["animations"][0]
        interp = anim["samplers"][0].get("interpolation", "LINEAR")
        bend = {"bone": {"name": "bone", "rotation": BEND}} if len(anim["channels"]) > 1 else {}
        output = doc["accessors"][anim["samplers"][0]["output"]]
        keys = key_weights({5121: 255.0, 5122: 32767.0}.get(output["componentType"]))
        runs = [(weights_at(interp, time + f / fps, keys), bend) for f in range(frames)]
    got = open(raw, "rb").read()
    vals = struct.unpack("<%df" % (len(got) // 4), got)
    nv = len(tube()[0])
    if len(vals) != 6 * nv * len(runs):
        print("FAIL: %d floats, expected %d" % (len(vals), 6 * nv * len(runs)))
        return 1
    fail = 0
    for f, (w, p) in enumerate(runs):
        want = expected(doc, p, w)
        at = 6 * nv * f
        radius = max(math.sqrt(sum(c * c for c in q)) for q, _ in want)
        worst_p = max(math.dist(vals[at + 6 * v:at + 6 * v + 3], want[v][0]) for v in range(nv))
        worst_n = max(math.dist(vals[at + 6 * v + 3:at + 6 * v + 6], want[v][1]) for v in range(nv))
        print("weights %s: positions within %.3g of the radius, normals within %.3g" %
              ([round(x, 6) for x in w], worst_p / radius, worst_n))
        if worst_p > 1e-5 * radius or worst_n > 1e-5:
            print("FAIL: frame %d is off the specification's result" % f)
            fail = 1
    return fail


def crowd(out):
    rows = []
    for layers in LAYERS:
        ls = [dict({"clip": y[0] + ".gltf", "start": y[1], "weight": y[2]}, **({"blend": "additive"} if y[3] else {}),
                   **({"mask": y[4]} if len(y) > 4 else {}))
              for y in layers]
        rows.append({"model": "linear.gltf", "layers": ls})
    json.dump({"instances": rows}, open(out, "w"), indent=1)


def layered_weights(layers, T):
    """pose.h's layer rule for weights: the normal layers' weighted mean, then each additive
    layer's weight times its delta from its clip's first frame (time 0); clip times loop."""
    layers = [y[:4] for y in layers if len(y) == 4]  # masked layers drive no weights
    num, den = [0.0, 0.0], 0.0
    for c, st, w, add in layers:
        if not add:
            v = weights_at(INTERP[c], (st + T) % KEY_TIMES[-1])
            num = [num[i] + w * v[i] for i in range(2)]
            den += w
    out = [num[i] / den for i in range(2)]
    for c, st, w, add in layers:
        if add:
            v, r = weights_at(INTERP[c], (st + T) % KEY_TIMES[-1]), weights_at(INTERP[c], 0.0)
            out = [out[i] + w * (v[i] - r[i]) for i in range(2)]
    return out


def check_crowd(model, raw, time, frames, fps):
    doc = json.load(open(model))
    got = open(raw, "rb").read()
    vals = struct.unpack("<%df" % (len(got) // 4), got)
    nv = len(tube()[0])
    runs = [layered_weights(layers, time + f / fps) for layers in LAYERS for f in range(frames)]
    if len(vals) != 6 * nv * len(runs):
        print("FAIL: %d floats, expected %d" % (len(vals), 6 * nv * len(runs)))
        return 1
    fail = 0
    for k, w in enumerate(runs):
        want = expected(doc, {}, w)
        at = 6 * nv * k
        radius = max(math.sqrt(sum(c * c for c in q)) for q, _ in want)
        worst = max(math.dist(vals[at + 6 * v:at + 6 * v + 3], want[v][0]) for v in range(nv))
        print("pose %d, weights %s: positions within %.3g of the radius" % (k, [round(x, 6) for x in w], worst / radius))
        if worst > 1e-5 * radius:
            print("FAIL: pose %d is off the layer rule" % k)
            fail = 1
    return fail


def check_frames(model, pose_file, raw):
    doc = json.load(open(model))
    body = doc["nodes"][2]
    default = body.get("weights", doc["meshes"][0].get("weights", [0.0, 0.0]))
    frames = json.load(open(pose_file))["frames"]
    got = open(raw, "rb").read()
    vals = struct.unpack("<%df" % (len(got) // 4), got)
    nv = len(tube()[0])
    if len(vals) != 6 * nv * len(frames):
        print("FAIL: %d floats, expected %d" % (len(vals), 6 * nv * len(frames)))
        return 1
    fail = 0
    for f, fr in enumerate(frames):
        w = list(fr.get("weights", {}).values())
        w = w[0] if w else default
        want = expected(doc, {e["name"]: e for e in fr["nodes"]}, w)
        radius = max(math.sqrt(sum(c * c for c in q)) for q, _ in want)
        worst = max(math.dist(vals[6 * nv * f + 6 * v:6 * nv * f + 6 * v + 3], want[v][0]) for v in range(nv))
        print("frame %d, weights %s: positions within %.3g of the radius" % (f, w, worst / radius))
        if worst > 1e-5 * radius:
            print("FAIL: frame %d is off" % f)
            fail = 1
    return fail


def main(argv):
    if len(argv) == 4 and argv[1] == "make":
        json.dump(document(argv[2]), open(argv[3], "w"), indent=1)
        return 0
    if len(argv) == 5 and argv[1] == "check":
        return check(argv[2], argv[3], argv[4])
    if len(argv) == 5 and argv[1] == "check-frames":
        return check_frames(argv[2], argv[3], argv[4])
    if len(argv) == 3 and argv[1] == "crowd":
        return crowd(argv[2]) or 0
    if len(argv) == 7 and argv[1] == "check-crowd":
        return check_crowd(argv[2], argv[3], float(argv[4]), int(argv[5]), float(argv[6]))
    if len(argv) == 8 and argv[1] == "check":
        return check(argv[2], argv[3], argv[4], float(argv[5]), int(argv[6]), float(argv[7]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
