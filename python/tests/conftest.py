"""Fixtures of vkskin's pytest suite: the bundled characters, the vkskin program (to compare
with its outputs byte for byte), and a GPU context on lavapipe with the validation layer.

VKSKIN_SOURCE_DIR names the repository (default: the folder above python/), VKSKIN_CLI the
vkskin program (tests that compare with it are skipped without it)."""

import os
import subprocess
import threading
import time

import pytest

import vkskin

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("VKSKIN_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
DATASETS = os.path.join(SOURCE, "datasets")
EXAMPLES = os.path.join(SOURCE, "examples")


def data(name: str) -> str:
    return os.path.join(DATASETS, name)


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("VKSKIN_CLI")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("VKSKIN_CLI does not name the vkskin program")

    def run(*args, cwd=None):
        done = subprocess.run([path, *args], capture_output=True, text=True, cwd=cwd)
        assert done.returncode == 0, done.stderr
        return done

    return run


@pytest.fixture(scope="session")
def dff():
    return vkskin.read(data("char_b24_pl8.dff"))


@pytest.fixture(scope="session")
def nif():
    return vkskin.read(data("char_b24_pl8.nif"))


@pytest.fixture(scope="session")
def context():
    """One context for the session, the validation layer on (its messages fail the test that
    made them: see check_validation)."""
    if not vkskin.devices():
        pytest.skip("no Vulkan device")
    ctx = vkskin.Context(validation=True)
    yield ctx
    ctx.close()


@pytest.fixture
def gpu(context):
    before = context.validation_messages
    yield context
    assert context.validation_messages == before, "validation-layer messages"


def longest_pause_while(work):
    """Runs work() on a thread while this one ticks every millisecond: (the longest pause
    between ticks, work's seconds). With the GIL held for all of work the pause is as long as
    the run; released, it stays well under it."""
    done, spent = threading.Event(), []

    def run():
        t0 = time.monotonic()
        work()
        spent.append(time.monotonic() - t0)
        done.set()

    t = threading.Thread(target=run)
    last, longest = time.monotonic(), 0.0
    t.start()
    while not done.is_set():
        time.sleep(0.001)
        now = time.monotonic()
        longest, last = max(longest, now - last), now
    t.join()
    return longest, spent[0]
