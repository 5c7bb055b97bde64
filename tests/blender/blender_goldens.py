"""Goldens from Blender's own deformation of a glTF character (issue 38).

Run from the repository root (Debian's Blender 3.4):

    blender -b --factory-startup --python tests/blender/blender_goldens.py -- \
        OUT_DIR TIMES MODEL.glb [MODEL.glb ...]

TIMES is a comma-separated list of seconds (e.g. 0.25,0.5,0.75). For each MODEL this imports
the file into an empty Blender scene with Blender's own glTF importer (merge_vertices off),
plays its first animation (the importer makes it each object's active action), and at each
time evaluates the depsgraph: Blender's armature modifier skins every set of JOINTS/WEIGHTS,
the shape keys (the glTF morph targets, driven by the weights channel) apply before it, and a
mesh parented to a bone follows the bone. Each mesh node's evaluated vertices, in world space,
are mapped back to glTF's axes (Blender is Z-up; its importer turns glTF's +Y up into +Z) and
written to OUT_DIR/<MODEL stem>.golden.json:

  {"model", "generator", "times": [...],
   "parts": [{"node": glTF node index, "name", "primitive", "vertices"}...],
   "positions": [[x, y, z, x, y, z, ...] per time]}

or, for a golden of more than 60000 coordinates, "positions_file": "<stem>.golden.bin" beside
it instead (float32 little-endian, the same numbers in the same order).

Parts are the mesh nodes in the file's node order, each mesh's primitives in order: the order
`vkskin deform` writes vertices in. The importer keeps each primitive's vertices in their
stored order when every vertex is referenced by an index (it keeps the referenced ones, sorted,
and concatenates the primitives); a primitive with unreferenced vertices is refused here.

Nothing of vkskin runs here: the positions are Blender's.
"""
import json
import os
import sys

import bpy
import numpy as np

# Debian's Blender 3.4 importer still says np.bool, which numpy 1.24 removed (the builtin it
# aliased is what it means)
if "bool" not in np.__dict__:
    np.bool = bool

FPS = 24  # the importer places a key at time t on frame t * scene fps


def import_gltf(path):
    """Blender's importer, as its operator runs it, keeping the glTF node -> object map."""
    from io_scene_gltf2.blender.imp.gltf2_blender_gltf import BlenderGlTF
    from io_scene_gltf2.io.imp.gltf2_io_gltf import glTFImporter
    settings = {"filepath": path, "import_pack_images": True, "merge_vertices": False,
                "import_shading": "NORMALS", "bone_heuristic": "TEMPERANCE", "guess_original_bind_pose": True,
                "loglevel": 50, "import_user_extensions": []}
    gltf = glTFImporter(path, settings)
    gltf.read()
    gltf.checks()
    BlenderGlTF.create(gltf)
    return gltf


def mesh_parts(gltf):
    """(node index, name, primitive index, vertex count, object) for each mesh node's primitives."""
    # the importer moves a skinned mesh to a virtual node of its own under the armature: the
    # object that carries node i's mesh is the one whose vnode names i as its mesh node
    object_of = {v.mesh_node_idx: v.blender_object for v in gltf.vnodes.values() if v.mesh_node_idx is not None}
    parts = []
    for i, node in enumerate(gltf.data.nodes):
        if node.mesh is None:
            continue
        obj = object_of[i]
        for k, prim in enumerate(gltf.data.meshes[node.mesh].primitives):
            count = gltf.data.accessors[prim.attributes["POSITION"]].count
            if prim.indices is not None:
                from io_scene_gltf2.io.imp.gltf2_io_binary import BinaryData
                used = np.unique(BinaryData.decode_accessor(gltf, prim.indices))
                if len(used) != count:
                    sys.exit("%s: node %d primitive %d leaves %d vertices unreferenced: Blender drops them"
                             % (gltf.filename, i, k, count - len(used)))
            parts.append((i, node.name or "nodes[%d]" % i, k, count, obj))
    return parts


def evaluated_positions(obj, depsgraph):
    """The object's evaluated vertices in world space, glTF axes (x, y, z) = Blender (x, z, -y)."""
    ev = obj.evaluated_get(depsgraph)
    mesh = ev.to_mesh()
    co = np.empty(len(mesh.vertices) * 3, dtype=np.float64)
    mesh.vertices.foreach_get("co", co)
    ev.to_mesh_clear()
    co = co.reshape(-1, 3)
    m = np.array(ev.matrix_world, dtype=np.float64)
    world = co @ m[:3, :3].T + m[:3, 3]
    return np.stack([world[:, 0], world[:, 2], -world[:, 1]], axis=1)


def golden(path, times):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = FPS, 1.0
    gltf = import_gltf(os.path.abspath(path))
    parts = mesh_parts(gltf)
    objects = []
    for _, _, _, _, obj in parts:
        if obj not in objects:
            objects.append(obj)
    positions = []
    for t in times:
        frame = t * FPS
        scene.frame_set(int(np.floor(frame)), subframe=float(frame - np.floor(frame)))
        depsgraph = bpy.context.evaluated_depsgraph_get()
        per_object = {obj.name: evaluated_positions(obj, depsgraph) for obj in objects}
        rows, start = [], {}
        for _, _, _, count, obj in parts:
            s = start.get(obj.name, 0)
            block = per_object[obj.name][s:s + count]
            if len(block) != count:
                sys.exit("%s: object %s has fewer vertices than its primitives" % (path, obj.name))
            start[obj.name] = s + count
            rows.append(block)
        for obj in objects:
            if start[obj.name] != len(per_object[obj.name]):
                sys.exit("%s: object %s has %d vertices, its primitives %d" %
                         (path, obj.name, len(per_object[obj.name]), start[obj.name]))
        positions.append(np.concatenate(rows).reshape(-1))
    return {"model": os.path.basename(path), "generator": "Blender %s (its glTF importer %s)" %
            (bpy.app.version_string, ".".join(map(str, __import__("io_scene_gltf2").bl_info["version"]))),
            "command": "blender -b --factory-startup --python tests/blender/blender_goldens.py -- "
                       "OUT_DIR %s %s" % (",".join("%g" % t for t in times), os.path.basename(path)),
            "times": times,
            "parts": [{"node": i, "name": name, "primitive": k, "vertices": n} for i, name, k, n, _ in parts],
            "positions": positions}


def write(doc, out, stem):
    """OUT/STEM.golden.json; a large golden keeps its positions in OUT/STEM.golden.bin
    (float32 little-endian, times x vertices x 3) and names that file in "positions_file"."""
    positions = doc.pop("positions")
    if sum(len(p) for p in positions) > 60000:
        doc["positions_file"] = stem + ".golden.bin"
        data = np.concatenate(positions).astype("<f4").tobytes()
        with open(os.path.join(out, doc["positions_file"] + ".tmp"), "wb") as f:
            f.write(data)
        os.replace(os.path.join(out, doc["positions_file"] + ".tmp"), os.path.join(out, doc["positions_file"]))
    else:
        doc["positions"] = [[float("%.8g" % x) for x in p] for p in positions]
    tmp = os.path.join(out, stem + ".golden.json.tmp")
    with open(tmp, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    os.replace(tmp, os.path.join(out, stem + ".golden.json"))


def main():
    argv = sys.argv[sys.argv.index("--") + 1:]
    out, times, models = argv[0], [float(t) for t in argv[1].split(",")], argv[2:]
    os.makedirs(out, exist_ok=True)
    for model in models:
        doc = golden(model, times)
        stem = os.path.splitext(os.path.basename(model))[0]
        write(doc, out, stem)
        print("golden: %s, %d vertices at %d times" % (stem, sum(p["vertices"] for p in doc["parts"]), len(times)))


main()
