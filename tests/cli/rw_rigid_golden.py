#!/usr/bin/env python3
"""Independent golden for RenderWare rigid atomics (tests/cli/cli_rw_rigid.sh).

  rw_rigid_golden.py make IN.dff OUT.dff FRAME
      IN.dff (one skinned atomic) with a second atomic added: a copy of its geometry with the
      Skin PLG taken out, attached to the frame named FRAME (a prop on a bone, as GTA's
      weapons and heads are attached).
  rw_rigid_golden.py check OUT.dff POSE.json RAW SKINNED_RAW
      RAW: vkskin deform --format raw of OUT.dff in the pose; SKINNED_RAW: the same of IN.dff.
      The skinned part must equal SKINNED_RAW, and the rigid atomic's vertices must be the
      geometry's stored vertices placed by inverse(W(skinned atomic's frame)) W(FRAME), the
      frames composed here from the Frame List (the pose replacing a node's rotation), within
      1e-5 of the bounding radius.

Plain Python, from the chunk layout of the format notes (renderware.md sections 3 to 5).
"""
import json
import math
import struct
import sys

from rigid_golden_math import mul, quat_matrix, set_distance

STRUCT, EXTENSION, FRAME_LIST, GEOMETRY, CLUMP, ATOMIC, GEOMETRY_LIST = 0x01, 0x03, 0x0E, 0x0F, 0x10, 0x14, 0x1A
SKIN, NODE_NAME = 0x116, 0x253F2FE


def chunks(data, start, end):
    out = []
    while start + 12 <= end:
        t, size, ver = struct.unpack_from("<III", data, start)
        out.append((t, start, start + 12, start + 12 + size, ver))
        start += 12 + size
    return out


def header(t, body, ver):
    return struct.pack("<III", t, len(body), ver) + body


def find(cs, t):
    return [c for c in cs if c[0] == t]


def frames(data, fl):
    kids = chunks(data, fl[2], fl[3])
    st = kids[0]
    n = struct.unpack_from("<i", data, st[2])[0]
    locs, parents, names = [], [], []
    for i in range(n):
        v = struct.unpack_from("<12fi", data, st[2] + 4 + 56 * i)
        right, up, at, pos = v[0:3], v[3:6], v[6:9], v[9:12]
        locs.append([[right[r], up[r], at[r], pos[r]] for r in range(3)] + [[0, 0, 0, 1]])
        parents.append(v[12])
    for ext in find(kids[1:], EXTENSION):
        name = ""
        for c in chunks(data, ext[2], ext[3]):
            if c[0] == NODE_NAME:
                name = data[c[2]:c[3]].decode("latin-1")
        names.append(name)
    return locs, parents, names


def make(src, dst, frame_name):
    data = open(src, "rb").read()
    t, cstart, cbody, cend, cver = chunks(data, 0, len(data))[0]
    kids = chunks(data, cbody, cend)
    locs, parents, names = frames(data, find(kids, FRAME_LIST)[0])
    frame = names.index(frame_name)
    out = b""
    for k in kids:
        body = data[k[2]:k[3]]
        if k[0] == STRUCT:  # the clump's atomic count, one more
            body = struct.pack("<i", struct.unpack_from("<i", body)[0] + 1) + body[4:]
        if k[0] == GEOMETRY_LIST:
            gk = chunks(data, k[2], k[3])
            g = gk[1]
            gkids = chunks(data, g[2], g[3])
            gbody = b""
            for c in gkids:  # the geometry's extension without its Skin PLG
                cb = data[c[2]:c[3]]
                if c[0] == EXTENSION:
                    cb = b"".join(data[x[1]:x[3]] for x in chunks(data, c[2], c[3]) if x[0] != SKIN)
                gbody += header(c[0], cb, c[4])
            lst = data[gk[0][2]:gk[0][3]]
            lst = struct.pack("<i", struct.unpack_from("<i", lst)[0] + 1) + lst[4:]
            body = header(STRUCT, lst, gk[0][4]) + b"".join(data[c[1]:c[3]] for c in gk[1:]) + \
                header(GEOMETRY, gbody, g[4])
            geometries = struct.unpack_from("<i", lst)[0]
        out += header(k[0], body, k[4])
        if k[0] == ATOMIC:
            last_atomic = k
    st = chunks(data, last_atomic[2], last_atomic[3])[0]
    a = struct.pack("<iiII", frame, geometries - 1, 5, 0)
    out += header(ATOMIC, header(STRUCT, a, st[4]) + header(EXTENSION, b"", st[4]), last_atomic[4])
    open(dst, "wb").write(header(CLUMP, out, cver) + data[cend:])






def inverse_rigid(m):  # frames here are rotations and translations
    r = [[m[j][i] for j in range(3)] for i in range(3)]
    t = [-sum(r[i][k] * m[k][3] for k in range(3)) for i in range(3)]
    return [r[i] + [t[i]] for i in range(3)] + [[0, 0, 0, 1]]


def geometry_vertices(data, g):
    st = chunks(data, g[2], g[3])[0]
    flags, nt, nv, nm = struct.unpack_from("<Iiii", data, st[2])
    at = st[2] + 16 + (12 if st[4] < 0x34000 else 0)
    sets = (flags >> 16) & 0xFF or (2 if flags & 0x80 else 1 if flags & 0x4 else 0)
    at += (4 * nv if flags & 0x8 else 0) + sets * 8 * nv + 8 * nt + 16
    has_v = struct.unpack_from("<i", data, at)[0]
    assert has_v
    return [struct.unpack_from("<3f", data, at + 8 + 12 * i) for i in range(nv)]


def check(model, pose_file, raw, skinned_raw):
    data = open(model, "rb").read()
    t, cstart, cbody, cend, cver = chunks(data, 0, len(data))[0]
    kids = chunks(data, cbody, cend)
    locs, parents, names = frames(data, find(kids, FRAME_LIST)[0])
    for e in json.load(open(pose_file))["nodes"]:
        i = names.index(e["name"])
        r = quat_matrix(e["rotation"])
        locs[i] = [r[k] + [locs[i][k][3]] for k in range(3)] + [[0, 0, 0, 1]]

    def world(i):
        return mul(world(parents[i]), locs[i]) if parents[i] >= 0 else locs[i]

    atomics = [struct.unpack_from("<ii", data, chunks(data, a[2], a[3])[0][2]) for a in find(kids, ATOMIC)]
    geoms = chunks(data, find(kids, GEOMETRY_LIST)[0][2], find(kids, GEOMETRY_LIST)[0][3])[1:]
    skin_frame, _ = atomics[0]
    frame, gi = atomics[-1]
    place = mul(inverse_rigid(world(skin_frame)), world(frame))
    want = [tuple(sum(place[r][c] * p[c] for c in range(3)) + place[r][3] for r in range(3))
            for p in geometry_vertices(data, geoms[gi])]
    got = open(raw, "rb").read()
    ref = open(skinned_raw, "rb").read()
    vals = struct.unpack("<%df" % (len(got) // 4), got)
    verts = [vals[6 * v:6 * v + 3] for v in range(len(got) // 24)]
    radius = max(math.sqrt(sum(c * c for c in v)) for v in verts)
    fail = 0
    if got[:len(ref)] != ref:
        print("FAIL: the skinned vertices differ from the model without the rigid atomic")
        fail = 1
    part = verts[len(ref) // 24:]
    if len(part) < len(set(want)):
        print("FAIL: %d vertices of the rigid atomic, expected %d" % (len(part), len(want)))
        return 1
    worst = set_distance(part, want)
    if worst > 1e-5 * radius:
        print("FAIL: the rigid atomic is off by %.3g (%.3g of the radius)" % (worst, worst / radius))
        fail = 1
    print("rigid atomic within %.3g of the radius" % (worst / radius))
    return fail


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(*sys.argv[2:5])
    else:
        sys.exit(check(*sys.argv[2:6]))
