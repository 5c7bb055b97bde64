"""deform on every engine against the vkskin program's raw output for the same job, byte for
byte, and against each other; its bad arguments."""

import json
import os

import numpy as np
import pytest

import vkskin
from conftest import EXAMPLES, SOURCE, data

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


def root_motion_csv(result, yaw):
    """deform --root-motion's CSV of a Deformed's root_motion (cli_root_motion.c's format)."""
    rows = ["instance,frame,time,x,y,z" + (",yaw" if yaw else "")]
    motion = result.root_motion
    for i in range(motion.shape[0]):
        for f in range(motion.shape[1]):
            m = motion[i, f]
            row = "%u,%u,%.9g,%.9g,%.9g,%.9g" % (i, f, float(result.times[f]), m[0], m[1], m[2])
            rows.append(row + (",%.9g" % m[3] if yaw else ""))
    return "\n".join(rows) + "\n"


def layered_crowd(tmp_path):
    """tests/data/crowd_layers.json (layers, masks, additive layers, transitions, root motion on
    every format) and two more entries: yaw taken out, and an additive layer's reference."""
    crowd = json.load(open(os.path.join(SOURCE, "tests", "data", "crowd_layers.json")))
    walk, wave = data("char_b24_pl8.dff.walk.anm"), data("char_b24_pl8.dff.wave.anm")
    for e in crowd["instances"]:
        e["model"] = os.path.join(SOURCE, "tests", "data", e["model"])
        for y in e.get("layers", []) + e.get("transition", {}).get("to", []) + [e]:
            if "clip" in y:
                y["clip"] = os.path.join(SOURCE, "tests", "data", y["clip"])
    crowd["instances"] += [
        {"model": data("char_b24_pl8.dff"), "clip": walk, "root_motion": {"up": "z", "yaw": True}},
        {"model": data("char_b24_pl8.dff"), "root": {"translation": [1, 2, 3]},
         "layers": [{"clip": walk}, {"clip": wave, "blend": "additive", "weight": 0.5,
                                     "reference": {"clip": walk, "time": 0.3}}]}]
    path = tmp_path / "layers.json"
    path.write_text(json.dumps(crowd))
    return path


@pytest.mark.parametrize("name", ["cpu", "cpu-fast", "gpu"])
def test_layered_crowds_and_root_motion_equal_the_cli(cli, tmp_path, name, request):
    """One run of the program over the crowd's four models, each compared with deform(crowd=)."""
    engine = request.getfixturevalue("gpu") if name == "gpu" else name
    crowd = layered_crowd(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    cli("deform", f"--{name}", "--crowd", str(crowd), "--frames", "4", "--fps", "10", "--time", "0.05", "--out",
        str(out), "--format", "raw", "--quiet")
    for model in ("dff", "nif", "cmdl", "p3d"):
        m = vkskin.read(data(f"char_b24_pl8.{model}"))
        got = vkskin.deform(m, engine, crowd=crowd, frames=4, fps=10, time=0.05)
        assert got.raw() == (out / f"char_b24_pl8.{model}.raw").read_bytes(), model
        want = (out / f"char_b24_pl8.{model}.raw.root_motion.csv").read_text()
        assert got.root_motion.shape == (got.positions.shape[0], 4, 4)
        assert root_motion_csv(got, want.startswith("instance,frame,time,x,y,z,yaw")) == want, model


def test_python_crowd_layers_equal_the_crowd_file(dff, tmp_path):
    """The same layered crowd as Python data (clips by index in one Clips) and as a crowd JSON."""
    walk = data("char_b24_pl8.dff.walk.anm")
    columns = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [2, 0, 0]]
    as_data = [{"clip": 0, "root_motion": {"up": "y", "yaw": True}, "root": columns},
               {"layers": [{"clip": 0, "start": 0.1, "weight": 0.6},
                           {"clip": 0, "blend": "additive", "weight": 0.5, "mask": "spine_02",
                            "reference": {"time": 0.25}}],
                "transition": {"start": 0.05, "duration": 0.3, "to": [{"clip": 0, "start": 0.5}]}}]
    as_file = [{"clip": walk, "root_motion": {"up": "y", "yaw": True},
                "root": {"matrix": [1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 0, 0]}},
               {"layers": [{"clip": walk, "start": 0.1, "weight": 0.6},
                           {"clip": walk, "blend": "additive", "weight": 0.5, "mask": "spine_02",
                            "reference": {"time": 0.25}}],
                "transition": {"start": 0.05, "duration": 0.3, "to": [{"clip": walk, "start": 0.5}]}}]
    path = tmp_path / "crowd.json"
    path.write_text(json.dumps({"instances": as_file}))
    want = vkskin.deform(dff, "cpu", crowd=path, frames=3)
    got = vkskin.deform(dff, "cpu", crowd=as_data, clips=vkskin.read_clips(walk), frames=3)
    assert got.raw() == want.raw() and np.array_equal(got.root_motion, want.root_motion)
    assert np.any(got.root_motion[0, 1:, :3] != 0)


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
