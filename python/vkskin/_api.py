"""vkskin's Python API over the C extension: NumPy in, NumPy out.

Shapes (float32 unless said): a model's positions (vertices, 3); poses (frames, nodes, 4, 3) or
(instances, frames, nodes, 4, 3), each node's local transform as four columns of three floats
(x axis, y axis, z axis, translation: the library's column-major 3x4); deform's outputs
(instances, frames, vertices, 3) in the model's vertex order (Model.file_order() maps them to
the file's order, which the vkskin program's outputs use).
"""

import json
import json as _json  # inspect() has a parameter named json
import os
import time
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np

from . import _vkskin
from ._errors import InvalidError, from_library
from ._vkskin import Clips, Context, Model

__all__ = ["read", "read_clips", "read_poses", "inspect", "deform", "devices", "devices_text", "bake_vat", "read_vat",
           "validate", "bake", "bench", "convert", "render", "Deformed", "version", "has_gpu"]

_CYCLES = {"loop": 0, "clamp": 1, "mirror": 2, "reset": 3}
PathLike = Union[str, "os.PathLike[str]"]


def version() -> str:
    """The C library's version, "0.5.0"."""
    return _vkskin.version()


def has_gpu() -> bool:
    """Whether the library was built with the GPU engine (devices() may still be empty)."""
    return _vkskin.has_gpu()


def read(path: PathLike, *, model_cfg: Optional[str] = None, model_name: Optional[str] = None,
         lod: Optional[str] = None, bones: Optional[str] = None, bone_limit: int = 0,
         uri_root: Optional[str] = None, max_input_mb: int = 2048) -> Model:
    """Reads a skinned model (glTF, RenderWare DFF, NIF, NW4C .cmdl, P3D) and validates it.

    P3D and glTF options are those of ``vkskin inspect`` (--model-cfg, --model-name, --lod,
    --bones, --bone-limit, --uri-root). Raises a vkskin.Error subclass naming the file, the
    byte offset and the structure; nothing is left allocated then.
    """
    return _vkskin.read(os.fspath(path), model_cfg, model_name, lod, bones, bone_limit, uri_root, max_input_mb)


def read_clips(path: PathLike, model: Optional[Model] = None, *, fps: float = 0.0, duration: float = 0.0,
               max_input_mb: int = 2048) -> Clips:
    """Reads a clip file (.anm, .ska, .ifp, .kf, .rtm, .cskla, glTF animations; a pose JSON
    needs ``model``). fps: frames per second of formats that store none (pose JSON, .cskla);
    duration: seconds for formats that store none (RTM)."""
    return _vkskin.read_clips(os.fspath(path), model, fps, duration, max_input_mb)


def read_poses(model: Model, path: PathLike) -> np.ndarray:
    """A pose file's frames (DESIGN.md section 6), (frames, nodes, 4, 3) float32, for deform(poses=)."""
    return _vkskin.read_poses(model, os.fspath(path))


def inspect(path_or_model: Union[PathLike, Model], *, model: Optional[Model] = None, json: bool = True,
            allow_bind_mismatch: bool = False, clips: bool = False, duration: float = 0.0,
            max_input_mb: int = 2048) -> Union[Dict[str, Any], str]:
    """What ``vkskin inspect FILE`` reports, through the library's inspection (vkskin/inspect.h).

    path_or_model: a model or clip file, or a Model read already. model: the model a clip file
    binds to (``--model``; a pose JSON needs it). json: the dict of ``--json``, else the text the
    program prints. A failed bind-pose check is in the report (bind_check.status "FAILED"),
    not raised; a file that cannot be read raises a vkskin.Error subclass naming the file,
    the byte offset and the structure.
    """
    if isinstance(path_or_model, Model):
        path, own = path_or_model.path, path_or_model
    else:
        path, own = os.fspath(path_or_model), None
    text = _vkskin.inspect(path, own, model, json, allow_bind_mismatch, clips, duration, max_input_mb)
    return _json.loads(text) if json else text


def devices() -> List[Dict[str, Any]]:
    """Vulkan devices: index, name, type, ids, limits and queue_families (each a dict with index,
    count, graphics, compute, transfer, timestamp_bits), the families vkskin uses, whether a
    Context() without a device opens it ("default") and the launch shape a context starts with
    there ("launch_shape": shape, source, reason; None without compute). The library's list
    (devices.h), as ``vkskin devices`` shows it. Empty without a loader or a device."""
    return _vkskin.devices()


def devices_text(json: bool = False) -> str:
    """The text ``vkskin devices`` prints (json: ``vkskin devices --json``), written by the
    library: "" (json: "[]") without a loader or a device."""
    return _vkskin.devices_text(json)


class Deformed:
    """deform()'s result.

    positions: (instances, frames, vertices, 3) float32; normals: the same, or None;
    root_motion: (instances, frames, 4) float64, x, y, z and yaw (radians) of the motion a crowd's
    instances take out (in-place playback; zeros for those that take none), or None when none
    does: the reference's numbers whatever the engine, as deform --root-motion writes them.
    times: (frames,) float32, each frame's time in seconds (``time + f / fps`` in float, as the
    engines compute it).
    """

    __slots__ = ("positions", "normals", "root_motion", "times", "model")

    def __init__(self, model: Model, positions: np.ndarray, normals: Optional[np.ndarray],
                 root_motion: Optional[np.ndarray] = None, times: Optional[np.ndarray] = None):
        self.model = model
        self.positions = positions
        self.normals = normals
        self.root_motion = root_motion
        self.times = times

    def __repr__(self) -> str:
        shape = "x".join(str(n) for n in self.positions.shape[:3])
        return f"<vkskin.Deformed {shape} (instances x frames x vertices) of {self.model.path!r}>"

    def raw(self) -> bytes:
        """The bytes ``vkskin deform --format raw`` writes for the same job: float32 x y z nx ny nz
        per file vertex, ordered instance, frame, mesh, vertex (a copy)."""
        order = self.model.file_order()
        p = self.positions[:, :, order, :]
        n = self.normals[:, :, order, :] if self.normals is not None else np.zeros_like(p)
        return np.concatenate([p, n], axis=-1).astype("<f4", copy=False).tobytes()


def _clip_index(clips: Clips, clip: Union[int, str]) -> int:
    if isinstance(clip, str):
        return clips.find(clip)
    if isinstance(clip, bool) or not isinstance(clip, (int, np.integer)):
        raise InvalidError(f"clip must be an index or a name, not {clip!r}", 7)
    if not 0 <= int(clip) < len(clips):
        raise InvalidError(f"clip {clip} is not in {clips.path!r} ({len(clips)} clip(s))", 7, clips.path)
    return int(clip)


def _pose_counts(poses: Optional[np.ndarray], instances: Optional[int], frames: Optional[int]):
    if poses is None:
        return None, 1 if instances is None else instances, 1 if frames is None else frames
    poses = np.ascontiguousarray(poses, dtype=np.float32)
    if poses.ndim == 5 and instances is None:
        instances = poses.shape[0]
    if poses.ndim in (4, 5) and frames is None:
        frames = poses.shape[-4]
    return poses, 1 if instances is None else instances, 1 if frames is None else frames


def _root_columns(root: Any) -> np.ndarray:
    """A root as the library's four columns of three: a (4, 3) array as is, a 4x4 matrix M
    (p' = M @ (p, 1), last row 0 0 0 1) transposed into them."""
    r = np.asarray(root, dtype=np.float64)
    if r.shape == (4, 4):
        return r[:3, :4].T.astype(np.float32)
    if r.shape == (4, 3):
        return r.astype(np.float32)
    raise InvalidError(f"a root is a (4, 4) matrix or (4, 3) columns, not {r.shape}", 7)


def _cycle(value: Optional[str], own: int) -> int:
    if value is None or value == -1:
        return own
    if isinstance(value, (int, np.integer)) and 0 <= value <= 3:
        return int(value)
    if value not in _CYCLES:
        raise InvalidError(f"clip_cycle must be loop, clamp, mirror or reset, not {value!r}", 7)
    return _CYCLES[value]


class _Plays:
    """What each instance plays, as _vkskin.deform takes it."""

    def __init__(self, n: int):
        self.refs: List[Any] = []
        self.sources = np.full(n, -1, dtype=np.int32)
        self.starts = np.zeros(n, dtype=np.float32)
        self.speeds = np.ones(n, dtype=np.float32)
        self.cycles = np.zeros(n, dtype=np.int32)
        self.roots: Optional[np.ndarray] = None
        self.layer_counts: Optional[np.ndarray] = None  # made by the first layered instance

    def ref(self, clips: Clips, index: int) -> int:
        for k, (c, i) in enumerate(self.refs):
            if c is clips and i == index:
                return k
        self.refs.append((clips, index))
        return len(self.refs) - 1

    def set(self, i: int, clips: Optional[Clips], index: int, start: float, speed: float, cycle: Any) -> None:
        if clips is not None:
            self.sources[i] = self.ref(clips, index)
            self.cycles[i] = _cycle(cycle, _CYCLES[clips.clips[index]["cycle"]])
        self.starts[i], self.speeds[i] = start, speed

    def root(self, i: int, root: Any) -> None:
        if root is None:
            return
        if self.roots is None:
            self.roots = np.tile(np.eye(4, 3, dtype=np.float32), (len(self.sources), 1, 1))
        self.roots[i] = _root_columns(root)

    def layered(self, i: int, layers: List[Tuple[Clips, int, float, float, Any, float, int, int, int,
                                                   Optional[Tuple[Clips, int]], float]],
                fade: Tuple[float, float], root_motion: int) -> None:
        """Instance i's layers: (clips, index, start, speed, cycle, weight, mode, fade, mask node
        + 1, reference (clips, index) or None, reference time), pose.h's rule."""
        n = len(self.sources)
        if self.layer_counts is None:
            self.layer_counts = np.zeros(n, dtype=np.uint32)
            self.layer_ints = np.zeros((n, 4, 6), dtype=np.int32)
            self.layer_floats = np.zeros((n, 4, 4), dtype=np.float32)
            self.fades = np.zeros((n, 2), dtype=np.float32)
            self.root_motion = np.zeros(n, dtype=np.int32)
        if not 1 <= len(layers) <= 4:
            raise InvalidError(f"instance {i}: 1 to 4 layers, not {len(layers)}", 7)
        self.layer_counts[i] = len(layers)
        self.fades[i] = fade
        self.root_motion[i] = root_motion
        for k, (clips, index, start, speed, cycle, weight, mode, fading, mask, ref, ref_time) in enumerate(layers):
            own = _CYCLES[clips.clips[index]["cycle"]]
            self.layer_ints[i, k] = (self.ref(clips, index), _cycle(cycle, own), mode, fading, mask,
                                     self.ref(*ref) if ref is not None else -1)
            self.layer_floats[i, k] = (start, speed, weight, ref_time)

    def args(self):
        layers = None
        if self.layer_counts is not None:
            layers = (self.layer_counts, self.layer_ints, self.layer_floats, self.fades, self.root_motion)
        return (self.refs, self.sources, self.starts, self.speeds, self.cycles, self.roots, layers)


def _clip_plays(clips: Clips, index: int, n: int, start: float, speed: float, cycle: Optional[str],
                stagger: bool) -> _Plays:
    """deform --clip: every instance plays the clip; with stagger instance j starts j / n of the
    way through (in double, then float, as the vkskin program computes it)."""
    plays = _Plays(n)
    duration = float(np.float32(clips.clips[index]["duration"]))
    for j in range(n):
        plays.set(j, clips, index, float(np.float32(j * duration / n)) if stagger else start, speed, cycle)
    return plays


def _mask(model: Model, name: Optional[str], at: str) -> int:
    """A layer's mask: 0 for every node, else its node + 1 (exact name, then case-insensitive,
    as the library finds nodes)."""
    if not name:
        return 0
    names = model.node_names
    if name in names:
        return names.index(name) + 1
    lower = [n.lower() for n in names]
    if name.lower() in lower:
        return lower.index(name.lower()) + 1
    raise InvalidError(f"{at}: mask: the model {model.path} has no node {name!r}", 7)


class _ClipFiles:
    """A crowd file's clip sources, each file read once (a pose JSON against the model)."""

    def __init__(self, model: Model, sources: List[Tuple[bytes, str, str]]):
        self.model, self.sources, self.sets = model, sources, {}

    def __call__(self, k: int) -> Tuple[Clips, int]:
        file, name = self.sources[k][0], self.sources[k][1]
        if file not in self.sets:
            self.sets[file] = read_clips(os.fsdecode(file), self.model)
        clips = self.sets[file]
        return clips, clips.find(name) if name else 0


def _crowd_file_plays(model: Model, path: PathLike) -> _Plays:
    """A crowd file's entries of one model: those that name its file or no model, in file order
    (what deform --crowd writes into its output), with their clips, roots, layers, transitions
    and root motion."""
    models, sources, entries = _vkskin.crowd_parse(os.fspath(path))
    mine = [os.path.samefile(os.fsdecode(models[m][0]), model.path) for m in range(len(models))]
    entries = [(i, e) for i, e in enumerate(entries) if e[0] < 0 or mine[e[0]]]
    if not entries:
        raise InvalidError(f"{os.fspath(path)}: no instance plays {model.path!r}", 7, os.fspath(path))
    clip_of = _ClipFiles(model, sources)
    plays = _Plays(len(entries))
    for j, (i, (m, clip, (start, speed, cycle), root, layers, line, root_motion, fade)) in enumerate(entries):
        at = f"{os.fspath(path)}:{line}" if line else f"{os.fspath(path)}: instances[{i}]"
        clips, index = clip_of(clip) if clip >= 0 else (None, 0)
        plays.set(j, clips, index, start, speed, cycle if cycle >= 0 else None)
        if tuple(root) != (1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0):
            plays.root(j, np.asarray(root, dtype=np.float32).reshape(4, 3))
        if layers:
            made = []
            for (c, st, sp, cy, _, w, mode, mask, fading, ref, ref_time) in layers:
                made.append(clip_of(c) + (st, sp, cy if cy >= 0 else None, w, mode, fading, _mask(model, mask, at),
                                          clip_of(ref) if ref >= 0 else None, ref_time))
            plays.layered(j, made, fade, root_motion)
    return plays


_BLENDS = {"normal": 0, "additive": 1}


def _root_motion(value: Any) -> int:
    """A crowd's root_motion: True or "y", "z", False, or {"up": "y" | "z", "yaw": bool}."""
    if value in (None, False):
        return 0
    if value is True or value == "y":
        return 1
    if value == "z":
        return 2
    if isinstance(value, dict):
        return (2 if value.get("up", "y") == "z" else 1) | (4 if value.get("yaw") else 0)
    raise InvalidError(f"root_motion must be true, false, \"y\", \"z\" or {{\"up\", \"yaw\"}}, not {value!r}", 7)


def _data_layers(model: Model, clips: Clips, e: Dict[str, Any], i: int) -> List[Any]:
    """A Python crowd entry's layers and transition, as the crowd JSON writes them."""
    fade_in = e.get("transition", {}).get("to", [])
    left = e.get("layers") or ([{"clip": e["clip"], "start": e.get("start", 0.0), "speed": e.get("speed", 1.0),
                                 "cycle": e.get("cycle")}] if "transition" in e or e.get("root_motion") else [])
    made = []
    for fading, group in ((1 if fade_in else 0, left), (2, fade_in)):
        for y in group:
            ref = y.get("reference")
            made.append((clips, _clip_index(clips, y["clip"]), float(y.get("start", 0.0)), float(y.get("speed", 1.0)),
                         y.get("cycle"), float(y.get("weight", 1.0)), _BLENDS[y.get("blend", "normal")], fading,
                         _mask(model, y.get("mask"), f"crowd[{i}]"),
                         (clips, _clip_index(clips, ref.get("clip", y["clip"]))) if ref else None,
                         float(ref.get("time", 0.0)) if ref else 0.0))
    return made


def _crowd_data_plays(model: Model, crowd: List[Dict[str, Any]], clips: Optional[Clips]) -> _Plays:
    """Python data: one dict per instance, the keys of a crowd JSON's entries with clips named
    by their index or name in clips (None: the bind pose): clip, start, speed, cycle, root,
    layers, transition, root_motion."""
    plays = _Plays(len(crowd))
    for i, e in enumerate(crowd):
        clip = e.get("clip")
        if (clip is not None or e.get("layers")) and clips is None:
            raise InvalidError(f"crowd[{i}] plays a clip: pass clips=", 7)
        index = _clip_index(clips, clip) if clip is not None else 0
        plays.set(i, clips if clip is not None else None, index, float(e.get("start", 0.0)),
                  float(e.get("speed", 1.0)), e.get("cycle"))
        plays.root(i, e.get("root"))
        layers = _data_layers(model, clips, e, i) if clips is not None else []
        if layers:
            t = e.get("transition", {})
            plays.layered(i, layers, (float(t.get("start", 0.0)), float(t.get("duration", 0.0))),
                          _root_motion(e.get("root_motion")))
    return plays


def deform(model: Model, engine: Union[str, Context] = "cpu", *, context: Optional[Context] = None,
           device: Union[int, str, None] = None, instances: Optional[int] = None, frames: Optional[int] = None,
           fps: float = 30.0, time: float = 0.0, seed: int = 1, max_angle: float = 0.0,
           poses: Optional[np.ndarray] = None, clips: Optional[Clips] = None, clip: Union[int, str] = 0,
           clip_start: float = 0.0, clip_speed: float = 1.0, clip_cycle: Optional[str] = None,
           stagger: bool = False, crowd: Union[PathLike, List[Dict[str, Any]], None] = None,
           normals: bool = True, threads: int = 0, out: Optional[Deformed] = None) -> Deformed:
    """Deforms instances x frames poses of a model and returns their vertices.

    engine: "cpu" (the double-precision reference), "cpu-fast" (float, all cores; ``threads``),
    "gpu" (a Vulkan context: ``context``, else one made on ``device`` for this call), or a
    vkskin.Context. Poses, as ``vkskin deform`` makes them:

    - procedural (default): ``seed``, ``max_angle`` (0: 0.6 rad), frame f at ``time + f / fps``;
    - ``poses``: (frames, nodes, 4, 3), the same for every instance (frame f plays pose
      f % frames), or (instances, frames, nodes, 4, 3);
    - ``clips`` (read_clips) playing ``clip`` (index or name) from ``clip_start`` seconds at
      ``clip_speed``, ``clip_cycle`` "loop" | "clamp" | "mirror" | "reset" (None: the clip's
      own); ``stagger``: instance i starts i / instances of the way through;
    - ``crowd``: a crowd file (JSON or CSV, as deform --crowd reads it; its instances that name
      no model, or this model's file) or a list of dicts, one per instance: ``clip`` (index or
      name in ``clips``; None: the bind pose), ``start``, ``speed``, ``cycle``, ``root`` (a 4x4
      matrix or (4, 3) columns: where the instance stands), and as in a crowd JSON ``layers``
      (clip, start, speed, cycle, weight, blend "normal" | "additive", mask a node name,
      reference {clip, time}), ``transition`` {start, duration, to: [layers]} and
      ``root_motion`` (True, "y", "z" or {"up", "yaw"}).

    out: a Deformed of an earlier call of the same shape whose arrays this call writes into
    (no allocation, no page faults: what a loop over frames wants).

    Clip times: frame f at ``time + f / fps`` seconds. Returns a Deformed: positions and normals
    (instances, frames, vertices, 3) float32, and root_motion where a crowd takes it out. The GIL
    is released while the engine runs.
    """
    if isinstance(engine, Context):
        engine, context = "gpu", engine
    if sum(x is not None for x in (poses, clips if crowd is None else None, crowd)) > 1:
        raise InvalidError("poses, clips and crowd exclude each other (a crowd names its clips in clips=)", 7)
    poses, instances, frames = _pose_counts(poses, instances, frames)
    plays = None
    if crowd is not None:
        plays = _crowd_data_plays(model, crowd, clips) if isinstance(crowd, list) else \
            _crowd_file_plays(model, crowd)
        if instances not in (1, len(plays.sources)):
            raise InvalidError("instances is the crowd's row count with crowd=; leave it out", 7)
        instances = len(plays.sources)
    elif clips is not None:
        plays = _clip_plays(clips, _clip_index(clips, clip), instances, clip_start, clip_speed, clip_cycle, stagger)
    own = None
    if engine == "gpu" and context is None:
        own = context = Context(device)
    try:
        pos, nrm, motion = _vkskin.deform(model, engine, context, instances, frames, fps, time, seed, max_angle, poses,
                                  plays.args() if plays else None, normals, threads,
                                  out.positions if out is not None else None,
                                  out.normals if out is not None and normals else None)
    finally:
        if own is not None:
            own.close()
    fps32 = np.float32(fps if fps > 0 else 30.0)
    times = np.float32(time) + np.arange(frames, dtype=np.float32) / fps32
    return Deformed(model, pos, nrm, motion, times)


def bake_vat(model: Model, clips: Clips, out_dir: PathLike, *, clip: Union[int, str] = 0, frames: int = 16,
             engine: Union[str, Context] = "cpu", context: Optional[Context] = None,
             progress: Optional[Callable[[str, float], None]] = None) -> Dict[str, str]:
    """Bakes a vertex animation texture of one clip, as examples/bake_vat.c does.

    The clip is played once from its start to its end over ``frames`` frames (clamped), on the
    engine given (as deform's), and written into out_dir (made if missing): the positions
    texture (vat.pos.f32.exr where the library has OpenEXR, else vat.pos.png, 16 bits), the
    rest mesh (vat.obj, vt = texel) and the sidecar (vat.json). Returns their paths.
    progress(stage, fraction) is called after each stage ("deform", "write").
    """
    if frames < 2:
        raise InvalidError("bake_vat needs frames >= 2", 7)
    index = _clip_index(clips, clip)
    duration = clips.clips[index]["duration"]
    times = (np.arange(frames, dtype=np.float64) * (duration / (frames - 1))).astype(np.float32)
    fps = (frames - 1) / duration
    out = deform(model, engine, context=context, frames=frames, fps=fps, clips=clips, clip=index,
                 clip_cycle="clamp", normals=False)
    if progress:
        progress("deform", 1.0)
    os.makedirs(out_dir, exist_ok=True)
    files = _vkskin.vat_write(model, out.positions[0], os.fspath(out_dir), clips, index, times, model.path,
                              clips.path)
    if progress:
        progress("write", 1.0)
    return {k: os.fsdecode(v) for k, v in files.items()}


def read_vat(path: PathLike) -> np.ndarray:
    """Reads a baked texture back (the library's vat_read.h): an OpenEXR one (``vkskin bake``'s
    vat-exr-float and vat-exr-half, atlases, bake_vat's vat.pos.f32.exr) as float32 of shape
    (height, width, 3 or 4: R, G, B[, A]), a 16-bit PNG (vat-png16) as uint16 codes of shape
    (height, width, 3), rows top to bottom. The sidecar says what the texels mean (layout,
    bounds for the codes). A file cut short or of another kind raises a vkskin.Error naming the
    file and the offset.
    """
    data, height, width, channels, dtype = _vkskin.vat_read(os.fspath(path))
    return np.frombuffer(data, dtype=dtype).reshape(height, width, channels)


def _validate_plays(model: Model, clips: Optional[Clips], crowd: Union[PathLike, List[Dict[str, Any]], None],
                    clip: Union[int, str], clip_start: float, clip_speed: float, clip_cycle: Optional[str],
                    stagger: bool, instances: int) -> Optional[_Plays]:
    """What a model's instances play in validate (as in deform): a crowd's entries of it, or
    every instance the clip; None: procedural poses."""
    if crowd is not None:
        plays = _crowd_data_plays(model, crowd, clips) if isinstance(crowd, list) else _crowd_file_plays(model, crowd)
        if not len(plays.sources):
            raise InvalidError(f"the crowd has no instance of {model.path!r}", 7, model.path)
        return plays
    if clips is not None:
        return _clip_plays(clips, _clip_index(clips, clip), instances, clip_start, clip_speed, clip_cycle, stagger)
    return None


def _validate_inputs(models: List[Union[Model, PathLike]], instances: int, frames: int, seed: int, fps: float,
                     max_angle: float, time: float, plays_of: Callable[[Model], Optional[_Plays]]) \
        -> Tuple[List[Model], List[Tuple[Any, ...]], List[Any]]:
    """Each model (read when given as a path, named in the report as given) with its poses
    (procedural, or what plays_of says it plays: then instances is its play count), as
    validate.h's inputs; the plays are kept alive with the models until the run is over."""
    if instances < 1 or frames < 1:
        raise InvalidError(f"validate needs instances >= 1 and frames >= 1, not {instances} and {frames}", 7)
    read_models = [m if isinstance(m, Model) else read(m) for m in models]
    names = [m.path if isinstance(m, Model) else os.fspath(m) for m in models]
    inputs, kept = [], []
    for m, n in zip(read_models, names):
        plays = plays_of(m)
        args = plays.args() if plays is not None else None
        kept.append(args)
        count = len(plays.sources) if plays is not None else instances
        inputs.append((m, n, count, frames, seed, fps, max_angle, time, args))
    return read_models, inputs, kept


def validate(model: Union[Model, PathLike, List[Union[Model, PathLike]]], engine: Union[str, Context] = "gpu", *,
             context: Optional[Context] = None, device: Union[int, str, None] = None, instances: int = 1,
             frames: int = 1, seed: int = 1, fps: float = 30.0, max_angle: float = 0.0, time: float = 0.0,
             clips: Optional[Clips] = None, clip: Union[int, str] = 0, clip_start: float = 0.0,
             clip_speed: float = 1.0, clip_cycle: Optional[str] = None, stagger: bool = False,
             crowd: Union[PathLike, List[Dict[str, Any]], None] = None,
             tolerance_scale: float = 1.0, nmse: float = 0.0, allow_bind_mismatch: bool = False,
             sample: int = 0, sample_seed: int = 0, threads: int = 0,
             progress: Optional[Callable[[str, float], None]] = None, report: Optional[PathLike] = None,
             junit: Optional[PathLike] = None, text: bool = False) -> Dict[str, Any]:
    """Validates the GPU engine against the CPU reference as ``vkskin validate --json`` does
    (the library's vks_validate_run) and returns that JSON as a dict.

    model: a Model, a path, or a list of them (one report entry each, named by its path).
    engine: "gpu" (a context made on ``device`` for the call, or ``context``) or a
    vkskin.Context. Poses, ``frames`` per instance, frame f at ``time + f / fps``:

    - procedural (default): ``instances`` per model (``seed``, ``max_angle``), as ``vkskin
      validate --instances N --frames F --seed S``;
    - ``clips`` (read_clips) playing ``clip`` with ``clip_start``, ``clip_speed``,
      ``clip_cycle`` and ``stagger`` as in deform(), ``instances`` per model (``--clip``);
    - ``crowd``: a crowd file, or a list of dicts (with ``clips``) as deform() takes them, each
      model validating its own instances (``--crowd``).

    With clips and crowds the GPU samples them itself (the stream) and the reference in double.
    tolerance_scale multiplies the tolerances, nmse bounds every stream's NMSE (0: 1e-9),
    allow_bind_mismatch reports a bind-pose difference without failing, sample / sample_seed
    compare that many instances of each file (``--sample``, 0: all; procedural poses only).

    The verdict is the dict's "pass" and "exit_code" (0 pass, 3 over tolerance, 5 runtime, 6
    bind pose): a failed validation is a result, not an exception; a run that cannot be made
    (no device, a bad model) raises a vkskin.Error. The GIL is released while it runs;
    progress("validate", fraction) is called after each compared chunk.

    The library's writers give what ``vkskin validate`` writes, whatever the verdict:
    ``report`` a folder (made if missing) for the HTML page, three.min.js and each file's heat
    map (``--report DIR``; a context that cannot draw leaves the page saying why), ``junit`` a
    JUnit XML file (``--junit FILE``); ``text=True`` adds the dict's "text", the report as the
    program prints it on stdout.
    """
    if isinstance(engine, Context):
        context = engine
    elif engine != "gpu":
        raise InvalidError(f"validate checks the GPU engine against the reference: engine \"gpu\", not {engine!r}", 7)
    models = model if isinstance(model, list) else [model]
    read_models, inputs, kept = _validate_inputs(
        models, instances, frames, seed, fps, max_angle, time,
        lambda m: _validate_plays(m, clips, crowd, clip, clip_start, clip_speed, clip_cycle, stagger, instances))
    own = Context(device) if context is None else None
    try:
        if report is not None:
            os.makedirs(os.fspath(report), exist_ok=True)
        doc, said = _vkskin.validate(context or own, inputs, tolerance_scale, nmse, allow_bind_mismatch, sample,
                                     sample_seed, threads, progress,
                                     None if report is None else os.fspath(report),
                                     None if junit is None else os.fspath(junit), text)
    finally:
        if own is not None:
            own.close()
    del read_models, kept  # kept alive until the run is over
    result = json.loads(doc)
    if said is not None:
        result["text"] = said
    return result


def bench(model: Union[Model, PathLike], engine: Union[str, Context] = "gpu", *, context: Optional[Context] = None,
          device: Union[int, str, None] = None, instances: int = 100, ref_instances: int = 0, threads: int = 0,
          repeats: int = 5, print_text: bool = False) -> Dict[str, Any]:
    """Measures the engines on one model as ``vkskin bench MODEL --json`` does (the library's
    vks_bench_run) and returns that JSON as a dict: vertex-instances per second of the CPU
    reference, the fast CPU engine on ``threads`` threads (0: every core) and on one core per
    kernel ("cpu_fast_per_core"), and with a GPU its kernels, end to end, launch shape and the
    device's ceilings with each pass's fraction of them ("gpu").

    engine: "gpu" (a context made on ``device`` for the call, its creation timed as the CLI
    times it, or ``context``), a vkskin.Context, or "cpu" for the CPU engines only (``--no-gpu``).
    instances are posed procedurally; the reference runs ref_instances of them (0: enough for
    ~2M vertex-instances); repeats: steady runs of each GPU engine. The GIL is released while it
    runs. A context's queue runs one call at a time: other work on it waits. print_text: also
    print the lines ``vkskin bench`` prints (the library's vks_bench_write_text) on stdout.
    """
    if instances < 1 or repeats < 1 or ref_instances < 0 or threads < 0:
        raise InvalidError(f"bench needs instances >= 1 and repeats >= 1, not {instances} and {repeats}", 7)
    if isinstance(engine, Context):
        context = engine
    elif engine not in ("gpu", "cpu"):
        raise InvalidError(f"bench measures the CPU engines and the GPU: engine \"gpu\" or \"cpu\", not {engine!r}", 7)
    read_model = model if isinstance(model, Model) else read(model)
    own, context_ms = None, 0.0
    if engine == "gpu" and context is None:
        started = time.monotonic()
        own = Context(device)
        context_ms = (time.monotonic() - started) * 1e3
    try:
        ctx = None if engine == "cpu" else (context or own)
        text, lines = _vkskin.bench(read_model, ctx, instances, ref_instances, threads, repeats, context_ms,
                                    print_text)
    finally:
        if own is not None:
            own.close()
    if lines is not None:
        print(lines, end="")
    return json.loads(text)


_BAKE_ENGINES = {"gpu": 0, "cpu": 1, "cpu-fast": 2}


def bake(manifest: Union[PathLike, Dict[str, Any]], *, out: Optional[PathLike] = None, engine: str = "gpu",
         force: bool = False, threads: int = 0, check: bool = True, report: Optional[PathLike] = None,
         progress: Optional[Callable[[str, float], None]] = None) -> Dict[str, Any]:
    """Runs a bake manifest as ``vkskin bake`` does (the library's vks_bake_run): VATs, bone
    atlases, PC2 / raw caches, glTF morph files, each with its sidecar, the same bytes.

    manifest: its path, or the manifest as a dict (docs/bake-jobs.md has the schema; its
    relative paths start in the current folder). out: the output folder (None: the manifest's
    "out", else "bake" beside it). engine: "gpu", "cpu" (``--cpu``) or "cpu-fast"
    (``--cpu-fast``). force redoes outputs that are up to date; threads: writer threads (0: one
    a core).

    Returns the summary: out, engine, seconds, stages, devices (GPU: each one's share),
    validation_messages, table (the text ``vkskin bake`` prints after a run), and jobs, one dict each (where, name, model, status "baked" | "up to
    date" | "failed" | "not run", failure (the library's error code), outputs_written,
    outputs_skipped, bytes, frames, vertices, seconds, read_seconds, deform_seconds, note, files:
    [{path (in out), bytes, kind}]). report: a path for ``vkskin bake --report``'s JSON of the
    run (the library's vks_bake_report_write). A bad manifest raises a vkskin.Error naming the file and
    the entry before anything is written; with check (the default) a job that failed raises too,
    after the other jobs are baked (the error names the job; the summary is its .summary).
    The GIL is released while it runs; progress(job, fraction of the jobs done) is called as it
    goes, ("done", 1.0) last.
    """
    if engine not in _BAKE_ENGINES:
        raise InvalidError(f"engine must be gpu, cpu or cpu-fast, not {engine!r}", 7)
    if isinstance(manifest, dict):
        path, text = os.path.join(os.getcwd(), "<manifest>"), json.dumps(manifest).encode("utf-8")
    else:
        path, text = os.fspath(manifest), None
    out_dir = os.fspath(out) if out is not None else ""
    made = not os.path.exists(out_dir or ".")  # else: the manifest's, known after the run
    report_path = os.fspath(report) if report is not None else None
    summary, first_error = _vkskin.bake(path, text, out_dir, _BAKE_ENGINES[engine], force, threads, progress,
                                        report_path)
    failed = [j for j in summary["jobs"] if j["status"] == "failed"]
    if check and failed:
        if made and out_dir and not os.listdir(out_dir):  # every job failed: leave no empty folder
            os.rmdir(out_dir)
        j = failed[0]
        why = first_error or j["note"] or "failed"
        error = from_library(j["failure"], path, None, j["where"], why, f"{path}: {j['where']} ({j['name']}): {why}", 0)
        error.summary = summary
        raise error
    return summary


def convert(model: Union[Model, PathLike], out: PathLike, *, clips: Optional[List[PathLike]] = None,
            fps: float = 0.0, clip_fps: float = 0.0, clip_duration: float = 0.0,
            max_input_mb: int = 2048) -> Dict[str, Any]:
    """Writes a model and its clip files as glTF 2.0 (.glb, or .gltf with the buffer embedded),
    as ``vkskin convert IN OUT --clip FILE[#name] ...`` does (the library's convert.h).

    model: a Model or a path (read as read() does). clips: clip sources in order, "FILE" for
    every clip of the file or "FILE#name" (or "#index") for one; each is bound to the model and
    refused (a vkskin.Error naming the source) when it drives none of its nodes nor morph
    weights. fps: the rate tracks glTF cannot play as stored are sampled at (0: 30); clip_fps,
    clip_duration: for clip formats that store none (--clip-fps, --clip-duration).

    Returns the writer's report as a dict (meshes, joints, nodes, skins, animations,
    channels_kept, channels_resampled, ..., bytes) with "notes": the notes and warnings the
    vkskin program prints after "vkskin: " (tracks left out, the summary line, textures kept
    by name). The GIL is released while it runs.
    """
    if not isinstance(model, Model):
        model = read(model, max_input_mb=max_input_mb)
    sources = [os.fspath(c) for c in (clips or [])]
    return _vkskin.convert(model, os.fspath(out), sources, float(fps), float(clip_fps), float(clip_duration),
                           int(max_input_mb))


def render(model: Union[Model, PathLike, List[Union[Model, PathLike]]], out_png: PathLike, *, instances: int = 1,
           seed: int = 1, time: float = 0.0, size: Tuple[int, int] = (640, 360), columns: int = 0,
           device: Union[int, str, None] = None, validation: bool = False) -> Dict[str, Any]:
    """Draws ``instances`` procedurally posed instances of each model on the GPU into a PNG
    contact sheet, as ``vkskin render FILE... --instances N --seed S --time T --size WxH
    [--columns C] --out PNG`` does (the library's vks_render_sheet_png): one cell each, lit,
    seen by one camera per model; several models make one row each unless ``columns`` says.

    model: a Model, a path, or a list of them. A context that can draw (a queue family with
    graphics) is made on ``device`` for the call. Returns {"width", "height", "cells",
    "device", "validation_messages"}; raises vkskin.NoDeviceError without a Vulkan device.
    """
    models = model if isinstance(model, list) else [model]
    read_models = [m if isinstance(m, Model) else read(m) for m in models]
    width, height = size
    return _vkskin.render(read_models, os.fspath(out_png), int(instances), int(seed), float(time), int(width),
                          int(height), int(columns), device, bool(validation))
