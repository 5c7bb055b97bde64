"""vkskin.bench() against the vkskin program: its dict is `vkskin bench MODEL --json`'s document
for the same model and sizes, key for key (times differ run to run; the workload does not), on
the CPU engines alone and, where a Vulkan device is, with the GPU's; bad arguments are refused."""

import json
import re

import pytest

import vkskin
from conftest import data

DFF = data("char_b24_pl8.dff")
JOB = ["--instances", "8", "--repeats", "2"]


def keys(o, at=""):
    out = []
    if isinstance(o, dict):
        for k, v in o.items():
            out += [at + "/" + k] + keys(v, at + "/" + k)
    return out


WORKLOAD = ("device", "device_type", "vertices", "bones", "groups", "instances", "reference_instances", "cpu_threads",
            "cpu_fast_kernel")


def test_bench_cpu_is_the_cli_json(cli):
    mine = vkskin.bench(DFF, "cpu", instances=8, repeats=2)
    theirs = json.loads(cli("bench", DFF, *JOB, "--no-gpu", "--json").stdout)
    assert keys(mine) == keys(theirs)
    assert {k: mine[k] for k in WORKLOAD} == {k: theirs[k] for k in WORKLOAD}
    assert mine["device"] == "none" and "gpu" not in mine
    rates = mine["vertex_instances_per_second"]
    assert rates["cpu_reference"] > 0 and rates["cpu_fast"] > 0 and rates["gpu_kernel"] == 0
    assert mine["cpu_fast_per_core"]["baseline"] > 0
    assert set(mine["cpu_fast_per_core"]) <= {"baseline", "avx2", "avx512"}


def test_bench_prints_the_cli_text(cli, capsys):
    """print_text: the lines `vkskin bench` prints, written by the library, the figures aside."""
    vkskin.bench(DFF, "cpu", instances=8, repeats=2, print_text=True)
    mine = capsys.readouterr().out
    theirs = cli("bench", DFF, *JOB, "--no-gpu").stdout
    words = lambda t: [re.sub(r" +", " ", re.sub(r"[0-9]+(\.[0-9]+)?", "", line)) for line in t.splitlines()]
    assert mine.startswith("workload: ") and words(mine) == words(theirs)
    vkskin.bench(DFF, "cpu", instances=8, repeats=2)
    assert capsys.readouterr().out == ""


def test_bench_sizes_and_threads():
    model = vkskin.read(DFF)
    report = vkskin.bench(model, "cpu", instances=5, ref_instances=2, threads=1)
    assert report["instances"] == 5 and report["reference_instances"] == 2 and report["cpu_threads"] == 1
    assert report["vertices"] == len(model.positions)


def test_bench_gpu_is_the_cli_json(gpu, cli):
    mine = vkskin.bench(DFF, gpu, instances=8, repeats=2)
    theirs = json.loads(cli("bench", DFF, *JOB, "--json").stdout)
    assert keys(mine) == keys(theirs)
    assert {k: mine[k] for k in WORKLOAD} == {k: theirs[k] for k in WORKLOAD}
    g = mine["gpu"]
    assert g["repeats"] == 2 and g["launch_shape"]["shape"] == theirs["gpu"]["launch_shape"]["shape"]
    assert mine["vertex_instances_per_second"]["gpu_kernel"] > 0 and g["end_to_end"]["steady_ms"] > 0
    assert g["kernel_over_plain"]["median"] > 0


@pytest.mark.parametrize("kwargs", [{"instances": 0}, {"repeats": 0}, {"threads": -1}])
def test_bench_refuses_bad_sizes(kwargs):
    with pytest.raises(vkskin.InvalidError):
        vkskin.bench(DFF, "cpu", **kwargs)


def test_bench_refuses_an_unknown_engine():
    with pytest.raises(vkskin.InvalidError):
        vkskin.bench(DFF, "cpu-fast")


def test_bench_own_context_times_its_creation(context):
    report = vkskin.bench(DFF, "gpu", instances=4, repeats=1)
    assert report["gpu"]["context_ms"] > 0 and report["device"] == context.device["name"]
