#!/usr/bin/env python3
"""Morph data in the seed formats (tests/cli/cli_seed_morph.sh), written here from the format
notes, independently of vkskin's readers and writers.

  seed_morph_golden.py dff IN.dff OUT.dff [plg]
      IN (a clump whose first geometry has one morph target) with targets 1 and 2 added to
      that geometry (renderware.md 5.1): target 1 moves every position by D1(v) and every
      normal by N1(v), target 2 moves positions by D2(v) and stores no normals. With "plg", a
      Morph PLG (0x105) is put in the geometry's extension too (its animation is not read).
      OUT.cuts: one line per new structure, "START END SIZE_FIELD...": the file cut back to
      each byte from START to END (exclusive) with the u32 sizes at SIZE_FIELD... reduced by
      as much is the structure truncated at that byte (tests/unit/seed_morph_cuts.c).
  seed_morph_golden.py nif IN.nif OUT.nif relative|absolute|stray|weighted
      IN (20.2.0.7, block sizes) with an NiGeomMorpherController on its first NiTriShape and
      an NiMorphData of 3 morphs (0: the base, 1: D1, 2: D2; absolute: base + D) whose
      weights come from two NiFloatInterpolators (0.25 and 0.5 at time 0), appended as new
      blocks; OUT.cuts as above, one line per new block. stray: the controller on the root
      node instead (not a mesh); weighted: MorphWeight weights 0.5 (not applied); both as
      absolute otherwise.
  seed_morph_golden.py nif10 IN.nif OUT.nif VERTICES
      The same in a 10.1.0.0 file (IN: vkskin generate --version 0x0A010000; VERTICES: its
      shape's), the weights as the morphs' own keys (make_nif_10).
  seed_morph_golden.py check BASE.raw MORPHED.raw INSPECT.json W1 W2 [positions]
      RAW files of vkskin deform --format raw in the bind pose (whose skin matrices are the
      identity, as the bind check finds), INSPECT.json vkskin inspect --json of the model:
      MORPHED minus BASE must be W1 D1 + W2 D2 on the first mesh's vertices (normals: W1 N1;
      with "positions", as NiMorphData stores: 0) within 1e-5 of the bounding radius, and 0 on
      the other meshes'.
  seed_morph_golden.py check-convert SRC.json SRC_BASE.raw SRC_W.raw OUT.json OUT_BASE.raw OUT_W.raw
      The same deforms of vkskin convert's output: each vertex moves as far as its source
      vertex does (check_convert says how they correspond), within 1e-5.
"""
import json
import math
import struct
import sys


def d1(v):
    return (0.01 * (1 + v % 3), -0.02, 0.005 * (v % 5))


def n1(v):
    return (0.0, 0.001 * (v % 2), 0.0)


def d2(v):
    return (-0.015, 0.01 * (v % 4), 0.02)


def chunks(data, start, end):
    out = []
    while start + 12 <= end:
        t, size, ver = struct.unpack_from("<III", data, start)
        out.append((t, start, start + 12 + size, ver))
        start += 12 + size
    return out


def rebuild(data, start, end, edit):
    """The chunks in data[start:end] with edit(type, offset, body) -> new body, sizes mended."""
    out = b""
    for t, s, e, ver in chunks(data, start, end):
        body = edit(t, s, data[s + 12:e])
        out += struct.pack("<III", t, len(body), ver) + body
    return out


def geometry_struct(body, ver):
    """The struct body with targets 1 and 2 added, and the first geometry's vertex count."""
    flags, nt, nv, nmorph = struct.unpack_from("<IIII", body, 0)
    assert nmorph == 1, "the input geometry must have one morph target"
    p = 16 + (12 if ver < 0x34000 else 0)
    tex = (flags >> 16) & 0xFF or (2 if flags & 0x80 else 1 if flags & 0x04 else 0)
    p += (4 * nv if flags & 0x08 else 0) + 8 * nv * tex + 8 * nt
    sphere = body[p:p + 16]
    has_v, has_n = struct.unpack_from("<II", body, p + 16)
    pos = struct.unpack_from("<%df" % (3 * nv), body, p + 24)
    nrm = struct.unpack_from("<%df" % (3 * nv), body, p + 24 + 12 * nv) if has_n else None
    t1 = sphere + struct.pack("<II", 1, 1 if has_n else 0)
    t1 += b"".join(struct.pack("<3f", *[pos[3 * v + k] + d1(v)[k] for k in range(3)]) for v in range(nv))
    if has_n:
        t1 += b"".join(struct.pack("<3f", *[nrm[3 * v + k] + n1(v)[k] for k in range(3)]) for v in range(nv))
    t2 = sphere + struct.pack("<II", 1, 0)
    t2 += b"".join(struct.pack("<3f", *[pos[3 * v + k] + d2(v)[k] for k in range(3)]) for v in range(nv))
    return body[:12] + struct.pack("<I", 3) + body[16:] + t1 + t2


def make_dff(src, dst, plg):
    data = open(src, "rb").read()
    t, s, e, ver = chunks(data, 0, len(data))[0]
    seen = {"geometry": False}

    def geometry(t, s, body):
        if t == 0x01:
            return geometry_struct(body, decode(data, s))
        if t == 0x03 and plg:  # a Morph PLG: u32 count 0 (no interpolators), as RpMorph writes none
            return body + struct.pack("<III", 0x105, 4, struct.unpack_from("<I", data, s + 8)[0]) + b"\0" * 4
        return body

    def geometry_list(t, s, body):
        if t == 0x0F and not seen["geometry"]:
            seen["geometry"] = True
            return rebuild(data, s + 12, s + 12 + len(body), geometry)
        return body

    def clump(t, s, body):
        return rebuild(data, s + 12, s + 12 + len(body), geometry_list) if t == 0x1A else body

    out = rebuild(data, 0, e, lambda t, s, body: rebuild(data, s + 12, s + 12 + len(body), clump))
    open(dst, "wb").write(out + data[e:])
    # the cuts: the geometry struct cut back into targets 1 and 2 (clump, geometry list,
    # geometry and struct sizes mended)
    c = chunks(out, 0, len(out))[0]
    gl = [k for k in chunks(out, c[1] + 12, c[2]) if k[0] == 0x1A][0]
    g = [k for k in chunks(out, gl[1] + 12, gl[2]) if k[0] == 0x0F][0]
    kids = chunks(out, g[1] + 12, g[2])
    st = kids[0]
    nv = struct.unpack_from("<I", out, st[1] + 12 + 8)[0]
    has_n = struct.unpack_from("<I", out, st[2] - (24 + 12 * nv) - (24 + 24 * nv) + 20)[0]
    t1 = st[2] - (24 + 12 * nv) - (24 + (24 if has_n else 12) * nv)
    sizes = [c[1] + 4, gl[1] + 4, g[1] + 4]
    spec = ["%d %d %s" % (t1, st[2], " ".join(map(str, sizes + [st[1] + 4])))]
    open(dst + ".cuts", "w").write("\n".join(spec) + "\n")  # the Morph PLG is not read: not cut


def sized(b):
    return struct.pack("<I", len(b)) + b


class Nif:
    """A 20.2.0.7 NIF with a Bethesda stream header (nif.md 3): header fields, block types,
    blocks and strings, written back with counts and sizes mended."""

    def __init__(self, data):
        p = data.index(b"\n") + 1
        self.line = data[:p]
        self.ver, self.endian, self.user, nb, self.bsver = struct.unpack_from("<IBIII", data, p)
        p += 17
        q = p
        for _ in range(3):  # author, process script, export script: u8 length each
            q += 1 + data[q]
        self.bs = data[p:q]
        p = q
        nt = struct.unpack_from("<H", data, p)[0]
        p += 2
        self.types = []
        for _ in range(nt):
            n = struct.unpack_from("<I", data, p)[0]
            self.types.append(data[p + 4:p + 4 + n].decode())
            p += 4 + n
        self.kind = list(struct.unpack_from("<%dH" % nb, data, p))
        p += 2 * nb
        sizes = struct.unpack_from("<%dI" % nb, data, p)
        p += 4 * nb
        ns = struct.unpack_from("<I", data, p)[0]
        p += 8
        self.strings = []
        for _ in range(ns):
            n = struct.unpack_from("<I", data, p)[0]
            self.strings.append(data[p + 4:p + 4 + n])
            p += 4 + n
        ng = struct.unpack_from("<I", data, p)[0]
        self.groups = data[p:p + 4 + 4 * ng]
        p += 4 + 4 * ng
        self.blocks = []
        for size in sizes:
            self.blocks.append(bytearray(data[p:p + size]))
            p += size
        self.footer = data[p:]

    def type_of(self, i):
        return self.types[self.kind[i]]

    def add(self, type_name, body):
        if type_name not in self.types:
            self.types.append(type_name)
        self.kind.append(self.types.index(type_name))
        self.blocks.append(bytearray(body))
        return len(self.blocks) - 1

    def string(self, text):
        self.strings.append(text.encode())
        return len(self.strings) - 1

    def bytes(self):
        out = self.line + struct.pack("<IBIII", self.ver, self.endian, self.user, len(self.blocks), self.bsver) + self.bs
        out += struct.pack("<H", len(self.types)) + b"".join(sized(t.encode()) for t in self.types)
        out += struct.pack("<%dH" % len(self.kind), *self.kind)
        out += struct.pack("<%dI" % len(self.blocks), *[len(b) for b in self.blocks])
        out += struct.pack("<II", len(self.strings), max(len(x) for x in self.strings))
        out += b"".join(sized(x) for x in self.strings) + self.groups
        return out + b"".join(bytes(b) for b in self.blocks) + self.footer


def make_nif(src, dst, mode):
    """nif.xml's NiGeomMorpherController (20.2.0.7: time controller fields, morpher flags, data,
    always update, MorphWeight[n]), NiMorphData (morphs: frame name, vectors), NiFloatInterpolator
    (pose value, data) and NiFloatData (KeyGroup<float>)."""
    absolute = mode == "absolute"
    f = Nif(open(src, "rb").read())
    shape = next(i for i in range(len(f.blocks)) if f.type_of(i) == "NiTriShape")
    data = next(i for i in range(len(f.blocks)) if f.type_of(i) == "NiTriShapeData")
    nv = struct.unpack_from("<H", f.blocks[data], 4)[0]
    base = struct.unpack_from("<%df" % (3 * nv), f.blocks[data], 9)
    ctrl = len(f.blocks)
    morph_data, interps = ctrl + 1, [ctrl + 2, ctrl + 3, ctrl + 4]
    target = 0 if mode == "stray" else shape  # stray: on the root node, not a mesh
    weight = 0.5 if mode == "weighted" else 1.0  # weighted: MorphWeight weights not applied
    body = struct.pack("<iHffffi", -1, 0x48, 1.0, 0.0, 0.0, 1.0, target)
    body += struct.pack("<HiBI", 0, morph_data, 1, 3) + b"".join(struct.pack("<if", i, weight) for i in interps)
    f.add("NiGeomMorpherController", body)
    body = struct.pack("<IIB", 3, nv, 0 if absolute else 1)
    for name, d in (("Base", None), ("Smile", d1), ("Frown", d2)):
        body += struct.pack("<i", f.string(name))
        for v in range(nv):
            delta = d(v) if d else (0.0, 0.0, 0.0)
            body += struct.pack("<3f", *[(base[3 * v + k] if absolute or not d else 0.0) + delta[k] for k in range(3)])
    f.add("NiMorphData", body)
    fdata = ctrl + 5
    f.add("NiFloatInterpolator", struct.pack("<fi", 1.0, -1))    # the base
    f.add("NiFloatInterpolator", struct.pack("<fi", 0.25, -1))   # Smile: a pose value, 0.25
    f.add("NiFloatInterpolator", struct.pack("<fi", 0.0, fdata))  # Frown: keys, 0.5 at time 0
    last = 1.0 if mode == "relative" else 0.5  # relative: animated (a warning says the model alone does not play it)
    f.add("NiFloatData", struct.pack("<II", 2, 1) + struct.pack("<ffff", 0.0, 0.5, 1.0, last))
    # the shape's NiObjectNET controller ref: after its name and extra data list
    n_extra = struct.unpack_from("<I", f.blocks[shape], 4)[0]
    struct.pack_into("<i", f.blocks[shape], 8 + 4 * n_extra, ctrl)
    out = f.bytes()
    open(dst, "wb").write(out)
    # the cuts: each new block cut back at every byte, its size in the header mended
    nb = len(f.blocks)
    first = len(out) - len(f.footer) - sum(len(b) for b in f.blocks)
    table = out.index(struct.pack("<%dH" % nb, *f.kind)) + 2 * nb
    spec, at = [], first
    for i, b in enumerate(f.blocks):
        if i >= ctrl:
            spec.append("%d %d %d" % (at, at + len(b), table + 4 * i))
        at += len(b)
    open(dst + ".cuts", "w").write("\n".join(spec) + "\n")


def make_nif_10(src, dst, shape_vertices):
    """The same morphs in a 10.1.0.0 file (no block sizes, no string table; a zero u32 before
    each block; nif.md 3): NiGeomMorpherController without interpolators, and NiMorphData
    whose morphs carry their weight keys: Smile LINEAR 0.25 at 0 and 1 s (constant), Frown
    QUADRATIC from 0 at -1 s to 1 at 1 s with flat tangents (0.5 at time 0, animated)."""
    data = open(src, "rb").read()
    p = data.index(b"\n") + 1
    ver, user, nb = struct.unpack_from("<III", data, p)
    assert ver == 0x0A010000 and user == 0, "a 10.1.0.0 file without a Bethesda header"
    q = p + 12
    nt = struct.unpack_from("<H", data, q)[0]
    q += 2
    types = []
    for _ in range(nt):
        n = struct.unpack_from("<I", data, q)[0]
        types.append(data[q + 4:q + 4 + n].decode())
        q += 4 + n
    kind = list(struct.unpack_from("<%dH" % nb, data, q))
    q += 2 * nb
    nroots = struct.unpack_from("<I", data, len(data) - 8)[0]
    assert nroots == 1, "one root in the footer"
    blocks, footer = data[q:len(data) - 8], data[len(data) - 8:]
    shape = kind.index(types.index("NiTriShape"))
    types += ["NiGeomMorpherController", "NiMorphData"]
    kind += [len(types) - 2, len(types) - 1]
    ctrl = nb
    body = struct.pack("<iHffffi", -1, 0x48, 1.0, 0.0, -1.0, 1.0, shape) + struct.pack("<HiB", 0, ctrl + 1, 1)
    new = struct.pack("<I", 0) + body
    body = struct.pack("<IIB", 3, shape_vertices, 1)
    keys = (struct.pack("<II", 0, 1),
            struct.pack("<II", 2, 1) + struct.pack("<4f", 0.0, 0.25, 1.0, 0.25),
            struct.pack("<II", 2, 2) + struct.pack("<8f", -1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0))
    for k, d in zip(keys, (None, d1, d2)):
        body += k + b"".join(struct.pack("<3f", *(d(v) if d else (0.0, 0.0, 0.0))) for v in range(shape_vertices))
    new += struct.pack("<I", 0) + body
    head = data[:p] + struct.pack("<III", ver, user, nb + 2) + struct.pack("<H", len(types))
    head += b"".join(sized(t.encode()) for t in types) + struct.pack("<%dH" % len(kind), *kind)
    out = head + blocks + new + footer
    open(dst, "wb").write(out)
    # the cuts: no sizes to mend: the file itself cut at every byte of the new blocks
    open(dst + ".cuts", "w").write("%d %d\n" % (len(out) - len(footer) - len(new), len(out)))


def decode(data, s):
    """The chunk's RW version from its library ID stamp (renderware.md 2.2)."""
    stamp = struct.unpack_from("<I", data, s + 8)[0]
    if stamp & 0xFFFF0000:
        return (((stamp >> 14) & 0x3FF00) + 0x30000) | ((stamp >> 16) & 0x3F)
    return stamp << 8


def check(base_raw, morphed_raw, inspect_json, w1, w2, normals=True):
    doc = json.load(open(inspect_json))
    meshes = doc["meshes"]
    nv = sum(m["file_vertices"] for m in meshes)  # raw output is by file vertex
    a = open(base_raw, "rb").read()
    b = open(morphed_raw, "rb").read()
    if len(a) != len(b) or len(a) % (4 * nv):
        print("FAIL: raw sizes %d and %d for %d vertices" % (len(a), len(b), nv))
        return 1
    stride = len(a) // (4 * nv)
    fa = struct.unpack("<%df" % (len(a) // 4), a)
    fb = struct.unpack("<%df" % (len(b) // 4), b)
    radius = max(math.sqrt(sum(fa[stride * v + k] ** 2 for k in range(3))) for v in range(nv))
    first = meshes[0]
    if len(first.get("morph_targets", [])) != 2:
        print("FAIL: the first mesh has %d morph targets, expected 2" % len(first.get("morph_targets", [])))
        return 1
    worst, worst_n = 0.0, 0.0
    for v in range(nv):
        want = [w1 * d1(v)[k] + w2 * d2(v)[k] for k in range(3)] if v < first["file_vertices"] else [0, 0, 0]
        got = [fb[stride * v + k] - fa[stride * v + k] for k in range(3)]
        worst = max(worst, math.dist(want, got))
        if stride == 6:
            want_n = [w1 * n1(v)[k] for k in range(3)] if normals and v < first["file_vertices"] else [0, 0, 0]
            got_n = [fb[stride * v + 3 + k] - fa[stride * v + 3 + k] for k in range(3)]
            worst_n = max(worst_n, math.dist(want_n, got_n))
    print("weights %g %g: positions within %.3g of the radius %.4g, normals within %.3g" %
          (w1, w2, worst / radius, radius, worst_n))
    if worst > 1e-5 * radius or worst_n > 1e-5:
        print("FAIL: the morphed vertices are off w1 D1 + w2 D2")
        return 1
    return 0


def raw_vertices(path, count):
    data = open(path, "rb").read()
    f = struct.unpack("<%df" % (len(data) // 4), data)
    stride = len(f) // count
    return [f[stride * v:stride * v + 3] for v in range(count)]


def check_convert(src_json, src_base, src_w, glb_json, glb_base, glb_w):
    """The converted file holds the source's vertices in their order, once per material
    primitive, turned by the axis correction (a rotation): vertex i is source vertex i mod N,
    and its move must have the length of its source vertex's move (and its base position the
    distance from the origin of its source's, which checks the correspondence), within 1e-5."""
    nsrc = sum(m["file_vertices"] for m in json.load(open(src_json))["meshes"])
    nglb = sum(m["file_vertices"] for m in json.load(open(glb_json))["meshes"])
    a, b = raw_vertices(src_base, nsrc), raw_vertices(src_w, nsrc)
    c, d = raw_vertices(glb_base, nglb), raw_vertices(glb_w, nglb)
    origin = [0.0, 0.0, 0.0]
    worst_at, worst, moved = 0.0, 0.0, 0
    for v in range(nglb):
        s = v % nsrc
        worst_at = max(worst_at, abs(math.dist(a[s], origin) - math.dist(c[v], origin)))
        want = math.dist(a[s], b[s])
        worst = max(worst, abs(want - math.dist(c[v], d[v])))
        moved += want > 1e-4
    print("converted: %d vertices (%d moved by the targets): base within %.3g, moves within %.3g of the source's" %
          (nglb, moved, worst_at, worst))
    return 1 if worst_at > 1e-5 or worst > 1e-5 or moved == 0 else 0


def main():
    cmd = sys.argv[1]
    if cmd == "dff":
        make_dff(sys.argv[2], sys.argv[3], len(sys.argv) > 4 and sys.argv[4] == "plg")
    elif cmd == "nif":
        make_nif(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "nif10":
        make_nif_10(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif cmd == "check":
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), float(sys.argv[6]),
                       len(sys.argv) < 8 or sys.argv[7] != "positions"))
    elif cmd == "check-convert":
        sys.exit(check_convert(*sys.argv[2:8]))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
