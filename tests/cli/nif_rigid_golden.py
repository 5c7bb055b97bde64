#!/usr/bin/env python3
"""Independent golden for NIF rigid shapes (tests/cli/cli_nif_rigid.sh), on the real Skyrim LE
sample nifly_skyrimle_cylinders_TestNifFile_Optimize_LE_to_SE.nif (20.2.0.7, bsver 83, block
sizes): two NiTriShape cylinders, each skinned, under "Scene Root" beside the bones BoneA and
BoneB (the layout was read off the file with a walk of its block sizes).

  nif_rigid_golden.py make IN.nif OUT.nif
      IN with cylinder_2's skin instance taken away (its NiTriShape's Skin Instance ref set to
      -1), moved from Scene Root's children to BoneB's and placed 0.5 up BoneB's z by its own
      transform: a rigid part on a bone, as helmets and swords are.
  nif_rigid_golden.py check OUT.nif POSE.json RAW SKINNED_RAW
      RAW: vkskin deform --format raw of OUT.nif in the pose, SKINNED_RAW: the same of IN.nif.
      cylinder_1 must keep its vertices, and cylinder_2's must be its stored vertices placed by
      Overall * W(Scene Root)^-1 * W(BoneB) * T(shape) (nif.md 6.2's skin space, cylinder_1's
      NiSkinData Overall), BoneB's rotation replaced by the pose's, within 1e-5 of the radius.

Offsets within blocks follow nif_blocks.md for 20.2.0.7 bsver 83: NiAVObject's translation at
16, rotation at 28, scale at 64; NiNode's children count at 72; NiGeometry's data and skin refs
at 72 and 76; NiGeometryData's vertex count at 4 and vertices at 9; NiSkinData's overall
rotation, translation and scale at 0, 36 and 48.
"""
import json
import math
import struct
import sys

from rigid_golden_math import mul, quat_matrix, set_distance


def parse(data):
    p = data.index(b"\n") + 1 + 4 + 1 + 4
    nb = struct.unpack_from("<I", data, p)[0]
    p += 4 + 4
    for _ in range(3):
        p += 1 + data[p]
    ntypes = struct.unpack_from("<H", data, p)[0]
    p += 2
    types = []
    for _ in range(ntypes):
        n = struct.unpack_from("<I", data, p)[0]
        types.append(data[p + 4:p + 4 + n].decode())
        p += 4 + n
    kinds = [types[i & 0x7FFF] for i in struct.unpack_from("<%dH" % nb, data, p)]
    p += 2 * nb
    sizes_at = p
    sizes = struct.unpack_from("<%dI" % nb, data, p)
    p += 4 * nb
    ns = struct.unpack_from("<I", data, p)[0]
    p += 8
    strings = []
    for _ in range(ns):
        n = struct.unpack_from("<I", data, p)[0]
        strings.append(data[p + 4:p + 4 + n].decode("latin-1"))
        p += 4 + n
    p += 4 + 4 * struct.unpack_from("<I", data, p)[0]
    blocks = []
    for s in sizes:
        blocks.append(bytearray(data[p:p + s]))
        p += s
    return data[:sizes_at], data[sizes_at + 4 * nb:p - sum(sizes)], kinds, strings, blocks, data[p:]


def name_of(block, strings):
    return strings[struct.unpack_from("<i", block, 0)[0]]


def find(kinds, strings, blocks, kind, name):
    return next(i for i, b in enumerate(blocks) if kinds[i] == kind and name_of(b, strings) == name)


def children(block):
    n = struct.unpack_from("<I", block, 72)[0]
    return list(struct.unpack_from("<%di" % n, block, 76))


def set_children(block, refs):
    n = struct.unpack_from("<I", block, 72)[0]
    return block[:72] + struct.pack("<I%di" % len(refs), len(refs), *refs) + block[76 + 4 * n:]


def make(src, dst):
    head, mid, kinds, strings, blocks, tail = parse(open(src, "rb").read())
    shape = find(kinds, strings, blocks, "NiTriShape", "cylinder_2")
    root = find(kinds, strings, blocks, "NiNode", "Scene Root")
    bone = find(kinds, strings, blocks, "NiNode", "BoneB")
    struct.pack_into("<i", blocks[shape], 76, -1)
    struct.pack_into("<f", blocks[shape], 24, 0.5)
    blocks[root] = set_children(blocks[root], [c for c in children(blocks[root]) if c != shape])
    blocks[bone] = set_children(blocks[bone], children(blocks[bone]) + [shape])
    sizes = struct.pack("<%dI" % len(blocks), *[len(b) for b in blocks])
    open(dst, "wb").write(head + sizes + mid + b"".join(bytes(b) for b in blocks) + tail)


def xform(block, at_t, at_r, at_s):
    t = struct.unpack_from("<3f", block, at_t)
    r = struct.unpack_from("<9f", block, at_r)  # row-major for column vectors (nif.md 5)
    s = struct.unpack_from("<f", block, at_s)[0]
    return [[s * r[3 * i + j] for j in range(3)] + [t[i]] for i in range(3)] + [[0, 0, 0, 1]]






def check(model, pose_file, raw, skinned_raw):
    head, mid, kinds, strings, blocks, tail = parse(open(model, "rb").read())
    shape = find(kinds, strings, blocks, "NiTriShape", "cylinder_2")
    bone = find(kinds, strings, blocks, "NiNode", "BoneB")
    root = find(kinds, strings, blocks, "NiNode", "Scene Root")
    local_b = xform(blocks[bone], 16, 28, 64)
    for e in json.load(open(pose_file))["nodes"]:
        if e["name"] == "BoneB":
            r = quat_matrix(e["rotation"])
            s = math.sqrt(sum(local_b[k][0] ** 2 for k in range(3)))
            local_b = [[s * r[i][j] for j in range(3)] + [local_b[i][3]] for i in range(3)] + [[0, 0, 0, 1]]
    root_w = xform(blocks[root], 16, 28, 64)
    assert all(abs(root_w[i][j] - (i == j)) < 1e-6 for i in range(4) for j in range(4)), "Scene Root is placed"
    skin_data = next(i for i, k in enumerate(kinds) if k == "NiSkinData")  # cylinder_1's
    overall = xform(blocks[skin_data], 36, 0, 48)
    place = mul(overall, mul(local_b, xform(blocks[shape], 16, 28, 64)))
    data = blocks[struct.unpack_from("<i", blocks[shape], 72)[0]]
    n = struct.unpack_from("<H", data, 4)[0]
    stored = [struct.unpack_from("<3f", data, 9 + 12 * v) for v in range(n)]
    want = [tuple(sum(place[r][c] * p[c] for c in range(3)) + place[r][3] for r in range(3)) for p in stored]
    got = open(raw, "rb").read()
    ref = open(skinned_raw, "rb").read()
    vals = struct.unpack("<%df" % (len(got) // 4), got)
    verts = [vals[6 * v:6 * v + 3] for v in range(len(got) // 24)]
    radius = max(math.sqrt(sum(c * c for c in v)) for v in verts)
    first = len(ref) // 2  # cylinder_1's share of the unchanged file (two cylinders of 136)
    fail = 0
    if got[:first] != ref[:first]:
        print("FAIL: cylinder_1 moved")
        fail = 1
    part = verts[first // 24:]
    if len(part) != n:
        print("FAIL: %d vertices after cylinder_1, expected cylinder_2's %d" % (len(part), n))
        return 1
    worst = set_distance(part, want)
    if worst > 1e-5 * radius:
        print("FAIL: cylinder_2 is off by %.3g (%.3g of the radius)" % (worst, worst / radius))
        fail = 1
    print("rigid cylinder within %.3g of the radius" % (worst / radius))
    return fail


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(*sys.argv[2:4])
    else:
        sys.exit(check(*sys.argv[2:6]))
