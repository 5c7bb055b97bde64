"""Builds vkskin's extension against the C library's static archive (libvkskin.a).

The archive comes from CMake: the repository above this folder is configured and built
(library only) in the build folder (VKSKIN_SOURCE_DIR names the repository where this folder is
a copy), or, when VKSKIN_BUILD_DIR names a folder where the
library is already built (the tests reuse the project's build), that one is used as it is.
VKSKIN_CMAKE_ARGS adds arguments to the configure step. Link flags are the archive's own,
from the vkskin.pc CMake writes beside it.
"""

import os
import shlex
import subprocess

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("VKSKIN_SOURCE_DIR") or os.path.dirname(HERE)  # the repository
SOURCES = ["module.c", "model.c", "clips.c", "deform.c", "gpu.c", "vat.c", "crowd.c", "layers.c", "validate.c",
           "bake.c", "bench.c", "plays.c", "convert.c", "render.c", "inspect.c"]


def pc_field(text, key):
    for line in text.splitlines():
        if line.startswith(key + ":"):
            return line.split(":", 1)[1].split()
    return []


def link_flags(pc_path):
    """Libs.private as written, and the flags of the Requires.private packages."""
    with open(pc_path, encoding="utf-8") as f:
        text = f.read()
    flags = pc_field(text, "Libs.private")
    requires = pc_field(text, "Requires.private")
    if requires:
        out = subprocess.run(["pkg-config", "--libs"] + requires, check=True, capture_output=True, text=True)
        flags = out.stdout.split() + flags
    return flags


class CMakeBuildExt(build_ext):
    def library_folder(self):
        given = os.environ.get("VKSKIN_BUILD_DIR")
        if given:
            return os.path.abspath(given)
        build = os.path.join(os.path.abspath(self.build_temp), "vkskin-cmake")
        configure = ["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DVKSKIN_BUILD_TOOLS=OFF",
                     "-DVKSKIN_TESTS=OFF", "-DVKSKIN_INSTALL=ON"]
        configure += shlex.split(os.environ.get("VKSKIN_CMAKE_ARGS", ""))
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", build, "--target", "vkskin_library", "--parallel"], check=True)
        return build

    def run(self):
        folder = self.library_folder()
        archive = os.path.join(folder, "libvkskin.a")
        if not os.path.exists(archive):
            raise RuntimeError(f"{archive}: no static vkskin library there (BUILD_SHARED_LIBS=OFF builds one)")
        flags = link_flags(os.path.join(folder, "vkskin.pc"))
        for ext in self.extensions:
            ext.extra_objects = [archive]
            ext.extra_link_args = flags
            ext.depends = ext.depends + [archive]
        super().run()


setup(
    packages=["vkskin"],
    package_data={"vkskin": ["*.pyi", "py.typed"]},
    ext_modules=[
        Extension("vkskin._vkskin", sources=[os.path.join("ext", s) for s in SOURCES],
                  include_dirs=[os.path.join(ROOT, "include"), numpy.get_include()],
                  depends=[os.path.join("ext", "vkskin_py.h")],
                  extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-Wno-missing-field-initializers",
                                      "-Wno-cast-function-type"]),
    ],
    cmdclass={"build_ext": CMakeBuildExt},
)
