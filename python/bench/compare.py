"""A 1000-instance deform through vkskin (Python) against the same job through the C API
(bench_deform.c), in turns: C, Python, C, Python, ... each a fresh run of the same job, so both
see the same machine. Prints each side's median and the ratio Python / C.

Usage: python compare.py BENCH_DEFORM MODEL ENGINE [INSTANCES] [TURNS] [CLIP]
VKSKIN_BENCH_REUSE=1: both sides write into outputs they keep (C: one buffer set; Python:
deform(out=)), so neither pays the page faults of fresh memory."""

import os
import statistics
import subprocess
import sys
import time

import vkskin


def main():
    bench, model_path, engine = sys.argv[1:4]
    instances = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    turns = int(sys.argv[5]) if len(sys.argv) > 5 else 7
    clip = sys.argv[6] if len(sys.argv) > 6 else None
    model = vkskin.read(model_path)
    clips = vkskin.read_clips(clip) if clip else None
    ctx = vkskin.Context() if engine == "gpu" else None
    target = ctx if ctx else engine
    c_times, py_times = [], []
    reuse = os.environ.get("VKSKIN_BENCH_REUSE") == "1"  # both sides write into kept arrays
    kept = vkskin.deform(model, target, instances=instances, clips=clips)  # warm: pages, threads, pipelines
    for _ in range(turns):
        args = [bench, model_path, engine, str(instances), "1", "4"] + ([clip] if clip else [])
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout.split()
        c_times.append(float(out[-1]))  # the last of four repeats: warm (pages, threads), as the Python side is
        t0 = time.perf_counter()
        vkskin.deform(model, target, instances=instances, clips=clips, out=kept if reuse else None)
        py_times.append(time.perf_counter() - t0)
    c, py = statistics.median(c_times), statistics.median(py_times)
    print(f"{engine}, {instances} instances x {model.vertex_count} vertices{', clip' if clip else ''}: "
          f"C {c * 1e3:.2f} ms, Python {py * 1e3:.2f} ms (medians of {turns} turns), ratio {py / c:.3f}"
          f"{' (outputs kept: out=)' if reuse else ' (fresh outputs)'}")


if __name__ == "__main__":
    main()
