"""vkskin's Python API over the C extension: NumPy in, NumPy out.

Shapes (float32 unless said): a model's positions (vertices, 3); poses (frames, nodes, 4, 3) or
(instances, frames, nodes, 4, 3), each node's local transform as four columns of three floats
(x axis, y axis, z axis, translation: the library's column-major 3x4); deform's outputs
(instances, frames, vertices, 3) in the model's vertex order (Model.file_order() maps them to
the file's order, which the vkskin program's outputs use).
"""

import os
from typing import Any, Callable, Dict, List, Optional, Union

import numpy as np

from . import _vkskin
from ._errors import InvalidError
from ._vkskin import Clips, Context, Model

__all__ = ["read", "read_clips", "read_poses", "deform", "devices", "bake_vat", "validate", "bake", "Deformed",
           "version", "has_gpu"]

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


def devices() -> List[Dict[str, Any]]:
    """Vulkan devices: index, name, type, ids, limits and queue_families (each a dict with index,
    count, graphics, compute, transfer, timestamp_bits), and the families vkskin uses. Empty
    without a loader or a device."""
    return _vkskin.devices()


class Deformed:
    """deform()'s result.

    positions: (instances, frames, vertices, 3) float32; normals: the same, or None;
    root_motion: (instances, frames, 3) float64 or None (crowds that take root motion out).
    """

    __slots__ = ("positions", "normals", "root_motion", "model")

    def __init__(self, model: Model, positions: np.ndarray, normals: Optional[np.ndarray],
                 root_motion: Optional[np.ndarray] = None):
        self.model = model
        self.positions = positions
        self.normals = normals
        self.root_motion = root_motion

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
    if not 0 <= int(clip) < len(clips):
        raise InvalidError(f"clip {clip} is not in {clips.path!r} ({len(clips)} clip(s))", 7, clips.path)
    return int(clip)


def _pose_counts(poses: Optional[np.ndarray], instances: Optional[int], frames: Optional[int]):
    if poses is None:
        return None, instances or 1, frames or 1
    poses = np.ascontiguousarray(poses, dtype=np.float32)
    if poses.ndim == 5:
        instances = instances or poses.shape[0]
    if poses.ndim in (4, 5):
        frames = frames or poses.shape[-4]
    return poses, instances or 1, frames or 1


def deform(model: Model, engine: Union[str, Context] = "cpu", *, context: Optional[Context] = None,
           device: Union[int, str, None] = None, instances: Optional[int] = None, frames: Optional[int] = None,
           fps: float = 30.0, time: float = 0.0, seed: int = 1, max_angle: float = 0.0,
           poses: Optional[np.ndarray] = None, clips: Optional[Clips] = None, clip: Union[int, str] = 0,
           clip_start: float = 0.0, clip_speed: float = 1.0, clip_cycle: Optional[str] = None,
           stagger: bool = False, crowd: Any = None, normals: bool = True, threads: int = 0) -> Deformed:
    """Deforms instances x frames poses of a model and returns their vertices.

    engine: "cpu" (the double-precision reference), "cpu-fast" (float, all cores; ``threads``),
    "gpu" (a Vulkan context: ``context``, else one made on ``device`` for this call), or a
    vkskin.Context. Poses, as ``vkskin deform`` makes them:

    - procedural (default): ``seed``, ``max_angle`` (0: 0.6 rad), frame f at ``time + f / fps``;
    - ``poses``: (frames, nodes, 4, 3), the same for every instance (frame f plays pose
      f % frames), or (instances, frames, nodes, 4, 3);
    - ``clips`` (read_clips) playing ``clip`` (index or name) from ``clip_start`` seconds at
      ``clip_speed``, ``clip_cycle`` "loop" | "clamp" | "mirror" | "reset" (None: the clip's
      own); ``stagger``: instance i starts i / instances of the way through.

    Returns a Deformed: positions and normals (instances, frames, vertices, 3) float32.
    The GIL is released while the engine runs.
    """
    if crowd is not None:
        raise NotImplementedError("deform(crowd=...) is not implemented yet: crowds run through the vkskin "
                                  "program's deform --crowd; see docs/python.md")
    if isinstance(engine, Context):
        engine, context = "gpu", engine
    poses, instances, frames = _pose_counts(poses, instances, frames)
    if sum(x is not None for x in (poses, clips)) > 1:
        raise InvalidError("poses and clips exclude each other", 7)
    cycle = -1 if clip_cycle is None else _CYCLES.get(clip_cycle, -2)
    if cycle == -2:
        raise InvalidError(f"clip_cycle must be loop, clamp, mirror or reset, not {clip_cycle!r}", 7)
    index = _clip_index(clips, clip) if clips is not None else 0
    own = None
    if engine == "gpu" and context is None:
        own = context = Context(device)
    try:
        pos, nrm = _vkskin.deform(model, engine, context, instances, frames, fps, time, seed, max_angle, poses,
                                  clips, index, clip_start, clip_speed, cycle, stagger, normals, threads)
    finally:
        if own is not None:
            own.close()
    return Deformed(model, pos, nrm)


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


def validate(*args: Any, **kwargs: Any) -> Dict[str, Any]:
    """Validates a model as ``vkskin validate --json`` does, returning its JSON as a dict.

    Not implemented yet: validate's engine is moving from the vkskin program into the library
    (its API is not in main); this will call it once it lands.
    """
    raise NotImplementedError("vkskin.validate: validate is moving into the library; until its API lands, "
                              "run `vkskin validate --json` (see docs/python.md)")


def bake(*args: Any, **kwargs: Any) -> Dict[str, Any]:
    """Runs a bake manifest (a path or a dict) as ``vkskin bake`` does, with a progress callback.

    Not implemented yet: bake's manifests, atlases and caches are moving from the vkskin program
    into the library (its API is not in main); this will call it once it lands. bake_vat()
    bakes a VAT through the library today.
    """
    raise NotImplementedError("vkskin.bake: manifest bakes are moving into the library; until its API lands, "
                              "run `vkskin bake MANIFEST` or use vkskin.bake_vat() (see docs/python.md)")
