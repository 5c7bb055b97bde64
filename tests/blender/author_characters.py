"""Author the project's Blender test characters (issue 38) and export them as glTF.

Run from the repository root (Debian's Blender 3.4 or later):

    blender -b --factory-startup --python tests/blender/author_characters.py -- tests/data/blender

Writes three small characters into the folder given after "--", each built from nothing by
this script (authored by the project, CC0):

  shapekey_body.glb   a skinned body (2 bones) with two shape keys, "belly" and "taper",
                      and one clip ("Animation") that bends the chest and drives both keys:
                      Blender exports the shape-key action as a glTF `weights` channel.
  tube8.glb           a tube skinned to a chain of 8 bones, 5 to 8 influences per vertex,
                      exported with export_all_influences (JOINTS_1/WEIGHTS_1), animated.
  prop_char.glb       a skinned arm with a sword box parented to its "hand" bone and a shield
                      parented to "upper" (bone parenting, no skin), animated.

The shapes are procedural and the animation keyed on whole frames; export samples every
frame (24 fps), so a golden taken at a whole frame is a key of every channel.
"""
import math
import os
import sys

import bpy
from mathutils import Matrix

FPS = 24


def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = FPS
    scene.render.fps_base = 1.0
    scene.frame_start = 0
    scene.frame_end = 24
    return scene


def link(obj):
    bpy.context.scene.collection.objects.link(obj)
    return obj


def armature(name, bones):
    """bones: [(name, head, tail, parent name or None)] in edit mode, Z-up."""
    arm = link(bpy.data.objects.new(name, bpy.data.armatures.new(name)))
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    for bname, head, tail, parent in bones:
        eb = arm.data.edit_bones.new(bname)
        eb.head, eb.tail = head, tail
        if parent:
            eb.parent = arm.data.edit_bones[parent]
            eb.use_connect = tuple(eb.head) == tuple(arm.data.edit_bones[parent].tail)
    bpy.ops.object.mode_set(mode="OBJECT")
    return arm


def tube(name, radius, height, segments, rings, z0=0.0, squash=1.0):
    """A capped-off tube along +Z: rings of `segments` vertices, quads between them."""
    verts, faces = [], []
    for r in range(rings + 1):
        z = z0 + height * r / rings
        for s in range(segments):
            a = 2 * math.pi * s / segments
            verts.append((radius * math.cos(a), radius * squash * math.sin(a), z))
    for r in range(rings):
        for s in range(segments):
            a, b = r * segments + s, r * segments + (s + 1) % segments
            faces.append((a, b, b + segments, a + segments))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    return link(bpy.data.objects.new(name, mesh))


def box(name, size, location):
    sx, sy, sz = size
    verts = [(x * sx, y * sy, z * sz) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    obj = link(bpy.data.objects.new(name, mesh))
    obj.location = location
    return obj


def skin(obj, arm, weights_of):
    """weights_of(vertex co) -> {bone name: weight}; adds the groups and the modifier."""
    for bone in arm.data.bones:
        obj.vertex_groups.new(name=bone.name)
    for v in obj.data.vertices:
        for bname, w in weights_of(v.co).items():
            obj.vertex_groups[bname].add([v.index], w, "REPLACE")
    obj.parent = arm
    obj.modifiers.new("Armature", "ARMATURE").object = arm


def key_rotation(arm, bname, frames_angles, axis):
    pb = arm.pose.bones[bname]
    pb.rotation_mode = "QUATERNION"
    for frame, angle in frames_angles:
        h = 0.5 * angle
        pb.rotation_quaternion = (math.cos(h),) + tuple(math.sin(h) * c for c in axis)
        pb.keyframe_insert("rotation_quaternion", frame=frame)


def export(path, all_influences=False):
    bpy.ops.export_scene.gltf(filepath=path, export_format="GLB", export_yup=True, export_apply=False,
                              export_texcoords=False, export_normals=True, export_materials="NONE",
                              export_colors=False, export_animations=True, export_force_sampling=True,
                              export_nla_strips=False, export_def_bones=False, export_skins=True,
                              export_all_influences=all_influences, export_morph=True,
                              export_morph_normal=True, export_frame_range=True)


def shapekey_body(out):
    reset()
    arm = armature("rig", [("spine", (0, 0, 0), (0, 0, 1), None), ("chest", (0, 0, 1), (0, 0, 2), "spine")])
    body = tube("body", 0.4, 2.0, 12, 8, squash=0.7)
    skin(body, arm, lambda co: {"spine": min(1, max(0, 1.5 - co.z)), "chest": min(1, max(0, co.z - 0.5))}
         if 0.5 < co.z < 1.5 else ({"spine": 1.0} if co.z <= 0.5 else {"chest": 1.0}))
    body.shape_key_add(name="Basis")
    belly = body.shape_key_add(name="belly", from_mix=False)
    taper = body.shape_key_add(name="taper", from_mix=False)
    for i, v in enumerate(body.data.vertices):
        x, y, z = v.co
        bulge = 1 + 0.45 * math.exp(-((z - 0.8) / 0.35) ** 2) * (1 if y < 0 else 0.3)
        belly.data[i].co = (x * bulge, y * bulge, z)
        shrink = 1 - 0.4 * max(0.0, z - 1.0)
        taper.data[i].co = (x * shrink, y * shrink, z + 0.1 * z)
    for frame, b, t in ((0, 0.0, 0.0), (8, 1.0, 0.2), (16, 0.3, 0.9), (24, 0.0, 0.5)):
        belly.value, taper.value = b, t
        belly.keyframe_insert("value", frame=frame)
        taper.keyframe_insert("value", frame=frame)
    key_rotation(arm, "chest", ((0, 0.0), (12, 0.6), (24, -0.3)), (1, 0, 0))
    export(os.path.join(out, "shapekey_body.glb"))


def tube8(out):
    reset()
    bones = [("b%d" % i, (0, 0, i), (0, 0, i + 1), "b%d" % (i - 1) if i else None) for i in range(8)]
    arm = armature("rig", bones)
    body = tube("tube", 0.5, 8.0, 10, 16)

    def weights(co):
        # a wide falloff over all 8 bones, cut to the k largest, k = 5..8 by ring and side
        raw = {"b%d" % i: math.exp(-((co.z - i - 0.5) / 2.5) ** 2) for i in range(8)}
        ring = int(round(co.z * 2))
        k = 5 + (ring + (1 if co.x > 0 else 0)) % 4
        kept = sorted(raw.items(), key=lambda kv: -kv[1])[:k]
        total = sum(w for _, w in kept)
        return {b: w / total for b, w in kept}

    skin(body, arm, weights)
    for i in range(1, 8):
        axis = (1, 0, 0) if i % 2 else (0, 1, 0)
        key_rotation(arm, "b%d" % i, ((0, 0.0), (12, 0.25 + 0.03 * i), (24, -0.2)), axis)
    export(os.path.join(out, "tube8.glb"), all_influences=True)


def prop_char(out):
    reset()
    arm = armature("rig", [("root", (0, 0, 0), (0, 0, 0.6), None), ("upper", (0, 0, 0.6), (0.8, 0, 0.6), "root"),
                           ("lower", (0.8, 0, 0.6), (1.6, 0, 0.6), "upper"),
                           ("hand", (1.6, 0, 0.6), (1.9, 0, 0.6), "lower")])
    body = tube("arm", 0.15, 1.9, 8, 12)
    body.data.transform(Matrix(((0, 0, 1, 0), (0, 1, 0, 0), (-1, 0, 0, 0.6), (0, 0, 0, 1))))   # along +X at z 0.6

    def weights(co):
        x = co.x
        if x < 0.7:
            return {"upper": 1.0}
        if x < 0.9:
            return {"upper": (0.9 - x) / 0.2, "lower": (x - 0.7) / 0.2}
        if x < 1.5:
            return {"lower": 1.0}
        if x < 1.7:
            return {"lower": (1.7 - x) / 0.2, "hand": (x - 1.5) / 0.2}
        return {"hand": 1.0}

    skin(body, arm, weights)
    sword = box("sword", (0.05, 0.6, 0.02), (1.9, 0.5, 0.6))
    shield = box("shield", (0.02, 0.25, 0.3), (0.4, -0.2, 0.6))
    for prop, bone in ((sword, "hand"), (shield, "upper")):
        world = prop.matrix_world.copy()
        prop.parent, prop.parent_type, prop.parent_bone = arm, "BONE", bone
        bpy.context.view_layer.update()
        prop.matrix_world = world  # keep where it stands: Blender derives the parent inverse
    key_rotation(arm, "upper", ((0, 0.0), (12, 0.7), (24, 0.2)), (0, 0, 1))
    key_rotation(arm, "lower", ((0, 0.0), (12, -0.9), (24, 0.4)), (0, 0, 1))
    key_rotation(arm, "hand", ((0, 0.0), (12, 0.5), (24, -0.6)), (0, 1, 0))
    export(os.path.join(out, "prop_char.glb"))


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    out = os.path.abspath(argv[0] if argv else "tests/data/blender")
    os.makedirs(out, exist_ok=True)
    for make in (shapekey_body, tube8, prop_char):
        make(out)


main()
