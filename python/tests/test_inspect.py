"""vkskin.inspect(): the library's inspection, as `vkskin inspect` reports it."""

import vkskin
from conftest import data


def test_model_counts_are_the_manifests():
    # datasets/MANIFEST.md: char_b24_pl8.dff has 24 bones, 1562 vertices in the model, 2904 triangles
    r = vkskin.inspect(data("char_b24_pl8.dff"))
    c = r["counts"]
    assert (c["bones"], c["vertices"], c["triangles"]) == (24, 1562, 2904)
    assert sum(m["vertices"] for m in r["meshes"]) == 1562
    assert r["format"] == "renderware" and r["file"] == data("char_b24_pl8.dff")
    assert r["bind_check"]["status"] == "passed" and len(r["skeleton"]) == c["nodes"]


def test_a_model_read_already_reports_the_same():
    m = vkskin.read(data("char_b24_pl8.nif"))
    assert vkskin.inspect(m) == vkskin.inspect(data("char_b24_pl8.nif"))
    text = vkskin.inspect(m, json=False)
    assert text.startswith(data("char_b24_pl8.nif") + ": nif ") and "bind-pose check: passed" in text


def test_clip_tracks_and_binding():
    # a RenderWare .anm keys every bone of its model: 24 tracks, all of them bound
    clip = data("char_b24_pl8.dff.walk.anm")
    r = vkskin.inspect(clip)
    assert r["format"] == "renderware-anm" and len(r["clips"]) == 1
    assert len(r["clips"][0]["tracks"]) == 24 and "binding" not in r["clips"][0]
    m = vkskin.read(data("char_b24_pl8.dff"))
    b = vkskin.inspect(clip, model=m)["clips"][0]["binding"]
    assert (b["bound_tracks"], b["unmatched_tracks"], b["model"]) == (24, 0, m.path)


def test_text_is_the_programs(cli):
    for args in ([data("char_b24_pl8.cmdl")], [data("char_b24_pl8.nif.walk.kf")]):
        assert vkskin.inspect(args[0], json=False) == cli("inspect", *args).stdout
    kf, nif = data("char_b24_pl8.nif.walk.kf"), data("char_b24_pl8.nif")
    assert vkskin.inspect(kf, model=vkskin.read(nif), json=False) == cli("inspect", "--model", nif, kf).stdout


def test_a_bad_file_names_file_and_offset(tmp_path):
    cut = tmp_path / "cut.dff"
    cut.write_bytes(open(data("char_b24_pl8.dff"), "rb").read()[:300])
    try:
        vkskin.inspect(cut)
    except vkskin.FormatError as e:
        assert e.file == str(cut) and isinstance(e.offset, int) and str(cut) in str(e)
    else:
        raise AssertionError("a cut file was inspected")
