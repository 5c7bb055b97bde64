"""vkskin.render: a contact sheet drawn on the GPU (lavapipe here), checked by decoding its PNG
and against the vkskin program's own picture of the same sheet."""

import struct
import zlib

import numpy as np
import pytest

import vkskin
from conftest import data

BACKGROUND = (0x26, 0x2A, 0x30, 0xFF)  # render.h: the default background


def decode_png(raw: bytes) -> np.ndarray:
    """An 8-bit RGBA PNG's pixels (height, width, 4): chunks read, IDAT inflated, rows unfiltered."""
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, width, height = 8, b"", 0, 0
    while at < len(raw):
        (n,) = struct.unpack(">I", raw[at:at + 4])
        kind, body = raw[at + 4:at + 8], raw[at + 8:at + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 6)
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    rows = zlib.decompress(idat)
    stride = width * 4
    out = np.zeros((height, stride), np.int32)
    prev = np.zeros(stride, np.int32)
    for y in range(height):
        f = rows[y * (stride + 1)]
        line = np.frombuffer(rows, np.uint8, stride, y * (stride + 1) + 1).astype(np.int32)
        cur = np.zeros(stride, np.int32)
        for x in range(stride):
            a = cur[x - 4] if x >= 4 else 0
            b = prev[x]
            c = prev[x - 4] if x >= 4 else 0
            if f == 0:
                p = 0
            elif f == 1:
                p = a
            elif f == 2:
                p = b
            elif f == 3:
                p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            cur[x] = (line[x] + p) & 0xFF
        out[y], prev = cur, cur
    return out.reshape(height, width, 4).astype(np.uint8)


@pytest.fixture(scope="module")
def drawable():
    if not vkskin.devices():
        pytest.skip("no Vulkan device")


def test_render_draws_the_instances(drawable, dff, tmp_path):
    out = tmp_path / "sheet.png"
    res = vkskin.render(dff, out, instances=4, size=(96, 64), validation=True)
    assert (res["width"], res["height"], res["cells"]) == (96, 64, 4)
    assert res["validation_messages"] == 0
    px = decode_png(out.read_bytes())
    assert px.shape == (64, 96, 4)
    drawn = np.any(px != np.array(BACKGROUND, np.uint8), axis=2)
    assert 0.02 < drawn.mean() < 0.9  # characters drawn, and not over the whole image
    # 4 cells in 96 x 64 are a 2 x 2 grid (vks_render_grid): every cell shows its instance
    for cy in range(2):
        for cx in range(2):
            assert drawn[cy * 32:(cy + 1) * 32, cx * 48:(cx + 1) * 48].any()


def test_render_is_the_programs_picture(drawable, cli, dff, nif, tmp_path):
    mine, theirs = tmp_path / "mine.png", tmp_path / "theirs.png"
    vkskin.render([dff, nif], mine, instances=3, seed=7, time=0.25, size=(120, 80))
    cli("render", data("char_b24_pl8.dff"), data("char_b24_pl8.nif"), "--instances", "3", "--seed", "7",
        "--time", "0.25", "--size", "120x80", "--out", str(theirs))
    assert mine.read_bytes() == theirs.read_bytes()
    other = tmp_path / "other.png"
    vkskin.render([dff, nif], other, instances=3, seed=8, time=0.25, size=(120, 80))
    assert other.read_bytes() != theirs.read_bytes()  # the seed poses them


def test_render_refuses_a_bad_size(drawable, dff, tmp_path):
    with pytest.raises(vkskin.LimitError, match="8192"):
        vkskin.render(dff, tmp_path / "x.png", size=(9000, 10))
    assert not (tmp_path / "x.png").exists()
