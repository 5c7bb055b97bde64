"""deform on every engine against the vkskin program's raw output for the same job, byte for
byte, and against each other; its bad arguments."""

import json
import os

import numpy as np
import pytest

import vkskin
from conftest import EXAMPLES, data

MODEL = data("char_b24_pl8.nif")
CLIP = data("char_b24_pl8.nif.walk.kf")


def cli_raw(cli, tmp_path, *args, model=MODEL):
    out = tmp_path / "out.raw"
    cli("deform", model, *args, "--out", str(out), "--format", "raw", "--quiet")
    return out.read_bytes()


def engine_of(name, gpu):
    return gpu if name == "gpu" else name


@pytest.mark.parametrize("name", ["cpu", "cpu-fast"])
def test_procedural_equals_the_cli(cli, tmp_path, nif, name):
    want = cli_raw(cli, tmp_path, f"--{name}", "--procedural", "--instances", "3", "--frames", "2", "--seed", "5",
                   "--time", "0.25", "--fps", "24")
    got = vkskin.deform(nif, name, instances=3, frames=2, seed=5, time=0.25, fps=24)
    assert got.positions.shape == (3, 2, nif.vertex_count, 3) and got.normals.shape == got.positions.shape
    assert got.raw() == want


def test_procedural_on_the_gpu_equals_the_cli(cli, tmp_path, nif, gpu):
    want = cli_raw(cli, tmp_path, "--gpu", "--procedural", "--instances", "3", "--frames", "2", "--seed", "5")
    assert vkskin.deform(nif, gpu, instances=3, frames=2, seed=5).raw() == want


@pytest.mark.parametrize("name", ["cpu", "cpu-fast", "gpu"])
def test_clip_with_stagger_equals_the_cli(cli, tmp_path, nif, name, request):
    engine = request.getfixturevalue("gpu") if name == "gpu" else name
    want = cli_raw(cli, tmp_path, f"--{name}", "--clip", CLIP, "--instances", "4", "--stagger", "--frames", "3",
                   "--clip-speed", "1.5", "--clip-cycle", "mirror")
    clips = vkskin.read_clips(CLIP)
    got = vkskin.deform(nif, engine, instances=4, frames=3, clips=clips, stagger=True, clip_speed=1.5,
                        clip_cycle="mirror")
    assert got.raw() == want


@pytest.mark.parametrize("name", ["cpu", "cpu-fast", "gpu"])
@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_crowd_file_equals_the_cli(cli, tmp_path, dff, name, fmt, request):
    """examples/crowd.*: two models; the dff's instances (clips, starts, speeds, roots) go to
    its own output, as deform(crowd=) plays them."""
    engine = request.getfixturevalue("gpu") if name == "gpu" else name
    crowd = os.path.join(EXAMPLES, f"crowd.{fmt}")
    cli("deform", f"--{name}", "--crowd", crowd, "--frames", "3", "--out", str(tmp_path), "--format", "raw",
        "--quiet")
    got = vkskin.deform(dff, engine, crowd=crowd, frames=3)
    assert got.raw() == (tmp_path / "char_b24_pl8.dff.raw").read_bytes()


def test_pose_file_and_pose_arrays_equal_the_cli(cli, tmp_path, nif):
    def column_major_4x4(columns):  # the pose file's matrix: four columns of four
        return [float(x) for c in range(4) for x in list(columns[c]) + [1.0 if c == 3 else 0.0]]

    poses = np.repeat(nif.bind_locals[None], 2, axis=0).copy()
    poses[1, 3, 3] += (0.1, 0.0, 0.05)  # node 3 moved in frame 1
    names = nif.node_names
    frames = []
    for f in range(2):
        frames.append({"nodes": [{"name": names[k], "matrix": column_major_4x4(poses[f, k])}
                                 for k in range(len(names))]})
    pose_file = tmp_path / "poses.json"
    pose_file.write_text(json.dumps({"frames": frames}))
    read = vkskin.read_poses(nif, pose_file)
    assert np.array_equal(read, poses)
    want = cli_raw(cli, tmp_path, "--cpu", "--pose", str(pose_file), "--instances", "2")
    assert vkskin.deform(nif, "cpu", instances=2, poses=read).raw() == want
    per_instance = np.ascontiguousarray(np.broadcast_to(read, (2,) + read.shape))
    assert vkskin.deform(nif, "cpu", poses=per_instance).raw() == want


def test_engines_agree_within_float_noise(nif, gpu):
    clips = vkskin.read_clips(CLIP)
    ref = vkskin.deform(nif, "cpu", instances=5, frames=2, clips=clips, stagger=True)
    for engine in ("cpu-fast", gpu):
        got = vkskin.deform(nif, engine, instances=5, frames=2, clips=clips, stagger=True)
        assert np.abs(got.positions - ref.positions).max() < 1e-4
    assert not np.array_equal(ref.positions[0, 0], ref.positions[1, 0])  # staggered


def test_python_crowd_data_equals_the_clip_playback(nif):
    clips = vkskin.read_clips(CLIP)
    root = np.eye(4)
    root[:3, 3] = (2, 0, -1)
    crowd = [{"clip": 0, "start": 0.25, "speed": 1.0}, {"clip": "walk", "root": root}, {"clip": None}]
    got = vkskin.deform(nif, "cpu", crowd=crowd, clips=clips, frames=2)
    assert got.positions.shape[:2] == (3, 2)
    one = vkskin.deform(nif, "cpu", clips=clips, clip_start=0.25, frames=2)
    assert np.array_equal(got.positions[0], one.positions[0])
    plain = vkskin.deform(nif, "cpu", clips=clips, frames=2)
    assert np.allclose(got.positions[1], plain.positions[0] + (2, 0, -1), atol=1e-5)
    bind = vkskin.deform(nif, "cpu", poses=nif.bind_locals[None].copy())
    assert np.array_equal(got.positions[2, 0], bind.positions[0, 0])


def test_no_normals_and_threads(nif):
    got = vkskin.deform(nif, "cpu-fast", instances=2, normals=False, threads=1)
    assert got.normals is None and got.positions.flags.c_contiguous and got.positions.flags.owndata


@pytest.mark.parametrize("kwargs,error", [
    ({"engine": "tpu"}, vkskin.InvalidError),
    ({"instances": 0}, vkskin.LimitError),
    ({"poses": np.zeros((2, 3, 4, 3), np.float32)}, vkskin.InvalidError),
    ({"poses": np.zeros((3, 1, 4, 4, 3), np.float32), "instances": 2}, vkskin.InvalidError),
    ({"clip_cycle": "sometimes", "clips": "walk"}, vkskin.InvalidError),
    ({"clip": 7, "clips": "walk"}, vkskin.InvalidError),
    ({"crowd": [{"clip": 0}]}, vkskin.InvalidError),
])
def test_bad_arguments_raise(nif, kwargs, error):
    if kwargs.get("clips") == "walk":
        kwargs["clips"] = vkskin.read_clips(CLIP)
    if "poses" in kwargs and kwargs["poses"].ndim == 5:
        kwargs["poses"] = np.zeros((3, 1, nif.node_count, 4, 3), np.float32)
    with pytest.raises(error):
        vkskin.deform(nif, **kwargs)


def test_layered_crowds_are_refused_by_name(nif, tmp_path):
    crowd = tmp_path / "layers.json"
    crowd.write_text('{"instances": [{"layers": [{"clip": "%s"}, {"clip": "%s", "weight": 0.5}]}]}' % (CLIP, CLIP))
    with pytest.raises(NotImplementedError, match="layers"):
        vkskin.deform(nif, crowd=crowd)


def test_a_bad_crowd_file_names_its_line(nif, tmp_path):
    crowd = tmp_path / "bad.csv"
    crowd.write_text("clip,speed\n%s,fast\n" % CLIP)
    with pytest.raises(vkskin.FormatError) as e:
        vkskin.deform(nif, crowd=crowd)
    assert e.value.line == 2 and e.value.file == str(crowd)


def test_gpu_needs_a_context_or_a_device(nif):
    with pytest.raises(vkskin.InvalidError):
        vkskin._vkskin.deform(nif, "gpu", None, 1, 1, 30.0, 0.0, 1, 0.0, None, None, True, 0)
    ctx = vkskin.Context() if vkskin.devices() else None
    if ctx is None:
        with pytest.raises(vkskin.NoDeviceError):
            vkskin.Context()
        return
    ctx.close()
    assert ctx.closed
    with pytest.raises(vkskin.InvalidError):
        vkskin.deform(nif, ctx)


def test_out_writes_into_the_arrays_of_an_earlier_result(nif):
    first = vkskin.deform(nif, "cpu-fast", instances=3, seed=1)
    again = vkskin.deform(nif, "cpu-fast", instances=3, seed=2, out=first)
    assert again.positions is first.positions and again.normals is first.normals
    assert np.array_equal(again.positions, vkskin.deform(nif, "cpu-fast", instances=3, seed=2).positions)
    with pytest.raises(vkskin.InvalidError):
        vkskin.deform(nif, "cpu-fast", instances=4, out=first)
