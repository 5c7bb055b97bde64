"""docs/python.md's complete example runs as written (from a folder where datasets/ is the
repository's)."""

import os
import re
import subprocess
import sys

import pytest

import vkskin
from conftest import DATASETS, SOURCE


def test_the_documented_example_runs(tmp_path):
    if not vkskin.devices():
        pytest.skip("the example deforms on a Vulkan device")
    text = open(os.path.join(SOURCE, "docs", "python.md"), encoding="utf-8").read()
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    os.symlink(DATASETS, tmp_path / "datasets")
    done = subprocess.run([sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "(100, 8, 1562, 3)" in done.stdout
    assert (tmp_path / "walk_vat" / "vat.json").exists()
