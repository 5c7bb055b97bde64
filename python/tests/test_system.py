"""Devices, contexts, threads and the GIL, memory and reference counts, VAT bakes, and the
import itself (validate and bake: test_validate_bake.py)."""

import gc
import json
import os
import subprocess
import sys
import threading
import time
import tracemalloc

import numpy as np
import pytest

import vkskin
from conftest import data, longest_pause_while

CLIP = data("char_b24_pl8.nif.walk.kf")


def test_import_prints_nothing():
    done = subprocess.run([sys.executable, "-c", "import vkskin"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""


def test_version_and_build():
    assert vkskin.version() == vkskin.__version__ and vkskin.version().count(".") == 2
    assert isinstance(vkskin.has_gpu(), bool)


def test_devices_list_their_queues():
    for d in vkskin.devices():
        assert d["name"] and d["type"] in ("discrete", "integrated", "virtual", "cpu", "other")
        assert d["queue_families"] and any(q["compute"] for q in d["queue_families"])


def test_devices_are_the_commands(cli):
    """devices() and devices_text() are the library's list: the text and JSON `vkskin devices`
    prints, the default the one marked '*', the one a Context() opens."""
    listed = vkskin.devices()
    if not listed or os.environ.get("VKSKIN_LAUNCH_SHAPE"):
        pytest.skip("no Vulkan device (or a forced launch shape the command would show)")
    assert vkskin.devices_text() == cli("devices").stdout
    assert vkskin.devices_text(json=True) == cli("devices", "--json").stdout
    marked = [d for d in listed if d["default"]]
    assert len(marked) == 1
    assert "* %d: %s (" % (marked[0]["index"], marked[0]["name"]) in vkskin.devices_text()
    assert [d["name"] for d in json.loads(vkskin.devices_text(json=True))] == [d["name"] for d in listed]
    assert marked[0]["launch_shape"]["shape"] and marked[0]["launch_shape"]["source"]
    with vkskin.Context() as ctx:
        assert ctx.device["name"] == marked[0]["name"]


def test_context_reports_its_device(gpu):
    d = gpu.device
    assert d["name"] and d["queue_family"] < len(d["queue_families"])


def test_outputs_are_released(nif):
    """Twenty deforms, their results dropped: NumPy's allocations (tracemalloc sees them) come
    back, and the model's reference count too."""
    base = sys.getrefcount(nif)
    vkskin.deform(nif, "cpu-fast", instances=4)
    gc.collect()
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    for _ in range(20):
        d = vkskin.deform(nif, "cpu-fast", instances=4, frames=2)
        assert d.positions.nbytes == 4 * 2 * nif.vertex_count * 12
        del d
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    assert grown < 64 << 10, grown
    assert sys.getrefcount(nif) == base


def test_failed_deforms_release_their_outputs(nif):
    clips = vkskin.read_clips(CLIP)
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    for _ in range(20):
        with pytest.raises(vkskin.Error):
            vkskin.deform(nif, "cpu", instances=2, crowd=[{"clip": 3}], clips=clips)
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    assert grown < 64 << 10, grown


def test_the_gil_is_released_while_deforming(nif):
    """A long reference deform on a thread while the main thread ticks: with the GIL held for
    the engine's run the main thread would stop for all of it, so the longest pause between
    its ticks stays well under the run's length (judged where the run is long enough)."""
    longest, seconds = longest_pause_while(lambda: vkskin.deform(nif, "cpu", instances=3000, normals=False))
    if seconds < 0.1:
        pytest.skip(f"the run took {seconds:.3f} s: too short to tell")
    assert longest < 0.6 * seconds, f"the main thread stopped {longest:.3f} s of a {seconds:.3f} s run"


def test_two_threads_two_contexts(nif):
    if not vkskin.devices():
        pytest.skip("no Vulkan device")
    clips = vkskin.read_clips(CLIP)
    want = vkskin.deform(nif, "cpu", instances=3, frames=2, clips=clips, stagger=True).positions
    results, errors = {}, []

    def work(k):
        try:
            with vkskin.Context(validation=True) as ctx:
                for _ in range(2):
                    results[k] = vkskin.deform(nif, ctx, instances=3, frames=2, clips=clips, stagger=True).positions
                assert ctx.validation_messages == 0
        except Exception as e:  # reported below, on the test's thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert np.array_equal(results[0], results[1]) and np.abs(results[0] - want).max() < 1e-4


def test_one_context_shared_by_two_threads(nif, gpu):
    out = [None, None]

    def work(k):
        out[k] = vkskin.deform(nif, gpu, instances=2, seed=k + 1).positions

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert np.array_equal(out[0], vkskin.deform(nif, "cpu", instances=2, seed=1).positions) or \
        np.abs(out[0] - vkskin.deform(nif, "cpu", instances=2, seed=1).positions).max() < 1e-4


@pytest.mark.parametrize("engine", ["cpu", "gpu"])
def test_bake_vat_writes_texture_mesh_and_sidecar(nif, tmp_path, engine, request):
    engine = request.getfixturevalue("gpu") if engine == "gpu" else engine
    clips = vkskin.read_clips(CLIP)
    stages = []
    files = vkskin.bake_vat(nif, clips, tmp_path / "vat", frames=8, engine=engine,
                            progress=lambda stage, f: stages.append(stage))
    assert stages == ["deform", "write"]
    for key in ("texture", "mesh", "sidecar"):
        assert os.path.getsize(files[key]) > 0
    side = json.load(open(files["sidecar"]))
    assert side["frame_count"] == 8 if "frame_count" in side else True
    assert not [f for f in os.listdir(tmp_path / "vat") if ".tmp" in f]  # written by rename


def test_bake_vat_refuses_one_frame(nif, tmp_path):
    with pytest.raises(vkskin.InvalidError):
        vkskin.bake_vat(nif, vkskin.read_clips(CLIP), tmp_path, frames=1)
    assert not os.listdir(tmp_path)
