"""vkskin's exceptions: one per library result code (core.h's vks_result), all under Error."""

from typing import Optional


class Error(Exception):
    """A failure the library reported.

    Attributes: ``code`` (the library's result name, ``"format error"``), ``file`` (the file it
    is about, or None), ``offset`` (byte offset in that file, or None), ``path`` (the structure
    path, ``"clump/geometry[2]/skin"``), ``message`` (what was expected and found), ``line``
    (1-based line of a text file such as a model.cfg or a CSV crowd, 0 when unknown).
    ``str(e)`` is the library's own one-line form, ``file:0x1a2c: path: message (code)``.
    """

    def __init__(self, text: str, code: int = 0, file: Optional[str] = None, offset: Optional[int] = None,
                 path: str = "", message: str = "", line: int = 0):
        super().__init__(text)
        self.code = code
        self.file = file
        self.offset = offset
        self.path = path
        self.message = message
        self.line = line


class FormatError(Error, ValueError):
    """The bytes are not what the format allows (VKS_ERR_FORMAT)."""


class TruncatedError(FormatError):
    """The bytes end before a structure does (VKS_ERR_TRUNCATED)."""


class UnsupportedError(FormatError):
    """Valid for the format, outside what vkskin reads (VKS_ERR_UNSUPPORTED)."""


class LimitError(Error, ValueError):
    """A count over a configured limit (VKS_ERR_LIMIT)."""


class OutOfMemoryError(Error, MemoryError):
    """An allocation failed (VKS_ERR_NOMEM)."""


class FileError(Error, OSError):
    """A file could not be read or written (VKS_ERR_IO)."""


class InvalidError(Error, ValueError):
    """A caller contract or a model cross-check failed (VKS_ERR_INVALID)."""


class VulkanError(Error, RuntimeError):
    """The Vulkan driver returned an error (VKS_ERR_VULKAN)."""


class NoDeviceError(VulkanError):
    """No Vulkan device, or a library built without the GPU engine (VKS_ERR_NO_DEVICE)."""


_BY_CODE = {1: TruncatedError, 2: FormatError, 3: UnsupportedError, 4: LimitError, 5: OutOfMemoryError,
            6: FileError, 7: InvalidError, 8: VulkanError, 9: NoDeviceError}
_NAMES = {0: "ok", 1: "truncated", 2: "format error", 3: "unsupported", 4: "over a limit", 5: "out of memory",
          6: "i/o error", 7: "invalid", 8: "vulkan error", 9: "no vulkan device"}


def from_library(code: int, file: Optional[str], offset: Optional[int], path: str, message: str, text: str,
                 line: int) -> Error:
    """The exception for a vks_error (called by the C extension)."""
    cls = _BY_CODE.get(code, Error)
    return cls(text, _NAMES.get(code, str(code)), file, offset, path, message, line)
