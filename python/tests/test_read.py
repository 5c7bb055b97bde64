"""Reading models and clips: arrays, shapes, zero copy, errors with nothing left behind."""

import gc
import os
import sys

import numpy as np
import pytest

import vkskin
from conftest import DATASETS, data

FORMATS = ["char_b24_pl8.dff", "char_b24_pl8.nif", "char_b24_pl8.cmdl", "char_b24_pl8.p3d"]


@pytest.mark.parametrize("name", FORMATS)
def test_every_format_reads_with_its_arrays(name):
    m = vkskin.read(data(name))
    v, n, t = m.vertex_count, m.node_count, m.triangle_count
    assert m.positions.shape == (v, 3) and m.positions.dtype == np.float32
    assert m.normals is None or m.normals.shape == (v, 3)
    assert all(uv.shape == (v, 2) for uv in m.uvs)
    assert m.triangles.shape == (t, 3) and m.triangles.dtype == np.uint32
    assert m.joints.shape == (v, 8) and m.weights.shape == (v, 8)
    assert np.allclose(m.weights.sum(axis=1), 1, atol=1e-3)
    assert m.parents.shape == (n,) and m.parents[0] == -1 and (m.parents < np.arange(n)).all()
    assert len(m.node_names) == n and m.bind_locals.shape == (n, 4, 3)
    assert m.inverse_binds.shape == (m.bone_count, 4, 3) and (m.bone_nodes < n).all()
    assert m.source_vertex.shape == (v,) and m.groups.shape[1] == 9
    meshes = m.meshes()
    assert len(meshes) == m.mesh_count and sum(me["vertex_count"] for me in meshes) == v
    for me in meshes:  # triangle indices are relative to their mesh's first vertex
        tri = m.triangles[me["first_triangle"]:me["first_triangle"] + me["triangle_count"]]
        assert tri.size == 0 or tri.max() < me["vertex_count"]
    assert isinstance(m.materials(), list)
    order = m.file_order()
    assert len(order) == sum(me["source_vertex_count"] for me in meshes) and (order >= 0).all()
    assert m.format in ("renderware", "nif", "nw4c", "p3d", "gltf") and m.path.endswith(name)


def test_arrays_are_views_that_keep_the_model_alive():
    m = vkskin.read(data("char_b24_pl8.dff"))
    base = sys.getrefcount(m)
    p, w, j = m.positions, m.weights, m.joints
    assert sys.getrefcount(m) == base + 3  # each view holds the model
    assert np.shares_memory(p, m.positions) and not p.flags.writeable
    assert np.shares_memory(w, j) is False  # weights and joints interleave in one struct array
    assert w.strides[0] == j.strides[0] == 48
    first = p.copy()
    del m
    gc.collect()
    assert np.array_equal(p, first)  # the skin outlives its model object while a view lives
    del p, w, j
    gc.collect()


def test_refcounts_come_back_after_every_accessor(dff):
    base = sys.getrefcount(dff)
    for _ in range(3):
        _ = (dff.positions, dff.normals, dff.uvs, dff.triangles, dff.joints, dff.weights, dff.parents,
             dff.bind_locals, dff.inverse_binds, dff.node_names, dff.meshes(), dff.materials(), dff.file_order())
        del _
    assert sys.getrefcount(dff) == base


def test_clips_read_with_names_and_durations(dff, nif):
    c = vkskin.read_clips(data("char_b24_pl8.dff.ifp"))
    assert len(c) >= 1 and c.clips[0]["duration"] > 0 and c.format
    assert c.find(c.clips[-1]["name"]) == len(c) - 1
    with pytest.raises(KeyError):
        c.find("no such clip")
    assert len(vkskin.read_clips(data("char_b24_pl8.nif.walk.kf"))) == 1


def test_pose_json_clip_needs_its_model(dff, tmp_path):
    poses = tmp_path / "p.json"
    poses.write_text('{"frames": [{"nodes": []}, {"nodes": []}]}')
    with pytest.raises(vkskin.InvalidError):
        vkskin.read_clips(str(poses))
    assert len(vkskin.read_clips(poses, dff)) == 1
    assert vkskin.read_poses(dff, poses).shape == (2, dff.node_count, 4, 3)


def test_truncated_model_names_file_and_offset(tmp_path):
    blob = open(data("char_b24_pl8.dff"), "rb").read()
    cut = tmp_path / "cut.dff"
    cut.write_bytes(blob[:len(blob) // 2])
    with pytest.raises(vkskin.FormatError) as e:  # TruncatedError is a FormatError
        vkskin.read(cut)
    assert e.value.file == str(cut) and isinstance(e.value.offset, int) and e.value.message
    assert str(cut) in str(e.value) and isinstance(e.value, ValueError)


def test_garbage_and_missing_files_raise_their_own_classes(tmp_path):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00not a model at all" * 10)
    with pytest.raises(vkskin.FormatError):
        vkskin.read(junk)
    with pytest.raises(vkskin.FileError) as e:
        vkskin.read(tmp_path / "absent.dff")
    assert isinstance(e.value, OSError) and e.value.code == "i/o error"
    with pytest.raises(vkskin.FileError):
        vkskin.read_clips(tmp_path / "absent.anm")
    with pytest.raises(vkskin.FormatError):
        vkskin.read_clips(junk)


def test_failed_reads_leave_nothing_behind(tmp_path):
    """A thousand failing reads: the process does not grow (the library frees its partial
    results; the exceptions hold no C memory)."""
    blob = open(data("char_b24_pl8.nif"), "rb").read()
    cut = tmp_path / "cut.nif"
    cut.write_bytes(blob[:len(blob) * 2 // 3])

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    for _ in range(50):
        with pytest.raises(vkskin.Error):
            vkskin.read(cut)
    before = rss()
    for _ in range(1000):
        with pytest.raises(vkskin.Error):
            vkskin.read(cut)
    assert rss() - before < 4 << 20


def test_datasets_are_where_the_tests_look():
    assert os.path.isdir(DATASETS)
