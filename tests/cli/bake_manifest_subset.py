#!/usr/bin/env python3
"""Some jobs of a bake manifest as a manifest of their own:
    bake_manifest_subset.py MANIFEST OUT INDEX...
writes OUT with the jobs at those indexes (from 0), in that order, and the manifest's other
fields as they are; the model and clip paths, relative to MANIFEST's folder, are made absolute
so that OUT can live anywhere. The tests' sanitizer phase bakes such a subset where the whole
library's size is not what a test checks."""
import json
import os
import sys


def absolute(base, path):
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(base, path))


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: bake_manifest_subset.py MANIFEST OUT INDEX...")
    src, out, picks = sys.argv[1], sys.argv[2], [int(i) for i in sys.argv[3:]]
    base = os.path.dirname(os.path.abspath(src))
    with open(src) as f:
        manifest = json.load(f)
    jobs = []
    for i in picks:
        job = dict(manifest["jobs"][i])
        job["model"] = absolute(base, job["model"])
        job["clips"] = [absolute(base, c) if isinstance(c, str) else dict(c, file=absolute(base, c["file"]))
                        for c in job.get("clips", [])]
        jobs.append(job)
    manifest["jobs"] = jobs
    with open(out + ".tmp", "w") as f:
        json.dump(manifest, f, indent=1)
    os.replace(out + ".tmp", out)


main()
