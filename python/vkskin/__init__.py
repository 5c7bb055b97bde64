"""vkskin: read skinned characters (glTF, RenderWare DFF, Gamebryo NIF, NintendoWare .cmdl,
Bohemia P3D) and their clips, deform many instances on the CPU or with Vulkan compute, and bake
vertex animation textures, with NumPy arrays in and out. See docs/python.md."""

from ._errors import (Error, FileError, FormatError, InvalidError, LimitError, NoDeviceError, OutOfMemoryError,
                      TruncatedError, UnsupportedError, VulkanError)
from ._vkskin import Clips, Context, Model
from ._api import (Deformed, bake, bake_vat, bench, convert, deform, devices, devices_text, has_gpu, inspect,
                   read, read_clips, read_poses, read_vat, render, validate, version)

__version__ = version()

__all__ = ["Error", "FileError", "FormatError", "InvalidError", "LimitError", "NoDeviceError", "OutOfMemoryError",
           "TruncatedError", "UnsupportedError", "VulkanError", "Clips", "Context", "Model", "Deformed", "bake",
           "bake_vat", "bench", "convert", "deform", "devices", "devices_text", "has_gpu", "inspect", "read",
           "read_clips", "read_poses", "read_vat", "render", "validate", "version"]
