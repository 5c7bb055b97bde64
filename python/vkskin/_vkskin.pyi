"""Type stubs of vkskin's C extension (the classes vkskin exports, and its functions)."""

from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]


class Model:
    """A skinned model read by vkskin.read(); arrays are read-only views into the library's memory
    (each keeps the model alive)."""

    path: str
    format: str
    format_detail: str
    vertex_count: int
    node_count: int
    bone_count: int
    mesh_count: int
    triangle_count: int
    target_count: int
    positions: F32                                  # (vertices, 3)
    normals: Optional[F32]                          # (vertices, 3)
    uvs: Tuple[F32, ...]                            # each (vertices, 2)
    triangles: npt.NDArray[np.uint32]               # (triangles, 3), mesh-relative indices
    triangle_material: Optional[npt.NDArray[np.uint16]]  # (triangles,)
    joints: npt.NDArray[np.uint16]                  # (vertices, 8), palette-local slots
    weights: F32                                    # (vertices, 8)
    source_vertex: npt.NDArray[np.uint32]           # (vertices,)
    parents: npt.NDArray[np.int32]                  # (nodes,)
    bind_locals: F32                                # (nodes, 4, 3)
    bone_nodes: npt.NDArray[np.uint32]              # (bones,)
    inverse_binds: F32                              # (bones, 4, 3)
    palette: npt.NDArray[np.uint16]                 # (palette,)
    groups: npt.NDArray[np.uint32]                  # (groups, 9)
    node_names: List[str]

    def meshes(self) -> List[Dict[str, Any]]: ...
    def materials(self) -> List[Dict[str, Any]]: ...
    def file_order(self) -> npt.NDArray[np.int64]: ...


class Clips:
    """The clips of one clip file, read by vkskin.read_clips()."""

    path: str
    format: str
    clips: List[Dict[str, Any]]

    def __len__(self) -> int: ...
    def find(self, name: str) -> int: ...


class Context:
    """A Vulkan compute context; one deform at a time runs on it."""

    device: Dict[str, Any]
    validation_messages: int
    closed: bool

    def __init__(self, device: Union[int, str, None] = None, validation: bool = False,
                 launch_shape: Optional[str] = None) -> None: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Context": ...
    def __exit__(self, *args: Any) -> bool: ...


def read(path: str, model_cfg: Optional[str], model_name: Optional[str], lod: Optional[str], bones: Optional[str],
         bone_limit: int, uri_root: Optional[str], max_input_mb: int) -> Model: ...
def read_clips(path: str, model: Optional[Model], fps: float, duration: float, max_input_mb: int) -> Clips: ...
def read_poses(model: Model, path: str) -> F32: ...
def inspect(path: str, model: Optional[Model], bind_to: Optional[Model], json: bool, allow_bind_mismatch: bool,
            clips: bool, duration: float, max_input_mb: int) -> str: ...
def crowd_parse(path: str) -> Tuple[List[Tuple[bytes, str, str]], List[Tuple[bytes, str, str]], List[Any]]: ...
def deform(model: Model, engine: str, context: Optional[Context], instances: int, frames: int, fps: float,
           time: float, seed: int, max_angle: float, poses: Optional[F32], plays: Optional[Tuple[Any, ...]],
           normals: bool, threads: int, out_positions: Optional[F32] = None,
           out_normals: Optional[F32] = None) -> Tuple[F32, Optional[F32], Optional[npt.NDArray[np.float64]]]: ...
def devices() -> List[Dict[str, Any]]: ...
def devices_text(json: bool) -> str: ...
def vat_write(model: Model, positions: F32, out_dir: str, clips: Clips, clip: int, times: F32, model_name: str,
              clip_file: str) -> Dict[str, bytes]: ...
def convert(model: Model, out: str, clips: List[str], fps: float, clip_fps: float, clip_duration: float,
            max_input_mb: int) -> Dict[str, Any]: ...
def render(models: List[Model], out: str, instances: int, seed: int, time: float, width: int, height: int,
           columns: int, device: Union[int, str, None], validation: bool) -> Dict[str, Any]: ...
def version() -> str: ...
def has_gpu() -> bool: ...
def cpu_fast_path() -> str: ...
def validate(context: Context, inputs: List[Tuple[Model, str, int, int, int, float, float]], tolerance_scale: float,
             nmse: float, allow_bind_mismatch: bool, sample_count: int, sample_seed: int, threads: int,
             progress: Optional[Callable[[str, float], None]], report: Optional[str], junit: Optional[str],
             text: bool) -> Tuple[str, Optional[str]]: ...
def bench(model: Model, context: Optional[Context], instances: int, ref_instances: int, threads: int, repeats: int,
          context_ms: float, text: bool) -> Tuple[str, Optional[str]]: ...
def bake(path: str, text: Optional[bytes], out_dir: str, engine: int, force: bool, threads: int,
         progress: Optional[Callable[[str, float], None]], report: Optional[str]) -> Tuple[Dict[str, Any], str]: ...
def vat_read(path: str) -> Tuple[bytes, int, int, int, str]: ...
