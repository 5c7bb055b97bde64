"""vkskin.convert: a model and its clip files as glTF, read back with the library's own readers."""

import pytest

import vkskin
from conftest import data


def test_convert_writes_what_reads_back(dff, tmp_path):
    out = tmp_path / "hero.glb"
    walk = vkskin.read_clips(data("char_b24_pl8.dff.walk.anm"))
    ifp = vkskin.read_clips(data("char_b24_pl8.dff.ifp"))
    rep = vkskin.convert(dff, out, clips=[data("char_b24_pl8.dff.walk.anm"), data("char_b24_pl8.dff.ifp")])
    assert rep["animations"] == len(walk) + len(ifp) == 3
    assert rep["bytes"] == out.stat().st_size
    back = vkskin.read(out)
    assert back.positions.shape == dff.positions.shape
    assert back.triangles.shape == dff.triangles.shape
    assert back.joints.shape[0] == dff.joints.shape[0]
    clips = vkskin.read_clips(out)
    assert len(clips) == 3
    # the walk's own keys are kept: the written animation lasts as long as the source clip
    assert clips.clips[0]["duration"] == pytest.approx(walk.clips[0]["duration"], abs=1e-4)
    assert any(" -> " in n and "3 animation(s)" in n for n in rep["notes"])


def test_convert_one_clip_by_name_and_a_path_model(tmp_path):
    ifp = vkskin.read_clips(data("char_b24_pl8.dff.ifp"))
    name = ifp.clips[1]["name"]
    out = tmp_path / "one.gltf"
    rep = vkskin.convert(data("char_b24_pl8.dff"), out, clips=[data("char_b24_pl8.dff.ifp") + "#" + name])
    assert rep["animations"] == 1
    back = vkskin.read_clips(out)
    assert len(back) == 1 and back.clips[0]["name"] == name
    assert out.read_bytes()[:1] == b"{"  # .gltf: JSON, the buffer embedded


def test_convert_refuses_what_the_cli_refuses(dff, tmp_path):
    out = tmp_path / "x.glb"
    with pytest.raises(vkskin.InvalidError, match="no clip named 'nope'"):
        vkskin.convert(dff, out, clips=[data("char_b24_pl8.dff.ifp") + "#nope"])
    with pytest.raises(vkskin.FileError):
        vkskin.convert(dff, out, clips=[str(tmp_path / "missing.anm")])
    with pytest.raises(vkskin.FormatError):
        vkskin.convert(dff, out, clips=[data("MANIFEST.md")])
    assert not out.exists()
