"""vkskin.validate() and vkskin.bake() against the vkskin program: validate's dict is
`vkskin validate --json`'s document for the same job (times aside) and its verdict follows the
tolerances; bake writes the same bytes as `vkskin bake`, with its summary table and its report, refuses a bad
manifest leaving nothing behind, and reports its progress; read_vat reads its textures back."""

import filecmp
import json
import os
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import vkskin
from conftest import EXAMPLES, data, longest_pause_while

DFF = data("char_b24_pl8.dff")
TIMES = {"total_ms", "gpu_pose_ms", "gpu_deform_ms", "gpu_frames_ms"}
JOB = ["--instances", "6", "--frames", "2", "--seed", "5"]


def without_times(report):
    return {k: v for k, v in report.items() if k not in TIMES}


def test_validate_is_the_cli_json(gpu, cli):
    calls = []
    mine = vkskin.validate(DFF, gpu, instances=6, frames=2, seed=5, progress=lambda s, f: calls.append((s, f)))
    theirs = json.loads(cli("validate", DFF, *JOB, "--json", "--quiet").stdout)
    assert without_times(mine) == without_times(theirs)
    assert mine["pass"] is True and mine["exit_code"] == 0
    assert calls and calls[-1] == ("validate", 1.0)


def test_validate_fails_with_tolerances_scaled_to_nothing(gpu):
    loose = vkskin.validate(DFF, gpu, instances=6, frames=2, seed=5)
    tight = vkskin.validate(DFF, gpu, instances=6, frames=2, seed=5, tolerance_scale=1e-9)
    assert tight["pass"] is False and tight["exit_code"] == 3
    # the same numbers, another verdict
    assert [f["positions"]["max_abs"] for f in tight["files"]] == [f["positions"]["max_abs"] for f in loose["files"]]
    assert all(f["positions"]["over"] > 0 for f in tight["files"])


CLIP = DFF + ".walk.anm"


def without_names(report):
    """The report with times and file names aside (the CLI names a crowd's models as its file does)."""
    out = without_times(report)
    out["files"] = [{k: v for k, v in f.items() if k != "file"} for f in out["files"]]
    return out


def test_validate_clips_is_the_cli_json(gpu, cli):
    clips = vkskin.read_clips(CLIP)
    mine = vkskin.validate(DFF, gpu, clips=clips, instances=4, frames=3, fps=10)
    theirs = json.loads(cli("validate", DFF, "--clip", CLIP, "--instances", "4", "--frames", "3", "--fps", "10",
                            "--json", "--quiet").stdout)
    assert without_times(mine) == without_times(theirs)
    assert mine["pass"] is True
    # a clip not applied (the instances procedural, or held at the bind pose) gives other numbers
    procedural = vkskin.validate(DFF, gpu, instances=4, frames=3, fps=10)
    assert mine["files"][0]["positions"] != procedural["files"][0]["positions"]
    still = vkskin.validate(DFF, gpu, crowd=[{"clip": None}] * 4, clips=clips, frames=3, fps=10)
    assert mine["files"][0]["positions"] != still["files"][0]["positions"]


def test_validate_crowd_is_the_cli_json(gpu, cli):
    crowd = os.path.join(EXAMPLES, "crowd.json")
    models = [DFF, data("char_b24_pl8.nif")]
    mine = vkskin.validate(models, gpu, crowd=crowd, frames=5)
    theirs = json.loads(cli("validate", "--crowd", crowd, "--frames", "5", "--json", "--quiet").stdout)
    assert without_names(mine) == without_names(theirs)
    assert [f["instances"] for f in mine["files"]] == [10, 10]  # 2 instances x 5 frames each


def test_validate_refuses_what_it_cannot_run(gpu):
    with pytest.raises(vkskin.InvalidError):
        vkskin.validate(DFF, "cpu")
    with pytest.raises(vkskin.InvalidError):
        vkskin.validate(DFF, gpu, instances=0)
    with pytest.raises(vkskin.FileError):
        vkskin.validate(data("no_such_model.dff"), gpu)


def test_validate_raises_what_progress_raises(gpu):
    def stop(stage, fraction):
        raise KeyboardInterrupt("stop")
    with pytest.raises(KeyboardInterrupt):
        vkskin.validate(DFF, gpu, instances=2, progress=stop)


def untimed(text):
    """The text report with its times (ms, the passes' shares) written T."""
    return re.sub(r"(pose|deform) [0-9.]+|[0-9.]+ ms", "T", text)


def cases(path):
    """A JUnit file's test cases: (suite, class, name, failed), times and properties aside."""
    root = ET.parse(path).getroot()
    return [(s.get("name"), c.get("classname"), c.get("name"), c.find("failure") is not None)
            for s in root.iter("testsuite") for c in s.iter("testcase")]


def test_validate_writes_the_reports_the_cli_writes(gpu, cli, tmp_path):
    mine = vkskin.validate(DFF, gpu, instances=6, frames=2, seed=5, report=tmp_path / "page",
                           junit=tmp_path / "mine.xml", text=True)
    theirs = cli("validate", DFF, *JOB, "--quiet", "--junit", str(tmp_path / "theirs.xml"))
    assert untimed(mine["text"]) == untimed(theirs.stdout)
    assert mine["text"].splitlines()[-1].startswith("PASS: 1 file(s)")
    assert cases(tmp_path / "mine.xml") == cases(tmp_path / "theirs.xml")
    assert len(cases(tmp_path / "mine.xml")) == 3  # positions, normals, bind pose
    page = (tmp_path / "page" / "index.html").read_text()
    assert os.path.basename(DFF) in page and "heatmap" in page
    drawn = (tmp_path / "page" / "heatmap_d0_f0.png").exists()
    assert drawn or "no heat map" in page or "cannot" in page
    assert not drawn or "heatmap_d0_f0.png" in page  # the page shows the map drawn beside it
    assert "text" not in vkskin.validate(DFF, gpu, instances=2)


def test_validate_reports_say_a_failure(gpu, tmp_path):
    tight = vkskin.validate(DFF, gpu, instances=6, frames=2, seed=5, tolerance_scale=1e-9,
                            junit=tmp_path / "v.xml", text=True)
    assert tight["pass"] is False
    failed = [c for c in cases(tmp_path / "v.xml") if c[3]]
    assert [c[2] for c in failed][:2] == ["positions", "normals"]
    assert "FAIL" in tight["text"].splitlines()[-1]
    with pytest.raises(vkskin.Error):  # a JUnit file that cannot be written is an error, not a result
        vkskin.validate(DFF, gpu, instances=2, junit=tmp_path / "no" / "such" / "v.xml")


def same_tree(a, b):
    names = sorted(os.listdir(a))
    assert names == sorted(os.listdir(b))
    for n in names:
        assert filecmp.cmp(os.path.join(a, n), os.path.join(b, n), shallow=False), n
    return names


def test_bake_writes_what_the_cli_writes(tmp_path, cli):
    manifest = os.path.join(EXAMPLES, "bake.json")
    calls = []
    summary = vkskin.bake(manifest, out=tmp_path / "py", engine="cpu", progress=lambda j, f: calls.append((j, f)))
    cli("bake", manifest, "--out", str(tmp_path / "cli"), "--cpu", "--quiet")
    names = same_tree(tmp_path / "py", tmp_path / "cli")
    assert [j["status"] for j in summary["jobs"]] == ["baked", "baked"]
    listed = {f["path"] for j in summary["jobs"] for f in j["files"]}
    assert listed and listed <= set(names)
    assert calls[-1] == ("done", 1.0) and all(0.0 <= f <= 1.0 for _, f in calls)
    again = vkskin.bake(manifest, out=tmp_path / "py", engine="cpu")  # sidecars say up to date
    assert [j["status"] for j in again["jobs"]] == ["up to date", "up to date"]


def test_bake_on_the_gpu_writes_what_the_cli_writes(tmp_path, cli):
    if not vkskin.devices():
        pytest.skip("no Vulkan device")
    job = {"version": 1, "jobs": [{"model": DFF, "clips": [DFF + ".walk.anm"], "fps": 10,
                                   "outputs": ["vat-png16", "raw"]}]}
    summary = vkskin.bake(job, out=tmp_path / "py")
    (tmp_path / "job.json").write_text(json.dumps(job))
    cli("bake", str(tmp_path / "job.json"), "--out", str(tmp_path / "cli"), "--quiet")
    assert same_tree(tmp_path / "py", tmp_path / "cli")
    assert summary["engine"] == "gpu" and summary["devices"] and summary["validation_messages"] == 0


def test_bake_raises_what_progress_raises(tmp_path):
    def stop(job, fraction):
        raise KeyboardInterrupt("stop")
    job = {"version": 1, "jobs": [{"model": DFF, "clips": [DFF + ".walk.anm"], "outputs": ["pc2"]}]}
    with pytest.raises(KeyboardInterrupt):
        vkskin.bake(job, out=tmp_path / "out", engine="cpu", progress=stop)


def test_bake_of_a_dict_writes_what_the_cli_writes(tmp_path, cli):
    job = {"version": 1, "jobs": [{"model": DFF, "clips": [DFF + ".walk.anm"], "fps": 10, "outputs": ["pc2", "raw"]}]}
    summary = vkskin.bake(job, out=tmp_path / "py", engine="cpu-fast")
    (tmp_path / "job.json").write_text(json.dumps(job))
    cli("bake", str(tmp_path / "job.json"), "--out", str(tmp_path / "cli"), "--cpu-fast", "--quiet")
    assert same_tree(tmp_path / "py", tmp_path / "cli")
    assert summary["jobs"][0]["frames"] > 1 and summary["engine"] == "cpu-fast"


REPORT_TIMES = {"seconds", "read_seconds", "deform_seconds", "frames_per_second", "mb_per_second", "stages"}


def without_report_times(o):
    if isinstance(o, dict):
        return {k: without_report_times(v) for k, v in o.items() if k not in REPORT_TIMES}
    if isinstance(o, list):
        return [without_report_times(v) for v in o]
    return o


def table_rows(text):
    """The summary table's rows without their seconds column, and its total line up to its time."""
    lines = text[text.index("entry "):].splitlines()
    return [line.rsplit(None, 1)[0] for line in lines[:-1]] + [lines[-1].split(" in ")[0]]


def test_bake_summary_and_report_are_the_cli_ones(tmp_path, cli):
    manifest = os.path.join(EXAMPLES, "bake.json")
    summary = vkskin.bake(manifest, out=tmp_path / "py", engine="cpu", report=tmp_path / "py.json")
    done = cli("bake", manifest, "--out", str(tmp_path / "cli"), "--cpu", "--quiet", "--report",
               str(tmp_path / "cli.json"))
    mine, theirs = (json.loads((tmp_path / n).read_text()) for n in ("py.json", "cli.json"))
    assert mine["tool"] == "vkskin bake" and [j["state"] for j in mine["jobs"]] == ["baked", "baked"]
    assert without_report_times(mine) == without_report_times(theirs)
    assert table_rows(summary["table"]) == table_rows(done.stderr)
    assert table_rows(summary["table"])[-1] == "bake: 2 baked, 0 up to date, 0 failed; 104 frames, 3.6 MB written"


def test_read_vat_gives_both_encodings_of_one_bake(tmp_path):
    """The half-float and the 16-bit PNG textures of one job, read back, hold the same positions
    (each within its encoding's step); the atlas is RGBA floats; a cut file names its end."""
    vkskin.bake(os.path.join(EXAMPLES, "bake.json"), out=tmp_path, engine="cpu")
    name = "char_b24_pl8.dff"
    half = vkskin.read_vat(tmp_path / f"{name}.vat.pos.f16.exr")
    codes = vkskin.read_vat(tmp_path / f"{name}.vat.pos.png")
    sidecar = json.loads((tmp_path / f"{name}.vat-png16.json").read_text())
    lay = sidecar["layout"]
    assert half.dtype == np.float32 and codes.dtype == np.uint16
    assert half.shape == codes.shape == (lay["height"], lay["width"], 3)
    lo, hi = (np.array(sidecar["bounds"][k], dtype=np.float64) for k in ("min", "max"))
    decoded = lo + codes / 65535.0 * (hi - lo)
    assert np.all(np.abs(decoded - half) <= np.abs(half) * 2.0 ** -10 + (hi - lo) / 65535.0 + 1e-6)
    assert np.ptp(half) > 0.5  # a moving character, not zeros
    atlas = vkskin.read_vat(tmp_path / f"{name}.atlas.exr")
    assert atlas.dtype == np.float32 and atlas.shape[2] == 4
    whole = (tmp_path / f"{name}.vat.pos.png").read_bytes()
    (tmp_path / "cut.png").write_bytes(whole[:len(whole) // 2])
    with pytest.raises(vkskin.TruncatedError) as e:
        vkskin.read_vat(tmp_path / "cut.png")
    assert e.value.file == str(tmp_path / "cut.png") and e.value.offset == len(whole) // 2


@pytest.mark.parametrize("manifest, error, where", [
    ({"version": 1, "jobs": [{"model": DFF, "clips": [], "outputs": ["nope"]}]}, vkskin.FormatError,
     "jobs[0].outputs[0]"),
    ({"version": 1, "jobs": [{"model": data("no_such.dff"), "clips": [DFF + ".walk.anm"], "outputs": ["pc2"]}]},
     vkskin.FormatError, "jobs[0]"),
])
def test_bad_manifest_raises_and_leaves_nothing(tmp_path, manifest, error, where):
    with pytest.raises(error) as e:
        vkskin.bake(manifest, out=tmp_path / "out", engine="cpu")
    assert e.value.path == where and e.value.message and e.value.file
    assert not os.path.exists(tmp_path / "out")


def test_bad_manifest_file_names_its_offset(tmp_path):
    (tmp_path / "bad.json").write_text('{"version": 1, "jobs": [')
    with pytest.raises(vkskin.FormatError) as e:
        vkskin.bake(tmp_path / "bad.json", out=tmp_path / "out", engine="cpu")
    assert e.value.file == str(tmp_path / "bad.json") and e.value.offset is not None
    assert os.listdir(tmp_path) == ["bad.json"]


def test_bake_refuses_an_output_that_is_its_model(tmp_path):
    """The library's bake applies the rule of every output (docs/safety.md), not the program
    alone: a job whose output (out/char.pc2) is its own model is refused before any work, with
    the program's line, and the model is left as it was."""
    model = tmp_path / "char.pc2"
    model.write_bytes(open(DFF, "rb").read())
    job = {"version": 1, "jobs": [{"name": "char", "model": str(model), "clips": [DFF + ".walk.anm"],
                                   "outputs": ["pc2"]}]}
    with pytest.raises(vkskin.InvalidError) as e:
        vkskin.bake(job, out=tmp_path, engine="cpu")
    assert e.value.message == (f"jobs[0]: {tmp_path}/char.pc2: the output is {model} (the model of jobs[0]), one of "
                               "the inputs; refusing to overwrite it")
    assert model.read_bytes() == open(DFF, "rb").read()
    assert os.listdir(tmp_path) == ["char.pc2"]


def test_bake_refuses_an_unknown_engine(tmp_path):
    with pytest.raises(vkskin.InvalidError):
        vkskin.bake({"version": 1, "jobs": []}, out=tmp_path / "out", engine="vulkan")
    assert not os.listdir(tmp_path)


def test_the_gil_is_released_while_validating(gpu):
    """validate on a thread while the main thread ticks (as test_system's deform check): the
    longest pause between ticks stays well under the run's length."""
    longest, seconds = longest_pause_while(lambda: vkskin.validate(DFF, gpu, instances=2000, frames=2, threads=1))
    if seconds < 0.1:
        pytest.skip(f"the run took {seconds:.3f} s: too short to tell")
    assert longest < 0.6 * seconds, f"the main thread stopped {longest:.3f} s of a {seconds:.3f} s run"
